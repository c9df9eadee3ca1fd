/*
** scan-pass.c - the scanner's one pass over the input, a chunk at a time
** (scan_pass): every word classified once (SSE2, AVX2 where the
** processor has it), each layout's runs of records followed, metadata
** records and the runs of UV words (C_T) listed, and the index detectors
** fed (scan-index.c). The hot loops are here, in one file, so that the
** compiler inlines them as it did in one scan.c.
*/
#include "scan-internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int scan_known_mask(uint32_t w)
{
  size_t i;
  if ((w & 0xFFFFF000u) != 0x00080000u) return 0;
  for (i = 0; i < SCAN_MASK_COUNT; i++)
    if (scan_masks[i] == w) return 1;
  return 0;
}

/* ----------------------------------------------------- word classes */

/* Squared CMP lengths in units of (1/32767)^2, from the note's scales
** (x, y times 32, z times 64): the unit shell of RSX_UNIT_TOLERANCE. */
static int64_t scan_unit_lo, scan_unit_hi;

void scan_init_limits(void)
{
  double full = 32767.0 * 32767.0;
  scan_unit_lo = (int64_t)ceil((1 - RSX_UNIT_TOLERANCE) *
                               (1 - RSX_UNIT_TOLERANCE) * full);
  scan_unit_hi = (int64_t)floor((1 + RSX_UNIT_TOLERANCE) *
                                (1 + RSX_UNIT_TOLERANCE) * full);
}

/* The note's tiling range of UVs on the disc, -807 to 512: 0x6000 is
** 512, 0xE24E is -807. */
static int scan_tiling_ok(uint32_t h)
{
  return h <= 0x6000u || (h >= 0x8000u && h <= 0xE24Eu);
}

static int scan_half_ok(uint32_t h)
{
  /* 0x6400 is 1024; everything above, infinities and NaNs included */
  return (h & 0x7FFFu) <= 0x6400u;
}

unsigned scan_classify(uint32_t w)
{
  unsigned c = 0;
  int32_t x, y, z;
  int64_t len2;

  if (((w >> 23) & 0xFFu) < 127u + 20u) c |= C_F;
  if (w == 0) return c | C_UZ | C_Z | C_S | C_H | C_HW0 | C_T;
  if (scan_tiling_ok(w >> 16) && scan_tiling_ok(w & 0xFFFFu)) c |= C_T;
  /* sign-extend the 11:11:10 fields as rsx_cmp does */
  x = (int32_t)((w & 0x7FFu) ^ 0x400u) - 0x400;
  y = (int32_t)(((w >> 11) & 0x7FFu) ^ 0x400u) - 0x400;
  z = (int32_t)(((w >> 22) & 0x3FFu) ^ 0x200u) - 0x200;
  len2 = 1024 * ((int64_t)x * x + (int64_t)y * y) + 4096 * (int64_t)z * z;
  if (len2 <= scan_unit_hi) {
    c |= C_S;
    if (len2 >= scan_unit_lo) c |= C_U | C_UZ;
  }
  if (scan_half_ok(w >> 16) && scan_half_ok(w & 0xFFFFu)) {
    c |= C_H;
    if ((w & 0x7FFFu) == 0) c |= C_HW0;
  }
  return c;
}

/* The classes of words in the host's order, a bitmap per class bit (bit
** j % 64 of bits[b * nbits + j / 64]: word j has class 1 << b), which
** come in zero. scan_classify's tests, 4 words at a time where the
** compiler has vectors: the squared length 1024 times smaller (len2 is
** 1024 times x^2 + y^2 + 4 z^2, so its limits divide); with SSE2, its
** squares and sums by pmaddwd and each class's bits by movmskps. */
#if defined(SCAN_VECTORS) && defined(__SSE2__)

static unsigned lanes_set(__m128i m)
{
  return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(m));
}

