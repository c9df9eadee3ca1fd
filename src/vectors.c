/*
** vectors.c - the maths over a mesh's decoded vectors, in bulk: bounds
** and the non-finite scan, unit-length statistics, normals made unit and
** tangent frames with their handedness, as exporters and reports need them.
**
** Lengths and frames are computed in double from the decoded floats, in
** the order written here: the glTF exporter's output depends on the last
** bit of them, so the order is part of the contract.
*/
#include "rsxmesh.h"

#include <math.h>
#include <stdlib.h>

#define VEC_CHUNK 256 /* vertices decoded at a time */
#define VEC_MAXC 4    /* components of any kind */

static double vec_length(double x, double y, double z)
{
  return sqrt(x * x + y * y + z * z);
}

/* ------------------------------------------------------------- bounds */

int rsx_mesh_bounds(const rsx_mesh *m, int kind, rsx_bounds *out,
                    rsx_error *err)
{
  float c[VEC_CHUNK * VEC_MAXC];
  uint32_t v, run, i;
  int n, k;
  if (rsx_mesh_can_decode(m, kind, err) != 0) return -1;
  n = m->format.attr[kind]->components;
  *out = (rsx_bounds){0};
  out->components = n;
  for (v = 0; v < m->vertex_count; v += run) {
    run = m->vertex_count - v < VEC_CHUNK ? m->vertex_count - v : VEC_CHUNK;
    if (rsx_mesh_decode(m, kind, v, run, c, err) != 0) return -1;
    for (i = 0; i < run; i++) {
      for (k = 0; k < n; k++) {
        float x = c[(size_t)i * (size_t)n + (size_t)k];
        if (!isfinite(x)) out->non_finite++;
        if (isnan(x)) { /* NaN has no place in an order: counted */
          out->nans++;
          continue;
        }
        if (!out->seen[k] || x < out->lo[k]) out->lo[k] = x;
        if (!out->seen[k] || x > out->hi[k]) out->hi[k] = x;
        out->seen[k] = 1;
      }
    }
  }
  for (k = 0; k < n; k++)
    if (!out->seen[k]) out->lo[k] = out->hi[k] = NAN;
  return 0;
}

/* ------------------------------------------------------------ lengths */

void rsx_lengths_add(rsx_lengths *t, double x, double y, double z)
{
  double len = vec_length(x, y, z), dev;
  if (len == 0.0) {
    t->zero++;
    return;
  }
  if (isnan(len)) { /* in no order, as in rsx_mesh_bounds: counted */
    t->nans++;
    return;
  }
  dev = fabs(len - 1.0);
  if (dev > t->tolerance) t->off++;
  if (!t->seen || len < t->min) t->min = len;
  if (!t->seen || len > t->max) t->max = len;
  if (!t->seen || dev > t->deviation) t->deviation = dev;
  t->seen = 1;
}

int rsx_mesh_lengths(const rsx_mesh *m, int kind, double tolerance,
                     rsx_lengths *out, rsx_error *err)
{
  float c[VEC_CHUNK * VEC_MAXC];
  uint32_t v, run, i;
  size_t n;
  if (rsx_mesh_can_decode(m, kind, err) != 0) return -1;
  n = (size_t)m->format.attr[kind]->components;
  if (n < 3) {
    char label[160];
    rsx_mesh_label(m, label, sizeof label);
    return rsx_fail(err, "%s: %s has %d component%s, needs 3 or more",
                    label, m->format.attr[kind]->name, (int)n,
                    n == 1 ? "" : "s");
  }
  *out = (rsx_lengths){0};
  out->tolerance = tolerance;
  for (v = 0; v < m->vertex_count; v += run) {
    run = m->vertex_count - v < VEC_CHUNK ? m->vertex_count - v : VEC_CHUNK;
    if (rsx_mesh_decode(m, kind, v, run, c, err) != 0) return -1;
    for (i = 0; i < run; i++) {
      const float *p = c + (size_t)i * n;
      rsx_lengths_add(out, p[0], p[1], p[2]);
    }
  }
  return 0;
}

/* ------------------------------------------------------------ normals */

