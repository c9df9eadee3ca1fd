/*
** scan.c - finding MMP and MGP streams, index buffers and metadata records
** in a file of unknown layout, by the research note's signatures, and
** assembling meshes from them.
**
** One pass reads the file a chunk at a time (the last bytes of a chunk are
** kept for the records that straddle the next) and classifies every 4-byte
** word once: a float in a position's range, a unit or shorter CMP vector,
** a pair of half floats in the UVs' range (and in the tiling range), zero.
** Each layout (the MMP, the MGP of each mask with tangent frames) keeps
** one run per phase of its stride: a run grows by records that pass,
** tolerates a few whose normal (or B) is zero, and ends at one that fails;
** records are looked at only where a run could begin (a bitmap per class)
** or goes on. Index buffers are followed as a sequence of u16 and one of
** u32 values: real ones keep coming back to vertices met a few values
** before, random small numbers do not; blocks of 8 values with few such
** links are passed over. The layout rules are the format table's
** (rsx_format_init); the unit test is RSX_UNIT_TOLERANCE.
**
** Where the processor has AVX2 (asked once per scan), the bulk work of
** the pass (the swap and classes, the layouts' bitmaps, the index blocks'
** links) and of ix_verify takes it; the SSE2 or plain code finds exactly
** the same (rsx_scan_options.baseline_vectors, t/scan-paths.lua,
** fuzz_scan).
**
** After the pass (bounded by the findings, not the file; its many small
** reads served from windows of the file, src_window): look-alikes
** resolved (scan_resolve), index runs trimmed to their dense ends
** (ix_verify), runs of streams back to back cut by the records' counts
** (scan_split), meshes assembled and strays cut off (scan_assemble), and
** the MGPs of UV sets alone looked for by the meshes' triangles
** (scan_find_uv).
**
** The files: this one, the entry (scan_source_run) and the public
** functions; the others as src/scan-internal.h lists them.
*/
#define _POSIX_C_SOURCE 200809L /* pread */

#include "scan-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int scan_source_run(scan_source *src, const rsx_scan_options *o,
                           rsx_scan *out, rsx_error *err)
{
  scan_state s;
  scan_layout lays[SCAN_MASK_COUNT + 1];
  rsx_scan_options defaults;
  unsigned char *drop = NULL;
  int i, rc = 0;

  memset(out, 0, sizeof *out);
  if (o == NULL) {
    rsx_scan_options_init(&defaults);
    o = &defaults;
  }
  scan_init_limits();
  memset(&s, 0, sizeof s);
  s.opt = o;
  s.src = src;
  s.err = err;
  s.layout_count = scan_make_layouts(lays);
  for (i = 0; i < s.layout_count; i++) {
    scan_layout *l = &lays[i];
    unsigned j, c;
    l->term_word[0] = (unsigned char)l->soft;
    l->term_class[0] = CLASS_U;
    l->nterms = 1;
    for (j = 0; j < l->words; j++)
      for (c = 0; c < CLASS_BITS; c++)
        if ((l->need[j] >> c & 1) && (int)j != l->soft) {
          l->term_word[l->nterms] = (unsigned char)j;
          l->term_class[l->nterms++] = (unsigned char)c;
        }
  }
  for (i = 0; i < s.layout_count; i++) {
    unsigned j;
    s.det[i].lay = lays[i];
    s.det[i].pattern = calloc((size_t)1 << lays[i].words, sizeof(uint64_t));
    if (s.det[i].pattern == NULL) rc = -1;
    else {
      unsigned m;
      for (m = 0; m < 1u << lays[i].words; m++)
        for (j = 0; j < 64; j++)
          if (m & (1u << (j % lays[i].words)))
            s.det[i].pattern[m] |= (uint64_t)1 << j;
    }
    for (j = 0; j < 64 + MAX_WORDS; j++)
      s.det[i].phase_of[j] = (unsigned char)(j % lays[i].words);
    s.det[i].runs = calloc(lays[i].words, sizeof(scan_run));
    if (s.det[i].runs == NULL) rc = -1;
  }
  s.uv_budget = o->uv_tries ? o->uv_tries : UV_BUDGET;
  /* an MGP of UV sets is a word a record at least; of colour and UV
  ** sets two, its first colour word maybe outside the run (scan-uv.c) */
  s.tiles.min_words = o->min_vertices;
  s.gapped.min_words = o->min_vertices ? 2 * (uint64_t)o->min_vertices - 1
                                       : 0;
#ifdef SCAN_AVX2
  s.wide = !o->baseline_vectors && scan_has_avx2();
#endif
  s.ix16.size = 2;
  s.ix32.size = 4;
  s.ix16.first_linked = s.ix32.first_linked = -1;
  if (rc != 0) {
    rc = rsx_fail(err, "%s: out of memory", src->name);
    goto done;
  }
  out->size = src->size;
  out->buffer_bytes = (o->chunk ? o->chunk : SCAN_CHUNK_DEFAULT) +
                      SCAN_OVERLAP;
  rc = scan_pass(&s);
  src->windowed = 1;
  if (rc == 0 && scan_stopped(&s, src->size)) rc = RSX_SCAN_STOPPED;
  if (rc != 0) goto done;
  scan_flush(&s);
  if (s.ncand > 1) qsort(s.cand, s.ncand, sizeof *s.cand, found_order);
  drop = calloc(s.ncand + 1, 1);
  if (drop == NULL) {
    rc = rsx_fail(err, "%s: out of memory", src->name);
    goto done;
  }
  scan_resolve(&s, drop);
  if (scan_split(&s, &drop) != 0) s.nomem = 1;
  else scan_assemble(&s, out, drop);
  if (s.nomem) {
    rsx_scan_free(out);
    rc = rsx_fail(err, "%s: out of memory for the findings", src->name);
  }
  out->dropped = s.dropped;
done:
  for (i = 0; i < s.layout_count; i++) {
    free(s.det[i].runs);
    free(s.det[i].pattern);
  }
  free(s.cand);
  free(s.tiles.runs);
  free(s.gapped.runs);
  free(drop);
  return rc;
}

