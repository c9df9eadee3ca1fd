/*
** fuzz_tangent.c - libFuzzer target: the glTF import's tangent frames
** (src/tangent.c) on arbitrary numbers and triangles. The input's first
** byte is the vertex count (0..63), the second the triangle count
** (0..63); then the triangles' vertex numbers, a byte each (any byte: a
** number past the count must be refused); then the doubles of positions,
** normals, UVs and a TANGENT, 8 bytes each (any bits: NaN, infinities,
** subnormals), short input padded with zeros. Each array is a block of
** its own size, so that ASan sees a read past it. rsx_tangent_compute
** must refuse exactly the triangles a plain loop finds out of range, and
** otherwise give every vertex a finite unit T and w = +1 or -1;
** rsx_tangent_frames must stop at the first vertex a plain loop finds not
** finite. A broken promise aborts, so libFuzzer keeps the input.
*/
#include "tangent.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_broken(const char *what)
{
  fprintf(stderr, "fuzz_tangent: %s\n", what);
  abort();
}

/* n doubles from the input at *at (zeros past its end), in a new block. */
static double *take(const uint8_t *data, size_t size, size_t *at, size_t n)
{
  double *d = malloc(n ? n * sizeof *d : 1);
  size_t i;
  if (d == NULL) abort();
  for (i = 0; i < n; i++) {
    unsigned char b[8] = {0};
    size_t k;
    for (k = 0; k < 8; k++, (*at)++)
      if (*at < size) b[k] = data[*at];
    memcpy(d + i, b, 8);
  }
  return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  size_t nv, ntri, at = 2, i, bad, first_bad;
  uint32_t *tri;
  double *pos, *nrm, *uv, *tan, *out, *a, *b;
  unsigned char *how;
  int out_of_range = 0, rc;
  rsx_error err;

  if (size < 2) return 0;
  nv = data[0] % 64;
  ntri = data[1] % 64;
  tri = malloc(ntri ? 3 * ntri * sizeof *tri : 1);
  if (tri == NULL) abort();
  for (i = 0; i < 3 * ntri; i++, at++) {
    tri[i] = at < size ? data[at] : 0;
    if (tri[i] >= nv) out_of_range = 1;
  }
  pos = take(data, size, &at, 3 * nv);
  nrm = take(data, size, &at, 3 * nv);
  uv = take(data, size, &at, 2 * nv);
  tan = take(data, size, &at, 4 * nv);
  out = malloc(nv ? 4 * nv * sizeof *out : 1);
  a = malloc(nv ? 3 * nv * sizeof *a : 1);
  b = malloc(nv ? 3 * nv * sizeof *b : 1);
  how = malloc(nv ? nv : 1);
  if (out == NULL || a == NULL || b == NULL || how == NULL) abort();

  rc = rsx_tangent_compute(pos, nrm, uv, nv, tri, ntri, out, how, &err);
  if ((rc != 0) != out_of_range)
    fz_broken(rc != 0 ? "refused triangles in range"
                      : "took a vertex number past the count");
  for (i = 0; rc == 0 && i < nv; i++) {
    const double *t = out + 4 * i;
    double len = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
    if (!isfinite(t[0]) || !isfinite(t[1]) || !isfinite(t[2]))
      fz_broken("a T not finite");
    if (fabs(len - 1.0) > 1e-9) fz_broken("a T not unit");
    if (t[3] != 1.0 && t[3] != -1.0) fz_broken("a w not +1 or -1");
    if (how[i] != RSX_TANGENT_FROM_UVS && how[i] != RSX_TANGENT_ACROSS_N)
      fz_broken("a vertex's source not said");
    if (how[i] == RSX_TANGENT_ACROSS_N && t[3] != 1.0)
      fz_broken("a direction across N with w = -1");
  }

  first_bad = nv;
  for (i = 0; i < nv && first_bad == nv; i++) {
    size_t k;
    for (k = 0; k < 4; k++)
      if (!isfinite(tan[4 * i + k])) first_bad = i;
    for (k = 0; k < 3; k++)
      if (!isfinite(nrm[3 * i + k])) first_bad = i;
  }
  bad = rsx_tangent_frames(tan, nrm, nv, data[0] & 64 ? -1.0 : 1.0, a, b);
  if (bad != first_bad) fz_broken("stopped at another vertex");

  free(tri), free(pos), free(nrm), free(uv), free(tan);
  free(out), free(a), free(b), free(how);
  return 0;
}
