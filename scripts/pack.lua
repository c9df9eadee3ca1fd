-- pack.lua - build an RSXB bundle from meshes given by offsets in files
--
--   rsxmesh pack MANIFEST.lua -o OUT.rsxb
--
-- The manifest (rsxmesh.manifest; rsxmesh scan --manifest writes one)
-- lists each mesh's file and the offsets of its record, streams and
-- indices, as Hex2Obj takes them. Every field is checked; on a refusal
-- nothing is written.

local rsxmesh = require "rsxmesh"
local cli = require "rsxmesh.cli"
local text = require "rsxmesh.text"
local Run = require "rsxmesh.run"
local manifest = require "rsxmesh.manifest"

local opts, args = cli.parse(arg, {
  name = "pack",
  usage = "rsxmesh pack MANIFEST.lua -o OUT.rsxb",
  about = "Build an RSXB bundle from the meshes a manifest gives by offsets "
    .. "in\nfiles (its fields: doc/scripts.md). Nothing is written when a "
    .. "field is\nrefused.",
  inputs = 1,
  options = {
    { short = "o", long = "out", arg = "OUT.rsxb", required = true,
      help = "the bundle to write" },
  },
})

local run = Run.new(opts)
if #args ~= 1 then
  run:fail(args[2], "one manifest at a time")
  run:finish("nothing written")
end

local list, err = manifest.read(args[1])
if not list then
  run:fail(args[1], err)
  run:finish("nothing written")
end

local w <close> = rsxmesh.writer()
local materials, textures = {}, {}
local vertices = 0
for k, item in ipairs(list) do
  local t = item.mesh
  for _, s in ipairs(t.submeshes) do
    local name = s.material
    if name then
      local tex = item.materials[name]
      if textures[name] and textures[name] ~= tex then
        run:fail(args[1], string.format("mesh %d (%s): material %q: its "
          .. "texture %q differs from %q given before", k, t.name, name, tex,
          textures[name]))
        run:finish("nothing written")
      end
      if not materials[name] then
        materials[name] = assert(w:material(name, {
          { slot = rsxmesh.BASE_COLOUR, texture = tex } }))
        textures[name] = tex
      end
      s.material = materials[name]
    end
  end
  local ok, merr = w:mesh(t)
  if not ok then
    run:fail(args[1], string.format("mesh %d (%s): %s", k, t.name, merr))
    run:finish("nothing written")
  end
  vertices = vertices + t.vertex_count
end
local ok, serr = w:save(opts.out)
if not ok then
  run:fail(opts.out, serr)
  run:finish("nothing written")
end
run.ok = 1
run:finish(string.format("%s, %s in %s", text.plural(#list, "mesh",
  "meshes"), text.plural(vertices, "vertex", "vertices"), opts.out))
