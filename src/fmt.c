/*
** fmt.c - the shortest decimal that reads back as the same float32.
** Exporters write millions of floats, so this is fast and exact in integers
** for every float, with no C library call: the Dragonbox algorithm (Junekey
** Jeon, "Dragonbox: A New Floating-Point Binary-to-Decimal Conversion
** Algorithm", 2020), a refinement of Schubfach (Raffaello Giulietti). It
** finds the shortest decimal inside the interval of reals that round to
** the float (bounds included when the significand is even, as ties go to
** even), the one nearest the float when several are, with one 64-bit
** multiplication by a table of powers of ten in the common case. Written
** here in C for float32 alone, from the paper and the reference's
** constants; make check-full compares every float with the reference.
*/
#include "rsxmesh.h"
#include "fmt.h"

#include <stdint.h>
#include <string.h>

/* floor(log10(2^e)), floor(log10(3/4 * 2^e)) and floor(log2(10^e)), exact
** over the exponents of a float. */
static int fmt_log10_pow2(int e)
{
  return (e * 315653) >> 20;
}

static int fmt_log10_three_quarters_pow2(int e)
{
  return (e * 631305 - 261663) >> 21;
}

static int fmt_log2_pow10(int e)
{
  return (e * 1741647) >> 19;
}

/* 10^k for k in -31..46 as a 64-bit significand, rounded up:
** ceil(10^k * 2^(63 - floor(log2(10^k)))), made with exact integers. */
#define FMT_POW10_MIN (-31)
static const uint64_t fmt_pow10[] = {
  0x81ceb32c4b43fcf5ull, 0xa2425ff75e14fc32ull, 0xcad2f7f5359a3b3full,
  0xfd87b5f28300ca0eull, 0x9e74d1b791e07e49ull, 0xc612062576589ddbull,
  0xf79687aed3eec552ull, 0x9abe14cd44753b53ull, 0xc16d9a0095928a28ull,
  0xf1c90080baf72cb2ull, 0x971da05074da7befull, 0xbce5086492111aebull,
  0xec1e4a7db69561a6ull, 0x9392ee8e921d5d08ull, 0xb877aa3236a4b44aull,
  0xe69594bec44de15cull, 0x901d7cf73ab0acdaull, 0xb424dc35095cd810ull,
  0xe12e13424bb40e14ull, 0x8cbccc096f5088ccull, 0xafebff0bcb24aaffull,
  0xdbe6fecebdedd5bfull, 0x89705f4136b4a598ull, 0xabcc77118461cefdull,
  0xd6bf94d5e57a42bdull, 0x8637bd05af6c69b6ull, 0xa7c5ac471b478424ull,
  0xd1b71758e219652cull, 0x83126e978d4fdf3cull, 0xa3d70a3d70a3d70bull,
  0xcccccccccccccccdull, 0x8000000000000000ull, 0xa000000000000000ull,
  0xc800000000000000ull, 0xfa00000000000000ull, 0x9c40000000000000ull,
  0xc350000000000000ull, 0xf424000000000000ull, 0x9896800000000000ull,
  0xbebc200000000000ull, 0xee6b280000000000ull, 0x9502f90000000000ull,
  0xba43b74000000000ull, 0xe8d4a51000000000ull, 0x9184e72a00000000ull,
  0xb5e620f480000000ull, 0xe35fa931a0000000ull, 0x8e1bc9bf04000000ull,
  0xb1a2bc2ec5000000ull, 0xde0b6b3a76400000ull, 0x8ac7230489e80000ull,
  0xad78ebc5ac620000ull, 0xd8d726b7177a8000ull, 0x878678326eac9000ull,
  0xa968163f0a57b400ull, 0xd3c21bcecceda100ull, 0x84595161401484a0ull,
  0xa56fa5b99019a5c8ull, 0xcecb8f27f4200f3aull, 0x813f3978f8940985ull,
  0xa18f07d736b90be6ull, 0xc9f2c9cd04674edfull, 0xfc6f7c4045812297ull,
  0x9dc5ada82b70b59eull, 0xc5371912364ce306ull, 0xf684df56c3e01bc7ull,
  0x9a130b963a6c115dull, 0xc097ce7bc90715b4ull, 0xf0bdc21abb48db21ull,
  0x96769950b50d88f5ull, 0xbc143fa4e250eb32ull, 0xeb194f8e1ae525feull,
  0x92efd1b8d0cf37bfull, 0xb7abc627050305aeull, 0xe596b7b0c643c71aull,
  0x8f7e32ce7bea5c70ull, 0xb35dbf821ae4f38cull, 0xe0352f62a19e306full,
};

