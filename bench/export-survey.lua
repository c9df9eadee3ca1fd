-- export-survey.lua - benchmark: `rsxmesh survey` of the whole synthetic
-- disc (rsxmesh synth --scale 1) against a plain C decode pass, every
-- attribute of every mesh through rsx_mesh_decode (bench/export-floor
-- decode), both measured in this run; issue 5's aim: within 2x of that
-- pass. One result line.
local here = arg[0]:match("^(.*)/") or "."
local E = dofile(here .. "/export-lib.lua")

local AIM = 2
local disc = E.full_disc()
local bundles = E.bundles(disc)

local seconds, floor, out, _, cost = E.measure("survey",
  { "survey", "-j", "1", disc }, "decode", bundles)

-- the survey counts the vertices the floor decoded
local n = out:match("([%d,]+) vertices%.")
assert(n and tonumber((n:gsub(",", ""))) == floor.vertices,
  "survey and the floor differ: " .. tostring(n) .. " and "
  .. floor.vertices .. " vertices")

print(string.format("survey: --scale 1 disc, %s vertices, best of %d: "
  .. "script %.2f s (%s vertices/s, peak %.1f MiB), C decode pass %.2f s "
  .. "(%s vertices/s, %s values/s); script/floor %s",
  E.count(floor.vertices), E.reps, seconds, E.rate(floor.vertices, seconds),
  E.mib(cost.kib),
  floor.seconds, E.rate(floor.vertices, floor.seconds),
  E.rate(floor.values, floor.seconds),
  E.verdict(seconds / floor.seconds, AIM)))
