-- rsxmesh/manifest.lua - the manifests of rsxmesh pack: meshes given by
-- offsets in the user's files, as Hex2Obj takes them, read and checked.
--
--   local manifest = require "rsxmesh.manifest"
--   local list, err = manifest.read("meshes.lua")   -- or manifest.check(t)
--   for _, m in ipairs(list) do w:mesh(m.mesh) end  -- m.mesh: writer:mesh's
--
-- A manifest is a Lua file returning a list of meshes:
--   { file = "level.bin", name = "bridge",
--     meta = OFFSET,            -- or mask = M when no record is known
--     mmp = OFFSET, vertices = N,
--     mgp = OFFSET, mgp_stride = S,            -- when the mask has an MGP
--     indices = { offset = OFFSET, count = C, size = 2|4,
--                 primitive = "triangles"|"strip" },
--     submeshes = { { record = OFFSET, first = I, count = C,
--                     material = NAME }, ... },   -- default: one, whole
--     materials = { NAME = { texture = "brick.png" }, ... } }
-- OFFSETs are byte offsets from the file's start: integers, or strings
-- such as "0x1f400". Every field is checked; a refusal names the
-- manifest, the mesh and the field. Files are relative to the manifest's
-- folder.

local rsxmesh = require "rsxmesh"
local path = require "rsxmesh.path"

local M = {}

M.META_SIZE = 0x90
M.SUBMESH_SIZE = 0x40

local MESH_KEYS = { file = true, name = true, meta = true, mask = true,
  mmp = true, vertices = true, mgp = true, mgp_stride = true,
  indices = true, submeshes = true, materials = true }
local INDEX_KEYS = { offset = true, count = true, size = true,
  primitive = true }
local SUB_KEYS = { record = true, first = true, count = true,
  material = true }

-- A failure: raised as a table, caught by M.check, so that each check is
-- one line.
local function refuse(where, field, message)
  error({ where .. ": " .. field .. ": " .. message }, 0)
end

-- A non-negative integer from a number or a string ("0x1f400", "128").
local function integer(where, field, v, max)
  local n
  if math.type(v) == "integer" then
    n = v
  elseif type(v) == "number" and v == math.floor(v) then
    n = math.tointeger(v)
  elseif type(v) == "string" then
    local hex = v:match("^%s*0[xX](%x+)%s*$")
    local dec = v:match("^%s*(%d+)%s*$")
    if hex and #hex <= 15 then n = tonumber(hex, 16)
    elseif dec and #dec <= 18 then n = tonumber(dec) end
  end
  if not n then
    refuse(where, field, "expects an integer or a string such as "
      .. "\"0x1f400\", not " .. (type(v) == "string" and string.format("%q",
      v) or tostring(v)))
  end
  if n < 0 or (max and n > max) then
    refuse(where, field, string.format("%s out of range 0..%s",
      tostring(n), max and tostring(max) or "..."))
  end
  return n
end

-- Bytes [offset, offset + n) of the mesh's file, or a refusal naming
-- what runs past its end.
local function slice(where, field, file, offset, n, what)
  if offset > file.size then
    refuse(where, field, string.format("offset 0x%x is past the end of "
      .. "%s (%d bytes)", offset, file.name, file.size))
  end
  if n > file.size - offset then
    refuse(where, field, string.format("%s at 0x%x runs past the end of "
      .. "%s (%d bytes)", what, offset, file.name, file.size))
  end
  assert(file.handle:seek("set", offset))
  local s = file.handle:read(n) or ""
  if #s ~= n then
    refuse(where, field, string.format("%s at 0x%x cannot be read from %s",
      what, offset, file.name))
  end
  return s
end

local function unknown_keys(where, t, known, what)
  for k in pairs(t) do
    if not known[k] then
      refuse(where, tostring(k), "unknown " .. what .. " field")
    end
  end
end

