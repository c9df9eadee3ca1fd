-- rsxmesh/gltf.lua - glTF 2.0 documents (.gltf + .bin, or .glb) from meshes
--
--   local gltf = require "rsxmesh.gltf"
--   local doc = gltf.new{ name = "CHARLIE", bundle_dir = "disc",
--                         out_dir = "out" }
--   local r = doc:add_mesh(mesh)   -- r.errors, r.notes, r.vertices, ...
--   doc:save("out/CHARLIE.gltf")    -- or doc:save("out/CHARLIE.glb", true)
--
-- A glTF mesh per rsxmesh mesh, a primitive per submesh. Each attribute of
-- a mesh is written once, over all its vertices, and every primitive of
-- the mesh refers to the same accessors: the submeshes share the mesh's
-- vertex buffer, and only their TEXCOORD_n differ, by their selectors.
-- What glTF cannot hold as stored (zero normals, degenerate tangent
-- frames, logical UVs after an absent one) is handled and described in
-- the result's notes, never silently dropped.

local rsxmesh = require "rsxmesh"
local json = require "rsxmesh.json"
local layout = require "rsxmesh.gltf_layout"
local output = require "rsxmesh.output"
local path = require "rsxmesh.path"
local plural = require("rsxmesh.text").plural
local lfs = require "lfs"

local gltf = {}

-- glTF's numeric constants, and the attributes this module writes, as
-- gltf-import reads them (rsxmesh.gltf_layout).
local ARRAY_BUFFER = layout.ARRAY_BUFFER
local POSITION, NORMAL, TANGENT = layout.POSITION, layout.NORMAL,
  layout.TANGENT
local COLOR_0, TEXCOORD, UV_SET = layout.COLOR_0, layout.TEXCOORD,
  layout.UV_SET
local TEXCOORD_N = layout.TEXCOORD_N

-- A nonzero normal farther than this from unit length is renormalised:
-- the research note's own test for a unit normal, defined by the core.
-- The validator accepts 0.00674, so decoded normals within 0.005 go out
-- as decoded.
gltf.UNIT_TOLERANCE = rsxmesh.UNIT_TOLERANCE

-- ------------------------------------------------------------------- JSON

-- The JSON text of a Lua value (rsxmesh.json), with keys in glTF's
-- customary order, then sorted; gltf.EMPTY is an empty array.
gltf.EMPTY = json.EMPTY

local key_before = json.key_order{ "name", "asset", "version",
  "generator", "scene", "scenes", "nodes", "meshes", "materials",
  "textures", "images", "samplers", "accessors", "bufferViews", "buffers",
  "uri", "mesh", "primitives", "attributes", "indices", "material", "mode",
  "buffer", "byteOffset", "byteLength", "byteStride", "target",
  "bufferView", "componentType", "normalized", "count", "type", "min",
  "max" }

function gltf.json(v)
  return json.encode(v, key_before)
end

-- ----------------------------------------------------------------- bytes

-- True when accessor a holds a NaN or an infinity, which glTF forbids
-- (the bounds pass over NaN; the core counts both).
local function holds_non_finite(a)
  return a:non_finite() > 0
end
gltf.holds_non_finite = holds_non_finite

-- A URI reference for a relative path: every byte but the unreserved
-- ones and "/" is percent-encoded (RFC 3986, as glTF requires).
function gltf.uri(relative)
  return (relative:gsub("[^%w%-%._~/]", function(c)
    return string.format("%%%02X", c:byte())
  end))
end

-- -------------------------------------------------------------- document

local Doc = {}
Doc.__index = Doc

