/*
** fmt.c - the shortest decimal that reads back as the same float32.
** Exporters write millions of floats, so the common case avoids the C
** library: for the magnitudes of mesh data the p-digit rounding and the
** check that it reads back are exact in 64-bit integers; other magnitudes
** take the slow path through snprintf and strtof.
*/
#include "rsxmesh.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FMT_MAX_DIGITS 9 /* 9 significant digits tell any two floats apart */

static uint64_t fmt_pow10(int k)
{
  static const uint64_t table[FMT_MAX_DIGITS + 1] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
    10000000ull, 100000000ull, 1000000000ull};
  return table[k];
}

/* The slow, plainly right way: f rounded to p significant digits by the C
** library, read back by strtof. Fills digits (no dot) and the decimal
** exponent of the first digit; returns 1 when it reads back as f. */
static int fmt_slow_probe(float f, int p, char *digits, int *exp10)
{
  char buf[64];
  snprintf(buf, sizeof buf, "%.*e", p - 1, (double)f);
  int reads_back = strtof(buf, NULL) == f;
  const char *s = buf + (buf[0] == '-');
  int n = 0;
  for (; *s && *s != 'e'; s++)
    if (*s != '.') digits[n++] = *s;
  digits[n] = '\0';
  *exp10 = atoi(s + 1);
  return reads_back;
}

/* The fast way, exact in 64-bit integers for |f| in [1e-8, 1e9), where mesh
** data lives. With x = M * 2^e, scaling by 10^k = 5^k * 2^k gives
** Y = M * 5^k * 2^(e+k) with nine digits before the point; M has at most
** 26 bits (x and its bounds, the midpoints with its neighbours, times 4)
** and 5^16 < 2^38, so M * 5^k fits in 64 bits for k <= 16. For p = 1..9
** the nearest p-digit decimal is Y rounded (half to even, as printf) to a
** multiple of 10^(9-p); it reads back iff it lies between the bounds (on a
** bound only when x's significand is even: ties go to even). Returns the
** digit count, or 0 outside the range. */
static int fmt_fast(float f, char *digits, int *exp10)
{
  static const uint64_t pow5[17] = {
    1ull, 5ull, 25ull, 125ull, 625ull, 3125ull, 15625ull, 78125ull,
    390625ull, 1953125ull, 9765625ull, 48828125ull, 244140625ull,
    1220703125ull, 6103515625ull, 30517578125ull, 152587890625ull};
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  bits &= 0x7FFFFFFFu;
  int biased = (int)(bits >> 23);
  if (biased == 0 || biased == 0xFF) return 0; /* subnormal, inf, NaN */
  uint64_t m = (bits & 0x7FFFFFu) | 0x800000u;
  int e2 = biased - 150;                  /* x = m * 2^e2 */
  int even = (m & 1) == 0;
  /* x and its bounds as M * 2^(e2-2); below a power of two the lower
  ** neighbour is half as far */
  uint64_t mx = 4 * m, mlo = m == 0x800000u && biased > 1 ? mx - 1 : mx - 2;
  uint64_t mhi = mx + 2;

  int e10 = (int)floor((e2 + 23) * 0.30102999566398120); /* log10(2) */
  uint64_t whole = 0, frac = 0, unit = 1; /* Y = whole + frac / unit */
  uint64_t alo = 0, ahi = 0;
  int k = 0, s = 0;
  for (int tries = 0; tries < 3; tries++) {
    k = 8 - e10;
    if (k < 0 || k > 16) return 0;
    s = e2 - 2 + k; /* Y = mx * 5^k * 2^s */
    uint64_t a = mx * pow5[k];
    alo = mlo * pow5[k], ahi = mhi * pow5[k];
    if (s >= 0) {
      if (s > 30 || ahi > (UINT64_MAX >> s)) return 0;
      whole = a << s, frac = 0, unit = 1;
      alo <<= s, ahi <<= s, s = 0;
    } else {
      if (-s >= 64) return 0;
      whole = a >> -s;
      unit = 1ull << -s;
      frac = a & (unit - 1);
    }
    if (whole < 100000000u) e10--;
    else if (whole >= 1000000000u) e10++;
    else break;
  }
  if (whole < 100000000u || whole >= 1000000000u) return 0;
  uint64_t lo_whole = alo >> -s, hi_whole = ahi >> -s;
  int lo_frac = (alo & (unit - 1)) != 0, hi_frac = (ahi & (unit - 1)) != 0;

  /* Reading back is monotonic in p (the p-digit decimals are among the
  ** (p+1)-digit ones): search for the least p. */
  uint64_t best = 0;
  int best_p = 0, lo_p = 1, hi_p = FMT_MAX_DIGITS;
  while (lo_p <= hi_p) {
    int p = (lo_p + hi_p) / 2;
    uint64_t q = fmt_pow10(FMT_MAX_DIGITS - p);
    uint64_t r2 = 2 * (whole % q), n = whole / q;
    /* Y = n*q + r + frac/unit: round r + frac/unit against q/2 */
    int up;
    if (r2 > q) up = 1;
    else if (r2 == q) up = frac > 0 || (n & 1);
    else if (r2 + 1 == q)
      up = 2 * frac > unit || (2 * frac == unit && (n & 1));
    else up = 0;
    n += (uint64_t)up;
    uint64_t c = n * q;
    int above_lo = c > lo_whole || (c == lo_whole && (even ? !lo_frac : 0));
    int below_hi = c < hi_whole || (c == hi_whole && (even || hi_frac));
    if (above_lo && below_hi) {
      best = n, best_p = p;
      hi_p = p - 1;
    } else {
      lo_p = p + 1;
    }
  }
  if (best_p == 0) return 0;
  *exp10 = e10;
  if (best == fmt_pow10(best_p)) { /* rounded into next decade */
    best /= 10;
    ++*exp10;
  }
  for (int i = best_p - 1; i >= 0; i--, best /= 10)
    digits[i] = (char)('0' + best % 10);
  digits[best_p] = '\0';
  return best_p;
}

