/* t/fmt-full.cc - make check-full: rsx_format_float over every float32 in
** [1e-8, 1e9), and their negatives: each text reads back by strtof as the
** very float, and its digits are Dragonbox's (the shortest that read
** back, the nearest of them to the float); and the method that makes
** the digits' characters holds for every significand. C++ only for
** Dragonbox's header; the core under test is C. TAP output. */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <dragonbox/dragonbox_to_chars.h>

extern "C" {
#include "fmt.h"
#include "rsxmesh.h"
}

/* The significant digits of a decimal text, leading and trailing zeros
** dropped, and the exponent of its last digit: d * 10^e is its value. */
static void decimal_of(const char *s, unsigned long long *d, int *e)
{
  unsigned long long v = 0;
  int point = -1, n = 0, exp = 0;
  const char *p = s + (*s == '-');
  for (; *p && *p != 'e'; p++) {
    if (*p == '.') {
      point = n;
      continue;
    }
    v = v * 10 + (unsigned long long)(*p - '0');
    n++;
  }
  if (*p == 'e') exp = atoi(p + 1);
  exp -= point >= 0 ? n - point : 0;
  while (v != 0 && v % 10 == 0) v /= 10, exp++;
  *d = v;
  *e = exp;
}

/* The fixed point of src/fmt.c's digits (fmt.h), for every d < 10^9: the
** first digit, then two at a time, against division. */
static unsigned long long fixed_point_failures()
{
  unsigned long long bad = 0;
  for (uint32_t d = 0; d < 1000000000u; d++) {
    uint64_t y = (uint64_t)d * FMT_DIGITS_SCALE;
    uint32_t rest = d % 100000000u, div = 1000000u;
    int ok = (uint32_t)(y >> FMT_DIGITS_SHIFT) == d / 100000000u;
    for (int i = 0; i < 4; i++, div /= 100) {
      y = fmt_digits_next(y);
      ok &= (uint32_t)(y >> FMT_DIGITS_SHIFT) == rest / div % 100;
    }
    if (!ok && bad++ < 5) std::printf("# fixed point wrong at %u\n", d);
  }
  return bad;
}

int main()
{
  float lo = 1e-8f, hi = 1e9f;
  uint32_t first, last, u;
  unsigned long long checked = 0, bad_back = 0, bad_digits = 0;
  std::memcpy(&first, &lo, 4);
  std::memcpy(&last, &hi, 4);
  for (u = first; u < last; u++) {
    for (int sign = 0; sign < 2; sign++) {
      uint32_t b = u | (sign ? 0x80000000u : 0);
      float f, back;
      char out[RSX_FLOAT_CHARS];
      std::memcpy(&f, &b, 4);
      rsx_format_float(f, out);
      back = std::strtof(out, nullptr);
      if (std::memcmp(&back, &f, 4) != 0 && bad_back++ < 5)
        std::printf("# %08x written %s reads back as %a\n", b, out,
                    (double)back);
      if (!sign) {
        auto r = jkj::dragonbox::to_decimal(f);
        unsigned long long d, want = r.significand;
        int e, want_e = r.exponent;
        decimal_of(out, &d, &e);
        while (want != 0 && want % 10 == 0) want /= 10, want_e++;
        if ((d != want || e != want_e) && bad_digits++ < 5)
          std::printf("# %08x written %s, Dragonbox %llue%d\n", b, out,
                      want, want_e);
      }
      checked++;
    }
  }
  unsigned long long bad_fixed = fixed_point_failures();
  std::printf("1..3\n");
  std::printf("%s 1 - %llu floats of [1e-8, 1e9), signed, read back by "
              "strtof as themselves (%llu not)\n",
              bad_back ? "not ok" : "ok", checked, bad_back);
  std::printf("%s 2 - their digits are Dragonbox's (%llu differ)\n",
              bad_digits ? "not ok" : "ok", bad_digits);
  std::printf("%s 3 - the fixed-point digits are right for every d < 10^9 "
              "(%llu wrong)\n", bad_fixed ? "not ok" : "ok", bad_fixed);
  return bad_back || bad_digits || bad_fixed ? 1 : 0;
}
