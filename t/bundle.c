/*
** bundle.c - tests of the RSXB reader: a valid bundle in three layouts
** with its decoded values, one broken file per refusal rule, every
** truncation, corrupted bytes, and files on disc.
*/
#define _POSIX_C_SOURCE 200809L
#include "build.h"
#include "rsxmesh.h"
#include "tap.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATH "levels/CHARLIE.rsxb"
#define FILE_ "CHARLIE.rsxb"

static float q(double num, double den) { return (float)(num / den); }

/* ------------------------------------------------------ the valid one */

static uint8_t meta0[0x94], meta1[0x90];
static uint8_t rec0[0x40], rec1[0x3C], rec2[0x3C];
static uint8_t mmp0[3 * 16], mgp0[3 * 28], idx0[6 * 2];
static uint8_t mmp1[4 * 16], mgp1[4 * 4], idx1[8 * 4];

static void mmp_vertex(uint8_t *p, uint32_t x, uint32_t y, uint32_t z,
                       uint32_t n)
{
  rsx_put_be32(p, x);
  rsx_put_be32(p + 4, y);
  rsx_put_be32(p + 8, z);
  rsx_put_be32(p + 12, n);
}

/* Two meshes, three submeshes, three materials, three samplers. */
static void spec_valid(tb_spec *s, unsigned align, int tables_last)
{
  static const uint16_t i0[6] = {0, 1, 2, 2, 1, 0};
  static const uint32_t i1[8] = {0, 1, 2, 3, 0xFFFFFFFFu, 3, 2, 1};
  size_t i;
  uint8_t *g;
  memset(s, 0, sizeof *s);
  s->align = align;
  s->tables_last = tables_last;

  /* records: a pattern a test can compare, the mask and selectors set */
  for (i = 0; i < sizeof meta0; i++) meta0[i] = (uint8_t)(i * 7 + 1);
  for (i = 0; i < sizeof meta1; i++) meta1[i] = (uint8_t)(i ^ 0x5A);
  for (i = 0; i < sizeof rec0; i++) rec0[i] = (uint8_t)(i * 3);
  for (i = 0; i < sizeof rec1; i++) rec1[i] = (uint8_t)(0xA0 + i);
  for (i = 0; i < sizeof rec2; i++) rec2[i] = (uint8_t)(0x11 * i);
  rsx_put_be32(meta0 + 0x8C, 0x000801ff);
  rsx_put_be32(meta1 + 0x8C, 0x00080025);
  rsx_put_be32(rec0 + 0x38, 0x00000201);
  rsx_put_be32(rec1 + 0x38, 0xFFFFFFFF);
  rsx_put_be32(rec2 + 0x38, 0xFFFFFFFF);

  /* mesh 0, mask 0x000801ff: MMP 16, MGP 28 (C 0, A 4, B 8, UV0-3 12..) */
  mmp_vertex(mmp0, 0x3F800000, 0xC0000000, 0x00000000, 0x001FF800);
  mmp_vertex(mmp0 + 16, 0x3F000000, 0x40800000, 0xC1000000, 0x00000000);
  mmp_vertex(mmp0 + 32, 0xBF800000, 0x00000000, 0x42C80000, 0xFFFFFFFF);
  memset(mgp0, 0, sizeof mgp0);
  g = mgp0;
  memcpy(g, "\x00\xff\x80\x33", 4);
  rsx_put_be32(g + 4, 0x00000400);
  rsx_put_be32(g + 8, 0x7FC00000);
  rsx_put_be32(g + 12, 0x3C00C000);
  rsx_put_be32(g + 16, 0x38000001);
  rsx_put_be32(g + 20, 0x7BFF8000);
  rsx_put_be32(g + 24, 0x040003FF);
  g = mgp0 + 28;
  memcpy(g, "\x10\x20\x30\x40", 4);
  rsx_put_be32(g + 4, 0x001FF800);
  rsx_put_be32(g + 8, 0x80000000);
  rsx_put_be32(g + 12, 0x00003C00);
  g = mgp0 + 56;
  memcpy(g, "\xff\xff\xff\xff", 4);
  for (i = 0; i < 6; i++) rsx_put_be16(idx0 + 2 * i, i0[i]);

  /* mesh 1, mask 0x00080025: MMP 16, MGP 4 (UV0), a u32 strip */
  mmp_vertex(mmp1, 0, 0, 0, 0x001FF800);
  mmp_vertex(mmp1 + 16, 0x3F800000, 0, 0, 0x001FF800);
  mmp_vertex(mmp1 + 32, 0, 0, 0x3F800000, 0x001FF800);
  mmp_vertex(mmp1 + 48, 0x3F800000, 0, 0x3F800000, 0x001FF800);
  rsx_put_be32(mgp1, 0x00000000);
  rsx_put_be32(mgp1 + 4, 0x3C000000);
  rsx_put_be32(mgp1 + 8, 0x00003C00);
  rsx_put_be32(mgp1 + 12, 0x3C003C00);
  for (i = 0; i < 8; i++) rsx_put_be32(idx1 + 4 * i, i1[i]);

  s->mesh_count = 2;
  s->mesh[0] = (tb_mesh){"bridge_03", meta0, sizeof meta0, 3, mmp0, 16,
                         mgp0, 28, idx0, 6, 2, 0, 0, 2};
  s->mesh[1] = (tb_mesh){"road", meta1, sizeof meta1, 4, mmp1, 16, mgp1, 4,
                         idx1, 8, 4, 1, 2, 1};
  s->submesh_count = 3;
  s->submesh[0] = (tb_submesh){rec0, sizeof rec0, 0, 3, 0};
  s->submesh[1] = (tb_submesh){rec1, sizeof rec1, 3, 3, RSX_NONE};
  s->submesh[2] = (tb_submesh){rec2, sizeof rec2, 0, 8, 1};
  s->material_count = 3;
  s->material[0] = (tb_material){"brick", 0, 2};
  s->material[1] = (tb_material){"glass", 2, 1};
  s->material[2] = (tb_material){"bare", 3, 0};
  s->sampler_count = 3;
  s->sampler[0] = (tb_sampler){0x12345678, "tex/brick_n.png"};
  s->sampler[1] = (tb_sampler){RSX_BASE_COLOUR_SLOT, "tex/brick.png"};
  s->sampler[2] = (tb_sampler){0xDEADBEEF, "tex/glass_s.png"};
}

