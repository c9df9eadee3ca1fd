/* t/encode.c - the encoders: rounding, clamping, and round trips */
#include "rsxmesh.h"
#include "tap.h"

#include <float.h>
#include <math.h>
#include <string.h>

static void test_half_corners(void)
{
  is_int(rsx_half_from_float(1.0f), 0x3C00, "1 -> 3C00");
  is_int(rsx_half_from_float(-2.0f), 0xC000, "-2 -> C000");
  is_int(rsx_half_from_float(0.0f), 0x0000, "+0 -> 0000");
  is_int(rsx_half_from_float(-0.0f), 0x8000, "-0 -> 8000");
  /* 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even, 1 */
  is_int(rsx_half_from_float(1.0f + 0x1p-11f), 0x3C00,
         "1 + 2^-11 (tie) -> 1");
  /* 1 + 3*2^-11 is halfway between mantissas 1 and 2: even 2, 1 + 2^-9 */
  is_int(rsx_half_from_float(1.0f + 3.0f * 0x1p-11f), 0x3C02,
         "1 + 3*2^-11 (tie) -> 1 + 2^-9");
  /* just above the first tie: up */
  is_int(rsx_half_from_float(nextafterf(1.0f + 0x1p-11f, 2.0f)), 0x3C01,
         "just above 1 + 2^-11 -> 1 + 2^-10");
  is_int(rsx_half_from_float(65504.0f), 0x7BFF, "65504 -> 7BFF");
  /* 65520 is halfway between 65504 (mantissa 3FF, odd) and 2^16 */
  is_int(rsx_half_from_float(65520.0f), 0x7C00, "65520 -> +inf");
  is_int(rsx_half_from_float(-65520.0f), 0xFC00, "-65520 -> -inf");
  is_int(rsx_half_from_float(65519.99f), 0x7BFF, "65519.99 -> 65504");
  is_int(rsx_half_from_float(1e10f), 0x7C00, "1e10 -> +inf");
  is_int(rsx_half_from_float(FLT_MAX), 0x7C00, "FLT_MAX -> +inf");
  is_int(rsx_half_from_float(INFINITY), 0x7C00, "+inf -> 7C00");
  is_int(rsx_half_from_float(-INFINITY), 0xFC00, "-inf -> FC00");
  /* 0.1f = 0x3DCCCCCD: exponent 123 -> 11, mantissa 0x4CCCCD >> 13 =
  ** 0x266 with 0xCCD < 0x1000 dropped: (11 << 10) | 0x266 */
  is_int(rsx_half_from_float(0.1f), 0x2E66, "0.1 -> 2E66");
  /* subnormals: units of 2^-24 */
  is_int(rsx_half_from_float(0x1p-14f), 0x0400, "2^-14 -> 0400");
  is_int(rsx_half_from_float(1023.0f * 0x1p-24f), 0x03FF,
         "1023*2^-24 -> 03FF");
  /* 1023.5 units: tie between 1023 (odd) and 1024 = 2^-14 */
  is_int(rsx_half_from_float(1023.5f * 0x1p-24f), 0x0400,
         "1023.5*2^-24 (tie) -> 0400");
  /* 1022.5 units: tie between 1022 (even) and 1023 */
  is_int(rsx_half_from_float(1022.5f * 0x1p-24f), 0x03FE,
         "1022.5*2^-24 (tie) -> 03FE");
  is_int(rsx_half_from_float(0x1p-24f), 0x0001, "2^-24 -> 0001");
  /* 2^-25 is half a unit: tie between 0 (even) and 1 */
  is_int(rsx_half_from_float(0x1p-25f), 0x0000, "2^-25 (tie) -> 0");
  is_int(rsx_half_from_float(-0x1p-25f), 0x8000, "-2^-25 -> -0");
  /* 3*2^-26 is 0.75 units: 1 */
  is_int(rsx_half_from_float(3.0f * 0x1p-26f), 0x0001, "3*2^-26 -> 0001");
  is_int(rsx_half_from_float(nextafterf(0x1p-25f, 1.0f)), 0x0001,
         "just above 2^-25 -> 0001");
  /* 1.5 units: tie between 1 (odd) and 2 */
  is_int(rsx_half_from_float(1.5f * 0x1p-24f), 0x0002,
         "1.5*2^-24 (tie) -> 0002");
  is_int(rsx_half_from_float(0x1p-149f), 0x0000, "2^-149 -> 0");
  {
    uint16_t n = rsx_half_from_float(NAN);
    uint16_t m = rsx_half_from_float(-NAN);
    ok((n & 0x7C00) == 0x7C00 && (n & 0x03FF) != 0, "NaN stays NaN");
    ok((m & 0x8000) && (m & 0x03FF) != 0, "-NaN keeps its sign");
  }
}

