-- export-gltf.lua - benchmark: `rsxmesh gltf-export` of the whole
-- synthetic disc (rsxmesh synth --scale 1) against the OBJ export's C
-- floor (bench/export-floor obj), as issue 6 asks, both measured in this
-- run. glTF writes binary buffers, not decimal text: it decodes more
-- attributes than the floor and formats far fewer floats. One result line.
local here = arg[0]:match("^(.*)/") or "."
local E = dofile(here .. "/export-lib.lua")

local AIM = 2 -- the OBJ export's aim, for comparison
local disc = E.full_disc()
local bundles = E.bundles(disc)

local out = E.dir .. "/gltf"
local seconds, floor, _, err = E.measure("gltf-export",
  { "gltf-export", disc, "-o", out }, "obj", bundles,
  function() E.remove(out) end)
E.remove(out)

local function summary(what)
  local n = err:match("([%d,]+) " .. what)
  return n and tonumber((n:gsub(",", "")))
end
assert(summary("vertices") == floor.vertices and
  summary("triangles") == floor.triangles, "gltf-export and the floor "
  .. "differ: " .. err)
local bytes = assert(summary("bytes written"), "no bytes in " .. err)

print(string.format("gltf-export: --scale 1 disc, %s vertices, %s "
  .. "triangles, best of %d: script %.2f s (%s vertices/s, %.1f MB of "
  .. "glTF/s), OBJ's C floor %.2f s (%s vertices/s); script/floor %s",
  E.count(floor.vertices), E.count(floor.triangles), E.reps, seconds,
  E.rate(floor.vertices, seconds), bytes / seconds / 1e6, floor.seconds,
  E.rate(floor.vertices, floor.seconds),
  E.verdict(seconds / floor.seconds, AIM)))
