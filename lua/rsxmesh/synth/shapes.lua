-- rsxmesh/synth/shapes.lua - the synthetic disc's shape families: boxes,
-- buildings, cylinders, terrain, roads, trees and glow cards.
--
-- Each family has three functions that share one count formula:
--   fit(target, k, rng) -> params, count   (count <= target, as close as
--                                            the family allows; flexible
--                                            families hit target exactly)
--   min(k)                                  the fewest vertices with k parts
--   build(b, params, k, rng)                writes exactly `count` vertices
--                                            and k parts into builder b
-- The plan calls fit and min; the level writer calls build. A part becomes
-- one submesh. The builder and its conventions are in builder.lua.

local R = require "rsxmesh.synth.rng"
local B = require "rsxmesh.synth.builder"

local sincos = R.sincos
local sqrt, floor = math.sqrt, math.floor
local PI = R.PI

local M = {}

-- The builder's, for the level writer, the plan and the tests.
M.builder, M.grid_triangles, M.grid_strips =
  B.new, B.grid_triangles, B.grid_strips
M.EXTRA_XYZ_MIN, M.EXTRA_XYZ_MAX = B.EXTRA_XYZ_MIN, B.EXTRA_XYZ_MAX
M.EXTRA_W_MIN, M.EXTRA_W_MAX = B.EXTRA_W_MIN, B.EXTRA_W_MAX
M.UV_MIN, M.UV_MAX = B.UV_MIN, B.UV_MAX
local grid_strips = B.grid_strips

-- ------------------------------------------------------------------- box
-- A crate or block, each face an a x b grid; parts: 1 all, 2 sides and
-- top+bottom, 3 sides, top, bottom.

local box = { hi = 3 }
M.box = box

local function box_count(a, b, c)
  return 2 * ((c + 1) * (b + 1) + (a + 1) * (c + 1) + (a + 1) * (b + 1))
end

function box.min() return 24 end

function box.fit(target)
  local best, ba, bb, bc = -1, 1, 1, 1
  for a = 1, 16 do
    for b = 1, 16 do
      local fixed = 2 * (a + 1) * (b + 1)
      local per = 2 * (a + b + 2)
      local c1 = (target - fixed) // per        -- c + 1
      local cmax = 4 * (a > b and a or b) + 4
      if c1 - 1 > cmax then c1 = cmax + 1 end
      if c1 >= 2 then
        local n = fixed + per * c1
        if n > best then best, ba, bb, bc = n, a, b, c1 - 1 end
      end
    end
  end
  assert(best == box_count(ba, bb, bc))
  return { a = ba, b = bb, c = bc }, best
end

function box.build(m, p, k, rng)
  local a, b, c = p.a, p.b, p.c
  -- cells of about 0.25 to 0.6 m: crates and blocks of believable size
  local cell = rng:range(0.25, 0.6)
  local hx, hy, hz = a * cell / 2, b * cell / 2, c * cell / 2
  local side, top = "wood", k == 1 and "wood" or "metal"
  m:atlas(6)
  local tile = 1.0
  m:part(side, tile)
  -- front (+z), right (+x), back (-z), left (-x): A x B = -N on each
  m:flat(-hx, hy, hz, 1, 0, 0, 0, -1, 0, 2 * hx, 2 * hy, a, b, 0, 0, 1)
  m:flat(hx, hy, hz, 0, 0, -1, 0, -1, 0, 2 * hz, 2 * hy, c, b, 1, 0, 0)
  m:flat(hx, hy, -hz, -1, 0, 0, 0, -1, 0, 2 * hx, 2 * hy, a, b, 0, 0, -1)
  m:flat(-hx, hy, -hz, 0, 0, 1, 0, -1, 0, 2 * hz, 2 * hy, c, b, -1, 0, 0)
  if k >= 2 then
    m:done()
    m:part(top, tile)
  end
  m:flat(-hx, hy, -hz, 1, 0, 0, 0, 0, 1, 2 * hx, 2 * hz, a, c, 0, 1, 0)
  if k >= 3 then
    m:done()
    m:part(top, tile)
  end
  m:flat(-hx, -hy, hz, 1, 0, 0, 0, 0, -1, 2 * hx, 2 * hz, a, c, 0, -1, 0)
  m:done()
