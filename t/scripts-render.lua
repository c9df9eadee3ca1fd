-- scripts-render.lua - render and uv-layout on bundles built here, with
-- pixels worked out by hand (the conventions of doc/rendering.md).
--
-- Bundle Q: one mesh "quad", the square (-1..1)^2 at z = 0 facing +Z,
-- mask 000800e5 (UV0..UV2), vertices top-left, bottom-left, bottom-right,
-- top-right with UV0 (0,0) (0,1) (1,1) (1,0), UV1 and UV2 at (0.25, 0.75)
-- and (0.75, 0.25); triangles (1,2,3) (1,3,4); material 1 with base colour
-- tex/quad.png: 2 x 2, red, green / blue, white.
-- Bundle M: the same quad as two meshes, "a" and "b", whose material's
-- texture tex/gone.png is missing.

local t = require "tap"
local lib = require "scripts-lib"
local rsxmesh = require "rsxmesh"
local lfs = require "lfs"

local dir = lib.tmpdir()
assert(lfs.mkdir(dir .. "/in"))
assert(lfs.mkdir(dir .. "/in/tex"))

local H0, H1, Q1, Q3 = 0x0000, 0x3C00, 0x3400, 0x3A00
local function quad(name, material, selectors)
  local pos = { { -1, 1 }, { -1, -1 }, { 1, -1 }, { 1, 1 } }
  local uv0 = { { H0, H0 }, { H0, H1 }, { H1, H1 }, { H1, H0 } }
  local mmp, mgp = {}, {}
  for i = 1, 4 do
    mmp[i] = lib.f32(pos[i][1], pos[i][2], 0) .. lib.u32(0x7FC00000)
    mgp[i] = lib.u16(uv0[i][1], uv0[i][2], Q1, Q3, Q3, Q1)
  end
  return { name = name, meta = lib.meta(0x000800e5), vertex_count = 4,
    mmp = table.concat(mmp), mmp_stride = 16, mgp = table.concat(mgp),
    mgp_stride = 12, index_size = 2,
    indices = rsxmesh.indices(2, { 1, 2, 3, 1, 3, 4 }),
    submeshes = { { record = lib.subrec(selectors or 0xFFFFFFFF),
      first_index = 0, index_count = 6, material = material } } }
end

local w = rsxmesh.writer()
w:material("quad",
  { { slot = rsxmesh.BASE_COLOUR, texture = "tex/quad.png" } })
assert(w:mesh(quad("quad", 1)))
assert(w:save(dir .. "/in/Q.rsxb"))
w = rsxmesh.writer()
w:material("gone",
  { { slot = rsxmesh.BASE_COLOUR, texture = "tex/gone.png" } })
assert(w:mesh(quad("a", 1)))
assert(w:mesh(quad("b", 1, 0x02FFFFFF)))
assert(w:save(dir .. "/in/M.rsxb"))
local tex = rsxmesh.image(2, 2)
tex:set(1, 1, 255, 0, 0)
tex:set(2, 1, 0, 255, 0)
tex:set(1, 2, 0, 0, 255)
tex:set(2, 2, 255, 255, 255)
assert(tex:save(dir .. "/in/tex/quad.png"))

local function rgb(img, x, y)
  local r, g, b, a = img:get(x, y)
  return string.format("%d %d %d %d", r, g, b, a)
end

-- ------------------------------------------------------------- render

-- Head-on, ortho height 2: the quad fills the 8 x 8 image, a texel per
-- 4 x 4 quadrant, red at the top left (V top-origin).
local status, out, err = lib.rsxmesh(dir, "render", "in/Q.rsxb", "-o",
  "q.png", "--size", "8x8", "--eye", "0,0,5", "--at", "0,0,0", "--ortho",
  "2", "--shade", "flat", "--filter", "nearest")
t.is(status, 0, "render: exit 0")
t.is(out, "", "render: nothing on stdout")
t.like(err, "^render: 1 bundle, 1 mesh, 2 triangles, 1 image written in "
  .. "[%d.]+ s\n$", "render: the summary line")
local img = rsxmesh.read_png(dir .. "/q.png")
local want = { "255 0 0 255", "0 255 0 255", "0 0 255 255",
  "255 255 255 255" }
