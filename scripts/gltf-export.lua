-- gltf-export.lua - glTF 2.0 files (.gltf + .bin, or .glb) from bundles
--
-- rsxmesh gltf-export BUNDLE|FOLDER... -o DIR [--glb] [--per-mesh]
--                     [--mesh PATTERN] [--verbose]
--
-- One file per bundle (DIR/NAME.gltf, folders mirrored), or one per mesh
-- (DIR/NAME/MESH.gltf). A node and a mesh per mesh, a primitive per
-- submesh, every logical UV the selectors give, colours, tangents, and the
-- raw tangent vectors and tree extras as _TANGENT_A, _TANGENT_B, _EXTRA_A,
-- _EXTRA_B. doc/scripts.md says what is written and why.

local cli = require "rsxmesh.cli"
local path = require "rsxmesh.path"
local text = require "rsxmesh.text"
local Run = require "rsxmesh.run"
local gltf = require "rsxmesh.gltf"
local jobs = require "rsxmesh.jobs"

local opts, inputs = cli.parse(arg, {
  name = "gltf-export",
  jobs = true,
  usage = "rsxmesh gltf-export [options] BUNDLE|FOLDER... -o DIR",
  about = "Write glTF 2.0: a node and a mesh per mesh, a primitive per"
    .. " submesh,\nTEXCOORD_0..3 from the submesh's logical UVs, COLOR_0,"
    .. " TANGENT and the\nraw tangent vectors and tree extras.",
  options = {
    { short = "o", long = "out", arg = "DIR", required = true,
      help = "write the files into DIR (created when missing)" },
    { long = "glb", help = "write one binary .glb per file, not .gltf"
      .. " and .bin; it holds its PNG and JPEG textures" },
    { long = "copy-textures", help = "copy the textures beside the .gltf"
      .. " files and refer to the copies" },
    { long = "per-mesh", help = "one file per mesh: DIR/BUNDLE/MESH.gltf" },
    { long = "mesh", arg = "NAME|NUMBER", list = true,
      help = "only this mesh: its number in the bundle, or its exact name"
        .. " (repeatable)" },
    { short = "v", long = "verbose",
      help = "say, mesh by mesh, what glTF could not take as stored" },
  },
  check = function(opts)
    if opts.glb and opts.copy_textures then
      return "--copy-textures: a .glb holds its textures already (--glb)"
    end
  end,
})

local run = Run.new(opts)
run:output_folder(opts.out)
local ext = opts.glb and ".glb" or ".gltf"
local function new_totals()
  return { files = 0, meshes = 0, vertices = 0, triangles = 0, bytes = 0 }
end
local totals, handled = new_totals(), {}
local said = {}

-- A note line on stderr, without counting a failure.
local function say(note)
  if said[note] then return end
  said[note] = true
  run:clear()
  io.stderr:write(run.name, ": ", note, "\n")
end


-- A new document for file: the buffer goes there as it is made, once
-- the run has claimed the file (its folder made, a name two inputs would
-- share refused).
local function new_doc(name, bundle_dir, file, input)
  local dir = path.dirname(file)
  return gltf.new{ name = name, bundle_dir = bundle_dir,
    out_dir = dir, file = file, glb = opts.glb,
    prepare = function() return run:claim(file, input.path) end,
    copy_texture = opts.copy_textures and function(src, texture)
      local copy, err = run:copy_texture(src, texture, dir)
      if not copy then run:fail(input.path, err) end
      return copy, err
    end }
end

local function save(doc, input)
  -- a .gltf has its .bin beside it when it has any bytes: two files
  local files = (not opts.glb and doc.size > 0) and 2 or 1
  local ok, err = doc:save()
  if not ok then
    run:fail(input.path, err)
    return
  end
  totals.files = totals.files + files
  totals.bytes = totals.bytes + ok
  for _, note in ipairs(doc.notes) do say(input.path .. ": " .. note) end
end

