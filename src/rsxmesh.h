/*
** rsxmesh.h - the rsxmesh core: vertex formats, decoders and RSXB bundles.
** No Lua here: the binding (src/lua/) and the host (src/main.c) sit on top.
**
** Conventions: every integer on disc is big-endian. Functions that can fail
** return 0 on success and -1 on failure, and fill an rsx_error (which may be
** NULL) with one line naming the file, the entry and the field. Nothing here
** prints, exits or keeps global state.
**
** This API numbers table entries, vertices and index positions from 0, as
** the file itself does (a mesh's first submesh, a submesh's material).
** Messages are for people who live in Lua: they name an entry by the number
** Lua gives it (mesh 13 is the entry at index 12, b:mesh(13)), and print a
** raw field as stored, in hex, with its name.
*/
#ifndef RSXMESH_H
#define RSXMESH_H

#include <stddef.h>
#include <stdint.h>

#define RSX_VERSION "0.1.0"

/* ---------------------------------------------------------------- errors */

typedef struct rsx_error {
  char text[512];
} rsx_error;

/* printf into err (if not NULL); always returns -1 so callers can
** `return rsx_fail(err, ...)`. */
int rsx_fail(rsx_error *err, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;

/* ---------------------------------------------------------------- files */

/* Write n bytes to fd, retrying short writes; -1 with errno on failure. */
int rsx_write_all(int fd, const void *data, size_t n);

/* Write path whole or not at all: fill writes the content to a new file
** beside it (returning 0, or -1 with errno), which is then renamed over
** path; on failure the temporary file is removed. */
int rsx_save_file(const char *path, int (*fill)(int fd, void *ctx),
                  void *ctx, rsx_error *err);
int rsx_save_bytes(const char *path, const void *data, size_t size,
                   rsx_error *err);

/* ---------------------------------------------------- the format table */

/* The 13 attribute kinds, one per mask bit (kind k is mask bit 1<<k). */
enum rsx_kind {
  RSX_POSITION = 0,
  RSX_COLOUR = 1,
  RSX_NORMAL = 2,
  RSX_TANGENT_A = 3,
  RSX_TANGENT_B = 4,
  RSX_UV0 = 5, /* stored UV sets 0..3 are kinds 5..8 */
  RSX_UV1 = 6,
  RSX_UV2 = 7,
  RSX_UV3 = 8,
  RSX_EXTRA_A = 9,
  RSX_EXTRA_B = 10,
  RSX_S32K2 = 11, /* bit 11: two signed 16-bit integers */
  RSX_HALF4 = 12, /* bit 12: four half floats (four floats unpacked) */
  RSX_KIND_COUNT = 13
};

#define RSX_MASK_PACKED 0x80000u              /* the packed variant */
#define RSX_MASK_DEFINED (0x1FFFu | RSX_MASK_PACKED)

enum rsx_stream { RSX_MMP = 0, RSX_MGP = 1 };

/* RSX vertex type codes (rsxb.md settles the letters of the note) */
enum rsx_type {
  RSX_TYPE_F = 2,    /* 32-bit float */
  RSX_TYPE_SF = 3,   /* 16-bit half float */
  RSX_TYPE_UB = 4,   /* unsigned byte, /255 */
  RSX_TYPE_S32K = 5, /* signed 16-bit integer, read as an integer */
  RSX_TYPE_CMP = 6   /* packed 11:11:10 vector in a u32 */
};

/* One row of the format table, in one variant. */
typedef struct rsx_attr_info {
  const char *name;  /* "position", "colour", "normal", "tangent_a", ... */
  int kind;          /* enum rsx_kind */
  int stream;        /* enum rsx_stream */
  int type;          /* enum rsx_type */
  int count;         /* RSX component count (CMP: 1) */
  int size;          /* bytes in the stream */
  int components;    /* decoded components (CMP: 3) */
  int reg;           /* RSX attribute register, -1 where the note has none */
} rsx_attr_info;

/* The row of kind in the packed (nonzero) or unpacked variant; NULL for a
** kind outside 0..12. */
const rsx_attr_info *rsx_attr(int kind, int packed);

/* Kind from its name ("position", "uv2", "extra_b"...), -1 if unknown. */
int rsx_kind_from_name(const char *name);

/* The layout a mask implies. */
typedef struct rsx_format {
  uint32_t mask;
  int packed;                      /* mask has RSX_MASK_PACKED */
  uint32_t undefined_bits;         /* mask & ~RSX_MASK_DEFINED */
  uint32_t mmp_stride;             /* position (+ normal) rounded up to 16 */
  uint32_t mgp_stride;             /* sum of the MGP sizes, not rounded */
  int offset[RSX_KIND_COUNT];      /* offset in its stream, -1 if absent */
  const rsx_attr_info *attr[RSX_KIND_COUNT]; /* NULL if absent */
} rsx_format;

void rsx_format_init(rsx_format *f, uint32_t mask);

/* MGP attributes in stream order: fills kinds[], returns how many. */
int rsx_format_mgp_order(const rsx_format *f, int kinds[RSX_KIND_COUNT]);

/* ------------------------------------------------------------ decoders */

static inline uint16_t rsx_be16(const uint8_t *p)
{
  return (uint16_t)((p[0] << 8) | p[1]);
}

static inline uint32_t rsx_be32(const uint8_t *p)
{
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
         ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

float rsx_f32(const uint8_t *p);       /* big-endian float32 */
float rsx_half(uint16_t h);            /* IEEE binary16, exact */
void rsx_cmp(uint32_t v, float out[3]); /* the note's 11:11:10 split */
float rsx_ub(uint8_t b);               /* b / 255 */

/* Decode one attribute value of the given row at p into out
** (info->components floats). */
void rsx_decode_value(const rsx_attr_info *info, const uint8_t *p,
                      float *out);

/* The shortest decimal that reads back as the same float32 ("0.1", "150",
** "1e-8", "-0", "inf", "nan", and "-nan" for a NaN with its sign bit set),
** as exporters write floats; returns its length. */
#define RSX_FLOAT_CHARS 24
size_t rsx_format_float(float f, char out[RSX_FLOAT_CHARS]);

/* ------------------------------------------------------------ encoders */
/* The inverse of each decoder, for writers and scripts. */

uint16_t rsx_half_from_float(float f);  /* round to nearest even, overflow
                                           to infinity, NaN kept */
uint32_t rsx_cmp_from_vector(const float v[3]); /* nearest, clamped */
/* The same, nearest to the real v * 32767 / 32 (or / 64) of the doubles,
** with no float32 step between: rsxmesh.to_cmp. */
uint32_t rsx_cmp_from_doubles(const double v[3]);
uint8_t rsx_ub_from_float(float f);     /* nearest of f*255, clamped */
void rsx_put_be16(uint8_t *p, uint16_t v);
void rsx_put_be32(uint8_t *p, uint32_t v);
void rsx_put_f32(uint8_t *p, float f);

/* Encode one attribute value (info->components floats) at p. */
void rsx_encode_value(const rsx_attr_info *info, const float *in,
                      uint8_t *p);

/* Encode n values of one attribute, info->components floats each in
** order, into a stream: value i at p + i * stride. The other bytes of each
** stride are left as they are. */
void rsx_encode_column(const rsx_attr_info *info, const float *in,
                       size_t n, uint8_t *p, size_t stride);

/* --------------------------------------------------------------- meshes */

#define RSX_NONE 0xFFFFFFFFu    /* no material */
#define RSX_BASE_COLOUR_SLOT 0x95591C40u
#define RSX_MASK_OFFSET 0x8C    /* in the metadata record */
#define RSX_SELECTOR_OFFSET 0x38 /* in the submesh record */
#define RSX_META_MIN 0x90
#define RSX_SUBMESH_RECORD_MIN 0x3C

enum rsx_primitive { RSX_TRIANGLES = 0, RSX_STRIP = 1 };

/* Per-mesh findings: they leave the bundle readable; decoding what they
** touch fails. */
enum rsx_finding {
  RSX_FIND_MMP_STRIDE = 1 << 0,     /* stored MMP stride != implied */
  RSX_FIND_MGP_STRIDE = 1 << 1,     /* stored MGP stride != implied */
  RSX_FIND_NO_POSITION = 1 << 2,    /* mask lacks bit 0 */
  RSX_FIND_UNDEFINED_BITS = 1 << 3, /* mask has bits the table lacks */
  RSX_FIND_INDEX_RANGE = 1 << 4,    /* an index >= vertex count */
  RSX_FIND_SELECTOR = 1 << 5        /* a submesh has a selector finding */
};

/* Per-submesh findings. */
enum rsx_submesh_finding {
  RSX_FIND_SELECTOR_BYTE = 1 << 0, /* a byte neither 0..3 nor 0xFF */
  RSX_FIND_SELECTOR_SET = 1 << 1   /* names a stored set the mask lacks */
};

typedef struct rsx_sampler {
  uint32_t slot;       /* hash naming the sampler slot */
  const char *texture; /* path relative to the bundle's folder */
} rsx_sampler;

typedef struct rsx_material {
  const char *name;
  uint32_t first_sampler;       /* into the bundle's sampler table */
  uint32_t sampler_count;
  const rsx_sampler *samplers;  /* sampler_count entries */
} rsx_material;

typedef struct rsx_submesh {
  const uint8_t *record;  /* the game's submesh record, byte for byte */
  uint32_t record_size;   /* >= RSX_SUBMESH_RECORD_MIN */
  uint32_t first_index;   /* into its mesh's index buffer */
  uint32_t index_count;
  uint32_t material;      /* index into the bundle's materials, RSX_NONE */
  uint8_t selector[4];    /* record bytes 0x38..0x3B */
  int uv_set[4];          /* stored set feeding logical UV i, -1 absent */
  unsigned findings;      /* enum rsx_submesh_finding bits */
} rsx_submesh;

/* A view of one mesh. The bytes belong to the bundle, or, for a mesh built
** by rsx_mesh_check from the caller's buffers, to the caller. */
typedef struct rsx_mesh {
  const char *name;
  uint32_t index;          /* its entry in the bundle's mesh table */
  const uint8_t *meta;     /* the game's metadata record */
  uint32_t meta_size;      /* >= RSX_META_MIN */
  uint32_t vertex_count;
  const uint8_t *mmp;      /* vertex_count * mmp_stride bytes */
  uint32_t mmp_stride;     /* as stored */
  const uint8_t *mgp;      /* vertex_count * mgp_stride bytes, or NULL */
  uint32_t mgp_stride;     /* as stored, 0: no MGP */
  const uint8_t *indices;  /* index_count * index_size bytes */
  uint32_t index_count;
  uint8_t index_size;      /* 2 or 4 */
  uint8_t primitive;       /* enum rsx_primitive */
  uint32_t first_submesh;  /* in the bundle's submesh table */
  uint32_t submesh_count;
  rsx_submesh *submeshes;  /* submesh_count entries */
  uint32_t mask;           /* meta + RSX_MASK_OFFSET */
  rsx_format format;       /* what the mask implies */
  unsigned findings;       /* enum rsx_finding bits */
  uint32_t bad_index_count;   /* indices >= vertex_count */
  uint32_t first_bad_index;   /* position of the first, in the buffer */
} rsx_mesh;

/* Check a mesh whose byte views, sizes, counts and submeshes (record,
** record_size, first_index, index_count, material) are filled in and known
** to lie inside their buffers, and derive the rest: mask, format, selectors,
** UV sets, findings. Applies the refusal rules that need no file (record
** sizes, index size, primitive, submesh index ranges, list counts a
** multiple of 3, material below material_count). `where` prefixes messages
** ("CHARLIE.rsxb: mesh 13 (bridge_03)"). The reader and the Lua
** constructor both use it. */
int rsx_mesh_check(rsx_mesh *m, uint32_t material_count, const char *where,
                   rsx_error *err);

/* "mesh 13 (bridge_03)" for index 12: how messages name a mesh; a mesh
** whose index is RSX_NONE (built by the caller, in no table) is
** "mesh (bridge_03)". */
void rsx_mesh_label(const rsx_mesh *m, char *buf, size_t size);

/* Short name of one finding bit ("mmp-stride", "mgp-stride", "no-position",
** "undefined-bits", "index-range", "selector"), NULL for an unknown bit. */
const char *rsx_finding_name(unsigned bit);
const char *rsx_submesh_finding_name(unsigned bit);

/* One line on one finding bit: "MGP stride 20 differs from 16 implied by
** mask 0x0008007d". */
void rsx_finding_describe(const rsx_mesh *m, unsigned bit, char *buf,
                          size_t size);
void rsx_submesh_finding_describe(const rsx_mesh *m, const rsx_submesh *s,
                                  unsigned bit, char *buf, size_t size);

/* Can kind be decoded from this mesh? Fails if the mask lacks it, or a
** finding touches it (a stride mismatch on its stream, undefined bits for
** the MGP, no position for the MMP). */
int rsx_mesh_can_decode(const rsx_mesh *m, int kind, rsx_error *err);

/* Decode kind for vertices first..first+n-1 (0-based) into out,
** components floats per vertex. Checks rsx_mesh_can_decode and the range. */
int rsx_mesh_decode(const rsx_mesh *m, int kind, uint32_t first, uint32_t n,
                    float *out, rsx_error *err);

/* Address of kind's bytes for vertex v (no checks: for hot loops after
** rsx_mesh_can_decode and a range check). */
static inline const uint8_t *rsx_mesh_vertex(const rsx_mesh *m, int kind,
                                             uint32_t v)
{
  const rsx_format *f = &m->format;
  return f->attr[kind]->stream == RSX_MMP
           ? m->mmp + (size_t)v * m->mmp_stride + f->offset[kind]
           : m->mgp + (size_t)v * m->mgp_stride + f->offset[kind];
}

/* Index i (0-based position) of the mesh's index buffer. */
static inline uint32_t rsx_mesh_index(const rsx_mesh *m, uint32_t i)
{
  return m->index_size == 2 ? rsx_be16(m->indices + (size_t)i * 2)
                            : rsx_be32(m->indices + (size_t)i * 4);
}

/* ------------------------------------------------------------ triangles */

/* Upper bound of the triangles in count indices of either primitive. */
size_t rsx_triangle_capacity(uint32_t index_count);

/* The triangles of indices first..first+count-1 of m's buffer: three 0-based
** vertex numbers each into out (room for rsx_triangle_capacity(count)),
** strips restarted at all-ones indices and every second triangle's first
** two vertices swapped, degenerate triangles dropped. Fails on an index not
** below the vertex count, naming it. s names the submesh in messages (may
** be NULL). */
int rsx_triangles(const rsx_mesh *m, const rsx_submesh *s, uint32_t first,
                  uint32_t count, uint32_t *out, size_t *ntriangles,
                  rsx_error *err);

/* The triangles of the whole mesh: those of each submesh in turn, as
** rsx_triangles gives them (a mesh without submeshes: its whole buffer).
** out has room for rsx_mesh_triangle_capacity(m) triangles, which is
** SIZE_MAX when the sum overflows. */
size_t rsx_mesh_triangle_capacity(const rsx_mesh *m);
int rsx_mesh_triangles(const rsx_mesh *m, uint32_t *out, size_t *ntriangles,
                       rsx_error *err);

/* ----------------------------------------------------------- selection */

/* The stored UV set (0..3) feeding logical UV i of s, -1 when absent. */
static inline int rsx_submesh_uv_set(const rsx_submesh *s, int logical)
{
  return (logical >= 0 && logical < 4) ? s->uv_set[logical] : -1;
}

/* --------------------------------------------------------- declaration */

/* One attribute of the RSX vertex declaration. */
typedef struct rsx_decl {
  int reg;              /* attribute register */
  int kind;             /* stored kind feeding it */
  int logical_uv;       /* 0..3 for UV registers, else -1 */
  uint32_t format_method; /* 0x1740 + 4*reg */
  uint32_t format_word;   /* (frequency<<16)|(stride<<8)|(count<<4)|type */
  uint32_t offset_method; /* 0x1680 + 4*reg */
  uint32_t offset_word;   /* offset in its stream */
} rsx_decl;

#define RSX_DECL_MAX 16

/* The declaration of submesh s of m (s NULL: the default selectors),
** ordered by register; returns the entry count. Kinds without a register
** (bits 11 and 12) are not declared. */
int rsx_declaration(const rsx_mesh *m, const rsx_submesh *s,
                    rsx_decl out[RSX_DECL_MAX]);

/* -------------------------------------------------------------- vectors */
/* Bulk maths over one attribute of a mesh (src/vectors.c). Each decodes
** the attribute a run of vertices at a time, and fails, as
** rsx_mesh_decode does, when the attribute cannot be decoded. */

/* The research note's test for a unit vector: a length within this of 1.
** Survey statistics and the glTF exporter's renormalising use it. */
#define RSX_UNIT_TOLERANCE 0.005

/* Below this length a vector has no direction: a CMP vector that is not
** zero is at least 32/32767 long, so only true zeros fall under it. */
#define RSX_TINY_LENGTH 1e-6

/* Per-component bounds of an attribute. NaN has no place in an order: it
** is left out of lo and hi and counted; a component whose every value is
** NaN (or a mesh without vertices) has NaN in both. */
typedef struct rsx_bounds {
  int components;
  int seen[4];          /* the component had a value that is not NaN */
  float lo[4], hi[4];
  uint64_t nans;        /* NaN values, over all components */
  uint64_t non_finite;  /* NaN and infinite values, which glTF forbids */
} rsx_bounds;

int rsx_mesh_bounds(const rsx_mesh *m, int kind, rsx_bounds *out,
                    rsx_error *err);

/* Statistics of the Euclidean lengths of vectors, each sqrt(x*x + y*y +
** z*z) in double from the decoded floats: zero vectors; those of NaN
** length, left out of the rest; off, the others more than tolerance from
** 1; and over the others, min, max and the largest |length - 1|
** (meaningful when seen). */
typedef struct rsx_lengths {
  double tolerance;
  uint64_t zero, off, nans;
  int seen;
  double min, max, deviation;
} rsx_lengths;

/* Adds one vector to t (zeroed, with its tolerance set). */
void rsx_lengths_add(rsx_lengths *t, double x, double y, double z);

/* The lengths of the first three components of kind (3 or more). */
int rsx_mesh_lengths(const rsx_mesh *m, int kind, double tolerance,
                     rsx_lengths *out, rsx_error *err);

/* What rsx_mesh_unit_normals had to fix. */
typedef struct rsx_normal_fixes {
  uint32_t zero;          /* shorter than RSX_TINY_LENGTH: from_faces + up */
  uint32_t from_faces;    /* zero, replaced by their faces' normal */
  uint32_t up;            /* zero in no face with an area: (0, 1, 0) */
  uint32_t renormalised;  /* off unit length by more than the tolerance */
} rsx_normal_fixes;

/* The mesh's normals made unit, 3 doubles per vertex into out: as decoded
** when within RSX_UNIT_TOLERANCE of unit length (or NaN); divided by their
** length when farther; a zero normal replaced by the normalised sum of the
** cross products (b - a) x (c - a) of the triangles around it, over every
** submesh whose triangles can be listed, or by (0, 1, 0) when that sum is
** shorter than RSX_TINY_LENGTH. Zero normals need the positions. */
int rsx_mesh_unit_normals(const rsx_mesh *m, double *out,
                          rsx_normal_fixes *fixes, rsx_error *err);

/* What rsx_tangent_frame could not take as stored. */
enum rsx_tangent_how {
  RSX_TANGENT_ZERO_A = 1,        /* A is zero: T from B x N, or any unit
                                    vector across N */
  RSX_TANGENT_NO_HANDEDNESS = 2  /* B gives no side (zero, or in the plane
                                    of N and A): w is +1 */
};

/* A glTF tangent from normal n and the stored vectors a and b: t[0..2] is
** a normalised, t[3] the handedness w, +1 when b points the way of
** cross(n, t), -1 when dot(cross(n, t), b) <= -RSX_TINY_LENGTH (glTF
** rebuilds the bitangent as cross(N, T.xyz) * w). Returns 0 or an enum
** rsx_tangent_how. */
int rsx_tangent_frame(const double n[3], const double a[3],
                      const double b[3], double t[4]);

typedef struct rsx_tangent_fixes {
  uint32_t zero_a, no_handedness;
} rsx_tangent_fixes;

/* rsx_tangent_frame for every vertex, from normals (3 doubles a vertex,
** as rsx_mesh_unit_normals gives them) and the mesh's tangent_a and
** tangent_b: 4 floats per vertex into out. */
int rsx_mesh_tangent_frames(const rsx_mesh *m, const double *normals,
                            float *out, rsx_tangent_fixes *fixes,
                            rsx_error *err);

/* -------------------------------------------------------------- bundles */

typedef struct rsx_bundle rsx_bundle;

/* The four bytes every bundle starts with. */
#define RSX_BUNDLE_MAGIC "RSXB"

/* 1 when the file at path starts as a bundle does (the magic, then the
** high byte of version 1, which no Lua chunk can start with), 0 when it
** does not or cannot be read: a cheap sniff, not a check. */
int rsx_is_bundle(const char *path);

/* Read and check a file; NULL with err on any refusal. */
rsx_bundle *rsx_bundle_open(const char *path, rsx_error *err);

/* Check a bundle held in memory. name is used in messages. The bytes are
** copied. */
rsx_bundle *rsx_bundle_from_memory(const void *data, size_t size,
                                   const char *name, rsx_error *err);

void rsx_bundle_free(rsx_bundle *b);

const char *rsx_bundle_path(const rsx_bundle *b); /* as given */
const char *rsx_bundle_name(const rsx_bundle *b); /* its base name */
size_t rsx_bundle_size(const rsx_bundle *b);
const uint8_t *rsx_bundle_bytes(const rsx_bundle *b);
/* The string table's bytes (it starts with a NUL) and its size. */
const uint8_t *rsx_bundle_strings(const rsx_bundle *b, size_t *size);

uint32_t rsx_bundle_mesh_count(const rsx_bundle *b);
const rsx_mesh *rsx_bundle_mesh(const rsx_bundle *b, uint32_t i);
uint32_t rsx_bundle_material_count(const rsx_bundle *b);
const rsx_material *rsx_bundle_material(const rsx_bundle *b, uint32_t i);
uint32_t rsx_bundle_submesh_count(const rsx_bundle *b);
uint32_t rsx_bundle_sampler_count(const rsx_bundle *b);

/* The base-colour texture of a material (slot RSX_BASE_COLOUR_SLOT), NULL
** if it has none. */
const char *rsx_material_base_colour(const rsx_material *mat);

/* --------------------------------------------------------------- writer */

typedef struct rsx_writer rsx_writer;

rsx_writer *rsx_writer_new(void);
void rsx_writer_free(rsx_writer *w);

/* Start the string table of an empty writer as a copy of table (size
** bytes, starting with a NUL, such as a bundle's): names and textures it
** holds keep their offsets, so a copy of that bundle comes out byte for
** byte. A table not ended by a NUL gets one. Fails once anything was added
** or on a table that does not start with a NUL. */
int rsx_writer_seed_strings(rsx_writer *w, const uint8_t *table,
                            size_t size, rsx_error *err);

/* Add a material with its samplers; returns its index, or RSX_NONE on
** failure. */
uint32_t rsx_writer_add_material(rsx_writer *w, const char *name,
                                 const rsx_sampler *samplers, uint32_t n,
                                 rsx_error *err);

/* Add a mesh: its name, meta, streams, strides, vertex count, indices,
** index size, primitive and submeshes (record, first_index, index_count,
** material) are written as they are; the rest of m is ignored. The mesh is
** checked by rsx_mesh_check first. The bytes are copied. */
int rsx_writer_add_mesh(rsx_writer *w, const rsx_mesh *m, rsx_error *err);

/* Lay the file out as base is laid out (NULL: as rsxb.md's "Writing"
** says), for a writer that edits base: base's bytes are the file's start,
** its gaps, padding and reserved bytes kept, and the k-th mesh, material
** or sampler added stands for base's k-th. A part that is base's bytes
** stays at base's offset; one that differs goes in its place when it fits
** and no other part shares the place (the rest of it zeroed), else at the
** end, 16-byte aligned; a place no part takes any more is zeroed unless
** shared. Seed the strings from base too (rsx_writer_seed_strings), or
** every name moves. base must stay open until the last output. */
int rsx_writer_keep_layout(rsx_writer *w, const rsx_bundle *base);

/* The whole file, laid out as rsxb.md's "Writing" says or as the base of
** rsx_writer_keep_layout. *out is malloc'd and the caller frees it. */
int rsx_writer_bytes(rsx_writer *w, uint8_t **out, size_t *size,
                     rsx_error *err);
int rsx_writer_save(rsx_writer *w, const char *path, rsx_error *err);

#endif
