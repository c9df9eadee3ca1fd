/*
** scan-uv.c - the MGPs of UV sets alone, looked for after the assembly
** by the triangles of the meshes that lack one (scan_find_uv).
*/
#include "scan-internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  const scan_tiling *runs;
  uint32_t *pairs, uv, stride;
  double *dpos;
  uint8_t *win;
  scan_span *fit;
  uint32_t *normal;
  float *halves;
  uint64_t len, room;
  size_t np, t, nfit, tried = 0;
  double best = INFINITY, second = INFINITY;
  int64_t at = -1;
  int cut = 0; /* starts left untried for the caps */

  if (s->uv_budget == 0) return -1;   /* the bytes below are not read */
  rsx_format_init(&f, mask);
  stride = f.mgp_stride;
  len = (uint64_t)n * stride;
  if (len == 0 || len > UV_WINDOW_MAX || f.offset[RSX_UV0] < 0) return -1;
  uv = (uint32_t)f.offset[RSX_UV0];
  if ((uint64_t)n * 16 > UV_WINDOW_MAX) return -1;
  /* with colour, its bytes (before the UVs) can be anything: the runs of
  ** C_T words with lone words between, and a record's colour may lie
  ** before the run (uv bytes of it, 0 without colour) */
  runs = f.offset[RSX_COLOUR] >= 0 ? &s->gapped : &s->tiles;
  room = len + UV_SLACK + uv;
  pairs = malloc(2 * UV_EDGES * sizeof *pairs);
  dpos = malloc(UV_EDGES * sizeof *dpos);
  win = malloc((size_t)(room > (uint64_t)n * 16 ? room : (uint64_t)n * 16));
  fit = malloc((runs->n + 1) * sizeof *fit);
  normal = malloc(((size_t)room / 4 + 1) * sizeof *normal);
  halves = malloc((size_t)room / 2 * sizeof *halves);
  if (pairs == NULL || dpos == NULL || win == NULL || fit == NULL ||
      normal == NULL || halves == NULL)
    goto release; /* at is -1: no answer */
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
  /* the runs long enough within UV_NEAR of the MMP (runs is in file
  ** order), the nearest first */
  {
    size_t lo = 0, hi = runs->n;
    uint64_t from = mmp->offset > UV_NEAR ? mmp->offset - UV_NEAR : 0;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (runs->runs[mid].end < from) lo = mid + 1;
      else hi = mid;
    }
    for (t = lo, nfit = 0;
         t < runs->n && runs->runs[t].start <= mmp->offset + UV_NEAR; t++)
      if (runs->runs[t].end - runs->runs[t].start + uv >= len &&
          runs->runs[t].end - runs->runs[t].start <= len + UV_SLACK)
        fit[nfit++] = runs->runs[t];
  }
  span_near_to = mmp->offset;
  if (nfit > 1) qsort(fit, nfit, sizeof *fit, span_near_order);
  for (t = 0; t < nfit && np >= UV_QUICK_PAIRS && !cut; t++) {
    uint64_t a0 = ((fit[t].start > uv ? fit[t].start - uv : 0) + 15) &
                  ~(uint64_t)15, a;
    size_t q, nw;
    if (tried >= UV_STARTS || s->uv_budget == 0) {
      cut = 1;
      break;
    }
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
    for (a = a0; a + len <= fit[t].end; a += 16) {
      const float *w = halves + (size_t)(a - a0) / 2;
      size_t first = (size_t)(a - a0) / 4;
      double score;
      if (tried >= UV_STARTS || s->uv_budget == 0) {
        cut = 1;
        break;
      }
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
release:
  free(pairs);
  free(dpos);
  free(win);
  free(fit);
  free(normal);
  free(halves);
  /* a search cut short has not seen the start that may tie with its
  ** best (another copy of the same UVs, nearer the MGP's own mesh): no
  ** answer rather than an unchecked one */
  if (cut || at < 0 || !(best <= UV_SCORE_MAX) ||
      !(second == INFINITY || best <= UV_MARGIN * second))
    return -1;
  return at;
}

/* Meshes of a record whose mask has UV sets (and maybe colour) and no
** tangent frames in its MGP, with an index buffer and no MGP found: their
** MGP by uv_search, a new finding. Those of UV sets alone first: the
** budget that the others take, in a file of many such meshes, is not
** theirs. */
void scan_find_uv(scan_state *s, rsx_scan_mesh *meshes, size_t nm)
{
  size_t k;
  for (k = 0; k < 2 * nm; k++) {
    rsx_scan_mesh *m = &meshes[k % nm];
    rsx_format f;
    int64_t at;
    size_t n0 = s->ncand;
    if (m->meta < 0 || m->indices < 0 || m->mgp >= 0) continue;
    rsx_format_init(&f, m->mask);
    if (f.mgp_stride == 0 || f.offset[RSX_UV0] < 0 ||
        (m->mask & ((1u << RSX_TANGENT_A) | (1u << RSX_TANGENT_B))) ||
        (f.offset[RSX_COLOUR] >= 0) != (k >= nm))
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
