/*
** gltf-accessor.c - tests of a glTF accessor's bytes (src/gltf_accessor.c):
** every expected value worked out by hand from the glTF 2.0 spec
** (3.6.2 accessors, their byteStride; 3.6.2.3 sparse; 3.11's normalized
** integers: max(c / 127.0, -1.0), c / 255.0, max(c / 32767.0, -1.0),
** c / 65535.0), on little-endian bytes written out below.
*/
#include "gltf_accessor.h"
#include "tap.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static double got[16];
static rsx_error err;

static int decode(const unsigned char *b, size_t len, long ctype, int norm)
{
  memset(got, 0, sizeof got);
  err.text[0] = '\0';
  return rsx_gltf_decode(b, len, ctype, norm, got, &err);
}

static void test_sizes(void)
{
  is_int((long long)rsx_gltf_component_size(5120), 1, "BYTE: 1 byte");
  is_int((long long)rsx_gltf_component_size(5121), 1, "UNSIGNED_BYTE");
  is_int((long long)rsx_gltf_component_size(5122), 2, "SHORT");
  is_int((long long)rsx_gltf_component_size(5123), 2, "UNSIGNED_SHORT");
  is_int((long long)rsx_gltf_component_size(5124), 0,
         "5124 (an INT) is not glTF's");
  is_int((long long)rsx_gltf_component_size(5125), 4, "UNSIGNED_INT");
  is_int((long long)rsx_gltf_component_size(5126), 4, "FLOAT");
}

static void test_normalized(void)
{
  /* signed byte: 127 -> 1, -128 -> max(-128/127, -1) = -1, -127 -> -1,
  ** 0 -> 0 */
  static const unsigned char sb[] = {0x7F, 0x80, 0x81, 0x00, 0x40};
  static const unsigned char ub[] = {0xFF, 0x00, 0x33};
  static const unsigned char ss[] = {0xFF, 0x7F, 0x00, 0x80, 0x01, 0x80};
  static const unsigned char us[] = {0xFF, 0xFF, 0x00, 0x00, 0x00, 0x80};

  ok(decode(sb, 5, RSX_GLTF_BYTE, 1) == 0, "normalized BYTE read");
  ok(got[0] == 1.0, "BYTE 127 -> 1.0");
  ok(got[1] == -1.0, "BYTE -128 -> -1.0 (clamped from -1.0079)");
  ok(got[2] == -1.0, "BYTE -127 -> -1.0");
  ok(got[3] == 0.0, "BYTE 0 -> 0.0");
  ok(got[4] == 64.0 / 127.0, "BYTE 64 -> 64/127");
  ok(decode(ub, 3, RSX_GLTF_UNSIGNED_BYTE, 1) == 0 && got[0] == 1.0 &&
       got[1] == 0.0 && got[2] == 0.2,
     "UNSIGNED_BYTE 255, 0, 51 -> 1.0, 0.0, 0.2");
  ok(decode(ss, 6, RSX_GLTF_SHORT, 1) == 0 && got[0] == 1.0 &&
       got[1] == -1.0 && got[2] == -1.0,
     "SHORT 32767, -32768, -32767 -> 1.0, -1.0, -1.0");
  ok(decode(us, 6, RSX_GLTF_UNSIGNED_SHORT, 1) == 0 && got[0] == 1.0 &&
       got[1] == 0.0 && got[2] == 32768.0 / 65535.0,
     "UNSIGNED_SHORT 65535, 0, 32768 -> 1.0, 0.0, 32768/65535");
}

