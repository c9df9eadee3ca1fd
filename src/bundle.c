/*
** bundle.c - reads an RSXB file: checks every rule of rsxb.md's "What a
** reader refuses" before trusting a count, then builds the views.
**
** Decisions where rsxb.md is silent:
** - Reserved fields that a writer zeroes are not checked: a reader is
**   liberal there, so a later version may use them without breaking us.
** - Two meshes may share submesh entries (nothing forbids it). Each mesh
**   gets its own views, since UV sets and findings depend on its mask. So
**   that sharing cannot multiply memory, the views of all meshes together
**   may not outnumber the submesh entries the file's length could hold.
** - A submesh entry no mesh refers to must lie in the file, but is not
**   checked further: nothing reads it, and rsx_mesh_check, the one place
**   of the submesh rules, sees only the submeshes of meshes.
** - Messages name the file by its path as given, as an OS error does, so
**   that two bundles of one name in two folders are told apart.
** - Messages number entries as Lua does ("mesh 13" is b:mesh(13)). A
**   submesh or sampler entry is named through the first mesh or material
**   that reaches it ("mesh 2 (road): submesh 1: "), and by its 1-based
**   entry ("submesh entry 3: ") only when none does.
*/
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE */
#include "rsxmesh.h"
#include "rsxb.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifndef _WIN32
#include <sys/mman.h>
#endif

#define WHO_MAX 200

struct rsx_bundle {
  char *path;          /* as given */
  const char *name;    /* its base name, inside path */
  uint8_t *data;       /* the whole file */
  size_t size;
  uint32_t mesh_count, submesh_count, material_count, sampler_count;
  rsx_mesh *meshes;
  rsx_submesh *views;  /* every mesh's submeshes, mesh after mesh */
  rsx_material *materials;
  rsx_sampler *samplers;
};

/* What the reader knows while it checks. */
typedef struct rd_state {
  rsx_bundle *b;
  rsx_error *err;
  uint32_t strings, string_size;
  uint32_t last_nul;   /* offset of the table's last NUL */
  uint32_t mesh_table, submesh_table, material_table, sampler_table;
} rd_state;

/* ------------------------------------------------------------- checks */

/* Does the part off+len lie inside the file? `who` names the entry
** ("mesh 13 (bridge_03): ", or "header: "), `what` the field. */
static int rd_part(rd_state *r, const char *who, const char *what,
                   uint64_t off, uint64_t len)
{
  uint64_t end = off + len; /* both below 2^40: no overflow */
  if (end > 0xFFFFFFFFu)
    return rsx_fail(r->err, "%s: %s%s 0x%llx+0x%llx overflows 32 bits",
                    r->b->path, who, what, (unsigned long long)off,
                    (unsigned long long)len);
  if (end > r->b->size)
    return rsx_fail(r->err, "%s: %s%s 0x%llx+0x%llx runs past end of file "
                    "(0x%llx bytes)", r->b->path, who, what,
                    (unsigned long long)off, (unsigned long long)len,
                    (unsigned long long)r->b->size);
  return 0;
}

/* A table of count entries of size bytes at the offset in header field
** at, checked before anything is allocated for it. */
static int rd_table(rd_state *r, const char *what, unsigned at,
                    uint32_t count, uint32_t size, uint32_t *off)
{
  *off = rsx_be32(r->b->data + at);
  return rd_part(r, "header: ", what, *off, (uint64_t)count * size);
}

/* String at offset off of the table: inside it and NUL-ended. */
static int rd_string(rd_state *r, const char *who, const char *what,
                     uint32_t off, const char **out)
{
  if (off >= r->string_size)
    return rsx_fail(r->err, "%s: %s%s 0x%lx lies outside the string table "
                    "(0x%lx bytes)", r->b->path, who, what,
                    (unsigned long)off, (unsigned long)r->string_size);
  /* the last NUL of the table ends every string that starts before it */
  if (off > r->last_nul)
    return rsx_fail(r->err, "%s: %s%s 0x%lx has no NUL before the string "
                    "table ends", r->b->path, who, what, (unsigned long)off);
  *out = (const char *)r->b->data + r->strings + off;
  return 0;
}

