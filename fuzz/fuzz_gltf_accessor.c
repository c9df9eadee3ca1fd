/*
** fuzz_gltf_accessor.c - libFuzzer target: a glTF accessor's bytes
** (src/gltf_accessor.c) on arbitrary arguments and bytes. The input's
** first 12 bytes are the accessor (element size, stride, count, offset,
** componentType, normalized, sparse count and index type), the rest its
** buffer view, sparse indices and sparse values, each copied into a block
** of its own size so that ASan sees a read past any of them. What was
** gathered must be what a plain loop reads, sparse values in place; what
** was refused must be so for a reason a plain loop finds; every
** normalized number lies in -1..1. A broken promise aborts, so libFuzzer
** keeps the input.
*/
#include "gltf_accessor.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_broken(const char *what)
{
  fprintf(stderr, "fuzz_gltf_accessor: %s\n", what);
  abort();
}

static const long ctypes[] = {RSX_GLTF_BYTE, RSX_GLTF_UNSIGNED_BYTE,
                              RSX_GLTF_SHORT, RSX_GLTF_UNSIGNED_SHORT,
                              RSX_GLTF_UNSIGNED_INT, RSX_GLTF_FLOAT, 5124};
static const long index_types[] = {RSX_GLTF_UNSIGNED_BYTE,
                                   RSX_GLTF_UNSIGNED_SHORT,
                                   RSX_GLTF_UNSIGNED_INT, RSX_GLTF_SHORT};

static unsigned char *copy(const uint8_t *p, size_t n)
{
  unsigned char *c = malloc(n ? n : 1);
  if (c == NULL) abort();
  if (n) memcpy(c, p, n);
  return c;
}

static size_t le_index(const unsigned char *p, size_t isize)
{
  return isize == 1 ? p[0]
         : isize == 2 ? (size_t)p[0] | (size_t)p[1] << 8
                      : (size_t)p[0] | (size_t)p[1] << 8 |
                          (size_t)p[2] << 16 | (size_t)p[3] << 24;
}

/* Whether the sparse part is one a plain loop accepts. */
static int sparse_good(const rsx_gltf_sparse *sp, size_t esize, size_t count)
{
  size_t isize = sp->index_ctype == RSX_GLTF_SHORT
                   ? 0 : rsx_gltf_component_size(sp->index_ctype);
  size_t e, last = 0;
  if (isize == 0 || sp->count == 0 || sp->count > count) return 0;
  if (sp->indices_len < sp->count * isize) return 0;
  if (sp->values_len < sp->count * esize) return 0;
  for (e = 0; e < sp->count; e++) {
    size_t k = le_index(sp->indices + e * isize, isize);
    if ((e > 0 && k <= last) || k >= count) return 0;
    last = k;
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  size_t esize, stride, count, offset, rest, vlen, ilen, valen, e;
  long ctype;
  int normalized, with_sparse, fits, got;
  rsx_gltf_sparse sp;
  unsigned char *view, *indices, *values, *out;
  double *numbers;
  rsx_error err;

  if (size < 12) return 0;
  esize = (size_t)data[0] % 64 + 1;
  stride = esize + data[1];
  if (data[1] == 0xFF) stride = (size_t)1 << 62; /* hostile */
  count = (size_t)data[2] | (size_t)data[3] << 8;
  if (data[4] & 0x80) count = (size_t)1 << 61 | count; /* hostile */
  offset = (size_t)data[5] | (size_t)(data[4] & 0x7F) << 8;
  ctype = ctypes[data[6] % 7];
  normalized = (data[6] >> 3) & 1;
  with_sparse = (data[6] >> 4) & 1;
  sp.count = data[7];
  sp.index_ctype = index_types[data[8] % 4];
  rest = size - 12;
  vlen = ((size_t)data[9] | (size_t)data[10] << 8) % (rest + 1);
  ilen = (size_t)data[11] % (rest - vlen + 1);
  valen = rest - vlen - ilen;
  view = copy(data + 12, vlen);
  indices = copy(data + 12 + vlen, ilen);
  values = copy(data + 12 + vlen + ilen, valen);
  sp.indices = indices;
  sp.indices_len = ilen;
  sp.values = values;
  sp.values_len = valen;

  fits = rsx_gltf_fits(vlen, offset, stride, esize, count, &err) == 0;
  if (fits != (count == 0 || (offset <= vlen && vlen - offset >= esize &&
                              (count - 1) <= (vlen - offset - esize) / stride)))
    fz_broken("rsx_gltf_fits against a plain check");
  if (fits) {
    /* the bytes hold count elements: count * esize is at most vlen */
    if (count > vlen) fz_broken("a count beyond the bytes fitted");
    out = malloc(count * esize ? count * esize : 1);
    if (out == NULL) abort();
    got = rsx_gltf_gather(view, vlen, offset, stride, esize, count,
                          with_sparse ? &sp : NULL, out, &err) == 0;
    if (got != (!with_sparse || sparse_good(&sp, esize, count)))
      fz_broken("a gather's answer against a plain check");
    if (got) {
      size_t next = 0, isize = rsx_gltf_component_size(sp.index_ctype);
      for (e = 0; e < count; e++) {
        const unsigned char *want = view + offset + e * stride;
        if (with_sparse && next < sp.count &&
            le_index(indices + next * isize, isize) == e)
          want = values + next++ * esize;
        if (memcmp(out + e * esize, want, esize) != 0)
          fz_broken("an element not where a plain loop finds it");
      }
      if (rsx_gltf_component_size(ctype) != 0 &&
          count * esize % rsx_gltf_component_size(ctype) == 0) {
        size_t n = count * esize / rsx_gltf_component_size(ctype);
        numbers = malloc((n ? n : 1) * sizeof *numbers);
        if (numbers == NULL) abort();
        if (rsx_gltf_decode(out, count * esize, ctype, normalized, numbers,
                            &err) != 0)
          fz_broken("whole components refused");
        if (normalized && ctype != RSX_GLTF_FLOAT &&
            ctype != RSX_GLTF_UNSIGNED_INT)
          for (e = 0; e < n; e++)
            if (!(numbers[e] >= -1.0 && numbers[e] <= 1.0))
              fz_broken("a normalized number outside -1..1");
        free(numbers);
      } else if (rsx_gltf_decode(out, count * esize, ctype, normalized,
                                 NULL, &err) == 0) {
        fz_broken("a bad componentType or a part component decoded");
      }
    }
    free(out);
  }
  free(view);
  free(indices);
  free(values);
  return 0;
}
