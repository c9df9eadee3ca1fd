/*
** fuzz_scan.c - libFuzzer target: the scanner (src/scan.c) on arbitrary
** bytes. Every finding must lie inside the input and every mesh name
** findings that exist, of the kinds it says; and reading the bytes in
** chunks of 4 KiB must find exactly what reading them in 1 MiB does (the
** overlap between chunks loses nothing). A broken promise aborts, so
** libFuzzer keeps the input.
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
  rsx_scan_free(&whole);
  rsx_scan_free(&chunked);
  return 0;
}
