-- rsxmesh/gltf_layout.lua - the glTF that gltf-export writes, described
-- once: glTF 2.0's numbers, and each attribute the export writes with
-- its name, type and component type, and what glTF lets an editor write
-- back in its place. rsxmesh.gltf writes by this description and
-- rsxmesh.gltf_import reads by it.
--
--   local layout = require "rsxmesh.gltf_layout"
--   layout.NORMAL.name, layout.NORMAL.type   --> "NORMAL", "VEC3"
--   layout.attribute("TEXCOORD_2")           --> layout.TEXCOORD
--   layout.uv_set_attribute(2)               --> "_UV_SET_2"
--   layout.json()          --> the description as JSON, for other programs

local layout = {}

-- glTF 2.0's component types (accessor.componentType), element types
-- (accessor.type: their components) and buffer view targets.
local BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT, UNSIGNED_INT, FLOAT =
  5120, 5121, 5122, 5123, 5125, 5126
layout.BYTE, layout.UNSIGNED_BYTE, layout.SHORT = BYTE, UNSIGNED_BYTE, SHORT
layout.UNSIGNED_SHORT, layout.UNSIGNED_INT = UNSIGNED_SHORT, UNSIGNED_INT
layout.FLOAT = FLOAT
layout.CTYPE = {
  [BYTE] = { name = "BYTE", size = 1 },
  [UNSIGNED_BYTE] = { name = "UNSIGNED_BYTE", size = 1 },
  [SHORT] = { name = "SHORT", size = 2 },
  [UNSIGNED_SHORT] = { name = "UNSIGNED_SHORT", size = 2 },
  [UNSIGNED_INT] = { name = "UNSIGNED_INT", size = 4 },
  [FLOAT] = { name = "FLOAT", size = 4 },
}
layout.COMPONENTS = { SCALAR = 1, VEC2 = 2, VEC3 = 3, VEC4 = 4, MAT2 = 4,
  MAT3 = 9, MAT4 = 16 }
layout.ARRAY_BUFFER, layout.ELEMENT_ARRAY_BUFFER = 34962, 34963

-- glTF 2.0's primitive modes (primitive.mode, 4 when absent), by number;
-- gltf-export writes TRIANGLES, gltf-import reads nothing else.
layout.MODES = { [0] = "points", [1] = "lines", [2] = "line loop",
  [3] = "line strip", [4] = "triangles", [5] = "triangle strip",
  [6] = "triangle fan" }
layout.TRIANGLES = 4

-- The component types glTF allows an attribute (true; "norm": only
-- normalized), as expect (rsxmesh.gltf_import.reading) takes them.
local ONLY_FLOAT = { [FLOAT] = true }
local FLOAT_OR_NORMALIZED = { [FLOAT] = true, [UNSIGNED_BYTE] = "norm",
  [UNSIGNED_SHORT] = "norm" }
layout.ONLY_FLOAT, layout.FLOAT_OR_NORMALIZED = ONLY_FLOAT,
  FLOAT_OR_NORMALIZED

-- An attribute: its glTF name, the kind of the base mesh it carries (nil:
-- several, or none), the type and componentType gltf-export writes it
-- with (normalized when true), and what an editor may write in its place:
-- types, a set of element types, and ctypes, component types.
local function attribute(name, kind, type, types, ctype, ctypes, normalized)
  local set = {}
  for _, t in ipairs(types) do set[t] = true end
  return { name = name, kind = kind, type = type, componentType = ctype,
    normalized = normalized, types = set, ctypes = ctypes }
end

layout.POSITION = attribute("POSITION", "position", "VEC3", { "VEC3" },
  FLOAT, ONLY_FLOAT)
layout.NORMAL = attribute("NORMAL", "normal", "VEC3", { "VEC3" }, FLOAT,
  ONLY_FLOAT)
-- from the tangent vectors A and B and the normal (m:tangent_frames)
layout.TANGENT = attribute("TANGENT", nil, "VEC4", { "VEC4" }, FLOAT,
  ONLY_FLOAT)
-- the stored bytes as they are: byte/255 is the research note's decode
layout.COLOR_0 = attribute("COLOR_0", "colour", "VEC4", { "VEC3", "VEC4" },
  UNSIGNED_BYTE, FLOAT_OR_NORMALIZED, true)
-- TEXCOORD_n: the stored UV set a submesh's logical UV n reads
layout.TEXCOORD = attribute("TEXCOORD_", nil, "VEC2", { "VEC2" }, FLOAT,
  FLOAT_OR_NORMALIZED)
-- _UV_SET_n: stored UV set n, which no TEXCOORD_n carries
layout.UV_SET = attribute("_UV_SET_", nil, "VEC2", { "VEC2" }, FLOAT,
  FLOAT_OR_NORMALIZED)