end

-- -------------------------------------------------------------- building
-- Walls of bx x bz bays and F floors, a flat roof grid, and on k = 4 a
-- rooftop box. Parts: 1 walls and roof; 2 walls, roof; 3 ground floor,
-- upper floors, roof; 4 the same and the rooftop box.

local building = { hi = 4 }
M.building = building

local function building_count(k, F, bx, bz, rx, rz)
  local row = 2 * ((bx + 1) + (bz + 1))
  local rows = k >= 3 and F + 2 or F + 1
  return row * rows + (rx + 1) * (rz + 1) + (k == 4 and 20 or 0)
end

function building.min(k)
  return building_count(k, k >= 3 and 2 or 1, 1, 1, 1, 1)
end

function building.fit(target, k, rng)
  local minF = k >= 3 and 2 or 1
  local function fits(F, bays)
    return building_count(k, F, bays - 1, 1, 1, 1) <= target
  end
  -- floors first (mostly low-rise, some towers), then as many bays round
  -- the walls (bx + bz) as fit, then floors again if the bays ran out
  local F = rng:int(minF, rng:float() < 0.15 and 30 or 10)
  while F > minF and not fits(F, 2) do F = F - 1 end
  local bays = 2
  while bays < 24 and fits(F, bays + 1) do bays = bays + 1 end
  while F < 60 and fits(F + 1, bays) do F = F + 1 end
  local bx = rng:int(1, bays - 1)
  local bz = bays - bx
  -- the roof grid takes up what the walls leave
  local rest = target - building_count(k, F, bx, bz, 0, 0) + 1
  local best, brx, brz = 4, 1, 1
  for rx = 1, 24 do
    for rz = 1, 24 do
      local n = (rx + 1) * (rz + 1)
      if n <= rest and n > best and rx <= 3 * rz + 3 and rz <= 3 * rx + 3
      then
        best, brx, brz = n, rx, rz
      end
    end
  end
  local p = { F = F, bx = bx, bz = bz, rx = brx, rz = brz }
  return p, building_count(k, F, bx, bz, brx, brz)
end

