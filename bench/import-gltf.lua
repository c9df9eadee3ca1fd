-- import-gltf.lua - benchmark: `rsxmesh gltf-import` of the whole
-- synthetic disc's glTF export (rsxmesh synth --scale 1), bundle by bundle,
-- as a ratio to `rsxmesh gltf-export -j 1` of the same disc, both measured
-- in this run, in turn (issue 19: aim at most 1x; issue 12 asked 2x).
-- Each command runs under bench/rusage: processor time (user + system)
-- and peak resident memory;
-- the imports' time is the sum over the bundles, their peak the largest.
-- Every import must give back its bundle byte for byte (cmp, not timed).
-- One result line.
local here = arg[0]:match("^(.*)/") or "."
local E = dofile(here .. "/export-lib.lua")

local AIM = 1
local disc = E.full_disc()
local bundles = E.bundles(disc)
local out = E.dir .. "/gltf-import"

-- The imports of every bundle's .gltf back onto the bundle: what they
-- cost together ({ seconds = the sum, kib = the largest peak }).
local function import_all()
  local total = { seconds = 0, kib = 0 }
  for _, b in ipairs(bundles) do
    local name = b:match("([^/]+)%.rsxb$")
    local back = out .. "/" .. name .. ".rsxb"
    local c = E.run("gltf-import", { "gltf-import", out .. "/" .. name
      .. ".gltf", "--base", b, "-o", back })
    assert(os.execute("cmp -s " .. E.quote(b) .. " " .. E.quote(back)),
      "gltf-import of " .. name .. " did not give back " .. b)
    total.seconds = total.seconds + c.seconds
    total.kib = math.max(total.kib, c.kib)
  end
  return total
end

local best_export, best_import
for rep = 1, E.reps do
  E.remove(out)
  local ex = E.run("gltf-export", { "gltf-export", "-j", "1", disc, "-o",
    out })
  local im = import_all()
  E.say("import-gltf", "run %d of %d: gltf-import %.2f s (peak %.1f MiB),"
    .. " gltf-export -j 1 %.2f s (peak %.1f MiB) processor time", rep,
    E.reps, im.seconds, E.mib(im.kib), ex.seconds, E.mib(ex.kib))
  if not best_export or ex.seconds < best_export.seconds then
    best_export = ex
  end
  if not best_import or im.seconds < best_import.seconds then
    best_import = im
  end
end
E.remove(out)

print(string.format("gltf-import: --scale 1 disc, %d bundles, each back"
  .. " byte for byte, best of %d: import %.2f s (peak %.1f MiB), "
  .. "gltf-export -j 1 %.2f s (peak %.1f MiB); import/export %s",
  #bundles, E.reps, best_import.seconds, E.mib(best_import.kib),
  best_export.seconds, E.mib(best_export.kib),
  E.verdict(best_import.seconds / best_export.seconds, AIM)))
