/* writer.c - the RSXB writer: materials and meshes in, one bundle out */
#define _POSIX_C_SOURCE 200809L

#include "rsxmesh.h"
#include "rsxb.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
** Layout (rsxb.md, "Writing"): the header, then the mesh, submesh,
** material and sampler tables, the string table, then each mesh's block:
** its metadata record, its submesh records, MMP, MGP and index buffer.
** Every part starts on a 16-byte boundary; gaps are zero. A part of no
** bytes (a table without entries, a mesh without MGP) takes no room and
** gets offset 0. A NULL name or texture is written as the empty string.
**
** add_mesh copies a mesh into one block already laid out with its padding,
** so rsx_writer_bytes plans the file once, allocates it once and copies
** each block with one memcpy; rsx_writer_save writes the same head and
** then each block straight from its copy.
*/

#define WR_HEADER_SIZE ((unsigned)RSXB_HEADER_SIZE)
#define WR_MESH_ENTRY ((unsigned)RSXB_MESH_ENTRY)
#define WR_SUBMESH_ENTRY ((unsigned)RSXB_SUBMESH_ENTRY)
#define WR_MATERIAL_ENTRY ((unsigned)RSXB_MATERIAL_ENTRY)
#define WR_SAMPLER_ENTRY ((unsigned)RSXB_SAMPLER_ENTRY)
#define WR_ALIGN 16u
#define WR_LIMIT 0xFFFFFFFFu   /* 32-bit offsets and sizes */
#define WR_ABSENT UINT32_MAX   /* a part of no bytes, inside a block */

typedef struct wr_mesh {
  uint32_t name;              /* string table offset */
  uint32_t meta_size;
  uint32_t vertex_count;
  uint32_t mmp_stride, mgp_stride;
  uint32_t index_count;
  uint8_t index_size, primitive;
  uint32_t first_submesh, submesh_count;
  /* where each part starts in the block, WR_ABSENT if empty */
  uint32_t meta_at, mmp_at, mgp_at, index_at;
  uint8_t *block;
  uint32_t block_size;
  uint64_t block_at;          /* the block's offset from the first block */
} wr_mesh;

typedef struct wr_submesh {
  uint32_t record_at;         /* in its mesh's block */
  uint32_t record_size, first_index, index_count, material;
  uint32_t mesh;
} wr_submesh;

typedef struct wr_material {
  uint32_t name, first_sampler, sampler_count;
} wr_material;

typedef struct wr_sampler {
  uint32_t slot, texture;
} wr_sampler;

struct rsx_writer {
  wr_mesh *meshes;
  size_t mesh_count, mesh_cap;
  wr_submesh *submeshes;
  size_t submesh_count, submesh_cap;
  wr_material *materials;
  size_t material_count, material_cap;
  wr_sampler *samplers;
  size_t sampler_count, sampler_cap;
  /* the string table, deduplicated through an open-addressing hash of
  ** string offsets (0: a free slot; offset 0 is never hashed) */
  char *strings;
  size_t string_size, string_cap;
  uint32_t *hash;
  size_t hash_cap, hash_used;
  uint64_t body_size;         /* end of the last block, from the first */
};

/* Where the parts of the file go. */
typedef struct wr_plan {
  uint64_t mesh_table, submesh_table, material_table, sampler_table;
  uint64_t strings, body, size;
} wr_plan;

/* ------------------------------------------------------------- helpers */

static uint64_t aux_align(uint64_t n)
{
  return (n + (WR_ALIGN - 1)) & ~(uint64_t)(WR_ALIGN - 1);
}

/* Grow *p to hold need elements of elem bytes; -1 when memory is short. */
static int aux_grow(void **p, size_t *cap, size_t need, size_t elem)
{
  size_t n;
  void *q;
  if (need <= *cap) return 0;
  n = *cap ? *cap : 16;
  while (n < need) {
    if (n > SIZE_MAX / 2) return -1;
    n *= 2;
  }
  if (n > SIZE_MAX / elem) return -1;
  q = realloc(*p, n * elem);
  if (q == NULL) return -1;
  *p = q;
  *cap = n;
  return 0;
}

