-- scripts-pack.lua - rsxmesh pack and its manifest reader (rsxmesh.manifest):
-- meshes of the synthetic disc placed at known offsets in a file, packed
-- back byte for byte; every refusal the issue lists, named by manifest,
-- mesh and field, with nothing written; and a fixed-seed random pass of
-- manifests with fields changed at random, each packed or refused.

local t = require "tap"
local lib = require "scripts-lib"
local slib = require "scan-lib"
local rsxmesh = require "rsxmesh"
local manifest = require "rsxmesh.manifest"
local R = require "rsxmesh.synth.rng"

local dir = lib.tmpdir()

-- two meshes: one with an MGP of frames (0x0008003d), one with a u32 strip
local meshes = slib.meshes()
local pick = {}
for _, m in ipairs(meshes) do
  local mask = string.unpack(">I4", m.meta, 0x8D)
  if mask == 0x0008003d and m.primitive == "triangles" and not pick[1] then
    pick[1] = m
  elseif m.index_size == 4 and m.primitive == "strip" and not pick[2] then
    pick[2] = m
  end
end
assert(pick[1] and pick[2])

-- the file: a record, its submesh records, the streams, the indices
local parts, size, at = {}, 0, {}
local function put(key, s)
  local pad = (-size) % 16
  parts[#parts + 1] = string.rep("\0", pad)
  size = size + pad
  at[key] = size
  parts[#parts + 1] = s
  size = size + #s
end
for i, m in ipairs(pick) do
  put(i .. "meta", m.meta)
  for k, s in ipairs(m.submeshes) do
    put(i .. "sub" .. k, s.record .. string.rep("\0", 0x40 - #s.record))
  end
  put(i .. "mmp", m.mmp)
  if m.mgp then put(i .. "mgp", m.mgp) end
  put(i .. "ix", m.indices)
end
lib.write(dir .. "/level.bin", table.concat(parts))

local function entry(i)
  local m = pick[i]
  local e = {
    file = "level.bin", name = m.name .. "_" .. i,
    meta = string.format("0x%x", at[i .. "meta"]),
    mmp = at[i .. "mmp"], vertices = m.vertex_count,
    indices = { offset = at[i .. "ix"], count = #m.indices // m.index_size,
      size = m.index_size, primitive = m.primitive },
    submeshes = {},
    materials = { brick = { texture = "brick.png" } },
  }
  if m.mgp then e.mgp, e.mgp_stride = at[i .. "mgp"], m.mgp_stride end
  for k, s in ipairs(m.submeshes) do
    e.submeshes[k] = { record = at[i .. "sub" .. k], first = s.first_index,
      count = s.index_count, material = "brick" }
  end
  return e
end

-- Lua source of a value (the manifest as a user writes it)
local function source(v, indent)
  indent = indent or ""
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) ~= "table" then return tostring(v) end
  local out, keys = {}, {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  for _, k in ipairs(keys) do
    local key = math.type(k) == "integer" and "" or
      (type(k) == "string" and k:match("^[%a_][%w_]*$") and k .. " = " or
       "[" .. source(k) .. "] = ")
    out[#out + 1] = indent .. "  " .. key .. source(v[k], indent .. "  ")
  end
  return "{\n" .. table.concat(out, ",\n") .. "\n" .. indent .. "}"
end

local function write_manifest(name, list)
  lib.write(dir .. "/" .. name, "return " .. source(list) .. "\n")
end

-- ------------------------------------------------------------ packed

write_manifest("good.lua", { entry(1), entry(2) })
local status, _, err = lib.rsxmesh(dir, "pack", "good.lua", "-o", "out.rsxb")
t.is(status, 0, "pack: exit 0")
t.like(err, "^pack: 2 meshes, [%d,]+ vertices in out%.rsxb in [%d.]+ s\n$",
  "pack: the summary")
local b = assert(rsxmesh.open(dir .. "/out.rsxb"))
t.is(#b, 2, "two meshes")
for i, m in ipairs(pick) do
  local got = b:mesh(i)
  t.is(got.name, m.name .. "_" .. i, m.name .. ": name")
  t.ok(got:record():bytes() == m.meta, m.name .. ": the record, byte for byte")
  t.ok(got:stream("mmp") == m.mmp, m.name .. ": the MMP")
  t.ok(got:stream("mgp") == (m.mgp or ""), m.name .. ": the MGP")
  t.ok(got:index_bytes() == m.indices, m.name .. ": the indices")
  t.is(got.primitive, m.primitive, m.name .. ": the primitive")
  t.is(got.submesh_count, #m.submeshes, m.name .. ": the submeshes")
  local s1 = got:submesh(1)
  t.is(s1:record():bytes(0, 0x3C), m.submeshes[1].record:sub(1, 0x3C),
    m.name .. ": the submesh record")
  t.is(s1.material.name, "brick", m.name .. ": its material")
end
b:close()

-- offsets as strings, a mask instead of a record
do
  local e = entry(1)
  e.meta = nil
  e.mask = 0x0008003d
  e.mmp = string.format("0X%X", at["1mmp"])
  e.submeshes = nil
  e.materials = nil
  local list = assert(manifest.check({ e }, "m", dir))
  t.is(string.unpack(">I4", list[1].mesh.meta, 0x8D), 0x0008003d,
    "mask = M: a record of 0x90 bytes carries it")
  t.is(#list[1].mesh.submeshes, 1, "no submeshes: one over every index")
end

-- ------------------------------------------------------------ refused

local function refused(name, change, pattern)
  local e = entry(1)
  change(e)
  write_manifest("bad.lua", { e })
  os.remove(dir .. "/bad.rsxb")
  local st, _, er = lib.rsxmesh(dir, "pack", "bad.lua", "-o", "bad.rsxb")
  t.is(st, 1, name .. ": exit 1")
  t.like(er, "^pack: bad%.lua: mesh 1 %(" .. pick[1].name:gsub("%p", "%%%0")
    .. "_1%): " .. pattern, name .. ": named")
  t.is(lib.read(dir .. "/bad.rsxb"), nil, name .. ": nothing written")
end

local fsize = size
refused("an offset past the end", function(e) e.mmp = fsize + 16 end,
  "mmp: offset 0x%x+ is past the end of level%.bin")
refused("count x stride past the end", function(e)
  e.vertices = (fsize - at["1mmp"]) // 16 + 1 end,
  "mmp: %d+ vertices x stride 16 at 0x%x+ runs past the end")
refused("a mask without 0x80000", function(e)
  e.meta = nil
  e.mask = 0x3d end, "mask: 0x0000003d lacks 0x80000")
refused("a mask with unknown bits", function(e)
  e.meta = nil
  e.mask = 0x0018003d end, "mask: 0x0018003d has unknown bits 0x00100000")
refused("indices at the vertex count", function(e)
  e.vertices = e.vertices - 1 end, "indices: index %d+ %(at 0x%x+%) is %d+, "
  .. "not below the vertex count")
refused("a file that cannot be opened", function(e) e.file = "nope.bin" end,
  "file: cannot be opened: ")
refused("an unknown field", function(e) e.vertexes = 3 end,
  "vertexes: unknown mesh field")
refused("a bad offset string", function(e) e.mmp = "0xZZ" end,
  "mmp: expects an integer or a string such as \"0x1f400\", not \"0xZZ\"")
refused("a list count not a multiple of 3", function(e)
  e.indices.count = e.indices.count - 1 end,
  "indices%.count: %d+ is not a multiple of 3")
refused("a stride the mask does not imply", function(e)
  e.mgp_stride = 16 end, "mgp_stride: 16 differs from 12")
refused("a material without a texture", function(e)
  e.materials = {} end, "submesh 1: material: \"brick\" is not in")

-- a manifest that is no list, one that runs on, one that does not parse
lib.write(dir .. "/loop.lua", "while true do end")
local list, merr = manifest.read(dir .. "/loop.lua")
t.is(list, nil, "a manifest that runs on: refused")
t.like(merr, "loop%.lua: runs too long to be data", "... and said")
lib.write(dir .. "/num.lua", "return 42")
list, merr = manifest.read(dir .. "/num.lua")
t.like(merr, "num%.lua: expects a list of meshes, not number", "not a list")
lib.write(dir .. "/io.lua", "return io.open('x')")
list, merr = manifest.read(dir .. "/io.lua")
t.like(merr, "io%.lua: .*global 'io'", "no globals for a manifest")

-- ------------------------------------------ random fields, fixed seed

-- Each pass changes one field of a good entry to a value from a list of
-- awkward ones; the reader packs or refuses, never raises, and what it
-- accepts the writer takes.
local awkward = { -1, 0, 1, 2, 3, 4, 0x8C, 0xFFFF, 0xFFFFFFFF, 2 ^ 53,
  1.5, 0 / 0, "0x", "0x10", " 0x20 ", "-5", "", true, {}, "triangles",
  "strip", 0x0008003d, 0x000807fd, fsize, fsize - 1 }
local fields = { "file", "name", "meta", "mask", "mmp", "vertices", "mgp",
  "mgp_stride", "indices.offset", "indices.count", "indices.size",
  "indices.primitive", "submeshes.1.record", "submeshes.1.first",
  "submeshes.1.count", "submeshes.1.material" }
local rng = R.new(20, 7)
local raised, accepted, refusals = 0, 0, 0
for _ = 1, 400 do
  local e = entry(rng:int(1, 2))
  local f = fields[rng:int(1, #fields)]
  local v = awkward[rng:int(1, #awkward)]
  local t0, key = e, f
  for part in f:gmatch("[^.]+%.") do
    part = part:sub(1, -2)
    t0 = t0[math.tointeger(tonumber(part)) or part]
  end
  key = f:match("([^.]+)$")
  t0[math.tointeger(tonumber(key)) or key] = v
  local ok, l, er = pcall(manifest.check, { e }, "r", dir)
  if not ok then
    raised = raised + 1
    t.diag("raised: " .. tostring(l))
  elseif l then
    local w <close> = rsxmesh.writer()
    -- pack gives the materials' numbers; none here
    for _, sub in ipairs(l[1].mesh.submeshes) do sub.material = nil end
    local added, aerr = w:mesh(l[1].mesh)
    if added then accepted = accepted + 1
    else
      -- the writer's own checks (submesh ranges of a strip...) may refuse
      refusals = refusals + 1
      assert(aerr)
    end
  else
    refusals = refusals + 1
    if not er:match("^r: mesh 1") then
      raised = raised + 1
      t.diag("unnamed: " .. er)
    end
  end
end
t.is(raised, 0, string.format("400 random changes: %d packed, %d refused "
  .. "by name, none raised", accepted, refusals))

lib.cleanup()
t.done_testing()
