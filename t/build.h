/*
** build.h - lays out RSXB files byte by byte for the tests, apart from the
** project's reader and writer, so a test can also make any broken file.
**
** A test fills a tb_spec (what each entry holds), tb_lay() places the
** parts and records where each went in the tb_file, and the setters then
** change any field of the header or of a table entry. Field offsets are
** written here from rsxb.md, not taken from the core.
*/
#ifndef RSX_TEST_BUILD_H
#define RSX_TEST_BUILD_H

#include <stddef.h>
#include <stdint.h>

/* Header fields (u32 unless noted) */
enum {
  TB_HDR_MAGIC = 0x00,          /* 4 bytes */
  TB_HDR_VERSION = 0x04,        /* u16 */
  TB_HDR_HEADER_SIZE = 0x06,    /* u16 */
  TB_HDR_FILE_SIZE = 0x08,
  TB_HDR_MESH_COUNT = 0x0C,
  TB_HDR_MESH_TABLE = 0x10,
  TB_HDR_SUBMESH_COUNT = 0x14,
  TB_HDR_SUBMESH_TABLE = 0x18,
  TB_HDR_MATERIAL_COUNT = 0x1C,
  TB_HDR_MATERIAL_TABLE = 0x20,
  TB_HDR_SAMPLER_COUNT = 0x24,
  TB_HDR_SAMPLER_TABLE = 0x28,
  TB_HDR_STRINGS = 0x2C,
  TB_HDR_STRING_SIZE = 0x30,
  TB_HDR_RESERVED = 0x34,       /* 12 bytes */
  TB_HDR_BYTES = 64
};

/* Mesh entry fields (u32 unless noted) */
enum {
  TB_MESH_NAME = 0x00,
  TB_MESH_META = 0x04,
  TB_MESH_META_SIZE = 0x08,
  TB_MESH_VERTEX_COUNT = 0x0C,
  TB_MESH_MMP = 0x10,
  TB_MESH_MMP_STRIDE = 0x14,
  TB_MESH_MGP = 0x18,
  TB_MESH_MGP_STRIDE = 0x1C,
  TB_MESH_INDICES = 0x20,
  TB_MESH_INDEX_COUNT = 0x24,
  TB_MESH_INDEX_SIZE = 0x28,    /* u8 */
  TB_MESH_PRIMITIVE = 0x29,     /* u8 */
  TB_MESH_FIRST_SUBMESH = 0x2C,
  TB_MESH_SUBMESH_COUNT = 0x30,
  TB_MESH_RESERVED = 0x34,      /* 12 bytes */
  TB_MESH_BYTES = 64
};

/* Submesh, material and sampler entry fields (u32) */
enum {
  TB_SUB_RECORD = 0x00,
  TB_SUB_RECORD_SIZE = 0x04,
  TB_SUB_FIRST_INDEX = 0x08,
  TB_SUB_INDEX_COUNT = 0x0C,
  TB_SUB_MATERIAL = 0x10,
  TB_SUB_BYTES = 32,
  TB_MAT_NAME = 0x00,
  TB_MAT_FIRST_SAMPLER = 0x04,
  TB_MAT_SAMPLER_COUNT = 0x08,
  TB_MAT_BYTES = 16,
  TB_SAM_SLOT = 0x00,
  TB_SAM_TEXTURE = 0x04,
  TB_SAM_BYTES = 8
};

#define TB_MAX 8

typedef struct tb_mesh {
  const char *name;
  const uint8_t *meta;
  uint32_t meta_size;
  uint32_t vertex_count;
  const uint8_t *mmp;       /* vertex_count * mmp_stride bytes */
  uint32_t mmp_stride;
  const uint8_t *mgp;       /* vertex_count * mgp_stride bytes */
  uint32_t mgp_stride;
  const uint8_t *indices;   /* index_count * index_size bytes */
  uint32_t index_count;
  uint8_t index_size, primitive;
  uint32_t first_submesh, submesh_count;
} tb_mesh;

typedef struct tb_submesh {
  const uint8_t *record;
  uint32_t record_size;
  uint32_t first_index, index_count, material;
} tb_submesh;

typedef struct tb_material {
  const char *name;
  uint32_t first_sampler, sampler_count;
} tb_material;

typedef struct tb_sampler {
  uint32_t slot;
  const char *texture;
} tb_sampler;

/* What to lay out. */
typedef struct tb_spec {
  uint32_t mesh_count, submesh_count, material_count, sampler_count;
  tb_mesh mesh[TB_MAX];
  tb_submesh submesh[TB_MAX];
  tb_material material[TB_MAX];
  tb_sampler sampler[TB_MAX];
  unsigned align;    /* parts start on this boundary; 0 or 1: packed */
  int tables_last;   /* the records and streams first, then the tables */
} tb_spec;

/* A laid-out file and where its parts went. Parts are placed with their
** padding before them, so the file ends with the last part's last byte.
** A part of no bytes gets offset 0. */
typedef struct tb_file {
  uint8_t *data;
  size_t size, cap;
  uint32_t mesh_table, submesh_table, material_table, sampler_table;
  uint32_t strings, string_size;
  uint32_t meta[TB_MAX], mmp[TB_MAX], mgp[TB_MAX], indices[TB_MAX];
  uint32_t record[TB_MAX];
  uint32_t mesh_name[TB_MAX], material_name[TB_MAX], texture[TB_MAX];
} tb_file;

/* Lays out s into f (which it initialises), with a correct header. */
void tb_lay(tb_file *f, const tb_spec *s);
void tb_free(tb_file *f);

/* Appends n bytes (zeros if p is NULL) at the next multiple of align;
** returns their offset. */
uint32_t tb_place(tb_file *f, const void *p, size_t n, unsigned align);

void tb_put8(tb_file *f, size_t off, uint8_t v);
void tb_put16(tb_file *f, size_t off, uint16_t v);
void tb_put32(tb_file *f, size_t off, uint32_t v);
uint32_t tb_get32(const tb_file *f, size_t off);

/* Set a field of the header or of entry i of a table, at its width. */
void tb_set_header(tb_file *f, unsigned field, uint32_t v);
void tb_set_mesh(tb_file *f, uint32_t i, unsigned field, uint32_t v);
void tb_set_submesh(tb_file *f, uint32_t i, unsigned field, uint32_t v);
void tb_set_material(tb_file *f, uint32_t i, unsigned field, uint32_t v);
void tb_set_sampler(tb_file *f, uint32_t i, unsigned field, uint32_t v);

/* Sets the file size field to the current length. */
void tb_seal(tb_file *f);

/* Copies f into out (initialised by it): a test can then break the copy. */
void tb_copy(tb_file *out, const tb_file *f);

#endif