static int rd_header(rd_state *r)
{
  const uint8_t *h = r->b->data;
  size_t size = r->b->size;
  const char *file = r->b->path; /* as the user gave it */
  uint32_t field;
  if (size < RSXB_MAGIC_SIZE || memcmp(h, RSXB_MAGIC, RSXB_MAGIC_SIZE)) {
    if (size < RSXB_MAGIC_SIZE)
      return rsx_fail(r->err, "%s: file is %lu bytes, too short for the "
                      "magic " RSXB_MAGIC, file, (unsigned long)size);
    return rsx_fail(r->err, "%s: header: magic %02x %02x %02x %02x is not "
                    RSXB_MAGIC, file, h[0], h[1], h[2], h[3]);
  }
  if (size < RSXB_HEADER_SIZE)
    return rsx_fail(r->err, "%s: header: file is %lu bytes, shorter than the "
                    "%d-byte header", file, (unsigned long)size,
                    RSXB_HEADER_SIZE);
  if (rsx_be16(h + RSXB_H_VERSION) != RSXB_VERSION)
    return rsx_fail(r->err, "%s: header: version %u, not %d", file,
                    (unsigned)rsx_be16(h + RSXB_H_VERSION), RSXB_VERSION);
  if (rsx_be16(h + RSXB_H_HEADER_SIZE) != RSXB_HEADER_SIZE)
    return rsx_fail(r->err, "%s: header: header size %u, not %d", file,
                    (unsigned)rsx_be16(h + RSXB_H_HEADER_SIZE),
                    RSXB_HEADER_SIZE);
  field = rsx_be32(h + RSXB_H_FILE_SIZE);
  if (field != size)
    return rsx_fail(r->err, "%s: header: file size field 0x%lx differs from "
                    "the file's length 0x%llx", file, (unsigned long)field,
                    (unsigned long long)size);
  r->b->mesh_count = rsx_be32(h + RSXB_H_MESH_COUNT);
  r->b->submesh_count = rsx_be32(h + RSXB_H_SUBMESH_COUNT);
  r->b->material_count = rsx_be32(h + RSXB_H_MATERIAL_COUNT);
  r->b->sampler_count = rsx_be32(h + RSXB_H_SAMPLER_COUNT);
  if (rd_table(r, "mesh table", RSXB_H_MESH_TABLE, r->b->mesh_count,
               RSXB_MESH_ENTRY, &r->mesh_table) ||
      rd_table(r, "submesh table", RSXB_H_SUBMESH_TABLE,
               r->b->submesh_count, RSXB_SUBMESH_ENTRY, &r->submesh_table) ||
      rd_table(r, "material table", RSXB_H_MATERIAL_TABLE,
               r->b->material_count, RSXB_MATERIAL_ENTRY,
               &r->material_table) ||
      rd_table(r, "sampler table", RSXB_H_SAMPLER_TABLE,
               r->b->sampler_count, RSXB_SAMPLER_ENTRY, &r->sampler_table))
    return -1;
  r->strings = rsx_be32(h + RSXB_H_STRINGS);
  r->string_size = rsx_be32(h + RSXB_H_STRING_SIZE);
  if (rd_part(r, "header: ", "string table", r->strings, r->string_size))
    return -1;
  if (r->string_size == 0)
    return rsx_fail(r->err, "%s: header: string table at 0x%lx is empty, "
                    "not even the NUL it starts with", file,
                    (unsigned long)r->strings);
  if (h[r->strings] != 0)
    return rsx_fail(r->err, "%s: header: string table at 0x%lx starts with "
                    "0x%02x, not a NUL", file, (unsigned long)r->strings,
                    h[r->strings]);
  r->last_nul = r->string_size - 1;
  while (h[r->strings + r->last_nul] != 0) r->last_nul--; /* stops at 0 */
  return 0;
}

/* Messages name a sampler by its number j within the first material
** that reaches it, as mat:samplers()[j], and a sampler no material
** reaches by its 1-based table entry. Only a refusal needs this wording,
** so the search is done only then. */
static void rd_sampler_who(const rd_state *r, uint32_t i, char *who,
                           size_t size)
{
  const rsx_bundle *b = r->b;
  uint32_t k;
  for (k = 0; k < b->material_count; k++) {
    const rsx_material *mat = &b->materials[k];
    if (i >= mat->first_sampler && i - mat->first_sampler <
        mat->sampler_count) {
      snprintf(who, size, "material %lu (%s): sampler %lu: ",
               (unsigned long)k + 1, mat->name,
               (unsigned long)(i - mat->first_sampler) + 1);
      return;
    }
  }
  snprintf(who, size, "sampler entry %lu: ", (unsigned long)i + 1);
}

