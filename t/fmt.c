/* fmt.c - tests of rsx_format_float: hand-worked strings, and over a wide
** sample of floats, reading back and digit counts against a reference
** written here with the C library alone. */
#include "rsxmesh.h"
#include "tap.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float from_bits(uint32_t u)
{
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static uint32_t to_bits(float f)
{
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* The fewest significant digits of any %.*e form that strtof reads back. */
static int reference_digits(float f)
{
  char buf[64];
  for (int p = 1; p <= 9; p++) {
    snprintf(buf, sizeof buf, "%.*e", p - 1, (double)f);
    if (strtof(buf, NULL) == f) {
      /* %.*e may end in zeros that a shorter p would not need */
      return p;
    }
  }
  return -1;
}

static int significant_digits(const char *s)
{
  int n = 0, seen = 0, zeros = 0;
  for (; *s && *s != 'e'; s++) {
    if (*s < '0' || *s > '9') continue;
    if (*s == '0' && !seen) continue; /* leading zeros */
    seen = 1;
    if (*s == '0') {
      zeros++;
    } else {
      n += zeros + 1;
      zeros = 0;
    }
  }
  return n ? n : 1;
}

static void check_hand(float f, const char *want)
{
  char out[RSX_FLOAT_CHARS];
  size_t len = rsx_format_float(f, out);
  is_str(out, want, "%a is written %s", (double)f, want);
  is_int((long long)len, (long long)strlen(want), "length of %s", want);
}

/* Reads back bit for bit, and with the reference's digit count. */
static int check_sample(float f, int *failures)
{
  char out[RSX_FLOAT_CHARS];
  rsx_format_float(f, out);
  float back = strtof(out, NULL);
  int ok_back = to_bits(back) == to_bits(f);
  int ok_digits = significant_digits(out) == reference_digits(f);
  if (!(ok_back && ok_digits) && (*failures)++ < 5)
    diag("%a (0x%08x) written %s: reads back %s, %d digits, reference %d",
         (double)f, to_bits(f), out, ok_back ? "yes" : "no",
         significant_digits(out), reference_digits(f));
  return ok_back && ok_digits;
}

int main(void)
{
  /* shortest forms worked out by hand */
  check_hand(0.0f, "0");
  check_hand(-0.0f, "-0");
  check_hand(1.0f, "1");
  check_hand(-2.0f, "-2");
  check_hand(0.1f, "0.1");    /* 0x3dcccccd: 0.1 is its nearest 1-digit */
  check_hand(0.3f, "0.3");
  check_hand(150.0f, "150");  /* not 1.5e+02 */
  check_hand(1.5f, "1.5");
  check_hand(1e-8f, "1e-8");  /* exponents below -4 are written */
  check_hand(0.0001f, "0.0001"); /* -4: still plain, as Python's repr */
  check_hand(1e-5f, "1e-5");
  check_hand(100000.0f, "100000");
  check_hand(1e7f, "10000000");
  check_hand(1e15f, "1000000000000000"); /* 999999986991104 reads as 1e15 */
  check_hand(1e16f, "1e16");
  check_hand(16777216.0f, "16777216");  /* 2^24 */
  check_hand(16777217.0f, "16777216");  /* rounds to 2^24 as a float */
  check_hand(1.0f / 3.0f, "0.33333334");
  check_hand(2.0f / 3.0f, "0.6666667");
  check_hand(32736.0f / 32767.0f, "0.99905396"); /* the note's CMP y */
  check_hand(3.4028235e38f, "3.4028235e38");   /* FLT_MAX */
  check_hand(1.17549435e-38f, "1.1754944e-38"); /* FLT_MIN */
  check_hand(from_bits(1), "1e-45");            /* 2^-149 */
  check_hand(-807.5f, "-807.5");
  check_hand(512.0f, "512");
  /* every form at its widest, and the point after each place: digits
  ** from numpy's format_float_positional(unique=True), an independent
  ** shortest (Dragon4), on the float of the hex bits */
  check_hand(from_bits(0x447a000e), "1000.00085");   /* nine, point at 4 */
  check_hand(from_bits(0x4affffff), "8388607.5");    /* 2^23 - 1/2 */
  check_hand(from_bits(0x3f800001), "1.0000001");    /* 1 + 2^-23 */
  check_hand(from_bits(0x47f12065), "123456.79");
  check_hand(from_bits(0x4b3c614e), "12345678");
  check_hand(from_bits(0x4ceb79a3), "123456790");    /* 123456792 */
  check_hand(from_bits(0x4e6e6b29), "1000000060");   /* nine, then a 0 */
  check_hand(from_bits(0x3dccccd0), "0.100000024");  /* nine after 0. */
  check_hand(from_bits(0x3c21d13a), "0.009876544");
  check_hand(from_bits(0x3901725b), "0.00012345");
  check_hand(from_bits(0x3901742e), "0.00012345679");
  check_hand(from_bits(0x38d1b718), "0.000100000005"); /* the longest */
  check_hand(from_bits(0x60ad78f2), "1.00000055e20");  /* nine, exponent */
  check_hand(from_bits(0x3727c5af), "1.00000025e-5");
  check_hand(INFINITY, "inf");
  check_hand(-INFINITY, "-inf");
  check_hand(NAN, "nan");

  /* A wide sample: a stride over every bit pattern, powers of ten and
  ** their neighbours, small integers and halves, pseudo-random bits. */
  int failures = 0, checked = 0, good = 0;
  for (uint64_t u = 0; u < 0x100000000ull; u += 65521) {
    float f = from_bits((uint32_t)u);
    if (isnan(f) || isinf(f)) continue;
    good += check_sample(f, &failures), checked++;
  }
  for (int k = -45; k <= 38; k++) {
    float p = (float)pow(10.0, k);
    float f = p;
    for (int i = 0; i < 8; i++) f = nextafterf(f, 0);
    for (int i = 0; i < 17; i++, f = nextafterf(f, INFINITY)) {
      if (f == 0 || isinf(f)) continue;
      good += check_sample(f, &failures), checked++;
    }
  }
  for (int i = -70000; i <= 70000; i++) {
    good += check_sample((float)i / 4, &failures), checked++;
    good += check_sample((float)i / 1000, &failures), checked++;
  }
  for (uint32_t h = 0; h < 0x7C00; h++) /* every finite half: UV data */
    good += check_sample(rsx_half((uint16_t)h), &failures), checked++;
  uint64_t x = 0x9E3779B97F4A7C15ull; /* xorshift64 */
  for (int i = 0; i < 200000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    float f = from_bits((uint32_t)(x >> 32));
    if (isnan(f) || isinf(f)) continue;
    good += check_sample(f, &failures), checked++;
  }
  is_int(good, checked, "%d sampled floats read back, in the fewest digits",
         checked);
  return done_testing();
}