/* The upper 64 bits of the 96-bit product u * g, and the lower. */
static uint64_t fmt_mul_upper(uint32_t u, uint64_t g)
{
  uint64_t hi = (g >> 32) * u, lo = (g & 0xFFFFFFFFu) * u;
  return hi + (lo >> 32);
}

static uint64_t fmt_mul_lower(uint32_t u, uint64_t g)
{
  return g * u;
}

/* The shortest decimal digits * 10^*k of a positive finite float given by
** its bits (no sign); *zeros says whether they may end in zeros. */
static uint32_t fmt_shortest(uint32_t bits, int *k10, int *zeros)
{
  uint32_t field = bits & 0x7FFFFFu, c, two_fc, zi, r, delta, d;
  int biased = (int)(bits >> 23), e, minus_k, beta, even;
  uint64_t g, z;
  if (biased != 0) {
    c = field | 0x800000u;
    e = biased - 150;
    if (field == 0 && biased > 1) {
      /* a power of two: the lower neighbour is half as far, and the
      ** interval [xi, zi] is found directly */
      uint32_t xi;
      minus_k = fmt_log10_three_quarters_pow2(e);
      beta = e + fmt_log2_pow10(-minus_k);
      g = fmt_pow10[-minus_k - FMT_POW10_MIN];
      xi = (uint32_t)((g - (g >> 25)) >> (40 - beta));
      zi = (uint32_t)((g + (g >> 24)) >> (40 - beta));
      /* both ends belong (2^23 is even); the left one only if an integer */
      if (!(e >= 2 && e <= 3)) xi++;
      d = zi / 10;
      if (d * 10 >= xi) {
        *k10 = minus_k + 1;
        *zeros = 1;
        return d;
      }
      d = ((uint32_t)(g >> (39 - beta)) + 1) / 2; /* y, rounded up */
      if ((d & 1) && e == -35) /* a tie: to even */
        d--;
      else if (d < xi)
        d++;
      *k10 = minus_k;
      *zeros = 0;
      return d;
    }
  } else {
    c = field;
    e = 1 - 150;
  }
  even = (c & 1) == 0;
  two_fc = 2 * c;
  minus_k = fmt_log10_pow2(e) - 1; /* kappa = 1 for float32 */
  beta = e + fmt_log2_pow10(-minus_k);
  g = fmt_pow10[-minus_k - FMT_POW10_MIN];
  delta = (uint32_t)(g >> (63 - beta));
  z = fmt_mul_upper((two_fc | 1) << beta, g);
  zi = (uint32_t)(z >> 32);

  /* one digit fewer than the interval's width allows: zi / 100 */
  d = (uint32_t)(((uint64_t)zi * 1374389535u) >> 37);
  r = zi - 100 * d;
  if (r < delta) {
    /* the right end excluded (odd significand) when it is the value */
    if (r == 0 && (uint32_t)z == 0 && !even) {
      d--;
      r = 100;
      goto small;
    }
  } else if (r > delta) {
    goto small;
  } else {
    /* r == delta: is the left end inside? its fraction against delta's */
    uint64_t x = fmt_mul_lower(two_fc - 1, g);
    int parity = (int)((x >> (64 - beta)) & 1);
    int integer = (uint32_t)(x >> (32 - beta)) == 0;
    if (!even || e < -1 || e > 39) integer = 0; /* known not one */
    if (!parity && !(even && integer)) goto small;
  }
  *k10 = minus_k + 2;
  *zeros = 1;
  return d;

small:
  /* the nearest to the float of the ten below, by the distance to the
  ** middle of the interval */
  {
    uint32_t dist = r - delta / 2 + 5, y;
    int approx_parity = ((dist ^ 5) & 1) != 0, divisible;
    uint64_t yy;
    dist *= 6554;
    divisible = (dist & 0xFFFF) < 6554;
    dist >>= 16;
    d = d * 10 + dist;
    if (divisible) {
      yy = fmt_mul_lower(two_fc, g);
      y = (uint32_t)((yy >> (64 - beta)) & 1);
      if ((int)y != approx_parity)
        d--;
      else if ((uint32_t)(yy >> (32 - beta)) == 0 && (d & 1))
        d--; /* a tie: to even */
    }
    *k10 = minus_k + 1;
    *zeros = 0;
    return d;
  }
}

/* shared with the OBJ line writers (src/lines.c) */
const char fmt_digit_pairs[201] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536"
  "37383940414243444546474849505152535455565758596061626364656667686970717273"
  "7475767778798081828384858687888990919293949596979899";

static const uint32_t fmt_pow10_u32[10] = {
  1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000
};

