-- export-gltf.lua - benchmark: `rsxmesh gltf-export` of the whole
-- synthetic disc (rsxmesh synth --scale 1) against the OBJ export's C
-- floor (bench/export-floor obj), as issue 6 asks, and against
-- `rsxmesh obj-export` of the same disc, as issue 13 asks (no slower),
-- all measured in this run, in turn; its peak resident memory against
-- the largest bundle's size plus 64 MiB (issue 13). Both scripts run as
-- one process (-j 1). One result line.
local here = arg[0]:match("^(.*)/") or "."
local E = dofile(here .. "/export-lib.lua")

local AIM = 2 -- the OBJ export's aim against the floor, for comparison
local MARGIN_MIB = 64
local disc = E.full_disc()
local bundles = E.bundles(disc)
local largest, largest_size = E.largest(bundles)

-- obj-export runs just before each run of gltf-export: the same load
local out, obj_out = E.dir .. "/gltf", E.dir .. "/obj"
local obj_best
local seconds, floor, _, err, cost = E.measure("gltf-export",
  { "gltf-export", "-j", "1", disc, "-o", out }, "obj", bundles,
  function()
    E.remove(out)
    local c = E.run("obj-export", { "obj-export", "-j", "1", disc, "-o",
      obj_out })
    E.remove(obj_out)
    E.say("gltf-export", "obj-export %.2f s processor time", c.seconds)
    if not obj_best or c.seconds < obj_best then obj_best = c.seconds end
  end)
E.remove(out)

local function summary(what)
  local n = err:match("([%d,]+) " .. what)
  return n and tonumber((n:gsub(",", "")))
end
assert(summary("vertices") == floor.vertices and
  summary("triangles") == floor.triangles, "gltf-export and the floor "
  .. "differ: " .. err)
local bytes = assert(summary("bytes written"), "no bytes in " .. err)

local limit = largest_size / 1048576 + MARGIN_MIB
local peak = E.mib(cost.kib)
print(string.format("gltf-export: --scale 1 disc, %s vertices, %s "
  .. "triangles, best of %d: script %.2f s (%s vertices/s, %.1f MB of "
  .. "glTF/s), OBJ's C floor %.2f s (%s vertices/s); script/floor %s; "
  .. "obj-export %.2f s, gltf/obj %s; peak %.1f MiB, aim <= %.1f MiB "
  .. "(largest bundle %s, %.1f MiB, + %d): %s",
  E.count(floor.vertices), E.count(floor.triangles), E.reps, seconds,
  E.rate(floor.vertices, seconds), bytes / seconds / 1e6, floor.seconds,
  E.rate(floor.vertices, floor.seconds),
  E.verdict(seconds / floor.seconds, AIM), obj_best,
  E.verdict(seconds / obj_best, 1), peak, limit,
  largest:match("[^/]+$"), largest_size / 1048576, MARGIN_MIB,
  peak <= limit and "met" or "MISSED"))
