-- api-layout.lua - rsxmesh.writer(base, { layout = "base" }) on a bundle
-- of another writer: its sections in another order, at odd offsets, gaps
-- of non-zero bytes between them, reserved bytes set, a name held twice
-- and two meshes sharing their streams. The bundle is assembled here
-- with string.pack (never with rsxmesh's writer), and every expected file
-- is the base's bytes with the changed fields and parts put in by hand,
-- at offsets the assembly worked out.
local t = require "tap"
local rsxmesh = require "rsxmesh"
local fx = require "api-fixture"

local function u32(...)
  return string.pack(">" .. ("I4"):rep(select("#", ...)), ...)
end

-- s with bytes put at the 0-based offset at
local function put(s, at, bytes)
  assert(at + #bytes <= #s)
  return s:sub(1, at) .. bytes .. s:sub(at + #bytes + 1)
end

-- ------------------------------------------------------------- the base

-- The string table, "crate" twice: mesh 1 names the second copy.
local STRINGS = "\0crate\0strip\0twin\0bits\0brick\0tex/brick.png\0"
  .. "tex/brick_n.png\0glass\0tex/glass_n.png\0crate\0"
local function str(s, nth)
  local at = 0
  for _ = 1, nth or 1 do at = STRINGS:find("\0" .. s .. "\0", at + 1, true) end
  return at -- the 1-based position of the NUL before s: s's offset
end

local CRATE, STRIP = fx.meshes()[1], fx.meshes()[2]
local BITS = fx.meshes()[4]

-- The parts, in the file's order: mesh 2's data first, mesh 1's after
-- mesh 4's, the tables backwards after the data, the string table last;
-- gaps (strings of bytes, at odd lengths) between. twin (mesh 3) has no
-- data of its own: it uses strip's meta, record, MMP and indices.
local ORDER = {
  "header",
  "strip.mmp", ("\xEE"):rep(3), "strip.indices", "strip.meta",
  "strip.record", ("\xEE"):rep(5),
  "bits.meta", "bits.mmp", "bits.mgp",
  "crate.indices", "crate.mmp", "crate.mgp", "crate.meta",
  "crate.record1", "crate.record2", "crate.record3", ("\xDD"):rep(16),
  "samplers", "materials", "submeshes", "meshes", ("\x11"):rep(7),
  "strings", ("\xCC"):rep(9),
}

local DATA = {
  ["strip.mmp"] = STRIP.mmp, ["strip.indices"] = STRIP.indices,
  ["strip.meta"] = STRIP.meta, ["strip.record"] = STRIP.submeshes[1].record,
  ["bits.meta"] = BITS.meta, ["bits.mmp"] = BITS.mmp,
  ["bits.mgp"] = BITS.mgp,
  ["crate.indices"] = CRATE.indices, ["crate.mmp"] = CRATE.mmp,
  ["crate.mgp"] = CRATE.mgp, ["crate.meta"] = CRATE.meta,
  ["crate.record1"] = CRATE.submeshes[1].record,
  ["crate.record2"] = CRATE.submeshes[2].record,
  ["crate.record3"] = CRATE.submeshes[3].record,
  header = ("\0"):rep(64), strings = STRINGS,
  samplers = ("\0"):rep(3 * 8), materials = ("\0"):rep(2 * 16),
  submeshes = ("\0"):rep(5 * 32), meshes = ("\0"):rep(4 * 64),
}

-- where each part lies (0-based), and the file's length
local AT, SIZE = {}, 0
for _, name in ipairs(ORDER) do
  if DATA[name] then AT[name] = SIZE end
  SIZE = SIZE + #(DATA[name] or name)
end

-- A mesh entry, its 12 reserved bytes as given (zeros by default).
local function mesh_entry(f, reserved)
  return u32(f.name, f.meta, 0x90, f.vc, f.mmp, 16, f.mgp or 0, f.mgps or 0,
    f.idx, f.ic) .. string.pack(">BBI2", f.isize, f.prim, 0)
    .. u32(f.first, f.count) .. (reserved or ("\0"):rep(12))
end

local function submesh(record, first, count, material)
  return u32(record, 0x3C, first, count, material) .. ("\0"):rep(12)
end

local NONE = 0xFFFFFFFF
DATA.meshes = table.concat{
  mesh_entry({ name = str("crate", 2), meta = AT["crate.meta"], vc = 4,
    mmp = AT["crate.mmp"], mgp = AT["crate.mgp"], mgps = 24,
    idx = AT["crate.indices"], ic = 9, isize = 2, prim = 0, first = 0,
    count = 3 }, ("\xAB"):rep(12)),
  mesh_entry{ name = str("strip"), meta = AT["strip.meta"], vc = 6,
    mmp = AT["strip.mmp"], idx = AT["strip.indices"], ic = 10, isize = 4,
    prim = 1, first = 3, count = 1 },
  mesh_entry{ name = str("twin"), meta = AT["strip.meta"], vc = 6,
    mmp = AT["strip.mmp"], idx = AT["strip.indices"], ic = 10, isize = 4,
    prim = 1, first = 4, count = 1 },
  -- an empty index buffer at a non-zero offset: the offset is kept
  mesh_entry{ name = str("bits"), meta = AT["bits.meta"], vc = 2,
    mmp = AT["bits.mmp"], mgp = AT["bits.mgp"], mgps = 12, idx = 0x40,
    ic = 0, isize = 2, prim = 0, first = 0, count = 0 },
}
DATA.submeshes = table.concat{
  submesh(AT["crate.record1"], 0, 6, 0),
  submesh(AT["crate.record2"], 6, 3, NONE),
  submesh(AT["crate.record3"], 0, 3, 1),
  submesh(AT["strip.record"], 0, 10, 1),
  submesh(AT["strip.record"], 0, 10, 1),
}
DATA.materials = u32(str("brick"), 0, 2, 0, str("glass"), 2, 1, 0)
DATA.samplers = u32(rsxmesh.BASE_COLOUR, str("tex/brick.png"),
  fx.BRICK_N, str("tex/brick_n.png"), fx.BRICK_N, str("tex/glass_n.png"))
DATA.header = "RSXB" .. string.pack(">I2I2", 1, 64) .. u32(SIZE,
  4, AT.meshes, 5, AT.submeshes, 2, AT.materials, 3, AT.samplers,
  AT.strings, #STRINGS) .. "other writer" -- reserved bytes set

local parts = {}
for _, name in ipairs(ORDER) do parts[#parts + 1] = DATA[name] or name end
local BASE = table.concat(parts)
assert(#BASE == SIZE)

local b = rsxmesh.load(BASE, "other.rsxb")
t.ok(b, "the other writer's bundle opens")
if not b then
  t.done_testing()
  return
end
t.is(b:mesh(1).name, "crate", "its mesh 1 is crate (the name's 2nd copy)")
t.is(b:mesh(3):index(10), 5, "twin reads strip's indices")

-- A writer of b's layout: b's materials, then its meshes, mesh k replaced
-- by change[k] (a function of b's mesh k giving the mesh to write).
local function rewrite(change, opts)
  local w = rsxmesh.writer(b, opts or { layout = "base" })
  for _, mat in b:materials() do
    assert(w:material(mat.name, mat:samplers()))
  end
  for k, m in b:meshes() do
    if change and change[k] then m = assert(change[k](m)) end
    assert(w:mesh(m))
  end
  return w
end

-- Where a part appended at the end goes: the next 16-byte boundary.
local END = (SIZE + 15) // 16 * 16

-- The changed mesh reads back with its new values; the others as b's.
local function reads(bytes, what, check)
  local c, err = rsxmesh.load(bytes, "new.rsxb")
  t.ok(c, what .. ": the reader takes the file")
  if not c then
    t.diag(err)
    return
  end
  check(c)
  local same = true
  for k = 1, #c do
    local x, y = b:mesh(k), c:mesh(k)
    same = same and x.name == y.name
      and x:record():bytes() == y:record():bytes()
  end
  t.ok(same, what .. ": every mesh's name and metadata record as b's")
end

-- ------------------------------------------------------------ unchanged

do
  local w = rewrite()
  t.is(tostring(w), "rsxmesh.writer (4 meshes, 2 materials, laid out as its"
    .. " base)", "tostring says the layout")
  t.ok(w:bytes() == BASE, "nothing changed: the base's very bytes (order,"
    .. " gaps, reserved bytes, the name's 2nd copy, shared streams)")
  local path = os.tmpname()
  t.is(w:save(path), true, "w:save")
  local f = assert(io.open(path, "rb"))
  t.ok(f:read("a") == BASE, "w:save writes the same bytes")
  f:close()
  os.remove(path)
  t.ok(rewrite(nil, {}):bytes() ~= BASE and rewrite(nil, { layout =
    "rsxmesh" }):bytes() == rewrite(nil, {}):bytes(), "without layout ="
    .. " 'base', rsxmesh's own order, as before")
end

-- ------------------------------------------------------- the same size

-- crate's x + 1: its MMP in its place, every other byte the base's.
do
  local pos, mmp = {}, {}
  for v = 0, 3 do
    local x, y, z, n = string.unpack(">fffI4", CRATE.mmp, 16 * v + 1)
    pos[#pos + 1], pos[#pos + 2], pos[#pos + 3] = x + 1, y, z
    mmp[#mmp + 1] = string.pack(">fffI4", x + 1, y, z, n)
  end
  mmp = table.concat(mmp)
  local out = rewrite{ function(m) return m:with{ position = pos } end }
    :bytes()
  t.ok(out == put(BASE, AT["crate.mmp"], mmp),
    "crate moved by +1 in x: its MMP in place, all else the base's bytes")
  reads(out, "x + 1", function(c)
    t.is(c:mesh(1):attribute("position"):get(1), 2, "crate's vertex 1 x")
  end)
end

-- ---------------------------------------------------------------- grown

-- crate's indices 9 -> 12: moved to the end, 16-byte aligned, their old
-- place zeroed; its entry's offset and count and the file size change.
do
  local idx = CRATE.indices .. string.pack(">I2I2I2", 1, 2, 3)
  local out = rewrite{ function(m) return m:with{ indices = idx } end }
    :bytes()
  local want = put(BASE, AT["crate.indices"], ("\0"):rep(18))
  want = put(want, AT.meshes + 0x20, u32(END, 12))
  want = put(want, 8, u32(END + 24))
  want = want .. ("\0"):rep(END - SIZE) .. idx
  t.ok(out == want, "crate's index buffer grown: at the end, its place"
    .. " zeroed, its entry's offset and count, the file size")
  reads(out, "grown", function(c)
    t.is(c:mesh(1):index(12), 3, "crate's index 12")
  end)
end

-- --------------------------------------------------------------- shrunk

-- crate's indices 9 -> 6, its submesh 2 emptied: in place, the rest of
-- the place zeroed; the counts in its entries change.
do
  local idx = CRATE.indices:sub(1, 12)
  local out = rewrite{ function(m)
    return m:with{ indices = idx, submeshes = { {}, { index_count = 0 },
      {} } }
  end }:bytes()
  local want = put(BASE, AT["crate.indices"], idx .. ("\0"):rep(6))
  want = put(want, AT.meshes + 0x24, u32(6))
  want = put(want, AT.submeshes + 32 + 0x0C, u32(0))
  t.ok(out == want, "crate's index buffer shrunk: in place, the rest"
    .. " zeroed, the counts")
  reads(out, "shrunk", function(c)
    t.is(c:mesh(1).index_count, 6, "crate's 6 indices")
  end)
end

-- --------------------------------------------------------------- shared

-- strip's positions changed: its MMP is twin's too, so the new one goes
-- to the end and the old one stays for twin.
do
  local pos = {}
  for v = 0, 5 do pos[#pos + 1], pos[#pos + 2], pos[#pos + 3] = -v, v, 0 end
  local mmp = {}
  for v = 0, 5 do mmp[#mmp + 1] = string.pack(">fffI4", -v, v, 0, 0) end
  mmp = table.concat(mmp)
  local out = rewrite{ nil, function(m) return m:with{ position = pos } end }
    :bytes()
  local want = put(BASE, AT.meshes + 64 + 0x10, u32(END))
  want = put(want, 8, u32(END + #mmp))
  want = want .. ("\0"):rep(END - SIZE) .. mmp
  t.ok(out == want, "strip's MMP, shared with twin: at the end, the old"
    .. " one kept")
  reads(out, "shared", function(c)
    t.is(c:mesh(2):attribute("position"):get(6), -5, "strip's new x")
    t.is(c:mesh(3):attribute("position"):get(6), 5, "twin's x as it was")
  end)
end

-- ------------------------------------------------------- meshes dropped

-- Only crate and strip written: twin's and bits' entries go with the
-- tables' shrinking; bits' parts, used by no one, are zeroed; twin's are
-- strip's and stay.
do
  local w = rsxmesh.writer(b, { layout = "base" })
  for _, mat in b:materials() do
    assert(w:material(mat.name, mat:samplers()))
  end
  assert(w:mesh(b:mesh(1)))
  assert(w:mesh(b:mesh(2)))
  local out = w:bytes()
  local bits_at = AT["bits.meta"]
  local bits_size = 0x90 + #BITS.mmp + #BITS.mgp
  local want = put(BASE, bits_at, ("\0"):rep(bits_size))
  want = put(want, AT.submeshes + 4 * 32, ("\0"):rep(32))
  want = put(want, AT.meshes + 2 * 64, ("\0"):rep(128))
  want = put(want, 0x0C, u32(2))
  want = put(want, 0x14, u32(4))
  t.ok(out == want, "two meshes of four: tables shrunk in place, bits'"
    .. " parts zeroed")
  reads(out, "dropped", function(c)
    t.is(#c, 2, "two meshes")
  end)
end

-- ------------------------------------------------- over the header

-- A hand-made bundle whose metadata record starts at 0: the header is its
-- first 64 bytes. The header is rewritten once the parts are placed, so
-- a part over its fields is never kept there, even unchanged (only a
-- hand-made file has one): the record goes to the end, its old bytes (the
-- header's) with it, and its old place stays as it was.
do
  local STR = "\0m\0"
  local head_size = 64 + 0x50
  local mmp_at = head_size
  local table_at = mmp_at + 16
  local str_at = table_at + 64
  local size = str_at + #STR
  local header = "RSXB" .. string.pack(">I2I2", 1, 64) .. u32(size, 1,
    table_at, 0, 0, 0, 0, 0, 0, str_at, #STR) .. ("\0"):rep(12)
  local tail = ("\0"):rep(0x4C) .. u32(0x00080001) -- the mask at 0x8C
  local entry = mesh_entry{ name = 1, meta = 0, vc = 1, mmp = mmp_at,
    idx = 0, ic = 0, isize = 2, prim = 0, first = 0, count = 0 }
  local bytes = header .. tail .. string.pack(">fffI4", 1, 2, 3, 0) .. entry
    .. STR
  local c = assert(rsxmesh.load(bytes, "over.rsxb"))
  local w = rsxmesh.writer(c, { layout = "base" })
  assert(w:mesh(c:mesh(1)))
  local out = w:bytes()
  local at = (size + 15) // 16 * 16
  local want = put(bytes, table_at + 0x04, u32(at))
  want = put(want, 8, u32(at + 0x90))
  want = want .. ("\0"):rep(at - size) .. bytes:sub(1, 0x90)
  t.ok(out == want, "a record over the header's fields: moved to the end"
    .. " as it was, its place left")
  local back = rsxmesh.load(out, "over-new.rsxb")
  t.ok(back and back:mesh(1):record():bytes() == bytes:sub(1, 0x90),
    "... and it reads back")
end

-- --------------------------------------------------------------- misuse

t.error_like(function() rsxmesh.writer(nil, { layout = "base" }) end,
  "rsxmesh.writer: opts.layout 'base' needs a base bundle",
  "layout 'base' without a base")
t.error_like(function() rsxmesh.writer(b, { layout = "other" }) end,
  "rsxmesh.writer: opts.layout must be 'base' or 'rsxmesh', got 'other'",
  "an unknown layout")
t.error_like(function() rsxmesh.writer(b, { layuot = "base" }) end,
  "rsxmesh.writer: unknown option 'layuot'", "a misspelt option")
do
  local c = assert(rsxmesh.load(BASE, "closing.rsxb"))
  local w = rsxmesh.writer(c, { layout = "base" })
  c:close()
  t.error_like(function() return w:bytes() end, "writer:bytes: the base"
    .. " bundle is closed", "w:bytes after the base's close")
  t.error_like(function() return w:save(os.tmpname()) end, "writer:save:"
    .. " the base bundle is closed", "w:save after the base's close")
end

do
  -- the options are read before the base is checked open: an __index that
  -- closes it is caught
  local c = assert(rsxmesh.load(BASE, "closing.rsxb"))
  local sly = setmetatable({}, { __index = function() c:close() end })
  t.error_like(function() return rsxmesh.writer(c, sly) end,
    "rsxmesh.writer: bundle is closed", "opts whose __index closes the base")
  t.error_like(function() return rsxmesh.writer(c, { layout = "base" }) end,
    "rsxmesh.writer: bundle is closed", "a closed base")
end

t.done_testing()
