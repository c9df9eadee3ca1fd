-- rsxmesh/synth/builder.lua - the synthetic disc's mesh builder: parts,
-- vertices with their frames and UVs, grids, tubes and caps, the
-- lightmap atlas; the shape families (shapes.lua) build with it.
--
-- Conventions every shape keeps, so that normals agree with faces and
-- tangents follow the UVs: a vertex carries its surface coordinates (s, t)
-- in metres, s to the right and t downwards as the texture is seen (V is
-- top-origin), the unit directions A = dP/ds and B = dP/dt, and the
-- outward normal N with A x B = -N. Triangles wind counter-clockwise seen
-- from the side N points to.

local R = require "rsxmesh.synth.rng"

local sincos = R.sincos
local sqrt = math.sqrt
local PI = R.PI

local M = {}

-- Tree extras are half floats: the ends of the note's ranges rounded
-- inwards to binary16, so the decoded values stay inside.
M.EXTRA_XYZ_MIN = -983 / 1024    -- -0.95996
M.EXTRA_XYZ_MAX = 962 / 1024     --  0.93945
M.EXTRA_W_MIN = -1607 / 512      -- -3.13867
M.EXTRA_W_MAX = 1530 / 512       --  2.98828
M.UV_MIN = -807                  -- the note's UV extremes, exact in half
M.UV_MAX = 512

local Builder = {}
Builder.__index = Builder

-- An empty mesh. (ox, oy, oz) is where the level puts it.
function M.new(ox, oy, oz)
  return setmetatable({
    n = 0, ox = ox or 0, oy = oy or 0, oz = oz or 0,
    P = {}, N = {}, ST = {}, TA = {}, TB = {}, LM = {},
    C = nil, XA = nil, XB = nil,
    parts = {},
    -- the lightmap atlas: islands placed in a grid of cells
    cells = 1, cell = 0,
  }, Builder)
end

