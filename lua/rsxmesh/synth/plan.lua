-- rsxmesh/synth/plan.lua - the synthetic disc's count plan: which meshes,
-- masks, submeshes, selectors and vertex counts, before any geometry.
--
-- At scale 1 the plan reproduces the research note's counts exactly; at a
-- scale S each count is the note's times S rounded to nearest (every mask
-- keeping at least one mesh), and what the note does not count (the other
-- 185 selector combinations, the submeshes per mask) is shared out in
-- proportion. The plan is cheap, so every process of a run makes the same
-- one and builds its own share of the levels.

local R = require "rsxmesh.synth.rng"
local shapes = require "rsxmesh.synth.shapes"

local floor = math.floor

local P = {}

-- The note's layout table: mask and mesh count.
P.MASKS = {
  { 0x00080005, 2387 }, { 0x00080007, 2 }, { 0x00080025, 1506 },
  { 0x00080027, 37 }, { 0x0008003d, 3127 }, { 0x0008003f, 35 },
  { 0x00080065, 1172 }, { 0x00080067, 1 }, { 0x0008007d, 2708 },
  { 0x000800e5, 191 }, { 0x000800fd, 3324 }, { 0x000800ff, 10 },
  { 0x000801e5, 3 }, { 0x000801fd, 2134 }, { 0x000801ff, 1239 },
  { 0x000807fd, 21 },
}

-- The note's other counts.
P.NOTE = {
  meshes = 17897, submeshes = 27213, vertices = 6232816,
  a_vertices = 4930385, a_off = 1743419, zero_normals = 11488,
  selector_combinations = 189,
}

-- The four commonest selector combinations (bytes 0x38..0x3B of a
-- submesh record, byte i feeding logical UV i) and their counts.
P.TOP = {
  { 0xFFFFFFFF, 4261 }, { 0x00000201, 3490 }, { 0x00000001, 3138 },
  { 0x00000000, 2554 },
}

-- The other 185 combinations, by the stored sets they need: how many
-- combinations and submeshes for each "highest set named + 1". Chosen so
-- that every combination names only sets its mesh holds (the note does
-- not say that all are valid; a clean sample keeps them so).
local OTHERS = {
  { need = 1, combos = 14, submeshes = 3600 },
  { need = 2, combos = 40, submeshes = 3000 },
  { need = 3, combos = 70, submeshes = 4000 },
  { need = 4, combos = 61, submeshes = 3170 },
}

P.LEVELS = { "ALFA", "BRAVO", "CHARLIE", "DELTA", "ECHO", "FOXTROT", "GOLF",
             "HOTEL", "INDIA", "JULIETT", "KILO", "LIMA", "MIKE",
             "NOVEMBER", "OSCAR" }

P.MIN_SCALE, P.MAX_SCALE = 0.001, 4

-- Submeshes per mesh, by stored UV sets (in hundredths): meshes with more
-- sets are the detailed ones with more parts.
local CLASS_SUBMESHES = { [0] = 130, 145, 155, 160, 165 }

-- Families by mask; weights in percent.
local FAMILY_WEIGHTS = {
  default = { box = 22, building = 30, cylinder = 18, terrain = 14,
              road = 16 },
  [0x00080005] = { box = 30, building = 25, cylinder = 25, terrain = 10,
                   road = 10 },
  [0x00080007] = { box = 1 },
  [0x00080027] = { glow = 1 },
  [0x000807fd] = { tree = 1 },
}

-- A mesh's natural size (vertices) before the totals are shared out.
local SIZES = {
  box = function(u) return 24 + 400 * u * u end,
  building = function(u) return 100 + 1800 * u * u end,
  cylinder = function(u) return 40 + 700 * u * u end,
  terrain = function(u) return 100 + 3000 * u * u end,
  road = function(u) return 80 + 1500 * u * u end,
  tree = function(u) return 600 + 2400 * u end,
  glow = function(u) return 200 + 200 * u end,
}

-- ---------------------------------------------------------------- helpers

