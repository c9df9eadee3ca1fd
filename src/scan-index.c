/*
** scan-index.c - index buffers: the detectors that the pass feeds with
** the input's u16 and u32 values (a buffer's values keep coming back to
** vertices met a few values before), a block of IX_BLOCK values at a
** time; and after the pass, each run's ends moved in to where links are
** dense and its vertex count checked (ix_verify).
*/
#include "scan-internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ index buffers */

void ix_close(scan_state *s, scan_ixrun *x)
{
  uint64_t count, links;
  if (x->first_linked < 0) return;
  count = (uint64_t)(x->last_linked - x->first_linked + 1);
  links = x->links1 - x->links0;
  if ((uint64_t)x->maxc + 1 >= s->opt->min_vertices && count >= 6 &&
      count <= UINT32_MAX && links * 2 >= count &&
      !(x->size == 2 && x->maxc >= 0xFFFFu)) {
    rsx_scan_found f;
    uint64_t steps = x->steps1 - x->steps0;
    memset(&f, 0, sizeof f);
    f.kind = RSX_SCAN_INDICES;
    f.offset = x->first_off + (uint64_t)x->first_linked * x->size;
    f.count = (uint32_t)count;
    f.bytes = count * x->size;
    f.size = (uint32_t)x->size;
    f.vertices = x->maxc + 1;
    f.restarts = (uint32_t)(x->restarts1 - x->restarts0);
    f.locality = (double)links / (double)count;
    f.primitive = (f.restarts > 0 || steps * 10 > count * 6)
                    ? RSX_STRIP : RSX_TRIANGLES;
    scan_add(s, &f);
  }
  x->first_linked = -1;
}

/* A restart in the ring: near no index of either size. */
#define IX_SENTINEL 0x40000000u

static void ix_again(scan_state *s, scan_ixrun *x);

/* one value of x's size: inlined into the loops that feed it */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void ix_value(scan_state *s, scan_ixrun *x, uint64_t off,
                            uint32_t v)
{
  uint32_t restart = x->size == 2 ? 0xFFFFu : 0xFFFFFFFFu;
  uint64_t k;
  int d, far = 0;

  if (v == restart) {
    if (x->active) {
      x->ring[x->k % IX_RING] = IX_SENTINEL;
      x->k++;
      x->restarts++;
    }
    return;
  }
  if (x->size == 4 && v >= IX_U32_LIMIT) {
    ix_close(s, x);
    x->active = 0;
    return;
  }
  if (!x->active) {
    x->active = 1;
    x->first_off = off;
    x->k = 0;
    x->first_linked = -1;
  }
  k = x->k;
  /* near: |v - u| <= IX_NEAR, as one unsigned comparison; the farthest
  ** counts */
  if (k >= 1 && x->ring[(k - 1) % IX_RING] != v) {
    unsigned at = (unsigned)(k % IX_RING);
    for (d = k >= IX_WINDOW ? IX_WINDOW : (int)k; d >= 1; d--)
      if (v - x->ring[(at - (unsigned)d) % IX_RING] + IX_NEAR <=
          2u * IX_NEAR) {
        far = d;
        break;
      }
  }
  /* a strip's next vertex lies one or two from the one two back (a row
  ** of a grid, a zigzag), a list's seldom does */
  if (k >= 2) {
    uint32_t t = v - x->ring[(k - 2) % IX_RING] + 2;
    if (t <= 4 && t != 2) x->steps++;
  }
  x->ring[k % IX_RING] = v;
  x->k = k + 1;
  if (far) {
    uint64_t j, from;
    x->links++;
    if (x->first_linked < 0) {
      x->first_linked = (int64_t)(k - (uint64_t)far);
      x->maxc = 0;
      from = (uint64_t)x->first_linked;
      x->links0 = x->links - 1;
      x->restarts0 = x->restarts;
      x->steps0 = x->steps;
    } else {
      from = (uint64_t)x->last_linked + 1;
    }
    for (j = from; j <= k; j++) {
      uint32_t u = x->ring[j % IX_RING];
      if (u != IX_SENTINEL && u > x->maxc) x->maxc = u;
    }
    x->last_linked = (int64_t)k;
    x->links1 = x->links;
    x->restarts1 = x->restarts;
    x->steps1 = x->steps;
  } else if (x->first_linked >= 0 &&
             k - (uint64_t)x->last_linked > IX_GAP) {
    ix_close(s, x);
  }
  /* random small numbers link now and then: where fewer than a third of
  ** the last IX_RECENT values link, a buffer has ended (or not begun) */
  x->recent_links += (far != 0) - (int)(x->recent >> (IX_RECENT - 1) & 1);
  x->recent = (x->recent << 1 | (far != 0)) & ((1u << IX_RECENT) - 1);
  if (x->first_linked >= 0 &&
      k - (uint64_t)x->first_linked >= IX_RECENT &&
      x->recent_links * 3 < IX_RECENT)
    ix_again(s, x);
}

