-- import-gltf.lua - benchmark: `rsxmesh gltf-import` of the whole
-- synthetic disc's glTF export (rsxmesh synth --scale 1), bundle by bundle,
-- as a ratio to `rsxmesh gltf-export -j 1` of the same disc, both measured
-- in this run (issue 12: aim at most 2x). Processor time (user + system)
-- of the child processes; every import must give back its bundle byte for
-- byte. One result line.
local here = arg[0]:match("^(.*)/") or "."
local E = dofile(here .. "/export-lib.lua")

local AIM = 2
local disc = E.full_disc()
local bundles = E.bundles(disc)
local host = E.quote(assert(os.getenv("RSXMESH")))
local out = E.dir .. "/gltf-import"

-- Run a shell command; its children's processor time (from `times`).
local function timed(cmd)
  local p = assert(io.popen(cmd .. "; s=$?; times; exit $s", "r"))
  local text = p:read("a")
  assert(p:close(), "failed: " .. cmd .. "\n" .. text)
  local um, us, sm, ss = text:match("\n(%d+)m([%d.]+)s (%d+)m([%d.]+)s")
  assert(um, "unexpected output of times: " .. text)
  return um * 60 + us + sm * 60 + ss
end

local export_cmd = host .. " gltf-export -j 1 " .. E.quote(disc) .. " -o "
  .. E.quote(out) .. " 2>/dev/null"
local imports = {}
for k, b in ipairs(bundles) do
  local name = b:match("([^/]+)%.rsxb$")
  imports[k] = host .. " gltf-import " .. E.quote(out .. "/" .. name
    .. ".gltf") .. " --base " .. E.quote(b) .. " -o "
    .. E.quote(out .. "/" .. name .. ".rsxb") .. " 2>/dev/null && cmp "
    .. E.quote(b) .. " " .. E.quote(out .. "/" .. name .. ".rsxb")
end
local import_cmd = table.concat(imports, " && ")

local best_export, best_import
for rep = 1, E.reps do
  E.remove(out)
  local ex = timed(export_cmd)
  local im = timed(import_cmd)
  E.say("import-gltf", "run %d of %d: gltf-import %.2f s, gltf-export -j 1"
    .. " %.2f s processor time", rep, E.reps, im, ex)
  best_export = math.min(best_export or ex, ex)
  best_import = math.min(best_import or im, im)
end
E.remove(out)

print(string.format("gltf-import: --scale 1 disc, %d bundles, each back"
  .. " byte for byte, best of %d: import %.2f s, gltf-export -j 1 %.2f s;"
  .. " import/export %s", #bundles, E.reps, best_import, best_export,
  E.verdict(best_import / best_export, AIM)))
