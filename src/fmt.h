/*
** fmt.h - the fixed point in which src/fmt.c makes a float's digits,
** shared with t/fmt-full, which checks it for every number below 10^9.
** d < 10^9 times FMT_DIGITS_SCALE (2^57 / 10^8, rounded up) has d's first
** digit in the bits above FMT_DIGITS_SHIFT; each fmt_digits_next (the
** fraction times 100) brings the next two there (James Anhalt's method).
*/
#ifndef RSXMESH_FMT_H
#define RSXMESH_FMT_H

#include <stdint.h>

#define FMT_DIGITS_SHIFT 57
#define FMT_DIGITS_SCALE 1441151881u

static inline uint64_t fmt_digits_next(uint64_t y)
{
  return (y & (((uint64_t)1 << FMT_DIGITS_SHIFT) - 1)) * 100;
}

/* "00" to "99": the two characters of 0..99, at 2 * n */
extern const char fmt_digit_pairs[201];

#endif