/* The digit count of d > 0 by comparisons, not arithmetic: the processor
** predicts them (a block of floats has digits of one kind) and goes on
** with the digits before the count is known. */
static int fmt_count_digits(uint32_t d)
{
  if (d < 10000) {
    if (d < 100) return d < 10 ? 1 : 2;
    return d < 1000 ? 3 : 4;
  }
  if (d < 1000000) return d < 100000 ? 5 : 6;
  if (d < 100000000) return d < 10000000 ? 7 : 8;
  return 9;
}

/* Characters travel eight at a time in a number whose lowest byte is the
** first: one store where that is the processor's order, a byte at a time
** elsewhere (RSX_FMT_BYTEWISE forces that, so that a test can run it). */
#if !defined(RSX_FMT_BYTEWISE) && defined(__BYTE_ORDER__) && \
  __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static uint64_t fmt_pair(uint64_t x) /* x < 100 as two characters */
{
  uint16_t p;
  memcpy(&p, fmt_digit_pairs + 2 * x, 2);
  return p;
}

static void fmt_store8(char *s, uint64_t w)
{
  memcpy(s, &w, 8);
}
#else
static uint64_t fmt_pair(uint64_t x)
{
  const unsigned char *p = (const unsigned char *)fmt_digit_pairs + 2 * x;
  return (uint64_t)p[0] | (uint64_t)p[1] << 8;
}

static void fmt_store8(char *s, uint64_t w)
{
  int i;
  for (i = 0; i < 8; i++) s[i] = (char)(w >> (8 * i));
}
#endif

/* The digits as a plain decimal for first-digit exponents -4 to 15, as
** Python's repr chooses (150, not 1.5e+02; 0.0001), and with a short
** exponent beyond (1e-5, 3.4028235e38). */
size_t rsx_format_float(float f, char out[RSX_FLOAT_CHARS])
{
  uint32_t bits, d;
  uint64_t y, w;
  char *s = out, first;
  int k, n, e, z, len;
  memcpy(&bits, &f, sizeof bits);
  *s = '-';
  s += bits >> 31;
  bits &= 0x7FFFFFFFu;
  if (bits >= 0x7F800000u) {
    memcpy(s, bits == 0x7F800000u ? "inf" : "nan", 4);
    return (size_t)(s - out) + 3;
  }
  if (bits == 0) {
    memcpy(s, "0", 2);
    return (size_t)(s - out) + 1;
  }
  d = fmt_shortest(bits, &k, &z);
  if (z) /* no trailing zeros */
    while (d % 10 == 0) d /= 10, k++;
  n = fmt_count_digits(d);
  e = k + n - 1; /* the exponent of the first digit */
  /* The digits, then zeros, to nine: d * 10^(9 - n) < 10^9, in the fixed
  ** point of fmt.h (t/fmt-full checks it for every number below 10^9).
  ** Multiplications, no divisions, and the characters stay in registers. */
  y = (uint64_t)(d * fmt_pow10_u32[9 - n]) * FMT_DIGITS_SCALE;
  first = (char)('0' + (y >> FMT_DIGITS_SHIFT));
  y = fmt_digits_next(y);
  w = fmt_pair(y >> FMT_DIGITS_SHIFT);
  y = fmt_digits_next(y);
  w |= fmt_pair(y >> FMT_DIGITS_SHIFT) << 16;
  y = fmt_digits_next(y);
  w |= fmt_pair(y >> FMT_DIGITS_SHIFT) << 32;
  y = fmt_digits_next(y);
  w |= fmt_pair(y >> FMT_DIGITS_SHIFT) << 48; /* the second to ninth */
  /* Each form stores whole words; what they write past the number is
  ** overwritten or past its end, and within RSX_FLOAT_CHARS. */
  if (e >= 0 && e < 16) {
    s[0] = first;
    fmt_store8(s + 1, w);
    if (e >= n - 1) { /* an integer: the digits, then zeros */
      fmt_store8(s + 9, 0x3030303030303030ull);
      len = e + 1;
    } else { /* the point after e + 1 < n <= 9 digits */
      s[e + 1] = '.';
      fmt_store8(s + e + 2, w >> (8 * e));
      len = n + 1;
    }
  } else if (e < 0 && e >= -4) {
    memcpy(s, "0.000000", 8);
    s[1 - e] = first;
    fmt_store8(s + 2 - e, w);
    len = n + 1 - e;
  } else {
    s[0] = first;
    s[1] = '.';
    fmt_store8(s + 2, w);
    len = n > 1 ? n + 1 : 1;
    s[len++] = 'e';
    if (e < 0) s[len++] = '-', e = -e;
    if (e >= 10) {
      memcpy(s + len, fmt_digit_pairs + 2 * e, 2);
      len += 2;
    } else {
      s[len++] = (char)('0' + e);
    }
  }
  s[len] = '\0';
  return (size_t)(s + len - out);
}
