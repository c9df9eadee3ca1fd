/*
** lines.c - vertex lines and face lines into a sink (see lines.h): the
** hot path of a text export, so each line is built in place in the
** sink's room, several lines to a room, with no call per number but the
** float writer's.
*/
#include <string.h>

#include "lines.h"
#include "fmt.h"

#define VL_CHUNK 256 /* vertices decoded at a time */
#define VL_MAXC 4    /* components of any kind */

/* The loops' bodies, inlined where they are called with constants. */
#if defined(__GNUC__)
#define LN_INLINE __attribute__((always_inline)) inline
#else
#define LN_INLINE inline
#endif

/* Four u32 at a time where the compiler has vectors (GCC and clang; a
** plain loop otherwise, or with RSX_LINES_PLAIN, so that a test can run
** it). */
#if defined(__GNUC__) && !defined(RSX_LINES_PLAIN)
#define LN_VECTORS
typedef uint32_t ln_u32x4 __attribute__((vector_size(16)));
#endif

/* A prefix this short is copied as a fixed block (no call), so the room
** of a line is never shorter. */
#define LN_SHORT 8

/* ------------------------------------------------------- vertex lines */

static int vl_check(const rsx_mesh *m, int kind, int components,
                    const char *what, rsx_error *err)
{
  int n;
  if (rsx_mesh_can_decode(m, kind, err) != 0) return -1;
  n = m->format.attr[kind]->components;
  if (components < 1 || components > n)
    return rsx_fail(err, "vertex lines: %s components %d out of range "
                    "1..%d", what, components, n);
  return 0;
}

/* The slot of a float's bits (Fibonacci hashing). */
static LN_INLINE unsigned vl_slot(uint32_t bits)
{
  return (unsigned)((bits * 2654435761u) >> 20);
}

void rsx_float_memo_init(rsx_float_memo *memo)
{
  unsigned i;
  /* 0.0's bits belong to slot 0 (so do 1's): every slot but 0 is empty
  ** with 0, and slot 0 with 1, which hashes elsewhere */
  for (i = 0; i < RSX_FLOAT_MEMO_SIZE; i++) {
    memo->bits[i] = i == vl_slot(0) ? 1u : 0u;
    memo->len[i] = 0;
  }
}

/* Writes f at p (room for RSX_FLOAT_CHARS bytes); returns its length. */
static size_t vl_float(float f, char *p)
{
  return rsx_format_float(f, p);
}

/* Puts f's text, after a space, in memo's slot at. */
static void vl_remember(float f, uint32_t bits, rsx_float_memo *memo,
                        unsigned at)
{
  memo->text[at][0] = ' ';
  memo->len[at] = (uint8_t)(1 + rsx_format_float(f, memo->text[at] + 1));
  memo->bits[at] = bits;
}

/* Writes " " and f at p (room for RSX_FLOAT_CHARS + 1 bytes) through
** memo, whose texts keep the space before them; returns the length.
** Inline: it is the loop's body. */
static LN_INLINE size_t vl_spaced(float f, char *p, rsx_float_memo *memo)
{
  uint32_t bits;
  unsigned at;
  memcpy(&bits, &f, sizeof bits);
  at = vl_slot(bits);
  if (memo->bits[at] != bits) vl_remember(f, bits, memo, at);
  memcpy(p, memo->text[at], RSX_FLOAT_CHARS); /* a fixed size */
  return memo->len[at];
}

/* The lines of count vertices of total numbers each, from vals, with a
** short prefix (1..LN_SHORT bytes, in a block of LN_SHORT) and memo; total
** is a constant where it is called, so that the compiler unrolls. */
static LN_INLINE char *vl_block(char *p, const float *vals, uint32_t count, int total,
                      const char *pre, size_t plen, rsx_float_memo *memo)
{
  uint32_t j;
  int k;
  for (j = 0; j < count; j++, vals += total) {
    memcpy(p, pre, LN_SHORT); /* a fixed size: no call */
    p += plen;
    for (k = 0; k < total; k++) p += vl_spaced(vals[k], p, memo);
    *p++ = '\n';
  }
  return p;
}

