/*
** build.c - the tests' own RSXB layout (see build.h): places the header,
** tables, strings, records and streams byte by byte.
*/
#include "build.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

static void tb_grow(tb_file *f, size_t size)
{
  if (size > f->cap) {
    size_t cap = f->cap ? f->cap : 256;
    uint8_t *p;
    while (cap < size) cap *= 2;
    p = realloc(f->data, cap);
    if (!p) bail_out("build: out of memory for %zu bytes", cap);
    memset(p + f->cap, 0, cap - f->cap);
    f->data = p;
    f->cap = cap;
  }
  if (size > f->size) f->size = size;
}

uint32_t tb_place(tb_file *f, const void *p, size_t n, unsigned align)
{
  size_t at = f->size;
  if (n == 0) return 0;
  if (align > 1) at = (at + align - 1) / align * align;
  tb_grow(f, at + n);
  if (p) memcpy(f->data + at, p, n);
  return (uint32_t)at;
}

void tb_put8(tb_file *f, size_t off, uint8_t v)
{
  if (off + 1 > f->size) bail_out("build: put8 at 0x%zx past the end", off);
  f->data[off] = v;
}

void tb_put16(tb_file *f, size_t off, uint16_t v)
{
  tb_put8(f, off, (uint8_t)(v >> 8));
  tb_put8(f, off + 1, (uint8_t)v);
}

void tb_put32(tb_file *f, size_t off, uint32_t v)
{
  tb_put16(f, off, (uint16_t)(v >> 16));
  tb_put16(f, off + 2, (uint16_t)v);
}

uint32_t tb_get32(const tb_file *f, size_t off)
{
  const uint8_t *p = f->data + off;
  if (off + 4 > f->size) bail_out("build: get32 at 0x%zx past the end", off);
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
         p[3];
}

void tb_set_header(tb_file *f, unsigned field, uint32_t v)
{
  if (field == TB_HDR_VERSION || field == TB_HDR_HEADER_SIZE)
    tb_put16(f, field, (uint16_t)v);
  else
    tb_put32(f, field, v);
}

void tb_set_mesh(tb_file *f, uint32_t i, unsigned field, uint32_t v)
{
  size_t at = f->mesh_table + (size_t)i * TB_MESH_BYTES + field;
  if (field == TB_MESH_INDEX_SIZE || field == TB_MESH_PRIMITIVE)
    tb_put8(f, at, (uint8_t)v);
  else
    tb_put32(f, at, v);
}

void tb_set_submesh(tb_file *f, uint32_t i, unsigned field, uint32_t v)
{
  tb_put32(f, f->submesh_table + (size_t)i * TB_SUB_BYTES + field, v);
}

void tb_set_material(tb_file *f, uint32_t i, unsigned field, uint32_t v)
{
  tb_put32(f, f->material_table + (size_t)i * TB_MAT_BYTES + field, v);
}

void tb_set_sampler(tb_file *f, uint32_t i, unsigned field, uint32_t v)
{
  tb_put32(f, f->sampler_table + (size_t)i * TB_SAM_BYTES + field, v);
}

void tb_seal(tb_file *f)
{
  tb_put32(f, TB_HDR_FILE_SIZE, (uint32_t)f->size);
}

void tb_free(tb_file *f)
{
  free(f->data);
  memset(f, 0, sizeof *f);
}

void tb_copy(tb_file *out, const tb_file *f)
{
  *out = *f;
  out->data = malloc(f->cap);
  if (!out->data) bail_out("build: out of memory");
  memcpy(out->data, f->data, f->cap);
}

/* ------------------------------------------------------------ strings */

typedef struct tb_strings {
  char buf[1024];
  size_t size;
} tb_strings;

/* Offset of str in the table, added if new; the table starts with the
** NUL of the empty string. */
static uint32_t str_add(tb_strings *t, const char *str)
{
  size_t n = strlen(str) + 1, at = 0;
  while (at < t->size) {
    if (strcmp(t->buf + at, str) == 0) return (uint32_t)at;
    at += strlen(t->buf + at) + 1;
  }
  if (t->size + n > sizeof t->buf) bail_out("build: string table full");
  memcpy(t->buf + t->size, str, n);
  t->size += n;
  return (uint32_t)at;
}

/* -------------------------------------------------------------- layout */

static void lay_tables(tb_file *f, const tb_spec *s, const tb_strings *t,
                       unsigned a)
{
  f->mesh_table = tb_place(f, NULL, (size_t)s->mesh_count * TB_MESH_BYTES, a);
  f->submesh_table =
    tb_place(f, NULL, (size_t)s->submesh_count * TB_SUB_BYTES, a);
  f->material_table =
    tb_place(f, NULL, (size_t)s->material_count * TB_MAT_BYTES, a);
  f->sampler_table =
    tb_place(f, NULL, (size_t)s->sampler_count * TB_SAM_BYTES, a);
  f->strings = tb_place(f, t->buf, t->size, a);
  f->string_size = (uint32_t)t->size;
}