function building.build(m, p, k, rng)
  local F, bx, bz = p.F, p.bx, p.bz
  local bay, fh = rng:range(2.5, 4.5), rng:range(2.8, 3.6)
  local w, d = bx * bay, bz * bay
  local hx, hz = w / 2, d / 2
  local H = F * fh
  m:atlas(4 * (k >= 3 and 2 or 1) + 1 + (k == 4 and 5 or 0))
  -- walls: front, right, back, left, each from height y1 down to y0
  local function walls(y1, y0, rows, t0)
    local ld = y1 - y0
    m:flat(-hx, y1, hz, 1, 0, 0, 0, -1, 0, w, ld, bx, rows, 0, 0, 1, 0, t0)
    m:flat(hx, y1, hz, 0, 0, -1, 0, -1, 0, d, ld, bz, rows, 1, 0, 0, 0, t0)
    m:flat(hx, y1, -hz, -1, 0, 0, 0, -1, 0, w, ld, bx, rows, 0, 0, -1, 0,
      t0)
    m:flat(-hx, y1, -hz, 0, 0, 1, 0, -1, 0, d, ld, bz, rows, -1, 0, 0, 0,
      t0)
  end
  if k >= 3 then
    m:part("brick", bay, fh)
    walls(fh, 0, 1, (F - 1) * fh)
    m:done()
    m:part("window", bay, fh)
    walls(H, fh, F - 1, 0)
    m:done()
  else
    m:part(k == 1 and "concrete" or "window", bay, fh)
    walls(H, 0, F, 0)
    if k == 2 then m:done() end
  end
  if k >= 2 then m:part("roof", 4) end
  m:flat(-hx, H, -hz, 1, 0, 0, 0, 0, 1, w, d, p.rx, p.rz, 0, 1, 0)
  m:done()
  if k == 4 then
    -- a rooftop box: four sides and a lid, no floor
    m:part("concrete", 1)
    local s = 0.2 * (bay < 3 and bay or 3)
    local ux, uz = rng:range(-hx + 1, hx - 1) * 0.5,
      rng:range(-hz + 1, hz - 1) * 0.5
    local y1, y0 = H + 2 * s, H
    m:flat(ux - s, y1, uz + s, 1, 0, 0, 0, -1, 0, 2 * s, y1 - y0, 1, 1,
      0, 0, 1)
    m:flat(ux + s, y1, uz + s, 0, 0, -1, 0, -1, 0, 2 * s, y1 - y0, 1, 1,
      1, 0, 0)
    m:flat(ux + s, y1, uz - s, -1, 0, 0, 0, -1, 0, 2 * s, y1 - y0, 1, 1,
      0, 0, -1)
    m:flat(ux - s, y1, uz - s, 0, 0, 1, 0, -1, 0, 2 * s, y1 - y0, 1, 1,
      -1, 0, 0)
    m:flat(ux - s, y1, uz - s, 1, 0, 0, 0, 0, 1, 2 * s, 2 * s, 1, 1,
      0, 1, 0)
    m:done()
  end
end

-- -------------------------------------------------------------- cylinder
-- An upright tank, pillar or pole: a side of `sides` x `rings` and two
-- capped ends. Parts: 1 all; 2 side, caps; 3 side, top, bottom.

local cylinder = { hi = 3 }
M.cylinder = cylinder

function cylinder.min() return 28 end

function cylinder.fit(target)
  local best, bn, br = -1, 6, 2
  for n = 6, 40 do
    local rings = target // (n + 1) - 2
    if rings > 100 then rings = 100 end
    if rings >= 2 then
      local c = (n + 1) * (rings + 2)
      if c > best then best, bn, br = c, n, rings end
    end
  end
  return { sides = bn, rings = br }, best
end

function cylinder.build(m, p, k, rng)
  local n, rings = p.sides, p.rings
  local r = rng:range(0.3, 4)
  local h = r * rng:range(1.5, 6)
  m:atlas(3)
  m:part("metal", 2)
  -- axis +y, frame (z, x, y) is right-handed
  m:tube(0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, r, r, h, n, rings)
  if k >= 2 then
    m:done()
    m:part("concrete", 1)
  end
  -- top: N up, A = +x, B = +z; bottom: N down, A = +x, B = -z
  m:cap(0, h, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, r, n, 1, 0, 0, 0, 0, 1)
  if k >= 3 then
    m:done()
    m:part("concrete", 1)
  end
  m:cap(0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, 0, r, n, 1, 0, 0, 0, 0, -1)
  m:done()
end

-- --------------------------------------------------------------- terrain
-- A heightfield patch of c columns, cut into k bands of rows (each band
-- repeats the row it shares with the one before), the last band ending in
-- a ragged row of p < c vertices. Any count from 4k up.

local terrain = { hi = 3, flexible = true, strips = true, wide = true }
M.terrain = terrain

function terrain.min(k) return 4 * k end

-- Split n vertices for k bands: columns c, vertex rows per band, ragged p.
local function terrain_layout(n, k, cols)
  local c = cols
  if c > n // (2 * k) then c = n // (2 * k) end
  if c < 2 then c = 2 end
  local rows = n // c
  local ragged = n - rows * c
  local per = {}
  for b = 1, k do
    per[b] = rows // k + (b <= rows % k and 1 or 0)
  end
  return c, per, ragged
end
M.terrain_layout = terrain_layout