/* The longest line: prefix, each number after a space, newline. */
static size_t vl_line(const rsx_vertex_text *how)
{
  int numbers = how->components + (how->with >= 0 ? how->with_components
                                   : 0);
  return how->prefix_len + 1 + (size_t)numbers * (RSX_FLOAT_CHARS + 1);
}

size_t rsx_vertex_lines_size(uint32_t count, const rsx_vertex_text *how)
{
  size_t line = vl_line(how);
  return count <= SIZE_MAX / line ? (size_t)count * line : 0;
}

int rsx_vertex_lines(const rsx_mesh *m, int kind, uint32_t first,
                     uint32_t count, const rsx_vertex_text *how,
                     rsx_sink *sink, rsx_error *err)
{
  float c[VL_CHUNK * VL_MAXC], cw[VL_CHUNK * VL_MAXC];
  float both[VL_CHUNK * 2 * VL_MAXC]; /* mapped, and with's after them */
  double scale[VL_MAXC], offset[VL_MAXC];
  const size_t plen = how->prefix_len;
  char pre[LN_SHORT] = {0};
  int n, nw = 0, nc = how->components, ncw = 0, k, total;
  int mapped = how->scale != NULL || how->offset != NULL;
  rsx_float_memo *memo = how->memo; /* a local: stores of text alias *how */
  size_t line, per;
  uint32_t v, run;

  if (vl_check(m, kind, nc, "kind", err) != 0) return -1;
  n = m->format.attr[kind]->components;
  if (how->with >= 0) {
    if (vl_check(m, how->with, how->with_components, "with", err) != 0)
      return -1;
    nw = m->format.attr[how->with]->components;
    ncw = how->with_components;
  }
  if (count > m->vertex_count || first > m->vertex_count - count)
    return rsx_mesh_decode(m, kind, first, count, c, err); /* its message */
  /* a missing scale is 1, a missing offset 0, as the caller gave none */
  for (k = 0; k < n; k++) {
    scale[k] = how->scale != NULL ? how->scale[k] : 1.0;
    offset[k] = how->offset != NULL ? how->offset[k] : 0.0;
  }

  line = vl_line(how);
  per = line < RSX_SINK_ROOM ? RSX_SINK_ROOM / line : 1;
  memcpy(pre, how->prefix, plen < LN_SHORT ? plen : LN_SHORT);
  total = nc + ncw;
  for (v = 0; v < count; v += run) {
    const float *vals = c; /* the numbers of a vertex, total apart */
    uint32_t i, batch;
    run = count - v < VL_CHUNK ? count - v : VL_CHUNK;
    /* checked above: these cannot fail */
    rsx_mesh_decode(m, kind, first + v, run, c, NULL);
    if (ncw > 0) rsx_mesh_decode(m, how->with, first + v, run, cw, NULL);
    if (mapped || ncw > 0 || nc != n) {
      float *out = both;
      for (i = 0; i < run; i++) {
        const float *x = c + (size_t)i * n, *y = cw + (size_t)i * nw;
        for (k = 0; k < nc; k++)
          *out++ = mapped ? (float)(offset[k] + scale[k] * (double)x[k])
                          : x[k];
        for (k = 0; k < ncw; k++) *out++ = y[k];
      }
      vals = both;
    }
    for (i = 0; i < run; i += batch) {
      const float *x = vals + (size_t)i * total;
      char *start, *p;
      uint32_t j;
      batch = run - i < per ? run - i : (uint32_t)per;
      start = p = sink->room(sink->ctx, (size_t)batch * line);
      if (memo != NULL && plen > 0 && plen <= LN_SHORT) {
        /* the common lines, unrolled for their count of numbers */
        if (total == 3)
          p = vl_block(p, x, batch, 3, pre, plen, memo);
        else if (total == 2)
          p = vl_block(p, x, batch, 2, pre, plen, memo);
        else if (total == 6)
          p = vl_block(p, x, batch, 6, pre, plen, memo);
        else
          p = vl_block(p, x, batch, total, pre, plen, memo);
      } else {
        for (j = 0; j < batch; j++, x += total) {
          if (plen <= LN_SHORT)
            memcpy(p, pre, LN_SHORT); /* a fixed size: no call */
          else
            memcpy(p, how->prefix, plen);
          p += plen;
          for (k = 0; k < total; k++) {
            if (k > 0 || plen > 0) {
              if (memo != NULL) {
                p += vl_spaced(x[k], p, memo);
                continue;
              }
              *p++ = ' ';
              p += vl_float(x[k], p);
            } else if (memo != NULL) { /* the memo's text without its space */
              char spaced[RSX_FLOAT_CHARS];
              size_t len = vl_spaced(x[k], spaced, memo) - 1;
              memcpy(p, spaced + 1, len);
              p += len;
            } else {
              p += vl_float(x[k], p);
            }
          }
          *p++ = '\n';
        }
      }
      sink->keep(sink->ctx, (size_t)(p - start));
    }
  }
  return 0;
}