static void test_plain(void)
{
  static const unsigned char sb[] = {0xFE, 0x7F};
  static const unsigned char ss[] = {0x00, 0x80, 0x34, 0x12};
  static const unsigned char ui[] = {0x01, 0x00, 0x00, 0x80,
                                     0xFF, 0xFF, 0xFF, 0xFF};
  /* 1.0f is 0x3F800000, -2.5f 0xC0200000, 0.1f 0x3DCCCCCD */
  static const unsigned char fl[] = {0x00, 0x00, 0x80, 0x3F,
                                     0x00, 0x00, 0x20, 0xC0,
                                     0xCD, 0xCC, 0xCC, 0x3D};

  ok(decode(sb, 2, RSX_GLTF_BYTE, 0) == 0 && got[0] == -2.0 &&
       got[1] == 127.0, "BYTE 0xFE, 0x7F -> -2, 127");
  ok(decode(ss, 4, RSX_GLTF_SHORT, 0) == 0 && got[0] == -32768.0 &&
       got[1] == 4660.0, "SHORT 00 80, 34 12 -> -32768, 0x1234");
  ok(decode(ui, 8, RSX_GLTF_UNSIGNED_INT, 0) == 0 &&
       got[0] == 2147483649.0 && got[1] == 4294967295.0,
     "UNSIGNED_INT little-endian -> 0x80000001, 0xFFFFFFFF");
  ok(decode(ui, 8, RSX_GLTF_UNSIGNED_INT, 1) == 0 &&
       got[1] == 4294967295.0,
     "UNSIGNED_INT said normalized is read as it is");
  ok(decode(fl, 12, RSX_GLTF_FLOAT, 0) == 0 && got[0] == 1.0 &&
       got[1] == -2.5 && got[2] == (double)0.1f,
     "FLOAT 1.0, -2.5, 0.1f");
  ok(decode(fl, 4, RSX_GLTF_FLOAT, 1) == 0 && got[0] == 1.0,
     "FLOAT said normalized is read as it is");
  ok(decode(fl, 0, RSX_GLTF_FLOAT, 0) == 0, "no bytes, no numbers");
  ok(decode(ss, 3, RSX_GLTF_SHORT, 0) == -1, "3 bytes of SHORT refused");
  is_str(err.text, "3 bytes are not a whole number of components of 2"
         " bytes", "  and said");
  ok(decode(ss, 4, 5124, 0) == -1, "componentType 5124 refused");
  is_str(err.text, "componentType 5124 is not a glTF one", "  and said");
}

/* Two VEC2 floats in a view of byteStride 12 (4 bytes of padding after
** each), the first at byteOffset 4: 1.0, 2.0 and 3.0, 4.0. */
static const unsigned char strided[] = {
  0xEE, 0xEE, 0xEE, 0xEE,
  0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x40, 0xEE, 0xEE, 0xEE, 0xEE,
  0x00, 0x00, 0x40, 0x40, 0x00, 0x00, 0x80, 0x40};

static void test_gather(void)
{
  static const unsigned char tight[] = {
    0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x40,
    0x00, 0x00, 0x40, 0x40, 0x00, 0x00, 0x80, 0x40};
  unsigned char out[32];

  memset(out, 0xA5, sizeof out);
  ok(rsx_gltf_gather(strided, sizeof strided, 4, 12, 8, 2, NULL, out,
                     &err) == 0, "VEC2 floats of byteStride 12 gathered");
  cmp_mem(out, tight, 16, "  the padding left out");
  ok(out[16] == 0xA5, "  nothing written past the 2 elements");
  ok(decode(out, 16, RSX_GLTF_FLOAT, 0) == 0 && got[0] == 1.0 &&
       got[1] == 2.0 && got[2] == 3.0 && got[3] == 4.0,
     "  read as 1, 2, 3, 4");
  ok(rsx_gltf_fits(sizeof strided, 4, 12, 8, 2, &err) == 0,
     "the last element needs no padding after it (4 + 12 + 8 = 24)");
  ok(rsx_gltf_fits(sizeof strided - 1, 4, 12, 8, 2, &err) == -1,
     "one byte fewer: refused");
  is_str(err.text, "count 2: elements of 8 bytes, byteStride 12, from"
         " byteOffset 4 run past the end of its 23 bytes", "  and said");
  ok(rsx_gltf_gather(strided, sizeof strided, 4, 12, 8, 3, NULL, out,
                     &err) == -1, "a third element outside: refused");
  ok(rsx_gltf_fits(sizeof strided, 0, 4, 8, 1, &err) == -1,
     "a stride less than the element refused");
  is_str(err.text, "byteStride 4 is less than the element's 8 bytes",
         "  and said");
  ok(rsx_gltf_fits(sizeof strided, 25, 8, 8, 1, &err) == -1,
     "an offset past the end refused");
  ok(rsx_gltf_fits(sizeof strided, 0, 4, 4, (size_t)1 << 62, &err) == -1,
     "a count of 2^62 refused, no product wrapped");
  ok(rsx_gltf_fits(sizeof strided, 0, (size_t)1 << 62, 4, 2, &err) == -1,
     "a byteStride of 2^62 refused");
  ok(rsx_gltf_fits(SIZE_MAX, SIZE_MAX - 2, 4, 4, 1, &err) == -1,
     "an offset 2 bytes from SIZE_MAX refused, no sum wrapped");
  ok(rsx_gltf_fits(0, 0, 4, 4, 0, &err) == 0, "no element fits anywhere");
}