/* Every half: encode(decode(h)) == h, NaN stays a NaN of the same sign,
** and decode(encode(decode(h))) == decode(h). */
static void test_half_round_trip(void)
{
  unsigned h;
  int bad = 0, bad_value = 0;
  for (h = 0; h < 0x10000u; h++) {
    float f = rsx_half((uint16_t)h);
    uint16_t back = rsx_half_from_float(f);
    float again = rsx_half(back);
    if (isnan(f)) {
      bad += !isnan(again) || (back & 0x8000) != (h & 0x8000);
      continue;
    }
    bad += back != h;
    /* equal values with equal signs: -0 and +0 must not pass */
    bad_value += again != f || signbit(again) != signbit(f);
  }
  is_int(bad, 0, "every half: encode(decode(h)) == h");
  is_int(bad_value, 0, "every half: decode(encode(decode(h))) == decode");
}

/* Between each pair of neighbouring halves: the midpoint goes to the even
** one, anything above it up, anything below it down. The midpoint of two
** halves has at most 12 significant bits, so it is exact in a float. */
static void test_half_midpoints(void)
{
  unsigned h;
  int bad = 0;
  for (h = 0; h < 0x7BFF; h++) {
    float lo = rsx_half((uint16_t)h), hi = rsx_half((uint16_t)(h + 1));
    float mid = (lo + hi) / 2.0f;
    uint16_t even = (uint16_t)(h & 1u ? h + 1 : h);
    bad += rsx_half_from_float(mid) != even;
    bad += rsx_half_from_float(nextafterf(mid, 0.0f)) != h;
    bad += rsx_half_from_float(nextafterf(mid, INFINITY)) != h + 1;
    bad += rsx_half_from_float(-mid) != (even | 0x8000u);
  }
  is_int(bad, 0, "every midpoint rounds to even, neighbours go their way");
  /* the top: 65520 is the midpoint to 2^16, which overflows */
  is_int(rsx_half_from_float(nextafterf(65520.0f, 0.0f)), 0x7BFF,
         "just below 65520 -> 65504");
}

static uint32_t cmp_of(float x, float y, float z)
{
  float v[3];
  v[0] = x;
  v[1] = y;
  v[2] = z;
  return rsx_cmp_from_vector(v);
}

