/*
** build.c - a mesh userdata from a Lua table in rsxmesh.mesh's form: the
** caller's strings are the mesh's streams (bring your own container).
** rsxmesh.mesh and writer:mesh both build through here, and m:with
** builds its copies beside them.
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rsxlua.h"

/* Field key of the table at t: a string (required unless opt), anchored
** in the table at anchor so the mesh's views stay valid whatever the
** caller does with t afterwards. */
static const char *bld_string(lua_State *L, int t, int anchor,
                              const char *key, int opt, size_t *len,
                              const char *fname)
{
  const char *s;
  int type = lua_getfield(L, t, key);
  if (type == LUA_TNIL && opt) {
    lua_pop(L, 1);
    *len = 0;
    return NULL;
  }
  if (type != LUA_TSTRING)
    luaL_error(L, "%s: field '%s' must be a string, got %s", fname, key,
               luaL_typename(L, -1));
  s = lua_tolstring(L, -1, len);
  lua_rawseti(L, anchor, (lua_Integer)lua_rawlen(L, anchor) + 1);
  return s;
}

/* Field key: an integer in 0..max, dflt when absent and dflt >= 0. */
static lua_Integer bld_integer(lua_State *L, int t, const char *key,
                               lua_Integer dflt, lua_Integer max,
                               const char *fname)
{
  int isint;
  lua_Integer v;
  if (lua_getfield(L, t, key) == LUA_TNIL && dflt >= 0) {
    lua_pop(L, 1);
    return dflt;
  }
  v = lua_tointegerx(L, -1, &isint);
  if (!isint)
    luaL_error(L, "%s: field '%s' must be an integer, got %s", fname, key,
               luaL_typename(L, -1));
  if (v < 0 || v > max)
    luaL_error(L, "%s: field '%s' = %I out of range 0..%I", fname, key, v,
               max);
  lua_pop(L, 1);
  return v;
}

/* A stream's length against vertex_count x stride, both from the caller:
** the bytes must be exactly there before the core looks at them. */
static int bld_stream(lua_State *L, const char *what, size_t len,
                      uint32_t vertices, uint32_t stride, const char *fname)
{
  uint64_t want = (uint64_t)vertices * stride;
  if ((uint64_t)len == want) return 0;
  lua_pushnil(L);
  lua_pushfstring(L, "%s: %s is %I bytes, expected %I (vertex_count %I x "
                  "stride %I)", fname, what, (lua_Integer)len,
                  (lua_Integer)want, (lua_Integer)vertices,
                  (lua_Integer)stride);
  return -1;
}

/* Push nil and a message made as lua_pushfstring; returns 2. */
#define bld_fail(L, ...) \
  (lua_pushnil(L), lua_pushfstring(L, __VA_ARGS__), 2)

/* The name, the metadata record and the two vertex streams, their
** lengths checked against vertex_count x stride. 0, or 2 with nil and a
** message pushed. */
static int bld_streams(lua_State *L, int idx, int anchor, rsx_mesh *m,
                       const char **name, const char *fname)
{
  size_t len;
  *name = bld_string(L, idx, anchor, "name", 1, &len, fname);
  m->name = *name != NULL ? *name : "";
  m->meta = (const uint8_t *)bld_string(L, idx, anchor, "meta", 0, &len,
                                        fname);
  if (len > UINT32_MAX)
    return luaL_error(L, "%s: field 'meta' is too large", fname);
  m->meta_size = (uint32_t)len;
  m->vertex_count = (uint32_t)bld_integer(L, idx, "vertex_count", -1,
                                          UINT32_MAX, fname);
  m->mmp = (const uint8_t *)bld_string(L, idx, anchor, "mmp", 0, &len,
                                       fname);
  m->mmp_stride = (uint32_t)bld_integer(L, idx, "mmp_stride", -1,
                                        UINT32_MAX, fname);
  if (bld_stream(L, "mmp", len, m->vertex_count, m->mmp_stride, fname))
    return 2;
  m->mgp = (const uint8_t *)bld_string(L, idx, anchor, "mgp", 1, &len,
                                       fname);
  m->mgp_stride = (uint32_t)bld_integer(L, idx, "mgp_stride", 0,
                                        UINT32_MAX, fname);
  if (bld_stream(L, "mgp", len, m->vertex_count, m->mgp_stride, fname))
    return 2;
  if (m->mgp_stride == 0) m->mgp = NULL;
  return 0;
}