/* A buffer may begin among the recent values: they start afresh. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void ix_again(scan_state *s, scan_ixrun *x)
{
  uint32_t restart = x->size == 2 ? 0xFFFFu : 0xFFFFFFFFu;
  uint32_t again[IX_RECENT];
  uint64_t k = x->k - 1;
  uint64_t from = x->first_off + (k + 1 - IX_RECENT) * (uint64_t)x->size;
  unsigned r;
  ix_close(s, x);
  for (r = 0; r < IX_RECENT; r++)
    again[r] = x->ring[(k + 1 - IX_RECENT + r) % IX_RING];
  x->active = 0;
  x->recent = 0;
  x->recent_links = 0;
  for (r = 0; r < IX_RECENT; r++)
    ix_value(s, x, from + r * (uint64_t)x->size,
             again[r] == IX_SENTINEL ? restart : again[r]);
}

/* the bits set of b, below 256, by multiplications (a popcount
** instruction is not in the baseline x86-64) */
static int scan_bits8(unsigned b)
{
  return (int)((uint32_t)(((b * 0x08040201u) >> 3 & 0x11111111u) *
                          0x11111111u) >> 28);
}

/* Index buffers: the links of a block of IX_BLOCK values, each to the
** IX_WINDOW before it, found at once, a bit per value, the first value's
** the highest (vectors of the compiler where it
** has them); a detector sleeps through blocks with few links (most of a
** file) and wakes at a block with IX_WAKE, fed from IX_BACKUP values
** before it, so that a buffer's start is in what ix_value sees. The
** values at p - IX_WINDOW * size are in the buffer (SCAN_BACK). */
#ifdef SCAN_VECTORS
typedef uint16_t scan_u16x8 __attribute__((vector_size(16)));
typedef uint32_t scan_u32x4 __attribute__((vector_size(16)));

/* the sum of the 16-bit lanes, below 65536 */
static unsigned lane_sum16(scan_u16x8 m)
{
  uint64_t t = ((scan_u64x2)m)[0] + ((scan_u64x2)m)[1];
  t += t >> 32;
  return (unsigned)((t + (t >> 16)) & 0xFFFFu);
}


/* v: IX_BLOCK values of the chunk's values of x's size, in the host's
** order, with IX_WINDOW before them */
#ifdef __SSE2__
/* the lanes of the 8 values at p near one of the IX_WINDOW (6) before
** them: a - b + IX_NEAR <= 2 * IX_NEAR of 16 bits, 0x8000 higher, is a
** signed comparison, made once on the least of the six (pminsw) */
static scan_u16x8 near6_16(const uint16_t *p)
{
  __m128i a = _mm_add_epi16(_mm_loadu_si128((const __m128i *)p),
                            _mm_set1_epi16((short)(0x8000 + IX_NEAR)));
#define IX_BACK(d) _mm_sub_epi16(a, _mm_loadu_si128((const __m128i *)(p - d)))
  __m128i m = _mm_min_epi16(
    _mm_min_epi16(_mm_min_epi16(IX_BACK(1), IX_BACK(2)),
                  _mm_min_epi16(IX_BACK(3), IX_BACK(4))),
    _mm_min_epi16(IX_BACK(5), IX_BACK(6)));
#undef IX_BACK
  return (scan_u16x8)_mm_cmplt_epi16(
    m, _mm_set1_epi16((short)(0x8000 + 2 * IX_NEAR + 1)));
}
#else
/* the lanes of the 8 values at q that a + IX_NEAR (a2) lies near */
static scan_u16x8 near16(scan_u16x8 a2, const uint16_t *q)
{
  scan_u16x8 b;
  memcpy(&b, q, sizeof b);
  return (scan_u16x8)(a2 - b <= 2 * IX_NEAR);
}

static scan_u16x8 near6_16(const uint16_t *p)
{
  scan_u16x8 a2;
  memcpy(&a2, p, sizeof a2);
  a2 += IX_NEAR;
  return near16(a2, p - 1) | near16(a2, p - 2) | near16(a2, p - 3) |
         near16(a2, p - 4) | near16(a2, p - 5) | near16(a2, p - 6);
}
#endif

/* a bit per lane, the first value's the highest, and 1 << 8 to count
** them (ix_block_links) */
#define IX_LANE(b) (256 + (b))
static const scan_u16x8 ix_lane_bits16 = {
  IX_LANE(128), IX_LANE(64), IX_LANE(32), IX_LANE(16),
  IX_LANE(8), IX_LANE(4), IX_LANE(2), IX_LANE(1) };
static const scan_u32x4 ix_lane_bits32[2] = {
  { IX_LANE(128), IX_LANE(64), IX_LANE(32), IX_LANE(16) },
  { IX_LANE(8), IX_LANE(4), IX_LANE(2), IX_LANE(1) } };