static void test_cmp(void)
{
  /* the note's word: y = 32736/32767 -> 1023 in bits 11..21 */
  is_int(cmp_of(0.0f, 32736.0f / 32767.0f, 0.0f), 0x001FF800,
         "(0, 32736/32767, 0) -> 001FF800");
  /* 2 * 32767/32 = 2047.9 > 1023: clamped to the field */
  is_int(cmp_of(2.0f, 0.0f, 0.0f), 0x000003FF, "x 2.0 -> 1023");
  is_int(cmp_of(-2.0f, 0.0f, 0.0f), 0x00000400, "x -2.0 -> -1024");
  is_int(cmp_of(0.0f, 2.0f, 0.0f), 0x001FF800, "y 2.0 -> 1023");
  is_int(cmp_of(0.0f, -2.0f, 0.0f), 0x00200000, "y -2.0 -> -1024");
  is_int(cmp_of(0.0f, 0.0f, 2.0f), 0x7FC00000, "z 2.0 -> 511");
  is_int(cmp_of(0.0f, 0.0f, -2.0f), 0x80000000, "z -2.0 -> -512");
  /* 1.0 * 32767/32 = 1023.97: 1024, clamped to 1023 */
  is_int(cmp_of(1.0f, 0.0f, 0.0f), 0x000003FF, "x 1.0 -> 1023");
  /* -1023.97 -> -1024, inside the field */
  is_int(cmp_of(-1.0f, 0.0f, 0.0f), 0x00000400, "x -1.0 -> -1024");
  /* 0.5 * 32767/32 = 511.98 -> 512 */
  is_int(cmp_of(0.5f, 0.0f, 0.0f), 0x00000200, "x 0.5 -> 512");
  /* z: 0.5 * 32767/64 = 255.99 -> 256 << 22 */
  is_int(cmp_of(0.0f, 0.0f, 0.5f), 0x40000000, "z 0.5 -> 256");
  /* 0.01 * 32767/32 = 10.24 -> 10; -10 is 0x7F6 in 11 bits */
  is_int(cmp_of(0.01f, 0.0f, 0.0f), 0x0000000A, "x 0.01 -> 10");
  is_int(cmp_of(-0.01f, 0.0f, 0.0f), 0x000007F6, "x -0.01 -> -10");
  /* 0.0105 * 32767/32 = 10.75 -> 11 */
  is_int(cmp_of(0.0105f, 0.0f, 0.0f), 0x0000000B, "x 0.0105 -> 11");
  /* y -0.01 -> -10 = 0x7F6 << 11; z -0.01 * 32767/64 = -5.12 -> -5 =
  ** 0x3FB << 22 */
  is_int(cmp_of(0.0f, -0.01f, -0.01f), 0xFEFFB000, "y, z -0.01");
  is_int(cmp_of(NAN, NAN, NAN), 0x00000000, "NaN -> 0");
  is_int(cmp_of(INFINITY, -INFINITY, INFINITY), 0x7FE003FF,
         "infinities clamp");
}

static uint32_t cmp_of_doubles(double x, double y, double z)
{
  double v[3];
  v[0] = x;
  v[1] = y;
  v[2] = z;
  return rsx_cmp_from_doubles(v);
}

/* Nearest on the double (issue 9). Exact products from rational
** arithmetic: 0.578630949386737 * 32767 / 32 = 592.50000995...; the
** doubles next to 18960/32767 give 592.5 - 1.47e-14 (0x1.28425084a1094p-1,
** whose rounded product x * 32767 lands exactly on 18960) and
** 592.5 + 9.9e-14 (0x1.28425084a1095p-1); for z (/ 64) the doubles
** next to 6432/32767 give 100.5 - 8.7e-17 (0x1.92032406480c9p-3, again
** a rounded product exactly on the half) and 100.5 + 1.4e-14. */
static void test_cmp_doubles(void)
{
  is_int(cmp_of_doubles(0.578630949386737, 0, 0), 593,
         "x 0.578630949386737: 592.50001 -> 593");
  is_int(cmp_of(0.578630949386737f, 0, 0), 592,
         "... its float32 0.57863092 gives 592 (592.49997)");
  is_int(cmp_of_doubles(0x1.28425084a1094p-1, 0, 0), 592,
         "592.5 - 1.47e-14: down, though x * 32767 rounds onto the half");
  is_int(cmp_of_doubles(0x1.28425084a1095p-1, 0, 0), 593,
         "592.5 + 9.9e-14: up");
  is_int(cmp_of_doubles(-0x1.28425084a1094p-1, 0, 0), 0x7FFu & -592u,
         "-592.5 + 1.47e-14: -592");
  is_int(cmp_of_doubles(0, -0x1.28425084a1095p-1, 0),
         (0x7FFu & -593u) << 11, "y -592.5 - 9.9e-14: -593");
  is_int(cmp_of_doubles(0, 0, 0x1.92032406480c9p-3), 100u << 22,
         "z 100.5 - 8.7e-17: 100 (a product on the half again)");
  is_int(cmp_of_doubles(0, 0, 0x1.92032406480cap-3), 101u << 22,
         "z 100.5 + 1.4e-14: 101");
  is_int(cmp_of_doubles(NAN, 1e300, -HUGE_VAL), (1023u << 11) | 0x80000000u,
         "NaN 0, 1e300 and -inf clamp");
}

