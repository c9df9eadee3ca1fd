-- t/gltf-import-phases.lua - the glTF import's phases called on their own,
-- each given the one before's value (rsxmesh.gltf_import's parts):
-- reading gives the document, matching.source and matching.match the
-- match of one glTF mesh and one base mesh, attributes.build the table
-- for m:with and the report's notes. A match answers its questions in
-- any order, and the attributes built twice from it are the same.
--
-- The bundle is t/crates.lua's; its mesh 2 "wall" is one triangle,
-- (10, 0, 0), (11, 0, 0), (10, 1, 0), with indices 1 2 3. The edits:
-- its x moved by 0.5 (10.5, 11.5, 10.5: exact in float32), and its
-- triangle wound the other way (indices 0 2 1 in the glTF).

local t = require "tap"
local rsxmesh = require "rsxmesh"
local lib = require "scripts-lib"
local gltf_edit = require "gltf-edit"
local reading = require "rsxmesh.gltf_import.reading"
local matching = require "rsxmesh.gltf_import.matching"
local attributes = require "rsxmesh.gltf_import.attributes"

local tmp = lib.tmpdir()
local function at(p) return tmp .. "/" .. p end

local srcdir = os.getenv("top_srcdir") or "."
assert(loadfile(srcdir .. "/t/crates.lua"))(at("dup.rsxb"))
local base = assert(rsxmesh.open(at("dup.rsxb")))
local wall = base:mesh(2)

local export = gltf_edit.export(t, tmp, at("dup.rsxb"),
  "gltf-export of the crates' bundle")

-- The source of glTF mesh 2 (wall) of a .gltf, read by reading.read.
local function source(path)
  local file = assert(reading.read(path))
  return matching.source(file, file.json.meshes[2], wall, nil), file
end

-- reading, then matching.source: the export as it was is verbatim
local src, file = source(at("g/dup.gltf"))
t.is(file.json.meshes[2].name, "wall", "reading: the document's mesh 2")
t.is(src.where, at("g/dup.gltf") .. ": " .. wall.label,
  "matching.source: messages name the file and the mesh")
t.ok(matching.verbatim(src), "matching.verbatim: the export as it was")
reading.close_buffers(file)

-- the x moved by 0.5: a match of the same layout, one position change
local function moved()
  return export.write("moved", function(doc, bin)
    local a = doc.accessors[doc.meshes[2].primitives[1]
      .attributes.POSITION + 1]
    local off = doc.bufferViews[a.bufferView + 1].byteOffset
      + (a.byteOffset or 0)
    for v = 0, 2 do
      local x = string.unpack("<f", bin, off + 12 * v + 1)
      bin = bin:sub(1, off + 12 * v) .. string.pack("<f", x + 0.5)
        .. bin:sub(off + 12 * v + 5)
    end
    return bin
  end)
end
src, file = source(moved())
t.ok(not matching.verbatim(src), "moved: not verbatim")
local match = matching.match(src)
t.is_deeply({ match.nv, #match.groups, #match.parts, match.same_layout,
  match:as_written() }, { 3, 1, 1, true, true },
  "moved: matching.match: 3 vertices, one group, one part, the base's"
  .. " layout, as written")
local built = attributes.build(match)
local WANT = { 10.5, 0, 0, 11.5, 0, 0, 10.5, 1, 0 }
t.is_deeply(built.t, { position = WANT },
  "moved: attributes.build: only the positions, each x + 0.5")
t.is_deeply(built.changes, { { kind = "position", text = "positions" } },
  "moved: ... and the change to report")
t.is_deeply({ built.kept, built.derived }, { {}, {} },
  "moved: ... and nothing kept or derived")
t.is_deeply(attributes.build(match), built,
  "moved: attributes.build again on the same match: the same")
local copy = assert(wall:with(built.t))
t.ok(attributes.differs(match, copy, "position"),
  "moved: attributes.differs: the copy's positions")
t.ok(not attributes.differs(match, copy, "normal"),
  "moved: ... and not its normals")

-- the questions in another order: the base vertices first (the positions
-- moved, nothing else to go by: the triangle pairs in order)
local again = matching.match(src)
t.is_deeply(again:base_vertices().map, { 0, 1, 2 },
  "another order: Match:base_vertices first: glTF vertex v is base"
  .. " vertex v - 1")
t.is_deeply(attributes.build(again), built,
  "another order: ... then attributes.build: the same as before")
reading.close_buffers(file)

-- the triangle wound the other way: the glTF's triangles, u16
src, file = source(export.write("flipped", function(doc, bin)
  local a = doc.accessors[doc.meshes[2].primitives[1].indices + 1]
  local off = doc.bufferViews[a.bufferView + 1].byteOffset
    + (a.byteOffset or 0)
  return bin:sub(1, off) .. string.pack("<I4I4I4", 0, 2, 1)
    .. bin:sub(off + 13)
end))
match = matching.match(src)
t.is_deeply({ match.same_layout, match:as_written() }, { true, false },
  "flipped: the base's layout, not as written")
local fields, count = match:new_triangles()
t.is_deeply({ fields.index_size, fields.primitive, fields.submeshes, count },
  { 2, "triangles", { { first_index = 0, index_count = 3 } }, 1 },
  "flipped: Match:new_triangles: a u16 triangle list of 1 triangle")
built = attributes.build(match)
t.is_deeply(built.changes, { { text = "triangles (1, a triangle list of"
  .. " u16 indices)" } }, "flipped: attributes.build: the triangles change")
copy = assert(wall:with(built.t))
t.is(table.concat(copy:submesh(1):triangles(), " "), "1 3 2",
  "flipped: ... and m:with makes the triangle 1 3 2")
reading.close_buffers(file)

base:close()
lib.cleanup()
t.done_testing()
