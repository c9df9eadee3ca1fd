-- rsxmesh/synth/level.lua - writes one level of the synthetic disc: the
-- plan's meshes of that level built, encoded and saved as NAME.rsxb.
--
-- The records the toolkit does not interpret still carry what a real
-- extraction would let a user discover (0-based offsets):
--   metadata (0x90 bytes): 0x00 vertex count, 0x04 index count, 0x08
--     submesh count, 0x0C index size (u8), 0x0D primitive (u8), 0x10 the
--     bounding box minimum (3 f32), 0x1C its maximum, 0x28 the bounding
--     sphere radius about the box centre (f32), 0x8C the mask;
--   submesh (0x40 bytes): 0x00 first index, 0x04 index count, 0x08 first
--     vertex, 0x0C vertex count, 0x10 material (0-based, 0xFFFFFFFF none),
--     0x38 the four selector bytes.

local rsxmesh = require "rsxmesh"
local lfs = require "lfs"
local R = require "rsxmesh.synth.rng"
local shapes = require "rsxmesh.synth.shapes"
local plan_mod = require "rsxmesh.synth.plan"

local sel_byte = plan_mod.sel_byte
local sqrt = math.sqrt

local L = {}

-- A second sampler slot for lightmapped materials. The note names only
-- the base-colour slot; this hash is invented, so that readers meet
-- materials with more than one sampler.
L.LIGHTMAP_SLOT = 0x1D6B0F52
L.TEXTURES = { "asphalt", "bark", "brick", "concrete", "glow", "grass",
               "leaves", "lightmap", "metal", "plain", "rock", "roof",
               "window", "wood" }

local SPACING = 60      -- metres between the meshes' places in a level