/* A part of size bytes at the next boundary after *pos; 0 when empty. */
static uint64_t aux_place(uint64_t *pos, uint64_t size)
{
  uint64_t at;
  if (size == 0) return 0;
  at = aux_align(*pos);
  *pos = at + size;
  return at;
}

/* The file's layout for the given counts and sizes. */
static void aux_plan(uint64_t meshes, uint64_t submeshes, uint64_t materials,
                     uint64_t samplers, uint64_t strings, uint64_t body,
                     wr_plan *p)
{
  uint64_t pos = WR_HEADER_SIZE;
  p->mesh_table = aux_place(&pos, meshes * WR_MESH_ENTRY);
  p->submesh_table = aux_place(&pos, submeshes * WR_SUBMESH_ENTRY);
  p->material_table = aux_place(&pos, materials * WR_MATERIAL_ENTRY);
  p->sampler_table = aux_place(&pos, samplers * WR_SAMPLER_ENTRY);
  p->strings = aux_place(&pos, strings);
  p->body = aux_place(&pos, body);
  p->size = pos;
}

static void aux_plan_now(const rsx_writer *w, wr_plan *p)
{
  aux_plan(w->mesh_count, w->submesh_count, w->material_count,
           w->sampler_count, w->string_size, w->body_size, p);
}

/* ------------------------------------------------------ string table */

static uint32_t str_hash(const char *s, size_t n)
{
  uint32_t h = 2166136261u; /* FNV-1a */
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
  return h;
}

/* The hash slot of s: the one holding it, or the free one it would go to */
static size_t str_slot(const rsx_writer *w, const char *s, size_t n)
{
  size_t mask = w->hash_cap - 1;
  size_t i = str_hash(s, n) & mask;
  for (;;) {
    uint32_t off = w->hash[i];
    if (off == 0) return i;
    if (strncmp(w->strings + off, s, n) == 0 && w->strings[off + n] == '\0')
      return i;
    i = (i + 1) & mask;
  }
}

/* Refill the hash from the table's strings (no allocation). */
static void str_reindex(rsx_writer *w)
{
  size_t off;
  memset(w->hash, 0, w->hash_cap * sizeof *w->hash);
  w->hash_used = 0;
  for (off = 1; off < w->string_size;) {
    size_t n = strlen(w->strings + off), slot;
    /* a seeded table may repeat a string: its first offset stays */
    slot = str_slot(w, w->strings + off, n);
    if (n > 0 && w->hash[slot] == 0) {
      w->hash[slot] = (uint32_t)off;
      w->hash_used++;
    }
    off += n + 1;
  }
}

/* Offset of s in the table, added if new; NULL and "" are offset 0.
** -1: out of memory; -2: the table would pass 32 bits. */
static int str_add(rsx_writer *w, const char *s, uint32_t *out)
{
  size_t n, slot;
  if (s == NULL || s[0] == '\0') {
    *out = 0;
    return 0;
  }
  n = strlen(s);
  if ((w->hash_used + 1) * 2 > w->hash_cap) {
    uint32_t *h = calloc(w->hash_cap * 2, sizeof *h);
    if (h == NULL) return -1;
    free(w->hash);
    w->hash = h;
    w->hash_cap *= 2;
    str_reindex(w);
  }
  slot = str_slot(w, s, n);
  if (w->hash[slot] != 0) {
    *out = w->hash[slot];
    return 0;
  }
  if (n + 1 > WR_LIMIT - w->string_size) return -2;
  if (aux_grow((void **)&w->strings, &w->string_cap,
               w->string_size + n + 1, 1) != 0)
    return -1;
  memcpy(w->strings + w->string_size, s, n + 1);
  *out = (uint32_t)w->string_size;
  w->hash[slot] = *out;
  w->hash_used++;
  w->string_size += n + 1;
  return 0;
}

