-- uv-layout.lua - draw the UV layout of each submesh over its texture
--
-- A PNG per submesh and logical UV present: the base-colour texture tiled
-- over the UV rectangle the submesh's triangles span, V top-origin (as the
-- research note says), the triangle edges drawn on top. The file name says
-- the mesh, the submesh, the logical UV and the stored set that feeds it.

local rsxmesh = require "rsxmesh"
local cli = require "rsxmesh.cli"
local text = require "rsxmesh.text"
local path = require "rsxmesh.path"
local Run = require "rsxmesh.run"
local interrupt = require "rsxmesh.interrupt"

local spec = {
  name = "uv-layout",
  usage = "rsxmesh uv-layout [options] BUNDLE|FOLDER... -o DIR",
  about = "Draw the UV layout of each submesh of RSXB bundles (folders are\n"
    .. "searched for *.rsxb) over its base-colour texture, one PNG per\n"
    .. "submesh and logical UV.",
  options = {
    { short = "o", long = "out", arg = "DIR", required = true,
      help = "write the PNGs into DIR (created if missing)" },
    { long = "mesh", arg = "NAME|NUMBER", list = true,
      help = "only this mesh (its name or number); repeatable" },
    { long = "size", arg = "N", check = cli.integer(16, 16384),
      default = 512, help = "the longer side of each image (default 512)" },
  },
  details = "Output: DIR/BUNDLE/MESH-sS-uvL-setN.png: submesh S (1-based),\n"
    .. "logical UV L, stored set N feeding it. The image spans the UVs the\n"
    .. "submesh's triangles use: its top-left is (u min, v min), its\n"
    .. "bottom-right (u max, v max). Edges are yellow; a texture that cannot\n"
    .. "be read is reported once and drawn grey.",
}
local opts, args = cli.parse(arg, spec)

local EDGE = { 255, 230, 0 }
local run = Run.new(opts)
run:output_folder(opts.out)
local total = { meshes = 0, images = 0, triangles = 0 }
local textures, reported = {}, {}

-- The base-colour texture of a submesh's material, read once a run; nil
-- (reported once) when it cannot be read.
local function texture(bundle, s)
  local mat = s.material
  local rel = mat and mat.base_colour
  if not rel then return nil end
  local file = path.join(path.dirname(bundle.path), rel)
  if textures[file] == nil then
    local img, err = rsxmesh.read_png(file)
    textures[file] = img or false
    if not img and not reported[file] then
      reported[file] = true
      run:clear()
      io.stderr:write("uv-layout: ", err, " (drawn grey)\n")
    end
  end
  return textures[file] or nil
end

-- The UV rectangle the triangles use: umin, vmin, umax, vmax (finite
-- values only); nil if none is finite.
local function uv_bounds(acc, tri)
  local umin, vmin, umax, vmax = math.huge, math.huge, -math.huge, -math.huge
  for _, v in ipairs(tri) do
    local u, w = acc:get(v)
    if u == u and w == w and math.abs(u) < math.huge
        and math.abs(w) < math.huge then
      umin, umax = math.min(umin, u), math.max(umax, u)
      vmin, vmax = math.min(vmin, w), math.max(vmax, w)
    end
  end
  if umin > umax then return nil end
  if umax == umin then umax = umin + 1 end
  if vmax == vmin then vmax = vmin + 1 end
  return umin, vmin, umax, vmax
end