/* Every value of each field: encode(decode(word)) == word. */
static void test_cmp_round_trip(void)
{
  int x, bad = 0;
  float v[3];
  for (x = -1024; x <= 1023; x++) {
    uint32_t w = (uint32_t)x & 0x7FFu;
    rsx_cmp(w, v);
    bad += rsx_cmp_from_vector(v) != w;
    rsx_cmp(w << 11, v);
    bad += rsx_cmp_from_vector(v) != w << 11;
  }
  for (x = -512; x <= 511; x++) {
    uint32_t w = ((uint32_t)x & 0x3FFu) << 22;
    rsx_cmp(w, v);
    bad += rsx_cmp_from_vector(v) != w;
  }
  is_int(bad, 0, "CMP: every field value round-trips");
}

static void test_ub(void)
{
  int b, bad = 0;
  is_int(rsx_ub_from_float(0.0f), 0, "colour 0 -> 0");
  is_int(rsx_ub_from_float(1.0f), 255, "colour 1 -> 255");
  is_int(rsx_ub_from_float(128.0f / 255.0f), 128, "128/255 -> 128");
  /* 0.5 * 255 = 127.5: a tie, 128 either way (even and away) */
  is_int(rsx_ub_from_float(0.5f), 128, "0.5 -> 128");
  /* 0.2 * 255 = 51.000001 -> 51; 0.3 * 255 = 76.5000003 -> 77 */
  is_int(rsx_ub_from_float(0.2f), 51, "0.2 -> 51");
  is_int(rsx_ub_from_float(0.3f), 77, "0.3 -> 77");
  is_int(rsx_ub_from_float(2.0f), 255, "2 clamps to 255");
  is_int(rsx_ub_from_float(-1.0f), 0, "-1 clamps to 0");
  is_int(rsx_ub_from_float(INFINITY), 255, "inf clamps to 255");
  is_int(rsx_ub_from_float(NAN), 0, "NaN -> 0");
  for (b = 0; b < 256; b++) bad += rsx_ub_from_float(rsx_ub((uint8_t)b)) != b;
  is_int(bad, 0, "every byte round-trips");
}

static void test_put(void)
{
  uint8_t buf[4];
  rsx_put_be16(buf, 0x1234);
  cmp_mem(buf, "\x12\x34", 2, "put_be16");
  rsx_put_be32(buf, 0x89ABCDEF);
  cmp_mem(buf, "\x89\xAB\xCD\xEF", 4, "put_be32");
  rsx_put_f32(buf, 1.0f);
  cmp_mem(buf, "\x3F\x80\x00\x00", 4, "put_f32 1 -> 3F 80 00 00");
  rsx_put_f32(buf, -0.0f);
  cmp_mem(buf, "\x80\x00\x00\x00", 4, "put_f32 -0 -> 80 00 00 00");
}

/* Encode floats with kind's row; compare bytes; the byte after the value
** stays untouched; decoding gives the floats back where they were
** representable. */
static void is_encoded(int kind, int packed, const float *in,
                       const char *want, const char *what)
{
  const rsx_attr_info *a = rsx_attr(kind, packed);
  uint8_t buf[17];
  memset(buf, 0xEE, sizeof buf);
  rsx_encode_value(a, in, buf);
  cmp_mem(buf, want, (size_t)a->size, "encode %s %s: %s",
          packed ? "packed" : "unpacked", a->name, what);
  is_int(buf[a->size], 0xEE, "encode %s: writes %d bytes", a->name,
         a->size);
}

