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
  parent = lua_absindex(L, parent); /* the bundle */
  if (rsxlua_cached(L, parent, m)) return;
  me = rsxlua_new_child(L, sizeof *me, RSXLUA_MESH, parent);
  me->bundle = bundle;
  me->m = m;
  me->materials = bundle;
  rsxlua_cache(L, parent, m);
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

/* ------------------------------------------------------ vector maths */

/* n floats as little-endian float32 bytes into t, whatever the host's
** order. */
static void me_put_floats(rl_text *b, const float *f, size_t n)
{
  size_t i, run, k;
  for (i = 0; i < n; i += run) {
    unsigned char *p;
    run = n - i < 256 ? n - i : 256;
    p = (unsigned char *)rsxlua_text_room(b, run * 4);
    for (k = 0; k < run; k++, p += 4) {
      uint32_t u;
      memcpy(&u, &f[i + k], sizeof u);
      p[0] = (unsigned char)(u & 0xFF);
      p[1] = (unsigned char)((u >> 8) & 0xFF);
      p[2] = (unsigned char)((u >> 16) & 0xFF);
      p[3] = (unsigned char)(u >> 24);
    }
    rsxlua_text_add(b, run * 4);
  }
}

/* Scratch space the GC reclaims, so an error leaks nothing. */
static void *me_scratch(lua_State *L, size_t count, size_t size)
{
  if (count > (SIZE_MAX - 1) / size)
    luaL_error(L, "mesh: %I vertices are too many", (lua_Integer)count);
  return lua_newuserdatauv(L, count * size + 1, 0);
}

/* The unit normals in double (rsx_mesh_unit_normals) as a scratch
** userdata pushed on the stack, or NULL with the message in err. */
static double *me_normals(lua_State *L, const rsx_mesh *m,
                          rsx_normal_fixes *fixes, rsx_error *err)
{
  double *n = me_scratch(L, (size_t)m->vertex_count * 3, sizeof *n);
  return rsx_mesh_unit_normals(m, n, fixes, err) == 0 ? n : NULL;
}

static int m_unit_normals(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:unit_normals");
  int file = rsxlua_take_file(L, 2);
  size_t n = (size_t)me->m->vertex_count * 3, i, run;
  rsx_normal_fixes fx;
  rsx_error err;
  rl_text b;
  float f[256];
  const double *d = me_normals(L, me->m, &fx, &err);
  if (d == NULL) return rsxlua_fail(L, err.text);
  rsxlua_text_init(L, &b, file, n * 4, "mesh:unit_normals");
  for (i = 0; i < n; i += run) {
    size_t k;
    run = n - i < 256 ? n - i : 256;
    for (k = 0; k < run; k++) f[k] = (float)d[i + k];
    me_put_floats(&b, f, run);
  }
  if (rsxlua_text_push(&b) != 1) return 3; /* nil, message, errno */
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, fx.zero);
  lua_setfield(L, -2, "zero");
  lua_pushinteger(L, fx.from_faces);
  lua_setfield(L, -2, "from_faces");
  lua_pushinteger(L, fx.up);
  lua_setfield(L, -2, "up");
  lua_pushinteger(L, fx.renormalised);
  lua_setfield(L, -2, "renormalised");
  return 2;
}

static int m_tangent_frames(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:tangent_frames");
  int file = rsxlua_take_file(L, 2);
  rsx_normal_fixes nf;
  rsx_tangent_fixes tf;
  rsx_error err;
  rl_text b;
  float *t;
  const double *d = me_normals(L, me->m, &nf, &err);
  if (d == NULL) return rsxlua_fail(L, err.text);
  t = me_scratch(L, (size_t)me->m->vertex_count * 4, sizeof *t);
  if (rsx_mesh_tangent_frames(me->m, d, t, &tf, &err) != 0)
    return rsxlua_fail(L, err.text);
  rsxlua_text_init(L, &b, file, (size_t)me->m->vertex_count * 16,
                   "mesh:tangent_frames");
  me_put_floats(&b, t, (size_t)me->m->vertex_count * 4);
  if (rsxlua_text_push(&b) != 1) return 3; /* nil, message, errno */
  lua_createtable(L, 0, 2);
  lua_pushinteger(L, tf.zero_a);
  lua_setfield(L, -2, "zero_a");
  lua_pushinteger(L, tf.no_handedness);
  lua_setfield(L, -2, "no_handedness");
  return 2;
}