static int rd_materials(rd_state *r)
{
  rsx_bundle *b = r->b;
  char who[WHO_MAX];
  uint32_t i;
  /* both tables are known to lie in the file: their counts are backed */
  b->samplers = calloc(b->sampler_count ? b->sampler_count : 1,
                       sizeof *b->samplers);
  b->materials = calloc(b->material_count ? b->material_count : 1,
                        sizeof *b->materials);
  if (!b->samplers || !b->materials)
    return rsx_fail(r->err, "%s: out of memory", b->path);
  for (i = 0; i < b->material_count; i++) {
    const uint8_t *e =
      b->data + r->material_table + (size_t)i * RSXB_MATERIAL_ENTRY;
    rsx_material *mat = &b->materials[i];
    snprintf(who, sizeof who, "material %lu: ", (unsigned long)i + 1);
    if (rd_string(r, who, "name", rsx_be32(e + RSXB_MAT_NAME), &mat->name))
      return -1;
    snprintf(who, sizeof who, "material %lu (%s): ", (unsigned long)i + 1,
             mat->name);
    mat->first_sampler = rsx_be32(e + RSXB_MAT_FIRST_SAMPLER);
    mat->sampler_count = rsx_be32(e + RSXB_MAT_SAMPLER_COUNT);
    if (mat->sampler_count > b->sampler_count ||
        mat->first_sampler > b->sampler_count - mat->sampler_count)
      return rsx_fail(r->err, "%s: %sfirst sampler field 0x%lx + count %lu "
                      "lie outside the sampler table (%lu %s)",
                      b->path, who, (unsigned long)mat->first_sampler,
                      (unsigned long)mat->sampler_count,
                      (unsigned long)b->sampler_count,
                      b->sampler_count == 1 ? "entry" : "entries");
    /* the entries are filled below, before anything reads them */
    mat->samplers = mat->sampler_count ? b->samplers + mat->first_sampler
                                       : NULL;
  }
  for (i = 0; i < b->sampler_count; i++) {
    const uint8_t *e =
      b->data + r->sampler_table + (size_t)i * RSXB_SAMPLER_ENTRY;
    uint32_t texture = rsx_be32(e + RSXB_SMP_TEXTURE);
    b->samplers[i].slot = rsx_be32(e + RSXB_SMP_SLOT);
    if (rd_string(r, "", "texture", texture, &b->samplers[i].texture)) {
      /* checked again to name the sampler in the message */
      rd_sampler_who(r, i, who, sizeof who);
      return rd_string(r, who, "texture", texture, &b->samplers[i].texture);
    }
  }
  return 0;
}

/* Which mesh reaches submesh entry i first, and as its how-manieth
** submesh; the entry alone (1-based) when none does. Only a refusal
** needs this wording, so the search is done only then. */
static void rd_submesh_who(const rd_state *r, uint32_t i, char *who,
                           size_t size)
{
  const rsx_bundle *b = r->b;
  uint32_t k;
  for (k = 0; k < b->mesh_count; k++) {
    const rsx_mesh *m = &b->meshes[k];
    if (i >= m->first_submesh && i - m->first_submesh < m->submesh_count) {
      char label[WHO_MAX - 32];
      rsx_mesh_label(m, label, sizeof label);
      snprintf(who, size, "%s: submesh %lu: ", label,
               (unsigned long)(i - m->first_submesh) + 1);
      return;
    }
  }
  snprintf(who, size, "submesh entry %lu: ", (unsigned long)i + 1);
}

