-- scan.lua - benchmark: `rsxmesh scan` of a 64 MB file of containers of
-- the synthetic disc's meshes between decoys (t/scan-lib.lua), against
-- `sha256sum` of the same file, in turn in one run (issue 20: the scan
-- no slower than the checksum). Processor time (user + system), best of
-- E.reps, and the scan's peak memory. One result line.
local here = arg[0]:match("^(.*)/") or "."
local E = dofile(here .. "/export-lib.lua")
local lib = require "scan-lib"
local lfs = require "lfs"

local SIZE = 64 * 1000 * 1000
local file = E.dir .. "/scan64.bin"
if lfs.attributes(file, "size") ~= SIZE then
  -- containers of one layout seed after another, cut at 64 MB
  local f = assert(io.open(file .. ".tmp", "wb"))
  local meshes, n, seed = lib.meshes(), 0, 1
  while n < SIZE do
    local s = lib.container{ seed = seed, meshes = meshes }
    if n + #s > SIZE then s = s:sub(1, SIZE - n) end
    assert(f:write(s))
    n, seed = n + #s, seed + 1
  end
  assert(f:close())
  assert(os.rename(file .. ".tmp", file))
end

local best, best_sha
for rep = 1, E.reps do
  local c = E.run("scan", { "scan", file })
  if not best or c.seconds < best.seconds then best = c end
  local s = E.run("sha256sum", { file }, "sha256sum")
  if not best_sha or s.seconds < best_sha.seconds then best_sha = s end
  E.say("scan", "run %d of %d: %.3f s, sha256sum %.3f s", rep, E.reps,
    c.seconds, s.seconds)
end
local ratio = best.seconds / best_sha.seconds
print(string.format("scan of a 64 MB file, best of %d: %.3f s processor "
  .. "time (peak %.1f MiB), sha256sum %.3f s; ratio %.2f, aim <= 1: %s",
  E.reps, best.seconds, E.mib(best.kib), best_sha.seconds, ratio,
  ratio <= 1 and "met" or "MISSED"))