-- A new, empty document. opts: name (the scene's name), bundle_dir (the
-- folder texture paths are relative to), out_dir (the folder the file
-- will be written to, for the images' relative URIs), generator; file and
-- glb, the file save will write (a .glb when glb is true), and prepare, a
-- function called once before anything is written there (it makes the
-- folder, say), returning true or nil and a message. Images: embed (a
-- .glb's default) puts each PNG or JPEG texture's bytes in the buffer, so
-- the file stands alone; copy_texture, a function(file, texture) that
-- copies the texture file and returns the copy's path relative to
-- out_dir (or nil and a message), makes the image refer to the copy;
-- else the image refers to the texture where it is.
--
-- The buffer is written as it is made, never held whole: a .gltf's
-- straight into its .bin's temporary name, a .glb's (whose JSON comes
-- first) or one whose file is not known yet into an anonymous temporary
-- file that save copies into place.
function gltf.new(opts)
  opts = opts or {}
  return setmetatable({
    name = opts.name,
    bundle_dir = opts.bundle_dir or ".",
    out_dir = opts.out_dir or ".",
    generator = opts.generator or rsxmesh._VERSION .. " gltf-export",
    file = opts.file, glb = opts.glb, prepare = opts.prepare,
    embed = opts.embed == nil and opts.glb or opts.embed,
    copy_texture = opts.copy_texture,
    size = 0,
    accessors = {}, views = {}, meshes = {}, nodes = {},
    materials = {}, textures = {}, images = {},
    material_of = {}, untextured_of = {}, image_of = {},
    notes = {},
  }, Doc)
end

-- The .bin beside a .gltf.
local function bin_path(file)
  return file:gsub("%.gltf$", "") .. ".bin"
end

-- Call opts.prepare, once. true, or nil and a message.
function Doc:prepared()
  if self.prepare then
    local ok, err = self.prepare()
    if not ok then return nil, err end
    self.prepare = nil
  end
  return true
end

-- The file the buffer is written to, opened on first use; raises on
-- failure (add_mesh's caller reports it for the input).
function Doc:sink()
  if self.out then return self.out end
  local f, err = self:prepared()
  if f and self.file and not self.glb then
    self.bin = bin_path(self.file)
    self.part = output.temporary(self.bin) -- known before it exists
    f, err = output.open(self.bin, "w+b", self.part)
  elseif f then
    f, err = io.tmpfile()
    -- the anonymous file has no name: the message names what it is for
    if not f then err = self:buffer_name() .. ": " .. tostring(err) end
  end
  if not f then error(err, 0) end
  self.out = f
  return f
end

-- What a failure to write the buffer names: the .bin, or the file the
-- buffer goes into.
function Doc:buffer_name()
  if self.file and not self.glb then return bin_path(self.file) end
  return self.file or "the glTF buffer"
end

-- Bytes the module writes straight into the buffer's file, with no
-- string between: length of them, written by call(f) (acc:pack,
-- m:unit_normals, ... given the file), which returns the count written
-- or nil and a message; call(nil) gives them as a string instead, as the
-- module's calls do without a file.
local function written(length, call)
  return { length = length, write = call }
end

-- Append bytes (a string, or what written gives) to the buffer on a
-- 4-byte boundary (glTF 2.0, data alignment); returns the new buffer
-- view's index.
function Doc:view(bytes, target)
  local out = self:sink()
  local pad = (4 - self.size % 4) % 4
  local length = type(bytes) == "string" and #bytes or bytes.length
  local ok, err = out:write(string.rep("\0", pad))
  if ok and type(bytes) == "string" then
    ok, err = out:write(bytes)
  elseif ok then
    ok, err = bytes.write(out)
    assert(not ok or ok == length, "gltf: a view's length is not its bytes'")
  end
  if not ok then error(self:buffer_name() .. ": " .. tostring(err), 0) end
  self.size = self.size + pad
  self.views[#self.views + 1] = { buffer = 0, byteOffset = self.size,
    byteLength = length, target = target }
  self.size = self.size + length
  return #self.views - 1
end

-- The bytes of what Doc:view takes (a string, or what written gives) as a
-- string: for a caller that keeps a view in memory (gltf_import).
function gltf.view_bytes(bytes)
  if type(bytes) == "string" then return bytes end
  local s, err = bytes.write(nil)
  if not s then error(err, 0) end
  return s
end

-- An accessor's float32 values, packed by acc:pack into the buffer.
local function packed(acc)
  return written(#acc * acc.components * 4, function(f)
    return acc:pack(f)
  end)
end

-- A new accessor of count elements of attribute a (rsxmesh.gltf_layout's:
-- its type and component type as the layout describes them) over bytes
-- of its own view, with bounds min and max (or nil); returns its index.
function Doc:accessor(bytes, a, count, min, max)
  self.accessors[#self.accessors + 1] = {
    bufferView = self:view(bytes, a.target or ARRAY_BUFFER),
    componentType = a.componentType, normalized = a.normalized,
    count = count, type = a.type, min = min, max = max,
  }
  return #self.accessors - 1
end

-- The image media types glTF 2.0 allows, by the files' first bytes.
local function image_type(bytes)
  if bytes:sub(1, 8) == "\137PNG\r\n\26\n" then return "image/png" end
  if bytes:sub(1, 3) == "\255\216\255" then return "image/jpeg" end
  return nil
end

-- The glTF image of texture, whose file is file: its bytes in the buffer
-- when embedding; else a URI to it, or to its copy. there: the file
-- exists (when not, that was said once already: no more notes here).
function Doc:image_of_file(texture, file, there)
  local note = self.notes
  if self.embed and there then
    local f = io.open(file, "rb")
    local bytes = f and f:read("a")
    if f then f:close() end
    local mime = bytes and image_type(bytes)
    if mime then
      return { name = texture, bufferView = self:view(bytes),
        mimeType = mime }
    end
    note[#note + 1] = "texture " .. texture .. " is not embedded ("
      .. (bytes and "neither PNG nor JPEG" or file .. " cannot be read")
      .. "); the file refers to it where it is"
  end
  local uri = path.relative(file, self.out_dir)
  if self.copy_texture and not self.embed then
    local copy, err = self.copy_texture(file, texture)
    if copy then
      uri = copy
    elseif there then
      note[#note + 1] = "texture " .. texture .. " is not copied ("
        .. tostring(err) .. "); the file refers to it where it is"
    end
  end
  return { name = texture, uri = gltf.uri(uri) }
end

-- The glTF image of a texture path (relative to the bundle's folder),
-- shared by every material that names it.
function Doc:image(texture)
  local index = self.image_of[texture]
  if index then return index end
  local file = path.absolute(path.join(self.bundle_dir, texture))
  local there = lfs.attributes(file, "mode") == "file"
  if not there then
    -- named once: here, or by the copy's failure (copy_texture's caller
    -- reports it)
    if not self.copy_texture then
      self.notes[#self.notes + 1] = "texture " .. texture .. " is not"
        .. " there (" .. file .. "); the file refers to it all the same"
    end
  elseif not texture:lower():match("%.png$")
      and not texture:lower():match("%.jpe?g$") then
    self.notes[#self.notes + 1] = "texture " .. texture .. " is neither PNG"
      .. " nor JPEG, the only images glTF 2.0 itself allows"
  end
  self.images[#self.images + 1] = self:image_of_file(texture, file, there)
  self.textures[#self.textures + 1] = { source = #self.images - 1 }
  index = #self.textures - 1
  self.image_of[texture] = index
  return index
end

-- The glTF material of a bundle material; untextured gives the variant
-- without base-colour texture, for a primitive that has no TEXCOORD_0.
function Doc:material(mat, untextured)
  local cache = untextured and self.untextured_of or self.material_of
  local index = cache[mat.index]
  if index then return index end
  local samplers = {}
  for i, smp in ipairs(mat:samplers()) do
    samplers[i] = { slot = string.format("0x%08X", smp.slot),
      texture = smp.texture }
  end
  local pbr = { metallicFactor = 0 }
  local m = { name = mat.name, pbrMetallicRoughness = pbr,
    extras = { samplers = samplers[1] and samplers or gltf.EMPTY } }
  if untextured then
    m.name = mat.name .. layout.UNTEXTURED_SUFFIX
  elseif mat.base_colour then
    pbr.baseColorTexture = { index = self:image(mat.base_colour),
      texCoord = 0 }
  end
  self.materials[#self.materials + 1] = m
  index = #self.materials - 1
  cache[mat.index] = index
  return index
end

-- ------------------------------------------------------------------ mesh

-- The notes on what m:unit_normals fixed.
local function note_normals(fixed, note)
  if fixed.from_faces > 0 then
    note("zero_normals", fixed.from_faces, plural(fixed.from_faces,
      "zero normal") .. " replaced by the area-weighted normal of their"
      .. " faces")
  end
  if fixed.up > 0 then
    note("zero_normals", fixed.up, plural(fixed.up, "zero normal")
      .. " in no face with an area replaced by (0, 1, 0)")
  end
  if fixed.renormalised > 0 then
    note("renormalised", fixed.renormalised, plural(fixed.renormalised,
      "normal") .. " off unit length by more than " .. gltf.UNIT_TOLERANCE
      .. " renormalised")
  end
end

-- NORMAL: the decoded normals, with those glTF cannot take fixed by the
-- core (m:unit_normals: zero ones from their faces, or (0, 1, 0), those
-- off unit length renormalised), and the fixes noted as it is written.
local function mesh_normals(m, note)
  return written(12 * m.vertex_count, function(f)
    local bytes, fixed = m:unit_normals(f)
    if bytes then note_normals(fixed, note) end
    return bytes, fixed
  end)
end

-- The notes on what m:tangent_frames could not take as stored.
local function note_tangents(fixed, note)
  if fixed.zero_a > 0 then
    note("zero_a", fixed.zero_a, plural(fixed.zero_a, "tangent")
      .. " with a zero A written as B x N normalised (or any direction"
      .. " across N)")
  end
  if fixed.no_handedness > 0 then
    note("no_handedness", fixed.no_handedness, plural(fixed.no_handedness,
      "tangent") .. " whose B gives no handedness written with w = +1")
  end
end

-- TANGENT from the final normals and the raw vectors A and B: xyz is A
-- normalised, w the handedness, +1 when B points the way of cross(N, A),
-- -1 against it, since glTF rebuilds the bitangent as cross(N, T.xyz) * w
-- (m:tangent_frames). A zero A gives B x N normalised, or any unit vector
-- across N; a B that is zero or in the plane of N and A gives w = +1.
local function mesh_tangents(m, note)
  return written(16 * m.vertex_count, function(f)
    local bytes, fixed = m:tangent_frames(f)
    if bytes then note_tangents(fixed, note) end
    return bytes, fixed
  end)
end

-- The attributes a mesh can carry as application-specific semantics
-- (rsxmesh.gltf_layout's RAW: the lossless raw values, never normalised,
-- float components; what names them in messages).
local RAW = layout.RAW
gltf.RAW = RAW

-- The attribute of a stored UV set that no TEXCOORD_n carries.
gltf.uv_set_attribute = layout.uv_set_attribute

-- The result of add_mesh, empty; note(r, kind, count, text) adds a note
-- and counts it by kind.
local function new_result()
  return { written = false, vertices = 0, triangles = 0, primitives = 0,
    errors = {}, notes = {}, counts = {} }
end

local function add_error(r, message)
  r.errors[#r.errors + 1] = tostring(message)
end

local function add_note(r, kind, count, text)
  r.counts[kind] = (r.counts[kind] or 0) + count
  r.notes[#r.notes + 1] = text
end

-- The triangles first: a mesh without any has nothing to draw. Returns
-- the submeshes to write as { s =, index =, count = }.
local function mesh_primitive_list(m, r)
  local prims = {}
  for i, s in m:submeshes() do
    local count, why = s:triangle_count()
    if not count then
      -- the core's message names the mesh and the submesh itself
      add_error(r, why)
    elseif count == 0 then
      add_note(r, "empty_submeshes", 1, "submesh " .. i
        .. " has no triangles: left out")
    else
      prims[#prims + 1] = { s = s, index = i, count = count }
    end
  end
  if #prims == 0 and #r.errors == 0 then
    add_note(r, "empty_meshes", 1, "no triangles: mesh left out")
  end
  return prims
end

-- The positions, which every mesh needs and which must be finite, and
-- their bounds.
local function mesh_positions(m, r)
  local pos, err = m:attribute("position")
  if not pos then
    add_error(r, err)
    return nil
  end
  local lo, hi, _, non_finite = pos:bounds()
  if non_finite > 0 then
    add_error(r, "positions hold NaN or infinity: mesh left out")
    return nil
  end
  return pos, lo, hi
end

-- Each other attribute, fetched before anything is added to the
-- document, so a mesh that fails leaves nothing behind. A raw attribute
-- holding NaN or infinity is left out. Returns kind -> accessor, or nil.
local function mesh_attributes(m, r)
  local acc = {}
  for _, kind in ipairs{ "normal", "colour", "tangent_a", "tangent_b",
    "extra_a", "extra_b", "s32k2", "half4" } do
    if m:has(kind) then
      local a, why = m:attribute(kind)
      if not a then
        add_error(r, why)
        return nil
      end
      acc[kind] = a
    end
  end
  for _, raw in ipairs(RAW) do
    local a = acc[raw.kind]
    if a and holds_non_finite(a) then
      add_note(r, "non_finite", 1, raw.kind .. " holds NaN or infinity,"
        .. " which glTF forbids: left out")
      acc[raw.kind] = nil
    end
  end
  return acc
end

-- The accessors of the vertex attributes every primitive of the mesh
-- shares: POSITION, NORMAL, TANGENT, COLOR_0 and the raw ones. Returns
-- glTF attribute name -> accessor index. pos = { acc, lo, hi }.
function Doc:vertex_attributes(m, pos, acc, r)
  local n = m.vertex_count
  local function note(...) return add_note(r, ...) end
  local lo, hi
  pos, lo, hi = pos[1], pos[2], pos[3]
  local attributes = {}
  attributes[POSITION.name] = self:accessor(packed(pos), POSITION, n, lo,
    hi)
  if acc.normal then
    attributes[NORMAL.name] = self:accessor(mesh_normals(m, note),
      NORMAL, n)
  end
  if acc.tangent_a and acc.tangent_b and acc.normal then
    attributes[TANGENT.name] = self:accessor(mesh_tangents(m, note),
      TANGENT, n)
  elseif acc.tangent_a or acc.tangent_b then
    note("no_tangent", 1, "no TANGENT: it needs vectors A and B and a"
      .. " normal")
  end
  if acc.colour then
    -- the stored bytes as they are: byte/255 is the note's decode
    attributes[COLOR_0.name] = self:accessor(written(4 * n, function(f)
      return acc.colour:raw(f) -- four bytes a vertex
    end), COLOR_0, n)
  end
  for _, raw in ipairs(RAW) do
    if acc[raw.kind] then
      attributes[raw.name] = self:accessor(packed(acc[raw.kind]), raw, n)
    end
  end
  return attributes
end

-- The accessor of the stored UV set a submesh's logical UV reads, made
-- once per set and mesh (uv_accessor caches it: false when the set could
-- not be written). Returns the accessor index or nil, and the set.
function Doc:uv_set_accessor(s, logical, n, uv_accessor, r)
  local set = s:uv_set(logical)
  if set == nil then return nil end
  local known = uv_accessor[set]
  if known == nil then
    local a, why = s:uv(logical)
    if not a then
      -- a finding (a stride mismatch) keeps the set from decoding: the
      -- core's message says which, and the run counts it as failed
      known = false
      add_error(r, why)
    elseif not holds_non_finite(a) then
      known = self:accessor(packed(a), TEXCOORD, n)
    else
      known = false
      add_note(r, "non_finite", 1, "stored UV set " .. set .. " holds NaN"
        .. " or infinity, which glTF forbids: left out")
    end
    uv_accessor[set] = known
  end
  return known or nil, set
end

-- The TEXCOORD_n of a primitive, added to attrs: glTF's are consecutive,
-- so the logical UVs after an absent one are dropped (and noted). Returns
-- the stored sets written, in order.
function Doc:primitive_uvs(p, attrs, n, uv_accessor, r)
  local s = p.s
  local sets, gap, dropped = {}, nil, {}
  for logical = 0, 3 do
    if not gap then
      local a, set = self:uv_set_accessor(s, logical, n, uv_accessor, r)
      if a then
        attrs[TEXCOORD_N[logical]] = a
        sets[#sets + 1] = set
      else
        gap = logical
      end
    elseif s:uv_set(logical) then
      -- glTF's TEXCOORD_n are consecutive: no accessor for this one
      dropped[#dropped + 1] = "UV" .. logical .. " (stored set "
        .. s:uv_set(logical) .. ")"
    end
  end
  if #dropped > 0 then
    add_note(r, "uv_dropped", #dropped, "submesh " .. p.index
      .. ": logical UV" .. gap .. " is absent, so "
      .. table.concat(dropped, ", ")
      .. (#dropped > 1 and " are" or " is") .. " dropped")
  end
  return sets
end

-- The stored UV sets of the mask that no primitive's TEXCOORD_n carries
-- (no selector routes them, or only after an absent logical UV): each as
-- application-specific _UV_SET_n on every primitive, so that gltf-import
-- can restore them. A set holding NaN or infinity is left out (noted).
function Doc:unrouted_uv_sets(m, primitives, uv_accessor, r)
  for set = 0, 3 do
    local kind = "uv" .. set
    if m:has(kind) and uv_accessor[set] == nil then
      local a, why = m:attribute(kind)
      if not a then
        add_error(r, why)
      elseif holds_non_finite(a) then
        add_note(r, "non_finite", 1, "stored UV set " .. set .. " holds"
          .. " NaN or infinity, which glTF forbids: left out")
      else
        local index = self:accessor(packed(a), UV_SET, m.vertex_count)
        for _, prim in ipairs(primitives) do
          prim.attributes[layout.UV_SET_N[set]] = index
        end
      end
    end
  end
end

-- The glTF primitive of submesh p (from mesh_primitive_list): the shared
-- attributes, its own UVs, its indices and its material.
function Doc:primitive(p, attributes, n, uv_accessor, r)
  local s = p.s
  local attrs = {}
  for k, v in pairs(attributes) do attrs[k] = v end
  local sets = self:primitive_uvs(p, attrs, n, uv_accessor, r)
  local prim = { attributes = attrs, mode = layout.TRIANGLES,
    indices = self:accessor(written(12 * p.count, function(f)
        return s:triangle_bytes(f)
      end), layout.INDICES, 3 * p.count),
    extras = { selectors = s.selectors,
      uv_sets = sets[1] and sets or gltf.EMPTY } }
  local mat = s.material
  if mat then
    local untextured = mat.base_colour ~= nil
      and attrs[TEXCOORD_N[0]] == nil
    if untextured then
      add_note(r, "untextured", 1, "submesh " .. p.index .. ": no logical"
        .. " UV0 for the base-colour texture of " .. mat.name
        .. ": material without it")
    end
    prim.material = self:material(mat, untextured)
  end
  return prim
end

-- Add mesh m: a node, a mesh, its accessors and its primitives. Returns
-- { written = boolean, vertices =, triangles =, primitives =,
--   errors = {...}, notes = {...}, counts = {...} }: errors say what could
-- not be exported (a submesh or the whole mesh): the module's messages as
-- it gives them, which name the mesh ("mesh 5 (wall): submesh 2: ..."),
-- and this exporter's own, which do not. notes say what was handled,
-- and counts[kind] adds up the handled cases by kind: empty_submeshes,
-- zero_normals, renormalised, zero_a, no_handedness, no_tangent,
-- uv_dropped, untextured, non_finite.
function Doc:add_mesh(m)
  local r = new_result()
  local prims = mesh_primitive_list(m, r)
  if #prims == 0 then return r end
  local pos, lo, hi = mesh_positions(m, r)
  if not pos then return r end
  local acc = mesh_attributes(m, r)
  if not acc then return r end

  local n = m.vertex_count
  local attributes = self:vertex_attributes(m, { pos, lo, hi }, acc, r)
  local uv_accessor = {} -- one accessor per stored UV set some primitive uses
  local primitives = {}
  for _, p in ipairs(prims) do
    primitives[#primitives + 1] =
      self:primitive(p, attributes, n, uv_accessor, r)
    r.triangles = r.triangles + p.count
  end
  self:unrouted_uv_sets(m, primitives, uv_accessor, r)

  local notes = r.notes
  self.meshes[#self.meshes + 1] = { name = m.name, primitives = primitives,
    extras = { mask = string.format("0x%08x", m.mask),
      notes = notes[1] and notes or nil } }
  self.nodes[#self.nodes + 1] = { name = m.name, mesh = #self.meshes - 1 }
  r.written, r.vertices, r.primitives = true, n, #primitives
  return r
end

-- ---------------------------------------------------------------- output

-- The whole document as a Lua table; buffer is the buffer's entry.
function Doc:tree(buffer)
  local nodes = {}
  for i = 1, #self.nodes do nodes[i] = i - 1 end
  local scene = { name = self.name, nodes = nodes[1] and nodes or nil }
  local function list(t) return t[1] and t or nil end
  return {
    asset = { version = "2.0", generator = self.generator },
    scene = 0, scenes = { scene },
    nodes = list(self.nodes), meshes = list(self.meshes),
    materials = list(self.materials), textures = list(self.textures),
    images = list(self.images), accessors = list(self.accessors),
    bufferViews = list(self.views),
    buffers = self.size > 0 and { buffer } or nil,
  }
end

-- Copy the buffer from the anonymous temporary file to f, a chunk at a
-- time. true, or nil and a message.
local COPY_CHUNK = 1 << 20

function Doc:copy_buffer(f)
  local src = self.out
  if not src then return true end
  local ok, err = src:seek("set", 0)
  while ok do
    local bytes = src:read(COPY_CHUNK)
    if not bytes then break end
    ok, err = f:write(bytes)
  end
  return ok, err
end

-- The .glb: the JSON chunk, padded with spaces, then the binary chunk,
-- padded with zeros, each to 4 bytes (glTF 2.0, GLB file format).
-- Returns the bytes written, or nil and a message.
function Doc:save_glb(file)
  local size = self.size
  local text = gltf.json(self:tree({ byteLength = size }))
  text = text .. string.rep(" ", (4 - #text % 4) % 4)
  local bin_pad = (4 - size % 4) % 4
  local length = 12 + 8 + #text + (size > 0 and 8 + size + bin_pad or 0)
  local ok, err = output.write(file, function(f)
    local ok, err = f:write(string.pack("<c4I4I4", "glTF", 2, length),
      string.pack("<I4c4", #text, "JSON"), text)
    if ok and size > 0 then
      ok, err = f:write(string.pack("<I4c4", size + bin_pad, "BIN\0"))
      if ok then ok, err = self:copy_buffer(f) end
      if ok then ok, err = f:write(string.rep("\0", bin_pad)) end
    end
    return ok, err
  end)
  if not ok then return nil, err end
  return length
end

-- Close the buffer's file and put the .bin in place (or remove it when
-- the buffer is empty). true, or nil and a message.
function Doc:save_bin(file)
  local out, part = self.out, self.part
  local dest = bin_path(file)
  self.out, self.part = nil, nil
  if part and self.bin == dest then
    -- written in place as it was made
    if self.size == 0 then
      output.abandon(out, part)
      return true
    end
    return output.commit(out, part, dest)
  end
  if self.size == 0 then return true end
  self.out = out
  local ok, err = output.write(dest, function(f)
    return self:copy_buffer(f)
  end)
  output.abandon(out, part)
  self.out = nil
  return ok, err
end

-- Drop what was written of the buffer, if anything: a document that is
-- not saved leaves no file behind. Also its __close, so that a document
-- held in a to-be-closed variable is discarded when an error ends it.
function Doc:discard()
  output.abandon(self.out, self.part)
  output.abandon(nil, self.text_part)
  -- a .bin put in place for a .gltf that never followed
  if self.bin_placed then os.remove(self.bin_placed) end
  self.out, self.part, self.text_part, self.bin_placed = nil, nil, nil, nil
end
Doc.__close = Doc.discard

-- Save as file (default the file given to gltf.new): a .glb when glb is
-- true, else a .gltf beside a .bin of the same base name. Returns the
-- bytes written, or nil and a message. A document is saved once.
function Doc:save(file, glb)
  file = file or self.file
  if glb == nil then glb = self.glb end
  local ok, err = self:prepared()
  if not ok then return nil, err end
  if glb then
    local size
    size, err = self:save_glb(file)
    self:discard()
    return size, err
  end
  local buffer = { byteLength = self.size }
  if self.size > 0 then
    buffer.uri = gltf.uri(path.basename(bin_path(file)))
  end
  -- the .gltf whole under its temporary name first, then the .bin in
  -- place, then the .gltf: a failure leaves neither, nor an orphan .bin
  local text = gltf.json(self:tree(buffer)) .. "\n"
  self.text_part = output.temporary(file) -- known before it exists
  local f, tmp = output.open(file, "wb", self.text_part)
  if not f then
    self:discard()
    return nil, tmp
  end
  local wrote, werr = f:write(text)
  if not wrote then
    output.abandon(f, tmp)
    self:discard()
    return nil, file .. ": " .. tostring(werr)
  end
  ok, err = output.close(f, tmp, file)
  if ok then ok, err = self:save_bin(file) end
  if ok and self.size > 0 then self.bin_placed = bin_path(file) end
  if ok then ok, err = output.rename(tmp, file) end
  if not ok then
    self:discard()
    return nil, err
  end
  self.text_part, self.bin_placed = nil, nil
  return self.size + #text
end

return gltf
