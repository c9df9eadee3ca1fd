-- t/gltf-import.lua - rsxmesh gltf-import on a hand-built bundle: edits made
-- here, and bad input
--
-- A bundle spelt byte by byte with string.pack is exported by the real
-- gltf-export, the glTF edited here (its JSON through lua-cjson, its .bin
-- byte by byte), and imported back by the real gltf-import. Every expected
-- byte is worked out by hand from the research note, never taken from the
-- importer: an edit changes exactly the bytes it should.

local t = require "tap"
local rsxmesh = require "rsxmesh"
local cjson = require "cjson"

-- ------------------------------------------------------------ helpers

local lib = require "scripts-lib"
local read_file, write_file, sh_quote = lib.read, lib.write, lib.quote

local tmp = lib.tmpdir()
local function at(p) return tmp .. "/" .. p end

-- Run a standard script (under the test wrapper): exit status, stdout and
-- stderr.
local function run(...)
  return lib.rsxmesh(tmp, ...)
end

-- ------------------------------------------------------------ the bundle

-- CMP words by the note's bit split: x bits 0..10, y 11..21, z 22..31.
local N_UP = 511 << 22       -- (0, 0, 511*64/32767)
local A_HALF = 512           -- (512*32/32767, 0, 0): A is not unit
local B_Y = 1023 << 11       -- (0, 1023*32/32767, 0)

local meta, record = lib.meta, lib.subrec

-- "panel": mask 0x000800ff (colour, normal, A, B, stored UV sets 0..2),
-- a unit square in z = 0. Selectors 00 01 01 01: logical UV0 from set 0,
-- UV1..3 all from set 1, so set 2 feeds no logical UV.
local PANEL_POS = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 }
local PANEL_COLOUR = { "\255\0\0\255", "\0\255\0\255", "\0\0\255\255",
  "\18\52\86\120" }
-- halves: 0x0000 0, 0x3C00 1, 0x3800 0.5, 0x4000 2, 0x4200 3
local PANEL_UV = {
  { 0x0000, 0x0000, 0x3C00, 0x0000, 0x3C00, 0x3C00, 0x0000, 0x3C00 },
  { 0x3800, 0x3800, 0x3800, 0x0000, 0x0000, 0x3800, 0x0000, 0x0000 },
  { 0x4000, 0x4200, 0x4200, 0x4000, 0x4000, 0x4000, 0x4200, 0x4200 },
}

local function panel_mmp(dx, normal)
  local out = {}
  for v = 1, 4 do
    out[v] = string.pack(">fffI4", PANEL_POS[3 * v - 2] + dx,
      PANEL_POS[3 * v - 1], PANEL_POS[3 * v], normal or N_UP)
  end
  return table.concat(out)
end

local function panel_mgp(a_word, colour)
  local out = {}
  for v = 1, 4 do
    out[v] = (colour or PANEL_COLOUR[v]) .. string.pack(">I4I4HHHHHH",
      a_word, B_Y,
      PANEL_UV[1][2 * v - 1], PANEL_UV[1][2 * v], PANEL_UV[2][2 * v - 1],
      PANEL_UV[2][2 * v], PANEL_UV[3][2 * v - 1], PANEL_UV[3][2 * v])
  end
  return table.concat(out)
end

local PANEL_INDICES = string.pack(">HHHHHH", 0, 1, 2, 0, 2, 3)
-- "rail": a u16 strip with a restart, no material: never edited here
local RAIL_INDICES = string.pack(">HHHHHH", 0, 1, 2, 0xFFFF, 1, 3)

local w = rsxmesh.writer()
w:material("paint", { { slot = rsxmesh.BASE_COLOUR,
  texture = "tex/paint.png" } })
assert(w:mesh(assert(rsxmesh.mesh{
  name = "panel", meta = meta(0x000800ff), vertex_count = 4,
  mmp = panel_mmp(0), mmp_stride = 16, mgp = panel_mgp(A_HALF),
  mgp_stride = 24, indices = PANEL_INDICES, index_size = 2,
  submeshes = { { record = record(0x00010101), first_index = 0,
    index_count = 6, material = 1 } },
})))
assert(w:mesh(assert(rsxmesh.mesh{
  name = "rail", meta = meta(0x00080005), vertex_count = 4,
  mmp = string.pack(">fffI4fffI4fffI4fffI4", 0, 0, 1, N_UP, 1, 0, 1, N_UP,
    0, 1, 1, N_UP, 1, 1, 1, N_UP), mmp_stride = 16,
  indices = RAIL_INDICES, index_size = 2, primitive = "strip",
  submeshes = { { record = record(0xFFFFFFFF), first_index = 0,
    index_count = 6 } },
})))
local ORIGINAL = w:bytes()
write_file(at("edit.rsxb"), ORIGINAL)

