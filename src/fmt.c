/*
** fmt.c - the shortest decimal that reads back as the same float32.
** Exporters write millions of floats, so this is fast and exact in integers
** for every float, with no C library call: the Schubfach algorithm
** (Raffaello Giulietti, "The Schubfach way to render doubles", 2020), which
** finds the shortest decimal inside the interval of reals that round to
** the float, the one nearest the float when several are, in a few 64-bit
** multiplications by a table of powers of ten; the same digits as Ryu and
** Dragonbox.
*/
#include "rsxmesh.h"

#include <stdint.h>
#include <string.h>

/* floor(log2(10^e)), exact for the exponents of a float (|e| < 1233);
** also, in fmt_shortest, floor(log10(2^e)) = e * 1262611 >> 22 and
** floor(log10(3/4 * 2^e)) = (e * 1262611 - 524031) >> 22 (|e| < 1650). */
static int fmt_floor_log2_pow10(int e)
{
  return (e * 1741647) >> 19;
}

/* 10^e for e in -31..45 as a 64-bit significand: floor(10^e * 2^(63 -
** floor(log2(10^e)))) + 1, the value in [2^63, 2^64) the algorithm needs
** (made with exact integers: Python, 2**(63 - L) * 10**e floored).
** make check-full compares every float with Dragonbox and strtof. */
#define FMT_POW10_MIN (-31)
static const uint64_t fmt_pow10[] = {
  0x81CEB32C4B43FCF5ULL, /* -31 */
  0xA2425FF75E14FC32ULL, /* -30 */
  0xCAD2F7F5359A3B3FULL, /* -29 */
  0xFD87B5F28300CA0EULL, /* -28 */
  0x9E74D1B791E07E49ULL, /* -27 */
  0xC612062576589DDBULL, /* -26 */
  0xF79687AED3EEC552ULL, /* -25 */
  0x9ABE14CD44753B53ULL, /* -24 */
  0xC16D9A0095928A28ULL, /* -23 */
  0xF1C90080BAF72CB2ULL, /* -22 */
  0x971DA05074DA7BEFULL, /* -21 */
  0xBCE5086492111AEBULL, /* -20 */
  0xEC1E4A7DB69561A6ULL, /* -19 */
  0x9392EE8E921D5D08ULL, /* -18 */
  0xB877AA3236A4B44AULL, /* -17 */
  0xE69594BEC44DE15CULL, /* -16 */
  0x901D7CF73AB0ACDAULL, /* -15 */
  0xB424DC35095CD810ULL, /* -14 */
  0xE12E13424BB40E14ULL, /* -13 */
  0x8CBCCC096F5088CCULL, /* -12 */
  0xAFEBFF0BCB24AAFFULL, /* -11 */
  0xDBE6FECEBDEDD5BFULL, /* -10 */
  0x89705F4136B4A598ULL, /* -9 */
  0xABCC77118461CEFDULL, /* -8 */
  0xD6BF94D5E57A42BDULL, /* -7 */
  0x8637BD05AF6C69B6ULL, /* -6 */
  0xA7C5AC471B478424ULL, /* -5 */
  0xD1B71758E219652CULL, /* -4 */
  0x83126E978D4FDF3CULL, /* -3 */
  0xA3D70A3D70A3D70BULL, /* -2 */
  0xCCCCCCCCCCCCCCCDULL, /* -1 */
  0x8000000000000001ULL, /* 0 */
  0xA000000000000001ULL, /* 1 */
  0xC800000000000001ULL, /* 2 */
  0xFA00000000000001ULL, /* 3 */
  0x9C40000000000001ULL, /* 4 */
  0xC350000000000001ULL, /* 5 */
  0xF424000000000001ULL, /* 6 */
  0x9896800000000001ULL, /* 7 */
  0xBEBC200000000001ULL, /* 8 */
  0xEE6B280000000001ULL, /* 9 */
  0x9502F90000000001ULL, /* 10 */
  0xBA43B74000000001ULL, /* 11 */
  0xE8D4A51000000001ULL, /* 12 */
  0x9184E72A00000001ULL, /* 13 */
  0xB5E620F480000001ULL, /* 14 */
  0xE35FA931A0000001ULL, /* 15 */
  0x8E1BC9BF04000001ULL, /* 16 */
  0xB1A2BC2EC5000001ULL, /* 17 */
  0xDE0B6B3A76400001ULL, /* 18 */
  0x8AC7230489E80001ULL, /* 19 */
  0xAD78EBC5AC620001ULL, /* 20 */
  0xD8D726B7177A8001ULL, /* 21 */
  0x878678326EAC9001ULL, /* 22 */
  0xA968163F0A57B401ULL, /* 23 */
  0xD3C21BCECCEDA101ULL, /* 24 */
  0x84595161401484A1ULL, /* 25 */
  0xA56FA5B99019A5C9ULL, /* 26 */
  0xCECB8F27F4200F3BULL, /* 27 */
  0x813F3978F8940985ULL, /* 28 */
  0xA18F07D736B90BE6ULL, /* 29 */
  0xC9F2C9CD04674EDFULL, /* 30 */
  0xFC6F7C4045812297ULL, /* 31 */
  0x9DC5ADA82B70B59EULL, /* 32 */
  0xC5371912364CE306ULL, /* 33 */
  0xF684DF56C3E01BC7ULL, /* 34 */
  0x9A130B963A6C115DULL, /* 35 */
  0xC097CE7BC90715B4ULL, /* 36 */
  0xF0BDC21ABB48DB21ULL, /* 37 */
  0x96769950B50D88F5ULL, /* 38 */
  0xBC143FA4E250EB32ULL, /* 39 */
  0xEB194F8E1AE525FEULL, /* 40 */
  0x92EFD1B8D0CF37BFULL, /* 41 */
  0xB7ABC627050305AEULL, /* 42 */
  0xE596B7B0C643C71AULL, /* 43 */
  0x8F7E32CE7BEA5C70ULL, /* 44 */
  0xB35DBF821AE4F38CULL, /* 45 */
};

