-- api-copy.lua - raw streams, m:with copies, b:material(name), the writer's
-- material mapping and its seeded string table, and one userdata per
-- bundle entry. Expected bytes are cut from t/api-fixture.lua's own
-- spelling or packed by string.pack, never by rsxmesh's encoders.
local t = require "tap"
local rsxmesh = require "rsxmesh"
local fx = require "api-fixture"

local bytes = fx.bytes()
local b = assert(rsxmesh.load(bytes, "fixture.rsxb"))
local crate, strip = b:mesh("crate"), b:mesh("strip")

local function u32(...)
  return string.pack(">" .. ("I4"):rep(select("#", ...)), ...)
end

-- The string table of bundle bytes, cut by the header's fields.
local function strings_of(file)
  local at, size = string.unpack(">I4I4", file, 0x2C + 1)
  return file:sub(at + 1, at + size)
end

-- Raw bytes -----------------------------------------------------------------
t.is(crate:stream("mmp"), fx.crate_mmp, "m:stream('mmp'): as spelled out")
t.is(crate:stream("mgp"), fx.crate_mgp, "m:stream('mgp'): as spelled out")
t.is(strip:stream("mgp"), "", "m:stream('mgp') of a mesh without MGP: ''")
t.is(crate:index_bytes(), fx.crate_indices, "m:index_bytes(): u16 as stored")
t.is(strip:index_bytes(), fx.strip_indices,
  "m:index_bytes(): u32 with the restart as stored")
t.error_like(function() return crate:stream("xyz") end,
  "invalid option 'xyz'", "m:stream: an unknown stream raises")

-- One userdata per entry ----------------------------------------------------
t.ok(rawequal(b:mesh(1), b:mesh("crate")), "b:mesh(1) is b:mesh('crate')")
local seen = {}
for i, m in b:meshes() do seen[m] = i end
t.is(seen[crate], 1, "a mesh as a table key")
t.ok(rawequal(crate:submesh(2), select(2, crate:submeshes()(crate, 1))),
  "m:submesh(2) is what m:submeshes() gives second")
t.ok(rawequal(b:material(1), crate:submesh(1).material),
  "b:material(1) is the material of crate's submesh 1")
t.ok(rawequal(b:material("glass"), crate:submesh(3).material),
  "b:material('glass') is the material of crate's submesh 3")
t.isnt(crate, strip, "two meshes differ")
t.isnt(crate:submesh(1), crate:submesh(2), "two submeshes differ")

-- b:material(name) ----------------------------------------------------------
t.is(b:material("glass").index, 2, "b:material('glass') is material 2")
t.is(b:material("nowhere"), nil, "b:material of an unknown name: nil")

-- m:with{}: a copy byte for byte ---------------------------------------------
local copy = crate:with{}
t.is(copy.number, nil, "a copy is a built mesh: no number")
t.is(copy.name, "crate", "a copy keeps the name")
t.is(copy:stream("mmp") .. copy:stream("mgp") .. copy:index_bytes(),
  fx.crate_mmp .. fx.crate_mgp .. fx.crate_indices,
  "m:with{}: streams and indices byte for byte")
t.is(copy:record():bytes(), fx.meta(0x000800ff), "m:with{}: the record")
t.is(copy:submesh(3):record():bytes(), fx.record(0x07, 0x03, 0xFF, 0xFF),
  "m:with{}: a submesh record")
t.is(copy:submesh(1).material.name, "brick",
  "a copy's submesh keeps its bundle's material")
t.ok(copy:submesh(1) == copy:submesh(1), "a copy's submeshes compare ==")

-- A copy of every mesh, through a writer seeded with the bundle's strings:
-- the very bytes of the fixture.
do
  local w = rsxmesh.writer(b)
  for _, mat in b:materials() do w:material(mat.name, mat:samplers()) end
  for _, m in b:meshes() do assert(w:mesh(m:with{})) end
  t.ok(w:bytes() == bytes, "every mesh copied by m:with{}: the same file")
end