-- The UV sets besides the one feeding logical UV0 (which holds the proper
-- tiling): a lightmap unwrap, the tiling at half scale, and the tiling
-- with U and V swapped, so a wrong set shows at once.
local function fill_uvs(b, m, cols)
  local n, sets = b.n, m.uv_sets
  local ST, LM = b.ST, b.LM
  local out = {}
  for j = 0, sets - 1 do
    out[j] = {}
    cols["uv" .. j] = out[j]
  end
  for pi, part in ipairs(b.parts) do
    local word = m.selectors[pi]
    local base = sel_byte(word, 0)
    if base == 0xFF then base = 0 end
    local role = { [base] = "proper" }
    local others = { "lightmap", "half", "swap" }
    local o = 0
    for j = 0, sets - 1 do
      if j ~= base then
        o = o + 1
        role[j] = others[o]
      end
    end
    local first, last = part.first, part.first + part.count - 1
    local ts, tt = 1 / part.tile_s, 1 / part.tile_t
    local u0, v0 = part.u0, part.v0
    for j = 0, sets - 1 do
      local col, r = out[j], role[j]
      if r == "proper" then
        for v = first, last do
          col[2 * v - 1] = ST[2 * v - 1] * ts + u0
          col[2 * v] = ST[2 * v] * tt + v0
        end
      elseif r == "lightmap" then
        for v = first, last do
          col[2 * v - 1], col[2 * v] = LM[2 * v - 1], LM[2 * v]
        end
      elseif r == "half" then
        for v = first, last do
          col[2 * v - 1] = (ST[2 * v - 1] * ts + u0) * 0.5
          col[2 * v] = (ST[2 * v] * tt + v0) * 0.5
        end
      else
        for v = first, last do
          col[2 * v - 1] = ST[2 * v] * tt + v0
          col[2 * v] = ST[2 * v - 1] * ts + u0
        end
      end
    end
  end
  assert(#out[0] == 2 * n or sets == 0)
end

-- Tangent A: `off` of the n vectors shortened well below unit length
-- (spread evenly through the mesh), the rest left unit.
local function shorten_a(TA, n, off, rng)
  if off == 0 then return end
  local prev = 0
  for v = 1, n do
    local upto = v * off // n
    if upto > prev then
      prev = upto
      local f = rng:range(0.55, 0.95)
      local i = 3 * v
      TA[i - 2], TA[i - 1], TA[i] = TA[i - 2] * f, TA[i - 1] * f, TA[i] * f
    end
  end
end

-- Vertex colours: ambient occlusion darkening towards the mesh's bottom,
-- times a tint.
local function ao_colours(P, n, ymin, ymax, rng)
  local C = {}
  local tr, tg, tb = rng:range(0.8, 1), rng:range(0.8, 1), rng:range(0.8, 1)
  local h = ymax - ymin
  if h <= 0 then h = 1 end
  for v = 1, n do
    local ao = 0.45 + 0.55 * (P[3 * v - 1] - ymin) / h
    local i = 4 * v
    C[i - 3], C[i - 2], C[i - 1], C[i] = ao * tr, ao * tg, ao * tb, 1
  end
  return C
end

local function bounds(P, n)
  local x0, y0, z0 = P[1], P[2], P[3]
  local x1, y1, z1 = x0, y0, z0
  for i = 4, 3 * n, 3 do
    local x, y, z = P[i], P[i + 1], P[i + 2]
    if x < x0 then x0 = x elseif x > x1 then x1 = x end
    if y < y0 then y0 = y elseif y > y1 then y1 = y end
    if z < z0 then z0 = z elseif z > z1 then z1 = z end
  end
  return x0, y0, z0, x1, y1, z1
end

-- Build plan mesh m (its level has `count` meshes) and return the table
-- rsxmesh.mesh / writer:mesh take, and its vertex count. material(name)
-- gives the writer's material number for a texture family.
function L.mesh(plan, m, count, material)
  local rng = R.new(plan.seed, 2, m.id)
  local grid = 1
  while grid * grid < count do grid = grid + 1 end
  local ox = ((m.slot - 1) % grid - grid / 2) * SPACING
  local oz = ((m.slot - 1) // grid - grid / 2) * SPACING
  local b = shapes.builder(ox, 0, oz)
  shapes[m.family].build(b, m.params, m.k, rng, m.count)
  local n = b.n
  assert(n == m.count, string.format("%s: built %d vertices, planned %d",
    m.name, n, m.count))
  assert(#b.parts == m.k, string.format("%s: built %d parts, planned %d",
    m.name, #b.parts, m.k))

  local mask = m.mask
  local cols = { position = b.P, normal = b.N }
  local x0, y0, z0, x1, y1, z1 = bounds(b.P, n)
  if mask & 0x8 ~= 0 then
    shorten_a(b.TA, n, m.a_off, rng)
    cols.tangent_a, cols.tangent_b = b.TA, b.TB
  end
  if mask & 0x2 ~= 0 then
    cols.colour = b.C or ao_colours(b.P, n, y0, y1, rng)
  end
  if m.uv_sets > 0 then fill_uvs(b, m, cols) end
  if mask & 0x200 ~= 0 then cols.extra_a, cols.extra_b = b.XA, b.XB end
  local fmt = rsxmesh.format(mask)
  local mmp = fmt:encode("mmp", n, cols)
  local mgp = fmt.mgp_stride > 0 and fmt:encode("mgp", n, cols) or nil

  -- the index buffer: the parts one after another; strips restart between
  -- them on an index that belongs to neither submesh
  local idx, subs = {}, {}
  local q = 0
  for pi, part in ipairs(b.parts) do
    if m.strip and pi > 1 then
      q = q + 1
      idx[q] = -1
    end
    local first = q
    local pidx = part.idx
    for i = 1, #pidx do idx[q + i] = pidx[i] end
    q = q + #pidx
    -- the vertex-coloured meshes without UVs draw with no material
    local mat
    if mask ~= 0x00080007 then
      mat = material(part.texture, m.uv_sets >= 2)
    end
    local word = m.selectors[pi]
    subs[pi] = {
      record = string.pack(">I4I4I4I4I4", first, q - first, part.first - 1,
        part.count, mat and mat - 1 or 0xFFFFFFFF)
        .. string.rep("\0", 0x38 - 20) .. string.pack(">I4I4", word, 0),
      first_index = first, index_count = q - first, material = mat,
    }
  end
  local cx, cy, cz = (x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2
  local rad = sqrt((x1 - cx) ^ 2 + (y1 - cy) ^ 2 + (z1 - cz) ^ 2)
  local meta = string.pack(">I4I4I4BBI2fffffff", n, q, m.k, m.index_size,
    m.strip and 1 or 0, 0, x0, y0, z0, x1, y1, z1, rad)
  meta = meta .. string.rep("\0", 0x8C - #meta) .. string.pack(">I4", mask)
  return {
    name = m.name, meta = meta, vertex_count = n,
    mmp = mmp, mmp_stride = fmt.mmp_stride,
    mgp = mgp, mgp_stride = mgp and fmt.mgp_stride or nil,
    indices = rsxmesh.indices(m.index_size, idx),
    index_size = m.index_size,
    primitive = m.strip and "strip" or "triangles",
    submeshes = subs,
  }, n
end

-- Write level number l of plan as dir/NAME.rsxb, its textures referenced
-- as `texdir`/family.png. progress(done, total), if given, is called after
-- each mesh. Returns { meshes, submeshes, vertices, bytes, path } or nil
-- and a message.
function L.write(plan, l, dir, texdir, progress)
  local lv = plan.levels[l]
  local w <close> = rsxmesh.writer()
  local materials = {}
  local function material(texture, lightmapped)
    local key = texture .. (lightmapped and "_lm" or "")
    local id = materials[key]
    if not id then
      local samplers = { { slot = rsxmesh.BASE_COLOUR,
                           texture = texdir .. "/" .. texture .. ".png" } }
      if lightmapped then
        samplers[2] = { slot = L.LIGHTMAP_SLOT,
                        texture = texdir .. "/lightmap.png" }
      end
      id = assert(w:material(lv.name:lower() .. "/" .. key, samplers))
      materials[key] = id
    end
    return id
  end
  local stats = { meshes = 0, submeshes = 0, vertices = 0 }
  for i, id in ipairs(lv.meshes) do
    local m = plan.meshes[id]
    local t, n = L.mesh(plan, m, #lv.meshes, material)
    local ok, err = w:mesh(t)
    if not ok then return nil, lv.name .. ": " .. m.name .. ": " .. err end
    stats.meshes = stats.meshes + 1
    stats.submeshes = stats.submeshes + m.k
    stats.vertices = stats.vertices + n
    if progress then progress(i, #lv.meshes) end
  end
  stats.path = dir .. "/" .. lv.name .. ".rsxb"
  local ok, err = w:save(stats.path)
  if not ok then return nil, err end
  stats.bytes = lfs.attributes(stats.path, "size")
  return stats
end

return L