/* Shortest digits of |f| (finite, nonzero), trailing zeros dropped: returns
** their count. */
static int fmt_shortest(float f, char *digits, int *exp10)
{
  if (!fmt_fast(f, digits, exp10))
    for (int p = 1; p <= FMT_MAX_DIGITS; p++)
      if (fmt_slow_probe(f, p, digits, exp10)) break;
  int len = (int)strlen(digits);
  while (len > 1 && digits[len - 1] == '0') digits[--len] = '\0';
  return len;
}

/* The digits as a plain decimal for first-digit exponents -4 to 15, as
** Python's repr chooses (150, not 1.5e+02; 0.0001), and with a short
** exponent beyond (1e-5, 3.4028235e38). */
size_t rsx_format_float(float f, char out[RSX_FLOAT_CHARS])
{
  char *s = out;
  if (isnan(f)) return (size_t)sprintf(out, signbit(f) ? "-nan" : "nan");
  if (signbit(f)) *s++ = '-';
  if (isinf(f)) return (size_t)(s - out) + (size_t)sprintf(s, "inf");
  if (f == 0) {
    *s++ = '0';
    *s = '\0';
    return (size_t)(s - out);
  }
  char d[FMT_MAX_DIGITS + 2];
  int e, n = fmt_shortest(f, d, &e);

  if (e >= -4 && e < 16) {
    if (e >= 0) {
      for (int i = 0; i < n || i <= e; i++) {
        if (i == e + 1) *s++ = '.';
        *s++ = i < n ? d[i] : '0';
      }
    } else {
      *s++ = '0';
      *s++ = '.';
      for (int i = -1; i > e; i--) *s++ = '0';
      memcpy(s, d, (size_t)n);
      s += n;
    }
    *s = '\0';
  } else {
    *s++ = d[0];
    if (n > 1) {
      *s++ = '.';
      memcpy(s, d + 1, (size_t)n - 1);
      s += n - 1;
    }
    s += sprintf(s, "e%d", e);
  }
  return (size_t)(s - out);
}