function terrain.fit(target, k, rng)
  -- columns near the square root, varied
  local c = floor(sqrt(target / k) * rng:range(0.7, 1.4))
  return { cols = c < 2 and 2 or c }, target
end

-- The height field: a few plane waves a*sin(kx*x + kz*z + ph). A wave is
-- split as sin(X + Z) = sin X cos Z + cos X sin Z, so each column and row
-- pays for its sines once, not each vertex.
local function terrain_waves(p, rng)
  p.waves = {}
  for w = 0, 2 do
    local amp = rng:range(0.5, 4) / (w + 1)
    local s, co = sincos(rng:range(0, 2 * PI))
    local freq = rng:range(0.01, 0.06) * (w + 1)
    p.waves[w + 1] = { amp, co * freq, s * freq, rng:range(0, 2 * PI) }
  end
end

-- sin and cos of each wave's x term along the columns: cols[w][i]
local function terrain_columns(p, x0, cell, c)
  local out = {}
  for w, wave in ipairs(p.waves) do
    local s, co = {}, {}
    for i = 0, c - 1 do
      s[i], co[i] = sincos(wave[2] * (x0 + i * cell))
    end
    out[w] = { s = s, c = co }
  end
  return out
end

function terrain.build(m, p, k, rng, count)
  local c, per, ragged = terrain_layout(count, k, p.cols)
  local cell = rng:range(2, 6)
  terrain_waves(p, rng)
  local x0 = -(c - 1) * cell / 2
  local total_rows = 0
  for b = 1, k do total_rows = total_rows + per[b] end
  local z0 = -(total_rows - k + 1) * cell / 2
  local textures = { "grass", "rock", "grass" }
  m:atlas(1)
  local lu0, lv0, ls = m:next_cell()
  local span_z = (total_rows - k + (ragged > 0 and 1 or 0)) * cell
  local cols = terrain_columns(p, x0, cell, c)
  local waves = p.waves
  -- vertices i = 0..n-1 of row j
  local function row(j, n)
    local z = z0 + j * cell
    local rs, rc = {}, {}
    for w, wave in ipairs(waves) do
      rs[w], rc[w] = sincos(wave[3] * z + wave[4])
    end
    local lv = lv0 + ls * (z - z0) / span_z
    for i = 0, n - 1 do
      local x = x0 + i * cell
      local h, hx, hz = 0, 0, 0
      for w = 1, #waves do
        local wave, col = waves[w], cols[w]
        local xs, xc = col.s[i], col.c[i]
        local sn = xs * rc[w] + xc * rs[w]
        local cs = xc * rc[w] - xs * rs[w]
        local a = wave[1]
        h = h + a * sn
        hx, hz = hx + a * cs * wave[2], hz + a * cs * wave[3]
      end
      local nl = 1 / sqrt(hx * hx + 1 + hz * hz)
      local al = 1 / sqrt(1 + hx * hx)
      local bl = 1 / sqrt(1 + hz * hz)
      m:vertex(x, h, z, -hx * nl, nl, -hz * nl, x - x0, z - z0,
        al, hx * al, 0, 0, hz * bl, bl, lu0 + ls * i / (c - 1), lv)
    end
  end
  local row0 = 0
  for b = 1, k do
    m:part(textures[b], 4, 4, p.u0, 0)
    local base = m.n + 1
    for j = row0, row0 + per[b] - 1 do row(j, c) end
    grid_strips(m.cur.idx, base, c - 1, per[b] - 1)
    if b == k and ragged > 0 then
      -- the ragged row below the last: strip top(i), bottom(i), ...,
      -- ending on top(ragged)
      local last = base + (per[b] - 1) * c
      local rbase = m.n + 1
      row(row0 + per[b], ragged)
      local idx = m.cur.idx
      local q = #idx
      idx[q + 1] = -1
      q = q + 1
      for i = 0, ragged - 1 do
        idx[q + 1], idx[q + 2] = last + i, rbase + i
        q = q + 2
      end
      idx[q + 1] = last + ragged
    end
    m:done()
    row0 = row0 + per[b] - 1
  end
