/*
** tangent.c - the glTF import's tangent frames (tangent.h): A and B from
** a TANGENT, and a TANGENT computed from UVs as MikkTSpace does.
*/
#include "tangent.h"

#include <math.h>
#include <stdlib.h>

static int finite3(const double *v)
{
  return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

size_t rsx_tangent_frames(const double *t, const double *nrm, size_t n,
                          double hand, double *a, double *b)
{
  size_t v;
  for (v = 0; v < n; v++) {
    const double *tv = t + 4 * v, *nv = nrm + 3 * v;
    double tx = tv[0], ty = tv[1], tz = tv[2], w;
    double nx = nv[0], ny = nv[1], nz = nv[2];
    if (!finite3(tv) || !isfinite(tv[3]) || !finite3(nv)) return v;
    w = (tv[3] < 0 ? -1.0 : 1.0) * hand;
    a[3 * v] = tx, a[3 * v + 1] = ty, a[3 * v + 2] = tz;
    b[3 * v] = (ny * tz - nz * ty) * w;
    b[3 * v + 1] = (nz * tx - nx * tz) * w;
    b[3 * v + 2] = (nx * ty - ny * tx) * w;
  }
  return n;
}

/* ------------------------------------------------ computed from UVs */

static double dot3(const double *a, const double *b)
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* v made across the unit (or zero) normal n, then unit; 0 when nothing
** is left of it. */
static int across_unit(double v[3], const double n[3])
{
  double d = dot3(n, v), len;
  int k;
  for (k = 0; k < 3; k++) v[k] -= d * n[k];
  len = sqrt(dot3(v, v));
  if (!(len >= RSX_TINY_LENGTH) || !isfinite(len)) return 0;
  for (k = 0; k < 3; k++) v[k] /= len;
  return 1;
}

/* The unit normal of vertex i, or zero when it has no direction. */
static void unit_normal(const double *nrm, size_t i, double n[3])
{
  const double *s = nrm + 3 * i;
  double len = sqrt(dot3(s, s));
  int k;
  for (k = 0; k < 3; k++)
    n[k] = isfinite(len) && len >= RSX_TINY_LENGTH ? s[k] / len : 0.0;
}

/* Per vertex, the sums of each side: growing-U directions and corner
** angles of its triangles whose UVs keep (0) or mirror (1) the turn. */
typedef struct tan_sum {
  double dir[2][3];
  double angle[2];
} tan_sum;

/* Triangle k's part in its corners' sums. */
static void tan_triangle(const double *pos, const double *nrm,
                         const double *uv, const uint32_t *c, tan_sum *sum)
{
  const double *p0 = pos + 3 * c[0], *p1 = pos + 3 * c[1],
               *p2 = pos + 3 * c[2];
  /* MikkTSpace's V grows upwards (Blender's), glTF's downwards */
  double s1 = uv[2 * c[1]] - uv[2 * c[0]];
  double t1 = -(uv[2 * c[1] + 1] - uv[2 * c[0] + 1]);
  double s2 = uv[2 * c[2]] - uv[2 * c[0]];
  double t2 = -(uv[2 * c[2] + 1] - uv[2 * c[0] + 1]);
  double area = s1 * t2 - t1 * s2, d1[3], d2[3], os[3], len;
  int k, side, j;
  if (!isfinite(area) || area == 0.0) return; /* no UV area */
  for (k = 0; k < 3; k++) {
    d1[k] = p1[k] - p0[k];
    d2[k] = p2[k] - p0[k];
    os[k] = t2 * d1[k] - t1 * d2[k]; /* area times dP/dU */
  }
  len = sqrt(dot3(os, os));
  if (!isfinite(len) || len == 0.0) return; /* no length in U */
  side = area > 0 ? 0 : 1;
  for (k = 0; k < 3; k++) os[k] = (side == 0 ? os[k] : -os[k]) / len;
  for (j = 0; j < 3; j++) {
    const double *p = pos + 3 * c[j], *prev = pos + 3 * c[(j + 2) % 3],
                 *next = pos + 3 * c[(j + 1) % 3];
    double n[3], t[3], e1[3], e2[3], cosine, angle;
    unit_normal(nrm, c[j], n);
    for (k = 0; k < 3; k++) {
      t[k] = os[k];
      e1[k] = prev[k] - p[k];
      e2[k] = next[k] - p[k];
    }
    if (!across_unit(t, n)) continue;
    /* MikkTSpace: an edge of no length across N counts as a zero vector */
    if (!across_unit(e1, n)) e1[0] = e1[1] = e1[2] = 0.0;
    if (!across_unit(e2, n)) e2[0] = e2[1] = e2[2] = 0.0;
    cosine = dot3(e1, e2);
    cosine = cosine < -1.0 ? -1.0 : cosine > 1.0 ? 1.0 : cosine;
    angle = acos(cosine);
    for (k = 0; k < 3; k++) sum[c[j]].dir[side][k] += angle * t[k];
    sum[c[j]].angle[side] += angle;
  }
}

int rsx_tangent_compute(const double *pos, const double *nrm,
                        const double *uv, size_t nv, const uint32_t *tri,
                        size_t ntri, double *out, unsigned char *how,
                        rsx_error *err)
{
  tan_sum *sum;
  size_t i, k;
  for (i = 0; i < 3 * ntri; i++)
    if (tri[i] >= nv)
      return rsx_fail(err, "triangle %zu names vertex %lu of %zu",
                      i / 3 + 1, (unsigned long)tri[i] + 1, nv);
  if (nv > (size_t)-1 / sizeof *sum) return rsx_fail(err, "out of memory");
  sum = calloc(nv ? nv : 1, sizeof *sum);
  if (sum == NULL) return rsx_fail(err, "out of memory");
  for (i = 0; i < ntri; i++) tan_triangle(pos, nrm, uv, tri + 3 * i, sum);
  for (i = 0; i < nv; i++) {
    double n[3], *t = out + 4 * i;
    int side = sum[i].angle[0] >= sum[i].angle[1] ? 0 : 1;
    unit_normal(nrm, i, n);
    for (k = 0; k < 3; k++) t[k] = sum[i].dir[side][k];
    t[3] = side == 0 ? 1.0 : -1.0;
    if (sum[i].angle[side] > 0 && across_unit(t, n)) {
      if (how) how[i] = RSX_TANGENT_FROM_UVS;
    } else {
      /* rsx_tangent_frame's direction for a zero A and B */
      static const double zero[3] = {0.0, 0.0, 0.0};
      rsx_tangent_frame(n, zero, zero, t);
      if (how) how[i] = RSX_TANGENT_ACROSS_N;
    }
  }
  free(sum);
  return 0;
}
