/*
** gltf_accessor.c - the bytes of a glTF 2.0 accessor (gltf_accessor.h):
** gathered from a buffer view, sparse values put in place, components
** read as numbers. glTF's bytes are little-endian whatever the host.
*/
#include "gltf_accessor.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

size_t rsx_gltf_component_size(long ctype)
{
  switch (ctype) {
  case RSX_GLTF_BYTE: case RSX_GLTF_UNSIGNED_BYTE: return 1;
  case RSX_GLTF_SHORT: case RSX_GLTF_UNSIGNED_SHORT: return 2;
  case RSX_GLTF_UNSIGNED_INT: case RSX_GLTF_FLOAT: return 4;
  default: return 0;
  }
}

static uint32_t le16(const unsigned char *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

int rsx_gltf_fits(size_t len, size_t offset, size_t stride, size_t size,
                  size_t count, rsx_error *err)
{
  if (size == 0 || stride < size)
    return rsx_fail(err, "byteStride %zu is less than the element's %zu"
                    " bytes", stride, size);
  if (count == 0) return 0;
  /* count - 1 strides and an element from offset, compared so that no
  ** sum or product can wrap: a hostile count is 2^62 */
  if (offset > len || len - offset < size ||
      count - 1 > (len - offset - size) / stride)
    return rsx_fail(err, "count %zu: elements of %zu bytes, byteStride %zu,"
                    " from byteOffset %zu run past the end of its %zu"
                    " bytes", count, size, stride, offset, len);
  return 0;
}

/* Put sparse's values in place in out (count elements of size bytes). */
static int put_sparse(const rsx_gltf_sparse *sp, size_t size, size_t count,
                      unsigned char *out, rsx_error *err)
{
  size_t isize = 0, e;
  uint32_t k, last = 0;
  if (sp->index_ctype == RSX_GLTF_UNSIGNED_BYTE ||
      sp->index_ctype == RSX_GLTF_UNSIGNED_SHORT ||
      sp->index_ctype == RSX_GLTF_UNSIGNED_INT)
    isize = rsx_gltf_component_size(sp->index_ctype);
  if (isize == 0)
    return rsx_fail(err, "sparse indices of componentType %ld",
                    sp->index_ctype);
  if (sp->count == 0 || sp->count > count)
    return rsx_fail(err, "a bad sparse accessor (its count, indices or"
                    " values)");
  if (sp->count > sp->indices_len / isize)
    return rsx_fail(err, "sparse indices run past their buffer view");
  if (sp->count > sp->values_len / size)
    return rsx_fail(err, "sparse values run past their buffer view");
  for (e = 0; e < sp->count; e++) {
    const unsigned char *p = sp->indices + e * isize;
    k = isize == 1 ? p[0] : isize == 2 ? le16(p) : le32(p);
    if ((e > 0 && k <= last) || (size_t)k >= count)
      return rsx_fail(err, "sparse index %zu is %lu: indices must increase"
                      " and stay below the count %zu", e, (unsigned long)k,
                      count);
    memcpy(out + (size_t)k * size, sp->values + e * size, size);
    last = k;
  }
  return 0;
}

int rsx_gltf_gather(const unsigned char *view, size_t len, size_t offset,
                    size_t stride, size_t size, size_t count,
                    const rsx_gltf_sparse *sparse, unsigned char *out,
                    rsx_error *err)
{
  size_t e;
  if (rsx_gltf_fits(len, offset, stride, size, count, err) != 0) return -1;
  if (count == 0)
    ;
  else if (stride == size)
    memcpy(out, view + offset, count * size);
  else
    for (e = 0; e < count; e++)
      memcpy(out + e * size, view + offset + e * stride, size);
  return sparse != NULL ? put_sparse(sparse, size, count, out, err) : 0;
}

void rsx_gltf_transform(const double m[16], int how, const double *in,
                        double *out, size_t n)
{
  double a = m[0], b = m[4], c = m[8];
  double d = m[1], e = m[5], f = m[9];
  double g = m[2], h = m[6], k = m[10];
  double tx = 0, ty = 0, tz = 0;
  size_t i;
  if (how == RSX_GLTF_POSITION) {
    tx = m[12];
    ty = m[13];
    tz = m[14];
  }
  if (how == RSX_GLTF_NORMAL) {
    /* the inverse transpose of the 3x3 part, by cofactors */
    double det = a * (e * k - f * h) - b * (d * k - f * g) +
                 c * (d * h - e * g);
    double a2, b2, c2, d2, e2, f2, g2, h2, k2;
    if (det == 0) det = 1;
    a2 = (e * k - f * h) / det;
    b2 = (f * g - d * k) / det;
    c2 = (d * h - e * g) / det;
    d2 = (c * h - b * k) / det;
    e2 = (a * k - c * g) / det;
    f2 = (b * g - a * h) / det;
    g2 = (b * f - c * e) / det;
    h2 = (c * d - a * f) / det;
    k2 = (a * e - b * d) / det;
    a = a2, b = b2, c = c2, d = d2, e = e2, f = f2, g = g2, h = h2, k = k2;
  }
  for (i = 0; i < n; i++) {
    double x = in[3 * i], y = in[3 * i + 1], z = in[3 * i + 2];
    double X = a * x + b * y + c * z + tx;
    double Y = d * x + e * y + f * z + ty;
    double Z = g * x + h * y + k * z + tz;
    if (how == RSX_GLTF_NORMAL) {
      double l = sqrt(X * X + Y * Y + Z * Z);
      if (l > 0) {
        X = X / l;
        Y = Y / l;
        Z = Z / l;
      }
    }
    out[3 * i] = X;
    out[3 * i + 1] = Y;
    out[3 * i + 2] = Z;
  }
}

int rsx_gltf_decode(const unsigned char *bytes, size_t len, long ctype,
                    int normalized, double *out, rsx_error *err)
{
  size_t csize = rsx_gltf_component_size(ctype), n, i;
  if (csize == 0)
    return rsx_fail(err, "componentType %ld is not a glTF one", ctype);
  if (len % csize != 0)
    return rsx_fail(err, "%zu bytes are not a whole number of components"
                    " of %zu bytes", len, csize);
  n = len / csize;
  /* in doubles, as the spec's formulas: -128 / 127 is below -1 */
  switch (ctype) {
  case RSX_GLTF_BYTE:
    for (i = 0; i < n; i++) {
      double c = bytes[i] < 0x80 ? (double)bytes[i] : bytes[i] - 256.0;
      out[i] = !normalized ? c : c / 127.0 < -1.0 ? -1.0 : c / 127.0;
    }
    break;
  case RSX_GLTF_UNSIGNED_BYTE:
    for (i = 0; i < n; i++)
      out[i] = normalized ? bytes[i] / 255.0 : (double)bytes[i];
    break;
  case RSX_GLTF_SHORT:
    for (i = 0; i < n; i++) {
      uint32_t u = le16(bytes + 2 * i);
      double c = u < 0x8000 ? (double)u : u - 65536.0;
      out[i] = !normalized ? c : c / 32767.0 < -1.0 ? -1.0 : c / 32767.0;
    }
    break;
  case RSX_GLTF_UNSIGNED_SHORT:
    for (i = 0; i < n; i++) {
      double c = (double)le16(bytes + 2 * i);
      out[i] = normalized ? c / 65535.0 : c;
    }
    break;
  case RSX_GLTF_UNSIGNED_INT:
    for (i = 0; i < n; i++) out[i] = (double)le32(bytes + 4 * i);
    break;
  default: /* RSX_GLTF_FLOAT */
    for (i = 0; i < n; i++) {
      uint32_t u = le32(bytes + 4 * i);
      float f;
      memcpy(&f, &u, sizeof f);
      out[i] = (double)f;
    }
    break;
  }
  return 0;
}