static rsx_bundle *load(const tb_file *f, rsx_error *e)
{
  memset(e->text, 0, sizeof e->text);
  return rsx_bundle_from_memory(f->data, f->size, PATH, e);
}

static int tri_is(const rsx_mesh *m, const rsx_submesh *s,
                  const uint32_t *want, size_t nwant, const char *what)
{
  uint32_t out[16 * 3];
  size_t n = 0;
  rsx_error e;
  if (!is_int(rsx_triangles(m, s, s->first_index, s->index_count, out, &n,
                            &e), 0, "%s: triangles", what))
    return 0;
  if (!is_int((long long)n, (long long)nwant, "%s: %zu triangles", what,
              nwant))
    return 0;
  return cmp_mem(out, want, nwant * 3 * sizeof *want, "%s: vertices", what);
}

static void check_valid(const tb_file *f, const char *layout)
{
  static const uint32_t t0[3] = {0, 1, 2}, t1[3] = {2, 1, 0};
  static const uint32_t t2[9] = {0, 1, 2, 2, 1, 3, 3, 2, 1};
  rsx_error e;
  rsx_bundle *b = load(f, &e);
  const rsx_mesh *m;
  const rsx_material *mat;
  const uint8_t *bytes;
  float o[16];
  if (!ok(b != NULL, "%s: the valid bundle opens", layout)) {
    diag("%s", e.text);
    return;
  }
  bytes = rsx_bundle_bytes(b);
  is_str(rsx_bundle_path(b), PATH, "%s: path as given", layout);
  is_str(rsx_bundle_name(b), FILE_, "%s: base name", layout);
  is_int((long long)rsx_bundle_size(b), (long long)f->size, "%s: size",
         layout);
  cmp_mem(bytes, f->data, f->size, "%s: the bundle's copy of the bytes",
          layout);
  is_int(rsx_bundle_mesh_count(b), 2, "%s: 2 meshes", layout);
  is_int(rsx_bundle_submesh_count(b), 3, "%s: 3 submeshes", layout);
  is_int(rsx_bundle_material_count(b), 3, "%s: 3 materials", layout);
  is_int(rsx_bundle_sampler_count(b), 3, "%s: 3 samplers", layout);
  ok(rsx_bundle_mesh(b, 2) == NULL, "%s: no mesh 2", layout);
  ok(rsx_bundle_material(b, 3) == NULL, "%s: no material 3", layout);

  m = rsx_bundle_mesh(b, 0);
  is_str(m->name, "bridge_03", "%s: mesh 0 name", layout);
  ok(m->name >= (const char *)bytes &&
     m->name < (const char *)bytes + f->size,
     "%s: the name points into the bundle's bytes", layout);
  is_int(m->index, 0, "%s: mesh 0 index", layout);
  is_int(m->mask, 0x000801ff, "%s: mesh 0 mask", layout);
  is_int(m->meta_size, 0x94, "%s: metadata record size", layout);
  ok(m->meta == bytes + f->meta[0], "%s: metadata record in place", layout);
  cmp_mem(m->meta, meta0, sizeof meta0, "%s: metadata bytes", layout);
  is_int(m->vertex_count, 3, "%s: 3 vertices", layout);
  is_int(m->mmp_stride, 16, "%s: MMP stride", layout);
  is_int(m->mgp_stride, 28, "%s: MGP stride", layout);
  is_int(m->index_count, 6, "%s: 6 indices", layout);
  is_int(m->index_size, 2, "%s: index size 2", layout);
  is_int(m->primitive, RSX_TRIANGLES, "%s: a list", layout);
  is_int(m->first_submesh, 0, "%s: first submesh 0", layout);
  is_int(m->submesh_count, 2, "%s: 2 submeshes", layout);
  is_int(m->findings, 0, "%s: no findings", layout);
  is_int(m->submeshes[0].record_size, 0x40, "%s: record size", layout);
  cmp_mem(m->submeshes[0].record, rec0, sizeof rec0, "%s: record bytes",
          layout);
  is_int(m->submeshes[0].material, 0, "%s: submesh 0 material", layout);
  is_int(m->submeshes[1].material, (long long)RSX_NONE,
         "%s: submesh 1 has none", layout);
  is_int(m->submeshes[1].first_index, 3, "%s: submesh 1 first index",
         layout);
  is_int(m->submeshes[0].uv_set[2], 2, "%s: 00000201: UV2 <- set 2", layout);
  is_int(m->submeshes[0].uv_set[3], 1, "%s: 00000201: UV3 <- set 1", layout);
  is_int(m->submeshes[1].uv_set[3], 3, "%s: ffffffff: UV3 <- set 3", layout);

  rsx_mesh_decode(m, RSX_POSITION, 0, 3, o, &e);
  is_float(o[0], 1.0f, "%s: v0 x", layout);
  is_float(o[1], -2.0f, "%s: v0 y", layout);
  is_float(o[3], 0.5f, "%s: v1 x", layout);
  is_float(o[4], 4.0f, "%s: v1 y", layout);
  is_float(o[5], -8.0f, "%s: v1 z", layout);
  is_float(o[6], -1.0f, "%s: v2 x", layout);
  is_float(o[8], 100.0f, "%s: v2 z (42c80000)", layout);
  rsx_mesh_decode(m, RSX_NORMAL, 0, 3, o, &e);
  is_float(o[1], q(32736, 32767), "%s: n0 y, the note's example", layout);
  is_float(o[4], 0.0f, "%s: n1 the zero vector", layout);
  is_float(o[8], q(-64, 32767), "%s: n2 z", layout);
  rsx_mesh_decode(m, RSX_COLOUR, 0, 3, o, &e);
  is_float(o[2], q(128, 255), "%s: c0 blue 0x80", layout);
  is_float(o[7], q(64, 255), "%s: c1 alpha 0x40", layout);
  is_float(o[8], 1.0f, "%s: c2 red 0xff", layout);
  rsx_mesh_decode(m, RSX_TANGENT_A, 0, 3, o, &e);
  is_float(o[0], q(-32768, 32767), "%s: A0 x", layout);
  is_float(o[4], q(32736, 32767), "%s: A1 y", layout);
  rsx_mesh_decode(m, RSX_TANGENT_B, 0, 2, o, &e);
  is_float(o[2], q(32704, 32767), "%s: B0 z", layout);
  is_float(o[5], q(-32768, 32767), "%s: B1 z", layout);
  rsx_mesh_decode(m, RSX_UV0, 0, 3, o, &e);
  is_float(o[1], -2.0f, "%s: uv0 v0 v", layout);
  is_float(o[3], 1.0f, "%s: uv0 v1 v", layout);
  rsx_mesh_decode(m, RSX_UV2, 0, 1, o, &e);
  is_float(o[0], 65504.0f, "%s: uv2 v0 u", layout);
  rsx_mesh_decode(m, RSX_UV3, 0, 1, o, &e);
  is_float(o[1], 1023 * 0x1p-24f, "%s: uv3 v0 v", layout);
  tri_is(m, &m->submeshes[0], t0, 1, layout);
  tri_is(m, &m->submeshes[1], t1, 1, layout);

  m = rsx_bundle_mesh(b, 1);
  is_str(m->name, "road", "%s: mesh 1 name", layout);
  is_int(m->index, 1, "%s: mesh 1 index", layout);
  is_int(m->mask, 0x00080025, "%s: mesh 1 mask", layout);
  is_int(m->index_size, 4, "%s: index size 4", layout);
  is_int(m->primitive, RSX_STRIP, "%s: a strip", layout);
  is_int(m->first_submesh, 2, "%s: first submesh 2", layout);
  is_int(m->findings, 0, "%s: no findings", layout);
  cmp_mem(m->submeshes[0].record, rec2, sizeof rec2, "%s: its record",
          layout);
  is_int(m->submeshes[0].uv_set[0], 0, "%s: UV0 <- set 0", layout);
  is_int(m->submeshes[0].uv_set[1], -1, "%s: UV1 absent", layout);
  rsx_mesh_decode(m, RSX_POSITION, 3, 1, o, &e);
  is_float(o[0], 1.0f, "%s: v3 x", layout);
  is_float(o[2], 1.0f, "%s: v3 z", layout);
  rsx_mesh_decode(m, RSX_UV0, 0, 4, o, &e);
  is_float(o[2], 1.0f, "%s: uv0 v1 u", layout);
  is_float(o[5], 1.0f, "%s: uv0 v2 v", layout);
  is_float(o[7], 1.0f, "%s: uv0 v3 v", layout);
  tri_is(m, &m->submeshes[0], t2, 3, layout);

  mat = rsx_bundle_material(b, 0);
  is_str(mat->name, "brick", "%s: material 0", layout);
  is_int(mat->sampler_count, 2, "%s: 2 samplers", layout);
  is_int(mat->samplers[0].slot, 0x12345678, "%s: slot", layout);
  is_str(mat->samplers[0].texture, "tex/brick_n.png", "%s: texture", layout);
  is_str(rsx_material_base_colour(mat), "tex/brick.png",
         "%s: base colour from slot 0x95591c40, the second", layout);
  mat = rsx_bundle_material(b, 1);
  is_str(mat->name, "glass", "%s: material 1", layout);
  is_int(mat->first_sampler, 2, "%s: first sampler 2", layout);
  is_int(mat->samplers[0].slot, 0xDEADBEEF, "%s: its slot", layout);
  ok(rsx_material_base_colour(mat) == NULL, "%s: no base colour", layout);
  mat = rsx_bundle_material(b, 2);
  is_str(mat->name, "bare", "%s: material 2", layout);
  is_int(mat->sampler_count, 0, "%s: no samplers", layout);
  ok(rsx_material_base_colour(mat) == NULL, "%s: no base colour", layout);
  ok(rsx_material_base_colour(NULL) == NULL, "NULL material: NULL");
  rsx_bundle_free(b);
}

