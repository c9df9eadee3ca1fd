/* module.c - placeholder until the binding is written */
#include <lua.h>
#include <lauxlib.h>
int luaopen_rsxmesh(lua_State *L);
int luaopen_rsxmesh(lua_State *L) { lua_newtable(L); return 1; }
