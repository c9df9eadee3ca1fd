/*
** init.c - luaopen_rsxmesh, over every file of the binding as linit.c is
** over Lua's libraries: the module table, filled by each part in turn.
*/
#include "rsxlua.h"

/* Each part registers its metatable (if any) and adds its functions to
** the module table at the top of the stack. A new type is one line. */
static void (*const parts[])(lua_State *L) = {
  rsxlua_open_functions,
  rsxlua_open_json,
  rsxlua_open_bundle,
  rsxlua_open_mesh,
  rsxlua_open_submesh,
  rsxlua_open_material,
  rsxlua_open_format,
  rsxlua_open_accessor,
  rsxlua_open_record,
  rsxlua_open_writer,
  rsxlua_open_image,
  rsxlua_open_render,
  rsxlua_open_pool,
  rsxlua_open_scan,
  rsxlua_open_gltf,
  NULL
};

int luaopen_rsxmesh(lua_State *L)
{
  int i;
  lua_newtable(L);
  for (i = 0; parts[i] != NULL; i++) parts[i](L);
  lua_pushliteral(L, "rsxmesh " RSX_VERSION);
  lua_setfield(L, -2, "_VERSION");
  return 1;
}
