/*
** gltf.c - the byte work of the glTF import (lua/rsxmesh/gltf_import/):
** rsxmesh.gltf_elements gathers an accessor's elements and puts its
** sparse values in place, rsxmesh.gltf_values reads their components as
** numbers, and rsxmesh.gltf_transform takes 3-vectors through a node's
** matrix. rsxmesh.gltf_frames makes the game's tangent vectors A and B of
** a TANGENT, and rsxmesh.gltf_tangents computes a TANGENT from UVs
** (src/tangent.c). Arguments are checked here; the work is the core's.
*/
#include <limits.h>
#include <stdio.h>

#include "rsxlua.h"
#include "gltf_accessor.h"
#include "tangent.h"

/* The largest element glTF has: a MAT4 of floats. */
#define ELEMENT_MAX 64

static const char *const sparse_keys[] = {"count", "index_type", "indices",
                                          "values", NULL};

/* A whole number of the table at idx's field key, in lo..hi. */
static lua_Integer field_integer(lua_State *L, int idx, const char *key,
                                 lua_Integer lo, lua_Integer hi,
                                 const char *fname)
{
  int isint;
  lua_Integer v;
  lua_getfield(L, idx, key);
  v = lua_tointegerx(L, -1, &isint);
  if (!isint || v < lo || v > hi)
    luaL_error(L, "%s: sparse.%s is not an integer in %I..%I", fname, key,
               lo, hi);
  lua_pop(L, 1);
  return v;
}

static const char *field_string(lua_State *L, int idx, const char *key,
                                size_t *len, const char *fname)
{
  const char *s;
  lua_getfield(L, idx, key);
  if (lua_type(L, -1) != LUA_TSTRING)
    luaL_error(L, "%s: sparse.%s is not a string", fname, key);
  s = lua_tolstring(L, -1, len);
  lua_pop(L, 1); /* the table still holds the string */
  return s;
}

/* rsxmesh.gltf_elements(bytes, offset, count, size [, stride [, sparse]])
** -> the elements tightly packed, or nil, message */
#define FNAME "rsxmesh.gltf_elements"
static int mod_gltf_elements(lua_State *L)
{
  size_t len;
  const unsigned char *view =
    (const unsigned char *)rsxlua_checklstring(L, 1, &len, FNAME);
  lua_Integer offset = rsxlua_checkinteger(L, 2, FNAME);
  lua_Integer count = rsxlua_checkinteger(L, 3, FNAME);
  lua_Integer size = rsxlua_checkinteger(L, 4, FNAME);
  lua_Integer stride = rsxlua_optinteger(L, 5, size, FNAME);
  rsx_gltf_sparse sparse, *sp = NULL;
  rsx_error err;
  luaL_Buffer b;
  unsigned char *out;

  rsxlua_argcheck(L, offset >= 0, 2, FNAME, "a byte offset is 0 or more");
  rsxlua_argcheck(L, count >= 1, 3, FNAME, "a count is 1 or more");
  rsxlua_argcheck(L, size >= 1 && size <= ELEMENT_MAX, 4, FNAME,
                  "an element is 1 to 64 bytes");
  rsxlua_argcheck(L, stride >= size, 5, FNAME,
                  "a stride is at least the element's size");
  if (!lua_isnoneornil(L, 6)) {
    rsxlua_checktype(L, 6, LUA_TTABLE, FNAME);
    rsxlua_check_keys(L, 6, sparse_keys, NULL, NULL, FNAME, "sparse field");
    sparse.count = (size_t)field_integer(L, 6, "count", 1, count, FNAME);
    sparse.index_ctype = (long)field_integer(L, 6, "index_type",
                                             RSX_GLTF_BYTE, RSX_GLTF_FLOAT,
                                             FNAME);
    sparse.indices = (const unsigned char *)field_string(
      L, 6, "indices", &sparse.indices_len, FNAME);
    sparse.values = (const unsigned char *)field_string(
      L, 6, "values", &sparse.values_len, FNAME);
    sp = &sparse;
  }
  /* the bytes are known to hold every element before any room is made */
  if (rsx_gltf_fits(len, (size_t)offset, (size_t)stride, (size_t)size,
                    (size_t)count, &err) != 0) {
    luaL_pushfail(L);
    lua_pushstring(L, err.text);
    return 2;
  }
  if (sp == NULL && stride == size && offset == 0 &&
      (size_t)count * (size_t)size == len) {
    lua_settop(L, 1); /* already the elements, tightly packed */
    return 1;
  }
  out = (unsigned char *)luaL_buffinitsize(L, &b,
                                           (size_t)count * (size_t)size);
  if (rsx_gltf_gather(view, len, (size_t)offset, (size_t)stride,
                      (size_t)size, (size_t)count, sp, out, &err) != 0) {
    luaL_pushfail(L);
    lua_pushstring(L, err.text);
    return 2;
  }
  luaL_pushresultsize(&b, (size_t)count * (size_t)size);
  return 1;
}
#undef FNAME

