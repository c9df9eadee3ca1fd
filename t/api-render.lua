-- api-render.lua - rsxmesh.render on a bundle written here byte by byte
-- (string.pack), with pixels worked out by hand from the geometry: the
-- camera conventions of doc/rendering.md.
local t = require "tap"
local rsxmesh = require "rsxmesh"

local dir = os.tmpname()
os.remove(dir)
assert(os.execute("mkdir '" .. dir .. "' && mkdir '" .. dir .. "/tex'"))

-- The quad (-1..1)^2 at z = 0 facing +Z: vertices top-left, bottom-left,
-- bottom-right, top-right; UV0 (0,0) (0,1) (1,1) (1,0): v = 0 at the top.
-- Mask 0x000800e5: MMP position + normal (0, 0, 1) as CMP 0x7FC00000; MGP
-- UV0, UV1, UV2 as halves (0x3C00 = 1, 0x3400 = 0.25, 0x3A00 = 0.75).
local H0, H1, Q1, Q3 = 0x0000, 0x3C00, 0x3400, 0x3A00
local pos = { { -1, 1 }, { -1, -1 }, { 1, -1 }, { 1, 1 } }
local uv0 = { { H0, H0 }, { H0, H1 }, { H1, H1 }, { H1, H0 } }
local mmp, mgp = {}, {}
for i = 1, 4 do
  mmp[i] = string.pack(">fffI4", pos[i][1], pos[i][2], 0, 0x7FC00000)
  -- set 1 all at (0.25, 0.75): texel (0, 1); set 2 at (0.75, 0.25): (1, 0)
  mgp[i] = string.pack(">I2I2I2I2I2I2", uv0[i][1], uv0[i][2], Q1, Q3, Q3, Q1)
end
local meta = string.rep("\0", 0x8C) .. string.pack(">I4", 0x000800e5)
local function record(sel) return string.rep("\0", 0x38) .. sel end

local w = rsxmesh.writer()
w:material("good",
  { { slot = rsxmesh.BASE_COLOUR, texture = "tex/quad.png" } })
w:material("gone",
  { { slot = rsxmesh.BASE_COLOUR, texture = "tex/gone.png" } })
w:material("dds",
  { { slot = rsxmesh.BASE_COLOUR, texture = "tex/old.dds" } })
local function quad(name, submeshes)
  assert(w:mesh{ name = name, meta = meta, vertex_count = 4,
    mmp = table.concat(mmp), mmp_stride = 16, mgp = table.concat(mgp),
    mgp_stride = 12, index_size = 2,
    indices = rsxmesh.indices(2, { 1, 2, 3, 1, 3, 4 }),
    submeshes = submeshes })
end
-- whole: both triangles, material good, selectors ff (UV0 from set 0)
quad("whole", { { record = record("\255\255\255\255"), first_index = 0,
  index_count = 6, material = 1 } })
-- halves: lower-left triangle good; upper-right gone, twice
quad("halves", {
  { record = record("\255\255\255\255"), first_index = 0, index_count = 3,
    material = 1 },
  { record = record("\255\255\255\255"), first_index = 3, index_count = 3,
    material = 2 },
  { record = record("\255\255\255\255"), first_index = 3, index_count = 3,
    material = 2 } })
-- selectors 02ffffff: UV0 from stored set 2
quad("sel", { { record = record("\2\255\255\255"), first_index = 0,
  index_count = 6, material = 1 } })
quad("dds", { { record = record("\255\255\255\255"), first_index = 0,
  index_count = 6, material = 3 } })
local bpath = dir .. "/quads.rsxb"
assert(w:save(bpath))
-- the 2 x 2 texture: red, green / blue, white
local tex = rsxmesh.image(2, 2)
tex:set(1, 1, 255, 0, 0)
tex:set(2, 1, 0, 255, 0)
tex:set(1, 2, 0, 0, 255)
tex:set(2, 2, 255, 255, 255)
assert(tex:save(dir .. "/tex/quad.png"))
local f = assert(io.open(dir .. "/tex/old.dds", "wb"))
f:write("DDS |" .. string.rep("\0", 123))
f:close()

