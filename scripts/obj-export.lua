-- obj-export.lua - export RSXB bundles as Wavefront OBJ and MTL files
--
-- One OBJ and one MTL per bundle (or per mesh): meshes as `o`, submeshes as
-- `g` with `usemtl`; vt from each submesh's logical UV0 (through its
-- selector bytes), V flipped because the note's V axis is top-origin and
-- OBJ's is bottom-origin.

local cli = require "rsxmesh.cli"
local text = require "rsxmesh.text"
local path = require "rsxmesh.path"
local Run = require "rsxmesh.run"
local jobs = require "rsxmesh.jobs"
local interrupt = require "rsxmesh.interrupt"
local output = require "rsxmesh.output"

local opts, args = cli.parse(arg, {
  name = "obj-export",
  jobs = true,
  usage = "rsxmesh obj-export [options] BUNDLE|FOLDER... -o DIR",
  about = "Export the meshes of RSXB bundles (folders are searched for\n"
    .. "*.rsxb) as Wavefront OBJ files, with their materials in MTL files.",
  options = {
    { short = "o", long = "out", arg = "DIR", required = true,
      help = "write the files into DIR (created if missing)" },
    { long = "uv", arg = "N", check = cli.integer(0, 3), default = 0,
      help = "the logical UV (0-3) written as vt (default 0)" },
    { long = "mesh", arg = "NAME|NUMBER", list = true,
      help = "only this mesh: its number in the bundle, or its exact name"
        .. " (repeatable)" },
    { long = "colours",
      help = "write vertex colours as 'v x y z r g b'" },
    { long = "per-mesh",
      help = "one OBJ and MTL per mesh, in a folder per bundle" },
    { long = "copy-textures",
      help = "copy the textures beside the MTL files and refer to the "
        .. "copies" },
  },
  details = "Output: DIR/BUNDLE.obj and DIR/BUNDLE.mtl, or with --per-mesh\n"
    .. "DIR/BUNDLE/MESH.obj and .mtl. Bundles found in a folder keep their\n"
    .. "place below it. Texture paths in the MTL are relative to the MTL.\n"
    .. "Each file is written under a temporary name and renamed when whole.",
})

-- v' = 1 - v, computed in float32 by acc:lines
local FLIP_V = { scale = { 1, -1 }, offset = { 0, 1 } }
local NO_MATERIAL = "(none)"

local run = Run.new(opts)
run:output_folder(opts.out)
local function new_total()
  return { meshes = 0, vertices = 0, triangles = 0, bytes = 0 }
end
local total = new_total()

-- OBJ and MTL names are single tokens.
local function token(name)
  name = name:gsub("%s", "_")
  return name ~= "" and name or "_"
end

-- MTL names for the bundle's materials, unique within the file; and one
-- more, for submeshes that have no material.
local function material_names(bundle)
  local names, used = {}, {}
  local function unique(name, n)
    while used[name] do name = name .. "." .. n end
    used[name] = true
    return name
  end
  for i, mat in bundle:materials() do names[i] = unique(token(mat.name), i) end
  names.none = unique(NO_MATERIAL, 0)
  return names
end

