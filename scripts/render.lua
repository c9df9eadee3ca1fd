-- render.lua - render RSXB bundles to PNG images, or contact sheets
--
-- Each bundle whole (or the meshes named) through rsxmesh.render: from an
-- automatic view framing its bounds or an explicit camera, in one of the
-- shading modes; with --sheet, each mesh framed alone in a grid cell with
-- its number. The conventions are doc/rendering.md's.

local rsxmesh = require "rsxmesh"
local cli = require "rsxmesh.cli"
local text = require "rsxmesh.text"
local path = require "rsxmesh.path"
local Run = require "rsxmesh.run"
local font = require "rsxmesh.font"
local interrupt = require "rsxmesh.interrupt"
local lfs = require "lfs"

-- "X,Y,Z" -> {x, y, z}
local function vector(s)
  local x, y, z = s:match("^([^,]+),([^,]+),([^,]+)$")
  x, y, z = tonumber(x), tonumber(y), tonumber(z)
  if not (x and y and z) then
    return nil, "expects X,Y,Z (three numbers), not '" .. s .. "'"
  end
  return { x, y, z }
end

-- "R,G,B[,A]" -> {r, g, b, a}, each 0..255
local function colour(s)
  local c, ok = {}, true
  for v in (s .. ","):gmatch("([^,]*),") do
    local n = math.tointeger(tonumber(v))
    ok = ok and n ~= nil and n >= 0 and n <= 255
    c[#c + 1] = n or -1
  end
  if not ok or #c < 3 or #c > 4 then
    return nil, "expects R,G,B or R,G,B,A (0..255), not '" .. s .. "'"
  end
  return c
end

-- "WxH" -> {w, h}
local function size(s)
  local w, h = s:match("^(%d+)x(%d+)$")
  w, h = math.tointeger(tonumber(w)), math.tointeger(tonumber(h))
  if not (w and h) or w < 1 or h < 1 or w > 16384 or h > 16384 then
    return nil, "expects WxH with sides 1..16384, not '" .. s .. "'"
  end
  return { w, h }
end

local function number_in(lo, hi)
  return function(s)
    local n = tonumber(s)
    if not n or n < lo or n > hi then
      return nil, string.format("expects a number in %g..%g, not '%s'",
        lo, hi, s)
    end
    return n
  end
end

local one_of = cli.one_of

local spec = {
  name = "render",
  usage = "rsxmesh render [options] BUNDLE|FOLDER... -o OUT.png|DIR",
  about = "Render RSXB bundles (folders are searched for *.rsxb) to PNG\n"
    .. "images: each bundle whole, or the meshes named, textured with their\n"
    .. "base-colour textures through the submeshes' selectors.",
  options = {
    { short = "o", long = "out", arg = "OUT", required = true,
      help = "OUT.png for one bundle, else a folder (created if missing)" },
    { long = "mesh", arg = "NAME|NUMBER", list = true,
      help = "only this mesh (its name or number); repeatable" },
    { long = "size", arg = "WxH", check = size,
      help = "image size (default 1280x720; a cell's with --sheet, "
        .. "default 192x192)" },
    { long = "view", arg = "VIEW", check = one_of{ "iso", "top", "front",
      "side" }, help = "iso (default), top, front or side, framing the "
        .. "meshes" },
    { long = "eye", arg = "X,Y,Z", check = vector,
      help = "an explicit camera: the eye (with --at)" },
    { long = "at", arg = "X,Y,Z", check = vector,
      help = "the point looked at (with --eye)" },
    { long = "up", arg = "X,Y,Z", check = vector,
      help = "the up direction (default 0,1,0)" },
    { long = "fov", arg = "DEG", check = number_in(1, 179),
      help = "vertical field of view of --eye's camera (default 40)" },
    { long = "ortho", arg = "HEIGHT", check = number_in(1e-30, math.huge),
      help = "orthographic, with this view height" },
    { long = "shade", arg = "MODE", check = one_of{ "flat", "lit", "normals",
      "uv", "selectors", "colour" }, default = "lit",
      help = "flat, lit (default), normals, uv, selectors or colour" },
    { long = "uv", arg = "N", check = cli.integer(0, 3),
      help = "sample logical UV N (through the selectors; default 0)" },
    { long = "stored", arg = "N", check = cli.integer(0, 3),
      help = "sample stored set N, ignoring the selectors" },
    { long = "filter", arg = "F", check = one_of{ "nearest", "bilinear",
      "trilinear" }, default = "trilinear",
      help = "nearest, bilinear or trilinear (default)" },
    { long = "cull", help = "drop triangles facing away" },
    { long = "background", arg = "R,G,B[,A]", check = colour,
      help = "the background colour (default 48,48,48)" },
    { long = "sheet",
      help = "a contact sheet: each mesh alone in a numbered cell" },
  },
  details = "Output: OUT.png, or DIR/BUNDLE.png for each bundle (bundles\n"
    .. "found in a folder keep their place below it); -o with another\n"
    .. "extension is refused. A --mesh that names no mesh of a bundle fails\n"
    .. "it, and no image is written for it. A texture that cannot be read\n"
    .. "is reported once and drawn grey. See doc/rendering.md.",
}
local opts, args = cli.parse(arg, spec)

if opts.uv and opts.stored then
  cli.usage_error(spec, "--uv and --stored exclude each other")
end
if (opts.eye == nil) ~= (opts.at == nil) then
  cli.usage_error(spec, "--eye and --at go together")
end
if opts.eye and opts.view then
  cli.usage_error(spec, "--view and --eye exclude each other")
end
if opts.fov and not opts.eye then
  cli.usage_error(spec, "--fov needs --eye and --at")
end
if opts.fov and opts.ortho then
  cli.usage_error(spec, "--fov and --ortho exclude each other")
end
local single = opts.out:lower():match("%.png$") ~= nil
-- a name with another extension is a file the user wants, not a folder:
-- only PNG is written (a folder of that name: end it with a slash)
local ext = not single and opts.out:match("[^/.]%.([^/.]+)$")
if ext and lfs.attributes(opts.out, "mode") ~= "directory" then
  cli.usage_error(spec, "-o " .. opts.out .. ": render writes PNG only: "
    .. "give OUT.png, or a folder (" .. opts.out .. "/)")
end
if single and #cli.expand(args) > 1 then
  cli.usage_error(spec, "-o " .. opts.out .. " takes one bundle; give a "
    .. "folder for several")
end
local width, height = table.unpack(opts.size
  or (opts.sheet and { 192, 192 } or { 1280, 720 }))

local camera
if opts.eye then
  camera = { eye = opts.eye, at = opts.at, up = opts.up, fov = opts.fov,
             ortho = opts.ortho }
  -- a bad camera is the command line's problem, not each bundle's: the
  -- core checks it on an empty render
  local ok, err = interrupt.pcall(rsxmesh.render, { meshes = {}, width = 1,
    height = 1, camera = camera })
  if not ok then
    cli.usage_error(spec, (tostring(err):gsub("^rsxmesh%.render: ", "")))
  end
else
  camera = { view = opts.view or "iso", up = opts.up, ortho = opts.ortho }
end

local run = Run.new(opts)
if not single then run:output_folder(opts.out) end
local total = { images = 0, meshes = 0, triangles = 0 }
local reported = {}
local textures = {} -- each texture file read once a run

-- A texture problem, once a run: it does not fail the input.
local function warn_missing(info)
  for _, msg in ipairs(info.missing) do
    if not reported[msg] then
      reported[msg] = true
      run:clear()
      io.stderr:write("render: ", msg, " (drawn grey)\n")
    end
  end
end

-- the triangles drawn for the image in progress: counted once it is saved
local drawn = 0

-- legend: combination -> number, shared by the calls of one image, so
-- that a combination has one colour in every cell of a sheet.
local function render(meshes, w, h, legend)
  local img, info = rsxmesh.render{ meshes = meshes, width = w, height = h,
    camera = camera, shade = opts.shade, uv = opts.uv, stored = opts.stored,
    filter = opts.filter, cull = opts.cull, background = opts.background,
    textures = textures, legend = legend }
  warn_missing(info)
  drawn = drawn + info.triangles
  return img, info
end

-- Save an image of meshes meshes: they are counted once it is written.
local function save(img, file, input, meshes)
  local ok, err = run:claim(file, input.path)
  if ok then ok, err = img:save(file) end
  if not ok then error(err, 0) end -- the input's failure, no position
  total.images = total.images + 1
  total.meshes = total.meshes + meshes
  total.triangles = total.triangles + drawn
end

-- Print the selectors legend: which colour each combination got, by
-- number (entries as info.legend's).
local function print_legend(input, entries)
  for _, e in ipairs(entries) do
    io.stdout:write(string.format("%s: selectors %s: %d %d %d\n",
      input.path, e.selectors, e.colour[1], e.colour[2], e.colour[3]))
  end
end

-- Submeshes a finding kept from an image fail its input: the first
-- finding and how many.
local function report_skipped(input, count, message)
  if count > 0 then
    run:fail(input.path, message .. " (" .. text.plural(count, "submesh",
      "submeshes") .. " not drawn)")
  end
end

-- Each mesh framed alone in a cell of a grid, its number at the top-left;
-- the legend and the skipped submeshes are the whole sheet's.
local function sheet(list, input)
  local n = #list
  local cols = math.max(1, math.ceil(math.sqrt(n)))
  local rows = math.max(1, math.ceil(n / cols))
  if cols * width > 16384 or rows * height > 16384 then
    error(string.format("a sheet of %d meshes in %dx%d cells is over 16384 "
      .. "pixels a side; choose a smaller --size", n, width, height), 0)
  end
  local img = rsxmesh.image(cols * width, rows * height, { 32, 32, 32 })
  local legend, entries, skipped, message = {}, {}, 0, nil
  for k, m in ipairs(list) do
    run:progress("%s: mesh %d of %d", run.label, k, n)
    local x = (k - 1) % cols * width + 1
    local y = (k - 1) // cols * height + 1
    local cell, info = render(m, width, height, legend)
    img:paste(cell, x, y)
    font.draw(img, x, y, tostring(m.number), 2, { 255, 255, 255 },
      { 0, 0, 0 })
    for _, e in ipairs(info.legend) do entries[e.number] = e end
    skipped = skipped + info.skipped
    message = message or info.skip_message
  end
  report_skipped(input, skipped, message)
  print_legend(input, entries)
  return img
end

run:each(args, function(bundle, input)
  drawn = 0
  -- a --mesh naming none: not the image asked for, so none is written
  local list, unknown = cli.selected_meshes(run, bundle, input, opts.mesh)
  if #list == 0 or unknown > 0 then return end
  local file = single and opts.out or path.join(opts.out, input.stem
    .. ".png")
  if opts.sheet then
    return save(sheet(list, input), file, input, #list)
  end
  run:progress(run.label)
  local img, info = render(opts.mesh and list or bundle, width, height)
  report_skipped(input, info.skipped, info.skip_message)
  print_legend(input, info.legend)
  save(img, file, input, #list)
end)

run:finish(string.format("%s, %s, %s, %s written",
  text.plural(run.ok, "bundle"), text.plural(total.meshes, "mesh", "meshes"),
  text.plural(total.triangles, "triangle"),
  text.plural(total.images, "image")))