/* ------------------------------------------------------------ public */

void rsx_scan_options_init(rsx_scan_options *o)
{
  o->min_vertices = 24;
  o->chunk = 0;
  o->stop = NULL;
  o->stop_ud = NULL;
  o->baseline_vectors = 0;
  o->uv_tries = 0;
}

const char *rsx_scan_kind_name(int kind)
{
  switch (kind) {
  case RSX_SCAN_MMP: return "mmp";
  case RSX_SCAN_MGP: return "mgp";
  case RSX_SCAN_INDICES: return "indices";
  case RSX_SCAN_META: return "meta";
  default: return NULL;
  }
}

static int scan_open(const char *path, int *fd, uint64_t *size,
                     rsx_error *err)
{
  struct stat st;
  *fd = open(path, O_RDONLY);
  if (*fd < 0) return rsx_fail(err, "%s: %s", path, strerror(errno));
  if (fstat(*fd, &st) != 0) {
    int e = errno;
    close(*fd);
    return rsx_fail(err, "%s: %s", path, strerror(e));
  }
  if (S_ISDIR(st.st_mode)) {
    close(*fd);
    return rsx_fail(err, "%s: is a directory", path);
  }
  if (!S_ISREG(st.st_mode) || st.st_size < 0) {
    close(*fd);
    return rsx_fail(err, "%s: not a regular file", path);
  }
  *size = (uint64_t)st.st_size;
  return 0;
}

int rsx_scan_file(const char *path, const rsx_scan_options *o,
                  rsx_scan *out, rsx_error *err)
{
  scan_source src;
  int rc;
  memset(out, 0, sizeof *out);
  memset(&src, 0, sizeof src);
  src.name = path;
  if (scan_open(path, &src.fd, &src.size, err) != 0) return -1;
  rc = scan_source_run(&src, o, out, err);
  close(src.fd);
  free(src.window);
  return rc;
}

int rsx_scan_memory(const void *data, size_t size, const char *name,
                    const rsx_scan_options *o, rsx_scan *out,
                    rsx_error *err)
{
  scan_source src;
  static const uint8_t empty[1] = {0};
  memset(&src, 0, sizeof src);
  src.name = name ? name : "(memory)";
  src.fd = -1;
  src.mem = data ? data : empty;
  src.size = data ? size : 0;
  return scan_source_run(&src, o, out, err);
}

void rsx_scan_free(rsx_scan *s)
{
  if (s == NULL) return;
  free(s->found);
  free(s->meshes);
  s->found = NULL;
  s->meshes = NULL;
  s->found_count = s->mesh_count = 0;
}

int rsx_scan_read(const char *path, uint64_t offset, void *buf,
                  size_t size, rsx_error *err)
{
  scan_source src;
  int rc;
  memset(&src, 0, sizeof src);
  src.name = path;
  if (scan_open(path, &src.fd, &src.size, err) != 0) return -1;
  rc = src_read(&src, offset, buf, size, err);
  close(src.fd);
  return rc;
}
