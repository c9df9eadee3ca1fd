/*
** scan-resolve.c - the candidates of the pass put together: look-alikes
** resolved (scan_resolve), runs of streams back to back cut by the
** records' counts (scan_split), meshes assembled and stray records cut
** off (scan_assemble).
*/
#include "scan-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void scan_resolve(scan_state *s, unsigned char *drop)
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

int scan_split(scan_state *s, unsigned char **dropp)
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

/* Each MMP run is a mesh. Its parts, each taken once, in file order:
** - a metadata record holding its vertex count, one holding an index
**   buffer's count as well first (the buffer is then that one);
** - else an index buffer whose largest index is the last vertex;
** - the MGP of the record's mask with as many records, an aligned one
**   first (with no record, an MGP of as many records names the mask).
** Confidence: a quarter for each part that agrees, times the MMP's share
** of unit normals. */
void scan_assemble(scan_state *s, rsx_scan *out,
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

int found_order(const void *a, const void *b)
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