local b = assert(rsxmesh.open(bpath))

-- Head-on orthographic, view height 2: the quad fills the 8 x 8 image.
local head_on = { eye = { 0, 0, 5 }, at = { 0, 0, 0 }, ortho = 2 }
local function rgb(img, x, y)
  local r, g, bl, a = img:get(x, y)
  return string.format("%d %d %d %d", r, g, bl, a)
end

local img, info = rsxmesh.render{ meshes = b:mesh("whole"), width = 8,
  height = 8, camera = head_on, shade = "flat", filter = "nearest" }
t.is(tostring(img), "rsxmesh.image (8x8)", "an 8 x 8 image")
local bad = 0
local want = { "255 0 0 255", "0 255 0 255", "0 0 255 255",
  "255 255 255 255" }
for y = 1, 8 do
  for x = 1, 8 do
    local q = (y > 4 and 2 or 0) + (x > 4 and 1 or 0) + 1
    if rgb(img, x, y) ~= want[q] then bad = bad + 1 end
  end
end
t.is(bad, 0, "default loader: each quadrant its texel, red at top left")
t.is(info.triangles, 2, "info.triangles")
t.is(info.pixels, 64, "info.pixels")
t.is(#info.missing, 0, "nothing missing")
t.is(info.camera.ortho, 2, "info.camera: the camera used")

-- A texture function: the material to an image.
local blue = rsxmesh.image(1, 1, { 0, 0, 255 })
local seen = {}
img = rsxmesh.render{ meshes = { b:mesh("whole") }, width = 8, height = 8,
  camera = head_on, shade = "flat",
  texture = function(mat) seen[#seen + 1] = mat.name return blue end }
t.is(rgb(img, 2, 7), "0 0 255 255", "texture function: its image")
t.is_deeply(seen, { "good" }, "called with the material")

-- A missing texture: the fallback grey, reported once for two submeshes.
-- Pixel (2, 7) is below the diagonal (lower-left triangle, texel blue);
-- (7, 2) above it (the missing texture's triangles).
img, info = rsxmesh.render{ meshes = b:mesh("halves"), width = 8,
  height = 8, camera = head_on, shade = "flat", filter = "nearest" }
t.is(rgb(img, 2, 7), "0 0 255 255", "the good half samples its texture")
t.is(rgb(img, 7, 2), "180 180 180 255", "the missing half: grey 180")
t.is_deeply(info.missing,
  { dir .. "/tex/gone.png: No such file or directory" },
  "the missing file reported once")
-- opts.textures: a cache kept across calls; each file read once for all,
-- a failure listed once.
local cache = {}
img, info = rsxmesh.render{ meshes = b:mesh("halves"), width = 8,
  height = 8, camera = head_on, shade = "flat", textures = cache }
t.is(#info.missing, 1, "textures: the first call lists the failure")
t.is(tostring(cache[dir .. "/tex/quad.png"]), "rsxmesh.image (2x2)",
  "textures: the image kept by its path")
t.is(cache[dir .. "/tex/gone.png"],
  dir .. "/tex/gone.png: No such file or directory",
  "textures: the failure kept by its path")
img, info = rsxmesh.render{ meshes = b:mesh("halves"), width = 8,
  height = 8, camera = head_on, shade = "flat", filter = "nearest",
  textures = cache }
t.is(#info.missing, 0, "textures: the second call lists it no more")
t.is(rgb(img, 2, 7), "0 0 255 255", "textures: the kept image is drawn")
t.is(rgb(img, 7, 2), "180 180 180 255", "textures: the failure grey")
img, info = rsxmesh.render{ meshes = b:mesh("dds"), width = 8, height = 8,
  camera = head_on, shade = "flat" }
t.is(rgb(img, 4, 4), "180 180 180 255", "a DDS texture: grey 180")
t.like(info.missing[1], "old%.dds: a DDS texture, not a PNG", "reported")

-- Selectors 02ffffff: UV0 samples stored set 2, at texel (1, 0): green.
local sel = b:mesh("sel")
img = rsxmesh.render{ meshes = sel, width = 8, height = 8,
  camera = head_on, shade = "flat", filter = "nearest" }
t.is(rgb(img, 4, 4), "0 255 0 255", "02ffffff: UV0 from stored set 2")
img = rsxmesh.render{ meshes = sel, width = 8, height = 8,
  camera = head_on, shade = "flat", filter = "nearest", stored = 1 }
t.is(rgb(img, 4, 4), "0 0 255 255", "stored = 1: set 1, texel (0, 1)")
img = rsxmesh.render{ meshes = sel:submesh(1), width = 8, height = 8,
  camera = head_on, shade = "flat", filter = "nearest", uv = 1 }
t.is(rgb(img, 4, 4), "0 0 255 255", "uv = 1: ff, set 1")
img, info = rsxmesh.render{ meshes = { sel, b:mesh("whole") }, width = 8,
  height = 8, camera = head_on, shade = "selectors" }
t.is(#info.legend, 2, "selectors: two combinations")
t.is(info.legend[1].selectors, "02ffffff", "the first met first")
t.is(info.legend[2].selectors, "ffffffff", "then ffffffff")
-- whole is drawn second, at the same depth: the first drawn stays
local c = info.legend[1].colour
t.is(rgb(img, 4, 4), string.format("%d %d %d 255", c[1], c[2], c[3]),
  "pixels in the legend colour")

-- opts.legend, kept across calls: combination -> number. Colour 1 (hue 0,
-- value 0.95, saturation 0.7) is 0.95, 0.285, 0.285 x 255 = 242 73 73;
-- colour 2 (hue 0.618 x 6 = 3.708: sector 3, 0.285, 0.95 (1 - 0.7 x
-- 0.708), 0.95) is 73 122 242. A combination keeps its number and colour
-- in every call; one new to the table is numbered after the others.
local legend = {}
img, info = rsxmesh.render{ meshes = b:mesh("whole"), width = 8, height = 8,
  camera = head_on, shade = "selectors", legend = legend }
t.is(legend.ffffffff, 1, "legend: ffffffff is number 1")
t.is(rgb(img, 4, 4), "242 73 73 255", "... drawn in colour 1")
img, info = rsxmesh.render{ meshes = sel, width = 8, height = 8,
  camera = head_on, shade = "selectors", legend = legend }
t.is(legend["02ffffff"], 2, "legend: 02ffffff, met in a later call, is 2")
t.is(rgb(img, 4, 4), "73 122 242 255", "... drawn in colour 2, not 1")
t.is(info.legend[1].number, 2, "info.legend says its number")
-- sel met first (and drawn first, so its pixels stay) keeps number 2
img, info = rsxmesh.render{ meshes = { sel, b:mesh("whole") }, width = 8,
  height = 8, camera = head_on, shade = "selectors", legend = legend }
t.is(rgb(img, 4, 4), "73 122 242 255", "02ffffff met first: colour 2")
t.is(info.legend[1].selectors .. " " .. info.legend[1].number .. ", "
  .. info.legend[2].selectors .. " " .. info.legend[2].number,
  "02ffffff 2, ffffffff 1", "both listed in the order met, their numbers")

-- Perspective: from (0, 0, 2) with fov 90 the quad (half size 1 at
-- distance 2) spans ndc -0.5..0.5: pixels 2..5 of 8; lit, facing: the
-- texel itself, white at bottom right.
img = rsxmesh.render{ meshes = b:mesh("whole"), width = 8, height = 8,
  camera = { eye = { 0, 0, 2 }, at = { 0, 0, 0 }, fov = 90 },
  filter = "nearest", background = { 1, 2, 3 } }
t.is(rgb(img, 2, 2), "1 2 3 255", "outside: the background")
t.is(rgb(img, 3, 3), "255 0 0 255", "lit facing: red texel at top left")
t.is(rgb(img, 6, 6), "255 255 255 255", "white at bottom right")

-- The default camera frames the meshes from an iso view.
img, info = rsxmesh.render{ meshes = b, width = 16, height = 16 }
t.ok(info.camera.ortho > 0, "default: orthographic")
t.is(info.camera.eye[1] > 0 and info.camera.eye[2] > 0
  and info.camera.eye[3] > 0, true, "from the +X +Y +Z octant")

-- Misuse raises, naming the function and the value.
local function render_error(opts, pattern, name)
  opts.meshes = opts.meshes or b
  t.error_like(function() rsxmesh.render(opts) end, pattern, name)
end
render_error({ width = 0 }, "rsxmesh.render: width 0 out of range 1..16384",
  "width 0")
render_error({ height = 16385 },
  "rsxmesh.render: height 16385 out of range 1..16384", "height 16385")
render_error({ camera = { eye = { 1, 1, 1 }, at = { 1, 1, 1 } } },
  "rsxmesh.render: camera: eye and at are the same point", "eye = at")
render_error({ camera = { eye = { 0, 0, 1 }, at = { 0, 0, 0 }, fov = 180 } },
  "rsxmesh.render: camera: fov 180 out of range 1..179 degrees", "fov 180")
render_error({ camera = { eye = { 0, 0, 1 } } },
  "rsxmesh.render: camera needs both eye and at", "eye alone")
-- a height or near distance given must be positive, in every kind of
-- camera: ortho = 0 was a perspective camera (0 is the core's "not
-- orthographic"), and a framed view dropped both in silence
render_error({ camera = { eye = { 0, 0, 1 }, at = { 0, 0, 0 }, ortho = 0 } },
  "rsxmesh.render: camera: ortho height 0 is not positive", "ortho 0")
render_error({ camera = { view = "top", ortho = -5 } },
  "rsxmesh.render: camera: ortho height %-5 is not positive",
  "a view's ortho -5")
render_error({ camera = { near = -1 } },
  "rsxmesh.render: camera: near %-1 is not positive", "a view's near -1")
img, info = rsxmesh.render{ meshes = b, width = 4, height = 4,
  camera = { view = "front", near = 0.5, ortho = 7 } }
t.is(info.camera.near, 0.5, "a view keeps the near distance given")
t.is(info.camera.ortho, 7, "... and the height given")
render_error({ shade = "shiny" }, "rsxmesh.render: shade shiny unknown",
  "unknown shade")
render_error({ uv = 4 }, "rsxmesh.render: uv 4 out of range 0..3", "uv 4")
-- as the command line's --uv with --stored: stored won in silence
render_error({ uv = 1, stored = 1 },
  "rsxmesh.render: uv and stored exclude each other", "uv with stored")
render_error({ legend = { ["02ffffff"] = 2 } }, "rsxmesh.render: "
  .. "opts.legend must map combinations %(\"02ffffff\"%) to the numbers "
  .. "1..1, each once", "a legend with a gap")
render_error({ legend = { ffffffff = 1, ["02FFFFFF"] = 2 } },
  "opts.legend must map", "a legend in capitals")
render_error({ meshes = 42 },
  "rsxmesh.render: meshes must be a bundle, a mesh, a submesh", "meshes 42")
render_error({ texture = function() return 1 end, shade = "flat" },
  "image expected, got number", "a texture function's bad result")
local closed = assert(rsxmesh.open(bpath))
closed:close()
render_error({ meshes = closed }, "rsxmesh.render: bundle is closed",
  "a closed bundle")

b:close()
for _, p in ipairs{ "/tex/quad.png", "/tex/old.dds", "/tex", "/quads.rsxb",
  "" } do
  os.remove(dir .. p)
end
t.done_testing()