/* The count of len bytes of indices of size bytes each; NULL, or a
** message pushed when size is not 2 or 4 or len not a whole number. */
static const char *bld_index_count(lua_State *L, size_t len, int size,
                                   uint32_t *count, const char *fname)
{
  if (size != 2 && size != 4)
    return lua_pushfstring(L, "%s: index size %d is not 2 or 4", fname,
                           size);
  if (len % (size_t)size != 0 || len / (size_t)size > UINT32_MAX)
    return lua_pushfstring(L, "%s: indices is %I bytes, not a whole number "
                           "of %d-byte indices", fname, (lua_Integer)len,
                           size);
  *count = (uint32_t)(len / (size_t)size);
  return NULL;
}

/* Field 'primitive' of the table at t: RSX_TRIANGLES or RSX_STRIP, dflt
** when absent; raises on another value. */
static int bld_primitive(lua_State *L, int t, int dflt, const char *fname)
{
  static const char *const prims[] = {"triangles", "strip", NULL};
  const char *prim;
  int i;
  if (lua_getfield(L, t, "primitive") == LUA_TNIL) {
    lua_pop(L, 1);
    return dflt;
  }
  if (lua_type(L, -1) != LUA_TSTRING)
    return luaL_error(L, "%s: field 'primitive' must be a string, got %s",
                      fname, luaL_typename(L, -1));
  prim = lua_tostring(L, -1);
  for (i = 0; prims[i] != NULL && strcmp(prims[i], prim) != 0; i++) {}
  if (prims[i] == NULL)
    return luaL_error(L, "%s: field 'primitive': invalid option '%s'",
                      fname, rsxlua_shown(L, prim, lua_rawlen(L, -1)));
  lua_pop(L, 1);
  return i == 0 ? RSX_TRIANGLES : RSX_STRIP;
}

/* The index stream, its index size and the primitive. 0, or 2 with nil
** and a message pushed. */
static int bld_indices(lua_State *L, int idx, int anchor, rsx_mesh *m,
                       const char *fname)
{
  size_t len;
  m->indices = (const uint8_t *)bld_string(L, idx, anchor, "indices", 0,
                                           &len, fname);
  m->index_size = (uint8_t)bld_integer(L, idx, "index_size", -1, 255,
                                       fname);
  if (bld_index_count(L, len, m->index_size, &m->index_count, fname)) {
    lua_pushnil(L);
    lua_insert(L, -2);
    return 2;
  }
  m->primitive = bld_primitive(L, idx, RSX_TRIANGLES, fname);
  return 0;
}

/* Submesh i (0-based) from the table at st into s. */
static void bld_submesh(lua_State *L, int st, int anchor, size_t i,
                        rsx_submesh *s, const char *fname)
{
  size_t len;
  lua_Integer mat;
  const char *label = lua_pushfstring(L, "%s: submeshes[%I]", fname,
                                      (lua_Integer)i + 1);
  s->record = (const uint8_t *)bld_string(L, st, anchor, "record", 0,
                                          &len, label);
  if (len > UINT32_MAX) luaL_error(L, "%s: too large", label);
  s->record_size = (uint32_t)len;
  s->first_index = (uint32_t)bld_integer(L, st, "first_index", -1,
                                         UINT32_MAX, label);
  s->index_count = (uint32_t)bld_integer(L, st, "index_count", -1,
                                         UINT32_MAX, label);
  /* 1-based in Lua, 0-based in the file; absent: no material */
  mat = bld_integer(L, st, "material", 0, UINT32_MAX - 1, label);
  if (mat == 0 && lua_getfield(L, st, "material") != LUA_TNIL)
    luaL_error(L, "%s: field 'material' must be 1 or more", label);
  s->material = mat == 0 ? RSX_NONE : (uint32_t)(mat - 1);
}