-- The original's bytes with one part (found by its own bytes, which occur
-- once) replaced.
local function with_part(old, new)
  local i = assert(ORIGINAL:find(old, 1, true), "part not found")
  assert(not ORIGINAL:find(old, i + 1, true), "part not unique")
  assert(#old == #new)
  return ORIGINAL:sub(1, i - 1) .. new .. ORIGINAL:sub(i + #old)
end

-- ------------------------------------------------------------ the export

local code, _, err = run("gltf-export", at("edit.rsxb"), "-o", at("g"))
t.is(code, 0, "gltf-export of the test bundle")
if code ~= 0 then t.diag(err) end
local GLTF_TEXT = assert(read_file(at("g/edit.gltf")))
local BIN = assert(read_file(at("g/edit.bin")))

-- The glTF text and .bin of an export (gltf_text, bin) edited in memory:
-- edit(doc, bin) changes the decoded JSON and returns the bin (changed or
-- not); written as DIR/NAME.gltf + NAME.bin, whose path it returns.
local function edited_from(gltf_text, bin0, name, dir, edit)
  local doc = cjson.decode(gltf_text)
  local bin = edit(doc, bin0) or bin0
  if #bin ~= #bin0 then doc.buffers[1].byteLength = #bin end
  assert(os.execute("mkdir -p " .. sh_quote(at(dir))))
  write_file(at(dir .. "/" .. name .. ".gltf"), cjson.encode(doc))
  write_file(at(dir .. "/" .. name .. ".bin"), bin)
  return at(dir .. "/" .. name .. ".gltf")
end

-- The export of the test bundle edited.
local function edited(dir, edit)
  return edited_from(GLTF_TEXT, BIN, "edit", dir, edit)
end

-- bin with bytes appended (4-aligned) as a new buffer view and accessor
-- (a: componentType, count, type, normalized) of doc: the new bin and the
-- accessor's index.
local function append(doc, bin, bytes, a)
  while #bin % 4 ~= 0 do bin = bin .. "\0" end
  doc.bufferViews[#doc.bufferViews + 1] = { buffer = 0,
    byteOffset = #bin, byteLength = #bytes }
  doc.accessors[#doc.accessors + 1] = { bufferView = #doc.bufferViews - 1,
    componentType = a.componentType, count = a.count, type = a.type,
    normalized = a.normalized }
  return bin .. bytes, #doc.accessors - 1
end

-- The bytes of accessor a's elements number k (0-based) for each k of
-- corners, as a list: how these tests rebuild a primitive a vertex a corner.
local COMPONENTS = { SCALAR = 1, VEC2 = 2, VEC3 = 3, VEC4 = 4 }
local COMPONENT_SIZE = { [5126] = 4, [5121] = 1, [5123] = 2, [5125] = 4 }
local function element_bytes(doc, bin, a, corners)
  local v = doc.bufferViews[a.bufferView + 1]
  local size = COMPONENTS[a.type] * COMPONENT_SIZE[a.componentType]
  local stride = v.byteStride or size
  local at0 = v.byteOffset + (a.byteOffset or 0)
  local parts = {}
  for c, k in ipairs(corners) do
    parts[c] = bin:sub(at0 + k * stride + 1, at0 + k * stride + size)
  end
  return parts
end

-- little-endian float32 bytes of a list of numbers
local function floats(list)
  return string.pack("<" .. ("f"):rep(#list), table.unpack(list))
end

-- A hand-built bundle written as NAME.rsxb and exported: its bytes, and
-- the export's glTF text and .bin.
local function exported_bundle(name, meshes)
  local bw = rsxmesh.writer()
  for _, m in ipairs(meshes) do assert(bw:mesh(assert(rsxmesh.mesh(m)))) end
  local bytes = bw:bytes()
  write_file(at(name .. ".rsxb"), bytes)
  local c = run("gltf-export", at(name .. ".rsxb"), "-o", at(name .. "-x"))
  assert(c == 0, "gltf-export of " .. name)
  return bytes, assert(read_file(at(name .. "-x/" .. name .. ".gltf"))),
    assert(read_file(at(name .. "-x/" .. name .. ".bin")))
end

-- Import the glTF g into the base BASE.rsxb (of one mesh, named BASE) as
-- OUT.rsxb, with --report, a test that it succeeds (what: the edit): the
-- report, the new bundle opened and its mesh (nil when none was written).
local function import_onto(base, g, out, what)
  local c, o, e = run("gltf-import", g, "--base", at(base .. ".rsxb"), "-o",
    at(out .. ".rsxb"), "--report")
  t.is(c, 0, what .. ": imports")
  if c ~= 0 then t.diag(e) end
  local b = rsxmesh.open(at(out .. ".rsxb"))
  return o, b, b and b:mesh(base)
end

local function import(gltf, out, ...)
  return run("gltf-import", gltf, "--base", at("edit.rsxb"), "-o", out, ...)
end

local function panel_of(doc)
  for _, m in ipairs(doc.meshes) do
    if m.name == "panel" then return m end
  end
end

-- An import refused: exit status 1, the message, and nothing written.
local function refused(name, g, pattern, what, ...)
  local out = at("bad-" .. name .. ".rsxb")
  local c, _, e = import(g, out, ...)
  t.is(c, 1, what .. ": exit status 1")
  t.like(e, pattern, what .. ": the message")
  t.ok(read_file(out) == nil and read_file(out .. ".part") == nil,
    what .. ": nothing written")
end

-- ------------------------------------------------------------ unchanged

local out
code, out, err = import(at("g/edit.gltf"), at("same.rsxb"), "--report")
t.is(code, 0, "the unchanged export imports")
t.ok(read_file(at("same.rsxb")) == ORIGINAL,
  "gltf-export then gltf-import: the very bytes of the bundle")
t.like(err, "2 meshes: 2 unchanged, 0 changed", "the summary says so")
t.like(out, "mesh 1 %(panel%): unchanged\nmesh 2"
  .. " %(rail%): unchanged\n", "--report: a line per mesh")

do
  local c2 = run("gltf-export", at("edit.rsxb"), "--glb", "-o", at("glb"))
  t.is(c2, 0, "gltf-export --glb")
  c2 = import(at("glb/edit.glb"), at("same-glb.rsxb"))
  t.is(c2, 0, "a .glb imports")
  t.ok(read_file(at("same-glb.rsxb")) == ORIGINAL, "... byte for byte too")
end

-- ------------------------------------------------------------ +1 in x

-- Every POSITION x of panel + 1 in the .bin: the new bundle is the
-- original with panel's MMP x floats 1, 2, 2, 1 (0 + 1, 1 + 1, 1 + 1,
-- 0 + 1), all else byte for byte.
do
  local g = edited("plus", function(doc, bin)
    local a = doc.accessors[panel_of(doc).primitives[1].attributes.POSITION
      + 1]
    local v = doc.bufferViews[a.bufferView + 1]
    local parts, at0 = {}, v.byteOffset + (a.byteOffset or 0)
    parts[1] = bin:sub(1, at0)
    for e = 0, a.count - 1 do
      local x, y, z = string.unpack("<fff", bin, at0 + 12 * e + 1)
      parts[#parts + 1] = string.pack("<fff", x + 1, y, z)
    end
    parts[#parts + 1] = bin:sub(at0 + 12 * a.count + 1)
    -- min and max move with it
    a.min[1], a.max[1] = a.min[1] + 1, a.max[1] + 1
    return table.concat(parts)
  end)
  code, out, err = import(g, at("plus.rsxb"), "--report")
  t.is(code, 0, "+1 in x: imports")
  if code ~= 0 then t.diag(err) end
  t.ok(read_file(at("plus.rsxb")) == with_part(panel_mmp(0), panel_mmp(1)),
    "+1 in x: only panel's x floats differ, each by exactly +1")
  t.like(out, "mesh 1 %(panel%): changed; changed:"
    .. " positions; stale records %(the base's%): bounds\nmesh 2 %(rail%):"
    .. " unchanged", "+1 in x: the report (the records' bounds, if they"
    .. " hold any, are stale)")
  t.like(err, "plus%.rsxb, [%d,]+ bytes written %(laid out as the base%)",
    "+1 in x: the summary says the base's layout was kept")

  -- Another writer's layout: the string table moved after the data,
  -- behind a gap of 40 zero bytes, its old place left as zeros (rsxb.md
  -- lets parts lie in any order). Nothing changed: its very bytes, and
  -- -o's folders made. Changed: its layout all the same, panel's MMP in
  -- its place (t/api-layout.lua tries the writer's other cases).
  local S, Z = string.unpack(">I4I4", ORIGINAL, 0x2D)
  local moved = ORIGINAL:sub(1, S) .. string.rep("\0", Z)
    .. ORIGINAL:sub(S + Z + 1) .. string.rep("\0", 40)
  local at_end = #moved
  moved = moved .. ORIGINAL:sub(S + 1, S + Z)
  moved = moved:sub(1, 8) .. string.pack(">I4", #moved) .. moved:sub(13,
    0x2C) .. string.pack(">I4", at_end) .. moved:sub(0x31)
  write_file(at("other.rsxb"), moved)
  local ob = rsxmesh.open(at("other.rsxb"))
  t.ok(ob and ob:mesh("panel") and ob:mesh("rail"),
    "a bundle with its string table last opens")
  if ob then ob:close() end
  code, _, err = run("gltf-import", at("g/edit.gltf"), "--base",
    at("other.rsxb"), "-o", at("new/folder/other.rsxb"))
  t.is(code, 0, "another layout, nothing changed: imports into a new folder")
  if code ~= 0 then t.diag(err) end
  t.ok(read_file(at("new/folder/other.rsxb")) == moved,
    "... the base's very bytes, gap and order kept")
  t.like(err, "%(the base's bytes%)", "... and the summary says so")
  code, _, err = run("gltf-import", g, "--base", at("other.rsxb"), "-o",
    at("new/folder/other-plus.rsxb"))
  t.is(code, 0, "another layout, panel moved: imports")
  t.like(err, "%(laid out as the base%)", "... in the base's layout, and"
    .. " the summary says so")
  local i = assert(moved:find(panel_mmp(0), 1, true))
  t.ok(read_file(at("new/folder/other-plus.rsxb")) == moved:sub(1, i - 1)
    .. panel_mmp(1) .. moved:sub(i + #panel_mmp(0)), "... the base's very"
    .. " bytes but panel's MMP, in its place, x + 1")
end

-- ------------------------------------------------------------ no A

-- _TANGENT_A dropped: A comes from TANGENT, which gltf-export wrote as A
-- normalised: (1, 0, 0), CMP x = 32767/32 = 1023.97 -> 1023 (clamped),
-- the word 0x3FF. The stored A (512, a length of 0.5) is lost.
do
  local g = edited("noa", function(doc)
    for _, p in ipairs(panel_of(doc).primitives) do
      p.attributes._TANGENT_A = nil
    end
  end)
  code, out, err = import(g, at("noa.rsxb"), "--report")
  t.is(code, 0, "no _TANGENT_A: imports")
  if code ~= 0 then t.diag(err) end
  t.ok(read_file(at("noa.rsxb")) == with_part(panel_mgp(A_HALF),
    panel_mgp(0x3FF)), "no _TANGENT_A: A derived as 0x3FF, all else kept")
  t.like(out, "mesh 1 %(panel%): changed; derived:"
    .. " tangent A from TANGENT and NORMAL %(no _TANGENT_A%)",
    "no _TANGENT_A: reported as derived")
end

-- ------------------------------------------------------------ a triangle

-- panel's last triangle deleted: its submesh has 3 indices, 0 1 2, in a
-- u16 triangle list; streams and rail as they were.
do
  local g = edited("tri", function(doc)
    local a = doc.accessors[panel_of(doc).primitives[1].indices + 1]
    a.count = a.count - 3
  end)
  code, out, err = import(g, at("tri.rsxb"), "--report")
  t.is(code, 0, "a triangle deleted: imports")
  if code ~= 0 then t.diag(err) end
  local b = assert(rsxmesh.open(at("tri.rsxb")))
  local panel = b:mesh("panel")
  t.is(panel:submesh(1).index_count, 3, "the submesh's index count: 6 - 3")
  t.is(panel:index_bytes(), string.pack(">HHH", 0, 1, 2),
    "its indices: the first triangle, u16")
  t.is(panel.primitive, "triangles", "a triangle list")
  t.ok(panel:stream("mmp") == panel_mmp(0)
    and panel:stream("mgp") == panel_mgp(A_HALF), "the streams as they were")
  t.ok(b:mesh("rail"):index_bytes() == RAIL_INDICES,
    "rail's strip and restart as they were")
  t.like(out, "changed: triangles %(1, a triangle list"
    .. " of u16 indices%)", "the report names the triangles")
  b:close()
end

-- ------------------------------------------------------- edit mode

-- As Blender writes an edit: a vertex per corner (panel's triangles 0 1 2
-- and 0 2 3 become vertices 0..5, indices 0..5), no tangents (_TANGENT_A,
-- _TANGENT_B, TANGENT dropped, as Blender does unless asked), and one
-- vertex moved: corner 3, (1, 1, 0), to (1, 1, 0.5). A and B come from
-- the base corner by corner (the triangles are the base's, in order), so
-- the new streams are panel's records in corner order 0 1 2 0 2 3, with
-- the z of the third 0.5. (A vertex moved in edit mode was refused: no
-- base vertex lay at its new position to take A and B from.)
do
  local ORDER = { 0, 1, 2, 0, 2, 3 }
  local function per_corner(dir, moved) return edited(dir, function(doc, bin)
    local prim = panel_of(doc).primitives[1]
    local function add(bytes, count, a)
      local i
      bin, i = append(doc, bin, bytes, { componentType = a.componentType,
        count = count, type = a.type, normalized = a.normalized })
      return i
    end
    local attrs = prim.attributes
    attrs._TANGENT_A, attrs._TANGENT_B, attrs.TANGENT = nil, nil, nil
    local names = {}
    for name in pairs(attrs) do names[#names + 1] = name end
    for _, name in ipairs(names) do
      local a = doc.accessors[attrs[name] + 1]
      local parts = element_bytes(doc, bin, a, ORDER)
      if name == "POSITION" then
        for c, xyz in pairs(moved) do
          parts[c] = string.pack("<fff", table.unpack(xyz))
        end
      end
      attrs[name] = add(table.concat(parts), #ORDER, a)
    end
    prim.indices = add(string.pack("<HHHHHH", 0, 1, 2, 3, 4, 5), 6,
      { componentType = 5123, type = "SCALAR" })
    return bin
  end) end
  local g = per_corner("corners", { [3] = { 1, 1, 0.5 } })
  code, out, err = import(g, at("corners.rsxb"), "--report")
  t.is(code, 0, "a vertex per corner, one moved, no tangents: imports")
  if code ~= 0 then t.diag(err) end
  local b = rsxmesh.open(at("corners.rsxb"))
  local panel = b and b:mesh("panel")
  local function records(stream, size, fix)
    local out = {}
    for c, k in ipairs(ORDER) do
      out[c] = stream:sub(k * size + 1, k * size + size)
    end
    if fix then out[3] = fix(out[3]) end
    return table.concat(out)
  end
  t.ok(panel and panel:stream("mmp") == records(panel_mmp(0), 16,
    function(r) return r:sub(1, 8) .. string.pack(">f", 0.5) .. r:sub(13) end),
    "MMP: the base's records in corner order, the third's z 0.5")
  t.ok(panel and panel:stream("mgp") == records(panel_mgp(A_HALF), 24),
    "MGP: the base's records in corner order, A and B the base's")
  t.is(panel and panel:index_bytes(), string.pack(">HHHHHH", 0, 1, 2, 3, 4,
    5), "indices 0..5, u16")
  t.like(out, "kept from the base: tangent A %(no _TANGENT_A or TANGENT%),"
    .. " tangent B", "the report: A and B kept from the base")
  if b then b:close() end
  -- two corners of the first triangle moved: it keeps one corner where
  -- the base has it, too few to match it by position, but its corners'
  -- UVs are the base triangle's, and the triangles come as many and in
  -- the base's order: each corner keeps its base vertex (A and B too)
  code, out, err = import(per_corner("corners2", { [2] = { 1, 0, 0.5 },
    [3] = { 1, 1, 0.5 } }), at("corners2.rsxb"))
  t.is(code, 0, "two corners of a triangle moved, no tangents: imports")
  if code ~= 0 then t.diag(err) end
  b = rsxmesh.open(at("corners2.rsxb"))
  panel = b and b:mesh("panel")
  local mmp = records(panel_mmp(0), 16, function(r)
    return r:sub(1, 8) .. string.pack(">f", 0.5) .. r:sub(13) end)
  mmp = mmp:sub(1, 16) .. mmp:sub(17, 24) .. string.pack(">f", 0.5)
    .. mmp:sub(29)
  t.ok(panel and panel:stream("mmp") == mmp,
    "MMP: the base's records in corner order, the second's and third's z 0.5")
  t.ok(panel and panel:stream("mgp") == records(panel_mgp(A_HALF), 24),
    "MGP: the base's records in corner order, by their UVs")
  if b then b:close() end
end

-- ------------------------------------------------------------ _UV_SET_2

-- Stored set 2 feeds no logical UV of panel (selectors 00 01 01 01), so
-- gltf-export wrote it as _UV_SET_2. Set to 0.25 everywhere in the .bin,
-- it comes back as the halves 0x3400 (0.25 = 2^-2: exponent 13, mantissa
-- 0), every other byte as it was.
do
  local g = edited("uvset", function(doc, bin)
    local a = doc.accessors[panel_of(doc).primitives[1].attributes._UV_SET_2
      + 1]
    local v = doc.bufferViews[a.bufferView + 1]
    a.min, a.max = nil, nil
    return bin:sub(1, v.byteOffset) .. string.rep(string.pack("<f", 0.25),
      8) .. bin:sub(v.byteOffset + 33)
  end)
  code, out, err = import(g, at("uvset.rsxb"), "--report")
  t.is(code, 0, "_UV_SET_2 edited: imports")
  if code ~= 0 then t.diag(err) end
  local before, saved = panel_mgp(A_HALF), PANEL_UV[3]
  PANEL_UV[3] = { 0x3400, 0x3400, 0x3400, 0x3400, 0x3400, 0x3400, 0x3400,
    0x3400 }
  local want = with_part(before, panel_mgp(A_HALF))
  PANEL_UV[3] = saved
  t.ok(read_file(at("uvset.rsxb")) == want,
    "_UV_SET_2 edited: stored set 2 is 0x3400 everywhere, all else kept")
  t.like(out, "changed: stored UV set 2\n", "... and reported")
end

-- ------------------------------------------------------------ UV range

-- A stored UV set is halves: 65519 lies below 65520, halfway between the
-- largest half 65504 (0x7BFF) and 65536 (2^16, past the largest
-- exponent), so it is stored as 0x7BFF; 70000 and -65520 (the tie goes
-- to the even, infinity) have no half but infinity and are refused,
-- naming the vertex and the attribute. The edits: TEXCOORD_0 (set 0) u of
-- vertex 2, base (1, 0); _UV_SET_2 v of vertex 3, base (2, 2).
do
  local function uv_edit(dir, name, vertex, component, x)
    return edited(dir, function(doc, bin)
      local a = doc.accessors[panel_of(doc).primitives[1].attributes[name]
        + 1]
      local v = doc.bufferViews[a.bufferView + 1]
      local o = v.byteOffset + (a.byteOffset or 0)
        + (vertex - 1) * (v.byteStride or 8) + 4 * (component - 1)
      a.min, a.max = nil, nil
      return bin:sub(1, o) .. string.pack("<f", x) .. bin:sub(o + 5)
    end)
  end
  code, out, err = import(uv_edit("uv-top", "TEXCOORD_0", 2, 1, 65519),
    at("uv-top.rsxb"))
  t.is(code, 0, "TEXCOORD_0 65519: imports")
  if code ~= 0 then t.diag(err) end
  local before, saved = panel_mgp(A_HALF), PANEL_UV[1][3]
  PANEL_UV[1][3] = 0x7BFF
  local want = with_part(before, panel_mgp(A_HALF))
  PANEL_UV[1][3] = saved
  t.ok(read_file(at("uv-top.rsxb")) == want,
    "TEXCOORD_0 65519: stored as the largest half, 0x7BFF, all else kept")
  refused("uv-inf", uv_edit("uv-inf", "TEXCOORD_0", 2, 1, 70000),
    "uv%-inf/edit%.gltf: mesh 1 %(panel%): vertex 2: TEXCOORD_0 %(70000,"
    .. " 0%): 70000 is past the largest half, 65504 %(it would be stored as"
    .. " infinity%)\n", "TEXCOORD_0 70000")
  refused("uvset-inf", uv_edit("uvset-inf", "_UV_SET_2", 3, 2, -65520),
    "uvset%-inf/edit%.gltf: mesh 1 %(panel%): vertex 3: _UV_SET_2 %(2,"
    .. " %-65520%): %-65520 is past the largest half, 65504",
    "_UV_SET_2 -65520")
end

-- ------------------------------------------------------------ NaN

-- "dot": mask 0x00080025 (normal, stored set 0), its set 0 holding the
-- half 0x7D01 (a NaN with a payload) at vertex 2. gltf-export leaves the
-- set out (glTF forbids NaN); its positions moved by +1 in x, the import
-- changes the x floats and keeps the MGP, payload and all.
do
  local mmp = function(dx)
    return string.pack(">fffI4fffI4fffI4", 0 + dx, 0, 0, N_UP, 1 + dx, 0, 0,
      N_UP, 0 + dx, 1, 0, N_UP)
  end
  local mgp = string.pack(">HHHHHH", 0x3C00, 0x0000, 0x7D01, 0x3800,
    0x0000, 0x3C00)
  local dw = rsxmesh.writer()
  assert(dw:mesh(assert(rsxmesh.mesh{ name = "dot",
    meta = meta(0x00080025), vertex_count = 3, mmp = mmp(0),
    mmp_stride = 16, mgp = mgp, mgp_stride = 4,
    indices = string.pack(">HHH", 0, 1, 2), index_size = 2,
    submeshes = { { record = record(0xFFFFFFFF),
      first_index = 0, index_count = 3 } } })))
  local dot = dw:bytes()
  write_file(at("dot.rsxb"), dot)
  local c = run("gltf-export", at("dot.rsxb"), "-o", at("dot"))
  t.is(c, 0, "NaN: gltf-export")
  local doc = cjson.decode(assert(read_file(at("dot/dot.gltf"))))
  local bin = assert(read_file(at("dot/dot.bin")))
  local a = doc.accessors[doc.meshes[1].primitives[1].attributes.POSITION
    + 1]
  local v = doc.bufferViews[a.bufferView + 1]
  local moved = {}
  for e = 0, 2 do
    local x, y, z = string.unpack("<fff", bin, v.byteOffset + 12 * e + 1)
    moved[e + 1] = string.pack("<fff", x + 1, y, z)
  end
  bin = bin:sub(1, v.byteOffset) .. table.concat(moved)
    .. bin:sub(v.byteOffset + 37)
  a.min[1], a.max[1] = a.min[1] + 1, a.max[1] + 1
  write_file(at("dot/dot.gltf"), cjson.encode(doc))
  write_file(at("dot/dot.bin"), bin)
  c = run("gltf-import", at("dot/dot.gltf"), "--base", at("dot.rsxb"),
    "-o", at("dot-back.rsxb"))
  t.is(c, 0, "NaN: imports")
  local back = assert(read_file(at("dot-back.rsxb")))
  local i = assert(dot:find(mmp(0), 1, true))
  t.ok(back == dot:sub(1, i - 1) .. mmp(1) .. dot:sub(i + 48),
    "NaN: the x floats + 1, the NaN's payload (0x7D01) kept")
end

-- ------------------------------------------------------------ a node

-- panel's node translated by (1, 2, 3) and scaled by 2: positions 2p + t,
-- so (1, 2, 3), (3, 2, 3), (3, 4, 3), (1, 4, 3); the normal (0, 0, 0.99945)
-- through the inverse transpose (0.5) made unit is (0, 0, 1), CMP z 511,
-- the word it was; A (0.50005, 0, 0) doubled is 1.0001, CMP x 1024
-- clamped to 1023 (0x3FF); B (0, 0.99905, 0) doubled clamps to 1023, the
-- word it was. Everything else as it was.
do
  local g = edited("node", function(doc)
    for _, node in ipairs(doc.nodes) do
      if node.name == "panel" then
        node.translation, node.scale = { 1, 2, 3 }, { 2, 2, 2 }
      end
    end
  end)
  code, out, err = import(g, at("node.rsxb"), "--report")
  t.is(code, 0, "a node's transform: imports")
  if code ~= 0 then t.diag(err) end
  local mmp = string.pack(">fffI4fffI4fffI4fffI4", 1, 2, 3, N_UP, 3, 2, 3,
    N_UP, 3, 4, 3, N_UP, 1, 4, 3, N_UP)
  t.ok(read_file(at("node.rsxb")) == with_part(panel_mmp(0) .. panel_mgp(
    A_HALF), mmp .. panel_mgp(0x3FF)), "a node's translation and scale"
    .. " baked into positions, normals and tangents, all else kept")
  t.like(out, "changed: positions %(the node's transform baked in%)",
    "... and reported")
end

-- ------------------------------------------------------------ merged

-- Blender merges primitives that share a material. A bundle of one mesh
-- (the fields of rsxmesh.mesh, material 1 "paint") written as NAME.rsxb
-- and exported, its primitives merged into one whose indices are theirs
-- one after the other, imported back: its bytes, the import's exit
-- status and report, and the new bundle's bytes.
local function merged(name, mesh)
  local mw = rsxmesh.writer()
  mw:material("paint")
  assert(mw:mesh(assert(rsxmesh.mesh(mesh))))
  local bytes = mw:bytes()
  write_file(at(name .. ".rsxb"), bytes)
  local c = run("gltf-export", at(name .. ".rsxb"), "-o", at(name .. "-m"))
  assert(c == 0, "gltf-export of " .. name)
  local g = at(name .. "-m/" .. name .. ".gltf")
  local doc = cjson.decode(assert(read_file(g)))
  local bin = assert(read_file(at(name .. "-m/" .. name .. ".bin")))
  local prims = doc.meshes[1].primitives
  local all, count = {}, 0
  for k, prim in ipairs(prims) do
    local a = doc.accessors[prim.indices + 1]
    local v = doc.bufferViews[a.bufferView + 1]
    assert(a.componentType == 5125 and (a.byteOffset or 0) == 0)
    all[k], count = bin:sub(v.byteOffset + 1, v.byteOffset + 4 * a.count),
      count + a.count
  end
  local i
  bin, i = append(doc, bin, table.concat(all), { componentType = 5125,
    count = count, type = "SCALAR" })
  prims[1].indices = i
  for k = #prims, 2, -1 do prims[k] = nil end
  doc.buffers[1].byteLength = #bin
  write_file(g, cjson.encode(doc))
  write_file(at(name .. "-m/" .. name .. ".bin"), bin)
  local out
  c, out = run("gltf-import", g, "--base", at(name .. ".rsxb"), "-o",
    at(name .. "-back.rsxb"), "--report")
  return bytes, c, out, read_file(at(name .. "-back.rsxb"))
end

-- "twin": a quad whose two submeshes share material paint, triangles
-- (1, 3, 4) then (1, 2, 3) (0-based 0 2 3 and 0 1 2). Split back by the
-- triangles' positions, each submesh gets its own triangle back, and the
-- bundle comes back byte for byte (the same u16 list and ranges, the
-- vertices in the same order, every value exact).
do
  local twin, c, out, back = merged("twin", {
    name = "twin", meta = meta(0x00080005), vertex_count = 4,
    mmp = panel_mmp(0), mmp_stride = 16,
    indices = string.pack(">HHHHHH", 0, 2, 3, 0, 1, 2), index_size = 2,
    submeshes = {
      { record = record(0xFFFFFFFF), first_index = 0,
        index_count = 3, material = 1 },
      { record = record(0xFFFFFFFF), first_index = 3,
        index_count = 3, material = 1 },
    } })
  t.is(c, 0, "merged: imports")
  t.like(out, "primitive 1 split back into submeshes 1, 2 by their"
    .. " triangles' positions", "merged: the report says it was split")
  t.ok(back == twin, "merged then split back: the very bytes of the bundle")
end

-- Two submeshes of one material whose triangles have the same positions.
-- "card", double-sided: the front 0 1 2, 0 2 3, the back the same
-- vertices wound the other way, 0 2 1, 0 3 2; each triangle is its
-- submesh's by its winding. "layers": vertices 4..7 at the positions of
-- 0..3, submesh 1 0 1 2, 0 2 3 and submesh 2 4 5 6, 4 6 7, the same
-- winding: by the order of the base's triangles, the first glTF triangle
-- at those positions to submesh 1, the next to submesh 2. Each comes back
-- byte for byte: 6 indices per submesh, submesh 2's from index 6. (All
-- went to submesh 1, as its positions were matched first.)
do
  local function two(name, n, indices)
    local mmp = panel_mmp(0)
    return merged(name, { name = name, meta = meta(0x00080005),
      vertex_count = n, mmp = n == 8 and mmp .. mmp or mmp,
      mmp_stride = 16, index_size = 2,
      indices = string.pack(">" .. ("H"):rep(12), table.unpack(indices)),
      submeshes = {
        { record = record(0xFFFFFFFF), first_index = 0,
          index_count = 6, material = 1 },
        { record = record(0xFFFFFFFF), first_index = 6,
          index_count = 6, material = 1 },
      } })
  end
  for _, case in ipairs({
      { "card", 4, { 0, 1, 2, 0, 2, 3, 0, 2, 1, 0, 3, 2 } },
      { "layers", 8, { 0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7 } } }) do
    local bytes, c, _, back = two(table.unpack(case))
    t.is(c, 0, case[1] .. ": merged, imports")
    local b = back and rsxmesh.open(at(case[1] .. "-back.rsxb"))
    local m = b and b:mesh(case[1])
    t.is(m and m:submesh(2).index_count, 6, case[1] .. ": submesh 2 has"
      .. " its 6 indices back")
    t.ok(back == bytes, case[1] .. ": the very bytes of the bundle")
    if b then b:close() end
  end
end

-- ------------------------------------------------------------ a seam

-- "seam": two quads side by side, (0..1) and (1..2) in x, that meet at a
-- UV seam: vertices 2 and 5 (1-based) at (1, 0, 0) with UVs (1, 0) and
-- (0, 0), 3 and 6 at (1, 1, 0) with (1, 1) and (0, 1). Vertex v's A is
-- the CMP word v, its B v << 11, so each says which base vertex it came
-- from. Triangles (0-based) 0 1 2, 0 2 3, 4 6 7, 4 7 5.
do
  local SEAM_POS = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 }, { 1, 0 },
    { 1, 1 }, { 2, 0 }, { 2, 1 } }
  local SEAM_UV = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 }, { 0, 0 },
    { 0, 1 }, { 1, 0 }, { 1, 1 } }
  local HALF = { [0] = 0x0000, [0.5] = 0x3800, [1] = 0x3C00 }
  local mmp, mgp = {}, {}
  for v = 1, 8 do
    mmp[v] = string.pack(">fffI4", SEAM_POS[v][1], SEAM_POS[v][2], 0, N_UP)
    mgp[v] = string.pack(">I4I4HH", v, v << 11, HALF[SEAM_UV[v][1]],
      HALF[SEAM_UV[v][2]])
  end
  local _, text, bin0 = exported_bundle("seam", { {
    name = "seam", meta = meta(0x0008003D), vertex_count = 8,
    mmp = table.concat(mmp), mmp_stride = 16, mgp = table.concat(mgp),
    mgp_stride = 12, index_size = 2,
    indices = string.pack(">HHHHHHHHHHHH", 0, 1, 2, 0, 2, 3, 4, 6, 7, 4, 7,
      5),
    submeshes = { { record = record(0x00FFFFFF), first_index = 0,
      index_count = 12 } } } })
  -- As Blender writes it with the first triangle deleted and two added: a
  -- vertex per corner, no tangents. The corners: the base's triangles 2,
  -- 3 and 4 (base vertices 1 3 4, 5 7 8, 5 8 6), then (1, 0, 0) UV
  -- (0, 0), (2, 0, 0) UV (1, 0), (1, 1, 0) UV (0, 1): by their UVs base
  -- vertices 5, 7 and 6; then (1, 1, 0) UV (0.5, 0.5), which neither
  -- base vertex there has (3 and 6): the first, 3, reported as a guess;
  -- (2, 0, 0) and (2, 1, 0): 7 and 8.
  local CORNERS = { 1, 3, 4, 5, 7, 8, 5, 8, 6, 5, 7, 6, 3, 7, 8 }
  local NEW_UV = { [10] = { 0, 0 }, [11] = { 1, 0 }, [12] = { 0, 1 },
    [13] = { 0.5, 0.5 } }
  local g = edited_from(text, bin0, "seam", "seam-x2", function(doc, bin)
    local prim = doc.meshes[1].primitives[1]
    local pos, uv, nrm = {}, {}, {}
    for c, v in ipairs(CORNERS) do
      local u = NEW_UV[c] or SEAM_UV[v]
      table.move({ SEAM_POS[v][1], SEAM_POS[v][2], 0 }, 1, 3, #pos + 1, pos)
      table.move({ u[1], u[2] }, 1, 2, #uv + 1, uv)
      -- N_UP: z = 511 * 64 / 32767, the float gltf-export writes as 1
      table.move({ 0, 0, 1 }, 1, 3, #nrm + 1, nrm)
    end
    local a = prim.attributes
    a._TANGENT_A, a._TANGENT_B, a.TANGENT = nil, nil, nil
    bin, a.POSITION = append(doc, bin, floats(pos), { componentType = 5126,
      count = 15, type = "VEC3" })
    doc.accessors[a.POSITION + 1].min = { 0, 0, 0 }
    doc.accessors[a.POSITION + 1].max = { 2, 1, 0 }
    bin, a.NORMAL = append(doc, bin, floats(nrm), { componentType = 5126,
      count = 15, type = "VEC3" })
    bin, a.TEXCOORD_0 = append(doc, bin, floats(uv), { componentType = 5126,
      count = 15, type = "VEC2" })
    local idx = {}
    for c = 1, 15 do idx[c] = c - 1 end
    bin, prim.indices = append(doc, bin, string.pack("<" .. ("H"):rep(15),
      table.unpack(idx)), { componentType = 5123, count = 15,
      type = "SCALAR" })
    return bin
  end)
  local out2, b, m = import_onto("seam", g, "seam2", "a seam, a triangle"
    .. " deleted, two added, no tangents")
  local want = {}
  for k, v in ipairs(CORNERS) do
    local u = NEW_UV[k] or SEAM_UV[v]
    want[k] = string.pack(">I4I4HH", v, v << 11, HALF[u[1]], HALF[u[2]])
  end
  t.ok(m and m:stream("mgp") == table.concat(want), "each corner's A and B"
    .. " those of the base vertex it stands for, across the seam too")
  t.like(out2, "kept from the base: tangent A %(no _TANGENT_A or TANGENT,"
    .. " and 1 new vertex's was a guess: the base vertices at its position"
    .. " differ in it, and its UVs and normal single none out%)",
    "the report: A kept, one new vertex's a guess")
  t.like(out2, "changed: stored UV set 0, triangles %(5, a triangle list of"
    .. " u16 indices%);", "... and nothing but the triangles and the new"
    .. " UV (0.5, 0.5) changed")
  if b then b:close() end

  -- --tangents computed: the two new triangles' vertices (10..15, none
  -- paired with a base vertex) take A and B from their UVs. Triangle
  -- 10 11 12: (1, 0) (2, 0) (1, 1) with UVs (0, 0) (1, 0) (0, 1): u
  -- grows along +x, v along +y: T = (1, 0, 0), w = -1 (MikkTSpace's V is
  -- 1 - v), the game's B = -cross(N, T) w = (0, 1, 0): words 1023 and
  -- 1023 << 11. Triangle 13 14 15: (1, 1) (2, 0) (2, 1) with UVs
  -- (0.5, 0.5) (1, 0) (1, 1): u = x/2, v = x/2 + y - 1, so along
  -- constant v dP/du runs (2, -1, 0): T = (2, -1, 0) / sqrt 5, w = -1,
  -- B = (1, 2, 0) / sqrt 5. In CMP words (x 32767/32, nearest):
  -- 0.894427 -> 916, -0.447214 -> -458 (1590 in 11 bits), 0.447214 -> 458.
  local c6, out6 = run("gltf-import", g, "--base", at("seam.rsxb"), "-o",
    at("seam6.rsxb"), "--report", "--tangents", "computed")
  t.is(c6, 0, "--tangents computed: imports")
  local b6 = rsxmesh.open(at("seam6.rsxb"))
  local m6 = b6 and b6:mesh("seam")
  local AB6 = { [10] = { 1023, 1023 << 11 }, [13] = { 916 | 1590 << 11,
    458 | 916 << 11 } }
  AB6[11], AB6[12], AB6[14], AB6[15] = AB6[10], AB6[10], AB6[13], AB6[13]
  for k, v in ipairs(CORNERS) do
    local u = NEW_UV[k] or SEAM_UV[v]
    local ab = AB6[k] or { v, v << 11 }
    want[k] = string.pack(">I4I4HH", ab[1], ab[2], HALF[u[1]], HALF[u[2]])
  end
  t.ok(m6 and m6:stream("mgp") == table.concat(want), "--tangents"
    .. " computed: the new triangles' A and B from their UVs, the paired"
    .. " vertices' their base vertices'")
  t.like(out6, "derived: tangent A: each vertex's base vertex's, and 6 new"
    .. " vertices' %(10%-15: %-%-tangents computed%) computed from"
    .. " TEXCOORD_0", "... and the report says which")
  if b6 then b6:close() end

  -- The seam's four triangles as Blender writes them (a vertex a corner),
  -- and islands of new triangles that no base vertex lies at or beside,
  -- all in z = 0 with NORMAL (0, 0, 1): at x 5..7 with u growing along
  -- +x and v along +y; at x 8..10 with u falling along +x (mirrored); at
  -- x 11..12 with every UV (0.5, 0.5) (no UV area). By MikkTSpace's rule
  -- (its V is glTF's 1 - v): the first island's tangent T = (1, 0, 0),
  -- w = -1 (u, -v turn the other way from x, y); the mirrored one's
  -- T = (-1, 0, 0), w = +1; the game's B = -cross(N, T) * w = (0, 1, 0)
  -- for both, along glTF's growing v as the base's B runs. The third
  -- takes the direction across N from the axis least along it:
  -- cross((1, 0, 0), N) = (0, -1, 0), w = +1, B = (-1, 0, 0). As CMP
  -- words: 1 -> 1023 (clamped), -1 -> -1024 (0x400 in 11 bits).
  local island = {
    { { 5, 0 }, { 0, 0 } }, { { 7, 0 }, { 1, 0 } }, { { 7, 1 }, { 1, 1 } },
    { { 5, 0 }, { 0, 0 } }, { { 7, 1 }, { 1, 1 } }, { { 5, 1 }, { 0, 1 } },
    { { 8, 0 }, { 1, 0 } }, { { 10, 0 }, { 0, 0 } }, { { 10, 1 }, { 0, 1 } },
    { { 8, 0 }, { 1, 0 } }, { { 10, 1 }, { 0, 1 } }, { { 8, 1 }, { 1, 1 } },
    { { 11, 0 }, { 0.5, 0.5 } }, { { 12, 0 }, { 0.5, 0.5 } },
    { { 12, 1 }, { 0.5, 0.5 } } }
  local ISLAND_AB = { { 1023, 1023 << 11 }, { 0x400, 1023 << 11 },
    { 0x400 << 11, 0x400 } }
  local BASE_CORNERS = { 1, 2, 3, 1, 3, 4, 5, 7, 8, 5, 8, 6 }
  -- tangent(c): corner c's TANGENT (xyzw), or nil for none
  local function islands(dir, tangent, no_uv)
    return edited_from(text, bin0, "seam", dir, function(doc, bin)
      local prim = doc.meshes[1].primitives[1]
      local pos, uv, nrm, tan = {}, {}, {}, {}
      local n = #BASE_CORNERS + #island
      for c = 1, n do
        local v = BASE_CORNERS[c]
        local p = v and SEAM_POS[v] or island[c - #BASE_CORNERS][1]
        local u = v and SEAM_UV[v] or island[c - #BASE_CORNERS][2]
        table.move({ p[1], p[2], 0 }, 1, 3, #pos + 1, pos)
        table.move({ u[1], u[2] }, 1, 2, #uv + 1, uv)
        table.move({ 0, 0, 1 }, 1, 3, #nrm + 1, nrm)
        if tangent then table.move(tangent(c), 1, 4, #tan + 1, tan) end
      end
      local a = prim.attributes
      a._TANGENT_A, a._TANGENT_B, a.TANGENT = nil, nil, nil
      bin, a.POSITION = append(doc, bin, floats(pos),
        { componentType = 5126, count = n, type = "VEC3" })
      doc.accessors[a.POSITION + 1].min = { 0, 0, 0 }
      doc.accessors[a.POSITION + 1].max = { 12, 1, 0 }
      bin, a.NORMAL = append(doc, bin, floats(nrm), { componentType = 5126,
        count = n, type = "VEC3" })
      bin, a.TEXCOORD_0 = append(doc, bin, floats(uv),
        { componentType = 5126, count = n, type = "VEC2" })
      if no_uv then a.TEXCOORD_0 = nil end
      if tangent then
        bin, a.TANGENT = append(doc, bin, floats(tan),
          { componentType = 5126, count = n, type = "VEC4" })
      end
      local idx = {}
      for c = 1, n do idx[c] = c - 1 end
      bin, prim.indices = append(doc, bin, string.pack("<" .. ("H"):rep(n),
        table.unpack(idx)), { componentType = 5123, count = n,
        type = "SCALAR" })
      return bin
    end)
  end
  local function want_mgp()
    local want = {}
    for c, v in ipairs(BASE_CORNERS) do
      want[c] = string.pack(">I4I4HH", v, v << 11, HALF[SEAM_UV[v][1]],
        HALF[SEAM_UV[v][2]])
    end
    for k, corner in ipairs(island) do
      local ab = ISLAND_AB[(k - 1) // 6 + 1]
      want[#want + 1] = string.pack(">I4I4HH", ab[1], ab[2],
        HALF[corner[2][1]], HALF[corner[2][2]])
    end
    return table.concat(want)
  end
  local out3, b3, m3 = import_onto("seam", islands("seam-islands"),
    "seam3", "new islands, no tangents")
  t.ok(m3 and m3:stream("mgp") == want_mgp(), "islands: A and B computed"
    .. " from the UVs (mirrored too), the base's vertices' their own")
  t.like(out3, "derived: tangent A: each vertex's base vertex's, and 15 new"
    .. " vertices' with no base vertex at or beside them %(13%-27%) computed"
    .. " from TEXCOORD_0, NORMAL and the positions with MikkTSpace's"
    .. " convention; vertices 25%-27 with no UV area around them: a"
    .. " direction across the normal %(no _TANGENT_A%)",
    "the report names the vertices computed and those across N")
  if b3 then b3:close() end
  -- the same from a TANGENT written as Blender writes it (its w the
  -- opposite of gltf-export's: the base vertices' A is +x and B +y, and
  -- (0, 0, 1) x (1, 0, 0) = +y, so Blender's w is -1 there): the
  -- islands' taken as they are, the base's vertices' still their base
  -- vertices'. Then with every w the other way, as an editor that kept
  -- gltf-export's TANGENT would write it: the same A and B.
  local TAN = { { 1, 0, 0, -1 }, { -1, 0, 0, 1 }, { 0, -1, 0, 1 } }
  local function blender_tangent(c)
    return c <= #BASE_CORNERS and { 1, 0, 0, -1 }
      or TAN[(c - #BASE_CORNERS - 1) // 6 + 1]
  end
  local out4, b4, m4 = import_onto("seam", islands("seam-tangent",
    blender_tangent), "seam4", "new islands, TANGENT")
  t.ok(m4 and m4:stream("mgp") == want_mgp(), "islands: A and B from"
    .. " TANGENT, B turned to the game's way")
  t.like(out4, "and 15 new vertices' with no base vertex at or beside them"
    .. " %(13%-27%) from TANGENT %(its w read as MikkTSpace's, Blender's:"
    .. " against the base's B at 12 of 12 paired vertices%)",
    "the report: from TANGENT, read as Blender's, and why")
  if b4 then b4:close() end
  local out7, b7, m7 = import_onto("seam", islands("seam-kept",
    function(c)
      local v = blender_tangent(c)
      return { v[1], v[2], v[3], -v[4] }
    end), "seam7", "new islands, gltf-export's TANGENT")
  t.ok(m7 and m7:stream("mgp") == want_mgp(), "islands: A and B from"
    .. " TANGENT with gltf-export's w: the same")
  t.like(out7, "from TANGENT %(its w read as gltf%-export's: it gives the"
    .. " base's B at 12 of 12 paired vertices%)", "the report says how")
  if b7 then b7:close() end
  -- a TANGENT or NORMAL not finite: refused, naming the vertex
  local function nan_tangent(c)
    return c == 20 and { 0 / 0, 0, 0, 1 } or blender_tangent(c)
  end
  local c5, _, e5 = run("gltf-import", islands("seam-nan", nan_tangent),
    "--base", at("seam.rsxb"), "-o", at("seam5.rsxb"))
  local c8, _, e8 = run("gltf-import", islands("seam-no-uv", nil, true),
    "--base", at("seam.rsxb"), "-o", at("seam8.rsxb"))
  t.is(c8, 1, "islands, no TANGENT and no TEXCOORD_0: refused")
  t.like(e8, "seam%.gltf: mesh 1 %(seam%): vertex 13: no vertex of the base"
    .. " lies at its position or beside it, and the glTF has no _TANGENT_A,"
    .. " no TANGENT and no TEXCOORD_0 to make its tangent vectors of\n",
    "... naming the first such vertex and what is missing")
  t.is(c5, 1, "a NaN in TANGENT: refused")
  t.like(e5, "seam%.gltf: mesh 1 %(seam%): vertex 20: TANGENT %(%-?nan, 0,"
    .. " 0, 1%) or NORMAL %(0, 0, 1%) is not finite",
    "... naming the file, the mesh, the vertex and the values")
end

-- panel rebuilt as Blender writes a mesh: a vertex per corner (corners:
-- the base vertex, 0-based, of each), u16 indices 0 1 2 ..., no "_"
-- attribute and no TANGENT. change(name, c, bytes) gives corner c's new
-- bytes of attribute name, or nil to keep them; kind(name, a) the new
-- accessor's componentType, type and normalized (default a's own).
local function rebuilt(dir, corners, change, kind)
  return edited(dir, function(doc, bin)
    local prim = panel_of(doc).primitives[1]
    local attrs = prim.attributes
    for name in pairs(attrs) do
      if name:sub(1, 1) == "_" or name == "TANGENT" then attrs[name] = nil end
    end
    local names = {}
    for name in pairs(attrs) do names[#names + 1] = name end
    table.sort(names)
    local function add(bytes, a)
      local i
      bin, i = append(doc, bin, bytes, { componentType = a.componentType,
        count = #corners, type = a.type, normalized = a.normalized })
      return i
    end
    for _, name in ipairs(names) do
      local a = doc.accessors[attrs[name] + 1]
      local parts = element_bytes(doc, bin, a, corners)
      for c in ipairs(corners) do
        parts[c] = change(name, c, parts[c]) or parts[c]
      end
      attrs[name] = add(table.concat(parts), kind and kind(name, a) or a)
    end
    local list = {}
    for c = 1, #corners do list[c] = c - 1 end
    prim.indices = add(string.pack("<" .. ("H"):rep(#corners),
      table.unpack(list)), { componentType = 5123, type = "SCALAR" })
    return bin
  end)
end

-- ------------------------------------------------- left as it was

-- What Blender does to a mesh nobody edited: a vertex per corner, the
-- triangles in another order and from other corners (panel's 0 1 2, 0 2 3
-- as 2 3 0, 1 2 0: corners 2 3 0 1 2 0), normals re-derived (here
-- (0, 0.03, 0.99955), off the base's (0, 0, 1)), COLOR_0 as normalised
-- unsigned shorts of other values, u16 indices, no _ attribute, no
-- TANGENT. Its positions and UVs are the base's, corner for corner (the
-- UVs as halves, as the base stores them): the bundle as it was, byte for
-- byte. A u of 1 + 2^-12 (halves 0x3C00 and 0x3C01 lie 2^-10 apart: it
-- rounds to 1's half) leaves it so too; a u of 1 + 2^-10 (0x3C01), or an
-- x of 1 + 2^-23 (the next float32 after 1), is an edit.
do
  local CORNERS = { 2, 3, 0, 1, 2, 0 }
  -- tweak: { name = attribute, corner = 1-based, value = bytes }
  local function rederived(dir, tweak)
    return rebuilt(dir, CORNERS, function(name, c)
      if tweak and tweak.name == name and tweak.corner == c then
        return tweak.value
      elseif name == "NORMAL" then
        return string.pack("<fff", 0, 0.03, 0.99955)
      elseif name == "COLOR_0" then
        return string.pack("<HHHH", 1000 * c, 2000, 3000, 65535)
      end
    end, function(name, a)
      return name == "COLOR_0" and { componentType = 5123, type = "VEC4",
        normalized = true } or a
    end)
  end
  code, out, err = import(rederived("rederived"), at("rederived.rsxb"),
    "--report")
  t.is(code, 0, "re-derived normals and colours, split vertices: imports")
  if code ~= 0 then t.diag(err) end
  t.ok(read_file(at("rederived.rsxb")) == ORIGINAL,
    "... the bundle as it was, byte for byte")
  t.like(out, "mesh 1 %(panel%): unchanged", "... panel reported unchanged")
  -- corner 4 is base vertex 1, (1, 0, 0), UV0 (1, 0) (glTF: as stored)
  code, out, err = import(rederived("half-close", { name = "TEXCOORD_0",
    corner = 4, value = string.pack("<ff", 1 + 2^-12, 0) }),
    at("half-close.rsxb"), "--report")
  t.ok(code == 0 and read_file(at("half-close.rsxb")) == ORIGINAL,
    "a u of 1 + 2^-12 (1's half is nearest): the bundle as it was")
  code, out, err = import(rederived("half-off", { name = "TEXCOORD_0",
    corner = 4, value = string.pack("<ff", 1 + 2^-10, 0) }),
    at("half-off.rsxb"), "--report")
  t.ok(code == 0 and read_file(at("half-off.rsxb")) ~= ORIGINAL,
    "a u of 1 + 2^-10 (half 0x3C01): an edit")
  t.like(out, "mesh 1 %(panel%): changed %(submesh 1: the positions or UVs"
    .. " of its triangles%)", "... reported changed, and why")
  code, out, err = import(rederived("x-ulp", { name = "POSITION",
    corner = 4, value = string.pack("<fff", 1 + 2^-23, 0, 0) }),
    at("x-ulp.rsxb"), "--report")
  if code ~= 0 then t.diag(err) end
  t.ok(code == 0 and read_file(at("x-ulp.rsxb")) ~= ORIGINAL,
    "an x of 1 + 2^-23, the next float32 after 1: an edit")

  -- The same edit onto other.rsxb (above: another writer's layout, its
  -- string table after the data): panel's streams grow (6 vertices, one
  -- per corner) and go after the base's end; its old places are zeroed;
  -- its index buffer (6 u16, as the base's) is rewritten in place; every
  -- other byte, rail's parts, the tables', the strings', the gaps', is
  -- the base's. Where each part lies is read here from the base's header
  -- and mesh entries.
  local base = assert(read_file(at("other.rsxb")))
  code, _, err = run("gltf-import", rederived("x-ulp-other", { name =
    "POSITION", corner = 4, value = string.pack("<fff", 1 + 2^-23, 0, 0) }),
    "--base", at("other.rsxb"), "-o", at("x-ulp-other.rsxb"))
  t.is(code, 0, "another layout, panel's vertices split: imports")
  if code ~= 0 then t.diag(err) end
  local new = read_file(at("x-ulp-other.rsxb")) or ""
  local function u32(s, off) return (string.unpack(">I4", s, off + 1)) end
  local mesh_table = u32(base, 0x10)
  local panel_e = mesh_table -- panel is mesh 1
  local vc, mmp_stride, mgp_stride = u32(base, panel_e + 0x0C),
    u32(base, panel_e + 0x14), u32(base, panel_e + 0x1C)
  local changed = { -- [at, at + size) of what may differ
    { 8, 4 }, -- the file size
    { panel_e, 64 }, -- panel's mesh entry
    { u32(base, panel_e + 0x10), vc * mmp_stride },
    { u32(base, panel_e + 0x18), vc * mgp_stride },
    { u32(base, panel_e + 0x20),
      u32(base, panel_e + 0x24) * base:byte(panel_e + 0x28 + 1) },
  }
  local function blank(s)
    for _, c in ipairs(changed) do
      s = s:sub(1, c[1]) .. ("\0"):rep(c[2]) .. s:sub(c[1] + c[2] + 1)
    end
    return s
  end
  t.ok(#new > #base and blank(new:sub(1, #base)) == blank(base),
    "... every byte the base's but panel's entry, streams and indices,"
    .. " and the file size")
  t.ok(new:sub(changed[3][1] + 1, changed[3][1] + changed[3][2])
    == ("\0"):rep(changed[3][2]) and new:sub(changed[4][1] + 1,
    changed[4][1] + changed[4][2]) == ("\0"):rep(changed[4][2]),
    "... panel's old MMP and MGP places zeroed")
  t.ok(u32(new, panel_e + 0x10) >= #base and u32(new, panel_e + 0x18)
    >= #base and u32(new, panel_e + 0x20) == changed[5][1],
    "... its new streams after the base's end, its indices in place")
  t.like(err, "%(laid out as the base, " .. (#new - #base)
    .. " bytes after its end%)", "... and the summary says how much grew")
  local nb = rsxmesh.load(new, "x-ulp-other.rsxb")
  local panel = nb and nb:mesh("panel")
  t.ok(panel and panel.vertex_count == 6
    and select(1, panel:attribute("position"):get(4)) == 1 + 2^-23
    and nb:mesh("rail"):index_bytes() == RAIL_INDICES,
    "... panel reads back with its 6 vertices and the new x, rail as it was")
end

-- ------------------------------------------------------------ turned

-- panel turned 90 degrees about y and the turn applied, as Blender writes
-- it: a vertex per corner (0 1 2 0 2 3), positions (x, y, z) -> (z, y, -x),
-- NORMAL the turned (1, 0, 0), no tangents. The transform fitted to the
-- positions (with the normals, panel being flat) turns the base's A and
-- B: A (512*32/32767 = 0.5, 0, 0) becomes (0, 0, -0.5), its length kept:
-- CMP z = -0.5 * 32767 / 64 = -255.99 -> -256, ten bits 0x300 at bit 22:
-- 0xC0000000; B (0, 1023*32/32767, 0) stays B_Y. Positions: panel's
-- (0,0,0) (1,0,0) (1,1,0) (0,1,0) become (0,0,0) (0,0,-1) (0,1,-1)
-- (0,1,0).
do
  local ORDER = { 0, 1, 2, 0, 2, 3 }
  local g = rebuilt("turned", ORDER, function(name, _, bytes)
    if name == "POSITION" then
      local x, y, z = string.unpack("<fff", bytes)
      return string.pack("<fff", z, y, -x)
    elseif name == "NORMAL" then
      return string.pack("<fff", 1, 0, 0)
    end
  end)
  code, out, err = import(g, at("turned.rsxb"), "--report")
  t.is(code, 0, "panel turned and applied, a vertex per corner: imports")
  if code ~= 0 then t.diag(err) end
  local b = rsxmesh.open(at("turned.rsxb"))
  local m = b and b:mesh("panel")
  local want_a, want_b, want_p = {}, {}, {}
  -- (-x of 0 is -0, as the edit wrote it)
  local TURNED = { { 0, 0, -0.0 }, { 0, 0, -1 }, { 0, 1, -1 },
    { 0, 1, -0.0 } }
  for c, k in ipairs(ORDER) do
    want_a[c] = string.pack(">I4", 0xC0000000)
    want_b[c] = string.pack(">I4", B_Y)
    want_p[c] = string.pack(">fff", table.unpack(TURNED[k + 1]))
  end
  local got_a, got_b, got_p = {}, {}, {}
  for c = 1, m and m.vertex_count or 0 do
    local rec = m:stream("mgp"):sub(24 * c - 23, 24 * c)
    got_a[c], got_b[c] = rec:sub(5, 8), rec:sub(9, 12)
    got_p[c] = m:stream("mmp"):sub(16 * c - 15, 16 * c - 4)
  end
  t.is(table.concat(got_p), table.concat(want_p),
    "turned: the positions (z, y, -x) of each corner")
  t.is(table.concat(got_a), table.concat(want_a),
    "turned: A turned with them, 0xC0000000 (0, 0, -0.5), its length kept")
  t.is(table.concat(got_b), table.concat(want_b), "turned: B (along y) as"
    .. " it was")
  t.like(out, "derived: tangent A: each vertex's base vertex's, turned by"
    .. " the transform fitted to 6 vertices' positions %(no _TANGENT_A%)",
    "turned: the report says how A and B were made")
  if b then b:close() end
end

-- ------------------------------------------------------------ renumbered

-- "quad": vertices (0, 0), (1, 0), (1, 1), (0, 1) in z = 0, UVs the same
-- numbers, vertex v's A the CMP word v and its B v << 11; triangles
-- (0-based) 0 1 2, 0 2 3. Its export with the vertices renumbered, as
-- many as before: glTF vertex k is base vertex P[k] (0-based), so base 0
-- 1 2 3 are glTF 1 3 0 2 and the triangles glTF 1 3 0, 1 0 2; no tangents.
-- The counts say nothing of the order: each glTF vertex keeps the A and B
-- of the base vertex it is, so A 3 1 4 2 and B 3 1 4 2 << 11, and its
-- position, UVs (halves: 0 0x0000, 1 0x3C00) and N_UP come with it. (The
-- base's A and B were kept in the base's order, 1 2 3 4.)
do
  local POS = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } }
  local HALF = { [0] = 0x0000, [1] = 0x3C00 }
  local P = { 2, 0, 3, 1 }
  local mmp, mgp = {}, {}
  for v = 1, 4 do
    local x, y = POS[v][1], POS[v][2]
    mmp[v] = string.pack(">fffI4", x, y, 0, N_UP)
    mgp[v] = string.pack(">I4I4HH", v, v << 11, HALF[x], HALF[y])
  end
  local _, text, bin0 = exported_bundle("quad", { {
    name = "quad", meta = meta(0x0008003D), vertex_count = 4,
    mmp = table.concat(mmp), mmp_stride = 16, mgp = table.concat(mgp),
    mgp_stride = 12, index_size = 2,
    indices = string.pack(">HHHHHH", 0, 1, 2, 0, 2, 3),
    submeshes = { { record = record(0x00FFFFFF), first_index = 0,
      index_count = 6 } } } })
  local COMP = { VEC2 = 2, VEC3 = 3, VEC4 = 4 }
  -- lift: glTF vertex 1 (base vertex 2, at (1, 1)) raised to z = 0.5, an
  -- edit; without it the positions and UVs are the base's, triangle for
  -- triangle, and the mesh is left as it was
  local function renumbered(dir, lift)
    return edited_from(text, bin0, "quad", dir, function(doc, bin)
    local prim = doc.meshes[1].primitives[1]
    local a = prim.attributes
    a._TANGENT_A, a._TANGENT_B, a.TANGENT = nil, nil, nil
    local names = {}
    for name in pairs(a) do names[#names + 1] = name end
    table.sort(names)
    for _, name in ipairs(names) do
      local acc = doc.accessors[a[name] + 1]
      assert(acc.componentType == 5126, name .. " is not float")
      local view = doc.bufferViews[acc.bufferView + 1]
      local size = 4 * COMP[acc.type]
      local stride = view.byteStride or size
      local at0 = view.byteOffset + (acc.byteOffset or 0)
      local parts = {}
      for k = 1, 4 do
        local o = at0 + P[k] * stride
        parts[k] = bin:sub(o + 1, o + size)
      end
      if lift and name == "POSITION" then
        parts[1] = parts[1]:sub(1, 8) .. string.pack("<f", 0.5)
      end
      local i
      bin, i = append(doc, bin, table.concat(parts), { componentType = 5126,
        count = 4, type = acc.type })
      doc.accessors[i + 1].min, doc.accessors[i + 1].max = acc.min, acc.max
      a[name] = i
    end
    bin, prim.indices = append(doc, bin, string.pack("<HHHHHH", 1, 3, 0, 1,
      0, 2), { componentType = 5123, count = 6, type = "SCALAR" })
    return bin
    end)
  end
  local o, b, m = import_onto("quad", renumbered("quad-same"), "quad-same",
    "vertices renumbered, as many, no tangents, nothing moved")
  t.ok(m and m:stream("mgp") == table.concat(mgp) and m:stream("mmp")
    == table.concat(mmp) and m:index_bytes() == string.pack(">HHHHHH", 0, 1,
    2, 0, 2, 3), "renumbered, nothing moved: the base's bytes, all of them")
  t.like(o, "mesh 1 %(quad%): unchanged", "... and reported unchanged")
  if b then b:close() end
  o, b, m = import_onto("quad", renumbered("quad-p", true), "quad-p",
    "vertices renumbered, as many, no tangents, one moved")
  local want_mmp, want_mgp = {}, {}
  for k = 1, 4 do
    want_mmp[k], want_mgp[k] = mmp[P[k] + 1], mgp[P[k] + 1]
  end
  want_mmp[1] = string.pack(">fffI4", 1, 1, 0.5, N_UP)
  t.ok(m and m:stream("mgp") == table.concat(want_mgp), "renumbered: each"
    .. " vertex's A and B (3 1 4 2) and UVs those of the base vertex it is")
  t.ok(m and m:stream("mmp") == table.concat(want_mmp),
    "renumbered: each vertex's position (glTF vertex 1 at z 0.5) and normal"
    .. " too")
  t.is(m and m:index_bytes(), string.pack(">HHHHHH", 1, 3, 0, 1, 0, 2),
    "renumbered: the glTF's triangles, u16")
  t.like(o, "kept from the base: tangent A %(no _TANGENT_A or TANGENT%),"
    .. " tangent B %(no _TANGENT_B or TANGENT%);", "renumbered: A and B"
    .. " kept, no guess")
  if b then b:close() end
end

-- ------------------------------------------------------------ values

-- NORMAL (0.6, 0.8, 0) on every vertex: CMP x = 0.6 * 32767 / 32 =
-- 614.37 -> 614 (0x266), y = 0.8 * 32767 / 32 = 819.18 -> 819 (0x333),
-- z 0: the word 0x266 | 0x333 << 11 = 0x00199A66.
do
  local g = edited("normal", function(doc, bin)
    local prim = panel_of(doc).primitives[1]
    local i
    bin, i = append(doc, bin, floats({ 0.6, 0.8, 0, 0.6, 0.8, 0, 0.6, 0.8, 0,
      0.6, 0.8, 0 }), { componentType = 5126, count = 4, type = "VEC3" })
    prim.attributes.NORMAL = i
    return bin
  end)
  code, out, err = import(g, at("normal.rsxb"), "--report")
  t.is(code, 0, "NORMAL edited: imports")
  if code ~= 0 then t.diag(err) end
  t.ok(read_file(at("normal.rsxb")) == with_part(panel_mmp(0),
    panel_mmp(0, 0x00199A66)), "NORMAL (0.6, 0.8, 0): CMP 0x00199A66")
  t.like(out, "mesh 1 %(panel%): changed; changed: normals\n",
    "... reported as the only change")
end

-- COLOR_0 in each component type glTF allows, every vertex the same:
-- float (1, 0.5, 0.25, 0) -> 255, 127.5 -> 128, 63.75 -> 64, 0; as VEC3
-- the alpha is 255; normalised ushorts (65535, 32768, 16384, 0) are
-- 1, 0.500008, 0.250004, 0 -> the same bytes.
do
  local function colour_edit(dir, bytes, a)
    return edited(dir, function(doc, bin)
      local i
      bin, i = append(doc, bin, bytes, a)
      panel_of(doc).primitives[1].attributes.COLOR_0 = i
      return bin
    end)
  end
  local cases = {
    { "float VEC4", floats({ 1, 0.5, 0.25, 0, 1, 0.5, 0.25, 0, 1, 0.5, 0.25,
      0, 1, 0.5, 0.25, 0 }), { componentType = 5126, type = "VEC4" },
      "\255\128\64\0" },
    { "float VEC3", floats({ 1, 0.5, 0.25, 1, 0.5, 0.25, 1, 0.5, 0.25, 1,
      0.5, 0.25 }), { componentType = 5126, type = "VEC3" },
      "\255\128\64\255" },
    { "normalised ushort VEC4", string.rep(string.pack("<HHHH", 65535, 32768,
      16384, 0), 4), { componentType = 5123, type = "VEC4",
      normalized = true }, "\255\128\64\0" },
  }
  for k, case in ipairs(cases) do
    case[3].count = 4
    local g = colour_edit("colour" .. k, case[2], case[3])
    code, out, err = import(g, at("colour" .. k .. ".rsxb"), "--report")
    t.is(code, 0, "COLOR_0 as " .. case[1] .. ": imports")
    if code ~= 0 then t.diag(err) end
    t.ok(read_file(at("colour" .. k .. ".rsxb")) == with_part(
      panel_mgp(A_HALF), panel_mgp(A_HALF, case[4])), "COLOR_0 as "
      .. case[1] .. ": the bytes " .. case[4]:byte(1) .. " "
      .. case[4]:byte(2) .. " " .. case[4]:byte(3) .. " " .. case[4]:byte(4))
  end
  -- the base's colours as normalised ushorts, byte * 257 (so / 65535 is
  -- byte / 255): the same bytes again, so no change to report
  local u = {}
  for v = 1, 4 do
    for c = 1, 4 do u[#u + 1] = PANEL_COLOUR[v]:byte(c) * 257 end
  end
  local g = colour_edit("colour-same", string.pack("<" .. ("H"):rep(16),
    table.unpack(u)), { componentType = 5123, type = "VEC4", count = 4,
    normalized = true })
  code, out = import(g, at("colour-same.rsxb"), "--report")
  t.ok(read_file(at("colour-same.rsxb")) == ORIGINAL,
    "COLOR_0 as ushorts that round to the base's bytes: the bundle as it was")
  t.like(out, "mesh 1 %(panel%): unchanged\n", "... and no change reported")
end

-- ------------------------------------------------------------ order

-- panel's two triangles (0 1 2, 0 2 3) in the other order, each from
-- another corner (2 3 0, 1 2 0): the same triangles, the same winding, so
-- the base's index buffer stays. Wound the other way (0 2 1, 0 3 2) they
-- are other triangles: a new list, those indices.
do
  local function order_edit(dir, list)
    return edited(dir, function(doc, bin)
      local i
      bin, i = append(doc, bin, string.pack("<" .. ("I4"):rep(6),
        table.unpack(list)), { componentType = 5125, count = 6,
        type = "SCALAR" })
      panel_of(doc).primitives[1].indices = i
      return bin
    end)
  end
  code, out = import(order_edit("order", { 2, 3, 0, 1, 2, 0 }),
    at("order.rsxb"), "--report")
  t.ok(read_file(at("order.rsxb")) == ORIGINAL,
    "triangles in another order, from other corners: the bundle as it was")
  t.like(out, "mesh 1 %(panel%): unchanged[^\n]*\n",
    "... and reported unchanged")
  code, out = import(order_edit("wound", { 0, 2, 1, 0, 3, 2 }),
    at("wound.rsxb"), "--report")
  local b = rsxmesh.open(at("wound.rsxb"))
  t.is(b and b:mesh("panel"):index_bytes(), string.pack(">HHHHHH", 0, 2, 1,
    0, 3, 2), "wound the other way: a list of those triangles")
  if b then b:close() end
end

-- ------------------------------------------------------------ bits

-- "bits": mask 0x00081E01, position, extras A and B, bits 11 and 12, the
-- MGP a record of 28 bytes per vertex (A 8, B 8, S32K2 4, HALF4 8), all
-- zero; and an unnamed mesh, which reports name as the core does.
do
  local mmp = string.pack(">fffI4fffI4fffI4", 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
    0, 0)
  local bits, text, bin0 = exported_bundle("bits", {
    { name = "bits", meta = meta(0x00081E01), vertex_count = 3, mmp = mmp,
      mmp_stride = 16, mgp = string.rep("\0", 84), mgp_stride = 28,
      indices = string.pack(">HHH", 0, 1, 2), index_size = 2,
      submeshes = { { record = record(0xFFFFFFFF), first_index = 0,
        index_count = 3 } } },
    { meta = meta(0x00080001), vertex_count = 3, mmp = mmp, mmp_stride = 16,
      indices = string.pack(">HHH", 0, 1, 2), index_size = 2,
      submeshes = { { record = record(0xFFFFFFFF), first_index = 0,
        index_count = 3 } } } })
  local function bits_edit(dir, columns)
    return edited_from(text, bin0, "bits", dir, function(doc, bin)
      local a = doc.meshes[1].primitives[1].attributes
      for name, list in pairs(columns) do
        bin, a[name] = append(doc, bin, floats(list), { componentType = 5126,
          count = 3, type = #list == 6 and "VEC2" or "VEC4" })
      end
      return bin
    end)
  end
  local function bits_import(g, name)
    return run("gltf-import", g, "--base", at("bits.rsxb"), "-o",
      at(name .. ".rsxb"), "--report")
  end
  local c, o = bits_import(bits_edit("bits-same", {}), "bits-same")
  t.is(c, 0, "bits: the export imports")
  t.is(o, "mesh 1 (bits): unchanged\nmesh 2: unchanged\n",
    "an unnamed mesh is \"mesh 2\" in the report, as the core names it")
  -- halves by hand: 0.5 0x3800, -0.25 0xB400 (the sign bit), 2 0x4000,
  -- 0.1 0x2E66 (2^-4 * 1.6: exponent 11, mantissa 0.6 * 1024 = 614.4 ->
  -- 614 = 0x266), 65504 0x7BFF (the largest); S32K2 3 0x0003, -4 0xFFFC,
  -- -32768 0x8000, 32767 0x7FFF
  local e = bits_edit("bits-edit", {
    _EXTRA_A = { 0.5, -0.25, 2, 0.1, 65504, 0, 0, 0, 0, 0, 0, 0 },
    _EXTRA_B = { 0.1, 65504, 0.5, -0.25, 0, 0, 0, 0, 0, 0, 0, 2 },
    _S32K2 = { 3, -4, -32768, 32767, 0, 0 },
    _HALF4 = { 2, 0.5, -0.25, 0.1, 0, 0, 0, 0, 0, 0, 65504, 0 } })
  c, o = bits_import(e, "bits-edit")
  t.is(c, 0, "bits: _EXTRA_A, _EXTRA_B, _S32K2 and _HALF4 edited: imports")
  local want = string.pack(">HHHHHHHHhhHHHH",
      0x3800, 0xB400, 0x4000, 0x2E66, 0x2E66, 0x7BFF, 0x3800, 0xB400, 3, -4,
      0x4000, 0x3800, 0xB400, 0x2E66)
    .. string.pack(">HHHHHHHHhhHHHH", 0x7BFF, 0, 0, 0, 0, 0, 0, 0, -32768,
      32767, 0, 0, 0, 0)
    .. string.pack(">HHHHHHHHhhHHHH", 0, 0, 0, 0, 0, 0, 0, 0x4000, 0, 0,
      0, 0, 0x7BFF, 0)
  -- the new bundle holds want where the base has its MGP (84 zero bytes
  -- among others: found from the new side)
  local new = read_file(at("bits-edit.rsxb")) or ""
  local i = new:find(want, 1, true)
  t.ok(i and new:sub(1, i - 1) .. string.rep("\0", 84) .. new:sub(i + 84)
    == bits, "bits: the halves and integers worked out by hand, all else"
    .. " kept")
  t.like(o, "changed: extras A, extras B, bit 11, bit 12\n",
    "... and reported")
  -- values the stored types cannot hold: refused, naming the vertex
  local function bad(name, columns, pattern, what)
    local c2, _, e2 = bits_import(bits_edit(name, columns), name)
    t.is(c2, 1, what .. ": exit status 1")
    t.like(e2, name:gsub("%p", "%%%0") .. "/bits%.gltf: mesh 1 %(bits%): "
      .. pattern, what
      .. ": the message")
    t.is(read_file(at(name .. ".rsxb")), nil, what .. ": nothing written")
  end
  bad("s32k-half", { _S32K2 = { 0, 0, 1.5, 0, 0, 0 } }, "vertex 2: _S32K2"
    .. " %(1%.5, 0%): 1%.5 is not an integer of %-32768%.%.32767",
    "_S32K2 1.5")
  bad("s32k-big", { _S32K2 = { 0, 0, 0, 0, 0, 32768 } }, "vertex 3: _S32K2"
    .. " %(0, 32768%): 32768 is not an integer of %-32768%.%.32767",
    "_S32K2 32768")
  -- 65520 lies halfway between 65504 and 65536 (2^16, past the largest
  -- exponent): the tie goes to the even, infinity
  bad("extra-inf", { _EXTRA_A = { 0, 0, 0, 0, 0, 0, -65520, 0, 0, 0, 0, 0 } },
    "vertex 2: _EXTRA_A %(0, 0, %-65520, 0%): %-65520 is past the largest"
    .. " half, 65504", "_EXTRA_A -65520")
  bad("half-inf", { _HALF4 = { 1e6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 } },
    "vertex 1: _HALF4 %(1000000, 0, 0, 0%): 1000000 is past the largest"
    .. " half, 65504", "_HALF4 1e6")
end

-- ------------------------------------------------------------ bad input

do
  assert(os.execute("mkdir -p " .. sh_quote(at("json"))))
  write_file(at("json/edit.gltf"), '{ "asset": { "version": "2.0" }, ')
  refused("json", at("json/edit.gltf"), "json/edit%.gltf: JSON parse"
    .. " error: ", "a JSON parse error")
end

do
  local g = edited("nobin", function() end)
  os.remove(at("nobin/edit.bin"))
  refused("nobin", g, "nobin/edit%.gltf: buffer 0 %(edit%.bin%): [^\n]*No"
    .. " such file", "a missing .bin")
end

refused("bounds", edited("bounds", function(doc)
  doc.accessors[panel_of(doc).primitives[1].attributes.POSITION + 1].count
    = 1000
end), "bounds/edit%.gltf: mesh 1 %(panel%): primitive 1: POSITION"
  .. " %(accessor 0%): count 1000: elements of 12 bytes from byteOffset 0"
  .. " run past the"
  .. " end of buffer view 0 %(48 bytes%)", "an accessor out of bounds")

refused("type", edited("type", function(doc)
  doc.accessors[panel_of(doc).primitives[1].attributes.NORMAL + 1].type
    = "VEC2"
end), "type/edit%.gltf: mesh 1 %(panel%): primitive 1: NORMAL %(accessor"
  .. " %d+%): type VEC2 where VEC3 is wanted", "a wrong type")

refused("count", edited("count", function(doc)
  doc.accessors[panel_of(doc).primitives[1].attributes.COLOR_0 + 1].count
    = 3
end), "count/edit%.gltf: mesh 1 %(panel%): primitive 1: COLOR_0"
  .. " %(accessor %d+%): count 3 where POSITION has 4", "a wrong count")

refused("mode", edited("mode", function(doc)
  panel_of(doc).primitives[1].mode = 5
end), "mode/edit%.gltf: mesh 1 %(panel%): primitive 1: mode 5 %(triangle"
  .. " strip%) is not a triangle list", "a non-triangle mode")

refused("sparse", edited("sparse", function(doc, bin)
  -- two sparse indices, 1 then 0: not increasing
  local a = doc.accessors[panel_of(doc).primitives[1].attributes.POSITION
    + 1]
  doc.bufferViews[#doc.bufferViews + 1] = { buffer = 0,
    byteOffset = #bin, byteLength = 4 }
  doc.bufferViews[#doc.bufferViews + 1] = { buffer = 0,
    byteOffset = #bin + 4, byteLength = 24 }
  a.sparse = { count = 2,
    indices = { bufferView = #doc.bufferViews - 2, componentType = 5123 },
    values = { bufferView = #doc.bufferViews - 1 } }
  local out = bin .. string.pack("<HH", 1, 0) .. string.rep("\0", 24)
  doc.buffers[1].byteLength = #out
  return out
end), "sparse/edit%.gltf: mesh 1 %(panel%): primitive 1: POSITION"
  .. " %(accessor 0%): sparse index 1 is 0: indices must increase",
  "a bad sparse accessor")

-- An accessor without a buffer view is zeros (glTF allows it), but no
-- bytes of the file back them: a count of 2^40 is refused before 12 TiB
-- of zeros are asked for (it was a Lua traceback, "resulting string too
-- large"; 2^26 took 6 GB and half a minute).
refused("zeros", edited("zeros", function(doc)
  local a = doc.accessors[panel_of(doc).primitives[1].attributes.POSITION
    + 1]
  a.bufferView, a.byteOffset, a.count = nil, nil, 1 << 40
end), "zeros/edit%.gltf: mesh 1 %(panel%): primitive 1: POSITION %(accessor"
  .. " 0%): count 1099511627776: elements of 12 bytes without a buffer view:"
  .. " more"
  .. " zeros than the file's buffers hold %(%d+ bytes%)",
  "zeros without a buffer view, a hostile count")

-- Hostile numbers that a product or sum would overflow (a random test
-- found them: a count of 2^61 or 2^62 was "not enough memory", a
-- byteStride of 2^62 a Lua traceback): each refused, naming the accessor
-- and the field.
-- (lua-cjson writes 14 digits: 2^61 and 2^62 go in as 987654321 and
-- 987654323, which no field here holds, replaced in the text by the
-- exact integers)
local HUGE_61, HUGE_62 = 987654321, 987654323
local function hostile(name, change, pattern, what)
  local g = edited(name, function(doc)
    local i = panel_of(doc).primitives[1].attributes.POSITION
    change(doc.accessors[i + 1], doc)
  end)
  local text = read_file(g)
  text = text:gsub(HUGE_61, "2305843009213693952")
    :gsub(HUGE_62, "4611686018427387904")
  write_file(g, text)
  refused(name, g, name .. "/edit%.gltf: mesh 1 %(panel%): primitive 1: POSITION"
    .. " %(accessor 0%): " .. pattern, what)
end
hostile("count61", function(a) a.count = HUGE_61 end, "count"
  .. " 2305843009213693952: elements of 12 bytes from byteOffset 0 run past"
  .. " the end of buffer view 0 %(48 bytes%)", "a count of 2^61")
hostile("count62", function(a) a.count = HUGE_62 end, "count"
  .. " 4611686018427387904: elements of 12 bytes from byteOffset 0 run past",
  "a count of 2^62")
hostile("stride62", function(a, doc)
  doc.bufferViews[a.bufferView + 1].byteStride = HUGE_62
end, "buffer view 0: byteStride 4611686018427387904 is not a multiple of 4"
  .. " from 4 to 252", "a byteStride of 2^62")
hostile("stride", function(a, doc)
  doc.bufferViews[a.bufferView + 1].byteStride = 16
end, "count 4: elements of 12 bytes, byteStride 16, from byteOffset 0 run"
  .. " past the end of buffer view 0 %(48 bytes%)",
  "a byteStride that takes the elements past the view")
hostile("offset62", function(a) a.byteOffset = HUGE_62 end, "count 4:"
  .. " elements of 12 bytes from byteOffset 4611686018427387904 run past",
  "a byteOffset of 2^62")
hostile("view62", function(a, doc)
  local v = doc.bufferViews[a.bufferView + 1]
  v.byteOffset, v.byteLength = HUGE_62, HUGE_62
end, "buffer view 0 lies outside its buffer %(byteOffset 4611686018427387904,"
  .. " byteLength 4611686018427387904%)", "a buffer view of 2^62 at 2^62")
hostile("sparse62", function(a, doc)
  doc.bufferViews[#doc.bufferViews + 1] = { buffer = 0, byteOffset = 0,
    byteLength = 4 }
  a.sparse = { count = HUGE_62, indices = { bufferView = #doc.bufferViews - 1,
    componentType = 5123 }, values = { bufferView = #doc.bufferViews - 1 } }
end, "a bad sparse accessor", "a sparse count of 2^62")
refused("sparse-idx", edited("sparse-idx", function(doc)
  local a = doc.accessors[panel_of(doc).primitives[1].attributes.POSITION
    + 1]
  doc.bufferViews[#doc.bufferViews + 1] = { buffer = 0, byteOffset = 0,
    byteLength = 4 }
  a.sparse = { count = 2, indices = { bufferView = #doc.bufferViews - 1,
    componentType = 5123, byteOffset = 2^40 },
    values = { bufferView = #doc.bufferViews - 1 } }
end), "sparse%-idx/edit%.gltf: mesh 1 %(panel%): primitive 1: POSITION"
  .. " %(accessor 0%): sparse indices run past their buffer view",
  "sparse indices at a byteOffset of 2^40")

-- Positions that float32 cannot hold are refused, not written as
-- infinities: panel's node scaled by 1e39 in x takes vertex 2, (1, 0, 0),
-- to x = 1e39 (FLT_MAX is 3.4e38); a quiet NaN as vertex 3's y in the
-- .bin (panel is (0,0,0) (1,0,0) (1,1,0) (0,1,0)).
refused("huge", edited("huge", function(doc)
  for _, n in ipairs(doc.nodes) do
    if n.mesh and doc.meshes[n.mesh + 1].name == "panel" then
      n.scale = { 1e39, 1, 1 }
    end
  end
end), "huge/edit%.gltf: mesh 1 %(panel%): vertex 2: POSITION %(1e%+39, 0,"
  .. " 0%) with the node's transform is not finite as float32",
  "a transform past float32")
refused("nan", edited("nan", function(doc, bin)
  local a = doc.accessors[panel_of(doc).primitives[1].attributes.POSITION
    + 1]
  local at = doc.bufferViews[a.bufferView + 1].byteOffset
    + (a.byteOffset or 0) + 2 * 12 + 4
  return bin:sub(1, at) .. string.pack("<I4", 0x7FC00000)
    .. bin:sub(at + 5)
end), "nan/edit%.gltf: mesh 1 %(panel%): vertex 3: POSITION %(1, nan, 0%)"
  .. " is not finite as float32", "a NaN position in the .bin")

-- A buffer file that is not a regular file is refused unread: a URI
-- climbing to /dev/zero read until memory ran out. A FIFO stands in for
-- the device (a writer comes after 5 s, should the open block again).
do
  local g = edited("fifo", function(doc) doc.buffers[1].uri = "pipe.bin" end)
  local fifo = at("fifo/pipe.bin")
  assert(os.execute("mkfifo " .. sh_quote(fifo)))
  os.execute("F=" .. sh_quote(fifo) .. [[ sh -c 'sleep 5; [ -p "$F" ] &&]]
    .. [[ timeout 5 sh -c "echo x > \"\$F\""' >/dev/null 2>&1 &]])
  refused("fifo", g, "fifo/edit%.gltf: buffer 0 %(pipe%.bin%): [^\n]*"
    .. "fifo/pipe%.bin: not a regular file", "a buffer that is a FIFO")
  os.remove(fifo)
end

-- A required extension is refused: Draco leaves POSITION without a
-- buffer view, which read as it stands is zeros; the mesh was imported
-- with every position at the origin, in silence
refused("draco", edited("draco", function(doc)
  doc.extensionsUsed = { "KHR_draco_mesh_compression" }
  doc.extensionsRequired = { "KHR_draco_mesh_compression" }
  local a = doc.accessors[panel_of(doc).primitives[1].attributes.POSITION
    + 1]
  a.bufferView, a.byteOffset = nil, nil
end), "draco/edit%.gltf: it requires the extension"
  .. " KHR_draco_mesh_compression, which gltf%-import does not read",
  "a required extension (Draco)")

-- Values as the file spells them: lua-cjson reads 5130 as 5130.0
refused("ctype", edited("ctype", function(doc)
  doc.accessors[panel_of(doc).primitives[1].attributes.POSITION + 1]
    .componentType = 5130
end), "ctype/edit%.gltf: mesh 1 %(panel%): primitive 1: POSITION %(accessor"
  .. " 0%): componentType 5130 is not a glTF one", "a bad componentType")
refused("countstr", edited("countstr", function(doc)
  doc.accessors[panel_of(doc).primitives[1].attributes.POSITION + 1].count
    = "4"
end), 'countstr/edit%.gltf: mesh 1 %(panel%): primitive 1: POSITION'
  .. ' %(accessor 0%): count "4" is not a positive integer',
  "a count that is a string, quoted")

-- panel's selectors 00 01 01 01 feed logical UV1..3 from stored set 1:
-- its TEXCOORD_2 pointed at set 0's accessor disagrees at vertex 1,
-- set 1 (0.5, 0.5) against set 0 (0, 0)
refused("agree", edited("agree", function(doc)
  local attrs = panel_of(doc).primitives[1].attributes
  attrs.TEXCOORD_2 = attrs.TEXCOORD_0
end), "agree/edit%.gltf: mesh 1 %(panel%): submesh 1: vertex 1: TEXCOORD_1"
  .. " %(0%.5, 0%.5%) and TEXCOORD_2 %(0, 0%) feed the one stored UV set 1"
  .. " and differ", "two logical UVs of one stored set that differ")

refused("index", edited("index", function(doc, bin)
  local a = doc.accessors[panel_of(doc).primitives[1].indices + 1]
  local v = doc.bufferViews[a.bufferView + 1]
  -- the third index (0-based 2) becomes 9, past the 4 vertices
  return bin:sub(1, v.byteOffset + 8) .. string.pack("<I4", 9)
    .. bin:sub(v.byteOffset + 13)
end), "index/edit%.gltf: mesh 1 %(panel%): primitive 1: indices %(accessor"
  .. " %d+%): index 2 is 9, not below the 4 vertices of POSITION",
  "an index out of range")

refused("unmatched", edited("unmatched", function(doc)
  panel_of(doc).name = "door"
end), "unmatched/edit%.gltf: glTF mesh 0 %(door%) matches no mesh of "
  .. at("edit.rsxb"):gsub("%p", "%%%0") .. "\n",
  "a glTF mesh without a match, the base named as --base gave it")

-- --mesh leaves the others as the base has them: the unmatched mesh is
-- not looked at
do
  local g = edited("only", function(doc)
    panel_of(doc).name = "door"
  end)
  local c = import(g, at("only.rsxb"), "--mesh", "rail")
  t.is(c, 0, "--mesh rail: the other glTF meshes are not imported")
  t.ok(read_file(at("only.rsxb")) == ORIGINAL, "... and the base kept")
end

-- a --mesh that names no glTF mesh (a typo) is refused, not an import of
-- nothing that writes the base back; so is a meshes that is no array
refused("typo", at("g/edit.gltf"), "g/edit%.gltf: no glTF mesh is named"
  .. " 'pannel', 'rial'", "--mesh names no glTF mesh", "--mesh", "pannel",
  "--mesh", "rail", "--mesh", "rial")
refused("object", edited("object", function(doc)
  doc.meshes = { panel = doc.meshes[1] }
end), "object/edit%.gltf: meshes is not an array", "meshes an object")

-- an output in a folder that does not exist gets it; one that cannot be
-- written leaves no file behind: under a file, or (the temporary file
-- written, the rename refused) where a folder is. Messages name the
-- output, never its temporary.
do
  local c, _, e = import(at("g/edit.gltf"), at("nowhere/new.rsxb"))
  t.ok(c == 0 and read_file(at("nowhere/new.rsxb")) == ORIGINAL,
    "an output in a missing folder: the folder made, the file written")
  if c ~= 0 then t.diag(e) end
  c, _, e = import(at("plus/edit.gltf"), at("edit.rsxb/new.rsxb"))
  t.is(c, 1, "an output under a file: exit status 1")
  t.like(e, "edit%.rsxb/new%.rsxb: [^\n]*edit%.rsxb: exists and is not a"
    .. " folder",
    "... naming the output and the reason")
  assert(os.execute("mkdir -p " .. sh_quote(at("taken/inside"))))
  c, _, e = import(at("plus/edit.gltf"), at("taken"))
  t.is(c, 1, "an output that is a folder: exit status 1")
  t.like(e, "taken: [^\n]*[Ii]s a directory", "... naming it")
  t.ok(not e:find(".part", 1, true), "... not its temporary")
  local p = io.popen("ls -A " .. sh_quote(tmp))
  local names = p:read("a")
  p:close()
  t.ok(not names:find("%.part") and not names:find("%.tmp%-"),
    "... and no temporary file left")
end

-- -o onto a file the import reads (a slip of the shell's completion) is
-- refused before anything is written: the edit is not replaced
do
  local gltf_bytes = read_file(at("g/edit.gltf"))
  local bin_bytes = read_file(at("g/edit.bin"))
  local c, _, e = import(at("g/edit.gltf"), at("g/edit.gltf"))
  t.is(c, 1, "-o the glTF itself: exit status 1")
  t.like(e, "%-o [^\n]*g/edit%.gltf is [^\n]*g/edit%.gltf, which this"
    .. " import reads", "... naming it")
  c, _, e = import(at("g/edit.gltf"), at("g/edit.bin"))
  t.like(e, "%-o [^\n]*g/edit%.bin is [^\n]*g/edit%.bin, which this"
    .. " import reads", "-o the glTF's .bin: refused too")
  t.ok(read_file(at("g/edit.gltf")) == gltf_bytes
    and read_file(at("g/edit.bin")) == bin_bytes,
    "... and both files are as they were")
end

-- Without lua-cjson (a module of its name that fails to load stands in
-- for its absence) gltf-import says what to install, not a traceback
do
  assert(os.execute("mkdir -p " .. sh_quote(at("nocjson"))))
  write_file(at("nocjson/cjson.lua"), "error(\"module 'cjson' not found\")\n")
  local _, _, c = os.execute(string.format("cd %s && LUA_PATH=%s %s"
    .. " gltf-import g/edit.gltf --base edit.rsxb -o nocjson.rsxb"
    .. " >/dev/null 2>nocjson/err", sh_quote(tmp),
    sh_quote(at("nocjson/?.lua;") .. (os.getenv("LUA_PATH") or ";")),
    sh_quote(assert(os.getenv("RSXMESH")))))
  t.is(c, 1, "lua-cjson missing: exit status 1")
  t.is(read_file(at("nocjson/err")), "gltf-import: lua-cjson is missing"
    .. " (Debian: apt-get install lua-cjson)\n", "... saying what to install")
end

-- The buffer file is read as the accessors ask, after import.read: one
-- cut short or removed in between is named, and the import fails alone;
-- the same file read again imports twice over.
do
  local import = require "rsxmesh.gltf_import"
  local g = edited("changing", function() end)
  local base = assert(rsxmesh.open(at("edit.rsxb")))
  local file = assert(import.read(g))
  local r, e = import.bundle(file, base)
  t.ok(r, "import.read, then import.bundle")
  if not r then t.diag(e) end
  r, e = import.bundle(file, base)
  t.ok(r, "... and import.bundle again on the same file")
  local bin = at("changing/edit.bin")
  local f = assert(io.open(bin, "wb"))
  assert(f:write(BIN:sub(1, 100)))
  assert(f:close())
  r, e = import.bundle(file, base)
  t.is(r, nil, "the .bin cut to 100 bytes after import.read: refused")
  t.like(e, "^" .. bin:gsub("%p", "%%%0") .. ": %d+ bytes from offset %d+"
    .. " can no longer be read %(the file changed during the import%)$",
    "... naming the .bin and what could not be read")
  os.remove(bin)
  r, e = import.bundle(file, base)
  t.is(r, nil, "the .bin removed: refused")
  t.like(e, bin:gsub("%p", "%%%0") .. ": No such file or directory",
    "... with the system's reason")
  base:close()
end

-- Hostile JSON: 300 documents, each the export with one to three fields
-- anywhere replaced by a value of another kind (a fixed seed, so every run
-- tries the same). Each import succeeds or gives nil and one message
-- naming the file; none raises.
do
  local import = require "rsxmesh.gltf_import"
  local base = assert(rsxmesh.open(at("edit.rsxb")))
  local VALUES = { 0, -1, 1.5, 1e300, -1e300, "x", {}, { 1, 2 }, true,
    cjson.null, 5126, 2 ^ 31, 4.5 }
  local state = 12345
  local function random(n) -- xorshift: the same on every Lua
    state = state ~ (state << 13) & 0xFFFFFFFF
    state = state ~ (state >> 17)
    state = state ~ (state << 5) & 0xFFFFFFFF
    return state % n + 1
  end
  local function mutate(v, depth)
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    if #keys == 0 then return end
    table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
    local k = keys[random(#keys)]
    if type(v[k]) == "table" and random(5) > 1 and depth < 8 then
      return mutate(v[k], depth + 1)
    end
    v[k] = VALUES[random(#VALUES)]
  end
  local raised, unnamed = 0, 0
  for _ = 1, 300 do
    local doc = cjson.decode(GLTF_TEXT)
    for _ = 1, random(3) do mutate(doc, 0) end
    local ok, r, e = pcall(import.bundle, { path = "hostile.gltf",
      json = doc, buffers = { BIN } }, base)
    if not ok then
      raised = raised + 1
      t.diag(tostring(r))
    elseif not r and not tostring(e):find("^hostile%.gltf: ") then
      unnamed = unnamed + 1
      t.diag(tostring(e))
    end
  end
  t.is(raised, 0, "hostile JSON: no import raises")
  t.is(unnamed, 0, "hostile JSON: every refusal names the file")
  base:close()
end

lib.cleanup()
t.done_testing()
