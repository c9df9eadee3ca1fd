/*
** scan.h - finding mesh streams, index buffers and metadata records in a
** file of unknown layout (src/scan*.c), by the research note's signatures.
**
** The file is read in chunks with an overlap, so memory does not grow with
** its size: only the findings do. Offsets are 0-based from the file's
** start. Everything is looked for at offsets that are multiples of 4 (the
** RSX fetches vertex arrays from aligned addresses); u16 index buffers at
** multiples of 2.
*/
#ifndef RSX_SCAN_H
#define RSX_SCAN_H

#include "rsxmesh.h"

enum rsx_scan_kind {
  RSX_SCAN_MMP = 0,
  RSX_SCAN_MGP = 1,
  RSX_SCAN_INDICES = 2,
  RSX_SCAN_META = 3
};

/* One run of records, one index buffer or one metadata record. */
typedef struct rsx_scan_found {
  int kind;              /* enum rsx_scan_kind */
  uint64_t offset;       /* of the first byte */
  uint64_t bytes;        /* its extent */
  uint32_t vertices;     /* mmp, mgp: records; indices: max index + 1 */
  uint32_t stride;       /* mmp 16, mgp the mask's */
  uint32_t mask;         /* mgp (the layout that fits), meta */
  uint32_t count;        /* indices: values, restarts included */
  uint32_t size;         /* indices: 2 or 4 */
  int primitive;         /* indices: enum rsx_primitive */
  uint32_t restarts;     /* indices: all-ones values */
  uint32_t unit;         /* mmp: unit normals; mgp: unit B vectors */
  uint32_t zero;         /* mmp: zero normals; mgp: zero B vectors */
  float lo[3], hi[3];    /* mmp: bounds of the positions */
  double locality;       /* indices: share of values near a recent one */
  int in_mesh;           /* assembled into a mesh (0-based), or -1 */
} rsx_scan_found;

/* A mesh assembled from findings: indices into rsx_scan.found, -1 when
** that part is missing. */
typedef struct rsx_scan_mesh {
  long meta, mmp, mgp, indices;
  uint32_t mask;         /* the meta's, else what the streams imply */
  uint32_t vertices;
  double confidence;     /* 0..1 */
  char why[160];         /* the evidence, for people */
} rsx_scan_mesh;

typedef struct rsx_scan_options {
  uint32_t min_vertices; /* shorter runs are not reported (default 24) */
  size_t chunk;          /* bytes read at a time, 0: 1 MiB */
  /* asked before each chunk and before the findings are put together
  ** (Control-C): nonzero stops the scan, which fails with
  ** RSX_SCAN_STOPPED. NULL: the scan runs to the end. */
  int (*stop)(void *ud);
  void *stop_ud;
  /* nonzero: the baseline vector code (SSE2 on x86) even where the
  ** processor has wider vectors (AVX2), which find exactly the same; for
  ** the tests that compare the two. 0: the widest there is. */
  int baseline_vectors;
  /* the starts the UV search may try in the whole input (scan-uv.c): a
  ** search cut short by them reports nothing; 0: 65,536 */
  uint64_t uv_tries;
} rsx_scan_options;

/* What rsx_scan_file and rsx_scan_memory return when options' stop did. */
#define RSX_SCAN_STOPPED (-2)

typedef struct rsx_scan {
  uint64_t size;                /* of the input */
  size_t found_count;
  rsx_scan_found *found;        /* in offset order */
  size_t mesh_count;
  rsx_scan_mesh *meshes;
  size_t buffer_bytes;          /* the read buffer used, for the record */
  uint64_t dropped;             /* candidates over the cap, not kept */
} rsx_scan;

void rsx_scan_options_init(rsx_scan_options *o);

/* Scan a file, or bytes in memory (name in messages). 0 and out filled
** (it owns its arrays: rsx_scan_free), or -1 (or RSX_SCAN_STOPPED) with
** err set and out left empty. */
int rsx_scan_file(const char *path, const rsx_scan_options *o,
                  rsx_scan *out, rsx_error *err);
int rsx_scan_memory(const void *data, size_t size, const char *name,
                    const rsx_scan_options *o, rsx_scan *out,
                    rsx_error *err);
void rsx_scan_free(rsx_scan *s);

/* "mmp", "mgp", "indices", "meta" */
const char *rsx_scan_kind_name(int kind);

/* Read size bytes at offset of a scanned input again (for extraction):
** the file at path. 0, or -1 with err naming the file and the offset. */
int rsx_scan_read(const char *path, uint64_t offset, void *buf,
                  size_t size, rsx_error *err);

#endif
