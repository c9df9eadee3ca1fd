-- export-jobs.lua - benchmark: `rsxmesh obj-export -j 2` of the whole
-- synthetic disc against `-j 1`, in wall-clock time (what -j saves), run
-- in turn so that both meet the same load; issue 13 aims at 0.6 or less
-- on a 2-core machine. Also checks that the two wrote the same files.
-- One result line.
local here = arg[0]:match("^(.*)/") or "."
local E = dofile(here .. "/export-lib.lua")

local AIM = 0.6
local disc = E.full_disc()
local best = {}
local outs = { [1] = E.dir .. "/obj-j1", [2] = E.dir .. "/obj-j2" }
for rep = 1, E.reps do
  for _, j in ipairs{ 1, 2 } do
    E.remove(outs[j])
    local c = E.run("obj-export", { "obj-export", "-j", tostring(j), disc,
      "-o", outs[j] })
    E.say("obj-export -j " .. j, "run %d of %d: %.2f s wall, %.2f s "
      .. "processor time, peak %.1f MiB", rep, E.reps, c.wall, c.seconds,
      E.mib(c.kib))
    if not best[j] or c.wall < best[j].wall then best[j] = c end
  end
end
assert(os.execute("cmp -s " .. E.quote(outs[1] .. "/ALFA.obj") .. " "
  .. E.quote(outs[2] .. "/ALFA.obj") .. " && diff -r -q "
  .. E.quote(outs[1]) .. " " .. E.quote(outs[2]) .. " >/dev/null"),
  "obj-export -j 1 and -j 2 wrote different files")
E.remove(outs[1])
E.remove(outs[2])
print(string.format("obj-export -j 2 against -j 1: --scale 1 disc, best "
  .. "of %d: -j 1 %.2f s wall (peak %.1f MiB), -j 2 %.2f s wall (peak "
  .. "%.1f MiB a process); -j 2/-j 1 %s", E.reps, best[1].wall,
  E.mib(best[1].kib), best[2].wall, E.mib(best[2].kib),
  E.verdict(best[2].wall / best[1].wall, AIM)))
