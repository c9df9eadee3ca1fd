/*
** submesh.c - the submesh userdata: selectors, logical UVs, triangles
** (also as face lines), the RSX vertex declaration and the raw record.
*/
#include <stdio.h>

#include "rsxlua.h"

static rl_submesh *sm_check(lua_State *L, int idx, const char *fname)
{
  return rsxlua_check(L, idx, RSXLUA_SUBMESH, fname);
}

/* Its mesh's userdata is the user value: it anchors the bundle (or a
** built mesh's strings), and is what s.mesh gives back. */
void rsxlua_push_submesh(lua_State *L, int parent, const rl_mesh *mesh,
                         uint32_t index)
{
  rl_submesh *sm;
  const rsx_submesh *s = &mesh->m->submeshes[index];
  parent = lua_absindex(L, parent); /* the mesh */
  if (mesh->bundle != NULL) {
    lua_getiuservalue(L, parent, 1); /* its bundle holds the cache */
    if (rsxlua_cached(L, -1, s)) {
      lua_remove(L, -2);
      return;
    }
  }
  sm = rsxlua_new_child(L, sizeof *sm, RSXLUA_SUBMESH, parent);
  sm->bundle = mesh->bundle;
  sm->m = mesh->m;
  sm->s = s;
  sm->index = index;
  sm->materials = mesh->materials;
  if (mesh->bundle != NULL) {
    rsxlua_cache(L, -2, s);
    lua_remove(L, -2);
  }
}

/* A logical or stored UV number at arg: 0..3. */
static int sm_checkuv(lua_State *L, int arg, const char *fname)
{
  lua_Integer i = rsxlua_checkinteger(L, arg, fname);
  rsxlua_argcheck(L, i >= 0 && i <= 3, arg, fname, "UV number must be 0..3");
  return (int)i;
}

/* ------------------------------------------------------------- methods */

static int s_selector(lua_State *L)
{
  rl_submesh *sm = sm_check(L, 1, "submesh:selector");
  lua_Integer i = rsxlua_checkinteger(L, 2, "submesh:selector");
  rsxlua_argcheck(L, i >= 0 && i <= 3, 2, "submesh:selector",
                  "selector byte must be 0..3");
  lua_pushinteger(L, sm->s->selector[i]);
  return 1;
}

static int s_uv_set(lua_State *L)
{
  rl_submesh *sm = sm_check(L, 1, "submesh:uv_set");
  int set = rsx_submesh_uv_set(sm->s, sm_checkuv(L, 2, "submesh:uv_set"));
  if (set < 0)
    lua_pushnil(L);
  else
    lua_pushinteger(L, set);
  return 1;
}

static int s_uv(lua_State *L)
{
  rl_submesh *sm = sm_check(L, 1, "submesh:uv");
  int logical = sm_checkuv(L, 2, "submesh:uv");
  int set = rsx_submesh_uv_set(sm->s, logical);
  if (set < 0) {
    const uint8_t *b = sm->s->selector;
    char hex[9];
    snprintf(hex, sizeof hex, "%02x%02x%02x%02x", b[0], b[1], b[2], b[3]);
    lua_pushnil(L);
    lua_pushfstring(L, "submesh:uv: submesh %I of %s: logical UV%d is "
                    "absent (selectors %s)", (lua_Integer)sm->index + 1,
                    sm->m->name, logical, hex);
    return 2;
  }
  lua_getiuservalue(L, 1, 1); /* the mesh: the accessor anchors it */
  return rsxlua_push_accessor(L, -1, sm->bundle, sm->m, RSX_UV0 + set);
}

static int s_triangles(lua_State *L)
{
  rl_submesh *sm = sm_check(L, 1, "submesh:triangles");
  return rsxlua_triangles(L, sm->m, sm->s, sm->s->first_index,
                          sm->s->index_count, RL_TRI_TABLE, 0);
}

static int s_triangle_bytes(lua_State *L)
{
  rl_submesh *sm = sm_check(L, 1, "submesh:triangle_bytes");
  return rsxlua_triangles(L, sm->m, sm->s, sm->s->first_index,
                          sm->s->index_count, RL_TRI_BYTES,
                          rsxlua_take_file(L, 2));
}

static int s_triangle_count(lua_State *L)
{
  rl_submesh *sm = sm_check(L, 1, "submesh:triangle_count");
  return rsxlua_triangles(L, sm->m, sm->s, sm->s->first_index,
                          sm->s->index_count, RL_TRI_COUNT, 0);
}

/* ---------------------------------------------------------- face lines */

