/*
** decode.h - the decoders of the common rows (float32, binary16, CMP) as
** inline functions: the bulk loops of mesh.c call them per value, and
** decode.c's rsx_f32, rsx_half and rsx_cmp are them.
*/
#ifndef RSXMESH_DECODE_H
#define RSXMESH_DECODE_H

#include <float.h>
#include <stdint.h>
#include <string.h>

#include "rsxmesh.h"

/* The bit tricks below assume IEEE binary32 floats. */
typedef char dec_float_is_binary32[(sizeof(float) == 4 &&
                                    FLT_MANT_DIG == 24 &&
                                    FLT_MAX_EXP == 128) ? 1 : -1];

/* float from its bits: memcpy is the aliasing-safe way, and compilers
** turn it into a register move. */
static inline float dec_bits_to_float(uint32_t bits)
{
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

static inline float dec_f32(const uint8_t *p)
{
  return dec_bits_to_float(rsx_be32(p));
}

static inline uint32_t dec_float_to_bits(float f)
{
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return bits;
}

static inline float dec_half(uint16_t h)
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
static inline int dec_signed(uint32_t v, int bits)
{
  uint32_t field = v & ((1u << bits) - 1u);
  uint32_t top = 1u << (bits - 1);
  return (field & top) ? (int)field - (int)(top << 1) : (int)field;
}

static inline void dec_cmp(uint32_t v, float out[3])
{
  /* x*32 and z*64 stay within 2^15. The float nearest the exact
  ** quotient q/32767, as one correctly rounded float division gives it,
  ** is also the double product q * (1/32767) rounded to a float, for
  ** each of the 3,072 q there are (t/decode.c checks them all): a
  ** multiplication takes the processor a fraction of a division's time,
  ** and normals are a third of an export's numbers. */
  const double scale = 1.0 / 32767.0;
  out[0] = (float)((double)(dec_signed(v, 11) * 32) * scale);
  out[1] = (float)((double)(dec_signed(v >> 11, 11) * 32) * scale);
  out[2] = (float)((double)(dec_signed(v >> 22, 10) * 64) * scale);
}

#endif