/* Forget the strings added since the table was size bytes long. */
static void str_rollback(rsx_writer *w, size_t size)
{
  if (w->string_size == size) return;
  w->string_size = size;
  str_reindex(w);
}

/* The message of a failed str_add. */
static int str_fail(int code, const char *where, const char *what,
                    rsx_error *err)
{
  if (code == -2)
    return rsx_fail(err, "%s: %s would grow the string table past "
                         "the 4 GiB of 32-bit offsets", where, what);
  return rsx_fail(err, "%s: out of memory for %s", where, what);
}

/* ---------------------------------------------------------- the writer */

rsx_writer *rsx_writer_new(void)
{
  rsx_writer *w = calloc(1, sizeof *w);
  if (w == NULL) return NULL;
  w->strings = malloc(64);
  w->hash = calloc(64, sizeof *w->hash);
  if (w->strings == NULL || w->hash == NULL) {
    free(w->strings);
    free(w->hash);
    free(w);
    return NULL;
  }
  w->string_cap = 64;
  w->hash_cap = 64;
  w->strings[0] = '\0'; /* the table starts with a NUL: offset 0 is "" */
  w->string_size = 1;
  return w;
}

void rsx_writer_free(rsx_writer *w)
{
  size_t i;
  if (w == NULL) return;
  for (i = 0; i < w->mesh_count; i++) free(w->meshes[i].block);
  free(w->meshes);
  free(w->submeshes);
  free(w->materials);
  free(w->samplers);
  free(w->strings);
  free(w->hash);
  free(w);
}

int rsx_writer_seed_strings(rsx_writer *w, const uint8_t *table,
                            size_t size, rsx_error *err)
{
  size_t need, cap;
  uint32_t *h;
  if (w == NULL) return rsx_fail(err, "writer: no writer");
  if (w->mesh_count > 0 || w->material_count > 0 || w->string_size > 1)
    return rsx_fail(err, "writer: the string table can be seeded only "
                         "before anything is added");
  if (size == 0 || table[0] != '\0')
    return rsx_fail(err, "writer: a seed string table must start with a "
                         "NUL");
  need = size + (table[size - 1] != '\0');
  if (need > WR_LIMIT)
    return rsx_fail(err, "writer: a seed string table of %llu bytes "
                         "passes 32 bits", (unsigned long long)need);
  /* a hash at most half full, as str_add keeps it: one slot per byte
  ** pair is more than the strings can need */
  for (cap = w->hash_cap; cap < need; cap *= 2) {}
  h = calloc(cap, sizeof *h);
  if (h == NULL ||
      aux_grow((void **)&w->strings, &w->string_cap, need, 1) != 0) {
    free(h);
    return rsx_fail(err, "writer: out of memory for the string table");
  }
  free(w->hash);
  w->hash = h;
  w->hash_cap = cap;
  memcpy(w->strings, table, size);
  w->strings[need - 1] = '\0';
  w->string_size = need;
  str_reindex(w);
  return 0;
}

/* Does the file still fit 32-bit offsets with these counts? */
static int wr_fits(const rsx_writer *w, uint64_t meshes, uint64_t submeshes,
                   uint64_t materials, uint64_t samplers, uint64_t body,
                   const char *where, rsx_error *err)
{
  wr_plan p;
  aux_plan(meshes, submeshes, materials, samplers, w->string_size, body,
           &p);
  if (p.size > WR_LIMIT)
    return rsx_fail(err,
                    "%s: the bundle would grow to %llu bytes, past the "
                    "4 GiB that its 32-bit offsets address",
                    where, (unsigned long long)p.size);
  return 0;
}