local bad = 0
for y = 1, 8 do
  for x = 1, 8 do
    local q = (y > 4 and 2 or 0) + (x > 4 and 1 or 0) + 1
    if rgb(img, x, y) ~= want[q] then bad = bad + 1 end
  end
end
t.is(bad, 0, "render: each quadrant its texel, red at the top left")

-- --background: the quad at half size (ortho height 4) leaves a border
-- of 2 pixels in the background colour.
status = lib.rsxmesh(dir, "render", "in/Q.rsxb", "-o", "bg.png", "--size",
  "8x8", "--eye", "0,0,5", "--at", "0,0,0", "--ortho", "4", "--filter",
  "nearest", "--background",
  "1,2,3,4")
img = rsxmesh.read_png(dir .. "/bg.png")
t.is(img and rgb(img, 2, 2), "1 2 3 4", "--background 1,2,3,4 outside")
t.is(img and rgb(img, 3, 3), "255 0 0 255", "the quad inside: lit, facing")
status, _, err = lib.rsxmesh(dir, "render", "in/Q.rsxb", "-o", "bg.png",
  "--background", "1,2")
t.is(status, 2, "--background 1,2: exit 2")

-- A camera the core refuses (eye = at; the default up along the view) is
-- a usage error before any bundle is read: exit 2, the core's reason
-- without a script position, and no image.
status, _, err = lib.rsxmesh(dir, "render", "in/Q.rsxb", "-o", "cam.png",
  "--eye", "1,1,1", "--at", "1,1,1")
t.is(status, 2, "--eye = --at: exit 2")
t.like(err, "^render: camera: eye and at are the same point %(1, 1, 1%)\n",
  "--eye = --at: the core's reason, first")
status, _, err = lib.rsxmesh(dir, "render", "in/Q.rsxb", "-o", "cam.png",
  "--eye", "0,5,0", "--at", "0,0,0")
t.like(err, "^render: camera: up %(0, 1, 0%) is along the view direction\n",
  "looking straight down with the default up: named")
t.ok(not lfs.attributes(dir .. "/cam.png"), "no image written")

-- A folder of bundles into a folder; the missing texture reported once
-- for two submeshes, drawn grey 180, the run still a success.
status, out, err = lib.rsxmesh(dir, "render", "in", "-o", "imgs",
  "--size", "8x8", "--view", "front", "--shade", "flat")
t.is(status, 0, "render a folder: exit 0")
local gone = "in/tex/gone.png: No such file or directory (drawn grey)"
local _, count = err:gsub(gone:gsub("%p", "%%%0"), "")
t.is(count, 1, "the missing texture reported once")
t.ok(lfs.attributes(dir .. "/imgs/Q.png"), "imgs/Q.png written")
img = rsxmesh.read_png(dir .. "/imgs/M.png")
t.is(img and rgb(img, 4, 4), "180 180 180 255", "imgs/M.png: grey 180")

-- Selectors: the legend on stdout; colour 0 is hue 0 at value 0.95 and
-- saturation 0.7: (0.95, 0.285, 0.285) x 255 = 242, 73, 73; colour 1 is
-- hue 0.618 x 6 = 3.708: sector 3, (p, q, v) = (0.285, 0.95 (1 - 0.7 x
-- 0.708), 0.95) -> 73, 122, 242.
status, out = lib.rsxmesh(dir, "render", "in/M.rsxb", "-o", "sel.png",
  "--size", "8x8", "--shade", "selectors")
t.is(out, "in/M.rsxb: selectors ffffffff: 242 73 73\n"
  .. "in/M.rsxb: selectors 02ffffff: 73 122 242\n", "selectors: the legend")

