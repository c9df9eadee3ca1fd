/*
** fuzz_bundle.c - libFuzzer target: the RSXB reader on arbitrary bytes.
** A bundle the reader accepts is used the way scripts use one (every
** attribute decoded, bounded and measured, normals made unit and tangent
** frames built, every submesh's triangles, declarations, findings),
** then written again by the writer and read back, which must give the
** same bytes; and again laid out as itself, unchanged and with a changed
** record, where unchanged parts must keep their offsets. A broken promise
** aborts, so libFuzzer keeps the input.
*/
#include "rsxmesh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_CHUNK 64 /* vertices decoded per call */

/* Say which promise broke, then abort: libFuzzer saves the input. */
static void fz_broken(const char *what, const rsx_error *err)
{
  fprintf(stderr, "fuzz_bundle: %s%s%s\n", what, err ? ": " : "",
          err ? err->text : "");
  abort();
}

/* Sink for decoded values, so the decoding is not optimised away. */
static volatile float fz_sink;

static void fz_decode(const rsx_mesh *m)
{
  static float out[FZ_CHUNK * 4];
  rsx_error err;
  int kind;
  uint32_t v, n;

  for (kind = 0; kind < RSX_KIND_COUNT; kind++) {
    if (rsx_mesh_can_decode(m, kind, &err) != 0) {
      /* what cannot be decoded must fail, not read */
      if (m->vertex_count > 0 &&
          rsx_mesh_decode(m, kind, 0, 1, out, &err) == 0)
        fz_broken("decode succeeded where can_decode failed", NULL);
      continue;
    }
    for (v = 0; v < m->vertex_count; v += n) {
      n = m->vertex_count - v < FZ_CHUNK ? m->vertex_count - v : FZ_CHUNK;
      if (rsx_mesh_decode(m, kind, v, n, out, &err) != 0)
        fz_broken("decode of a decodable kind failed", &err);
      fz_sink = out[0];
    }
    /* one past the end is refused */
    if (rsx_mesh_decode(m, kind, m->vertex_count, 1, out, &err) == 0)
      fz_broken("decode past the last vertex succeeded", NULL);
    if (m->vertex_count > 0) {
      /* the inline accessor on the last vertex stays inside the stream */
      const uint8_t *p = rsx_mesh_vertex(m, kind, m->vertex_count - 1);
      fz_sink = (float)p[m->format.attr[kind]->size - 1];
    }
  }
}

/* The bulk vector maths (src/vectors.c) on every kind it takes: it fails
** exactly where decoding does, and counts within the values it saw. */
static void fz_vectors(const rsx_mesh *m)
{
  rsx_error err;
  rsx_bounds bd;
  rsx_lengths ln;
  int kind;
  for (kind = 0; kind < RSX_KIND_COUNT; kind++) {
    int ok = rsx_mesh_can_decode(m, kind, NULL) == 0;
    if ((rsx_mesh_bounds(m, kind, &bd, &err) == 0) != ok)
      fz_broken("bounds and decoding disagree", &err);
    if (ok && (bd.nans > bd.non_finite ||
               bd.non_finite > (uint64_t)m->vertex_count * 4))
      fz_broken("bounds counted more values than there are", NULL);
    if (ok && m->format.attr[kind]->components >= 3) {
      if (rsx_mesh_lengths(m, kind, RSX_UNIT_TOLERANCE, &ln, &err) != 0)
        fz_broken("lengths of a decodable vector failed", &err);
      if (ln.zero + ln.nans + ln.off > m->vertex_count)
        fz_broken("lengths counted more vectors than there are", NULL);
    }
  }
  /* whole meshes of normals in doubles: past 2^20 vertices the fuzzer
  ** would only measure malloc */
  if (m->vertex_count <= (1u << 20) &&
      rsx_mesh_can_decode(m, RSX_NORMAL, NULL) == 0 &&
      rsx_mesh_can_decode(m, RSX_POSITION, NULL) == 0) {
    rsx_normal_fixes nf;
    rsx_tangent_fixes tf;
    double *n = malloc(((size_t)m->vertex_count + 1) * 3 * sizeof *n);
    float *t = malloc(((size_t)m->vertex_count + 1) * 4 * sizeof *t);
    if (n != NULL && t != NULL) {
      if (rsx_mesh_unit_normals(m, n, &nf, &err) != 0)
        fz_broken("unit normals of decodable normals failed", &err);
      if (nf.zero != nf.from_faces + nf.up ||
          nf.zero + nf.renormalised > m->vertex_count)
        fz_broken("normal fixes do not add up", NULL);
      if (rsx_mesh_can_decode(m, RSX_TANGENT_A, NULL) == 0 &&
          rsx_mesh_can_decode(m, RSX_TANGENT_B, NULL) == 0) {
        if (rsx_mesh_tangent_frames(m, n, t, &tf, &err) != 0)
          fz_broken("tangent frames of decodable vectors failed", &err);
        if (tf.zero_a + tf.no_handedness > m->vertex_count)
          fz_broken("tangent fixes do not add up", NULL);
      }
    }
    free(n);
    free(t);
  }
}

