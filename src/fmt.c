/*
** fmt.c - the shortest decimal that reads back as the same float32.
** Exporters write millions of floats, so the common case avoids the C
** library: the p-digit rounding and the check that it reads back are done in
** long double with error bounds, and only a value too close to a rounding
** boundary to decide (or too large or small for the exact powers of ten)
** takes the slow path through snprintf and strtof.
*/
#include "rsxmesh.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FMT_MAX_DIGITS 9 /* 9 significant digits tell any two floats apart */

/* Powers of ten exact in long double: 10^k = 5^k * 2^k needs 5^k to fit in
** the significand, which holds up to 10^27 with x87's 64 bits. */
#define FMT_MAX_POW 27

static long double fmt_pow10(int k)
{
  static const long double table[FMT_MAX_POW + 1] = {
    1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
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

/* x * 10^k in long double: one rounding at most. */
static long double fmt_scale(long double x, int k)
{
  return k >= 0 ? x * fmt_pow10(k) : x / fmt_pow10(-k);
}

/* The fast way, for |f| in [1e-17, 1e17]: x scaled once to nine digits
** before the point (Y), and the bounds of the values that read back as x
** (the midpoints with its neighbours) scaled alike; then for p = 1..9 the
** nearest p-digit decimal is Y rounded to a multiple of 10^(9-p), and it
** reads back iff it lies between the bounds (on a bound only when x's
** significand is even: ties go to even). Returns the digit count, or 0
** when a comparison falls within the arithmetic's error. */
static int fmt_fast(float f, char *digits, int *exp10)
{
  long double x = fabsf(f);
  long double down = nextafterf(fabsf(f), 0);
  long double up = nextafterf(fabsf(f), INFINITY);
  long double lo = (x + down) / 2;
  long double hi = isinf(up) ? x + (x - down) / 2 : (x + up) / 2;
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  int even = (bits & 1) == 0;

  int e10;
  frexpf(f, &e10);
  e10 = (int)floor((e10 - 1) * 0.30102999566398120); /* log10(2) */
  long double y = 0;
  for (int tries = 0; tries < 3; tries++) {
    int k = 8 - e10;
    if (k > FMT_MAX_POW || -k > FMT_MAX_POW) return 0;
    y = fmt_scale(x, k);
    if (y < 1e8L) e10--;
    else if (y >= 1e9L) e10++;
    else break;
  }
  if (y < 1e8L || y >= 1e9L) return 0;
  int k = 8 - e10;
  long double ylo = fmt_scale(lo, k), yhi = fmt_scale(hi, k);
  long double slack = y * LDBL_EPSILON * 8;
  uint32_t whole = (uint32_t)y; /* below 10^9 */
  long double frac = y - (long double)whole;

  /* Reading back is monotonic in p (the p-digit decimals are among the
  ** (p+1)-digit ones): search for the least p. */
  uint32_t best = 0;
  int best_p = 0, lo_p = 1, hi_p = FMT_MAX_DIGITS;
  while (lo_p <= hi_p) {
    int p = (lo_p + hi_p) / 2;
    uint32_t q = (uint32_t)fmt_pow10(FMT_MAX_DIGITS - p);
    long double r = (long double)(whole % q) + frac; /* exact */
    if (fabsl(r - (long double)q / 2) <= slack) return 0;
    uint32_t n = whole / q + (r > (long double)q / 2);
    long double c = (long double)n * q;
    if (fabsl(c - ylo) <= slack || fabsl(c - yhi) <= slack) return 0;
    if (even ? (c >= ylo && c <= yhi) : (c > ylo && c < yhi)) {
      best = n, best_p = p;
      hi_p = p - 1;
    } else {
      lo_p = p + 1;
    }
  }
  if (best_p == 0) return 0;
  *exp10 = e10;
  if (best == (uint32_t)fmt_pow10(best_p)) { /* rounded into next decade */
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
  double x = fabs((double)f);
  if (!(x >= 1e-17 && x <= 1e17 && fmt_fast(f, digits, exp10)))
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