/* --------------------------------------------------------- face lines */

/* The characters of x in decimal, its sign included. */
static int fl_length(int64_t x)
{
  uint64_t u = x < 0 ? 0u - (uint64_t)x : (uint64_t)x;
  int n = 1 + (x < 0);
  for (; u >= 10; u /= 10) n++;
  return n;
}

/* Writes u below 10^8 in decimal at p and returns the end: its digits
** counted by comparisons, then written from the last, two at a time, in
** 32-bit arithmetic (vertex numbers: the common case). */
static char *fl_small(char *p, uint32_t u)
{
  int n = u < 10 ? 1 : u < 100 ? 2 : u < 1000 ? 3 : u < 10000 ? 4
          : u < 100000 ? 5 : u < 1000000 ? 6 : u < 10000000 ? 7 : 8;
  char *e = p + n;
  while (u >= 100) {
    uint32_t q = u / 100, r = u - q * 100;
    e -= 2;
    memcpy(e, fmt_digit_pairs + 2 * r, 2);
    u = q;
  }
  if (u >= 10) {
    e -= 2;
    memcpy(e, fmt_digit_pairs + 2 * u, 2);
  } else {
    *--e = (char)('0' + u);
  }
  return p + n;
}

/* Writes x in decimal at p and returns the end. */
static char *fl_int(char *p, int64_t x)
{
  uint64_t u = (uint64_t)x, y;
  int n = 1;
  if (x < 0) {
    *p++ = '-';
    u = 0u - u;
  }
  if (u < 100000000) return fl_small(p, (uint32_t)u);
  for (y = u; y >= 100; y /= 100) n += 2;
  n += y >= 10;
  p += n;
  y = u;
  while (y >= 100) {
    p -= 2;
    memcpy(p, fmt_digit_pairs + 2 * (y % 100), 2);
    y /= 100;
  }
  if (y >= 10) {
    p -= 2;
    memcpy(p, fmt_digit_pairs + 2 * y, 2);
  } else {
    *--p = (char)('0' + y);
  }
  return p + n;
}

/* The corner of 0-based vertex v at p; returns its end. */
static char *fl_corner(char *p, uint32_t v, const rsx_face_text *how)
{
  int k;
  for (k = 0; k < how->ncolumns; k++) {
    if (k > 0) *p++ = '/';
    if (how->columns[k].used)
      p = fl_int(p, (int64_t)v + 1 + how->columns[k].offset);
  }
  return p;
}

/* A cache slot holds a corner: 32 bytes, copied as one block, or for a
** longer corner whole 8-byte words, copied a word at a time. */
#define FL_SLOT 32