-- Replaced attributes --------------------------------------------------------
do
  -- positions from a table: bytes 0..11 of each 16-byte MMP vertex
  local p = crate:with{ position = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 0.1, -1, 0 } }
  local want = {}
  local words = { { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 }, { 0.1, -1, 0 } }
  for v = 1, 4 do
    want[v] = string.pack(">fff", table.unpack(words[v]))
      .. fx.crate_mmp:sub(16 * v - 3, 16 * v)
  end
  t.is(p:stream("mmp"), table.concat(want),
    "position from a table: floats, the normals' bytes kept")
  t.is(p:stream("mgp"), fx.crate_mgp, "position from a table: MGP kept")

  -- normals to CMP, worked by hand: x = 1 is 32767/32 -> 1023 (clamped),
  -- y = 1 the same in bits 11..21, z = 1 is 32767/64 -> 511 in bits
  -- 22..31, x = -1 is -1023.97 -> -1024, 0x400 in 11 bits
  local n = crate:with{ normal = { 1, 0, 0, 0, 1, 0, 0, 0, 1, -1, 0, 0 } }
  local words_n = { 0x000003FF, 0x001FF800, 0x7FC00000, 0x00000400 }
  local want_n = {}
  for v = 1, 4 do
    want_n[v] = fx.crate_mmp:sub(16 * v - 15, 16 * v - 4) .. u32(words_n[v])
  end
  t.is(n:stream("mmp"), table.concat(want_n), "normal from a table: CMP")

  -- uv0 from raw bytes: MGP bytes 12..15 of each 24-byte vertex
  local raw = u32(0x11112222, 0x33334444, 0x55556666, 0x77778888)
  local u = crate:with{ uv0 = raw }
  local want_u = {}
  for v = 1, 4 do
    local at = 24 * (v - 1)
    want_u[v] = fx.crate_mgp:sub(at + 1, at + 12) .. raw:sub(4 * v - 3, 4 * v)
      .. fx.crate_mgp:sub(at + 17, at + 24)
  end
  t.is(u:stream("mgp"), table.concat(want_u), "uv0 from raw bytes")
  t.is(u:stream("mmp"), fx.crate_mmp, "uv0 from raw bytes: MMP kept")
end

-- A new vertex count, indices and submesh ranges
do
  local s = strip:with{ vertex_count = 3, primitive = "triangles",
    position = { 0, 0, 0, 1, 0, 0, 0, 1, 0 },
    normal = { 0, 0, 1, 0, 0, 1, 0, 0, 1 },
    indices = string.pack(">I2I2I2", 0, 1, 2), index_size = 2,
    submeshes = { { first_index = 0, index_count = 3 } } }
  t.is(s.vertex_count, 3, "resized: vertex count")
  -- the normal (0, 0, 1) is z = 32767/64 -> 511 in bits 22..31
  t.is(s:stream("mmp"), string.pack(">fffI4fffI4fffI4",
    0, 0, 0, 0x7FC00000, 1, 0, 0, 0x7FC00000, 0, 1, 0, 0x7FC00000),
    "resized: the MMP from the columns alone")
  t.is(s.primitive, "triangles", "resized: a triangle list")
  t.is(table.concat((s:triangles()), " "), "1 2 3", "resized: triangles")
  t.is(s:submesh(1).index_count, 3, "resized: submesh range")
  t.is(s:submesh(1).material.name, "glass", "resized: material kept")
  t.error_like(function() return crate:with{ vertex_count = 2,
    position = { 0, 0, 0, 1, 1, 1 } } end,
    "vertex_count 2 is not the mesh's 4, so every attribute is needed: "
      .. "colour is missing", "resized without every attribute: raises")
end

-- Misuse and refused data
t.error_like(function() return crate:with{ uv3 = {} } end,
  "mesh:with: mesh 1 %(crate%) has no uv3 %(mask 0x000800ff%)",
  "m:with: a kind the mask lacks raises")
t.error_like(function() return crate:with{ positon = {} } end,
  "mesh:with: unknown field 'positon'", "m:with: a typo raises")
t.error_like(function() return crate:with{ position = { 1, 2 } } end,
  "mesh:with: position has 2 values, expected 12 %(4 vertices x 3%)",
  "m:with: a short table raises")
t.error_like(function() return crate:with{ position = "abc" } end,
  "mesh:with: position is 3 bytes, expected 48 %(4 vertices x 12%)",
  "m:with: short bytes raise")
t.error_like(function() return crate:with{ position = { 1, "x", 3, 4, 5, 6,
  7, 8, 9, 10, 11, 12 } } end, "mesh:with: position%[2%] is not a number",
  "m:with: a value that is not a number raises")