/* The submeshes: their array lives in a userdata in the anchor table. */
static void bld_submeshes(lua_State *L, int idx, int anchor, rsx_mesh *m,
                          const char *fname)
{
  int top = lua_gettop(L);
  size_t nsub, i;
  rsx_submesh *subs;
  if (lua_getfield(L, idx, "submeshes") == LUA_TNIL) {
    nsub = 0;
  } else if (lua_istable(L, -1)) {
    nsub = lua_rawlen(L, -1);
  } else {
    luaL_error(L, "%s: field 'submeshes' must be a table, got %s", fname,
               luaL_typename(L, -1));
    return;
  }
  if (nsub > UINT32_MAX / sizeof *subs)
    luaL_error(L, "%s: too many submeshes", fname);
  subs = lua_newuserdatauv(L, nsub * sizeof *subs + 1, 0);
  memset(subs, 0, nsub * sizeof *subs);
  lua_rawseti(L, anchor, (lua_Integer)lua_rawlen(L, anchor) + 1);
  for (i = 0; i < nsub; i++) {
    int st;
    lua_rawgeti(L, top + 1, (lua_Integer)i + 1);
    st = lua_gettop(L);
    if (!lua_istable(L, st))
      luaL_error(L, "%s: submeshes[%I] must be a table, got %s", fname,
                 (lua_Integer)i + 1, luaL_typename(L, st));
    bld_submesh(L, st, anchor, i, &subs[i], fname);
    lua_settop(L, top + 1);
  }
  lua_settop(L, top);
  m->submeshes = subs;
  m->submesh_count = (uint32_t)nsub;
}

int rsxlua_build_mesh(lua_State *L, int idx, const char *fname)
{
  rl_mesh *me;
  rsx_mesh *m;
  int anchor;
  const char *name;
  char where[256];
  rsx_error err;

  idx = lua_absindex(L, idx);
  rsxlua_checktype(L, idx, LUA_TTABLE, fname);
  /* the mesh first, its anchor table as user value; nothing is malloc'd,
  ** so any error below leaves only garbage for the GC */
  me = lua_newuserdatauv(L, sizeof *me, 1);
  memset(me, 0, sizeof *me);
  me->m = m = &me->own;
  m->index = RSX_NONE; /* in no bundle: messages give it no number */
  luaL_setmetatable(L, RSXLUA_MESH);
  lua_newtable(L);
  lua_pushvalue(L, -1);
  lua_setiuservalue(L, -3, 1);
  anchor = lua_gettop(L);

  if (bld_streams(L, idx, anchor, m, &name, fname) != 0) return 2;
  if (bld_indices(L, idx, anchor, m, fname) != 0) return 2;
  bld_submeshes(L, idx, anchor, m, fname);

  /* the writer it goes to checks materials against its own count */
  if (name != NULL && name[0] != '\0')
    snprintf(where, sizeof where, "%s: mesh %s", fname, name);
  else
    snprintf(where, sizeof where, "%s", fname);
  if (rsx_mesh_check(m, RSX_NONE, where, &err) != 0)
    return rsxlua_fail(L, err.text);
  lua_pop(L, 1); /* the anchor: the mesh is on top */
  return 1;
}

/* ------------------------------------------------------------ m:with */

/* A copy of n bytes at p owned by the anchor table at anchor: a userdata
** (writable, and it never moves), appended to the table. */
static uint8_t *with_bytes(lua_State *L, int anchor, const void *p,
                           size_t n)
{
  uint8_t *q = lua_newuserdatauv(L, n + 1, 0);
  if (p != NULL) memcpy(q, p, n);
  else memset(q, 0, n);
  lua_rawseti(L, anchor, (lua_Integer)lua_rawlen(L, anchor) + 1);
  return q;
}

/* The fields m:with knows besides the kind names. */
static const char *const with_fields[] = {
  "name", "vertex_count", "indices", "index_size", "primitive",
  "submeshes", NULL
};

/* A key of m:with's table that names a kind: the mesh must have it. */
static int with_kind_key(lua_State *L, const char *key, const void *ud)
{
  const rsx_mesh *m = ud;
  int kind = rsx_kind_from_name(key);
  if (kind < 0) return 0;
  if (m->format.attr[kind] == NULL) {
    char mask[16], label[160];
    snprintf(mask, sizeof mask, "0x%08lx", (unsigned long)m->mask);
    rsx_mesh_label(m, label, sizeof label); /* "mesh 17 (crate)" */
    luaL_error(L, "mesh:with: %s has no %s (mask %s)", label, key, mask);
  }
  return 1;
}