/* The triangles' area-weighted normals (cross products of their edges
** from the first vertex, unnormalised) summed into sum[3v..3v+2] for every
** vertex v with want[v], over the submeshes in order; a submesh whose
** triangles cannot be listed adds nothing. */
static int vec_face_sums(const rsx_mesh *m, const float *p,
                         const unsigned char *want, double *sum,
                         rsx_error *err)
{
  uint32_t si;
  for (si = 0; si < m->submesh_count; si++) {
    const rsx_submesh *s = &m->submeshes[si];
    size_t cap = rsx_triangle_capacity(s->index_count), n = 0, t;
    uint32_t *tri;
    if (cap == 0) continue;
    tri = malloc(cap * 3 * sizeof *tri);
    if (tri == NULL) return rsx_fail(err, "out of memory");
    if (rsx_triangles(m, s, s->first_index, s->index_count, tri, &n, NULL)
        != 0)
      n = 0;
    for (t = 0; t < n; t++) {
      uint32_t a = tri[3 * t], b = tri[3 * t + 1], c = tri[3 * t + 2];
      const float *pa = p + 3 * (size_t)a, *pb = p + 3 * (size_t)b,
                  *pc = p + 3 * (size_t)c;
      double ux, uy, uz, vx, vy, vz, f[3];
      uint32_t corner[3];
      int k;
      if (!want[a] && !want[b] && !want[c]) continue;
      ux = (double)pb[0] - pa[0], uy = (double)pb[1] - pa[1];
      uz = (double)pb[2] - pa[2];
      vx = (double)pc[0] - pa[0], vy = (double)pc[1] - pa[1];
      vz = (double)pc[2] - pa[2];
      f[0] = uy * vz - uz * vy;
      f[1] = uz * vx - ux * vz;
      f[2] = ux * vy - uy * vx;
      corner[0] = a, corner[1] = b, corner[2] = c;
      for (k = 0; k < 3; k++) {
        double *s3 = sum + 3 * (size_t)corner[k];
        if (!want[corner[k]]) continue;
        s3[0] += f[0], s3[1] += f[1], s3[2] += f[2];
      }
    }
    free(tri);
  }
  return 0;
}

/* Zero normals (listed in want) from their faces, or (0, 1, 0). */
static int vec_fix_zero_normals(const rsx_mesh *m, const unsigned char *want,
                                double *out, rsx_normal_fixes *fixes,
                                rsx_error *err)
{
  size_t n = m->vertex_count, v;
  float *p = malloc(n * 3 * sizeof *p);
  double *sum = calloc(n * 3, sizeof *sum);
  int rc = -1;
  if (p == NULL || sum == NULL) {
    rsx_fail(err, "out of memory");
    goto done;
  }
  if (rsx_mesh_decode(m, RSX_POSITION, 0, m->vertex_count, p, err) != 0 ||
      vec_face_sums(m, p, want, sum, err) != 0)
    goto done;
  for (v = 0; v < n; v++) {
    double *s = sum + 3 * v, *o = out + 3 * v, len;
    if (!want[v]) continue;
    len = vec_length(s[0], s[1], s[2]);
    if (len >= RSX_TINY_LENGTH) {
      o[0] = s[0] / len, o[1] = s[1] / len, o[2] = s[2] / len;
      fixes->from_faces++;
    } else {
      /* in no triangle with an area: nothing says where it faces */
      o[0] = 0.0, o[1] = 1.0, o[2] = 0.0;
      fixes->up++;
    }
  }
  rc = 0;
done:
  free(p);
  free(sum);
  return rc;
}

int rsx_mesh_unit_normals(const rsx_mesh *m, double *out,
                          rsx_normal_fixes *fixes, rsx_error *err)
{
  float c[VEC_CHUNK * 3];
  unsigned char *zero = NULL;
  uint32_t v, run, i;
  int rc = 0;
  *fixes = (rsx_normal_fixes){0};
  if (rsx_mesh_can_decode(m, RSX_NORMAL, err) != 0) return -1;
  for (v = 0; v < m->vertex_count; v += run) {
    run = m->vertex_count - v < VEC_CHUNK ? m->vertex_count - v : VEC_CHUNK;
    if (rsx_mesh_decode(m, RSX_NORMAL, v, run, c, err) != 0) {
      free(zero);
      return -1;
    }
    for (i = 0; i < run; i++) {
      double x = c[3 * i], y = c[3 * i + 1], z = c[3 * i + 2];
      double len = vec_length(x, y, z), *o = out + 3 * ((size_t)v + i);
      o[0] = x, o[1] = y, o[2] = z;
      if (len < RSX_TINY_LENGTH) {
        if (zero == NULL && (zero = calloc(m->vertex_count, 1)) == NULL)
          return rsx_fail(err, "out of memory");
        zero[v + i] = 1;
        fixes->zero++;
      } else if (fabs(len - 1.0) > RSX_UNIT_TOLERANCE) {
        o[0] = x / len, o[1] = y / len, o[2] = z / len;
        fixes->renormalised++;
      }
    }
  }
  if (zero != NULL) rc = vec_fix_zero_normals(m, zero, out, fixes, err);
  free(zero);
  return rc;
}

