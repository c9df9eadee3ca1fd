-- api-extras.lua - rsxmesh.clock (and the scripts' summary it times),
-- acc:lines's components and with_components, the NaN count of
-- acc:bounds, acc:lengths and s:face_lines, against values worked out by
-- hand from the fixture's bytes (t/api-fixture.lua) and from meshes
-- spelled out here.
local t = require "tap"
local rsxmesh = require "rsxmesh"
local fx = require "api-fixture"
local lib = require "scripts-lib"
local cli = require "rsxmesh.cli"

local b = assert(rsxmesh.load(fx.bytes(), "CHARLIE.rsxb"))
local crate = b:mesh("crate")
local pos = crate:attribute("position")
local colour = crate:attribute("colour")
local uv0 = crate:attribute("uv0")
local bits = b:mesh("bits")

-- rsxmesh.clock ------------------------------------------------------------

local t0 = rsxmesh.clock()
t.is(math.type(t0), "float", "clock: a float")
t.ok(t0 >= 0, "clock: a monotonic clock starts at 0 or later")
local last, backwards = t0, 0
for _ = 1, 1000 do
  local now = rsxmesh.clock()
  if now < last then backwards = backwards + 1 end
  last = now
end
t.is(backwards, 0, "clock: 1000 readings in a row never go back")

-- A child that sleeps costs this process no processor time: the wall
-- clock sees the wait, os.clock does not. The upper bound rules out
-- milliseconds or nanoseconds as the unit (300 or 3e8 for this wait).
local c0, w0 = os.clock(), rsxmesh.clock()
assert(os.execute("sleep 0.3"))
local waited, cpu = rsxmesh.clock() - w0, os.clock() - c0
t.ok(waited >= 0.3 and waited < 20,
  "clock: a 0.3 s sleep in a child reads 0.3 to 20 s: " .. waited)
t.ok(cpu < waited, string.format("clock: more than os.clock's %.3f s", cpu))

-- The run summary of every script: Run:seconds, and the line of finish.
local run = require("rsxmesh.run").new("timed")
assert(os.execute("sleep 0.3"))
local s = run:seconds()
t.ok(s >= 0.3 and s < 20, "Run:seconds counts a child's 0.3 s: " .. s)

local dir = lib.tmpdir()
local status, out, err = lib.rsxmesh(dir, "-e", 'local cli = require '
  .. '"rsxmesh.cli"; local run = require("rsxmesh.run").new("timed"); '
  .. 'assert(os.execute("sleep 0.3")); run:finish("nothing done")')
t.is(status, 0, "finish: exit status 0")
t.is(out, "", "finish: nothing on stdout")
local secs = err:match("^timed: nothing done in (%d+%.%d%d) s\n$")
t.ok(secs ~= nil, "finish: one line, 'in N.NN s': " .. err)
t.ok(tonumber(secs or 0) >= 0.30,
  "finish: the summary counts a child's 0.3 s sleep: " .. tostring(secs))
lib.cleanup()

-- acc:lines: components and with_components --------------------------------
-- crate's positions: (1, 2, 3), (-1.5, 0.25, 2^-149), (0, -0, 65536),
-- (0.1f, 100, -7); its colours: bytes 00 ff 80 33 -> (0, 1, 128/255,
-- 0.2), 01 02 03 04, ff ff ff ff -> 1s, 00 00 00 00 -> 0s. 128/255 =
-- 0.50196078...: float32 steps there are 2^-24 (6e-8), so 0.5019608 is
-- the shortest that reads back (0.501961 is 2.2e-7 off).

t.is(pos:lines("v", 1, 4, { components = 2 }),
  "v 1 2\nv -1.5 0.25\nv 0 -0\nv 0.1 100\n", "lines: components = 2")
t.is(pos:lines("", 1, 4, { components = 1 }), "1\n-1.5\n0\n0.1\n",
  "lines: components = 1, no prefix, no leading space")
t.is(pos:lines("v", 2, 2, { components = 3 }), "v -1.5 0.25 1e-45\n",
  "lines: components = all of them")
t.is(pos:lines("v", 1, 0, { components = 1 }), "",
  "lines: components on an empty range")
t.is(pos:lines("v", 1, 1, { with = colour }),
  "v 1 2 3 0 1 0.5019608 0.2\n", "lines: with, every component")
t.is(pos:lines("v", 1, 1, { with = colour, with_components = 4 }),
  "v 1 2 3 0 1 0.5019608 0.2\n", "lines: with_components = all of them")
t.is(pos:lines("v", 3, 4, { with = colour, with_components = 3 }),
  "v 0 -0 65536 1 1 1\nv 0.1 100 -7 0 0 0\n",
  "lines: with_components = 3 (v x y z r g b)")
t.is(pos:lines("v", 1, 1, { components = 1, with = colour,
  with_components = 2 }), "v 1 0 1\n", "lines: both counts")
t.is(pos:lines("v", 1, 1, { components = "2" }), "v 1 2\n",
  "lines: a count as a numeric string, as Lua converts")

-- uv0 of vertices 1 and 2: half 3c00 c000 -> (1, -2), 3800 0001 ->
-- (0.5, 2^-24). The mapping applies to the components written.
t.is(uv0:lines("vt", 1, 2, { components = 1, scale = { 2, -1 },
  offset = { 0.5, 1 } }), "vt 2.5\nvt 1.5\n",
  "lines: components = 1 with scale and offset (0.5 + 2u)")
t.is(uv0:lines("vt", 1, 1, { components = 2, scale = { 1, -1 },
  offset = { 0, 1 } }), "vt 1 3\n", "lines: the V flip, both components")

-- s32k2 of bits: 8000 7fff -> (-32768, 32767), ffff 0001 -> (-1, 1).
t.is(bits:attribute("s32k2"):lines("", 1, 2, { components = 1 }),
  "-32768\n-1\n", "lines: s32k2, components = 1")

local function lines_error(acc, opts, pattern, name)
  t.error_like(function() acc:lines("v", 1, 1, opts) end, pattern,
    name)
end
lines_error(pos, { components = 0 }, "accessor:lines: opts%.components "
  .. "must be an integer in 1%.%.3, got 0$", "lines: components = 0")
lines_error(pos, { components = 4 }, "accessor:lines: opts%.components "
  .. "must be an integer in 1%.%.3, got 4$", "lines: components = 4")
lines_error(pos, { components = 1.5 }, "accessor:lines: opts%.components "
  .. "must be an integer in 1%.%.3, got 1%.5$", "lines: components = 1.5")
lines_error(pos, { components = "x" }, "accessor:lines: opts%.components "
  .. "must be an integer in 1%.%.3, got string$", "lines: components 'x'")
lines_error(pos, { components = {} }, "accessor:lines: opts%.components "
  .. "must be an integer in 1%.%.3, got table$", "lines: components {}")
lines_error(pos, { with = colour, with_components = 5 },
  "accessor:lines: opts%.with_components must be an integer in 1%.%.4, "
  .. "got 5$", "lines: with_components = 5 for a colour")
lines_error(pos, { with_components = 3 }, "accessor:lines: "
  .. "opts%.with_components needs opts%.with$",
  "lines: with_components without with")

-- A mesh of 600 vertices (three runs of the 256 the bulk path decodes at a
-- time): position (i, -i, NaN), y NaN too when i is a multiple of 5, the
-- NaNs quiet, negative and signalling in turn; every normal the note's
-- 0x001FF800, (0, 32736/32767, 0).
local NAN = { 0x7FC00000, 0xFFC00000, 0x7F800001 }
local N = 600
local mmp = {}
for i = 1, N do
  local y = i % 5 == 0 and string.pack(">I4", NAN[i % 3 + 1])
    or string.pack(">f", -i)
  mmp[i] = string.pack(">f", i) .. y
    .. string.pack(">I4I4", NAN[(i + 1) % 3 + 1], 0x001FF800)
end
local big = assert(rsxmesh.mesh{ name = "big", meta = fx.meta(0x00080005),
  vertex_count = N, mmp = table.concat(mmp), mmp_stride = 16,
  indices = "", index_size = 2 })
local bpos, bnormal = big:attribute("position"), big:attribute("normal")

-- the core writes a NaN's sign: 0xFFC00000 is "-nan"
local want = {}
for i = 1, N do
  local y = -i
  if i % 5 == 0 then y = NAN[i % 3 + 1] == 0xFFC00000 and "-nan" or "nan" end
  want[i] = string.format("v %d %s 0\n", i, y)
end
t.is(bpos:lines("v", 1, N, { components = 2, with = bnormal,
  with_components = 1 }), table.concat(want),
  "lines: 600 vertices, components = 2 and with_components = 1 across "
  .. "the bulk path's runs")
want = {}
for i = 250, 260 do want[#want + 1] = i .. "\n" end
t.is(bpos:lines("", 250, 260, { components = 1 }), table.concat(want),
  "lines: a range across a run's end, components = 1")

-- s:face_lines ---------------------------------------------------------------

-- A list of 5 vertices, 0-based indices 0 1 2, 2 2 3 (degenerate), 1 3 2,
-- 4 0 3: 1-based triangles 1 2 3, 2 4 3, 5 1 4.
local tri_meta = fx.meta(0x00080005)
local function built(name, n, indices, size, primitive)
  return assert(rsxmesh.mesh{ name = name, meta = tri_meta,
    vertex_count = n, mmp = string.rep(string.pack(">fffI4", 0, 0, 0, 0),
    n), mmp_stride = 16, indices = indices, index_size = size,
    primitive = primitive, submeshes = { { record = fx.record(0xFF, 0xFF,
    0xFF, 0xFF), first_index = 0, index_count = #indices // size } } })
end
local list = built("list", 5, rsxmesh.indices(2,
  { 1, 2, 3, 3, 3, 4, 2, 4, 3, 5, 1, 4 }), 2):submesh(1)

local V, VT, VN = { offset = 0 }, { offset = 10 }, { offset = 100 }
t.is_deeply({ list:face_lines("f", { V, VT, VN }) }, { "f 1/11/101 "
  .. "2/12/102 3/13/103\nf 2/12/102 4/14/104 3/13/103\nf 5/15/105 "
  .. "1/11/101 4/14/104\n", 3 },
  "face_lines: a list, three columns, the degenerate triangle dropped")
t.is_deeply({ list:face_lines("f", { V, false, VN }) }, { "f 1//101 "
  .. "2//102 3//103\nf 2//102 4//104 3//103\nf 5//105 1//101 4//104\n",
  3 }, "face_lines: a list, the empty column (v//vn)")
t.is_deeply({ list:face_lines("f", { V, VT }) }, { "f 1/11 2/12 3/13\n"
  .. "f 2/12 4/14 3/13\nf 5/15 1/11 4/14\n", 3 },
  "face_lines: a list, two columns (v/vt)")
t.is_deeply({ list:face_lines("", { { offset = 999 } }) }, { "1000 1001 "
  .. "1002\n1001 1003 1002\n1004 1000 1003\n", 3 },
  "face_lines: one column, no prefix, numbers carried to four digits")
t.is_deeply({ list:face_lines("tri", { { offset = -3 }, false }) },
  { "tri -2/ -1/ 0/\ntri -1/ 1/ 0/\ntri 2/ -2/ 1/\n", 3 },
  "face_lines: negative numbers, a trailing empty column")
t.is(list:face_lines("f", { { offset = 2.0 } }),
  "f 3 4 5\nf 4 6 5\nf 7 3 6\n", "face_lines: an integral float offset")

-- The fixture's strip: 0 1 2 3, a restart, 3 2 4 4 5. Its triangles
-- 0 1 2, 1 2 3 wound as 2 1 3, then 3 2 4; 2 4 4 and 4 4 5 degenerate:
-- 1-based 1 2 3, 3 2 4, 4 3 5.
local strip = b:mesh("strip"):submesh(1)
t.is_deeply({ strip:face_lines("f", { V, VT, VN }) }, { "f 1/11/101 "
  .. "2/12/102 3/13/103\nf 3/13/103 2/12/102 4/14/104\nf 4/14/104 "
  .. "3/13/103 5/15/105\n", 3 },
  "face_lines: a strip with a restart and degenerates, three columns")
t.is_deeply({ strip:face_lines("f", { V, false, VN }) }, { "f 1//101 "
  .. "2//102 3//103\nf 3//103 2//102 4//104\nf 4//104 3//103 5//105\n",
  3 }, "face_lines: a strip, the empty column")

local none = built("none", 3, "", 2):submesh(1)
t.is_deeply({ none:face_lines("f", { V }) }, { "", 0 },
  "face_lines: no indices, an empty string and 0")

-- index 3 of a 3-vertex mesh, at (1-based) position 3
local bad = built("bad", 3, rsxmesh.indices(2, { 1, 2, 4 }), 2):submesh(1)
local text, why = bad:face_lines("f", { V })
t.is(text, nil, "face_lines: an index out of range gives nil")
t.like(why, "submesh 1: index at position 3 is 3, not below the vertex "
  .. "count 3$", "face_lines: the message names the index and the count")
t.is(why, select(2, bad:triangles()),
  "face_lines: the same message as s:triangles")

local function faces_error(columns, pattern, name)
  t.error_like(function() list:face_lines("f", columns) end, pattern,
    name)
end
faces_error({}, "submesh:face_lines: columns must hold 1%.%.16 columns, "
  .. "got 0$", "face_lines: no columns")
faces_error({ V, V, V, V, V, V, V, V, V, V, V, V, V, V, V, V, V },
  "submesh:face_lines: columns must hold 1%.%.16 columns, got 17$",
  "face_lines: 17 columns")
faces_error({ V, true }, "submesh:face_lines: columns%[2%] must be a "
  .. "table {offset = integer} or false, got boolean$",
  "face_lines: true as a column")
faces_error({ V, {} }, "submesh:face_lines: columns%[2%]%.offset must "
  .. "be an integer below 2%^63 %- 2%^32, got nil$",
  "face_lines: a column without an offset")
faces_error({ { offset = 1.5 } }, "submesh:face_lines: columns%[1%]%."
  .. "offset must be an integer below 2%^63 %- 2%^32, got 1%.5$",
  "face_lines: a fractional offset")
faces_error({ { offset = math.maxinteger } }, "submesh:face_lines: "
  .. "columns%[1%]%.offset must be an integer below 2%^63 %- 2%^32, got "
  .. math.maxinteger .. "$", "face_lines: an offset that would overflow")
t.error_like(function() list:face_lines("f") end,
  "submesh:face_lines: bad argument #2 %(table expected, got no value%)",
  "face_lines: columns missing")

-- acc:bounds: the NaN count ------------------------------------------------

local lo, hi, nans = pos:bounds()
t.is_deeply({ lo, hi, nans }, { { -1.5, -0.0, -7 }, { 1, 100, 65536 }, 0 },
  "bounds: crate's positions, no NaN")
t.is(math.type(nans), "integer", "bounds: the count is an integer")

-- half4 of bits: 3c00 bc00 7c00 fc00 -> (1, -1, inf, -inf), 0000 3555 7e00
-- 0000 -> (0, 1365/4096, NaN, 0).
lo, hi, nans = bits:attribute("half4"):bounds()
t.is_deeply(lo, { 0, -1, math.huge, -math.huge }, "bounds: half4 minimum")
t.is_deeply(hi, { 1, 1365 / 4096, math.huge, 0 }, "bounds: half4 maximum")
t.is(nans, 1, "bounds: half4's one NaN counted")

lo, hi, nans = bits:attribute("s32k2"):bounds()
t.is_deeply({ lo, hi, nans }, { { -32768, 1 }, { -1, 32767 }, 0 },
  "bounds: s32k2, integers, no NaN")
t.is(math.type(lo[1]), "integer", "bounds: s32k2 bounds are integers")

-- big: x 1..600; y -1..-599 but NaN at the 120 multiples of 5, so its
-- least is -599 (600 is a multiple of 5); z NaN at all 600.
lo, hi, nans = bpos:bounds()
t.is_deeply(lo, { 1, -599, 0 / 0 }, "bounds: 600 vertices, minimum")
t.is_deeply(hi, { 600, -1, 0 / 0 }, "bounds: 600 vertices, maximum")
t.ok(lo[3] ~= lo[3] and hi[3] ~= hi[3],
  "bounds: a component of NaN only gives NaN")
t.is(nans, 120 + 600, "bounds: every kind of NaN counted, over all runs")
lo, hi, nans = bnormal:bounds()
t.is(nans, 0, "bounds: no NaN in a CMP normal")
t.is(hi[2], fx.f32(32736 / 32767),
  "bounds: the normal's y, 32736/32767 in float32")

local empty = assert(rsxmesh.mesh{ name = "empty",
  meta = fx.meta(0x00080005), vertex_count = 0, mmp = "", mmp_stride = 16,
  indices = "", index_size = 2 })
t.is_deeply({ empty:attribute("position"):bounds() }, { {}, {}, 0, 0 },
  "bounds: no vertices, two empty tables and 0 and 0")

-- acc:lengths -------------------------------------------------------------
-- CMP words (the note: x signed 11 bits at 0..10, y 11 bits at 11..21, z
-- 10 bits at 22..31; x and y times 32/32767, z times 64/32767):
--   0x00000000  zero
--   0x001FF800  y 1023: (0, 32736/32767, 0), length 0.99905, off by 0.00095
--   0x0019E26D  x 621, y 828 (3:4:5): length 33120/32767 = 1.01077, off
--               by 0.0108, the largest length
--   0x000003FC  x 1020: length 32640/32767 = 0.99612, off by 0.0039
--   0x80400000  z 0x201 = -511: length 32704/32767 = 0.99808, off 0.0019
--   0x00000600  x 0x600 = -512: length 16384/32767 = 0.50002, off by
--               0.49998, the smallest length and the largest deviation
-- Each length is of the float32 components, taken in double (fx.f32).
local f32 = fx.f32
local WORDS = { 0x00000000, 0x001FF800, 0x0019E26D, 0x000003FC,
  0x80400000, 0x00000600 }
local lmmp = {}
for k, w in ipairs(WORDS) do lmmp[k] = string.pack(">fffI4", 0, 0, 0, w) end
local cmp = assert(rsxmesh.mesh{ name = "lengths",
  meta = fx.meta(0x00080005), vertex_count = #WORDS,
  mmp = table.concat(lmmp), mmp_stride = 16, indices = "",
  index_size = 2 }):attribute("normal")
local half = f32(16384 / 32767)
local long = math.sqrt(f32(621 * 32 / 32767) ^ 2
  + f32(828 * 32 / 32767) ^ 2)
t.ok(long > 1.0107 and long < 1.0108, "lengths: 3:4:5 is 1.0107..1.0108")
t.is_deeply(cmp:lengths(), { zero = 1, off = 2, nan = 0, min = half,
  max = long, deviation = 1 - half },
  "lengths: CMP normals, default tolerance 0.005 (1.0108 and 0.5 off)")
t.is(cmp:lengths(0.003).off, 3, "lengths: tolerance 0.003, 0.99612 off too")
t.is(cmp:lengths(0.001).off, 4, "lengths: tolerance 0.001, 0.99808 off too")
t.is(cmp:lengths(0).off, 5, "lengths: tolerance 0, every nonzero one off")
t.is(cmp:lengths(0.5).off, 0, "lengths: tolerance 0.5, none off")
t.is(cmp:lengths(nil).off, 2, "lengths: nil is the default tolerance")
t.is(math.type(cmp:lengths().zero), "integer", "lengths: integer counts")

-- big's 600 normals, the note's 0x001FF800, across the bulk path's runs;
-- its positions all have a NaN z.
local unit = f32(32736 / 32767)
t.is_deeply(bnormal:lengths(), { zero = 0, off = 0, nan = 0, min = unit,
  max = unit, deviation = 1 - unit }, "lengths: 600 vertices in runs")
t.is_deeply(bpos:lengths(), { zero = 0, off = 0, nan = 600 },
  "lengths: 600 NaN lengths counted, no min, max or deviation")
-- crate: (1, 2, 3), (-1.5, 0.25, 2^-149), (0, -0, 65536), (0.1f, 100, -7)
local l = pos:lengths()
t.is_deeply({ l.zero, l.off, l.nan, l.min, l.max, l.deviation },
  { 0, 4, 0, math.sqrt(2.3125), 65536, 65535 },
  "lengths: crate's positions, 2^-298 lost against 2.3125, the largest "
  .. "65536")
-- colour's first three: (0, 1, 128/255), (1/255, 2/255, 3/255), (1, 1,
-- 1), (0, 0, 0)
l = colour:lengths()
t.is_deeply({ l.zero, l.off, l.min, l.max }, { 1, 3, math.sqrt(
  f32(1 / 255) ^ 2 + f32(2 / 255) ^ 2 + f32(3 / 255) ^ 2), math.sqrt(3) },
  "lengths: the first three of four components")
t.is_deeply(empty:attribute("position"):lengths(),
  { zero = 0, off = 0, nan = 0 }, "lengths: no vertices")

t.error_like(function() uv0:lengths() end, "accessor:lengths: uv0 has 2 "
  .. "components, needs 3 or more$", "lengths: two components refused")
t.error_like(function() cmp:lengths(-0.001) end, "accessor:lengths: "
  .. "bad argument #1 %(tolerance must be 0 or more, got %-0%.001%)$",
  "lengths: a negative tolerance")
t.error_like(function() cmp:lengths(0 / 0) end, "accessor:lengths: "
  .. "bad argument #1 %(tolerance must be 0 or more, got %-?nan%)$",
  "lengths: a NaN tolerance")
t.error_like(function() cmp:lengths("x") end, "accessor:lengths: "
  .. "bad argument #1 %(number expected, got string%)$",
  "lengths: a string tolerance")

b:close()

-- A mesh built in Lua is in no bundle: messages name it without a number.
-- Mask 0x0008007d implies an MGP stride of 16 (A, B, U0, U1: 4+4+4+4);
-- it is stored with 20.
do
  local meta = string.rep("\0", 0x8C) .. string.pack(">I4", 0x0008007d)
  local built = assert(rsxmesh.mesh{ name = "loose", meta = meta,
    vertex_count = 1, mmp = string.rep("\0", 16), mmp_stride = 16,
    mgp = string.rep("\0", 20), mgp_stride = 20, indices = "",
    index_size = 2, primitive = "triangles", submeshes = {} })
  local acc, why = built:attribute("uv0")
  t.is(acc, nil, "built mesh: uv0 behind a stride finding")
  t.is(why, "mesh (loose): cannot decode uv0: mgp-stride: MGP stride 20"
    .. " differs from 16 implied by mask 0x0008007d",
    "... named without a number, as it is in no bundle")
end
t.done_testing()
