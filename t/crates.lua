-- t/crates.lua - writes the bundle of two meshes named "crate" that
-- t/gltf-import-names.lua and t/gltf-blender-names.sh import back, to the
-- path given (`rsxmesh t/crates.lua OUT.rsxb`, or called with it): mesh 1
-- "crate", a triangle at x 0..1; mesh 2 "wall", at x 10..11; mesh 3
-- "crate", at x 20..21 (mask 0x00080005: positions and CMP normals,
-- big-endian, spelt here by t/scripts-lib.lua's helpers).
local rsxmesh = require "rsxmesh"
local lib = require "scripts-lib"

local out = ...
local UP = 511 << 22 -- CMP (0, 0, 511*64/32767)

local function triangle(name, x)
  return assert(rsxmesh.mesh{
    name = name, meta = lib.meta(0x00080005), vertex_count = 3,
    mmp_stride = 16, mmp = lib.f32(x, 0, 0) .. lib.u32(UP)
      .. lib.f32(x + 1, 0, 0) .. lib.u32(UP)
      .. lib.f32(x, 1, 0) .. lib.u32(UP),
    indices = rsxmesh.indices(2, { 1, 2, 3 }), index_size = 2,
    submeshes = { { record = lib.subrec(0xFFFFFFFF), first_index = 0,
      index_count = 3 } },
  })
end

local w = rsxmesh.writer()
for _, m in ipairs({ triangle("crate", 0), triangle("wall", 10),
    triangle("crate", 20) }) do
  assert(w:mesh(m))
end
assert(w:save(out))