uint32_t rsx_writer_add_material(rsx_writer *w, const char *name,
                                 const rsx_sampler *samplers, uint32_t n,
                                 rsx_error *err)
{
  char where[160];
  size_t saved, i;
  uint32_t name_off;
  int rc;

  if (w == NULL) {
    rsx_fail(err, "writer: no writer");
    return RSX_NONE;
  }
  /* the number the material will have, 1-based as in Lua */
  snprintf(where, sizeof where, "writer: material %llu (%s)",
           (unsigned long long)w->material_count + 1, name ? name : "");
  /* RSX_NONE means "no material", so it cannot number one */
  if (w->material_count >= RSX_NONE) {
    rsx_fail(err, "%s: too many materials", where);
    return RSX_NONE;
  }
  if (n > 0 && samplers == NULL) {
    rsx_fail(err, "%s: %lu samplers but no sampler array", where,
             (unsigned long)n);
    return RSX_NONE;
  }
  if (w->sampler_count + n > WR_LIMIT) {
    rsx_fail(err, "%s: sampler count %lu overflows 32 bits", where,
             (unsigned long)(w->sampler_count + n));
    return RSX_NONE;
  }
  if (aux_grow((void **)&w->materials, &w->material_cap,
               w->material_count + 1, sizeof *w->materials) != 0 ||
      aux_grow((void **)&w->samplers, &w->sampler_cap,
               w->sampler_count + n, sizeof *w->samplers) != 0) {
    rsx_fail(err, "%s: out of memory", where);
    return RSX_NONE;
  }

  saved = w->string_size;
  rc = str_add(w, name, &name_off);
  for (i = 0; i < n && rc == 0; i++) {
    wr_sampler *s = &w->samplers[w->sampler_count + i];
    s->slot = samplers[i].slot;
    rc = str_add(w, samplers[i].texture, &s->texture);
  }
  if (rc != 0) {
    str_rollback(w, saved);
    str_fail(rc, where, "its name and textures", err);
    return RSX_NONE;
  }
  if (wr_fits(w, w->mesh_count, w->submesh_count, w->material_count + 1,
              w->sampler_count + n, w->body_size, where, err) != 0) {
    str_rollback(w, saved);
    return RSX_NONE;
  }
  w->materials[w->material_count].name = name_off;
  w->materials[w->material_count].first_sampler = (uint32_t)w->sampler_count;
  w->materials[w->material_count].sampler_count = n;
  w->sampler_count += n;
  return (uint32_t)w->material_count++;
}

/* Room for a part of size bytes in a block being planned at *pos. */
static uint32_t mesh_place(uint64_t *pos, uint64_t size)
{
  uint64_t at;
  if (size == 0) return WR_ABSENT;
  at = aux_align(*pos);
  *pos = at + size;
  return (uint32_t)at; /* *pos is checked against 32 bits by the caller */
}

/* Copy n bytes to block + at, zeroing the gap from *end; at may be absent */
static void mesh_put(uint8_t *block, uint32_t *end, uint32_t at,
                     const void *src, size_t n)
{
  if (at == WR_ABSENT) return;
  memset(block + *end, 0, at - *end);
  memcpy(block + at, src, n);
  *end = at + (uint32_t)n;
}

/* The bytes of a part, refused past 32 bits; field names it. */
static int mesh_bytes(uint64_t count, uint64_t size, const char *field,
                      const char *where, uint64_t *out, rsx_error *err)
{
  *out = count * size; /* both below 2^32: no 64-bit overflow */
  if (*out > WR_LIMIT)
    return rsx_fail(err, "%s: %s of %llu x %llu bytes overflows 32 bits",
                    where, field, (unsigned long long)count,
                    (unsigned long long)size);
  return 0;
}

