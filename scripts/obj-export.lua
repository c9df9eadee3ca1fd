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

-- Write the OBJ text of one mesh to f (mesh:obj_lines: an o object, its
-- v, vn and vt lines, a g group with its usemtl and f lines per
-- submesh), numbered after the counts in base ({v =, vt =, vn =}), which
-- it advances; the materials it uses are marked in used. Returns the
-- bytes, the triangles and the vertices written; nil and a message when
-- something the mesh needs cannot be decoded, and then nothing is
-- written. A failed write raises the system's reason alone (no
-- position): the caller names the file.
local function mesh_obj(f, mesh, base, names, used)
  local bytes, triangles, vertices = mesh:obj_lines({ name =
    token(mesh.name), uv = opts.uv, colours = opts.colours, counts = base,
    materials = names, none = names.none, used = used, file = f })
  if not bytes and vertices then error(triangles, 0) end
  return bytes, triangles, vertices
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
      run:progress("%s: mesh %d of %d", run.label, k, #list)
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