static void scan_classify_words(const uint32_t *words, size_t n,
                                uint64_t *bits, size_t nbits)
{
  const __m128i lo = _mm_set1_epi32((int32_t)((scan_unit_lo + 1023) / 1024)
                                    - 1);
  const __m128i hi = _mm_set1_epi32((int32_t)(scan_unit_hi / 1024) + 1);
  const __m128i low16 = _mm_set1_epi32(0xFFFF), zero = _mm_setzero_si128();
  const __m128i ones = _mm_set1_epi32(-1);
  const __m128i magnitude = _mm_set1_epi32(0x7FFF7FFF);
  const __m128i half_over = _mm_set1_epi16(0x6401);
  const __m128i tile_max = _mm_set1_epi16(0x6000);     /* 512 */
  const __m128i tile_min = _mm_set1_epi16(-7602);      /* 0xE24E, -807 */
  const __m128i exponent = _mm_set1_epi32(0xFF);
  const __m128i exponent_over = _mm_set1_epi32(127 + 20);
  const __m128i second = _mm_set1_epi32(0x7FFF);
  size_t i = 0, q;
  for (q = 0; i + 4 <= n; q++) {
    uint64_t acc[CLASS_BITS] = {0};
    size_t end = n - i < 64 ? i + (n - i) / 4 * 4 : i + 64;
    int b;
    for (; i < end; i += 4) {
      unsigned sh = (unsigned)(i & 63);
      __m128i w = _mm_loadu_si128((const __m128i *)(const void *)(words + i));
      __m128i x = _mm_srai_epi32(_mm_slli_epi32(w, 21), 21);
      __m128i y = _mm_srai_epi32(_mm_slli_epi32(w, 10), 21);
      __m128i z2 = _mm_and_si128(_mm_slli_epi32(_mm_srai_epi32(w, 22), 1),
                                 low16);
      __m128i xy = _mm_or_si128(_mm_and_si128(x, low16),
                                _mm_slli_epi32(y, 16));
      __m128i len = _mm_add_epi32(_mm_madd_epi16(xy, xy),
                                  _mm_madd_epi16(z2, z2));
      __m128i shell = _mm_cmplt_epi32(len, hi);
      __m128i unit = _mm_and_si128(shell, _mm_cmpgt_epi32(len, lo));
      __m128i zeroed = _mm_cmpeq_epi32(w, zero);
      __m128i half = _mm_cmpeq_epi32(
        _mm_cmplt_epi16(_mm_and_si128(w, magnitude), half_over), ones);
      /* a half float's bits as a signed 16-bit number: -7602 to 24576 but
      ** not -7601 to -1 */
      __m128i untiled = _mm_or_si128(
        _mm_cmpgt_epi16(w, tile_max),
        _mm_and_si128(_mm_cmpgt_epi16(w, tile_min), _mm_cmplt_epi16(w, zero)));
      acc[0] |= (uint64_t)lanes_set(_mm_cmplt_epi32(
        _mm_and_si128(_mm_srli_epi32(w, 23), exponent), exponent_over)) << sh;
      acc[1] |= (uint64_t)lanes_set(_mm_or_si128(unit, zeroed)) << sh;
      acc[2] |= (uint64_t)lanes_set(zeroed) << sh;
      acc[3] |= (uint64_t)lanes_set(shell) << sh;
      acc[4] |= (uint64_t)lanes_set(half) << sh;
      acc[5] |= (uint64_t)lanes_set(_mm_and_si128(
        half, _mm_cmpeq_epi32(_mm_and_si128(w, second), zero))) << sh;
      acc[6] |= (uint64_t)lanes_set(unit) << sh;
      acc[7] |= (uint64_t)lanes_set(_mm_cmpeq_epi32(untiled, zero)) << sh;
    }
    for (b = 0; b < CLASS_BITS; b++) bits[(size_t)b * nbits + q] = acc[b];
  }
  for (; i < n; i++) {
    unsigned c = scan_classify(words[i]);
    int b;
    for (b = 0; b < CLASS_BITS; b++)
      if (c >> b & 1) bits[(size_t)b * nbits + i / 64] |= (uint64_t)1 << (i & 63);
  }
}
#else
#ifdef SCAN_VECTORS
static void scan_classify_bytes(const uint32_t *words, size_t n,
                                unsigned char *cls)
{
  int32_t lo = (int32_t)((scan_unit_lo + 1023) / 1024);
  int32_t hi = (int32_t)(scan_unit_hi / 1024);
  size_t i;
  int k;
  for (i = 0; i + 4 <= n; i += 4) {
    scan_w32x4 w, c;
    scan_i32x4 x, y, z, len, shell, half;
    memcpy(&w, words + i, sizeof w);
    x = (scan_i32x4)(w << 21) >> 21;
    y = (scan_i32x4)(w << 10) >> 21;
    z = (scan_i32x4)w >> 22;
    len = x * x + y * y + 4 * z * z;
    shell = len <= hi;
    half = ((scan_i32x4)((w >> 16) & 0x7FFFu) <= 0x6400) &
           ((scan_i32x4)(w & 0x7FFFu) <= 0x6400);
    c = ((scan_w32x4)(((w >> 23) & 0xFFu) < 127u + 20u) & C_F) |
        ((scan_w32x4)(w == 0) & (C_Z | C_UZ)) |
        ((scan_w32x4)shell & C_S) |
        ((scan_w32x4)(shell & (len >= lo)) & (C_U | C_UZ)) |
        ((scan_w32x4)half & C_H) |
        ((scan_w32x4)(half & ((scan_i32x4)(w & 0x7FFFu) == 0)) & C_HW0) |
        ((scan_w32x4)(((w >> 16) <= 0x6000u) |
                      (((w >> 16) >= 0x8000u) & ((w >> 16) <= 0xE24Eu))) &
         (scan_w32x4)(((w & 0xFFFFu) <= 0x6000u) |
                      (((w & 0xFFFFu) >= 0x8000u) &
                       ((w & 0xFFFFu) <= 0xE24Eu))) & C_T);
    for (k = 0; k < 4; k++) cls[i + (size_t)k] = (unsigned char)c[k];
  }
  for (; i < n; i++) cls[i] = (unsigned char)scan_classify(words[i]);
}
#else
static void scan_classify_bytes(const uint32_t *words, size_t n,
                                unsigned char *cls)
{
  size_t i;
  for (i = 0; i < n; i++) cls[i] = (unsigned char)scan_classify(words[i]);
}
#endif

static void scan_classify_words(const uint32_t *words, size_t n,
                                uint64_t *bits, size_t nbits)
{
  unsigned char cls[64];
  size_t i, k;
  for (i = 0; i < n; i += 64) {
    size_t m = n - i < 64 ? n - i : 64;
    int b;
    memset(cls, 0, sizeof cls);
    scan_classify_bytes(words + i, m, cls);
    /* the bit of 8 classes at a time, gathered into a byte */
    for (k = 0; k < 64; k += 8) {
      uint64_t c;
      memcpy(&c, cls + k, sizeof c);
      for (b = 0; b < CLASS_BITS; b++)
        bits[(size_t)b * nbits + i / 64] |=
          ((c >> b & 0x0101010101010101u) * 0x0102040810204080u >> 56) << k;
    }
  }
}
#endif