-- Share total out in proportion to integer weights (largest remainder,
-- ties to the lower index): exact in integers.
local function apportion(total, weights)
  local W = 0
  for i = 1, #weights do W = W + weights[i] end
  local out, given, rem = {}, 0, {}
  if W == 0 then
    assert(total == 0, "apportion: no weight for a nonzero total")
    for i = 1, #weights do out[i] = 0 end
    return out
  end
  for i = 1, #weights do
    local q = total * weights[i]
    out[i] = q // W
    given = given + out[i]
    rem[i] = i
  end
  local left = total - given
  if left > 0 then
    local key = {}
    for i = 1, #weights do key[i] = total * weights[i] % W end
    table.sort(rem, function(a, b)
      if key[a] ~= key[b] then return key[a] > key[b] end
      return a < b
    end)
    for j = 1, left do out[rem[j]] = out[rem[j]] + 1 end
  end
  return out
end
P.apportion = apportion

-- Selector byte i (0..3) of a combination word.
local function sel_byte(word, i)
  return (word >> (24 - 8 * i)) & 0xFF
end
P.sel_byte = sel_byte

-- How many stored UV sets a combination needs: highest set named + 1.
local function need(word)
  local n = 0
  for i = 0, 3 do
    local b = sel_byte(word, i)
    if b ~= 0xFF and b + 1 > n then n = b + 1 end
  end
  return n
end
P.need = need

-- Stored UV sets a mask holds (bits 5..8, always from set 0 up here).
local function uv_sets(mask)
  local n = 0
  for i = 0, 3 do
    if mask & (0x20 << i) ~= 0 then n = n + 1 end
  end
  return n
end
P.uv_sets = uv_sets