end

-- ------------------------------------------------------------------ road
-- A road along a gentle arc: an asphalt ribbon (ending in a point on one
-- vertex when its count is odd) and up to two kerb ribbons, each one
-- triangle strip along its length. Any count from 4k up.

local road = { hi = 3, flexible = true, strips = true }
M.road = road

function road.min(k) return 4 * k end

-- Stations of the asphalt (and its point) and of each kerb.
local function road_layout(n, k)
  if k == 1 then return n // 2, n % 2, 0 end
  local sk = n // (2 * k)
  local rest = n - 2 * sk * (k - 1)
  return rest // 2, rest % 2, sk
end
M.road_layout = road_layout

function road.fit(target)
  return {}, target
end

function road.build(m, p, k, rng, count)
  local sa, point, sk = road_layout(count, k)
  local len = p.long and 4 * M.UV_MAX or rng:range(40, 600)
  local curve = rng:range(-1, 1) / 400
  if p.long then curve = curve / 4 end
  local grade = rng:range(-0.03, 0.03)
  local width = rng:range(6, 12)
  m:atlas(k)
  -- centre line and its unit directions at arc length a
  local function frame(a)
    local x, z, hx, hz
    if curve == 0 then
      x, z, hx, hz = a, 0, 1, 0
    else
      local s, c = sincos(a * curve)
      x, z, hx, hz = s / curve, (1 - c) / curve, c, s
    end
    local tl = 1 / sqrt(1 + grade * grade)
    -- right of the direction of travel, flat; normal = right x along
    local rx, rz = -hz, hx
    local tx, ty, tz = hx * tl, grade * tl, hz * tl
    local nx, ny, nz = -rz * ty, rz * tx - rx * tz, rx * ty
    return x, grade * a, z, rx, rz, tx, ty, tz, nx, ny, nz
  end
  -- one ribbon from lateral offset l0 (its right edge: s = 0) to l1 < l0
  -- at height dy, `st` stations; A points to the left so A x B = -N
  local function ribbon(st, l0, l1, dy, tip)
    local cu, cv, cs = m:next_cell()
    local idx = m.cur.idx
    local q = #idx
    local wd = l0 - l1
    if tip then
      local x, y, z, rx, rz, tx, ty, tz, nx, ny, nz = frame(0)
      local back, mid = 0.5 * wd, (l0 + l1) / 2
      q = q + 1
      idx[q] = m:vertex(x + rx * mid - tx * back, y + dy - ty * back,
        z + rz * mid - tz * back, nx, ny, nz, wd / 2, -back,
        -rx, 0, -rz, tx, ty, tz, cu + cs * 0.5, cv)
    end
    for j = 0, st - 1 do
      local a = len * j / (st - 1)
      local x, y, z, rx, rz, tx, ty, tz, nx, ny, nz = frame(a)
      local fv = cv + cs * j / (st - 1)
      local right = m:vertex(x + rx * l0, y + dy, z + rz * l0, nx, ny, nz,
        0, a, -rx, 0, -rz, tx, ty, tz, cu, fv)
      local left = m:vertex(x + rx * l1, y + dy, z + rz * l1, nx, ny, nz,
        wd, a, -rx, 0, -rz, tx, ty, tz, cu + cs, fv)
      -- without the point: left, right; after it: right, left
      if tip then
        idx[q + 1], idx[q + 2] = right, left
      else
        idx[q + 1], idx[q + 2] = left, right
      end
      q = q + 2
    end
  end
  m:part("asphalt", width, 4)
  ribbon(sa, width / 2, -width / 2, 0, point == 1)
  m:done()
  for side = 1, k - 1 do
    m:part("concrete", 0.5, 4)
    if side == 1 then
      ribbon(sk, width / 2 + 0.5, width / 2, 0.15)
    else
      ribbon(sk, -width / 2, -width / 2 - 0.5, 0.15)
    end
    m:done()
  end
