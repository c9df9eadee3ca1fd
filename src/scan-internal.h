/*
** scan-internal.h - what the files of the scanner (src/scan*.c) share:
** its limits, the word classes, the layouts, the state of the pass and
** of the scan, and the functions one file calls in another. The files:
**   scan.c          the entry (scan_source_run) and the public functions
**   scan-pass.c     the pass by chunk: word classes (SSE2, AVX2), the
**                   layouts' runs, metadata records, runs of UV words
**   scan-index.c    index buffers: the detectors the pass feeds, and
**                   their runs checked after it (ix_verify)
**   scan-read.c     the input's bytes, in windows after the pass
**   scan-resolve.c  look-alikes resolved, runs split, meshes assembled
**   scan-uv.c       the MGPs of UV sets alone, by the meshes' triangles
*/
#ifndef RSX_SCAN_INTERNAL_H
#define RSX_SCAN_INTERNAL_H

#include "scan.h"

#include <math.h>
#include <string.h>

/* The compiler's vectors (GCC's and clang's extension) where it has them;
** -DRSX_SCAN_PLAIN builds the plain loops that do the same. */
#if defined(__GNUC__) && !defined(RSX_SCAN_PLAIN)
#define SCAN_VECTORS
typedef int32_t scan_i32x4 __attribute__((vector_size(16)));
typedef uint32_t scan_w32x4 __attribute__((vector_size(16)));
typedef uint64_t scan_u64x2 __attribute__((vector_size(16)));
#endif

#if defined(SCAN_VECTORS) && defined(__SSE2__)
#include <emmintrin.h>
#endif

/* AVX2 where the processor has it (scan_state.wide, once per scan): the
** functions built for it (SCAN_TARGET_AVX2) are called only then. */
#if defined(SCAN_VECTORS) && defined(__SSE2__) && defined(__x86_64__) && \
    (defined(__clang__) || __GNUC__ >= 5)
#define SCAN_AVX2
#include <immintrin.h>
#define SCAN_TARGET_AVX2 __attribute__((target("avx2,popcnt")))
#endif

/* ------------------------------------------------------------ limits */

#define SCAN_CHUNK_DEFAULT ((size_t)1 << 20)
#define SCAN_OVERLAP 64          /* >= the longest record (40) */
#define SCAN_BACK 256            /* bytes kept before the next word: what
                                 ** the index detectors look back at */
#define SCAN_SOFT_MAX 3          /* zero normals (or B) in a row a run keeps:
                                 ** more, and zero padding joins two streams */
#define SCAN_AHEAD 24            /* records in a row a run is known by */
#define SCAN_CANDIDATES_MAX 1000000 /* kept candidates: a hostile file full
                                    ** of look-alikes cannot take more */
