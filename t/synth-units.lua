-- synth-units.lua - the synthetic disc's pure-Lua parts: its random
-- numbers and trig, the count plan at many scales, and every shape family
-- built alone.

local t = require "tap"
local R = require "rsxmesh.synth.rng"
local P = require "rsxmesh.synth.plan"
local shapes = require "rsxmesh.synth.shapes"

-- ------------------------------------------------------------------ rng

-- SplitMix64 from state 0: the published reference outputs
local g = setmetatable({ s = 0 }, getmetatable(R.new(1)))
t.is(g:int64(), 0xE220A8397B1DCDAF, "splitmix64 #1")
t.is(g:int64(), 0x6E789E6AA1B965F4, "splitmix64 #2")
t.is(g:int64(), 0x06C45D188009454F, "splitmix64 #3")
g = setmetatable({ s = 0 }, getmetatable(R.new(1)))
t.is(g:float(), (0xE220A8397B1DCDAF >> 11) / 2 ^ 53, "float: top 53 bits")

local a, b = R.new(5, 1, 9), R.new(5, 1, 9)
local same = true
for _ = 1, 100 do same = same and a:int64() == b:int64() end
t.ok(same, "the same key, the same stream")
t.isnt(R.new(5, 1, 9):int64(), R.new(5, 9, 1):int64(),
  "keys are ordered")
local lo, hi, seen = math.huge, -math.huge, {}
for _ = 1, 2000 do
  local v = a:int(3, 8)
  lo, hi = math.min(lo, v), math.max(hi, v)
  seen[v] = true
end
local all = true
for v = 3, 8 do all = all and seen[v] == true end
t.ok(lo == 3 and hi == 8 and all, "int(3, 8) gives 3..8, each")

local worst = 0
for i = -700, 700 do
  local x = i * 0.0371
  local s, c = R.sincos(x)
  worst = math.max(worst, math.abs(s - math.sin(x)),
    math.abs(c - math.cos(x)))
end
t.ok(worst < 1e-14, "sincos within 1e-14 of libm: " .. worst)
local s0, c0 = R.sincos(0)
t.ok(s0 == 0 and c0 == 1, "sincos(0) = 0, 1 exactly")
t.is(R.muldiv_round(7, 1, 2), 4, "muldiv_round: 3.5 rounds up")
t.is(R.muldiv_round(1743419, 4930385, 4930385), 1743419, "muldiv exact")

-- ---------------------------------------------------------------- plan

t.is_deeply(P.apportion(10, { 1, 1, 1 }), { 4, 3, 3 }, "apportion ties")
t.is_deeply(P.apportion(7, { 5, 3, 2 }), { 4, 2, 1 },
  "apportion: 3.5 2.1 1.4 -> 4 2 1")
t.is_deeply(P.apportion(0, { 0, 0 }), { 0, 0 }, "apportion nothing")
t.is(P.need(0xFFFFFFFF), 0, "ffffffff needs no stored set")
t.is(P.need(0x00000201), 3, "00000201 needs sets 0-2")
t.is(P.need(0x00000001), 2, "00000001 needs sets 0-1")
t.is(P.need(0x00000000), 1, "00000000 needs set 0")
t.is(P.need(0xFF03FFFF), 4, "ff03ffff needs set 3")
t.is(P.uv_sets(0x00080005), 0, "00080005 holds no UV set")
t.is(P.uv_sets(0x000800e5), 3, "000800e5 holds three")
t.is(P.uv_sets(0x000807fd), 4, "000807fd holds four")

local note = { { 0x00080005, 2387 }, { 0x00080007, 2 },
  { 0x00080025, 1506 }, { 0x00080027, 37 }, { 0x0008003d, 3127 },
  { 0x0008003f, 35 }, { 0x00080065, 1172 }, { 0x00080067, 1 },
  { 0x0008007d, 2708 }, { 0x000800e5, 191 }, { 0x000800fd, 3324 },
  { 0x000800ff, 10 }, { 0x000801e5, 3 }, { 0x000801fd, 2134 },
  { 0x000801ff, 1239 }, { 0x000807fd, 21 } }