/* g * cp / 2^64, rounded to odd: the low bit says whether it was exact. */
static uint32_t fmt_round_to_odd(uint64_t g, uint32_t cp)
{
#ifdef __SIZEOF_INT128__
  unsigned __int128 p = (unsigned __int128)g * cp;
  uint64_t mid = (uint64_t)(p >> 32);
  return (uint32_t)(mid >> 32) | ((uint32_t)mid > 1);
#else
  uint64_t lo = (g & 0xFFFFFFFFu) * cp, hi = (g >> 32) * cp;
  uint64_t mid = hi + (lo >> 32);       /* g * cp >> 32 */
  uint32_t y1 = (uint32_t)(mid >> 32);  /* bits 64..95 */
  uint32_t y0 = (uint32_t)mid;          /* bits 32..63 */
  return y1 | (y0 > 1);
#endif
}

/* The shortest decimal digits * 10^*k of a positive finite float given by
** its bits (no sign). */
static uint32_t fmt_shortest(uint32_t bits, int *k10)
{
  uint32_t field = bits & 0x7FFFFFu;
  int biased = (int)(bits >> 23);
  uint32_t c;
  int q;
  if (biased != 0) {
    c = field | 0x800000u;
    q = biased - 150;
  } else {
    c = field;
    q = 1 - 150;
  }
  /* the interval [cbl, cbr] / 4 * 2^q of reals that round to c * 2^q,
  ** bounds included when c is even (ties go to even); below a power of
  ** two the lower neighbour is half as far */
  int even = (c & 1) == 0, closer = field == 0 && biased > 1;
  uint32_t cb = 4 * c, cbl = cb - 2 + (uint32_t)closer, cbr = cb + 2;
  int k = (q * 1262611 - (closer ? 524031 : 0)) >> 22;
  int h = q + fmt_floor_log2_pow10(-k) + 1;
  uint64_t g = fmt_pow10[-k - FMT_POW10_MIN];
  /* the three scaled by 10^-k, times 4, as integers rounded to odd */
  uint32_t vbl = fmt_round_to_odd(g, cbl << h);
  uint32_t vb = fmt_round_to_odd(g, cb << h);
  uint32_t vbr = fmt_round_to_odd(g, cbr << h);
  uint32_t lower = vbl + !even, upper = vbr - !even;
  uint32_t s = vb / 4, sp = s / 10;
  /* one digit fewer: the multiples of 10 around s, when just one of them
  ** is inside; else s or s + 1, the one inside, or the nearer when both
  ** are (ties to even). Selected without branches: which case applies
  ** follows no pattern the processor could predict. */
  int up_in = lower <= 40 * sp, wp_in = 40 * sp + 40 <= upper;
  int u_in = lower <= 4 * s, w_in = 4 * s + 4 <= upper;
  uint32_t mid = 4 * s + 2;
  int up = vb > mid || (vb == mid && (s & 1) != 0);
  int shorter = s >= 10 && up_in != wp_in;
  uint32_t near = s + (uint32_t)(u_in != w_in ? w_in : up);
  *k10 = k + shorter;
  return shorter ? sp + (uint32_t)wp_in : near;
}

