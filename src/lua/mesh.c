/*
** mesh.c - the mesh userdata, its triangles, and rsxmesh.mesh{...}, which
** builds a mesh from Lua strings (bring your own container).
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rsxlua.h"

static rl_mesh *me_check(lua_State *L, int idx, const char *fname)
{
  return rsxlua_check(L, idx, RSXLUA_MESH, fname);
}

void rsxlua_push_mesh(lua_State *L, int parent, rl_bundle *bundle,
                      const rsx_mesh *m)
{
  rl_mesh *me;
  parent = lua_absindex(L, parent);
  me = lua_newuserdatauv(L, sizeof *me, 1);
  memset(me, 0, sizeof *me);
  me->bundle = bundle;
  me->m = m;
  luaL_setmetatable(L, RSXLUA_MESH);
  lua_pushvalue(L, parent);
  lua_setiuservalue(L, -2, 1);
}

/* ----------------------------------------------------------- triangles */

/* Pushes the bytes of a malloc-free temporary: called under the caller's
** error rules, the scratch space is a userdata the GC reclaims. */
int rsxlua_triangles(lua_State *L, const rsx_mesh *m, const rsx_submesh *s,
                     uint32_t first, uint32_t count, int as_bytes)
{
  size_t cap = rsx_triangle_capacity(count), n = 0, i;
  uint32_t *tri;
  rsx_error err;

  if (cap > SIZE_MAX / (3 * sizeof *tri))
    return luaL_error(L, "triangles: %I indices are too many",
                      (lua_Integer)count);
  tri = lua_newuserdatauv(L, cap * 3 * sizeof *tri + 1, 0);
  if (rsx_triangles(m, s, first, count, tri, &n, &err) != 0)
    return rsxlua_fail(L, err.text);
  if (as_bytes) {
    luaL_Buffer b;
    unsigned char *p = (unsigned char *)luaL_buffinitsize(L, &b, n * 12);
    for (i = 0; i < n * 3; i++) {
      p[4 * i] = (unsigned char)(tri[i] & 0xFF);
      p[4 * i + 1] = (unsigned char)((tri[i] >> 8) & 0xFF);
      p[4 * i + 2] = (unsigned char)((tri[i] >> 16) & 0xFF);
      p[4 * i + 3] = (unsigned char)(tri[i] >> 24);
    }
    luaL_pushresultsize(&b, n * 12);
  } else {
    lua_createtable(L, n * 3 < (size_t)INT32_MAX ? (int)(n * 3) : 0, 0);
    for (i = 0; i < n * 3; i++) {
      lua_pushinteger(L, (lua_Integer)tri[i] + 1);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
  }
  lua_pushinteger(L, (lua_Integer)n);
  return 2;
}

/* ------------------------------------------------------------- methods */

static int m_has(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:has");
  int kind = rsxlua_checkkind(L, 2, "mesh:has");
  lua_pushboolean(L, me->m->format.attr[kind] != NULL);
  return 1;
}

static int m_attributes(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:attributes");
  int k, n = 0;
  lua_newtable(L);
  for (k = 0; k < RSX_KIND_COUNT; k++) {
    if (me->m->format.attr[k] == NULL) continue;
    lua_pushstring(L, me->m->format.attr[k]->name);
    lua_rawseti(L, -2, ++n);
  }
  return 1;
}

static int m_attribute(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:attribute");
  int kind = rsxlua_checkkind(L, 2, "mesh:attribute");
  return rsxlua_push_accessor(L, 1, me->bundle, me->m, kind);
}

static int m_submesh(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:submesh");
  lua_Integer i = luaL_checkinteger(L, 2);
  if (i >= 1 && i <= (lua_Integer)me->m->submesh_count)
    rsxlua_push_submesh(L, 1, me, (uint32_t)(i - 1));
  else
    lua_pushnil(L);
  return 1;
}

static int m_submeshes_next(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:submeshes");
  lua_Integer i = luaL_checkinteger(L, 2) + 1;
  if (i < 1 || i > (lua_Integer)me->m->submesh_count) return 0;
  lua_pushinteger(L, i);
  rsxlua_push_submesh(L, 1, me, (uint32_t)(i - 1));
  return 2;
}

static int m_submeshes(lua_State *L)
{
  me_check(L, 1, "mesh:submeshes");
  lua_pushcfunction(L, m_submeshes_next);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

static int m_record(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:record");
  rsxlua_push_record(L, 1, me->bundle, me->m->meta, me->m->meta_size);
  return 1;
}

static int m_triangles(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:triangles");
  return rsxlua_triangles(L, me->m, NULL, 0, me->m->index_count, 0);
}

static int m_triangle_bytes(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:triangle_bytes");
  return rsxlua_triangles(L, me->m, NULL, 0, me->m->index_count, 1);
}

static int m_index(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:index");
  lua_Integer i = luaL_checkinteger(L, 2);
  if (i < 1 || i > (lua_Integer)me->m->index_count)
    return luaL_error(L, "mesh:index: index %I out of range 1..%I", i,
                      (lua_Integer)me->m->index_count);
  lua_pushinteger(L, (lua_Integer)rsx_mesh_index(me->m, (uint32_t)(i - 1)));
  return 1;
}

static int m_tostring(lua_State *L)
{
  rl_mesh *me = luaL_checkudata(L, 1, RSXLUA_MESH);
  char mask[16];
  if (me->bundle != NULL && me->bundle->b == NULL) {
    lua_pushliteral(L, RSXLUA_MESH " (bundle closed)");
    return 1;
  }
  snprintf(mask, sizeof mask, "0x%08lx", (unsigned long)me->m->mask);
  lua_pushfstring(L, RSXLUA_MESH " %s (mask %s, %I vertices, %I submeshes)",
                  me->m->name, mask, (lua_Integer)me->m->vertex_count,
                  (lua_Integer)me->m->submesh_count);
  return 1;
}

/* ---------------------------------------------------------- properties */

#define ME_INTEGER(fn, field)                                     \
  static int fn(lua_State *L)                                     \
  {                                                               \
    rl_mesh *me = me_check(L, 1, "mesh." #field);                 \
    lua_pushinteger(L, (lua_Integer)me->m->field);                \
    return 1;                                                     \
  }

ME_INTEGER(mp_mask, mask)
ME_INTEGER(mp_vertex_count, vertex_count)
ME_INTEGER(mp_mmp_stride, mmp_stride)
ME_INTEGER(mp_mgp_stride, mgp_stride)
ME_INTEGER(mp_index_count, index_count)
ME_INTEGER(mp_index_size, index_size)
ME_INTEGER(mp_submesh_count, submesh_count)

static int mp_name(lua_State *L)
{
  lua_pushstring(L, me_check(L, 1, "mesh.name")->m->name);
  return 1;
}

/* m.number, not m.index: index is the method m:index(i) */
static int mp_number(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh.number");
  if (me->bundle == NULL)
    lua_pushnil(L); /* a built mesh has no number */
  else
    lua_pushinteger(L, (lua_Integer)me->m->index + 1);
  return 1;
}

static int mp_bundle(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh.bundle");
  if (me->bundle == NULL)
    lua_pushnil(L);
  else
    lua_getiuservalue(L, 1, 1);
  return 1;
}

static int mp_format(lua_State *L)
{
  rsxlua_push_format(L, me_check(L, 1, "mesh.format")->m->mask);
  return 1;
}

static int mp_primitive(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh.primitive");
  lua_pushstring(L, me->m->primitive == RSX_STRIP ? "strip" : "triangles");
  return 1;
}

static int mp_findings(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh.findings");
  unsigned bit;
  int n = 0;
  lua_newtable(L);
  for (bit = 1; bit != 0; bit <<= 1) {
    char buf[512];
    if (!(me->m->findings & bit)) continue;
    rsx_finding_describe(me->m, bit, buf, sizeof buf);
    rsxlua_push_finding(L, ++n, rsx_finding_name(bit), buf);
  }
  return 1;
}

static const luaL_Reg m_meta[] = {
  {"__tostring", m_tostring},
  {NULL, NULL}
};

static const luaL_Reg m_methods[] = {
  {"has", m_has},
  {"attributes", m_attributes},
  {"attribute", m_attribute},
  {"submesh", m_submesh},
  {"submeshes", m_submeshes},
  {"record", m_record},
  {"triangles", m_triangles},
  {"triangle_bytes", m_triangle_bytes},
  {"index", m_index},
  {NULL, NULL}
};

static const rl_member m_members[] = {
  {"name", mp_name},
  {"number", mp_number},
  {"bundle", mp_bundle},
  {"mask", mp_mask},
  {"vertex_count", mp_vertex_count},
  {"mmp_stride", mp_mmp_stride},
  {"mgp_stride", mp_mgp_stride},
  {"format", mp_format},
  {"index_count", mp_index_count},
  {"index_size", mp_index_size},
  {"primitive", mp_primitive},
  {"submesh_count", mp_submesh_count},
  {"findings", mp_findings},
  {NULL, NULL}
};

void rsxlua_open_mesh(lua_State *L)
{
  rsxlua_class(L, RSXLUA_MESH, m_meta, m_methods, m_members);
}

/* ------------------------------------------------------- rsxmesh.mesh */

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

int rsxlua_build_mesh(lua_State *L, int idx, const char *fname)
{
  static const char *const prims[] = {"triangles", "strip", NULL};
  rl_mesh *me;
  rsx_mesh *m;
  rsx_submesh *subs;
  size_t len, nsub, i;
  int anchor, top;
  const char *name, *prim;
  char where[256];
  rsx_error err;

  idx = lua_absindex(L, idx);
  luaL_checktype(L, idx, LUA_TTABLE);
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

  name = bld_string(L, idx, anchor, "name", 1, &len, fname);
  m->name = name != NULL ? name : "";
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

  m->indices = (const uint8_t *)bld_string(L, idx, anchor, "indices", 0,
                                           &len, fname);
  m->index_size = (uint8_t)bld_integer(L, idx, "index_size", -1, 255,
                                       fname);
  if (m->index_size != 2 && m->index_size != 4) {
    lua_pushnil(L);
    lua_pushfstring(L, "%s: index size %d is not 2 or 4", fname,
                    (int)m->index_size);
    return 2;
  }
  if (len % m->index_size != 0 || len / m->index_size > UINT32_MAX) {
    lua_pushnil(L);
    lua_pushfstring(L, "%s: indices is %I bytes, not a whole number of "
                    "%d-byte indices", fname, (lua_Integer)len,
                    (int)m->index_size);
    return 2;
  }
  m->index_count = (uint32_t)(len / m->index_size);

  lua_getfield(L, idx, "primitive");
  prim = luaL_optstring(L, -1, "triangles");
  for (i = 0; prims[i] != NULL && strcmp(prims[i], prim) != 0; i++) {}
  if (prims[i] == NULL)
    return luaL_error(L, "%s: field 'primitive': invalid option '%s'",
                      fname, prim);
  m->primitive = i == 0 ? RSX_TRIANGLES : RSX_STRIP;
  lua_pop(L, 1);

  /* submeshes: the array lives in a userdata in the anchor table */
  top = lua_gettop(L);
  if (lua_getfield(L, idx, "submeshes") == LUA_TNIL) {
    nsub = 0;
  } else if (lua_istable(L, -1)) {
    nsub = lua_rawlen(L, -1);
  } else {
    return luaL_error(L, "%s: field 'submeshes' must be a table, got %s",
                      fname, luaL_typename(L, -1));
  }
  if (nsub > UINT32_MAX / sizeof *subs)
    return luaL_error(L, "%s: too many submeshes", fname);
  subs = lua_newuserdatauv(L, nsub * sizeof *subs + 1, 0);
  memset(subs, 0, nsub * sizeof *subs);
  lua_rawseti(L, anchor, (lua_Integer)lua_rawlen(L, anchor) + 1);
  for (i = 0; i < nsub; i++) {
    rsx_submesh *s = &subs[i];
    int st;
    lua_Integer mat;
    const char *label;
    lua_rawgeti(L, top + 1, (lua_Integer)i + 1);
    st = lua_gettop(L);
    if (!lua_istable(L, st))
      return luaL_error(L, "%s: submeshes[%I] must be a table, got %s",
                        fname, (lua_Integer)i + 1, luaL_typename(L, st));
    label = lua_pushfstring(L, "%s: submeshes[%I]", fname,
                            (lua_Integer)i + 1);
    s->record = (const uint8_t *)bld_string(L, st, anchor, "record", 0,
                                            &len, label);
    if (len > UINT32_MAX) return luaL_error(L, "%s: too large", label);
    s->record_size = (uint32_t)len;
    s->first_index = (uint32_t)bld_integer(L, st, "first_index", -1,
                                           UINT32_MAX, label);
    s->index_count = (uint32_t)bld_integer(L, st, "index_count", -1,
                                           UINT32_MAX, label);
    /* 1-based in Lua, 0-based in the file; absent: no material */
    mat = bld_integer(L, st, "material", 0, UINT32_MAX - 1, label);
    if (mat == 0 && lua_getfield(L, st, "material") != LUA_TNIL)
      return luaL_error(L, "%s: field 'material' must be 1 or more",
                        label);
    s->material = mat == 0 ? RSX_NONE : (uint32_t)(mat - 1);
    lua_settop(L, top + 1);
  }
  lua_settop(L, anchor);
  m->submeshes = subs;
  m->submesh_count = (uint32_t)nsub;

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

int rsxlua_mesh(lua_State *L)
{
  luaL_checktype(L, 1, LUA_TTABLE);
  return rsxlua_build_mesh(L, 1, "rsxmesh.mesh");
}
