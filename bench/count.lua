-- count.lua - run one pass of the accessor benchmark N times over a
-- bundle, untimed, for bench/instructions.sh to count under callgrind.
-- usage: rsxmesh bench/count.lua BUNDLE get|range|table N
local rsxmesh = require "rsxmesh"
local here = arg[0]:match("^(.*)/") or "."
local passes = dofile(here .. "/passes.lua")
local path, mode, n = arg[1], arg[2], math.tointeger(tonumber(arg[3]))
assert(path and passes[mode] and n, "usage: count.lua BUNDLE MODE N")
local b = assert(rsxmesh.open(path))
local accs = {}
for _, m in b:meshes() do
  accs[#accs + 1] = assert(m:attribute("position"))
end
local sum
for _ = 1, n do
  sum = passes[mode](accs)
end
print(sum)