static int m_submesh(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:submesh");
  lua_Integer i = rsxlua_checkinteger(L, 2, "mesh:submesh");
  if (i >= 1 && i <= (lua_Integer)me->m->submesh_count)
    rsxlua_push_submesh(L, 1, me, (uint32_t)(i - 1));
  else
    lua_pushnil(L);
  return 1;
}

static int m_submeshes_next(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:submeshes");
  lua_Integer i = rsxlua_checkinteger(L, 2, "mesh:submeshes") + 1;
  if (i < 1 || i > (lua_Integer)me->m->submesh_count) return 0;
  lua_pushinteger(L, i);
  rsxlua_push_submesh(L, 1, me, (uint32_t)(i - 1));
  return 2;
}

static int m_submeshes(lua_State *L)
{
  me_check(L, 1, "mesh:submeshes");
  luaL_getmetatable(L, RSXLUA_MESH);
  lua_pushcfunction(L, m_submeshes_next);
  rsxlua_pinned(L, RL_PIN_CHILD, -2); /* the step pins, as the methods */
  lua_remove(L, -2);
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
  return rsxlua_mesh_triangles(L, me->m, RL_TRI_TABLE, 0);
}

static int m_triangle_bytes(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:triangle_bytes");
  return rsxlua_mesh_triangles(L, me->m, RL_TRI_BYTES,
                               rsxlua_take_file(L, 2));
}

static int m_index(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:index");
  lua_Integer i = rsxlua_checkinteger(L, 2, "mesh:index");
  if (i < 1 || i > (lua_Integer)me->m->index_count)
    return luaL_error(L, "mesh:index: index %I out of range 1..%I", i,
                      (lua_Integer)me->m->index_count);
  lua_pushinteger(L, (lua_Integer)rsx_mesh_index(me->m, (uint32_t)(i - 1)));
  return 1;
}

/* m:stream("mmp"|"mgp"): the stream's bytes as stored */
static int m_stream(lua_State *L)
{
  static const char *const streams[] = {"mmp", "mgp", NULL};
  rl_mesh *me = me_check(L, 1, "mesh:stream");
  const rsx_mesh *m = me->m;
  int mgp = rsxlua_checkoption(L, 2, streams, "mesh:stream");
  const uint8_t *p = mgp ? m->mgp : m->mmp;
  size_t n = (size_t)m->vertex_count * (mgp ? m->mgp_stride : m->mmp_stride);
  lua_pushlstring(L, p != NULL ? (const char *)p : "", p != NULL ? n : 0);
  return 1;
}

static int m_index_bytes(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:index_bytes");
  lua_pushlstring(L, (const char *)me->m->indices,
                  (size_t)me->m->index_count * me->m->index_size);
  return 1;
}

static int m_tostring(lua_State *L)
{
  rl_mesh *me = rsxlua_checkudata(L, 1, RSXLUA_MESH, "mesh:__tostring");
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

/* "mesh 3 (wall)", as the core's messages name it: "mesh (NAME)" for a
** built mesh, which has no number. */
static int mp_label(lua_State *L)
{
  const rsx_mesh *m = me_check(L, 1, "mesh.label")->m;
  size_t size = strlen(m->name) + 48; /* the name whole, and a number */
  luaL_Buffer b;
  char *p = luaL_buffinitsize(L, &b, size);
  rsx_mesh_label(m, p, size);
  luaL_pushresultsize(&b, strlen(p));
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
  rsxlua_push_findings(L, me->m, NULL);
  return 1;
}

/* rsxmesh.mesh{...} */
static int me_new(lua_State *L)
{
  rsxlua_checktype(L, 1, LUA_TTABLE, "rsxmesh.mesh");
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
  {"unit_normals", m_unit_normals},
  {"tangent_frames", m_tangent_frames},
  {"index", m_index},
  {"stream", m_stream},
  {"index_bytes", m_index_bytes},
  {"with", rsxlua_mesh_with},
  {NULL, NULL}
};

static const rl_member m_members[] = {
  {"name", mp_name},
  {"number", mp_number},
  {"label", mp_label},
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