/* ----------------------------------------------------------- tangents */

int rsx_tangent_frame(const double n[3], const double a[3],
                      const double b[3], double t[4])
{
  double la = vec_length(a[0], a[1], a[2]), lt, cx, cy, cz, d;
  int how = 0;
  if (la >= RSX_TINY_LENGTH) {
    t[0] = a[0] / la, t[1] = a[1] / la, t[2] = a[2] / la;
  } else {
    how = RSX_TANGENT_ZERO_A;
    /* B x N: across N, on the side B gives the bitangent */
    t[0] = b[1] * n[2] - b[2] * n[1];
    t[1] = b[2] * n[0] - b[0] * n[2];
    t[2] = b[0] * n[1] - b[1] * n[0];
    lt = vec_length(t[0], t[1], t[2]);
    if (lt < RSX_TINY_LENGTH) {
      /* any direction across N: from the axis least along it */
      double ex = 1.0, ey = 0.0, ez = 0.0;
      if (fabs(n[0]) > 0.9) ex = 0.0, ey = 1.0;
      t[0] = ey * n[2] - ez * n[1];
      t[1] = ez * n[0] - ex * n[2];
      t[2] = ex * n[1] - ey * n[0];
      lt = vec_length(t[0], t[1], t[2]);
      if (lt < RSX_TINY_LENGTH) t[0] = 1.0, t[1] = 0.0, t[2] = 0.0, lt = 1.0;
    }
    t[0] = t[0] / lt, t[1] = t[1] / lt, t[2] = t[2] / lt;
  }
  /* the handedness: does B point the way of cross(N, T)? */
  cx = n[1] * t[2] - n[2] * t[1];
  cy = n[2] * t[0] - n[0] * t[2];
  cz = n[0] * t[1] - n[1] * t[0];
  d = cx * b[0] + cy * b[1] + cz * b[2];
  t[3] = 1.0;
  if (d <= -RSX_TINY_LENGTH)
    t[3] = -1.0;
  else if (d < RSX_TINY_LENGTH && how == 0)
    how = RSX_TANGENT_NO_HANDEDNESS;
  return how;
}

int rsx_mesh_tangent_frames(const rsx_mesh *m, const double *normals,
                            float *out, rsx_tangent_fixes *fixes,
                            rsx_error *err)
{
  float ca[VEC_CHUNK * 3], cb[VEC_CHUNK * 3];
  uint32_t v, run, i;
  *fixes = (rsx_tangent_fixes){0};
  if (rsx_mesh_can_decode(m, RSX_TANGENT_A, err) != 0 ||
      rsx_mesh_can_decode(m, RSX_TANGENT_B, err) != 0)
    return -1;
  for (v = 0; v < m->vertex_count; v += run) {
    run = m->vertex_count - v < VEC_CHUNK ? m->vertex_count - v : VEC_CHUNK;
    if (rsx_mesh_decode(m, RSX_TANGENT_A, v, run, ca, err) != 0 ||
        rsx_mesh_decode(m, RSX_TANGENT_B, v, run, cb, err) != 0)
      return -1;
    for (i = 0; i < run; i++) {
      size_t at = (size_t)v + i;
      double a[3], b[3], t[4];
      int k, how;
      for (k = 0; k < 3; k++) a[k] = ca[3 * i + k], b[k] = cb[3 * i + k];
      how = rsx_tangent_frame(normals + 3 * at, a, b, t);
      if (how == RSX_TANGENT_ZERO_A) fixes->zero_a++;
      if (how == RSX_TANGENT_NO_HANDEDNESS) fixes->no_handedness++;
      for (k = 0; k < 4; k++) out[4 * at + k] = (float)t[k];
    }
  }
  return 0;
}