/* The buffer's u16 and u32 values at every 2 and 4 bytes, in the host's
** order. */
static void scan_swap(const uint8_t *buf, size_t have, uint16_t *v16,
                      uint32_t *v32)
{
  size_t i = 0, done;
#if defined(SCAN_VECTORS) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (; i + 16 <= have; i += 16) {
    scan_w32x4 w;
    memcpy(&w, buf + i, sizeof w);
    w = ((w << 8) & 0xFF00FF00u) | ((w >> 8) & 0x00FF00FFu);  /* u16 */
    memcpy(v16 + i / 2, &w, sizeof w);
    w = (w << 16) | (w >> 16);                                 /* u32 */
    memcpy(v32 + i / 4, &w, sizeof w);
  }
#endif
  done = i;
  for (; i + 2 <= have; i += 2) v16[i / 2] = rsx_be16(buf + i);
  for (i = done; i + 4 <= have; i += 4) v32[i / 4] = rsx_be32(buf + i);
}

/* AVX2 where the processor has it (scan_state.wide, once per scan): the
** swap and the classes above 8 words at a time, in one pass over the
** buffer, and the other bulk work of the pass; each finds exactly what
** the SSE2 code does (t/scan-paths.lua and fuzz_scan compare them). */

#ifdef SCAN_AVX2

int scan_has_avx2(void)
{
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
}

SCAN_TARGET_AVX2
static unsigned lanes_set8(__m256i m)
{
  return (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(m));
}

/* scan_swap and scan_classify_words of the buffer's whole 64-word groups,
** then theirs for the rest */
SCAN_TARGET_AVX2
static void scan_swap_classify_avx2(const uint8_t *buf, size_t have,
                                    uint16_t *v16, uint32_t *v32,
                                    uint64_t *bits, size_t nbits)
{
  const __m256i be32 = _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9,
    8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
  const __m256i be16 = _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11,
    10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
  const __m256i lo = _mm256_set1_epi32(
    (int32_t)((scan_unit_lo + 1023) / 1024) - 1);
  const __m256i hi = _mm256_set1_epi32((int32_t)(scan_unit_hi / 1024) + 1);
  const __m256i low16 = _mm256_set1_epi32(0xFFFF);
  const __m256i zero = _mm256_setzero_si256();
  const __m256i ones = _mm256_set1_epi32(-1);
  const __m256i magnitude = _mm256_set1_epi32(0x7FFF7FFF);
  const __m256i half_over = _mm256_set1_epi16(0x6401);
  const __m256i tile_max = _mm256_set1_epi16(0x6000);
  const __m256i tile_min = _mm256_set1_epi16(-7602);
  const __m256i exponent = _mm256_set1_epi32(0xFF);
  const __m256i exponent_over = _mm256_set1_epi32(127 + 20);
  const __m256i second = _mm256_set1_epi32(0x7FFF);
  size_t n = have / 4, groups = n / 64, q, i = 0;
  for (q = 0; q < groups; q++) {
    uint64_t acc[CLASS_BITS] = {0};
    int b;
    for (; i < 64 * (q + 1); i += 8) {
      unsigned sh = (unsigned)(i & 63);
      __m256i raw = _mm256_loadu_si256((const __m256i *)(const void *)
                                       (buf + 4 * i));
      __m256i w = _mm256_shuffle_epi8(raw, be32);
      __m256i x = _mm256_srai_epi32(_mm256_slli_epi32(w, 21), 21);
      __m256i y = _mm256_srai_epi32(_mm256_slli_epi32(w, 10), 21);
      __m256i z2 = _mm256_and_si256(
        _mm256_slli_epi32(_mm256_srai_epi32(w, 22), 1), low16);
      __m256i xy = _mm256_or_si256(_mm256_and_si256(x, low16),
                                   _mm256_slli_epi32(y, 16));
      __m256i len = _mm256_add_epi32(_mm256_madd_epi16(xy, xy),
                                     _mm256_madd_epi16(z2, z2));
      __m256i shell = _mm256_cmpgt_epi32(hi, len);
      __m256i unit = _mm256_and_si256(shell, _mm256_cmpgt_epi32(len, lo));
      __m256i zeroed = _mm256_cmpeq_epi32(w, zero);
      __m256i half = _mm256_cmpeq_epi32(
        _mm256_cmpgt_epi16(half_over, _mm256_and_si256(w, magnitude)), ones);
      __m256i untiled = _mm256_or_si256(
        _mm256_cmpgt_epi16(w, tile_max),
        _mm256_and_si256(_mm256_cmpgt_epi16(w, tile_min),
                         _mm256_cmpgt_epi16(zero, w)));
      _mm256_storeu_si256((__m256i *)(void *)(v32 + i), w);
      _mm256_storeu_si256((__m256i *)(void *)(v16 + 2 * i),
                          _mm256_shuffle_epi8(raw, be16));
      acc[0] |= (uint64_t)lanes_set8(_mm256_cmpgt_epi32(exponent_over,
        _mm256_and_si256(_mm256_srli_epi32(w, 23), exponent))) << sh;
      acc[1] |= (uint64_t)lanes_set8(_mm256_or_si256(unit, zeroed)) << sh;
      acc[2] |= (uint64_t)lanes_set8(zeroed) << sh;
      acc[3] |= (uint64_t)lanes_set8(shell) << sh;
      acc[4] |= (uint64_t)lanes_set8(half) << sh;
      acc[5] |= (uint64_t)lanes_set8(_mm256_and_si256(
        half, _mm256_cmpeq_epi32(_mm256_and_si256(w, second), zero))) << sh;
      acc[6] |= (uint64_t)lanes_set8(unit) << sh;
      acc[7] |= (uint64_t)lanes_set8(_mm256_cmpeq_epi32(untiled, zero))
                << sh;
    }
    for (b = 0; b < CLASS_BITS; b++) bits[(size_t)b * nbits + q] = acc[b];
  }
  scan_swap(buf + 4 * i, have - 4 * i, v16 + 2 * i, v32 + i);
  scan_classify_words(v32 + i, n - i, bits + groups, nbits);
}
#endif

