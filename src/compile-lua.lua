-- compile-lua.lua - the compiled copies of the project's Lua files, which
-- the host loads instead of parsing the text (src/main.c, "compiled
-- copies"; src/luac.am runs this with the host just built):
--
--   rsxmesh -E src/compile-lua.lua TEXT NAME COPY [TEXT NAME COPY ...]
--
-- For each triple: the Lua file TEXT, compiled as the host loads it from
-- NAME (its chunk name "@NAME", a first line starting with '#' and a BOM
-- skipped as luaL_loadfile skips them), written to COPY as the line
-- "#rsxmesh-luac SIZE DIGEST" (TEXT's size and 64-bit FNV-1a digest, in
-- hex) and string.dump's bytes, debug information kept.
local args = { ... }
assert(#args % 3 == 0, "usage: compile-lua.lua TEXT NAME COPY ...")

-- FNV-1a, 64 bits: Lua's integers wrap as C's unsigned long long does.
local function fnv1a(s)
  local h = -3750763034362895579 -- 14695981039346656037
  for i = 1, #s do
    h = (h ~ s:byte(i)) * 1099511628211
  end
  return h
end

for i = 1, #args, 3 do
  local text_file, name, copy = args[i], args[i + 1], args[i + 2]
  local f = assert(io.open(text_file, "rb"))
  local text = f:read("a")
  f:close()
  local source = text:gsub("^\239\187\191", ""):gsub("^#[^\n]*", "")
  local chunk = assert(load(source, "@" .. name, "t"))
  local out = assert(io.open(copy, "wb"))
  assert(out:write(string.format("#rsxmesh-luac %d %x\n", #text,
    fnv1a(text)), string.dump(chunk)))
  assert(out:close())
end
