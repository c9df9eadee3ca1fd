/* t/decode.c - the decoders, against values worked out from the note */
#include "rsxmesh.h"
#include "tap.h"

#include <math.h>
#include <string.h>

static uint32_t float_bits(float f)
{
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static void is_cmp(uint32_t word, float x, float y, float z,
                   const char *what)
{
  float v[3];
  rsx_cmp(word, v);
  is_float(v[0], x, "CMP %08x x (%s)", word, what);
  is_float(v[1], y, "CMP %08x y (%s)", word, what);
  is_float(v[2], z, "CMP %08x z (%s)", word, what);
}

static void test_cmp(void)
{
  /* the note: 0x001FF800 = bits 11..21 all ones below the sign bit:
  ** x = 0, y = 0x3FF = 1023, z = 0; y = 1023 * 32 / 32767 */
  is_cmp(0x001FF800, 0.0f, 32736.0f / 32767.0f, 0.0f, "the note's");
  is_cmp(0x00000000, 0.0f, 0.0f, 0.0f, "zero, positive zeros");
  /* x field 0x400: sign bit alone, -1024 -> -1024*32 = -32768 */
  is_cmp(0x00000400, -32768.0f / 32767.0f, 0.0f, 0.0f, "x = -1024");
  /* x field 0x3FF = 1023 -> 32736 */
  is_cmp(0x000003FF, 32736.0f / 32767.0f, 0.0f, 0.0f, "x = 1023");
  /* x field 0x7FF = -1 -> -32 */
  is_cmp(0x000007FF, -32.0f / 32767.0f, 0.0f, 0.0f, "x = -1");
  /* y field 0x400 << 11 = 0x00200000 -> -1024 */
  is_cmp(0x00200000, 0.0f, -32768.0f / 32767.0f, 0.0f, "y = -1024");
  /* y field 0x7FF << 11 = 0x003FF800 -> -1 */
  is_cmp(0x003FF800, 0.0f, -32.0f / 32767.0f, 0.0f, "y = -1");
  /* z field 0x200 << 22 = 0x80000000 -> -512 * 64 = -32768 */
  is_cmp(0x80000000, 0.0f, 0.0f, -32768.0f / 32767.0f, "z = -512");
  /* z field 0x1FF << 22 = 0x7FC00000 -> 511 * 64 = 32704 */
  is_cmp(0x7FC00000, 0.0f, 0.0f, 32704.0f / 32767.0f, "z = 511");
  /* z field 0x3FF << 22 = 0xFFC00000 -> -1 * 64 */
  is_cmp(0xFFC00000, 0.0f, 0.0f, -64.0f / 32767.0f, "z = -1");
  /* z field 1 << 22 -> 64 */
  is_cmp(0x00400000, 0.0f, 0.0f, 64.0f / 32767.0f, "z = 1");
  /* all ones: x = -1, y = -1, z = -1 */
  is_cmp(0xFFFFFFFF, -32.0f / 32767.0f, -32.0f / 32767.0f,
         -64.0f / 32767.0f, "all ones");
  /* fields do not leak: x = 1, y = 2, z = 3 -> 0x00C01001 */
  is_cmp(0x00C01001, 32.0f / 32767.0f, 64.0f / 32767.0f,
         192.0f / 32767.0f, "x 1, y 2, z 3");
}

/* Is g the float nearest num/32767? g * 32767 is exact in a double (24 +
** 15 bits), so the distances compare exactly; neither neighbour may be
** closer. */
static int nearest_quotient(float g, int num)
{
  double d = fabs((double)g * 32767.0 - num);
  double up = fabs((double)nextafterf(g, INFINITY) * 32767.0 - num);
  double down = fabs((double)nextafterf(g, -INFINITY) * 32767.0 - num);
  return d <= up && d <= down;
}

/* Every value of every field: the float nearest the exact rational. */
static void test_cmp_nearest(void)
{
  int x, bad = 0;
  float v[3];
  for (x = -1024; x <= 1023; x++) {
    uint32_t f = (uint32_t)x & 0x7FFu;
    rsx_cmp(f, v);
    bad += !nearest_quotient(v[0], x * 32) || v[1] != 0 || v[2] != 0;
    rsx_cmp(f << 11, v);
    bad += !nearest_quotient(v[1], x * 32) || v[0] != 0 || v[2] != 0;
  }
  for (x = -512; x <= 511; x++) {
    rsx_cmp(((uint32_t)x & 0x3FFu) << 22, v);
    bad += !nearest_quotient(v[2], x * 64) || v[0] != 0 || v[1] != 0;
  }
  is_int(bad, 0, "CMP: all 5120 field values decode to the nearest float");
}

/* Every colour byte: the float nearest b/255 (g * 255 is exact in a
** double, so the distances compare exactly). */
static void test_ub_nearest(void)
{
  int b, bad = 0;
  for (b = 0; b < 256; b++) {
    float g = rsx_ub((uint8_t)b);
    double d = fabs((double)g * 255.0 - b);
    bad += d > fabs((double)nextafterf(g, INFINITY) * 255.0 - b) ||
           d > fabs((double)nextafterf(g, -INFINITY) * 255.0 - b);
  }
  is_int(bad, 0, "every colour byte decodes to the float nearest b/255");
}

static void test_half(void)
{
  /* exponent 0, mantissa 1: 1 * 2^-24 */
  is_float(rsx_half(0x0001), 0x1p-24f, "half 0001 = 2^-24");
  is_float(rsx_half(0x8001), -0x1p-24f, "half 8001 = -2^-24");
  /* largest subnormal: 1023 * 2^-24 */
  is_float(rsx_half(0x03FF), 1023.0f * 0x1p-24f, "half 03FF = 1023*2^-24");
  /* exponent 1, mantissa 0: 2^(1-15) */
  is_float(rsx_half(0x0400), 0x1p-14f, "half 0400 = 2^-14");
  is_float(rsx_half(0x0000), 0.0f, "half 0000 = +0");
  is_float(rsx_half(0x8000), -0.0f, "half 8000 = -0");
  is_float(rsx_half(0x7C00), INFINITY, "half 7C00 = +inf");
  is_float(rsx_half(0xFC00), -INFINITY, "half FC00 = -inf");
  ok(isnan(rsx_half(0x7E00)), "half 7E00 is NaN");
  ok(isnan(rsx_half(0x7C01)), "half 7C01 (signalling) is NaN");
  /* payload and sign kept: mantissa 0x201 << 13, sign set */
  is_int(float_bits(rsx_half(0xFE01)), 0xFFC02000, "NaN payload kept");
  /* exponent 15 = bias: 1.0 */
  is_float(rsx_half(0x3C00), 1.0f, "half 3C00 = 1");
  /* sign, exponent 16, mantissa 0: -2 */
  is_float(rsx_half(0xC000), -2.0f, "half C000 = -2");
  /* exponent 30, mantissa 0x3FF: (2 - 2^-10) * 2^15 */
  is_float(rsx_half(0x7BFF), 65504.0f, "half 7BFF = 65504");
  /* exponent 13, mantissa 0x155: (1 + 341/1024) / 4 */
  is_float(rsx_half(0x3555), (1024.0f + 341.0f) / 4096.0f,
           "half 3555 = 1365/4096");
}

/* Every half, against the definition written with ldexp. */
static void test_half_all(void)
{
  unsigned h;
  int bad = 0;
  for (h = 0; h < 0x10000u; h++) {
    int e = (int)(h >> 10) & 0x1F, m = (int)(h & 0x3FF);
    float want, got = rsx_half((uint16_t)h);
    if (e == 31) {
      bad += m ? !isnan(got) : !isinf(got);
      bad += !signbit(got) != !(h & 0x8000u);
      continue;
    }
    want = e ? ldexpf((float)(1024 + m), e - 25) : ldexpf((float)m, -24);
    if (h & 0x8000u) want = -want;
    bad += float_bits(got) != float_bits(want);
  }
  is_int(bad, 0, "every binary16 value decodes exactly");
}

static void test_scalars(void)
{
  static const uint8_t one[4] = {0x3F, 0x80, 0x00, 0x00};
  static const uint8_t minus_two[4] = {0xC0, 0x00, 0x00, 0x00};
  static const uint8_t tiny[4] = {0x00, 0x00, 0x00, 0x01};
  static const uint8_t negzero[4] = {0x80, 0x00, 0x00, 0x00};
  static const uint8_t inf[4] = {0x7F, 0x80, 0x00, 0x00};
  /* sign 0, exponent 0x7F, mantissa 0x400000: 1.5 */
  static const uint8_t onehalf[4] = {0x3F, 0xC0, 0x00, 0x00};

  is_float(rsx_f32(one), 1.0f, "float32 3F 80 00 00 = 1");
  is_float(rsx_f32(minus_two), -2.0f, "float32 C0 00 00 00 = -2");
  is_float(rsx_f32(tiny), 0x1p-149f, "float32 00 00 00 01 = 2^-149");
  is_float(rsx_f32(negzero), -0.0f, "float32 80 00 00 00 = -0");
  is_float(rsx_f32(inf), INFINITY, "float32 7F 80 00 00 = inf");
  is_float(rsx_f32(onehalf), 1.5f, "float32 3F C0 00 00 = 1.5");

  is_float(rsx_ub(0), 0.0f, "colour byte 0 = 0");
  is_float(rsx_ub(255), 1.0f, "colour byte 255 = 1");
  is_float(rsx_ub(128), 128.0f / 255.0f, "colour byte 128 = 128/255");
  is_float(rsx_ub(1), 1.0f / 255.0f, "colour byte 1 = 1/255");

  is_int(rsx_be16((const uint8_t *)"\x12\x34"), 0x1234, "be16");
  is_int(rsx_be32((const uint8_t *)"\x89\xAB\xCD\xEF"), 0x89ABCDEF,
         "be32");
}

/* Decode one value of kind at p and compare with want; the float after
** the last component must stay untouched. */
static void is_value(int kind, int packed, const uint8_t *p,
                     const float *want, const char *what)
{
  const rsx_attr_info *a = rsx_attr(kind, packed);
  float out[5];
  int i, same = 1;
  for (i = 0; i < 5; i++) out[i] = 7.0f;
  rsx_decode_value(a, p, out);
  for (i = 0; i < a->components; i++)
    if (float_bits(out[i]) != float_bits(want[i])) {
      diag("component %d: got %a, want %a", i, out[i], want[i]);
      same = 0;
    }
  ok(same, "decode %s %s: %s", packed ? "packed" : "unpacked", a->name,
     what);
  is_float(out[a->components], 7.0f, "decode %s: writes %d floats",
           a->name, a->components);
}

static void test_values(void)
{
  /* F,3: 1, -2, 1.5 */
  static const uint8_t pos[12] = {0x3F, 0x80, 0, 0, 0xC0, 0, 0, 0,
                                  0x3F, 0xC0, 0, 0};
  static const float pos_v[3] = {1.0f, -2.0f, 1.5f};
  /* CMP: the note's word */
  static const uint8_t nrm[4] = {0x00, 0x1F, 0xF8, 0x00};
  static const float nrm_v[3] = {0.0f, 32736.0f / 32767.0f, 0.0f};
  /* UB,4: in component order, no reordering */
  static const uint8_t col[4] = {0x00, 0x80, 0xFF, 0x01};
  static const float col_v[4] = {0.0f, 128.0f / 255.0f, 1.0f,
                                 1.0f / 255.0f};
  /* SF,2: 1 and -2 */
  static const uint8_t uv[4] = {0x3C, 0x00, 0xC0, 0x00};
  static const float uv_v[2] = {1.0f, -2.0f};
  /* SF,4: 1, -2, 65504, -0 */
  static const uint8_t ex[8] = {0x3C, 0x00, 0xC0, 0x00, 0x7B, 0xFF,
                                0x80, 0x00};
  static const float ex_v[4] = {1.0f, -2.0f, 65504.0f, -0.0f};
  /* S32K,2: 0x8000 = -32768, 0x7FFF = 32767 */
  static const uint8_t sk[4] = {0x80, 0x00, 0x7F, 0xFF};
  static const float sk_v[2] = {-32768.0f, 32767.0f};
  static const uint8_t sk2[4] = {0xFF, 0xFF, 0x00, 0x01};
  static const float sk2_v[2] = {-1.0f, 1.0f};
  /* F,4: 1, -2, 1.5, -0 */
  static const uint8_t f4[16] = {0x3F, 0x80, 0, 0, 0xC0, 0, 0, 0,
                                 0x3F, 0xC0, 0, 0, 0x80, 0, 0, 0};
  static const float f4_v[4] = {1.0f, -2.0f, 1.5f, -0.0f};

  is_value(RSX_POSITION, 1, pos, pos_v, "1, -2, 1.5");
  is_value(RSX_NORMAL, 1, nrm, nrm_v, "the note's 001FF800");
  is_value(RSX_TANGENT_A, 1, nrm, nrm_v, "not normalised");
  is_value(RSX_TANGENT_B, 1, nrm, nrm_v, "CMP like the normal");
  is_value(RSX_COLOUR, 1, col, col_v, "bytes 00 80 FF 01");
  is_value(RSX_COLOUR, 0, col, col_v, "colour stays bytes");
  is_value(RSX_UV2, 1, uv, uv_v, "halves 3C00 C000");
  is_value(RSX_EXTRA_A, 1, ex, ex_v, "halves 3C00 C000 7BFF 8000");
  is_value(RSX_HALF4, 1, ex, ex_v, "bit 12 packed: four halves");
  is_value(RSX_S32K2, 1, sk, sk_v, "8000 7FFF");
  is_value(RSX_S32K2, 0, sk2, sk2_v, "FFFF 0001");
  is_value(RSX_NORMAL, 0, pos, pos_v, "three floats");
  is_value(RSX_TANGENT_B, 0, pos, pos_v, "three floats");
  is_value(RSX_UV0, 0, pos, pos_v, "two floats");
  is_value(RSX_EXTRA_B, 0, f4, f4_v, "four floats");
  is_value(RSX_HALF4, 0, f4, f4_v, "bit 12 unpacked: four floats");
}

int main(void)
{
  test_cmp();
  test_cmp_nearest();
  test_ub_nearest();
  test_half();
  test_half_all();
  test_scalars();
  test_values();
  return done_testing();
}