/* --------------------------------------------------------- layouts */

/* The MMP, then every MGP layout of the table but colour-only (whose
** bytes can be anything, so nothing can find it). */
int scan_make_layouts(scan_layout *out)
{
  int n = 0;
  size_t i;
  scan_layout *l = &out[n++];
  memset(l, 0, sizeof *l);
  l->kind = RSX_SCAN_MMP;
  l->words = 4;
  l->need[0] = l->need[1] = l->need[2] = C_F;
  l->need[3] = C_UZ;
  l->soft = 3;
  for (i = 0; i < SCAN_MASK_COUNT; i++) {
    rsx_format f;
    int kinds[RSX_KIND_COUNT], nk, k, have_b = 0;
    rsx_format_init(&f, scan_masks[i]);
    if (f.mgp_stride == 0) continue;
    nk = rsx_format_mgp_order(&f, kinds);
    l = &out[n];
    memset(l, 0, sizeof *l);
    l->kind = RSX_SCAN_MGP;
    l->mask = f.mask;
    l->words = f.mgp_stride / 4;
    for (k = 0; k < nk; k++) {
      int w = f.offset[kinds[k]] / 4;
      switch (kinds[k]) {
      case RSX_TANGENT_A: l->need[w] = C_S; break;
      case RSX_TANGENT_B: l->need[w] = C_UZ; l->soft = w; have_b = 1; break;
      case RSX_EXTRA_B:   /* x, y, z and a w of zero */
        l->need[w] = C_H;
        l->need[w + 1] = C_HW0;
        break;
      case RSX_COLOUR: break;  /* any bytes */
      default:           /* UVs, extra A: half floats */
        l->need[w] = C_H;
        if (f.attr[kinds[k]]->size == 8) l->need[w + 1] = C_H;
        break;
      }
    }
    /* Without tangent frames an MGP is half floats (and colour bytes)
    ** alone, which arrays of half floats, small integers and zeros pass
    ** as well: not looked for (doc/finding-meshes.md). */
    if (!have_b) continue;
    n++;
  }
  return n;
}

/* ---------------------------------------------------------- the scan */

/* array (of *cap items of elem bytes, n of them used) with room for one
** more: itself, or grown to twice the items; NULL, with the scan's
** dropped or nomem counted and array as it was, past
** SCAN_CANDIDATES_MAX items or out of memory. */
void *scan_room(scan_state *s, void *array, size_t *cap, size_t n,
                size_t elem)
{
  size_t grown;
  if (n >= SCAN_CANDIDATES_MAX) {
    s->dropped++;
    return NULL;
  }
  if (n < *cap) return array;
  grown = *cap ? *cap * 2 : 64;
  array = realloc(array, grown * elem);
  if (array == NULL) {
    s->nomem = 1;
    return NULL;
  }
  *cap = grown;
  return array;
}

void scan_add(scan_state *s, const rsx_scan_found *f)
{
  rsx_scan_found *cand = scan_room(s, s->cand, &s->capcand, s->ncand,
                                   sizeof *cand);
  if (cand == NULL) return;
  s->cand = cand;
  s->cand[s->ncand] = *f;
  s->cand[s->ncand].in_mesh = -1;
  s->ncand++;
}

static void run_close(scan_state *s, scan_detector *d, scan_run *r)
{
  const scan_layout *l = &d->lay;
  uint32_t stride = l->words * 4;
  uint64_t records;
  if (!r->active) return;
  r->active = 0;
  d->active--;
  d->active_phases &= ~(1u << (r - d->runs));
  records = (uint64_t)r->hard + r->soft_in;  /* (end - start) / stride */
  if (records >= s->opt->min_vertices && records <= UINT32_MAX) {
    rsx_scan_found f;
    memset(&f, 0, sizeof f);
    f.kind = l->kind;
    f.offset = r->start;
    f.bytes = r->end - r->start;
    f.vertices = (uint32_t)records;
    f.stride = stride;
    f.mask = l->mask;
    f.unit = r->hard;
    f.zero = r->soft_in;
    f.primitive = -1;
    memcpy(f.lo, r->lo, sizeof f.lo);
    memcpy(f.hi, r->hi, sizeof f.hi);
    scan_add(s, &f);
  }
}

