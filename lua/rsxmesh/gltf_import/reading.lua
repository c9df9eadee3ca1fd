-- rsxmesh/gltf_import/reading.lua - the glTF import's reading: a .gltf
-- with its buffers or a .glb, its accessors checked and unpacked, and
-- the failures every part of the import raises (rsxmesh.gltf_import).
--
-- Every failure is one message naming the file and the accessor, raised
-- as a Failure (reading.fail) so that reading.guarded tells it from a
-- bug's error.

-- the JSON parser is a package of its own: its absence is a setup step
-- missed, said as such rather than as a traceback
local cjson = require "rsxmesh.need" ("cjson", "lua-cjson", "lua-cjson",
  "gltf-import")
local interrupt = require "rsxmesh.interrupt"
local layout = require "rsxmesh.gltf_layout"
local lfs = require "lfs"
local path = require "rsxmesh.path"
local rsxmesh = require "rsxmesh"

local reading = {}

local decoder = cjson.new()

-- the byte work in C (src/gltf_accessor.c): elements gathered, sparse
-- values put in place, components read as numbers
local gltf_elements, gltf_values = rsxmesh.gltf_elements, rsxmesh.gltf_values

-- glTF 2.0's numbers: component types and element sizes
-- (rsxmesh.gltf_layout, which rsxmesh.gltf writes by).
local COMPONENTS, CTYPE = layout.COMPONENTS, layout.CTYPE
local FLOAT, UNSIGNED_BYTE, UNSIGNED_SHORT, UNSIGNED_INT = layout.FLOAT,
  layout.UNSIGNED_BYTE, layout.UNSIGNED_SHORT, layout.UNSIGNED_INT
local MODES = layout.MODES

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
local tointeger = math.tointeger
local function int(x)
  return type(x) == "number" and tointeger(x) or nil
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
local function read_buffer(file, i, b, glb_bin)
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
function reading.read(file)
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
      buffers[i], where = read_buffer(file, i - 1, b, bin)
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

-- Where the elements of accessor a (r from accessor()) lie: a string,
-- the 0-based offset of the first in it and their stride; zeros without
-- a buffer view.
local function dense_source(file, a, r)
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
    return string.rep("\0", count * size), 0, size
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
  return src, at, stride
end

-- The n bytes of buffer buf from 0-based offset off as a string of their
-- own (a data URI's piece is the whole buffer).
local function piece_alone(buf, off, n)
  local bytes, at = piece(buf, off, n)
  if at == 0 and #bytes == n then return bytes end
  return bytes:sub(at + 1, at + n)
end

-- The sparse substitutions of accessor a for gltf_elements, every part
-- inside its view (gltf_elements checks the indices: strictly
-- increasing, below the count).
local function sparse_part(file, sp, r)
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
  return { count = sc, index_type = ictype,
    indices = piece_alone(ibuf, iboff + ioff, sc * ict.size),
    values = piece_alone(vbuf, vboff + voff, sc * size) }
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
  local src, at, stride = dense_source(file, a, r)
  local sparse = a.sparse ~= nil and sparse_part(file, a.sparse, r) or nil
  local bytes, err = gltf_elements(src, at, count, r.size, stride, sparse)
  if not bytes then fail("%s: %s", label, err) end
  r.bytes = bytes
  return r
end

-- An accessor's use as messages name it: made into text only for a
-- message (string.format's %s), not for each of the thousands read.
local Label = { __tostring = function(l)
  return string.format("%s: primitive %d: %s (accessor %s)", l[1], l[2],
    l[3], tostring(l[4]))
end }

-- Accessor i: { count =, type =, ctype =, components =, size =,
-- normalized =, label =, bytes = }, bytes its elements tightly packed,
-- sparse values applied. where, p and name name it in messages
-- ("file.gltf: mesh 2 (crate)", primitive 1, "NORMAL"); every failure
-- names the accessor too. read holds those read before (i -> r), the
-- caller's to keep.
local function accessor(file, i, read, where, p, name)
  i = int(i) or i
  local label = setmetatable({ where, p, name, i }, Label)
  local known = read[i]
  if not known then
    known = accessor_read(file, file.json, i, label)
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

-- the numbers string.pack and table.unpack take at a time
local CHUNK = 240

-- The values of an accessor as a flat table of numbers: floats as they
-- are, normalised integers mapped to 0..1 (or -1..1), others as integers.
local function values(r)
  return gltf_values(r.bytes, r.ctype, r.normalized)
end

-- The component types each glTF attribute may have (the layout's).
local ONLY_FLOAT = layout.ONLY_FLOAT
local UV_CTYPES = layout.TEXCOORD.ctypes
local COLOUR_CTYPES = layout.COLOR_0.ctypes
local INDEX_CTYPES = layout.INDICES.ctypes

local VEC2, VEC3, VEC4 = { VEC2 = true }, { VEC3 = true }, { VEC4 = true }

-- A column (Match:column: a list of accessors, one per vertex group) as
-- one string of bytes, and as one flat table of values (values()).
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

reading.COMPONENTS, reading.CTYPE, reading.MODES = COMPONENTS, CTYPE, MODES
reading.FLOAT, reading.UNSIGNED_BYTE = FLOAT, UNSIGNED_BYTE
reading.UNSIGNED_SHORT, reading.UNSIGNED_INT = UNSIGNED_SHORT, UNSIGNED_INT
reading.ONLY_FLOAT, reading.UV_CTYPES = ONLY_FLOAT, UV_CTYPES
reading.COLOUR_CTYPES, reading.INDEX_CTYPES = COLOUR_CTYPES, INDEX_CTYPES
reading.VEC2, reading.VEC3, reading.VEC4 = VEC2, VEC3, VEC4
reading.CHUNK = CHUNK
reading.fail, reading.guarded = fail, guarded
reading.int, reading.shown = int, shown
reading.close_buffers = close_buffers
reading.piece, reading.buffer_length = piece, buffer_length
reading.accessor, reading.expect, reading.values = accessor, expect, values
reading.column_bytes, reading.column_values = column_bytes, column_values

return reading