static void fz_triangles(const rsx_mesh *m, uint32_t first, uint32_t count,
                         const rsx_submesh *s)
{
  rsx_error err;
  size_t cap = rsx_triangle_capacity(count), nt = 0;
  uint32_t *tri = malloc((cap ? cap : 1) * 3 * sizeof *tri);
  if (tri == NULL) return;
  if (rsx_triangles(m, s, first, count, tri, &nt, &err) == 0) {
    size_t i;
    if (nt > cap) fz_broken("more triangles than the capacity", NULL);
    for (i = 0; i < nt * 3; i++)
      if (tri[i] >= m->vertex_count)
        fz_broken("a triangle's vertex past the vertex count", NULL);
  } else if (!(m->findings & RSX_FIND_INDEX_RANGE)) {
    fz_broken("triangles failed without an index-range finding", &err);
  }
  free(tri);
}

/* The whole mesh, submesh by submesh. Overlapping submeshes can ask for
** more than the buffer holds (their sum): past 2^24 triangles the fuzzer
** would only measure malloc. */
static void fz_mesh_triangles(const rsx_mesh *m)
{
  rsx_error err;
  size_t cap = rsx_mesh_triangle_capacity(m), nt = 0;
  uint32_t *tri;
  if (cap > (size_t)1 << 24) return;
  tri = malloc((cap ? cap : 1) * 3 * sizeof *tri);
  if (tri == NULL) return;
  if (rsx_mesh_triangles(m, tri, &nt, &err) == 0) {
    if (nt > cap) fz_broken("more mesh triangles than the capacity", NULL);
  } else if (!(m->findings & RSX_FIND_INDEX_RANGE)) {
    fz_broken("mesh triangles failed without an index-range finding", &err);
  }
  free(tri);
}

static void fz_mesh(const rsx_mesh *m)
{
  rsx_decl decl[RSX_DECL_MAX];
  char line[512];
  unsigned bit;
  uint32_t s;
  int i, n;

  rsx_mesh_label(m, line, sizeof line);
  for (bit = 1; bit != 0 && bit <= RSX_FIND_SELECTOR; bit <<= 1)
    if (m->findings & bit) {
      rsx_finding_describe(m, bit, line, sizeof line);
      if (rsx_finding_name(bit) == NULL) fz_broken("unnamed finding", NULL);
    }
  fz_decode(m);
  fz_vectors(m);
  n = rsx_declaration(m, NULL, decl);
  if (n < 0 || n > RSX_DECL_MAX) fz_broken("declaration count", NULL);
  fz_triangles(m, 0, m->index_count, NULL);
  fz_mesh_triangles(m);
  for (s = 0; s < m->submesh_count; s++) {
    const rsx_submesh *sm = &m->submeshes[s];
    for (bit = 1; bit <= RSX_FIND_SELECTOR_SET; bit <<= 1)
      if (sm->findings & bit)
        rsx_submesh_finding_describe(m, sm, bit, line, sizeof line);
    for (i = 0; i < 4; i++) {
      int set = rsx_submesh_uv_set(sm, i);
      if (set >= 0 && m->format.attr[RSX_UV0 + set] == NULL)
        fz_broken("a logical UV from a stored set the mask lacks", NULL);
    }
    n = rsx_declaration(m, sm, decl);
    if (n < 0 || n > RSX_DECL_MAX) fz_broken("declaration count", NULL);
    fz_triangles(m, sm->first_index, sm->index_count, sm);
  }
}

