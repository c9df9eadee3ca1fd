-- export-python.lua - benchmark: `rsxmesh obj-export -j 1` of one dense
-- bundle, the largest of the --scale 0.3 disc (ALFA.rsxb: 137,848
-- vertices, 218,198 triangles), against bench/obj-python.py, a plain
-- Python exporter (struct and %-formatting) run by Debian's python3 on the
-- same bundle, in turn, best of BENCH_PYTHON_REPS (default 5) each, as
-- processor time (user + system) and wall time with the files written.
-- Their OBJ files are first compared: the same text but for the digits of
-- the floats (Python writes '%.9g'), each float the same float32. Issue
-- 22's aim: Python / rsxmesh >= 20. One result line.
local here = arg[0]:match("^(.*)/") or "."
local E = dofile(here .. "/export-lib.lua")

local AIM = 20
local PYTHON = "/usr/bin/python3" -- Debian's
local reps = math.tointeger(tonumber(os.getenv("BENCH_PYTHON_REPS")
  or "5"))
assert(reps and reps >= 1, "BENCH_PYTHON_REPS must be a positive integer")
local script = here .. "/obj-python.py"
local disc = E.disc("disc-0.3", "0.3", 1, 15)
local bundle, size = E.largest(E.bundles(disc))
local stem = bundle:match("([^/]+)%.rsxb$")
local out_r, out_p = E.dir .. "/obj-dense", E.dir .. "/obj-python"

local function rsxmesh_run()
  E.remove(out_r)
  return E.run("obj-export-dense", { "obj-export", "-j", "1", bundle, "-o",
    out_r })
end

local old, old_dir = E.baseline()
local function baseline_run()
  E.remove(out_r)
  return E.run("obj-export-baseline", { "obj-export", "-j", "1", bundle,
    "-o", out_r }, old)
end

local function python_run()
  E.remove(out_p)
  return E.run("obj-python", { bundle, out_p }, { PYTHON, script })
end

-- the same OBJ, floats as float32
local _, err = rsxmesh_run()
python_run()
local lines, floats = E.compare_obj(out_r .. "/" .. stem .. ".obj",
  out_p .. "/" .. stem .. ".obj")
E.say("obj-python", "writes what obj-export writes: %d lines, %d floats "
  .. "in other digits", lines, floats)
local vertices = tonumber((err:match("([%d,]+) vertices"):gsub(",", "")))
local triangles = tonumber((err:match("([%d,]+) triangles"):gsub(",", "")))

local best_r, best_p, best_o
for rep = 1, reps do
  local r, p = rsxmesh_run(), python_run()
  local o = old and baseline_run()
  E.say("obj-python", "run %d of %d: rsxmesh %.3f s (%.3f s wall), python "
    .. "%.3f s (%.3f s wall)%s", rep, reps, r.seconds, r.wall, p.seconds,
    p.wall, o and string.format(", baseline %.3f s", o.seconds) or "")
  if not best_r or r.seconds < best_r.seconds then best_r = r end
  if not best_p or p.seconds < best_p.seconds then best_p = p end
  if o and (not best_o or o.seconds < best_o.seconds) then best_o = o end
end
E.remove(out_r)
E.remove(out_p)

local ratio = best_p.seconds / best_r.seconds
print(string.format("obj-export of %s (%.1f MB, %s vertices, %s "
  .. "triangles) against plain Python, best of %d: rsxmesh %.3f s "
  .. "processor time (%.3f s wall), python3 %.3f s (%.3f s wall); "
  .. "python/rsxmesh %.1fx (wall %.1fx), aim >= %gx: %s", stem, size / 1e6,
  E.count(vertices), E.count(triangles), reps, best_r.seconds, best_r.wall,
  best_p.seconds, best_p.wall, ratio, best_p.wall / best_r.wall, AIM,
  ratio >= AIM and "met" or "MISSED")
  .. (best_o and string.format("; %s %.3f s, python/it %.1fx", old_dir,
    best_o.seconds, best_p.seconds / best_o.seconds) or ""))