static const char fmt_pairs[200] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536"
  "37383940414243444546474849505152535455565758596061626364656667686970717273"
  "7475767778798081828384858687888990919293949596979899";

/* The nine digits of d < 10^9, zero-padded, at out: the first by a
** division, the other eight in pairs from one fixed-point product, r / 10^6
** with a 32-bit fraction (r = d mod 10^8), rounded up so that every pair
** comes out exact (error below 10^-6 of a unit after the three steps:
** checked for all 10^8 values of r when it was written). */
#define FMT_PAIRS_SCALE 72057594038ull /* ceil(2^56 / 10^6) */

static void fmt_nine_digits(uint32_t d, char out[9])
{
  uint32_t top = d / 100000000u, r = d - top * 100000000u;
  uint64_t y = (((uint64_t)r * FMT_PAIRS_SCALE) >> 24) + 1;
  out[0] = (char)('0' + top);
  memcpy(out + 1, fmt_pairs + 2 * (y >> 32), 2);
  y = (y & 0xFFFFFFFFu) * 100;
  memcpy(out + 3, fmt_pairs + 2 * (y >> 32), 2);
  y = (y & 0xFFFFFFFFu) * 100;
  memcpy(out + 5, fmt_pairs + 2 * (y >> 32), 2);
  y = (y & 0xFFFFFFFFu) * 100;
  memcpy(out + 7, fmt_pairs + 2 * (y >> 32), 2);
}

static int fmt_count_digits(uint32_t d)
{
  return 1 + (d >= 10) + (d >= 100) + (d >= 1000) + (d >= 10000) +
         (d >= 100000) + (d >= 1000000) + (d >= 10000000) +
         (d >= 100000000);
}

/* The digits as a plain decimal for first-digit exponents -4 to 15, as
** Python's repr chooses (150, not 1.5e+02; 0.0001), and with a short
** exponent beyond (1e-5, 3.4028235e38). */
size_t rsx_format_float(float f, char out[RSX_FLOAT_CHARS])
{
  uint32_t bits, d;
  char *s = out, digits[32];
  const char *p;
  int k, n, e;
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
  /* the digits, then zeros: fixed-size copies (inlined, unlike copies
  ** of a variable size) may take more than the digits, since the rest of
  ** each is overwritten or past the end */
  d = fmt_shortest(bits, &k);
  fmt_nine_digits(d, digits);
  memcpy(digits + 9, "0000000000000000", 16);
  n = fmt_count_digits(d);
  p = digits + 9 - n;
  while (p[n - 1] == '0') n--, k++; /* no trailing zeros; p[0] is not 0 */
  e = k + n - 1; /* the exponent of the first digit */
  if (e >= 0 && e < 16) {
    if (k >= 0) { /* an integer: the digits, then k zeros */
      memcpy(s, p, 16);
      s += n + k;
    } else { /* the point inside the digits: e < n - 1 <= 8 */
      memcpy(s, p, 8);
      s[e + 1] = '.';
      memcpy(s + e + 2, p + e + 1, 8);
      s += n + 1;
    }
  } else if (e < 0 && e >= -4) {
    memcpy(s, "0.000000", 8);
    s += 1 - e;
    memcpy(s, p, 16);
    s += n;
  } else {
    s[0] = p[0];
    s[1] = '.';
    memcpy(s + 2, p + 1, 8);
    s += n > 1 ? n + 1 : 1;
    *s++ = 'e';
    if (e < 0) *s++ = '-', e = -e;
    if (e >= 10) {
      memcpy(s, fmt_pairs + 2 * e, 2);
      s += 2;
    } else {
      *s++ = (char)('0' + e);
    }
  }
  *s = '\0';
  return (size_t)(s - out);
}