/* Every key of t at idx is a kind of the mask or a field: a typo must
** not pass for a copy. */
static void with_check_keys(lua_State *L, int idx, const rsx_mesh *m)
{
  rsxlua_check_keys(L, idx, with_fields, with_kind_key, m, "mesh:with",
                    "field");
}

/* Replace kind in the copy c (streams mmp, mgp writable) from t[kind] on
** top of the stack: raw bytes (acc:raw's form) or a flat table of
** numbers. */
static void with_attribute(lua_State *L, rsx_mesh *c, uint8_t *mmp,
                           uint8_t *mgp, int kind)
{
  const rsx_attr_info *a = c->format.attr[kind];
  uint32_t n = c->vertex_count, v;
  uint8_t *base = (a->stream == RSX_MMP ? mmp : mgp) + c->format.offset[kind];
  size_t stride = a->stream == RSX_MMP ? c->mmp_stride : c->mgp_stride;
  int top = lua_gettop(L);
  if (lua_type(L, top) == LUA_TSTRING) {
    size_t len, want = (size_t)n * (size_t)a->size;
    const char *raw = lua_tolstring(L, top, &len);
    if (len != want)
      luaL_error(L, "mesh:with: %s is %I bytes, expected %I (%I vertices "
                 "x %d)", a->name, (lua_Integer)len, (lua_Integer)want,
                 (lua_Integer)n, a->size);
    for (v = 0; v < n; v++)
      memcpy(base + (size_t)v * stride, raw + (size_t)v * a->size,
             (size_t)a->size);
  } else if (lua_type(L, top) == LUA_TTABLE) {
    size_t want = (size_t)n * (size_t)a->components;
    size_t have = lua_rawlen(L, top);
    float *in;
    if (have != want)
      luaL_error(L, "mesh:with: %s has %I values, expected %I (%I "
                 "vertices x %d)", a->name, (lua_Integer)have,
                 (lua_Integer)want, (lua_Integer)n, a->components);
    in = rsxlua_floats(L, top, want, "mesh:with", a->name);
    rsx_encode_column(a, in, n, base, stride);
  } else {
    luaL_error(L, "mesh:with: %s must be a table or a string, got %s",
               a->name, luaL_typename(L, top));
  }
  lua_settop(L, top - 1);
}

