-- scripts-survey.lua - survey and info (text and --json) on hand-built
-- bundles, one of them with a stride-mismatch finding and selector findings.
--
-- Every expected value is worked out by hand from bundles B and C of
-- scripts-lib.lua: CMP 0x001FF800 and 0x000003FF have length
-- 32736/32767, whose float32 is 0.999053955078125 (deviation from unit
-- 0.000946044921875); CMP 600 << 11 has y = 19200/32767, float32
-- 0.5859553813934326 (deviation 0.414).

local t = require "tap"
local lib = require "scripts-lib"
local lfs = require "lfs"

local dir = lib.inputs("B", "C")

-- ----------------------------------------------------------------- survey

local SURVEY = [[
# Survey

2 bundles: 5 meshes, 5 submeshes, 9 vertices.

Packed variant (flag 0x80000): 5 of 5 meshes.

## Layouts

5 masks. N = the normal at MMP +12, C = colour, A and B = the two tangent-frame vectors, U0 to U3 = UV sets, X and Y = the tree extras (with their MGP offset).

| Mask | Meshes | MGP stride | MGP order |
|---|---|---|---|
| 00080025 | 1 | 4 | U0 |
| 00080027 | 1 | 8 | C, U0 |
| 0008003d | 1 | 12 | A, B, U0 |
| 0008007d | 1 | 16 | A, B, U0, U1 |
| 000807fd | 1 | 40 | A, B, U0, U1, U2, U3, X (24), Y (32) |

## Strides

Stored strides that differ from the strides the mask implies: 1.

| Bundle | Mesh | Mask | Stream | Stored | Implied |
|---|---|---|---|---|---|
| in/C.rsxb | mesh 2 (odd) | 0008007d | MGP | 20 | 16 |

1 mesh left out, wholly or in part, of the statistics below, because of the findings listed at the end.

## Normals

9 normals: 5 zero vectors; 0 nonzero normals off unit length by more than 0.005; largest deviation from unit 0.000946 (largest length 0.999054).

## Tangent frame

Vector A: 2 of 4 vectors off unit length by more than 0.005 (1 of them zero); largest deviation of a nonzero vector 0.414.

Vector B: 0 of 3 nonzero vectors off unit length by more than 0.005 (largest deviation 0.000946); 1 zero vector.

## UV sets

| Stored set | Meshes | Vertices | U | V |
|---|---|---|---|---|
| U0 | 4 | 8 | [-807, 512] | [-1, 2] |
| U1 | 1 | 1 | [1, 1] | [1, 1] |
| U2 | 1 | 1 | [2, 2] | [2, 2] |
| U3 | 1 | 1 | [3, 3] | [3, 3] |

Extremes over all sets: -807 to 512.

## Colours

3 vertices in 1 mesh; components: [0, 1], [0, 1], [0, 1], [0, 1]; all in [0, 1].

## Selectors

The selector bytes are 0, 1, 2, 3, 7 and 255, in 3 distinct combinations over 5 submeshes; the commonest are 00000201 (2 submeshes), ffffffff (2), 03ff07ff (1).

## Tree extras

Extra A: 1 mesh (mask 000807fd), 1 vertex; x in [-0.5, -0.5], y in [0.25, 0.25], z in [0.75, 0.75], w in [-3.140625, -3.140625].

Extra B: 1 mesh (mask 000807fd), 1 vertex; x in [1, 1], y in [2, 2], z in [3, 3], w in [0, 0].

## Findings

| Bundle | Where | Code | Finding |
|---|---|---|---|
| in/C.rsxb | mesh 2 (odd) | mgp-stride | MGP stride 20 differs from 16 implied by mask 0x0008007d |
| in/C.rsxb | mesh 2 (odd) | selector | 1 of 1 submeshes have selector findings, the first submesh 1 |
| in/C.rsxb | mesh 2 (odd), submesh 1 | selector-set | selectors 00000201: byte 2 (set 2) names a stored UV set that mask 0x0008007d lacks |
| in/C.rsxb | mesh 4 (bad_sel) | selector | 1 of 1 submeshes have selector findings, the first submesh 1 |
| in/C.rsxb | mesh 4 (bad_sel), submesh 1 | selector-byte | selectors 03ff07ff: byte 2 (0x07) is neither 0..3 nor 0xff |
| in/C.rsxb | mesh 4 (bad_sel), submesh 1 | selector-set | selectors 03ff07ff: byte 0 (set 3) names a stored UV set that mask 0x00080025 lacks |
]]

