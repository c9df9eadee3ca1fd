-- api-obj-lines.lua - m:obj_lines, a whole mesh as obj-export writes it in
-- one call (issue 22): the lines of a small bundle worked out by hand from
-- its bytes, the options, the checks made before anything is written, and
-- hostile arguments.
local t = require "tap"
local rsxmesh = require "rsxmesh"
local fx = require "api-fixture"

local u32, u16, u8 = fx.u32, fx.u16, fx.u8
local into_file = fx.into_file

-- box: crate's layout (mask 0x000800ff; MMP: position, CMP normal 0; MGP:
-- colour, tangents A and B, UV0, UV1, UV2 as binary16), three vertices:
--   position     colour        UV0        UV1        UV2
--   (1, 2, 3)    FF 00 33 80   (1, 0.5)   (0, 0)     (2, 2)
--   (0, -1, .5)  00 FF 00 00   (0.5, 1)   (1, 2)     (2, 2)
--   (4, 5, 6)    33 33 33 FF   (0, 0)     (2, 0.5)   (2, 2)
-- Submesh 1 (0 1 2) reads stored set 0 for UV0 and has material 1, 2 (2 1
-- 0) set 1 and no material, 3 (0 1 2 again) set 0 and material 2; their
-- logical UV3 is absent (0xFF: stored set 3, which the mask lacks).
local box_mmp = u32(0x3F800000, 0x40000000, 0x40400000, 0)
  .. u32(0x00000000, 0xBF800000, 0x3F000000, 0)
  .. u32(0x40800000, 0x40A00000, 0x40C00000, 0)
local box_mgp = u8(0xFF, 0x00, 0x33, 0x80) .. u32(0, 0)
    .. u16(0x3C00, 0x3800, 0x0000, 0x0000, 0x4000, 0x4000)
  .. u8(0x00, 0xFF, 0x00, 0x00) .. u32(0, 0)
    .. u16(0x3800, 0x3C00, 0x3C00, 0x4000, 0x4000, 0x4000)
  .. u8(0x33, 0x33, 0x33, 0xFF) .. u32(0, 0)
    .. u16(0x0000, 0x0000, 0x4000, 0x3800, 0x4000, 0x4000)

local w = rsxmesh.writer()
assert(w:material("brick", {}) == 1)
assert(w:material("glass", {}) == 2)
assert(w:mesh(assert(rsxmesh.mesh{ name = "box", meta = fx.meta(0x000800ff),
  vertex_count = 3, mmp = box_mmp, mmp_stride = 16, mgp = box_mgp,
  mgp_stride = 24, indices = u16(0, 1, 2, 2, 1, 0), index_size = 2,
  submeshes = {
    { record = fx.record(0x00, 0xFF, 0xFF, 0xFF), first_index = 0,
      index_count = 3, material = 1 },
    { record = fx.record(0x01, 0xFF, 0xFF, 0xFF), first_index = 3,
      index_count = 3 },
    { record = fx.record(0x00, 0xFF, 0xFF, 0xFF), first_index = 0,
      index_count = 3, material = 2 },
  } })))
local b = assert(rsxmesh.load(w:bytes(), "box.rsxb"))
local box = b:mesh("box")
local NAMES = { "brick", "glass" }

-- the whole mesh ------------------------------------------------------------

-- V flipped: UV0's v 0.5, 1, 0 are written 0.5, 0, 1; UV1's 0, 2, 0.5 are
-- 1, -1, 0.5. Set 1 first met at submesh 2: its block after set 0's, so
-- its vt numbers are 4 to 6.
local BOX = "o box\n"
  .. "v 1 2 3\nv 0 -1 0.5\nv 4 5 6\n"
  .. "vn 0 0 0\nvn 0 0 0\nvn 0 0 0\n"
  .. "vt 1 0.5\nvt 0.5 0\nvt 0 1\n"
  .. "g box.1\nusemtl brick\nf 1/1/1 2/2/2 3/3/3\n"
  .. "vt 0 1\nvt 1 -1\nvt 2 0.5\n"
  .. "g box.2\nusemtl (none)\nf 3/6/3 2/5/2 1/4/1\n"
  .. "g box.3\nusemtl glass\nf 1/1/1 2/2/2 3/3/3\n"
t.is_deeply({ box:obj_lines{ materials = NAMES } }, { BOX, 3, 3 },
  "obj_lines: v, vn, a vt block per stored set before its first group, "
  .. "g, usemtl and f")