static unsigned ix_block_links(const void *v, int size)
{
  int d, half;
  unsigned n = 0;
  if (size == 2) {
    /* the IX_WINDOW (6) values before each, written out: the loop's
    ** counting was a quarter of the work */
    const uint16_t *p = v;
    scan_u16x8 a, b, link = near6_16(p);
    memcpy(&a, p, sizeof a);
    /* a value equal to the one before links to none */
    memcpy(&b, p - 1, sizeof b);
    return lane_sum16(link & (scan_u16x8)(a != b) & ix_lane_bits16);
  }
  {
    /* a link needs a value below IX_U32_LIMIT: floats and most other
    ** words are not; with IX_SLEEP such values or fewer the block counts
    ** as having none (ix_range tells no such counts apart) */
    scan_u32x4 a0, a1;
    memcpy(&a0, v, sizeof a0);
    memcpy(&a1, (const uint32_t *)v + 4, sizeof a1);
    /* each lane 0, 1 or 2 of 32 bits: its low 16 bits are the sum */
    if (lane_sum16((scan_u16x8)(0u - (scan_u32x4)(a0 < IX_U32_LIMIT) -
                                (scan_u32x4)(a1 < IX_U32_LIMIT))) <= IX_SLEEP)
      return 0;
  }
  for (half = 0; half < 2; half++) {
    const uint32_t *p = (const uint32_t *)v + 4 * half;
    scan_u32x4 a, b, link;
    memcpy(&a, p, sizeof a);
    memcpy(&b, p - 1, sizeof b);
    link = (scan_u32x4)(a - b + IX_NEAR <= 2 * IX_NEAR);
    for (d = 2; d <= IX_WINDOW; d++) {
      memcpy(&b, p - d, sizeof b);
      link |= (scan_u32x4)(a - b + IX_NEAR <= 2 * IX_NEAR);
    }
    memcpy(&b, p - 1, sizeof b);
    /* values at IX_U32_LIMIT and above end a run in ix_value */
    n += lane_sum16((scan_u16x8)(link & (scan_u32x4)(a != b) &
                              (scan_u32x4)(a < IX_U32_LIMIT) &
                              ix_lane_bits32[half]));
  }
  return n;
}
#else
static unsigned ix_block_links(const void *v, int size)
{
  int i, d;
  unsigned n = 0;
  for (i = 0; i < IX_BLOCK; i++) {
    uint32_t a = size == 2 ? ((const uint16_t *)v)[i]
                           : ((const uint32_t *)v)[i], link = 0, b;
    for (d = 1; d <= IX_WINDOW; d++) {
      b = size == 2 ? ((const uint16_t *)v)[i - d]
                    : ((const uint32_t *)v)[i - d];
      link |= a - b + IX_NEAR <= 2u * IX_NEAR;
    }
    b = size == 2 ? ((const uint16_t *)v)[i - 1]
                  : ((const uint32_t *)v)[i - 1];
    if (link && a != b && (size == 2 || a < IX_U32_LIMIT))
      n += 256 + (1u << (IX_BLOCK - 1 - i));
  }
  return n;
}
#endif

/* Feed ix_value the values of [from, to); after a gap, a run anew. */
/* values: the chunk's values of x's size, in the host's order */
static void ix_feed(scan_state *s, scan_ixrun *x, const void *values,
                    uint64_t base, uint64_t from, uint64_t to)
{
  uint64_t o;
  if (from != x->fed_end) {
    ix_close(s, x);
    x->active = 0;
    x->recent = 0;
    x->recent_links = 0;
  }
  if (x->size == 2) {
    const uint16_t *v = (const uint16_t *)values + (size_t)(from - base) / 2;
    for (o = from; o < to; o += 2) ix_value(s, x, o, *v++);
  } else {
    const uint32_t *v = (const uint32_t *)values + (size_t)(from - base) / 4;
    for (o = from; o < to; o += 4) ix_value(s, x, o, *v++);
  }
  x->fed_end = to;
}

/* What ix_dense needs of a block's values, v its IX_BLOCK values with the
** IX_WINDOW before them at v[0]: 0 where one of them is a restart or
** large (0x8000 or above of 16 bits, IX_U32_LIMIT of 32); else 1, with
** *steps the values that step (a bit each, as ix_block_links's links,
** with their count above) and *top the largest of v[from..last]. */
static int ix_block_values(int size, const void *block, int from, int last,
                           unsigned *steps, uint32_t *top)
{
  uint32_t v[IX_WINDOW + IX_BLOCK], any = 0, t;
  int i;
  if (size == 2) {
    const uint16_t *p = (const uint16_t *)block - IX_WINDOW;
    for (i = 0; i < IX_WINDOW + IX_BLOCK; i++) any |= v[i] = p[i];
    if (any >= 0x8000u) return 0;
  } else {
    const uint32_t *p = (const uint32_t *)block - IX_WINDOW;
    for (i = 0; i < IX_WINDOW + IX_BLOCK; i++) any |= v[i] = p[i];
    if (any >= IX_U32_LIMIT) return 0;
  }
  *steps = 0;
  for (i = IX_WINDOW; i < IX_WINDOW + IX_BLOCK; i++) {
    t = v[i] - v[i - 2] + 2;
    if (t <= 4 && t != 2)
      *steps += 256 + (1u << (IX_WINDOW + IX_BLOCK - 1 - i));
  }
  *top = 0;
  for (i = from; i <= last; i++)
    if (v[i] > *top) *top = v[i];
  return 1;
}

#ifdef SCAN_VECTORS
typedef int16_t scan_i16x8 __attribute__((vector_size(16)));