local status, out, err = lib.rsxmesh(dir, "survey", "in/C.rsxb",
  "in/B.rsxb")
t.is(status, 0, "survey: exit status 0 (findings are not failures)")
local want, got = lib.lines(SURVEY), lib.lines(out)
for k = 1, math.max(#want, #got) do
  if got[k] ~= want[k] then
    t.is(got[k], want[k], "survey: line " .. k)
    break
  end
end
t.is(out, SURVEY, "survey: the whole report")
t.like(err, "^survey: 2 bundles, 5 meshes in [%d.]+ s\n$",
  "survey: summary line on stderr")

-- a bad file among good ones: reported, the others still surveyed
lib.write(dir .. "/in/bad.rsxb", "RSXB but nothing else")
status, out, err = lib.rsxmesh(dir, "survey", "in/C.rsxb", "in/bad.rsxb",
  "in/B.rsxb")
t.is(status, 1, "survey with a bad file: exit status 1")
t.like(err, "^survey: in/bad%.rsxb: [^\n]+\nsurvey: 2 bundles, 5 meshes "
  .. "in [%d.]+ s; 1 failure above\n$", "survey: one line on the bad file")
t.is(out, SURVEY, "survey: the good ones as before")

-- ---------------------------------------------------------- survey --json

-- The same statistics, parsed (lua-cjson), against the values the report
-- above was worked out from. Lengths are exact doubles: 32736/32767 as a
-- float32 is 0.999053955078125; A's 19200/32767 rounded to float32 is
-- 0.5859553813934326, 1 minus that from unit.
local cjson = require "cjson"
local null = cjson.null
local F32_19200 = require("rsxmesh").float32(19200 / 32767)
local ODD = "MGP stride 20 differs from 16 implied by mask 0x0008007d"
local function mgp(...)
  local t, a = {}, { ... }
  for k = 1, #a, 2 do t[#t + 1] = { kind = a[k], offset = a[k + 1] } end
  return t
end
local function layout(mask, stride, order)
  return { mask = mask, mask_hex = string.format("%08x", mask), meshes = 1,
    mmp_stride = 16, mgp_stride = stride, mgp = order }
end
local function found(mesh, name, submesh, code, message)
  return { bundle = "in/C.rsxb", mesh = mesh, name = name,
    submesh = submesh, code = code, message = message }
end
local SEL1 = "1 of 1 submeshes have selector findings, the first submesh 1"
local SURVEY_JSON = {
  bundles = 2, meshes = 5, submeshes = 5, vertices = 9, packed = 5,
  undecoded = 1, unit_tolerance = 0.005,
  layouts = {
    layout(0x00080025, 4, mgp("uv0", 0)),
    layout(0x00080027, 8, mgp("colour", 0, "uv0", 4)),
    layout(0x0008003d, 12, mgp("tangent_a", 0, "tangent_b", 4, "uv0", 8)),
    layout(0x0008007d, 16, mgp("tangent_a", 0, "tangent_b", 4, "uv0", 8,
      "uv1", 12)),
    layout(0x000807fd, 40, mgp("tangent_a", 0, "tangent_b", 4, "uv0", 8,
      "uv1", 12, "uv2", 16, "uv3", 20, "extra_a", 24, "extra_b", 32)),
  },
  strides = { { bundle = "in/C.rsxb", mesh = 2, name = "odd",
    mask = 0x0008007d, mask_hex = "0008007d", stream = "MGP", stored = 20,
    implied = 16 } },
  normals = { count = 9, zero = 5, off = 0,
    max_deviation = 0.000946044921875, max_length = 0.999053955078125 },
  tangent_a = { count = 4, zero = 1, off = 1,
    max_deviation = 1 - F32_19200, max_length = 0.999053955078125 },
  tangent_b = { count = 4, zero = 1, off = 0,
    max_deviation = 0.000946044921875, max_length = 0.999053955078125 },
  uv_sets = {
    { set = 0, meshes = 4, vertices = 8, min = { -807, -1 },
      max = { 512, 2 } },
    { set = 1, meshes = 1, vertices = 1, min = { 1, 1 }, max = { 1, 1 } },
    { set = 2, meshes = 1, vertices = 1, min = { 2, 2 }, max = { 2, 2 } },
    { set = 3, meshes = 1, vertices = 1, min = { 3, 3 }, max = { 3, 3 } },
  },
  colours = { meshes = 1, vertices = 3, min = { 0, 0, 0, 0 },
    max = { 1, 1, 1, 1 } },
  selectors = { bytes = { 0, 1, 2, 3, 7, 255 }, submeshes = 5,
    combinations = { { selectors = "00000201", submeshes = 2 },
      { selectors = "ffffffff", submeshes = 2 },
      { selectors = "03ff07ff", submeshes = 1 } } },
  extras = {
    { kind = "extra_a", meshes = 1, vertices = 1, masks = { 0x000807fd },
      min = { -0.5, 0.25, 0.75, -3.140625 },
      max = { -0.5, 0.25, 0.75, -3.140625 } },
    { kind = "extra_b", meshes = 1, vertices = 1, masks = { 0x000807fd },
      min = { 1, 2, 3, 0 }, max = { 1, 2, 3, 0 } },
  },
  findings = {
    found(2, "odd", null, "mgp-stride", ODD),
    found(2, "odd", null, "selector", SEL1),
    found(2, "odd", 1, "selector-set", "selectors 00000201: byte 2 (set 2) "
      .. "names a stored UV set that mask 0x0008007d lacks"),
    found(4, "bad_sel", null, "selector", SEL1),
    found(4, "bad_sel", 1, "selector-byte", "selectors 03ff07ff: byte 2 "
      .. "(0x07) is neither 0..3 nor 0xff"),
    found(4, "bad_sel", 1, "selector-set", "selectors 03ff07ff: byte 0 "
      .. "(set 3) names a stored UV set that mask 0x00080025 lacks"),
  },
}

status, out, err = lib.rsxmesh(dir, "survey", "--json", "in/C.rsxb",
  "in/B.rsxb")
t.is(status, 0, "survey --json: exit status 0")
local ok, doc = pcall(cjson.decode, out)
t.ok(ok, "survey --json: one JSON document on stdout")
for _, key in ipairs({ "bundles", "meshes", "submeshes", "vertices",
  "packed", "undecoded", "unit_tolerance", "layouts", "strides", "normals",
  "tangent_a", "tangent_b", "uv_sets", "colours", "selectors", "extras",
  "findings" }) do
  t.is_deeply(ok and doc[key], SURVEY_JSON[key], "survey --json: " .. key)
end
t.is_deeply(ok and doc, SURVEY_JSON, "survey --json: nothing else")
t.like(err, "^survey: 2 bundles, 5 meshes in [%d.]+ s\n$",
  "survey --json: the summary on stderr")
status, out = lib.rsxmesh(dir, "survey", "--json", "in/B.rsxb")
ok, doc = pcall(cjson.decode, out)
t.is_deeply(ok and { doc.strides, doc.extras, doc.findings, doc.tangent_a },
  { {}, {}, {}, null }, "survey --json: empty lists are [], none is null")

-- JSON has no infinity nor NaN: a half UV of 0xFC00 (-inf), 0x7C00 (inf),
-- 0x7E00 or 0xFE00 (NaN) gives the strings "-inf", "inf" and "nan". U
-- holds -inf, inf and 1: [-inf, inf]; V is NaN everywhere: nan both ends,
-- and with bundle B (U0 (0.5, 0.5)) 0.5 both ends.
do
  local rsxmesh = require "rsxmesh"
  local w = rsxmesh.writer()
  local function v(x) return lib.f32(x, 0, 0) .. lib.u32(0) end
  assert(w:mesh(assert(rsxmesh.mesh{
    name = "odd_uv", meta = lib.meta(0x00080025), vertex_count = 3,
    mmp_stride = 16, mmp = v(0) .. v(1) .. v(2), mgp_stride = 4,
    mgp = lib.u16(0xFC00, 0x7E00, 0x7C00, 0xFE00, 0x3C00, 0x7E00),
    indices = rsxmesh.indices(2, { 1, 2, 3 }), index_size = 2,
    primitive = "triangles",
    submeshes = { { record = lib.subrec(0xFFFFFFFF), first_index = 0,
      index_count = 3 } } })))
  assert(w:save(dir .. "/in/inf.rsxb"))
  for _, j in ipairs({ "1", "2" }) do
    status, out, err = lib.rsxmesh(dir, "survey", "--json", "-j", j,
      "in/inf.rsxb", "in/B.rsxb")
    t.is(status, 0, "survey --json -j " .. j .. ", infinite and NaN UVs: "
      .. "exit status 0")
    ok, doc = pcall(cjson.decode, out)
    t.is_deeply(ok and doc.uv_sets, { { set = 0, meshes = 2, vertices = 6,
      min = { "-inf", 0.5 }, max = { "inf", 0.5 } } },
      "... the bounds: \"-inf\" and \"inf\", NaN left out")
  end
  status, out = lib.rsxmesh(dir, "survey", "--json", "in/inf.rsxb")
  ok, doc = pcall(cjson.decode, out)
  t.is_deeply(ok and doc.uv_sets, { { set = 0, meshes = 1, vertices = 3,
    min = { "-inf", "nan" }, max = { "inf", "nan" } } },
    "survey --json: V all NaN: \"nan\"")
  status, out = lib.rsxmesh(dir, "survey", "in/inf.rsxb")
  t.like(out, "\n| U0 | 1 | 3 | %[%-inf, inf%] | %[%-?nan, %-?nan%] |\n",
    "survey: the same bounds in the Markdown")
end

-- ------------------------------------------------------------------- info

local size = lfs.attributes(dir .. "/in/C.rsxb", "size")
local INFO = table.concat{
  "in/C.rsxb: 4 meshes, 4 submeshes, 2 materials, ",
  tostring(size):reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", ""),
  " bytes\n",
  "  mesh     mask      vertices  MMP  MGP  submeshes  findings\n",
  "  crate    0008003d         3   16   12          1  -\n",
  "  odd      0008007d         1   16   20          1  ",
  "mgp-stride: MGP stride 20 differs from 16 implied by mask 0x0008007d; ",
  "selector: 1 of 1 submeshes have selector findings, the first submesh ",
  "1; submesh 1 selector-set: selectors 00000201: byte 2 (set 2) names a ",
  "stored UV set that mask 0x0008007d lacks\n",
  "  tree     000807fd         1   16   40          1  -\n",
  "  bad_sel  00080025         1   16    4          1  ",
  "selector: 1 of 1 submeshes have selector findings, the first submesh ",
  "1; submesh 1 selector-byte: selectors 03ff07ff: byte 2 (0x07) is ",
  "neither 0..3 nor 0xff; submesh 1 selector-set: selectors 03ff07ff: ",
  "byte 0 (set 3) names a stored UV set that mask 0x00080025 lacks\n",
}
status, out, err = lib.rsxmesh(dir, "info", "in/C.rsxb")
t.is(status, 0, "info: exit status 0")
t.is(out, INFO, "info: a line per mesh")
t.like(err, "^info: 1 bundle, 4 meshes in [%d.]+ s\n$", "info: summary")

-- --declaration, by hand from the note: format word
-- (frequency<<16)|(stride<<8)|(count<<4)|type with F 2, SF 3, CMP 6;
-- registers 0 position, 2 normal, 8-11 logical UVs, 12 X, 13 Y, 14 B, 15 A
status, out = lib.rsxmesh(dir, "info", "--declaration", "--mesh", "crate",
  "--mesh", "tree", "in/C.rsxb")
t.is(status, 0, "info --declaration: exit status 0")
t.is(out, table.concat{
  "in/C.rsxb: 4 meshes, 4 submeshes, 2 materials, ",
  INFO:match("materials, ([%d,]+ bytes)"), "\n",
  "  mesh   mask      vertices  MMP  MGP  submeshes  findings\n",
  "  crate  0008003d         3   16   12          1  -\n",
  "    submesh 1: selectors ffffffff, material crate_mat, indices 0+3\n",
  -- MMP stride 16: position F 3, normal CMP 1 at +12
  "      reg  0  position      0x1740 = 0x00001032  0x1680 = 0x00000000\n",
  "      reg  2  normal        0x1748 = 0x00001016  0x1688 = 0x0000000c\n",
  -- MGP stride 12: A +0, B +4, U0 +8
  "      reg  8  UV0 from uv0  0x1760 = 0x00000c23  0x16a0 = 0x00000008\n",
  "      reg 14  tangent_b     0x1778 = 0x00000c16  0x16b8 = 0x00000004\n",
  "      reg 15  tangent_a     0x177c = 0x00000c16  0x16bc = 0x00000000\n",
  "  tree   000807fd         1   16   40          1  -\n",
  -- selectors 00 00 02 01: UV0, UV1 from set 0, UV2 from 2, UV3 from 1;
  -- MGP stride 40: A +0, B +4, U0 +8, U1 +12, U2 +16, U3 +20, X +24, Y +32
  "    submesh 1: selectors 00000201, material leaf, indices 0+3\n",
  "      reg  0  position      0x1740 = 0x00001032  0x1680 = 0x00000000\n",
  "      reg  2  normal        0x1748 = 0x00001016  0x1688 = 0x0000000c\n",
  "      reg  8  UV0 from uv0  0x1760 = 0x00002823  0x16a0 = 0x00000008\n",
  "      reg  9  UV1 from uv0  0x1764 = 0x00002823  0x16a4 = 0x00000008\n",
  "      reg 10  UV2 from uv2  0x1768 = 0x00002823  0x16a8 = 0x00000010\n",
  "      reg 11  UV3 from uv1  0x176c = 0x00002823  0x16ac = 0x0000000c\n",
  "      reg 12  extra_a       0x1770 = 0x00002843  0x16b0 = 0x00000018\n",
  "      reg 13  extra_b       0x1774 = 0x00002843  0x16b4 = 0x00000020\n",
  "      reg 14  tangent_b     0x1778 = 0x00002816  0x16b8 = 0x00000004\n",
  "      reg 15  tangent_a     0x177c = 0x00002816  0x16bc = 0x00000000\n",
}, "info --declaration: the method words of crate and tree")

-- info --json, parsed: the same meshes, submeshes and findings
local function sub(sel, material, findings)
  return { number = 1, selectors = sel, material = material,
    first_index = 0, index_count = 3, findings = findings or {} }
end
local function code(c, message) return { code = c, message = message } end
local INFO_JSON = { bundles = { {
  path = "in/C.rsxb", size = size, mesh_count = 4, submesh_count = 4,
  material_count = 2, meshes = {
    { number = 1, name = "crate", mask = 0x0008003d, mask_hex = "0008003d",
      vertices = 3, mmp_stride = 16, mgp_stride = 12, findings = {},
      submeshes = { sub("ffffffff", "crate_mat") } },
    { number = 2, name = "odd", mask = 0x0008007d, mask_hex = "0008007d",
      vertices = 1, mmp_stride = 16, mgp_stride = 20,
      findings = { code("mgp-stride", ODD), code("selector", SEL1) },
      submeshes = { sub("00000201", null, { code("selector-set",
        "selectors 00000201: byte 2 (set 2) names a stored UV set that "
        .. "mask 0x0008007d lacks") }) } },
    { number = 3, name = "tree", mask = 0x000807fd, mask_hex = "000807fd",
      vertices = 1, mmp_stride = 16, mgp_stride = 40, findings = {},
      submeshes = { sub("00000201", "leaf") } },
    { number = 4, name = "bad_sel", mask = 0x00080025,
      mask_hex = "00080025", vertices = 1, mmp_stride = 16, mgp_stride = 4,
      findings = { code("selector", SEL1) },
      submeshes = { sub("03ff07ff", null, {
        code("selector-byte", "selectors 03ff07ff: byte 2 (0x07) is "
          .. "neither 0..3 nor 0xff"),
        code("selector-set", "selectors 03ff07ff: byte 0 (set 3) names a "
          .. "stored UV set that mask 0x00080025 lacks") }) } },
  } } } }
status, out, err = lib.rsxmesh(dir, "info", "--json", "in/C.rsxb")
t.is(status, 0, "info --json: exit status 0")
ok, doc = pcall(cjson.decode, out)
t.is_deeply(ok and doc, INFO_JSON, "info --json: every mesh and submesh")
t.like(err, "^info: 1 bundle, 4 meshes in [%d.]+ s\n$",
  "info --json: the summary on stderr")

-- --declaration: crate's registers as in the text above, as numbers
local function reg(r, kind, luv, fw, ow)
  return { reg = r, kind = kind, logical_uv = luv,
    format_method = 0x1740 + 4 * r, format_word = fw,
    offset_method = 0x1680 + 4 * r, offset_word = ow }
end
status, out = lib.rsxmesh(dir, "info", "--json", "--declaration",
  "--mesh", "crate", "in/C.rsxb")
ok, doc = pcall(cjson.decode, out)
t.is_deeply(ok and doc.bundles[1].meshes[1].submeshes[1].declaration, {
  reg(0, "position", null, 0x1032, 0), reg(2, "normal", null, 0x1016, 12),
  reg(8, "uv0", 0, 0x0c23, 8), reg(14, "tangent_b", null, 0x0c16, 4),
  reg(15, "tangent_a", null, 0x0c16, 0) },
  "info --json --declaration: the registers of crate")
t.is(ok and #doc.bundles[1].meshes, 1, "info --json --mesh: one mesh")

-- a missing file and a folder without bundles among good input
assert(lfs.mkdir(dir .. "/empty"))
status, out, err = lib.rsxmesh(dir, "info", "missing.rsxb", "empty",
  "in/C.rsxb")
t.is(status, 1, "info with bad inputs: exit status 1")
t.is(out, INFO, "info: the good input still listed")
local lines = lib.lines(err)
t.is(lines[1], "info: empty: no *.rsxb files", "info: the empty folder")
t.like(lines[2], "^info: missing%.rsxb: %S", "info: the missing file")
t.like(lines[3], "; 2 failures above$", "info: summary counts both")

status, out = lib.rsxmesh(dir, "info", "--help")
t.is(status, 0, "info --help: exit status 0")
t.like(out, "\n%s+%-%-declaration%s", "info --help lists --declaration")
status, out = lib.rsxmesh(dir, "survey", "--help")
t.is(status, 0, "survey --help: exit status 0")
status, out, err = lib.rsxmesh(dir, "survey")
t.is(status, 2, "survey without input: exit status 2")
t.like(err, "^survey: no input given\nUsage: ", "survey: says why")

lib.cleanup()
t.done_testing()
