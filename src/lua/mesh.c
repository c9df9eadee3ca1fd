/*
** mesh.c - the mesh userdata: its attributes, submeshes, triangles and
** findings, and rsxmesh.mesh{...} (built by build.c).
*/
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
  return rsxlua_mesh_triangles(L, me->m, 0);
}

static int m_triangle_bytes(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:triangle_bytes");
  return rsxlua_mesh_triangles(L, me->m, 1);
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
  lua_pushfstring(L, RSXLUA_MESH " %s (mask %s, %I %s, %I %s)",
                  me->m->name, mask, (lua_Integer)me->m->vertex_count,
                  rsxlua_plural(me->m->vertex_count, "vertex", "vertices"),
                  (lua_Integer)me->m->submesh_count,
                  rsxlua_plural(me->m->submesh_count, "submesh",
                                "submeshes"));
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

/* rsxmesh.mesh{...} */
static int me_new(lua_State *L)
{
  luaL_checktype(L, 1, LUA_TTABLE);
  return rsxlua_build_mesh(L, 1, "rsxmesh.mesh");
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
  lua_pushcfunction(L, me_new);
  lua_setfield(L, -2, "mesh");
}