static void test_values(void)
{
  static const float pos[3] = {1.0f, -2.0f, 1.5f};
  static const float nrm[3] = {0.0f, 32736.0f / 32767.0f, 0.0f};
  static const float col[4] = {0.0f, 128.0f / 255.0f, 1.0f, 2.0f};
  static const float uv[2] = {1.0f, -2.0f};
  static const float ex[4] = {1.0f, -2.0f, 65504.0f, -0.0f};
  /* S32K: nearest integer, clamped to a signed 16-bit field */
  static const float sk[2] = {-32768.0f, 32767.4f};
  static const float sk2[2] = {40000.0f, -1.0f};
  static const float sk3[2] = {NAN, -40000.0f};
  static const float sk4[2] = {2.5f, -2.6f};

  is_encoded(RSX_POSITION, 1, pos, "\x3F\x80\0\0\xC0\0\0\0\x3F\xC0\0\0",
             "1, -2, 1.5");
  is_encoded(RSX_NORMAL, 1, nrm, "\x00\x1F\xF8\x00", "the note's word");
  is_encoded(RSX_TANGENT_A, 1, nrm, "\x00\x1F\xF8\x00", "CMP");
  is_encoded(RSX_COLOUR, 1, col, "\x00\x80\xFF\xFF", "0, 128/255, 1, 2");
  is_encoded(RSX_UV1, 1, uv, "\x3C\x00\xC0\x00", "1, -2");
  is_encoded(RSX_EXTRA_B, 1, ex, "\x3C\x00\xC0\x00\x7B\xFF\x80\x00",
             "1, -2, 65504, -0");
  is_encoded(RSX_HALF4, 1, ex, "\x3C\x00\xC0\x00\x7B\xFF\x80\x00",
             "four halves");
  is_encoded(RSX_S32K2, 1, sk, "\x80\x00\x7F\xFF", "-32768, 32767.4");
  is_encoded(RSX_S32K2, 1, sk2, "\x7F\xFF\xFF\xFF", "40000 clamps, -1");
  is_encoded(RSX_S32K2, 0, sk3, "\x00\x00\x80\x00", "NaN 0, -40000");
  /* floor(x + 0.5): 2.5 -> 3, -2.6 -> -3 = FFFD */
  is_encoded(RSX_S32K2, 0, sk4, "\x00\x03\xFF\xFD", "2.5, -2.6");
  is_encoded(RSX_NORMAL, 0, pos, "\x3F\x80\0\0\xC0\0\0\0\x3F\xC0\0\0",
             "three floats");
  is_encoded(RSX_UV3, 0, uv, "\x3F\x80\0\0\xC0\0\0\0", "two floats");
  is_encoded(RSX_HALF4, 0, ex,
             "\x3F\x80\0\0\xC0\0\0\0\x47\x7F\xE0\0\x80\0\0\0",
             "four floats");
}

/* decode(encode(decode(bytes))) == decode(bytes) through the rows. */
static void test_value_round_trip(void)
{
  static const uint8_t bytes[16] = {0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC,
                                    0xDE, 0xF0, 0x0F, 0x1E, 0x2D, 0x3C,
                                    0x4B, 0x5A, 0x69, 0x78};
  int k, packed;
  for (packed = 0; packed < 2; packed++)
    for (k = 0; k < RSX_KIND_COUNT; k++) {
      const rsx_attr_info *a = rsx_attr(k, packed);
      float first[4], second[4];
      uint8_t buf[16];
      rsx_decode_value(a, bytes, first);
      rsx_encode_value(a, first, buf);
      rsx_decode_value(a, buf, second);
      ok(memcmp(first, second, sizeof(float) * (size_t)a->components) == 0,
         "%s %s: decode(encode(decode)) == decode",
         packed ? "packed" : "unpacked", a->name);
    }
}


/* A column into a stream of stride 6: value i at 6i, the other bytes of
** each stride untouched. F with one component would not show the
** order; UB4 (colour) does: 0, 1, 0.5 and 0.2 -> 00 FF 80 33. */
static void test_column(void)
{
  const rsx_attr_info *colour = rsx_attr(RSX_COLOUR, 1);
  const float in[8] = {0.0f, 1.0f, 0.5f, 0.2f, 1.0f, 1.0f, 1.0f, 1.0f};
  uint8_t buf[12];
  static const uint8_t want[12] = {0x00, 0xFF, 0x80, 0x33, 0xAA, 0xAA,
                                   0xFF, 0xFF, 0xFF, 0xFF, 0xAA, 0xAA};
  memset(buf, 0xAA, sizeof buf);
  rsx_encode_column(colour, in, 2, buf, 6);
  cmp_mem(buf, want, sizeof buf, "column: two UB4 values at stride 6");
  memset(buf, 0xAA, sizeof buf);
  rsx_encode_column(colour, in, 0, buf, 6);
  ok(buf[0] == 0xAA && buf[11] == 0xAA, "column: no values, no bytes");
}

int main(void)
{
  test_column();
  test_half_corners();
  test_half_round_trip();
  test_half_midpoints();
  test_cmp();
  test_cmp_doubles();
  test_cmp_round_trip();
  test_ub();
  test_put();
  test_values();
  test_value_round_trip();
  return done_testing();
}