/* ix_block_values of 16-bit values in vectors */
static int ix_block_values16(const uint16_t *p, int from, int last,
                             unsigned *steps, uint32_t *top)
{
  static const scan_i16x8 lane_w = { 0, 1, 2, 3, 4, 5, 6, 7 },
                          lane_a = { 6, 7, 8, 9, 10, 11, 12, 13 };
  scan_u16x8 a, w, b, t;
  scan_i16x8 m, h;
  scan_u64x2 any, q;
  scan_u32x4 r;
  memcpy(&a, p, sizeof a);
  memcpy(&w, p - IX_WINDOW, sizeof w);
  any = (scan_u64x2)(a | w);
  if ((any[0] | any[1]) & 0x8000800080008000u) return 0;
  memcpy(&b, p - 2, sizeof b);
  t = a - b + 2;
  *steps = lane_sum16((scan_u16x8)((t <= 4) & (t != 2)) & ix_lane_bits16);
  /* below 0x8000: signed lanes; those outside [from, last] zero */
  m = (scan_i16x8)a & (lane_a >= (int16_t)from) & (lane_a <= (int16_t)last);
  h = (scan_i16x8)w & (lane_w >= (int16_t)from) & (lane_w <= (int16_t)last);
  m = (m & (m > h)) | (h & ~(m > h));
  /* the halves, then the quarters, swapped (no shuffle that gcc and
  ** clang share) */
  q = (scan_u64x2)m;
  h = (scan_i16x8)(scan_u64x2){ q[1], q[0] };
  m = (m & (m > h)) | (h & ~(m > h));
  r = (scan_u32x4)m;
  h = (scan_i16x8)(scan_u32x4){ r[1], r[0], r[1], r[0] };
  m = (m & (m > h)) | (h & ~(m > h));
  *top = (uint32_t)(m[0] > m[1] ? m[0] : m[1]);
  return 1;
}
#endif

/* A block of a dense buffer at once: where the run is under way with a
** link among the IX_WINDOW values before the block and one in it, ix_value
** would end nothing in the block (no gap of IX_GAP, and with enough of
** the recent values linked, no ix_again), so the links (the bits of
** links, as ix_block_links finds them) are counted at once, and maxc
** raised to the largest value up to the last link. The values that need
** ix_value's care rule this out: restarts and large values (the ring's
** sentinels, the 16-bit vectors' wrap) in the block or the IX_WINDOW
** before it. 0 where ix_feed has to do it. */
static int ix_dense(scan_ixrun *x, const void *block, uint64_t o,
                    unsigned links, int n)
{
  uint64_t k = x->k;
  unsigned steps, after;
  uint32_t top;
  int i, last, from, ok;
  if (links == 0 || !x->active || x->first_linked < 0 ||
      x->fed_end != o || k < IX_WINDOW ||
      x->last_linked < (int64_t)k - IX_WINDOW ||
      (x->recent_links - (IX_BLOCK - n)) * 3 < IX_RECENT)
    return 0;
  /* the last value linked, the lanes after it, and the first value not
  ** yet in maxc (IX_WINDOW: the block's first) */
  after = (1u << scan_ctz64(links)) - 1;
  last = IX_WINDOW + IX_BLOCK - 1 - scan_ctz64(links);
  from = IX_WINDOW + (int)(x->last_linked + 1 - (int64_t)k);
#ifdef SCAN_VECTORS
  ok = x->size == 2
         ? ix_block_values16(block, from, last, &steps, &top)
         : ix_block_values(x->size, block, from, last, &steps, &top);
#else
  ok = ix_block_values(x->size, block, from, last, &steps, &top);
#endif
  if (!ok) return 0;
  if (x->size == 2)
    for (i = 0; i < IX_BLOCK; i++)
      x->ring[(k + (uint64_t)i) % IX_RING] = ((const uint16_t *)block)[i];
  else
    for (i = 0; i < IX_BLOCK; i++)
      x->ring[(k + (uint64_t)i) % IX_RING] = ((const uint32_t *)block)[i];
  if (top > x->maxc) x->maxc = top;
  x->steps1 = x->steps + (steps >> 8) - (unsigned)scan_bits8(steps & after);
  x->steps += steps >> 8;
  x->recent_links += n - scan_bits8(x->recent >> IX_BLOCK);
  x->recent = (x->recent << IX_BLOCK | links) & ((1u << IX_RECENT) - 1);
  x->links += (unsigned)n;
  x->last_linked = (int64_t)k + (last - IX_WINDOW);
  x->k = k + IX_BLOCK;
  x->links1 = x->links;
  x->restarts1 = x->restarts;
  x->fed_end = o + IX_BLOCK * (uint64_t)x->size;
  return 1;
}

#ifdef SCAN_AVX2
/* the 8 bits of a byte in reverse order: a lane's bit as ix_block_links
** has it, the first value's the highest */
static const unsigned char ix_reversed[256] = {
#define R2(n) n, n + 2 * 64, n + 1 * 64, n + 3 * 64
#define R4(n) R2(n), R2(n + 2 * 16), R2(n + 1 * 16), R2(n + 3 * 16)
#define R6(n) R4(n), R4(n + 2 * 4), R4(n + 1 * 4), R4(n + 3 * 4)
  R6(0), R6(2), R6(1), R6(3)
#undef R2
#undef R4
#undef R6
};

