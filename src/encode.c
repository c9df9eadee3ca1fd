/* encode.c - the encoders: the inverse of each decoder in decode.c */
#include "rsxmesh.h"

#include <math.h>
#include <string.h>

static uint32_t enc_float_bits(float f)
{
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return bits;
}

/* Drop the low `shift` bits of v, rounding to nearest, ties to even. */
static uint32_t enc_round_shift(uint32_t v, int shift)
{
  uint32_t kept = v >> shift;
  uint32_t rest = v & ((1u << shift) - 1u);
  uint32_t half = 1u << (shift - 1);
  if (rest > half || (rest == half && (kept & 1u))) kept++;
  return kept;
}

uint16_t rsx_half_from_float(float f)
{
  uint32_t x = enc_float_bits(f);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  uint32_t a = x & 0x7FFFFFFFu;
  uint32_t e = a >> 23;

  if (a >= 0x7F800000u) {
    if (a == 0x7F800000u) return sign | 0x7C00u;
    /* NaN: keep the top of the payload; the quiet bit keeps it NaN */
    return (uint16_t)(sign | 0x7E00u | ((a >> 13) & 0x3FFu));
  }
  /* 65520 is halfway between 65504 (odd mantissa) and 2^16: ties go to
  ** even, which is 2^16, which overflows */
  if (a >= 0x477FF000u) return sign | 0x7C00u;
  if (e >= 113) {
    /* normal half: rebias 127 -> 15; a carry out of the mantissa
    ** correctly bumps the exponent */
    return (uint16_t)(sign | enc_round_shift(a - (112u << 23), 13));
  }
  /* below 2^-25 everything rounds to zero (2^-25 itself is a tie that
  ** goes to the even 0) */
  if (e < 102) return sign;
  /* subnormal half: units of 2^-24; the value is m * 2^(e - 126) units
  ** with the implicit bit in m, and 1024 units carries into 2^-14 */
  return (uint16_t)(sign | enc_round_shift((a & 0x7FFFFFu) | 0x800000u,
                                           (int)(126 - e)));
}

/* Nearest integer of d, clamped to lo..hi; NaN gives 0. Clamping first
** keeps huge values and infinities away from the conversion. */
static long enc_nearest(double d, long lo, long hi)
{
  if (d != d) return 0;
  if (d <= (double)lo) return lo;
  if (d >= (double)hi) return hi;
  return (long)floor(d + 0.5);
}

/* Nearest integer of the real x * 32767 / div (div a power of two),
** clamped to lo..hi; NaN gives 0, a tie goes up. The product may round
** (a double has 53 bits, x * 32767 needs 68), so fma recovers what the
** rounding lost: it decides a product that rounded onto a tie. */
static long enc_nearest_scaled(double x, double div, long lo, long hi)
{
  double r = x * 32767.0, lost = fma(x, 32767.0, -r);
  double q = r / div, n, f;
  if (q != q) return 0;
  if (q <= (double)lo) return lo;
  if (q >= (double)hi) return hi;
  n = floor(q);
  f = q - n; /* exact: q and n lie within 1 of each other */
  if (f > 0.5 || (f == 0.5 && lost >= 0.0)) n += 1.0;
  return (long)n;
}

uint32_t rsx_cmp_from_doubles(const double v[3])
{
  long x = enc_nearest_scaled(v[0], 32.0, -1024, 1023);
  long y = enc_nearest_scaled(v[1], 32.0, -1024, 1023);
  long z = enc_nearest_scaled(v[2], 64.0, -512, 511);
  return ((uint32_t)x & 0x7FFu) | (((uint32_t)y & 0x7FFu) << 11) |
         (((uint32_t)z & 0x3FFu) << 22);
}

uint32_t rsx_cmp_from_vector(const float v[3])
{
  /* a float times 32767 is exact in a double: one rounding, the last */
  double d[3];
  d[0] = v[0];
  d[1] = v[1];
  d[2] = v[2];
  return rsx_cmp_from_doubles(d);
}

uint8_t rsx_ub_from_float(float f)
{
  return (uint8_t)enc_nearest((double)f * 255.0, 0, 255);
}

void rsx_put_be16(uint8_t *p, uint16_t v)
{
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}

void rsx_put_be32(uint8_t *p, uint32_t v)
{
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

void rsx_put_f32(uint8_t *p, float f)
{
  rsx_put_be32(p, enc_float_bits(f));
}

void rsx_encode_value(const rsx_attr_info *info, const float *in,
                      uint8_t *p)
{
  /* size_t i keeps the byte offsets in pointer arithmetic's width */
  size_t i, n = info->count > 0 ? (size_t)info->count : 0;
  switch (info->type) {
  case RSX_TYPE_F:
    for (i = 0; i < n; i++) rsx_put_f32(p + 4 * i, in[i]);
    break;
  case RSX_TYPE_SF:
    for (i = 0; i < n; i++)
      rsx_put_be16(p + 2 * i, rsx_half_from_float(in[i]));
    break;
  case RSX_TYPE_UB:
    for (i = 0; i < n; i++) p[i] = rsx_ub_from_float(in[i]);
    break;
  case RSX_TYPE_S32K:
    for (i = 0; i < n; i++) {
      /* two's complement by hand: -1 becomes FFFF */
      long v = enc_nearest((double)in[i], -32768, 32767);
      rsx_put_be16(p + 2 * i, (uint16_t)((uint32_t)v & 0xFFFFu));
    }
    break;
  case RSX_TYPE_CMP:
    for (i = 0; i < n; i++)
      rsx_put_be32(p + 4 * i, rsx_cmp_from_vector(in + 3 * i));
    break;
  default:
    /* rows come from the format table, which has no other type */
    break;
  }
}

void rsx_encode_column(const rsx_attr_info *info, const float *in,
                       size_t n, uint8_t *p, size_t stride)
{
  size_t i, k = info->components > 0 ? (size_t)info->components : 0;
  for (i = 0; i < n; i++) rsx_encode_value(info, in + i * k, p + i * stride);
}