/* One record of layout l at offset off (its bytes p): it passes (every
** word of the class it needs, the normal or B unit or zero) or fails;
** one that passes is soft when its normal (or B) is zero, else hard; and
** the run of its phase follows. */
static void scan_record(scan_state *s, scan_detector *d, unsigned phase,
                        uint64_t off, const uint8_t *p, int pass, int soft)
{
  const scan_layout *l = &d->lay;
  scan_run *r = &d->runs[phase];

  if (!pass) goto fail;
  if (soft) {
    if (!r->active) return;
    r->soft_pending++;
    if (l->kind == RSX_SCAN_MMP) bounds_add(r->plo, r->phi, p);
    if (r->soft_pending > SCAN_SOFT_MAX) run_close(s, d, r);
    return;
  }
  if (!r->active) {
    r->active = 1;
    d->active++;
    d->active_phases |= 1u << phase;
    r->start = off;
    r->hard = r->soft_in = r->soft_pending = 0;
    bounds_reset(r->lo, r->hi);
    bounds_reset(r->plo, r->phi);
  } else if (r->soft_pending) {
    int i;
    r->soft_in += r->soft_pending;
    for (i = 0; i < 3; i++) {
      if (r->plo[i] < r->lo[i]) r->lo[i] = r->plo[i];
      if (r->phi[i] > r->hi[i]) r->hi[i] = r->phi[i];
    }
    r->soft_pending = 0;
    /* the pending bounds are reset only where they were used */
    bounds_reset(r->plo, r->phi);
  }
  r->hard++;
  r->end = off + l->words * 4;
  if (l->kind == RSX_SCAN_MMP) bounds_add(r->lo, r->hi, p);
  return;
fail:
  if (r->active) run_close(s, d, r);
}

/* ------------------------------------------------- the pass, by chunk */

/* 64 bits of the bitmap from bit i on */
static uint64_t bits_at(const uint64_t *bits, size_t i)
{
  unsigned r = (unsigned)(i & 63);
  uint64_t b = bits[i >> 6] >> r;
  return r ? b | bits[(i >> 6) + 1] << (64 - r) : b;
}

/* dst[q] = (copy) or &= (else) the 64 bits of bitmap src from bit
** 64 q + shift on, for q < n: bits_at's shift worked out once. dst may be
** src: it is read ahead of where it is written. */
static void bits_and_at(uint64_t *dst, const uint64_t *src, size_t n,
                        size_t shift, int copy)
{
  const uint64_t *p = src + (shift >> 6);
  unsigned r = (unsigned)(shift & 63);
  size_t q = 0;
  if (r == 0) {
    if (copy)
      for (q = 0; q < n; q++) dst[q] = p[q];
    else
      for (q = 0; q < n; q++) dst[q] &= p[q];
    return;
  }
#ifdef SCAN_VECTORS
  /* two words at a time; in place, each pair is read before it is
  ** written */
  for (; q + 2 <= n; q += 2) {
    scan_u64x2 a, b, d;
    memcpy(&a, p + q, sizeof a);
    memcpy(&b, p + q + 1, sizeof b);
    if (copy) {
      d = a >> r | b << (64 - r);
    } else {
      memcpy(&d, dst + q, sizeof d);
      d &= a >> r | b << (64 - r);
    }
    memcpy(dst + q, &d, sizeof d);
  }
#endif
  for (; q < n; q++) {
    uint64_t b = p[q] >> r | p[q + 1] << (64 - r);
    dst[q] = copy ? b : dst[q] & b;
  }
}

#ifdef SCAN_AVX2
/* bits_and_at, four words at a time */
SCAN_TARGET_AVX2
static void bits_and_at_avx2(uint64_t *dst, const uint64_t *src, size_t n,
                             size_t shift, int copy)
{
  const uint64_t *p = src + (shift >> 6);
  unsigned r = (unsigned)(shift & 63);
  const __m128i right = _mm_cvtsi32_si128((int)r);
  const __m128i left = _mm_cvtsi32_si128((int)(64 - r));
  size_t q = 0;
  for (; q + 4 <= n; q += 4) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(p + q));
    __m256i d = a;
    if (r != 0)
      d = _mm256_or_si256(_mm256_srl_epi64(a, right), _mm256_sll_epi64(
        _mm256_loadu_si256((const __m256i *)(const void *)(p + q + 1)),
        left));
    if (!copy)
      d = _mm256_and_si256(d, _mm256_loadu_si256(
        (const __m256i *)(const void *)(dst + q)));
    _mm256_storeu_si256((__m256i *)(void *)(dst + q), d);
  }
  if (q < n) bits_and_at(dst + q, src + q, n - q, shift, copy);
}
#endif

/* bits_and_at in the scan's widest vectors */
static void bits_and(int wide, uint64_t *dst, const uint64_t *src,
                     size_t n, size_t shift, int copy)
{
#ifdef SCAN_AVX2
  if (wide) {
    bits_and_at_avx2(dst, src, n, shift, copy);
    return;
  }
#endif
  (void)wide;
  bits_and_at(dst, src, n, shift, copy);
}

/* The words of 64 from one of phase ph0 on whose phase has a run under
** way. */
static uint64_t active_bits(const scan_detector *d, unsigned ph0)
{
  unsigned w = d->lay.words, m = d->active_phases;
  if (m == 0) return 0;
  /* the phases as seen from ph0: rotated by it */
  if (ph0 != 0) m = ((m >> ph0) | (m << (w - ph0))) & ((1u << w) - 1);
  return d->pattern[m];
}

/* Where a record of layout l could begin a run that is reported (bit j
** of starts: word j), each 64 words of n: its normal (or B) unit, and it
** and the SCAN_AHEAD - 1 records after it of the class they need, unit
** or zero normals included (a run holds min_vertices records that pass
** in a row). Elsewhere a run would end before it is long enough to be
** reported, as would any that began in it: such runs are never begun,
** and the runs that are reported stay the same (doc/finding-meshes.md).
** Records not whole in the buffer (from word open on) count as passing.
** classes: a bitmap of the words per class bit, nbits apart; pass: where
** a record passes; ahead is scratch; the three hold n + SCAN_AHEAD_PAD
** words. */
#define SCAN_AHEAD_PAD ((SCAN_AHEAD * MAX_WORDS) / 64 + 2)