/* ix_block_links of 16 values (two blocks of 16 bits) or 8 (a block of
** 32 bits) at once, for the count blocks from p on, into out */
SCAN_TARGET_AVX2
static void ix_links_avx2(const void *p, int size, size_t count,
                          uint16_t *out)
{
  size_t j = 0;
  if (size == 2) {
    const uint16_t *v = p;
    const __m256i bias = _mm256_set1_epi16((short)(0x8000 + IX_NEAR));
    const __m256i near = _mm256_set1_epi16((short)(0x8000 + 2 * IX_NEAR + 1));
    for (; j + 2 <= count; j += 2, v += 2 * IX_BLOCK) {
      __m256i a0 = _mm256_loadu_si256((const __m256i *)(const void *)v);
      __m256i b1 = _mm256_loadu_si256((const __m256i *)(const void *)(v - 1));
      __m256i a = _mm256_add_epi16(a0, bias);
#define IX_BACK(d) _mm256_sub_epi16(a, _mm256_loadu_si256( \
        (const __m256i *)(const void *)(v - (d))))
      __m256i m = _mm256_min_epi16(
        _mm256_min_epi16(_mm256_min_epi16(_mm256_sub_epi16(a, b1), IX_BACK(2)),
                         _mm256_min_epi16(IX_BACK(3), IX_BACK(4))),
        _mm256_min_epi16(IX_BACK(5), IX_BACK(6)));
#undef IX_BACK
      __m256i link = _mm256_andnot_si256(_mm256_cmpeq_epi16(a0, b1),
                                         _mm256_cmpgt_epi16(near, m));
      /* a bit per lane: the lanes as bytes, then their signs */
      unsigned bits = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(
        _mm256_castsi256_si128(link), _mm256_extracti128_si256(link, 1)));
      out[j] = (uint16_t)((unsigned)_mm_popcnt_u32(bits & 0xFFu) << 8 |
                          ix_reversed[bits & 0xFFu]);
      out[j + 1] = (uint16_t)((unsigned)_mm_popcnt_u32(bits >> 8) << 8 |
                              ix_reversed[bits >> 8]);
    }
    for (; j < count; j++, v += IX_BLOCK)
      out[j] = (uint16_t)ix_block_links(v, 2);
  } else {
    const uint32_t *v = p;
    const __m256i limit = _mm256_set1_epi32((int)(IX_U32_LIMIT - 1));
    const __m256i four = _mm256_set1_epi32(2 * IX_NEAR);
    const __m256i two = _mm256_set1_epi32(IX_NEAR);
    for (; j < count; j++, v += IX_BLOCK) {
      __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)v);
      __m256i small = _mm256_cmpeq_epi32(_mm256_max_epu32(a, limit), limit);
      unsigned smalls =
        (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(small));
      __m256i b1, t, link;
      unsigned bits;
      if (_mm_popcnt_u32(smalls) <= IX_SLEEP) {
        out[j] = 0;
        continue;
      }
      a = _mm256_add_epi32(a, two);
      b1 = _mm256_loadu_si256((const __m256i *)(const void *)(v - 1));
#define IX_NEAR32(b) (t = _mm256_sub_epi32(a, (b)), \
        _mm256_cmpeq_epi32(_mm256_min_epu32(t, four), t))
#define IX_AT(d) _mm256_loadu_si256((const __m256i *)(const void *)(v - (d)))
      link = IX_NEAR32(b1);
      link = _mm256_or_si256(link, IX_NEAR32(IX_AT(2)));
      link = _mm256_or_si256(link, IX_NEAR32(IX_AT(3)));
      link = _mm256_or_si256(link, IX_NEAR32(IX_AT(4)));
      link = _mm256_or_si256(link, IX_NEAR32(IX_AT(5)));
      link = _mm256_or_si256(link, IX_NEAR32(IX_AT(6)));
#undef IX_NEAR32
#undef IX_AT
      /* a value equal to the one before links to none: a - b + 2 == 2 */
      link = _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_sub_epi32(a, b1),
                                                    two),
                                 _mm256_and_si256(link, small));
      bits = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(link));
      out[j] = (uint16_t)((unsigned)_mm_popcnt_u32(bits) << 8 |
                          ix_reversed[bits]);
    }
  }
}
#endif

/* The first of links[j..count) with IX_WAKE links or more, or count */
#ifdef SCAN_AVX2
SCAN_TARGET_AVX2
static size_t ix_next_wake_avx2(const uint16_t *links, size_t j,
                                size_t count)
{
  const __m256i below = _mm256_set1_epi16((IX_WAKE << 8) - 1);
  for (; j + 16 <= count; j += 16) {
    unsigned m = (unsigned)_mm256_movemask_epi8(_mm256_cmpgt_epi16(
      _mm256_loadu_si256((const __m256i *)(const void *)(links + j)),
      below));
    if (m != 0) return j + (size_t)scan_ctz64(m) / 2;
  }
  for (; j < count; j++)
    if (links[j] >= IX_WAKE << 8) break;
  return j;
}
#endif

static size_t ix_next_wake(const scan_state *s, const uint16_t *links,
                           size_t j, size_t count)
{
#ifdef SCAN_AVX2
  if (s->wide) return ix_next_wake_avx2(links, j, count);
#endif
  (void)s;
  for (; j < count; j++)
    if (links[j] >= IX_WAKE << 8) break;
  return j;
}

