/*
** gltf_accessor.h - the bytes of a glTF 2.0 accessor: its elements
** gathered from a buffer view's bytes (byteOffset, byteStride), sparse
** substitutions applied, and its components read as numbers (little-
** endian, every component type, the spec's rules for normalized ones).
** The importer (lua/rsxmesh/gltf_import/reading.lua) reads the JSON and
** the files; the binding's rsxmesh.gltf_elements and rsxmesh.gltf_values
** check their arguments and call these. No Lua here.
*/
#ifndef RSXMESH_GLTF_ACCESSOR_H
#define RSXMESH_GLTF_ACCESSOR_H

#include <stddef.h>

#include "rsxmesh.h"

/* glTF 2.0's accessor.componentType */
#define RSX_GLTF_BYTE 5120
#define RSX_GLTF_UNSIGNED_BYTE 5121
#define RSX_GLTF_SHORT 5122
#define RSX_GLTF_UNSIGNED_SHORT 5123
#define RSX_GLTF_UNSIGNED_INT 5125
#define RSX_GLTF_FLOAT 5126

/* The bytes of one component of type ctype; 0 when ctype is none of
** glTF's. */
size_t rsx_gltf_component_size(long ctype);

/* An accessor's sparse substitutions: count indices of index_ctype
** (unsigned byte, short or int) at indices, and count elements at
** values, each the accessor's element size. */
typedef struct rsx_gltf_sparse {
  size_t count;
  long index_ctype;
  const unsigned char *indices;
  size_t indices_len;
  const unsigned char *values;
  size_t values_len;
} rsx_gltf_sparse;

/* 0 when count elements of size bytes, the first at offset and each
** stride after the one before (stride >= size), lie inside len bytes;
** else -1 and err. No sum or product that a hostile count could
** overflow: call it before sizing anything by count. */
int rsx_gltf_fits(size_t len, size_t offset, size_t stride, size_t size,
                  size_t count, rsx_error *err);

/* The count elements of size bytes of view (len bytes; see
** rsx_gltf_fits) copied tightly into out (count * size bytes), then
** sparse's (if not NULL) put in place of those its indices name. -1 and
** err when an element lies outside view, a sparse part outside its
** bytes, or a sparse index does not increase or reaches count; out is
** then partly written. */
int rsx_gltf_gather(const unsigned char *view, size_t len, size_t offset,
                    size_t stride, size_t size, size_t count,
                    const rsx_gltf_sparse *sparse, unsigned char *out,
                    rsx_error *err);

/* The len / (component size) components of type ctype at bytes, as
** numbers into out: floats as they are; integers as they are, or, when
** normalized, as the glTF 2.0 spec maps them (c / 255, c / 65535;
** max(c / 127, -1), max(c / 32767, -1)). The spec allows normalized
** for neither FLOAT nor UNSIGNED_INT: theirs are read as they are. -1
** and err when ctype is not glTF's or len is not a whole number of
** components. */
int rsx_gltf_decode(const unsigned char *bytes, size_t len, long ctype,
                    int normalized, double *out, rsx_error *err);

/* ------------------------------------------------- node transforms */

/* What a 3-vector is, for rsx_gltf_transform: a position takes the
** matrix's translation, a vector does not, and a normal takes the
** inverse transpose of its 3x3 part and is made unit length again. */
enum { RSX_GLTF_POSITION, RSX_GLTF_VECTOR, RSX_GLTF_NORMAL };

/* The n 3-vectors at in (3 * n doubles) through the glTF node matrix m
** (16 numbers, column-major) into out (which may be in). A singular
** matrix leaves a normal's inverse unscaled (its determinant taken as 1);
** a normal of length 0 stays 0. The sums are in the order of the Lua
** the importer had, so the numbers are the same. */
void rsx_gltf_transform(const double m[16], int how, const double *in,
                        double *out, size_t n);

#endif