end

-- ------------------------------------------------------------------ tree
-- A trunk, `branches` branches and `leaves` leaf cards, with the tree
-- extras: A = a sway axis (xyz) and phase (w), B = the pivot (w = 0).
-- Parts: 1 all (leaves); 2 bark, leaves; 3 trunk, branches, leaves.

local tree = { hi = 3 }
M.tree = tree

local TRUNK_SIDES, BRANCH_SIDES, BRANCH_RINGS = 8, 6, 3
local BRANCH = (BRANCH_SIDES + 1) * BRANCH_RINGS

local function tree_count(rings, branches, leaves)
  return (TRUNK_SIDES + 1) * rings + BRANCH * branches + 4 * leaves
end

function tree.min() return tree_count(4, 2, 4) end

function tree.fit(target, _, rng)
  local rings = rng:int(4, 12)
  local branches = rng:int(2, 12)
  while tree_count(rings, branches, 4) > target and branches > 2 do
    branches = branches - 1
  end
  while tree_count(rings, branches, 4) > target and rings > 4 do
    rings = rings - 1
  end
  local leaves = (target - tree_count(rings, branches, 0)) // 4
  if leaves < 4 then leaves = 4 end
  local p = { rings = rings, branches = branches, leaves = leaves }
  return p, tree_count(rings, branches, leaves)
end

-- A right-handed frame (f1, f2, e) around unit e.
local function frame_around(ex, ey, ez)
  local ux, uy, uz = 0, 1, 0
  if ey > 0.9 or ey < -0.9 then ux, uy, uz = 1, 0, 0 end
  -- f1 = normalize(u x e), f2 = e x f1
  local ax, ay, az = uy * ez - uz * ey, uz * ex - ux * ez, ux * ey - uy * ex
  local l = 1 / sqrt(ax * ax + ay * ay + az * az)
  ax, ay, az = ax * l, ay * l, az * l
  return ax, ay, az, ey * az - ez * ay, ez * ax - ex * az, ex * ay - ey * ax
end

function tree.build(m, p, k, rng)
  local H = rng:range(4, 12)
  local r0 = H * rng:range(0.025, 0.045)
  m:atlas(2 + p.branches + p.leaves)
  local bark = k == 1 and "leaves" or "bark"
  m:part(bark, 1, 2)
  local first = m.n + 1
  m:tube(0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, r0, r0 * 0.3, H,
    TRUNK_SIDES, p.rings)
  m:extras(first, m.n, 0, 0.97, 0, 0, 0, 0, 0)
  if k == 3 then
    m:done()
    m:part("bark", 1, 2)
  end
  local span = M.EXTRA_W_MAX - M.EXTRA_W_MIN
  for b = 1, p.branches do
    local az = 2 * PI * (b - 1) / p.branches + rng:range(-0.3, 0.3)
    local s, c = sincos(az)
    local y = H * rng:range(0.35, 0.85)
    local lift = rng:range(0.3, 0.9)
    local l = 1 / sqrt(1 + lift * lift)
    local ex, ey, ez = c * l, lift * l, s * l
    local f1x, f1y, f1z, f2x, f2y, f2z = frame_around(ex, ey, ez)
    local first_b = m.n + 1
    local bx, bz = c * r0 * 0.5, s * r0 * 0.5
    m:tube(bx, y, bz, f1x, f1y, f1z, f2x, f2y, f2z, ex, ey, ez,
      r0 * 0.35, r0 * 0.1, H * rng:range(0.2, 0.4), BRANCH_SIDES,
      BRANCH_RINGS)
    m:extras(first_b, m.n, ex * 0.97, ey * 0.97, ez * 0.97,
      M.EXTRA_W_MIN + span * rng:float(), bx, y, bz)
  end
  if k >= 2 then
    m:done()
    m:part("leaves", 1)
  end
  -- leaf cards around the crown, facing out and up; the first hangs
  -- straight down its sway axis, phases spread over the whole range
  for j = 0, p.leaves - 1 do
    local az = 2 * PI * rng:float()
    local s, c = sincos(az)
    local y = H * rng:range(0.45, 1.0)
    local reach = H * 0.3 * rng:range(0.3, 1) * (1.1 - y / H)
    local cx, cz = c * reach, s * reach
    local size = rng:range(0.3, 0.8)
    -- normal: out and up; A horizontal; D = A x N, so that A x D = -N
    local nx, ny, nz = c * 0.6, 0.8, s * 0.6
    local ax, ay, az2 = -s, 0, c
    local dx, dy, dz = ay * nz - az2 * ny, az2 * nx - ax * nz,
      ax * ny - ay * nx
    local hs = size / 2
    local first_l = m.n + 1
    m:flat(cx - ax * hs - dx * hs, y - ay * hs - dy * hs,
      cz - az2 * hs - dz * hs, ax, ay, az2, dx, dy, dz, size, size, 1, 1,
      nx, ny, nz)
    local f = j == 0 and 0 or rng:range(0, 0.3)
    local l = 1 / sqrt(1 + f * f)
    local phase = M.EXTRA_W_MIN + span * j / (p.leaves - 1)
    m:extras(first_l, m.n, c * f * l * 0.97, -l * 0.97, s * f * l * 0.97,
      phase, cx, y, cz)
  end
  m:done()
