/*
** bundle.c - the bundle userdata: rsxmesh.open, rsxmesh.load, its meshes
** and materials, and close.
*/
#include <string.h>

#include "rsxlua.h"

static rl_bundle *bun_check(lua_State *L, int idx, const char *fname)
{
  rl_bundle *b = rsxlua_checkudata(L, idx, RSXLUA_BUNDLE, fname);
  rsxlua_checkopen(L, b, fname);
  return b;
}

/* A closed bundle first, then the file: an error in between leaves a
** consistent object for __gc. Its user value 1 tracks the metatables of
** its accessors, which closing it empties (rsxlua_track); 2 caches the
** userdata of its entries (rsxlua_cached). */
static rl_bundle *bun_new(lua_State *L)
{
  rl_bundle *b = lua_newuserdatauv(L, sizeof *b, 3);
  b->b = b->held = NULL;
  b->pins = 0;
  luaL_setmetatable(L, RSXLUA_BUNDLE);
  rsxlua_new_tracker(L);
  lua_setiuservalue(L, -2, 1);
  rsxlua_new_cache(L);
  lua_setiuservalue(L, -2, 2);
  rsxlua_new_pin(L, -1); /* user value 3 */
  return b;
}

/* rsxmesh.open(path) */
static int bun_open(lua_State *L)
{
  const char *path = rsxlua_checklstring(L, 1, NULL, "rsxmesh.open");
  rl_bundle *b = bun_new(L);
  rsx_error err;
  b->b = rsx_bundle_open(path, &err);
  if (b->b == NULL) return rsxlua_fail(L, err.text);
  return 1;
}

/* rsxmesh.load(bytes [, name]) */
static int bun_load(lua_State *L)
{
  size_t size;
  const char *bytes = rsxlua_checklstring(L, 1, &size, "rsxmesh.load");
  const char *name = rsxlua_optstring(L, 2, "(memory)", "rsxmesh.load");
  rl_bundle *b = bun_new(L);
  rsx_error err;
  b->b = rsx_bundle_from_memory(bytes, size, name, &err);
  if (b->b == NULL) return rsxlua_fail(L, err.text);
  return 1;
}

/* ------------------------------------------------------------ methods */

static int b_mesh(lua_State *L)
{
  rl_bundle *b = bun_check(L, 1, "bundle:mesh");
  uint32_t n = rsx_bundle_mesh_count(b->b);
  if (lua_type(L, 2) == LUA_TSTRING) {
    const char *name = lua_tostring(L, 2);
    uint32_t i;
    for (i = 0; i < n; i++) {
      const rsx_mesh *m = rsx_bundle_mesh(b->b, i);
      if (strcmp(m->name, name) == 0) {
        rsxlua_push_mesh(L, 1, b, m);
        return 1;
      }
    }
  } else {
    lua_Integer k = rsxlua_checkinteger(L, 2, "bundle:mesh");
    if (k >= 1 && k <= (lua_Integer)n) {
      rsxlua_push_mesh(L, 1, b, rsx_bundle_mesh(b->b, (uint32_t)(k - 1)));
      return 1;
    }
  }
  lua_pushnil(L);
  return 1;
}

static int b_meshes_next(lua_State *L)
{
  rl_bundle *b = bun_check(L, 1, "bundle:meshes");
  lua_Integer k = rsxlua_checkinteger(L, 2, "bundle:meshes") + 1;
  if (k < 1 || k > (lua_Integer)rsx_bundle_mesh_count(b->b)) return 0;
  lua_pushinteger(L, k);
  rsxlua_push_mesh(L, 1, b, rsx_bundle_mesh(b->b, (uint32_t)(k - 1)));
  return 2;
}

