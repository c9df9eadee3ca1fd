-- .luacheckrc - luacheck (Debian's lua-check) over lua/ and scripts/,
-- run by make check (t/luacheck.sh). Lua 5.4, as the host runs them; the
-- scripts' arg is the host's, as lua.c gives it.
std = "lua54"
max_line_length = 79
files["scripts"] = { read_globals = { "arg" } }
files["lua/rsxmesh/jobs.lua"] = { read_globals = { "arg" } }
-- LuaLS annotations: declarations never run (t/api-meta.lua checks them)
exclude_files = { "lua/types/*.lua" }