for _, scale in ipairs{ 1, 0.001, 0.005, 0.02, 0.1, 0.37, 2 } do
  local r = function(n) return math.floor(n * scale + 0.5) end
  local plan = assert(P.make{ scale = scale, seed = 3 })
  local masks, subs, verts, av, off, zero, bad = {}, 0, 0, 0, 0, 0, 0
  local combos, levels = {}, {}
  for _, m in ipairs(plan.meshes) do
    masks[m.mask] = (masks[m.mask] or 0) + 1
    subs, verts = subs + m.k, verts + m.count
    if m.mask & 8 ~= 0 then av, off = av + m.count, off + m.a_off end
    if m.family == "glow" then zero = zero + m.count end
    for _, w in ipairs(m.selectors) do
      combos[w] = (combos[w] or 0) + 1
      -- a byte naming a stored set the mask lacks would be a finding
      for i = 0, 3 do
        local sb = P.sel_byte(w, i)
        if sb ~= 0xFF and m.mask & (0x20 << sb) == 0 then bad = bad + 1 end
      end
    end
    levels[m.level] = true
  end
  local ok_masks = true
  for _, row in ipairs(note) do
    ok_masks = ok_masks and masks[row[1]] == math.max(1, r(row[2]))
  end
  local name = "scale " .. scale .. ": "
  t.ok(ok_masks, name .. "meshes per mask")
  t.is(subs, r(27213), name .. "submeshes")
  t.is(verts, r(6232816), name .. "vertices")
  t.is(av, r(4930385), name .. "vertices with A")
  t.is(off, r(1743419), name .. "A off unit")
  t.is(zero, r(11488), name .. "glow (zero normal) vertices")
  t.is(bad, 0, name .. "selectors name only sets the mask holds")
  t.ok(combos[0xFFFFFFFF] == r(4261) and combos[0x00000201] == r(3490)
    and combos[0x00000001] == r(3138) and combos[0x00000000] == r(2554),
    name .. "the four commonest")
  local distinct = 0
  for _ in pairs(combos) do distinct = distinct + 1 end
  if scale == 1 then t.is(distinct, 189, name .. "189 combinations") end
  t.is(#levels, 15, name .. "15 levels")
end
t.ok(not P.make{ scale = 0.0009 }, "a scale below 0.001 is refused")
t.ok(not P.make{ scale = 4.5 }, "a scale above 4 is refused")

-- -------------------------------------------------------------- shapes

local c, per, ragged = shapes.terrain_layout(10, 1, 3)
t.ok(c == 3 and per[1] == 3 and ragged == 1, "terrain 10 = 3 x 3 + 1")
c, per, ragged = shapes.terrain_layout(13, 2, 9)
t.ok(c == 3 and per[1] == 2 and per[2] == 2 and ragged == 1,
  "terrain 13 in 2 bands: 3 columns, rows 2 + 2, ragged 1")
local sa, point, sk = shapes.road_layout(13, 3)
t.ok(sa == 2 and point == 1 and sk == 2, "road 13 = 2x2 + 1 + 2 x 2x2")
t.is_deeply(shapes.glow_layout(25, 1), { 9, 8, 8 }, "glow 25 = 9 + 8 + 8")

local function dot(x1, y1, z1, x2, y2, z2)
  return x1 * x2 + y1 * y2 + z1 * z2
end

-- build every family with every part count at a few sizes
for _, fam in ipairs(shapes.families) do
  local F = shapes[fam]
  for k = 1, F.hi do
    for _, want in ipairs{ F.min(k), F.min(k) + 37, 900 } do
      local rng = R.new(11, k, want)
      local params, n = F.fit(want, k, rng)
      local m = shapes.builder(5, 0, -7)
      F.build(m, params, k, rng, n)
      local label = string.format("%s k=%d target %d", fam, k, want)
      local problems = {}
      if n > want then problems[#problems + 1] = "over target" end
      if m.n ~= n then problems[#problems + 1] = "count " .. m.n end
      if #m.parts ~= k then problems[#problems + 1] = "parts " .. #m.parts
      end
      local used = {}
      for _, p in ipairs(m.parts) do
        for _, v in ipairs(p.idx) do
          if v ~= -1 and (v < p.first or v >= p.first + p.count) then
            problems[#problems + 1] = "index " .. v .. " outside its part"
            break
          end
          used[v] = true
        end
      end
      for v = 1, m.n do
        if not used[v] then
          problems[#problems + 1] = "vertex " .. v .. " unused"
          break
        end
      end
      for v = 1, m.n do
        local i = 3 * v - 2
        local N, A, B = m.N, m.TA, m.TB
        local nl = dot(N[i], N[i + 1], N[i + 2], N[i], N[i + 1], N[i + 2])
        if F.zero_normals then
          if nl ~= 0 then problems[#problems + 1] = "nonzero normal" end
        else
          local al = dot(A[i], A[i + 1], A[i + 2], A[i], A[i + 1], A[i + 2])
          local bl = dot(B[i], B[i + 1], B[i + 2], B[i], B[i + 1], B[i + 2])
          -- A x B points against N: the texture's u right, v down
          local cx = A[i + 1] * B[i + 2] - A[i + 2] * B[i + 1]
          local cy = A[i + 2] * B[i] - A[i] * B[i + 2]
          local cz = A[i] * B[i + 1] - A[i + 1] * B[i]
          if math.abs(nl - 1) > 1e-9 or math.abs(al - 1) > 1e-9
              or math.abs(bl - 1) > 1e-9
              or math.abs(dot(A[i], A[i + 1], A[i + 2], N[i], N[i + 1],
                N[i + 2])) > 1e-9
              or dot(cx, cy, cz, N[i], N[i + 1], N[i + 2]) >= 0 then
            problems[#problems + 1] = "frame of vertex " .. v
            break
          end
        end
      end
      t.is(table.concat(problems, ", "), "", label .. ": " .. n
        .. " vertices")
    end
  end
end

t.done_testing()