-- The other 185 combinations with their counts at scale 1: the likeliest
-- of each need first (more 0xFF and lower sets), counts falling off as
-- 1/(rank + 2).
local function other_combinations()
  local byte = { 0xFF, 0, 1, 2, 3 }
  local top = {}
  for _, t in ipairs(P.TOP) do top[t[1]] = true end
  local by_need = { {}, {}, {}, {} }
  for a = 1, 5 do for b = 1, 5 do for c = 1, 5 do for d = 1, 5 do
    local w = byte[a] << 24 | byte[b] << 16 | byte[c] << 8 | byte[d]
    local n = need(w)
    if n > 0 and not top[w] then
      local score = 0
      for i = 0, 3 do
        local x = sel_byte(w, i)
        score = score + (x == 0xFF and 0 or x + 1)
      end
      local list = by_need[n]
      list[#list + 1] = { word = w, score = score }
    end
  end end end end
  local out = {}
  for _, o in ipairs(OTHERS) do
    local list = by_need[o.need]
    table.sort(list, function(x, y)
      if x.score ~= y.score then return x.score < y.score end
      return x.word < y.word
    end)
    local weights = {}
    for r = 1, o.combos do weights[r] = 720720 // (r + 1) end
    local counts = apportion(o.submeshes, weights)
    for r = 1, o.combos do
      out[#out + 1] = { list[r].word, counts[r] }
    end
  end
  return out
end

local function family_choices(mask)
  local w = FAMILY_WEIGHTS[mask] or FAMILY_WEIGHTS.default
  local names, weights = {}, {}
  for _, f in ipairs(shapes.families) do
    if w[f] then
      names[#names + 1] = f
      weights[#weights + 1] = w[f]
    end
  end
  return names, weights
end

-- --------------------------------------------------------------- the plan

-- The steps of P.make, in order. Each takes the plan's context c: scale S,
-- seed, rng (the plan's generator, drawn from in this order only), r (a
-- count of the note scaled and rounded), and what earlier steps added.

-- Meshes per mask, in the table's order: c.meshes, and c.classes[k] the
-- meshes with k stored UV sets.
local function plan_meshes(c)
  local meshes, classes = {}, { [0] = {}, {}, {}, {}, {} }
  local first_of = {}
  for _, row in ipairs(P.MASKS) do
    local mask = row[1]
    local n = c.r(row[2])
    if n < 1 then n = 1 end
    local names, weights = family_choices(mask)
    for _ = 1, n do
      local m = { id = #meshes + 1, mask = mask, uv_sets = uv_sets(mask),
                  has_a = mask & 0x8 ~= 0, params = {} }
      m.family = names[c.rng:pick(weights)]
      if not first_of[mask] then
        first_of[mask] = m
        -- the note's UV extremes, at every scale: a terrain patch whose
        -- U starts at -807 and a long road whose V ends at 512
        if mask == 0x00080025 then
          m.family, m.params.u0 = "terrain", shapes.UV_MIN
        elseif mask == 0x0008003d then
          m.family, m.params.long = "road", true
        end
      end
      meshes[#meshes + 1] = m
      local cl = classes[m.uv_sets]
      cl[#cl + 1] = m
    end
  end
  c.meshes, c.classes = meshes, classes
end

-- Selector combinations and their counts: c.combos, and c.t_sub the
-- submeshes in all.
local function plan_combinations(c)
  c.t_sub = c.r(P.NOTE.submeshes)
  local combos = {}
  local top_total = 0
  for _, t in ipairs(P.TOP) do
    combos[#combos + 1] = { word = t[1], count = c.r(t[2]) }
    top_total = top_total + c.r(t[2])
  end
  local others = other_combinations()
  local ow = {}
  for i, o in ipairs(others) do ow[i] = o[2] end
  local oc = apportion(c.t_sub - top_total, ow)
  for i, o in ipairs(others) do
    combos[#combos + 1] = { word = o[1], count = oc[i] }
  end
  c.combos = combos
end

-- Submeshes per class (stored UV sets), then combinations into classes:
-- the most demanding first, each shared by the room left in the classes
-- whose meshes hold the sets it names. c.order is that order of the
-- combinations, c.split[combo index][class] their submeshes.
local function plan_class_split(c)
  local classes, combos = c.classes, c.combos
  local cw = {}
  for k = 0, 4 do cw[k + 1] = #classes[k] * CLASS_SUBMESHES[k] end
  local ct = apportion(c.t_sub, cw)
  local target, room = {}, {}
  for k = 0, 4 do target[k], room[k] = ct[k + 1], ct[k + 1] end
  -- class 0 takes ffffffff only
  if target[0] > combos[1].count then
    local excess = target[0] - combos[1].count
    target[0], room[0] = combos[1].count, combos[1].count
    target[1], room[1] = target[1] + excess, room[1] + excess
  end
  local order = {}
  for i = 1, #combos do order[i] = i end
  table.sort(order, function(a, b)
    local na, nb = need(combos[a].word), need(combos[b].word)
    if na ~= nb then return na > nb end
    if combos[a].count ~= combos[b].count then
      return combos[a].count > combos[b].count
    end
    return combos[a].word < combos[b].word
  end)
  local split = {}
  for _, ci in ipairs(order) do
    local combo = combos[ci]
    local lo = need(combo.word)
    local caps, total = {}, 0
    for k = lo, 4 do
      caps[#caps + 1] = room[k]
      total = total + room[k]
    end
    local give
    if total >= combo.count then
      give = apportion(combo.count, caps)
    else
      give = caps
      give[#give] = give[#give] + combo.count - total
    end
    split[ci] = {}
    for j, g in ipairs(give) do
      local k = lo + j - 1
      split[ci][k] = g
      room[k] = room[k] - g
    end
  end
  c.order, c.split = order, split
end

-- Submeshes per mesh of class k: one each, the rest dealt out by family
-- (a mesh with more parts gets more chances); then the class's
-- combinations, shuffled and dealt to its submeshes (m.k, m.selectors).
-- nil and a message when they do not fit.
local function plan_class_submeshes(c, k)
  local list = c.classes[k]
  local total = 0
  for _, ci in ipairs(c.order) do total = total + (c.split[ci][k] or 0) end
  if total < #list then
    return nil, string.format("scale %g leaves %d submeshes for %d "
      .. "meshes with %d UV sets", c.S, total, #list, k)
  end
  local tokens = {}
  for _, m in ipairs(list) do
    m.k = 1
    for _ = 2, shapes[m.family].hi do tokens[#tokens + 1] = m end
  end
  if total - #list > #tokens then
    return nil, string.format("scale %g: %d submeshes do not fit %d "
      .. "meshes with %d UV sets", c.S, total, #list, k)
  end
  c.rng:shuffle(tokens)
  for j = 1, total - #list do tokens[j].k = tokens[j].k + 1 end
  local deck = {}
  for ci = 1, #c.combos do
    for _ = 1, c.split[ci] and c.split[ci][k] or 0 do
      deck[#deck + 1] = c.combos[ci].word
    end
  end
  c.rng:shuffle(deck)
  local d = 0
  for _, m in ipairs(list) do
    m.selectors = {}
    for s = 1, m.k do
      d = d + 1
      m.selectors[s] = deck[d]
    end
  end
  return true
end

-- The vertices of one group's meshes: its budget shared by natural size
-- above each family's minimum, then fitted (m.count, m.params); what a
-- rigid family cannot take goes to the group's flexible ones.
local function plan_group_vertices(c, g, gi)
  local mins, weights, total_min = {}, {}, 0
  for i, m in ipairs(g) do
    local fam = shapes[m.family]
    local mr = R.new(c.seed, 1, m.id)
    m.rng = mr
    mins[i] = fam.min(m.k)
    local size = SIZES[m.family](mr:float())
    if m.params.long then size = 3000 end
    weights[i] = floor(size * 16)
    total_min = total_min + mins[i]
  end
  if total_min > g.budget then
    return nil, string.format("scale %g is too small: %d vertices for "
      .. "meshes needing %d", c.S, g.budget, total_min)
  end
  local extra = apportion(g.budget - total_min, weights)
  local left, flex, flex_w = 0, {}, {}
  for i, m in ipairs(g) do
    local fam = shapes[m.family]
    local want = mins[i] + extra[i]
    if fam.flexible then
      flex[#flex + 1] = m
      flex_w[#flex_w + 1] = want
      m.count = want
    else
      local params, n = fam.fit(want, m.k, m.rng)
      for key, v in pairs(params) do m.params[key] = v end
      m.count = n
      left = left + want - n
    end
  end
  if left > 0 and #flex == 0 then
    return nil, string.format("scale %g: no flexible mesh in vertex "
      .. "group %d", c.S, gi)
  end
  local share = apportion(left, flex_w)
  for i, m in ipairs(flex) do
    local params, n = shapes[m.family].fit(m.count + share[i], m.k,
      m.rng)
    assert(n == m.count + share[i])
    for key, v in pairs(params) do m.params[key] = v end
    m.count = n
  end
  return true
end

-- Vertices: three budgets (meshes with tangent A; the glow cards, whose
-- normals are all zero; the rest), each shared among its meshes.
local function plan_vertices(c)
  c.v_all, c.v_a, c.v_zero = c.r(P.NOTE.vertices), c.r(P.NOTE.a_vertices),
    c.r(P.NOTE.zero_normals)
  local groups = { { budget = c.v_a }, { budget = c.v_zero },
                   { budget = c.v_all - c.v_a - c.v_zero } }
  for _, m in ipairs(c.meshes) do
    local g = m.has_a and 1 or (m.family == "glow" and 2 or 3)
    local list = groups[g]
    list[#list + 1] = m
  end
  for gi, g in ipairs(groups) do
    local ok, err = plan_group_vertices(c, g, gi)
    if not ok then return nil, err end
  end
  c.groups = groups
  return true
end

-- Tangent A off unit length: a quota per mesh, cumulative rounding.
local function plan_a_off(c)
  c.a_off = c.r(P.NOTE.a_off)
  local cum, given = 0, 0
  for _, m in ipairs(c.groups[1]) do
    cum = cum + m.count
    local upto = R.muldiv_round(c.a_off, cum, c.v_a)
    m.a_off = upto - given
    given = upto
  end
end

-- Index buffers and primitives.
local function plan_indices(c)
  for _, m in ipairs(c.meshes) do
    local fam = shapes[m.family]
    m.strip = fam.strips and true or false
    local limit = m.strip and 0xFFFF or 0x10000
    m.index_size = (fam.wide or m.count > limit) and 4 or 2
    m.rng = nil
  end
end

-- Levels: meshes shuffled and dealt; names numbered per family.
local function plan_levels(c)
  local meshes, levels = c.meshes, {}
  for l, name in ipairs(P.LEVELS) do
    levels[l] = { name = name, index = l, meshes = {}, vertices = 0 }
  end
  local deal = {}
  for i = 1, #meshes do deal[i] = i end
  c.rng:shuffle(deal)
  for pos, id in ipairs(deal) do
    local lv = levels[(pos - 1) % #levels + 1]
    local m = meshes[id]
    lv.meshes[#lv.meshes + 1] = id
    lv.vertices = lv.vertices + m.count
    m.level, m.slot = lv.index, #lv.meshes
  end
  for _, lv in ipairs(levels) do
    local seen = {}
    for _, id in ipairs(lv.meshes) do
      local m = meshes[id]
      seen[m.family] = (seen[m.family] or 0) + 1
      m.name = string.format("%s_%04d", m.family, seen[m.family])
    end
  end
  c.levels = levels
end

-- Make the plan for opts.scale and opts.seed. Returns a table:
--   meshes[i] = { id, mask, uv_sets, has_a, family, k (submeshes),
--                 selectors = {word per submesh}, count, params,
--                 a_off, level, slot, name, index_size, strip }
--   levels[l] = { name, meshes = {ids in order}, vertices }
--   targets = the totals the plan was made to hit
-- or nil and a message when the scale is out of range.
function P.make(opts)
  local S = opts.scale or 1
  local seed = opts.seed or 1
  if type(S) ~= "number" or S ~= S or S < P.MIN_SCALE or S > P.MAX_SCALE
  then
    return nil, string.format("scale must lie in %g..%g", P.MIN_SCALE,
      P.MAX_SCALE)
  end
  local c = { S = S, seed = seed, rng = R.new(seed, 0),
              r = function(n) return floor(n * S + 0.5) end }
  plan_meshes(c)
  plan_combinations(c)
  plan_class_split(c)
  for k = 0, 4 do
    local ok, err = plan_class_submeshes(c, k)
    if not ok then return nil, err end
  end
  local ok, err = plan_vertices(c)
  if not ok then return nil, err end
  plan_a_off(c)
  plan_indices(c)
  plan_levels(c)
  return {
    scale = S, seed = seed, meshes = c.meshes, levels = c.levels,
    combos = c.combos,
    targets = { meshes = #c.meshes, submeshes = c.t_sub,
                vertices = c.v_all, a_vertices = c.v_a, a_off = c.a_off,
                zero_normals = c.v_zero },
  }
end

-- Split the levels between `parts` processes, balancing vertices (the
-- largest level first to the lightest share). Returns, per part, the list
-- of level numbers in ascending order.
function P.split(plan, parts)
  local order = {}
  for l = 1, #plan.levels do order[l] = l end
  table.sort(order, function(a, b)
    local va, vb = plan.levels[a].vertices, plan.levels[b].vertices
    if va ~= vb then return va > vb end
    return a < b
  end)
  local shares, load = {}, {}
  for p = 1, parts do shares[p], load[p] = {}, 0 end
  for _, l in ipairs(order) do
    local best = 1
    for p = 2, parts do
      if load[p] < load[best] then best = p end
    end
    shares[best][#shares[best] + 1] = l
    load[best] = load[best] + plan.levels[l].vertices
  end
  for p = 1, parts do table.sort(shares[p]) end
  return shares
end

return P
