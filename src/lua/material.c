/*
** material.c - the material userdata: name, samplers, base colour.
*/
#include "rsxlua.h"

static rl_material *ma_check(lua_State *L, int idx, const char *fname)
{
  return rsxlua_check(L, idx, RSXLUA_MATERIAL, fname);
}

void rsxlua_push_material(lua_State *L, int parent, rl_bundle *bundle,
                          uint32_t index)
{
  rl_material *ma;
  const rsx_material *mat = rsx_bundle_material(bundle->b, index);
  parent = lua_absindex(L, parent); /* the bundle */
  if (rsxlua_cached(L, parent, mat)) return;
  ma = rsxlua_new_child(L, sizeof *ma, RSXLUA_MATERIAL, parent);
  ma->bundle = bundle;
  ma->mat = mat;
  ma->index = index;
  rsxlua_cache(L, parent, mat);
}

static int mat_samplers(lua_State *L)
{
  rl_material *ma = ma_check(L, 1, "material:samplers");
  uint32_t i, n = ma->mat->sampler_count;
  lua_createtable(L, n < 1024 ? (int)n : 0, 0);
  for (i = 0; i < n; i++) {
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, (lua_Integer)ma->mat->samplers[i].slot);
    lua_setfield(L, -2, "slot");
    lua_pushstring(L, ma->mat->samplers[i].texture);
    lua_setfield(L, -2, "texture");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

static int mat_tostring(lua_State *L)
{
  rl_material *ma = rsxlua_checkudata(L, 1, RSXLUA_MATERIAL,
                                      "material:__tostring");
  if (ma->bundle->b == NULL)
    lua_pushliteral(L, RSXLUA_MATERIAL " (bundle closed)");
  else
    lua_pushfstring(L, RSXLUA_MATERIAL " %s (%I %s)", ma->mat->name,
                    (lua_Integer)ma->mat->sampler_count,
                    rsxlua_plural(ma->mat->sampler_count, "sampler",
                                  "samplers"));
  return 1;
}

static int matp_name(lua_State *L)
{
  lua_pushstring(L, ma_check(L, 1, "material.name")->mat->name);
  return 1;
}

static int matp_index(lua_State *L)
{
  rl_material *ma = ma_check(L, 1, "material.index");
  lua_pushinteger(L, (lua_Integer)ma->index + 1);
  return 1;
}

static int matp_base_colour(lua_State *L)
{
  rl_material *ma = ma_check(L, 1, "material.base_colour");
  const char *tex = rsx_material_base_colour(ma->mat);
  if (tex == NULL)
    lua_pushnil(L);
  else
    lua_pushstring(L, tex);
  return 1;
}

static int matp_sampler_count(lua_State *L)
{
  rl_material *ma = ma_check(L, 1, "material.sampler_count");
  lua_pushinteger(L, (lua_Integer)ma->mat->sampler_count);
  return 1;
}

static const luaL_Reg mat_meta[] = {
  {"__tostring", mat_tostring},
  {NULL, NULL}
};

static const luaL_Reg mat_methods[] = {
  {"samplers", mat_samplers},
  {NULL, NULL}
};

static const rl_member mat_members[] = {
  {"name", matp_name},
  {"index", matp_index},
  {"base_colour", matp_base_colour},
  {"sampler_count", matp_sampler_count},
  {NULL, NULL}
};

void rsxlua_open_material(lua_State *L)
{
  rsxlua_class(L, RSXLUA_MATERIAL, mat_meta, mat_methods, mat_members);
}
