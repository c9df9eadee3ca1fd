/*
** fuzz_scan.c - libFuzzer target: the scanner (src/scan.c) on arbitrary
** bytes. Every finding must lie inside the input and every mesh name
** findings that exist, of the kinds it says; and reading the bytes in
** chunks of 4 KiB must find exactly what reading them in 1 MiB does (the
** overlap between chunks loses nothing), and the baseline vectors
** (SSE2) exactly what the widest do (AVX2, where the processor has it),
** every field. A broken promise aborts, so libFuzzer keeps the input.
*/
#include "scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_broken(const char *what)
{
  fprintf(stderr, "fuzz_scan: %s\n", what);
  abort();
}

static void fz_check(const rsx_scan *r, size_t size)
{
  size_t i;
  if (r->size != size) fz_broken("size");
  for (i = 0; i < r->found_count; i++) {
    const rsx_scan_found *f = &r->found[i];
    if (f->offset > size || f->bytes > size - f->offset)
      fz_broken("a finding past the end");
    if (i > 0 && f->offset < r->found[i - 1].offset)
      fz_broken("findings out of order");
    if (rsx_scan_kind_name(f->kind) == NULL) fz_broken("a kind");
    if (f->in_mesh >= 0 && (size_t)f->in_mesh >= r->mesh_count)
      fz_broken("a finding's mesh");
  }
  for (i = 0; i < r->mesh_count; i++) {
    const rsx_scan_mesh *m = &r->meshes[i];
    if (m->mmp < 0 || (size_t)m->mmp >= r->found_count ||
        r->found[m->mmp].kind != RSX_SCAN_MMP)
      fz_broken("a mesh's MMP");
    if (m->mgp >= 0 && ((size_t)m->mgp >= r->found_count ||
                        r->found[m->mgp].kind != RSX_SCAN_MGP))
      fz_broken("a mesh's MGP");
    if (m->meta >= 0 && ((size_t)m->meta >= r->found_count ||
                         r->found[m->meta].kind != RSX_SCAN_META))
      fz_broken("a mesh's record");
    if (m->indices >= 0 && ((size_t)m->indices >= r->found_count ||
                            r->found[m->indices].kind != RSX_SCAN_INDICES))
      fz_broken("a mesh's indices");
    if (!(m->confidence >= 0 && m->confidence <= 1))
      fz_broken("a confidence");
  }
}

/* the same findings and meshes, every field */
static int fz_same(const rsx_scan *a, const rsx_scan *b)
{
  size_t i;
  if (a->found_count != b->found_count || a->mesh_count != b->mesh_count)
    return 0;
  for (i = 0; i < a->found_count; i++) {
    const rsx_scan_found *x = &a->found[i], *y = &b->found[i];
    if (x->kind != y->kind || x->offset != y->offset ||
        x->bytes != y->bytes || x->vertices != y->vertices ||
        x->stride != y->stride || x->mask != y->mask ||
        x->count != y->count || x->size != y->size ||
        x->primitive != y->primitive || x->restarts != y->restarts ||
        x->unit != y->unit || x->zero != y->zero ||
        memcmp(x->lo, y->lo, sizeof x->lo) != 0 ||
        memcmp(x->hi, y->hi, sizeof x->hi) != 0 ||
        memcmp(&x->locality, &y->locality, sizeof x->locality) != 0 ||
        x->in_mesh != y->in_mesh)
      return 0;
  }
  for (i = 0; i < a->mesh_count; i++) {
    const rsx_scan_mesh *x = &a->meshes[i], *y = &b->meshes[i];
    if (x->meta != y->meta || x->mmp != y->mmp || x->mgp != y->mgp ||
        x->indices != y->indices || x->mask != y->mask ||
        x->vertices != y->vertices ||
        memcmp(&x->confidence, &y->confidence, sizeof x->confidence) != 0 ||
        strcmp(x->why, y->why) != 0)
      return 0;
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  rsx_scan_options o;
  rsx_scan whole, chunked;
  rsx_error err;
  size_t i;

  rsx_scan_options_init(&o);
  o.min_vertices = 4;   /* short runs, so that small inputs find some */
  if (rsx_scan_memory(data, size, "fuzz", &o, &whole, &err) != 0)
    fz_broken(err.text);
  fz_check(&whole, size);
  o.chunk = 4096;
  if (rsx_scan_memory(data, size, "fuzz", &o, &chunked, &err) != 0)
    fz_broken(err.text);
  if (chunked.found_count != whole.found_count ||
      chunked.mesh_count != whole.mesh_count)
    fz_broken("chunks of 4 KiB find other things");
  for (i = 0; i < whole.found_count; i++) {
    const rsx_scan_found *a = &whole.found[i], *b = &chunked.found[i];
    if (a->kind != b->kind || a->offset != b->offset ||
        a->bytes != b->bytes || a->vertices != b->vertices ||
        a->count != b->count || a->mask != b->mask)
      fz_broken("chunks of 4 KiB find other things");
  }
  rsx_scan_free(&chunked);
  o.baseline_vectors = 1;
  if (rsx_scan_memory(data, size, "fuzz", &o, &chunked, &err) != 0)
    fz_broken(err.text);
  o.baseline_vectors = 0;
  rsx_scan_free(&whole);
  if (rsx_scan_memory(data, size, "fuzz", &o, &whole, &err) != 0)
    fz_broken(err.text);
  if (!fz_same(&whole, &chunked))
    fz_broken("the baseline vectors find other things than the widest");
  rsx_scan_free(&whole);
  rsx_scan_free(&chunked);
  return 0;
}