/* Column k (1-based) of the table at arg: {offset = integer}, or false
** for an empty field. */
static void fl_column(lua_State *L, int arg, int k, rsx_face_column *col)
{
  int t = lua_rawgeti(L, arg, k), isint;
  if (t == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
    col->used = 0;
    col->offset = 0;
    lua_pop(L, 1);
    return;
  }
  if (t != LUA_TTABLE)
    luaL_error(L, "submesh:face_lines: columns[%d] must be a table "
               "{offset = integer} or false, got %s", k,
               luaL_typename(L, -1));
  lua_getfield(L, -1, "offset");
  col->offset = lua_tointegerx(L, -1, &isint);
  /* a 1-based u32 vertex number plus the offset must fit */
  if (!isint || col->offset > RSX_FACE_OFFSET_MAX)
    luaL_error(L, "submesh:face_lines: columns[%d].offset must be an "
               "integer below 2^63 - 2^32, got %s", k,
               lua_isnumber(L, -1) ? luaL_tolstring(L, -1, NULL)
               : luaL_typename(L, -1));
  col->used = 1;
  lua_pop(L, 2);
}

/* s:face_lines(prefix, columns [, file]): a line per triangle of
** s:triangles(), written by the core (rsx_face_lines). The text, or with
** a file the bytes written to it; then the count. */
static int s_face_lines(lua_State *L)
{
  rl_submesh *sm = sm_check(L, 1, "submesh:face_lines");
  rsx_face_column columns[RSX_FACE_COLUMNS];
  rsx_face_text how;
  rsx_face_plan plan;
  const uint32_t *tri;
  size_t n;
  void *cache = NULL;
  lua_Unsigned len;
  rsx_sink sink;
  rsx_error err;
  rl_text out;
  int k;

  how.prefix = rsxlua_checklstring(L, 2, &how.prefix_len,
                                   "submesh:face_lines");
  rsxlua_checktype(L, 3, LUA_TTABLE, "submesh:face_lines");
  lua_settop(L, 4); /* 4: the file to write to, or nil */
  len = lua_rawlen(L, 3);
  if (len < 1 || len > RSX_FACE_COLUMNS)
    return luaL_error(L, "submesh:face_lines: columns must hold 1..%d "
                      "columns, got %I", RSX_FACE_COLUMNS, (lua_Integer)len);
  how.columns = columns;
  how.ncolumns = (int)len;
  for (k = 0; k < how.ncolumns; k++) fl_column(L, 3, k + 1, &columns[k]);

  /* the triangles of s:triangles(): one rule for every caller */
  tri = rsxlua_triangle_list(L, sm->m, sm->s, sm->s->first_index,
                             sm->s->index_count, &n);
  if (tri == NULL) return 2;
  /* the columns were checked above: the plan cannot fail */
  if (rsx_face_measure(tri, n, &how, &plan, &err) != 0)
    return luaL_error(L, "submesh:face_lines: %s", err.text);
  if (plan.cache_size > 0 && plan.cache_size != SIZE_MAX)
    cache = lua_newuserdatauv(L, plan.cache_size, 0); /* the GC frees it */
  rsxlua_text_init(L, &out, 4, plan.text_size, "submesh:face_lines");
  sink = rsxlua_text_sink(&out);
  rsx_face_lines(tri, n, &how, &plan, cache, &sink);
  if (rsxlua_text_push(&out) != 1) return 3; /* nil, message, errno */
  lua_pushinteger(L, (lua_Integer)n);
  return 2;
}