/* rsxmesh.gltf_values(bytes, componentType [, normalized]) -> a flat
** table of numbers: integers for integer types not normalized */
#define FNAME "rsxmesh.gltf_values"
static int mod_gltf_values(lua_State *L)
{
  size_t len, csize, n, i, j;
  const unsigned char *bytes =
    (const unsigned char *)rsxlua_checklstring(L, 1, &len, FNAME);
  lua_Integer ctype = rsxlua_checkinteger(L, 2, FNAME);
  int normalized = lua_toboolean(L, 3);
  int integers;
  double chunk[256];
  rsx_error err;

  csize = ctype >= RSX_GLTF_BYTE && ctype <= RSX_GLTF_FLOAT
            ? rsx_gltf_component_size((long)ctype) : 0;
  rsxlua_argcheck(L, csize != 0, 2, FNAME, "not a glTF componentType");
  rsxlua_argcheck(L, len % csize == 0, 1, FNAME,
                  "not a whole number of components");
  n = len / csize;
  integers = ctype == RSX_GLTF_UNSIGNED_INT ||
             (ctype != RSX_GLTF_FLOAT && !normalized);
  /* the table's size is the bytes' own: they exist */
  lua_createtable(L, n <= INT_MAX ? (int)n : INT_MAX, 0);
  for (i = 0; i < n; i += 256) {
    size_t m = n - i < 256 ? n - i : 256;
    if (rsx_gltf_decode(bytes + i * csize, m * csize, (long)ctype,
                        normalized, chunk, &err) != 0)
      return luaL_error(L, FNAME ": %s", err.text);
    for (j = 0; j < m; j++) {
      if (integers)
        lua_pushinteger(L, (lua_Integer)chunk[j]);
      else
        lua_pushnumber(L, (lua_Number)chunk[j]);
      lua_rawseti(L, -2, (lua_Integer)(i + j + 1));
    }
  }
  return 1;
}
#undef FNAME

/* The number at t[i] of the table at idx, or an error naming it. */
static double table_number(lua_State *L, int idx, lua_Integer i,
                           const char *what, const char *fname)
{
  int isnum;
  double x;
  lua_rawgeti(L, idx, i);
  x = (double)lua_tonumberx(L, -1, &isnum);
  if (!isnum)
    luaL_error(L, "%s: %s[%I] is not a number", fname, what, i);
  lua_pop(L, 1);
  return x;
}