/* Check m as the next mesh of w: c is m labelled (in where, size bytes)
** as the mesh it will be, its name never NULL. rsx_mesh_check fills in
** the mask, format and selectors and refuses missing buffers, so it works
** on a copy, submeshes included: the caller's mesh stays const. */
static int mesh_check(const rsx_writer *w, const rsx_mesh *m, rsx_mesh *c,
                      char *where, size_t size, rsx_error *err)
{
  rsx_submesh *subs = NULL;
  int rc;
  *c = *m;
  c->name = m->name ? m->name : "";
  c->index = (uint32_t)w->mesh_count; /* labelled as the mesh it will be */
  c->first_submesh = (uint32_t)w->submesh_count;
  memcpy(where, "writer: ", 8);
  rsx_mesh_label(c, where + 8, size - 8);

  if (w->mesh_count >= WR_LIMIT / WR_MESH_ENTRY)
    return rsx_fail(err, "%s: too many meshes", where);
  if (m->submesh_count > 0 && m->submeshes != NULL) {
    subs = malloc((size_t)m->submesh_count * sizeof *subs);
    if (subs == NULL)
      return rsx_fail(err, "%s: out of memory", where);
    memcpy(subs, m->submeshes, (size_t)m->submesh_count * sizeof *subs);
  }
  c->submeshes = subs;
  rc = rsx_mesh_check(c, (uint32_t)w->material_count, where, err);
  free(subs);
  c->submeshes = NULL; /* freed: nothing below reads them */
  return rc != 0 ? -1 : 0;
}

/* Plan the block of m, the next mesh of w: meta, submesh records, MMP,
** MGP, indices, each aligned, their places in w's next mesh entry and
** submesh entries (grown for them); the block's size in *size. */
static int mesh_plan(rsx_writer *w, const rsx_mesh *m, uint64_t mmp_bytes,
                     uint64_t mgp_bytes, uint64_t index_bytes,
                     const char *where, uint64_t *size, rsx_error *err)
{
  wr_mesh *wm;
  uint64_t pos = 0;
  uint32_t i;
  if (aux_grow((void **)&w->meshes, &w->mesh_cap, w->mesh_count + 1,
               sizeof *w->meshes) != 0 ||
      aux_grow((void **)&w->submeshes, &w->submesh_cap,
               w->submesh_count + m->submesh_count,
               sizeof *w->submeshes) != 0)
    return rsx_fail(err, "%s: out of memory", where);
  wm = &w->meshes[w->mesh_count];
  wm->meta_at = mesh_place(&pos, m->meta_size);
  for (i = 0; i < m->submesh_count; i++) {
    wr_submesh *s = &w->submeshes[w->submesh_count + i];
    const rsx_submesh *ms = &m->submeshes[i];
    s->record_at = mesh_place(&pos, ms->record_size);
    s->record_size = ms->record_size;
    s->first_index = ms->first_index;
    s->index_count = ms->index_count;
    s->material = ms->material;
    s->mesh = (uint32_t)w->mesh_count;
    if (pos > WR_LIMIT) break; /* keeps the sums below 2^64 */
  }
  wm->mmp_at = mesh_place(&pos, mmp_bytes);
  wm->mgp_at = mesh_place(&pos, mgp_bytes);
  wm->index_at = mesh_place(&pos, index_bytes);
  if (pos > WR_LIMIT)
    return rsx_fail(err, "%s: its records, streams and index buffer come "
                         "to %llu bytes, past the 4 GiB of 32-bit offsets",
                    where, (unsigned long long)pos);
  *size = pos;
  return 0;
}