/* Submesh ranges from t.submeshes (at top) over the copies in subs. */
static void with_ranges(lua_State *L, rsx_submesh *subs, uint32_t n)
{
  int t = lua_gettop(L);
  uint32_t i;
  if (!lua_istable(L, t))
    luaL_error(L, "mesh:with: submeshes must be a table, got %s",
               luaL_typename(L, t));
  if (lua_rawlen(L, t) != n)
    luaL_error(L, "mesh:with: submeshes has %I entries, the mesh %I",
               (lua_Integer)lua_rawlen(L, t), (lua_Integer)n);
  for (i = 0; i < n; i++) {
    char label[64];
    snprintf(label, sizeof label, "mesh:with: submeshes[%lu]",
             (unsigned long)i + 1);
    if (lua_rawgeti(L, t, (lua_Integer)i + 1) != LUA_TTABLE)
      luaL_error(L, "%s must be a table, got %s", label,
                 luaL_typename(L, -1));
    subs[i].first_index = (uint32_t)bld_integer(L, t + 1, "first_index",
      subs[i].first_index, UINT32_MAX, label);
    subs[i].index_count = (uint32_t)bld_integer(L, t + 1, "index_count",
      subs[i].index_count, UINT32_MAX, label);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* The copy of the mesh at 1: a mesh userdata at 3, its anchor table at 4
** (WITH_ANCHOR), every field as the source has it. */
#define WITH_ANCHOR 4
static rsx_mesh *with_new(lua_State *L, const rl_mesh *me)
{
  rl_mesh *cp = lua_newuserdatauv(L, sizeof *cp, 1); /* 3 */
  rsx_mesh *c;
  memset(cp, 0, sizeof *cp);
  cp->m = c = &cp->own;
  luaL_setmetatable(L, RSXLUA_MESH);
  lua_newtable(L); /* 4: the anchors */
  lua_pushvalue(L, -1);
  lua_setiuservalue(L, 3, 1);
  *c = *me->m;
  c->index = RSX_NONE; /* a built mesh: in no bundle */
  cp->materials = me->materials;
  if (me->materials != NULL) {
    /* the bundle of the material numbers, for s.material and writers */
    lua_getiuservalue(L, 1, 1);
    if (me->bundle == NULL) lua_getfield(L, -1, "materials");
    lua_setfield(L, WITH_ANCHOR, "materials");
    lua_settop(L, WITH_ANCHOR);
  }
  return c;
}

/* The name (t.name or the source's) and a copy of the metadata record. */
static void with_name(lua_State *L, rsx_mesh *c, const rsx_mesh *src)
{
  if (lua_getfield(L, 2, "name") == LUA_TNIL) {
    lua_pop(L, 1);
    lua_pushstring(L, src->name);
  } else if (!lua_isstring(L, -1)) {
    luaL_error(L, "mesh:with: field 'name' must be a string, got %s",
               luaL_typename(L, -1));
  }
  c->name = lua_tostring(L, -1); /* anchored with the string */
  lua_rawseti(L, WITH_ANCHOR, (lua_Integer)lua_rawlen(L, WITH_ANCHOR) + 1);
  c->meta = with_bytes(L, WITH_ANCHOR, src->meta, src->meta_size);
}

/* The largest vertex count m:with takes when it is not the source's, and
** the most bytes its two new streams may take together: a count from a
** script decides an allocation only below both, and only once every
** attribute is given with exactly that many values. */
#define WITH_MAX_VERTICES (1ul << 24)
#define WITH_MAX_BYTES (1ul << 30)

/* The value on top (an attribute of m:with's table) must give attribute
** a for n vertices: raw bytes (acc:raw's form) or a flat table of
** numbers, of exactly that length; raises otherwise. */
static void with_given(lua_State *L, const rsx_attr_info *a, uint32_t n)
{
  size_t len = lua_rawlen(L, -1);
  if (lua_type(L, -1) == LUA_TSTRING) {
    if ((uint64_t)len != (uint64_t)n * (uint64_t)a->size)
      luaL_error(L, "mesh:with: %s is %I bytes, expected %I (%I vertices "
                 "x %d)", a->name, (lua_Integer)len,
                 (lua_Integer)n * a->size, (lua_Integer)n, a->size);
  } else if (lua_type(L, -1) == LUA_TTABLE) {
    if ((uint64_t)len != (uint64_t)n * (uint64_t)a->components)
      luaL_error(L, "mesh:with: %s has %I values, expected %I (%I "
                 "vertices x %d)", a->name, (lua_Integer)len,
                 (lua_Integer)n * a->components, (lua_Integer)n,
                 a->components);
  } else {
    luaL_error(L, "mesh:with: %s must be a table or a string, got %s",
               a->name, luaL_typename(L, -1));
  }
}

/* The vertex count and the two streams, copied and then given the
** attributes t names. Everything is checked before anything is
** allocated: the count, and with a new count that every attribute is
** given, each value of the right length. Each attribute is read from t
** once, into the table at given (by kind), so an __index of t cannot
** answer one thing to the check and another to the copy. 0, or 2 with
** nil and a message pushed. */
static int with_vertices(lua_State *L, rsx_mesh *c, const rsx_mesh *src)
{
  uint8_t *mmp, *mgp = NULL;
  int k, resized, given;
  rsx_error err;
  lua_Integer count = bld_integer(L, 2, "vertex_count", src->vertex_count,
                                  UINT32_MAX, "mesh:with");
  resized = (uint64_t)count != src->vertex_count;
  if (resized && (uint64_t)count > WITH_MAX_VERTICES)
    return luaL_error(L, "mesh:with: vertex_count %I is more than %I",
                      count, (lua_Integer)WITH_MAX_VERTICES);
  c->vertex_count = (uint32_t)count;
  if (resized && (uint64_t)c->vertex_count * (c->mmp_stride + c->mgp_stride)
                 > WITH_MAX_BYTES)
    return luaL_error(L, "mesh:with: %I vertices of %I bytes are more than "
                      "%I bytes", count,
                      (lua_Integer)(c->mmp_stride + c->mgp_stride),
                      (lua_Integer)WITH_MAX_BYTES);
  lua_createtable(L, RSX_KIND_COUNT, 0);
  given = lua_gettop(L);
  for (k = 0; k < RSX_KIND_COUNT; k++) {
    const rsx_attr_info *a = c->format.attr[k];
    if (a == NULL) continue;
    if (lua_getfield(L, 2, a->name) == LUA_TNIL) {
      if (resized)
        return luaL_error(L, "mesh:with: vertex_count %I is not the "
                          "mesh's %I, so every attribute is needed: %s "
                          "is missing", count,
                          (lua_Integer)src->vertex_count, a->name);
      lua_pop(L, 1);
      continue;
    }
    with_given(L, a, c->vertex_count);
    /* a finding on its stream leaves nowhere to put it */
    if (rsx_mesh_can_decode(src, k, &err) != 0)
      return rsxlua_fail(L, err.text);
    lua_rawseti(L, given, k + 1);
  }
  /* a new vertex count starts from zero bytes: every attribute is given */
  mmp = with_bytes(L, WITH_ANCHOR, resized ? NULL : src->mmp,
                   (size_t)c->vertex_count * c->mmp_stride);
  c->mmp = mmp;
  if (c->mgp_stride > 0) {
    mgp = with_bytes(L, WITH_ANCHOR, resized ? NULL : src->mgp,
                     (size_t)c->vertex_count * c->mgp_stride);
    c->mgp = mgp;
  }
  for (k = 0; k < RSX_KIND_COUNT; k++) {
    if (lua_rawgeti(L, given, k + 1) == LUA_TNIL) {
      lua_pop(L, 1);
      continue;
    }
    with_attribute(L, c, mmp, mgp, k);
  }
  lua_pop(L, 1);
  return 0;
}

/* The indices: t.indices (and t.index_size) or a copy of the source's. */
static void with_indices(lua_State *L, rsx_mesh *c, const rsx_mesh *src)
{
  size_t len;
  const char *idx = bld_string(L, 2, WITH_ANCHOR, "indices", 1, &len,
                               "mesh:with");
  if (idx != NULL) {
    c->index_size = (uint8_t)bld_integer(L, 2, "index_size",
      src->index_size, 255, "mesh:with");
    if (bld_index_count(L, len, c->index_size, &c->index_count,
                        "mesh:with"))
      lua_error(L);
    c->indices = (const uint8_t *)idx; /* anchored by bld_string */
  } else {
    if (lua_getfield(L, 2, "index_size") != LUA_TNIL)
      luaL_error(L, "mesh:with: index_size needs indices");
    lua_pop(L, 1);
    c->indices = with_bytes(L, WITH_ANCHOR, src->indices,
                            (size_t)src->index_count * src->index_size);
  }
}

/* Copies of the submesh entries and records, with t.submeshes' ranges. */
static void with_submesh_table(lua_State *L, rsx_mesh *c,
                               const rsx_mesh *src)
{
  rsx_submesh *subs;
  size_t i;
  subs = (rsx_submesh *)with_bytes(L, WITH_ANCHOR, src->submeshes,
    (size_t)src->submesh_count * sizeof *subs);
  for (i = 0; i < src->submesh_count; i++)
    subs[i].record = with_bytes(L, WITH_ANCHOR, src->submeshes[i].record,
                                src->submeshes[i].record_size);
  if (lua_getfield(L, 2, "submeshes") != LUA_TNIL)
    with_ranges(L, subs, src->submesh_count);
  else
    lua_pop(L, 1);
  c->submeshes = subs;
}

int rsxlua_mesh_with(lua_State *L)
{
  rl_mesh *me = rsxlua_check(L, 1, RSXLUA_MESH, "mesh:with");
  const rsx_mesh *src = me->m;
  rsx_mesh *c;
  char where[256];
  rsx_error err;

  rsxlua_checktype(L, 2, LUA_TTABLE, "mesh:with");
  lua_settop(L, 2);
  with_check_keys(L, 2, src);
  c = with_new(L, me);
  with_name(L, c, src);
  if (with_vertices(L, c, src) != 0) return 2;
  with_indices(L, c, src);
  c->primitive = bld_primitive(L, 2, c->primitive, "mesh:with");
  with_submesh_table(L, c, src);

  snprintf(where, sizeof where, "mesh:with: mesh (%s)", c->name);
  if (rsx_mesh_check(c, RSX_NONE, where, &err) != 0)
    return rsxlua_fail(L, err.text);
  lua_settop(L, 3);
  return 1;
}
