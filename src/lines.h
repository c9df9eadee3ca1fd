/*
** lines.h - text lines of numbers, written by C into a sink: a line per
** vertex ("v x y z", as OBJ's v, vt and vn) and a line per triangle
** ("f 1/1/1 2/2/2 3/3/3", OBJ's faces). The binding's acc:lines and
** s:face_lines check their arguments and call these; no Lua here.
*/
#ifndef RSXMESH_LINES_H
#define RSXMESH_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "rsxmesh.h"

/* Where the lines go. room(ctx, size) gives room for size bytes (the
** emitters ask for at most RSX_SINK_ROOM bytes at a time, or one line
** when a line is longer); keep(ctx, len) keeps the first len of them. A
** sink never fails here: one that writes a file keeps its first error
** for its owner to report once the lines are done. */
#define RSX_SINK_ROOM 32768
typedef struct rsx_sink {
  char *(*room)(void *ctx, size_t size);
  void (*keep)(void *ctx, size_t len);
  void *ctx;
} rsx_sink;

/* ------------------------------------------------------- vertex lines */

/* The texts of floats written before, by their bits, so that a float met
** again skips the float writer (normals and UVs repeat, and so do the
** positions of flat faces): a direct-mapped table, a pure cache of
** rsx_format_float (each text after a space, as the lines have it), which
** its owner may keep from call to call. The bits and lengths apart from
** the texts, so that the lookup reads 20 KiB, which the processor's first
** cache holds, and not a 128 KiB table; an empty slot holds bits that are
** not its own (a float whose hash is another slot's), so that one compare
** finds a hit. */
#define RSX_FLOAT_MEMO_SIZE 4096
#define RSX_FLOAT_MEMO_TEXT 32 /* a text's room: RSX_FLOAT_CHARS + 1, rounded */
typedef struct rsx_float_memo {
  uint32_t bits[RSX_FLOAT_MEMO_SIZE];
  uint8_t len[RSX_FLOAT_MEMO_SIZE];
  char text[RSX_FLOAT_MEMO_SIZE][RSX_FLOAT_MEMO_TEXT];
} rsx_float_memo;

void rsx_float_memo_init(rsx_float_memo *memo);

/* How rsx_vertex_lines writes a vertex: prefix, then the first components
** of kind's decoded values, each as offset[k] + scale[k] * value computed
** in double and written as the float32 nearest (scale and offset NULL:
** the value as decoded), then the first with_components of kind with (-1:
** none) of the same vertex, as decoded; each number after a space (none
** before the first after an empty prefix), in the shortest decimal that
** reads back as the same float32 (rsx_format_float); then "\n". */
typedef struct rsx_vertex_text {
  const char *prefix;
  size_t prefix_len;
  int components;      /* 1..kind's components */
  const double *scale; /* per component, or NULL */
  const double *offset;
  int with;            /* another kind of the mesh, or -1 */
  int with_components; /* 1..with's components */
  rsx_float_memo *memo; /* or NULL: each float written anew */
} rsx_vertex_text;

/* Lines for vertices first..first+count-1 (0-based) of m. Fails as
** rsx_mesh_decode does (before writing anything), or on components out
** of range. */
int rsx_vertex_lines(const rsx_mesh *m, int kind, uint32_t first,
                     uint32_t count, const rsx_vertex_text *how,
                     rsx_sink *sink, rsx_error *err);

/* At least the bytes of count such lines (for a string's first
** reservation), or 0 when that would not fit in a size_t. */
size_t rsx_vertex_lines_size(uint32_t count, const rsx_vertex_text *how);

/* --------------------------------------------------------- face lines */

/* A corner of a face line is its columns joined by "/": a used column is
** the corner's 1-based vertex number plus offset, an unused one is empty
** ("1//3"). The offset is at most RSX_FACE_OFFSET_MAX, so that a u32
** vertex number plus it stays in an int64_t. */
#define RSX_FACE_COLUMNS 16
#define RSX_FACE_OFFSET_MAX (INT64_MAX - ((int64_t)1 << 32))
typedef struct rsx_face_column {
  int used;
  int64_t offset;
} rsx_face_column;

/* How rsx_face_lines writes n triangles of 0-based vertex numbers (three
** each, as rsx_triangles gives them): a line each, prefix, then the three
** corners after a space each (none before the first after an empty
** prefix), then "\n". */
typedef struct rsx_face_text {
  const char *prefix;
  size_t prefix_len;
  const rsx_face_column *columns;
  int ncolumns; /* 1..RSX_FACE_COLUMNS */
} rsx_face_text;

/* What rsx_face_lines needs to know of n triangles before it writes
** them: made by rsx_face_measure, which fails only on a column count or
** an offset out of range. cache_size is the bytes of a scratch space that
** lets rsx_face_lines write each vertex's corner once and copy it for
** every triangle that shares it: 0 when it would not pay (few triangles
** for their vertices), SIZE_MAX when it would not fit in a size_t.
** text_size is at least the bytes of the lines (0: beyond a size_t). */
typedef struct rsx_face_plan {
  uint32_t low;    /* the lowest vertex */
  uint64_t range;  /* the vertices from it to the highest */
  size_t slot;     /* the room of a corner */
  size_t cache_size;
  size_t text_size;
} rsx_face_plan;

int rsx_face_measure(const uint32_t *tri, size_t n,
                     const rsx_face_text *how, rsx_face_plan *plan,
                     rsx_error *err);

/* The lines of the n triangles that plan was made for, with how; cache is
** NULL, or plan->cache_size bytes (any content). */
void rsx_face_lines(const uint32_t *tri, size_t n, const rsx_face_text *how,
                    const rsx_face_plan *plan, void *cache,
                    rsx_sink *sink);

#endif
