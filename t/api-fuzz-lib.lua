-- api-fuzz-lib.lua - the random-call fuzzer of the Lua API, shared by
-- t/api-fuzz.lua (make check: a few fixed seeds, seconds) and
-- fuzz/api-fuzz.lua (make fuzz: random seeds for FUZZ_SECONDS, under the
-- sanitizer-built host).
--
-- It calls every module function, every method of every userdata type,
-- every property and metamethod, each under pcall, with arguments made by
-- a generator of plausible ones (GEN below, one entry per function: the
-- run fails when the module or a metatable has a function GEN lacks), then
-- mutated towards hostile ones: wrong types, NaN, infinities, integer
-- extremes, huge strings, closed objects, objects of the wrong type, and
-- option tables whose __index closes a bundle, a writer, an image or a
-- file, collects garbage, raises or yields (a tenth of the calls run in a
-- coroutine); finalizers that close things run at
-- every allocation, since the collector is set to run often. A clean Lua
-- error is fine; a memory error, a crash or a hang is the finding (the
-- sanitizer build reports the first two, the caller's timeout the third).
--
--   local fuzz = require "api-fuzz-lib"
--   local stats = fuzz.run{seed = 7, calls = 2000}
--   stats.calls, stats.errors, stats.called["mesh:with"], ...
local rsxmesh = require "rsxmesh"
local fx = require "api-fixture"

local M = {}

local random = math.random
local function pick(list) return list[random(#list)] end
local function chance(p) return random() < p end

local BYTES = fx.bytes()
local TMPBASE -- the scratch name the files save writes start with

-- ------------------------------------------------------------ the world
-- Live objects of every type; rebuilt when the calls have closed most.
local W

local function add(list, v) if v ~= nil then list[#list + 1] = v end end

local function new_world()
  local w = { bundles = {}, meshes = {}, submeshes = {}, materials = {},
              accessors = {}, records = {}, formats = {}, writers = {},
              images = {}, files = {} }
  for i = 1, 2 do
    local b = assert(rsxmesh.load(BYTES, "fuzz-" .. i .. ".rsxb"))
    add(w.bundles, b)
    for _, m in b:meshes() do
      add(w.meshes, m)
      add(w.formats, m.format)
      add(w.records, m:record())
      for _, kind in ipairs(m:attributes()) do
        add(w.accessors, (m:attribute(kind)))
      end
      for _, s in m:submeshes() do
        add(w.submeshes, s)
        add(w.records, s:record())
        add(w.accessors, (s:uv(0)))
      end
    end
    for _, mat in b:materials() do add(w.materials, mat) end
  end
  for _, t in ipairs(fx.meshes()) do add(w.meshes, assert(rsxmesh.mesh(t))) end
  add(w.meshes, w.meshes[1]:with{})
  add(w.meshes, w.meshes[2]:with{ name = "copy" })
  -- a plain writer, one of a base's strings, one of its layout too
  for i = 1, 3 do
    local wr = rsxmesh.writer(i >= 2 and w.bundles[1] or nil,
      i == 3 and { layout = "base" } or nil)
    wr:material("brick")
    wr:material("glass")
    add(w.writers, wr)
  end
  add(w.images, rsxmesh.image(4, 3, { 10, 20, 30 }))
  add(w.images, rsxmesh.image(1, 1))
  add(w.files, io.tmpfile())
  w.age = 0
  return w
end

local OBJECT_KINDS = { "bundles", "meshes", "submeshes", "materials",
  "accessors", "records", "formats", "writers", "images", "files" }

local function object() return pick(W[pick(OBJECT_KINDS)]) end

-- --------------------------------------------------------- hostile code
-- The class metatables a run changes (evil's disguise), restored at its
-- start.
local CLASS_MTS = {}

local function close_something()
  local r = random(7)
  if r == 7 then
    -- a class's metatable dressed as an accessor's (getmetatable reaches
    -- both): a mesh, a bundle ... must not pass for an accessor
    local obj = object()
    local mt = getmetatable(obj)
    if type(mt) == "table" and rawget(mt, "__index") ~= mt then
      CLASS_MTS[mt] = true
      setmetatable(mt, getmetatable(getmetatable(pick(W.accessors))))
    end
  elseif r <= 2 then pick(W.bundles):close()
  elseif r == 3 then pick(W.writers):close()
  elseif r == 4 then pick(W.images):close()
  elseif r == 5 then pcall(io.close, pick(W.files))
  else collectgarbage("collect") end
end

-- Garbage whose finalizer closes something: the next allocation of any
-- call may run it.
local function closing_garbage(n)
  for _ = 1, n do
    setmetatable({}, { __gc = function() pcall(close_something) end })
  end
end

-- What an __index or a callback does besides answering.
local function evil()
  local r = random(12)
  if r <= 2 then close_something()
  elseif r == 3 then collectgarbage("collect")
  elseif r == 4 then error("fuzz: raised by Lua code in the call", 0)
  elseif r == 5 then closing_garbage(4)
  elseif r == 6 and coroutine.isyieldable() then
    coroutine.yield() -- across the C call: an error, in a coroutine
  end -- else: nothing
end

-- ------------------------------------------------------------- values
local HUGE = string.rep("k", 70000)
local SCALARS = {
  true, false, 0, 1, -1, 2, 3, 4, 5, 7, 0.5, -0.0, 1 / 0, -1 / 0, 0 / 0,
  math.maxinteger, math.mininteger, math.maxinteger - 1, 2 ^ 31, 2 ^ 32,
  0xFFFFFFFF, 0x100000000, 2 ^ 53, -2 ^ 63, 2 ^ 63, 1e300, -1e300, 255, 256,
  65535, 65536, 16384, 16385, 1e8, -2147483648, "", "1", "0x10", "position",
  "normal", "uv0", "uv3", "colour", "tangent", "mmp", "mgp", "crate",
  "strip", "brick", "glass", "triangles", "lit", "flat", "uv", "iso",
  "string", HUGE, "\0\1\2\255",
}

local any


-- A table whose every read runs hostile code, then answers from base (a
-- table of plausible fields) or at random.
local function evil_table(base)
  return setmetatable({}, { __index = function(_, k)
    evil()
    if base ~= nil and chance(0.8) then return base[k] end
    return any(1)
  end, __len = function() evil() return random(0, 4) end })
end

local function numbers(n)
  local t = {}
  for i = 1, n do t[i] = chance(0.9) and random(-3, 3) / 2 or any(1) end
  return t
end

local function evil_function()
  return function(...)
    evil()
    if chance(0.5) then return pick(W.images) end
    return any(1)
  end
end

function any(depth)
  depth = depth or 0
  local r = random(100)
  if r <= 30 then return object()
  elseif r <= 60 then return pick(SCALARS)
  elseif r <= 70 and depth < 2 then return numbers(random(0, 12))
  elseif r <= 78 and depth < 2 then return evil_table()
  elseif r <= 82 then return evil_function()
  elseif r <= 86 and depth < 2 then
    return { any(depth + 1), any(depth + 1), x = any(depth + 1) }
  elseif r <= 88 then return coroutine.create(print)
  end
  return nil
end

-- An option table: plausible fields, sometimes behind an evil __index,
-- sometimes with a field made hostile.
local function opts(base)
  if chance(0.15) then -- a field made hostile: keys sorted, so that a
    local keys = {}     -- seed makes the same calls on every run
    for k in pairs(base) do
      if type(k) == "string" then keys[#keys + 1] = k end
    end
    table.sort(keys)
    if #keys > 0 then base[pick(keys)] = any(1) end
  end
  if chance(0.1) then
    local k = pick(SCALARS)
    if k == k then base[k] = any(1) end -- an unknown key (not NaN)
  end
  if chance(0.3) then return evil_table(base) end
  return base
end

local function small_int(lo, hi) return random(lo, hi) end
local function kind_name() return pick(rsxmesh.kinds) end
local function tmp_path() return TMPBASE .. "-" .. random(1, 3) end
local function file_or_nil() if chance(0.5) then return pick(W.files) end end

-- -------------------------------------------------------------- GEN
-- Plausible arguments after self, by function name ("mesh:with") or
-- module function ("rsxmesh.load").
local GEN = {}

GEN["rsxmesh.clock"] = function() return {} end
GEN["rsxmesh.processors"] = function() return {} end
GEN["rsxmesh.half"] = function() return { small_int(-2, 70000) } end
GEN["rsxmesh.to_half"] = function() return { any() } end
GEN["rsxmesh.cmp"] = function() return { random(0, 0xFFFFFFFF) } end
GEN["rsxmesh.to_cmp"] = function() return { any(), any(), any() } end
GEN["rsxmesh.float32"] = function() return { any() } end
GEN["rsxmesh.fmt"] = function() return { any() } end
GEN["rsxmesh.isatty"] = function() return { pick(W.files) } end
GEN["rsxmesh.indices"] = function()
  return { pick{ 2, 4, 3 }, numbers(random(0, 9)), pick{ nil, 0, 1,
           math.mininteger, math.maxinteger, -5 } }
end
-- The pool's commands are harmless programs (true, a missing one); its
-- workers count is drawn around the limits. pool_report is called outside
-- a worker (no RSXMESH_POOL_CHANNEL), so it must refuse cleanly.
GEN["rsxmesh.pool"] = function()
  return { pick{ { "true" }, {}, { 1, 2 }, "true", { "true", any(1) },
                 { "rsxmesh-no-such-program" } },
           pick{ 0, 1, 2, 256, 257, -1, math.mininteger, math.maxinteger } }
end
-- a glTF accessor's bytes: counts, offsets and strides around the ends of
-- the bytes and far past them (2^62: nothing may be sized by them)
GEN["rsxmesh.gltf_elements"] = function()
  local bytes = BYTES:sub(1, random(0, 200))
  local sparse = chance(0.3) and { count = pick{ 1, 2, 0, 2^62 },
    index_type = pick{ 5121, 5123, 5125, 5122, 0 },
    indices = pick{ "\0\1", "\1\0", "\1\0\0\0\2\0\0\0", "", any(1) },
    values = BYTES:sub(1, random(0, 64)) } or nil
  return { pick{ bytes, any(1) }, pick{ 0, 1, random(0, 210), -1, 1 << 62 },
           pick{ 1, 2, random(1, 60), 0, 1 << 62, math.maxinteger },
           pick{ 1, 4, 12, 64, 65, 0 }, pick{ nil, 12, 16, 252, 1 << 62, 3 },
           sparse }
end
GEN["rsxmesh.gltf_values"] = function()
  return { pick{ BYTES:sub(1, random(0, 100)), any(1) },
           pick{ 5120, 5121, 5122, 5123, 5125, 5126, 5124, any(1) },
           pick{ nil, true, false } }
end
GEN["rsxmesh.gltf_transform"] = function()
  local m = numbers(pick{ 16, 16, 15 })
  if chance(0.2) then m[random(1, #m)] = any(1) end
  local v = numbers(pick{ 0, 3, 6, 4 })
  if chance(0.2) and #v > 0 then v[random(1, #v)] = any(1) end
  return { m, v, pick{ "position", "vector", "normal", any(1) } }
end
-- n vertices' worth of k numbers each, now and then one off by one or
-- not finite
local function vertex_numbers(n, k)
  local v = numbers(n * k + pick{ 0, 0, 0, 1, -1 })
  if chance(0.2) and #v > 0 then
    v[random(1, #v)] = pick{ 0 / 0, math.huge, -math.huge, any(1) }
  end
  return v
end
GEN["rsxmesh.gltf_frames"] = function()
  local n = small_int(0, 4)
  return { vertex_numbers(n, 4), vertex_numbers(n, 3),
           pick{ nil, "export", "mikktspace", any(1) } }
end
GEN["rsxmesh.gltf_tangents"] = function()
  local n = small_int(0, 5)
  local tris = {}
  for i = 1, 3 * small_int(0, 4) + pick{ 0, 0, 0, 1 } do
    tris[i] = chance(0.9) and small_int(0, n + 1) or any(1)
  end
  return { vertex_numbers(n, 3), vertex_numbers(n, 3), vertex_numbers(n, 2),
           tris }
end
GEN["rsxmesh.pool_report"] = function() return { any() } end
GEN["rsxmesh.pool_worker"] = function() return {} end
GEN["rsxmesh.scan"] = function()
  if chance(0.5) then
    return { pick{ BYTES, BYTES:sub(1, random(0, 600)), any(1) },
             opts{ bytes = true, min_vertices = pick{ 1, 24, 0, -1,
                   math.maxinteger }, chunk = pick{ nil, 4096, 4095,
                   2^30, math.mininteger }, text = chance(0.5),
                   tables = chance(0.7), baseline_vectors = chance(0.3),
                   uv_tries = pick{ nil, 1, 40, 0, -1 } } }
  end
  return { pick{ tmp_path(), pick(W.files) or "", any(1) },
           opts{ min_vertices = small_int(-2, 100), text = chance(0.5),
                 tables = chance(0.7), baseline_vectors = chance(0.3),
                 uv_tries = pick{ nil, 1, 40, 0, -1 } } }
end
GEN["rsxmesh.json_text"] = function()
  local doc = { a = numbers(3), b = { c = "x", d = { 1, 2, any(1) } },
                [pick{ "k1", "k2" }] = any(1), n = any(1) }
  if chance(0.4) then doc.e = evil_table{ 1, 2, 3 } end
  if chance(0.2) then doc.f = setmetatable({}, { __index = function(_, k)
    return k end }) end -- answers every key
  return { doc, opts{ order = chance(0.5) and { b = 1, a = 2 }
           or function(x, y) return x < y end, -- called as often as the
           -- keys' order in the table says: no random draw here, so that a
           -- seed makes the same calls on every run (t/api-reentrancy.lua
           -- has a comparator that removes keys)
           doubles = chance(0.5), non_finite = pick{ nil, "string", "x" } } }
end
GEN["rsxmesh.load"] = function()
  local b = BYTES
  if chance(0.5) then
    local at = random(1, #b)
    b = b:sub(1, at - 1) .. string.char(random(0, 255)) .. b:sub(at + 1)
  end
  if chance(0.2) then b = b:sub(1, random(0, #b)) end
  return { b, any() }
end
GEN["rsxmesh.create"] = function() return { pick{ tmp_path(), HUGE, "" } } end
GEN["rsxmesh.open"] = function() return { pick{ tmp_path(), HUGE, "" } } end
GEN["rsxmesh.read_png"] = function() return { tmp_path() } end
GEN["rsxmesh.image"] = function()
  local w, h = random(0, 5), random(0, 5)
  return { w, h, pick{ nil, { 1, 2, 3 }, { 1, 2, 3, 4 },
           string.rep("\1", w * h * 4), evil_table{ 1, 2, 3 } } }
end
GEN["rsxmesh.mesh"] = function()
  local t = pick(fx.meshes())
  if chance(0.3) then t.vertex_count = any() end
  if chance(0.2) then t.submeshes = { opts{ first_index = 0,
    index_count = random(0, 12), record = "", material = any() } } end
  return { opts(t) }
end
GEN["rsxmesh.format"] = function()
  return { pick{ 0x000800ff, 0x00080005, 0x0008007d, 0x00081801, 0,
           0xFFFFFFFF, -1, math.mininteger } }
end
GEN["rsxmesh.writer"] = function() return { pick(W.bundles) } end
GEN["rsxmesh.render"] = function()
  local meshes = pick{ pick(W.bundles), pick(W.meshes), pick(W.submeshes),
                       { pick(W.meshes), pick(W.submeshes) } }
  local o = { meshes = meshes, width = random(1, 24), height = random(1, 16),
    shade = pick{ "flat", "lit", "normals", "uv", "selectors", "colour" },
    filter = pick{ nil, "nearest", "bilinear", "trilinear" } }
  if chance(0.5) then
    o.camera = opts{ eye = { 3, 3, 3 }, at = { 0, 0, 0 },
                     fov = pick{ nil, 40, 0, 1 / 0 } }
    if chance(0.5) then o.camera = opts{ view = pick{ "iso", "top", "x" },
                                         ortho = pick{ nil, 2, -1 } } end
  end
  if chance(0.4) then o.texture = evil_function() end
  if chance(0.2) then o.texture = pick(W.images) end
  if chance(0.3) then o.textures = opts{} end
  if chance(0.2) then o.legend = opts{ ["02ffffff"] = 1 } end
  if chance(0.1) then o.background = evil_table{ 1, 2, 3 } end
  return { opts(o) }
end

-- bundle
GEN["bundle:mesh"] = function() return { pick{ 1, 2, 4, 5, "crate", any() } } end
GEN["bundle:meshes"] = function() return {} end
GEN["bundle:material"] = function() return { pick{ 1, 2, "brick", any() } } end
GEN["bundle:materials"] = function() return {} end
GEN["bundle:close"] = function() return {} end

-- mesh
GEN["mesh:has"] = function() return { kind_name() } end
GEN["mesh:attributes"] = function() return {} end
GEN["mesh:attribute"] = function() return { kind_name() } end
GEN["mesh:submesh"] = function() return { random(0, 4) } end
GEN["mesh:submeshes"] = function() return {} end
GEN["mesh:record"] = function() return {} end
GEN["mesh:triangles"] = function() return {} end
GEN["mesh:triangle_bytes"] = function() return { file_or_nil() } end
GEN["mesh:unit_normals"] = function() return { file_or_nil() } end
GEN["mesh:tangent_frames"] = function() return { file_or_nil() } end
GEN["mesh:index"] = function() return { random(0, 11) } end
GEN["mesh:stream"] = function() return { pick{ "mmp", "mgp" } } end
GEN["mesh:index_bytes"] = function() return {} end
GEN["mesh:with"] = function()
  local t = {}
  if chance(0.3) then t.name = pick{ "w", "", HUGE } end
  if chance(0.3) then t.vertex_count = pick{ 0, 1, 2, 4, 6, 1e8,
    0xFFFFFFFF, 0x100000000, -1, math.maxinteger } end
  if chance(0.4) then t.position = numbers(random(0, 18)) end
  if chance(0.2) then t.normal = string.rep("\0", random(0, 48)) end
  if chance(0.2) then t.indices = string.rep("\0", random(0, 12)) end
  if chance(0.2) then t.submeshes = { { first_index = 0,
                                         index_count = 3 } } end
  if chance(0.1) then t[HUGE] = 1 end
  return { opts(t) }
end

GEN["mesh:obj_lines"] = function()
  local t = {}
  if chance(0.3) then t.name = pick{ "o", "", HUGE, 1 } end
  if chance(0.5) then t.uv = pick{ 0, 1, 2, 3, 4, -1, 1.5, "0" } end
  if chance(0.3) then t.colours = pick{ true, false, 1 } end
  if chance(0.5) then t.counts = opts{ v = pick{ nil, 0, 7, -1, 2^53,
    2^53 + 1, math.maxinteger, "1" }, vt = pick{ nil, 0, 3 },
    vn = pick{ nil, 0, 5 } } end
  if chance(0.4) then t.materials = opts{ "brick", pick{ "glass", 42, HUGE,
    false } } end
  if chance(0.2) then t.none = pick{ "(none)", "", 0 } end
  if chance(0.3) then t.used = opts{} end
  if chance(0.5) then t.file = file_or_nil() end
  if chance(0.1) then t[HUGE] = 1 end
  if chance(0.1) then return {} end
  return { opts(t) }
end

-- submesh
GEN["submesh:selector"] = function() return { random(-1, 4) } end
GEN["submesh:uv_set"] = function() return { random(-1, 4) } end
GEN["submesh:uv"] = function() return { random(-1, 4) } end
GEN["submesh:triangles"] = function() return {} end
GEN["submesh:triangle_bytes"] = function() return { file_or_nil() } end
GEN["submesh:triangle_count"] = function() return {} end
GEN["submesh:face_lines"] = function()
  local cols = { opts{ offset = pick{ 0, 1, -5, math.maxinteger,
                        math.mininteger } } }
  if chance(0.5) then cols[2] = false end
  if chance(0.3) then cols[3] = opts{ offset = 0 } end
  return { pick{ "f", "", HUGE }, cols, file_or_nil() }
end
GEN["submesh:declaration"] = function() return {} end
GEN["submesh:record"] = function() return {} end

-- material
GEN["material:samplers"] = function() return {} end

-- record
for _, name in ipairs{ "u8", "s8", "u16", "s16", "u32", "s32", "f16",
                       "f32" } do
  GEN["record:" .. name] = function()
    return { pick{ 0, 1, 0x10, 0x8C, 0x8F, 0x90, -1, math.mininteger,
             math.maxinteger } }
  end
end
GEN["record:bytes"] = function()
  return { random(-2, 0x92), pick{ nil, random(-2, 0x92), math.maxinteger,
           math.mininteger } }
end

-- format
GEN["format:has"] = function() return { kind_name() } end
GEN["format:info"] = function() return { kind_name() } end
GEN["format:attributes"] = function() return {} end
GEN["format:order"] = function() return {} end
GEN["format:encode"] = function()
  local n = random(0, 3)
  return { pick{ "mmp", "mgp" }, n, opts{ position = numbers(3 * n),
           normal = numbers(3 * n), colour = numbers(4 * n),
           uv0 = numbers(2 * n) } }
end

-- accessor
local function range()
  return pick{ 1, 2, 0, -1, math.mininteger, math.maxinteger, nil },
         pick{ 1, 2, 3, 0, -1, math.maxinteger, nil }
end
GEN["accessor:get"] = function() return { pick{ 1, 2, 0, 5,
  math.mininteger, math.maxinteger } } end
GEN["accessor:iter"] = function() return {} end
GEN["accessor:range"] = function() local i, j = range() return { i, j } end
GEN["accessor:lines"] = function()
  local i, j = range()
  local o = opts{ scale = numbers(3), offset = numbers(3),
    components = pick{ nil, 1, 2, 3, 9 }, with = pick(W.accessors),
    with_components = pick{ nil, 1, 2 }, file = file_or_nil() }
  if chance(0.5) then return { pick{ "v", "", HUGE }, o } end
  return { "v", i, j, o }
end
GEN["accessor:pack"] = function() local i, j = range()
  return { i, j, file_or_nil() } end
GEN["accessor:raw"] = GEN["accessor:pack"]
GEN["accessor:bounds"] = function() return {} end
GEN["accessor:lengths"] = function() return { pick{ nil, 0, 1e-3, -1,
  0 / 0 } } end
GEN["accessor:non_finite"] = function() return {} end

-- writer
GEN["writer:material"] = function()
  return { pick{ "brick", "glass", "new", HUGE }, opts{ opts{ slot = pick{
    0, 1, -1, 0x100000000 }, texture = pick{ "t.png", 1 } } } }
end
GEN["writer:mesh"] = function()
  if chance(0.3) then return { opts(pick(fx.meshes())) } end
  return { pick(W.meshes) }
end
GEN["writer:bytes"] = function() return {} end
GEN["writer:save"] = function() return { tmp_path() } end
GEN["writer:close"] = function() return {} end

-- image
local function coord()
  return pick{ 1, 2, 3, 4, 0, -1, 5, math.maxinteger, math.mininteger,
               1 << 24, -(1 << 24), 1 << 40 }
end
GEN["image:get"] = function() return { coord(), coord() } end
GEN["image:set"] = function() return { coord(), coord(), 1, 2, 3,
  pick{ nil, 4, 256 } } end
GEN["image:paste"] = function() return { pick(W.images), coord(), coord() } end
GEN["image:line"] = function() return { coord(), coord(), coord(), coord(),
  1, 2, 3 } end
GEN["image:save"] = function() return { tmp_path() } end
GEN["image:bytes"] = function() return {} end
GEN["image:close"] = function() return {} end

M.GEN = GEN

-- ------------------------------------------------------------- the API
-- Type short name -> a live object of it, for the enumeration.
local SAMPLE = {
  bundle = "bundles", mesh = "meshes", submesh = "submeshes",
  material = "materials", accessor = "accessors", record = "records",
  format = "formats", writer = "writers", image = "images",
}

-- The methods, properties and metamethods of an object, read from its
-- metatable: a class's __index holds its methods and property names as
-- upvalues 1 and 2; an accessor's metatable holds its fields, and the
-- shared metatable above it the methods.
local function members(obj)
  local mt = getmetatable(obj)
  local methods, props, metas = {}, {}, {}
  local idx = mt.__index
  if type(idx) == "function" then
    local _, m = debug.getupvalue(idx, 1)
    local _, p = debug.getupvalue(idx, 2)
    for k in pairs(m) do methods[#methods + 1] = k end
    for k in pairs(p) do props[#props + 1] = k end
  else
    for k, v in pairs(idx) do
      if type(k) == "string" and k:sub(1, 2) ~= "__" then
        if type(v) == "function" then methods[#methods + 1] = k
        else props[#props + 1] = k end
      end
    end
    for k in pairs(getmetatable(idx).__index) do
      methods[#methods + 1] = k
    end
  end
  for k, v in pairs(mt) do
    if type(k) == "string" and k:sub(1, 2) == "__" and
       type(v) == "function" then metas[#metas + 1] = k end
  end
  local seen, out = {}, {}
  for _, list in ipairs{ methods } do
    for _, k in ipairs(list) do
      if not seen[k] then seen[k] = true out[#out + 1] = k end
    end
  end
  table.sort(out)
  table.sort(props)
  table.sort(metas)
  return out, props, metas
end

-- Every callable of the API: {name = "mesh:with", type = "meshes", fn =
-- the function} for methods and module functions, "mesh.name" for
-- properties, "mesh.__tostring" for metamethods. Sorted by name, so that
-- a seed makes the same calls on every run.
function M.api()
  W = W or new_world()
  local list = {}
  local names = {}
  for k, v in pairs(rsxmesh) do
    if type(v) == "function" then names[#names + 1] = k end
  end
  table.sort(names)
  for _, k in ipairs(names) do
    list[#list + 1] = { name = "rsxmesh." .. k, fn = rsxmesh[k] }
  end
  local types = {}
  for short in pairs(SAMPLE) do types[#types + 1] = short end
  table.sort(types)
  for _, short in ipairs(types) do
    local obj = W[SAMPLE[short]][1]
    local methods, props, metas = members(obj)
    for _, k in ipairs(methods) do
      list[#list + 1] = { name = short .. ":" .. k, type = SAMPLE[short],
                          method = k, fn = obj[k] }
    end
    for _, k in ipairs(props) do
      list[#list + 1] = { name = short .. "." .. k, type = SAMPLE[short],
                          prop = k }
    end
    for _, k in ipairs(metas) do
      list[#list + 1] = { name = short .. "." .. k, type = SAMPLE[short],
                          meta = k, fn = getmetatable(obj)[k] }
    end
  end
  return list
end

-- The API's functions and methods with no generator in GEN.
function M.missing()
  local out = {}
  for _, e in ipairs(M.api()) do
    if not e.prop and not e.meta and GEN[e.name] == nil then
      out[#out + 1] = e.name
    end
  end
  return out
end

-- ------------------------------------------------------------- calling
-- Mutate args towards hostile ones.
local function mutate(args, n)
  if chance(0.25) then args[random(math.max(n, 1))] = any() end
  if chance(0.05) then n = random(0, n) end
  if chance(0.05) then n = n + 1 args[n] = any() end
  return n
end

local function self_for(e)
  if chance(0.9) then return pick(W[e.type]) end
  return any()
end

local SLOW = 10 -- seconds: a call running longer is a hang

-- One call of entry e; returns true when it returned, false and the
-- message when it raised.
local function call(e, stats)
  local args, n
  if e.prop then
    local obj = self_for(e)
    return pcall(function() return obj[e.prop] end)
  end
  if e.meta then
    local a, b = self_for(e), chance(0.5) and self_for(e) or any()
    if e.meta == "__index" or e.meta == "__newindex" then
      b = chance(0.5) and pick{ "name", "get", "kind", "x", 1 } or any()
    end
    -- __gc by hand on a live object: a script may do it
    return pcall(e.fn, a, b, any())
  end
  args = GEN[e.name]()
  n = 0
  for i = 1, 8 do if args[i] ~= nil then n = i end end
  n = math.max(n, #args)
  if e.type then
    table.insert(args, 1, self_for(e))
    n = n + 1
  end
  n = mutate(args, n)
  -- the first argument that names a file written: a save's, create's path
  local writes = e.name:find("save", 1, true) and 2
    or e.name == "rsxmesh.create" and 1
  if writes then
    -- never a path outside the scratch folder
    for i = writes, n do
      local t = type(args[i])
      if t == "string" or t == "number" then args[i] = tmp_path() end
    end
  end
  if chance(0.05) then closing_garbage(random(1, 8)) end
  local ok, err
  if chance(0.1) then
    -- in a coroutine, which dies if the call raises: its pins stay counted
    local co = coroutine.create(e.fn)
    ok, err = coroutine.resume(co, table.unpack(args, 1, n))
  else
    ok, err = pcall(e.fn, table.unpack(args, 1, n))
  end
  if not ok and type(err) ~= "string" then
    stats.odd[#stats.odd + 1] = e.name .. ": a non-string error"
  end
  return ok, err
end

-- A run: every entry of the API called once, in order, then at random:
-- opts.seed, opts.calls (or opts.seconds), opts.log (a function
-- given each call's name before it is made, for finding the call a crash
-- stops in). Returns the stats: calls, errors, called[name], odd (what
-- went wrong besides a clean error: a hang, an error that is no string).
function M.run(o)
  math.randomseed(o.seed)
  TMPBASE = os.tmpname() -- made empty: the saves write beside it
  local gcmode = random(3)
  if gcmode == 1 then collectgarbage("incremental", 50, 400)
  elseif gcmode == 2 then collectgarbage("generational")
  else collectgarbage("incremental", 100, 200) end
  for mt in pairs(CLASS_MTS) do setmetatable(mt, nil) end
  CLASS_MTS = {}
  W = new_world()
  local api = M.api()
  local stats = { calls = 0, errors = 0, called = {}, odd = {} }
  local start = os.clock()
  local deadline = o.seconds and start + o.seconds
  local t0
  debug.sethook(function()
    if t0 and os.clock() - t0 > SLOW then
      stats.odd[#stats.odd + 1] = "a call ran over " .. SLOW .. " s"
      t0 = nil
      error("fuzz: call too slow", 0)
    end
  end, "", 100000)
  local sweep = 0 -- every entry once first, then at random
  while true do
    if o.calls and stats.calls >= o.calls then break end
    if deadline and os.clock() >= deadline then break end
    sweep = sweep + 1
    local e = sweep <= #api and api[sweep] or api[random(#api)]
    if o.log then o.log(e.name) end
    t0 = os.clock()
    local ok, err = call(e, stats)
    t0 = nil
    stats.calls = stats.calls + 1
    stats.called[e.name] = (stats.called[e.name] or 0) + 1
    if not ok then
      stats.errors = stats.errors + 1
      if o.messages then
        local m = tostring(select(2, ok, err)):gsub("%d+", "N"):sub(1, 70)
        o.messages[m] = (o.messages[m] or 0) + 1
      end
    end
    W.age = W.age + 1
    if W.age > 40 then -- a fresh world: most calls on open objects
      for _, b in ipairs(W.bundles) do b:close() end
      for _, f in ipairs(W.files) do pcall(io.close, f) end
      W = new_world()
    end
  end
  debug.sethook()
  for mt in pairs(CLASS_MTS) do setmetatable(mt, nil) end
  for _, f in ipairs(W.files) do pcall(io.close, f) end
  for i = 1, 3 do os.remove(TMPBASE .. "-" .. i) end
  os.remove(TMPBASE)
  W = nil
  collectgarbage("collect")
  collectgarbage("incremental", 200, 100)
  stats.seconds = os.clock() - start
  stats.api = api
  return stats
end

return M