int rsx_writer_add_mesh(rsx_writer *w, const rsx_mesh *m, rsx_error *err)
{
  char where[200];
  rsx_mesh c;
  uint64_t mmp_bytes, mgp_bytes, index_bytes, pos = 0, body;
  uint32_t i, end;
  size_t saved;
  int rc;
  wr_mesh *wm;
  uint8_t *block;

  if (w == NULL || m == NULL)
    return rsx_fail(err, "writer: no %s", w == NULL ? "writer" : "mesh");
  if (mesh_check(w, m, &c, where, sizeof where, err) != 0)
    return -1;
  if (mesh_bytes(m->vertex_count, m->mmp_stride, "MMP stream", where,
                 &mmp_bytes, err) != 0 ||
      mesh_bytes(m->vertex_count, m->mgp_stride, "MGP stream", where,
                 &mgp_bytes, err) != 0 ||
      mesh_bytes(m->index_count, m->index_size, "index buffer", where,
                 &index_bytes, err) != 0)
    return -1;
  if (w->submesh_count + m->submesh_count > WR_LIMIT / WR_SUBMESH_ENTRY)
    return rsx_fail(err, "%s: too many submeshes", where);
  if (mesh_plan(w, m, mmp_bytes, mgp_bytes, index_bytes, where, &pos,
                err) != 0)
    return -1;
  wm = &w->meshes[w->mesh_count];
  body = aux_align(w->body_size) + pos;

  saved = w->string_size;
  rc = str_add(w, c.name, &wm->name);
  if (rc != 0) {
    str_rollback(w, saved);
    return str_fail(rc, where, "its name", err);
  }
  if (wr_fits(w, w->mesh_count + 1, w->submesh_count + m->submesh_count,
              w->material_count, w->sampler_count, body, where, err) != 0) {
    str_rollback(w, saved);
    return -1;
  }
  block = malloc((size_t)pos);
  if (block == NULL) {
    str_rollback(w, saved);
    return rsx_fail(err, "%s: out of memory for %llu bytes", where,
                    (unsigned long long)pos);
  }

  end = 0;
  mesh_put(block, &end, wm->meta_at, m->meta, m->meta_size);
  for (i = 0; i < m->submesh_count; i++)
    mesh_put(block, &end, w->submeshes[w->submesh_count + i].record_at,
             m->submeshes[i].record, m->submeshes[i].record_size);
  mesh_put(block, &end, wm->mmp_at, m->mmp, (size_t)mmp_bytes);
  mesh_put(block, &end, wm->mgp_at, m->mgp, (size_t)mgp_bytes);
  mesh_put(block, &end, wm->index_at, m->indices, (size_t)index_bytes);

  wm->meta_size = m->meta_size;
  wm->vertex_count = m->vertex_count;
  wm->mmp_stride = m->mmp_stride;
  wm->mgp_stride = m->mgp_stride;
  wm->index_count = m->index_count;
  wm->index_size = m->index_size;
  wm->primitive = m->primitive;
  wm->first_submesh = (uint32_t)w->submesh_count;
  wm->submesh_count = m->submesh_count;
  wm->block = block;
  wm->block_size = (uint32_t)pos;
  wm->block_at = aux_align(w->body_size);
  w->body_size = body;
  w->submesh_count += m->submesh_count;
  w->mesh_count++;
  return 0;
}

/* ------------------------------------------------------------- output */

/* An offset within the file: a block part, or 0 for an empty one. */
static uint32_t out_at(uint64_t block, uint32_t at)
{
  return at == WR_ABSENT ? 0 : (uint32_t)(block + at);
}

static void out_mesh(uint8_t *e, const wr_mesh *m, uint64_t block)
{
  rsx_put_be32(e + RSXB_M_NAME, m->name);
  rsx_put_be32(e + RSXB_M_META, out_at(block, m->meta_at));
  rsx_put_be32(e + RSXB_M_META_SIZE, m->meta_size);
  rsx_put_be32(e + RSXB_M_VERTEX_COUNT, m->vertex_count);
  rsx_put_be32(e + RSXB_M_MMP, out_at(block, m->mmp_at));
  rsx_put_be32(e + RSXB_M_MMP_STRIDE, m->mmp_stride);
  rsx_put_be32(e + RSXB_M_MGP, out_at(block, m->mgp_at));
  rsx_put_be32(e + RSXB_M_MGP_STRIDE, m->mgp_stride);
  rsx_put_be32(e + RSXB_M_INDICES, out_at(block, m->index_at));
  rsx_put_be32(e + RSXB_M_INDEX_COUNT, m->index_count);
  e[RSXB_M_INDEX_SIZE] = m->index_size;
  e[RSXB_M_PRIMITIVE] = m->primitive;
  rsx_put_be32(e + RSXB_M_FIRST_SUBMESH, m->first_submesh);
  rsx_put_be32(e + RSXB_M_SUBMESH_COUNT, m->submesh_count);
  /* the reserved bytes between and after stay zero from calloc */
}

