/*
** tap.h - a small TAP producer for the C tests (TAP 13, read by automake's
** tap-driver). Each check prints one "ok N - name" or "not ok N - name" with
** a diagnostic on failure; done_testing() prints the plan and returns the
** exit status.
*/
#ifndef RSX_TAP_H
#define RSX_TAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* Big-endian fields, as RSXB files and their streams store them: the
** fixtures of several tests write them by hand. */
static inline void put16(uint8_t *p, uint16_t v)
{
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}

static inline void put32(uint8_t *p, uint32_t v)
{
  put16(p, (uint16_t)(v >> 16));
  put16(p + 2, (uint16_t)v);
}

static inline void putf(uint8_t *p, float f)
{
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  put32(p, u);
}

#endif
