-- export-bundle.lua - benchmark: `rsxmesh obj-export -j 1` of the largest
-- bundle of the synthetic disc alone (no parallelism to help), against an
-- older build's when BENCH_BASELINE names its build folder (issue 13:
-- 1.5x faster than the day it was filed), run in turn. One result line.
local here = arg[0]:match("^(.*)/") or "."
local E = dofile(here .. "/export-lib.lua")

local AIM = 1.5
local disc = E.full_disc()
local largest, size = E.largest(E.bundles(disc))
local old, old_dir = E.baseline()
local best, best_old = nil, nil
local out = E.dir .. "/obj-bundle"
for rep = 1, E.reps do
  E.remove(out)
  local c = E.run("obj-export", { "obj-export", "-j", "1", largest, "-o",
    out })
  if not best or c.seconds < best.seconds then best = c end
  if old then
    E.remove(out)
    -- the older scripts may not know -j: one process all the same
    local o = E.run("obj-export-baseline", { "obj-export", largest, "-o",
      out }, old)
    if not best_old or o.seconds < best_old.seconds then best_old = o end
    E.say("obj-export bundle", "run %d of %d: %.3f s, baseline %.3f s",
      rep, E.reps, c.seconds, o.seconds)
  end
end
E.remove(out)
local name = largest:match("[^/]+$")
if not old then
  print(string.format("obj-export of %s (%.1f MB) alone, best of %d: "
    .. "%.3f s processor time, peak %.1f MiB (BENCH_BASELINE=DIR compares "
    .. "an older build)", name, size / 1e6, E.reps, best.seconds,
    E.mib(best.kib)))
else
  print(string.format("obj-export of %s (%.1f MB) alone, best of %d: "
    .. "%.3f s processor time (peak %.1f MiB), %s %.3f s (peak %.1f MiB); "
    .. "speed-up %s", name, size / 1e6, E.reps, best.seconds,
    E.mib(best.kib), old_dir, best_old.seconds, E.mib(best_old.kib),
    string.format("%.2fx, aim >= %gx: %s", best_old.seconds / best.seconds,
      AIM, best_old.seconds / best.seconds >= AIM and "met" or "MISSED")))
end
