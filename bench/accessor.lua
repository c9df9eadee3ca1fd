-- accessor.lua - benchmark: every position of a bundle of 1,048,576
-- vertices read through acc:get, through acc:range, and by the C floor
-- (bench/floor) in the same run; best of BENCH_REPS; one result line.
--
-- Environment: BENCH_DIR (where the bundle goes, default "."),
-- BENCH_FLOOR (the floor program, default $top_builddir/bench/floor),
-- BENCH_REPS (repetitions, default 5).
local rsxmesh = require "rsxmesh"

local MESHES, SIDE = 16, 256  -- 16 grids of 256 x 256 vertices
local MASK = 0x00080005       -- position and normal, the commonest mask
local REPS = math.tointeger(tonumber(os.getenv("BENCH_REPS") or "5"))
local SECONDS = 0.3           -- CPU time of passes in one repetition
local GET_AIM = 20e6          -- acc:get reads per second (issue 3)
local RANGE_AIM = 1 / 3       -- acc:range's share of the C floor
local dir = os.getenv("BENCH_DIR") or "."
local floor = os.getenv("BENCH_FLOOR") or
  (os.getenv("top_builddir") or ".") .. "/bench/floor"
local path = dir .. "/accessor.rsxb"
assert(REPS and REPS >= 1, "BENCH_REPS must be a positive integer")

-- One grid: a rolling height field in x and z, triangulated, with one
-- submesh. Built through the module's writer API, as a user would.
local function grid(m, material)
  local f = rsxmesh.format(MASK)
  local n = SIDE * SIDE
  local pos, nrm, tri = {}, {}, {}
  for j = 0, SIDE - 1 do
    for i = 0, SIDE - 1 do
      local k = (j * SIDE + i) * 3
      local x, z = (m * SIDE + i) * 0.25, j * 0.25
      pos[k + 1], pos[k + 2], pos[k + 3] =
        x, 3 * math.sin(x * 0.2) * math.cos(z * 0.3), z
      nrm[k + 1], nrm[k + 2], nrm[k + 3] = 0, 1, 0
    end
  end
  for j = 0, SIDE - 2 do
    for i = 0, SIDE - 2 do
      local v = j * SIDE + i + 1  -- 1-based vertex numbers
      local t = #tri
      tri[t + 1], tri[t + 2], tri[t + 3] = v, v + SIDE, v + 1
      tri[t + 4], tri[t + 5], tri[t + 6] = v + 1, v + SIDE, v + SIDE + 1
    end
  end
  return assert(rsxmesh.mesh{
    name = ("grid_%02d"):format(m),
    meta = string.rep("\0", 0x8C) .. string.pack(">I4", MASK),
    vertex_count = n,
    mmp = f:encode("mmp", n, { position = pos, normal = nrm }),
    mmp_stride = f.mmp_stride,
    indices = rsxmesh.indices(2, tri), index_size = 2,
    primitive = "triangles",
    submeshes = { {
      record = string.rep("\0", 0x38) .. "\255\255\255\255",
      first_index = 0, index_count = #tri, material = material,
    } },
  })
end

local function build()
  local w = rsxmesh.writer()
  local mat = w:material("bench_terrain",
    { { slot = rsxmesh.BASE_COLOUR, texture = "tex/terrain.png" } })
  for m = 0, MESHES - 1 do
    assert(w:mesh(grid(m, mat)))
  end
  assert(w:save(path))
end

-- The passes over the positions, shared with bench/count.lua.
local here = arg and arg[0] and arg[0]:match("^(.*)/") or "."
local passes = dofile(here .. "/passes.lua")
local pass_get, pass_range, pass_table =
  passes.get, passes.range, passes.table

-- The best reads per second of REPS repetitions, and the pass's sum.
local function measure(pass, accs, total)
  local best, sum = 0, nil
  for _ = 1, REPS do
    collectgarbage("collect")
    local passes, start, t = 0, os.clock(), 0
    repeat
      sum = pass(accs)
      passes = passes + 1
      t = os.clock() - start
    until t >= SECONDS
    best = math.max(best, passes * total / t)
  end
  return best, sum
end

local shell_quote = require("rsxmesh.text").quote

local clock0 = os.clock()
build()
io.stderr:write(("accessor: built %s in %.1f s CPU\n")
  :format(path, os.clock() - clock0))

local b = assert(rsxmesh.open(path))
local accs, total = {}, 0
for _, m in b:meshes() do
  local acc = assert(m:attribute("position"))
  accs[#accs + 1] = acc
  total = total + #acc
end
assert(total == MESHES * SIDE * SIDE, "the bundle lost vertices")

local get_rate, get_sum = measure(pass_get, accs, total)
local range_rate, range_sum = measure(pass_range, accs, total)
local table_rate, table_n = measure(pass_table, accs, total)
assert(table_n == 3 * total, "acc:range lost values")

local p = assert(io.popen(("%s %s %d %s"):format(shell_quote(floor),
  shell_quote(path), REPS, SECONDS)))
local reply = p:read("a")
assert(p:close(), "bench/floor failed")
local c_rate, c_sum, c_total = reply:match("^floor (%S+) (%S+) (%S+)")
c_rate, c_sum, c_total = tonumber(c_rate), tonumber(c_sum), tonumber(c_total)
assert(c_rate and c_total == total, "bench/floor: unexpected reply " .. reply)
-- The three read the same positions: the same sums, bit for bit.
assert(get_sum == c_sum and range_sum == c_sum, ("sums differ: get %.17g, " ..
  "range %.17g, C %.17g"):format(get_sum, range_sum, c_sum))

local function verdict(ok) return ok and "met" or "MISSED" end
local function rate(r) return ("%.1f M reads/s (%.2f of C)")
  :format(r / 1e6, r / c_rate) end
print(("accessor: %d positions, best of %d: get %s, range %s, " ..
  "range call alone %s, C floor %.1f M reads/s; aims: get >= %d M/s %s, " ..
  "range >= 1/3 of C %s")
  :format(total, REPS, rate(get_rate), rate(range_rate), rate(table_rate),
    c_rate / 1e6, GET_AIM / 1e6, verdict(get_rate >= GET_AIM),
    verdict(range_rate >= RANGE_AIM * c_rate)))
