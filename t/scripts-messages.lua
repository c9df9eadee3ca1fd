-- scripts-messages.lua - what the scripts say when things go wrong, and
-- their summaries: an output folder that cannot be made is said once (not
-- once per bundle) and nothing is written; gltf-export counts every file
-- it wrote (a .gltf and its .bin are two); render counts only the meshes
-- and triangles of images it wrote; survey of a folder with no bundles
-- writes no report, only the failure; a user's script's usage error
-- names its file in the --help hint; a library whose package is missing
-- raises an error, never ends the program. Bundles A, B, C of
-- scripts-lib.lua.
local t = require "tap"
local lib = require "scripts-lib"
local lfs = require "lfs"

local dir = lib.inputs("A", "B", "C")
lib.write(dir .. "/afile", "not a folder\n")
assert(lfs.mkdir(dir .. "/empty"))

local function lines(s)
  local n = 0
  for _ in s:gmatch("[^\n]*\n") do n = n + 1 end
  return n
end

-- -o naming a file: one line for it, then the summary; exit 1
for _, script in ipairs{ "obj-export", "gltf-export", "uv-layout",
    "render" } do
  if not lib.has_script(script) then
    t.skip(2, "no " .. script)
  else
    local status, _, err = lib.rsxmesh(dir, script, "in", "-o",
      "afile/out")
    t.is(status, 1, script .. " -o afile/out: exit status 1")
    t.like(err, "^" .. script:gsub("%-", "%%-") .. ": afile/out: [^\n]+\n"
      .. script:gsub("%-", "%%-") .. ": nothing written in [%d.]+ s; 1 "
      .. "failure above\n$", script .. ": the output folder's error once, "
      .. "for three bundles")
  end
end

-- gltf-export's summary counts its files: as many as are in the folder
if lib.has_script("gltf-export") then
  local status, _, err = lib.rsxmesh(dir, "gltf-export", "in", "-o", "g")
  local files = 0
  for name in lfs.dir(dir .. "/g") do
    if name ~= "." and name ~= ".." then files = files + 1 end
  end
  t.is(status, 0, "gltf-export: exit status 0")
  t.is(err:match(" written in (%d+) files? in "), tostring(files),
    "gltf-export: the summary's files are those written (" .. files
    .. ": each .gltf with its .bin)")
  t.is(files, 6, "... three .gltf and three .bin")
else
  t.skip(3, "no gltf-export")
end

-- render: an image that cannot be saved counts no mesh
if lib.has_script("render") then
  assert(lfs.mkdir(dir .. "/r"))
  assert(lfs.mkdir(dir .. "/r/A.png")) -- a folder where the image goes
  local status, _, err = lib.rsxmesh(dir, "render", "in/A.rsxb", "-o", "r",
    "--size", "16x16")
  t.is(status, 1, "render, the image not saved: exit status 1")
  t.like(err, "\nrender: 0 bundles, 0 meshes, 0 triangles, 0 images "
    .. "written in ", "render: a failure counts no mesh and no triangle")
else
  t.skip(2, "no render")
end

-- survey of a folder with no bundles: the failure, no report
local status, out, err = lib.rsxmesh(dir, "survey", "empty")
t.is(status, 1, "survey of an empty folder: exit status 1")
t.is(out, "", "... nothing on stdout")
t.is(lines(err), 2, "... the failure and the summary on stderr")
t.like(err, "^survey: empty: no %*%.rsxb files\n", "... saying why")
status, out = lib.rsxmesh(dir, "survey", "--json", "empty")
t.is(out, "", "survey --json of an empty folder: nothing on stdout")

-- --worker given by hand (it is -j's, hidden from --help): refused
status, out, err = lib.rsxmesh(dir, "info", "--worker", "in")
t.is(status, 2, "info --worker by hand: exit status 2")
t.is(out .. err, "info: --worker is for the processes of -j (rsxmesh.pool),"
  .. " not for a command line\n", "... saying whose option it is")

-- a script of the user's: the usage error's hint names the file it ran
lib.write(dir .. "/extra-w.lua", [[
local cli = require "rsxmesh.cli"
local opts = cli.parse(arg, { usage = "extra-w.lua BUNDLE...",
  options = { { long = "width", arg = "N", check = cli.integer(1, 9) } } })
print(opts.width)
]])
status, _, err = lib.rsxmesh(dir, "./extra-w.lua", "--width", "99", "in")
t.is(status, 2, "a user's script, a bad option: exit status 2")
t.like(err, "\nTry '" .. lib.progname_pattern
  .. " %./extra%-w%.lua %-%-help' for more%.\n$",
  "... the hint names the script's file")
status = lib.rsxmesh(dir, "./extra-w.lua", "--help")
t.is(status, 0, "... and that command works")

-- a library that needs a missing package raises an error (rsxmesh.need):
-- the program that required it goes on
assert(lfs.mkdir(dir .. "/nocjson"))
lib.write(dir .. "/nocjson/cjson.lua", "error(\"module 'cjson' not found\")\n")
-- (the folder first in package.path, as LUA_PATH would put it, set by
-- the script: no shell's words for the variable)
lib.write(dir .. "/need.lua", string.format("package.path = %q .. "
  .. "package.path\n", dir .. "/nocjson/?.lua;")
  .. "local ok, e = pcall(require, 'rsxmesh.gltf_import') "
  .. "print(ok, tostring(e)) print('still here')\n")
local _, need_out, need_err = lib.rsxmesh(dir, "need.lua")
t.is(need_out .. need_err, "false\tgltf-import: lua-cjson is missing "
  .. "(Debian: apt-get install lua-cjson)\nstill here\n", "require of a "
  .. "module whose package is missing: an error to catch, not the end of "
  .. "the program")

t.done_testing()