-- The columns of s:face_lines for a corner "v/vt/vn": each the offset
-- of the v, vt and vn already in the file; false for an absent vt (v//vn),
-- left out when nothing follows (v/vt, v).
local function face_columns(v, vt, vn)
  if vn then return { { offset = v }, vt and { offset = vt } or false,
    { offset = vn } } end
  if vt then return { { offset = v }, { offset = vt } } end
  return { { offset = v } }
end

-- What one mesh's text needs, checked before any of it is written, so
-- that a mesh that fails leaves nothing in the file: its attributes, the
-- UV accessor of each stored set its submeshes feed (in submesh order,
-- as they are written) and, when an index lies past the vertices, each
-- submesh's triangles. A table, or nil and the first message. Its
-- submeshes and their stored sets are kept for mesh_obj (each of those
-- is a call into the module, a few microseconds a mesh).
local function mesh_parts(mesh)
  local parts = { uv = {}, submeshes = {}, sets = {} }
  local err
  parts.position, err = mesh:attribute("position")
  if not parts.position then return nil, err end
  if mesh:has("normal") then
    parts.normal, err = mesh:attribute("normal")
    if not parts.normal then return nil, err end
  end
  if opts.colours and mesh:has("colour") then
    parts.colour, err = mesh:attribute("colour")
    if not parts.colour then return nil, err end
  end
  local bad_index = false
  for _, f in ipairs(mesh.findings) do
    if f.code == "index-range" then bad_index = true end
  end
  for i, s in mesh:submeshes() do
    if bad_index then
      local count, why = s:triangle_count() -- its message, no bytes
      if not count then return nil, why end
    end
    local set = s:uv_set(opts.uv)
    parts.submeshes[i], parts.sets[i] = s, set or false
    if set and parts.uv[set] == nil then
      parts.uv[set], err = s:uv(opts.uv)
      if not parts.uv[set] then return nil, err end
    end
  end
  return parts
end

-- Write the OBJ text of one mesh to f, numbered after the counts in base
-- ({v =, vt =, vn =}), which it advances; the long blocks (v, vn, vt, f)
-- go from the module straight to the file. Returns the bytes, the
-- triangles and the vertices written; nil and a message when something
-- the mesh needs cannot be decoded, and then nothing is written.
local function mesh_obj(f, mesh, base, names, used)
  local parts, err = mesh_parts(mesh)
  if not parts then return nil, err end
  local n = mesh.vertex_count
  local position, normal, colour = parts.position, parts.normal,
    parts.colour
  local bytes = 0
  -- a failed write raises the system's reason alone (no position): the
  -- caller names the file
  local function put(s)
    local ok, why = f:write(s)
    if not ok then error(why, 0) end
    bytes = bytes + #s
  end
  local function block(written, why)
    if not written then error(why, 0) end
    bytes = bytes + written
  end

  local name = token(mesh.name)
  put("o " .. name .. "\n")
  if n > 0 and colour then
    -- "v x y z r g b": the colour's alpha has no place in the extension
    block(position:lines("v", 1, n,
      { with = colour, with_components = 3, file = f }))
  elseif n > 0 then
    block(position:lines("v", 1, n, { file = f }))
  end
  if n > 0 and normal then
    block(normal:lines("vn", 1, n, { file = f }))
  end
  local vt_base = {} -- stored UV set -> vt count before its block
  local vt_count, triangles = base.vt, 0
  for i, s in ipairs(parts.submeshes) do
    -- a set first met here gets its vt block next, at vt_count
    local set = parts.sets[i] or nil
    local columns = face_columns(base.v,
      set and (vt_base[set] or vt_count), normal and base.vn)
    if set and not vt_base[set] then
      vt_base[set] = vt_count
      if n > 0 then
        block(parts.uv[set]:lines("vt", 1, n,
          { scale = FLIP_V.scale, offset = FLIP_V.offset, file = f }))
      end
      vt_count = vt_count + n
    end
    local material = s.material
    local mat = material and names[material.index] or names.none
    used[mat] = true
    put("g " .. name .. "." .. i .. "\nusemtl " .. mat .. "\n")
    local written, count = s:face_lines("f", columns, f)
    block(written, count)
    triangles = triangles + count
  end
  base.v = base.v + n
  base.vn = base.vn + (normal and n or 0)
  base.vt = vt_count
  return bytes, triangles, n
end

-- The path an MTL in folder `to` gives texture tex of a bundle in folder
-- `from`: relative to the MTL, to the texture where it is or (with
-- --copy-textures) to its copy beside the MTL.
local function texture_ref(tex, from, to, input)
  local file = path.join(from, tex)
  if opts.copy_textures then
    local copy, err = run:copy_texture(file, tex, to)
    if copy then return copy end
    run:fail(input.path, err)
  end
  return path.relative(file, to)
end

-- The MTL text: the bundle's materials (only those in `only`, when given),
-- and the stand-in for no material when `none` is true; texture paths
-- made relative to the folder of the MTL.
local function mtl_text(bundle, names, only, none, mtl_path, input)
  local out = { "# from " .. bundle.name .. " by rsxmesh obj-export\n" }
  local from, to = path.dirname(bundle.path), path.dirname(mtl_path)
  for i, mat in bundle:materials() do
    if not only or only[names[i]] then
      out[#out + 1] = "\nnewmtl " .. names[i] .. "\nKd 1 1 1\n"
      local tex = mat.base_colour
      if tex then
        out[#out + 1] = "map_Kd " .. texture_ref(tex, from, to, input)
          .. "\n"
      end
    end
  end
  if none then
    out[#out + 1] = "\nnewmtl " .. names.none .. "\nKd 0.8 0.8 0.8\n"
  end
  return table.concat(out)
end

-- Write a file that no earlier input of this run has written, whole or
-- not at all (rsxmesh.output): fn(f, put) writes it, to f or with
-- put(text), which counts the bytes. A failure raises, naming the file
-- and the reason; the input reports it.
local function create(file, input, fn)
  local claimed, cerr = run:claim(file, input.path)
  if not claimed then error(cerr, 0) end
  local bytes = 0
  local ok, err = output.write(file, function(f)
    local function put(s)
      local written, why = f:write(s)
      if not written then error(why, 0) end
      bytes = bytes + #s
    end
    -- a failed write raises from put or from the module's
    -- blocks: given back as a failure, named by output.write; an
    -- interrupt is raised again
    return interrupt.pcall(fn, f, put)
  end)
  if not ok then error(err, 0) end
  total.bytes = total.bytes + bytes
end

-- Write the meshes of list into one OBJ at path, with its MTL beside it.
local function export(bundle, input, list, file, names, all_materials)
  local stem = file:gsub("%.obj$", "")
  local mtl = stem .. ".mtl"
  local used = {}
  local done = { meshes = 0, vertices = 0, triangles = 0, bytes = 0 }
  create(file, input, function(f, put)
    put("# from " .. bundle.name .. " by rsxmesh obj-export\n"
      .. "mtllib " .. (mtl:match("([^/]+)$")) .. "\n")
    local base = { v = 0, vt = 0, vn = 0 }
    for k, mesh in ipairs(list) do
      run:progress(string.format("%s: mesh %d of %d", run.label, k, #list))
      local bytes, triangles, vertices = mesh_obj(f, mesh, base, names,
        used)
      if bytes then
        done.bytes = done.bytes + bytes
        done.meshes = done.meshes + 1
        done.vertices = done.vertices + vertices
        done.triangles = done.triangles + triangles
      else
        run:fail(input.path, triangles)
      end
    end
  end)
  jobs.add(total, done) -- counted once the OBJ is whole
  create(mtl, input, function(_, put)
    put(mtl_text(bundle, names, not all_materials and used or nil,
      used[names.none], mtl, input))
  end)
end

run:each(args, function(bundle, input)
  local names = material_names(bundle)
  local list = cli.selected_meshes(run, bundle, input, opts.mesh)
  if opts.mesh and #list == 0 then return end -- each --mesh said so
  if not opts.per_mesh then
    return export(bundle, input, list, path.join(opts.out, input.stem
      .. ".obj"), names, true)
  end
  local taken = {}
  for _, mesh in ipairs(list) do
    local name = cli.mesh_file_name(mesh.name, mesh.number, taken)
    export(bundle, input, { mesh },
      path.join(path.join(opts.out, input.stem), name .. ".obj"), names)
  end
end, { state = function() return total end,
       reset = function() total = new_total() end,
       merge = function(t) jobs.add(total, t) end,
       -- two bundles' textures of one name are one copy: refused in order
       one_process = opts.copy_textures })

run:finish(string.format("%s, %s, %s, %s, %s written",
  text.plural(run.ok, "bundle"), text.plural(total.meshes, "mesh", "meshes"),
  text.plural(total.vertices, "vertex", "vertices"),
  text.plural(total.triangles, "triangle"), text.plural(total.bytes, "byte")))
