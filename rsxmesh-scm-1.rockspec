-- rsxmesh-scm-1.rockspec - the Lua module, its helpers and the standard
-- scripts for LuaRocks: `luarocks --lua-version 5.4 make` in the source
-- tree. The build is the project's own (luarocks.mk drives Autotools).
rockspec_format = "3.0"
package = "rsxmesh"
version = "scm-1"
-- luarocks make builds the folder it runs in and fetches nothing: the
-- url only names where the sources come from.
source = {
  url = "git+file://./",
}
description = {
  summary = "Decode and script the meshes of RSXB bundles (PS3) in Lua",
  detailed = [[
rsxmesh decodes the vertex formats of a PS3 game's RSXB mesh bundles
exactly (the vertex-format mask, packed CMP vectors, half-float UVs, the
UV selector bytes of each submesh) and lets you write exporters, filters
and reports in Lua. This rock installs require "rsxmesh", the helpers
rsxmesh.cli, rsxmesh.gltf, ... and the standard scripts as modules
rsxmesh.scripts.NAME (obj-export, gltf-export, survey, ...).
]],
}
dependencies = {
  "lua >= 5.4, < 5.5",
  "luafilesystem",
  "lua-cjson",
}
build = {
  type = "make",
  makefile = "luarocks.mk",
  build_variables = {
    CFLAGS = "$(CFLAGS)",
    LUA_INCDIR = "$(LUA_INCDIR)",
  },
  install_variables = {
    LIBDIR = "$(LIBDIR)",
    LUADIR = "$(LUADIR)",
  },
}
