-- t/gltf-import-names.lua - gltf-import maps Blender's renamed duplicates
-- back: a base with two meshes named "crate" exports two glTF meshes of
-- that name; Blender names the second object (and its mesh) "crate.001",
-- and its exporter writes that name. The import takes NAME.nnn, where no
-- base mesh has that name, for the next base mesh named NAME after those
-- the glTF names NAME itself, in the order of the suffixes.
--
-- The bundle is t/crates.lua's: mesh 1 "crate", a triangle at x 0..1;
-- mesh 2 "wall", at x 10..11; mesh 3 "crate", at x 20..21 (positions
-- spelt there, big-endian). Each edit adds 0.5 to the x of one glTF
-- mesh's positions in the .bin; the expected x are worked out here:
-- 20 + 0.5 = 20.5 for mesh 3's first vertex.

local t = require "tap"
local rsxmesh = require "rsxmesh"
local lib = require "scripts-lib"
local gltf_edit = require "gltf-edit"

local tmp = lib.tmpdir()
local function at(p) return tmp .. "/" .. p end

local srcdir = os.getenv("top_srcdir") or "."
assert(loadfile(srcdir .. "/t/crates.lua"))(at("dup.rsxb"))
local ORIGINAL = assert(lib.read(at("dup.rsxb")))

local export = gltf_edit.export(t, tmp, at("dup.rsxb"),
  "gltf-export of the bundle with two meshes named crate")

-- The export with edit(doc) made to its JSON, and 0.5 added to the x of
-- the positions of each glTF mesh (0-based) in moved: written as
-- DIR/dup.gltf and its .bin, whose path it returns.
local function edited(dir, edit, moved)
  return export.write(dir, function(doc, bin)
    for _, gi in ipairs(moved) do
      local a = doc.accessors[doc.meshes[gi + 1].primitives[1]
        .attributes.POSITION + 1]
      local off = doc.bufferViews[a.bufferView + 1].byteOffset
        + (a.byteOffset or 0)
      for v = 0, a.count - 1 do
        local at_x = off + 12 * v
        local x = string.unpack("<f", bin, at_x + 1)
        bin = bin:sub(1, at_x) .. string.pack("<f", x + 0.5)
          .. bin:sub(at_x + 5)
      end
    end
    edit(doc)
    return bin
  end)
end

-- The x of each vertex of mesh k of a bundle file.
local function xs(file, k)
  local b = assert(rsxmesh.open(file))
  local pos = b:mesh(k):attribute("position")
  local out = {}
  for v = 1, #pos do out[v] = (pos:get(v)) end
  b:close()
  return table.concat(out, " ")
end

-- Mesh k's bytes (its vertex streams) in a bundle file and the original.
local function same_mesh(file, k)
  local a, b = assert(rsxmesh.open(file)), assert(rsxmesh.open(at("dup.rsxb")))
  local same = a:mesh(k):stream("mmp") == b:mesh(k):stream("mmp")
  a:close()
  b:close()
  return same
end

local import = export.import

-- Blender's names: the second crate is crate.001, and it was moved
local g = edited("renamed", function(doc)
  doc.meshes[3].name = "crate.001"
end, { 2 })
local code, _, out, err
code, out, err = import(g, "renamed.rsxb")
t.is(code, 0, "crate.001 imports")
if code ~= 0 then t.diag(err) end
t.is(xs(at("renamed.rsxb"), 3), "20.5 21.5 20.5",
  "crate.001 is base mesh 3, the second crate: its x moved by 0.5")
t.ok(same_mesh(at("renamed.rsxb"), 1) and same_mesh(at("renamed.rsxb"), 2),
  "meshes 1 and 2 as they were")
t.like(out, "mesh 3 %(crate%): changed", "the report names mesh 3")

-- the same with crate.001 first in the glTF: the suffix decides, not the
-- place
g = edited("first", function(doc)
  doc.meshes[3].name = "crate.001"
  doc.meshes[1], doc.meshes[3] = doc.meshes[3], doc.meshes[1]
  for _, node in ipairs(doc.nodes) do
    if node.mesh == 0 then node.mesh = 2 elseif node.mesh == 2 then
      node.mesh = 0 end
  end
end, { 2 })
code, _, err = import(g, "first.rsxb")
t.is(code, 0, "crate.001 listed before crate imports")
if code ~= 0 then t.diag(err) end
t.is(xs(at("first.rsxb"), 3), "20.5 21.5 20.5",
  "... crate.001 is still base mesh 3")
t.ok(same_mesh(at("first.rsxb"), 1), "... mesh 1 as it was")

-- no plain crate in the scene (Blender had one already): crate.001 and
-- crate.002 are the first and the second, the first moved
g = edited("both", function(doc)
  doc.meshes[1].name = "crate.001"
  doc.meshes[3].name = "crate.002"
end, { 0 })
code, _, err = import(g, "both.rsxb")
t.is(code, 0, "crate.001 and crate.002 import")
if code ~= 0 then t.diag(err) end
t.is(xs(at("both.rsxb"), 1), "0.5 1.5 0.5",
  "crate.001 is base mesh 1: its x moved by 0.5")
t.ok(same_mesh(at("both.rsxb"), 3), "crate.002 is mesh 3, as it was")

-- nothing renamed and nothing moved: the base's very bytes
g = edited("none", function(doc)
  doc.meshes[3].name = "crate.001"
end, {})
code, _, err = import(g, "none.rsxb")
t.is(code, 0, "crate.001 unmoved imports")
if code ~= 0 then t.diag(err) end
t.ok(lib.read(at("none.rsxb")) == ORIGINAL, "... the base's very bytes")

-- a third crate where the base has two: refused, naming it
g = edited("third", function(doc)
  doc.meshes[2].name = "crate.001"
  doc.meshes[3].name = "crate.002"
end, {})
code, _, err = import(g, "third.rsxb")
t.is(code, 1, "a third crate fails the import")
t.like(err, "glTF mesh 2 %(crate%.002%) matches no mesh of .*dup%.rsxb: it"
  .. " has 2 named crate, each taken by an earlier glTF mesh",
  "... naming the glTF mesh and the base's count")
t.ok(not lib.read(at("third.rsxb")), "... and nothing is written")

-- a base name that ends like Blender's suffix is matched as it is
g = edited("wall", function(doc)
  doc.meshes[2].name = "wall.001"
end, {})
code, _, err = import(g, "wall.rsxb")
t.is(code, 0, "wall.001 (wall once in the base) imports as wall")
if code ~= 0 then t.diag(err) end

lib.cleanup()
t.done_testing()
