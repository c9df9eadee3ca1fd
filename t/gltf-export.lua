-- t/gltf-export.lua - rsxmesh gltf-export on hand-built bundles: exact values
--
-- Bundles spelt byte by byte with string.pack, written with rsxmesh.writer,
-- exported by the real script, and read back with a JSON reader of this
-- file's own. Every expected value is worked out from the research note
-- (CMP: x, y signed 11 bits scaled 32/32767, z signed 10 bits scaled
-- 64/32767; binary16 halves) and glTF 2.0, never taken from the exporter.
-- The Khronos validator then checks every file written, when npm's
-- gltf-validator is installed (`npm ci`); without it those checks skip.

local t = require "tap"
local rsxmesh = require "rsxmesh"
local lib = require "scripts-lib"

local f32 = rsxmesh.float32

-- ------------------------------------------------------------ helpers

local sh_quote, read_file, write_file = lib.quote, lib.read, lib.write

local tmp = assert(io.popen("mktemp -d"):read("l"), "mktemp -d")
local function at(p) return tmp .. "/" .. p end
assert(os.execute("mkdir -p " .. sh_quote(at("in/tex")) .. " "
  .. sh_quote(at("odd")) .. " " .. sh_quote(at("moved/deep/er"))))

-- Run the exporter (under the test wrapper, so valgrind sees it too):
-- its exit status and what it wrote on stderr.
local function export(args, before)
  local wrapper = os.getenv("TEST_WRAPPER") or ""
  local cmd = (before or "") .. wrapper .. " "
    .. sh_quote(os.getenv("RSXMESH"))
    .. " gltf-export " .. args .. " 2>" .. sh_quote(at("stderr"))
  local _, _, code = os.execute(cmd)
  return code, read_file(at("stderr")) or ""
end

