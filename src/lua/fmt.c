/*
** fmt.c - rsxlua_fmt: the shortest decimal that reads back as the same
** float32, as rsxmesh.fmt and acc:lines write it.
**
** The rule is the first precision p of 1..9 whose "%.*g" text reads back
** as x (9 always does). Asking snprintf and strtof costs thousands of
** instructions a value, so for the magnitudes a mesh holds the same rule
** is computed exactly in 128-bit integers: the correctly rounded p-digit
** decimal of x, whether it lies in the interval that rounds to x, and the
** text "%.*g" gives for it. Other magnitudes, and compilers without a
** 128-bit integer, take snprintf and strtof.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsxlua.h"

/* ------------------------------------------------------ the slow rule */

/* Write x with p significant digits into buf; true when it reads back
** as x bit for bit (so -0 keeps its sign). */
static int fmt_try(float x, int p, char *buf, int *len)
{
  float y;
  *len = snprintf(buf, 32, "%.*g", p, (double)x);
  y = strtof(buf, NULL);
  return memcmp(&x, &y, sizeof x) == 0;
}

static int fmt_slow(float x, char *buf)
{
  int p, len = 0;
  for (p = 1; p < 9; p++)
    if (fmt_try(x, p, buf, &len)) return len;
  return snprintf(buf, 32, "%.9g", (double)x);
}

/* ------------------------------------------------------ the fast rule */

#ifdef __SIZEOF_INT128__

typedef unsigned __int128 fmt_u128;

/* x = m * 2^e with 2^-60 <= |x| < 2^64: every product below then stays
** under 2^127 (the largest: m * 10^27, and D * 10^19 * 2^23). */
#define FMT_EMIN (-60 - 23)
#define FMT_EMAX (64 - 24)

static const uint64_t fmt_p10[20] = {
  1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u,
  100000000u, 1000000000u, 10000000000u, 100000000000u,
  1000000000000u, 10000000000000u, 100000000000000u,
  1000000000000000u, 10000000000000000u, 100000000000000000u,
  1000000000000000000u, 10000000000000000000u
};

/* 10^n for n in 0..38 */
static fmt_u128 fmt_pow10(int n)
{
  return n < 20 ? (fmt_u128)fmt_p10[n]
                : (fmt_u128)fmt_p10[19] * fmt_p10[n - 19];
}

/* Compare a * 2^s with b * 10^t exactly (s, t of any sign, products
** within range): -1, 0 or 1. */
static int fmt_cmp(fmt_u128 a, int s, fmt_u128 b, int t)
{
  if (s >= 0) a <<= s; else b <<= -s;
  if (t >= 0) b *= fmt_pow10(t); else a *= fmt_pow10(-t);
  return a < b ? -1 : a > b;
}

/* The p-digit decimal nearest x = m * 2^e (ties to even), as d with
** x10 = floor(log10 x): d * 10^(x10 - p + 1), and whether it reads back
** as x, that is lies in [lo, hi] * 2^(e-2) (the ends included when m is
** even). d may be 10^p when x rounds up to the next decade. */
static int fmt_digits(uint64_t m, int e, int x10, int p, fmt_u128 lo,
                      fmt_u128 hi, fmt_u128 *dp)
{
  int q = p - 1 - x10, up;
  fmt_u128 d, rem, a;
  if (q >= 0) {
    fmt_u128 n = (fmt_u128)m * fmt_pow10(q);
    if (e >= 0) {
      d = n << e;
      up = 0;
    } else {
      fmt_u128 half = (fmt_u128)1 << (-e - 1);
      d = n >> -e;
      rem = n - (d << -e);
      up = rem > half || (rem == half && (d & 1));
    }
  } else {
    fmt_u128 den = fmt_pow10(-q), n = m;
    if (e >= 0) n <<= e; else den <<= -e;
    d = n / den;
    rem = n - d * den;
    up = 2 * rem > den || (2 * rem == den && (d & 1));
  }
  d += (fmt_u128)up;
  *dp = d;
  /* d * 10^-q against [lo, hi] * 2^(e-2), both sides made integers */
  a = d;
  if (e <= 2) a <<= 2 - e; else { lo <<= e - 2; hi <<= e - 2; }
  if (q <= 0) a *= fmt_pow10(-q);
  else { lo *= fmt_pow10(q); hi *= fmt_pow10(q); }
  return (m & 1) == 0 ? a >= lo && a <= hi : a > lo && a < hi;
}