#define IX_WINDOW 6              /* a value links to one this far back */
#define IX_NEAR 2                /* ... when within this of it */
#define IX_GAP 12                /* values without a link end a buffer */
#define IX_RING 64
#define IX_RECENT 16             /* values whose links are counted */
#define IX_U32_LIMIT 0x01000000u /* u32 indices above this are not */
#define IX_BLOCK 8               /* values whose links are counted at once */
#define IX_WAKE 6                /* ... so many wake a detector up */
#define IX_SLEEP 3               /* ... so few put it to sleep again */
#define IX_BACKUP 16             /* values before a block that wakes it,
                                 ** fed as well (a buffer's start) */

/* the 16 masks of the note's layout table */
static const uint32_t scan_masks[] = {
  0x00080005, 0x00080007, 0x00080025, 0x00080027, 0x0008003d, 0x0008003f,
  0x00080065, 0x00080067, 0x0008007d, 0x000800e5, 0x000800fd, 0x000800ff,
  0x000801e5, 0x000801fd, 0x000801ff, 0x000807fd
};
#define SCAN_MASK_COUNT (sizeof scan_masks / sizeof scan_masks[0])

/* ----------------------------------------------------- word classes */

enum {
  C_F = 1 << 0,   /* a finite float below 2^20 in magnitude */
  C_UZ = 1 << 1,  /* a unit CMP vector, or zero */
  C_Z = 1 << 2,   /* zero */
  C_S = 1 << 3,   /* a CMP vector no longer than unit (zero included) */
  C_H = 1 << 4,   /* two finite half floats within +-1024 */
  C_HW0 = 1 << 5, /* C_H and the second half is +-0 */
  C_U = 1 << 6,   /* a unit CMP vector */
  C_T = 1 << 7    /* two half floats in the UVs' tiling range */
};
#define CLASS_BITS 8
#define CLASS_UZ 1      /* C_UZ's bit */
#define CLASS_Z 2       /* C_Z's bit */
#define CLASS_U 6       /* C_U's bit */
#define CLASS_T 7       /* C_T's bit */

/* --------------------------------------------------------- layouts */

#define MAX_WORDS 10

/* One layout to look for: its record as the classes each word needs. */
typedef struct scan_layout {
  int kind;                  /* RSX_SCAN_MMP or RSX_SCAN_MGP */
  uint32_t mask;             /* MGP: the mask */
  unsigned words;            /* stride / 4 */
  unsigned char need[MAX_WORDS]; /* classes every word must have */
  int soft;                  /* the normal or B: a record is hard when it
                             ** is unit, soft when it is zero */
  unsigned nterms;           /* what a record that begins a run needs, as */
  unsigned char term_word[MAX_WORDS * 8], term_class[MAX_WORDS * 8];
                             /* words and class bits, the unit one first */
} scan_layout;

typedef struct scan_run {
  int active;
  uint64_t start, end;       /* end: after the last hard record */
  uint32_t hard, soft_in, soft_pending;
  float lo[3], hi[3], plo[3], phi[3];
} scan_run;

typedef struct scan_detector {
  scan_layout lay;
  scan_run *runs;            /* one per phase */
  unsigned active;           /* runs under way */
  unsigned active_phases;    /* a bit per phase whose run is under way */
  uint64_t *pattern;         /* per set of phases (bit p: phase p), the
                             ** bits j of 64 whose j % words is in it */
  unsigned char phase_of[64 + MAX_WORDS]; /* j % words */
} scan_detector;

/* ------------------------------------------------------ index buffers */

typedef struct scan_ixrun {
  int size;                  /* 2 or 4 */
  int active;
  uint64_t first_off;        /* offset of value 0 */
  uint64_t k;                /* values seen */
  uint32_t ring[IX_RING];
  int64_t first_linked, last_linked;
  uint32_t maxc;             /* over first_linked..last_linked */
  uint32_t recent;           /* a bit per recent value: did it link? */
  int recent_links;          /* the bits of recent set */
  uint64_t links, restarts, steps;          /* running totals */
  uint64_t links0, restarts0, steps0;       /* at the first link */
  uint64_t links1, restarts1, steps1;       /* at the last link */
  int awake;                 /* values are fed to ix_value */
  int sparse;                /* blocks in a row with few links */
  uint64_t next;             /* offset of the next block to look at */
  uint64_t fed_end;          /* after the last value fed */
} scan_ixrun;

/* ---------------------------------------------------------- the scan */

/* The reads after the pass are many and small (records, a stream's ends,
** an index run's head and tail), mostly near the one before: they are
** served from a few windows of the file read at once (src_window), which
** saves a system call each. */
#define SRC_WINDOW 16384
#define SRC_WINDOWS 2

typedef struct scan_source {
  const char *name;
  int fd;
  const uint8_t *mem;
  uint64_t size;
  uint8_t *window;                  /* SRC_WINDOWS of SRC_WINDOW bytes */
  uint64_t window_at[SRC_WINDOWS];  /* offset of each window's bytes */
  size_t window_len[SRC_WINDOWS];   /* their count, 0: empty */
  uint64_t window_used[SRC_WINDOWS], window_clock; /* when last read */
  int windowed;                     /* after the pass */
} scan_source;

typedef struct scan_span {
  uint64_t start, end;
} scan_span;

/* Runs of words of a kind (scan_tiles), in file order */
typedef struct scan_tiling {
  scan_span *runs;
  size_t n, cap;
  int in_run;
  uint64_t start;            /* of the run under way */
  uint64_t min_words;        /* shorter runs are not kept */
} scan_tiling;

typedef struct scan_state {
  const rsx_scan_options *opt;
  scan_source *src;
  rsx_error *err;
  int layout_count;
  scan_detector det[SCAN_MASK_COUNT + 1];
  scan_ixrun ix16, ix32;
  rsx_scan_found *cand;      /* candidates for the findings */
  size_t ncand, capcand;
  uint64_t dropped;
  int nomem;
  scan_tiling tiles;         /* runs of C_T words (scan_find_uv) */
  scan_tiling gapped;        /* of C_T words and lone words between them:
                             ** an MGP of colour and UV sets */
  uint64_t uv_budget;        /* starts uv_search may still try */
  int wide;                  /* the AVX2 paths (SCAN_AVX2) */
} scan_state;

#define UV_BUDGET 65536 /* starts uv_search may try per scan (scan-uv.c) */

/* ------------------------------------------ small helpers they share */

/* the lowest bit set of b, not 0 */
static inline int scan_ctz64(uint64_t b)
{
#if defined(__GNUC__)
  return __builtin_ctzll(b);
#else
  int j;
  for (j = 0; !(b >> j & 1); j++) ;
  return j;
#endif
}

/* rsx_f32, here where every record of a run takes three */
static inline float scan_f32(const uint8_t *p)
{
  uint32_t bits = rsx_be32(p);
  float v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

static inline void bounds_add(float lo[3], float hi[3], const uint8_t *p)
{
  int i;
  for (i = 0; i < 3; i++) {
    float v = scan_f32(p + 4 * i);
    if (v < lo[i]) lo[i] = v;
    if (v > hi[i]) hi[i] = v;
  }
}

static inline void bounds_reset(float lo[3], float hi[3])
{
  int i;
  for (i = 0; i < 3; i++) {
    lo[i] = INFINITY;
    hi[i] = -INFINITY;
  }
}

/* -------------------------------------------- from file to file */

/* Hidden from outside the library (ELF): calls within a file may be
** inlined as they were when the functions were static. */
#if defined(__GNUC__) && !defined(_WIN32)
#pragma GCC visibility push(hidden)
#endif

/* scan-pass.c */
void scan_init_limits(void);
unsigned scan_classify(uint32_t w);
#ifdef SCAN_AVX2
int scan_has_avx2(void);
#endif
int scan_make_layouts(scan_layout *out);
void *scan_room(scan_state *s, void *array, size_t *cap, size_t n,
                size_t elem);
void scan_add(scan_state *s, const rsx_scan_found *f);
int scan_stopped(scan_state *s, uint64_t at);
int scan_pass(scan_state *s);
void scan_flush(scan_state *s);

/* scan-index.c */
void ix_close(scan_state *s, scan_ixrun *x);
void ix_range(scan_state *s, scan_ixrun *x, const void *values,
              uint64_t base, size_t have, int last, uint16_t *links);
int ix_verify(scan_state *s, rsx_scan_found *f);

/* scan-read.c */
int src_read(scan_source *src, uint64_t off, uint8_t *buf, size_t n,
             rsx_error *err);

/* scan-resolve.c */
int found_order(const void *a, const void *b);
void scan_resolve(scan_state *s, unsigned char *drop);
int scan_split(scan_state *s, unsigned char **dropp);
void scan_assemble(scan_state *s, rsx_scan *out,
                   const unsigned char *drop);

/* scan-uv.c */
void scan_find_uv(scan_state *s, rsx_scan_mesh *meshes, size_t nm);

#if defined(__GNUC__) && !defined(_WIN32)
#pragma GCC visibility pop
#endif

#endif