/* The longest line: prefix, three corners after a space, newline; and
** never less than a short prefix's fixed copy (corners may be empty). */
static size_t fl_line(const rsx_face_text *how, size_t slot)
{
  size_t line = how->prefix_len + 3 * (1 + slot) + 1;
  return line > LN_SHORT ? line : LN_SHORT;
}

/* The lowest and the highest of the count numbers at v (UINT32_MAX and 0
** when there are none): four lanes at a time, each its own lowest and
** highest, then the rest one by one. */
static void fl_bounds(const uint32_t *v, size_t count, uint32_t *low,
                      uint32_t *high)
{
  uint32_t lo = UINT32_MAX, hi = 0;
  size_t i = 0;
#ifdef LN_VECTORS
  if (count >= 8) {
    ln_u32x4 vlo = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
    ln_u32x4 vhi = {0, 0, 0, 0}, x, below, above;
    int k;
    for (; i + 4 <= count; i += 4) {
      memcpy(&x, v + i, sizeof x);
      below = (ln_u32x4)(x < vlo); /* all ones where x is lower */
      above = (ln_u32x4)(x > vhi);
      vlo = (x & below) | (vlo & ~below);
      vhi = (x & above) | (vhi & ~above);
    }
    for (k = 0; k < 4; k++) {
      if (vlo[k] < lo) lo = vlo[k];
      if (vhi[k] > hi) hi = vhi[k];
    }
  }
#endif
  for (; i < count; i++) {
    if (v[i] < lo) lo = v[i];
    if (v[i] > hi) hi = v[i];
  }
  *low = lo;
  *high = hi;
}

int rsx_face_measure(const uint32_t *tri, size_t n,
                     const rsx_face_text *how, rsx_face_plan *plan,
                     rsx_error *err)
{
  uint32_t low = UINT32_MAX, high = 0;
  size_t i, corner;
  int k;
  if (how->ncolumns < 1 || how->ncolumns > RSX_FACE_COLUMNS)
    return rsx_fail(err, "face lines: %d columns, not 1..%d",
                    how->ncolumns, RSX_FACE_COLUMNS);
  for (k = 0; k < how->ncolumns; k++)
    if (how->columns[k].offset > RSX_FACE_OFFSET_MAX)
      return rsx_fail(err, "face lines: column %d's offset is above "
                      "2^63 - 2^32", k + 1);
  fl_bounds(tri, n * 3, &low, &high);
  if (n == 0) low = high = 0;
  plan->low = low;
  plan->range = (uint64_t)high - low + 1;
  corner = (size_t)how->ncolumns - 1; /* the slashes */
  for (k = 0; k < how->ncolumns; k++) {
    const rsx_face_column *c = &how->columns[k];
    if (c->used) {
      /* the length grows with the size: the longest is at an end */
      int a = fl_length((int64_t)low + 1 + c->offset);
      int b = fl_length((int64_t)high + 1 + c->offset);
      corner += (size_t)(a > b ? a : b);
    }
  }
  plan->slot = corner <= FL_SLOT ? FL_SLOT : (corner + 7) / 8 * 8;
  i = fl_line(how, plan->slot);
  plan->text_size = n <= SIZE_MAX / i ? n * i : 0;
  /* a corner written once pays when it is copied about twice */
  if (n == 0 || plan->range > n / 2 * 3)
    plan->cache_size = 0;
  else if (plan->range > SIZE_MAX / (plan->slot + sizeof(uint16_t)))
    plan->cache_size = SIZE_MAX;
  else
    plan->cache_size = (size_t)plan->range * (plan->slot
                                              + sizeof(uint16_t));
  return 0;
}