static void layout_starts(const scan_layout *l, uint32_t records,
                          const uint64_t *classes, size_t nbits, size_t n,
                          size_t open, uint64_t *pass, uint64_t *ahead,
                          uint64_t *starts, int wide)
{
  size_t q, all = n + SCAN_AHEAD_PAD;
  uint32_t len = 1, got = 0;
  unsigned t;
  bits_and(wide, pass, classes + CLASS_UZ * nbits, n, l->soft, 1);
  for (t = 1; t < l->nterms; t++)
    bits_and(wide, pass, classes + l->term_class[t] * nbits, n,
             l->term_word[t], 0);
  for (q = n; q < all; q++) pass[q] = 0;
  for (q = 0; q < all; q++) {
    ahead[q] = pass[q];
    if (q >= open >> 6)
      ahead[q] |= q == open >> 6 ? ~(uint64_t)0 << (open & 63)
                                 : ~(uint64_t)0;
  }
  /* the records in a row from j on that pass, as the bits of
  ** records = a sum of powers of 2: ahead holds runs of len, doubled */
  for (q = 0; q < all; q++) starts[q] = ~(uint64_t)0;
  for (;;) {
    if (records & len) {
      bits_and(wide, starts, ahead, n, (size_t)got * l->words, 0);
      got += len;
    }
    if (len * 2 > records) break;
    bits_and(wide, ahead, ahead, n, (size_t)len * l->words, 0);
    len *= 2;
  }
  bits_and(wide, starts, classes + CLASS_U * nbits, n, l->soft, 0);
}

/* Records of layout d starting at the words of [from, to), 64 words at a
** time: those that begin a run, and those of the phases whose run is
** under way; at the others a record changes nothing. */
/* bounds_add of n records stride bytes apart from p on, in their order */
static void bounds_add_many(float lo[3], float hi[3], const uint8_t *p,
                            size_t n, size_t stride)
{
#if defined(SCAN_VECTORS) && defined(__SSE2__)
  /* minps and maxps keep the second operand unless the first is below
  ** (above) it, as bounds_add does; the positions are finite (C_F) */
  __m128 vlo = _mm_setr_ps(lo[0], lo[1], lo[2], 0);
  __m128 vhi = _mm_setr_ps(hi[0], hi[1], hi[2], 0);
  float out[4];
  size_t k;
  for (k = 0; k < n; k++, p += stride) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    x = _mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8));
    x = _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xB1), 0xB1);
    vlo = _mm_min_ps(_mm_castsi128_ps(x), vlo);
    vhi = _mm_max_ps(_mm_castsi128_ps(x), vhi);
  }
  _mm_storeu_ps(out, vlo);
  memcpy(lo, out, 3 * sizeof *lo);
  _mm_storeu_ps(out, vhi);
  memcpy(hi, out, 3 * sizeof *hi);
#else
  size_t k;
  for (k = 0; k < n; k++, p += stride) bounds_add(lo, hi, p);
#endif
}

static void scan_layout_range(scan_state *s, scan_detector *d,
                              const uint8_t *buf, const uint64_t *pass,
                              const uint64_t *zero, const uint64_t *starts,
                              uint64_t base, size_t have, uint64_t from,
                              uint64_t to)
{
  const scan_layout *l = &d->lay;
  size_t i = (size_t)(from - base) / 4, end = (size_t)(to - base + 3) / 4;
  size_t whole_end = have / 4 >= l->words ? have / 4 - l->words + 1 : 0;
  for (; i < end; i += 64) {
    unsigned ph0 = (unsigned)((base / 4 + i) % l->words);
    uint64_t span = end - i < 64 ? ((uint64_t)1 << (end - i)) - 1
                                 : ~(uint64_t)0;
    uint64_t unit = bits_at(starts, i);
    uint64_t todo = (unit | active_bits(d, ph0)) & span;
    /* records that pass, hard, and whole in the buffer: in a run under
    ** way with no soft ones pending, each only adds itself (scan_record),
    ** and those in a row of a phase are taken at once */
    uint64_t easy = 0, taken = 0;
    if (todo != 0 && i < whole_end)
      easy = bits_at(pass, i) & ~bits_at(zero, i + l->soft) & span &
             (whole_end - i < 64 ? ((uint64_t)1 << (whole_end - i)) - 1
                                 : ~(uint64_t)0);
    while (todo != 0) {
      unsigned j, before = d->active_phases, phase;
      size_t at;
      scan_run *r;
      j = (unsigned)scan_ctz64(todo);
      at = i + j;
      phase = d->phase_of[ph0 + j];
      r = &d->runs[phase];
      if ((easy >> j & 1) && r->active && r->soft_pending == 0) {
        unsigned k = j, n = 0;
        do {
          taken |= (uint64_t)1 << k;
          n++;
          k += l->words;
        } while (k < 64 && (easy >> k & 1));
        r->hard += n;
        r->end = base + 4 * (uint64_t)(at + (n - 1) * l->words) +
                 l->words * 4;
        if (l->kind == RSX_SCAN_MMP)
          bounds_add_many(r->lo, r->hi, buf + 4 * at, n, l->words * 4);
        todo &= ~taken;    /* (and where todo is made again below) */
        continue;
      }
      scan_record(s, d, phase, base + 4 * (uint64_t)at, buf + 4 * at,
                  (int)(pass[at >> 6] >> (at & 63) & 1) &&
                    have - 4 * at >= l->words * 4u,
                  (int)(zero[(at + l->soft) >> 6] >> ((at + l->soft) & 63) &
                        1));
      todo &= todo - 1;
      if (d->active_phases != before)    /* a run began or ended */
        todo = (unit | active_bits(d, ph0)) & span & ~taken &
               (j == 63 ? 0 : ~(uint64_t)0 << (j + 1));
    }
  }
}

