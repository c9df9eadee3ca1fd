/* decode.c - the decoders: float32, binary16, CMP, colour bytes, S32K */
#include "rsxmesh.h"

#include <float.h>
#include <string.h>

/* The bit tricks below assume IEEE binary32 floats. */
typedef char dec_float_is_binary32[(sizeof(float) == 4 &&
                                    FLT_MANT_DIG == 24 &&
                                    FLT_MAX_EXP == 128) ? 1 : -1];

/* float from its bits: memcpy is the aliasing-safe way, and compilers
** turn it into a register move. */
static float dec_bits_to_float(uint32_t bits)
{
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

float rsx_f32(const uint8_t *p)
{
  return dec_bits_to_float(rsx_be32(p));
}

static uint32_t dec_float_to_bits(float f)
{
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return bits;
}

float rsx_half(uint16_t h)
{
  /* Move exponent and mantissa into float position and rebias 15 ->
  ** 127; the two special exponents are fixed up with selects, not
  ** branches on the data (after F. Giesen's half_to_float). */
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t bits = (uint32_t)(h & 0x7FFFu) << 13;
  uint32_t exp = bits & 0x0F800000u;
  float f;

  bits += 112u << 23;
  if (exp == 0x0F800000u) bits += 112u << 23; /* inf, NaN: exponent 255 */
  f = dec_bits_to_float(bits);
  /* zero or subnormal, mant * 2^-24: build 2^-14 * (1 + mant/1024) and
  ** take 2^-14 away, which is exact */
  if (exp == 0) f = dec_bits_to_float(bits + (1u << 23)) - 0x1p-14f;
  return dec_bits_to_float(dec_float_to_bits(f) | sign);
}

/* Sign-extend the low `bits` bits of v, without implementation-defined
** conversions. */
static int dec_signed(uint32_t v, int bits)
{
  uint32_t field = v & ((1u << bits) - 1u);
  uint32_t top = 1u << (bits - 1);
  return (field & top) ? (int)field - (int)(top << 1) : (int)field;
}

void rsx_cmp(uint32_t v, float out[3])
{
  /* x*32 and z*64 stay within 2^15 and are exact in a float; one
  ** correctly rounded division then gives the float nearest the
  ** exact quotient. */
  out[0] = (float)(dec_signed(v, 11) * 32) / 32767.0f;
  out[1] = (float)(dec_signed(v >> 11, 11) * 32) / 32767.0f;
  out[2] = (float)(dec_signed(v >> 22, 10) * 64) / 32767.0f;
}

float rsx_ub(uint8_t b)
{
  return (float)b / 255.0f;
}

void rsx_decode_value(const rsx_attr_info *info, const uint8_t *p,
                      float *out)
{
  /* size_t i keeps the byte offsets in pointer arithmetic's width */
  size_t i, n = info->count > 0 ? (size_t)info->count : 0;
  switch (info->type) {
  case RSX_TYPE_F:
    for (i = 0; i < n; i++) out[i] = rsx_f32(p + 4 * i);
    break;
  case RSX_TYPE_SF:
    for (i = 0; i < n; i++) out[i] = rsx_half(rsx_be16(p + 2 * i));
    break;
  case RSX_TYPE_UB:
    for (i = 0; i < n; i++) out[i] = rsx_ub(p[i]);
    break;
  case RSX_TYPE_S32K:
    for (i = 0; i < n; i++)
      out[i] = (float)dec_signed(rsx_be16(p + 2 * i), 16);
    break;
  case RSX_TYPE_CMP:
    for (i = 0; i < n; i++)
      rsx_cmp(rsx_be32(p + 4 * i), out + 3 * i);
    break;
  default:
    /* rows come from the format table, which has no other type */
    break;
  }
}