/* ------------------------------------------------------ broken files */

static void refused(const tb_file *f, const char *want, const char *what)
{
  rsx_error e;
  rsx_bundle *b = load(f, &e);
  ok(b == NULL, "%s: refused", what);
  rsx_bundle_free(b);
  is_str(e.text, want, "%s: message", what);
}

/* The expected message, with the layout's offsets filled in. */
static const char *msg(const char *fmt, ...)
  __attribute__((format(printf, 1, 2)));

static const char *msg(const char *fmt, ...)
{
  static char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

typedef void (*breaker)(tb_file *f);

/* Each rule: break a copy of the valid file, expect the message. */
static void try(const tb_file *good, breaker brk, const char *want,
                const char *what)
{
  tb_file c;
  char w[512];
  snprintf(w, sizeof w, "%s", want);
  tb_copy(&c, good);
  brk(&c);
  refused(&c, w, what);
  tb_free(&c);
}

static void br_magic(tb_file *f) { memcpy(f->data, "RSXC", 4); }
static void br_version(tb_file *f) { tb_set_header(f, TB_HDR_VERSION, 2); }
static void br_header_size(tb_file *f)
{
  tb_set_header(f, TB_HDR_HEADER_SIZE, 80);
}
static void br_file_size(tb_file *f)
{
  tb_set_header(f, TB_HDR_FILE_SIZE, (uint32_t)f->size + 1);
}
static void br_mesh_count(tb_file *f)
{
  tb_set_header(f, TB_HDR_MESH_COUNT, 0x01000000);
}
static void br_mesh_count32(tb_file *f)
{
  tb_set_header(f, TB_HDR_MESH_COUNT, 0x08000000);
}
static void br_mesh_table(tb_file *f)
{
  tb_set_header(f, TB_HDR_MESH_TABLE, 0xFFFFFFF0u);
}
static void br_submesh_table(tb_file *f)
{
  tb_set_header(f, TB_HDR_SUBMESH_TABLE, (uint32_t)f->size - 0x50);
}
static void br_material_table(tb_file *f)
{
  tb_set_header(f, TB_HDR_MATERIAL_COUNT, 0x10000000);
}
static void br_sampler_table(tb_file *f)
{
  tb_set_header(f, TB_HDR_SAMPLER_TABLE, (uint32_t)f->size - 0x10);
}
static void br_string_table(tb_file *f)
{
  tb_set_header(f, TB_HDR_STRING_SIZE, (uint32_t)f->size);
}
static void br_meta_end(tb_file *f)
{
  tb_set_mesh(f, 0, TB_MESH_META, (uint32_t)f->size - 0x10);
}
static void br_mmp_end(tb_file *f)
{
  tb_set_mesh(f, 0, TB_MESH_VERTEX_COUNT, 0x10000);
}
static void br_mmp32(tb_file *f)
{
  tb_set_mesh(f, 0, TB_MESH_VERTEX_COUNT, 0x80000000u);
}
static void br_mgp_end(tb_file *f)
{
  tb_set_mesh(f, 1, TB_MESH_MGP, (uint32_t)f->size - 8);
}
static void br_idx_end(tb_file *f)
{
  tb_set_mesh(f, 1, TB_MESH_INDEX_COUNT, 0x1000);
}
static void br_idx32(tb_file *f)
{
  tb_set_mesh(f, 1, TB_MESH_INDEX_COUNT, 0x40000000u);
}
static void br_record_end(tb_file *f)
{
  tb_set_submesh(f, 2, TB_SUB_RECORD, (uint32_t)f->size - 0x3B);
}
/* road no longer reaches entry 2, which nothing else reaches */
static void br_record_end_alone(tb_file *f)
{
  br_record_end(f);
  tb_set_mesh(f, 1, TB_MESH_SUBMESH_COUNT, 0);
}
/* bridge_03 reaches entry 2 too (its entries 1 and 2), before road */
static void br_record_end_shared(tb_file *f)
{
  br_record_end(f);
  tb_set_mesh(f, 0, TB_MESH_FIRST_SUBMESH, 1);
}
static void br_submesh_range(tb_file *f)
{
  tb_set_mesh(f, 1, TB_MESH_SUBMESH_COUNT, 2);
}
static void br_one_submesh(tb_file *f)
{
  tb_set_header(f, TB_HDR_SUBMESH_COUNT, 1);
}
static void br_one_sampler(tb_file *f)
{
  tb_set_header(f, TB_HDR_SAMPLER_COUNT, 1);
}
static void br_submesh_wrap(tb_file *f)
{
  tb_set_mesh(f, 1, TB_MESH_FIRST_SUBMESH, 0xFFFFFFFFu);
}
static void br_material(tb_file *f)
{
  tb_set_submesh(f, 2, TB_SUB_MATERIAL, 3);
}
static void br_samplers(tb_file *f)
{
  tb_set_material(f, 1, TB_MAT_SAMPLER_COUNT, 2);
}
static void br_samplers_wrap(tb_file *f)
{
  tb_set_material(f, 1, TB_MAT_FIRST_SAMPLER, 0xFFFFFFFEu);
}
static void br_meta_size(tb_file *f)
{
  tb_set_mesh(f, 0, TB_MESH_META_SIZE, 0x8F);
}
static void br_record_size(tb_file *f)
{
  tb_set_submesh(f, 1, TB_SUB_RECORD_SIZE, 0x3B);
}
static void br_index_size(tb_file *f)
{
  tb_set_mesh(f, 0, TB_MESH_INDEX_SIZE, 3);
}
static void br_index_size0(tb_file *f)
{
  tb_set_mesh(f, 1, TB_MESH_INDEX_SIZE, 0);
}
static void br_primitive(tb_file *f)
{
  tb_set_mesh(f, 0, TB_MESH_PRIMITIVE, 2);
}
static void br_sub_indices(tb_file *f)
{
  tb_set_submesh(f, 1, TB_SUB_FIRST_INDEX, 4);
}
static void br_list_count(tb_file *f)
{
  tb_set_submesh(f, 1, TB_SUB_INDEX_COUNT, 2);
}
static void br_mesh_name(tb_file *f)
{
  tb_set_mesh(f, 0, TB_MESH_NAME, f->string_size);
}
static void br_material_name(tb_file *f)
{
  tb_set_material(f, 0, TB_MAT_NAME, 0xFFFFFFFFu);
}
static void br_texture(tb_file *f)
{
  tb_set_sampler(f, 1, TB_SAM_TEXTURE, f->string_size + 5);
}
static void br_no_nul(tb_file *f)
{
  tb_put8(f, f->strings + f->string_size - 1, 'x');
}
/* glass no longer reaches sampler entry 2, which nothing else reaches */
static void br_no_nul_alone(tb_file *f)
{
  br_no_nul(f);
  tb_set_material(f, 1, TB_MAT_SAMPLER_COUNT, 0);
}
static void br_cut_nul(tb_file *f)
{
  tb_set_header(f, TB_HDR_STRING_SIZE, f->string_size - 1);
}
static void br_first_nul(tb_file *f) { tb_put8(f, f->strings, 'x'); }
static void br_no_strings(tb_file *f)
{
  tb_set_header(f, TB_HDR_STRING_SIZE, 0);
}

static void test_refusals(const tb_file *g)
{
  const char *F = PATH ": ";
  unsigned long sz = (unsigned long)g->size;
  tb_file c;

  /* the header */
  try(g, br_magic, PATH ": header: magic 52 53 58 43 is not RSXB", "magic");
  try(g, br_version, PATH ": header: version 2, not 1", "version");
  try(g, br_header_size, PATH ": header: header size 80, not 64",
      "header size");
  try(g, br_file_size, msg("%sheader: file size field 0x%lx differs from "
      "the file's length 0x%lx", F, sz + 1, sz), "file size field");
  tb_copy(&c, g);
  c.size = 3;
  refused(&c, PATH ": file is 3 bytes, too short for the magic RSXB",
          "a 3-byte file");
  c.size = 63;
  tb_set_header(&c, TB_HDR_FILE_SIZE, 63);
  refused(&c, PATH ": header: file is 63 bytes, shorter than the 64-byte "
          "header", "a 63-byte file");
  tb_free(&c);

  /* the tables, each before anything is allocated for it */
  try(g, br_mesh_count, msg("%sheader: mesh table 0x%lx+0x40000000 runs past "
      "end of file (0x%lx bytes)", F, (unsigned long)g->mesh_table, sz),
      "mesh count 0x01000000");
  try(g, br_mesh_count32, msg("%sheader: mesh table 0x%lx+0x200000000 "
      "overflows 32 bits", F, (unsigned long)g->mesh_table),
      "mesh count 0x08000000: 64 times it overflows");
  try(g, br_mesh_table, msg("%sheader: mesh table 0xfffffff0+0x80 overflows "
      "32 bits", F), "mesh table offset + size overflows");
  try(g, br_submesh_table, msg("%sheader: submesh table 0x%lx+0x60 runs past "
      "end of file (0x%lx bytes)", F, sz - 0x50, sz), "submesh table");
  try(g, br_material_table, msg("%sheader: material table 0x%lx+0x100000000 "
      "overflows 32 bits", F, (unsigned long)g->material_table),
      "material table");
  try(g, br_sampler_table, msg("%sheader: sampler table 0x%lx+0x18 runs past "
      "end of file (0x%lx bytes)", F, sz - 0x10, sz), "sampler table");
  try(g, br_string_table, msg("%sheader: string table 0x%lx+0x%lx runs past "
      "end of file (0x%lx bytes)", F, (unsigned long)g->strings, sz, sz),
      "string table");

  /* records, streams, buffers */
  try(g, br_meta_end, msg("%smesh 1 (bridge_03): metadata record "
      "0x%lx+0x94 runs past end of file (0x%lx bytes)", F, sz - 0x10, sz),
      "metadata record");
  try(g, br_mmp_end, msg("%smesh 1 (bridge_03): MMP stream 0x%lx+0x100000 "
      "runs past end of file (0x%lx bytes)", F, (unsigned long)g->mmp[0],
      sz), "MMP stream");
  try(g, br_mmp32, msg("%smesh 1 (bridge_03): MMP stream 0x%lx+0x800000000 "
      "overflows 32 bits", F, (unsigned long)g->mmp[0]),
      "vertex count x stride overflows");
  try(g, br_mgp_end, msg("%smesh 2 (road): MGP stream 0x%lx+0x10 runs past "
      "end of file (0x%lx bytes)", F, sz - 8, sz), "MGP stream");
  try(g, br_idx_end, msg("%smesh 2 (road): index buffer 0x%lx+0x4000 runs "
      "past end of file (0x%lx bytes)", F, (unsigned long)g->indices[1], sz),
      "index buffer");
  try(g, br_idx32, msg("%smesh 2 (road): index buffer 0x%lx+0x100000000 "
      "overflows 32 bits", F, (unsigned long)g->indices[1]),
      "index count x size overflows");
  /* submesh entry 2 is road's first submesh */
  try(g, br_record_end, msg("%smesh 2 (road): submesh 1: record 0x%lx+0x3c "
      "runs past end of file (0x%lx bytes)", F, sz - 0x3B, sz),
      "submesh record");
  try(g, br_record_end_alone, msg("%ssubmesh entry 3: record 0x%lx+0x3c "
      "runs past end of file (0x%lx bytes)", F, sz - 0x3B, sz),
      "the record of a submesh entry no mesh reaches");
  try(g, br_record_end_shared, msg("%smesh 1 (bridge_03): submesh 2: record "
      "0x%lx+0x3c runs past end of file (0x%lx bytes)", F, sz - 0x3B, sz),
      "a shared submesh entry is named by the first mesh that reaches it");

  /* ranges into other tables */
  try(g, br_submesh_range, msg("%smesh 2 (road): first submesh field 0x2 + "
      "count 2 lie outside the submesh table (3 entries)", F),
      "a mesh's submesh range");
  try(g, br_one_submesh, msg("%smesh 1 (bridge_03): first submesh field "
      "0x0 + count 2 lie outside the submesh table (1 entry)", F),
      "a submesh table of one entry");
  try(g, br_submesh_wrap, msg("%smesh 2 (road): first submesh field "
      "0xffffffff + count 1 lie outside the submesh table (3 entries)", F),
      "a submesh range that wraps");
  try(g, br_material, msg("%smesh 2 (road): submesh 1: material field 0x3 "
      "lies outside the material table (3 entries)", F),
      "a submesh's material");
  try(g, br_samplers, msg("%smaterial 2 (glass): first sampler field 0x2 + "
      "count 2 lie outside the sampler table (3 entries)", F),
      "a material's sampler range");
  try(g, br_one_sampler, msg("%smaterial 1 (brick): first sampler field "
      "0x0 + count 2 lie outside the sampler table (1 entry)", F),
      "a sampler table of one entry");
  try(g, br_samplers_wrap, msg("%smaterial 2 (glass): first sampler field "
      "0xfffffffe + count 1 lie outside the sampler table (3 entries)", F),
      "a sampler range that wraps");

  /* sizes, index size, primitive, submesh index ranges */
  try(g, br_meta_size, msg("%smesh 1 (bridge_03): metadata record is 0x8f "
      "bytes, shorter than 0x90", F), "metadata record of 0x8f bytes");
  try(g, br_record_size, msg("%smesh 1 (bridge_03): submesh 2: submesh "
      "record is 0x3b bytes, shorter than 0x3c", F),
      "submesh record of 0x3b bytes");
  try(g, br_index_size, msg("%smesh 1 (bridge_03): index size 3, not 2 or 4",
      F), "index size 3");
  try(g, br_index_size0, msg("%smesh 2 (road): index size 0, not 2 or 4", F),
      "index size 0");
  try(g, br_primitive, msg("%smesh 1 (bridge_03): primitive 2, not 0 "
      "(triangle list) or 1 (triangle strip)", F), "primitive 2");
  try(g, br_sub_indices, msg("%smesh 1 (bridge_03): submesh 2: first index "
      "field 0x4 + count 3 lie outside the mesh's index buffer (6 indices)",
      F), "a submesh's index range");
  try(g, br_list_count, msg("%smesh 1 (bridge_03): submesh 2: index count 2 "
      "of a triangle list is not a multiple of 3", F),
      "a list count not a multiple of 3");

  /* strings */
  try(g, br_mesh_name, msg("%smesh 1: name 0x%lx lies outside the string "
      "table (0x%lx bytes)", F, (unsigned long)g->string_size,
      (unsigned long)g->string_size), "a mesh name");
  try(g, br_material_name, msg("%smaterial 1: name 0xffffffff lies outside "
      "the string table (0x%lx bytes)", F, (unsigned long)g->string_size),
      "a material name");
  /* sampler entry 1 is brick's second, entry 2 glass's first */
  try(g, br_texture, msg("%smaterial 1 (brick): sampler 2: texture 0x%lx "
      "lies outside the string table (0x%lx bytes)", F,
      (unsigned long)g->string_size + 5, (unsigned long)g->string_size),
      "a texture path");
  try(g, br_no_nul, msg("%smaterial 2 (glass): sampler 1: texture 0x%lx has "
      "no NUL before the string table ends", F,
      (unsigned long)g->texture[2]), "the last string without its NUL");
  try(g, br_cut_nul, msg("%smaterial 2 (glass): sampler 1: texture 0x%lx has "
      "no NUL before the string table ends", F,
      (unsigned long)g->texture[2]), "a table that ends before the last NUL");
  try(g, br_no_nul_alone, msg("%ssampler entry 3: texture 0x%lx has no NUL "
      "before the string table ends", F, (unsigned long)g->texture[2]),
      "a sampler entry no material reaches");
  try(g, br_first_nul, msg("%sheader: string table at 0x%lx starts with 0x78, "
      "not a NUL", F, (unsigned long)g->strings), "the table's first byte");
  try(g, br_no_strings, msg("%sheader: string table at 0x%lx is empty, not "
      "even the NUL it starts with", F, (unsigned long)g->strings),
      "an empty string table");
}

/* ------------------------------------------- what a reader allows */

static void test_liberal(const tb_file *g)
{
  tb_file c;
  rsx_error e;
  rsx_bundle *b;
  const rsx_mesh *m;

  /* reserved fields: a writer zeroes them, a reader ignores them */
  tb_copy(&c, g);
  tb_put32(&c, TB_HDR_RESERVED, 0xFFFFFFFF);
  tb_put32(&c, TB_HDR_RESERVED + 8, 0x12345678);
  tb_put16(&c, c.mesh_table + 0x2A, 0xFFFF);
  tb_put32(&c, c.mesh_table + TB_MESH_RESERVED + 4, 1);
  tb_put32(&c, c.submesh_table + 0x14, 1);
  tb_put32(&c, c.material_table + 0x0C, 1);
  b = load(&c, &e);
  ok(b != NULL, "nonzero reserved fields are accepted");
  rsx_bundle_free(b);
  tb_free(&c);

  /* mesh 1 also takes submesh 1 (shared): its views follow its own mask */
  tb_copy(&c, g);
  tb_set_mesh(&c, 1, TB_MESH_FIRST_SUBMESH, 1);
  tb_set_mesh(&c, 1, TB_MESH_SUBMESH_COUNT, 2);
  b = load(&c, &e);
  if (ok(b != NULL, "a submesh shared by two meshes is allowed")) {
    m = rsx_bundle_mesh(b, 0);
    is_int(m->submeshes[1].uv_set[3], 3, "in mesh 0 UV3 <- set 3");
    m = rsx_bundle_mesh(b, 1);
    is_int(m->submesh_count, 2, "mesh 1 has 2 submeshes");
    is_int(m->submeshes[0].uv_set[3], -1, "in mesh 1 the same record "
           "leaves UV3 absent");
    is_int(m->submeshes[0].first_index, 3, "the same entry");
    is_int(m->submeshes[1].material, 1, "then submesh 2");
  } else {
    diag("%s", e.text);
  }
  rsx_bundle_free(b);
  tb_free(&c);

  /* a mesh with no submeshes, no vertices and no MGP; empty tables */
  {
    tb_spec s;
    memset(&s, 0, sizeof s);
    s.mesh_count = 1;
    s.mesh[0] = (tb_mesh){"", meta1, sizeof meta1, 0, NULL, 16, NULL, 4,
                          NULL, 0, 2, 0, 0, 0};
    tb_lay(&c, &s);
    b = load(&c, &e);
    if (ok(b != NULL, "an empty mesh opens")) {
      m = rsx_bundle_mesh(b, 0);
      is_str(m->name, "", "its name is the empty string at offset 0");
      is_int(m->findings, 0, "no findings");
      is_int(rsx_bundle_material_count(b), 0, "no materials");
    } else {
      diag("%s", e.text);
    }
    rsx_bundle_free(b);
    tb_free(&c);
  }

  /* findings leave the file readable */
  tb_copy(&c, g);
  tb_set_mesh(&c, 1, TB_MESH_MGP_STRIDE, 2);
  tb_put16(&c, c.indices[1] + 2, 9);   /* the index at position 0 */
  tb_put8(&c, c.record[2] + 0x38, 7);
  b = load(&c, &e);
  if (ok(b != NULL, "a bundle with findings opens")) {
    char buf[200];
    float o[4 * 3];
    m = rsx_bundle_mesh(b, 1);
    is_int(m->findings, RSX_FIND_MGP_STRIDE | RSX_FIND_INDEX_RANGE |
           RSX_FIND_SELECTOR, "mgp-stride, index-range, selector");
    rsx_finding_describe(m, RSX_FIND_INDEX_RANGE, buf, sizeof buf);
    is_str(buf, "1 index is not below the vertex count 4, the first at "
           "position 1 (9)", "the bad index described, at m:index(1)");
    is_int(rsx_mesh_decode(m, RSX_UV0, 0, 1, o, &e), -1, "uv0 fails");
    is_str(e.text, "mesh 2 (road): cannot decode uv0: mgp-stride: MGP "
           "stride 2 differs from 4 implied by mask 0x00080025",
           "... naming mesh, kind and finding");
    is_int(rsx_mesh_decode(m, RSX_POSITION, 0, 4, o, &e), 0,
           "positions still decode");
  } else {
    diag("%s", e.text);
  }
  rsx_bundle_free(b);
  tb_free(&c);
}

/* Meshes sharing submeshes so often that the views would outgrow the
** file: 64 copies of one mesh entry, each taking all 8 submeshes. */
static void test_sharing_bound(void)
{
  tb_spec s;
  tb_file f;
  rsx_error e;
  uint32_t i, table;
  char want[256];
  memset(&s, 0, sizeof s);
  s.mesh_count = 1;
  s.mesh[0] = (tb_mesh){"x", meta1, sizeof meta1, 1, mmp1, 16, mgp1, 4,
                        idx0, 3, 2, 0, 0, 8};
  s.submesh_count = 8;
  for (i = 0; i < 8; i++) s.submesh[i] = (tb_submesh){rec1, 0x3C, 0, 3,
                                                      RSX_NONE};
  tb_lay(&f, &s);
  table = tb_place(&f, NULL, (size_t)64 * TB_MESH_BYTES, 1);
  for (i = 0; i < 64; i++)
    memcpy(f.data + table + (size_t)i * TB_MESH_BYTES, f.data + f.mesh_table,
           TB_MESH_BYTES);
  tb_set_header(&f, TB_HDR_MESH_TABLE, table);
  tb_set_header(&f, TB_HDR_MESH_COUNT, 64);
  tb_seal(&f);
  snprintf(want, sizeof want, PATH ": the meshes' submesh ranges add up to "
           "512 entries, more than a file of 0x%lx bytes can hold",
           (unsigned long)f.size);
  ok(f.size / 32 < 512, "the file is below 512 * 32 bytes (0x%zx)", f.size);
  refused(&f, want, "512 shared submesh views");
  tb_set_header(&f, TB_HDR_MESH_COUNT, 2);
  {
    rsx_bundle *b = load(&f, &e);
    ok(b != NULL, "the same file with 2 of those meshes opens");
    rsx_bundle_free(b);
  }
  tb_free(&f);
}

/* ---------------------------------------- truncation and corruption */

static void test_prefixes(const tb_file *g, const char *layout)
{
  uint8_t *buf = malloc(g->size);
  size_t len, accepted = 0, accepted_sealed = 0, unnamed = 0;
  rsx_error e;
  if (!buf) bail_out("out of memory");
  for (len = 0; len < g->size; len++) {
    rsx_bundle *b =
      rsx_bundle_from_memory(g->data, len, PATH, &e);
    if (b) accepted++;
    else if (strncmp(e.text, PATH ": ", sizeof PATH + 1) != 0) unnamed++;
    rsx_bundle_free(b);
    /* with the size field telling the truth, the deeper checks refuse */
    memcpy(buf, g->data, len);
    if (len >= 12) rsx_put_be32(buf + TB_HDR_FILE_SIZE, (uint32_t)len);
    b = rsx_bundle_from_memory(buf, len, PATH, &e);
    if (b) accepted_sealed++;
    else if (strncmp(e.text, PATH ": ", sizeof PATH + 1) != 0) unnamed++;
    rsx_bundle_free(b);
  }
  is_int((long long)accepted, 0, "%s: all %zu prefixes refused", layout,
         g->size);
  is_int((long long)accepted_sealed, 0,
         "%s: all prefixes refused with the size field set to their length",
         layout);
  is_int((long long)unnamed, 0, "%s: every refusal names the file", layout);
  free(buf);
}

/* Everything a script could reach in b works or fails with a message. */
static int walk(const rsx_bundle *b)
{
  static float out[64 * 4];
  static uint32_t tri[64 * 3];
  rsx_error e;
  uint32_t i, j;
  int k, bad = 0;
  for (i = 0; i < rsx_bundle_mesh_count(b); i++) {
    const rsx_mesh *m = rsx_bundle_mesh(b, i);
    uint32_t n = m->vertex_count < 64 ? m->vertex_count : 64;
    for (k = 0; k < RSX_KIND_COUNT; k++)
      if (rsx_mesh_can_decode(m, k, &e) == 0 &&
          rsx_mesh_decode(m, k, 0, n, out, &e) != 0)
        bad++;
    for (j = 0; j < m->submesh_count; j++) {
      const rsx_submesh *s = &m->submeshes[j];
      size_t nt;
      int rc;
      if (s->index_count > 64) continue;
      rc = rsx_triangles(m, s, s->first_index, s->index_count, tri, &nt, &e);
      /* without the index-range finding, every index is in range */
      if (rc != 0 && !(m->findings & RSX_FIND_INDEX_RANGE)) bad++;
    }
  }
  for (i = 0; i < rsx_bundle_material_count(b); i++)
    (void)rsx_material_base_colour(rsx_bundle_material(b, i));
  return bad;
}

static void test_corruption(const tb_file *g, const char *layout)
{
  static const uint8_t flips[3] = {0xFF, 0x01, 0x80};
  size_t at, accepted = 0, refused_n = 0, bad = 0;
  int k;
  rsx_error e;
  tb_file c;
  tb_copy(&c, g);
  for (at = 0; at < g->size; at++) {
    for (k = 0; k < 3; k++) {
      rsx_bundle *b;
      c.data[at] ^= flips[k];
      b = rsx_bundle_from_memory(c.data, c.size, PATH, &e);
      if (b) {
        accepted++;
        bad += (size_t)walk(b);
      } else {
        refused_n++;
      }
      rsx_bundle_free(b);
      c.data[at] ^= flips[k];
    }
  }
  tb_free(&c);
  is_int((long long)bad, 0, "%s: %zu corrupted files accepted, %zu refused; "
         "every accepted one decodes and triangulates as its findings say",
         layout, accepted, refused_n);
}

/* ------------------------------------------------------------ on disc */

static void test_files(const tb_file *g)
{
  char path[] = "/tmp/rsxb-test-XXXXXX";
  rsx_error e;
  rsx_bundle *b;
  int fd;

  b = rsx_bundle_open("/nonexistent/dir/CHARLIE.rsxb", &e);
  ok(b == NULL, "a missing file is refused");
  is_str(e.text, "/nonexistent/dir/CHARLIE.rsxb: No such file or directory",
         "... naming the path and strerror");
  b = rsx_bundle_open(".", &e);
  ok(b == NULL, "a folder is refused");
  is_str(e.text, ".: Is a directory", "... with its message");

  fd = mkstemp(path);
  if (fd < 0) bail_out("mkstemp: cannot make %s", path);
  if (write(fd, g->data, g->size) != (ssize_t)g->size)
    bail_out("write: %s", path);
  close(fd);
  b = rsx_bundle_open(path, &e);
  if (ok(b != NULL, "the valid bundle opens from a file")) {
    is_str(rsx_bundle_path(b), path, "path as given");
    is_str(rsx_bundle_name(b), path + 5, "its base name");
    is_int(rsx_bundle_mesh_count(b), 2, "2 meshes");
    cmp_mem(rsx_bundle_bytes(b), g->data, g->size, "the file's bytes");
  } else {
    diag("%s", e.text);
  }
  rsx_bundle_free(b);
  ok(rsx_is_bundle(path) == 1, "rsx_is_bundle: the valid bundle is one");
  if (truncate(path, (off_t)g->size - 1) != 0) bail_out("truncate");
  b = rsx_bundle_open(path, &e);
  ok(b == NULL, "a truncated file is refused");
  is_str(e.text, msg("%s: header: file size field 0x%lx differs from the "
         "file's length 0x%lx", path, (unsigned long)g->size,
         (unsigned long)g->size - 1), "... by its path as given");
  ok(rsx_is_bundle(path) == 1, "rsx_is_bundle: a sniff, not a check: a "
     "truncated bundle still starts as one");
  if (truncate(path, 5) != 0) bail_out("truncate");
  ok(rsx_is_bundle(path) == 1, "rsx_is_bundle: 5 bytes RSXB 00 suffice");
  if (truncate(path, 4) != 0) bail_out("truncate");
  ok(rsx_is_bundle(path) == 0, "rsx_is_bundle: RSXB alone is not one");
  if (truncate(path, 0) != 0) bail_out("truncate");
  b = rsx_bundle_open(path, &e);
  ok(b == NULL, "an empty file is refused");
  is_str(e.text, msg("%s: file is 0 bytes, too short for the magic RSXB",
         path), "... with its message");
  ok(rsx_is_bundle(path) == 0, "rsx_is_bundle: an empty file is not one");
  fd = open(path, O_WRONLY | O_TRUNC);
  if (fd < 0 || write(fd, "RSXB = 1\n", 9) != 9) bail_out("write: %s", path);
  close(fd);
  ok(rsx_is_bundle(path) == 0, "rsx_is_bundle: a Lua chunk starting RSXB "
     "is not one");
  unlink(path);
  ok(rsx_is_bundle(path) == 0, "rsx_is_bundle: a missing file is not one");
  ok(rsx_is_bundle(".") == 0, "rsx_is_bundle: a folder is not one");
  if (mkfifo(path, 0600) != 0) bail_out("mkfifo: %s", path);
  ok(rsx_is_bundle(path) == 0, "rsx_is_bundle: a FIFO is not one (and "
     "does not block)");
  unlink(path);

  b = rsx_bundle_from_memory(g->data, 2, NULL, &e);
  ok(b == NULL, "from memory without a name");
  is_str(e.text, "(memory): file is 2 bytes, too short for the magic RSXB",
         "... is called (memory)");
  b = rsx_bundle_from_memory(g->data, 2, "x", NULL);
  ok(b == NULL, "a NULL rsx_error is allowed");
}

int main(void)
{
  static const struct {
    unsigned align;
    int tables_last;
    const char *name;
  } layouts[3] = {{16, 0, "aligned"},
                  {1, 1, "packed, tables last"},
                  {4, 0, "4-aligned"}};
  tb_spec s;
  tb_file f;
  int i;
  for (i = 0; i < 3; i++) {
    spec_valid(&s, layouts[i].align, layouts[i].tables_last);
    tb_lay(&f, &s);
    check_valid(&f, layouts[i].name);
    test_prefixes(&f, layouts[i].name);
    test_corruption(&f, layouts[i].name);
    if (i == 0) {
      test_refusals(&f);
      test_liberal(&f);
      test_files(&f);
    }
    tb_free(&f);
  }
  test_sharing_bound();
  return done_testing();
}