/* Every submesh entry's record lies in the file, whether a mesh reaches
** it or not; called once every mesh's range is known. */
static int rd_submesh_records(rd_state *r)
{
  char who[WHO_MAX];
  uint32_t i;
  for (i = 0; i < r->b->submesh_count; i++) {
    const uint8_t *e =
      r->b->data + r->submesh_table + (size_t)i * RSXB_SUBMESH_ENTRY;
    uint32_t at = rsx_be32(e + RSXB_S_RECORD);
    uint32_t size = rsx_be32(e + RSXB_S_RECORD_SIZE);
    if (rd_part(r, "", "record", at, size) == 0)
      continue;
    /* checked again to name the submesh in the message */
    rd_submesh_who(r, i, who, sizeof who);
    return rd_part(r, who, "record", at, size);
  }
  return 0;
}

/* First pass over a mesh entry: every part it names lies in the file. */
static int rd_mesh_parts(rd_state *r, rsx_mesh *m, uint32_t i)
{
  rsx_bundle *b = r->b;
  const uint8_t *e = b->data + r->mesh_table + (size_t)i * RSXB_MESH_ENTRY;
  char who[WHO_MAX];
  uint32_t meta, mmp, mgp, idx;
  m->index = i;
  snprintf(who, sizeof who, "mesh %lu: ", (unsigned long)i + 1);
  if (rd_string(r, who, "name", rsx_be32(e + RSXB_M_NAME), &m->name))
    return -1;
  {
    char label[WHO_MAX - 2]; /* room for ": " */
    rsx_mesh_label(m, label, sizeof label);
    snprintf(who, sizeof who, "%s: ", label);
  }
  meta = rsx_be32(e + RSXB_M_META);
  m->meta_size = rsx_be32(e + RSXB_M_META_SIZE);
  m->vertex_count = rsx_be32(e + RSXB_M_VERTEX_COUNT);
  mmp = rsx_be32(e + RSXB_M_MMP);
  m->mmp_stride = rsx_be32(e + RSXB_M_MMP_STRIDE);
  mgp = rsx_be32(e + RSXB_M_MGP);
  m->mgp_stride = rsx_be32(e + RSXB_M_MGP_STRIDE);
  idx = rsx_be32(e + RSXB_M_INDICES);
  m->index_count = rsx_be32(e + RSXB_M_INDEX_COUNT);
  m->index_size = e[RSXB_M_INDEX_SIZE];
  m->primitive = e[RSXB_M_PRIMITIVE];
  m->first_submesh = rsx_be32(e + RSXB_M_FIRST_SUBMESH);
  m->submesh_count = rsx_be32(e + RSXB_M_SUBMESH_COUNT);
  if (rd_part(r, who, "metadata record", meta, m->meta_size) ||
      rd_part(r, who, "MMP stream", mmp,
              (uint64_t)m->vertex_count * m->mmp_stride) ||
      rd_part(r, who, "MGP stream", mgp,
              (uint64_t)m->vertex_count * m->mgp_stride))
    return -1;
  /* An index size other than 2 or 4 is rsx_mesh_check's to report; the
  ** buffer's length means nothing then, and no view is made. */
  if (m->index_size == 2 || m->index_size == 4) {
    if (rd_part(r, who, "index buffer", idx,
                (uint64_t)m->index_count * m->index_size))
      return -1;
    m->indices = b->data + idx;
  }
  if (m->submesh_count > b->submesh_count ||
      m->first_submesh > b->submesh_count - m->submesh_count)
    return rsx_fail(r->err, "%s: %sfirst submesh field 0x%lx + count %lu "
                    "lie outside the submesh table (%lu %s)", b->path,
                    who, (unsigned long)m->first_submesh,
                    (unsigned long)m->submesh_count,
                    (unsigned long)b->submesh_count,
                    b->submesh_count == 1 ? "entry" : "entries");
  m->meta = b->data + meta;
  m->mmp = b->data + mmp;
  m->mgp = m->mgp_stride ? b->data + mgp : NULL;
  return 0;
}

