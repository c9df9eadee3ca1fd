/*
** tap.h - a small TAP producer for the C tests (TAP 13, read by automake's
** tap-driver). Each check prints one "ok N - name" or "not ok N - name" with
** a diagnostic on failure; done_testing() prints the plan and returns the
** exit status.
*/
#ifndef RSX_TAP_H
#define RSX_TAP_H

#include <stddef.h>

int ok(int cond, const char *fmt, ...)
  __attribute__((format(printf, 2, 3)));
/* exact equality of two floats, bit for bit (NaN equals a NaN; -0 != +0) */
int is_float(float got, float want, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));
int is_int(long long got, long long want, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));
int is_str(const char *got, const char *want, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));
/* got contains want */
int like(const char *got, const char *want, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));
int cmp_mem(const void *got, const void *want, size_t n, const char *fmt,
            ...) __attribute__((format(printf, 4, 5)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void bail_out(const char *fmt, ...)
  __attribute__((format(printf, 1, 2), noreturn));
int done_testing(void);

#endif