/* Plan the file and refuse it past 32 bits. add_material and add_mesh
** keep it within; checked again because a broken file is worse than an
** error. */
static int out_plan(const rsx_writer *w, wr_plan *p, rsx_error *err)
{
  aux_plan_now(w, p);
  if (p->size > WR_LIMIT || p->size > SIZE_MAX)
    return rsx_fail(err, "writer: the bundle would be %llu bytes, past the "
                         "4 GiB that its 32-bit offsets address",
                    (unsigned long long)p->size);
  return 0;
}

/* The bytes before the first block: header, tables and strings. */
static size_t out_head_size(const rsx_writer *w, const wr_plan *p)
{
  return (size_t)(w->mesh_count ? p->body : p->size);
}

/* Fill the head into f, which is zeroed and out_head_size bytes long. */
static void out_head(const rsx_writer *w, const wr_plan *p, uint8_t *f)
{
  uint8_t *e;
  size_t i;

  memcpy(f, RSXB_MAGIC, RSXB_MAGIC_SIZE);
  rsx_put_be16(f + RSXB_H_VERSION, RSXB_VERSION);
  rsx_put_be16(f + RSXB_H_HEADER_SIZE, WR_HEADER_SIZE);
  rsx_put_be32(f + RSXB_H_FILE_SIZE, (uint32_t)p->size);
  rsx_put_be32(f + RSXB_H_MESH_COUNT, (uint32_t)w->mesh_count);
  rsx_put_be32(f + RSXB_H_MESH_TABLE, (uint32_t)p->mesh_table);
  rsx_put_be32(f + RSXB_H_SUBMESH_COUNT, (uint32_t)w->submesh_count);
  rsx_put_be32(f + RSXB_H_SUBMESH_TABLE, (uint32_t)p->submesh_table);
  rsx_put_be32(f + RSXB_H_MATERIAL_COUNT, (uint32_t)w->material_count);
  rsx_put_be32(f + RSXB_H_MATERIAL_TABLE, (uint32_t)p->material_table);
  rsx_put_be32(f + RSXB_H_SAMPLER_COUNT, (uint32_t)w->sampler_count);
  rsx_put_be32(f + RSXB_H_SAMPLER_TABLE, (uint32_t)p->sampler_table);
  rsx_put_be32(f + RSXB_H_STRINGS, (uint32_t)p->strings);
  rsx_put_be32(f + RSXB_H_STRING_SIZE, (uint32_t)w->string_size);

  for (i = 0; i < w->mesh_count; i++)
    out_mesh(f + p->mesh_table + i * WR_MESH_ENTRY, &w->meshes[i],
             p->body + w->meshes[i].block_at);
  for (i = 0; i < w->submesh_count; i++) {
    const wr_submesh *s = &w->submeshes[i];
    uint64_t block = p->body + w->meshes[s->mesh].block_at;
    e = f + p->submesh_table + i * WR_SUBMESH_ENTRY;
    rsx_put_be32(e + RSXB_S_RECORD, out_at(block, s->record_at));
    rsx_put_be32(e + RSXB_S_RECORD_SIZE, s->record_size);
    rsx_put_be32(e + RSXB_S_FIRST_INDEX, s->first_index);
    rsx_put_be32(e + RSXB_S_INDEX_COUNT, s->index_count);
    rsx_put_be32(e + RSXB_S_MATERIAL, s->material);
  }
  for (i = 0; i < w->material_count; i++) {
    const wr_material *mat = &w->materials[i];
    e = f + p->material_table + i * WR_MATERIAL_ENTRY;
    rsx_put_be32(e + RSXB_MAT_NAME, mat->name);
    rsx_put_be32(e + RSXB_MAT_FIRST_SAMPLER, mat->first_sampler);
    rsx_put_be32(e + RSXB_MAT_SAMPLER_COUNT, mat->sampler_count);
  }
  for (i = 0; i < w->sampler_count; i++) {
    e = f + p->sampler_table + i * WR_SAMPLER_ENTRY;
    rsx_put_be32(e + RSXB_SMP_SLOT, w->samplers[i].slot);
    rsx_put_be32(e + RSXB_SMP_TEXTURE, w->samplers[i].texture);
  }
  memcpy(f + p->strings, w->strings, w->string_size);
}