/* Stores the four words of a 32-byte corner at s. */
static LN_INLINE void fl_put_words(char *s, uint64_t w0, uint64_t w1,
                                   uint64_t w2, uint64_t w3)
{
  memcpy(s, &w0, 8);
  memcpy(s + 8, &w1, 8);
  memcpy(s + 16, &w2, 8);
  memcpy(s + 24, &w3, 8);
}

/* Makes the corners of vertices v .. v + run (run + 1 of them) into their
** 32-byte slots, from corner, the first, whose numbers' last digits are at
** last[0..n-1] and are at most '9' - run: each next corner adds one to
** each of those digits, as four words in registers. (Adding one to a
** byte in memory and copying the corner at once made the processor wait
** for the byte's store: two thirds of this work's time.) The last corner
** made is left in corner. */
static void fl_run(char *corner, const size_t *last, int n, uint64_t run,
                   char *s, uint16_t *lengths, uint16_t len)
{
  char one[FL_SLOT] = {0};
  uint64_t w0, w1, w2, w3, d0, d1, d2, d3, j;
  int k;
  for (k = 0; k < n; k++) one[last[k]] = 1;
  memcpy(&w0, corner, 8);
  memcpy(&w1, corner + 8, 8);
  memcpy(&w2, corner + 16, 8);
  memcpy(&w3, corner + 24, 8);
  memcpy(&d0, one, 8);
  memcpy(&d1, one + 8, 8);
  memcpy(&d2, one + 16, 8);
  memcpy(&d3, one + 24, 8);
  for (j = 0;; j++, s += FL_SLOT) {
    lengths[j] = len;
    fl_put_words(s, w0, w1, w2, w3);
    if (j == run) break;
    /* no byte passes '9': nothing carries into the next */
    w0 += d0;
    w1 += d1;
    w2 += d2;
    w3 += d3;
  }
  fl_put_words(corner, w0, w1, w2, w3);
}

/* The corners of vertices plan->low .. plan->low + plan->range - 1 into
** the slots, their lengths into lengths, for columns whose numbers are
** never negative: the corner of the first vertex is written, and each
** next one made from it by adding one to each number's text in place,
** with no division; a number that gains a digit (9 to 10) has the corner
** written anew. In 32-byte slots, the corners up to the next carry are
** made by fl_run. */
static void fl_fill_slots(const rsx_face_text *how, const rsx_face_plan *plan,
                          char *slots, uint16_t *lengths)
{
  char corner[RSX_FACE_COLUMNS * 21 + FL_SLOT]; /* 20 digits, a slash */
  size_t first[RSX_FACE_COLUMNS], last[RSX_FACE_COLUMNS], len = 0, w;
  const size_t slot = plan->slot;
  int n = 0, k;
  uint64_t v;
  memset(corner, 0, sizeof corner); /* a slot's bytes past its corner */
  for (v = 0; v < plan->range; v++) {
    char *s = slots + v * slot;
    if (len == 0) { /* the corner written whole, its numbers found */
      char *p = corner;
      n = 0;
      for (k = 0; k < how->ncolumns; k++) {
        if (k > 0) *p++ = '/';
        if (how->columns[k].used) {
          first[n] = (size_t)(p - corner);
          p = fl_int(p, (int64_t)(plan->low + v) + 1
                     + how->columns[k].offset);
          last[n++] = (size_t)(p - corner) - 1;
        }
      }
      len = (size_t)(p - corner);
    }
    if (slot == FL_SLOT) {
      /* the corners until a last digit is '9' (at most the range's end) */
      uint64_t run = plan->range - 1 - v;
      for (k = 0; k < n; k++)
        if ((uint64_t)('9' - corner[last[k]]) < run)
          run = (uint64_t)('9' - corner[last[k]]);
      fl_run(corner, last, n, run, s, lengths + v, (uint16_t)len);
      v += run; /* corner is v's, in its slot */
    } else {
      lengths[v] = (uint16_t)len;
      for (w = 0; w < slot; w += 8) memcpy(s + w, corner + w, 8);
    }
    for (k = 0; k < n; k++) { /* each number plus one */
      char *d = corner + last[k], *top = corner + first[k];
      while (*d == '9' && d > top) *d-- = '0';
      if (*d == '9') /* a digit more: the next corner is written whole */
        len = 0;
      else
        (*d)++;
    }
  }
}