static int b_meshes(lua_State *L)
{
  bun_check(L, 1, "bundle:meshes");
  luaL_getmetatable(L, RSXLUA_BUNDLE);
  lua_pushcfunction(L, b_meshes_next);
  rsxlua_pinned(L, RL_PIN_BUNDLE, -2); /* the step pins, as the methods */
  lua_remove(L, -2);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

static int b_material(lua_State *L)
{
  rl_bundle *b = bun_check(L, 1, "bundle:material");
  uint32_t n = rsx_bundle_material_count(b->b);
  if (lua_type(L, 2) == LUA_TSTRING) {
    const char *name = lua_tostring(L, 2);
    uint32_t i;
    for (i = 0; i < n; i++) {
      if (strcmp(rsx_bundle_material(b->b, i)->name, name) == 0) {
        rsxlua_push_material(L, 1, b, i);
        return 1;
      }
    }
  } else {
    lua_Integer k = rsxlua_checkinteger(L, 2, "bundle:material");
    if (k >= 1 && k <= (lua_Integer)n) {
      rsxlua_push_material(L, 1, b, (uint32_t)(k - 1));
      return 1;
    }
  }
  lua_pushnil(L);
  return 1;
}

static int b_materials_next(lua_State *L)
{
  rl_bundle *b = bun_check(L, 1, "bundle:materials");
  lua_Integer k = rsxlua_checkinteger(L, 2, "bundle:materials") + 1;
  if (k < 1 || k > (lua_Integer)rsx_bundle_material_count(b->b)) return 0;
  lua_pushinteger(L, k);
  rsxlua_push_material(L, 1, b, (uint32_t)(k - 1));
  return 2;
}

static int b_materials(lua_State *L)
{
  bun_check(L, 1, "bundle:materials");
  luaL_getmetatable(L, RSXLUA_BUNDLE);
  lua_pushcfunction(L, b_materials_next);
  rsxlua_pinned(L, RL_PIN_BUNDLE, -2); /* the step pins, as the methods */
  lua_remove(L, -2);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

/* close, __close and __gc: frees the bytes (nothing can use them any
** more: every child checks its bundle, which it anchors; a call running
** on them has pinned them, and they are freed when it ends, see
** rsxlua_pin) and makes the fields of its accessors raise as their
** methods do. Marked closed first; a second close does nothing. */
static int b_close(lua_State *L)
{
  rl_bundle *b = rsxlua_checkudata(L, 1, RSXLUA_BUNDLE, "bundle:close");
  if (rsxlua_close_bundle(b))
    rsxlua_close_tracked(L, 1, "bundle is closed");
  return 0;
}

static int b_tostring(lua_State *L)
{
  rl_bundle *b = rsxlua_checkudata(L, 1, RSXLUA_BUNDLE, "bundle:__tostring");
  if (b->b == NULL)
    lua_pushliteral(L, RSXLUA_BUNDLE " (closed)");
  else {
    lua_Integer n = (lua_Integer)rsx_bundle_mesh_count(b->b);
    lua_pushfstring(L, RSXLUA_BUNDLE " %s (%I %s)", rsx_bundle_name(b->b),
                    n, rsxlua_plural(n, "mesh", "meshes"));
  }
  return 1;
}

static int b_len(lua_State *L)
{
  rl_bundle *b = bun_check(L, 1, "bundle:__len");
  lua_pushinteger(L, (lua_Integer)rsx_bundle_mesh_count(b->b));
  return 1;
}

/* --------------------------------------------------------- properties */

static int bp_path(lua_State *L)
{
  lua_pushstring(L, rsx_bundle_path(bun_check(L, 1, "bundle.path")->b));
  return 1;
}

static int bp_name(lua_State *L)
{
  lua_pushstring(L, rsx_bundle_name(bun_check(L, 1, "bundle.name")->b));
  return 1;
}

#define BP_INTEGER(fn, field)                                          \
  static int fn(lua_State *L)                                          \
  {                                                                    \
    rl_bundle *b = bun_check(L, 1, "bundle." #field);                  \
    lua_pushinteger(L, (lua_Integer)rsx_bundle_##field(b->b));         \
    return 1;                                                          \
  }

BP_INTEGER(bp_size, size)
BP_INTEGER(bp_mesh_count, mesh_count)
BP_INTEGER(bp_submesh_count, submesh_count)
BP_INTEGER(bp_material_count, material_count)
BP_INTEGER(bp_sampler_count, sampler_count)

static int bp_closed(lua_State *L)
{
  rl_bundle *b = rsxlua_checkudata(L, 1, RSXLUA_BUNDLE, "bundle.closed");
  lua_pushboolean(L, b->b == NULL);
  return 1;
}

static const luaL_Reg b_meta[] = {
  {"__gc", b_close},
  {"__close", b_close},
  {"__tostring", b_tostring},
  {"__len", b_len},
  {NULL, NULL}
};

static const luaL_Reg b_methods[] = {
  {"mesh", b_mesh},
  {"meshes", b_meshes},
  {"material", b_material},
  {"materials", b_materials},
  {"close", b_close},
  {NULL, NULL}
};

static const rl_member b_members[] = {
  {"path", bp_path},
  {"name", bp_name},
  {"size", bp_size},
  {"mesh_count", bp_mesh_count},
  {"submesh_count", bp_submesh_count},
  {"material_count", bp_material_count},
  {"sampler_count", bp_sampler_count},
  {"closed", bp_closed},
  {NULL, NULL}
};

static const luaL_Reg b_functions[] = {
  {"open", bun_open},
  {"load", bun_load},
  {NULL, NULL}
};

void rsxlua_open_bundle(lua_State *L)
{
  rsxlua_class(L, RSXLUA_BUNDLE, b_meta, b_methods, b_members);
  luaL_setfuncs(L, b_functions, 0);
}
