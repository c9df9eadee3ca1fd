-- api-bundle.lua - every read function of the API on the fixture bundle
-- (t/api-fixture.lua), with values worked out by hand from its bytes.
local t = require "tap"
local rsxmesh = require "rsxmesh"
local fx = require "api-fixture"
local f32 = fx.f32

local bytes = fx.bytes()
local b = assert(rsxmesh.load(bytes, "fixture.rsxb"))

-- Bundle -------------------------------------------------------------------
t.is(tostring(b), "rsxmesh.bundle fixture.rsxb (4 meshes)", "tostring(b)")
t.is(b.name, "fixture.rsxb", "bundle.name")
t.is(b.size, #bytes, "bundle.size")
t.is(b.mesh_count, 4, "bundle.mesh_count")
t.is(#b, 4, "#bundle")
t.is(b.submesh_count, 4, "bundle.submesh_count: 3 + 1")
t.is(b.material_count, 2, "bundle.material_count")
t.is(b.sampler_count, 3, "bundle.sampler_count: 2 + 1")
t.is(b.closed, false, "bundle.closed")
t.is(b.nonsense, nil, "an unknown field is nil")
t.is(rsxmesh.load(bytes).name, "(memory)", "load's default name")

do
  local names = {}
  for i, m in b:meshes() do names[i] = m.name end
  t.is_deeply(names, { "crate", "strip", "odd", "bits" }, "b:meshes()")
  local mats = {}
  for i, m in b:materials() do mats[i] = m.name end
  t.is_deeply(mats, { "brick", "glass" }, "b:materials()")
end
t.is(b:mesh("strip").number, 2, "b:mesh by name")
t.is(b:mesh(5), nil, "b:mesh beyond the count: nil")
t.is(b:mesh(0), nil, "b:mesh(0): nil")
t.is(b:mesh("nope"), nil, "b:mesh of an unknown name: nil")
t.is(b:material(3), nil, "b:material beyond the count: nil")

-- Materials ------------------------------------------------------------------
do
  local brick, glass = b:material(1), b:material(2)
  t.is(tostring(brick), "rsxmesh.material brick (2 samplers)",
       "tostring(material)")
  t.is(brick.name, "brick", "material.name")
  t.is(brick.index, 1, "material.index")
  t.is(brick.sampler_count, 2, "material.sampler_count")
  t.is(brick.base_colour, "tex/brick.png", "material.base_colour")
  t.is_deeply(brick:samplers(), {
    { slot = 0x95591C40, texture = "tex/brick.png" },
    { slot = 0x11223344, texture = "tex/brick_n.png" },
  }, "material:samplers()")
  t.is(glass.base_colour, nil, "no slot 0x95591C40: no base colour")
  t.is(glass.index, 2, "material.index 2")
end

-- Mesh: crate ----------------------------------------------------------------
local crate = b:mesh(1)
t.is(tostring(crate),
     "rsxmesh.mesh crate (mask 0x000800ff, 4 vertices, 3 submeshes)",
     "tostring(mesh)")
t.is(crate.name, "crate", "mesh.name")
t.is(crate.number, 1, "mesh.number")
t.is(type(crate.index), "function", "mesh.index is the method m:index")
t.ok(rawequal(crate.bundle, b), "mesh.bundle is the bundle")
t.is(crate.mask, 0x000800ff, "mesh.mask")
t.is(crate.vertex_count, 4, "mesh.vertex_count")
t.is(crate.mmp_stride, 16, "mesh.mmp_stride")
t.is(crate.mgp_stride, 24, "mesh.mgp_stride")
t.is(tostring(crate.format), "rsxmesh.format 0x000800ff (MMP 16, MGP 24)",
     "mesh.format")
t.is(crate.index_count, 9, "mesh.index_count")
t.is(crate.index_size, 2, "mesh.index_size")
t.is(crate.primitive, "triangles", "mesh.primitive")
t.is(crate.submesh_count, 3, "mesh.submesh_count")
t.is(crate.findings[1].code, "selector", "mesh.findings: selector")
t.is(#crate.findings, 1, "one finding")
t.is(crate:has("colour"), true, "m:has colour")
t.is(crate:has("uv3"), false, "m:has uv3: no")
t.is_deeply(crate:attributes(), { "position", "colour", "normal",
  "tangent_a", "tangent_b", "uv0", "uv1", "uv2" }, "m:attributes()")
t.is(crate:index(1), 0, "m:index(1)")
t.is(crate:index(6), 3, "m:index(6)")
t.is(crate:index(9), 1, "m:index(9)")
do
  -- submesh 1 (positions 0-5): 1 2 3, 3 2 4; submesh 2 (6-8): only the
  -- degenerate (0, 0, 1); submesh 3 (0-2) again: 1 2 3
  local tri, n = crate:triangles()
  t.is_deeply({ tri, n }, { { 1, 2, 3, 3, 2, 4, 1, 2, 3 }, 3 },
    "m:triangles(): 1-based, submesh by submesh, the degenerate dropped")
  local bin, nb = crate:triangle_bytes()
  t.is(bin, string.pack("<I4I4I4I4I4I4I4I4I4", 0, 1, 2, 2, 1, 3, 0, 1, 2),
       "m:triangle_bytes(): little-endian u32, 0-based")
  t.is(nb, 3, "m:triangle_bytes() count")
end
do
  local none, msg = crate:attribute("uv3")
  t.is(none, nil, "m:attribute of an absent kind: nil")
  t.like(msg, "mask 0x000800ff has no uv3", "... and a message")
end

-- Records ------------------------------------------------------------------
do
  local rec = crate:record()
  t.is(tostring(rec), "rsxmesh.record (0x90 bytes)", "tostring(record)")
  t.is(#rec, 0x90, "#record")
  t.is(rec.size, 0x90, "record.size")
  t.is(rec:u32(0x8C), 0x000800ff, "rec:u32(0x8C) is the mask")
  t.is(rec:u32(0), 0xDEADBEEF, "rec:u32")
  t.is(rec:s32(0), 0xDEADBEEF - 0x100000000, "rec:s32")
  t.is(rec:u16(0), 0xDEAD, "rec:u16")
  t.is(rec:s16(0), 0xDEAD - 0x10000, "rec:s16")
  t.is(rec:u8(0), 0xDE, "rec:u8")
  t.is(rec:s8(0), 0xDE - 0x100, "rec:s8")
  t.is(rec:u8(0x10), 255, "rec:u8 255")
  t.is(rec:s8(0x11), 127, "rec:s8 127")
  t.is(rec:s16(0x12), -32768, "rec:s16 -32768")
  t.is(rec:u16(0x12), 0x8000, "rec:u16 0x8000")
  t.is(rec:f16(0x14), 1.0, "rec:f16 0x3c00")
  t.is(rec:f16(0x16), -2.0, "rec:f16 0xc000")
  t.is(rec:f32(0x18), 1.5, "rec:f32 0x3fc00000")
  t.is(rec:u8(0x8F), 0xff, "rec:u8 at the last byte")
  t.is(rec:bytes(), fx.meta(0x000800ff), "rec:bytes() is the record")
  t.is(rec:bytes(0, 4), "\xDE\xAD\xBE\xEF", "rec:bytes(0, 4)")
  t.is(rec:bytes(0x8C), "\0\x08\0\xff", "rec:bytes(off): to the end")
  t.is(rec:bytes(0x90), "", "rec:bytes at the end: empty")
  t.is(math.type(rec:u32(0)), "integer", "integers are integers")
end

-- Submeshes ----------------------------------------------------------------
local s1, s2, s3 = crate:submesh(1), crate:submesh(2), crate:submesh(3)
t.is(crate:submesh(4), nil, "m:submesh beyond the count: nil")
do
  local n = 0
  for i, s in crate:submeshes() do n = n + 1; assert(s.index == i) end
  t.is(n, 3, "m:submeshes()")
end
t.is(tostring(s1), "rsxmesh.submesh 1 of crate (6 indices)",
     "tostring(submesh)")
t.is(s1.index, 1, "submesh.index")
t.ok(rawequal(s1.mesh, crate), "submesh.mesh is its mesh")
t.is(s1.first_index, 0, "submesh.first_index")
t.is(s2.first_index, 6, "submesh.first_index 6")
t.is(s1.index_count, 6, "submesh.index_count")
t.is(s1.material.name, "brick", "submesh.material")
t.is(s2.material, nil, "no material: nil")
t.is(s3.material.name, "glass", "submesh.material 2")
t.is(s1.selectors, "00000201", "submesh.selectors")
t.is(s2.selectors, "ffffffff", "submesh.selectors ffffffff")
t.is(s1:selector(2), 2, "s:selector(2)")
t.is(s2:selector(0), 0xFF, "s:selector(0) 0xff")
t.is_deeply({ s1:uv_set(0), s1:uv_set(1), s1:uv_set(2), s1:uv_set(3) },
            { 0, 0, 2, 1 }, "s:uv_set: the note's 00 00 02 01")
t.is_deeply({ s2:uv_set(0), s2:uv_set(1), s2:uv_set(2), s2:uv_set(3) },
            { 0, 1, 2 }, "s:uv_set: 0xff keeps the set, uv3 absent")
t.is_deeply({ s3:uv_set(0), s3:uv_set(1), s3:uv_set(2), s3:uv_set(3) },
            { [3] = 2 }, "s:uv_set: byte 7 and absent set 3 give nil")
t.is_deeply(s1.findings, {}, "submesh.findings: none")
do
  local f = s3.findings
  t.is(#f, 2, "two submesh findings")
  t.is(f[1].code, "selector-byte", "finding selector-byte")
  t.is(f[2].code, "selector-set", "finding selector-set")
  t.like(f[1].message, "0703ffff", "the message names the selectors")
end
t.is(s1:record():u32(0x38), 0x00000201, "s:record(): selectors at 0x38")
t.is(#s1:record(), 0x3C, "#s:record()")
t.is(s1:record():u32(0), 0x5B5B0000, "s:record(): raw bytes")
do
  local tri, n = s1:triangles()
  t.is_deeply({ tri, n }, { { 1, 2, 3, 3, 2, 4 }, 2 }, "s:triangles()")
  tri, n = s2:triangles()
  t.is_deeply({ tri, n }, { {}, 0 }, "s:triangles(): only a degenerate")
  local bin, nb = s1:triangle_bytes()
  t.is(bin, string.pack("<I4I4I4I4I4I4", 0, 1, 2, 2, 1, 3),
       "s:triangle_bytes()")
  t.is(nb, 2, "s:triangle_bytes() count")
end
do
  local uv = s1:uv(2)
  t.is(uv.kind, "uv2", "s:uv(2) is stored set 2")
  t.is_deeply({ uv:get(1) }, { 4, 5 }, "s:uv(2) values")
  t.is(s1:uv(3).kind, "uv1", "s:uv(3) is stored set 1")
  t.is(s1:uv(1).kind, "uv0", "s:uv(1) is stored set 0")
  local none, msg = s2:uv(3)
  t.is(none, nil, "s:uv of an absent logical UV: nil")
  t.like(msg, "submesh 2 of crate: logical UV3 is absent", "... a message")
end

-- The RSX declaration: format word (stride << 8) | (count << 4) | type
do
  local function d(reg, kind, fw, off, luv)
    return { reg = reg, kind = kind, logical_uv = luv,
             format_method = 0x1740 + 4 * reg, format_word = fw,
             offset_method = 0x1680 + 4 * reg, offset_word = off }
  end
  t.is_deeply(s1:declaration(), {
    d(0, "position", 0x1032, 0),
    d(2, "normal", 0x1016, 12),
    d(3, "colour", 0x1844, 0),
    d(8, "uv0", 0x1823, 12, 0),
    d(9, "uv0", 0x1823, 12, 1),
    d(10, "uv2", 0x1823, 20, 2),
    d(11, "uv1", 0x1823, 16, 3),
    d(14, "tangent_b", 0x1816, 8),
    d(15, "tangent_a", 0x1816, 4),
  }, "s:declaration(): selectors 00 00 02 01")
  t.is_deeply(b:mesh("strip"):submesh(1):declaration(), {
    d(0, "position", 0x1032, 0),
    d(2, "normal", 0x1016, 12),
  }, "s:declaration(): position and normal only")
end

-- Accessors ------------------------------------------------------------------
local pos = crate:attribute("position")
t.is(tostring(pos), "rsxmesh.accessor position of crate (4 vertices)",
     "tostring(accessor)")
t.is(#pos, 4, "#accessor")
t.is(pos.kind, "position", "accessor.kind")
t.ok(rawequal(pos.mesh, crate), "accessor.mesh")
t.is(pos.components, 3, "accessor.components")
t.is(pos.type, "F", "accessor.type")
t.is(pos.stream, "MMP", "accessor.stream")
t.is(pos.offset, 0, "accessor.offset")
t.is(pos.stride, 16, "accessor.stride")
t.is(pos.nonsense, nil, "an unknown accessor field is nil")
t.is_deeply({ pos:get(1) }, { 1, 2, 3 }, "position 1")
t.is_deeply({ pos:get(2) }, { -1.5, 0.25, 2^-149 }, "position 2")
t.is_deeply({ pos:get(3) }, { 0, 0, 65536 }, "position 3")
t.is(1 / select(2, pos:get(3)), -math.huge, "position 3: y is -0")
t.is_deeply({ pos:get(4) }, { f32(0.1), 100, -7 }, "position 4")
t.is(math.type((pos:get(1))), "float", "components are floats")
do
  local rows = {}
  for i, x, y, z in pos:iter() do rows[#rows + 1] = { i, x, y, z } end
  t.is_deeply(rows, { { 1, 1, 2, 3 }, { 2, -1.5, 0.25, 2^-149 },
    { 3, 0, 0, 65536 }, { 4, f32(0.1), 100, -7 } }, "acc:iter()")
end
t.is_deeply(pos:range(), { 1, 2, 3, -1.5, 0.25, 2^-149, 0, 0, 65536,
  f32(0.1), 100, -7 }, "acc:range()")
t.is_deeply(pos:range(2, 3), { -1.5, 0.25, 2^-149, 0, 0, 65536 },
            "acc:range(2, 3)")
t.is_deeply(pos:range(4), { f32(0.1), 100, -7 }, "acc:range(4)")
t.is_deeply(pos:range(3, 2), {}, "acc:range(3, 2): empty")
t.is_deeply(pos:range(5), {}, "acc:range(5): empty, after the last")
t.is(pos:pack(), string.pack("<fff fff fff fff", 1, 2, 3, -1.5, 0.25,
  2^-149, 0, -0.0, 65536, 0.1, 100, -7), "acc:pack()")
t.is(pos:pack(2, 2), string.pack("<fff", -1.5, 0.25, 2^-149),
     "acc:pack(2, 2)")
t.is(pos:raw(2, 3), fx.crate_mmp:sub(17, 28) .. fx.crate_mmp:sub(33, 44),
     "acc:raw(2, 3): the stored bytes, without the normal")
t.is(#pos:raw(), 48, "acc:raw(): 12 bytes per vertex")
do
  local lo, hi = pos:bounds()
  t.is_deeply({ lo, hi }, { { -1.5, 0, -7 }, { 1, 100, 65536 } },
              "acc:bounds()")
end
t.is(pos:lines("v"),
     "v 1 2 3\nv -1.5 0.25 1e-45\nv 0 -0 65536\nv 0.1 100 -7\n",
     "acc:lines('v')")
t.is(pos:lines("", 1, 1), "1 2 3\n", "acc:lines with no prefix")
t.is(pos:lines("v", 2, 1), "", "acc:lines of an empty range")
t.is(pos:lines("v", 1, 1, { with = crate:attribute("colour") }),
     "v 1 2 3 0 1 0.5019608 0.2\n", "acc:lines with opts.with")
t.is(crate:attribute("uv0"):lines("vt", 1, 3,
       { scale = { 1, -1 }, offset = { 0, 1 } }),
     "vt 1 3\nvt 0.5 0.99999994\nvt 65504 1\n",
     "acc:lines with scale and offset: 1 - v")
t.is(pos:lines("v", 1, 1, { scale = { 2 } }), "v 2 2 3\n",
     "acc:lines: a short scale leaves the rest alone")
-- options without a range (issue 9): the whole mesh, or from i to the end;
-- x of the four positions is 1, -1.5, 0 and 0.1f
t.is(pos:lines("v", { components = 1 }), "v 1\nv -1.5\nv 0\nv 0.1\n",
     "acc:lines(prefix, opts): every vertex")
-- (offset 0 + -2 * 0 is +0; -2 * 0.1f rounds to the float32 -0.2)
t.is(pos:lines("v", 3, { scale = { -2 }, components = 1 }), "v 0\nv -0.2\n",
     "acc:lines(prefix, i, opts): from vertex i to the last")
t.error_like(function() pos:lines("v", { components = 9 }) end,
  "opts%.components must be an integer in 1%.%.3",
  "acc:lines(prefix, opts): the options are checked as ever")

do
  local n = crate:attribute("normal")
  t.is(n.type, "CMP", "normal: CMP")
  t.is(n.offset, 12, "normal at MMP +12")
  t.is(n.components, 3, "normal: three components")
  t.is_deeply({ n:get(1) }, { 0, f32(32736 / 32767), 0 },
              "normal 0x001FF800: the note's example")
  t.is_deeply({ n:get(2) }, { f32(-32768 / 32767), 0, 0 }, "normal x -1024")
  t.is_deeply({ n:get(3) }, { 0, 0, f32(32704 / 32767) }, "normal z 511")
  t.is_deeply({ n:get(4) },
              { f32(32 / 32767), f32(-32 / 32767), f32(-32768 / 32767) },
              "normal 0x803FF801")
  local c = crate:attribute("colour")
  t.is(c.stream, "MGP", "colour in the MGP")
  t.is(c.type, "UB", "colour: UB")
  t.is(c.stride, 24, "accessor.stride is the MGP's")
  t.is_deeply({ c:get(1) }, { 0, 1, f32(128 / 255), f32(51 / 255) },
              "colour 00 ff 80 33: bytes / 255 in order")
  t.is_deeply({ c:get(2) },
              { f32(1 / 255), f32(2 / 255), f32(3 / 255), f32(4 / 255) },
              "colour 01 02 03 04")
  local a, bb = crate:attribute("tangent_a"), crate:attribute("tangent_b")
  t.is(a.offset, 4, "tangent A at MGP +4")
  t.is(bb.offset, 8, "tangent B at MGP +8")
  t.is_deeply({ a:get(1) }, { 0, f32(32736 / 32767), 0 }, "tangent A")
  t.is_deeply({ bb:get(1) }, { f32(32736 / 32767), 0, 0 }, "tangent B")
  t.is_deeply({ a:get(2) }, { 0, 0, 0 }, "a zero vector stays zero")
  local uv = crate:attribute("uv0")
  t.is(uv.type, "SF", "uv0: SF")
  t.is(uv.offset, 12, "uv0 at MGP +12")
  t.is_deeply({ uv:get(1) }, { 1, -2 }, "uv0 0x3c00 0xc000")
  t.is_deeply({ uv:get(2) }, { 0.5, 2^-24 }, "uv0 0x3800 0x0001")
  t.is_deeply({ uv:get(3) }, { 65504, 0 }, "uv0 0x7bff 0x8000")
  t.is(1 / select(2, uv:get(3)), -math.huge, "uv0 0x8000 is -0")
  t.is_deeply({ uv:get(4) }, { 2^-14, 1023 * 2^-24 }, "uv0 0x0400 0x03ff")
  t.is_deeply({ crate:attribute("uv1"):get(3) }, { 2, 3 }, "uv1")
  t.is(crate:attribute("uv2").offset, 20, "uv2 at MGP +20")
  local lo, hi = uv:bounds()
  t.is_deeply({ lo, hi }, { { 2^-14, -2 }, { 65504, 1023 * 2^-24 } },
              "uv0 bounds")
end

-- Mesh: strip ----------------------------------------------------------------
do
  local m = b:mesh("strip")
  t.is(m.primitive, "strip", "primitive strip")
  t.is(m.index_size, 4, "index size 4")
  t.is(m.mgp_stride, 0, "no MGP")
  t.is(m:index(5), 0xFFFFFFFF, "m:index: the restart")
  local tri, n = m:triangles()
  t.is_deeply({ tri, n }, { { 1, 2, 3, 3, 2, 4, 4, 3, 5 }, 3 },
    "strip: restarted, every second triangle swapped, degenerates dropped")
  tri, n = m:submesh(1):triangles()
  t.is_deeply({ tri, n }, { { 1, 2, 3, 3, 2, 4, 4, 3, 5 }, 3 },
              "strip submesh")
  t.is_deeply({ m:attribute("position"):get(6) }, { 5, 10, 15 },
              "strip position 6")
  t.is_deeply({ m:submesh(1):uv_set(0) }, { nil }, "no UV sets: nil")
  t.is(m:submesh(1):uv(0), nil, "no UV sets: s:uv nil")
end

-- Mesh: a strip of two submeshes (issue 9) ----------------------------------
-- 7 vertices, indices 0..6; submesh 1 on positions 0-3 (strip 1 2 3 4:
-- triangles 1 2 3 and, odd, 3 2 4), submesh 2 on 4-6 (5 6 7). One strip
-- over the buffer would add 3 4 5 and 5 4 6, which belong to neither.
do
  local sel = fx.record(0xFF, 0xFF, 0xFF, 0xFF)
  local m = assert(rsxmesh.mesh{ name = "two", meta = fx.meta(0x00080005),
    vertex_count = 7, mmp = string.rep(string.pack(">fffI4", 0, 0, 0, 0), 7),
    mmp_stride = 16, indices = rsxmesh.indices(2, { 1, 2, 3, 4, 5, 6, 7 }),
    index_size = 2, primitive = "strip", submeshes = {
      { record = sel, first_index = 0, index_count = 4 },
      { record = sel, first_index = 4, index_count = 3 } } })
  t.is_deeply({ m:submesh(1):triangles() }, { { 1, 2, 3, 3, 2, 4 }, 2 },
              "two submeshes: submesh 1")
  t.is_deeply({ m:submesh(2):triangles() }, { { 5, 6, 7 }, 1 },
              "two submeshes: submesh 2")
  t.is_deeply({ m:triangles() }, { { 1, 2, 3, 3, 2, 4, 5, 6, 7 }, 3 },
              "m:triangles(): the submeshes' triangles, one after the other")
  t.is_deeply({ m:triangle_bytes() },
    { string.pack("<I4I4I4I4I4I4I4I4I4", 0, 1, 2, 2, 1, 3, 4, 5, 6), 3 },
    "m:triangle_bytes(): the same, 0-based")
end

-- Mesh: odd, a finding -------------------------------------------------------
do
  local m = b:mesh("odd")
  t.is(m.mgp_stride, 20, "stored MGP stride 20")
  t.is(m.format.mgp_stride, 16, "implied MGP stride 16")
  t.is_deeply(m.findings, { { code = "mgp-stride",
    message = "MGP stride 20 differs from 16 implied by mask 0x0008007d" } },
    "mesh.findings: mgp-stride")
  local none, msg = m:attribute("uv0")
  t.is(none, nil, "an attribute a finding touches: nil")
  t.like(msg, "mgp%-stride", "... a message naming the finding")
  t.is_deeply({ m:attribute("position"):get(1) }, { 1, 1, 1 },
              "the MMP still decodes")
  t.is_deeply({ m:triangles() }, { {}, 0 }, "no indices: no triangles")
end

-- Mesh: bits 11 and 12 -------------------------------------------------------
do
  local m = b:mesh("bits")
  local s = m:attribute("s32k2")
  t.is(s.type, "S32K", "s32k2: S32K")
  t.is_deeply({ s:get(1) }, { -32768, 32767 }, "s32k2 0x8000 0x7fff")
  t.is_deeply({ s:get(2) }, { -1, 1 }, "s32k2 0xffff 0x0001")
  t.is(math.type((s:get(1))), "integer", "s32k2 values are integers")
  t.is_deeply(s:range(), { -32768, 32767, -1, 1 }, "s32k2 range")
  t.is(s:lines("i"), "i -32768 32767\ni -1 1\n", "s32k2 lines")
  local h = m:attribute("half4")
  t.is(h.offset, 4, "half4 at MGP +4")
  t.is_deeply({ h:get(1) }, { 1, -1, math.huge, -math.huge }, "half4 1")
  local x, y, z, w = h:get(2)
  t.ok(x == 0 and y == 1365 / 4096 and z ~= z and w == 0,
       "half4 2: 0, 0x3555, NaN, 0")
  local lo, hi = h:bounds()
  t.is_deeply({ lo, hi }, { { 0, -1, math.huge, -math.huge },
    { 1, 1365 / 4096, math.huge, 0 } }, "bounds pass over NaN")
  t.is(h:pack(1, 1), string.pack("<ffff", 1, -1, math.huge, -math.huge),
       "half4 pack")
  t.is(h:raw(2, 2), string.pack(">I2I2I2I2", 0, 0x3555, 0x7E00, 0),
       "half4 raw")
end

-- Open from a file -----------------------------------------------------------
do
  local path = os.tmpname()
  local w = fx.writer()
  t.is(w:save(path), true, "w:save(path)")
  local fb, err = rsxmesh.open(path)
  t.ok(fb ~= nil, "rsxmesh.open: " .. tostring(err))
  t.is(fb.path, path, "bundle.path")
  t.is(fb.name, path:match("[^/]*$"), "bundle.name is the base name")
  t.is(fb.size, #bytes, "the file holds the same bytes")
  t.is_deeply({ fb:mesh(1):attribute("position"):get(2) },
              { -1.5, 0.25, 2^-149 }, "decoded from the file")
  fb:close()
  os.remove(path)
  local none, msg = rsxmesh.open(path)
  t.is(none, nil, "rsxmesh.open of a missing file: nil")
  t.like(msg, (path:gsub("%p", "%%%0")), "... a message naming the file")
end

-- Bad data gives nil, message ------------------------------------------------
do
  local none, msg = rsxmesh.load("RSXB", "short.rsxb")
  t.is(none, nil, "load of 4 bytes: nil")
  t.like(msg, "short%.rsxb", "... the message names the file")
  none, msg = rsxmesh.load(bytes:sub(1, -2), "cut.rsxb")
  t.is(none, nil, "load of a truncated bundle: nil")
  t.like(msg, "cut%.rsxb", "... the message names the file")
  none, msg = rsxmesh.load("XXXX" .. bytes:sub(5), "magic.rsxb")
  t.is(none, nil, "load with a bad magic: nil")
  t.like(msg, "magic%.rsxb", "... the message names the file")
end

-- A refused file is named by its path as given: two bundles of one name
-- in two folders are told apart --------------------------------------------
do
  local dir = os.tmpname()
  os.remove(dir)
  local lfs = require "lfs"
  assert(lfs.mkdir(dir))
  assert(lfs.mkdir(dir .. "/a"))
  assert(lfs.mkdir(dir .. "/b"))
  for _, sub in ipairs{ "a", "b" } do
    local f = assert(io.open(dir .. "/" .. sub .. "/X.rsxb", "wb"))
    f:write(bytes:sub(1, -2)) -- one byte short: refused
    f:close()
  end
  for _, sub in ipairs{ "a", "b" } do
    local path = dir .. "/" .. sub .. "/X.rsxb"
    local none, msg = rsxmesh.open(path)
    t.is(none, nil, sub .. "/X.rsxb: refused")
    t.is(msg, string.format("%s: header: file size field 0x%x differs from"
      .. " the file's length 0x%x", path, #bytes, #bytes - 1),
      "... the message names it by its path as given")
    os.remove(path)
    lfs.rmdir(dir .. "/" .. sub)
  end
  lfs.rmdir(dir)
  local none, msg = rsxmesh.load(bytes:sub(1, 3), "disc/levels/X.rsxb")
  t.is(msg, "disc/levels/X.rsxb: file is 3 bytes, too short for the magic"
    .. " RSXB", "rsxmesh.load: the name as given, folders and all")
end

-- mesh.label: the mesh as messages name it ------------------------------------
t.is(b:mesh(1).label, "mesh 1 (crate)", "mesh.label: number and name")
t.is(b:mesh("strip").label, "mesh 2 (strip)", "... of another mesh")
do
  local m = b:mesh(1)
  local built = assert(rsxmesh.mesh{ meta = m:record():bytes(),
    vertex_count = 0, mmp = "", mmp_stride = m.mmp_stride, indices = "",
    index_size = 2 })
  t.is(built.label, "mesh", "... a built mesh without a name: 'mesh'")
end

b:close()
t.is(b.closed, true, "bundle.closed after close")
t.is(tostring(b), "rsxmesh.bundle (closed)", "tostring of a closed bundle")
t.done_testing()