-- A small JSON reader, enough for what glTF holds.
local function json_decode(s)
  local pos = 1
  local function skip() pos = s:find("[^ \t\r\n]", pos) or #s + 1 end
  local function expect(c)
    skip()
    assert(s:sub(pos, pos) == c, "JSON: " .. c .. " expected at " .. pos)
    pos = pos + 1
  end
  local ESC = { b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }
  local function str()
    expect('"')
    local out = {}
    while true do
      local c = s:sub(pos, pos)
      assert(c ~= "", "JSON: unterminated string")
      if c == '"' then pos = pos + 1; break end
      if c == "\\" then
        local e = s:sub(pos + 1, pos + 1)
        if e == "u" then
          out[#out + 1] = utf8.char(tonumber(s:sub(pos + 2, pos + 5), 16))
          pos = pos + 6
        else
          out[#out + 1] = ESC[e] or e
          pos = pos + 2
        end
      else
        out[#out + 1] = c
        pos = pos + 1
      end
    end
    return table.concat(out)
  end
  local value
  value = function()
    skip()
    local c = s:sub(pos, pos)
    if c == "{" then
      pos = pos + 1
      local obj = {}
      skip()
      if s:sub(pos, pos) == "}" then pos = pos + 1; return obj end
      repeat
        local k = str()
        expect(":")
        obj[k] = value()
        skip()
        c = s:sub(pos, pos)
        pos = pos + 1
      until c ~= ","
      assert(c == "}", "JSON: } expected")
      return obj
    elseif c == "[" then
      pos = pos + 1
      local arr = {}
      skip()
      if s:sub(pos, pos) == "]" then pos = pos + 1; return arr end
      repeat
        arr[#arr + 1] = value()
        skip()
        c = s:sub(pos, pos)
        pos = pos + 1
      until c ~= ","
      assert(c == "]", "JSON: ] expected")
      return arr
    elseif c == '"' then
      return str()
    elseif s:find("^true", pos) then pos = pos + 4; return true
    elseif s:find("^false", pos) then pos = pos + 5; return false
    elseif s:find("^null", pos) then pos = pos + 4; return nil
    end
    local num = s:match("^-?%d+%.?%d*[eE]?[-+]?%d*", pos)
    assert(num, "JSON: a value expected at " .. pos)
    pos = pos + #num
    return math.tointeger(tonumber(num)) or tonumber(num)
  end
  local v = value()
  skip()
  assert(pos > #s, "JSON: trailing bytes at " .. pos)
  return v
end

-- An exported file: its JSON and its binary buffer (from the .bin beside
-- a .gltf, or from the chunks of a .glb).
local function load(path)
  local bytes = assert(read_file(path), path)
  if path:match("%.glb$") then
    local magic, version, length = string.unpack("<c4I4I4", bytes)
    assert(magic == "glTF" and version == 2 and length == #bytes, path)
    local jlen, jtype = string.unpack("<I4c4", bytes, 13)
    assert(jtype == "JSON", path)
    local doc = json_decode(bytes:sub(21, 20 + jlen))
    local bin = ""
    if 20 + jlen < #bytes then
      local blen, btype = string.unpack("<I4c4", bytes, 21 + jlen)
      assert(btype == "BIN\0", path)
      bin = bytes:sub(29 + jlen, 28 + jlen + blen)
    end
    return doc, bin
  end
  local doc = json_decode(bytes)
  local bin = ""
  if doc.buffers then
    bin = assert(read_file(path:match("^(.*/)") .. doc.buffers[1].uri))
  end
  return doc, bin
end

local COMPONENTS = { SCALAR = 1, VEC2 = 2, VEC3 = 3, VEC4 = 4 }
local FORMAT = { [5126] = "<f", [5121] = "B", [5125] = "<I4" }
local SIZE = { [5126] = 4, [5121] = 1, [5125] = 4 }

-- The values of accessor number i (0-based), as a flat table.
local function values(doc, bin, i)
  local a = doc.accessors[i + 1]
  local v = doc.bufferViews[a.bufferView + 1]
  local n = COMPONENTS[a.type]
  local size = SIZE[a.componentType]
  local stride = v.byteStride or n * size
  local out = {}
  for e = 0, a.count - 1 do
    for c = 0, n - 1 do
      out[#out + 1] = string.unpack(FORMAT[a.componentType], bin,
        1 + v.byteOffset + (a.byteOffset or 0) + e * stride + c * size)
    end
  end
  return out
end

-- The raw bytes of accessor i (tightly packed views only).
local function bytes_of(doc, bin, i)
  local a = doc.accessors[i + 1]
  local v = doc.bufferViews[a.bufferView + 1]
  local off = v.byteOffset + (a.byteOffset or 0)
  return bin:sub(off + 1, off + a.count * COMPONENTS[a.type]
    * SIZE[a.componentType])
end

local function mesh_named(doc, name)
  for _, m in ipairs(doc.meshes or {}) do
    if m.name == name then return m end
  end
end

-- ------------------------------------------------------------ the bundle

-- CMP words, by hand from the note's bit split: x bits 0..10, y bits
-- 11..21, z bits 22..31, two's complement.
local N_UP = 511 << 22             -- (0, 0, 511*64/32767)
local A_X = 1023                   -- (1023*32/32767, 0, 0)
local A_XY = 512 | (512 << 11)     -- (512*32/32767, 512*32/32767, 0)
local B_Y = 1023 << 11             -- (0, 1023*32/32767, 0) = 0x001FF800
local B_NEG_Y = 0x401 << 11        -- y = 0x401 - 0x800 = -1023
assert(B_Y == 0x001FF800 and B_NEG_Y == 0x00200800)

local function meta(mask)
  return string.rep("\0", 0x8C) .. string.pack(">I4", mask)
end

local function record(selectors)
  return string.rep("\0", 0x38) .. selectors
end

-- "frame": mask 0x000800ff (C, A, B, U0, U1, U2; MGP stride 24), a unit
-- square in z = 0 wound counter-clockwise seen from +z.
local FRAME_POS = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 }
local FRAME_NORMAL = { N_UP, N_UP, N_UP, 0 }          -- vertex 4: zero
local FRAME_COLOUR = { "\0\0\0\0", "\255\255\255\255", "\0\255\0\255",
  "\18\52\86\120" }
local FRAME_A = { A_X, A_X, A_XY, 0 }                 -- vertex 4: zero A
local FRAME_B = { B_Y, B_NEG_Y, B_Y, B_Y }            -- vertex 2: B = -y
-- binary16 bits of the three stored UV sets, two per vertex, with their
-- values by hand: 0x3C00 1, 0x4200 3, 0x4400 4, ..., 0x4900 10;
-- 0xC000 -2, 0x3555 (1 + 341/1024)/4 = 0.333251953125, 0x7BFF 65504,
-- 0x0001 2^-24, 0x8000 -0, 0x3800 0.5, 0xBC00 -1, 0x4000 2.
local UV_BITS = {
  [0] = { 0x0000, 0x0000, 0x3C00, 0x0000, 0x3C00, 0x3C00, 0x0000, 0x3C00 },
  [1] = { 0x4200, 0x4400, 0x4500, 0x4600, 0x4700, 0x4800, 0x4880, 0x4900 },
  [2] = { 0xC000, 0x3555, 0x7BFF, 0x0001, 0x8000, 0x3800, 0xBC00, 0x4000 },
}
local UV_VALUES = {
  [0] = { 0, 0, 1, 0, 1, 1, 0, 1 },
  [1] = { 3, 4, 5, 6, 7, 8, 9, 10 },
  [2] = { -2, 0.333251953125, 65504, 2 ^ -24, -0.0, 0.5, -1, 2 },
}

local function frame_mesh()
  local mmp, mgp = {}, {}
  for v = 1, 4 do
    mmp[v] = string.pack(">fffI4", FRAME_POS[3 * v - 2], FRAME_POS[3 * v - 1],
      FRAME_POS[3 * v], FRAME_NORMAL[v])
    mgp[v] = FRAME_COLOUR[v] .. string.pack(">I4I4HHHHHH", FRAME_A[v],
      FRAME_B[v], UV_BITS[0][2 * v - 1], UV_BITS[0][2 * v],
      UV_BITS[1][2 * v - 1], UV_BITS[1][2 * v], UV_BITS[2][2 * v - 1],
      UV_BITS[2][2 * v])
  end
  return assert(rsxmesh.mesh{
    name = "frame", meta = meta(0x000800ff), vertex_count = 4,
    mmp = table.concat(mmp), mmp_stride = 16,
    mgp = table.concat(mgp), mgp_stride = 24,
    indices = rsxmesh.indices(2, { 1, 2, 3, 1, 3, 4, 1, 2, 3, 1, 3, 4,
      2, 3, 4 }),
    index_size = 2, primitive = "triangles",
    submeshes = {
      -- the defaults: UV0..2 from stored sets 0..2
      { record = record("\255\255\255\255"), first_index = 0,
        index_count = 6, material = 1 },
      -- UV0 from stored set 2, UV1 from 1, UV2 from 0; UV3 absent
      { record = record("\2\1\0\255"), first_index = 6, index_count = 3,
        material = 1 },
      -- UV1 names set 3, which the mask lacks: UV2 (set 1) is dropped
      { record = record("\0\3\1\255"), first_index = 9, index_count = 3,
        material = 1 },
      -- no UV0 at all: UV1 and UV2 dropped, the texture has no UVs
      { record = record("\3\255\255\255"), first_index = 12,
        index_count = 3, material = 1 },
    },
  })
end

-- "strip": position and normal only, a u32 strip with a restart.
local function strip_mesh()
  local mmp = {}
  for v = 0, 4 do mmp[#mmp + 1] = string.pack(">fffI4", v, v % 2, 0, N_UP) end
  return assert(rsxmesh.mesh{
    name = "strip", meta = meta(0x00080005), vertex_count = 5,
    mmp = table.concat(mmp), mmp_stride = 16,
    indices = rsxmesh.indices(4, { 1, 2, 3, 4, -1, 3, 4, 5 }),
    index_size = 4, primitive = "strip",
    submeshes = { { record = record("\255\255\255\255"), first_index = 0,
      index_count = 8 } },
  })
end

-- "tree": mask 0x000807fd (A, B, U0..U3, extras X at 24 and Y at 32).
local EXTRA_A_BITS = { 0x3C00, 0xBC00, 0x3800, 0x4248 }  -- 1 -1 .5 3.140625
local EXTRA_B_BITS = { 0x4500, 0xC200, 0x0000, 0x0000 }  -- 5 -3 0 0
local function tree_mesh()
  local mmp, mgp = {}, {}
  local pos = { 0, 0, 0, 1, 0, 0, 0, 1, 0 }
  for v = 1, 3 do
    mmp[v] = string.pack(">fffI4", pos[3 * v - 2], pos[3 * v - 1],
      pos[3 * v], N_UP)
    mgp[v] = string.pack(">I4I4HHHHHHHHHHHHHHHH", A_X, B_Y,
      0x3C00, 0, 0x4000, 0, 0x4200, 0, 0x4400, 0,
      EXTRA_A_BITS[1], EXTRA_A_BITS[2], EXTRA_A_BITS[3], EXTRA_A_BITS[4],
      EXTRA_B_BITS[1], EXTRA_B_BITS[2], EXTRA_B_BITS[3], EXTRA_B_BITS[4])
  end
  return assert(rsxmesh.mesh{
    name = "tree", meta = meta(0x000807fd), vertex_count = 3,
    mmp = table.concat(mmp), mmp_stride = 16,
    mgp = table.concat(mgp), mgp_stride = 40,
    indices = rsxmesh.indices(2, { 1, 2, 3 }),
    index_size = 2, primitive = "triangles",
    submeshes = { { record = record("\255\255\255\255"), first_index = 0,
      index_count = 3 } },
  })
end

-- "skewed": an MGP stride of 20 where mask 0x0008007d implies 16, a
-- finding that makes its attributes undecodable.
local function skewed_mesh()
  return assert(rsxmesh.mesh{
    name = "skewed", meta = meta(0x0008007d), vertex_count = 3,
    mmp = string.rep(string.pack(">fffI4", 0, 0, 0, N_UP), 3),
    mmp_stride = 16, mgp = string.rep("\0", 60), mgp_stride = 20,
    indices = rsxmesh.indices(2, { 1, 2, 3 }),
    index_size = 2, primitive = "triangles",
    submeshes = { { record = record("\255\255\255\255"), first_index = 0,
      index_count = 3 } },
  })
end

-- "odd": what glTF cannot take as stored. Mask 0x00080065 (U0, U1).
-- Stored set 0 holds a NaN (0x7E00); set 1 holds 0x3C7E, whose second byte
-- would read as a NaN's first byte one byte off (1 + 126/1024 =
-- 1.123046875). Position x 0x3F7F8000 has 7F 80 one byte off too:
-- 2^-1 * (1 + 0x7F8000 / 2^23) = 0.998046875.
local function odd_mesh(name, x_bits, uv0_bits, first, selectors)
  local mmp, mgp = {}, {}
  local xs = { x_bits, 0x00000000, 0x3F800000 }       -- x, 0, 1
  local ys = { 0x00000000, 0x3F800000, 0x3F800000 }   -- 0, 1, 1
  for v = 1, 3 do
    mmp[v] = string.pack(">I4I4I4I4", xs[v], ys[v], 0, N_UP)
    mgp[v] = string.pack(">HHHH", uv0_bits[v], 0x3C00, 0x3C7E, 0x3800)
  end
  return assert(rsxmesh.mesh{
    name = name, meta = meta(0x00080065), vertex_count = 3,
    mmp = table.concat(mmp), mmp_stride = 16,
    mgp = table.concat(mgp), mgp_stride = 8,
    indices = rsxmesh.indices(2, { 1, 2, 3, 1, 1, 2 }),
    index_size = 2, primitive = "triangles",
    submeshes = {
      -- by default UV0 from stored set 1, UV1 from stored set 0
      { record = record(selectors or "\1\0\255\255"), first_index = first,
        index_count = 3 },
      { record = record("\255\255\255\255"), first_index = 0,
        index_count = 0 },
    },
  })
end

-- A 1x1 PNG, so the validator can load the texture the material names.
local function crc32(s)
  local crc = 0xFFFFFFFF
  for i = 1, #s do
    crc = crc ~ s:byte(i)
    for _ = 1, 8 do crc = (crc >> 1) ~ (0xEDB88320 & -(crc & 1)) end
  end
  return crc ~ 0xFFFFFFFF
end

local function png_1x1()
  local function chunk(kind, data)
    return string.pack(">I4", #data) .. kind .. data
      .. string.pack(">I4", crc32(kind .. data))
  end
  local raw = "\0\128\128\128"              -- filter byte, one grey pixel
  local a, b = 1, 0
  for i = 1, #raw do
    a = (a + raw:byte(i)) % 65521
    b = (b + a) % 65521
  end
  local zlib = "\120\1" .. string.pack("<BI2I2", 1, #raw, ~#raw & 0xFFFF)
    .. raw .. string.pack(">I4", (b << 16) | a)
  return "\137PNG\r\n\26\n"
    .. chunk("IHDR", string.pack(">I4I4BBBBB", 1, 1, 8, 2, 0, 0, 0))
    .. chunk("IDAT", zlib) .. chunk("IEND", "")
end

write_file(at("in/tex/check.png"), png_1x1())
do
  local w = rsxmesh.writer()
  local mat = w:material("checker", {
    { slot = rsxmesh.BASE_COLOUR, texture = "tex/check.png" },
    { slot = 0x12345678, texture = "tex/other.png" } })
  assert(mat == 1)
  assert(w:mesh(frame_mesh()))
  assert(w:mesh(strip_mesh()))
  assert(w:mesh(tree_mesh()))
  assert(w:save(at("in/good.rsxb")))
  local bad = rsxmesh.writer()
  assert(bad:mesh(skewed_mesh()))
  assert(bad:save(at("in/bad.rsxb")))
  local odd = rsxmesh.writer()
  -- nan_uv: set 0 has a NaN; nan_pos: position x is a NaN; flat: its only
  -- triangle (1, 1, 2) is degenerate
  assert(odd:mesh(odd_mesh("nan_uv", 0x3F7F8000, { 0, 0x7E00, 0 }, 0)))
  assert(odd:mesh(odd_mesh("nan_pos", 0x7FC00000, { 0, 0, 0 }, 0)))
  assert(odd:mesh(odd_mesh("flat", 0, { 0, 0, 0 }, 3)))
  -- gap: UV0 names stored set 3, which the mask lacks; UV1 (set 1) is
  -- dropped and nothing else uses set 1
  assert(odd:mesh(odd_mesh("gap", 0, { 0, 0, 0 }, 0, "\3\1\255\255")))
  assert(odd:save(at("odd/odd.rsxb")))
  -- textures a viewer cannot have: one missing, one not PNG or JPEG
  local tex = rsxmesh.writer()
  tex:material("missing", { { slot = rsxmesh.BASE_COLOUR,
    texture = "tex/nothere.png" } })
  tex:material("dds", { { slot = rsxmesh.BASE_COLOUR,
    texture = "fake.dds" } })
  assert(tex:mesh(strip_mesh()))
  assert(tex:save(at("odd/tex.rsxb")))
  write_file(at("odd/fake.dds"), "DDS not really")
end

-- ------------------------------------------------------------ the run

local code, err = export(sh_quote(at("in/good.rsxb")) .. " "
  .. sh_quote(at("in/bad.rsxb")) .. " -o " .. sh_quote(at("out"))
  .. " --verbose")
t.is(code, 1, "exit status 1: one bundle had a mesh that failed")
t.like(err, "bad%.rsxb: mesh 1 %(skewed%): [^\n]*stride",
  "the failure names the file, the mesh and the stride")
t.like(err, "1 bundle, 3 meshes, 12 vertices, 9 triangles, [%d,]+ bytes"
  .. " written in 2 files", "the summary line counts what was written "
  .. "(the .gltf and its .bin)")
t.like(err, "good%.rsxb: mesh 1 %(frame%): submesh 3: logical UV1 is"
  .. " absent, so UV2 %(stored set 1%) is dropped",
  "a logical UV after an absent one is reported as dropped")
t.like(err, "mesh 1 %(frame%): submesh 4: logical UV0 is absent, so UV1"
  .. " %(stored set 1%), UV2 %(stored set 2%) are dropped",
  "both UVs after an absent UV0 are reported")
t.like(err, "mesh 1 %(frame%): 1 zero normal replaced by the"
  .. " area%-weighted normal", "the zero normal is reported")
t.like(err, "mesh 1 %(frame%): 1 tangent with a zero A",
  "the zero tangent A is reported")
t.like(err, "handled: 1 zero normal replaced, 1 tangent with zero A,"
  .. " 3 logical UVs dropped after an absent one, 1 submesh without UV0"
  .. " for its texture", "the handled line adds them up")
t.ok(read_file(at("out/bad.gltf")) == nil,
  "a bundle whose only mesh failed gives no file")

local doc, bin = load(at("out/good.gltf"))
t.is(doc.asset.version, "2.0", "asset version 2.0")
t.is(doc.buffers[1].uri, "good.bin", "the buffer is good.bin")
t.is(doc.buffers[1].byteLength, #bin, "byteLength is the .bin's length")
t.is(#doc.meshes, 3, "three meshes")
t.is(#doc.nodes, 3, "a node per mesh")
t.is_deeply(doc.scenes[doc.scene + 1].nodes, { 0, 1, 2 },
  "the scene holds every node")

local aligned = true
for _, v in ipairs(doc.bufferViews) do
  aligned = aligned and v.byteOffset % 4 == 0 and v.byteStride == nil
end
t.ok(aligned, "every buffer view starts on 4 bytes, tightly packed")

-- frame: the shared accessors and the selectors
local frame = mesh_named(doc, "frame")
t.is(#frame.primitives, 4, "frame: a primitive per submesh")
local p1, p2, p3, p4 = table.unpack(frame.primitives)
t.is(p1.attributes.POSITION, p2.attributes.POSITION,
  "submeshes share one POSITION accessor")
t.is(p1.attributes.NORMAL, p4.attributes.NORMAL,
  "and one NORMAL accessor")
t.is(p2.attributes.TEXCOORD_0, p1.attributes.TEXCOORD_2,
  "TEXCOORD_0 of selectors 02 01 00 ff is stored set 2's accessor")
t.is_deeply(values(doc, bin, p2.attributes.TEXCOORD_0), UV_VALUES[2],
  "TEXCOORD_0 of selectors 02 01 00 ff equals stored set 2")
t.is_deeply(values(doc, bin, p2.attributes.TEXCOORD_1), UV_VALUES[1],
  "its TEXCOORD_1 equals stored set 1")
t.is_deeply(values(doc, bin, p2.attributes.TEXCOORD_2), UV_VALUES[0],
  "its TEXCOORD_2 equals stored set 0")
t.is(p2.attributes.TEXCOORD_3, nil, "UV3 (no stored set 3) is absent")
t.is_deeply(values(doc, bin, p1.attributes.TEXCOORD_0), UV_VALUES[0],
  "TEXCOORD_0 of selectors ffffffff equals stored set 0, not flipped")
t.is_deeply(p2.extras, { selectors = "020100ff", uv_sets = { 2, 1, 0 } },
  "primitive extras: the selectors and the stored set per TEXCOORD")
t.is(p3.attributes.TEXCOORD_0, p1.attributes.TEXCOORD_0,
  "selectors 00 03 01 ff: TEXCOORD_0 from stored set 0")
t.is(p3.attributes.TEXCOORD_1, nil, "and nothing after the absent UV1")
t.is(p4.attributes.TEXCOORD_0, nil, "selectors 03 ff ff ff: no TEXCOORD")

local pos = doc.accessors[p1.attributes.POSITION + 1]
t.is_deeply({ pos.min, pos.max }, { { 0, 0, 0 }, { 1, 1, 0 } },
  "POSITION min and max")
t.is_deeply(values(doc, bin, p1.attributes.POSITION), FRAME_POS,
  "POSITION as stored")

local colour = doc.accessors[p1.attributes.COLOR_0 + 1]
t.is_deeply({ colour.type, colour.componentType, colour.normalized },
  { "VEC4", 5121, true }, "COLOR_0 is normalised unsigned byte VEC4")
t.is(bytes_of(doc, bin, p1.attributes.COLOR_0),
  "\0\0\0\0\255\255\255\255\0\255\0\255\18\52\86\120",
  "colour bytes 0 and 255 come out as 0 and 255, in stored order")

local z = f32(511 * 64 / 32767)
t.is_deeply(values(doc, bin, p1.attributes.NORMAL),
  { 0, 0, z, 0, 0, z, 0, 0, z, 0, 0, 1 },
  "NORMAL: decoded as stored; the zero normal is its faces' (0, 0, 1)")

local h = f32(math.sqrt(0.5))
t.is_deeply(values(doc, bin, p1.attributes.TANGENT),
  { 1, 0, 0, 1,   1, 0, 0, -1,   h, h, 0, 1,   1, 0, 0, 1 },
  "TANGENT: A normalised; w = +1 right-handed, -1 for the left-handed"
  .. " frame (N = z, A = x, B = -y); zero A gives B x N")
local ax, ay = f32(1023 * 32 / 32767), f32(512 * 32 / 32767)
t.is_deeply(values(doc, bin, p1.attributes._TANGENT_A),
  { ax, 0, 0, ax, 0, 0, ay, ay, 0, 0, 0, 0 },
  "_TANGENT_A: the raw decoded A, not normalised")
t.is_deeply(values(doc, bin, p1.attributes._TANGENT_B),
  { 0, ax, 0, 0, -ax, 0, 0, ax, 0, 0, ax, 0 },
  "_TANGENT_B: the raw decoded B")
t.is_deeply(values(doc, bin, p1.indices), { 0, 1, 2, 0, 2, 3 },
  "submesh 1's indices, 0-based")

-- materials: the bundle's, plus a variant without texture for submesh 4
local m1 = doc.materials[p1.material + 1]
t.is(m1.name, "checker", "the bundle's material")
t.is(m1.pbrMetallicRoughness.baseColorTexture.texCoord, 0,
  "base colour on texCoord 0 (logical UV0)")
local tex = doc.textures[m1.pbrMetallicRoughness.baseColorTexture.index + 1]
t.is(doc.images[tex.source + 1].uri, "../in/tex/check.png",
  "the image by its path relative to the .gltf")
t.is_deeply(m1.extras.samplers, {
  { slot = "0x95591C40", texture = "tex/check.png" },
  { slot = "0x12345678", texture = "tex/other.png" } },
  "every sampler of the material in its extras")
local m4 = doc.materials[p4.material + 1]
t.is(m4.name, "checker (no UV0)", "submesh 4: the untextured variant")
t.is(m4.pbrMetallicRoughness.baseColorTexture, nil,
  "which has no base-colour texture")

-- strip and tree
local strip = mesh_named(doc, "strip")
t.is_deeply(values(doc, bin, strip.primitives[1].indices),
  { 0, 1, 2, 2, 1, 3, 2, 3, 4 },
  "strip 1 2 3 4, restart, 3 4 5: second triangle swapped")
t.is(strip.primitives[1].material, nil, "no material, none written")
t.is(strip.primitives[1].attributes.TANGENT, nil, "no A and B: no TANGENT")

local tree = mesh_named(doc, "tree").primitives[1]
t.is_deeply(values(doc, bin, tree.attributes._EXTRA_A),
  { 1, -1, 0.5, 3.140625, 1, -1, 0.5, 3.140625, 1, -1, 0.5, 3.140625 },
  "_EXTRA_A: the tree extra A halves")
t.is_deeply(values(doc, bin, tree.attributes._EXTRA_B),
  { 5, -3, 0, 0, 5, -3, 0, 0, 5, -3, 0, 0 }, "_EXTRA_B")
t.is_deeply(values(doc, bin, tree.attributes.TEXCOORD_3),
  { 4, 0, 4, 0, 4, 0 }, "TEXCOORD_3 from stored set 3")

-- the same bundle as one .glb, and one file per mesh
code, err = export(sh_quote(at("in/good.rsxb")) .. " -o "
  .. sh_quote(at("glb")) .. " --glb")
t.is(code, 0, "--glb: exit status 0")
local gdoc, gbin = load(at("glb/good.glb"))
t.is(gdoc.buffers[1].uri, nil, "the .glb's buffer is its BIN chunk")
local g2 = mesh_named(gdoc, "frame").primitives[2]
t.is_deeply(values(gdoc, gbin, g2.attributes.TEXCOORD_0), UV_VALUES[2],
  "--glb: TEXCOORD_0 of selectors 02 01 00 ff equals stored set 2")
t.like(err, "handled: 1 zero normal replaced[^\n]*%(%-%-verbose names",
  "without --verbose, only the handled line")
-- the .glb holds its texture (issue 9): an image over a buffer view of
-- the PNG's very bytes, no URI; moved elsewhere it still stands alone
do
  local img = gdoc.images and gdoc.images[1] or {}
  t.is_deeply({ img.uri, img.mimeType, img.name },
    { nil, "image/png", "tex/check.png" },
    "--glb: the image is image/png, with no URI")
  local v = gdoc.bufferViews[(img.bufferView or -1) + 1] or {}
  t.is(gbin:sub((v.byteOffset or 0) + 1, (v.byteOffset or 0)
    + (v.byteLength or 0)), png_1x1(),
    "--glb: its buffer view holds the PNG's bytes")
  t.is(v.target, nil, "--glb: an image's view has no target")
  t.is(#gdoc.images, 1, "--glb: one image (tex/other.png is no base colour)")
  write_file(at("moved/deep/er/good.glb"), read_file(at("glb/good.glb")))
  write_file(at("moved/deep/er/good.gltf"), read_file(at("out/good.gltf")))
  write_file(at("moved/deep/er/good.bin"), read_file(at("out/good.bin")))
end

-- how many lines of text name the file pattern
local function lines_naming(text, pattern)
  local n = 0
  for line in text:gmatch("[^\n]+") do
    if line:find(pattern) then n = n + 1 end
  end
  return n
end

-- --copy-textures: the texture copied beside the .gltf, the image its copy
code, err = export(sh_quote(at("in/good.rsxb")) .. " -o "
  .. sh_quote(at("copied")) .. " --copy-textures")
t.is(code, 0, "--copy-textures: exit status 0")
local cdoc = load(at("copied/good.gltf"))
t.is(cdoc.images[1].uri, "tex/check.png",
  "--copy-textures: the image refers to the copy beside the file")
t.is(read_file(at("copied/tex/check.png")), png_1x1(),
  "--copy-textures: the copy holds the texture's bytes")
t.ok(read_file(at("copied/tex/other.png")) == nil,
  "--copy-textures: only the textures the file refers to")
code, err = export(sh_quote(at("odd/tex.rsxb")) .. " -o "
  .. sh_quote(at("copied2")) .. " --copy-textures")
t.is(code, 1, "--copy-textures: a texture that is not there fails the input")
t.like(err, "tex%.rsxb: [^\n]*odd/tex/nothere%.png: No such file",
  "... naming the texture file and the reason")
t.is(lines_naming(err, "nothere%.png"), 1,
  "... once (it was also 'not there' and 'not copied')")
t.is(read_file(at("copied2/fake.dds")), "DDS not really",
  "--copy-textures: any texture file is copied, PNG or not")
-- two bundles whose tex/check.png are different files, one copy: the
-- second is refused and the first copy kept, under -j 2 as under -j 1
-- (only one process can refuse the second in order)
assert(os.execute("mkdir -p " .. sh_quote(at("twin/tex"))))
write_file(at("twin/good2.rsxb"), read_file(at("in/good.rsxb")))
write_file(at("twin/tex/check.png"), "another check")
for _, j in ipairs({ "1", "2" }) do
  local out = "copied3_" .. j
  code, err = export(sh_quote(at("in/good.rsxb")) .. " "
    .. sh_quote(at("twin/good2.rsxb")) .. " -o " .. sh_quote(at(out))
    .. " --copy-textures -j " .. j)
  t.is(code, 1, "two textures for one copy, -j " .. j .. ": exit status 1")
  t.like(err, "good2%.rsxb: [^\n]*" .. out .. "/tex/check%.png: also the "
    .. "copy of [^\n]*/in/tex/check%.png\n",
    "... the second is refused, naming the first's source")
  t.is(read_file(at(out .. "/tex/check.png")), png_1x1(),
    "... and the first copy is kept")
end
-- written whole or not at all (issue 9): under a file-size limit of 4
-- blocks of 512 bytes (SIGXFSZ ignored, so that a write fails with EFBIG
-- rather than killing) good.gltf's JSON (some 10 KB) cannot be written:
-- neither it nor its .bin (under 2 KB, which fits) is left, nor any
-- temporary; the message names the file and the system's reason
for _, glb in ipairs({ "", " --glb" }) do
  local ext = glb == "" and "gltf" or "glb"
  code, err = export(sh_quote(at("in/good.rsxb")) .. " -o "
    .. sh_quote(at("limited" .. ext)) .. glb, "trap '' XFSZ; ulimit -f 4; ")
  t.is(code, 1, "a file-size limit (" .. ext .. "): exit status 1")
  t.like(err, "gltf%-export: [^\n]*good%.rsxb: [^\n]*limited" .. ext
    .. "/good%." .. ext .. ": File too large\n",
    "... the message names the file and the reason")
  local left = {}
  for name in require("lfs").dir(at("limited" .. ext)) do
    if name ~= "." and name ~= ".." then left[#left + 1] = name end
  end
  t.is_deeply(left, {}, "... no file at all: no ." .. ext .. ", no .bin,"
    .. " no temporary")
end

code, err = export(sh_quote(at("in/good.rsxb")) .. " -o "
  .. sh_quote(at("x")) .. " --glb --copy-textures")
t.is(code, 2, "--copy-textures with --glb: a usage error")
t.like(err, "a %.glb holds its textures already", "... saying why")
t.ok(not err:find("submesh 3:"), "and no per-mesh lines")

code = export(sh_quote(at("in/good.rsxb")) .. " -o " .. sh_quote(at("each"))
  .. " --per-mesh --mesh frame --mesh tree")
t.is(code, 0, "--per-mesh --mesh frame --mesh tree: exit status 0")
local each = load(at("each/good/frame.gltf"))
t.is(#each.meshes, 1, "--per-mesh: one mesh per file")
t.is(each.images[1].uri, "../../in/tex/check.png",
  "--per-mesh: image path relative to the mesh's file")
t.ok(read_file(at("each/good/tree.gltf")) ~= nil, "tree.gltf is there")
t.ok(read_file(at("each/good/strip.gltf")) == nil,
  "--mesh leaves out what does not match")

code = export("-o " .. sh_quote(at("x")))
t.is(code, 2, "no input: usage error, exit status 2")
code = export(sh_quote(at("in/good.rsxb")))
t.is(code, 2, "no -o: usage error, exit status 2")
code, err = export(sh_quote(at("in/none.rsxb")) .. " -o "
  .. sh_quote(at("x")))
t.is(code, 1, "a missing input: exit status 1")
t.like(err, "none%.rsxb", "and a line naming it")

write_file(at("odd/good.rsxb"), read_file(at("in/good.rsxb")))
code, err = export(sh_quote(at("in/good.rsxb")) .. " "
  .. sh_quote(at("odd/good.rsxb")) .. " -o " .. sh_quote(at("twice")))
t.is(code, 1, "two inputs for one output file: exit status 1")
t.like(err, "odd/good%.rsxb: [^\n]*twice/good%.gltf: also the output of",
  "the second is refused, not written over the first")

code, err = export(sh_quote(at("odd/tex.rsxb")) .. " -o "
  .. sh_quote(at("tex")))
t.is(code, 0, "textures out of reach: exit status 0")
t.like(err, "tex%.rsxb: texture tex/nothere%.png is not there",
  "a missing texture is named")
t.is(lines_naming(err, "nothere%.png"), 1, "... once")
code, err = export(sh_quote(at("odd/tex.rsxb")) .. " -o "
  .. sh_quote(at("texglb")) .. " --glb")
t.is(lines_naming(err, "nothere%.png"), 1,
  "--glb: a missing texture named once (it was also 'not embedded')")
t.like(err, "tex%.rsxb: texture fake%.dds is neither PNG nor JPEG",
  "a texture glTF does not allow is named")
local tdoc = load(at("tex/tex.gltf"))
t.is(tdoc.images[2].uri, "../odd/fake.dds", "and still referred to")

-- what glTF cannot take: handled, or the mesh left out with a message
code, err = export(sh_quote(at("odd/odd.rsxb")) .. " -o "
  .. sh_quote(at("odd")) .. " -v")
t.is(code, 1, "odd: exit status 1 for the NaN position")
t.like(err, "odd%.rsxb: mesh 2 %(nan_pos%): positions hold NaN or"
  .. " infinity", "a NaN position leaves its mesh out, named")
t.like(err, "mesh 1 %(nan_uv%): stored UV set 0 holds NaN or infinity",
  "a NaN UV leaves its stored set out, named")
t.like(err, "mesh 1 %(nan_uv%): submesh 2 has no triangles: left out",
  "an empty submesh is left out, named")
t.like(err, "mesh 3 %(flat%): no triangles: mesh left out",
  "a mesh with only degenerate triangles is left out, named")
local odd, obin = load(at("odd/odd.gltf"))
t.is(#odd.meshes, 2, "odd: only nan_uv and gap are written")
local op = odd.meshes[1].primitives
t.is(#op, 1, "nan_uv: the empty submesh has no primitive")
t.is_deeply(values(odd, obin, op[1].attributes.TEXCOORD_0),
  { 1.123046875, 0.5, 1.123046875, 0.5, 1.123046875, 0.5 },
  "TEXCOORD_0 from stored set 1 (0x3C7E is no NaN one byte off)")
t.is(op[1].attributes.TEXCOORD_1, nil, "UV1, the NaN set, is left out")
t.is_deeply(values(odd, obin, op[1].attributes.POSITION),
  { 0.998046875, 0, 0, 0, 1, 0, 1, 1, 0 },
  "POSITION 0x3F7F8000 is no NaN one byte off")
t.like(err, "mesh 4 %(gap%): submesh 1: logical UV0 is absent, so UV1"
  .. " %(stored set 1%) is dropped", "gap: UV1 dropped, named")
local used = {}
for _, m in ipairs(odd.meshes) do
  for _, p in ipairs(m.primitives) do
    used[p.indices] = true
    for _, a in pairs(p.attributes) do used[a] = true end
  end
end
local unused = {}
for i = 0, #odd.accessors - 1 do
  if not used[i] then unused[#unused + 1] = i end
end
t.is_deeply(unused, {}, "no accessor for a dropped UV: every one is used")

-- a failure is named once, as the module names it: b:mesh(2), its
-- submesh 2, and the 6th index (m:index(6)), 8 in a mesh of 3 vertices;
-- the exporter's own failures get the same label in front
do
  local w = rsxmesh.writer()
  assert(w:mesh(odd_mesh("nan_pos", 0x7FC00000, { 0, 0, 0 }, 0)))
  local mmp = string.rep(string.pack(">I4I4I4I4", 0, 0, 0, N_UP), 3)
  assert(w:mesh{ name = "wild", meta = meta(0x00080005), vertex_count = 3,
    mmp = mmp, mmp_stride = 16,
    indices = rsxmesh.indices(2, { 1, 2, 3, 1, 2, 9 }),
    index_size = 2, primitive = "triangles",
    submeshes = {
      { record = record("\255\255\255\255"), first_index = 0,
        index_count = 3 },
      { record = record("\255\255\255\255"), first_index = 3,
        index_count = 3 } } })
  -- no name, and an MMP stride of 20 where the mask implies 16
  assert(w:mesh{ name = "", meta = meta(0x00080005), vertex_count = 3,
    mmp = string.rep("\0", 60), mmp_stride = 20,
    indices = rsxmesh.indices(2, { 1, 2, 3 }), index_size = 2,
    submeshes = { { record = record("\255\255\255\255"), first_index = 0,
      index_count = 3 } } })
  assert(w:save(at("odd/wild.rsxb")))
end
code, err = export(sh_quote(at("odd/wild.rsxb")) .. " -o "
  .. sh_quote(at("wild")))
t.is(code, 1, "wild: exit status 1")
t.like(err, "gltf%-export: [^\n]*/wild%.rsxb: mesh 2 %(wild%): submesh 2: "
  .. "index at position 6 is 8, not below the vertex count 3\n",
  "an index out of range: the module's message, labelled once")
t.like(err, "gltf%-export: [^\n]*/wild%.rsxb: mesh 1 %(nan_pos%): "
  .. "positions hold NaN or infinity: mesh left out\n",
  "the exporter's own failure gets the mesh's label")
t.like(err, "gltf%-export: [^\n]*/wild%.rsxb: mesh 3: cannot decode "
  .. "position: mmp%-stride: MMP stride 20 differs from 16 implied by mask "
  .. "0x00080005\n", "an unnamed mesh: labelled as the module does")
t.ok(not err:find("mesh %d+ %([^)]*%): mesh %d"), "no label twice")

-- ------------------------------------------------------------ validator

local top = os.getenv("top_srcdir") or "."
local files = { at("out/good.gltf"), at("glb/good.glb"),
  at("each/good/frame.gltf"), at("each/good/tree.gltf"),
  at("odd/odd.gltf"), at("moved/deep/er/good.glb"),
  at("copied/good.gltf") }
-- found as t/gltf-validate.js's require finds it: node_modules in t/ or
-- any folder above it (distcheck's tree lies inside the source tree)
local have = os.execute("cd " .. sh_quote(top .. "/t") .. " && node -e "
  .. "'require.resolve(\"gltf-validator\")' >/dev/null 2>&1")
if not have then
  t.skip(2 * #files + 1, "node cannot find gltf-validator from "
    .. top .. "/t: run `npm ci` at the top of the source tree")
else
  local quoted = {}
  for i, f in ipairs(files) do quoted[i] = sh_quote(f) end
  quoted[#quoted + 1] = sh_quote(at("moved/deep/er/good.gltf"))
  local p = io.popen("node " .. sh_quote(top .. "/t/gltf-validate.js")
    .. " " .. table.concat(quoted, " ") .. " 2>&1")
  local report = p:read("a")
  p:close()
  -- the control: a .gltf moved away has lost its texture
  local moved = at("moved/deep/er/good.gltf")
  t.like(report, moved:gsub("%p", "%%%0") .. ": [1-9]%d* errors?",
    "validator: a moved .gltf misses its image, unlike the moved .glb")
  report = report:gsub("[^\n]*" .. moved:gsub("%p", "%%%0")
    .. ": [^\n]*\n", "")
  local clean = true
  for _, f in ipairs(files) do
    local e, w = report:match(f:gsub("%p", "%%%0")
      .. ": (%d+) errors, (%d+) warnings")
    clean = t.is(tonumber(e), 0, "validator: no error in "
      .. f:sub(#tmp + 2)) and clean
    clean = t.is(tonumber(w), 0, "validator: no warning in "
      .. f:sub(#tmp + 2)) and clean
  end
  if not clean then t.diag(report) end
end

-- A UV set that a finding keeps from decoding (mask 0x00080025 implies an
-- MGP stride of 4: U0 as two halves; this one is stored with 6) fails the
-- mesh with the core's message, not as a set of NaN.
do
  local w = rsxmesh.writer()
  assert(w:mesh(assert(rsxmesh.mesh{
    name = "uvskew", meta = meta(0x00080025), vertex_count = 3,
    mmp = string.rep(string.pack(">fffI4", 0, 0, 0, N_UP), 3),
    mmp_stride = 16, mgp = string.rep("\0", 18), mgp_stride = 6,
    indices = rsxmesh.indices(2, { 1, 2, 3 }),
    index_size = 2, primitive = "triangles",
    submeshes = { { record = record("\255\255\255\255"), first_index = 0,
      index_count = 3 } },
  })))
  assert(w:save(at("uvskew.rsxb")))
  local code2, err2 = export(sh_quote(at("uvskew.rsxb")) .. " -o "
    .. sh_quote(at("out-uvskew")))
  t.is(code2, 1, "a UV set a finding keeps from decoding fails the run")
  t.like(err2, "uvskew%.rsxb: mesh 1 %(uvskew%): [^\n]*MGP stride 6",
    "... with the core's message naming the stride")
  t.ok(not err2:find("NaN", 1, true), "... and no word of NaN")
end

-- A stored set that no logical UV reads goes out as _UV_SET_n, for
-- gltf-import. Mask 0x00080065: U0 at MGP +0, U1 at +4; selectors 01 01
-- 01 01 route every logical UV to set 1, so set 0 feeds none. Halves by
-- hand: 0x3C00 1, 0x4000 2, 0x4200 3, 0x4400 4, 0x4500 5, 0x4600 6;
-- 0x3800 0.5, 0xB800 -0.5, 0x0000 0, 0xBC00 -1.
do
  local set0 = { 0x3C00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600 }
  local set1 = { 0x3800, 0xB800, 0x0000, 0xBC00, 0x3800, 0x3800 }
  local mgp = {}
  for v = 1, 3 do
    mgp[v] = string.pack(">HHHH", set0[2 * v - 1], set0[2 * v],
      set1[2 * v - 1], set1[2 * v])
  end
  local w = rsxmesh.writer()
  assert(w:mesh(assert(rsxmesh.mesh{
    name = "lightmapped", meta = meta(0x00080065), vertex_count = 3,
    mmp = string.pack(">fffI4fffI4fffI4", 0, 0, 0, N_UP, 1, 0, 0, N_UP,
      0, 1, 0, N_UP), mmp_stride = 16,
    mgp = table.concat(mgp), mgp_stride = 8,
    indices = rsxmesh.indices(2, { 1, 2, 3 }),
    index_size = 2, primitive = "triangles",
    submeshes = { { record = record("\1\1\1\1"), first_index = 0,
      index_count = 3 } },
  })))
  assert(w:save(at("lightmapped.rsxb")))
  local code3 = export(sh_quote(at("lightmapped.rsxb")) .. " -o "
    .. sh_quote(at("out-lm")))
  t.is(code3, 0, "a set that no logical UV reads: exported")
  local ldoc, lbin = load(at("out-lm/lightmapped.gltf"))
  local attrs = ldoc.meshes[1].primitives[1].attributes
  t.is_deeply(values(ldoc, lbin, attrs._UV_SET_0), { 1, 2, 3, 4, 5, 6 },
    "_UV_SET_0: stored set 0, which no logical UV reads")
  t.is(attrs._UV_SET_1, nil, "no _UV_SET_1: set 1 is every TEXCOORD_n")
  t.is_deeply(values(ldoc, lbin, attrs.TEXCOORD_3),
    { 0.5, -0.5, 0, -1, 0.5, 0.5 }, "TEXCOORD_3: stored set 1")
  t.is(frame.primitives[1].attributes._UV_SET_0, nil,
    "frame: every stored set is some TEXCOORD_n: no _UV_SET_n")
end

os.execute("rm -rf " .. sh_quote(tmp))
t.done_testing()
