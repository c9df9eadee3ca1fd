-- writer-layout.lua - benchmark: the writer laid out as its base
-- (rsxmesh.writer(b, { layout = "base" }), what gltf-import writes when a
-- mesh changed) against rsxmesh's own order, the floor, on the largest
-- bundle of the synthetic disc (rsxmesh synth --scale 1), its mesh 1
-- moved by +1 in x. Each: the writer filled with the bundle's materials
-- and meshes, then w:bytes(); processor time (os.clock), best of
-- BENCH_EXPORT_REPS x 3, the two in turn. Also the import's cost before
-- issue 19's layout: the writer in rsxmesh's order and the second writer
-- of the unchanged meshes that told whether the base was laid out so.
-- One result line.
local here = arg[0]:match("^(.*)/") or "."
local E = dofile(here .. "/export-lib.lua")
local rsxmesh = require "rsxmesh"

local AIM = 1.5
local largest, size = nil, -1
for _, path in ipairs(E.bundles(E.full_disc())) do
  local f = assert(io.open(path, "rb"))
  local n = f:seek("end")
  f:close()
  if n > size then largest, size = path, n end
end
local b = assert(rsxmesh.open(largest))

-- mesh 1 moved by +1 in x, made once
local moved
do
  local m = b:mesh(1)
  local r = m:attribute("position"):range()
  for i = 1, #r, 3 do r[i] = r[i] + 1 end
  moved = assert(m:with{ position = r })
end

local function write(opts, change)
  local w = rsxmesh.writer(b, opts)
  for _, mat in b:materials() do w:material(mat.name, mat:samplers()) end
  for k, m in b:meshes() do
    assert(w:mesh(change and k == 1 and moved or m))
  end
  local bytes = w:bytes()
  w:close()
  return bytes
end

local function timed(f)
  local c = os.clock()
  f()
  return os.clock() - c
end

local best = { floor = math.huge, layout = math.huge, before = math.huge }
for rep = 1, E.reps * 3 do
  local t = {
    floor = timed(function() write(nil, true) end),
    layout = timed(function() write({ layout = "base" }, true) end),
    before = timed(function()
      write(nil, true)
      local f = assert(io.open(largest, "rb"))
      local same = f:read("a") == write(nil, false)
      f:close()
      return same
    end),
  }
  E.say("writer-layout", "run %d of %d: laid out as the base %.3f s, in"
    .. " rsxmesh's order %.3f s, the import's writers before %.3f s", rep,
    E.reps * 3, t.layout, t.floor, t.before)
  for k, v in pairs(t) do best[k] = math.min(best[k], v) end
end

print(string.format("writer-layout: %s (%s bytes, %d meshes), mesh 1 x + 1,"
  .. " best of %d: laid out as the base %.3f s, rsxmesh's order %.3f s;"
  .. " layout/order %s; the import's writers before %.3f s (layout/before"
  .. " %.2f)", largest:match("[^/]+$"), E.count(size), #b, E.reps * 3,
  best.layout, best.floor, E.verdict(best.layout / best.floor, AIM),
  best.before, best.layout / best.before))