static int rd_meshes(rd_state *r)
{
  rsx_bundle *b = r->b;
  uint64_t views = 0;
  uint32_t i, j;
  rsx_submesh *next;
  b->meshes = calloc(b->mesh_count ? b->mesh_count : 1, sizeof *b->meshes);
  if (!b->meshes) return rsx_fail(r->err, "%s: out of memory", b->path);
  for (i = 0; i < b->mesh_count; i++) {
    if (rd_mesh_parts(r, &b->meshes[i], i)) return -1;
    views += b->meshes[i].submesh_count;
  }
  if (rd_submesh_records(r)) return -1;
  if (views > b->size / RSXB_SUBMESH_ENTRY)
    return rsx_fail(r->err, "%s: the meshes' submesh ranges add up to %llu "
                    "entries, more than a file of 0x%llx bytes can hold",
                    b->path, (unsigned long long)views,
                    (unsigned long long)b->size);
  b->views = calloc(views ? (size_t)views : 1, sizeof *b->views);
  if (!b->views) return rsx_fail(r->err, "%s: out of memory", b->path);
  next = b->views;
  for (i = 0; i < b->mesh_count; i++) {
    rsx_mesh *m = &b->meshes[i];
    char where[WHO_MAX + 64], label[WHO_MAX];
    m->submeshes = next;
    for (j = 0; j < m->submesh_count; j++) {
      const uint8_t *e = b->data + r->submesh_table +
                         (size_t)(m->first_submesh + j) * RSXB_SUBMESH_ENTRY;
      rsx_submesh *s = next++;
      s->record = b->data + rsx_be32(e + RSXB_S_RECORD);
      s->record_size = rsx_be32(e + RSXB_S_RECORD_SIZE);
      s->first_index = rsx_be32(e + RSXB_S_FIRST_INDEX);
      s->index_count = rsx_be32(e + RSXB_S_INDEX_COUNT);
      s->material = rsx_be32(e + RSXB_S_MATERIAL);
    }
    rsx_mesh_label(m, label, sizeof label);
    snprintf(where, sizeof where, "%s: %s", b->path, label);
    if (rsx_mesh_check(m, b->material_count, where, r->err)) return -1;
  }
  return 0;
}

/* --------------------------------------------------------- the bundle */

/* Takes data (malloc'd, size bytes) and path, checks, builds the views. */
static rsx_bundle *bd_load(uint8_t *data, size_t size, const char *path,
                           rsx_error *err)
{
  rd_state r;
  const char *slash;
  size_t plen = strlen(path) + 1;
  rsx_bundle *b = calloc(1, sizeof *b);
  if (!b || !(b->path = malloc(plen))) {
    free(b);
    free(data);
    rsx_fail(err, "%s: out of memory", path);
    return NULL;
  }
  memcpy(b->path, path, plen);
  slash = strrchr(b->path, '/');
  b->name = slash ? slash + 1 : b->path;
  b->data = data;
  b->size = size;
  memset(&r, 0, sizeof r);
  r.b = b;
  r.err = err;
  if (rd_header(&r) || rd_materials(&r) || rd_meshes(&r)) {
    rsx_bundle_free(b);
    return NULL;
  }
  return b;
}

rsx_bundle *rsx_bundle_from_memory(const void *data, size_t size,
                                   const char *name, rsx_error *err)
{
  uint8_t *copy = malloc(size ? size : 1);
  if (!name) name = "(memory)";
  if (!copy) {
    rsx_fail(err, "%s: out of memory for 0x%llx bytes", name,
             (unsigned long long)size);
    return NULL;
  }
  if (size) memcpy(copy, data, size);
  return bd_load(copy, size, name, err);
}

/* Room for the size bytes of a file, freed with free. A large file is read
** into 2 MiB pages where Linux gives them on request (transparent huge
** pages, "madvise"): read into fresh 4 KiB pages, a bundle of 5.7 MB cost
** 1,400 page faults, as much time as the rest of its read. */
#define BD_HUGE_PAGE ((size_t)2 << 20)

static uint8_t *bd_room(size_t size)
{
#ifdef MADV_HUGEPAGE
  if (size >= BD_HUGE_PAGE && size <= SIZE_MAX - BD_HUGE_PAGE) {
    size_t whole = (size + BD_HUGE_PAGE - 1) & ~(BD_HUGE_PAGE - 1);
    void *p;
    if (posix_memalign(&p, BD_HUGE_PAGE, whole) == 0) {
      (void)madvise(p, whole, MADV_HUGEPAGE); /* refused: 4 KiB pages */
      return p;
    }
  }
#endif
  return malloc(size ? size : 1);
}

