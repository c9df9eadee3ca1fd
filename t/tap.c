/* tap.c - the TAP producer of tap.h */
#include "tap.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tests_run, tests_failed;

static int report(int cond, const char *fmt, va_list ap)
{
  tests_run++;
  if (!cond) tests_failed++;
  printf("%sok %d - ", cond ? "" : "not ", tests_run);
  vprintf(fmt, ap);
  putchar('\n');
  fflush(stdout);
  return cond;
}

int ok(int cond, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  report(cond, fmt, ap);
  va_end(ap);
  return cond;
}

void diag(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("# ", stdout);
  vprintf(fmt, ap);
  putchar('\n');
  va_end(ap);
}

int is_float(float got, float want, const char *fmt, ...)
{
  int same = isnan(got) ? isnan(want)
                        : (got == want && signbit(got) == signbit(want));
  va_list ap;
  va_start(ap, fmt);
  report(same, fmt, ap);
  va_end(ap);
  if (!same) diag("got %.9g (%a), want %.9g (%a)", got, got, want, want);
  return same;
}

int is_int(long long got, long long want, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  report(got == want, fmt, ap);
  va_end(ap);
  if (got != want) diag("got %lld (0x%llx), want %lld (0x%llx)", got,
                        (unsigned long long)got, want,
                        (unsigned long long)want);
  return got == want;
}

int is_str(const char *got, const char *want, const char *fmt, ...)
{
  int same = got && want ? strcmp(got, want) == 0 : got == want;
  va_list ap;
  va_start(ap, fmt);
  report(same, fmt, ap);
  va_end(ap);
  if (!same) diag("got '%s', want '%s'", got ? got : "(null)",
                  want ? want : "(null)");
  return same;
}

int like(const char *got, const char *want, const char *fmt, ...)
{
  int found = got && want && strstr(got, want) != NULL;
  va_list ap;
  va_start(ap, fmt);
  report(found, fmt, ap);
  va_end(ap);
  if (!found) diag("got '%s', expected it to contain '%s'",
                   got ? got : "(null)", want ? want : "(null)");
  return found;
}

int cmp_mem(const void *got, const void *want, size_t n, const char *fmt, ...)
{
  int same = memcmp(got, want, n) == 0;
  va_list ap;
  va_start(ap, fmt);
  report(same, fmt, ap);
  va_end(ap);
  if (!same) {
    const unsigned char *g = got, *w = want;
    size_t i = 0;
    while (g[i] == w[i]) i++;
    diag("first difference at byte %zu: got 0x%02x, want 0x%02x", i, g[i],
         w[i]);
  }
  return same;
}

void bail_out(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("Bail out! ", stdout);
  vprintf(fmt, ap);
  putchar('\n');
  va_end(ap);
  exit(1);
}

int done_testing(void)
{
  printf("1..%d\n", tests_run);
  return tests_failed ? 1 : 0;
}
