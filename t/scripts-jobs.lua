-- scripts-jobs.lua - -j N: the batch scripts give the same output, byte
-- for byte, whatever the number of worker processes, a failing bundle
-- included: stdout, stderr (but for the seconds the summary states), the
-- exit status and every file written; and -j 2 does start a worker
-- process per bundle, -j 1 none.
--
-- The inputs: bundles A, B and C of scripts-lib.lua (C with a stride
-- finding and selector findings), a truncated copy of A, and a folder
-- below, so that outputs mirror it.

local t = require "tap"
local lib = require "scripts-lib"
local lfs = require "lfs"

local dir = lib.tmpdir()
assert(lfs.mkdir(dir .. "/in"))
assert(lfs.mkdir(dir .. "/in/sub"))
lib.bundle_a(dir .. "/in/A.rsxb")
lib.bundle_b(dir .. "/in/sub/B.rsxb")
lib.bundle_c(dir .. "/in/C.rsxb")
local a = lib.read(dir .. "/in/A.rsxb")
lib.write(dir .. "/in/BROKEN.rsxb", a:sub(1, #a - 7))

-- Every file below root, as path -> bytes.
local function files(root, rel, out)
  out = out or {}
  for name in lfs.dir(root) do
    if name ~= "." and name ~= ".." then
      local file, sub = root .. "/" .. name, (rel and rel .. "/" or "") .. name
      if lfs.attributes(file, "mode") == "directory" then
        files(file, sub, out)
      else
        out[sub] = lib.read(file)
      end
    end
  end
  return out
end

local function same_files(x, y, what)
  local ok = true
  for k, v in pairs(x) do
    if y[k] ~= v then ok = false; t.diag(what .. ": differs: " .. k) end
  end
  for k in pairs(y) do
    if x[k] == nil then ok = false; t.diag(what .. ": only with -j: " .. k) end
  end
  t.ok(ok and next(x) ~= nil, what)
end

-- The summary's seconds are the one thing that may differ.
local function unclocked(s)
  return (s:gsub(" in %d+%.%d+ s", " in - s"))
end

local function run(script, j, ...)
  local out = "out-" .. script .. "-" .. j
  local args = { script, "-j", tostring(j), ... }
  for i, x in ipairs(args) do if x == "OUT" then args[i] = out end end
  local status, stdout, stderr = lib.rsxmesh(dir, table.unpack(args))
  local written = lfs.attributes(dir .. "/" .. out, "mode") == "directory"
    and files(dir .. "/" .. out) or {}
  -- the output folder's name is the one other difference
  stderr = unclocked(stderr):gsub(out:gsub("%-", "%%-"), "OUT")
  return { status = status, stdout = stdout, stderr = stderr,
    files = written }
end

-- The cases with BROKEN.rsxb fail with exit status 1, the others (good)
-- succeed, whatever -j: C's findings fail none of the survey (it lists
-- them), but its mesh "odd" fails obj-export.
local CASES = {
  { "info", "in" },
  { "info", "--declaration", "in" },
  { "uv-selectors", "in" },
  { "survey", "in" },
  { "info", "--json", "in" },
  { "survey", "--json", "in" },
  { "uv-selectors", "--json", "in" },
  { "uv-selectors", "--tsv", "in" },
  { "obj-export", "in", "-o", "OUT" },
  { "obj-export", "--per-mesh", "in", "-o", "OUT" },
  { "gltf-export", "in", "-o", "OUT", "-v" },
  { "gltf-export", "--glb", "in/C.rsxb", "in/BROKEN.rsxb", "in/A.rsxb",
    "-o", "OUT" },
  { "obj-export", "-o", "OUT", "in/A.rsxb", "in/sub/B.rsxb" },
  { "survey", "in/A.rsxb", "in/sub/B.rsxb", "in/C.rsxb" },
}

for _, case in ipairs(CASES) do
  local name = table.concat(case, " ")
  local one = run(case[1], 1, table.unpack(case, 2))
  if (" " .. name .. " "):find(" in ") or name:find("BROKEN") then
    t.is(one.status, 1, name .. " -j 1: the broken bundle fails the run")
    t.like(one.stderr, "BROKEN.rsxb", name .. " -j 1: names the broken "
      .. "bundle")
  else
    t.is(one.status, 0, name .. " -j 1: all good, exit status 0")
  end
  for _, j in ipairs{ 2, 3 } do
    local many = run(case[1], j, table.unpack(case, 2))
    t.is(many.status, one.status, name .. " -j " .. j .. ": exit status")
    t.is(many.stdout, one.stdout, name .. " -j " .. j .. ": stdout")
    t.is(many.stderr, one.stderr, name .. " -j " .. j .. ": stderr")
    if case[1]:find("export") then
      same_files(one.files, many.files, name .. " -j " .. j .. ": files")
    end
  end
end

-- glb of two good bundles: no failure, exit 0 either way
do
  local one = run("gltf-export", 1, "--glb", "in/C.rsxb", "in/sub/B.rsxb",
    "-o", "OUT")
  local two = run("gltf-export", 2, "--glb", "in/C.rsxb", "in/sub/B.rsxb",
    "-o", "OUT")
  t.is(one.status, 0, "two good bundles -j 1: exit 0")
  t.is(two.status, 0, "two good bundles -j 2: exit 0")
  same_files(one.files, two.files, "two good bundles: the same .glb files")
end

-- -j 2 really runs two workers, kept for every bundle: the scripts are run by
-- a wrapper of the host that logs its arguments (workers run the host the
-- first process was run as, its arg[-1]); -j 1 runs one process
if not lib.processes(dir, "-v") then
  t.skip(15, "no bash for the wrapper host")
else
  for _, case in ipairs({ { "info" }, { "survey" }, { "uv-selectors" },
    { "obj-export", "-o", "wrapped" }, { "gltf-export", "-o", "wrapped" } })
  do
    local n, k = lib.processes(dir, case[1], "-j", "2", "in",
      table.unpack(case, 2))
    t.is_deeply({ n, k }, { 3, 2 }, case[1] .. " -j 2: the first process "
      .. "and two workers for the 4 bundles")
    n, k = lib.processes(dir, case[1], "-j", "1", "in", table.unpack(case, 2))
    t.is_deeply({ n, k }, { 1, 0 }, case[1] .. " -j 1: one process")
    n, k = lib.processes(dir, case[1], "in", table.unpack(case, 2))
    t.is_deeply({ n, k }, { 1, 0 }, case[1] .. " without -j: one process "
      .. "for these few kB")
  end
end

-- two inputs of one name claim the same outputs: one process, in order,
-- refuses the second, whatever -j says
do
  local one = run("obj-export", 1, "in/A.rsxb", "in/A.rsxb", "-o", "OUT")
  local two = run("obj-export", 2, "in/A.rsxb", "in/A.rsxb", "-o", "OUT")
  t.is(one.status, 1, "one name twice -j 1: refused")
  t.is(two.stderr, one.stderr, "one name twice -j 2: the same refusal")
end

t.like(select(2, lib.rsxmesh(dir, "info", "--help")), "%-j, %-%-jobs N",
  "--help shows -j")
-- a help text too long for one line goes on below, in its column, and
-- every line stays within 79 columns (with the program's name as a user
-- types it: the usage line says the path it was run by, here the tests')
do
  local _, help = lib.rsxmesh(dir, "gltf-export", "--help")
  local long = {}
  for _, line in ipairs(lib.lines(help)) do
    line = line:gsub(lib.progname_pattern, "rsxmesh")
    if #line > 79 then long[#long + 1] = line end
  end
  t.is_deeply(long, {}, "gltf-export --help: every line within 79 columns")
  local column = #help:match("\n(  %-j, %-%-jobs N +)worker processes")
  t.like(help, "\n      %-%-glb +write [^\n]*\n" .. string.rep(" ", column)
    .. "%S", "... --glb's help goes on in its column")
  t.like(help, "\n  %-j, %-%-jobs N +worker [^\n]*\n"
    .. string.rep(" ", column) .. "%S", "... and -j's")
end
t.ok(not select(2, lib.rsxmesh(dir, "info", "--help")):find("%-%-worker"),
  "--help hides the worker's own options")
local status, _, err = lib.rsxmesh(dir, "info", "-j", "0", "in")
t.is(status, 2, "-j 0 is a usage error")
t.like(err, "expects an integer in 1..256", "-j 0: says why")

lib.cleanup()
t.done_testing()
