/* writer.c - the RSXB writer: exact layouts, round trips and refusals */
#define _POSIX_C_SOURCE 200809L

#include "rsxmesh.h"
#include "tap.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------- helpers */

static uint32_t get32(const uint8_t *p)
{
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
         ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/* Bytes that differ from one place to the next, so a copy from the wrong
** place or of the wrong length shows. */
static uint32_t rng_state = 12345;

static uint8_t rng_byte(void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return (uint8_t)(rng_state >> 8);
}

static uint8_t *noise(size_t n)
{
  uint8_t *p = malloc(n ? n : 1);
  size_t i;
  if (p == NULL) bail_out("out of memory");
  for (i = 0; i < n; i++) p[i] = rng_byte();
  return p;
}

static int all_zero(const uint8_t *p, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    if (p[i] != 0) return 0;
  return 1;
}

/* Save a seed for the fuzzer when RSX_SEED_DIR names a folder. */
static void save_seed(rsx_writer *w, const char *name)
{
  const char *dir = getenv("RSX_SEED_DIR");
  char path[512];
  rsx_error err;
  if (dir == NULL) return;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (rsx_writer_save(w, path, &err) != 0) diag("seed: %s", err.text);
}

/* --------------------------------------------------- the exact layouts */

/* An empty writer: a header and a string table of one NUL, 65 bytes. */
static void test_empty(void)
{
  uint8_t want[65] = {'R', 'S', 'X', 'B', 0, 1, 0, 64};
  rsx_writer *w = rsx_writer_new();
  rsx_bundle *b;
  uint8_t *f;
  size_t n;
  rsx_error err;

  rsx_put_be32(want + 0x08, 65);   /* file size */
  rsx_put_be32(want + 0x2C, 0x40); /* strings right after the header */
  rsx_put_be32(want + 0x30, 1);    /* one NUL */
  ok(rsx_writer_bytes(w, &f, &n, &err) == 0, "empty: bytes");
  is_int((long long)n, 65, "empty: 65 bytes");
  if (n == 65) cmp_mem(f, want, 65, "empty: every byte");
  b = rsx_bundle_from_memory(f, n, "empty.rsxb", &err);
  ok(b != NULL, "empty: reads back");
  if (b == NULL) diag("%s", err.text);
  else is_int(rsx_bundle_mesh_count(b), 0, "empty: no meshes");
  save_seed(w, "empty.rsxb");
  rsx_bundle_free(b);
  free(f);
  rsx_writer_free(w);
}

/* One material with one sampler, one mesh of one vertex and one submesh:
** every offset worked out by hand from rsxb.md.
**   0x000 header (64)         0x0C0 strings "\0m\0t.png\0a\0" (11)
**   0x040 mesh table (64)     0x0D0 metadata record (0x90)
**   0x080 submesh table (32)  0x160 submesh record (0x3C)
**   0x0A0 material table (16) 0x1A0 MMP, 1 x 16
**   0x0B0 sampler table (8)   0x1B0 indices, 3 x 2: ends at 0x1B6 */
static void test_tiny(void)
{
  static const char strings[11] = "\0m\0t.png\0a";
  uint8_t want[0x1B6], meta[0x90], rec[0x3C], mmp[16];
  uint8_t idx[6] = {0, 0, 0, 0, 0, 0};
  rsx_sampler smp = {RSX_BASE_COLOUR_SLOT, "t.png"};
  rsx_submesh sub;
  rsx_mesh m;
  rsx_writer *w = rsx_writer_new();
  rsx_bundle *b;
  uint8_t *f;
  size_t n, i;
  rsx_error err;

  for (i = 0; i < sizeof meta; i++) meta[i] = (uint8_t)(i + 1);
  rsx_put_be32(meta + RSX_MASK_OFFSET, 0x00080005);
  for (i = 0; i < sizeof rec; i++) rec[i] = (uint8_t)(0xA0 + i);
  memset(rec + RSX_SELECTOR_OFFSET, 0xFF, 4);
  for (i = 0; i < sizeof mmp; i++) mmp[i] = (uint8_t)(0x40 + i);

  memset(&sub, 0, sizeof sub);
  sub.record = rec;
  sub.record_size = sizeof rec;
  sub.first_index = 0;
  sub.index_count = 3;
  sub.material = 0;
  memset(&m, 0, sizeof m);
  m.name = "a";
  m.meta = meta;
  m.meta_size = sizeof meta;
  m.vertex_count = 1;
  m.mmp = mmp;
  m.mmp_stride = 16;
  m.indices = idx;
  m.index_count = 3;
  m.index_size = 2;
  m.primitive = RSX_TRIANGLES;
  m.submesh_count = 1;
  m.submeshes = &sub;

  is_int(rsx_writer_add_material(w, "m", &smp, 1, &err), 0,
         "tiny: material 0");
  ok(rsx_writer_add_mesh(w, &m, &err) == 0, "tiny: add mesh");
  ok(rsx_writer_bytes(w, &f, &n, &err) == 0, "tiny: bytes");

  memset(want, 0, sizeof want);
  memcpy(want, "RSXB\0\1\0\100", 8);
  rsx_put_be32(want + 0x08, 0x1B6);
  rsx_put_be32(want + 0x0C, 1);
  rsx_put_be32(want + 0x10, 0x40);
  rsx_put_be32(want + 0x14, 1);
  rsx_put_be32(want + 0x18, 0x80);
  rsx_put_be32(want + 0x1C, 1);
  rsx_put_be32(want + 0x20, 0xA0);
  rsx_put_be32(want + 0x24, 1);
  rsx_put_be32(want + 0x28, 0xB0);
  rsx_put_be32(want + 0x2C, 0xC0);
  rsx_put_be32(want + 0x30, 11);
  /* mesh entry */
  rsx_put_be32(want + 0x40, 9);      /* name "a" */
  rsx_put_be32(want + 0x44, 0xD0);   /* metadata record */
  rsx_put_be32(want + 0x48, 0x90);
  rsx_put_be32(want + 0x4C, 1);      /* vertex count */
  rsx_put_be32(want + 0x50, 0x1A0);  /* MMP */
  rsx_put_be32(want + 0x54, 16);
  rsx_put_be32(want + 0x58, 0);      /* no MGP: no offset, stride 0 */
  rsx_put_be32(want + 0x5C, 0);
  rsx_put_be32(want + 0x60, 0x1B0);  /* indices */
  rsx_put_be32(want + 0x64, 3);
  want[0x68] = 2;
  want[0x69] = 0;
  rsx_put_be32(want + 0x6C, 0);      /* first submesh */
  rsx_put_be32(want + 0x70, 1);
  /* submesh entry */
  rsx_put_be32(want + 0x80, 0x160);
  rsx_put_be32(want + 0x84, 0x3C);
  rsx_put_be32(want + 0x88, 0);
  rsx_put_be32(want + 0x8C, 3);
  rsx_put_be32(want + 0x90, 0);
  /* material entry: name "m", samplers 0..0 */
  rsx_put_be32(want + 0xA0, 1);
  rsx_put_be32(want + 0xA4, 0);
  rsx_put_be32(want + 0xA8, 1);
  /* sampler entry: base colour, "t.png" */
  rsx_put_be32(want + 0xB0, 0x95591C40);
  rsx_put_be32(want + 0xB4, 3);
  memcpy(want + 0xC0, strings, sizeof strings);
  memcpy(want + 0xD0, meta, sizeof meta);
  memcpy(want + 0x160, rec, sizeof rec);
  memcpy(want + 0x1A0, mmp, sizeof mmp);
  memcpy(want + 0x1B0, idx, sizeof idx);

  is_int((long long)n, 0x1B6, "tiny: 0x1B6 bytes");
  if (n == sizeof want) cmp_mem(f, want, n, "tiny: every byte");
  b = rsx_bundle_from_memory(f, n, "tiny.rsxb", &err);
  ok(b != NULL, "tiny: reads back");
  if (b == NULL) diag("%s", err.text);
  else is_str(rsx_material_base_colour(rsx_bundle_material(b, 0)), "t.png",
              "tiny: base colour texture");
  save_seed(w, "tiny.rsxb");
  rsx_bundle_free(b);
  free(f);
  rsx_writer_free(w);
}

/* ------------------------------------------------- walking the bytes */

/* Marks every part of a written file, so overlaps, misalignment, nonzero
** gaps and reserved fields show. */
typedef struct walk {
  const uint8_t *f;
  size_t n;
  uint8_t *used;
  int misaligned, overlaps, outside, reserved;
} walk;

static void walk_mark(walk *k, uint64_t at, uint64_t size)
{
  uint64_t i;
  if (size == 0) return;
  if (at % 16 != 0) k->misaligned++;
  if (at + size > k->n) {
    k->outside++;
    return;
  }
  for (i = at; i < at + size; i++) {
    if (k->used[i]) k->overlaps++;
    k->used[i] = 1;
  }
}

static void walk_file(const uint8_t *f, size_t n, const char *what)
{
  walk k;
  uint32_t meshes, subs, mats, smps, strings, ssize, i;
  size_t gap, longest = 0, nonzero = 0, off;
  int dup = 0;

  memset(&k, 0, sizeof k);
  k.f = f;
  k.n = n;
  k.used = calloc(n ? n : 1, 1);
  if (k.used == NULL) bail_out("out of memory");
  if (n < 64) {
    ok(0, "%s: a header", what);
    free(k.used);
    return;
  }
  ok(memcmp(f, "RSXB", 4) == 0 && f[4] == 0 && f[5] == 1 && f[6] == 0 &&
     f[7] == 64, "%s: magic, version 1, header size 64", what);
  is_int(get32(f + 0x08), (long long)n, "%s: file size field", what);
  ok(all_zero(f + 0x34, 12), "%s: header 0x34..0x3F zero", what);
  walk_mark(&k, 0, 64);
  meshes = get32(f + 0x0C);
  subs = get32(f + 0x14);
  mats = get32(f + 0x1C);
  smps = get32(f + 0x24);
  strings = get32(f + 0x2C);
  ssize = get32(f + 0x30);
  walk_mark(&k, get32(f + 0x10), (uint64_t)meshes * 64);
  walk_mark(&k, get32(f + 0x18), (uint64_t)subs * 32);
  walk_mark(&k, get32(f + 0x20), (uint64_t)mats * 16);
  walk_mark(&k, get32(f + 0x28), (uint64_t)smps * 8);
  walk_mark(&k, strings, ssize);
  if (k.outside) {
    ok(0, "%s: tables inside the file", what);
    free(k.used);
    return;
  }
  for (i = 0; i < meshes; i++) {
    const uint8_t *e = f + get32(f + 0x10) + (size_t)i * 64;
    uint32_t vc = get32(e + 0x0C);
    if (e[0x2A] || e[0x2B] || !all_zero(e + 0x34, 12)) k.reserved++;
    walk_mark(&k, get32(e + 0x04), get32(e + 0x08));
    walk_mark(&k, get32(e + 0x10), (uint64_t)vc * get32(e + 0x14));
    walk_mark(&k, get32(e + 0x18), (uint64_t)vc * get32(e + 0x1C));
    walk_mark(&k, get32(e + 0x20), (uint64_t)get32(e + 0x24) * e[0x28]);
  }
  for (i = 0; i < subs; i++) {
    const uint8_t *e = f + get32(f + 0x18) + (size_t)i * 32;
    if (!all_zero(e + 0x14, 12)) k.reserved++;
    walk_mark(&k, get32(e + 0x00), get32(e + 0x04));
  }
  for (i = 0; i < mats; i++) {
    const uint8_t *e = f + get32(f + 0x20) + (size_t)i * 16;
    if (!all_zero(e + 0x0C, 4)) k.reserved++;
  }
  is_int(k.misaligned, 0, "%s: every part on a 16-byte boundary", what);
  is_int(k.overlaps, 0, "%s: no two parts overlap", what);
  is_int(k.outside, 0, "%s: every part inside the file", what);
  is_int(k.reserved, 0, "%s: every reserved field zero", what);

  /* what no part covers is padding: zero, and shorter than a boundary */
  for (off = 0, gap = 0; off < n; off++) {
    if (k.used[off]) {
      gap = 0;
      continue;
    }
    if (f[off] != 0) nonzero++;
    if (++gap > longest) longest = gap;
  }
  is_int((long long)nonzero, 0, "%s: gaps zero-filled", what);
  ok(longest < 16, "%s: gaps only pad to a boundary (longest %zu)", what,
     longest);
  ok(n > 0 && k.used[n - 1], "%s: the file ends with its last part", what);

  /* the string table: a NUL first and last, each string once */
  ok(ssize >= 1 && f[strings] == 0 && f[strings + ssize - 1] == 0,
     "%s: string table starts and ends with a NUL", what);
  for (off = 1; off < ssize; off += strlen((const char *)f + strings + off)
                                    + 1) {
    size_t o2;
    const char *s = (const char *)f + strings + off;
    if (*s == '\0') dup++; /* a second empty string */
    for (o2 = off + strlen(s) + 1; o2 < ssize;
         o2 += strlen((const char *)f + strings + o2) + 1)
      if (strcmp(s, (const char *)f + strings + o2) == 0) dup++;
  }
  is_int(dup, 0, "%s: no string stored twice", what);
  free(k.used);
}

/* --------------------------------------------------- the round trip */

/* The note's 16 masks and MGP strides, as its layout table gives them.
** Every mask has the position and the normal: MMP stride 16. */
static const struct {
  uint32_t mask, mgp_stride;
} note_masks[16] = {
  {0x00080005, 0},  {0x00080007, 4},  {0x00080025, 4},  {0x00080027, 8},
  {0x0008003d, 12}, {0x0008003f, 16}, {0x00080065, 8},  {0x00080067, 12},
  {0x0008007d, 16}, {0x000800e5, 12}, {0x000800fd, 20}, {0x000800ff, 24},
  {0x000801e5, 16}, {0x000801fd, 24}, {0x000801ff, 28}, {0x000807fd, 40},
};

#define NMESH 19 /* the 16 masks, a stride finding, an empty mesh, a dup */
#define MAXSUB 3

/* What the test gave the writer, kept to compare the read-back with. */
typedef struct given {
  rsx_mesh m;
  rsx_submesh sub[MAXSUB];
  uint8_t *meta, *mmp, *mgp, *idx, *rec[MAXSUB];
} given;

static void put_index(uint8_t *p, int size, uint32_t i, uint32_t v)
{
  if (size == 2) rsx_put_be16(p + 2 * i, (uint16_t)v);
  else rsx_put_be32(p + 4 * i, v);
}

/* Fill the streams of g with values encoded as the format lays them out;
** the rest of each stride is noise the writer must copy too. */
static void fill_vertices(given *g)
{
  rsx_format fmt;
  int kinds[RSX_KIND_COUNT], nk, k;
  uint32_t v;
  rsx_format_init(&fmt, g->m.mask);
  nk = rsx_format_mgp_order(&fmt, kinds);
  for (v = 0; v < g->m.vertex_count; v++) {
    uint8_t *p = g->mmp + (size_t)v * g->m.mmp_stride;
    rsx_put_f32(p, (float)v);
    rsx_put_f32(p + 4, (float)v * 0.5f);
    rsx_put_f32(p + 8, -(float)v);
    if (fmt.offset[RSX_NORMAL] >= 0)
      rsx_put_be32(p + fmt.offset[RSX_NORMAL], 0x001FF800); /* (0,~1,0) */
    if (g->m.mgp_stride == 0 || fmt.mgp_stride != g->m.mgp_stride)
      continue; /* the stride finding's mesh keeps noise */
    for (k = 0; k < nk; k++) {
      const rsx_attr_info *a = fmt.attr[kinds[k]];
      uint8_t *q = g->mgp + (size_t)v * g->m.mgp_stride + fmt.offset[a->kind];
      float val[4] = {0.25f * (float)v, -1.5f, 0.75f, 1.0f};
      if (a->type == RSX_TYPE_CMP) {
        val[0] = 0.0f; val[1] = 0.0f; val[2] = 1.0f;
      }
      rsx_encode_value(a, val, q);
    }
  }
}

/* Mesh number i of the round trip. */
static void make_mesh(given *g, int i)
{
  static const char *names[NMESH] = {
    "box", "crate", "bridge_03", "road_a", "road_b", "wall", "roof",
    "fence", "crate", "lamp", "pier", "tower", "house", "barn", "shed",
    "tree_branch", "", "bad_stride", "empty"};
  uint32_t mask, mgp_stride, s, nsub, per, j;
  int strip;
  memset(g, 0, sizeof *g);
  if (i < 16) {
    mask = note_masks[i].mask;
    mgp_stride = note_masks[i].mgp_stride;
  } else if (i == 16) {
    mask = 0x000800ff; /* a second mesh of a mask, with no name */
    mgp_stride = 24;
  } else if (i == 17) {
    mask = 0x0008003d; /* stored MGP stride 16, the note implies 12 */
    mgp_stride = 16;
  } else {
    mask = 0x00080005;
    mgp_stride = 0;
  }
  g->m.name = names[i];
  g->m.meta_size = 0x90 + (uint32_t)(i % 4) * 6; /* 0x90, 0x96, ... */
  g->meta = noise(g->m.meta_size);
  rsx_put_be32(g->meta + RSX_MASK_OFFSET, mask);
  g->m.meta = g->meta;
  g->m.mask = mask;
  g->m.vertex_count = i == 18 ? 0 : 4 + (uint32_t)i;
  g->m.mmp_stride = 16;
  g->m.mgp_stride = mgp_stride;
  g->mmp = noise((size_t)g->m.vertex_count * 16);
  g->mgp = noise((size_t)g->m.vertex_count * mgp_stride);
  g->m.mmp = g->mmp;
  g->m.mgp = mgp_stride ? g->mgp : NULL;
  fill_vertices(g);

  /* index size 2, 4, 2, 4, ...; lists on i % 4 < 2, strips otherwise */
  g->m.index_size = (uint8_t)(i % 2 ? 4 : 2);
  strip = i % 4 >= 2;
  g->m.primitive = (uint8_t)(strip ? RSX_STRIP : RSX_TRIANGLES);
  nsub = i == 18 ? 0 : 1 + (uint32_t)i % MAXSUB;
  per = strip ? 7 : 6;                  /* indices per submesh */
  g->m.index_count = nsub * per;
  g->idx = noise((size_t)g->m.index_count * g->m.index_size);
  for (s = 0; s < nsub; s++)
    for (j = 0; j < per; j++) {
      uint32_t at = s * per + j;
      uint32_t v = (s + j) % g->m.vertex_count;
      /* a strip restarts in its middle: 0xFFFF or 0xFFFFFFFF */
      if (strip && j == 3) v = g->m.index_size == 2 ? 0xFFFF : 0xFFFFFFFF;
      put_index(g->idx, g->m.index_size, at, v);
    }
  g->m.indices = g->idx;

  g->m.submesh_count = nsub;
  g->m.submeshes = g->sub;
  for (s = 0; s < nsub; s++) {
    rsx_submesh *sm = &g->sub[s];
    sm->record_size = 0x3C + s * 4;  /* 0x3C, 0x40, 0x44 */
    g->rec[s] = noise(sm->record_size);
    /* the note's example where the mask holds sets 0..2, else defaults */
    if (mask & 0x80)
      memcpy(g->rec[s] + RSX_SELECTOR_OFFSET, "\0\0\2\1", 4);
    else
      memset(g->rec[s] + RSX_SELECTOR_OFFSET, 0xFF, 4);
    sm->record = g->rec[s];
    sm->first_index = s * per;
    sm->index_count = per;
    /* materials 0, 1, 2 and none (3) in turn */
    sm->material = (uint32_t)(i + (int)s) % 4 == 3
                     ? RSX_NONE : (uint32_t)(i + (int)s) % 4;
  }
}

static void free_given(given *g)
{
  uint32_t s;
  free(g->meta);
  free(g->mmp);
  free(g->mgp);
  free(g->idx);
  for (s = 0; s < MAXSUB; s++) free(g->rec[s]);
}

static const rsx_sampler concrete_smp[2] = {
  {RSX_BASE_COLOUR_SLOT, "textures/concrete.png"},
  {0x12345678u, "textures/concrete_n.png"}};
static const rsx_sampler bark_smp[1] = {
  {RSX_BASE_COLOUR_SLOT, "textures/concrete.png"}}; /* shared path */

static void check_mesh(const rsx_bundle *b, const given *g, uint32_t i,
                       uint32_t first_submesh)
{
  const rsx_mesh *r = rsx_bundle_mesh(b, i);
  uint32_t s;
  if (r == NULL) {
    ok(0, "mesh %u: read back", i);
    return;
  }
  is_str(r->name, g->m.name, "mesh %u: name", i);
  is_int(r->meta_size, g->m.meta_size, "mesh %u: meta size", i);
  cmp_mem(r->meta, g->meta, g->m.meta_size, "mesh %u: meta bytes", i);
  is_int(r->mask, g->m.mask, "mesh %u: mask", i);
  is_int(r->vertex_count, g->m.vertex_count, "mesh %u: vertex count", i);
  is_int(r->mmp_stride, 16, "mesh %u: MMP stride", i);
  is_int(r->mgp_stride, g->m.mgp_stride, "mesh %u: MGP stride", i);
  if (g->m.vertex_count)
    cmp_mem(r->mmp, g->mmp, (size_t)g->m.vertex_count * 16,
            "mesh %u: MMP bytes", i);
  if (g->m.vertex_count && g->m.mgp_stride)
    cmp_mem(r->mgp, g->mgp, (size_t)g->m.vertex_count * g->m.mgp_stride,
            "mesh %u: MGP bytes", i);
  is_int(r->index_size, g->m.index_size, "mesh %u: index size", i);
  is_int(r->primitive, g->m.primitive, "mesh %u: primitive", i);
  is_int(r->index_count, g->m.index_count, "mesh %u: index count", i);
  if (g->m.index_count)
    cmp_mem(r->indices, g->idx,
            (size_t)g->m.index_count * g->m.index_size,
            "mesh %u: index bytes", i);
  is_int(r->first_submesh, first_submesh, "mesh %u: first submesh", i);
  is_int(r->submesh_count, g->m.submesh_count, "mesh %u: submesh count", i);
  if (r->submesh_count != g->m.submesh_count) return;
  for (s = 0; s < g->m.submesh_count; s++) {
    const rsx_submesh *rs = &r->submeshes[s];
    const rsx_submesh *gs = &g->sub[s];
    is_int(rs->record_size, gs->record_size, "mesh %u sub %u: record size",
           i, s);
    cmp_mem(rs->record, gs->record, gs->record_size,
            "mesh %u sub %u: record bytes", i, s);
    is_int(rs->first_index, gs->first_index, "mesh %u sub %u: first index",
           i, s);
    is_int(rs->index_count, gs->index_count, "mesh %u sub %u: index count",
           i, s);
    is_int(rs->material, gs->material, "mesh %u sub %u: material", i, s);
  }
}

static void test_round_trip(void)
{
  given *g = calloc(NMESH, sizeof *g);
  rsx_writer *w = rsx_writer_new();
  rsx_bundle *b;
  uint8_t *f;
  size_t n;
  uint32_t i, first = 0, total_sub = 0;
  rsx_error err;
  const rsx_material *mat;
  rsx_format fmt;

  if (g == NULL || w == NULL) bail_out("out of memory");
  for (i = 0; i < 16; i++) {
    rsx_format_init(&fmt, note_masks[i].mask);
    if (fmt.mgp_stride != note_masks[i].mgp_stride ||
        fmt.mmp_stride != 16)
      diag("mask 0x%08x: the format table disagrees with the note",
           note_masks[i].mask);
  }
  is_int(rsx_writer_add_material(w, "concrete", concrete_smp, 2, &err), 0,
         "material 0 with two samplers");
  is_int(rsx_writer_add_material(w, "glass", NULL, 0, &err), 1,
         "material 1 without samplers");
  /* named like mesh 1 and mesh 8: one string for the three */
  is_int(rsx_writer_add_material(w, "crate", bark_smp, 1, &err), 2,
         "material 2, its texture shared with material 0");
  for (i = 0; i < NMESH; i++) {
    make_mesh(&g[i], (int)i);
    if (!ok(rsx_writer_add_mesh(w, &g[i].m, &err) == 0, "add mesh %u", i))
      diag("%s", err.text);
    total_sub += g[i].m.submesh_count;
  }
  if (rsx_writer_bytes(w, &f, &n, &err) != 0) bail_out("%s", err.text);
  walk_file(f, n, "round trip");
  b = rsx_bundle_from_memory(f, n, "round.rsxb", &err);
  if (!ok(b != NULL, "round trip reads back")) {
    diag("%s", err.text);
    goto done;
  }
  is_int(rsx_bundle_mesh_count(b), NMESH, "mesh count");
  is_int(rsx_bundle_submesh_count(b), total_sub, "submesh count");
  is_int(rsx_bundle_material_count(b), 3, "material count");
  is_int(rsx_bundle_sampler_count(b), 3, "sampler count");
  for (i = 0; i < NMESH && i < rsx_bundle_mesh_count(b); i++) {
    check_mesh(b, &g[i], i, first);
    first += g[i].m.submesh_count;
  }
  ok((rsx_bundle_mesh(b, 17)->findings & RSX_FIND_MGP_STRIDE) != 0,
     "a stride finding is written as it is and found again");
  for (i = 0; i < 16; i++)
    if (rsx_bundle_mesh(b, i)->findings &
        (RSX_FIND_MMP_STRIDE | RSX_FIND_MGP_STRIDE | RSX_FIND_NO_POSITION |
         RSX_FIND_UNDEFINED_BITS | RSX_FIND_INDEX_RANGE))
      break;
  is_int(i, 16, "the note's 16 masks read back without layout findings");

  mat = rsx_bundle_material(b, 0);
  is_str(mat->name, "concrete", "material 0 name");
  is_int(mat->first_sampler, 0, "material 0 first sampler");
  is_int(mat->sampler_count, 2, "material 0 sampler count");
  is_int(mat->samplers[0].slot, RSX_BASE_COLOUR_SLOT, "material 0 slot 0");
  is_str(mat->samplers[0].texture, "textures/concrete.png",
         "material 0 texture 0");
  is_int(mat->samplers[1].slot, 0x12345678, "material 0 slot 1");
  is_str(mat->samplers[1].texture, "textures/concrete_n.png",
         "material 0 texture 1");
  mat = rsx_bundle_material(b, 1);
  is_str(mat->name, "glass", "material 1 name");
  is_int(mat->sampler_count, 0, "material 1 has no samplers");
  ok(rsx_material_base_colour(mat) == NULL, "material 1: no base colour");
  mat = rsx_bundle_material(b, 2);
  is_str(mat->name, "crate", "material 2 name");
  is_int(mat->first_sampler, 2, "material 2 first sampler");
  is_str(rsx_material_base_colour(mat), "textures/concrete.png",
         "material 2 base colour");
  /* the strings: "", concrete, textures/concrete.png, concrete_n, glass,
  ** crate, then the mesh names but crate again and "" */
  {
    uint32_t ss = get32(f + 0x30);
    size_t want = 1;
    const char *uniq[] = {"concrete", "textures/concrete.png",
      "textures/concrete_n.png", "glass", "crate", "box", "bridge_03",
      "road_a", "road_b", "wall", "roof", "fence", "lamp", "pier", "tower",
      "house", "barn", "shed", "tree_branch", "bad_stride", "empty"};
    for (i = 0; i < sizeof uniq / sizeof uniq[0]; i++)
      want += strlen(uniq[i]) + 1;
    is_int(ss, (long long)want, "string table: each string once");
    is_int(get32(f + get32(f + 0x10) + 1 * 64), get32(f + get32(f + 0x20)
           + 2 * 16), "mesh 1 and material 2 share the name string");
    is_int(get32(f + get32(f + 0x10) + 16 * 64), 0,
           "an empty name is offset 0");
  }
  save_seed(w, "masks.rsxb");

  /* a few of the same meshes again, in another order, in a new writer:
  ** strips of both index sizes, the tree mask, the stride finding */
  {
    static const int pick[4] = {15, 3, 17, 2};
    rsx_writer *w2 = rsx_writer_new();
    rsx_bundle *b2;
    uint8_t *f2;
    size_t n2;
    rsx_writer_add_material(w2, "concrete", concrete_smp, 2, &err);
    rsx_writer_add_material(w2, "glass", NULL, 0, &err);
    rsx_writer_add_material(w2, "crate", bark_smp, 1, &err);
    for (i = 0; i < 4; i++)
      if (rsx_writer_add_mesh(w2, &g[pick[i]].m, &err) != 0)
        bail_out("%s", err.text);
    if (rsx_writer_bytes(w2, &f2, &n2, &err) != 0) bail_out("%s", err.text);
    walk_file(f2, n2, "four meshes");
    b2 = rsx_bundle_from_memory(f2, n2, "four.rsxb", &err);
    if (ok(b2 != NULL, "four meshes read back")) {
      uint32_t sub = 0;
      for (i = 0; i < 4; i++) {
        check_mesh(b2, &g[pick[i]], i, sub);
        sub += g[pick[i]].m.submesh_count;
      }
      rsx_bundle_free(b2);
    } else {
      diag("%s", err.text);
    }
    save_seed(w2, "four.rsxb");
    free(f2);
    rsx_writer_free(w2);
  }
  rsx_bundle_free(b);
done:
  free(f);
  for (i = 0; i < NMESH; i++) free_given(&g[i]);
  free(g);
  rsx_writer_free(w);
}

/* ------------------------------------------------------------ refusals */

/* The writer's prefix for mesh number index named name. */
static void where_of(char *buf, size_t size, uint32_t index,
                     const char *name)
{
  rsx_mesh m;
  char label[200];
  memset(&m, 0, sizeof m);
  m.index = index;
  m.name = name;
  rsx_mesh_label(&m, label, sizeof label);
  snprintf(buf, size, "writer: %s", label);
}

/* rsx_mesh_check's own message for m as mesh index of a writer with
** materials materials and first_submesh submeshes already: the writer
** labels a mesh as the entry it will be. */
static void check_message(const rsx_mesh *m, uint32_t materials,
                          uint32_t index, uint32_t first_submesh,
                          rsx_error *out)
{
  rsx_mesh c = *m;
  rsx_submesh sub[MAXSUB];
  char where[256];
  memcpy(sub, m->submeshes, m->submesh_count * sizeof *sub);
  c.submeshes = sub;
  c.index = index;
  c.first_submesh = first_submesh;
  where_of(where, sizeof where, index, m->name);
  strcpy(out->text, "(no message)");
  if (rsx_mesh_check(&c, materials, where, out) == 0)
    strcpy(out->text, "(rsx_mesh_check accepted it)");
}

/* A refused add leaves the writer's bytes as they were. */
static void unchanged(rsx_writer *w, const uint8_t *before, size_t n,
                      const char *what)
{
  uint8_t *f;
  size_t m;
  rsx_error err;
  if (rsx_writer_bytes(w, &f, &m, &err) != 0) bail_out("%s", err.text);
  ok(m == n && memcmp(f, before, n) == 0, "%s: the writer is unchanged",
     what);
  free(f);
}

static void test_refusals(void)
{
  rsx_writer *w = rsx_writer_new();
  given g;
  rsx_error err, want;
  uint8_t *before;
  size_t n;
  uint32_t keep;
  static const uint8_t big[16];

  rsx_writer_add_material(w, "a", NULL, 0, &err);
  rsx_writer_add_material(w, "b", NULL, 0, &err);
  rsx_writer_add_material(w, "c", concrete_smp, 2, &err);
  make_mesh(&g, 2); /* submeshes 0..2 with materials 2, none, 0 */
  if (rsx_writer_add_mesh(w, &g.m, &err) != 0) bail_out("%s", err.text);
  if (rsx_writer_bytes(w, &before, &n, &err) != 0) bail_out("%s", err.text);

  /* a metadata record one byte short of 0x90 */
  g.m.meta_size = 0x8F;
  check_message(&g.m, 3, 1, 3, &want);
  ok(rsx_writer_add_mesh(w, &g.m, &err) != 0, "a short meta is refused");
  is_str(err.text, want.text, "... with rsx_mesh_check's message");
  is_str(err.text, "writer: mesh 2 (bridge_03): metadata record is 0x8f "
         "bytes, shorter than 0x90", "... naming the mesh it would be, "
         "b:mesh(2) of the file");
  unchanged(w, before, n, "short meta");
  g.m.meta_size = 0x90;

  /* submesh 1's material is 3, one past the writer's three */
  keep = g.sub[1].material;
  g.sub[1].material = 3;
  check_message(&g.m, 3, 1, 3, &want);
  ok(rsx_writer_add_mesh(w, &g.m, &err) != 0,
     "material 3 of a writer with three is refused");
  is_str(err.text, want.text, "... with rsx_mesh_check's message");
  is_str(err.text, "writer: mesh 2 (bridge_03): submesh 2: material field "
         "0x3 lies outside the material table (3 entries)",
         "... naming its submesh 2 and the field as it would be stored");
  unchanged(w, before, n, "material 3");
  g.sub[1].material = 0xFFFFFFFE;
  ok(rsx_writer_add_mesh(w, &g.m, &err) != 0,
     "material 0xFFFFFFFE is refused");
  g.sub[1].material = keep;

  /* an index size of 3 */
  g.m.index_size = 3;
  check_message(&g.m, 3, 1, 3, &want);
  ok(rsx_writer_add_mesh(w, &g.m, &err) != 0, "index size 3 is refused");
  is_str(err.text, want.text, "... with rsx_mesh_check's message");
  g.m.index_size = 2;

  /* no metadata record behind the size */
  g.m.meta = NULL;
  ok(rsx_writer_add_mesh(w, &g.m, &err) != 0, "a NULL meta is refused");
  like(err.text, "no metadata record", "... saying so");
  g.m.meta = g.meta;
  g.m.mmp = NULL;
  ok(rsx_writer_add_mesh(w, &g.m, &err) != 0, "a NULL MMP is refused");
  like(err.text, "no MMP stream", "... saying so");
  g.m.mmp = g.mmp;
  g.sub[2].record = NULL;
  ok(rsx_writer_add_mesh(w, &g.m, &err) != 0, "a NULL record is refused");
  /* the writer holds submeshes 0..2: this mesh's third would be entry 5,
  ** and is m:submesh(3) */
  is_str(err.text, "writer: mesh 2 (bridge_03): submesh 3: no submesh "
         "record", "... naming it by its number in the mesh");
  g.sub[2].record = g.rec[2];
  unchanged(w, before, n, "NULL buffers");
  free_given(&g);

  /* sizes past 32 bits, refused before a byte is copied: the streams are
  ** never read, so a small buffer stands behind them */
  make_mesh(&g, 0);
  g.m.name = "huge";
  g.m.mmp = big;
  g.m.index_count = 0;
  g.m.submesh_count = 0;
  g.m.vertex_count = 0x10000000; /* x 16 = 2^32 bytes */
  ok(rsx_writer_add_mesh(w, &g.m, &err) != 0,
     "an MMP stream of 2^32 bytes is refused");
  like(err.text, "writer: mesh 2 (huge): ", "... naming the mesh");
  like(err.text, "MMP stream of 268435456 x 16 bytes overflows 32 bits",
       "... and the field");
  /* meta 0x90, pad to 0xA0, MMP 0xFFFFFF50: a block of 0xFFFFFFF0 bytes
  ** that fits 32 bits, but not after the header, tables and strings */
  g.m.vertex_count = 0x0FFFFFF5;
  ok(rsx_writer_add_mesh(w, &g.m, &err) != 0,
     "a bundle past 4 GiB is refused");
  like(err.text, "the bundle would grow to", "... saying why");
  unchanged(w, before, n, "huge meshes");
  free_given(&g);

  ok(rsx_writer_add_material(w, "d", NULL, 2, &err) == RSX_NONE,
     "two samplers without an array are refused");
  like(err.text, "writer: material 4 (d): ", "... naming the material it "
       "would be, the fourth");
  unchanged(w, before, n, "a refused material");

  free(before);
  rsx_writer_free(w);
}

/* --------------------------------------------------------------- saving */

static int dir_entries(const char *dir)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  int count = 0;
  if (d == NULL) return -1;
  while ((e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
      count++;
  closedir(d);
  return count;
}

static void test_save(void)
{
  char dir[] = "/tmp/rsx-writer-XXXXXX", path[256], sub[256], bad[256];
  rsx_writer *w = rsx_writer_new();
  rsx_bundle *b;
  rsx_error err;
  uint8_t *f;
  size_t n;
  given g;

  if (mkdtemp(dir) == NULL) bail_out("mkdtemp: %s", strerror(errno));
  snprintf(path, sizeof path, "%s/x.rsxb", dir);
  ok(rsx_writer_save(w, path, &err) == 0, "save an empty bundle");
  /* two meshes: mesh 5's block ends 8 bytes short of a boundary (18 u32
  ** indices), so the saved file has padding between blocks */
  make_mesh(&g, 5);
  g.sub[0].material = g.sub[1].material = RSX_NONE;
  if (rsx_writer_add_mesh(w, &g.m, &err) != 0) bail_out("%s", err.text);
  if (rsx_writer_add_mesh(w, &g.m, &err) != 0) bail_out("%s", err.text);
  ok(rsx_writer_save(w, path, &err) == 0, "save over it");
  if (rsx_writer_bytes(w, &f, &n, &err) != 0) bail_out("%s", err.text);
  b = rsx_bundle_open(path, &err);
  if (ok(b != NULL, "the saved file opens")) {
    ok(rsx_bundle_size(b) == n &&
       memcmp(rsx_bundle_bytes(b), f, n) == 0,
       "the saved file holds rsx_writer_bytes's bytes");
    rsx_bundle_free(b);
  } else {
    diag("%s", err.text);
  }
  is_int(dir_entries(dir), 1, "only the file is left in its folder");

  snprintf(bad, sizeof bad, "%s/missing/x.rsxb", dir);
  ok(rsx_writer_save(w, bad, &err) != 0, "a missing folder fails");
  like(err.text, bad, "... naming the path");
  like(err.text, strerror(ENOENT), "... and the reason");

  /* the rename fails onto a folder: the temporary file must go */
  snprintf(sub, sizeof sub, "%s/sub", dir);
  if (mkdir(sub, 0777) != 0) bail_out("mkdir: %s", strerror(errno));
  ok(rsx_writer_save(w, sub, &err) != 0, "saving onto a folder fails");
  like(err.text, sub, "... naming the path");
  like(err.text, strerror(EISDIR), "... and the reason");
  is_int(dir_entries(dir), 2, "... and leaves no temporary file");

  rmdir(sub);
  unlink(path);
  rmdir(dir);
  free(f);
  free_given(&g);
  rsx_writer_free(w);
}


/* A seeded string table: the seed's strings keep their offsets, a new one
** goes after them, a repeated one takes its first offset, and the table
** reads back through rsx_bundle_strings. Offsets worked out by hand:
** seed "\0t.png\0m\0m\0" is 11 bytes: "t.png" at 1, "m" at 7 (and 9). */
static void test_seed(void)
{
  static const uint8_t seed[11] = {0, 't', '.', 'p', 'n', 'g', 0, 'm', 0,
                                   'm', 0};
  static const uint8_t unended[3] = {0, 'x', 'y'};
  static const uint8_t want[13] = {0, 't', '.', 'p', 'n', 'g', 0, 'm', 0,
                                   'm', 0, 'a', 0};
  rsx_sampler smp = {RSX_BASE_COLOUR_SLOT, "t.png"};
  rsx_writer *w = rsx_writer_new();
  rsx_bundle *b;
  rsx_error err;
  uint8_t *f;
  size_t n, size = 0;
  const uint8_t *table;

  ok(rsx_writer_seed_strings(w, (const uint8_t *)"x", 1, &err) != 0,
     "seed: a table not starting with a NUL is refused");
  like(err.text, "must start with a NUL", "seed: ... with a message");
  ok(rsx_writer_seed_strings(w, seed, sizeof seed, &err) == 0, "seed: ok");
  is_int(rsx_writer_add_material(w, "a", &smp, 1, &err), 0,
         "seed: then a material");
  ok(rsx_writer_seed_strings(w, seed, sizeof seed, &err) != 0,
     "seed: refused once something was added");
  like(err.text, "only before anything is added", "seed: ... saying so");
  ok(rsx_writer_bytes(w, &f, &n, &err) == 0, "seed: bytes");
  b = rsx_bundle_from_memory(f, n, "seed.rsxb", &err);
  ok(b != NULL, "seed: reads back");
  if (b != NULL) {
    table = rsx_bundle_strings(b, &size);
    is_int((long long)size, 13, "seed: 11 bytes seeded and \"a\\0\"");
    if (size == 13) cmp_mem(table, want, 13, "seed: the table's bytes");
    /* material entry: name at its first u32, sampler texture at +4 */
    is_int(get32(f + get32(f + 0x20)), 11, "seed: \"a\" at offset 11");
    is_int(get32(f + get32(f + 0x28) + 4), 1, "seed: \"t.png\" kept at 1");
    rsx_bundle_free(b);
  }
  free(f);
  rsx_writer_free(w);

  w = rsx_writer_new();
  ok(rsx_writer_seed_strings(w, unended, sizeof unended, &err) == 0,
     "seed: a table without its last NUL");
  is_int(rsx_writer_add_material(w, "xy", NULL, 0, &err), 0,
         "seed: a material named as the unended string");
  ok(rsx_writer_bytes(w, &f, &n, &err) == 0, "seed: bytes");
  is_int(get32(f + 0x30), 4, "seed: the NUL was added, nothing else");
  is_int(get32(f + get32(f + 0x20)), 1, "seed: \"xy\" found at 1");
  free(f);
  rsx_writer_free(w);
}

int main(void)
{
  test_empty();
  test_seed();
  test_tiny();
  test_round_trip();
  test_refusals();
  test_save();
  return done_testing();
}