/* The text "%.*g" gives for the p-digit decimal d * 10^(x10 - p + 1). */
static int fmt_text(int neg, uint64_t d, int p, int x10, char *buf)
{
  char dig[24];
  int n = 0, i, len = 0;
  for (i = p - 1; i >= 0; i--, d /= 10) dig[i] = (char)('0' + d % 10);
  n = p;
  while (n > 1 && dig[n - 1] == '0') n--; /* %g drops trailing zeros */
  if (neg) buf[len++] = '-';
  if (x10 < -4 || x10 >= p) {
    buf[len++] = dig[0];
    if (n > 1) {
      buf[len++] = '.';
      for (i = 1; i < n; i++) buf[len++] = dig[i];
    }
    len += snprintf(buf + len, 8, "e%c%02d", x10 < 0 ? '-' : '+',
                    x10 < 0 ? -x10 : x10);
  } else if (x10 >= 0) {
    for (i = 0; i <= x10; i++) buf[len++] = dig[i];
    if (n > x10 + 1) {
      buf[len++] = '.';
      for (i = x10 + 1; i < n; i++) buf[len++] = dig[i];
    }
  } else {
    buf[len++] = '0';
    buf[len++] = '.';
    for (i = x10; i < -1; i++) buf[len++] = '0';
    for (i = 0; i < n; i++) buf[len++] = dig[i];
  }
  buf[len] = '\0';
  return len;
}

/* The length of x's text, or -1 when x is outside the fast range. */
static int fmt_fast(float x, char *buf)
{
  uint32_t bits, frac;
  int bexp, e, x10, neg, p, lo_p = 1, hi_p = 9;
  uint64_t m;
  fmt_u128 lo, hi, d, best = 0;
  memcpy(&bits, &x, sizeof bits);
  neg = (bits >> 31) != 0;
  bexp = (int)((bits >> 23) & 0xFF);
  frac = bits & 0x7FFFFFu;
  if (bexp == 0 || bexp == 0xFF) return -1; /* zero, subnormal, inf */
  m = (uint64_t)(frac | 0x800000u);
  e = bexp - 127 - 23;
  if (e < FMT_EMIN || e > FMT_EMAX) return -1;

  /* x10 = floor(log10 |x|): from the binary exponent (1233 / 4096 is
  ** just below log10 2), then exact corrections */
  x10 = (bexp - 127) * 1233;
  x10 = x10 >= 0 ? x10 / 4096 : -((-x10 + 4095) / 4096);
  while (fmt_cmp(m, e, 1, x10) < 0) x10--;
  while (fmt_cmp(m, e, 1, x10 + 1) >= 0) x10++;

  /* What rounds to x, in units of 2^(e-2): [4m - 2, 4m + 2], or from
  ** 4m - 1 at a power of two, where the gap to the float below is half;
  ** the ends belong to x when m is even (strtof rounds ties to even). */
  lo = 4 * (fmt_u128)m - (m == 0x800000u && bexp > 1 ? 1 : 2);
  hi = 4 * (fmt_u128)m + 2;

  if (m == 0x800000u) {
    /* asymmetric: the first p, tried in order */
    for (p = 1; p < 9; p++)
      if (fmt_digits(m, e, x10, p, lo, hi, &d)) break;
    if (p == 9) fmt_digits(m, e, x10, 9, lo, hi, &d);
    best = d;
  } else {
    /* symmetric: if p digits read back, the nearest p + 1 digits are no
    ** farther from x and read back too, so the first p is found by
    ** bisection; 9 digits always read back */
    while (lo_p < hi_p) {
      int mid = (lo_p + hi_p) / 2;
      if (fmt_digits(m, e, x10, mid, lo, hi, &d)) {
        hi_p = mid;
        best = d;
      } else {
        lo_p = mid + 1;
      }
    }
    p = hi_p;
    if (p == 9) fmt_digits(m, e, x10, 9, lo, hi, &best);
  }
  if (best == fmt_pow10(p)) /* 9.99 rounded up to 10.0: the next decade */
    return fmt_text(neg, (uint64_t)(best / 10), p, x10 + 1, buf);
  return fmt_text(neg, (uint64_t)best, p, x10, buf);
}

#else

static int fmt_fast(float x, char *buf)
{
  (void)x;
  (void)buf;
  return -1;
}

#endif

int rsxlua_fmt(float x, char *buf)
{
  int len;
  if (isnan(x)) return snprintf(buf, 32, "%s", signbit(x) ? "-nan" : "nan");
  len = fmt_fast(x, buf);
  return len >= 0 ? len : fmt_slow(x, buf);
}
