-- export-lib.lua - what the export benchmarks share: the synthetic disc
-- they run on, the C floors (bench/export-floor), the standard scripts
-- timed as whole commands, and the result line.
--
-- Environment: BENCH_DIR (their data, default "."), BENCH_EXPORT_REPS
-- (runs of each script and of its floor, in turn, default 3: a script
-- takes up to a minute), top_srcdir, top_builddir and RSXMESH (the test
-- environment).
local cli = require "rsxmesh.cli"

local E = {}

E.dir = os.getenv("BENCH_DIR") or "."
E.reps = math.tointeger(tonumber(os.getenv("BENCH_EXPORT_REPS") or "3"))
assert(E.reps and E.reps >= 1, "BENCH_EXPORT_REPS must be a positive "
  .. "integer")
local srcdir = os.getenv("top_srcdir") or "."
local builddir = os.getenv("top_builddir") or "."
local host = assert(os.getenv("RSXMESH"), "run by make bench, which sets "
  .. "RSXMESH")
E.floor_program = builddir .. "/bench/export-floor"
E.rusage_program = builddir .. "/bench/rusage"
E.host = host

local q = require("rsxmesh.text").quote
E.quote = q

function E.say(name, ...)
  io.stderr:write(name, ": ", string.format(...), "\n")
end

-- The output of a shell command, and whether it succeeded.
local function capture(cmd)
  local p = assert(io.popen(cmd, "r"))
  local text = p:read("a")
  return text, p:close()
end

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- ------------------------------------------------------------ the disc

-- The *.rsxb files under dir, in the order the scripts take them.
function E.bundles(dir)
  local inputs = cli.expand({ dir })
  local paths = {}
  for k, input in ipairs(inputs) do paths[k] = input.path end
  return paths
end

-- rsxmesh synth's output in BENCH_DIR/name, made once and reused while
-- its stamp matches: the options, and a checksum of the generator's
-- sources, so a changed generator makes the disc again. Returns the folder.
function E.disc(name, scale, seed, bundles)
  local dir = E.dir .. "/" .. name
  local sum = capture("cd " .. q(srcdir) .. " && cat scripts/synth.lua "
    .. "lua/rsxmesh/synth/*.lua | cksum")
  local stamp = string.format("rsxmesh synth --scale %s --seed %d; "
    .. "generator cksum %s", scale, seed, sum:gsub("%s+$", ""))
  if read_file(dir .. ".stamp") == stamp .. "\n"
    and #E.bundles(dir) == bundles then
    return dir
  end
  E.say(name, "making %s with rsxmesh synth --scale %s --seed %d", dir,
    scale, seed)
  os.remove(dir .. ".stamp")
  assert(os.execute("rm -rf " .. q(dir)))
  local start = os.time()
  assert(os.execute(string.format("%s synth -q --scale %s --seed %d -o %s",
    q(host), scale, seed, q(dir))), "rsxmesh synth failed")
  assert(#E.bundles(dir) == bundles, "rsxmesh synth made no " .. bundles
    .. " bundles in " .. dir)
  E.say(name, "made in %d s (wall clock)", os.time() - start)
  local f = assert(io.open(dir .. ".stamp", "wb"))
  assert(f:write(stamp, "\n"))
  assert(f:close())
  return dir
end

-- The whole disc the issue names: --scale 1, the default seed.
function E.full_disc()
  return E.disc("disc", "1", 1, 15)
end

-- -------------------------------------------------------------- timing

