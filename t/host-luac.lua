-- host-luac.lua - the compiled copies of the project's Lua files (src/main.c,
-- "compiled copies"; src/luac.am): made for every helper and standard
-- script, each with its text's size and FNV-1a digest; the host loads a
-- copy in place of its text only while the text is the one it was made
-- from and the copy loads. Run with --probe, this file prints where the
-- host loaded it from: "the text" (the lines below) or a copy that this
-- test writes for it.
if arg[1] == "--probe" then
  print("the text")
  return
end

local t = require "tap"

local srcdir = assert(os.getenv("top_srcdir"))
local builddir = assert(os.getenv("top_builddir"))
local host = assert(os.getenv("RSXMESH"))

local function read(file)
  local f = assert(io.open(file, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local function write(file, s)
  local f = assert(io.open(file, "wb"))
  assert(f:write(s))
  assert(f:close())
end

-- 64-bit FNV-1a (Lua's integers wrap as unsigned arithmetic does)
local function fnv1a(s)
  local h = -3750763034362895579
  for i = 1, #s do h = (h ~ s:byte(i)) * 0x100000001b3 end
  return h
end
-- the published vectors (Fowler, Noll and Vo's test suite)
t.is(string.format("%016x", fnv1a("")), "cbf29ce484222325",
  "FNV-1a 64 of the empty string")
t.is(string.format("%016x", fnv1a("a")), "af63dc4c8601ec8c",
  "FNV-1a 64 of 'a'")
t.is(string.format("%016x", fnv1a("foobar")), "85944171f73967e8",
  "FNV-1a 64 of 'foobar'")

local function header(text)
  return string.format("#rsxmesh-luac %d %x\n", #text, fnv1a(text))
end

-- The copies the build made ------------------------------------------------

-- a cross build makes none: its host cannot run where it is built
local made = io.open(builddir .. "/luac/lua/rsxmesh/cli.luac", "rb")
if made == nil then
  t.skip(1, "the build made no compiled copies (a cross build)")
  t.done_testing()
  return
end
made:close()

for _, rel in ipairs{ "lua/rsxmesh/cli.lua", "lua/rsxmesh/run.lua",
  "lua/rsxmesh/text.lua", "lua/rsxmesh/gltf_import/matching.lua",
  "lua/rsxmesh/synth/level.lua", "scripts/obj-export.lua" } do
  local text = read(srcdir .. "/" .. rel)
  local copy = read(builddir .. "/luac/" .. rel .. "c")
  t.is(copy:sub(1, #header(text)), header(text),
    rel .. ": its copy names the text's size and digest")
  local chunk = load(copy:sub(#header(text) + 1), "copy", "b")
  t.ok(chunk, rel .. ": the rest is a binary chunk")
  t.is(chunk and debug.getinfo(chunk, "S").source,
    "@" .. srcdir .. "/" .. rel,
    rel .. ": compiled under the name the host loads the text by")
end

-- What the host loads -------------------------------------------------------

local me = srcdir .. "/t/host-luac.lua"
local copy = builddir .. "/luac/t/host-luac.luac"
assert(os.execute("mkdir -p '" .. builddir .. "/luac/t'"))
local text = read(me)

local function probe()
  local p = assert(io.popen("'" .. host .. "' '" .. me .. "' --probe 2>&1"))
  local out = p:read("a")
  p:close()
  return out
end

write(copy, header(text) .. string.dump(load('print("the copy")',
  "@" .. me)))
t.is(probe(), "the copy\n", "a copy made from the text as it is: loaded")

write(copy, header(text) .. string.dump(load('error("from the copy")',
  "@" .. me)))
-- (Lua shortens a long name from the left: its end is the file's)
t.like(probe(), "t/host%-luac%.lua:1: from the copy\n",
  "... its messages name the text's file")

write(copy, header(text .. " ") .. string.dump(load('print("the copy")',
  "@" .. me)))
t.is(probe(), "the text\n", "a copy made from another text: not loaded")

write(copy, header(text) .. "\27Lua and not a chunk")
t.is(probe(), "the text\n", "a copy that does not load: the text")

write(copy, header(text) .. "print('a text, not a chunk')")
t.is(probe(), "the text\n", "a copy that is not binary: the text")

write(copy, "#rsxmesh-luac x\n" .. string.dump(load('print("the copy")')))
t.is(probe(), "the text\n", "a copy without its size and digest: the text")

os.remove(copy)
t.is(probe(), "the text\n", "no copy: the text")

t.done_testing()