/* rsxmesh.gltf_transform(m, v, how) -> a new flat table: the 3-vectors of
** v through the node matrix m (16 numbers, column-major) */
#define FNAME "rsxmesh.gltf_transform"
static int mod_gltf_transform(lua_State *L)
{
  static const char *const hows[] = {"position", "vector", "normal", NULL};
  static const int how_of[] = {RSX_GLTF_POSITION, RSX_GLTF_VECTOR,
                               RSX_GLTF_NORMAL};
  double m[16], chunk[3 * 256];
  lua_Integer n, i, j;
  int how;

  rsxlua_checktype(L, 1, LUA_TTABLE, FNAME);
  rsxlua_checktype(L, 2, LUA_TTABLE, FNAME);
  how = how_of[rsxlua_checkoption(L, 3, hows, FNAME)];
  rsxlua_argcheck(L, lua_rawlen(L, 1) == 16, 1, FNAME, "not 16 numbers");
  for (i = 0; i < 16; i++) m[i] = table_number(L, 1, i + 1, "m", FNAME);
  n = (lua_Integer)lua_rawlen(L, 2);
  rsxlua_argcheck(L, n % 3 == 0, 2, FNAME, "not a whole number of xyz");
  /* the new table is the size of v, which exists */
  lua_createtable(L, n <= INT_MAX ? (int)n : INT_MAX, 0);
  for (i = 0; i < n; i += 3 * 256) {
    lua_Integer len = n - i < 3 * 256 ? n - i : 3 * 256;
    for (j = 0; j < len; j++)
      chunk[j] = table_number(L, 2, i + j + 1, "v", FNAME);
    rsx_gltf_transform(m, how, chunk, chunk, (size_t)len / 3);
    for (j = 0; j < len; j++) {
      lua_pushnumber(L, (lua_Number)chunk[j]);
      lua_rawseti(L, -2, i + j + 1);
    }
  }
  return 1;
}
#undef FNAME

/* The flat table at idx's n numbers into a new buffer of doubles (a
** userdata on the stack: an error frees it), or an error naming it. */
static double *table_doubles(lua_State *L, int idx, lua_Integer n,
                             const char *what, const char *fname)
{
  double *d;
  lua_Integer i;
  if ((size_t)n > (size_t)-1 / sizeof *d - 1)
    luaL_error(L, "%s: %s is too long", fname, what);
  d = (double *)lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *d, 0);
  for (i = 0; i < n; i++) d[i] = table_number(L, idx, i + 1, what, fname);
  return d;
}