/* The corners of every vertex of the plan's range into the cache: slots,
** then their lengths as uint16_t. */
static uint16_t *fl_fill(const rsx_face_text *how, const rsx_face_plan *plan,
                         char *slots)
{
  uint16_t *lengths = (uint16_t *)(slots + (size_t)plan->range * plan->slot);
  uint64_t v;
  int k;
  for (k = 0; k < how->ncolumns; k++)
    if (how->columns[k].used &&
        (int64_t)plan->low + 1 + how->columns[k].offset < 0)
      break;
  if (k == how->ncolumns) {
    fl_fill_slots(how, plan, slots, lengths);
    return lengths;
  }
  for (v = 0; v < plan->range; v++) { /* a negative number: each anew */
    char *s = slots + v * plan->slot;
    lengths[v] = (uint16_t)(fl_corner(s, (uint32_t)(plan->low + v), how)
                            - s);
  }
  return lengths;
}

void rsx_face_lines(const uint32_t *tri, size_t n, const rsx_face_text *how,
                    const rsx_face_plan *plan, void *cache, rsx_sink *sink)
{
  const size_t plen = how->prefix_len, slot = plan->slot;
  const uint32_t low = plan->low;
  char pre[LN_SHORT] = {0};
  const char *slots = cache;
  const uint16_t *lengths = NULL;
  size_t line, per, t;

  if (n == 0) return;
  if (cache != NULL) lengths = fl_fill(how, plan, cache);
  line = fl_line(how, slot);
  per = line < RSX_SINK_ROOM ? RSX_SINK_ROOM / line : 1;
  memcpy(pre, how->prefix, plen < LN_SHORT ? plen : LN_SHORT);
  for (t = 0; t < n; ) {
    size_t end = n - t < per ? n : t + per;
    char *p = sink->room(sink->ctx, (end - t) * line), *start = p;
    if (lengths != NULL && slot == FL_SLOT && plen > 0 && plen <= LN_SHORT) {
      /* the common case: "f a b c", each corner a fixed copy */
      for (; t < end; t++) {
        const uint32_t *v = tri + 3 * t;
        size_t a = v[0] - low, b = v[1] - low, c = v[2] - low;
        memcpy(p, pre, LN_SHORT);
        p += plen;
        *p++ = ' ';
        memcpy(p, slots + a * FL_SLOT, FL_SLOT);
        p += lengths[a];
        *p++ = ' ';
        memcpy(p, slots + b * FL_SLOT, FL_SLOT);
        p += lengths[b];
        *p++ = ' ';
        memcpy(p, slots + c * FL_SLOT, FL_SLOT);
        p += lengths[c];
        *p++ = '\n';
      }
    }
    for (; t < end; t++) {
      int c;
      if (plen <= LN_SHORT)
        memcpy(p, pre, LN_SHORT); /* a fixed size: no call */
      else
        memcpy(p, how->prefix, plen);
      p += plen;
      for (c = 0; c < 3; c++) {
        uint32_t v = tri[3 * t + (size_t)c];
        if (c > 0 || plen > 0) *p++ = ' ';
        if (lengths == NULL) {
          p = fl_corner(p, v, how);
        } else {
          size_t at = v - low, w;
          const char *s = slots + at * slot;
          if (slot == FL_SLOT)
            memcpy(p, s, FL_SLOT); /* a fixed size: no call */
          else
            for (w = 0; w < slot; w += 8) memcpy(p + w, s + w, 8);
          p += lengths[at];
        }
      }
      *p++ = '\n';
    }
    sink->keep(sink->ctx, (size_t)(p - start));
  }
}