do
  local text, bytes, triangles, vertices = into_file(function(f)
    return box:obj_lines{ materials = NAMES, file = f }
  end)
  t.is(text, BOX, "obj_lines: the same bytes into a file")
  t.is_deeply({ bytes, triangles, vertices }, { #BOX, 3, 3 },
    "obj_lines: the bytes written, the triangles, the vertices")
end

do
  local counts, used = { v = 10, vt = 20, vn = 30 }, {}
  local text, triangles = box:obj_lines{ name = "b_1", colours = true,
    counts = counts, materials = NAMES, none = "grey", used = used }
  -- colours: bytes / 255 (0x33 / 255 = 0.2, 0x80 / 255 = 0.5019608 in
  -- float32), no alpha; every number after the counts given
  t.is(text, "o b_1\n"
    .. "v 1 2 3 1 0 0.2\nv 0 -1 0.5 0 1 0\nv 4 5 6 0.2 0.2 0.2\n"
    .. "vn 0 0 0\nvn 0 0 0\nvn 0 0 0\n"
    .. "vt 1 0.5\nvt 0.5 0\nvt 0 1\n"
    .. "g b_1.1\nusemtl brick\nf 11/21/31 12/22/32 13/23/33\n"
    .. "vt 0 1\nvt 1 -1\nvt 2 0.5\n"
    .. "g b_1.2\nusemtl grey\nf 13/26/33 12/25/32 11/24/31\n"
    .. "g b_1.3\nusemtl glass\nf 11/21/31 12/22/32 13/23/33\n",
    "obj_lines: name, colours, counts and none")
  t.is(triangles, 3, "obj_lines: three triangles")
  t.is_deeply(counts, { v = 13, vt = 26, vn = 33 },
    "obj_lines: counts advanced by the lines written")
  t.is_deeply(used, { brick = true, grey = true, glass = true },
    "obj_lines: the materials written marked in used")
end

do
  local counts = { v = 3, vt = 6, vn = 3 }
  t.is(box:obj_lines{ uv = 3, counts = counts, materials = { "brick" } },
    "o box\n"
    .. "v 1 2 3\nv 0 -1 0.5\nv 4 5 6\n"
    .. "vn 0 0 0\nvn 0 0 0\nvn 0 0 0\n"
    .. "g box.1\nusemtl brick\nf 4//4 5//5 6//6\n"
    .. "g box.2\nusemtl (none)\nf 6//6 5//5 4//4\n"
    .. "g box.3\nusemtl (none)\nf 4//4 5//5 6//6\n",
    "obj_lines: an absent logical UV (v//vn), a material not named")
  t.is_deeply(counts, { v = 6, vt = 6, vn = 6 },
    "obj_lines: no vt written, vt's count kept")
end

-- fixture's odd: one vertex (1, 1, 1), a CMP normal 0, no submesh
local fixture = assert(rsxmesh.load(fx.bytes(), "fixture.rsxb"))
t.is_deeply({ fixture:mesh("odd"):obj_lines() }, { "o odd\nv 1 1 1\n"
  .. "vn 0 0 0\n", 0, 1 }, "obj_lines: no submesh, no options")

-- a built mesh: positions alone, no materials (a writer's numbers)
local function built(name, n, indices, selectors)
  local mmp = {}
  for i = 1, n do mmp[i] = string.pack(">fffI4", i, -i, 0.5 * i, 0) end
  return assert(rsxmesh.mesh{ name = name, meta = fx.meta(0x00080001),
    vertex_count = n, mmp = table.concat(mmp), mmp_stride = 16,
    indices = rsxmesh.indices(2, indices), index_size = 2,
    submeshes = { { record = fx.record(table.unpack(selectors or
      { 0xFF, 0xFF, 0xFF, 0xFF })), first_index = 0,
      index_count = #indices } } })
end
t.is(built("tri", 3, { 1, 2, 3 }):obj_lines{ counts = { v = 7 } },
  "o tri\nv 1 -1 0.5\nv 2 -2 1\nv 3 -3 1.5\ng tri.1\nusemtl (none)\n"
  .. "f 8 9 10\n", "obj_lines: a built mesh, positions alone (f v)")
t.is(built("none", 0, {}):obj_lines{ counts = { v = 2 } },
  "o none\ng none.1\nusemtl (none)\n",
  "obj_lines: no vertices, no indices")

-- checked before anything is written ----------------------------------------

do
  local bad = built("bad", 3, { 1, 2, 4 })
  local counts, used = { v = 1 }, {}
  local text, why, errno = into_file(function(f)
    return bad:obj_lines{ counts = counts, used = used, file = f }
  end)
  t.is(text, "", "obj_lines: an index out of range, nothing written")
  t.is(why, nil, "obj_lines: an index out of range gives nil")
  t.is(errno, select(2, bad:submesh(1):triangles()),
    "obj_lines: the message of s:triangles")
  t.like(errno, "^mesh %(bad%): .*index", "obj_lines: naming the mesh")
  t.is_deeply({ counts, used }, { { v = 1 }, {} },
    "obj_lines: counts and used left as they were")
end
do
  -- odd's MGP stride 20 differs from the 16 its mask implies: its UV0
  -- cannot be decoded, and a submesh reads it
  local odd = assert(rsxmesh.mesh{ name = "odd", meta = fx.meta(0x0008007d),
    vertex_count = 1, mmp = fx.odd_mmp, mmp_stride = 16, mgp = fx.odd_mgp,
    mgp_stride = 20, indices = u16(0, 0, 0), index_size = 2,
    submeshes = { { record = fx.record(0x00, 0xFF, 0xFF, 0xFF),
      first_index = 0, index_count = 3 } } })
  local text, bytes, why = into_file(function(f)
    return odd:obj_lines{ file = f }
  end)
  t.is_deeply({ text, bytes, why }, { "", nil, "mesh (odd): cannot decode "
    .. "uv0: mgp-stride: MGP stride 20 differs from 16 implied by mask "
    .. "0x0008007d" }, "obj_lines: a UV set that cannot be decoded, nothing "
    .. "written")
  -- (0xFF: stored set 3 for UV3, absent; its UV1 would be set 1)
  t.is(odd:obj_lines{ uv = 3 }, "o odd\nv 1 1 1\nvn 0 0 0\ng odd.1\n"
    .. "usemtl (none)\n", "obj_lines: the same mesh without that UV")
end

do
  local counts = { v = 4 }
  local ro = assert(io.open("/dev/null"))
  t.is_deeply({ box:obj_lines{ counts = counts, file = ro } },
    { nil, "Bad file descriptor", 9 },
    "obj_lines: a failed write gives nil, message and errno")
  t.is_deeply(counts, { v = 4 }, "obj_lines: counts kept after a failed write")
  ro:close()
end

do
  local long = string.rep("n", 70000)
  local text = into_file(function(f)
    return built("tri", 3, { 1, 2, 3 }):obj_lines{ name = long, file = f }
  end)
  t.is(text, "o " .. long .. "\nv 1 -1 0.5\nv 2 -2 1\nv 3 -3 1.5\ng " .. long
    .. ".1\nusemtl (none)\nf 1 2 3\n",
    "obj_lines: a name longer than a block, whole")
end

-- hostile arguments ---------------------------------------------------------

local function refuses(opts, pattern, name)
  t.error_like(function() box:obj_lines(opts) end, pattern, name)
end
refuses(42, "^mesh:obj_lines: bad argument #1 %(table expected, got "
  .. "number%)", "obj_lines: options that are not a table")
refuses({ nmae = "x" }, "^mesh:obj_lines: unknown option 'nmae'",
  "obj_lines: an unknown option")
refuses({ name = 1 }, "^mesh:obj_lines: opts%.name must be a string, got "
  .. "number", "obj_lines: a number as the name")
for _, uv in ipairs{ 4, -1, 1.5, "x" } do
  refuses({ uv = uv }, "^mesh:obj_lines: opts%.uv must be an integer 0%.%.3, "
    .. "got ", "obj_lines: uv " .. tostring(uv))
end
refuses({ counts = 5 }, "^mesh:obj_lines: opts%.counts must be a table, got "
  .. "number", "obj_lines: counts that are not a table")
refuses({ counts = { v = -1 } }, "^mesh:obj_lines: opts%.counts%.v must be "
  .. "an integer 0%.%.2%^53, got %-1", "obj_lines: a negative count")
refuses({ counts = { vt = math.tointeger(2 ^ 53) + 1 } },
  "opts%.counts%.vt must be an integer 0%.%.2%^53, got 9007199254740993",
  "obj_lines: a count past 2^53")
refuses({ counts = { vn = 0.5 } }, "opts%.counts%.vn must be an integer",
  "obj_lines: a fractional count")
refuses({ counts = { v = {} } }, "opts%.counts%.v must be an integer "
  .. "0%.%.2%^53, got table", "obj_lines: a table as a count")
refuses({ materials = { "brick", 42 } }, "^mesh:obj_lines: "
  .. "opts%.materials%[2%] must be a string, got number",
  "obj_lines: a material name not a string")
refuses({ materials = "brick" }, "opts%.materials must be a table",
  "obj_lines: materials not a table")
refuses({ used = true }, "opts%.used must be a table",
  "obj_lines: used not a table")
refuses({ file = "out.obj" }, "^mesh:obj_lines: opts%.file must be a file, "
  .. "got string", "obj_lines: a file name instead of a file")
do
  local f = assert(io.tmpfile())
  f:close()
  refuses({ file = f }, "^mesh:obj_lines: the file is closed",
    "obj_lines: a closed file")
end
t.is(box:obj_lines{ counts = { v = 2 ^ 53, vt = "1", vn = 0.0 } }
  :match("f [^\n]*"), "f 9007199254740993/2/1 9007199254740994/3/2 "
  .. "9007199254740995/4/3", "obj_lines: counts at 2^53, a numeric string, "
  .. "an integral float")
t.error_like(function() box.obj_lines(box:submesh(1)) end,
  "^mesh:obj_lines: bad self", "obj_lines: a submesh as self")
b:close()
t.error_like(function() box:obj_lines() end,
  "^mesh:obj_lines: bundle is closed", "obj_lines: after close")

t.done_testing()