-- Run a standard script (a list of arguments) once, with host (default
-- the build's rsxmesh), under bench/rusage: returns what it cost, as
-- getrusage gives it for the script and the workers it waited for
-- ({ seconds = user + system, wall =, kib = its peak resident memory }),
-- its stdout and its stderr. Fails unless it exits 0.
local function run_once(args, out, err, with_host)
  local usage = out .. ".rusage"
  local words = { q(E.rusage_program), q(usage) }
  if type(with_host) == "table" then -- a command: { "env", ..., host }
    for _, w in ipairs(with_host) do words[#words + 1] = q(w) end
  else
    words[#words + 1] = q(with_host or host)
  end
  for k, a in ipairs(args) do words[#words + 1] = q(a) end
  local cmd = table.concat(words, " ") .. " >" .. q(out) .. " 2>" .. q(err)
  if not os.execute(cmd) then
    error("rsxmesh " .. table.concat(args, " ") .. " failed: "
      .. (read_file(err) or ""), 0)
  end
  local text = assert(read_file(usage), "bench/rusage wrote nothing")
  os.remove(usage)
  local user, sys, wall, kib = text:match("^(%S+) (%S+) (%S+) (%d+)")
  assert(user, "unexpected output of bench/rusage: " .. text)
  return { seconds = tonumber(user) + tonumber(sys), wall = tonumber(wall),
    kib = tonumber(kib) }, read_file(out), read_file(err)
end

-- One run of a standard script (see run_once); returns its cost and its
-- stderr. with_host runs another rsxmesh: a path, or a command as a list
-- of words (E.baseline's).
function E.run(name, args, with_host)
  local out_path = E.dir .. "/" .. name .. ".out"
  local err_path = E.dir .. "/" .. name .. ".err"
  local cost, _, err = run_once(args, out_path, err_path, with_host)
  os.remove(out_path)
  os.remove(err_path)
  return cost, err
end

-- The command that runs the rsxmesh of another build folder (an older
-- build, for a figure against today's) with its own scripts and helpers:
-- BENCH_BASELINE names the folder; nil when it is not set.
function E.baseline()
  local dir = os.getenv("BENCH_BASELINE")
  if not dir or dir == "" then return nil end
  return { "env", "LUA_PATH=" .. dir .. "/lua/?.lua;" .. dir
    .. "/lua/?/init.lua;;", "RSXMESH_PATH=" .. dir .. "/scripts/?.lua",
    dir .. "/rsxmesh" }, dir
end

-- The largest bundle of a list, and its size in bytes.
function E.largest(bundles)
  local lfs = require "lfs"
  local best, size = nil, -1
  for _, b in ipairs(bundles) do
    local n = lfs.attributes(b, "size") or 0
    if n > size then best, size = b, n end
  end
  return best, size
end

-- Peak memory, in MiB, from KiB.
function E.mib(kib)
  return kib / 1024
end

-- E.reps runs of a standard script (args) and of the C floor (mode over
-- bundles) in turn, so that both meet the same load on a shared machine;
-- before(), if given, runs before each run of the script. Returns the
-- script's best processor time, the floor's best line (see E.floor), the
-- stdout and stderr of the script's last run, and { wall = the best wall
-- time, kib = the largest peak resident memory of any run }.
function E.measure(name, args, mode, bundles, before)
  local best, floor, out, err
  local cost_all = { kib = 0 }
  local out_path = E.dir .. "/" .. name .. ".out"
  local err_path = E.dir .. "/" .. name .. ".err"
  for rep = 1, E.reps do
    local f = E.floor(mode, bundles)
    if before then before() end
    local cost
    cost, out, err = run_once(args, out_path, err_path)
    local seconds = cost.seconds
    cost_all.kib = math.max(cost_all.kib, cost.kib)
    if not cost_all.wall or cost.wall < cost_all.wall then
      cost_all.wall = cost.wall
    end
    E.say(name, "run %d of %d: %.2f s processor time (%.2f s wall, peak "
      .. "%.1f MiB), %s floor %.2f s", rep, E.reps, seconds, cost.wall,
      E.mib(cost.kib), mode, f.seconds)
    if not best or seconds < best then best = seconds end
    if not floor or f.seconds < floor.seconds then floor = f end
  end
  os.remove(out_path)
  os.remove(err_path)
  return best, floor, out, err, cost_all
end

-- The C floor: mode "obj" or "decode" over the bundles, one pass (to
-- /dev/null, or to out_dir); the fields of its line, as numbers, by name.
local FIELDS = {
  obj = { "seconds", "vertices", "triangles", "bytes", "floats" },
  decode = { "seconds", "vertices", "values", "sum" },
}

function E.floor(mode, bundles, out_dir)
  local words = { q(E.floor_program), mode, "-r", 1 }
  if out_dir then
    words[#words + 1] = "-o"
    words[#words + 1] = q(out_dir)
  end
  for _, b in ipairs(bundles) do words[#words + 1] = q(b) end
  local text, ok = capture(table.concat(words, " "))
  assert(ok, "bench/export-floor " .. mode .. " failed")
  local r, k = {}, 0
  assert(text:match("^" .. mode .. " "), "bench/export-floor: unexpected "
    .. "reply " .. text)
  for word in text:gmatch("%S+") do
    if k > 0 then r[FIELDS[mode][k]] = tonumber(word) end
    k = k + 1
  end
  assert(k == #FIELDS[mode] + 1, "bench/export-floor: unexpected reply "
    .. text)
  return r
end

-- -------------------------------------------------------- the check

-- The floor writes the OBJ obj-export writes but for the digits of its
-- floats: compare the two over the sample, line by line, numbers as the
-- float32 they read back as, everything else byte for byte. Raises at
-- the first difference; returns the lines compared.
local function same_float32(a, b)
  local x, y = tonumber(a), tonumber(b)
  return x and y and string.pack("<f", x) == string.pack("<f", y)
end

local NUMBERED = { v = true, vn = true, vt = true }

local function compare_obj(path_script, path_floor)
  local s = assert(read_file(path_script), path_script)
  local f = assert(read_file(path_floor), path_floor)
  local lines, nf = 0, 0
  local it = f:gmatch("([^\n]*)\n")
  for line in s:gmatch("([^\n]*)\n") do
    local other = it()
    lines = lines + 1
    local where = path_floor .. ":" .. lines
    assert(other, where .. ": the floor's OBJ is shorter")
    if line ~= other then
      local a, b = {}, {}
      for w in line:gmatch("%S+") do a[#a + 1] = w end
      for w in other:gmatch("%S+") do b[#b + 1] = w end
      assert(NUMBERED[a[1]] and a[1] == b[1] and #a == #b,
        where .. ": '" .. other .. "', the script wrote '" .. line .. "'")
      for k = 2, #a do
        assert(same_float32(a[k], b[k]), where .. ": '" .. b[k]
          .. "' is not the float32 of the script's '" .. a[k] .. "'")
        nf = nf + 1
      end
    end
  end
  assert(it() == nil, path_floor .. ": the floor's OBJ is longer")
  return lines, nf
end

E.compare_obj = compare_obj -- also for bench/obj-python.py's OBJ

-- Run obj-export and the floor on the sample (rsxmesh synth's default
-- scale) and compare every OBJ. The floor must do the script's work.
function E.check_obj_floor()
  local sample = E.disc("sample", "0.02", 1, 15)
  local dir = E.dir .. "/check"
  assert(os.execute("rm -rf " .. q(dir) .. " && mkdir -p " .. q(dir)
    .. "/script " .. q(dir) .. "/floor"))
  assert(os.execute(string.format("%s obj-export %s -o %s 2>/dev/null",
    q(host), q(sample), q(dir .. "/script"))), "obj-export failed")
  local bundles = E.bundles(sample)
  E.floor("obj", bundles, dir .. "/floor")
  local lines, numbers, files = 0, 0, 0
  for _, b in ipairs(bundles) do
    local stem = b:match("([^/]+)%.rsxb$")
    local l, n = compare_obj(dir .. "/script/" .. stem .. ".obj",
      dir .. "/floor/" .. stem .. ".obj")
    lines, numbers, files = lines + l, numbers + n, files + 1
  end
  assert(os.execute("rm -rf " .. q(dir)))
  E.say("obj floor", "writes what obj-export writes on the sample: %d "
    .. "files, %d lines, %d floats in other digits", files, lines, numbers)
end

-- ------------------------------------------------------------ results

function E.remove(dir)
  assert(os.execute("rm -rf " .. q(dir)))
end

-- 6232816 -> "6,232,816"
E.count = require("rsxmesh.text").count

function E.rate(n, seconds)
  return string.format("%.2f M", n / seconds / 1e6)
end

function E.verdict(ratio, aim)
  return string.format("%.2f, aim <= %g: %s", ratio, aim,
    ratio <= aim and "met" or "MISSED")
end

return E