rsx_bundle *rsx_bundle_open(const char *path, rsx_error *err)
{
  struct stat st;
  uint8_t *data;
  size_t size, got = 0;
  /* non-blocking: a FIFO must not hang the open (regular files read as
  ** ever); it is then refused as not a regular file */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  /* Failures to open or read name the path as given, as io.open does. */
  if (fd < 0) {
    rsx_fail(err, "%s: %s", path, strerror(errno));
    return NULL;
  }
  if (fstat(fd, &st) != 0) {
    rsx_fail(err, "%s: %s", path, strerror(errno));
    close(fd);
    return NULL;
  }
  if (S_ISDIR(st.st_mode)) {
    rsx_fail(err, "%s: %s", path, strerror(EISDIR));
    close(fd);
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    rsx_fail(err, "%s: not a regular file", path);
    close(fd);
    return NULL;
  }
  /* The file size field is 32 bits: anything longer is refused unread. */
  if ((uint64_t)st.st_size > 0xFFFFFFFFu) {
    rsx_fail(err, "%s: file is 0x%llx bytes, longer than a 32-bit file "
             "size field can describe", path, (unsigned long long)st.st_size);
    close(fd);
    return NULL;
  }
  size = (size_t)st.st_size;
  data = bd_room(size);
  if (!data) {
    rsx_fail(err, "%s: out of memory for 0x%llx bytes", path,
             (unsigned long long)size);
    close(fd);
    return NULL;
  }
  while (got < size) {
    ssize_t n = read(fd, data + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n < 0)
        rsx_fail(err, "%s: %s", path, strerror(errno));
      else
        rsx_fail(err, "%s: file shrank to 0x%llx bytes while read", path,
                 (unsigned long long)got);
      free(data);
      close(fd);
      return NULL;
    }
    got += (size_t)n;
  }
  close(fd);
  return bd_load(data, size, path, err);
}

int rsx_is_bundle(const char *path)
{
  static const char head[] = RSXB_MAGIC "\0"; /* + version 1's high byte */
  char got[sizeof head - 1];
  struct stat st;
  ssize_t n;
  /* non-blocking: a FIFO must not hang the sniff */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return 0;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return 0;
  }
  do {
    n = read(fd, got, sizeof got);
  } while (n < 0 && errno == EINTR);
  close(fd);
  return n == (ssize_t)sizeof got && memcmp(got, head, sizeof got) == 0;
}

void rsx_bundle_free(rsx_bundle *b)
{
  if (!b) return;
  free(b->path);
  free(b->data);
  free(b->meshes);
  free(b->views);
  free(b->materials);
  free(b->samplers);
  free(b);
}

/* ------------------------------------------------------------ getters */

const char *rsx_bundle_path(const rsx_bundle *b) { return b->path; }
const char *rsx_bundle_name(const rsx_bundle *b) { return b->name; }
size_t rsx_bundle_size(const rsx_bundle *b) { return b->size; }
const uint8_t *rsx_bundle_bytes(const rsx_bundle *b) { return b->data; }

/* The header's fields, checked when the bundle was opened. */
const uint8_t *rsx_bundle_strings(const rsx_bundle *b, size_t *size)
{
  *size = rsx_be32(b->data + RSXB_H_STRING_SIZE);
  return b->data + rsx_be32(b->data + RSXB_H_STRINGS);
}

uint32_t rsx_bundle_mesh_count(const rsx_bundle *b) { return b->mesh_count; }

uint32_t rsx_bundle_material_count(const rsx_bundle *b)
{
  return b->material_count;
}

uint32_t rsx_bundle_submesh_count(const rsx_bundle *b)
{
  return b->submesh_count;
}

uint32_t rsx_bundle_sampler_count(const rsx_bundle *b)
{
  return b->sampler_count;
}

const rsx_mesh *rsx_bundle_mesh(const rsx_bundle *b, uint32_t i)
{
  return i < b->mesh_count ? &b->meshes[i] : NULL;
}

const rsx_material *rsx_bundle_material(const rsx_bundle *b, uint32_t i)
{
  return i < b->material_count ? &b->materials[i] : NULL;
}

const char *rsx_material_base_colour(const rsx_material *mat)
{
  uint32_t i;
  if (!mat) return NULL;
  for (i = 0; i < mat->sampler_count; i++)
    if (mat->samplers[i].slot == RSX_BASE_COLOUR_SLOT)
      return mat->samplers[i].texture;
  return NULL;
}