-- Add mesh m to doc and account for what happened.
local function add(doc, m, input)
  local where = m.label -- as the module's own messages name it
  local r = doc:add_mesh(m)
  for _, e in ipairs(r.errors) do
    -- the module's messages name the mesh already; the exporter's do not
    local message = tostring(e)
    if message:sub(1, #where + 2) ~= where .. ": " then
      message = where .. ": " .. message
    end
    run:fail(input.path, message)
  end
  if opts.verbose then
    for _, note in ipairs(r.notes) do
      say(input.path .. ": " .. where .. ": " .. note)
    end
  end
  for kind, n in pairs(r.counts) do
    handled[kind] = (handled[kind] or 0) + n
  end
  if r.written then
    totals.meshes = totals.meshes + 1
    totals.vertices = totals.vertices + r.vertices
    totals.triangles = totals.triangles + r.triangles
  end
  return r.written
end

run:each(inputs, function(bundle, input)
  local bundle_dir = path.dirname(input.path)
  local list = cli.selected_meshes(run, bundle, input, opts.mesh)
  if opts.per_mesh then
    local dir = path.join(opts.out, input.stem)
    local used = {}
    for k, m in ipairs(list) do
      run:progress("%s: mesh %d of %d", run.label, k, #list)
      local name = cli.mesh_file_name(m.name, m.number, used)
      local doc <close> = new_doc(m.name, bundle_dir,
        path.join(dir, name .. ext), input)
      if add(doc, m, input) then
        save(doc, input)
      else
        used[name] = nil -- a mesh not written takes no name
      end
    end
  else
    local doc <close> = new_doc(input.stem:match("([^/]+)$"), bundle_dir,
      path.join(opts.out, input.stem .. ext), input)
    -- every material of the bundle, in its order, used or not
    for _, mat in bundle:materials() do doc:material(mat) end
    local written = 0
    for k, m in ipairs(list) do
      run:progress("%s: mesh %d of %d", run.label, k, #list)
      if add(doc, m, input) then written = written + 1 end
    end
    -- a bundle none of whose meshes is wanted gives no file
    if written > 0 or (#bundle == 0 and not opts.mesh) then
      save(doc, input)
    end
  end
end, { state = function() return { totals, handled } end,
       reset = function() totals, handled = new_totals(), {} end,
       merge = function(t)
         jobs.add(totals, t[1])
         jobs.add(handled, t[2])
       end,
       -- textures of one name from two bundles: one copy, refused in order
       one_process = opts.copy_textures })

-- What was handled, in one line, when anything was.
local KINDS = {
  { "zero_normals", "zero normal replaced", "zero normals replaced" },
  { "renormalised", "normal renormalised", "normals renormalised" },
  { "zero_a", "tangent with zero A", "tangents with zero A" },
  { "no_handedness", "tangent without handedness (w = +1)",
    "tangents without handedness (w = +1)" },
  { "no_tangent", "mesh without TANGENT", "meshes without TANGENT" },
  { "uv_dropped", "logical UV dropped after an absent one",
    "logical UVs dropped after an absent one" },
  { "untextured", "submesh without UV0 for its texture",
    "submeshes without UV0 for their texture" },
  { "non_finite", "attribute with NaN or infinity left out",
    "attributes with NaN or infinity left out" },
  { "empty_submeshes", "submesh without triangles",
    "submeshes without triangles" },
  { "empty_meshes", "mesh without triangles", "meshes without triangles" },
}
local parts = {}
for _, k in ipairs(KINDS) do
  local n = handled[k[1]]
  if n and n > 0 then parts[#parts + 1] = text.plural(n, k[2], k[3]) end
end
if #parts > 0 then
  run:clear()
  io.stderr:write(run.name, ": handled: ", table.concat(parts, ", "),
    opts.verbose and "" or " (--verbose names the meshes)", "\n")
end

run:finish(string.format("%s, %s, %s, %s, %s written in %s",
  text.plural(run.ok, "bundle"), text.plural(totals.meshes, "mesh", "meshes"),
  text.plural(totals.vertices, "vertex", "vertices"),
  text.plural(totals.triangles, "triangle"),
  text.plural(totals.bytes, "byte"), text.plural(totals.files, "file")))
