-- scripts-survey.lua - survey and info on hand-built bundles, one of them
-- with a stride-mismatch finding and selector findings.
--
-- Every expected value is worked out by hand from bundles B and C of
-- scripts-lib.lua: CMP 0x001FF800 and 0x000003FF have length
-- 32736/32767, whose float32 is 0.999053955078125 (deviation from unit
-- 0.000946044921875); CMP 600 << 11 has y = 19200/32767, float32
-- 0.5859553813934326 (deviation 0.414).

local t = require "tap"
local lib = require "scripts-lib"
local lfs = require "lfs"

local dir = lib.tmpdir()
assert(lfs.mkdir(dir .. "/in"))
lib.bundle_b(dir .. "/in/B.rsxb")
lib.bundle_c(dir .. "/in/C.rsxb")

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
status, out = lib.rsxmesh(dir, "info", "--declaration", "--mesh", "e$",
  "in/C.rsxb")
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