-- a primitive's triangles (accessor of the primitive's indices)
layout.INDICES = attribute("indices", nil, "SCALAR", { "SCALAR" },
  UNSIGNED_INT, { [UNSIGNED_BYTE] = true, [UNSIGNED_SHORT] = true,
    [UNSIGNED_INT] = true })
layout.INDICES.target = layout.ELEMENT_ARRAY_BUFFER

-- The attribute of logical UV n, and of stored UV set n.
function layout.texcoord_attribute(logical)
  return layout.TEXCOORD.name .. logical
end

function layout.uv_set_attribute(set)
  return layout.UV_SET.name .. set
end

-- The same by n, 0 to 3 (TEXCOORD_N[2] is "TEXCOORD_2"): a look-up, for
-- the loops that ask for them at every mesh.
layout.TEXCOORD_N, layout.UV_SET_N = {}, {}
for n = 0, 3 do
  layout.TEXCOORD_N[n] = layout.texcoord_attribute(n)
  layout.UV_SET_N[n] = layout.uv_set_attribute(n)
end

-- The attributes a mesh can carry as application-specific semantics:
-- the lossless raw values, never normalised (glTF 2.0: a leading "_"),
-- float components; what names them in messages.
local function raw(kind, name, type, what)
  local r = attribute(name, kind, type, { type }, FLOAT, ONLY_FLOAT)
  r.what = what
  return r
end
layout.RAW = {
  raw("tangent_a", "_TANGENT_A", "VEC3", "tangent A"),
  raw("tangent_b", "_TANGENT_B", "VEC3", "tangent B"),
  raw("extra_a", "_EXTRA_A", "VEC4", "extras A"),
  raw("extra_b", "_EXTRA_B", "VEC4", "extras B"),
  raw("s32k2", "_S32K2", "VEC2", "bit 11"),
  raw("half4", "_HALF4", "VEC4", "bit 12"),
}

-- The attribute a glTF attribute name is one of (TEXCOORD_2 is
-- layout.TEXCOORD), or nil for one gltf-export does not write.
local by_name, by_prefix = {}, {}
for _, a in ipairs({ layout.POSITION, layout.NORMAL, layout.TANGENT,
    layout.COLOR_0, table.unpack(layout.RAW) }) do
  by_name[a.name] = a
end
by_prefix[layout.TEXCOORD.name] = layout.TEXCOORD
by_prefix[layout.UV_SET.name] = layout.UV_SET

function layout.attribute(name)
  local a = by_name[name]
  if a then return a end
  local prefix = name:match("^(.-)%d+$")
  return prefix and by_prefix[prefix] or nil
end

-- The description for programs outside Lua (the Blender add-on, through
-- `rsxmesh -e 'io.write(require "rsxmesh.gltf_layout".json())'`): a
-- table of plain values, and its JSON text. attributes: every vertex
-- attribute gltf-export may write, in the order above, each with its
-- glTF name, type, componentType, normalized (when true), and kind and
-- what where the layout has them; TEXCOORD_n has logical = n, _UV_SET_n
-- set = n. componentTypes: glTF's, by number with name and size;
-- components: the element types' component counts.
function layout.description()
  local attributes = {}
  local function add(a, name)
    local entry = { name = name or a.name, kind = a.kind, type = a.type,
      componentType = a.componentType, normalized = a.normalized,
      what = a.what }
    attributes[#attributes + 1] = entry
    return entry
  end
  for _, a in ipairs({ layout.POSITION, layout.NORMAL, layout.TANGENT,
      layout.COLOR_0 }) do
    add(a)
  end
  for n = 0, #layout.TEXCOORD_N do
    add(layout.TEXCOORD, layout.TEXCOORD_N[n]).logical = n
  end
  for n = 0, #layout.UV_SET_N do
    add(layout.UV_SET, layout.UV_SET_N[n]).set = n
  end
  for _, a in ipairs(layout.RAW) do add(a) end
  local ctypes = {}
  for number, c in pairs(layout.CTYPE) do
    ctypes[#ctypes + 1] = { componentType = number, name = c.name,
      size = c.size }
  end
  table.sort(ctypes, function(a, b)
    return a.componentType < b.componentType
  end)
  local components = {}
  for t, n in pairs(layout.COMPONENTS) do components[t] = n end
  return { attributes = attributes, componentTypes = ctypes,
    components = components }
end

function layout.json()
  -- required here: the layout itself needs no more than Lua
  return require "rsxmesh.json".encode(layout.description()) .. "\n"
end

-- The material of a primitive without the logical UV0 its material's
-- base-colour texture needs: the material's name with this after it.
layout.UNTEXTURED_SUFFIX = " (no UV0)"

return layout