/* Where p lies in bundle b's bytes. */
static size_t fz_offset(const rsx_bundle *b, const uint8_t *p)
{
  return (size_t)(p - rsx_bundle_bytes(b));
}

/* In a rewrite laid out as b (same meshes, same bytes), each part that
** is not empty lies where b has it, unless it overlaps the header's
** fields (0x34 bytes), which such a rewrite always moves. */
static void fz_same_place(const rsx_bundle *b, const uint8_t *x,
                          const rsx_bundle *c, const uint8_t *y,
                          uint64_t size)
{
  size_t at = fz_offset(b, x);
  if (size == 0 || at < 0x34) return;
  if (fz_offset(c, y) != at)
    fz_broken("laid out as the base, an unchanged part moved", NULL);
}

/* Write the bundle again and read it back: the same bytes must come out.
** Materials keep their numbers, so the submeshes' references hold. With
** base, the writer seeds its strings from it and keeps its layout: every
** unchanged part must then stay at its offset, and a mesh's changed
** metadata record (change: 1 a byte flipped, 2 grown by 5 bytes) must
** read back. */
static void fz_rewrite(const rsx_bundle *b, const rsx_bundle *base,
                       int change)
{
  rsx_writer *w = rsx_writer_new();
  rsx_bundle *c;
  rsx_error err;
  uint8_t *bytes, *meta = NULL;
  size_t size, base_strings;
  uint32_t i, s;

  if (w == NULL) return;
  if (base != NULL) {
    const uint8_t *table = rsx_bundle_strings(base, &base_strings);
    if (rsx_writer_seed_strings(w, table, base_strings, &err) != 0)
      fz_broken("the writer refused the base's string table", &err);
    rsx_writer_keep_layout(w, base);
  }
  for (i = 0; i < rsx_bundle_material_count(b); i++) {
    const rsx_material *mat = rsx_bundle_material(b, i);
    if (rsx_writer_add_material(w, mat->name, mat->samplers,
                                mat->sampler_count, &err) != i)
      fz_broken("the writer refused a material the reader read", &err);
  }
  for (i = 0; i < rsx_bundle_mesh_count(b); i++) {
    rsx_mesh m = *rsx_bundle_mesh(b, i);
    if (i == 0 && change != 0) {
      meta = malloc((size_t)m.meta_size + 5);
      if (meta == NULL) {
        rsx_writer_free(w);
        return;
      }
      memcpy(meta, m.meta, m.meta_size);
      memset(meta + m.meta_size, 0x5A, 5);
      meta[0] ^= 0xFF;
      if (change == 2) m.meta_size += 5;
      m.meta = meta;
    }
    if (rsx_writer_add_mesh(w, &m, &err) != 0)
      fz_broken("the writer refused a mesh the reader read", &err);
  }
  if (rsx_writer_bytes(w, &bytes, &size, &err) != 0)
    fz_broken("rsx_writer_bytes failed", &err);
  c = rsx_bundle_from_memory(bytes, size, "rewritten.rsxb", &err);
  if (c == NULL) fz_broken("the reader refused the writer's bundle", &err);
  if (rsx_bundle_mesh_count(c) != rsx_bundle_mesh_count(b))
    fz_broken("mesh count changed", NULL);
  if (change != 0 && rsx_bundle_mesh_count(b) > 0) {
    const rsx_mesh *y = rsx_bundle_mesh(c, 0);
    if (y->meta_size != rsx_bundle_mesh(b, 0)->meta_size + (change == 2) * 5
        || memcmp(y->meta, meta, y->meta_size) != 0)
      fz_broken("laid out as the base, a changed record reads otherwise",
                NULL);
  }
  for (i = 0; i < rsx_bundle_mesh_count(b); i++) {
    const rsx_mesh *x = rsx_bundle_mesh(b, i), *y = rsx_bundle_mesh(c, i);
    if (base != NULL) {
      if (i > 0 || change == 0)
        fz_same_place(b, x->meta, c, y->meta, x->meta_size);
      fz_same_place(b, x->mmp, c, y->mmp,
                    (uint64_t)x->vertex_count * x->mmp_stride);
      if (x->mgp_stride)
        fz_same_place(b, x->mgp, c, y->mgp,
                      (uint64_t)x->vertex_count * x->mgp_stride);
      fz_same_place(b, x->indices, c, y->indices,
                    (uint64_t)x->index_count * x->index_size);
      for (s = 0; s < x->submesh_count && s < y->submesh_count; s++)
        fz_same_place(b, x->submeshes[s].record, c, y->submeshes[s].record,
                      x->submeshes[s].record_size);
    }
    /* a changed meta was checked above */
    if (strcmp(x->name, y->name) != 0 ||
        ((i > 0 || change == 0) && (x->meta_size != y->meta_size ||
          memcmp(x->meta, y->meta, x->meta_size) != 0)) ||
        x->vertex_count != y->vertex_count ||
        x->mmp_stride != y->mmp_stride || x->mgp_stride != y->mgp_stride ||
        x->index_count != y->index_count ||
        x->index_size != y->index_size || x->primitive != y->primitive ||
        x->submesh_count != y->submesh_count ||
        x->findings != y->findings)
      fz_broken("a mesh's fields changed", NULL);
    if (x->vertex_count &&
        (memcmp(x->mmp, y->mmp,
                (size_t)x->vertex_count * x->mmp_stride) != 0 ||
         (x->mgp_stride &&
          memcmp(x->mgp, y->mgp,
                 (size_t)x->vertex_count * x->mgp_stride) != 0)))
      fz_broken("a stream changed", NULL);
    if (x->index_count &&
        memcmp(x->indices, y->indices,
               (size_t)x->index_count * x->index_size) != 0)
      fz_broken("an index buffer changed", NULL);
    for (s = 0; s < x->submesh_count; s++) {
      const rsx_submesh *p = &x->submeshes[s], *q = &y->submeshes[s];
      if (p->record_size != q->record_size ||
          memcmp(p->record, q->record, p->record_size) != 0 ||
          p->first_index != q->first_index ||
          p->index_count != q->index_count || p->material != q->material)
        fz_broken("a submesh changed", NULL);
    }
  }
  /* nothing changed, laid out as the base: the base's bytes whenever the
  ** writer's own order gives them too */
  if (base != NULL && change == 0 && rsx_bundle_size(b) == size &&
      memcmp(rsx_bundle_bytes(b), bytes, size) != 0) {
    uint8_t *plain;
    size_t plain_size;
    rsx_writer_keep_layout(w, NULL);
    if (rsx_writer_bytes(w, &plain, &plain_size, &err) != 0)
      fz_broken("rsx_writer_bytes failed", &err);
    if (plain_size == size && memcmp(plain, rsx_bundle_bytes(b), size) == 0)
      fz_broken("laid out as the base, an unchanged bundle differs", NULL);
    free(plain);
  }
  rsx_bundle_free(c);
  free(bytes);
  free(meta);
  rsx_writer_free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  rsx_error err;
  rsx_bundle *b = rsx_bundle_from_memory(data, size, "fuzz.rsxb", &err);
  uint32_t i, j;

  if (b == NULL) {
    /* a refusal is one line naming the file */
    if (strncmp(err.text, "fuzz.rsxb: ", 11) != 0)
      fz_broken("a refusal that does not name the file", &err);
    return 0;
  }
  if (rsx_bundle_size(b) != size ||
      memcmp(rsx_bundle_bytes(b), data, size) != 0)
    fz_broken("the bundle's bytes differ from the input", NULL);
  for (i = 0; i < rsx_bundle_material_count(b); i++) {
    const rsx_material *mat = rsx_bundle_material(b, i);
    fz_sink = (float)strlen(mat->name);
    for (j = 0; j < mat->sampler_count; j++)
      fz_sink = (float)strlen(mat->samplers[j].texture);
    (void)rsx_material_base_colour(mat);
  }
  for (i = 0; i < rsx_bundle_mesh_count(b); i++)
    fz_mesh(rsx_bundle_mesh(b, i));
  fz_rewrite(b, NULL, 0);
  fz_rewrite(b, b, 0);
  fz_rewrite(b, b, 1);
  fz_rewrite(b, b, 2);
  rsx_bundle_free(b);
  return 0;
}
