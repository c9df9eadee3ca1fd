/*
** scan.c - finding MMP and MGP streams, index buffers and metadata records
** in a file of unknown layout, by the research note's signatures, and
** assembling meshes from them.
**
** One pass reads the file a chunk at a time (the last bytes of a chunk are
** kept for the records that straddle the next) and classifies every 4-byte
** word once: a float in a position's range, a unit or shorter CMP vector,
** a pair of half floats in the UVs' range (and in the tiling range), zero.
** Each layout (the MMP, the MGP of each mask with tangent frames) keeps
** one run per phase of its stride: a run grows by records that pass,
** tolerates a few whose normal (or B) is zero, and ends at one that fails;
** records are looked at only where a run could begin (a bitmap per class)
** or goes on. Index buffers are followed as a sequence of u16 and one of
** u32 values: real ones keep coming back to vertices met a few values
** before, random small numbers do not; blocks of 8 values with few such
** links are passed over. The layout rules are the format table's
** (rsx_format_init); the unit test is RSX_UNIT_TOLERANCE.
**
** Where the processor has AVX2 (asked once per scan), the bulk work of
** the pass (the swap and classes, the layouts' bitmaps, the index blocks'
** links) and of ix_verify takes it; the SSE2 or plain code finds exactly
** the same (rsx_scan_options.baseline_vectors, t/scan-paths.lua,
** fuzz_scan).
**
** After the pass (bounded by the findings, not the file; its many small
** reads served from windows of the file, src_window): look-alikes
** resolved (scan_resolve), index runs trimmed to their dense ends
** (ix_verify), runs of streams back to back cut by the records' counts
** (scan_split), meshes assembled and strays cut off (scan_assemble), and
** the MGPs of UV sets alone looked for by the meshes' triangles
** (scan_find_uv).
*/
#define _POSIX_C_SOURCE 200809L /* pread */

#include "scan.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The compiler's vectors (GCC's and clang's extension) where it has them;
** -DRSX_SCAN_PLAIN builds the plain loops that do the same. */
#if defined(__GNUC__) && !defined(RSX_SCAN_PLAIN)
#define SCAN_VECTORS
typedef int32_t scan_i32x4 __attribute__((vector_size(16)));
typedef uint32_t scan_w32x4 __attribute__((vector_size(16)));
typedef uint64_t scan_u64x2 __attribute__((vector_size(16)));
#endif

/* ------------------------------------------------------------ limits */

#define SCAN_CHUNK_DEFAULT ((size_t)1 << 20)
#define SCAN_OVERLAP 64          /* >= the longest record (40) */
#define SCAN_BACK 256            /* bytes kept before the next word: what
                                 ** the index detectors look back at */
#define SCAN_SOFT_MAX 3          /* zero normals (or B) in a row a run keeps:
                                 ** more, and zero padding joins two streams */
#define SCAN_AHEAD 24            /* records in a row a run is known by */
#define SCAN_CANDIDATES_MAX 1000000 /* kept candidates: a hostile file full
                                    ** of look-alikes cannot take more */