#ifdef SCAN_AVX2
/* From word i (a multiple of 8) on, past the blocks of 8 words before end
** with no word of a mask's high bits (scan_metas's test): the first block
** with one, or where fewer than 8 words are left */
SCAN_TARGET_AVX2
static size_t metas_skip_avx2(const uint32_t *words, size_t i, size_t end)
{
  const __m256i high = _mm256_set1_epi32((int)0xFFFFF000u);
  const __m256i mask = _mm256_set1_epi32(0x00080000);
#define METAS_HIT(k) _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_loadu_si256( \
    (const __m256i *)(const void *)(words + i + (k))), high), mask)
  for (; i + 32 <= end; i += 32) {
    __m256i m = _mm256_or_si256(_mm256_or_si256(METAS_HIT(0), METAS_HIT(8)),
                                _mm256_or_si256(METAS_HIT(16), METAS_HIT(24)));
    if (!_mm256_testz_si256(m, m)) break;
  }
  for (; i + 8 <= end; i += 8) {
    __m256i m = METAS_HIT(0);
    if (!_mm256_testz_si256(m, m)) break;
  }
#undef METAS_HIT
  return i;
}
#endif

/* words: the buffer's, in the host's order */
static void scan_metas(scan_state *s, const uint32_t *words, uint64_t base,
                       size_t have, uint64_t from, uint64_t to)
{
  size_t i = (size_t)(from - base) / 4, end = (size_t)(to - base + 3) / 4;
  if (end > have / 4) end = have / 4;
  for (; i < end; i++) {
    size_t at = 4 * i;
    uint32_t w = words[i];
    /* 8 words at a time first: a mask's high bits are rare */
    if ((i & 7) == 0 && i + 8 <= end) {
      unsigned k, hit = 0;
#ifdef SCAN_AVX2
      if (s->wide) {    /* past the blocks without, 32 words at a time */
        i = metas_skip_avx2(words, i, end);
        if (i >= end) break;
        at = 4 * i;
        w = words[i];
      }
#endif
      for (k = 0; k < 8 && i + 8 <= end; k++)
        hit |= (words[i + k] & 0xFFFFF000u) == 0x00080000u;
      if (!hit && i + 8 <= end) {
        i += 7;
        continue;
      }
    }
    if ((w & 0xFFFFF000u) != 0x00080000u) continue;
    if (base + at >= RSX_MASK_OFFSET &&
        scan_known_mask(w)) {
      rsx_scan_found f;
      memset(&f, 0, sizeof f);
      f.kind = RSX_SCAN_META;
      f.offset = base + at - RSX_MASK_OFFSET;
      f.bytes = RSX_META_MIN;
      f.mask = w;
      f.primitive = -1;
      scan_add(s, &f);
    }
  }
}

static void tile_close(scan_state *s, scan_tiling *g, uint64_t end)
{
  scan_span *runs;
  g->in_run = 0;
  if (end - g->start < 4 * g->min_words) return;
  runs = scan_room(s, g->runs, &g->cap, g->n, sizeof *runs);
  if (runs == NULL) return;
  g->runs = runs;
  g->runs[g->n].start = g->start;
  g->runs[g->n++].end = end;
}

/* tiled: the bitmap of the buffer's words of g's kind; where a bit
** differs from the one before, a run begins or ends */
static void scan_tiles(scan_state *s, scan_tiling *g, const uint64_t *tiled,
                       uint64_t base, size_t have, uint64_t from,
                       uint64_t to)
{
  size_t i = (size_t)(from - base) / 4, end = (size_t)(to - base + 3) / 4;
  if (end > have / 4) end = have / 4;
  for (; i < end; i += 64) {
    unsigned n = end - i < 64 ? (unsigned)(end - i) : 64;
    uint64_t t = bits_at(tiled, i), span = n < 64 ? ((uint64_t)1 << n) - 1
                                                   : ~(uint64_t)0;
    uint64_t edges = (t ^ (t << 1 | (uint64_t)g->in_run)) & span;
    while (edges != 0) {
      unsigned j = (unsigned)scan_ctz64(edges);
      if (t >> j & 1) {
        /* the next edge ends the run: one too short for tile_close to
        ** keep (most, in other data) is passed over at once */
        uint64_t rest = edges & (edges - 1);
        g->start = base + 4 * (uint64_t)(i + j);
        if (rest != 0 && (unsigned)scan_ctz64(rest) - j < g->min_words) {
          g->in_run = 0;
          edges = rest & (rest - 1);
          continue;
        }
        g->in_run = 1;
      } else {
        tile_close(s, g, base + 4 * (uint64_t)(i + j));
      }
      edges &= edges - 1;
    }
  }
}

/* gapped: the bitmap of words that are C_T or lie between two that are
** (tiled, n words of 64 and one of zeros after them): an MGP of colour
** and UV sets is such words, its colour bytes anything (scan_find_uv).
** The word before the buffer's first is none: the first is never in the
** range a chunk looks at but at the file's start (SCAN_BACK). */
static void gapped_words(const uint64_t *tiled, size_t n, uint64_t *gapped)
{
  size_t q;
  for (q = 0; q < n; q++) {
    uint64_t before = tiled[q] << 1 | (q > 0 ? tiled[q - 1] >> 63 : 0);
    uint64_t after = tiled[q] >> 1 | tiled[q + 1] << 63;
    gapped[q] = tiled[q] | (before & after);
  }
  gapped[n] = 0;
}