-- Start a part (a future submesh): its texture family and the size in
-- metres of one texture repeat along s and t. (u0, v0) offset its UVs.
function Builder:part(texture, tile_s, tile_t, u0, v0)
  local p = { first = self.n + 1, idx = {}, texture = texture,
              tile_s = tile_s, tile_t = tile_t or tile_s,
              u0 = u0 or 0, v0 = v0 or 0 }
  self.parts[#self.parts + 1] = p
  self.cur = p
  return p
end

-- Close the current part: its vertex count.
function Builder:done()
  local p = self.cur
  p.count = self.n + 1 - p.first
  self.cur = nil
  return p
end

-- Lightmap atlas: `cells` islands per side; next_cell returns the origin
-- and size of the next island.
function Builder:atlas(islands)
  local c = 1
  while c * c < islands do c = c + 1 end
  self.cells, self.cell = c, 0
end

function Builder:next_cell()
  local c, k = self.cells, self.cell
  self.cell = k + 1
  local size = 1 / c
  return (k % c) * size + 0.05 * size, ((k // c) % c) * size + 0.05 * size,
         0.9 * size
end

-- Add a vertex: position (local to the mesh; the placement offset is
-- added), normal, surface coordinates, A, B, lightmap UV. Returns its
-- 1-based number.
function Builder:vertex(px, py, pz, nx, ny, nz, s, t,
                        ax, ay, az, bx, by, bz, lu, lv)
  local n = self.n + 1
  self.n = n
  local i3, i2 = 3 * n, 2 * n
  local P, N, TA, TB, ST, LM = self.P, self.N, self.TA, self.TB, self.ST,
    self.LM
  P[i3 - 2], P[i3 - 1], P[i3] = px + self.ox, py + self.oy, pz + self.oz
  N[i3 - 2], N[i3 - 1], N[i3] = nx, ny, nz
  TA[i3 - 2], TA[i3 - 1], TA[i3] = ax, ay, az
  TB[i3 - 2], TB[i3 - 1], TB[i3] = bx, by, bz
  ST[i2 - 1], ST[i2] = s, t
  LM[i2 - 1], LM[i2] = lu, lv
  return n
end

-- Tree extras of vertices first..last.
function Builder:extras(first, last, ax, ay, az, aw, px, py, pz)
  local XA, XB = self.XA, self.XB
  if not XA then
    XA, XB = {}, {}
    self.XA, self.XB = XA, XB
  end
  local lo, hi = M.EXTRA_XYZ_MIN, M.EXTRA_XYZ_MAX
  local function c(x) return x < lo and lo or (x > hi and hi or x) end
  local wl, wh = M.EXTRA_W_MIN, M.EXTRA_W_MAX
  aw = aw < wl and wl or (aw > wh and wh or aw)
  ax, ay, az = c(ax), c(ay), c(az)
  px, py, pz = px + self.ox, py + self.oy, pz + self.oz
  for v = first, last do
    local i = 4 * v
    XA[i - 3], XA[i - 2], XA[i - 1], XA[i] = ax, ay, az, aw
    XB[i - 3], XB[i - 2], XB[i - 1], XB[i] = px, py, pz, 0
  end
end

-- Triangle list indices of an (nr+1) x (nd+1) grid whose vertex (i, j)
-- is base + j*(nr+1) + i, i along A (right), j along B (down).
local function grid_triangles(idx, base, nr, nd)
  local k = #idx
  local w = nr + 1
  for j = 0, nd - 1 do
    local row = base + j * w
    for i = 0, nr - 1 do
      local v00 = row + i
      local v10, v01 = v00 + 1, v00 + w
      local v11 = v01 + 1
      idx[k + 1], idx[k + 2], idx[k + 3] = v01, v11, v10
      idx[k + 4], idx[k + 5], idx[k + 6] = v01, v10, v00
      k = k + 6
    end
  end
end
M.grid_triangles = grid_triangles

-- The same grid as triangle strips, one per row of cells, restarted
-- (-1) between rows.
local function grid_strips(idx, base, nr, nd)
  local k = #idx
  local w = nr + 1
  for j = 0, nd - 1 do
    if j > 0 then
      k = k + 1
      idx[k] = -1
    end
    local top = base + j * w
    for i = 0, nr do
      idx[k + 1], idx[k + 2] = top + i, top + w + i
      k = k + 2
    end
  end
end
M.grid_strips = grid_strips

-- A flat grid: origin O (its top-left corner), unit directions r (right)
-- and d (down), lengths lr and ld, nr x nd cells, normal n. (s0, t0)
-- offsets the surface coordinates. Triangles go to the current part.
function Builder:flat(ox, oy, oz, rx, ry, rz, dx, dy, dz, lr, ld, nr, nd,
                      nx, ny, nz, s0, t0)
  local base = self.n + 1
  local cu, cv, cs = self:next_cell()
  s0, t0 = s0 or 0, t0 or 0
  for j = 0, nd do
    local fd = j / nd
    local t = ld * fd
    local px, py, pz = ox + dx * t, oy + dy * t, oz + dz * t
    for i = 0, nr do
      local fr = i / nr
      local s = lr * fr
      self:vertex(px + rx * s, py + ry * s, pz + rz * s, nx, ny, nz,
        s0 + s, t0 + t, rx, ry, rz, dx, dy, dz, cu + cs * fr, cv + cs * fd)
    end
  end
  grid_triangles(self.cur.idx, base, nr, nd)
end

-- cos and sin of 2*pi*i/sides for i = 0..sides, made once per side count
-- (the same values every time: the seam's two ends stay equal).
local rings_cache = {}
local function ring(sides)
  local r = rings_cache[sides]
  if not r then
    r = { c = {}, s = {} }
    for i = 0, sides do
      r.s[i], r.c[i] = sincos(2 * PI * i / sides)
    end
    rings_cache[sides] = r
  end
  return r.c, r.s
end

-- A tube around axis (ex, ey, ez) through (bx, by, bz): radius r0 at the
-- base, r1 at length len, `sides` around (the seam doubled for the UVs),
-- `rings` rows of vertices, row 0 at the far end. (f1, f2, e) must be a
-- right-handed orthonormal frame with e the axis.
function Builder:tube(bx, by, bz, f1x, f1y, f1z, f2x, f2y, f2z,
                      ex, ey, ez, r0, r1, len, sides, rings)
  local base = self.n + 1
  local cu, cv, cs = self:next_cell()
  -- the side's slope tilts the normal towards the axis's far end
  local slope = (r0 - r1) / len
  local nl = 1 / sqrt(1 + slope * slope)
  local circ = PI * (r0 + r1)
  local cosv, sinv = ring(sides)
  for j = 0, rings - 1 do
    local fd = j / (rings - 1)
    local l = len * (1 - fd)
    local r = r1 + (r0 - r1) * fd
    local cx, cy, cz = bx + ex * l, by + ey * l, bz + ez * l
    -- B runs down the side, from the far end to the base
    local dbx, dby, dbz = -ex * len, -ey * len, -ez * len
    for i = 0, sides do
      local fr = i / sides
      local s, c = sinv[i], cosv[i]
      local rx, ry, rz = c * f1x + s * f2x, c * f1y + s * f2y,
        c * f1z + s * f2z
      -- the slanted side: B = normalize(-e * len + radial * (r0 - r1))
      local qx, qy, qz = dbx + rx * (r0 - r1), dby + ry * (r0 - r1),
        dbz + rz * (r0 - r1)
      local ql = 1 / sqrt(qx * qx + qy * qy + qz * qz)
      self:vertex(cx + rx * r, cy + ry * r, cz + rz * r,
        (rx + ex * slope) * nl, (ry + ey * slope) * nl,
        (rz + ez * slope) * nl,
        circ * fr, len * fd,
        -s * f1x + c * f2x, -s * f1y + c * f2y, -s * f1z + c * f2z,
        qx * ql, qy * ql, qz * ql, cu + cs * fr, cv + cs * fd)
    end
  end
  grid_triangles(self.cur.idx, base, sides, rings - 1)
end

-- A flat disc of `sides` rim vertices and a centre, facing (nx, ny, nz)
-- with (f1, f2, n) right-handed; planar surface coordinates along the
-- given A and D, as for flat().
function Builder:cap(cx, cy, cz, f1x, f1y, f1z, f2x, f2y, f2z,
                     nx, ny, nz, r, sides, ax, ay, az, dx, dy, dz)
  local cu, cv, cs = self:next_cell()
  -- surface coordinates from the disc's top-left corner along A and D
  local function st(px, py, pz)
    local qx, qy, qz = px - cx, py - cy, pz - cz
    return r + qx * ax + qy * ay + qz * az, r + qx * dx + qy * dy + qz * dz
  end
  local centre = self:vertex(cx, cy, cz, nx, ny, nz, r, r,
    ax, ay, az, dx, dy, dz, cu + cs * 0.5, cv + cs * 0.5)
  local cosv, sinv = ring(sides)
  for i = 0, sides - 1 do
    local s, c = sinv[i], cosv[i]
    local px, py, pz = cx + r * (c * f1x + s * f2x),
      cy + r * (c * f1y + s * f2y), cz + r * (c * f1z + s * f2z)
    local ss, tt = st(px, py, pz)
    self:vertex(px, py, pz, nx, ny, nz, ss, tt, ax, ay, az, dx, dy, dz,
      cu + cs * (0.5 + 0.5 * c), cv + cs * (0.5 + 0.5 * s))
  end
  local idx = self.cur.idx
  local k = #idx
  for i = 0, sides - 1 do
    idx[k + 1], idx[k + 2], idx[k + 3] =
      centre, centre + 1 + i, centre + 1 + (i + 1) % sides
    k = k + 3
  end
end

return M