static void lay_data(tb_file *f, const tb_spec *s, unsigned a)
{
  uint32_t i;
  for (i = 0; i < s->mesh_count; i++) {
    const tb_mesh *m = &s->mesh[i];
    f->meta[i] = tb_place(f, m->meta, m->meta_size, a);
    f->mmp[i] = tb_place(f, m->mmp, (size_t)m->vertex_count * m->mmp_stride,
                         a);
    f->mgp[i] = tb_place(f, m->mgp, (size_t)m->vertex_count * m->mgp_stride,
                         a);
    f->indices[i] = tb_place(f, m->indices,
                             (size_t)m->index_count * m->index_size, a);
  }
  for (i = 0; i < s->submesh_count; i++)
    f->record[i] = tb_place(f, s->submesh[i].record,
                            s->submesh[i].record_size, a);
}

void tb_lay(tb_file *f, const tb_spec *s)
{
  tb_strings t;
  unsigned a = s->align > 1 ? s->align : 1;
  uint32_t i;
  if (s->mesh_count > TB_MAX || s->submesh_count > TB_MAX ||
      s->material_count > TB_MAX || s->sampler_count > TB_MAX)
    bail_out("build: more than %d entries", TB_MAX);
  memset(f, 0, sizeof *f);
  t.buf[0] = '\0';
  t.size = 1;
  for (i = 0; i < s->mesh_count; i++)
    f->mesh_name[i] = str_add(&t, s->mesh[i].name);
  for (i = 0; i < s->material_count; i++)
    f->material_name[i] = str_add(&t, s->material[i].name);
  for (i = 0; i < s->sampler_count; i++)
    f->texture[i] = str_add(&t, s->sampler[i].texture);

  tb_place(f, NULL, TB_HDR_BYTES, 1);
  if (s->tables_last) {
    lay_data(f, s, a);
    lay_tables(f, s, &t, a);
  } else {
    lay_tables(f, s, &t, a);
    lay_data(f, s, a);
  }

  memcpy(f->data, "RSXB", 4);
  tb_set_header(f, TB_HDR_VERSION, 1);
  tb_set_header(f, TB_HDR_HEADER_SIZE, TB_HDR_BYTES);
  tb_set_header(f, TB_HDR_MESH_COUNT, s->mesh_count);
  tb_set_header(f, TB_HDR_MESH_TABLE, f->mesh_table);
  tb_set_header(f, TB_HDR_SUBMESH_COUNT, s->submesh_count);
  tb_set_header(f, TB_HDR_SUBMESH_TABLE, f->submesh_table);
  tb_set_header(f, TB_HDR_MATERIAL_COUNT, s->material_count);
  tb_set_header(f, TB_HDR_MATERIAL_TABLE, f->material_table);
  tb_set_header(f, TB_HDR_SAMPLER_COUNT, s->sampler_count);
  tb_set_header(f, TB_HDR_SAMPLER_TABLE, f->sampler_table);
  tb_set_header(f, TB_HDR_STRINGS, f->strings);
  tb_set_header(f, TB_HDR_STRING_SIZE, f->string_size);

  for (i = 0; i < s->mesh_count; i++) {
    const tb_mesh *m = &s->mesh[i];
    tb_set_mesh(f, i, TB_MESH_NAME, f->mesh_name[i]);
    tb_set_mesh(f, i, TB_MESH_META, f->meta[i]);
    tb_set_mesh(f, i, TB_MESH_META_SIZE, m->meta_size);
    tb_set_mesh(f, i, TB_MESH_VERTEX_COUNT, m->vertex_count);
    tb_set_mesh(f, i, TB_MESH_MMP, f->mmp[i]);
    tb_set_mesh(f, i, TB_MESH_MMP_STRIDE, m->mmp_stride);
    tb_set_mesh(f, i, TB_MESH_MGP, f->mgp[i]);
    tb_set_mesh(f, i, TB_MESH_MGP_STRIDE, m->mgp_stride);
    tb_set_mesh(f, i, TB_MESH_INDICES, f->indices[i]);
    tb_set_mesh(f, i, TB_MESH_INDEX_COUNT, m->index_count);
    tb_set_mesh(f, i, TB_MESH_INDEX_SIZE, m->index_size);
    tb_set_mesh(f, i, TB_MESH_PRIMITIVE, m->primitive);
    tb_set_mesh(f, i, TB_MESH_FIRST_SUBMESH, m->first_submesh);
    tb_set_mesh(f, i, TB_MESH_SUBMESH_COUNT, m->submesh_count);
  }
  for (i = 0; i < s->submesh_count; i++) {
    const tb_submesh *sm = &s->submesh[i];
    tb_set_submesh(f, i, TB_SUB_RECORD, f->record[i]);
    tb_set_submesh(f, i, TB_SUB_RECORD_SIZE, sm->record_size);
    tb_set_submesh(f, i, TB_SUB_FIRST_INDEX, sm->first_index);
    tb_set_submesh(f, i, TB_SUB_INDEX_COUNT, sm->index_count);
    tb_set_submesh(f, i, TB_SUB_MATERIAL, sm->material);
  }
  for (i = 0; i < s->material_count; i++) {
    tb_set_material(f, i, TB_MAT_NAME, f->material_name[i]);
    tb_set_material(f, i, TB_MAT_FIRST_SAMPLER, s->material[i].first_sampler);
    tb_set_material(f, i, TB_MAT_SAMPLER_COUNT, s->material[i].sampler_count);
  }
  for (i = 0; i < s->sampler_count; i++) {
    tb_set_sampler(f, i, TB_SAM_SLOT, s->sampler[i].slot);
    tb_set_sampler(f, i, TB_SAM_TEXTURE, f->texture[i]);
  }
  tb_seal(f);
}