/* The options' stop, asked between chunks: a Control-C during the scan
** of a large file ends it within a chunk's time, not the file's. */
int scan_stopped(scan_state *s, uint64_t at)
{
  if (s->opt->stop == NULL || !s->opt->stop(s->opt->stop_ud)) return 0;
  rsx_fail(s->err, "%s: stopped at offset 0x%llx", s->src->name,
           (unsigned long long)at);
  return 1;
}

int scan_pass(scan_state *s)
{
  size_t chunk = s->opt->chunk ? s->opt->chunk : SCAN_CHUNK_DEFAULT;
  size_t cap, have = 0, words, nunits;
  uint8_t *buf;
  uint64_t *units, *pass, *ahead, *starts;
  uint16_t *v16, *links;
  uint32_t *v32;
  uint64_t base = 0, next_read = 0, pos = 0, size = s->src->size;
  uint32_t records = s->opt->min_vertices < SCAN_AHEAD
                       ? s->opt->min_vertices : SCAN_AHEAD;
  int rc = 0, k;

  chunk = (chunk + 3) & ~(size_t)3;
  if (chunk < 4096) chunk = 4096;
  cap = chunk + SCAN_OVERLAP + SCAN_BACK;
  nunits = cap / 4 / 64 + 2;
  buf = malloc(cap + 8);
  units = malloc(CLASS_BITS * nunits * sizeof *units);
  v16 = malloc(cap / 2 * sizeof *v16);
  v32 = malloc(cap / 4 * sizeof *v32);
  pass = malloc((nunits + SCAN_AHEAD_PAD) * sizeof *pass);
  ahead = malloc((nunits + SCAN_AHEAD_PAD) * sizeof *ahead);
  starts = malloc((nunits + SCAN_AHEAD_PAD) * sizeof *starts);
  links = malloc((cap / (2 * IX_BLOCK) + 2) * sizeof *links);
  if (buf == NULL || units == NULL || v16 == NULL || v32 == NULL ||
      pass == NULL || ahead == NULL || starts == NULL || links == NULL) {
    rc = rsx_fail(s->err, "%s: out of memory for the read buffer",
                  s->src->name);
    goto release;
  }
  while (pos < size) {
    size_t n = chunk;
    uint64_t limit;
    int last;
    if (scan_stopped(s, next_read)) {
      rc = RSX_SCAN_STOPPED;
      break;
    }
    if (n > size - next_read) n = (size_t)(size - next_read);
    if (n > 0 && src_read(s->src, next_read, buf + have, n, s->err) != 0) {
      rc = -1;
      break;
    }
    have += n;
    next_read += n;
    last = next_read == size;
    /* every word classified once, the unit ones in a bitmap */
    words = have / 4;
    memset(units, 0, CLASS_BITS * nunits * sizeof *units);
#ifdef SCAN_AVX2
    if (s->wide)
      scan_swap_classify_avx2(buf, have, v16, v32, units, nunits);
    else
#endif
    {
      scan_swap(buf, have, v16, v32);
      scan_classify_words(v32, words, units, nunits);
    }
    /* records that reach into the next chunk wait for it */
    limit = last ? size : base + have - SCAN_OVERLAP;
    for (k = 0; k < s->layout_count; k++) {
      const scan_layout *l = &s->det[k].lay;
      layout_starts(l, records, units, nunits, (words + 63) / 64,
                    words >= l->words ? words - l->words + 1 : 0, pass,
                    ahead, starts, s->wide);
      scan_layout_range(s, &s->det[k], buf, pass, units + CLASS_Z * nunits,
                        starts, base, have, pos, limit);
    }
    scan_metas(s, v32, base, have, pos, limit);
    scan_tiles(s, &s->tiles, units + CLASS_T * nunits, base, have, pos,
               limit);
    gapped_words(units + CLASS_T * nunits, (words + 63) / 64, ahead);
    scan_tiles(s, &s->gapped, ahead, base, have, pos, limit);
    ix_range(s, &s->ix32, v32, base, have, last, links);
    ix_range(s, &s->ix16, v16, base, have, last, links);
    pos = (limit + 3) & ~(uint64_t)3;
    if (s->nomem) {
      rc = rsx_fail(s->err, "%s: out of memory for the findings",
                    s->src->name);
      break;
    }
    if (pos < size && pos - base > SCAN_BACK) {
      size_t drop = (size_t)(pos - base) - SCAN_BACK;
      memmove(buf, buf + drop, have - drop);
      have -= drop;
      base += drop;
    }
  }
release:
  free(buf);
  free(ahead);
  free(units);
  free(v16);
  free(v32);
  free(pass);
  free(starts);
  free(links);
  return rc;
}

void scan_flush(scan_state *s)
{
  int i;
  unsigned ph;
  if (s->tiles.in_run) tile_close(s, &s->tiles, s->src->size & ~(uint64_t)3);
  if (s->gapped.in_run)
    tile_close(s, &s->gapped, s->src->size & ~(uint64_t)3);
  for (i = 0; i < s->layout_count; i++)
    for (ph = 0; ph < s->det[i].lay.words; ph++)
      run_close(s, &s->det[i], &s->det[i].runs[ph]);
  ix_close(s, &s->ix16);
  ix_close(s, &s->ix32);
}