-- One mesh entry: the table writer:mesh takes, and its materials.
local function check_mesh(label, k, e, open_file)
  local where = label .. ": mesh " .. k
  if type(e) ~= "table" then refuse(where, "entry", "expects a table") end
  if type(e.name) == "string" then
    where = where .. " (" .. e.name .. ")"
  end
  unknown_keys(where, e, MESH_KEYS, "mesh")
  if type(e.name) ~= "string" or e.name == "" then
    refuse(where, "name", "expects a non-empty string")
  end
  if type(e.file) ~= "string" or e.file == "" then
    refuse(where, "file", "expects a file name")
  end
  local file, ferr = open_file(e.file)
  if not file then refuse(where, "file", ferr) end

  -- the record, or a mask alone
  local meta, mask
  if e.meta ~= nil and e.mask ~= nil then
    refuse(where, "mask", "give meta or mask, not both")
  elseif e.meta ~= nil then
    local off = integer(where, "meta", e.meta)
    meta = slice(where, "meta", file, off, M.META_SIZE,
      string.format("a record of 0x%x bytes", M.META_SIZE))
    mask = string.unpack(">I4", meta, 0x8D)
  elseif e.mask ~= nil then
    mask = integer(where, "mask", e.mask, 0xFFFFFFFF)
  else
    refuse(where, "meta", "missing (or give mask)")
  end
  local source = e.meta ~= nil and "mask (at meta + 0x8C)" or "mask"
  if mask & 0x80000 == 0 then
    refuse(where, source, string.format("0x%08x lacks 0x80000 (the packed "
      .. "variant every rigid mesh has)", mask))
  end
  if mask & ~0x81FFF ~= 0 then
    refuse(where, source, string.format("0x%08x has unknown bits 0x%08x",
      mask, mask & ~0x81FFF))
  end
  if mask & 0x1 == 0 then
    refuse(where, source, string.format("0x%08x has no position (bit 0)",
      mask))
  end
  local fmt = rsxmesh.format(mask)
  if not meta then
    meta = string.rep("\0", 0x8C) .. string.pack(">I4", mask)
  end

  -- the streams
  local n = integer(where, "vertices", e.vertices, 0xFFFFFFFF)
  if n == 0 then refuse(where, "vertices", "expects at least 1") end
  local mmp_off = integer(where, "mmp", e.mmp)
  local mmp = slice(where, "mmp", file, mmp_off, n * fmt.mmp_stride,
    string.format("%d vertices x stride %d", n, fmt.mmp_stride))
  local mgp, mgp_stride
  if fmt.mgp_stride > 0 then
    if e.mgp == nil then
      refuse(where, "mgp", string.format("missing: mask 0x%08x has an MGP "
        .. "of stride %d", mask, fmt.mgp_stride))
    end
    mgp_stride = e.mgp_stride == nil and fmt.mgp_stride or
      integer(where, "mgp_stride", e.mgp_stride, 0xFFFF)
    if mgp_stride ~= fmt.mgp_stride then
      refuse(where, "mgp_stride", string.format("%d differs from %d, the "
        .. "stride mask 0x%08x implies", mgp_stride, fmt.mgp_stride, mask))
    end
    mgp = slice(where, "mgp", file, integer(where, "mgp", e.mgp),
      n * mgp_stride, string.format("%d vertices x stride %d", n,
      mgp_stride))
  elseif e.mgp ~= nil then
    refuse(where, "mgp", string.format("mask 0x%08x has no MGP", mask))
  end

  -- the indices
  local ix = e.indices
  if type(ix) ~= "table" then refuse(where, "indices", "expects a table") end
  unknown_keys(where .. ": indices", ix, INDEX_KEYS, "indices")
  local size = integer(where, "indices.size", ix.size)
  if size ~= 2 and size ~= 4 then
    refuse(where, "indices.size", "expects 2 or 4, not " .. size)
  end
  local prim = ix.primitive or "triangles"
  if prim ~= "triangles" and prim ~= "strip" then
    refuse(where, "indices.primitive", string.format("expects "
      .. "\"triangles\" or \"strip\", not %q", tostring(prim)))
  end
  local count = integer(where, "indices.count", ix.count, 0xFFFFFFFF)
  if prim == "triangles" and count % 3 ~= 0 then
    refuse(where, "indices.count", count .. " is not a multiple of 3 "
      .. "(triangles)")
  end
  local ioff = integer(where, "indices.offset", ix.offset)
  local ibytes = slice(where, "indices.offset", file, ioff, count * size,
    string.format("%d indices of %d bytes", count, size))
  local restart = size == 2 and 0xFFFF or 0xFFFFFFFF
  local fmtc = size == 2 and ">I2" or ">I4"
  for i = 0, count - 1 do
    local v = string.unpack(fmtc, ibytes, i * size + 1)
    if v >= n and not (prim == "strip" and v == restart) then
      refuse(where, "indices", string.format("index %d (at 0x%x) is %d, "
        .. "not below the vertex count %d", i + 1, ioff + i * size, v, n))
    end
  end

  -- the submeshes: records in the file, or one over every index
  local subs, materials = {}, {}
  local list = e.submeshes or { { first = 0, count = count } }
  if type(list) ~= "table" then
    refuse(where, "submeshes", "expects a list")
  end
  if e.materials ~= nil and type(e.materials) ~= "table" then
    refuse(where, "materials", "expects a table of name = { texture = }")
  end
  for si, s in ipairs(list) do
    local sw = where .. ": submesh " .. si
    if type(s) ~= "table" then refuse(sw, "entry", "expects a table") end
    unknown_keys(sw, s, SUB_KEYS, "submesh")
    local first = integer(sw, "first", s.first or 0, 0xFFFFFFFF)
    local scount = integer(sw, "count", s.count or count - first,
      0xFFFFFFFF)
    if first + scount > count then
      refuse(sw, "count", string.format("indices %d..%d run past the "
        .. "buffer's %d", first + 1, first + scount, count))
    end
    local rec
    if s.record ~= nil then
      rec = slice(sw, "record", file, integer(sw, "record", s.record),
        M.SUBMESH_SIZE, string.format("a record of 0x%x bytes",
        M.SUBMESH_SIZE))
    else
      -- selectors ff ff ff ff: each logical UV its stored set
      rec = string.rep("\0", 0x38) .. "\255\255\255\255\0\0\0\0"
    end
    local mat = s.material
    if mat ~= nil then
      if type(mat) ~= "string" then
        refuse(sw, "material", "expects a material's name")
      end
      local def = e.materials and e.materials[mat]
      if type(def) ~= "table" or type(def.texture) ~= "string" then
        refuse(sw, "material", string.format("%q is not in the mesh's "
          .. "materials with a texture", mat))
      end
      materials[mat] = def.texture
    end
    subs[si] = { record = rec, first_index = first, index_count = scount,
      material = mat }
  end
  return {
    name = e.name, meta = meta, vertex_count = n, mmp = mmp,
    mmp_stride = fmt.mmp_stride, mgp = mgp, mgp_stride = mgp_stride,
    indices = ibytes, index_size = size, primitive = prim,
    submeshes = subs,
  }, materials