local none, why = b:mesh("odd"):with{ uv0 = string.rep("\0", 4) }
t.is(none, nil, "m:with on a stream with a stride finding: nil")
t.like(why, "mgp%-stride", "... and the finding's message")
none, why = crate:with{ submeshes = { { index_count = 4 }, {}, {} } }
t.is(none, nil, "m:with: a list count not a multiple of 3: nil")
t.like(tostring(why), "^mesh:with: mesh %(crate%)", "... naming the copy")

-- The writer maps materials by name ------------------------------------------
do
  local w = rsxmesh.writer()
  w:material("glass")
  w:material("brick")
  assert(w:mesh(crate))
  local back = assert(rsxmesh.load(w:bytes()))
  local c = back:mesh(1)
  t.is(c:submesh(1).material.name, "brick", "mapped: submesh 1 is brick")
  t.is(c:submesh(1).material.index, 2, "... which is material 2 here")
  t.is(c:submesh(3).material.name, "glass", "mapped: submesh 3 is glass")
  t.is(c:submesh(2).material, nil, "mapped: no material stays none")

  local w2 = rsxmesh.writer()
  w2:material("brick")
  local ok, msg = w2:mesh(crate)
  t.is(ok, nil, "a material the writer lacks: nil")
  t.is(msg, "writer:mesh: mesh 1 (crate): submesh 3: material glass is not"
    .. " in this writer (w:material adds it)", "... naming it")
  ok, msg = w2:mesh(crate:with{})
  t.is(msg, "writer:mesh: mesh (crate): submesh 3: material glass is not"
    .. " in this writer (w:material adds it)", "... for a copy too")
end

-- Two materials of one name: a copy keeps each submesh's own number
do
  local w = rsxmesh.writer()
  w:material("twin")
  w:material("twin", { { slot = 1, texture = "b.png" } })
  assert(w:mesh{ name = "pair", meta = fx.meta(0x00080005),
    vertex_count = 3, mmp = fx.strip_mmp:sub(1, 48), mmp_stride = 16,
    indices = string.pack(">HHH", 0, 1, 2), index_size = 2,
    submeshes = { { record = fx.record(0, 0, 0, 0), first_index = 0,
      index_count = 3, material = 2 } } })
  local twins = assert(rsxmesh.load(w:bytes()))
  local again = rsxmesh.writer()
  again:material("twin")
  again:material("twin", { { slot = 1, texture = "b.png" } })
  assert(again:mesh(twins:mesh(1)))
  local back = assert(rsxmesh.load(again:bytes()))
  t.is(back:mesh(1):submesh(1).material.index, 2,
    "a name used twice: the submesh keeps material 2, not the first twin")
  local one = rsxmesh.writer()
  one:material("twin")
  one:material("other")
  assert(one:mesh(twins:mesh(1)))
  t.is(assert(rsxmesh.load(one:bytes())):mesh(1):submesh(1).material.index,
    1, "... and the first twin by name where number 2 is another name")
end

-- The seeded string table ----------------------------------------------------
do
  local w = rsxmesh.writer(b)
  w:material("glass")
  assert(w:mesh(strip))
  local out = w:bytes()
  t.is(strings_of(out), strings_of(bytes),
    "rsxmesh.writer(b): the string table starts as b's")
  local back = assert(rsxmesh.load(out))
  t.is(back:mesh(1).name .. " " .. back:material(1).name, "strip glass",
    "... and the names read back")
  t.is(string.unpack(">I4", out, string.unpack(">I4", out, 0x10 + 1) + 1),
    string.unpack(">I4", bytes, string.unpack(">I4", bytes, 0x10 + 1) + 64
      + 1), "strip's name keeps its offset from mesh 2 of the original")
  local plain = rsxmesh.writer()
  plain:material("glass")
  assert(plain:mesh(strip))
  t.is(strings_of(plain:bytes()), "\0glass\0strip\0",
    "without a base: only the strings added")
end

-- A closed bundle ------------------------------------------------------------
do
  local b2 = assert(rsxmesh.load(bytes, "closing.rsxb"))
  local c = b2:mesh("crate"):with{}
  b2:close()
  t.is(c:stream("mmp"), fx.crate_mmp, "a copy's bytes outlive the bundle")
  t.error_like(function() return c:submesh(1).material end,
    "submesh.material: bundle is closed", "its materials do not")
  local w = rsxmesh.writer()
  t.error_like(function() return w:mesh(c) end,
    "writer:mesh: bundle is closed", "nor can a writer map them")
  t.error_like(function() return rsxmesh.writer(b2) end,
    "rsxmesh.writer: bundle is closed", "a closed base raises")
end

t.done_testing()
