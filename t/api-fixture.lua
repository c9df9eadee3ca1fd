-- api-fixture.lua - the small bundle of the API tests, spelled out byte by
-- byte with string.pack (never with rsxmesh's own encoders), built with
-- rsxmesh.mesh and rsxmesh.writer. The expected values in the tests are
-- worked out from these bytes by hand, following the research note.
--
--   local fx = require "api-fixture"
--   local b = assert(rsxmesh.load(fx.bytes(), "fixture.rsxb"))
local rsxmesh = require "rsxmesh"

local M = {}

-- big-endian u32, u16 and bytes
local function u32(...)
  return string.pack(">" .. ("I4"):rep(select("#", ...)), ...)
end
local function u16(...)
  return string.pack(">" .. ("I2"):rep(select("#", ...)), ...)
end
local function u8(...)
  return string.pack(("B"):rep(select("#", ...)), ...)
end

-- A metadata record of 0x90 bytes: a few known values for the record
-- readers, zeros, and the mask at 0x8C.
function M.meta(mask)
  local head = u32(0xDEADBEEF)           -- 0x00
    .. string.rep("\0", 12)              -- 0x04
    .. u8(0xFF, 0x7F) .. u16(0x8000)     -- 0x10: u8 255, u8 127, s16 -32768
    .. u16(0x3C00, 0xC000)               -- 0x14: f16 1, f16 -2
    .. u32(0x3FC00000)                   -- 0x18: f32 1.5
  return head .. string.rep("\0", 0x8C - #head) .. u32(mask)
end

-- A submesh record of 0x3C bytes, selectors at 0x38.
function M.record(b0, b1, b2, b3)
  return u32(0x5B5B0000) .. string.rep("\0", 0x34) .. u8(b0, b1, b2, b3)
end

M.BRICK_N = 0x11223344 -- a sampler slot that is not the base colour

-- crate: mask 0x000800ff, MMP stride 16 (position +0, normal +12),
-- MGP stride 24: colour +0, tangent A +4, B +8, UV0 +12, UV1 +16, UV2 +20.
M.crate_mmp = table.concat{
  u32(0x3F800000, 0x40000000, 0x40400000, 0x001FF800), -- (1, 2, 3)
  u32(0xBFC00000, 0x3E800000, 0x00000001, 0x00000400), -- (-1.5, .25, 2^-149)
  u32(0x00000000, 0x80000000, 0x47800000, 0x7FC00000), -- (0, -0, 65536)
  u32(0x3DCCCCCD, 0x42C80000, 0xC0E00000, 0x803FF801), -- (0.1f, 100, -7)
}
M.crate_mgp = table.concat{
  u8(0x00, 0xFF, 0x80, 0x33) .. u32(0x001FF800, 0x000003FF)
    .. u16(0x3C00, 0xC000, 0x4000, 0x4200, 0x4400, 0x4500),
  u8(0x01, 0x02, 0x03, 0x04) .. u32(0, 0)
    .. u16(0x3800, 0x0001, 0x4000, 0x4200, 0x4400, 0x4500),
  u8(0xFF, 0xFF, 0xFF, 0xFF) .. u32(0, 0)
    .. u16(0x7BFF, 0x8000, 0x4000, 0x4200, 0x4400, 0x4500),
  u8(0x00, 0x00, 0x00, 0x00) .. u32(0, 0)
    .. u16(0x0400, 0x03FF, 0x4000, 0x4200, 0x4400, 0x4500),
}
M.crate_indices = u16(0, 1, 2, 2, 1, 3, 0, 0, 1)

-- strip: mask 0x00080005, u32 indices, one restart, two degenerates.
local strip_mmp = {}
for i = 0, 5 do
  strip_mmp[#strip_mmp + 1] = string.pack(">fffI4", i, 2 * i, 3 * i, 0)
end
M.strip_mmp = table.concat(strip_mmp)
M.strip_indices = u32(0, 1, 2, 3, 0xFFFFFFFF, 3, 2, 4, 4, 5)

-- odd: mask 0x0008007d implies an MGP stride of 16; 20 is stored.
M.odd_mmp = u32(0x3F800000, 0x3F800000, 0x3F800000, 0)
M.odd_mgp = string.rep("\0", 20)

-- bits: mask 0x00081801, bits 11 (S32K, 2) at MGP +0 and 12 (SF, 4) at +4.
M.bits_mmp = u32(0, 0, 0, 0) .. u32(0x3F800000, 0, 0, 0)
M.bits_mgp = u16(0x8000, 0x7FFF) .. u16(0x3C00, 0xBC00, 0x7C00, 0xFC00)
  .. u16(0xFFFF, 0x0001) .. u16(0x0000, 0x3555, 0x7E00, 0x0000)

function M.meshes()
  return {
    { name = "crate", meta = M.meta(0x000800ff), vertex_count = 4,
      mmp = M.crate_mmp, mmp_stride = 16, mgp = M.crate_mgp, mgp_stride = 24,
      indices = M.crate_indices, index_size = 2, primitive = "triangles",
      submeshes = {
        { record = M.record(0x00, 0x00, 0x02, 0x01), first_index = 0,
          index_count = 6, material = 1 },
        { record = M.record(0xFF, 0xFF, 0xFF, 0xFF), first_index = 6,
          index_count = 3 },
        { record = M.record(0x07, 0x03, 0xFF, 0xFF), first_index = 0,
          index_count = 3, material = 2 },
      } },
    { name = "strip", meta = M.meta(0x00080005), vertex_count = 6,
      mmp = M.strip_mmp, mmp_stride = 16, indices = M.strip_indices,
      index_size = 4, primitive = "strip",
      submeshes = {
        { record = M.record(0xFF, 0xFF, 0xFF, 0xFF), first_index = 0,
          index_count = 10, material = 2 },
      } },
    { name = "odd", meta = M.meta(0x0008007d), vertex_count = 1,
      mmp = M.odd_mmp, mmp_stride = 16, mgp = M.odd_mgp, mgp_stride = 20,
      indices = "", index_size = 2 },
    { name = "bits", meta = M.meta(0x00081801), vertex_count = 2,
      mmp = M.bits_mmp, mmp_stride = 16, mgp = M.bits_mgp, mgp_stride = 12,
      indices = "", index_size = 2 },
  }
end

-- A writer holding the fixture's two materials and four meshes.
function M.writer()
  local w = rsxmesh.writer()
  assert(w:material("brick", {
    { slot = rsxmesh.BASE_COLOUR, texture = "tex/brick.png" },
    { slot = M.BRICK_N, texture = "tex/brick_n.png" },
  }) == 1)
  assert(w:material("glass", {
    { slot = M.BRICK_N, texture = "tex/glass_n.png" },
  }) == 2)
  for _, t in ipairs(M.meshes()) do
    local m = assert(rsxmesh.mesh(t))
    assert(w:mesh(m))
  end
  return w
end

function M.bytes()
  return M.writer():bytes()
end

-- x rounded to float32 by string.pack, independent of rsxmesh.
function M.f32(x)
  return (string.unpack("<f", string.pack("<f", x)))
end

-- the byte writers above, for tests that spell out bundles of their own
M.u32, M.u16, M.u8 = u32, u16, u8

-- The text a file (a temporary one) receives from fn(file), then what fn
-- returned.
function M.into_file(fn)
  local f = assert(io.tmpfile())
  local a, b, c = fn(f)
  f:seek("set")
  local text = f:read("a")
  f:close()
  return text, a, b, c
end

return M