int rsx_writer_bytes(rsx_writer *w, uint8_t **out, size_t *size,
                     rsx_error *err)
{
  wr_plan p;
  uint8_t *f;
  size_t i;

  if (out != NULL) *out = NULL;
  if (size != NULL) *size = 0;
  if (w == NULL || out == NULL || size == NULL)
    return rsx_fail(err, "writer: no %s", w == NULL ? "writer" : "output");
  if (out_plan(w, &p, err) != 0) return -1;
  /* calloc: every gap and reserved field starts zero (fresh pages for a
  ** big file are zero anyway) */
  f = calloc(1, (size_t)p.size);
  if (f == NULL)
    return rsx_fail(err, "writer: out of memory for %llu bytes",
                    (unsigned long long)p.size);
  out_head(w, &p, f);
  for (i = 0; i < w->mesh_count; i++)
    memcpy(f + p.body + w->meshes[i].block_at, w->meshes[i].block,
           w->meshes[i].block_size);
  *out = f;
  *size = (size_t)p.size;
  return 0;
}

/* Write n bytes to fd, through short writes and interruptions. */
/* Write the file to fd: the head, then each block after its padding,
** straight from the writer's copies. Building the whole file in memory
** first would touch as many fresh pages again as the meshes hold, and
** first touches are what writing a disc costs most. */
static int save_file(const rsx_writer *w, const wr_plan *p, int fd)
{
  static const uint8_t zeros[WR_ALIGN];
  size_t head = out_head_size(w, p), i;
  uint64_t pos = head;
  uint8_t *f = calloc(1, head);
  if (f == NULL) {
    errno = ENOMEM;
    return -1;
  }
  out_head(w, p, f);
  if (rsx_write_all(fd, f, head) != 0) {
    free(f);
    return -1;
  }
  free(f);
  for (i = 0; i < w->mesh_count; i++) {
    const wr_mesh *m = &w->meshes[i];
    uint64_t at = p->body + m->block_at;
    if (rsx_write_all(fd, zeros, (size_t)(at - pos)) != 0 ||
        rsx_write_all(fd, m->block, m->block_size) != 0)
      return -1;
    pos = at + m->block_size;
  }
  return 0;
}

typedef struct save_ctx {
  const rsx_writer *w;
  const wr_plan *p;
} save_ctx;

static int save_fill(int fd, void *ctx)
{
  const save_ctx *c = ctx;
  return save_file(c->w, c->p, fd);
}

int rsx_writer_save(rsx_writer *w, const char *path, rsx_error *err)
{
  wr_plan p;
  save_ctx c;

  if (w == NULL || path == NULL)
    return rsx_fail(err, "writer: no %s", w == NULL ? "writer" : "path");
  if (out_plan(w, &p, err) != 0) return -1;
  c.w = w;
  c.p = &p;
  return rsx_save_file(path, save_fill, &c, err);
}
