-- scan-jobs.lua - benchmark: what -j 2 saves `rsxmesh scan`, in wall-clock
-- time, on the bundles of the --scale 0.3 and --scale 1 synthetic discs
-- (15 files each, of 4.5 to 5.7 MB and of 16 to 18 MB: the scan reads any
-- file), run in turn with -j 1
-- so that both meet the same load, as bench/export-jobs.lua does for the
-- scripts that share bundles. The aim is that of the other scripts that
-- only read: -j 2 at most 0.7 times -j 1 on the --scale 1 disc (none on
-- the smaller one, which is there for the record). Also checks that -j 1
-- and -j 2 printed the same text. A result line for each disc, with the
-- processor time of all the processes of the best runs (getrusage: the
-- script and the workers it waited for), whose ratio is what the pool
-- costs, and which a loaded machine changes less than the wall time.
local here = arg[0]:match("^(.*)/") or "."
local E = dofile(here .. "/export-lib.lua")

local DISCS = {
  { "disc-0.3", "0.3" },
  { "disc", "1", aim = 0.7 },
}

-- The text a scan printed, for -j 1 against -j 2.
local function scan_text(j, files)
  local words = { E.quote(E.host), "scan", "-j", j }
  for _, f in ipairs(files) do words[#words + 1] = E.quote(f) end
  local p = assert(io.popen(table.concat(words, " ") .. " 2>/dev/null"))
  local text = p:read("a")
  assert(p:close(), "rsxmesh scan -j " .. j .. " failed")
  return text
end

for _, d in ipairs(DISCS) do
  local files = E.bundles(E.disc(d[1], d[2], 1, 15))
  assert(scan_text("1", files) == scan_text("2", files),
    "rsxmesh scan -j 1 and -j 2 printed different text")
  local best = {}
  for rep = 1, E.reps do
    for _, j in ipairs{ "1", "2" } do
      local c = E.run("scan", { "scan", "-j", j, table.unpack(files) })
      E.say("scan -j " .. j, "--scale %s disc, run %d of %d: %.2f s wall, "
        .. "%.2f s processor time", d[2], rep, E.reps, c.wall, c.seconds)
      if not best[j] or c.wall < best[j].wall then best[j] = c end
    end
  end
  local b1, b2 = best["1"], best["2"]
  local ratio = b2.wall / b1.wall
  print(string.format("scan -j 2 against -j 1: --scale %s disc (%d files), "
    .. "best of %d: -j 1 %.2f s wall (%.2f s processor), -j 2 %.2f s "
    .. "(%.2f s); processor time %.2f; wall ratio %s", d[2], #files, E.reps,
    b1.wall, b1.seconds, b2.wall, b2.seconds, b2.seconds / b1.seconds,
    d.aim and E.verdict(ratio, d.aim) or string.format("%.2f", ratio)))
end
