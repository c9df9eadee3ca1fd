-- export-obj.lua - benchmark: `rsxmesh obj-export` of the whole synthetic
-- disc (rsxmesh synth --scale 1) against the C floor writing the same OBJ
-- text to /dev/null (bench/export-floor obj), both measured in this run;
-- issue 5's aim: the export within 2x of the floor. One result line.
local here = arg[0]:match("^(.*)/") or "."
local E = dofile(here .. "/export-lib.lua")
local lfs = require "lfs"

local AIM = 2
local disc = E.full_disc()
local bundles = E.bundles(disc)
E.check_obj_floor()

local out = E.dir .. "/obj"
local seconds, floor, _, err, cost = E.measure("obj-export",
  { "obj-export", "-j", "1", disc, "-o", out }, "obj", bundles,
  function() E.remove(out) end)

-- obj-export's summary: the same vertices and triangles as the floor
local function summary(what)
  local n = err:match("([%d,]+) " .. what)
  return n and tonumber((n:gsub(",", "")))
end
assert(summary("vertices") == floor.vertices and
  summary("triangles") == floor.triangles, "obj-export and the floor "
  .. "differ: " .. err .. " floor: " .. floor.vertices .. " vertices, "
  .. floor.triangles .. " triangles")
local obj_bytes = 0
for name in lfs.dir(out) do
  if name:match("%.obj$") then
    obj_bytes = obj_bytes + lfs.attributes(out .. "/" .. name, "size")
  end
end
E.remove(out)

print(string.format("obj-export: --scale 1 disc, %s vertices, %s "
  .. "triangles, best of %d: script %.2f s (%s vertices/s, %.1f MB of OBJ/s"
  .. ", peak %.1f MiB), C floor %.2f s (%s vertices/s, %.1f MB/s); "
  .. "script/floor %s",
  E.count(floor.vertices), E.count(floor.triangles), E.reps, seconds,
  E.rate(floor.vertices, seconds), obj_bytes / seconds / 1e6,
  E.mib(cost.kib),
  floor.seconds, E.rate(floor.vertices, floor.seconds),
  floor.bytes / floor.seconds / 1e6,
  E.verdict(seconds / floor.seconds, AIM)))
