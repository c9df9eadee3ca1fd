-- t/gltf-import-random.lua - gltf-import on random damage: a fixed-seed
-- pass over hostile edits of an export (make check), a long one in make
-- fuzz (RSXMESH_RANDOM_ITERATIONS, RSXMESH_RANDOM_SEED)
--
-- Each round takes gltf-export's files of lib.bundle_a and damages them:
-- a field of an accessor, buffer view, buffer, primitive, mesh or node
-- set to a hostile value (negative, fractional, huge: 2^31 .. 2^63 and
-- past, a string, a table) or removed, or bytes of the .bin changed. The
-- import (rsxmesh.gltf_import in this process, as the script calls it)
-- must then give a result or nil and one message naming the file, never
-- raise: a raised error (a Lua traceback, "not enough memory") is a bug,
-- and the test names the round's damage so that it can be replayed.

local t = require "tap"
local rsxmesh = require "rsxmesh"
local cjson = require "cjson"
local lib = require "scripts-lib"
local import = require "rsxmesh.gltf_import"

local ITERATIONS = tonumber(os.getenv("RSXMESH_RANDOM_ITERATIONS")) or 200
local SEED = tonumber(os.getenv("RSXMESH_RANDOM_SEED")) or 19
math.randomseed(SEED)

local tmp = lib.inputs("A")
local function at(p) return tmp .. "/" .. p end
local code, _, err = lib.rsxmesh_plain(tmp, "gltf-export", "in/A.rsxb",
  "-o", "g")
assert(code == 0, err)
local TEXT = lib.read(at("g/A.gltf"))
local BIN = lib.read(at("g/A.bin"))
local base = assert(rsxmesh.open(at("in/A.rsxb")))

-- the unchanged export comes back as the base: the harness works
do
  local file = assert(import.read(at("g/A.gltf")))
  local r = assert(import.bundle(file, base))
  t.ok(r.kept, "the unchanged export imports as the base itself")
end

local HOSTILE = { -1, 0, 1, 3, 0.5, 2^31, 2^32 - 1, 2^32, 2^53, 2^61,
  2^62, 2^63, 2^64, 1e300, -1e300, "7", {}, true, false }
local FIELDS = {
  accessors = { "count", "byteOffset", "bufferView", "componentType",
    "type", "normalized", "sparse" },
  bufferViews = { "byteOffset", "byteLength", "byteStride", "buffer" },
  buffers = { "byteLength", "uri" },
  nodes = { "mesh", "children", "translation", "scale", "matrix" },
  meshes = { "name", "primitives" },
}

local function pick(list) return list[math.random(#list)] end

-- One round's damage to doc (a decoded copy) and bin: the new bin and a
-- description.
local function damage(doc, bin)
  local what = math.random(10)
  if what <= 6 then
    local section = pick({ "accessors", "accessors", "accessors",
      "bufferViews", "bufferViews", "buffers", "nodes", "meshes" })
    local list = doc[section]
    local k = math.random(#list)
    local field = pick(FIELDS[section])
    local value = math.random(8) == 1 and cjson.null or pick(HOSTILE)
    if value == cjson.null then value = nil end
    list[k][field] = value
    return bin, string.format("%s[%d].%s = %s", section, k - 1, field,
      type(value) == "table" and "{}" or tostring(value))
  elseif what <= 8 then
    local m = doc.meshes[math.random(#doc.meshes)]
    local p = m.primitives[math.random(#m.primitives)]
    local names = {}
    for name in pairs(p.attributes) do names[#names + 1] = name end
    table.sort(names)
    local name = pick(names)
    local value = pick({ -1, #doc.accessors, 2^40, 0.5, "x" })
    if math.random(2) == 1 then
      p.attributes[name] = value
    else
      p.indices = value
      name = "indices"
    end
    return bin, string.format("mesh %s: %s = %s", m.name, name,
      tostring(value))
  else
    local n = math.random(1, 8)
    local parts = {}
    local at0 = math.random(0, #bin - n)
    for i = 1, n do parts[i] = string.char(math.random(0, 255)) end
    return bin:sub(1, at0) .. table.concat(parts) .. bin:sub(at0 + n + 1),
      string.format("%d bytes at .bin offset %d", n, at0)
  end
end

local raised, refused, imported = {}, 0, 0
for round = 1, ITERATIONS do
  local doc = cjson.decode(TEXT)
  local bin, what = damage(doc, BIN)
  local dir = at("r" .. round % 4)
  lib.write(dir .. ".gltf", cjson.encode(doc))
  lib.write(at("A.bin"), bin)
  -- the buffer's uri names A.bin beside the document
  local ok, e = pcall(function()
    local file, message = import.read(dir .. ".gltf")
    if not file then
      assert(type(message) == "string" and message:find(dir .. ".gltf", 1,
        true), "no message naming the file: " .. tostring(message))
      return "refused"
    end
    local r, message2 = import.bundle(file, base)
    if not r then
      assert(type(message2) == "string" and message2:find(dir .. ".gltf", 1,
        true), "no message naming the file: " .. tostring(message2))
      return "refused"
    end
    return "imported"
  end)
  if not ok then
    raised[#raised + 1] = string.format("round %d (%s): %s", round, what,
      tostring(e))
  elseif e == "refused" then
    refused = refused + 1
  else
    imported = imported + 1
  end
end
for i = 1, math.min(#raised, 10) do t.diag(raised[i]) end
t.is(#raised, 0, string.format("%d rounds of damage (seed %d): %d refused"
  .. " with a message naming the file, %d imported, none raised", ITERATIONS,
  SEED, refused, imported))
t.ok(refused > ITERATIONS // 4, "... most were refused (the damage bites)")

base:close()
lib.cleanup()
t.done_testing()