end

-- Check a manifest's table t (label names it in messages; files are
-- relative to dir). A list of { mesh = writer:mesh's table, materials =
-- { name = texture } }, or nil and the first refusal.
function M.check(t, label, dir)
  local files = {}
  local function open_file(name)
    local full = path.join(dir or ".", name)
    if name:sub(1, 1) == "/" then full = name end
    local f = files[full]
    if f then return f end
    local h, err = io.open(full, "rb")
    if not h then return nil, "cannot be opened: " .. tostring(err) end
    local size = h:seek("end")
    if not size then
      h:close()
      return nil, full .. ": not a file that can be read"
    end
    f = { handle = h, size = size, name = name }
    files[full] = f
    return f
  end
  local out = {}
  local ok, err = pcall(function()
    if type(t) ~= "table" then
      error({ label .. ": expects a list of meshes, not " .. type(t) }, 0)
    end
    local names = {}
    for k, e in ipairs(t) do
      local mesh, mats = check_mesh(label, k, e, open_file)
      if names[mesh.name] then
        error({ string.format("%s: mesh %d (%s): name: also mesh %d's",
          label, k, mesh.name, names[mesh.name]) }, 0)
      end
      names[mesh.name] = k
      out[k] = { mesh = mesh, materials = mats }
    end
    for k in pairs(t) do
      if math.type(k) ~= "integer" or k < 1 or k > #t then
        error({ label .. ": " .. tostring(k) .. ": not a mesh of the "
          .. "list (a manifest returns { {...}, {...} })" }, 0)
      end
    end
  end)
  for _, f in pairs(files) do f.handle:close() end
  if not ok then
    if type(err) == "table" then return nil, err[1] end
    error(err, 0)
  end
  return out
end

-- Read and check the manifest file at file (a Lua chunk run with no
-- globals but an empty environment: it returns data only).
M.STEPS = 10000000  -- instructions a manifest's chunk may run

function M.read(file)
  local chunk, err = loadfile(file, "t", {})
  if not chunk then
    err = tostring(err)
    -- a syntax error names the file already, a binary chunk does not
    if err:sub(1, #file) ~= file then err = file .. ": " .. err end
    return nil, err
  end
  -- data, not a program: a chunk that runs on is stopped
  local co = coroutine.create(chunk)
  debug.sethook(co, function() error("runs too long to be data", 0) end,
    "", M.STEPS)
  local ok, t = coroutine.resume(co)
  if not ok then return nil, file .. ": " .. tostring(t) end
  if coroutine.status(co) ~= "dead" then
    return nil, file .. ": yields instead of returning a list"
  end
  return M.check(t, file, path.dirname(file))
end

return M
