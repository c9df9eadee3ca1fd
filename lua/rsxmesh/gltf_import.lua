-- rsxmesh/gltf_import.lua - an edited glTF 2.0 back into RSXB, byte for
-- byte where nothing changed
--
--   local import = require "rsxmesh.gltf_import"
--   local file, err = import.read("edited.gltf")     -- or a .glb
--   local result, err = import.bundle(file, base, { only = { crate = true } })
--   -- result.writer: an rsxmesh.writer holding the new bundle
--   -- result.meshes: per base mesh { label =, state =, changed =,
--   --                derived =, kept = } (see doc/scripts.md)
--
-- The glTF is compared with what gltf-export writes for each base mesh
-- (rsxmesh.gltf, the same code): an attribute whose bytes equal the
-- export's keeps the base's stored bytes, NaN payloads and padding
-- included, and only what differs is encoded again, by m:with. A mesh
-- whose vertices or triangles differ is rebuilt as a triangle list.
-- Every failure is one message naming the file, the mesh and the accessor;
-- nothing is built unless every mesh succeeds.

local rsxmesh = require "rsxmesh"
-- the JSON parser is a package of its own: its absence is a setup step
-- missed, said as such rather than as a traceback
local cjson = require "rsxmesh.need" ("cjson", "lua-cjson", "lua-cjson",
  "gltf-import")
local gltf = require "rsxmesh.gltf"
local interrupt = require "rsxmesh.interrupt"
local json = require "rsxmesh.json"
local lfs = require "lfs"
local path = require "rsxmesh.path"

local import = {}

local decoder = cjson.new()

-- glTF 2.0's numbers: component types and element sizes.
local COMPONENTS = { SCALAR = 1, VEC2 = 2, VEC3 = 3, VEC4 = 4, MAT2 = 4,
  MAT3 = 9, MAT4 = 16 }
local CTYPE = {
  [5120] = { name = "BYTE", size = 1, fmt = "b", max = 127 },
  [5121] = { name = "UNSIGNED_BYTE", size = 1, fmt = "B", max = 255 },
  [5122] = { name = "SHORT", size = 2, fmt = "<h", max = 32767 },
  [5123] = { name = "UNSIGNED_SHORT", size = 2, fmt = "<H", max = 65535 },
  [5125] = { name = "UNSIGNED_INT", size = 4, fmt = "<I4" },
  [5126] = { name = "FLOAT", size = 4, fmt = "<f" },
}
local FLOAT, UNSIGNED_BYTE, UNSIGNED_SHORT, UNSIGNED_INT =
  5126, 5121, 5123, 5125
local MODES = { [0] = "points", [1] = "lines", [2] = "line loop",
  [3] = "line strip", [4] = "triangles", [5] = "triangle strip",
  [6] = "triangle fan" }

-- Zeros an accessor without a buffer view may always have (1 MiB).
local ZEROS_MIN = 1 << 20

-- A failure: raised as a table so that import.bundle can tell its own
-- messages from a bug's.
local Failure = {}
local function fail(fmt, ...)
  error(setmetatable({ message = string.format(fmt, ...) }, Failure), 0)
end

-- Run fn(...) and turn a Failure into nil, message; other errors pass.
local function guarded(fn, ...)
  local ok, a, b = pcall(fn, ...)
  if ok then return a, b end
  if getmetatable(a) == Failure then return nil, a.message end
  error(a, 0)
end

-- A JSON number that is a whole number, as an integer (lua-cjson reads
-- every number as a float); nil for anything else.
local function int(x)
  return type(x) == "number" and math.tointeger(x) or nil
end

-- A JSON value in a message as the file spells it: 5130, not lua-cjson's
-- 5130.0; a string quoted, so that "12" is not taken for 12.
local function shown(x)
  if type(x) == "string" then return '"' .. x .. '"' end
  return tostring(int(x) or x)
end

-- file opened for reading, a regular file only; or nil and a message
-- naming it.
local function open_regular(file)
  -- only a regular file: a buffer URI climbing to /dev/zero read until
  -- memory ran out, and a FIFO would hang the open
  local mode = lfs.attributes(file, "mode")
  if mode and mode ~= "file" then
    return nil, file .. ": " .. (mode == "directory" and "Is a directory"
      or "not a regular file")
  end
  return io.open(file, "rb")
end

-- A buffer is a string (a data URI's bytes), or { n = (its length),
-- path =, off =, f = }: the n bytes of the file path from 0-based offset
-- off (a .bin, a .glb's BIN chunk), read a piece at a time (piece) as
-- the accessors ask. Read whole, a .bin of 40 MB cost its memory twice
-- over (the read, then the string), more than all the rest of the
-- import of an unchanged bundle.
local function buffer_length(buf)
  return type(buf) == "string" and #buf or buf.n
end

-- The n bytes of file f (open) from 0-based offset off; nil when it
-- holds fewer.
local function read_at(f, off, n)
  if n == 0 then return "" end -- f:read(0) is nil at the end
  local bytes = f:seek("set", off) and f:read(n)
  return bytes and #bytes == n and bytes or nil
end

-- The n bytes of buffer buf from 0-based offset off (inside it): a string
-- and the 0-based offset where they start in it.
local function piece(buf, off, n)
  if type(buf) == "string" then return buf, off end
  if not buf.f then
    local err
    buf.f, err = open_regular(buf.path)
    if not buf.f then fail("%s", err) end
  end
  local bytes = read_at(buf.f, buf.off + off, n)
  if not bytes then
    fail("%s: %d bytes from offset %d can no longer be read (the file"
      .. " changed during the import)", buf.path, n, buf.off + off)
  end
  return bytes, 0
end

-- Close the files of file's buffers (import.read's): piece opens them
-- again if need be.
local function close_buffers(file)
  for _, buf in ipairs(file.buffers or {}) do
    if type(buf) == "table" and buf.f then
      buf.f:close()
      buf.f = nil
    end
  end
end

-- ------------------------------------------------------------- reading

local BASE64 = {}
do
  local alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
  for i = 1, 64 do BASE64[alphabet:byte(i)] = i - 1 end
end

