-- t/interrupt-points.lua - Control-C that lands inside a protected call
-- still stops the run: exit status 130, one line, no traceback, and no
-- input of the run taken for failed.
--
-- The host raises SIGINT as the error "interrupted!" from a hook at the
-- next Lua event. Here an -e chunk sets such a hook on the call of one
-- chosen function, so that the interrupt lands at that exact point every
-- time, where a real signal (t/export-interrupt.sh) lands where the clock
-- puts it: in the first process of -j as it reads a worker's state (a CI
-- run lost its interrupt there), in uv-layout's drawing of one set, in
-- gltf-import's JSON parse and in its opening of the base bundle.
--
-- The inputs: bundles A, B and C of scripts-lib.lua.

local t = require "tap"
local lib = require "scripts-lib"
local lfs = require "lfs"

local dir = lib.inputs("A", "B", "C")

-- An -e chunk: raise "interrupted!" as the host does, once, at the first
-- call of a function for which the Lua expression test (of the called
-- function's debug.getinfo "fS", as i) is true.
local function at_call(test)
  return "debug.sethook(function() local i = debug.getinfo(2, 'fS') if "
    .. test .. " then debug.sethook() error('interrupted!') end end, 'c')"
end

-- The chunk of a worker's state, which the first process runs to read it.
local STATE = at_call("i.source:find('%.state$')")
-- The core's renderer, which uv-layout draws a UV set with.
local RENDER = at_call("i.func == rsxmesh.render")
-- A C function given JSON text first: lua-cjson's decode.
local DECODE = at_call("i.what == 'C' and type(select(2, "
  .. "debug.getlocal(2, 1))) == 'string' and select(2, "
  .. "debug.getlocal(2, 1)):find('^%s*{')")
-- The opening of a bundle, the first thing gltf-import does.
local OPEN = at_call("i.func == rsxmesh.open")

local function files(sub)
  local n = 0
  if lfs.attributes(dir .. "/" .. sub, "mode") ~= "directory" then
    return 0
  end
  for name in lfs.dir(dir .. "/" .. sub) do
    if name ~= "." and name ~= ".." then n = n + 1 end
  end
  return n
end

-- interrupted(name, want_err, hook, args...): the run with the hook, exit
-- status 130 and stderr exactly want_err and a newline (so no traceback,
-- no failure counted).
local function interrupted(name, want_err, hook, ...)
  local status, _, err = lib.rsxmesh(dir, "-e", hook, ...)
  t.is(status, 130, name .. ": exit status 130")
  t.is(err, want_err .. "\n", name .. ": '" .. want_err .. "' alone")
end

-- -j 2: the first process is interrupted as it reads the first state
-- back; before, it took the worker for a failed one ("the worker process
-- failed (exit status 0)") and went on, exit status 1
interrupted("obj-export -j 2, reading a worker's state",
  "obj-export: interrupted", STATE, "obj-export", "-j", "2", "in",
  "-o", "obj")
interrupted("gltf-export -j 2 --glb, reading a worker's state",
  "gltf-export: interrupted", STATE, "gltf-export", "-j", "2", "--glb",
  "in", "-o", "glb")
interrupted("survey -j 2, reading a worker's state",
  "survey: interrupted", STATE, "survey", "-j", "2", "in")
-- the same run without the hook goes to its end: the hook is what stops
-- it (exit status 1 for the stride finding of C's second mesh, and an OBJ
-- and an MTL for each bundle)
local status, _, err = lib.rsxmesh(dir, "obj-export", "-j", "2", "in",
  "-o", "obj2")
t.is_deeply({ status, files("obj2"), err:find("; 1 failure above\n$") ~= nil },
  { 1, 6, true }, "obj-export -j 2 without the interrupt: to the end")

if lib.has_script("uv-layout") then
  -- before, the layout's protected call made the interrupt a failure of
  -- the set, and the run went on to the next
  interrupted("uv-layout, drawing a set", "uv-layout: in/tex/brick.png: "
    .. "No such file or directory (drawn grey)\nuv-layout: in/A.rsxb: "
    .. "interrupted", RENDER, "uv-layout", "in", "-o", "uv")
  t.is(files("uv"), 0, "uv-layout interrupted: nothing written")
else
  t.skip("uv-layout is not built", 3)
end

local cjson_ok = pcall(require, "cjson")
if lib.has_script("gltf-import") and cjson_ok then
  assert(lib.rsxmesh(dir, "gltf-export", "in/A.rsxb", "-o", "gltf") == 0)
  -- before: "gltf-import: gltf/A.gltf: JSON parse error: ...interrupted!",
  -- exit status 1
  interrupted("gltf-import, parsing the JSON", "gltf-import: gltf/A.gltf: "
    .. "interrupted", DECODE, "gltf-import", "gltf/A.gltf", "--base",
    "in/A.rsxb", "-o", "new.rsxb")
  -- before: the host's traceback, exit status 1
  interrupted("gltf-import, opening the base", "gltf-import: gltf/A.gltf: "
    .. "interrupted", OPEN, "gltf-import", "gltf/A.gltf", "--base",
    "in/A.rsxb", "-o", "new.rsxb")
  t.ok(not lfs.attributes(dir .. "/new.rsxb"),
    "gltf-import interrupted: no bundle written")
else
  t.skip("gltf-import or lua-cjson is missing", 5)
end

lib.cleanup()
t.done_testing()