/* SCALAR UNSIGNED_SHORT 10, 20, 30, 40; sparse: indices 1 and 3 get 99
** and 77. */
static void test_sparse(void)
{
  static const unsigned char base[] = {10, 0, 20, 0, 30, 0, 40, 0};
  static const unsigned char idx8[] = {1, 3};
  static const unsigned char idx32[] = {1, 0, 0, 0, 3, 0, 0, 0};
  static const unsigned char down[] = {3, 1};
  static const unsigned char high[] = {0, 4};
  static const unsigned char vals[] = {99, 0, 77, 0};
  static const unsigned char want[] = {10, 0, 99, 0, 30, 0, 77, 0};
  rsx_gltf_sparse sp;
  unsigned char out[8];

  sp.count = 2;
  sp.index_ctype = RSX_GLTF_UNSIGNED_BYTE;
  sp.indices = idx8;
  sp.indices_len = sizeof idx8;
  sp.values = vals;
  sp.values_len = sizeof vals;
  ok(rsx_gltf_gather(base, 8, 0, 2, 2, 4, &sp, out, &err) == 0,
     "sparse UNSIGNED_BYTE indices 1, 3 applied");
  cmp_mem(out, want, 8, "  10, 99, 30, 77");
  ok(decode(out, 8, RSX_GLTF_UNSIGNED_SHORT, 0) == 0 && got[1] == 99.0 &&
       got[3] == 77.0 && got[2] == 30.0, "  read as 10, 99, 30, 77");

  sp.index_ctype = RSX_GLTF_UNSIGNED_INT;
  sp.indices = idx32;
  sp.indices_len = sizeof idx32;
  ok(rsx_gltf_gather(base, 8, 0, 2, 2, 4, &sp, out, &err) == 0 &&
       memcmp(out, want, 8) == 0, "the same with UNSIGNED_INT indices");
  sp.indices_len = 7;
  ok(rsx_gltf_gather(base, 8, 0, 2, 2, 4, &sp, out, &err) == -1,
     "indices one byte short refused");
  is_str(err.text, "sparse indices run past their buffer view",
         "  and said");

  sp.index_ctype = RSX_GLTF_UNSIGNED_BYTE;
  sp.indices = down;
  sp.indices_len = 2;
  ok(rsx_gltf_gather(base, 8, 0, 2, 2, 4, &sp, out, &err) == -1,
     "decreasing indices refused");
  is_str(err.text, "sparse index 1 is 1: indices must increase and stay"
         " below the count 4", "  and said");
  sp.indices = high;
  ok(rsx_gltf_gather(base, 8, 0, 2, 2, 4, &sp, out, &err) == -1,
     "an index equal to the count refused");
  is_str(err.text, "sparse index 1 is 4: indices must increase and stay"
         " below the count 4", "  and said");
  sp.indices = idx8;
  sp.values_len = 3;
  ok(rsx_gltf_gather(base, 8, 0, 2, 2, 4, &sp, out, &err) == -1,
     "values one byte short refused");
  is_str(err.text, "sparse values run past their buffer view", "  and said");
  sp.values_len = 4;
  sp.index_ctype = RSX_GLTF_SHORT;
  ok(rsx_gltf_gather(base, 8, 0, 2, 2, 4, &sp, out, &err) == -1,
     "SHORT indices refused");
  is_str(err.text, "sparse indices of componentType 5122", "  and said");
  sp.index_ctype = RSX_GLTF_UNSIGNED_BYTE;
  sp.count = 5;
  ok(rsx_gltf_gather(base, 8, 0, 2, 2, 4, &sp, out, &err) == -1,
     "more sparse values than elements refused");
}

