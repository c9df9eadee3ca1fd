-- export-jobs.lua - benchmark: what -j saves, in wall-clock time with the
-- outputs written, for each script that shares its bundles (obj-export,
-- gltf-export, survey, info, uv-selectors), run in turn so that all meet
-- the same load. Issue 22's aims: on the sample and on a --scale 0.3 disc,
-- the default -j takes at most 1.05 times -j 1 (a run too small to share
-- stays in one process); on the --scale 1 disc, -j 2 takes at most 0.6
-- times -j 1 for obj-export and 0.7 for the others. Also checks that
-- obj-export -j 1 and -j 2 wrote the same files. A result line for each
-- script and disc; it also gives the processor time of all the processes
-- of the best runs (getrusage: the script and the workers it waited for),
-- whose ratio is what the pool costs, and which a loaded machine changes
-- less than the wall time.
local here = arg[0]:match("^(.*)/") or "."
local E = dofile(here .. "/export-lib.lua")

local SCRIPTS = {
  { "obj-export", out = true, aim = 0.6 },
  { "gltf-export", out = true, aim = 0.7 },
  { "survey", aim = 0.7 },
  { "info", aim = 0.7 },
  { "uv-selectors", aim = 0.7 },
}
local DISCS = {
  { "sample", "0.02", compare = "default", aim = 1.05 },
  { "disc-0.3", "0.3", compare = "default", aim = 1.05 },
  { "disc", "1", compare = "2" },
}

-- the best wall time of `reps` runs of each -j setting, in turn
local function best_of(script, disc, settings)
  local best, outs = {}, {}
  for rep = 1, E.reps do
    for _, j in ipairs(settings) do
      local args = { script[1], disc }
      if j ~= "default" then table.insert(args, 2, "-j") end
      if j ~= "default" then table.insert(args, 3, j) end
      if script.out then
        outs[j] = E.dir .. "/jobs-" .. script[1] .. "-" .. j
        E.remove(outs[j])
        args[#args + 1] = "-o"
        args[#args + 1] = outs[j]
      end
      local c = E.run(script[1], args)
      E.say(script[1] .. " -j " .. j, "run %d of %d: %.2f s wall, %.2f s "
        .. "processor time", rep, E.reps, c.wall, c.seconds)
      if not best[j] or c.wall < best[j].wall then best[j] = c end
    end
  end
  return best, outs
end

for _, d in ipairs(DISCS) do
  local dir = E.disc(d[1], d[2], 1, 15)
  for _, s in ipairs(SCRIPTS) do
    local best, outs = best_of(s, dir, { "1", d.compare })
    if s[1] == "obj-export" then
      assert(os.execute("diff -r -q " .. E.quote(outs["1"]) .. " "
        .. E.quote(outs[d.compare]) .. " >/dev/null"),
        "obj-export -j 1 and -j " .. d.compare .. " wrote different files")
    end
    for _, o in pairs(outs) do E.remove(o) end
    local aim = d.aim or s.aim
    local b1, bn = best["1"], best[d.compare]
    print(string.format("%s -j %s against -j 1: --scale %s disc, best of "
      .. "%d: -j 1 %.2f s wall (%.2f s processor), -j %s %.2f s (%.2f s); "
      .. "processor time %.2f; wall ratio %s", s[1], d.compare, d[2],
      E.reps, b1.wall, b1.seconds, d.compare, bn.wall, bn.seconds,
      bn.seconds / b1.seconds, E.verdict(bn.wall / b1.wall, aim)))
  end
end
