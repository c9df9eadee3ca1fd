/*
** triangles.c - turns a range of a mesh's index buffer into triangles:
** lists and strips, restarts, winding, degenerate triangles dropped.
*/
#include "rsxmesh.h"

#include <stdint.h>
#include <stdio.h>

size_t rsx_triangle_capacity(uint32_t index_count)
{
  /* a strip of n indices has at most n - 2 triangles, a list n / 3 */
  return index_count < 3 ? 0 : (size_t)index_count - 2;
}

/* The message for index position pos of value v, out of range. The
** position is 1-based, as m:index(i) takes it, and the submesh is its
** number within the mesh, as m:submesh(i). */
static int tri_bad_index(const rsx_mesh *m, const rsx_submesh *s,
                         uint32_t pos, uint32_t v, rsx_error *err)
{
  char label[160], sub[48] = "";
  uintptr_t base = (uintptr_t)m->submeshes, at = (uintptr_t)s;
  rsx_mesh_label(m, label, sizeof label);
  /* a submesh from elsewhere has no number here: the position alone
  ** names the index */
  if (s && m->submeshes && at >= base &&
      at < base + (uintptr_t)m->submesh_count * sizeof *s)
    snprintf(sub, sizeof sub, " submesh %lu:",
             (unsigned long)((at - base) / sizeof *s) + 1);
  return rsx_fail(err, "%s:%s index at position %llu is %lu, not below "
                  "the vertex count %lu", label, sub,
                  (unsigned long long)pos + 1, (unsigned long)v,
                  (unsigned long)m->vertex_count);
}

static int tri_emit(uint32_t *out, size_t *n, uint32_t a, uint32_t b,
                    uint32_t c)
{
  if (a == b || b == c || a == c) return 0; /* degenerate: no face */
  out += *n * 3;
  out[0] = a;
  out[1] = b;
  out[2] = c;
  (*n)++;
  return 1;
}

int rsx_triangles(const rsx_mesh *m, const rsx_submesh *s, uint32_t first,
                  uint32_t count, uint32_t *out, size_t *ntriangles,
                  rsx_error *err)
{
  uint32_t vc = m->vertex_count, i, v;
  size_t n = 0;
  if (ntriangles) *ntriangles = 0;
  if (count > m->index_count || first > m->index_count - count) {
    char label[160];
    rsx_mesh_label(m, label, sizeof label);
    /* positions as m:index(i) takes them: a 1-based range i..j */
    return rsx_fail(err, "%s: indices %llu..%llu lie outside the index "
                    "buffer (%lu indices)", label,
                    (unsigned long long)first + 1,
                    (unsigned long long)first + count,
                    (unsigned long)m->index_count);
  }
  if (m->primitive == RSX_TRIANGLES) {
    i = 0;
    if (m->index_size == 2) {
      /* the common buffer, a triangle at a time: each index read once,
      ** a degenerate triangle written and not counted (no branch); at a
      ** bad index the loop below takes over, to name the first */
      const uint8_t *p = m->indices + (size_t)first * 2;
      uint32_t whole = count - count % 3;
      for (; i < whole; i += 3, p += 6) {
        uint32_t a = rsx_be16(p), b = rsx_be16(p + 2), c = rsx_be16(p + 4);
        uint32_t *t = out + n * 3;
        if (a >= vc || b >= vc || c >= vc) break;
        t[0] = a;
        t[1] = b;
        t[2] = c;
        n += a != b && b != c && a != c;
      }
    }
    /* Indices left over after the last whole triangle form no face, but
    ** are still checked: a whole-buffer call may meet them. */
    for (; i < count; i++) {
      v = rsx_mesh_index(m, first + i);
      if (v >= vc) return tri_bad_index(m, s, first + i, v, err);
      if (i % 3 == 2)
        tri_emit(out, &n, rsx_mesh_index(m, first + i - 2),
                 rsx_mesh_index(m, first + i - 1), v);
    }
  } else {
    uint32_t restart = m->index_size == 2 ? 0xFFFFu : 0xFFFFFFFFu;
    uint32_t a = 0, b = 0;
    unsigned have = 0; /* indices since the last restart, up to 2 */
    unsigned odd = 0;  /* parity of the triangles since the restart */
    for (i = 0; i < count; i++) {
      v = rsx_mesh_index(m, first + i);
      if (v == restart) {
        have = 0;
        odd = 0;
        continue;
      }
      if (v >= vc) return tri_bad_index(m, s, first + i, v, err);
      if (have == 2) {
        /* a degenerate triangle still counts for the winding */
        if (odd)
          tri_emit(out, &n, b, a, v);
        else
          tri_emit(out, &n, a, b, v);
        odd ^= 1u;
        a = b;
        b = v;
      } else if (have++ == 0) {
        a = v;
      } else {
        b = v;
      }
    }
  }
  if (ntriangles) *ntriangles = n;
  return 0;
}

size_t rsx_mesh_triangle_capacity(const rsx_mesh *m)
{
  size_t cap = 0, c;
  uint32_t i;
  if (m->submesh_count == 0) return rsx_triangle_capacity(m->index_count);
  for (i = 0; i < m->submesh_count; i++) {
    c = rsx_triangle_capacity(m->submeshes[i].index_count);
    if (c > SIZE_MAX - cap) return SIZE_MAX;
    cap += c;
  }
  return cap;
}

int rsx_mesh_triangles(const rsx_mesh *m, uint32_t *out, size_t *ntriangles,
                       rsx_error *err)
{
  size_t n = 0, k;
  uint32_t i;
  if (ntriangles) *ntriangles = 0;
  if (m->submesh_count == 0)
    return rsx_triangles(m, NULL, 0, m->index_count, out, ntriangles, err);
  /* each submesh on its own: a strip across two submeshes would join
  ** them with triangles of neither, and wind some the wrong way */
  for (i = 0; i < m->submesh_count; i++) {
    const rsx_submesh *s = &m->submeshes[i];
    if (rsx_triangles(m, s, s->first_index, s->index_count, out + n * 3,
                      &k, err) != 0)
      return -1;
    n += k;
  }
  if (ntriangles) *ntriangles = n;
  return 0;
}