/* Node matrices (column-major, glTF 2.0 3.5.3), worked by hand: a
** translation by (1, 2, 3), a scale of 2 in x, a quarter turn about z
** (x goes to y, y to -x). */
static void test_transform(void)
{
  static const double move[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                                  1, 2, 3, 1};
  static const double scale_x[16] = {2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                                     0, 0, 0, 1};
  static const double turn_z[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0,
                                    5, 0, 0, 1};
  static const double zero[16] = {0};
  double v[6] = {1, 1, 1, 0, 0, 0}, out[6];

  rsx_gltf_transform(move, RSX_GLTF_POSITION, v, out, 2);
  ok(out[0] == 2 && out[1] == 3 && out[2] == 4 && out[3] == 1 &&
       out[4] == 2 && out[5] == 3, "a position moved by (1, 2, 3)");
  rsx_gltf_transform(move, RSX_GLTF_VECTOR, v, out, 1);
  ok(out[0] == 1 && out[1] == 1 && out[2] == 1, "a vector is not moved");
  rsx_gltf_transform(scale_x, RSX_GLTF_POSITION, v, out, 1);
  ok(out[0] == 2 && out[1] == 1 && out[2] == 1, "a position scaled x2 in x");
  /* the normal (1, 1, 0) of the plane x = y takes the inverse transpose,
  ** (0.5, 1, 0), then unit length: (0.5, 1, 0) / sqrt(1.25) */
  v[0] = 1, v[1] = 1, v[2] = 0;
  rsx_gltf_transform(scale_x, RSX_GLTF_NORMAL, v, out, 1);
  ok(out[0] == 0.5 / sqrt(1.25) && out[1] == 1 / sqrt(1.25) && out[2] == 0,
     "a normal scaled x2 in x: (0.5, 1, 0) made unit");
  v[0] = 1, v[1] = 0, v[2] = 0;
  rsx_gltf_transform(turn_z, RSX_GLTF_POSITION, v, out, 1);
  ok(out[0] == 5 && out[1] == 1 && out[2] == 0,
     "(1, 0, 0) turned a quarter about z and moved 5 in x: (5, 1, 0)");
  rsx_gltf_transform(turn_z, RSX_GLTF_NORMAL, v, v, 1);
  ok(v[0] == 0 && v[1] == 1 && v[2] == 0,
     "a normal (1, 0, 0) turned: (0, 1, 0), in place");
  v[0] = 0, v[1] = 0, v[2] = 0;
  rsx_gltf_transform(turn_z, RSX_GLTF_NORMAL, v, out, 1);
  ok(out[0] == 0 && out[1] == 0 && out[2] == 0, "a zero normal stays zero");
  v[0] = 3, v[1] = 4, v[2] = 0;
  rsx_gltf_transform(zero, RSX_GLTF_NORMAL, v, out, 1);
  ok(out[0] == 0 && out[1] == 0 && out[2] == 0,
     "a singular matrix: no division by its determinant 0");
}

int main(void)
{
  test_sizes();
  test_normalized();
  test_plain();
  test_gather();
  test_sparse();
  test_transform();
  return done_testing();
}