/* The blocks of x that are whole in the buffer (all, and the values short
** of a block, at the file's end); links: room for a word per block. */
void ix_range(scan_state *s, scan_ixrun *x, const void *values,
              uint64_t base, size_t have, int last, uint16_t *links)
{
  uint64_t block = IX_BLOCK * (uint64_t)x->size, end = base + have, o;
  size_t count = x->next + block <= end
                   ? (size_t)((end - x->next) / block) : 0, j = 0;
  /* the links of every block first; the file's start: nothing to look
  ** back at */
  if (count > 0 && x->next < IX_WINDOW * (uint64_t)x->size)
    links[j++] = IX_WAKE << 8;
  if (j < count) {
    const uint8_t *p = (const uint8_t *)values +
                       (size_t)(x->next + j * block - base);
#ifdef SCAN_AVX2
    if (s->wide)
      ix_links_avx2(p, x->size, count - j, links + j);
    else
#endif
      for (; j < count; j++, p += block)
        links[j] = (uint16_t)ix_block_links(p, x->size);
  }
  for (o = x->next, j = 0; j < count; o += block, j++) {
    if (!x->awake) {
      uint64_t from;
      /* asleep: the next block that wakes it */
      size_t wake = ix_next_wake(s, links, j, count);
      o += (wake - j) * block;
      j = wake;
      if (j == count) break;
      from = o > IX_BACKUP * (uint64_t)x->size
               ? o - IX_BACKUP * (uint64_t)x->size : 0;
      if (from < x->fed_end) from = x->fed_end;
      x->awake = 1;
      x->sparse = 0;
      ix_feed(s, x, values, base, from, o + block);
    } else {
      unsigned lk = links[j];
      int n = (int)(lk >> 8);
      if (!ix_dense(x, (const uint8_t *)values + (size_t)(o - base), o,
                    lk & 0xFF, n))
        ix_feed(s, x, values, base, o, o + block);
      x->sparse = n <= IX_SLEEP ? x->sparse + 1 : 0;
      /* two such blocks: fewer than a third of the last IX_RECENT values
      ** link, and ix_value would have ended a run there as well */
      if (x->first_linked < 0 ? n <= IX_SLEEP : x->sparse >= 2) {
        ix_close(s, x);
        x->awake = 0;
      }
    }
  }
  x->next = o;
  if (last && o + (uint64_t)x->size <= end) {
    ix_feed(s, x, values, base, o, end - (end - o) % (uint64_t)x->size);
    x->next = end;
  }
}

/* ------------------------------------------------ after the pass */

/* An index run may take in values of the bytes on either side that happen
** to link (random small numbers, text): its ends are moved in to where
** links are dense, as in a buffer, and the vertex count it fits worked out
** again over what is left. A run whose values reach higher than its count
** (a buffer names each of its vertices at least once), or that holds
** fewer distinct values than half the vertices it fits (text repeating a
** few letters links as indices do), is no index buffer. */
#define IX_END 96      /* values examined at either end */
#define IX_DENSE 8     /* of these many values from an end ... */
#define IX_DENSE_MIN 7 /* ... so many link */

static int ix_read(scan_source *src, const rsx_scan_found *f, uint64_t from,
                   size_t n, uint32_t *out)
{
  uint8_t buf[IX_END * 4];
  size_t i;
  if (src_read(src, f->offset + from * f->size, buf, n * f->size, NULL) != 0)
    return -1;
  for (i = 0; i < n; i++)
    out[i] = f->size == 2 ? rsx_be16(buf + 2 * i) : rsx_be32(buf + 4 * i);
  return 0;
}

/* back[i]: value i links to one of the IX_WINDOW before it; ahead[i]: one
** of those after it links to it (as ix_value links, within v[0..n)) */
static void ix_links(const uint32_t *v, size_t n, uint32_t restart,
                     unsigned char *back, unsigned char *ahead)
{
  size_t i, d;
  memset(back, 0, n);
  memset(ahead, 0, n);
  for (i = 1; i < n; i++) {
    if (v[i] == restart || v[i] == v[i - 1]) continue;
    for (d = 1; d <= IX_WINDOW && d <= i; d++)
      if (v[i - d] != restart && v[i] - v[i - d] + IX_NEAR <= 2u * IX_NEAR)
      {
        back[i] = 1;
        ahead[i - d] = 1;
      }
  }
}