-- A quad over the rectangle in pixel space, w x h units: corner (u, v)
-- at ((u - umin) / du * w, -(v - vmin) / dv * h), with UV0 (u, v) as
-- float32 (mask 00000021: not packed, so no rounding to halves). Seen head
-- on from +Z with ortho height h, it fills the w x h image exactly, the
-- rectangle the edges use, V growing downwards, whatever rounding made w
-- and h.
local META = string.rep("\0", 0x8C) .. string.pack(">I4", 0x00000021)
local function uv_quad(umin, vmin, umax, vmax, w, h)
  local corners = { { umin, vmin, 0, 0 }, { umin, vmax, 0, -h },
    { umax, vmax, w, -h }, { umax, vmin, w, 0 } }
  local mmp, mgp = {}, {}
  for k, c in ipairs(corners) do
    mmp[k] = string.pack(">fffI4", c[3], c[4], 0, 0)
    mgp[k] = string.pack(">ff", c[1], c[2])
  end
  return assert(rsxmesh.mesh{ name = "uv", meta = META, vertex_count = 4,
    mmp = table.concat(mmp), mmp_stride = 16, mgp = table.concat(mgp),
    mgp_stride = 8, index_size = 2,
    indices = rsxmesh.indices(2, { 1, 2, 3, 1, 3, 4 }) })
end

-- The layout of logical UV i of submesh s: the image, and its triangles.
local function layout(bundle, s, i)
  local acc = assert(s:uv(i))
  local tri, n = s:triangles()
  if not tri then error(n, 0) end
  local umin, vmin, umax, vmax = uv_bounds(acc, tri)
  if not umin then return nil, 0 end
  local du, dv = umax - umin, vmax - vmin
  local scale = opts.size / math.max(du, dv)
  local w = math.max(1, math.min(opts.size, math.floor(du * scale + 0.5)))
  local h = math.max(1, math.min(opts.size, math.floor(dv * scale + 0.5)))
  local img = rsxmesh.render{
    meshes = uv_quad(umin, vmin, umax, vmax, w, h),
    width = w, height = h, shade = "flat", filter = "trilinear",
    camera = { eye = { w / 2, -h / 2, 1 }, at = { w / 2, -h / 2, 0 },
      ortho = h },
    texture = texture(bundle, s) }
  -- pixel x covers u in umin + [x - 1, x] du / w; u max is in pixel w
  local function px(u, v)
    return math.min(w, math.floor((u - umin) / du * w) + 1),
      math.min(h, math.floor((v - vmin) / dv * h) + 1)
  end
  for k = 1, #tri, 3 do
    local x1, y1 = px(acc:get(tri[k]))
    local x2, y2 = px(acc:get(tri[k + 1]))
    local x3, y3 = px(acc:get(tri[k + 2]))
    if x1 == x1 and x2 == x2 and x3 == x3 then
      img:line(x1, y1, x2, y2, EDGE[1], EDGE[2], EDGE[3])
      img:line(x2, y2, x3, y3, EDGE[1], EDGE[2], EDGE[3])
      img:line(x3, y3, x1, y1, EDGE[1], EDGE[2], EDGE[3])
    end
  end
  return img, n
end

run:each(args, function(bundle, input)
  local taken = {}
  local list = cli.selected_meshes(run, bundle, input, opts.mesh)
  for k, m in ipairs(list) do
    run:progress("%s: mesh %d of %d", run.label, k, #list)
    local stem = cli.mesh_file_name(m.name, m.number, taken)
    for j = 1, m.submesh_count do
      local s = m:submesh(j)
      for i = 0, 3 do
        local set = s:uv_set(i)
        if set then
          local ok, img, n = interrupt.pcall(layout, bundle, s, i)
          if not ok then -- named once: the core's messages name it
            local where = string.format("%s: submesh %d: ", m.label, j)
            img = tostring(img)
            if img:sub(1, #where) ~= where then img = where .. img end
            run:fail(input.path, img)
          elseif img then
            local file = path.join(path.join(opts.out, input.stem),
              string.format("%s-s%d-uv%d-set%d.png", stem, j, i, set))
            local saved, err = run:claim(file, input.path)
            if saved then saved, err = img:save(file) end
            if not saved then error(err, 0) end -- no script position
            total.images = total.images + 1
            total.triangles = total.triangles + n
          end
        end
      end
    end
    total.meshes = total.meshes + 1
  end
end)

run:finish(string.format("%s, %s, %s, %s written",
  text.plural(run.ok, "bundle"), text.plural(total.meshes, "mesh", "meshes"),
  text.plural(total.triangles, "triangle"),
  text.plural(total.images, "layout")))
