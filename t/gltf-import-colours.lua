-- t/gltf-import-colours.lua - colours painted in Blender through the
-- add-on come back, and only they: the add-on exports its point colours,
-- which Blender writes as COLOR_0 in floats as they are, and marks its
-- meshes with extras (rsxmesh_bundle, ...). An editor's rebuild (here its
-- own indices: each triangle from another corner) whose positions and
-- UVs are the base's keeps every byte but the colours, taken from
-- COLOR_0 corner by corner, each component times 255 rounded to a byte.
-- Without the add-on's mark the colours are not read (Blender's own
-- importer's corner colours are scrambled by its 3.4 exporter).
--
-- The bundle is scripts-lib's B: mesh "painted", mask 0x00080027 (colour,
-- UV0), colour bytes (0, 255, 51, 102), (255, 0, 0, 255),
-- (102, 51, 255, 0). The edit paints vertex 1 (1, 0.5, 0.25, 1): bytes
-- 255, 128 (127.5 rounded), 64 (63.75 rounded), 255, worked out here.

local t = require "tap"
local rsxmesh = require "rsxmesh"
local lib = require "scripts-lib"
local gltf_edit = require "gltf-edit"

local tmp = lib.tmpdir()
local function at(p) return tmp .. "/" .. p end

local BASE = lib.bundle_b(at("b.rsxb"))
local ORIGINAL = assert(lib.read(BASE))
local COLOURS = string.char(0, 255, 51, 102, 255, 0, 0, 255, 102, 51, 255,
  0)

local export = gltf_edit.export(t, tmp, BASE,
  "gltf-export of the painted bundle")

-- The export rebuilt as an editor would: its indices (u32) each triangle
-- from its second corner, COLOR_0 a new float VEC4 accessor of colours
-- (a flat table, 4 a vertex), the mesh's extras as given. Written as
-- DIR/b.gltf and its .bin, whose path it returns.
local function rebuilt(dir, colours, extras)
  return export.write(dir, function(doc, bin)
    local prim = doc.meshes[1].primitives[1]
    local ia = doc.accessors[prim.indices + 1]
    local off = doc.bufferViews[ia.bufferView + 1].byteOffset
      + (ia.byteOffset or 0)
    local a, b, c = string.unpack("<I4I4I4", bin, off + 1)
    bin = bin:sub(1, off) .. string.pack("<I4I4I4", b, c, a)
      .. bin:sub(off + 13)
    while #bin % 4 ~= 0 do bin = bin .. "\0" end
    doc.bufferViews[#doc.bufferViews + 1] = { buffer = 0,
      byteOffset = #bin, byteLength = 4 * #colours }
    bin = bin .. string.pack("<" .. ("f"):rep(#colours),
      table.unpack(colours))
    doc.accessors[#doc.accessors + 1] = {
      bufferView = #doc.bufferViews - 1, componentType = 5126,
      count = #colours // 4, type = "VEC4" }
    prim.attributes.COLOR_0 = #doc.accessors - 1
    doc.buffers[1].byteLength = #bin
    doc.meshes[1].extras = extras
    return bin
  end)
end

-- the base's colours as floats (byte / 255), vertex 1 painted or not
local function colours(painted)
  local out = {}
  for i = 1, #COLOURS do out[i] = COLOURS:byte(i) / 255 end
  if painted then out[1], out[2], out[3], out[4] = 1, 0.5, 0.25, 1 end
  return out
end

local MARK = { rsxmesh_bundle = "b.rsxb", rsxmesh_mesh = "painted",
  rsxmesh_number = 1 }

local import = export.import

-- Every attribute's stored bytes of the mesh of a bundle file but the
-- colours, and the colours.
local function parts(file)
  local b = assert(rsxmesh.open(file))
  local m = b:mesh(1)
  local rest = { m:stream("mmp"), m:index_bytes() }
  for _, kind in ipairs(rsxmesh.kinds) do
    if m:has(kind) and kind ~= "colour" then
      rest[#rest + 1] = m:attribute(kind):raw()
    end
  end
  local c = m:attribute("colour"):raw()
  b:close()
  return table.concat(rest), c
end

local code, _, out, err
code, out, err = import(rebuilt("painted", colours(true), MARK), "p.rsxb")
t.is(code, 0, "the add-on's rebuild with vertex 1 painted imports")
if code ~= 0 then t.diag(err) end
local rest0 = parts(BASE)
local rest, c = parts(at("p.rsxb"))
t.is(c, string.char(255, 128, 64, 255) .. COLOURS:sub(5),
  "vertex 1's colour is 255 128 64 255, the others' as they were")
t.ok(rest == rest0, "every other byte of the mesh as it was (the indices"
  .. " too, though the editor wrote its own)")
t.like(out, "mesh 1 %(painted%): changed %(its colours%); changed: colours"
  .. " %(COLOR_0, rounded to bytes", "the report says so")

code, _, err = import(rebuilt("unmarked", colours(true), nil), "u.rsxb")
t.is(code, 0, "the same without the add-on's mark imports")
if code ~= 0 then t.diag(err) end
t.ok(lib.read(at("u.rsxb")) == ORIGINAL,
  "... as the base's very bytes: unmarked colours are not read")

code, out, err = import(rebuilt("same", colours(false), MARK), "s.rsxb")
t.is(code, 0, "the add-on's rebuild, nothing painted, imports")
if code ~= 0 then t.diag(err) end
t.ok(lib.read(at("s.rsxb")) == ORIGINAL, "... as the base's very bytes")
t.like(out, "mesh 1 %(painted%): unchanged", "... and the mesh unchanged")

lib.cleanup()
t.done_testing()