#define IX_WINDOW 6              /* a value links to one this far back */
#define IX_NEAR 2                /* ... when within this of it */
#define IX_GAP 12                /* values without a link end a buffer */
#define IX_RING 64
#define IX_RECENT 16             /* values whose links are counted */
#define IX_U32_LIMIT 0x01000000u /* u32 indices above this are not */
#define IX_BLOCK 8               /* values whose links are counted at once */
#define IX_WAKE 6                /* ... so many wake a detector up */
#define IX_SLEEP 3               /* ... so few put it to sleep again */
#define IX_BACKUP 16             /* values before a block that wakes it,
                                 ** fed as well (a buffer's start) */

/* the 16 masks of the note's layout table */
static const uint32_t scan_masks[] = {
  0x00080005, 0x00080007, 0x00080025, 0x00080027, 0x0008003d, 0x0008003f,
  0x00080065, 0x00080067, 0x0008007d, 0x000800e5, 0x000800fd, 0x000800ff,
  0x000801e5, 0x000801fd, 0x000801ff, 0x000807fd
};
#define SCAN_MASK_COUNT (sizeof scan_masks / sizeof scan_masks[0])

static int scan_known_mask(uint32_t w)
{
  size_t i;
  if ((w & 0xFFFFF000u) != 0x00080000u) return 0;
  for (i = 0; i < SCAN_MASK_COUNT; i++)
    if (scan_masks[i] == w) return 1;
  return 0;
}

/* ----------------------------------------------------- word classes */

enum {
  C_F = 1 << 0,   /* a finite float below 2^20 in magnitude */
  C_UZ = 1 << 1,  /* a unit CMP vector, or zero */
  C_Z = 1 << 2,   /* zero */
  C_S = 1 << 3,   /* a CMP vector no longer than unit (zero included) */
  C_H = 1 << 4,   /* two finite half floats within +-1024 */
  C_HW0 = 1 << 5, /* C_H and the second half is +-0 */
  C_U = 1 << 6,   /* a unit CMP vector */
  C_T = 1 << 7    /* two half floats in the UVs' tiling range */
};
#define CLASS_BITS 8
#define CLASS_UZ 1      /* C_UZ's bit */
#define CLASS_Z 2       /* C_Z's bit */
#define CLASS_U 6       /* C_U's bit */
#define CLASS_T 7       /* C_T's bit */

/* Squared CMP lengths in units of (1/32767)^2, from the note's scales
** (x, y times 32, z times 64): the unit shell of RSX_UNIT_TOLERANCE. */
static int64_t scan_unit_lo, scan_unit_hi;

static void scan_init_limits(void)
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

static unsigned scan_classify(uint32_t w)
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
#include <emmintrin.h>

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
#if defined(SCAN_VECTORS) && defined(__SSE2__) && defined(__x86_64__) && \
    (defined(__clang__) || __GNUC__ >= 5)
#define SCAN_AVX2
#include <immintrin.h>
#define SCAN_TARGET_AVX2 __attribute__((target("avx2,popcnt")))

static int scan_has_avx2(void)
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

#define MAX_WORDS 10

/* One layout to look for: its record as the classes each word needs. */
typedef struct scan_layout {
  int kind;                  /* RSX_SCAN_MMP or RSX_SCAN_MGP */
  uint32_t mask;             /* MGP: the mask */
  unsigned words;            /* stride / 4 */
  unsigned char need[MAX_WORDS]; /* classes every word must have */
  int soft;                  /* the normal or B: a record is hard when it
                             ** is unit, soft when it is zero */
  unsigned nterms;           /* what a record that begins a run needs, as */
  unsigned char term_word[MAX_WORDS * 8], term_class[MAX_WORDS * 8];
                             /* words and class bits, the unit one first */
} scan_layout;

typedef struct scan_run {
  int active;
  uint64_t start, end;       /* end: after the last hard record */
  uint32_t hard, soft_in, soft_pending;
  float lo[3], hi[3], plo[3], phi[3];
} scan_run;

typedef struct scan_detector {
  scan_layout lay;
  scan_run *runs;            /* one per phase */
  unsigned active;           /* runs under way */
  unsigned active_phases;    /* a bit per phase whose run is under way */
  uint64_t *pattern;         /* per set of phases (bit p: phase p), the
                             ** bits j of 64 whose j % words is in it */
  unsigned char phase_of[64 + MAX_WORDS]; /* j % words */
} scan_detector;

/* The MMP, then every MGP layout of the table but colour-only (whose
** bytes can be anything, so nothing can find it). */
static int scan_make_layouts(scan_layout *out)
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

/* ------------------------------------------------------ index buffers */

typedef struct scan_ixrun {
  int size;                  /* 2 or 4 */
  int active;
  uint64_t first_off;        /* offset of value 0 */
  uint64_t k;                /* values seen */
  uint32_t ring[IX_RING];
  int64_t first_linked, last_linked;
  uint32_t maxc;             /* over first_linked..last_linked */
  uint32_t recent;           /* a bit per recent value: did it link? */
  int recent_links;          /* the bits of recent set */
  uint64_t links, restarts, steps;          /* running totals */
  uint64_t links0, restarts0, steps0;       /* at the first link */
  uint64_t links1, restarts1, steps1;       /* at the last link */
  int awake;                 /* values are fed to ix_value */
  int sparse;                /* blocks in a row with few links */
  uint64_t next;             /* offset of the next block to look at */
  uint64_t fed_end;          /* after the last value fed */
} scan_ixrun;

/* ---------------------------------------------------------- the scan */

/* The reads after the pass are many and small (records, a stream's ends,
** an index run's head and tail), mostly near the one before: they are
** served from a few windows of the file read at once (src_window), which
** saves a system call each. */
#define SRC_WINDOW 16384
#define SRC_WINDOWS 2

typedef struct scan_source {
  const char *name;
  int fd;
  const uint8_t *mem;
  uint64_t size;
  uint8_t *window;                  /* SRC_WINDOWS of SRC_WINDOW bytes */
  uint64_t window_at[SRC_WINDOWS];  /* offset of each window's bytes */
  size_t window_len[SRC_WINDOWS];   /* their count, 0: empty */
  uint64_t window_used[SRC_WINDOWS], window_clock; /* when last read */
  int windowed;                     /* after the pass */
} scan_source;

typedef struct scan_span {
  uint64_t start, end;
} scan_span;

typedef struct scan_state {
  const rsx_scan_options *opt;
  scan_source *src;
  rsx_error *err;
  int layout_count;
  scan_detector det[SCAN_MASK_COUNT + 1];
  scan_ixrun ix16, ix32;
  rsx_scan_found *cand;      /* candidates for the findings */
  size_t ncand, capcand;
  uint64_t dropped;
  int nomem;
  scan_span *tiles;          /* runs of C_T words (scan_find_uv) */
  size_t ntiles, captiles;
  int in_tile;
  uint64_t tile_start;
  size_t uv_budget;          /* starts uv_search may still try */
  int wide;                  /* the AVX2 paths (SCAN_AVX2) */
} scan_state;

/* array (of *cap items of elem bytes, n of them used) with room for one
** more: itself, or grown to twice the items; NULL, with the scan's
** dropped or nomem counted and array as it was, past
** SCAN_CANDIDATES_MAX items or out of memory. */
static void *scan_room(scan_state *s, void *array, size_t *cap, size_t n,
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

static void scan_add(scan_state *s, const rsx_scan_found *f)
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

/* rsx_f32, here where every record of a run takes three */
static float scan_f32(const uint8_t *p)
{
  uint32_t bits = rsx_be32(p);
  float v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

static void bounds_add(float lo[3], float hi[3], const uint8_t *p)
{
  int i;
  for (i = 0; i < 3; i++) {
    float v = scan_f32(p + 4 * i);
    if (v < lo[i]) lo[i] = v;
    if (v > hi[i]) hi[i] = v;
  }
}

static void bounds_reset(float lo[3], float hi[3])
{
  int i;
  for (i = 0; i < 3; i++) {
    lo[i] = INFINITY;
    hi[i] = -INFINITY;
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

static void ix_close(scan_state *s, scan_ixrun *x)
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

/* --------------------------------------------------------- reading */

static int src_pread(scan_source *src, uint64_t off, uint8_t *buf,
                     size_t n, rsx_error *err)
{
  size_t got = 0;
  while (got < n) {
    ssize_t r = pread(src->fd, buf + got, n - got, (off_t)(off + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0)
      return rsx_fail(err, "%s: offset 0x%llx: %s", src->name,
                      (unsigned long long)(off + got), strerror(errno));
    if (r == 0)
      return rsx_fail(err, "%s: offset 0x%llx: the file ended early "
                      "(it shrank while being read)", src->name,
                      (unsigned long long)(off + got));
    got += (size_t)r;
  }
  return 0;
}

/* n bytes at off from a window that holds them, else from the window
** used longest ago, filled with the file from off's 4 KiB page on; 0, or
** -1 when no window can be had or filled (the caller reads directly). */
static int src_window(scan_source *src, uint64_t off, uint8_t *buf,
                      size_t n)
{
  int w, old = 0;
  uint64_t at;
  for (w = 0; w < SRC_WINDOWS; w++) {
    if (off >= src->window_at[w] &&
        off + n <= src->window_at[w] + src->window_len[w])
      break;
    if (src->window_used[w] < src->window_used[old]) old = w;
  }
  if (w == SRC_WINDOWS) {
    if (src->window == NULL &&
        (src->window = malloc((size_t)SRC_WINDOWS * SRC_WINDOW)) == NULL)
      return -1;
    w = old;
    at = off & ~(uint64_t)4095;
    src->window_len[w] = 0;
    if (src_pread(src, at, src->window + (size_t)w * SRC_WINDOW,
                  src->size - at < SRC_WINDOW ? (size_t)(src->size - at)
                                              : SRC_WINDOW, NULL) != 0)
      return -1;
    src->window_at[w] = at;
    src->window_len[w] = src->size - at < SRC_WINDOW
                           ? (size_t)(src->size - at) : SRC_WINDOW;
  }
  src->window_used[w] = ++src->window_clock;
  memcpy(buf, src->window + (size_t)w * SRC_WINDOW +
         (size_t)(off - src->window_at[w]), n);
  return 0;
}

static int src_read(scan_source *src, uint64_t off, uint8_t *buf, size_t n,
                    rsx_error *err)
{
  if (off > src->size || n > src->size - off)
    return rsx_fail(err, "%s: offset 0x%llx: %zu bytes past the end "
                    "(size %llu)", src->name, (unsigned long long)off, n,
                    (unsigned long long)src->size);
  if (src->mem != NULL) {
    memcpy(buf, src->mem + off, n);
    return 0;
  }
  if (src->windowed && n <= SRC_WINDOW - 4096 &&
      src_window(src, off, buf, n) == 0)
    return 0;
  return src_pread(src, off, buf, n, err);
}

/* ------------------------------------------------- the pass, by chunk */

/* the lowest bit set of b, not 0 */
static int scan_ctz64(uint64_t b)
{
#if defined(__GNUC__)
  return __builtin_ctzll(b);
#else
  int j;
  for (j = 0; !(b >> j & 1); j++) ;
  return j;
#endif
}

/* the bits set of b, below 256, by multiplications (a popcount
** instruction is not in the baseline x86-64) */
static int scan_bits8(unsigned b)
{
  return (int)((uint32_t)(((b * 0x08040201u) >> 3 & 0x11111111u) *
                          0x11111111u) >> 28);
}

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
static void ix_range(scan_state *s, scan_ixrun *x, const void *values,
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

static void tile_close(scan_state *s, uint64_t end)
{
  scan_span *tiles;
  s->in_tile = 0;
  if (end - s->tile_start < 4 * (uint64_t)s->opt->min_vertices) return;
  tiles = scan_room(s, s->tiles, &s->captiles, s->ntiles, sizeof *tiles);
  if (tiles == NULL) return;
  s->tiles = tiles;
  s->tiles[s->ntiles].start = s->tile_start;
  s->tiles[s->ntiles++].end = end;
}

/* tiled: the bitmap of the buffer's C_T words; where a bit differs from
** the one before, a run begins or ends */
static void scan_tiles(scan_state *s, const uint64_t *tiled, uint64_t base,
                       size_t have, uint64_t from, uint64_t to)
{
  size_t i = (size_t)(from - base) / 4, end = (size_t)(to - base + 3) / 4;
  if (end > have / 4) end = have / 4;
  for (; i < end; i += 64) {
    unsigned n = end - i < 64 ? (unsigned)(end - i) : 64;
    uint64_t t = bits_at(tiled, i), span = n < 64 ? ((uint64_t)1 << n) - 1
                                                   : ~(uint64_t)0;
    uint64_t edges = (t ^ (t << 1 | (uint64_t)s->in_tile)) & span;
    while (edges != 0) {
      unsigned j = (unsigned)scan_ctz64(edges);
      if (t >> j & 1) {
        /* the next edge ends the run: one too short for tile_close to
        ** keep (most, in other data) is passed over at once */
        uint64_t rest = edges & (edges - 1);
        s->tile_start = base + 4 * (uint64_t)(i + j);
        if (rest != 0 && (unsigned)scan_ctz64(rest) - j <
                           s->opt->min_vertices) {
          s->in_tile = 0;
          edges = rest & (rest - 1);
          continue;
        }
        s->in_tile = 1;
      } else {
        tile_close(s, base + 4 * (uint64_t)(i + j));
      }
      edges &= edges - 1;
    }
  }
}

/* The options' stop, asked between chunks: a Control-C during the scan
** of a large file ends it within a chunk's time, not the file's. */
static int scan_stopped(scan_state *s, uint64_t at)
{
  if (s->opt->stop == NULL || !s->opt->stop(s->opt->stop_ud)) return 0;
  rsx_fail(s->err, "%s: stopped at offset 0x%llx", s->src->name,
           (unsigned long long)at);
  return 1;
}

static int scan_pass(scan_state *s)
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
    scan_tiles(s, units + CLASS_T * nunits, base, have, pos, limit);
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

static void scan_flush(scan_state *s)
{
  int i;
  unsigned ph;
  if (s->in_tile) tile_close(s, s->src->size & ~(uint64_t)3);
  for (i = 0; i < s->layout_count; i++)
    for (ph = 0; ph < s->det[i].lay.words; ph++)
      run_close(s, &s->det[i], &s->det[i].runs[ph]);
  ix_close(s, &s->ix16);
  ix_close(s, &s->ix32);
}

/* ------------------------------------------------------- resolution */

static uint64_t overlap_bytes(const rsx_scan_found *a,
                              const rsx_scan_found *b)
{
  uint64_t lo = a->offset > b->offset ? a->offset : b->offset;
  uint64_t ea = a->offset + a->bytes, eb = b->offset + b->bytes;
  uint64_t hi = ea < eb ? ea : eb;
  return hi > lo ? hi - lo : 0;
}

/* The masks metadata records carry, as bits of scan_masks' order. */
static unsigned meta_masks(const scan_state *s)
{
  unsigned bits = 0;
  size_t i, k;
  for (i = 0; i < s->ncand; i++)
    if (s->cand[i].kind == RSX_SCAN_META)
      for (k = 0; k < SCAN_MASK_COUNT; k++)
        if (scan_masks[k] == s->cand[i].mask) bits |= 1u << k;
  return bits;
}

/* How well an MGP candidate's layout is supported: a metadata record with
** its mask, a start aligned as vertex buffers are. */
static int mgp_support(unsigned metas, const rsx_scan_found *f)
{
  size_t k;
  int score = f->offset % 16 == 0 ? 2 : 0;
  for (k = 0; k < SCAN_MASK_COUNT; k++)
    if (scan_masks[k] == f->mask && (metas & (1u << k))) score += 4;
  return score;
}

/* Of two overlapping candidates a and b, is a the one to drop?
** Two MGP layouts can fit one stream: 0x3f read 4 bytes early is a 0x7d
** stream (its colour being the last UV of the record before), 0xff one of
** 0x1fd; the better supported stays. */
static int drop_first(unsigned metas, const rsx_scan_found *a,
                      const rsx_scan_found *b)
{
  uint64_t both = overlap_bytes(a, b);
  /* a mask value inside a stream or index buffer (u16 indices 8 and 7
  ** are 0x00080007) is not a record's */
  if (a->kind == RSX_SCAN_META && b->kind != RSX_SCAN_META) {
    uint64_t word = a->offset + RSX_MASK_OFFSET;
    return word >= b->offset && word < b->offset + b->bytes;
  }
  if (both * 2 <= a->bytes) return 0;
  if (a->kind == RSX_SCAN_MGP && b->kind == RSX_SCAN_MGP) {
    int sa = mgp_support(metas, a), sb = mgp_support(metas, b);
    return sb > sa || (sb == sa && (b->vertices > a->vertices ||
                                    (b->vertices == a->vertices &&
                                     b->offset < a->offset)));
  }
  /* an MGP of stride 16 read from its B vector on is an MMP with a unit
  ** normal, and an MMP of simple positions read from its z on passes as
  ** an MGP of stride 16: the two lie 4 to 12 bytes apart, and the one
  ** aligned as vertex buffers are wins, the MGP (the stricter test) on a
  ** tie */
  if (a->kind == RSX_SCAN_MMP && b->kind == RSX_SCAN_MGP)
    return !(a->offset % 16 == 0 && b->offset % 16 != 0);
  if (a->kind == RSX_SCAN_MGP && b->kind == RSX_SCAN_MMP)
    return a->offset % 16 != 0 && b->offset % 16 == 0;
  /* UV half floats of neighbouring vertices link as indices do; a u32
  ** buffer's zero high halves link to each other as u16 */
  if (a->kind == RSX_SCAN_INDICES &&
      (b->kind == RSX_SCAN_MMP || b->kind == RSX_SCAN_MGP))
    return 1;
  return a->kind == RSX_SCAN_INDICES && b->kind == RSX_SCAN_INDICES &&
         a->size == 2 && b->size == 4;
}

static int ix_verify(scan_state *s, rsx_scan_found *f);
static int found_order(const void *a, const void *b);

static void scan_resolve(scan_state *s, unsigned char *drop)
{
  size_t i, j;
  unsigned metas = meta_masks(s);
  for (i = 0; i < s->ncand; i++)
    if (s->cand[i].kind == RSX_SCAN_INDICES && !ix_verify(s, &s->cand[i]))
      s->cand[i].kind = -1;    /* sorted out below */
  if (s->ncand > 1) qsort(s->cand, s->ncand, sizeof *s->cand, found_order);
  for (i = 0; i < s->ncand; i++) drop[i] = s->cand[i].kind < 0;
  /* sorted by offset: those overlapping i and starting after it follow */
  for (i = 0; i < s->ncand; i++) {
    const rsx_scan_found *a = &s->cand[i];
    for (j = i + 1; j < s->ncand && !drop[i] &&
                    s->cand[j].offset < a->offset + a->bytes; j++) {
      if (drop[j]) continue;
      if (drop_first(metas, a, &s->cand[j])) drop[i] = 1;
      else if (drop_first(metas, &s->cand[j], a)) drop[j] = 1;
    }
  }
}

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

static int ix_verify(scan_state *s, rsx_scan_found *f)
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

/* The assembly looks candidates up by value: a metadata record by any of
** its words (the vertex count, the index count), index buffers by the
** vertex count they fit, MGPs by mask and count. */
typedef struct scan_key {
  uint64_t key;
  size_t at;       /* candidate */
} scan_key;

static int key_order(const void *a, const void *b)
{
  const scan_key *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->at < y->at ? -1 : x->at > y->at;
}

/* Sort keys (n, in order of at) as key_order does: a stable radix sort of
** the key, a byte at a time, the bytes that every key shares passed by;
** qsort where its buffer cannot be had. */
static void key_sort(scan_key *keys, size_t n)
{
  size_t count[8][256], i, c;
  scan_key *tmp, *from = keys, *to;
  uint64_t any = 0, every = ~(uint64_t)0;
  int b;
  if (n < 2) return;
  tmp = malloc(n * sizeof *tmp);
  if (tmp == NULL) {
    qsort(keys, n, sizeof *keys, key_order);
    return;
  }
  memset(count, 0, sizeof count);
  for (i = 0; i < n; i++) {
    uint64_t k = keys[i].key;
    for (b = 0; b < 8; b++) count[b][k >> 8 * b & 255]++;
    any |= k;
    every &= k;
  }
  to = tmp;
  for (b = 0; b < 8; b++) {
    size_t sum = 0;
    scan_key *t;
    if (((any ^ every) >> 8 * b & 255) == 0) continue;
    for (c = 0; c < 256; c++) {
      size_t here = count[b][c];
      count[b][c] = sum;
      sum += here;
    }
    for (i = 0; i < n; i++) to[count[b][from[i].key >> 8 * b & 255]++] = from[i];
    t = from;
    from = to;
    to = t;
  }
  if (from != keys) memcpy(keys, from, n * sizeof *keys);
  free(tmp);
}

/* the first entry of keys (n, sorted) with a key k at least, or n */
static size_t key_find_from(const scan_key *keys, size_t n, uint64_t k)
{
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (keys[mid].key < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* the first entry of keys (n, sorted) with key k, or n */
static size_t key_find(const scan_key *keys, size_t n, uint64_t k)
{
  size_t lo = key_find_from(keys, n, k);
  return lo < n && keys[lo].key == k ? lo : n;
}

/* The first of keys' entries of key k whose candidate is not used (or one
** past them): those before it are used, and stay so (the assembly only
** marks), so skip[] keeps where the next look at k begins. */
static size_t key_unused(const scan_key *keys, size_t n, size_t *skip,
                         const unsigned char *used, uint64_t k)
{
  size_t q = key_find(keys, n, k), c;
  if (q == n) return n;
  for (c = skip[q]; c < n && keys[c].key == k && used[keys[c].at]; c++)
    continue;
  skip[q] = c;
  return c;
}

#define META_WORDS (RSX_MASK_OFFSET / 4)

typedef struct scan_lookup {
  scan_key *meta, *ix, *mgp;
  scan_key *mgp_count;         /* MGPs by count, then mask */
  size_t nmeta, nix, nmgp;
  uint32_t *words;             /* META_WORDS per candidate that is meta */
  size_t *meta_skip, *ix_skip; /* key_unused's, by a key's first entry */
} scan_lookup;

static int meta_holds(const scan_lookup *lk, size_t at, uint32_t v)
{
  size_t k;
  const uint32_t *w = lk->words + at * META_WORDS;
  for (k = 0; k < META_WORDS; k++)
    if (w[k] == v) return 1;
  return 0;
}

/* Does the record hold ix's count, give or take the 64 bytes an index
** run may overrun its buffer by? */
static int meta_holds_near(const scan_lookup *lk, size_t at,
                           const rsx_scan_found *ix)
{
  size_t k;
  const uint32_t *w = lk->words + at * META_WORDS;
  uint32_t slack = 64 / ix->size;
  for (k = 0; k < META_WORDS; k++)
    if (w[k] + slack >= ix->count && w[k] <= ix->count + slack &&
        w[k] >= 3)
      return 1;
  return 0;
}

static int lookup_build(scan_state *s, const unsigned char *drop,
                        scan_lookup *lk)
{
  size_t i, n = s->ncand + 1;
  memset(lk, 0, sizeof *lk);
  lk->meta = malloc(n * META_WORDS * sizeof *lk->meta);
  lk->ix = malloc(n * sizeof *lk->ix);
  lk->mgp = malloc(n * sizeof *lk->mgp);
  lk->mgp_count = malloc(n * sizeof *lk->mgp_count);
  lk->words = calloc(n * META_WORDS, sizeof *lk->words);
  lk->meta_skip = malloc(n * META_WORDS * sizeof *lk->meta_skip);
  lk->ix_skip = malloc(n * sizeof *lk->ix_skip);
  if (!lk->meta || !lk->ix || !lk->mgp || !lk->mgp_count || !lk->words ||
      !lk->meta_skip || !lk->ix_skip)
    return -1;
  for (i = 0; i < s->ncand; i++) {
    const rsx_scan_found *f = &s->cand[i];
    if (drop[i]) continue;
    if (f->kind == RSX_SCAN_META) {
      uint8_t rec[RSX_MASK_OFFSET];
      size_t k;
      if (src_read(s->src, f->offset, rec, sizeof rec, NULL) != 0) continue;
      for (k = 0; k < META_WORDS; k++) {
        uint32_t w = rsx_be32(rec + 4 * k);
        lk->words[i * META_WORDS + k] = w;
        lk->meta[lk->nmeta].key = w;
        lk->meta[lk->nmeta++].at = i;
      }
    } else if (f->kind == RSX_SCAN_INDICES) {
      lk->ix[lk->nix].key = f->vertices;
      lk->ix[lk->nix++].at = i;
    } else if (f->kind == RSX_SCAN_MGP) {
      lk->mgp_count[lk->nmgp].key = ((uint64_t)f->vertices << 32) | f->mask;
      lk->mgp_count[lk->nmgp].at = i;
      lk->mgp[lk->nmgp].key = ((uint64_t)f->mask << 32) | f->vertices;
      lk->mgp[lk->nmgp++].at = i;
    }
  }
  /* in order of at: sorted by key, then at */
  key_sort(lk->meta, lk->nmeta);
  key_sort(lk->ix, lk->nix);
  key_sort(lk->mgp, lk->nmgp);
  key_sort(lk->mgp_count, lk->nmgp);
  for (i = 0; i < lk->nmeta; i++) lk->meta_skip[i] = i;
  for (i = 0; i < lk->nix; i++) lk->ix_skip[i] = i;
  return 0;
}

static void lookup_free(scan_lookup *lk)
{
  free(lk->meta);
  free(lk->ix);
  free(lk->mgp);
  free(lk->mgp_count);
  free(lk->words);
  free(lk->meta_skip);
  free(lk->ix_skip);
}

/* Records of other bytes that pass by chance, at a run's ends, that the
** counts in records and index buffers cut off. */
#define SCAN_STRAY_MAX 4

/* How well n is known as a vertex count: an unused record holds it, an
** unused index buffer fits it (one point each). */
static int count_known(const scan_lookup *lk, const unsigned char *used,
                       uint32_t n)
{
  size_t j;
  int known = 0;
  for (j = key_unused(lk->meta, lk->nmeta, lk->meta_skip, used, n);
       j < lk->nmeta && lk->meta[j].key == n; j++)
    if (!used[lk->meta[j].at]) {
      known++;
      break;
    }
  for (j = key_unused(lk->ix, lk->nix, lk->ix_skip, used, n);
       j < lk->nix && lk->ix[j].key == n; j++)
    if (!used[lk->ix[j].at]) {
      known++;
      break;
    }
  return known;
}

static double mmp_gap(scan_source *src, uint64_t a, uint64_t b)
{
  uint8_t pa[12], pb[12];
  double d = 0;
  int k;
  if (src_read(src, a, pa, 12, NULL) != 0 ||
      src_read(src, b, pb, 12, NULL) != 0)
    return 0;
  for (k = 0; k < 3; k++) {
    double x = (double)rsx_f32(pa + 4 * k) - (double)rsx_f32(pb + 4 * k);
    d += x * x;
  }
  return d;
}

/* Cut d records off an MMP run at the end where the positions jump
** between the d-th record and the next (strays lie anywhere; a mesh's
** next vertex is near), and count its normals and bounds again. */
static void mmp_recount(scan_state *s, rsx_scan_found *f);

static void mmp_trim(scan_state *s, rsx_scan_found *f, uint32_t d)
{
  uint64_t end0 = f->offset + f->bytes;
  if (d + 1 >= f->vertices) return;
  /* where the strays meet the mesh, the positions jump */
  if (mmp_gap(s->src, f->offset + 16 * (uint64_t)(d - 1),
              f->offset + 16 * (uint64_t)d) >
      mmp_gap(s->src, end0 - 16 * (uint64_t)(d + 1),
              end0 - 16 * (uint64_t)d))
    f->offset += 16 * (uint64_t)d;
  f->bytes -= 16 * (uint64_t)d;
  f->vertices -= d;
  mmp_recount(s, f);
}

/* Count an MMP run's unit and zero normals and its bounds again, from the
** file. */
static void mmp_recount(scan_state *s, rsx_scan_found *f)
{
  uint8_t buf[4096];
  uint64_t at, end;
  f->unit = f->zero = 0;
  bounds_reset(f->lo, f->hi);
  for (at = f->offset, end = f->offset + f->bytes; at < end;) {
    size_t want = end - at < sizeof buf ? (size_t)(end - at) : sizeof buf, q;
    if (src_read(s->src, at, buf, want, NULL) != 0) break;
    for (q = 0; q + 16 <= want; q += 16) {
      unsigned c = scan_classify(rsx_be32(buf + q + 12));
      f->unit += (c & C_U) != 0;
      f->zero += (c & C_Z) != 0;
      bounds_add(f->lo, f->hi, buf + q);
    }
    at += want;
  }
}

/* How far apart two MGP records of f are: their first UVs, and their
** B vectors (1 - the cosine); a mesh's neighbouring vertices are close. */
static double mgp_gap(scan_source *src, const rsx_scan_found *f,
                      uint64_t a, uint64_t b)
{
  rsx_format fm;
  uint8_t ra[64], rb[64];
  float ua[3], ub[3];
  double d = 0;
  rsx_format_init(&fm, f->mask);
  if (f->stride > sizeof ra || src_read(src, a, ra, f->stride, NULL) != 0 ||
      src_read(src, b, rb, f->stride, NULL) != 0)
    return 0;
  if (fm.offset[RSX_UV0] >= 0) {
    rsx_decode_value(fm.attr[RSX_UV0], ra + fm.offset[RSX_UV0], ua);
    rsx_decode_value(fm.attr[RSX_UV0], rb + fm.offset[RSX_UV0], ub);
    d += ((double)ua[0] - ub[0]) * ((double)ua[0] - ub[0]) +
         ((double)ua[1] - ub[1]) * ((double)ua[1] - ub[1]);
  }
  if (fm.offset[RSX_TANGENT_B] >= 0) {
    rsx_decode_value(fm.attr[RSX_TANGENT_B], ra + fm.offset[RSX_TANGENT_B],
                     ua);
    rsx_decode_value(fm.attr[RSX_TANGENT_B], rb + fm.offset[RSX_TANGENT_B],
                     ub);
    d += 1 - ((double)ua[0] * ub[0] + (double)ua[1] * ub[1] +
              (double)ua[2] * ub[2]);
  }
  return d;
}

/* Cut d records off an MGP run, likewise. */
static void mgp_trim(scan_state *s, rsx_scan_found *f, uint32_t d)
{
  uint64_t st = f->stride, end0 = f->offset + f->bytes;
  if (d + 1 >= f->vertices) return;
  if (mgp_gap(s->src, f, f->offset + st * (d - 1), f->offset + st * d) >
      mgp_gap(s->src, f, end0 - st * (d + 1), end0 - st * d))
    f->offset += st * d;
  f->vertices -= d;
  f->bytes = (uint64_t)f->vertices * st;
  f->unit = f->unit > d ? f->unit - d : 0;
}

/* Streams of one kind back to back form one run. The metadata records
** tell where to cut it: in the file's order (or its reverse) their vertex
** counts, at one place in the record, add up to the run's length. A run
** whose length a record holds, or an index buffer fits, is one mesh and
** stays whole. For an MGP run, the records of its mask alone. */
#define SPLIT_MAX 4096   /* records tried in a row */

/* From record j on, the counts c (those of word w, in dir's order) are
** added while each is min_vertices at least, SPLIT_MAX at most, until
** they reach n: a cut when they make n in two pieces or more. sums[k]:
** the counts before record k, which grow strictly up to stop[j] (the
** first count too small from j on), so where they reach n is a binary
** search, not a walk. */
static int u32_order(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* Sort v (n) ascending: by key_sort, qsort where its keys cannot be had */
static void u32_sort(uint32_t *v, size_t n)
{
  scan_key *keys;
  size_t i;
  if (n < 2) return;
  keys = malloc(n * sizeof *keys);
  if (keys == NULL) {
    qsort(v, n, sizeof *v, u32_order);
    return;
  }
  for (i = 0; i < n; i++) {
    keys[i].key = v[i];
    keys[i].at = i;
  }
  key_sort(keys, n);
  for (i = 0; i < n; i++) v[i] = (uint32_t)keys[i].key;
  free(keys);
}

/* the values of sorted (n) from lo to hi */
static size_t u32_between(const uint32_t *sorted, size_t n, uint32_t lo,
                          uint32_t hi)
{
  size_t a = 0, b = n, c, d;
  while (a < b) {
    size_t mid = a + (b - a) / 2;
    if (sorted[mid] < lo) a = mid + 1;
    else b = mid;
  }
  c = a;
  d = n;
  while (c < d) {
    size_t mid = c + (d - c) / 2;
    if (sorted[mid] <= hi) c = mid + 1;
    else d = mid;
  }
  return c - a;
}

/* by_word: each word of every record's (nall of them), sorted, a word's
** after another's: a word that fewer than two records hold as a count
** that could be a piece of n is passed over at once */
static int split_run(scan_state *s, size_t at, const uint32_t *words,
                     const size_t *metas, size_t nmeta,
                     const uint32_t *by_word, size_t nall)
{
  rsx_scan_found *f = &s->cand[at];
  uint32_t n = f->vertices;
  size_t w, j, k, dir, pieces;
  uint64_t *sums = malloc((nmeta + 1) * sizeof *sums);
  size_t *stop = malloc((nmeta + 1) * sizeof *stop);
  if (sums == NULL || stop == NULL) {
    free(sums);
    free(stop);
    s->nomem = 1;
    return 0;
  }
  if (n < 2 * (uint64_t)s->opt->min_vertices) {
    free(sums);
    free(stop);
    return 0;
  }
  for (w = 0; w < META_WORDS; w++)
    for (dir = 0; dir < 2; dir++) {
      size_t fits = 0;
      if (u32_between(by_word + w * nall, nall, s->opt->min_vertices,
                      n - s->opt->min_vertices) < 2)
        break;
      sums[0] = 0;
      stop[nmeta] = nmeta;
      for (k = 0; k < nmeta; k++) {
        size_t m = dir ? metas[nmeta - 1 - k] : metas[k];
        uint32_t c = words[m * META_WORDS + w];
        sums[k + 1] = sums[k] + c;
        fits += c >= s->opt->min_vertices && c <= n - s->opt->min_vertices &&
                n >= s->opt->min_vertices;
      }
      /* two pieces at least, each min_vertices or more: none more than n
      ** - min_vertices (most words of a record are no counts) */
      if (fits < 2) continue;
      for (k = nmeta; k > 0; k--)
        stop[k - 1] = sums[k] - sums[k - 1] < s->opt->min_vertices
                        ? k - 1 : stop[k];
      for (j = 0; j < nmeta; j++) {
        size_t lo = j + 1, hi = stop[j];
        if (hi > j + SPLIT_MAX) hi = j + SPLIT_MAX;
        if (hi < j + 2 || sums[j + 1] - sums[j] >= n) continue;
        /* the first k in (j, hi] with sums[k] - sums[j] >= n */
        hi++;
        while (lo < hi) {
          size_t mid = lo + (hi - lo) / 2;
          if (sums[mid] - sums[j] < n) lo = mid + 1;
          else hi = mid;
        }
        pieces = lo - j;
        if (lo > stop[j] || lo > j + SPLIT_MAX ||
            sums[lo] - sums[j] != n || pieces < 2)
          continue;
        /* cut: the first piece stays in f, the others are added */
        {
          rsx_scan_found whole = *f, piece;
          uint64_t off = whole.offset;
          size_t q;
          for (q = j; q < j + pieces; q++) {
            size_t m = dir ? metas[nmeta - 1 - q] : metas[q];
            uint32_t c = words[m * META_WORDS + w];
            piece = whole;
            piece.offset = off;
            piece.vertices = c;
            piece.bytes = (uint64_t)c * whole.stride;
            piece.unit = c;    /* an MGP's B vectors: counted as a whole */
            piece.zero = 0;
            if (piece.kind == RSX_SCAN_MMP) mmp_recount(s, &piece);
            if (q == j) s->cand[at] = piece;
            else scan_add(s, &piece);
            f = &s->cand[at];  /* scan_add may move the array */
            off += piece.bytes;
          }
        }
        free(sums);
        free(stop);
        return 1;
      }
    }
  free(sums);
  free(stop);
  return 0;
}

static int scan_split(scan_state *s, unsigned char **dropp)
{
  unsigned char *drop = *dropp;
  size_t i, n = 0, nmeta = 0, ncand;
  uint32_t *words, *by_word, *ix_counts;
  size_t *metas, nix = 0, w;
  int changed = 0;

  /* the dropped ones go first, so that new ones can follow */
  for (i = 0; i < s->ncand; i++)
    if (!drop[i]) s->cand[n++] = s->cand[i];
  s->ncand = n;
  memset(drop, 0, n + 1);
  words = calloc((n + 1) * META_WORDS, sizeof *words);
  metas = malloc((n + 1) * sizeof *metas);
  if (words == NULL || metas == NULL) {
    free(words);
    free(metas);
    return -1;
  }
  for (i = 0; i < n; i++) {
    uint8_t rec[RSX_MASK_OFFSET];
    size_t k;
    if (s->cand[i].kind != RSX_SCAN_META ||
        src_read(s->src, s->cand[i].offset, rec, sizeof rec, NULL) != 0)
      continue;
    for (k = 0; k < META_WORDS; k++)
      words[i * META_WORDS + k] = rsx_be32(rec + 4 * k);
    metas[nmeta++] = i;
  }
  ncand = n;
  /* the records' words, word by word, and the index buffers' counts,
  ** sorted: what holds a run's length is looked up */
  by_word = malloc((nmeta * META_WORDS + 1) * sizeof *by_word);
  ix_counts = malloc((ncand + 1) * sizeof *ix_counts);
  if (by_word == NULL || ix_counts == NULL) {
    free(by_word);
    free(ix_counts);
    free(words);
    free(metas);
    return -1;
  }
  for (w = 0; w < META_WORDS; w++) {
    for (i = 0; i < nmeta; i++)
      by_word[w * nmeta + i] = words[metas[i] * META_WORDS + w];
    u32_sort(by_word + w * nmeta, nmeta);
  }
  for (i = 0; i < ncand; i++)
    if (s->cand[i].kind == RSX_SCAN_INDICES)
      ix_counts[nix++] = s->cand[i].vertices;
  u32_sort(ix_counts, nix);
  for (i = 0; i < ncand && nmeta > 1; i++) {
    const rsx_scan_found *f = &s->cand[i];
    size_t k, held = 0, sel = 0;
    size_t *own;
    if (f->kind != RSX_SCAN_MMP && f->kind != RSX_SCAN_MGP) continue;
    for (w = 0; w < META_WORDS && !held; w++)
      held = u32_between(by_word + w * nmeta, nmeta, f->vertices,
                         f->vertices) > 0;
    if (!held) held = u32_between(ix_counts, nix, f->vertices,
                                  f->vertices) > 0;
    if (held) continue;
    own = malloc(nmeta * sizeof *own);
    if (own == NULL) break;
    for (k = 0; k < nmeta; k++)
      if (f->kind == RSX_SCAN_MMP || s->cand[metas[k]].mask == f->mask)
        own[sel++] = metas[k];
    changed |= split_run(s, i, words, own, sel, by_word, nmeta);
    free(own);
  }
  free(by_word);
  free(ix_counts);
  free(words);
  free(metas);
  if (s->nomem) return -1;
  if (changed) {
    unsigned char *d = realloc(drop, s->ncand + 1);
    if (d == NULL) return -1;
    memset(d, 0, s->ncand + 1);
    *dropp = d;
    if (s->ncand > 1)
      qsort(s->cand, s->ncand, sizeof *s->cand, found_order);
  }
  return 0;
}

/* An MGP of UV sets alone is half floats, which zeros, arrays of half
** floats and small integers are as well: it is looked for only for a
** mesh assembled with a record of such a mask and an index buffer, and
** only in runs of words of two half floats in the tiling range (C_T, the
** pass lists them) as long as the n records at least. In each, every
** start aligned to 16 is tried: the corners of a triangle have UVs near
** each other, others do not. A start is scored by the mean UV distance
** of the index buffer's neighbouring values, over the mean distance of
** their UVs from their centre; the best is taken when it is well below
** UV_SCORE_MAX and below UV_MARGIN times the next best (a box whose
** faces share UVs read one face late ties, and is left out). */
#define UV_WINDOW_MAX ((uint64_t)4 << 20)  /* bytes of MGP read at a time */
#define UV_EDGES 2048                        /* index pairs looked at */
#define UV_STARTS 16384                      /* starts tried per mesh */
#define UV_BUDGET 65536                      /* ... and per scan */
#define UV_QUICK_PAIRS 8    /* pairs of the first look at a start */
#define UV_QUICK_MAX 0.25   /* ... above which it is passed by */
#define UV_NEAR ((uint64_t)1 << 20) /* the MGP's distance from the MMP */
#define UV_SLACK 4096   /* a run longer than the MGP by more is passed by
                        ** (the bytes beside a stream that pass as UVs:
                        ** zeros, padding, half floats, small integers) */
#define UV_SCORE_MAX 0.1
#define UV_SPREAD_MIN (1.0 / 1024)  /* mean distance of UVs from their centre */
#define UV_MARGIN 0.5

/* A finite half float (as those of C_T words are): its bits moved into a
** float's, scaled by 2^112, exact for normal and subnormal ones. */
static float uv_half(const uint8_t *p)
{
  uint32_t h = rsx_be16(p), bits = (h & 0x7FFFu) << 13;
  float f;
  memcpy(&f, &bits, sizeof f);
  f *= 5192296858534827628530496329220096.0f;   /* 2^112 */
  return h & 0x8000u ? -f : f;
}

/* win: the half floats of a start's MGP as floats; stride and uv (the
** offset of UV set 0) in half floats */
static double uv_score(const float *win, uint32_t stride, uint32_t uv,
                       const uint32_t *pairs, const double *dpos,
                       size_t npairs)
{
  double uu = 0, up = 0, pp = 0, slope;
  size_t k;
  for (k = 0; k < npairs; k++) {
    const float *a = win + (size_t)pairs[2 * k] * stride + uv;
    const float *b = win + (size_t)pairs[2 * k + 1] * stride + uv;
    double du = (double)a[0] - b[0], dv = (double)a[1] - b[1];
    double d = sqrt(du * du + dv * dv);
    uu += d * d;
    up += d * dpos[k];
    pp += dpos[k] * dpos[k];
  }
  /* UVs all alike (zeros), or no further apart than the half floats an
  ** index buffer or small integers make: nothing to tell a start by */
  if (!(pp > 0) || !(uu / (double)npairs >= UV_SPREAD_MIN * UV_SPREAD_MIN))
    return INFINITY;
  slope = up / pp;
  /* the share of the UV distances that one scale of the positions'
  ** distances does not explain */
  return (uu - slope * up) / uu;
}

/* The index pairs (neighbouring values, restarts and values past n left
** out) of index buffer ix, up to UV_EDGES; their number. */
static size_t uv_pairs(scan_state *s, const rsx_scan_found *ix, uint32_t n,
                       uint32_t *pairs)
{
  uint8_t buf[4 * (UV_EDGES + 1)];
  size_t want = ix->count < UV_EDGES + 1 ? ix->count : UV_EDGES + 1, k, np = 0;
  uint32_t restart = ix->size == 2 ? 0xFFFFu : 0xFFFFFFFFu;
  if (src_read(s->src, ix->offset, buf, want * ix->size, NULL) != 0) return 0;
  for (k = 0; k + 1 < want; k++) {
    uint32_t a = ix->size == 2 ? rsx_be16(buf + 2 * k) : rsx_be32(buf + 4 * k);
    uint32_t b = ix->size == 2 ? rsx_be16(buf + 2 * k + 2)
                               : rsx_be32(buf + 4 * k + 4);
    if (a == restart || b == restart || a >= n || b >= n || a == b) continue;
    pairs[2 * np] = a;
    pairs[2 * np + 1] = b;
    np++;
  }
  return np;
}

/* for span_near_order: the offset the runs are sorted by their distance
** from (qsort has no argument for it) */
static uint64_t span_near_to;

static int span_near_order(const void *a, const void *b)
{
  const scan_span *x = a, *y = b;
  uint64_t dx = x->start > span_near_to ? x->start - span_near_to
                                        : span_near_to - x->start;
  uint64_t dy = y->start > span_near_to ? y->start - span_near_to
                                        : span_near_to - y->start;
  if (dx != dy) return dx < dy ? -1 : 1;
  return (x->start > y->start) - (x->start < y->start);
}

/* The offset of the UV-only MGP of mask, n records, that index buffer ix
** fits, or -1. */
static int64_t uv_search(scan_state *s, const rsx_scan_found *ix,
                         const rsx_scan_found *mmp, uint32_t mask,
                         uint32_t n)
{
  rsx_format f;
  uint32_t *pairs, uv, stride;
  double *dpos;
  uint8_t *win;
  scan_span *fit;
  uint32_t *normal;
  float *halves;
  uint64_t len;
  size_t np, t, nfit, tried = 0;
  double best = INFINITY, second = INFINITY;
  int64_t at = -1;

  if (s->uv_budget == 0) return -1;   /* the bytes below are not read */
  rsx_format_init(&f, mask);
  stride = f.mgp_stride;
  len = (uint64_t)n * stride;
  if (len == 0 || len > UV_WINDOW_MAX || f.offset[RSX_UV0] < 0) return -1;
  uv = (uint32_t)f.offset[RSX_UV0];
  if ((uint64_t)n * 16 > UV_WINDOW_MAX) return -1;
  pairs = malloc(2 * UV_EDGES * sizeof *pairs);
  dpos = malloc(UV_EDGES * sizeof *dpos);
  win = malloc((size_t)(len + UV_SLACK > (uint64_t)n * 16
                          ? len + UV_SLACK : (uint64_t)n * 16));
  fit = malloc((s->ntiles + 1) * sizeof *fit);
  normal = malloc(((size_t)(len + UV_SLACK) / 4 + 1) * sizeof *normal);
  halves = malloc((size_t)(len + UV_SLACK) / 2 * sizeof *halves);
  if (pairs == NULL || dpos == NULL || win == NULL || fit == NULL ||
      normal == NULL || halves == NULL) {
    free(pairs);
    free(dpos);
    free(win);
    free(fit);
    free(normal);
    free(halves);
    return -1;
  }
  normal[0] = 0;
  np = uv_pairs(s, ix, n, pairs);
  /* the distances of the pairs' positions, from the MMP */
  if (src_read(s->src, mmp->offset, win, (size_t)n * 16, NULL) != 0) np = 0;
  for (t = 0; t < np; t++) {
    const uint8_t *a = win + (size_t)pairs[2 * t] * 16;
    const uint8_t *b = win + (size_t)pairs[2 * t + 1] * 16;
    double d2 = 0;
    int c;
    for (c = 0; c < 3; c++) {
      double d = (double)scan_f32(a + 4 * c) - scan_f32(b + 4 * c);
      d2 += d * d;
    }
    dpos[t] = isfinite(d2) ? sqrt(d2) : 0;
  }
  /* the runs long enough within UV_NEAR of the MMP (s->tiles is in
  ** file order), the nearest first */
  {
    size_t lo = 0, hi = s->ntiles;
    uint64_t from = mmp->offset > UV_NEAR ? mmp->offset - UV_NEAR : 0;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (s->tiles[mid].end < from) lo = mid + 1;
      else hi = mid;
    }
    for (t = lo, nfit = 0;
         t < s->ntiles && s->tiles[t].start <= mmp->offset + UV_NEAR; t++)
      if (s->tiles[t].end - s->tiles[t].start >= len &&
          s->tiles[t].end - s->tiles[t].start <= len + UV_SLACK)
        fit[nfit++] = s->tiles[t];
  }
  span_near_to = mmp->offset;
  if (nfit > 1) qsort(fit, nfit, sizeof *fit, span_near_order);
  for (t = 0; t < nfit && np >= UV_QUICK_PAIRS && tried < UV_STARTS &&
              s->uv_budget > 0; t++) {
    uint64_t a0 = (fit[t].start + 15) & ~(uint64_t)15, a;
    size_t q, nw;
    if (a0 + len > fit[t].end ||
        src_read(s->src, a0, win, (size_t)(fit[t].end - a0), NULL) != 0)
      continue;
    /* normal[q]: the words before word q with a half float of a normal
    ** size (zeros, index values and small integers are not) */
    nw = (size_t)(fit[t].end - a0) / 4;
    /* a run read costs as many starts as it has 16 words */
    s->uv_budget -= nw / 16 < s->uv_budget ? nw / 16 : s->uv_budget;
    for (q = 0; q < nw; q++)
      normal[q + 1] = normal[q] + ((rsx_be32(win + 4 * q) & 0x7C007C00u) != 0);
    for (q = 0; q < 2 * nw; q++) halves[q] = uv_half(win + 2 * q);
    for (a = a0; a + len <= fit[t].end && tried < UV_STARTS &&
                 s->uv_budget > 0; a += 16) {
      const float *w = halves + (size_t)(a - a0) / 2;
      size_t first = (size_t)(a - a0) / 4;
      double score;
      /* UVs of a mesh are seldom zero, and never so small: half the
      ** words at least */
      if ((normal[first + len / 4] - normal[first]) * 2 < len / 4) continue;
      tried++;
      s->uv_budget--;
      /* a few pairs first: most starts are far off */
      if (!(uv_score(w, stride / 2, uv / 2, pairs, dpos, UV_QUICK_PAIRS) <=
            UV_QUICK_MAX) ||
          (np > 8 * UV_QUICK_PAIRS &&
           !(uv_score(w, stride / 2, uv / 2, pairs, dpos,
                      8 * UV_QUICK_PAIRS) <= 3 * UV_SCORE_MAX)))
        continue;
      score = uv_score(w, stride / 2, uv / 2, pairs, dpos, np);
      if (score < best) {
        second = best;
        best = score;
        at = (int64_t)a;
      } else if (score < second) {
        second = score;
      }
    }
  }
  free(pairs);
  free(dpos);
  free(win);
  free(fit);
  free(normal);
  free(halves);
  if (at < 0 || !(best <= UV_SCORE_MAX) ||
      !(second == INFINITY || best <= UV_MARGIN * second))
    return -1;
  return at;
}

/* Meshes of a record whose mask has UV sets alone in its MGP, with an
** index buffer and no MGP found: their MGP by uv_search, a new finding. */
static void scan_find_uv(scan_state *s, rsx_scan_mesh *meshes, size_t nm)
{
  size_t i;
  for (i = 0; i < nm; i++) {
    rsx_scan_mesh *m = &meshes[i];
    rsx_format f;
    int64_t at;
    size_t n0 = s->ncand;
    if (m->meta < 0 || m->indices < 0 || m->mgp >= 0) continue;
    rsx_format_init(&f, m->mask);
    if (f.mgp_stride == 0 || (m->mask & ((1u << RSX_COLOUR) |
                                         (1u << RSX_TANGENT_A) |
                                         (1u << RSX_TANGENT_B))))
      continue;
    at = uv_search(s, &s->cand[m->indices], &s->cand[m->mmp], m->mask,
                   m->vertices);
    if (at >= 0) {
      rsx_scan_found g;
      memset(&g, 0, sizeof g);
      g.kind = RSX_SCAN_MGP;
      g.offset = (uint64_t)at;
      g.vertices = m->vertices;
      g.stride = f.mgp_stride;
      g.bytes = (uint64_t)m->vertices * f.mgp_stride;
      g.mask = m->mask;
      g.primitive = -1;
      scan_add(s, &g);
      if (s->ncand != n0 + 1) continue;   /* over the cap */
      m->mgp = (long)(s->ncand - 1);
      m->confidence = m->confidence * 4 / 3 > 1 ? 1 : m->confidence * 4 / 3;
      snprintf(m->why, sizeof m->why, "%s", "indices fit the vertex count; "
               "record holds the vertex count; MGP of UV sets whose "
               "triangles' UVs lie close");
    }
  }
}

/* Each MMP run is a mesh. Its parts, each taken once, in file order:
** - a metadata record holding its vertex count, one holding an index
**   buffer's count as well first (the buffer is then that one);
** - else an index buffer whose largest index is the last vertex;
** - the MGP of the record's mask with as many records, an aligned one
**   first (with no record, an MGP of as many records names the mask).
** Confidence: a quarter for each part that agrees, times the MMP's share
** of unit normals. */
static void scan_assemble(scan_state *s, rsx_scan *out,
                          const unsigned char *drop)
{
  size_t i, j;
  unsigned char *used = calloc(s->ncand + 1, 1);
  size_t ndrop = s->ncand;
  rsx_scan_mesh *meshes = NULL;
  size_t nm = 0, cap = 0;
  scan_lookup lk;

  memset(&lk, 0, sizeof lk);
  if (used == NULL || lookup_build(s, drop, &lk) != 0) {
    s->nomem = 1;
    goto done;
  }
  for (i = 0; i < s->ncand; i++) {
    const rsx_scan_found *mmp = &s->cand[i];
    uint32_t n = mmp->vertices, mask;
    long meta = -1, ix = -1, mgp = -1;
    int score;
    rsx_scan_mesh *sm;
    rsx_format f;

    if (mmp->kind != RSX_SCAN_MMP || drop[i] || used[i]) continue;
    /* a stray record at a run's end: no record holds the count and no
    ** index buffer fits it, but one or two fewer they do */
    {
      int known = count_known(&lk, used, n);
      uint32_t d;
      for (d = 1; d <= SCAN_STRAY_MAX && n - d >= s->opt->min_vertices &&
                  known < 2; d++)
        if (count_known(&lk, used, n - d) > known) {
          mmp_trim(s, &s->cand[i], d);
          n = mmp->vertices;
          break;
        }
    }
    {
      /* the records that hold the vertex count, best first: one that
      ** holds the MMP's bounds (a bounding box), the count of an index
      ** buffer that fits, a mask whose MGP is there (or has none) */
      int best = -1;
      for (j = key_unused(lk.meta, lk.nmeta, lk.meta_skip, used, n);
           j < lk.nmeta && lk.meta[j].key == n; j++) {
        size_t at = lk.meta[j].at, q;
        int mscore = 0, b, held = 0;
        long with_ix = -1;
        rsx_format mf;
        if (used[at]) continue;
        for (b = 0; b < 3; b++) {
          uint32_t lo, hi;
          memcpy(&lo, &mmp->lo[b], 4);
          memcpy(&hi, &mmp->hi[b], 4);
          held += meta_holds(&lk, at, lo) + meta_holds(&lk, at, hi);
        }
        if (held >= 3) mscore += 4;
        /* an index run may overrun its buffer by a few values */
        for (q = key_unused(lk.ix, lk.nix, lk.ix_skip, used, n);
             q < lk.nix && lk.ix[q].key == n; q++)
          if (!used[lk.ix[q].at] &&
              meta_holds_near(&lk, at, &s->cand[lk.ix[q].at])) {
            with_ix = (long)lk.ix[q].at;
            mscore += 2;
            break;
          }
        rsx_format_init(&mf, s->cand[at].mask);
        if (mf.mgp_stride == 0) mscore += 1;
        else {
          uint64_t key = ((uint64_t)s->cand[at].mask << 32) | n;
          for (q = key_find(lk.mgp, lk.nmgp, key);
               q < lk.nmgp && lk.mgp[q].key == key; q++)
            if (!used[lk.mgp[q].at]) {
              mscore += 1;
              break;
            }
        }
        if (mscore > best) {
          best = mscore;
          meta = (long)at;
          ix = with_ix;
          if (best == 4 + 2 + 1) break;   /* none after can do better */
        }
      }
    }
    if (ix < 0)
      for (j = key_unused(lk.ix, lk.nix, lk.ix_skip, used, n);
           j < lk.nix && lk.ix[j].key == n; j++)
        if (!used[lk.ix[j].at]) {
          ix = (long)lk.ix[j].at;
          break;
        }
    if (meta >= 0) {
      mask = s->cand[meta].mask;
    } else {
      mask = 0x00080005u;
      /* any mask, the lowest first (as in lk.mgp's order) */
      for (j = key_find_from(lk.mgp_count, lk.nmgp, (uint64_t)n << 32);
           j < lk.nmgp && lk.mgp_count[j].key >> 32 == n; j++)
        if (!used[lk.mgp_count[j].at]) {
          mgp = (long)lk.mgp_count[j].at;
          mask = s->cand[mgp].mask;
          break;
        }
    }
    rsx_format_init(&f, mask);
    if (mgp < 0 && f.mgp_stride > 0) {
      uint64_t key = ((uint64_t)mask << 32) | n;
      uint32_t d;
      for (j = key_find(lk.mgp, lk.nmgp, key);
           j < lk.nmgp && lk.mgp[j].key == key; j++) {
        size_t at = lk.mgp[j].at;
        if (used[at]) continue;
        if (mgp < 0 || (s->cand[at].offset % 16 == 0 &&
                        s->cand[mgp].offset % 16 != 0))
          mgp = (long)at;
      }
      /* or one with a stray record or two at an end */
      for (d = 1; mgp < 0 && d <= SCAN_STRAY_MAX; d++) {
        key = ((uint64_t)mask << 32) | (n + d);
        for (j = key_find(lk.mgp, lk.nmgp, key);
             j < lk.nmgp && lk.mgp[j].key == key; j++)
          if (!used[lk.mgp[j].at]) {
            mgp = (long)lk.mgp[j].at;
            mgp_trim(s, &s->cand[mgp], d);
            break;
          }
      }
    }
    score = 1 + (ix >= 0) + (meta >= 0) +
            (mgp >= 0 || (f.mgp_stride == 0 && meta >= 0));
    if (nm == cap) {
      size_t ncap = cap ? cap * 2 : 16;
      sm = realloc(meshes, ncap * sizeof *meshes);
      if (sm == NULL) {
        s->nomem = 1;
        break;
      }
      meshes = sm;
      cap = ncap;
    }
    sm = &meshes[nm];
    sm->mmp = (long)i;
    sm->meta = meta;
    sm->mgp = mgp;
    sm->indices = ix;
    sm->mask = mask;
    sm->vertices = n;
    sm->confidence = score / 4.0 *
                     ((double)mmp->unit / (double)(mmp->unit + mmp->zero));
    snprintf(sm->why, sizeof sm->why, "%s%s%s",
             ix >= 0 ? "indices fit the vertex count; " : "no indices fit; ",
             meta >= 0 ? "record holds the vertex count; "
                       : "no record holds the vertex count; ",
             f.mgp_stride == 0 ? "mask has no MGP"
             : mgp >= 0 ? "MGP of the mask with as many vertices"
                        : "no MGP found");
    used[i] = 1;
    if (meta >= 0) used[meta] = 1;
    if (mgp >= 0) used[mgp] = 1;
    if (ix >= 0) used[ix] = 1;
    nm++;
  }
  if (!s->nomem) scan_find_uv(s, meshes, nm);
done:
  /* the findings: every candidate not dropped */
  if (!s->nomem) {
    size_t nf = 0, *map = malloc((s->ncand + 1) * sizeof *map);
    rsx_scan_found *found = malloc((s->ncand + 1) * sizeof *found);
    if (map == NULL || found == NULL) {
      free(map);
      free(found);
      free(meshes);
      s->nomem = 1;
    } else {
      size_t *moved = map;   /* reused: the old place -> the new */
      for (i = 0; i < s->ncand; i++) {
        map[i] = (size_t)-1;
        if (i < ndrop && drop[i]) continue;   /* those of scan_find_uv: kept */
        map[i] = nf;
        found[nf++] = s->cand[i];
      }
      /* a stray cut off may have moved a run's start: in order again,
      ** each finding carrying its place before (in in_mesh) */
      for (i = 0; i < nf; i++) found[i].in_mesh = (int)i;
      if (nf > 1) qsort(found, nf, sizeof *found, found_order);
      {
        size_t *inverse = malloc((nf + 1) * sizeof *inverse);
        if (inverse == NULL) {
          s->nomem = 1;
          nf = 0;
        } else {
          for (i = 0; i < nf; i++) inverse[found[i].in_mesh] = i;
          for (i = 0; i < s->ncand; i++)
            if (moved[i] != (size_t)-1) moved[i] = inverse[moved[i]];
          free(inverse);
        }
      }
      for (i = 0; i < nf; i++) found[i].in_mesh = -1;
      for (i = 0; i < nm; i++) {
        long *parts[4];
        int p;
        parts[0] = &meshes[i].meta;
        parts[1] = &meshes[i].mmp;
        parts[2] = &meshes[i].mgp;
        parts[3] = &meshes[i].indices;
        for (p = 0; p < 4; p++)
          if (*parts[p] >= 0) {
            *parts[p] = (long)map[*parts[p]];
            found[*parts[p]].in_mesh = (int)i;
          }
      }
      free(map);
      out->found = found;
      out->found_count = nf;
      out->meshes = meshes;
      out->mesh_count = nm;
    }
  } else {
    free(meshes);
  }
  free(used);
  lookup_free(&lk);
}

static int found_order(const void *a, const void *b)
{
  const rsx_scan_found *x = a, *y = b;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  if (x->kind != y->kind) return x->kind - y->kind;
  /* layouts and index sizes that fit at one offset: the order does not
  ** hang on the order the candidates were found in */
  if (x->stride != y->stride) return x->stride < y->stride ? -1 : 1;
  if (x->mask != y->mask) return x->mask < y->mask ? -1 : 1;
  if (x->size != y->size) return x->size < y->size ? -1 : 1;
  /* the place before, when sorting again: the order is fixed */
  return (x->in_mesh > y->in_mesh) - (x->in_mesh < y->in_mesh);
}

static int scan_source_run(scan_source *src, const rsx_scan_options *o,
                           rsx_scan *out, rsx_error *err)
{
  scan_state s;
  scan_layout lays[SCAN_MASK_COUNT + 1];
  rsx_scan_options defaults;
  unsigned char *drop = NULL;
  int i, rc = 0;

  memset(out, 0, sizeof *out);
  if (o == NULL) {
    rsx_scan_options_init(&defaults);
    o = &defaults;
  }
  scan_init_limits();
  memset(&s, 0, sizeof s);
  s.opt = o;
  s.src = src;
  s.err = err;
  s.layout_count = scan_make_layouts(lays);
  for (i = 0; i < s.layout_count; i++) {
    scan_layout *l = &lays[i];
    unsigned j, c;
    l->term_word[0] = (unsigned char)l->soft;
    l->term_class[0] = CLASS_U;
    l->nterms = 1;
    for (j = 0; j < l->words; j++)
      for (c = 0; c < CLASS_BITS; c++)
        if ((l->need[j] >> c & 1) && (int)j != l->soft) {
          l->term_word[l->nterms] = (unsigned char)j;
          l->term_class[l->nterms++] = (unsigned char)c;
        }
  }
  for (i = 0; i < s.layout_count; i++) {
    unsigned j;
    s.det[i].lay = lays[i];
    s.det[i].pattern = calloc((size_t)1 << lays[i].words, sizeof(uint64_t));
    if (s.det[i].pattern == NULL) rc = -1;
    else {
      unsigned m;
      for (m = 0; m < 1u << lays[i].words; m++)
        for (j = 0; j < 64; j++)
          if (m & (1u << (j % lays[i].words)))
            s.det[i].pattern[m] |= (uint64_t)1 << j;
    }
    for (j = 0; j < 64 + MAX_WORDS; j++)
      s.det[i].phase_of[j] = (unsigned char)(j % lays[i].words);
    s.det[i].runs = calloc(lays[i].words, sizeof(scan_run));
    if (s.det[i].runs == NULL) rc = -1;
  }
  s.uv_budget = UV_BUDGET;
#ifdef SCAN_AVX2
  s.wide = !o->baseline_vectors && scan_has_avx2();
#endif
  s.ix16.size = 2;
  s.ix32.size = 4;
  s.ix16.first_linked = s.ix32.first_linked = -1;
  if (rc != 0) {
    rc = rsx_fail(err, "%s: out of memory", src->name);
    goto done;
  }
  out->size = src->size;
  out->buffer_bytes = (o->chunk ? o->chunk : SCAN_CHUNK_DEFAULT) +
                      SCAN_OVERLAP;
  rc = scan_pass(&s);
  src->windowed = 1;
  if (rc == 0 && scan_stopped(&s, src->size)) rc = RSX_SCAN_STOPPED;
  if (rc != 0) goto done;
  scan_flush(&s);
  if (s.ncand > 1) qsort(s.cand, s.ncand, sizeof *s.cand, found_order);
  drop = calloc(s.ncand + 1, 1);
  if (drop == NULL) {
    rc = rsx_fail(err, "%s: out of memory", src->name);
    goto done;
  }
  scan_resolve(&s, drop);
  if (scan_split(&s, &drop) != 0) s.nomem = 1;
  else scan_assemble(&s, out, drop);
  if (s.nomem) {
    rsx_scan_free(out);
    rc = rsx_fail(err, "%s: out of memory for the findings", src->name);
  }
  out->dropped = s.dropped;
done:
  for (i = 0; i < s.layout_count; i++) {
    free(s.det[i].runs);
    free(s.det[i].pattern);
  }
  free(s.cand);
  free(s.tiles);
  free(drop);
  return rc;
}

/* ------------------------------------------------------------ public */

void rsx_scan_options_init(rsx_scan_options *o)
{
  o->min_vertices = 24;
  o->chunk = 0;
  o->stop = NULL;
  o->stop_ud = NULL;
  o->baseline_vectors = 0;
}

const char *rsx_scan_kind_name(int kind)
{
  switch (kind) {
  case RSX_SCAN_MMP: return "mmp";
  case RSX_SCAN_MGP: return "mgp";
  case RSX_SCAN_INDICES: return "indices";
  case RSX_SCAN_META: return "meta";
  default: return NULL;
  }
}

static int scan_open(const char *path, int *fd, uint64_t *size,
                     rsx_error *err)
{
  struct stat st;
  *fd = open(path, O_RDONLY);
  if (*fd < 0) return rsx_fail(err, "%s: %s", path, strerror(errno));
  if (fstat(*fd, &st) != 0) {
    int e = errno;
    close(*fd);
    return rsx_fail(err, "%s: %s", path, strerror(e));
  }
  if (S_ISDIR(st.st_mode)) {
    close(*fd);
    return rsx_fail(err, "%s: is a directory", path);
  }
  if (!S_ISREG(st.st_mode) || st.st_size < 0) {
    close(*fd);
    return rsx_fail(err, "%s: not a regular file", path);
  }
  *size = (uint64_t)st.st_size;
  return 0;
}

int rsx_scan_file(const char *path, const rsx_scan_options *o,
                  rsx_scan *out, rsx_error *err)
{
  scan_source src;
  int rc;
  memset(out, 0, sizeof *out);
  memset(&src, 0, sizeof src);
  src.name = path;
  if (scan_open(path, &src.fd, &src.size, err) != 0) return -1;
  rc = scan_source_run(&src, o, out, err);
  close(src.fd);
  free(src.window);
  return rc;
}

int rsx_scan_memory(const void *data, size_t size, const char *name,
                    const rsx_scan_options *o, rsx_scan *out,
                    rsx_error *err)
{
  scan_source src;
  static const uint8_t empty[1] = {0};
  memset(&src, 0, sizeof src);
  src.name = name ? name : "(memory)";
  src.fd = -1;
  src.mem = data ? data : empty;
  src.size = data ? size : 0;
  return scan_source_run(&src, o, out, err);
}

void rsx_scan_free(rsx_scan *s)
{
  if (s == NULL) return;
  free(s->found);
  free(s->meshes);
  s->found = NULL;
  s->meshes = NULL;
  s->found_count = s->mesh_count = 0;
}

int rsx_scan_read(const char *path, uint64_t offset, void *buf,
                  size_t size, rsx_error *err)
{
  scan_source src;
  int rc;
  memset(&src, 0, sizeof src);
  src.name = path;
  if (scan_open(path, &src.fd, &src.size, err) != 0) return -1;
  rc = src_read(&src, offset, buf, size, err);
  close(src.fd);
  return rc;
}
