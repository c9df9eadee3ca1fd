-- scan-lib.lua - test containers for rsxmesh.scan: the synthetic disc's
-- meshes (built by the project's own generator, rsxmesh.synth.level) laid
-- out in one file as a game's container might hold them, between decoys,
-- with the truth of where everything went.
--
-- lib.container(opts) returns the bytes and a list of what was placed:
--   { kind = "mmp"|"mgp"|"indices"|"meta"|"decoy", offset, bytes,
--     vertices, stride, mask, count, size, mesh = plan mesh, what }
-- opts: seed (the layout's random numbers), scale (the plan's, default
-- 0.002: 42 meshes, every mask of the note, u16 and u32, lists and
-- strips), back_to_back (streams with no gap and no decoy), decoys (a
-- list of decoy kinds, default all).

local rsxmesh = require "rsxmesh"
local R = require "rsxmesh.synth.rng"
local plan_mod = require "rsxmesh.synth.plan"
local level = require "rsxmesh.synth.level"

local lib = {}

lib.DECOYS = { "zeros", "random", "zlib", "le_floats", "vec4_w1",
               "float3_pad", "halves", "small_u16", "text" }

local TEXT = "Every rigid mesh has the flag 0x80000 in its mask, which "
  .. "selects the packed variant of each attribute. The MMP stride is the "
  .. "position and normal rounded up to 16 bytes; the MGP stride is the "
  .. "sum, not rounded. "

-- zlib data: a PNG's IDAT chunk of a noisy image, from the project's own
-- PNG writer (a zlib stream is what a PNG holds).
local zlib_cache
local function zlib_bytes()
  if zlib_cache then return zlib_cache end
  local rng = R.new(77)
  local px = {}
  for i = 1, 64 * 64 do
    px[i] = string.char(rng:int(0, 255), rng:int(0, 255), i % 256, 255)
  end
  local img = rsxmesh.image(64, 64, table.concat(px))
  local path = os.tmpname()
  assert(img:save(path))
  local f = assert(io.open(path, "rb"))
  local png = f:read("a")
  f:close()
  os.remove(path)
  local len, at = string.unpack(">I4", png, png:find("IDAT", 1, true) - 4)
  zlib_cache = png:sub(at + 4, at + 3 + len)
  return zlib_cache
end

-- A decoy of kind and about n bytes (a multiple of 16).
function lib.decoy(kind, n, rng)
  n = n - n % 16
  local t = {}
  if kind == "zeros" then
    return string.rep("\0", n)
  elseif kind == "random" then
    for i = 1, n // 8 do t[i] = string.pack("<i8", rng:int64()) end
  elseif kind == "zlib" then
    local z = zlib_bytes()
    local s = z:rep(n // #z + 1)
    return s:sub(1, n)
  elseif kind == "le_floats" then
    for i = 1, n // 4 do t[i] = string.pack("<f", rng:range(-500, 500)) end
  elseif kind == "vec4_w1" then
    for i = 1, n // 16 do
      t[i] = string.pack(">ffff", rng:range(-100, 100), rng:range(-100, 100),
        rng:range(-100, 100), 1.0)
    end
  elseif kind == "float3_pad" then
    for i = 1, n // 16 do
      t[i] = string.pack(">fffI4", rng:range(-200, 200),
        rng:range(-200, 200), rng:range(-200, 200), 0)
    end
  elseif kind == "halves" then
    for i = 1, n // 2 do
      t[i] = string.pack(">I2", rsxmesh.to_half(rng:range(-20, 20)))
    end
  elseif kind == "small_u16" then
    local top = rng:int(200, 4000)
    for i = 1, n // 2 do t[i] = string.pack(">I2", rng:int(0, top)) end
  elseif kind == "text" then
    local s = TEXT:rep(n // #TEXT + 1)
    return s:sub(1, n)
  else
    error("no decoy " .. kind)
  end
  return table.concat(t)
end

-- The plan's meshes as the generator builds them.
function lib.meshes(scale, seed)
  local plan = assert(plan_mod.make{ scale = scale or 0.002,
                                     seed = seed or 1 })
  local out = {}
  for _, lv in ipairs(plan.levels) do
    for _, id in ipairs(lv.meshes) do
      local m = plan.meshes[id]
      local t = level.mesh(plan, m, #lv.meshes, function() return 1 end)
      t.plan = m
      out[#out + 1] = t
    end
  end
  return out
end

-- Does mesh t have a normal that is not zero? (The glow cards' normals
-- are all zero: an MMP no scanner can tell from padded float3s.)
function lib.has_normals(t)
  for i = 13, #t.mmp, 16 do
    if t.mmp:sub(i, i + 3) ~= "\0\0\0\0" then return true end
  end
  return false
end

function lib.container(opts)
  opts = opts or {}
  local rng = R.new(opts.seed or 1, 99)
  local meshes = opts.meshes or lib.meshes(opts.scale, opts.plan_seed)
  local decoys = opts.decoys or lib.DECOYS
  local parts, truth, size = {}, {}, 0
  local function put(s, align, rec)
    local pad = (-size) % align
    if pad > 0 then
      parts[#parts + 1] = string.rep("\0", pad)
      size = size + pad
    end
    if rec then
      rec.offset, rec.bytes = size, #s
      truth[#truth + 1] = rec
    end
    parts[#parts + 1] = s
    size = size + #s
  end
  local function decoy()
    local kind = decoys[rng:int(1, #decoys)]
    local s = lib.decoy(kind, rng:int(8, 96) * 16, rng)
    put(s, 16, { kind = "decoy", what = kind })
  end
  -- the records' area: metadata records and their submesh records
  put(lib.decoy("text", 256, rng), 16)
  for i, t in ipairs(meshes) do
    put(t.meta, 16, { kind = "meta", mask = t.meta:sub(0x8D, 0x90) and
      string.unpack(">I4", t.meta, 0x8D), mesh = i })
    for _, s in ipairs(t.submeshes) do put(s.record, 16) end
  end
  -- the streams' area, in shuffled order
  local streams = {}
  for i, t in ipairs(meshes) do
    local mask = string.unpack(">I4", t.meta, 0x8D)
    streams[#streams + 1] = { t.mmp, { kind = "mmp", mesh = i, stride = 16,
      vertices = t.vertex_count } }
    if t.mgp then
      streams[#streams + 1] = { t.mgp, { kind = "mgp", mesh = i,
        stride = t.mgp_stride, vertices = t.vertex_count, mask = mask } }
    end
    streams[#streams + 1] = { t.indices, { kind = "indices", mesh = i,
      size = t.index_size, count = #t.indices // t.index_size,
      primitive = t.primitive } }
  end
  if opts.back_to_back then
    -- every MMP, then every MGP, then every index buffer: runs of one
    -- kind meet with no gap
    local order, sorted = { mmp = 1, mgp = 2, indices = 3 }, {}
    for k = 1, 3 do
      for _, s in ipairs(streams) do
        if order[s[2].kind] == k then sorted[#sorted + 1] = s end
      end
    end
    streams = sorted
  else
    rng:shuffle(streams)
  end
  for _, s in ipairs(streams) do
    if not opts.back_to_back then decoy() end
    put(s[1], opts.back_to_back and 16 or (rng:int(0, 1) == 0 and 16 or 128),
      s[2])
  end
  if not opts.back_to_back then decoy() end
  return table.concat(parts), truth, meshes
end

-- Placed items of kind, or those of a mesh.
function lib.placed(truth, kind)
  local out = {}
  for _, r in ipairs(truth) do
    if r.kind == kind then out[#out + 1] = r end
  end
  return out
end

-- The note's masks with tangent frames (bit 4: vector B).
function lib.has_frames(mask)
  return mask & 0x10 ~= 0
end

-- The note's masks whose MGP holds UV sets alone (no colour, bit 1; no
-- tangent frames, bits 3 and 4), which scan finds by the triangles.
function lib.uv_only(mask)
  return mask & 0x1A == 0 and mask & 0x1E0 ~= 0
end

-- The note's masks whose MGP holds colour and UV sets (bit 1 and UV set
-- 0, no tangent frames: 0x27, 0x67), which scan finds by the triangles
-- as well.
function lib.colour_uv(mask)
  return mask & 0x18 == 0 and mask & 0x2 ~= 0 and mask & 0x20 ~= 0
end

return lib