-- A contact sheet of M's two meshes in 16 x 16 cells: 2 columns, 1 row.
-- Cell 1's number: a black box of (1 x 4 + 1) x 2 = 10 by 7 x 2 = 14
-- pixels, the glyph "1" (.#. on its first row) drawn white at scale 2 from
-- x = 1 + 2, y = 1 + 2: its first-row ink at x 5..6, y 3..4.
status, out, err = lib.rsxmesh(dir, "render", "in/M.rsxb", "-o",
  "sheet.png", "--sheet", "--size", "16x16")
t.is(status, 0, "sheet: exit 0")
img = rsxmesh.read_png(dir .. "/sheet.png")
t.is(img and img.width .. "x" .. img.height, "32x16", "sheet: 32 x 16")
t.is(rgb(img, 5, 3), "255 255 255 255", "sheet: the 1's ink")
t.is(rgb(img, 3, 3), "0 0 0 255", "sheet: the box beside it")
t.is(rgb(img, 18, 3), "0 0 0 255", "sheet: cell 2's box")
t.is(rgb(img, 21, 3), "255 255 255 255", "sheet: the 2's first row: ###")
t.like(err, "\nrender: 1 bundle, 2 meshes, 4 triangles, 1 image written",
  "sheet: the summary, after the missing texture's line")

-- A sheet in selectors mode: one legend for the whole sheet, printed once
-- after it, so each combination has one colour in every cell (each cell
-- numbered its own, b's 02ffffff was colour 1, red, like a's ffffffff).
-- In 32 x 32 cells, pixel 17 of each axis holds the cell's centre, where
-- the framed quad's centre is.
status, out = lib.rsxmesh(dir, "render", "in/M.rsxb", "-o", "selsheet.png",
  "--sheet", "--size", "32x32", "--shade", "selectors")
t.is(out, "in/M.rsxb: selectors ffffffff: 242 73 73\n"
  .. "in/M.rsxb: selectors 02ffffff: 73 122 242\n",
  "selectors sheet: the legend, once")
img = rsxmesh.read_png(dir .. "/selsheet.png")
t.is(img and rgb(img, 17, 17), "242 73 73 255", "cell 1 (a): colour 1")
t.is(img and rgb(img, 49, 17), "73 122 242 255", "cell 2 (b): colour 2")

-- A submesh a finding stops fails the input in a sheet too (its cell was
-- left empty in silence): bad's MMP stride 20 is not its mask's 16.
assert(lfs.mkdir(dir .. "/bad"))
w = rsxmesh.writer()
assert(w:mesh(quad("good")))
assert(w:mesh{ name = "bad", meta = lib.meta(0x00080005), vertex_count = 3,
  mmp = string.rep("\0", 60), mmp_stride = 20, index_size = 2,
  indices = rsxmesh.indices(2, { 1, 2, 3 }),
  submeshes = { { record = lib.subrec(0xFFFFFFFF), first_index = 0,
    index_count = 3 } } })
assert(w:save(dir .. "/bad/B.rsxb"))
status, _, err = lib.rsxmesh(dir, "render", "bad/B.rsxb", "-o", "b.png",
  "--sheet", "--size", "8x8")
t.is(status, 1, "sheet with a submesh not drawn: exit 1")
t.like(err, "^render: bad/B%.rsxb: mesh 2 %(bad%): cannot decode position: "
  .. "[^\n]* %(1 submesh not drawn%)\n", "sheet: the finding, named")
status, _, err = lib.rsxmesh(dir, "render", "bad/B.rsxb", "-o", "b.png",
  "--size", "8x8")
t.like(err, "^render: bad/B%.rsxb: mesh 2 %(bad%): cannot decode position: "
  .. "[^\n]* %(1 submesh not drawn%)\n", "... as without --sheet")

-- Usage errors exit 2; a mesh that is not there fails the input.
status, _, err = lib.rsxmesh(dir, "render", "in", "-o", "x.png")
t.is(status, 2, "-o FILE.png with several bundles: exit 2")
t.like(err, "takes one bundle", "says why")
status, _, err = lib.rsxmesh(dir, "render", "in/Q.rsxb", "-o", "x.png",
  "--uv", "1", "--stored", "1")
t.is(status, 2, "--uv with --stored: exit 2")
status, _, err = lib.rsxmesh(dir, "render", "in/Q.rsxb", "-o", "x.png",
  "--fov", "180", "--eye", "0,0,1", "--at", "0,0,0")
t.like(err, "option '%-%-fov' expects a number in 1..179", "--fov 180")
status, _, err = lib.rsxmesh(dir, "render", "in/Q.rsxb", "-o", "x.png",
  "--mesh", "nosuch")
t.is(status, 1, "--mesh nosuch: exit 1")
t.like(err, "render: in/Q.rsxb: no mesh nosuch", "names it")
-- one name of two naming none: the image would not be the one asked for,
-- so none is written and the summary counts nothing (it said 0 bundles
-- with the image written)
status, _, err = lib.rsxmesh(dir, "render", "in/Q.rsxb", "-o", "part.png",
  "--mesh", "1", "--mesh", "99", "--size", "8x8")
t.is(status, 1, "--mesh 1 --mesh 99: exit 1")
t.like(err, "^render: in/Q%.rsxb: no mesh 99\nrender: 0 bundles, 0 meshes, "
  .. "0 triangles, 0 images written in [%d.]+ s; 1 failure above\n$",
  "--mesh 1 --mesh 99: the failure, and a summary of nothing")
t.ok(not lfs.attributes(dir .. "/part.png"), "... and no image")
-- -o x.jpg made a folder x.jpg of PNGs: a file name not ending in .png is
-- refused; x.jpg/ is a folder
status, _, err = lib.rsxmesh(dir, "render", "in/Q.rsxb", "-o", "x.jpg")
t.is(status, 2, "-o x.jpg: exit 2")
t.like(err, "^render: %-o x%.jpg: render writes PNG only: give OUT%.png, or "
  .. "a folder %(x%.jpg/%)\n", "-o x.jpg: says why")
t.ok(not lfs.attributes(dir .. "/x.jpg"), "-o x.jpg: nothing written")
status = lib.rsxmesh(dir, "render", "in/Q.rsxb", "-o", "x.jpg/", "--size",
  "8x8")
t.ok(status == 0 and lfs.attributes(dir .. "/x.jpg/Q.png"),
  "-o x.jpg/: a folder")

-- An output folder that cannot be made is said once, in the user's terms,
-- with no script position (it was 'scripts/render.lua:191: q.png: exists
-- ...'), and nothing is written
status, _, err = lib.rsxmesh(dir, "render", "in/Q.rsxb", "in/M.rsxb", "-o",
  "q.png/x")
t.is(status, 1, "-o below a file: exit 1")
t.like(err, "^render: q%.png/x: q%.png: exists and is not a folder\n"
  .. "render: nothing written in ",
  "... the folder and the reason, once, without a script position")

-- ---------------------------------------------------------- uv-layout

-- The UV0 rectangle of quad is 0..1 both ways: an 18 x 18 image, a texel
-- per 9 x 9 quadrant. Pixel x = 5 has its centre at u = 4.5 / 18 = 0.25,
-- and y = 14 at v = 13.5 / 18 = 0.75: texel (0, 1) at its centre, blue,
-- even filtered. Edges: u = 0 is column 1, the diagonal (0,0)-(1,1)
-- passes pixel (8, 8).
status, out, err = lib.rsxmesh(dir, "uv-layout", "in/Q.rsxb", "-o", "uv",
  "--size", "18")
t.is(status, 0, "uv-layout: exit 0")
t.like(err, "^uv%-layout: 1 bundle, 1 mesh, 6 triangles, 3 layouts "
  .. "written in [%d.]+ s\n$", "uv-layout: the summary (UV0..UV2, 2 each)")
img = rsxmesh.read_png(dir .. "/uv/Q/quad-s1-uv0-set0.png")
t.is(img and img.width .. "x" .. img.height, "18x18", "18 x 18")
t.is(rgb(img, 5, 14), "0 0 255 255", "texel (0, 1) blue, V top-origin")
t.is(rgb(img, 14, 5), "0 255 0 255", "texel (1, 0) green")
t.is(rgb(img, 1, 5), "255 230 0 255", "the u = 0 edge")
t.is(rgb(img, 8, 8), "255 230 0 255", "the diagonal")
t.ok(lfs.attributes(dir .. "/uv/Q/quad-s1-uv2-set2.png"),
  "the file names the logical UV and its stored set")
-- A strip 1 x 1/16 in UV0 (exact halves; 0x2C00 is 1/16) at --size 72:
-- 72 x 5 pixels (4.5 rounds up), its texture strip/edge.png 72 x 1, texels
-- 1..18 red and 19..72 blue: the texture's edge at u = 0.25. Pixel x spans
-- u in [x - 1, x] / 72, its centre on texel x's: column 18 red, 19 blue,
-- in row 3 (rows 1 and 5 are the v edges, the diagonal (1, 1)-(72, 5)
-- is in row 2 there). The texture once had a view 1/16 x 72 / 5 = 0.9
-- of the strip wide: column 18 came out blue.
assert(lfs.mkdir(dir .. "/strip"))
do
  local pos = { { -1, 1 }, { -1, -1 }, { 1, -1 }, { 1, 1 } }
  local uv0 = { { H0, H0 }, { H0, 0x2C00 }, { H1, 0x2C00 }, { H1, H0 } }
  local mmp, mgp = {}, {}
  for i = 1, 4 do
    mmp[i] = lib.f32(pos[i][1], pos[i][2], 0) .. lib.u32(0x7FC00000)
    mgp[i] = lib.u16(uv0[i][1], uv0[i][2])
  end
  w = rsxmesh.writer()
  w:material("edge",
    { { slot = rsxmesh.BASE_COLOUR, texture = "edge.png" } })
  assert(w:mesh{ name = "strip", meta = lib.meta(0x00080025),
    vertex_count = 4, mmp = table.concat(mmp), mmp_stride = 16,
    mgp = table.concat(mgp), mgp_stride = 4, index_size = 2,
    indices = rsxmesh.indices(2, { 1, 2, 3, 1, 3, 4 }),
    submeshes = { { record = lib.subrec(0xFFFFFFFF), first_index = 0,
      index_count = 6, material = 1 } } })
  assert(w:save(dir .. "/strip/S.rsxb"))
  local edge = rsxmesh.image(72, 1, { 0, 0, 255 })
  for x = 1, 18 do edge:set(x, 1, 255, 0, 0) end
  assert(edge:save(dir .. "/strip/edge.png"))
end
status = lib.rsxmesh(dir, "uv-layout", "strip/S.rsxb", "-o", "uv",
  "--size", "72")
img = rsxmesh.read_png(dir .. "/uv/S/strip-s1-uv0-set0.png")
t.is(img and img.width .. "x" .. img.height, "72x5", "strip: 72 x 5")
t.is(img and rgb(img, 18, 3), "255 0 0 255", "strip: column 18 red")
t.is(img and rgb(img, 19, 3), "0 0 255 255",
  "strip: column 19 blue, the texture's edge where the edges put u = 0.25")

status, out, err = lib.rsxmesh(dir, "uv-layout", "in/M.rsxb", "-o", "uv",
  "--mesh", "b")
t.ok(lfs.attributes(dir .. "/uv/M/b-s1-uv0-set2.png"),
  "selectors 02ffffff: UV0 from stored set 2")
t.like(err, "gone%.png: No such file or directory %(drawn grey%)",
  "uv-layout: the missing texture reported")
-- A submesh whose triangles cannot be read is named once, by the core's
-- label: an unnamed mesh 2 is "mesh 2" (it read "mesh 2 (): submesh 1:
-- mesh 2: submesh 1: ..."); index 9 (1-based) of 4 vertices is 8.
w = rsxmesh.writer()
assert(w:mesh(quad("good")))
local broken = quad(nil)
broken.indices = rsxmesh.indices(2, { 1, 2, 9 })
broken.submeshes[1].index_count = 3
assert(w:mesh(broken))
assert(w:save(dir .. "/bad/U.rsxb"))
status, _, err = lib.rsxmesh(dir, "uv-layout", "bad/U.rsxb", "-o", "uvu")
t.is(status, 1, "uv-layout, a broken submesh: exit 1")
t.like(err, "^uv%-layout: bad/U%.rsxb: mesh 2: submesh 1: index at "
  .. "position 3 is 8, not below the vertex count 4\n",
  "uv-layout: the submesh named once, as the core names it")
status, _, err = lib.rsxmesh(dir, "uv-layout", "in/Q.rsxb", "-o", "q.png")
t.like(err, "^uv%-layout: q%.png: exists and is not a folder\nuv%-layout: "
  .. "nothing written in ", "uv-layout: an output folder that is a file, "
  .. "once, without a script position")

lib.cleanup()
t.done_testing()