-- The bytes of base64 text, or nil at a character outside the alphabet.
local function base64_decode(s)
  s = s:gsub("=+$", "")
  local out, bits, nbits = {}, 0, 0
  for i = 1, #s do
    local v = BASE64[s:byte(i)]
    if not v then return nil end
    bits, nbits = (bits << 6) | v, nbits + 6
    if nbits >= 8 then
      nbits = nbits - 8
      out[#out + 1] = string.char((bits >> nbits) & 0xFF)
    end
  end
  return table.concat(out)
end

-- A URI reference's path, percent-decoded.
local function uri_path(uri)
  return (uri:gsub("%%(%x%x)", function(h)
    return string.char(tonumber(h, 16))
  end))
end

-- The JSON chunk and the BIN chunk (a buffer) of a .glb (glTF 2.0, GLB
-- file format), open as f, of size bytes.
local function read_glb(file, f, size)
  local header = size >= 20 and read_at(f, 0, 20)
  if not header then fail("%s: a .glb of %d bytes has no header and JSON"
    .. " chunk", file, size) end
  local _, version, length = string.unpack("<c4I4I4", header)
  if version ~= 2 then fail("%s: GLB version %d, not 2", file, version) end
  if length ~= size then
    fail("%s: the GLB header says %d bytes, the file has %d", file, length,
      size)
  end
  local jlen, jtype = string.unpack("<I4c4", header, 13)
  local text = jtype == "JSON" and 20 + jlen <= size and read_at(f, 20, jlen)
  if not text then
    fail("%s: the first GLB chunk is not a whole JSON chunk", file)
  end
  local bin
  local at = 21 + jlen
  local chunk = at + 8 <= size + 1 and read_at(f, at - 1, 8)
  if chunk then
    local blen, btype = string.unpack("<I4c4", chunk)
    if btype == "BIN\0" then
      if at + 7 + blen > size then
        fail("%s: the GLB BIN chunk of %d bytes runs past the end", file,
          blen)
      end
      bin = { n = blen, path = file, off = at + 7 }
    end
  end
  return text, bin
end

local function bytes_of(buf, label, length)
  local n = buffer_length(buf)
  if n < length then
    fail("%s holds %d bytes, less than its byteLength %d", label, n,
      length)
  end
  return buf
end

-- The bytes of buffer i (0-based) of the document, and the path of the
-- file they came from when not the document's own.
local function read_buffer(file, t, i, b, glb_bin)
  local label = string.format("%s: buffer %d", file, i)
  local length = type(b) == "table" and int(b.byteLength)
  if not length or length < 0 then
    fail("%s has no valid byteLength", label)
  end
  local bytes
  if b.uri == nil then
    if i ~= 0 or not glb_bin then
      fail("%s has no uri (only a .glb's buffer 0 may have none)", label)
    end
    bytes = glb_bin
  elseif type(b.uri) ~= "string" then
    fail("%s: its uri is not a string", label)
  elseif b.uri:match("^data:") then
    local data = b.uri:match("^data:[^,]*;base64,(.*)$")
    bytes = data and base64_decode(data)
    if not bytes then fail("%s: a data URI that is not base64", label) end
  else
    local name = uri_path(b.uri)
    local where = path.join(path.dirname(file), name)
    local f, err = open_regular(where)
    if not f then fail("%s (%s): %s", label, name, err) end
    return bytes_of({ n = f:seek("end"), path = where, off = 0, f = f },
      label, length), where
  end
  return bytes_of(bytes, label, length)
end

-- Read a .gltf with its buffers, or a .glb: { path =, json =, buffers =,
-- files = (the paths read: the document's, then its buffer files') } or
-- nil and a message naming the file. The buffer files are only opened:
-- import.bundle reads the pieces it needs.
function import.read(file)
  return guarded(function()
    local f, err = open_regular(file)
    if not f then fail("%s", err) end
    local size = f:seek("end")
    local text, bin
    if read_at(f, 0, 4) == "glTF" then
      text, bin = read_glb(file, f, size)
    else
      text = read_at(f, 0, size)
    end
    f:close()
    if not text then fail("%s: it changed while being read", file) end
    local ok, t = interrupt.pcall(decoder.decode, text)
    if not ok then
      fail("%s: JSON parse error: %s", file, tostring(t))
    end
    if type(t) ~= "table" or type(t.asset) ~= "table" then
      fail("%s: not a glTF document (no asset)", file)
    end
    -- a required extension changes what the accessors mean (Draco leaves
    -- POSITION without a buffer view: zeros, read as they stand); none
    -- is read here, so none may be required
    local required = t.extensionsRequired
    if type(required) == "table" and #required > 0 then
      local names = {}
      for i, name in ipairs(required) do names[i] = tostring(name) end
      fail("%s: it requires the extension%s %s, which gltf-import does not"
        .. " read (export again without %s)", file, #names > 1 and "s" or "",
        table.concat(names, ", "), #names > 1 and "them" or "it")
    end
    local buffers, files = {}, { file }
    for i, b in ipairs(type(t.buffers) == "table" and t.buffers or {}) do
      local where
      buffers[i], where = read_buffer(file, t, i - 1, b, bin)
      files[#files + 1] = where
    end
    return { path = file, json = t, buffers = buffers, files = files }
  end)
end

-- ------------------------------------------------------------ accessors

-- The bytes of buffer view v: its buffer, offset, length and byteStride,
-- checked to lie inside the buffer. label and what_view name it.
local function buffer_view(file, v, label, what_view)
  local t = file.json
  v = int(v)
  local bv = v and type(t.bufferViews) == "table" and t.bufferViews[v + 1]
  if type(bv) ~= "table" then
    fail("%s: %sbuffer view %s does not exist", label, what_view,
      tostring(v))
  end
  local buf = file.buffers[(int(bv.buffer) or -1) + 1]
  local boff, blen = int(bv.byteOffset or 0), int(bv.byteLength)
  -- compared so that no sum can overflow: a hostile 2^62 wraps
  if not buf or not boff or not blen or boff < 0 or blen < 0
      or boff > buffer_length(buf) or blen > buffer_length(buf) - boff then
    fail("%s: %sbuffer view %d lies outside its buffer (byteOffset %s,"
      .. " byteLength %s)", label, what_view, v, shown(bv.byteOffset or 0),
      shown(bv.byteLength))
  end
  local stride = bv.byteStride
  if stride ~= nil and not (int(stride) and stride >= 4 and stride <= 252
      and stride % 4 == 0) then
    fail("%s: %sbuffer view %d: byteStride %s is not a multiple of 4 from"
      .. " 4 to 252", label, what_view, v, shown(stride))
  end
  return buf, boff, blen, int(stride)
end

-- The elements of accessor a (r from accessor()) as stored, tightly
-- packed: zeros without a buffer view.
local function dense_bytes(file, a, r)
  local count, size = r.count, r.size
  if a.bufferView == nil then
    -- zeros, as glTF allows; no bytes of the file back them, so a hostile
    -- count could claim any memory: no more than the buffers hold
    local held = 0
    for _, b in ipairs(file.buffers) do held = held + buffer_length(b) end
    if count > math.max(held, ZEROS_MIN) // size then
      fail("%s: count %d: elements of %d bytes without a buffer view: more"
        .. " zeros than the file's buffers hold (%d bytes)", r.label, count,
        size, held)
    end
    return string.rep("\0", count * size)
  end
  local offset = int(a.byteOffset or 0)
  if not offset or offset < 0 then
    fail("%s: byteOffset %s is not a byte offset", r.label,
      shown(a.byteOffset))
  end
  local buf, boff, blen, stride = buffer_view(file, a.bufferView, r.label,
    "")
  stride = stride or size
  if stride < size then
    fail("%s: byteStride %d is less than the element's %d bytes", r.label,
      stride, size)
  end
  -- count - 1 strides and an element from offset, without a product or
  -- sum that a hostile count (2^62) could overflow
  if offset > blen or blen - offset < size
      or count - 1 > (blen - offset - size) // stride then
    fail("%s: count %d: elements of %d bytes%s from byteOffset %d run past"
      .. " the end of buffer view %d (%d bytes)", r.label, count, size,
      stride ~= size and string.format(", byteStride %d,", stride) or "",
      offset, int(a.bufferView), blen)
  end
  local src, at = piece(buf, boff + offset, stride * (count - 1) + size)
  if stride == size then
    -- a buffer file's piece is already just these bytes
    local n = count * size
    return #src == n and src or src:sub(at + 1, at + n)
  end
  local parts = {}
  for e = 0, count - 1 do
    parts[e + 1] = src:sub(at + e * stride + 1, at + e * stride + size)
  end
  return table.concat(parts)
end

-- bytes with the sparse substitutions of accessor a applied: indices
-- strictly increasing and below the count, every part inside its view.
local function sparse_bytes(file, sp, r, bytes)
  local label, count, size = r.label, r.count, r.size
  local sc = type(sp) == "table" and int(sp.count)
  if not sc or sc < 1 or sc > count or type(sp.indices) ~= "table"
      or type(sp.values) ~= "table" then
    fail("%s: a bad sparse accessor (its count, indices or values)", label)
  end
  local ictype = int(sp.indices.componentType)
  local ict = CTYPE[ictype]
  if ictype ~= UNSIGNED_BYTE and ictype ~= UNSIGNED_SHORT
      and ictype ~= UNSIGNED_INT then
    fail("%s: sparse indices of componentType %s", label,
      shown(sp.indices.componentType))
  end
  local ibuf, iboff, iblen = buffer_view(file, sp.indices.bufferView, label,
    "sparse indices ")
  local vbuf, vboff, vblen = buffer_view(file, sp.values.bufferView, label,
    "sparse values ")
  local ioff = int(sp.indices.byteOffset or 0)
  local voff = int(sp.values.byteOffset or 0)
  if not ioff or ioff < 0 or ioff > iblen
      or sc > (iblen - ioff) // ict.size then
    fail("%s: sparse indices run past their buffer view", label)
  end
  if not voff or voff < 0 or voff > vblen or sc > (vblen - voff) // size then
    fail("%s: sparse values run past their buffer view", label)
  end
  local isrc, iat = piece(ibuf, iboff + ioff, sc * ict.size)
  local vsrc, vat = piece(vbuf, vboff + voff, sc * size)
  local parts, last = {}, -1
  for e = 0, sc - 1 do
    local k = string.unpack(ict.fmt, isrc, iat + e * ict.size + 1)
    if k <= last or k >= count then
      fail("%s: sparse index %d is %d: indices must increase and stay"
        .. " below the count %d", label, e, k, count)
    end
    parts[#parts + 1] = bytes:sub(last * size + size + 1, k * size)
    parts[#parts + 1] = vsrc:sub(vat + e * size + 1, vat + (e + 1) * size)
    last = k
  end
  parts[#parts + 1] = bytes:sub((last + 1) * size + 1)
  return table.concat(parts)
end

-- Accessor i read and checked (label names it in messages).
local function accessor_read(file, t, i, label)
  local a = int(i) and type(t.accessors) == "table" and t.accessors[i + 1]
  if type(a) ~= "table" then fail("%s does not exist", label) end
  local n = COMPONENTS[a.type]
  local ctype = int(a.componentType)
  local ct = CTYPE[ctype]
  if not n then
    fail("%s: type %s is not a glTF type", label, shown(a.type))
  end
  if not ct then
    fail("%s: componentType %s is not a glTF one", label,
      shown(a.componentType))
  end
  local count = int(a.count)
  if not count or count < 1 then
    fail("%s: count %s is not a positive integer", label, shown(a.count))
  end
  local r = { count = count, type = a.type, ctype = ctype, components = n,
    size = n * ct.size, normalized = a.normalized == true, label = label }
  r.bytes = dense_bytes(file, a, r)
  if a.sparse ~= nil then
    r.bytes = sparse_bytes(file, a.sparse, r, r.bytes)
  end
  return r
end

-- Accessor i: { count =, type =, ctype =, components =, size =,
-- normalized =, label =, bytes = }, bytes its elements tightly packed,
-- sparse values applied. what names it in messages ("mesh 2 (crate):
-- primitive 1: NORMAL"); every failure names the file and accessor too.
-- read holds those read before (i -> r), the caller's to keep.
local function accessor(file, i, what, read)
  local t = file.json
  i = int(i) or i
  local label = string.format("%s: %s (accessor %s)", file.path, what,
    tostring(i))
  local known = read[i]
  if not known then
    known = accessor_read(file, t, i, label)
    read[i] = known
  end
  -- the known's fields, named as this use names it
  known.use = known.use or { __index = known }
  return setmetatable({ label = label }, known.use)
end

-- Check an accessor's type and component type against what the glTF
-- attribute allows: types a set of type names, ctypes of component types
-- (normalised unless float). Raises naming the accessor.
local function expect(r, types, ctypes)
  if not types[r.type] then
    fail("%s: type %s where %s is wanted", r.label, r.type,
      table.concat((function()
        local l = {}
        for k in pairs(types) do l[#l + 1] = k end
        table.sort(l)
        return l
      end)(), " or "))
  end
  if not ctypes[r.ctype] or (r.ctype ~= FLOAT and ctypes[r.ctype] == "norm"
      and not r.normalized) then
    fail("%s: componentType %s%s is not allowed here", r.label,
      CTYPE[r.ctype].name, r.normalized and " (normalized)" or "")
  end
end

local CHUNK = 240

-- The values of an accessor as a flat table of numbers: floats as they
-- are, normalised integers mapped to 0..1 (or -1..1), others as integers.
local function values(r)
  local ct = CTYPE[r.ctype]
  local n = r.count * r.components
  local out = {}
  local fmt_full = "<" .. ct.fmt:gsub("<", ""):rep(CHUNK)
  local unpack = string.unpack
  local bytes = r.bytes
  for i = 1, n, CHUNK do
    local j = math.min(i + CHUNK - 1, n)
    local fmt = j - i + 1 == CHUNK and fmt_full
      or "<" .. ct.fmt:gsub("<", ""):rep(j - i + 1)
    local t = { unpack(fmt, bytes, (i - 1) * ct.size + 1) }
    for k = 1, j - i + 1 do out[i + k - 1] = t[k] end
  end
  if r.normalized and r.ctype ~= FLOAT then
    local m = ct.max
    for i = 1, n do
      local x = out[i] / m
      out[i] = x < -1 and -1 or x
    end
  end
  return out
end

-- ---------------------------------------------------------------- maths

-- The world matrix (column-major, 16 numbers) of each glTF mesh index
-- used by a node: nil for the identity. Two nodes that place one mesh
-- differently cannot both be baked into it.
local IDENTITY = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 }

local function mat_mul(a, b)
  local c = {}
  for col = 0, 3 do
    for row = 0, 3 do
      local s = 0
      for k = 0, 3 do s = s + a[k * 4 + row + 1] * b[col * 4 + k + 1] end
      c[col * 4 + row + 1] = s
    end
  end
  return c
end

-- A node's field: n numbers, or dflt when absent.
local function numbers(file, node, k, field, n, dflt)
  local v = node[field]
  if v == nil then return dflt end
  local good = type(v) == "table" and #v == n
  for i = 1, n do good = good and type(v[i]) == "number" end
  if not good then
    fail("%s: node %d: %s is not %d numbers", file.path, k, field, n)
  end
  return v
end

local function node_matrix(file, node, k)
  local m = numbers(file, node, k, "matrix", 16, nil)
  if m then return m end
  local t = numbers(file, node, k, "translation", 3, { 0, 0, 0 })
  local q = numbers(file, node, k, "rotation", 4, { 0, 0, 0, 1 })
  local s = numbers(file, node, k, "scale", 3, { 1, 1, 1 })
  local x, y, z, w = q[1], q[2], q[3], q[4]
  -- glTF: T * R * S, R from the unit quaternion (x, y, z, w)
  local r = {
    1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0,
    2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0,
    2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0,
    0, 0, 0, 1 }
  for col = 0, 2 do
    for row = 0, 2 do
      r[col * 4 + row + 1] = r[col * 4 + row + 1] * s[col + 1]
    end
  end
  r[13], r[14], r[15] = t[1], t[2], t[3]
  return r
end

local function is_identity(m)
  for i = 1, 16 do
    if m[i] ~= IDENTITY[i] then return false end
  end
  return true
end

local function mesh_transforms(file)
  local t = file.json
  local nodes = type(t.nodes) == "table" and t.nodes or {}
  local parent = {}
  for k, node in ipairs(nodes) do
    if type(node) ~= "table" then
      fail("%s: node %d is not an object", file.path, k - 1)
    end
    for _, c in ipairs(type(node.children) == "table" and node.children
        or {}) do
      if int(c) then parent[int(c) + 1] = k end
    end
  end
  local world = {}
  local function world_of(k, depth)
    if world[k] then return world[k] end
    if depth > #nodes then fail("%s: node %d is its own ancestor",
      file.path, k - 1) end
    local m = node_matrix(file, nodes[k], k - 1)
    if parent[k] then m = mat_mul(world_of(parent[k], depth + 1), m) end
    world[k] = m
    return m
  end
  local of_mesh = {}
  for k, node in ipairs(nodes) do
    local mi = type(node) == "table" and int(node.mesh)
    if mi then
      local m = world_of(k, 0)
      local known = of_mesh[mi]
      if known and known ~= m then
        for i = 1, 16 do
          if known[i] ~= m[i] then
            fail("%s: glTF mesh %d is placed by two nodes with different"
              .. " transforms: they cannot both be baked into it",
              file.path, mi)
          end
        end
      end
      of_mesh[mi] = m
    end
  end
  for i, m in pairs(of_mesh) do
    if is_identity(m) then of_mesh[i] = nil end
  end
  return of_mesh
end

-- Apply the matrix m to the flat xyz table v (positions: with the
-- translation; vectors: without). normal: the inverse transpose, and the
-- results made unit again.
local function transform(m, v, how)
  local a, b, c = m[1], m[5], m[9]
  local d, e, f = m[2], m[6], m[10]
  local g, h, k = m[3], m[7], m[11]
  local tx, ty, tz = 0, 0, 0
  if how == "position" then tx, ty, tz = m[13], m[14], m[15] end
  if how == "normal" then
    -- the inverse transpose of the 3x3 part, by cofactors
    local det = a * (e * k - f * h) - b * (d * k - f * g) + c * (d * h - e * g)
    if det == 0 then det = 1 end
    a, b, c, d, e, f, g, h, k =
      (e * k - f * h) / det, (f * g - d * k) / det, (d * h - e * g) / det,
      (c * h - b * k) / det, (a * k - c * g) / det, (b * g - a * h) / det,
      (b * f - c * e) / det, (c * d - a * f) / det, (a * e - b * d) / det
  end
  local out = {}
  for i = 1, #v, 3 do
    local x, y, z = v[i], v[i + 1], v[i + 2]
    local X = a * x + b * y + c * z + tx
    local Y = d * x + e * y + f * z + ty
    local Z = g * x + h * y + k * z + tz
    if how == "normal" then
      local l = math.sqrt(X * X + Y * Y + Z * Z)
      if l > 0 then X, Y, Z = X / l, Y / l, Z / l end
    end
    out[i], out[i + 1], out[i + 2] = X, Y, Z
  end
  return out
end

-- A and B from glTF's TANGENT (xyzw, flat) and NORMAL: A is the unit
-- tangent, B = cross(N, A) * w, the bitangent glTF rebuilds.
local function frames_from_tangent(T, N, nv)
  local A, B = {}, {}
  for v = 0, nv - 1 do
    local tx, ty, tz, w = T[4 * v + 1], T[4 * v + 2], T[4 * v + 3],
      T[4 * v + 4]
    local nx, ny, nz = N[3 * v + 1], N[3 * v + 2], N[3 * v + 3]
    A[3 * v + 1], A[3 * v + 2], A[3 * v + 3] = tx, ty, tz
    w = w < 0 and -1 or 1
    B[3 * v + 1] = (ny * tz - nz * ty) * w
    B[3 * v + 2] = (nz * tx - nx * tz) * w
    B[3 * v + 3] = (nx * ty - ny * tx) * w
  end
  return A, B
end

-- -------------------------------------------------------------- meshes

-- What gltf-export writes for mesh m, in memory: the primitives, and
-- bytes(i) of accessor i. nil and the export's first error when it
-- writes nothing.
local function exported(m)
  local doc = gltf.new{}
  doc.material = function() return nil end -- materials play no part
  -- each view kept in memory, in the order of the views, and made bytes
  -- only when asked for: some are never compared (TANGENT)
  local kept = {}
  doc.view = function(_, bytes)
    kept[#kept + 1] = bytes
    return #kept - 1
  end
  local r = doc:add_mesh(m)
  if not r.written then return nil, r.errors[1] or "no triangles" end
  return {
    primitives = doc.meshes[1].primitives,
    bytes = function(i)
      if i == nil then return nil end
      local v = doc.accessors[i + 1].bufferView + 1
      kept[v] = gltf.view_bytes(kept[v])
      return kept[v]
    end,
  }
end

-- glTF material names come back with suffixes (Blender's ".001"), and
-- gltf-export names a variant "NAME (no UV0)".
local function material_name(file, index)
  local mats = type(file.json.materials) == "table" and file.json.materials
  local mat = mats and int(index) and mats[int(index) + 1]
  if type(mat) ~= "table" or type(mat.name) ~= "string" then return nil end
  return (mat.name:gsub(" %(no UV0%)$", ""):gsub("%.%d%d%d$", ""))
end

-- The component types each glTF attribute may have.
local ONLY_FLOAT = { [FLOAT] = true }
local UV_CTYPES = { [FLOAT] = true, [UNSIGNED_BYTE] = "norm",
  [UNSIGNED_SHORT] = "norm" }
local COLOUR_CTYPES = UV_CTYPES
local INDEX_CTYPES = { [UNSIGNED_BYTE] = true, [UNSIGNED_SHORT] = true,
  [UNSIGNED_INT] = true }

-- The submeshes gltf-export wrote a primitive for (those with triangles),
-- in order.
local function exported_submeshes(m)
  local list = {}
  for i, s in m:submeshes() do
    local count = s:triangle_count()
    if count and count > 0 then list[#list + 1] = { s = s, index = i } end
  end
  return list
end

-- Did gltf-export write stored set `set` (as a TEXCOORD_n or _UV_SET_n)?
local function exported_set(E, subs, set)
  for p, prim in ipairs(E.primitives) do
    if prim.attributes[gltf.uv_set_attribute(set)] then return true end
    for logical = 0, 3 do
      if subs[p].s:uv_set(logical) == set
          and prim.attributes["TEXCOORD_" .. logical] then
        return true
      end
    end
  end
  return false
end

-- ------------------------------------------------------------- one mesh

-- The import of one glTF mesh into one base mesh, a step per method. The
-- steps fill t, the argument of m:with, with what differs from the base,
-- and the report with what changed, was derived or was kept.
local Job = {}
Job.__index = Job

local VEC2, VEC3, VEC4 = { VEC2 = true }, { VEC3 = true }, { VEC4 = true }

-- A job for glTF mesh g into base mesh m; world is the node's
-- matrix, nil for the identity.
local function new_job(file, g, m, world)
  local label = m.label -- as the core's messages name it
  local job = setmetatable({ file = file, g = g, m = m, world = world,
    label = label, where = file.path .. ": " .. label,
    report = { label = label, changed = {}, derived = {}, kept = {} },
    t = {}, columns = {}, changes = {},
    -- a mesh's accessors read once for it: its primitives share them
    -- (gltf-export's do), and no other mesh uses them (gltf-export gives
    -- each its own), so they go with the job
    read = {} }, Job)
  local E, why = exported(m)
  if not E then
    fail("%s: the base mesh cannot be exported, so not compared: %s",
      job.where, tostring(why))
  end
  job.E, job.e_attrs = E, E.primitives[1].attributes
  job.subs = exported_submeshes(m)
  job.prims = type(g.primitives) == "table" and g.primitives or {}
  return job
end

function Job:note(list, text)
  local l = self.report[list]
  l[#l + 1] = text
end

-- kind (nil: the triangles) encoded again: reported as changed when its
-- bytes then differ from the base's (Job:differs)
function Job:changed(kind, text)
  self.changes[#self.changes + 1] = { kind = kind, text = text }
end

-- The accessor i of primitive p, named as messages name it.
function Job:accessor(i, p, name)
  return accessor(self.file, i, self.label .. ": primitive " .. p .. ": "
    .. name, self.read)
end

-- Each primitive a triangle list with a POSITION; its vertices a group
-- per POSITION accessor, in the glTF's order.
function Job:vertex_groups()
  local groups, group_of, nv = {}, {}, 0
  for p, prim in ipairs(self.prims) do
    local pw = string.format("%s: primitive %d", self.where, p)
    if type(prim) ~= "table" then fail("%s is not an object", pw) end
    local mode = int(prim.mode or 4) or prim.mode
    if mode ~= 4 then
      fail("%s: mode %s (%s) is not a triangle list", pw, shown(mode),
        MODES[mode] or "unknown")
    end
    if type(prim.attributes) ~= "table" then prim.attributes = {} end
    local pi = prim.attributes.POSITION
    if pi == nil then fail("%s: no POSITION", pw) end
    if not group_of[pi] then
      local r = self:accessor(pi, p, "POSITION")
      expect(r, VEC3, ONLY_FLOAT)
      groups[#groups + 1] = { first = nv, count = r.count, prims = {},
        position = r }
      group_of[pi] = groups[#groups]
      nv = nv + r.count
    end
    table.insert(group_of[pi].prims, p)
  end
  self.groups, self.group_of, self.nv = groups, group_of, nv
end

local function quoted(name)
  return name and "'" .. name .. "'" or "none"
end

-- A position as a key: its float32 bytes, -0 read as 0.
local function position_key(bytes, at)
  local x, y, z = string.unpack("<fff", bytes, at)
  return string.pack("<fff", x + 0.0, y + 0.0, z + 0.0)
end

-- A triangle's corners rotated to start at the least, the winding kept
-- (the lexicographically least of its three rotations), and how far they
-- were rotated: corner c of the result is corner (c + r) % 3 of the
-- triangle. Numbers or strings.
local function least_rotation(a, b, c)
  local x, y, z, r = a, b, c, 0
  if b < x or (b == x and (c < y or (c == y and a < z))) then
    x, y, z, r = b, c, a, 1
  end
  if c < x or (c == x and (a < y or (a == y and b < z))) then
    x, y, z, r = c, a, b, 2
  end
  return x, y, z, r
end

-- A triangle as a key: its three position keys, sorted (the corners in
-- any order).
local function triangle_key(a, b, c)
  if a > b then a, b = b, a end
  if b > c then b, c = c, b end
  if a > b then a, b = b, a end
  return a .. b .. c
end

-- Glue primitive p back into the submeshes subs (a list of exported
-- submeshes that share its material): each triangle goes to a submesh
-- with a triangle of the same three positions, wound alike. Where several
-- base triangles have them (a double-sided card's two sides are told
-- apart by their winding, two layers are not), the glTF's triangles take
-- them in the base's order, as an editor keeps them: the k-th to the
-- submesh of the k-th. One wound the other way (flipped in the editor)
-- goes to the first submesh with those positions, one of no submesh (an
-- editor's new one) to the first. Returns a part per submesh.
function Job:split(p, subs)
  local pos = assert(self.m:attribute("position")):pack()
  local function keys(bytes, a, b, c)
    a, b, c = position_key(bytes, a), position_key(bytes, b),
      position_key(bytes, c)
    local x, y, z = least_rotation(a, b, c)
    return x .. y .. z, triangle_key(a, b, c)
  end
  local wound, owner = {}, {}
  for k, sub in ipairs(subs) do
    local tri, n = sub.s:triangles()
    for i = 0, (tri and n or 0) - 1 do
      local key, loose = keys(pos, 12 * tri[3 * i + 1] - 11,
        12 * tri[3 * i + 2] - 11, 12 * tri[3 * i + 3] - 11)
      local list = wound[key]
      if not list then
        list = { at = 1 }
        wound[key] = list
      end
      list[#list + 1] = k
      owner[loose] = owner[loose] or k
    end
  end
  local idx = self:primitive_indices(p)
  local gpos = self:group(p).position.bytes
  local parts, stray = {}, 0
  for k, sub in ipairs(subs) do
    parts[k] = { prim = self.prims[p], p = p, sub = sub, tris = {} }
  end
  for i = 0, #idx // 3 - 1 do
    local key, loose = keys(gpos, 12 * idx[3 * i + 1] + 1,
      12 * idx[3 * i + 2] + 1, 12 * idx[3 * i + 3] + 1)
    local list = wound[key]
    local k
    if list then
      -- past the base's count of them: an editor's copy, to the first
      k = list[list.at] or list[1]
      list.at = list.at + 1
    else
      k = owner[loose]
    end
    if not k then
      k, stray = 1, stray + 1
    end
    table.insert(parts[k].tris, i)
  end
  local list = {}
  for k = 1, #subs do list[k] = subs[k].index end
  self:note("derived", string.format("primitive %d split back into"
    .. " submeshes %s by their triangles' positions%s", p,
    table.concat(list, ", "), stray > 0 and string.format(" (%d of no"
    .. " submesh given to submesh %d)", stray, subs[1].index) or ""))
  return parts
end

-- Primitives to the submeshes gltf-export wrote, by order and material:
-- self.parts, { prim =, p =, sub =, e = (what the export wrote for it),
-- tris = (nil: all its triangles) }. Where an editor merged primitives
-- that share a material (Blender does), the merged one is split back.
function Job:primitives()
  self:vertex_groups()
  local prims, subs = self.prims, self.subs
  local parts = {}
  if #prims == #subs then
    for p, prim in ipairs(prims) do
      local sub = subs[p]
      local want = sub.s.material and sub.s.material.name
      local got = material_name(self.file, prim.material)
      if got ~= want then
        fail("%s: primitive %d: material %s where submesh %d has %s",
          self.where, p, quoted(got), sub.index, quoted(want))
      end
      parts[p] = { prim = prim, p = p, sub = sub,
        e = self.E.primitives[p] }
    end
  else
    local by_material, order = {}, {}
    for _, sub in ipairs(subs) do
      local name = sub.s.material and sub.s.material.name or false
      if not by_material[name] then
        by_material[name] = {}
        order[#order + 1] = name
      end
      table.insert(by_material[name], sub)
    end
    local claimed = {}
    for p, prim in ipairs(prims) do
      local got = material_name(self.file, prim.material) or false
      local list = by_material[got]
      if not list or claimed[got] then
        fail("%s: %d primitives where the base has %d submeshes with"
          .. " triangles, and primitive %d's material %s is %s",
          self.where, #prims, #subs, p, quoted(got or nil), list
          and "another primitive's too" or "no submesh's")
      end
      claimed[got] = true
      for _, part in ipairs(#list == 1 and { { prim = prim, p = p,
          sub = list[1] } } or self:split(p, list)) do
        parts[#parts + 1] = part
      end
    end
    for _, name in ipairs(order) do
      if not claimed[name] then
        fail("%s: no primitive has material %s of submesh %d", self.where,
          quoted(name or nil), by_material[name][1].index)
      end
    end
    -- back in the submeshes' order
    table.sort(parts, function(a, b) return a.sub.index < b.sub.index end)
  end
  self.parts = parts
  -- the base's vertices, in its order: attributes compare as exported,
  -- and those the glTF lacks are the base's as they stand
  self.same_layout = self:numbered_as_base()
  if not self.same_layout then self.t.vertex_count = self.nv end
end

function Job:group(p)
  return self.group_of[self.prims[p].attributes.POSITION]
end

-- An attribute of every vertex: per group, the accessor of the group's
-- first primitive that has it (others of the group must hold the same
-- bytes); nil when a group lacks it.
function Job:column(name, types, ctypes)
  local known = self.columns[name]
  if known ~= nil then return known or nil end
  local parts = {}
  for _, grp in ipairs(self.groups) do
    local found
    for _, p in ipairs(grp.prims) do
      local i = self.prims[p].attributes[name]
      if i ~= nil then
        local r = self:accessor(i, p, name)
        expect(r, types, ctypes)
        if r.count ~= grp.count then
          fail("%s: count %d where POSITION has %d", r.label, r.count,
            grp.count)
        end
        if found and found.bytes ~= r.bytes then
          fail("%s differs from primitive %d's for the same vertices",
            r.label, found.p)
        end
        if not found then
          found = r
          found.p = p
        end
      end
    end
    if not found then
      self.columns[name] = false
      return nil
    end
    parts[#parts + 1] = found
  end
  self.columns[name] = parts
  return parts
end

local function column_bytes(parts)
  if #parts == 1 then return parts[1].bytes end
  local b = {}
  for i, r in ipairs(parts) do b[i] = r.bytes end
  return table.concat(b)
end

local function column_values(parts)
  if #parts == 1 then return values(parts[1]) end
  local out = {}
  for _, r in ipairs(parts) do
    table.move(values(r), 1, r.count * r.components, #out + 1, out)
  end
  return out
end

-- Is the glTF's column what gltf-export wrote for the base?
function Job:as_exported(parts, name)
  return self.same_layout and self.e_attrs[name] ~= nil
    and column_bytes(parts) == self.E.bytes(self.e_attrs[name])
end

-- UVs within this much are one: an editor's V flipped there and back may
-- lose the last bits, while the two sides of a seam lie far apart.
local UV_TOLERANCE = 1e-4
-- Normals agree when their directions' dot product is at least this
-- (Blender re-derives normals within 0.04; a hard edge's differ more).
local NORMAL_AGREE = 0.99

-- The position key of each base vertex (1-based) and of each glTF vertex
-- (1-based, POSITION before any node transform).
function Job:position_keys()
  if self.bkeys then return self.bkeys, self.gkeys end
  local pos = assert(self.m:attribute("position")):pack()
  local bkeys, gkeys = {}, {}
  for v = 1, self.m.vertex_count do
    bkeys[v] = position_key(pos, 12 * v - 11)
  end
  for _, grp in ipairs(self.groups) do
    for li = 0, grp.count - 1 do
      gkeys[grp.first + li + 1] = position_key(grp.position.bytes,
        12 * li + 1)
    end
  end
  self.bkeys, self.gkeys = bkeys, gkeys
  return bkeys, gkeys
end

-- The UVs a part's corners carry: per logical UV its submesh routes (up
-- to the first absent one, as gltf-export writes them) that the glTF
-- gives, { set =, g = (the glTF's, flat, by vertex of the group), b =
-- (the base's stored set, flat, by base vertex) }.
function Job:part_uvs(part)
  if part.uvs then return part.uvs end
  self.base_uvs = self.base_uvs or {}
  local list = {}
  for logical = 0, 3 do
    local set = part.sub.s:uv_set(logical)
    local name = "TEXCOORD_" .. logical
    local i = part.prim.attributes[name]
    if set == nil or i == nil then break end
    local b = self.base_uvs[set]
    if b == nil then
      local acc = self.m:attribute("uv" .. set)
      b = acc and acc:range() or false
      self.base_uvs[set] = b
    end
    if b then
      list[#list + 1] = { set = set, b = b, g = values(self:uv_accessor({
        p = part.p, i = i, name = name })) }
    end
  end
  part.uvs = list
  return list
end

-- A UV value as a key in the type the base stores it in: float32 bits,
-- or the half's (SF) when the base holds halves, so that a half that
-- went out as a float and came back as one, or as the float nearest it,
-- is the same. NaN is one key whatever its payload.
local function uv_key(x, y, half)
  if x ~= x then x = 0 / 0 end
  if y ~= y then y = 0 / 0 end
  if half then return string.pack("<I2I2", rsxmesh.to_half(x),
    rsxmesh.to_half(y)) end
  return string.pack("<ff", x + 0.0, y + 0.0)
end

-- Do glTF vertex li of a part's group and base vertex bv (both 0-based)
-- carry the same UVs (the set skip aside)?
local function uvs_agree(uvs, li, bv, skip)
  for _, u in ipairs(uvs) do
    if u.set ~= skip then
      local du = u.g[2 * li + 1] - u.b[2 * bv + 1]
      local dv = u.g[2 * li + 2] - u.b[2 * bv + 2]
      if not (math.abs(du) <= UV_TOLERANCE
          and math.abs(dv) <= UV_TOLERANCE) then
        return false
      end
    end
  end
  return true
end

-- The glTF's triangles of a part aligned with its submesh's: the base's
-- in their order with some left out (deleted) and some added, as an
-- editor keeps them, the whole perhaps moved, turned or scaled (a
-- transform applied). In turn:
-- 1. a glTF triangle matches the next base triangle whose corners agree
--    (positions and UVs, its corners rotated alike);
-- 2. between two matches, as many glTF triangles as base ones pair in
--    order when at least two corners agree, by UVs (or by position where
--    the submesh has no UV): a vertex moved in edit mode, or every vertex
--    moved by a transform, keeps its base vertex. A part with no match
--    at all and as many triangles as its submesh, and no UV to compare,
--    pairs in order: the topology is all that is left;
-- 3. a glTF triangle still alone takes a base triangle still alone whose
--    corners carry its UVs, from any corner.
-- Each corner of a pair gives its glTF vertex (1-based) its base vertex
-- (0-based) in map, the first pair to name it winning; seen[v] is a part
-- that uses vertex v.
function Job:align(part, map, seen)
  local tri, n = part.sub.s:triangles()
  local idx = self:part_indices(part)
  local first = self:group(part.p).first
  local bkeys, gkeys = self:position_keys()
  local uvs = self:part_uvs(part)
  for c = 1, #idx do seen[first + idx[c] + 1] = seen[first + idx[c] + 1]
    or part end
  if not tri then return end
  -- does glTF corner gc agree with base corner bc (1-based in idx, tri)?
  local function agree(gc, bc)
    return gkeys[first + idx[gc] + 1] == bkeys[tri[bc]]
      and uvs_agree(uvs, idx[gc], tri[bc] - 1)
  end
  -- the same, by UVs alone where there are any (a transform moved them)
  local function loose(gc, bc)
    if #uvs == 0 then return agree(gc, bc) end
    return uvs_agree(uvs, idx[gc], tri[bc] - 1)
  end
  -- how many corners of glTF triangle i agree with base triangle k's
  -- (0-based) when glTF corner c stands for base corner (c + r) % 3
  local function corners(i, k, r, how)
    local count = 0
    for c = 0, 2 do
      if how(3 * i + c + 1, 3 * k + (c + r) % 3 + 1) then
        count = count + 1
      end
    end
    return count
  end
  local by_key, rot = {}, {}
  for k = 0, n - 1 do
    local x, y, z, r = least_rotation(bkeys[tri[3 * k + 1]],
      bkeys[tri[3 * k + 2]], bkeys[tri[3 * k + 3]])
    local key = x .. y .. z
    local list = by_key[key]
    if not list then
      list = { at = 1 }
      by_key[key] = list
    end
    list[#list + 1], rot[k] = k, r
  end
  -- exact matches, in order: gi[j] the glTF triangle of base triangle
  -- bk[j], with rotation rr[j]
  local gi, bk, rr, next_base = {}, {}, {}, 0
  local nt = #idx // 3
  for i = 0, nt - 1 do
    local x, y, z, r = least_rotation(gkeys[first + idx[3 * i + 1] + 1],
      gkeys[first + idx[3 * i + 2] + 1], gkeys[first + idx[3 * i + 3] + 1])
    local list = by_key[x .. y .. z]
    if list then
      while list[list.at] and list[list.at] < next_base do
        list.at = list.at + 1
      end
      for q = list.at, #list do
        local k = list[q]
        -- glTF corner c is its rotated corner c - r, base corner
        -- (c - r + rot[k]) % 3
        local shift = (rot[k] - r) % 3
        if corners(i, k, shift, agree) == 3 then
          gi[#gi + 1], bk[#bk + 1], rr[#rr + 1] = i, k, shift
          next_base = k + 1
          break
        end
      end
    end
  end
  local paired, used = {}, {}
  local function pair(i, k, r)
    paired[i], used[k] = true, true
    for c = 0, 2 do
      local gv = first + idx[3 * i + c + 1] + 1
      map[gv] = map[gv] or tri[3 * k + (c + r) % 3 + 1] - 1
    end
  end
  for j = 1, #gi do pair(gi[j], bk[j], rr[j]) end
  -- the gaps between matches (and before the first, after the last)
  local blind = #gi == 0 and nt == n and #uvs == 0
  for j = 1, #gi + 1 do
    local i0, k0 = gi[j - 1] or -1, bk[j - 1] or -1
    local i1, k1 = gi[j] or nt, bk[j] or n
    if i1 - i0 == k1 - k0 then
      for d = 1, i1 - i0 - 1 do
        local best, shift = 0, 0
        for r = 0, 2 do
          local count = corners(i0 + d, k0 + d, r, loose)
          if count > best then best, shift = count, r end
        end
        if best >= 2 or blind then pair(i0 + d, k0 + d, shift) end
      end
    end
  end
  -- the triangles left, by their UVs
  if #uvs == 0 then return end
  local function uv_corner(list, v)
    local key = {}
    for u, l in ipairs(list) do
      key[u] = uv_key(l[2 * v + 1], l[2 * v + 2])
    end
    return table.concat(key)
  end
  local gl, bl = {}, {}
  for u, set in ipairs(uvs) do gl[u], bl[u] = set.g, set.b end
  local alone = {}
  for k = 0, n - 1 do
    if not used[k] then
      local x, y, z, r = least_rotation(uv_corner(bl, tri[3 * k + 1] - 1),
        uv_corner(bl, tri[3 * k + 2] - 1), uv_corner(bl, tri[3 * k + 3] - 1))
      local key = x .. y .. z
      alone[key] = alone[key] or {}
      table.insert(alone[key], { k = k, r = r })
    end
  end
  for i = 0, nt - 1 do
    if not paired[i] then
      local x, y, z, r = least_rotation(uv_corner(gl, idx[3 * i + 1]),
        uv_corner(gl, idx[3 * i + 2]), uv_corner(gl, idx[3 * i + 3]))
      local list = alone[x .. y .. z]
      local found = list and table.remove(list, 1)
      if found then pair(i, found.k, (found.r - r) % 3) end
    end
  end
end

-- The base vertices each glTF vertex (1-based) stands for, for vertices
-- that are not the base's: map[v], one (0-based) from the triangles'
-- alignment (Job:align), else near[v], the list of base vertices at its
-- position (POSITION before any node transform), nil where none is;
-- part[v], a part using vertex v.
function Job:base_vertices()
  if self.base_of then return self.base_of end
  local map, seen = {}, {}
  for _, part in ipairs(self.parts) do self:align(part, map, seen) end
  local bkeys, gkeys = self:position_keys()
  local at = {}
  for v = 1, self.m.vertex_count do
    local list = at[bkeys[v]]
    if not list then
      list = {}
      at[bkeys[v]] = list
    end
    list[#list + 1] = v - 1
  end
  local near = {}
  for v = 1, self.nv do
    if not map[v] then near[v] = at[gkeys[v]] end
  end
  self.base_of = { map = map, near = near, part = seen,
    beside = self:beside(map, near) }
  return self.base_of
end

-- For each new glTF vertex (1-based) with no base vertex of its own
-- (none in map, none at its position in near): the base vertex of a
-- corner beside it, of a triangle it or a vertex at its position is a
-- corner of (an editor's new vertex: a loop cut, a subdivision), found
-- by spreading out from the vertices that have one, nearest first.
function Job:beside(map, near)
  local _, gkeys = self:position_keys()
  local beside, lonely = {}, {}
  local function own(v)
    return map[v] or (near[v] and near[v][1]) or beside[v]
  end
  for v = 1, self.nv do
    if not own(v) then lonely[#lonely + 1] = v end
  end
  if #lonely == 0 then return beside end
  local tris, at_key = {}, {}
  for _, part in ipairs(self.parts) do
    local idx, first = self:part_indices(part), self:group(part.p).first
    for c = 1, #idx do tris[#tris + 1] = first + idx[c] + 1 end
  end
  for v = 1, self.nv do
    local list = at_key[gkeys[v]]
    if not list then
      list = {}
      at_key[gkeys[v]] = list
    end
    list[#list + 1] = v
  end
  -- rounds: each gives the vertices next to those that had one before it
  while true do
    local found = {}
    for c = 1, #tris, 3 do
      for k = 0, 2 do
        local v = tris[c + k]
        if not own(v) and not found[v] then
          for j = 1, 2 do
            local b = own(tris[c + (k + j) % 3])
            if b then
              found[v] = b
              break
            end
          end
        end
      end
    end
    for _, v in ipairs(lonely) do
      if not own(v) and not found[v] then
        for _, w in ipairs(at_key[gkeys[v]]) do
          if own(w) then
            found[v] = own(w)
            break
          end
        end
      end
    end
    if next(found) == nil then break end
    for v, b in pairs(found) do beside[v] = b end
  end
  return beside
end

-- Does glTF vertex v (1-based) carry the normal of base vertex b
-- (0-based), where the glTF and the base have normals?
function Job:normal_agrees(v, b)
  if not self.m:has("normal") then return true end
  if self.agree_normals == nil then
    local N = self:column("NORMAL", VEC3, ONLY_FLOAT)
    local acc = self.m:attribute("normal")
    self.agree_normals = N and acc and { g = column_values(N),
      b = acc:range() } or false
  end
  local an = self.agree_normals
  if not an then return true end
  local gx, gy, gz = an.g[3 * v - 2], an.g[3 * v - 1], an.g[3 * v]
  local bx, by, bz = an.b[3 * b + 1], an.b[3 * b + 2], an.b[3 * b + 3]
  local d = gx * bx + gy * by + gz * bz
  local l = math.sqrt((gx * gx + gy * gy + gz * gz)
    * (bx * bx + by * by + bz * bz))
  return d >= NORMAL_AGREE * l
end

-- Does glTF vertex v (1-based) carry the UVs and the normal of base
-- vertex b (0-based), leaving out the kind being kept?
function Job:vertex_agrees(v, b, kind)
  local part = self.base_of.part[v]
  if part then
    local skip = tonumber(kind:match("^uv(%d)$"))
    if not uvs_agree(self:part_uvs(part), v - 1 - self:group(part.p).first,
        b, skip) then
      return false
    end
  end
  return kind == "normal" or self:normal_agrees(v, b)
end

-- The glTF's indices (idxs, Job:part_indices's per part), positions and
-- normals as gltf-export wrote them: every vertex is then the base's by
-- its values, without a look at each (an unchanged mesh, the common case).
function Job:exported_as_is(idxs, gpos)
  for k = 1, #self.parts do
    if idxs[k] ~= false then return false end
  end
  if gpos ~= self.E.bytes(self.e_attrs.POSITION) then return false end
  if not self.m:has("normal") then return true end
  local N = self:column("NORMAL", VEC3, ONLY_FLOAT)
  return N == nil or (self.e_attrs.NORMAL ~= nil
    and column_bytes(N) == self.E.bytes(self.e_attrs.NORMAL))
end

-- Is each glTF vertex the base vertex of its number, as same_layout
-- takes it? Equal counts do not say so: an editor may renumber the
-- vertices, and the attributes it dropped would then be kept from other
-- vertices. A vertex is the base's when a glTF triangle that uses it is
-- one of its submesh's, the same numbers in the same order (its values
-- edited in place: moved, other UVs or normal), or else when its
-- position, UVs and normal are those of the base vertex. Any other goes
-- through the triangles' alignment (Job:base_vertices).
function Job:numbered_as_base()
  if #self.groups ~= 1 or self.nv ~= self.m.vertex_count
      or #self.prims ~= #self.subs then
    return false
  end
  local gpos = self.groups[1].position.bytes
  local idxs = self:exported_indices()
  if self:exported_as_is(idxs, gpos) then return true end
  local pos = assert(self.m:attribute("position")):pack()
  local nv, placed, used = self.nv, {}, {}
  for k, part in ipairs(self.parts) do
    local tri, n = part.sub.s:triangles()
    n = tri and n or 0
    local idx = idxs[k]
    if idx == false then -- the export's: the submesh's triangles
      for c = 1, 3 * n do placed[tri[c]] = true end
    else
      local own = {}
      for c = 1, 3 * n, 3 do
        own[(tri[c] * nv + tri[c + 1]) * nv + tri[c + 2]] = true
      end
      for c = 1, #idx, 3 do
        local a, b, d = idx[c] + 1, idx[c + 1] + 1, idx[c + 2] + 1
        if own[(a * nv + b) * nv + d] then
          placed[a], placed[b], placed[d] = true, true, true
        end
      end
      for _, li in ipairs(idx) do
        used[li + 1] = used[li + 1] or part
      end
    end
  end
  -- the others must be the base vertex by their values
  for v = 1, nv do
    if not placed[v] then
      local part = used[v]
      -- a vertex no triangle uses has no UVs to compare
      if position_key(pos, 12 * v - 11) ~= position_key(gpos, 12 * v - 11)
          or (part and not uvs_agree(self:part_uvs(part), v - 1, v - 1))
          or not self:normal_agrees(v, v - 1) then
        return false
      end
    end
  end
  return true
end

-- The base vertex that new glTF vertex v takes kind from, among those at
-- its position (near): any when they hold the same bytes of it, else
-- those whose UVs and normal agree with v's when they hold the same;
-- else the first that agrees (or the first) and false: a guess.
function Job:nearest(v, near, kind, raw, size)
  local function same(list)
    local b0 = list[1] * size
    for i = 2, #list do
      if raw:sub(list[i] * size + 1, list[i] * size + size)
          ~= raw:sub(b0 + 1, b0 + size) then
        return false
      end
    end
    return true
  end
  if same(near) then return near[1], true end
  local agreeing = {}
  for _, b in ipairs(near) do
    if self:vertex_agrees(v, b, kind) then
      agreeing[#agreeing + 1] = b
    end
  end
  if #agreeing > 0 and same(agreeing) then return agreeing[1], true end
  return agreeing[1] or near[1], false
end

-- The base's stored bytes of kind for each glTF vertex: as they are when
-- the vertices are the base's, else from each one's base vertex; and how
-- many vertices took them from a base vertex nothing singled out.
function Job:from_base(kind, what)
  local m = self.m
  local raw = assert(m:attribute(kind)):raw()
  if self.same_layout then return raw, 0, 0 end
  local size = #raw // m.vertex_count
  local bv = self:base_vertices()
  local out, guessed, besides, choice = {}, 0, 0, {}
  for v = 1, self.nv do
    local b = bv.map[v]
    if not b and bv.near[v] then
      local sure
      b, sure = self:nearest(v, bv.near[v], kind, raw, size)
      if not sure then guessed = guessed + 1 end
    end
    if not b and bv.beside[v] then
      b, besides = bv.beside[v], besides + 1
    end
    if not b then
      local gpos = column_bytes(self:column("POSITION", VEC3, ONLY_FLOAT))
      local x, y, z = string.unpack("<fff", gpos, 12 * v - 11)
      -- a new vertex (an extrusion) has none: with TANGENT exported, A
      -- and B are derived instead, so say how
      fail("%s: vertex %d: no %s in the glTF, and no vertex of the base"
        .. " lies at its position (%s, %s, %s) or beside it%s", self.where,
        v, what,
        rsxmesh.fmt(x), rsxmesh.fmt(y), rsxmesh.fmt(z),
        kind:match("^tangent") and "; export the tangents too (TANGENT:"
          .. " Blender's Tangents option) and A and B are derived from them"
          or "")
    end
    out[v], choice[v] = raw:sub(b * size + 1, b * size + size), b
  end
  return table.concat(out), guessed, besides, choice
end

-- A kind the glTF lacks: the base's bytes, and a note when the export
-- had it (an editor dropped it), saying how many new vertices' were a
-- guess.
function Job:keep(kind, what, had)
  if not self.same_layout then
    local bytes, guessed, besides = self:from_base(kind, what)
    self.t[kind] = bytes
    local function add(why)
      what = what:match("%)$") and what:sub(1, -2) .. ", and " .. why .. ")"
        or what .. " (" .. why .. ")"
    end
    if guessed > 0 then
      add(string.format("%s a guess: the base vertices at %s"
        .. " position differ in it, and %s UVs and normal single none out",
        guessed == 1 and "1 new vertex's was" or guessed
        .. " new vertices' were", guessed == 1 and "its" or "their",
        guessed == 1 and "its" or "their"))
    end
    if besides > 0 then
      add(string.format("%s from the base vertex of a corner beside %s",
        besides == 1 and "1 new vertex's" or besides .. " new vertices'",
        besides == 1 and "it" or "them"))
    end
  end
  if had or not self.same_layout then self:note("kept", what) end
end

-- The least magnitude that float32 rounds to infinity (FLT_MAX and half
-- its last place, which rounds to even: up).
local F32_INFINITE = 2^128 - 2^103

function Job:positions()
  local P = self:column("POSITION", VEC3, ONLY_FLOAT)
  if self.world or not self:as_exported(P, "POSITION") then
    local v = column_values(P)
    v = self.world and transform(self.world, v, "position") or v
    -- gltf-export refuses a mesh whose positions are not finite, so
    -- none came from the base: an edit (a huge scale) made them
    for i = 1, #v do
      if not (math.abs(v[i]) < F32_INFINITE) then
        local k = (i - 1) // 3 * 3
        local function f(x)
          return math.abs(x) < F32_INFINITE and rsxmesh.fmt(x)
            or string.format("%.9g", x)
        end
        fail("%s: vertex %d: POSITION (%s, %s, %s)%s is not finite as"
          .. " float32", self.where, k // 3 + 1, f(v[k + 1]), f(v[k + 2]),
          f(v[k + 3]), self.world and " with the node's transform" or "")
      end
    end
    self.t.position = v
    self:changed("position", self.world
      and "positions (the node's transform baked in)" or "positions")
  end
end

function Job:normals()
  if not self.m:has("normal") then return end
  local N = self:column("NORMAL", VEC3, ONLY_FLOAT)
  if not N then
    self:keep("normal", "normals (no NORMAL)", true)
  elseif self.world or not self:as_exported(N, "NORMAL") then
    local v = column_values(N)
    self.t.normal = self.world and transform(self.world, v, "normal") or v
    self:changed("normal", "normals")
  end
end

function Job:colours()
  if not self.m:has("colour") then return end
  local C = self:column("COLOR_0", { VEC3 = true, VEC4 = true },
    COLOUR_CTYPES)
  if not C then
    self:keep("colour", "colours (no COLOR_0)", true)
  elseif not self:as_exported(C, "COLOR_0") then
    if #C == 1 and C[1].ctype == UNSIGNED_BYTE and C[1].type == "VEC4" then
      self.t.colour = C[1].bytes -- the stored bytes as they are
    else
      local v = column_values(C)
      if C[1].type == "VEC3" then -- opaque
        local rgba = {}
        for i = 0, self.nv - 1 do
          rgba[4 * i + 1], rgba[4 * i + 2], rgba[4 * i + 3], rgba[4 * i + 4]
            = v[3 * i + 1], v[3 * i + 2], v[3 * i + 3], 1
        end
        v = rgba
      end
      self.t.colour = v
    end
    local ct = C[1].ctype
    self:changed("colour", ct == UNSIGNED_BYTE and "colours"
      or string.format("colours (COLOR_0 as %s%s, not as exported:"
      .. " Blender 3.4 scrambles colours, check them)", CTYPE[ct].name,
      C[1].normalized and " normalized" or ""))
  end
end

-- A and B from TANGENT and NORMAL (through the node's transform), once;
-- nil when the glTF lacks either.
function Job:derived_frames()
  if self.frames ~= nil then return self.frames or nil end
  local T = self:column("TANGENT", VEC4, ONLY_FLOAT)
  local N = self:column("NORMAL", VEC3, ONLY_FLOAT)
  if not T or not N then
    self.frames = false
    return nil
  end
  local Tv, Nv = column_values(T), column_values(N)
  if self.world then
    local xyz = {}
    for i = 0, self.nv - 1 do
      xyz[3 * i + 1], xyz[3 * i + 2], xyz[3 * i + 3] =
        Tv[4 * i + 1], Tv[4 * i + 2], Tv[4 * i + 3]
    end
    xyz = transform(self.world, xyz, "vector")
    for i = 0, self.nv - 1 do
      Tv[4 * i + 1], Tv[4 * i + 2], Tv[4 * i + 3] =
        xyz[3 * i + 1], xyz[3 * i + 2], xyz[3 * i + 3]
    end
    Nv = transform(self.world, Nv, "normal")
  end
  local A, B = frames_from_tangent(Tv, Nv, self.nv)
  self.frames = { tangent_a = A, tangent_b = B }
  return self.frames
end

-- gltf-export's raw attributes (gltf.RAW), by kind, each with the set of
-- its glTF type (expect's form).
local RAW_OF = {}
for _, r in ipairs(gltf.RAW) do
  RAW_OF[r.kind] = { kind = r.kind, name = r.name, what = r.what,
    type = { [r.type] = true } }
end

local FRAMES = { RAW_OF.tangent_a, RAW_OF.tangent_b }

function Job:tangents()
  for _, f in ipairs(FRAMES) do
    if self.m:has(f.kind) then
      local V = self:column(f.name, VEC3, ONLY_FLOAT)
      if V and (self.world or not self:as_exported(V, f.name)) then
        local v = column_values(V)
        self.t[f.kind] = self.world and transform(self.world, v, "vector")
          or v
        self:changed(f.kind, f.what)
      elseif not V and not self.same_layout then
        -- an editor rebuilt the mesh and dropped it: each vertex's base
        -- vertex's (its stock length kept), turned as the positions were
        self:kept_frame(f)
      elseif not V and self.e_attrs[f.name] then
        -- a script dropped it: from TANGENT, else from the base
        local d = self:derived_frames()
        if d then
          self.t[f.kind] = d[f.kind]
          self:note("derived", f.what .. " from TANGENT and NORMAL (no "
            .. f.name .. ")")
        else
          self:keep(f.kind, f.what .. " (no " .. f.name .. " or TANGENT)",
            true)
        end
      end
    end
  end
end

-- Solve the 3x3 system m x = y (m row-major, 9 numbers): x, or nil when
-- m is singular.
local function solve3(m, y)
  local a = { { m[1], m[2], m[3], y[1] }, { m[4], m[5], m[6], y[2] },
    { m[7], m[8], m[9], y[3] } }
  for c = 1, 3 do
    local p = c
    for r = c + 1, 3 do
      if math.abs(a[r][c]) > math.abs(a[p][c]) then p = r end
    end
    if math.abs(a[p][c]) < 1e-12 then return nil end
    a[c], a[p] = a[p], a[c]
    for r = 1, 3 do
      if r ~= c then
        local k = a[r][c] / a[c][c]
        for j = c, 4 do a[r][j] = a[r][j] - k * a[c][j] end
      end
    end
  end
  return { a[1][4] / a[1][1], a[2][4] / a[2][2], a[3][4] / a[3][3] }
end

-- The linear part (row-major, 9 numbers) of the transform that takes the
-- base's positions to the glTF's (the node's transform applied), fitted
-- over the vertices the triangles' alignment paired (Job:align), with
-- the normals as rows too (a flat mesh's own positions say nothing of
-- the direction across it). nil when the pairs are too few or the fit
-- misses a position by more than 1e-4 of the mesh's size (an edit in
-- edit mode, not a transform), and false when it is the identity (a
-- move): the base's tangent vectors then stand as they are.
function Job:fitted()
  if self.fit ~= nil then return self.fit end
  self.fit = false
  local map = self:base_vertices().map
  local P = column_values(self:column("POSITION", VEC3, ONLY_FLOAT))
  if self.world then P = transform(self.world, P, "position") end
  local N = self:column("NORMAL", VEC3, ONLY_FLOAT)
  N = N and column_values(N)
  if N and self.world then N = transform(self.world, N, "normal") end
  local bp = self:base_range("position")
  local bn = self.m:has("normal") and N and self:base_range("normal")
  local pairs_, cb, cg = {}, { 0, 0, 0 }, { 0, 0, 0 }
  for v, b in pairs(map) do
    pairs_[#pairs_ + 1] = { v - 1, b }
    for i = 1, 3 do
      cb[i], cg[i] = cb[i] + bp[3 * b + i], cg[i] + P[3 * (v - 1) + i]
    end
  end
  local n = #pairs_
  if n < 3 then
    self.fit = nil
    return nil
  end
  for i = 1, 3 do cb[i], cg[i] = cb[i] / n, cg[i] / n end
  local size = 0
  for _, q in ipairs(pairs_) do
    for i = 1, 3 do size = math.max(size, math.abs(bp[3 * q[2] + i] - cb[i]))
    end
  end
  -- sums of x x^T and y x^T over the rows
  local xx, yx = { 0, 0, 0, 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0, 0, 0, 0 }
  local function row(x, y)
    for r = 1, 3 do
      for c = 1, 3 do
        xx[3 * r + c - 3] = xx[3 * r + c - 3] + x[r] * x[c]
        yx[3 * r + c - 3] = yx[3 * r + c - 3] + y[r] * x[c]
      end
    end
  end
  for _, q in ipairs(pairs_) do
    local v, b = q[1], q[2]
    row({ bp[3 * b + 1] - cb[1], bp[3 * b + 2] - cb[2],
          bp[3 * b + 3] - cb[3] },
      { P[3 * v + 1] - cg[1], P[3 * v + 2] - cg[2], P[3 * v + 3] - cg[3] })
    if bn then
      -- light: enough to settle a flat mesh, too little to pull a solid
      -- one's fit off its positions (Blender's normals are re-derived)
      -- (directions: a stored normal's length is not always 1)
      local lb = math.sqrt(bn[3 * b + 1] ^ 2 + bn[3 * b + 2] ^ 2
        + bn[3 * b + 3] ^ 2)
      local lg = math.sqrt(N[3 * v + 1] ^ 2 + N[3 * v + 2] ^ 2
        + N[3 * v + 3] ^ 2)
      if lb > 0 and lg > 0 then
        local wb, wg = 1e-3 * size / lb, 1e-3 * size / lg
        row({ wb * bn[3 * b + 1], wb * bn[3 * b + 2], wb * bn[3 * b + 3] },
          { wg * N[3 * v + 1], wg * N[3 * v + 2], wg * N[3 * v + 3] })
      end
    end
  end
  -- L xx = yx, row by row of L: xx (symmetric) l_r = (yx row r)
  local L = {}
  for r = 1, 3 do
    local l = solve3(xx, { yx[3 * r - 2], yx[3 * r - 1], yx[3 * r] })
    if not l then
      self.fit = nil
      return nil
    end
    L[3 * r - 2], L[3 * r - 1], L[3 * r] = l[1], l[2], l[3]
  end
  local worst = 0
  for _, q in ipairs(pairs_) do
    local v, b = q[1], q[2]
    local x = { bp[3 * b + 1] - cb[1], bp[3 * b + 2] - cb[2],
      bp[3 * b + 3] - cb[3] }
    for r = 1, 3 do
      local y = L[3 * r - 2] * x[1] + L[3 * r - 1] * x[2] + L[3 * r] * x[3]
      worst = math.max(worst, math.abs(y - (P[3 * v + r] - cg[r])))
    end
  end
  if worst > 1e-4 * math.max(size, 1) then
    self.fit = nil
    return nil
  end
  local identity = true
  for i = 1, 9 do
    local want = (i == 1 or i == 5 or i == 9) and 1 or 0
    identity = identity and math.abs(L[i] - want) <= 1e-4
  end
  self.fit = not identity and L or false
  self.fit_pairs = n
  return self.fit
end

-- Tangent vector f (FRAMES) of a rebuilt mesh that lacks it: each glTF
-- vertex takes its base vertex's (Job:keep), turned and scaled by the
-- transform fitted to the positions when there is one, its length kept.
function Job:kept_frame(f)
  local fit = self:fitted()
  if not fit then
    self:keep(f.kind, f.what .. " (no " .. f.name .. (self:column("TANGENT",
      VEC4, ONLY_FLOAT) and "; its stock length kept rather than derived"
      .. " from TANGENT" or " or TANGENT") .. ")", true)
    return
  end
  local _, _, _, choice = self:from_base(f.kind, f.what)
  local base = self:base_range(f.kind)
  local out = {}
  for v = 0, self.nv - 1 do
    local b = choice[v + 1]
    local x, y, z = base[3 * b + 1], base[3 * b + 2], base[3 * b + 3]
    local X = fit[1] * x + fit[2] * y + fit[3] * z
    local Y = fit[4] * x + fit[5] * y + fit[6] * z
    local Z = fit[7] * x + fit[8] * y + fit[9] * z
    local l0 = math.sqrt(x * x + y * y + z * z)
    local l1 = math.sqrt(X * X + Y * Y + Z * Z)
    local k = l1 > 0 and l0 / l1 or 0
    out[3 * v + 1], out[3 * v + 2], out[3 * v + 3] = X * k, Y * k, Z * k
  end
  self.t[f.kind] = out
  self:note("derived", string.format("%s: each vertex's base vertex's,"
    .. " turned by the transform fitted to %d vertices' positions (no %s)",
    f.what, self.fit_pairs, f.name))
end

-- The glTF attributes that carry stored UV set `set`: each primitive's
-- TEXCOORD_n for the logical UVs its submesh's selectors route to the
-- set (up to the first absent one, as gltf-export writes them), and
-- _UV_SET_n; each with what the export wrote for it (e).
function Job:uv_sources(set)
  local sources = {}
  for _, part in ipairs(self.parts) do
    local prim, s = part.prim, part.sub.s
    local ep = part.e and part.e.attributes or {}
    for logical = 0, 3 do
      local routed = s:uv_set(logical)
      if routed == nil then break end
      local name = "TEXCOORD_" .. logical
      if routed == set and prim.attributes[name] ~= nil then
        sources[#sources + 1] = { p = part.p, sub = part.sub, part = part,
          name = name, i = prim.attributes[name], e = ep[name] }
      end
    end
    local name = gltf.uv_set_attribute(set)
    if prim.attributes[name] ~= nil then
      sources[#sources + 1] = { p = part.p, sub = part.sub, part = part,
        name = name, i = prim.attributes[name], e = ep[name] }
    end
  end
  return sources
end

-- The accessor of a UV source, checked against its primitive's vertices.
function Job:uv_accessor(src)
  local grp = self:group(src.p)
  local r = self:accessor(src.i, src.p, src.name)
  expect(r, VEC2, UV_CTYPES)
  if r.count ~= grp.count then
    fail("%s: count %d where POSITION has %d", r.label, r.count, grp.count)
  end
  return r
end

local function differ(a, b)
  return a ~= b and (a == a or b == b) -- NaN is NaN's equal here
end

-- Stored set `set` vertex by vertex: each source gives the vertices that
-- its submesh's triangles use, and sources that give one vertex must
-- agree (else an error naming the submesh and the vertex); a vertex no
-- triangle uses takes its group's first source. nil when a group has no
-- source at all; else the values and, per vertex (1-based), the name of
-- the attribute that gave them.
function Job:uv_column(set, sources)
  local out, claim, read, names = {}, {}, {}, {}
  for _, src in ipairs(sources) do
    local V = read[src.i]
    if not V then
      V = values(self:uv_accessor(src))
      read[src.i] = V
    end
    local first = self:group(src.p).first
    for _, li in ipairs(self:part_indices(src.part)) do
      local v, x, y = first + li, V[2 * li + 1], V[2 * li + 2]
      local known = claim[v]
      if not known then
        claim[v], out[2 * v + 1], out[2 * v + 2] = src, x, y
      elseif differ(out[2 * v + 1], x) or differ(out[2 * v + 2], y) then
        fail("%s: submesh %d: vertex %d: %s (%s, %s) and %s (%s, %s) feed"
          .. " the one stored UV set %d and differ", self.where,
          src.sub.index, v + 1, known.name, rsxmesh.fmt(out[2 * v + 1]),
          rsxmesh.fmt(out[2 * v + 2]), src.name, rsxmesh.fmt(x),
          rsxmesh.fmt(y), set)
      end
    end
  end
  for _, grp in ipairs(self.groups) do
    local fill
    for _, src in ipairs(sources) do
      if self:group(src.p) == grp then
        fill = src
        break
      end
    end
    for v = grp.first, grp.first + grp.count - 1 do
      if claim[v] then
        names[v + 1] = claim[v].name
      else
        if not fill then return nil end
        local li, F = v - grp.first, read[fill.i]
        out[2 * v + 1], out[2 * v + 2] = F[2 * li + 1], F[2 * li + 2]
        names[v + 1] = fill.name
      end
    end
  end
  return out, names
end

-- Are the sources the very bytes gltf-export wrote (the base's vertices)?
function Job:uv_as_exported(sources)
  if not self.same_layout then return false end
  for _, src in ipairs(sources) do
    local r = self:uv_accessor(src)
    if not (src.e and r.bytes == self.E.bytes(src.e)) then return false end
  end
  return true
end

function Job:uv_sets()
  for set = 0, 3 do
    local kind = "uv" .. set
    if self.m:has(kind) then
      local sources = self:uv_sources(set)
      local v, names = false, nil
      if #sources > 0 and not self:uv_as_exported(sources) then
        v, names = self:uv_column(set, sources)
      end
      if v then
        self:storable(kind, names, v, 2)
        self.t[kind] = v
        self:changed(kind, "stored UV set " .. set)
      elseif #sources == 0 or v == nil then
        self:keep(kind, "stored UV set " .. set, #sources > 0
          or exported_set(self.E, self.subs, set))
      end
    end
  end
end

-- The attributes that come back only as themselves.
local RAW = { RAW_OF.extra_a, RAW_OF.extra_b, RAW_OF.s32k2, RAW_OF.half4 }

-- Refuse a value of v (flat, n a vertex) that the stored type would
-- change past recognition: S32K2 holds integers of -32768..32767 (the
-- encoder would round and clamp), a half no finite value beyond 65504
-- (it would become infinity). name: the glTF attribute, or a table of
-- one per vertex (1-based).
function Job:storable(kind, name, v, n)
  if kind ~= "s32k2" and self.m.format:info(kind).type ~= "SF" then
    return
  end
  local rule = kind == "s32k2" and "is not an integer of -32768..32767"
    or "is past the largest half, 65504 (it would be stored as infinity)"
  for i = 1, #v do
    local x = v[i]
    local bad
    if kind == "s32k2" then
      bad = not (x >= -32768 and x <= 32767 and x == math.floor(x))
    else
      bad = math.abs(x) < math.huge
        and rsxmesh.to_half(x) & 0x7FFF == 0x7C00
    end
    if bad then
      local k = (i - 1) // n * n
      local shown = {}
      for c = 1, n do shown[c] = rsxmesh.fmt(v[k + c]) end
      fail("%s: vertex %d: %s (%s): %s %s", self.where, k // n + 1,
        type(name) == "table" and name[k // n + 1] or name,
        table.concat(shown, ", "), rsxmesh.fmt(x), rule)
    end
  end
end

function Job:raw_kinds()
  for _, f in ipairs(RAW) do
    if self.m:has(f.kind) then
      local V = self:column(f.name, f.type, ONLY_FLOAT)
      if not V then
        self:keep(f.kind, f.what .. " (no " .. f.name .. ")",
          self.e_attrs[f.name] ~= nil)
      elseif not self:as_exported(V, f.name) then
        local v = column_values(V)
        self:storable(f.kind, f.name, v, COMPONENTS[V[1].type])
        self.t[f.kind] = v
        self:changed(f.kind, f.what)
      end
    end
  end
end

-- The 0-based indices of glTF primitive p, checked (read once). With
-- exported (the bytes gltf-export wrote for it), false when they are
-- those bytes: they need no reading.
function Job:primitive_indices(p, exported)
  self.indices_of = self.indices_of or {}
  self.exported_of = self.exported_of or {}
  if self.indices_of[p] then return self.indices_of[p] end
  if exported and self.exported_of[p] == exported then return false end
  local prim, grp = self.prims[p], self:group(p)
  local idx
  if prim.indices == nil then
    if grp.count % 3 ~= 0 then
      fail("%s: primitive %d: %d vertices without indices are not whole"
        .. " triangles", self.where, p, grp.count)
    end
    idx = {}
    for i = 1, grp.count do idx[i] = i - 1 end
  else
    local r = self:accessor(prim.indices, p, "indices")
    expect(r, { SCALAR = true }, INDEX_CTYPES)
    if r.count % 3 ~= 0 then
      fail("%s: count %d is not a whole number of triangles", r.label,
        r.count)
    end
    if exported and r.ctype == UNSIGNED_INT and r.bytes == exported then
      self.exported_of[p] = exported
      return false
    end
    idx = values(r)
    for i, v in ipairs(idx) do
      if v >= grp.count then
        fail("%s: index %d is %d, not below the %d vertices of POSITION",
          r.label, i - 1, v, grp.count)
      end
    end
  end
  self.indices_of[p] = idx
  return idx
end

-- The indices of a part: its primitive's, or the triangles split to it.
function Job:part_indices(part, exported)
  local idx = self:primitive_indices(part.p, exported)
  if not idx or not part.tris then return idx end
  local out = {}
  for _, i in ipairs(part.tris) do
    out[#out + 1], out[#out + 2], out[#out + 3] =
      idx[3 * i + 1], idx[3 * i + 2], idx[3 * i + 3]
  end
  return out
end

-- Each part's indices (Job:part_indices) given the export's, false where
-- they are its bytes: worked out once, for numbered_as_base and
-- Job:triangles.
function Job:exported_indices()
  if not self.idxs then
    local idxs = {}
    for k, part in ipairs(self.parts) do
      idxs[k] = self:part_indices(part, self.E.bytes(part.e.indices))
    end
    self.idxs = idxs
  end
  return self.idxs
end

-- little-endian u32 bytes of a table of integers, as gltf-export writes
local function u32_bytes(idx)
  local u = {}
  for i = 1, #idx, CHUNK do
    local j = math.min(i + CHUNK - 1, #idx)
    u[#u + 1] = string.pack("<" .. ("I4"):rep(j - i + 1),
      table.unpack(idx, i, j))
  end
  return table.concat(u)
end

-- A list of triangles (flat, 0-based) as a set: each rotated to start at
-- its least corner, the winding kept, then sorted.
local function triangle_set(idx)
  local keys = {}
  for i = 1, #idx, 3 do
    keys[#keys + 1] = string.pack(">I4I4I4",
      least_rotation(idx[i], idx[i + 1], idx[i + 2]))
  end
  table.sort(keys)
  return table.concat(keys)
end

-- The integers of little-endian u32 bytes.
local function u32_values(bytes)
  local out = {}
  for i = 1, #bytes // 4, CHUNK do
    local j = math.min(i + CHUNK - 1, #bytes // 4)
    table.move({ string.unpack("<" .. ("I4"):rep(j - i + 1), bytes,
      4 * i - 3) }, 1, j - i + 1, i, out)
  end
  return out
end

-- Each submesh's triangles the export's as a set (the same triangles,
-- the same winding, in any order and from any corner) keep the base's
-- index buffer (strips, restarts); others make a triangle list of the
-- glTF's triangles, u16 when the vertices allow.
function Job:triangles()
  local same = self.same_layout
  -- same_layout: numbered_as_base has worked them out
  local idxs = same and self:exported_indices()
  for k, part in ipairs(self.parts) do
    if not same then break end
    local exported = self.E.bytes(part.e.indices)
    local idx = idxs[k]
    same = idx == false or u32_bytes(idx) == exported
      or (#idx == #exported // 4
        and triangle_set(idx) == triangle_set(u32_values(exported)))
  end
  if same then return end
  local all, ranges = {}, {}
  for _, part in ipairs(self.parts) do
    local idx = self:part_indices(part)
    local first = self:group(part.p).first
    ranges[part.sub.index] = { first_index = #all, index_count = #idx }
    for i = 1, #idx do all[#all + 1] = idx[i] + first + 1 end
  end
  local list = {}
  for i = 1, self.m.submesh_count do
    -- a submesh without triangles had no primitive
    list[i] = ranges[i] or { first_index = 0, index_count = 0 }
  end
  local t = self.t
  t.index_size = self.nv <= 0xFFFF and 2 or 4
  t.indices = rsxmesh.indices(t.index_size, all)
  t.primitive = "triangles"
  t.submeshes = list
  self:changed(nil, string.format("triangles (%d, a triangle list of"
    .. " u%d indices)", #all // 3, 8 * t.index_size))
end

-- Are the mesh's positions and logical UVs the base's, corner by corner,
-- exactly (float32; a half as a half), with no node transform but the
-- identity? The triangles may come in any order, from any corner (the
-- winding kept), their vertices split or numbered anew: an editor does
-- all that to a mesh it was never asked to change, and re-derives its
-- normals, tangents and colours too. true, or false and why not.
function Job:untouched()
  if self.world then return false, "the node's transform" end
  local pos = assert(self.m:attribute("position")):pack()
  for _, part in ipairs(self.parts) do
    local s = part.sub.s
    local tri, n = s:triangles()
    n = tri and n or 0
    local idx = self:part_indices(part)
    if #idx ~= 3 * n then
      return false, string.format("submesh %d: %d triangles where the"
        .. " base has %d", part.sub.index, #idx // 3, n)
    end
    -- the logical UVs the submesh routes, as gltf-export writes them
    local uvs = {}
    for logical = 0, 3 do
      local set = s:uv_set(logical)
      if set == nil then break end
      local acc = self.m:attribute("uv" .. set)
      if acc then
        local i = part.prim.attributes["TEXCOORD_" .. logical]
        if i == nil then
          return false, string.format("submesh %d: no TEXCOORD_%d",
            part.sub.index, logical)
        end
        uvs[#uvs + 1] = { b = self:base_range("uv" .. set),
          half = self.m.format:info("uv" .. set).type == "SF",
          g = values(self:uv_accessor({ p = part.p, i = i,
            name = "TEXCOORD_" .. logical })) }
      end
    end
    local gpos = self:group(part.p).position.bytes
    local function corner(bytes, at, v, which)
      local key = position_key(bytes, at)
      for _, u in ipairs(uvs) do
        local list = u[which]
        key = key .. uv_key(list[2 * v + 1], list[2 * v + 2], u.half)
      end
      return key
    end
    local base, mine = {}, {}
    for k = 0, n - 1 do
      local a, b, c = tri[3 * k + 1] - 1, tri[3 * k + 2] - 1,
        tri[3 * k + 3] - 1
      local x, y, z = least_rotation(corner(pos, 12 * a + 1, a, "b"),
        corner(pos, 12 * b + 1, b, "b"), corner(pos, 12 * c + 1, c, "b"))
      base[k + 1] = x .. y .. z
      a, b, c = idx[3 * k + 1], idx[3 * k + 2], idx[3 * k + 3]
      x, y, z = least_rotation(corner(gpos, 12 * a + 1, a, "g"),
        corner(gpos, 12 * b + 1, b, "g"), corner(gpos, 12 * c + 1, c, "g"))
      mine[k + 1] = x .. y .. z
    end
    table.sort(base)
    table.sort(mine)
    for k = 1, n do
      if base[k] ~= mine[k] then
        return false, string.format("submesh %d: the positions or UVs of"
          .. " its triangles", part.sub.index)
      end
    end
  end
  return true
end

-- Does the glTF hold the base's vertices, number for number, and the
-- export's very index bytes? Then no editor rebuilt the mesh (Blender
-- splits vertices and writes its own indices): its values were edited in
-- place, by a script, and each attribute is compared on its own.
function Job:as_written()
  if not self.same_layout then return false end
  for _, idx in ipairs(self:exported_indices()) do
    if idx ~= false then return false end
  end
  return true
end

-- The decoded values of a base attribute (acc:range()), read once.
function Job:base_range(kind)
  self.ranges = self.ranges or {}
  local r = self.ranges[kind]
  if not r then
    r = assert(self.m:attribute(kind)):range()
    self.ranges[kind] = r
  end
  return r
end

local STEPS = { "primitives", "positions", "normals", "colours",
  "tangents", "uv_sets", "raw_kinds", "triangles" }

-- Do the copy's stored bytes of kind differ from the base's: the
-- vertices' own, or (other vertices) a vertex's from those of the base
-- vertex it stands for, or of every base vertex at its position?
function Job:differs(copy, kind)
  local raw = assert(self.m:attribute(kind)):raw()
  local new = assert(copy:attribute(kind)):raw()
  if self.same_layout then return new ~= raw end
  local size = #raw // self.m.vertex_count
  local bv = self:base_vertices()
  for v = 1, self.nv do
    local mine = new:sub(v * size - size + 1, v * size)
    local list = bv.map[v] and { bv.map[v] } or bv.near[v]
      or { bv.beside[v] }
    local found = false
    for _, b in ipairs(list) do
      found = found or raw:sub(b * size + 1, b * size + size) == mine
    end
    if not found then return true end
  end
  return false
end

-- Import glTF mesh g into base mesh m. Returns the mesh to write (m
-- itself when its bytes come out the same) and its report.
local function import_mesh(file, g, m, world)
  local job = new_job(file, g, m, world)
  job:primitives()
  job.report.state = "unchanged"
  local same, why = false, nil
  if not job:as_written() then
    same, why = job:untouched()
  end
  if same then
    job:note("kept", "every byte (positions and UVs are the base's)")
    return m, job.report
  end
  job.report.why = why
  for k = 2, #STEPS do job[STEPS[k]](job) end
  if next(job.t) == nil then return m, job.report end
  local copy, err = m:with(job.t)
  if not copy then fail("%s: %s", job.where, err) end
  -- what was encoded again into the very bytes the base has is no change
  local changed = not job.same_layout
  for _, c in ipairs(job.changes) do
    if not c.kind or job:differs(copy, c.kind) then
      job:note("changed", c.text)
      changed = true
    end
  end
  for _, kind in ipairs(rsxmesh.kinds) do
    changed = changed or (job.t[kind] ~= nil and job:differs(copy, kind))
  end
  if not changed then return m, job.report end
  job.report.state = "changed"
  return copy, job.report
end

-- ------------------------------------------------------------- records

-- The facts of a mesh that a record of the game may hold: counts, index
-- size, primitive, bounds (min, max: x, y, z) and, per submesh, its
-- range of indices and of vertices (first_vertex 1-based, the least its
-- triangles use; vertex_count up to the greatest).
local function mesh_facts(m)
  local f = { name = m.name, vertex_count = m.vertex_count,
    index_count = m.index_count, index_size = m.index_size,
    primitive = m.primitive, submesh_count = m.submesh_count,
    submeshes = {} }
  local pos = m:attribute("position")
  if pos and m.vertex_count > 0 then f.min, f.max = pos:bounds() end
  for i, s in m:submeshes() do
    local sf = { index = i, first_index = s.first_index,
      index_count = s.index_count }
    local tri = s:triangles()
    if tri and #tri > 0 then
      local lo, hi = math.huge, 0
      for _, v in ipairs(tri) do
        if v < lo then lo = v end
        if v > hi then hi = v end
      end
      sf.first_vertex, sf.vertex_count = lo, hi - lo + 1
    end
    f.submeshes[i] = sf
  end
  return f
end

-- The facts a --records hook receives of mesh m (doc/scripts.md).
import.mesh_facts = mesh_facts

-- What the records of base mesh m would say wrongly of its copy: a list
-- of "vertex count 4 -> 6"-like texts, empty when the mesh's counts, index
-- size, primitive and submesh ranges are the base's.
local function stale_facts(m, copy)
  local list = {}
  for _, k in ipairs({ "vertex_count", "index_count", "index_size",
      "primitive" }) do
    if m[k] ~= copy[k] then
      list[#list + 1] = string.format("%s %s -> %s", k:gsub("_", " "),
        tostring(m[k]), tostring(copy[k]))
    end
  end
  local a, b = m:attribute("position"), copy:attribute("position")
  if a and b and m.vertex_count > 0 and copy.vertex_count > 0 then
    local lo0, hi0 = a:bounds()
    local lo1, hi1 = b:bounds()
    for i = 1, 3 do
      if lo0[i] ~= lo1[i] or hi0[i] ~= hi1[i] then
        list[#list + 1] = "bounds"
        break
      end
    end
  end
  for i, s in m:submeshes() do
    local c = copy:submesh(i)
    if s.first_index ~= c.first_index or s.index_count ~= c.index_count then
      list[#list + 1] = string.format("submesh %d indices %d+%d -> %d+%d",
        i, s.first_index, s.index_count, c.first_index, c.index_count)
    end
  end
  return list
end

-- The copy with its records as hook (a table: meta = function(bytes,
-- facts, base), submesh = function(bytes, facts, base, mesh_facts)) makes
-- them; a function may return nil to keep the record. where names the
-- mesh in messages. The new mesh, and what was rewritten.
local function rewrite_records(copy, m, hook, where, hook_name)
  local facts, base = mesh_facts(copy), mesh_facts(m)
  local function call(fn, what, ...)
    local ok, r = pcall(fn, ...)
    if not ok then
      fail("%s: %s: the %s record: %s", where, hook_name, what, tostring(r))
    end
    if r ~= nil and type(r) ~= "string" then
      fail("%s: %s: the %s record: a string of bytes or nil expected, got"
        .. " %s", where, hook_name, what, type(r))
    end
    return r
  end
  local done = {}
  local meta = copy:record():bytes()
  if hook.meta then
    local r = call(hook.meta, "metadata", meta, facts, base)
    if r and r ~= meta then
      meta = r
      done[#done + 1] = "metadata"
    end
  end
  local subs = {}
  for i, s in copy:submeshes() do
    local rec = s:record():bytes()
    if hook.submesh then
      local r = call(hook.submesh, "submesh " .. i, rec, facts.submeshes[i],
        base.submeshes[i], facts)
      if r and r ~= rec then
        rec = r
        done[#done + 1] = "submesh " .. i
      end
    end
    subs[i] = { record = rec, first_index = s.first_index,
      index_count = s.index_count,
      material = s.material and s.material.index or nil }
  end
  if #done == 0 then return copy, done end
  local built, err = rsxmesh.mesh{ name = copy.name, meta = meta,
    vertex_count = copy.vertex_count, mmp = copy:stream("mmp"),
    mmp_stride = copy.mmp_stride, mgp = copy:stream("mgp"),
    mgp_stride = copy.mgp_stride, indices = copy:index_bytes(),
    index_size = copy.index_size, primitive = copy.primitive,
    submeshes = subs }
  if not built then
    fail("%s: %s: the records it made are refused: %s", where, hook_name,
      tostring(err))
  end
  return built, done
end

-- --------------------------------------------------------------- bundle

-- The name a base mesh has in a glTF: gltf-export writes a name that is
-- not UTF-8 byte by byte as Latin-1.
local function gltf_name(name)
  return json.utf8(name)
end

-- Import the glTF file (from import.read) into base (a bundle): opts.only
-- (a set of mesh names, or nil for all), opts.progress(k, n) (called
-- before base mesh k of n), opts.records (a hook's table, { meta =
-- function(bytes, facts, base_facts), submesh = function(bytes, facts,
-- base_facts, mesh_facts) }, each returning a record's new bytes or nil;
-- opts.records_name names it in messages). A changed mesh's report has
-- stale (what its records may say wrongly) and, with a hook, records
-- (those it rewrote). Returns { writer =, meshes =, kept = (every
-- mesh is the base's own: the base file is the output) } or nil and a
-- message.
function import.bundle(file, base, opts)
  opts = opts or {}
  local r, err = guarded(function()
    local t = file.json
    local world = mesh_transforms(file)
    -- base meshes by name, in order: the k-th glTF mesh named X is the
    -- k-th base mesh named X
    local by_name = {}
    for k, m in base:meshes() do
      local key = gltf_name(m.name)
      by_name[key] = by_name[key] or {}
      table.insert(by_name[key], k)
    end
    local taken = {}
    local match = {} -- base mesh number -> glTF mesh index
    if t.meshes ~= nil and (type(t.meshes) ~= "table"
        or (#t.meshes == 0 and next(t.meshes) ~= nil)) then
      fail("%s: meshes is not an array", file.path)
    end
    for gi, g in ipairs(t.meshes or {}) do
      local name = type(g) == "table" and g.name or nil
      if type(name) ~= "string" then
        fail("%s: glTF mesh %d has no name to match a base mesh by",
          file.path, gi - 1)
      end
      if not opts.only or opts.only[name] then
        local list = by_name[name]
        local n = (taken[name] or 0) + 1
        taken[name] = n
        if not list or not list[n] then
          fail("%s: glTF mesh %d (%s) matches no mesh of %s", file.path,
            gi - 1, name, base.path)
        end
        match[list[n]] = gi
      end
    end
    -- a name to import that names no glTF mesh is a slip, not "nothing
    -- to do": the bundle would come out as the base, said to be imported
    local missing = {}
    for name in pairs(opts.only or {}) do
      if not taken[name] then missing[#missing + 1] = name end
    end
    table.sort(missing)
    if #missing > 0 then
      fail("%s: no glTF mesh is named '%s'", file.path,
        table.concat(missing, "', '"))
    end

    local w = rsxmesh.writer(base)
    for _, mat in base:materials() do
      assert(w:material(mat.name, mat:samplers()))
    end
    local reports, kept = {}, true
    for k, m in base:meshes() do
      if opts.progress then opts.progress(k, #base) end
      local gi = match[k]
      local out, rep
      if gi then
        out, rep = import_mesh(file, t.meshes[gi], m, world[gi - 1])
        if out ~= m then
          rep.stale = stale_facts(m, out)
          if opts.records then
            local where = file.path .. ": " .. m.label
            out, rep.records = rewrite_records(out, m, opts.records, where,
              opts.records_name or "--records")
          end
        end
      else
        out = m
        rep = { label = m.label,
          state = opts.only and not opts.only[m.name] and "not selected"
            or "not in the glTF", changed = {}, derived = {}, kept = {} }
      end
      local ok, err = w:mesh(out)
      if not ok then fail("%s: %s", file.path, err) end
      reports[k] = rep
      kept = kept and out == m
    end
    return { writer = w, meshes = reports, kept = kept }
  end)
  close_buffers(file)
  return r, err
end

return import