#ifdef SCAN_AVX2
/* ix_links of n <= IX_END values, 8 values' links to the d-th before
** them at a time: a bit per value, then the bytes */
SCAN_TARGET_AVX2
static void ix_links_wide(const uint32_t *v, size_t n, uint32_t restart,
                          unsigned char *back, unsigned char *ahead)
{
  const __m256i rs = _mm256_set1_epi32((int)restart);
  const __m256i two = _mm256_set1_epi32(IX_NEAR);
  const __m256i four = _mm256_set1_epi32(2 * IX_NEAR);
  uint64_t bb[2] = {0, 0}, ab[2] = {0, 0};
  size_t i, d, m = n < IX_BLOCK ? n : IX_BLOCK;
  /* the first values, whose window reaches before v: as ix_links */
  for (i = 1; i < m; i++) {
    if (v[i] == restart || v[i] == v[i - 1]) continue;
    for (d = 1; d <= IX_WINDOW && d <= i; d++)
      if (v[i - d] != restart && v[i] - v[i - d] + IX_NEAR <= 2u * IX_NEAR) {
        bb[i >> 6] |= (uint64_t)1 << (i & 63);
        ab[(i - d) >> 6] |= (uint64_t)1 << ((i - d) & 63);
      }
  }
  for (i = IX_BLOCK; i + 8 <= n; i += 8) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(v + i));
    __m256i b1 = _mm256_loadu_si256((const __m256i *)(const void *)
                                    (v + i - 1));
    /* the values that link at all: not restarts, not the one before */
    __m256i live = _mm256_andnot_si256(
      _mm256_or_si256(_mm256_cmpeq_epi32(a, rs), _mm256_cmpeq_epi32(a, b1)),
      _mm256_set1_epi32(-1));
    a = _mm256_add_epi32(a, two);
    for (d = 1; d <= IX_WINDOW; d++) {
      __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)
                                     (v + i - d));
      __m256i t = _mm256_sub_epi32(a, b);
      __m256i link = _mm256_and_si256(
        _mm256_andnot_si256(_mm256_cmpeq_epi32(b, rs), live),
        _mm256_cmpeq_epi32(_mm256_min_epu32(t, four), t));
      uint64_t bits = (uint64_t)(unsigned)_mm256_movemask_ps(
        _mm256_castsi256_ps(link));
      size_t at = i - d;
      bb[i >> 6] |= bits << (i & 63);
      if ((i & 63) > 56) bb[(i >> 6) + 1] |= bits >> (64 - (i & 63));
      ab[at >> 6] |= bits << (at & 63);
      if ((at & 63) > 56) ab[(at >> 6) + 1] |= bits >> (64 - (at & 63));
    }
  }
  for (d = 0; d < i && d < n; d++) {
    back[d] = (unsigned char)(bb[d >> 6] >> (d & 63) & 1);
    ahead[d] = (unsigned char)(ab[d >> 6] >> (d & 63) & 1);
  }
  /* the values past the last 8, as ix_links */
  for (; d < n; d++) back[d] = ahead[d] = 0;
  for (; i < n; i++) {
    if (v[i] == restart || v[i] == v[i - 1]) continue;
    for (d = 1; d <= IX_WINDOW && d <= i; d++)
      if (v[i - d] != restart && v[i] - v[i - d] + IX_NEAR <= 2u * IX_NEAR) {
        back[i] = 1;
        ahead[i - d] = 1;
      }
  }
}
#endif

/* What ix_verify learns of a run's values: the largest (restarts aside),
** and of those below its vertex count the largest and which occur (their
** count is the bits set, counted once at the end: ix_distinct). */
typedef struct ix_tally {
  uint32_t inner, top;
  uint8_t *seen;              /* a bit per value below the count */
} ix_tally;

/* the values v[0..n) tallied (in locals: the bitmap's bytes may alias
** anything) */
static void ix_count(const rsx_scan_found *f, uint32_t restart, ix_tally *t,
                     const uint32_t *v, size_t n)
{
  uint32_t inner = t->inner, top = t->top, count = f->vertices;
  uint8_t *seen = t->seen;
  size_t i;
  for (i = 0; i < n; i++) {
    uint32_t u = v[i];
    if (u == restart) continue;
    if (u > inner) inner = u;
    if (u >= count) continue;
    if (u > top) top = u;
    seen[u / 8] |= (uint8_t)(1u << (u % 8));
  }
  t->inner = inner;
  t->top = top;
}

/* the distinct values tallied: the bits set, all at or below t->top */
#define IX_DISTINCT_BODY                                                    \
  size_t n = (size_t)t->top / 8 + 1, i = 0;                                 \
  uint64_t sum = 0;                                                         \
  for (; i + 8 <= n; i += 8) {                                              \
    uint64_t w;                                                             \
    memcpy(&w, t->seen + i, sizeof w);                                      \
    sum += IX_POPCOUNT64(w);                                                \
  }                                                                         \
  for (; i < n; i++) sum += (uint64_t)scan_bits8(t->seen[i]);               \
  return sum;

static uint64_t ix_popcount64(uint64_t w)
{
  w -= (w >> 1) & 0x5555555555555555u;
  w = (w & 0x3333333333333333u) + ((w >> 2) & 0x3333333333333333u);
  w = (w + (w >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
  return (w * 0x0101010101010101u) >> 56;
}

static uint64_t ix_distinct(const ix_tally *t)
{
#define IX_POPCOUNT64(w) ix_popcount64(w)
  IX_DISTINCT_BODY
#undef IX_POPCOUNT64
}

#ifdef SCAN_AVX2
SCAN_TARGET_AVX2
static uint64_t ix_distinct_popcnt(const ix_tally *t)
{
#define IX_POPCOUNT64(w) (uint64_t)_mm_popcnt_u64(w)
  IX_DISTINCT_BODY
#undef IX_POPCOUNT64
}
#endif

#ifdef SCAN_AVX2
/* The big-endian values of size bytes in buf[0..want) in the host's
** order, 8 at a time while 8 are whole; returns how many */
SCAN_TARGET_AVX2
static size_t ix_values_avx2(const uint8_t *buf, size_t want, int size,
                             uint32_t *v)
{
  size_t n = 0;
  if (size == 2) {
    const __m128i be16 = _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10,
                                       13, 12, 15, 14);
    for (; 2 * n + 16 <= want; n += 8)
      _mm256_storeu_si256((__m256i *)(void *)(v + n), _mm256_cvtepu16_epi32(
        _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)
                                         (buf + 2 * n)), be16)));
  } else {
    const __m256i be32 = _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9,
      8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
    for (; 4 * n + 32 <= want; n += 8)
      _mm256_storeu_si256((__m256i *)(void *)(v + n), _mm256_shuffle_epi8(
        _mm256_loadu_si256((const __m256i *)(const void *)(buf + 4 * n)),
        be32));
  }
  return n;
}
#endif