static int s_declaration(lua_State *L)
{
  rl_submesh *sm = sm_check(L, 1, "submesh:declaration");
  rsx_decl d[RSX_DECL_MAX];
  int i, n = rsx_declaration(sm->m, sm->s, d);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    lua_createtable(L, 0, 7);
    lua_pushinteger(L, d[i].reg);
    lua_setfield(L, -2, "reg");
    lua_pushstring(L, rsx_attr(d[i].kind, 1)->name);
    lua_setfield(L, -2, "kind");
    if (d[i].logical_uv >= 0) {
      lua_pushinteger(L, d[i].logical_uv);
      lua_setfield(L, -2, "logical_uv");
    }
    lua_pushinteger(L, (lua_Integer)d[i].format_method);
    lua_setfield(L, -2, "format_method");
    lua_pushinteger(L, (lua_Integer)d[i].format_word);
    lua_setfield(L, -2, "format_word");
    lua_pushinteger(L, (lua_Integer)d[i].offset_method);
    lua_setfield(L, -2, "offset_method");
    lua_pushinteger(L, (lua_Integer)d[i].offset_word);
    lua_setfield(L, -2, "offset_word");
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int s_record(lua_State *L)
{
  rl_submesh *sm = sm_check(L, 1, "submesh:record");
  rsxlua_push_record(L, 1, sm->bundle, sm->s->record, sm->s->record_size);
  return 1;
}

static int s_tostring(lua_State *L)
{
  rl_submesh *sm = rsxlua_checkudata(L, 1, RSXLUA_SUBMESH,
                                     "submesh:__tostring");
  if (sm->bundle != NULL && sm->bundle->b == NULL)
    lua_pushliteral(L, RSXLUA_SUBMESH " (bundle closed)");
  else
    lua_pushfstring(L, RSXLUA_SUBMESH " %I of %s (%I %s)",
                    (lua_Integer)sm->index + 1, sm->m->name,
                    (lua_Integer)sm->s->index_count,
                    rsxlua_plural(sm->s->index_count, "index", "indices"));
  return 1;
}

/* ---------------------------------------------------------- properties */

static int sp_index(lua_State *L)
{
  rl_submesh *sm = sm_check(L, 1, "submesh.index");
  lua_pushinteger(L, (lua_Integer)sm->index + 1);
  return 1;
}

static int sp_mesh(lua_State *L)
{
  sm_check(L, 1, "submesh.mesh");
  lua_getiuservalue(L, 1, 1);
  return 1;
}

static int sp_first_index(lua_State *L)
{
  rl_submesh *sm = sm_check(L, 1, "submesh.first_index");
  lua_pushinteger(L, (lua_Integer)sm->s->first_index);
  return 1;
}

static int sp_index_count(lua_State *L)
{
  rl_submesh *sm = sm_check(L, 1, "submesh.index_count");
  lua_pushinteger(L, (lua_Integer)sm->s->index_count);
  return 1;
}

static int sp_material(lua_State *L)
{
  rl_submesh *sm = sm_check(L, 1, "submesh.material");
  /* a built mesh's material numbers belong to a writer, not a bundle */
  if (sm->materials == NULL || sm->s->material == RSX_NONE) {
    lua_pushnil(L);
    return 1;
  }
  rsxlua_checkopen(L, sm->materials, "submesh.material");
  lua_getiuservalue(L, 1, 1); /* the mesh */
  lua_getiuservalue(L, -1, 1); /* its bundle, or a copy's anchors */
  if (sm->bundle == NULL) lua_getfield(L, -1, "materials");
  rsxlua_push_material(L, -1, sm->materials, sm->s->material);
  return 1;
}

static int sp_selectors(lua_State *L)
{
  rl_submesh *sm = sm_check(L, 1, "submesh.selectors");
  char hex[9];
  snprintf(hex, sizeof hex, "%02x%02x%02x%02x", sm->s->selector[0],
           sm->s->selector[1], sm->s->selector[2], sm->s->selector[3]);
  lua_pushstring(L, hex);
  return 1;
}

static int sp_findings(lua_State *L)
{
  rl_submesh *sm = sm_check(L, 1, "submesh.findings");
  rsxlua_push_findings(L, sm->m, sm->s);
  return 1;
}

/* Submeshes of a bundle are cached, so they are raw-equal; those of a
** built mesh are equal when they are the same entry. */
static int s_eq(lua_State *L)
{
  rl_submesh *a = luaL_testudata(L, 1, RSXLUA_SUBMESH);
  rl_submesh *b = luaL_testudata(L, 2, RSXLUA_SUBMESH);
  lua_pushboolean(L, a != NULL && b != NULL && a->s == b->s);
  return 1;
}

static const luaL_Reg s_meta[] = {
  {"__tostring", s_tostring},
  {"__eq", s_eq},
  {NULL, NULL}
};

static const luaL_Reg s_methods[] = {
  {"selector", s_selector},
  {"uv_set", s_uv_set},
  {"uv", s_uv},
  {"triangles", s_triangles},
  {"triangle_bytes", s_triangle_bytes},
  {"triangle_count", s_triangle_count},
  {"face_lines", s_face_lines},
  {"declaration", s_declaration},
  {"record", s_record},
  {NULL, NULL}
};

static const rl_member s_members[] = {
  {"index", sp_index},
  {"mesh", sp_mesh},
  {"first_index", sp_first_index},
  {"index_count", sp_index_count},
  {"material", sp_material},
  {"selectors", sp_selectors},
  {"findings", sp_findings},
  {NULL, NULL}
};

void rsxlua_open_submesh(lua_State *L)
{
  rsxlua_class(L, RSXLUA_SUBMESH, s_meta, s_methods, s_members);
}