end

-- ------------------------------------------------------------------ glow
-- Unlit halo cards round lamps: flat discs whose normals are the zero
-- vector (an unlit shader has no use for them; the note's zero normals).
-- Any count from 3k up.

local glow = { hi = 3, flexible = true, zero_normals = true }
M.glow = glow

function glow.min(k) return 3 * k end

function glow.fit(target) return {}, target end

-- Disc sizes (rim vertices) for n vertices in k parts: at least 3 each.
local function glow_layout(n, k)
  local discs = (n + 5) // 10
  if discs < k then discs = k end
  local sizes = {}
  for i = 1, discs do
    sizes[i] = n // discs + (i <= n % discs and 1 or 0)
  end
  return sizes
end
M.glow_layout = glow_layout

function glow.build(m, _, k, rng, count)
  local sizes = glow_layout(count, k)
  m.C = {}
  local C = m.C
  m:atlas(#sizes)
  local per = #sizes // k
  local d = 0
  for part = 1, k do
    local last = part == k and #sizes or d + per
    m:part("glow", 1)
    while d < last do
      d = d + 1
      local rim = sizes[d]
      local cx, cy, cz = rng:range(-20, 20), rng:range(3, 8),
        rng:range(-20, 20)
      local r = rng:range(0.3, 1.2)
      local cu, cv, cs = m:next_cell()
      local first = m.n + 1
      -- a disc facing +z: A = +x, B = -y
      for i = 0, rim - 1 do
        local s, c = sincos(2 * PI * i / rim)
        m:vertex(cx + r * c, cy + r * s, cz, 0, 0, 0,
          0.5 * (1 + c), 0.5 * (1 - s), 1, 0, 0, 0, -1, 0,
          cu + cs * 0.5 * (1 + c), cv + cs * 0.5 * (1 - s))
      end
      local idx = m.cur.idx
      local q = #idx
      for i = 1, rim - 2 do
        idx[q + 1], idx[q + 2], idx[q + 3] = first, first + i, first + i + 1
        q = q + 3
      end
      local tr, tg, tb = rng:range(0.9, 1), rng:range(0.7, 0.95),
        rng:range(0.3, 0.7)
      for v = first, m.n do
        local i = 4 * v
        C[i - 3], C[i - 2], C[i - 1], C[i] = tr, tg, tb, 1
      end
    end
    m:done()
  end
end

M.families = { "box", "building", "cylinder", "terrain", "road", "tree",
               "glow" }

return M