/* ix_count over values from..to-1 of run f (wide: with AVX2). */
static int ix_tally_range(scan_source *src, const rsx_scan_found *f,
                          uint64_t from, uint64_t to, ix_tally *t, int wide)
{
  uint32_t restart = f->size == 2 ? 0xFFFFu : 0xFFFFFFFFu;
  uint8_t buf[4096];
  uint32_t v[4096 / 2];
  (void)wide;
  while (from < to) {
    size_t want = (size_t)((to - from) * f->size < sizeof buf
                             ? (to - from) * f->size : sizeof buf), k = 0,
           n = 0;
    if (src_read(src, f->offset + from * f->size, buf, want, NULL) != 0)
      return -1;
#ifdef SCAN_AVX2
    if (wide) k = n = ix_values_avx2(buf, want, f->size, v);
#endif
    if (f->size == 2)
      for (k *= 2; k + 2 <= want; k += 2) v[n++] = rsx_be16(buf + k);
    else
      for (k *= 4; k + 4 <= want; k += 4) v[n++] = rsx_be32(buf + k);
    ix_count(f, restart, t, v, n);
    from += want / f->size;
  }
  return 0;
}

int ix_verify(scan_state *s, rsx_scan_found *f)
{
  uint32_t restart = f->size == 2 ? 0xFFFFu : 0xFFFFFFFFu;
  uint32_t head[IX_END], tail[IX_END];
  unsigned char hb[IX_END], ha[IX_END], tb[IX_END], ta[IX_END];
  uint64_t n = f->count, first = 0, last = 0;
  size_t h = n < IX_END ? (size_t)n : IX_END, i, k;
  uint64_t distinct;
  ix_tally t;
  int found;

  if (ix_read(s->src, f, 0, h, head) != 0 ||
      ix_read(s->src, f, n - h, h, tail) != 0)
    return 0;
#ifdef SCAN_AVX2
  if (s->wide) {
    ix_links_wide(head, h, restart, hb, ha);
    ix_links_wide(tail, h, restart, tb, ta);
  } else
#endif
  {
    ix_links(head, h, restart, hb, ha);
    ix_links(tail, h, restart, tb, ta);
  }
  /* the first value that a later one links to, where links are dense;
  ** the last that links to an earlier one, likewise (other bytes link
  ** among themselves, " t" to " s" in text, but not into the buffer) */
  found = 0;
  for (i = 0; i < h && !found; i++) {
    int c = 0;
    for (k = i; k < h && k < i + IX_DENSE; k++) c += hb[k] | ha[k];
    if (ha[i] && c >= IX_DENSE_MIN) {
      first = i;
      found = 1;
    }
  }
  if (!found) return 0;
  found = 0;
  for (i = h; i > 0 && !found; i--) {
    int c = 0;
    for (k = i; k > 0 && k + IX_DENSE > i; k--) c += tb[k - 1] | ta[k - 1];
    if (tb[i - 1] && c >= IX_DENSE_MIN) {
      last = n - h + i;     /* one past */
      found = 1;
    }
  }
  if (!found || last <= first) return 0;
  /* a value of other bytes may still link by chance at an end: those far
  ** above the interior's largest go; the largest value and the distinct
  ** ones over what is left are counted on the way (the interior once, then
  ** the ends that stay) */
  memset(&t, 0, sizeof t);
  t.seen = calloc((size_t)f->vertices / 8 + 1, 1);
  if (t.seen == NULL) return 0;
  {
    uint64_t e = (last - first) / 4 < IX_END / 2 ? (last - first) / 4
                                                 : IX_END / 2;
    uint32_t lead[IX_END / 2], trail[IX_END / 2];
    if (e > 0 && ix_read(s->src, f, first, (size_t)e, lead) == 0 &&
        ix_read(s->src, f, last - e, (size_t)e, trail) == 0 &&
        ix_tally_range(s->src, f, first + e, last - e, &t, s->wide) == 0) {
      uint64_t limit = 2 * (uint64_t)t.inner + 64, q, from = first,
               to = last;
      for (q = 0; q < e; q++)
        if (lead[q] != restart && lead[q] > limit) first = from + q + 1;
      for (q = e; q > 0; q--)
        if (trail[q - 1] != restart && trail[q - 1] > limit)
          last = to - e + q - 1;
      ix_count(f, restart, &t, lead + (first - from),
               (size_t)(e - (first - from)));
      ix_count(f, restart, &t, trail, (size_t)(last - (to - e)));
    } else {
      memset(t.seen, 0, (size_t)f->vertices / 8 + 1);
      t.top = 0;
      ix_tally_range(s->src, f, first, last, &t, s->wide);
    }
  }
#ifdef SCAN_AVX2
  distinct = s->wide ? ix_distinct_popcnt(&t) : ix_distinct(&t);
#else
  distinct = ix_distinct(&t);
#endif
  free(t.seen);
  if (last <= first) return 0;
  f->offset += first * f->size;
  f->count = (uint32_t)(last - first);
  f->bytes = (uint64_t)f->count * f->size;
  f->vertices = t.top + 1;
  return (uint64_t)f->vertices <= f->count &&
         f->vertices >= s->opt->min_vertices &&
         distinct * 2 >= f->vertices;
}