/* The n doubles at d into a new flat table. */
static void push_doubles(lua_State *L, const double *d, size_t n)
{
  size_t i;
  lua_createtable(L, n <= INT_MAX ? (int)n : INT_MAX, 0);
  for (i = 0; i < n; i++) {
    lua_pushnumber(L, (lua_Number)d[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
}

/* rsxmesh.gltf_frames(T, N [, convention]) -> A, B: flat tables of the
** game's tangent vectors from TANGENT T (xyzw) and NORMAL N (xyz), T as
** gltf-export writes it ("export") or as MikkTSpace (Blender) does
** ("mikktspace"); nil, message when a value is not finite */
#define FNAME "rsxmesh.gltf_frames"
static int mod_gltf_frames(lua_State *L)
{
  static const char *const conventions[] = {"export", "mikktspace", NULL};
  lua_Integer n;
  double *t, *nrm, *a, *b, hand = 1.0;
  size_t bad;

  rsxlua_checktype(L, 1, LUA_TTABLE, FNAME);
  rsxlua_checktype(L, 2, LUA_TTABLE, FNAME);
  if (!lua_isnoneornil(L, 3) &&
      rsxlua_checkoption(L, 3, conventions, FNAME) == 1)
    hand = -1.0;
  n = (lua_Integer)lua_rawlen(L, 2) / 3;
  rsxlua_argcheck(L, (lua_Integer)lua_rawlen(L, 2) == 3 * n, 2, FNAME,
                  "not a whole number of xyz");
  rsxlua_argcheck(L, (lua_Integer)lua_rawlen(L, 1) == 4 * n, 1, FNAME,
                  "not an xyzw for each xyz of N");
  t = table_doubles(L, 1, 4 * n, "T", FNAME);
  nrm = table_doubles(L, 2, 3 * n, "N", FNAME);
  a = (double *)lua_newuserdatauv(L, (size_t)(n ? n : 1) * 6 * sizeof *a, 0);
  b = a + 3 * n;
  bad = rsx_tangent_frames(t, nrm, (size_t)n, hand, a, b);
  if (bad < (size_t)n) {
    const double *tv = t + 4 * bad, *nv = nrm + 3 * bad;
    char text[320];
    snprintf(text, sizeof text, "vertex %zu: TANGENT (%.9g, %.9g, %.9g,"
             " %.9g) or NORMAL (%.9g, %.9g, %.9g) is not finite", bad + 1,
             tv[0], tv[1], tv[2], tv[3], nv[0], nv[1], nv[2]);
    luaL_pushfail(L);
    lua_pushstring(L, text);
    return 2;
  }
  push_doubles(L, a, 3 * (size_t)n);
  push_doubles(L, b, 3 * (size_t)n);
  return 2;
}
#undef FNAME

/* rsxmesh.gltf_tangents(P, N, UV, triangles) -> T, across: TANGENT (flat
** xyzw) computed from positions P, normals N (flat xyz), UVs (flat uv,
** glTF's) and the triangles' vertex numbers (flat, 1-based) with
** MikkTSpace's convention; across lists the vertices (1-based) that no
** triangle with UV area gave a direction, whose T is any across N */
#define FNAME "rsxmesh.gltf_tangents"
static int mod_gltf_tangents(lua_State *L)
{
  lua_Integer nv, nc, i;
  double *pos, *nrm, *uv, *out;
  uint32_t *tri;
  unsigned char *how;
  rsx_error err;
  lua_Integer k;

  for (k = 1; k <= 4; k++) rsxlua_checktype(L, (int)k, LUA_TTABLE, FNAME);
  nv = (lua_Integer)lua_rawlen(L, 1) / 3;
  nc = (lua_Integer)lua_rawlen(L, 4);
  rsxlua_argcheck(L, (lua_Integer)lua_rawlen(L, 1) == 3 * nv, 1, FNAME,
                  "not a whole number of xyz");
  rsxlua_argcheck(L, (lua_Integer)lua_rawlen(L, 2) == 3 * nv, 2, FNAME,
                  "not an xyz for each of P");
  rsxlua_argcheck(L, (lua_Integer)lua_rawlen(L, 3) == 2 * nv, 3, FNAME,
                  "not a uv for each of P");
  rsxlua_argcheck(L, nc % 3 == 0, 4, FNAME, "not a whole number of"
                  " triangles");
  rsxlua_argcheck(L, nv <= UINT32_MAX, 1, FNAME, "too many vertices");
  pos = table_doubles(L, 1, 3 * nv, "P", FNAME);
  nrm = table_doubles(L, 2, 3 * nv, "N", FNAME);
  uv = table_doubles(L, 3, 2 * nv, "UV", FNAME);
  /* the sizes are those of the tables given, which exist */
  tri = (uint32_t *)lua_newuserdatauv(L, (size_t)(nc ? nc : 1) * sizeof *tri,
                                      0);
  for (i = 0; i < nc; i++) {
    int isint;
    lua_Integer v;
    lua_rawgeti(L, 4, i + 1);
    v = lua_tointegerx(L, -1, &isint);
    if (!isint || v < 1 || v > nv)
      return luaL_error(L, FNAME ": triangles[%I] is not a vertex of 1..%I",
                        i + 1, nv);
    lua_pop(L, 1);
    tri[i] = (uint32_t)(v - 1);
  }
  out = (double *)lua_newuserdatauv(L, (size_t)(nv ? nv : 1) * 4 * sizeof *out,
                                    0);
  how = (unsigned char *)lua_newuserdatauv(L, (size_t)(nv ? nv : 1), 0);
  if (rsx_tangent_compute(pos, nrm, uv, (size_t)nv, tri, (size_t)nc / 3, out,
                          how, &err) != 0)
    return luaL_error(L, FNAME ": %s", err.text);
  push_doubles(L, out, 4 * (size_t)nv);
  lua_newtable(L);
  for (i = 0, k = 0; i < nv; i++)
    if (how[i] == RSX_TANGENT_ACROSS_N) {
      lua_pushinteger(L, i + 1);
      lua_rawseti(L, -2, ++k);
    }
  return 2;
}
#undef FNAME

static const luaL_Reg gltf_funcs[] = {
  {"gltf_elements", mod_gltf_elements},
  {"gltf_values", mod_gltf_values},
  {"gltf_transform", mod_gltf_transform},
  {"gltf_frames", mod_gltf_frames},
  {"gltf_tangents", mod_gltf_tangents},
  {NULL, NULL}
};

void rsxlua_open_gltf(lua_State *L)
{
  luaL_setfuncs(L, gltf_funcs, 0);
}
