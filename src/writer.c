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
  /* where each part lies in the file, set when it is planned */
  uint32_t meta_off, mmp_off, mgp_off, index_off;
} wr_mesh;

typedef struct wr_submesh {
  uint32_t record_at;         /* in its mesh's block */
  uint32_t record_size, first_index, index_count, material;
  uint32_t mesh;
  uint32_t record_off;        /* in the file, set when it is planned */
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
  const rsx_bundle *base;     /* lay out as it is laid out, or NULL */
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

/* Where rsxmesh's own layout puts each mesh's parts: in its block, the
** blocks after the strings. */
static void out_place_blocks(rsx_writer *w, const wr_plan *p)
{
  size_t i;
  for (i = 0; i < w->mesh_count; i++) {
    wr_mesh *m = &w->meshes[i];
    uint64_t block = p->body + m->block_at;
    m->meta_off = out_at(block, m->meta_at);
    m->mmp_off = out_at(block, m->mmp_at);
    m->mgp_off = out_at(block, m->mgp_at);
    m->index_off = out_at(block, m->index_at);
  }
  for (i = 0; i < w->submesh_count; i++) {
    wr_submesh *s = &w->submeshes[i];
    s->record_off = out_at(p->body + w->meshes[s->mesh].block_at,
                           s->record_at);
  }
}

/* The fields of a mesh entry; its reserved bytes are left as they are. */
static void out_mesh(uint8_t *e, const wr_mesh *m)
{
  rsx_put_be32(e + RSXB_M_NAME, m->name);
  rsx_put_be32(e + RSXB_M_META, m->meta_off);
  rsx_put_be32(e + RSXB_M_META_SIZE, m->meta_size);
  rsx_put_be32(e + RSXB_M_VERTEX_COUNT, m->vertex_count);
  rsx_put_be32(e + RSXB_M_MMP, m->mmp_off);
  rsx_put_be32(e + RSXB_M_MMP_STRIDE, m->mmp_stride);
  rsx_put_be32(e + RSXB_M_MGP, m->mgp_off);
  rsx_put_be32(e + RSXB_M_MGP_STRIDE, m->mgp_stride);
  rsx_put_be32(e + RSXB_M_INDICES, m->index_off);
  rsx_put_be32(e + RSXB_M_INDEX_COUNT, m->index_count);
  e[RSXB_M_INDEX_SIZE] = m->index_size;
  e[RSXB_M_PRIMITIVE] = m->primitive;
  rsx_put_be32(e + RSXB_M_FIRST_SUBMESH, m->first_submesh);
  rsx_put_be32(e + RSXB_M_SUBMESH_COUNT, m->submesh_count);
}

/* The fields of every entry of the four tables, each at its pointer;
** reserved bytes are left as they are. */
static void out_tables(const rsx_writer *w, uint8_t *meshes,
                       uint8_t *submeshes, uint8_t *materials,
                       uint8_t *samplers)
{
  uint8_t *e;
  size_t i;
  for (i = 0; i < w->mesh_count; i++)
    out_mesh(meshes + i * WR_MESH_ENTRY, &w->meshes[i]);
  for (i = 0; i < w->submesh_count; i++) {
    const wr_submesh *s = &w->submeshes[i];
    e = submeshes + i * WR_SUBMESH_ENTRY;
    rsx_put_be32(e + RSXB_S_RECORD, s->record_off);
    rsx_put_be32(e + RSXB_S_RECORD_SIZE, s->record_size);
    rsx_put_be32(e + RSXB_S_FIRST_INDEX, s->first_index);
    rsx_put_be32(e + RSXB_S_INDEX_COUNT, s->index_count);
    rsx_put_be32(e + RSXB_S_MATERIAL, s->material);
  }
  for (i = 0; i < w->material_count; i++) {
    const wr_material *mat = &w->materials[i];
    e = materials + i * WR_MATERIAL_ENTRY;
    rsx_put_be32(e + RSXB_MAT_NAME, mat->name);
    rsx_put_be32(e + RSXB_MAT_FIRST_SAMPLER, mat->first_sampler);
    rsx_put_be32(e + RSXB_MAT_SAMPLER_COUNT, mat->sampler_count);
  }
  for (i = 0; i < w->sampler_count; i++) {
    e = samplers + i * WR_SAMPLER_ENTRY;
    rsx_put_be32(e + RSXB_SMP_SLOT, w->samplers[i].slot);
    rsx_put_be32(e + RSXB_SMP_TEXTURE, w->samplers[i].texture);
  }
}

/* The header's fields (its reserved bytes are left as they are). */
static void out_header(const rsx_writer *w, const wr_plan *p, uint8_t *f)
{
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
}

/* Plan the file and refuse it past 32 bits. add_material and add_mesh
** keep it within; checked again because a broken file is worse than an
** error. */
static int out_plan(rsx_writer *w, wr_plan *p, rsx_error *err)
{
  aux_plan_now(w, p);
  if (p->size > WR_LIMIT || p->size > SIZE_MAX)
    return rsx_fail(err, "writer: the bundle would be %llu bytes, past the "
                         "4 GiB that its 32-bit offsets address",
                    (unsigned long long)p->size);
  out_place_blocks(w, p);
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
  out_header(w, p, f);
  out_tables(w, f + p->mesh_table, f + p->submesh_table,
             f + p->material_table, f + p->sampler_table);
  memcpy(f + p->strings, w->strings, w->string_size);
}

/* ------------------------------------------------- the base's layout */

/*
** With a base (rsx_writer_keep_layout) the file starts as the base's
** bytes, and each part of the new file takes the place of the base's part
** it stands for: the header; each table; the string table; the metadata
** record, MMP, MGP and index buffer of mesh i (the base's mesh i); the
** record of mesh i's submesh k (the base's mesh i's submesh k). So gaps,
** padding and reserved bytes stay the base's. A part that is the base's
** bytes stays where it was; one that differs goes into its place when it
** fits and no other part of the base shares those bytes (the rest of the
** place zeroed), else after the end of the file, on a 16-byte boundary.
** The place of a part that moved or went away is zeroed, unless another
** part shares it. A place that overlaps the header's fields (only a
** hand-made file has one) is never kept: the header is rewritten.
*/

enum { LAY_HEADER, LAY_MESHES, LAY_SUBMESHES, LAY_MATERIALS, LAY_SAMPLERS,
       LAY_STRINGS, LAY_FIXED };   /* then 4 per mesh, then the records */
#define LAY_NONE SIZE_MAX          /* a part with no place in the base */

#define LAY_FIELDS (RSXB_H_STRING_SIZE + 4) /* where the header's fields end */
#define LAY_SHARED 1u   /* another place overlaps it */
#define LAY_PINNED 2u   /* it overlaps the header's fields */
#define LAY_USED 4u     /* a part of the new file took it */

typedef struct lay_place {
  uint32_t at, size;
  size_t index;                    /* while sorted */
} lay_place;

typedef struct lay_state {
  const uint8_t *base;
  size_t base_size;
  lay_place *places;
  uint8_t *flags;
  size_t count;
  size_t meshes;                   /* the base's */
  uint8_t *f;                      /* the file being made */
  size_t size, cap;
  rsx_error *err;
} lay_state;

static void lay_set(lay_state *s, size_t i, uint32_t at, uint64_t size)
{
  s->places[i].at = at;
  s->places[i].size = (uint32_t)size; /* the reader checked 32 bits */
  s->places[i].index = i;
}

/* Every part of the base, where it lies. */
static int lay_collect(lay_state *s, const rsx_bundle *base)
{
  const uint8_t *h = s->base;
  size_t views = 0, view, i;
  uint32_t k, mesh_table = rsx_be32(h + RSXB_H_MESH_TABLE);
  uint32_t submesh_table = rsx_be32(h + RSXB_H_SUBMESH_TABLE);
  s->meshes = rsx_bundle_mesh_count(base);
  for (i = 0; i < s->meshes; i++)
    views += rsx_bundle_mesh(base, (uint32_t)i)->submesh_count;
  /* the reader bounds both counts by the file's length */
  s->count = LAY_FIXED + 4 * s->meshes + views;
  s->places = malloc(s->count * sizeof *s->places);
  s->flags = calloc(s->count, 1);
  if (s->places == NULL || s->flags == NULL)
    return rsx_fail(s->err, "writer: out of memory for the base's layout");
  lay_set(s, LAY_HEADER, 0, WR_HEADER_SIZE);
  lay_set(s, LAY_MESHES, mesh_table,
          (uint64_t)s->meshes * WR_MESH_ENTRY);
  lay_set(s, LAY_SUBMESHES, submesh_table,
          (uint64_t)rsx_bundle_submesh_count(base) * WR_SUBMESH_ENTRY);
  lay_set(s, LAY_MATERIALS, rsx_be32(h + RSXB_H_MATERIAL_TABLE),
          (uint64_t)rsx_bundle_material_count(base) * WR_MATERIAL_ENTRY);
  lay_set(s, LAY_SAMPLERS, rsx_be32(h + RSXB_H_SAMPLER_TABLE),
          (uint64_t)rsx_bundle_sampler_count(base) * WR_SAMPLER_ENTRY);
  lay_set(s, LAY_STRINGS, rsx_be32(h + RSXB_H_STRINGS),
          rsx_be32(h + RSXB_H_STRING_SIZE));
  view = LAY_FIXED + 4 * s->meshes;
  for (i = 0; i < s->meshes; i++) {
    const rsx_mesh *m = rsx_bundle_mesh(base, (uint32_t)i);
    const uint8_t *e = h + mesh_table + i * WR_MESH_ENTRY;
    size_t at = LAY_FIXED + 4 * i;
    lay_set(s, at, rsx_be32(e + RSXB_M_META), m->meta_size);
    lay_set(s, at + 1, rsx_be32(e + RSXB_M_MMP),
            (uint64_t)m->vertex_count * m->mmp_stride);
    lay_set(s, at + 2, rsx_be32(e + RSXB_M_MGP),
            (uint64_t)m->vertex_count * m->mgp_stride);
    lay_set(s, at + 3, rsx_be32(e + RSXB_M_INDICES),
            (uint64_t)m->index_count * m->index_size);
    for (k = 0; k < m->submesh_count; k++) {
      const uint8_t *se = h + submesh_table +
                          ((size_t)m->first_submesh + k) * WR_SUBMESH_ENTRY;
      lay_set(s, view++, rsx_be32(se + RSXB_S_RECORD),
              rsx_be32(se + RSXB_S_RECORD_SIZE));
    }
  }
  return 0;
}

static int lay_by_offset(const void *a, const void *b)
{
  const lay_place *x = a, *y = b;
  return x->at < y->at ? -1 : x->at > y->at;
}

/* Flag the places that share bytes with another, or with the header's
** fields. Sorted by offset, a place overlaps an earlier one when it
** starts before the furthest end so far, and a later one when it ends
** after the next one starts. */
static int lay_overlaps(lay_state *s)
{
  lay_place *sorted = malloc(s->count * sizeof *sorted);
  size_t n = 0, i;
  uint64_t furthest = 0;
  if (sorted == NULL)
    return rsx_fail(s->err, "writer: out of memory for the base's layout");
  for (i = 0; i < s->count; i++) {
    if (s->places[i].size == 0) continue;
    sorted[n++] = s->places[i];
    if (i != LAY_HEADER && s->places[i].at < LAY_FIELDS)
      s->flags[i] |= LAY_PINNED;
  }
  qsort(sorted, n, sizeof *sorted, lay_by_offset);
  for (i = 0; i < n; i++) {
    uint64_t end = (uint64_t)sorted[i].at + sorted[i].size;
    if (sorted[i].at < furthest ||
        (i + 1 < n && sorted[i + 1].at < end))
      s->flags[sorted[i].index] |= LAY_SHARED;
    if (end > furthest) furthest = end;
  }
  free(sorted);
  return 0;
}

/* Room for n more bytes at the end, on a 16-byte boundary; its offset. */
static int lay_append(lay_state *s, uint64_t n, uint32_t *at)
{
  uint64_t start = aux_align(s->size);
  if (start + n > WR_LIMIT)
    return rsx_fail(s->err, "writer: laid out as the base, the bundle "
                            "would grow past the 4 GiB of 32-bit offsets");
  if (aux_grow((void **)&s->f, &s->cap, (size_t)(start + n), 1) != 0)
    return rsx_fail(s->err, "writer: out of memory for %llu bytes",
                    (unsigned long long)(start + n));
  memset(s->f + s->size, 0, (size_t)(start - s->size));
  s->size = (size_t)(start + n);
  *at = (uint32_t)start;
  return 0;
}

/* Put n bytes, the part of the new file whose base place is place (or
** LAY_NONE), where they go; their offset in *at (0 when n is 0, unless
** the base's part was as empty: its offset stays). */
static int lay_put(lay_state *s, size_t place, const void *bytes,
                   uint64_t n, uint32_t *at)
{
  const lay_place *p = place == LAY_NONE ? NULL : &s->places[place];
  unsigned flags = p ? s->flags[place] : 0;
  if (p != NULL) {
    s->flags[place] |= LAY_USED;
    if (p->size == n && !(flags & LAY_PINNED) &&
        (n == 0 || memcmp(s->base + p->at, bytes, (size_t)n) == 0)) {
      *at = p->at;
      return 0;
    }
    if (!(flags & (LAY_SHARED | LAY_PINNED))) {
      if (n > 0 && n <= p->size) {
        memcpy(s->f + p->at, bytes, (size_t)n);
        memset(s->f + p->at + n, 0, (size_t)(p->size - n));
        *at = p->at;
        return 0;
      }
      if (p->size > 0) memset(s->f + p->at, 0, p->size);
    }
  }
  *at = 0;
  if (n == 0) return 0;
  if (lay_append(s, n, at) != 0) return -1;
  memcpy(s->f + *at, bytes, (size_t)n);
  return 0;
}

/* The bytes of a part in a mesh's block, NULL when it is empty. */
static const uint8_t *lay_block(const wr_mesh *m, uint32_t at)
{
  return at == WR_ABSENT ? NULL : m->block + at;
}

/* The mesh parts and submesh records of w, each in its place. */
static int lay_meshes(lay_state *s, rsx_writer *w, const rsx_bundle *base)
{
  size_t i, view = LAY_FIXED + 4 * s->meshes;
  for (i = 0; i < w->mesh_count; i++) {
    wr_mesh *m = &w->meshes[i];
    const rsx_mesh *bm =
      i < s->meshes ? rsx_bundle_mesh(base, (uint32_t)i) : NULL;
    size_t at = LAY_FIXED + 4 * i;
    uint32_t k;
    if (lay_put(s, bm ? at : LAY_NONE, lay_block(m, m->meta_at),
                m->meta_size, &m->meta_off) != 0 ||
        lay_put(s, bm ? at + 1 : LAY_NONE, lay_block(m, m->mmp_at),
                (uint64_t)m->vertex_count * m->mmp_stride,
                &m->mmp_off) != 0 ||
        lay_put(s, bm ? at + 2 : LAY_NONE, lay_block(m, m->mgp_at),
                (uint64_t)m->vertex_count * m->mgp_stride,
                &m->mgp_off) != 0 ||
        lay_put(s, bm ? at + 3 : LAY_NONE, lay_block(m, m->index_at),
                (uint64_t)m->index_count * m->index_size,
                &m->index_off) != 0)
      return -1;
    for (k = 0; k < m->submesh_count; k++) {
      wr_submesh *sub = &w->submeshes[m->first_submesh + k];
      if (lay_put(s, bm && k < bm->submesh_count ? view + k : LAY_NONE,
                  lay_block(m, sub->record_at), sub->record_size,
                  &sub->record_off) != 0)
        return -1;
    }
    if (bm) view += bm->submesh_count;
  }
  return 0;
}

/* A string offset of the base's entry when it names the same string in
** w's table (which starts as the base's): a name the base holds twice
** keeps the copy its entry used. */
static void lay_name(const rsx_writer *w, uint8_t *field,
                     const uint8_t *base_field)
{
  uint32_t was = rsx_be32(base_field), now = rsx_be32(field);
  if (was < w->string_size &&
      strcmp(w->strings + was, w->strings + now) == 0)
    rsx_put_be32(field, was);
}

/* The first entry of an empty range (a mesh's submeshes, a material's
** samplers) is the base's when that was empty too and still lies in the
** table of count entries: it means nothing, so it is no change. */
static void lay_empty_range(uint8_t *e, const uint8_t *base_e,
                            unsigned first, unsigned n, size_t count)
{
  if (rsx_be32(e + n) == 0 && rsx_be32(base_e + n) == 0 &&
      rsx_be32(base_e + first) <= count)
    memcpy(e + first, base_e + first, 4);
}

/* What of the entries of table t (0 meshes, 1 submeshes, 2 materials, 3
** samplers) can be the base's entries' without a change of meaning. */
static void lay_entry(const rsx_writer *w, size_t t, uint8_t *e,
                      const uint8_t *base_e)
{
  switch (t) {
  case 0:
    lay_name(w, e + RSXB_M_NAME, base_e + RSXB_M_NAME);
    lay_empty_range(e, base_e, RSXB_M_FIRST_SUBMESH, RSXB_M_SUBMESH_COUNT,
                    w->submesh_count);
    break;
  case 2:
    lay_name(w, e + RSXB_MAT_NAME, base_e + RSXB_MAT_NAME);
    lay_empty_range(e, base_e, RSXB_MAT_FIRST_SAMPLER,
                    RSXB_MAT_SAMPLER_COUNT, w->sampler_count);
    break;
  case 3:
    lay_name(w, e + RSXB_SMP_TEXTURE, base_e + RSXB_SMP_TEXTURE);
    break;
  default:
    break;
  }
}

/* The four tables, each made over the base's entries of the same numbers
** (their reserved bytes kept), put in their places. */
static int lay_tables(lay_state *s, const rsx_writer *w, wr_plan *p)
{
  static const unsigned entry[4] = { WR_MESH_ENTRY, WR_SUBMESH_ENTRY,
                                     WR_MATERIAL_ENTRY, WR_SAMPLER_ENTRY };
  size_t count[4];
  uint64_t size[4], total = 0;
  uint8_t *table[4], *all;
  uint32_t at[4];
  size_t t, i;
  count[0] = w->mesh_count;
  count[1] = w->submesh_count;
  count[2] = w->material_count;
  count[3] = w->sampler_count;
  for (t = 0; t < 4; t++) {
    size[t] = (uint64_t)count[t] * entry[t];
    total += size[t];
  }
  all = calloc(1, total ? (size_t)total : 1); /* within 4 GiB: checked */
  if (all == NULL)
    return rsx_fail(s->err, "writer: out of memory for %llu bytes",
                    (unsigned long long)total);
  for (t = 0, total = 0; t < 4; t++) {
    const lay_place *b = &s->places[LAY_MESHES + t];
    uint64_t kept = size[t] < b->size ? size[t] : b->size;
    table[t] = all + total;
    total += size[t];
    if (kept > 0) memcpy(table[t], s->base + b->at, (size_t)kept);
  }
  out_tables(w, table[0], table[1], table[2], table[3]);
  for (t = 0; t < 4; t++) {
    const lay_place *b = &s->places[LAY_MESHES + t];
    for (i = 0; i < count[t] && (i + 1) * entry[t] <= b->size; i++)
      lay_entry(w, t, table[t] + i * entry[t],
                s->base + b->at + i * entry[t]);
  }
  for (t = 0; t < 4; t++)
    if (lay_put(s, LAY_MESHES + t, table[t], size[t], &at[t]) != 0) {
      free(all);
      return -1;
    }
  free(all);
  p->mesh_table = at[0];
  p->submesh_table = at[1];
  p->material_table = at[2];
  p->sampler_table = at[3];
  return 0;
}

/* The file laid out as the base, in *out (malloc'd) of *size bytes. */
static int lay_file(rsx_writer *w, uint8_t **out, size_t *size,
                    rsx_error *err)
{
  lay_state s;
  wr_plan p;
  uint32_t strings;
  size_t i;
  int rc = -1;
  memset(&s, 0, sizeof s);
  memset(&p, 0, sizeof p);
  s.err = err;
  s.base = rsx_bundle_bytes(w->base);
  s.base_size = rsx_bundle_size(w->base);
  s.size = s.cap = s.base_size;
  s.f = malloc(s.cap);
  if (s.f == NULL) {
    rsx_fail(err, "writer: out of memory for %llu bytes",
             (unsigned long long)s.cap);
    goto done;
  }
  memcpy(s.f, s.base, s.base_size);
  if (lay_collect(&s, w->base) != 0 || lay_overlaps(&s) != 0 ||
      lay_meshes(&s, w, w->base) != 0 || lay_tables(&s, w, &p) != 0 ||
      lay_put(&s, LAY_STRINGS, w->strings, w->string_size, &strings) != 0)
    goto done;
  /* what no part took any more: zeroed unless another part shares it */
  for (i = LAY_HEADER + 1; i < s.count; i++)
    if (s.places[i].size > 0 &&
        !(s.flags[i] & (LAY_USED | LAY_SHARED | LAY_PINNED)))
      memset(s.f + s.places[i].at, 0, s.places[i].size);
  p.strings = strings;
  p.size = s.size;
  out_header(w, &p, s.f);
  *out = s.f;
  *size = s.size;
  s.f = NULL;
  rc = 0;
done:
  free(s.f);
  free(s.places);
  free(s.flags);
  return rc;
}

int rsx_writer_keep_layout(rsx_writer *w, const rsx_bundle *base)
{
  if (w == NULL) return -1;
  w->base = base;
  return 0;
}

/* ---------------------------------------------------------- the file */

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
  if (w->base != NULL) return lay_file(w, out, size, err);
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
  const uint8_t *bytes;       /* the whole file, laid out as the base */
  size_t size;
} save_ctx;

static int save_fill(int fd, void *ctx)
{
  const save_ctx *c = ctx;
  if (c->bytes != NULL) return rsx_write_all(fd, c->bytes, c->size);
  return save_file(c->w, c->p, fd);
}

int rsx_writer_save(rsx_writer *w, const char *path, rsx_error *err)
{
  wr_plan p;
  save_ctx c;
  uint8_t *bytes = NULL;
  int rc;

  if (w == NULL || path == NULL)
    return rsx_fail(err, "writer: no %s", w == NULL ? "writer" : "path");
  memset(&c, 0, sizeof c);
  c.w = w;
  if (w->base != NULL) {
    /* the base's layout is made whole in memory: the file is the base's
    ** bytes with parts put in */
    if (lay_file(w, &bytes, &c.size, err) != 0) return -1;
    c.bytes = bytes;
  } else {
    if (out_plan(w, &p, err) != 0) return -1;
    c.p = &p;
  }
  rc = rsx_save_file(path, save_fill, &c, err);
  free(bytes);
  return rc;
}
