-- fuzz_manifest.lua - a random-input fuzzer for rsxmesh pack's manifest
-- reader (rsxmesh.manifest), run by the host for a time (make fuzz):
--
--   rsxmesh fuzz/fuzz_manifest.lua SECONDS [SEED]
--
-- Each round builds a manifest from a valid one (meshes of the synthetic
-- disc at known offsets in a file), changes fields, nests or replaces them
-- with random values, or writes random Lua text and random bytes as the
-- manifest file; the reader must accept it (and the writer take what it
-- accepts) or refuse it with a message naming the manifest, and never
-- raise. A broken promise stops with the manifest's text, to keep as a
-- case. Under the sanitizer build the C it reaches is checked as well.

local rsxmesh = require "rsxmesh"
local manifest = require "rsxmesh.manifest"
local R = require "rsxmesh.synth.rng"
local plan_mod = require "rsxmesh.synth.plan"
local level = require "rsxmesh.synth.level"

local seconds = tonumber(arg[1]) or 60
local rng = R.new(tonumber(arg[2]) or os.time(), 20)

local dir = os.tmpname()
os.remove(dir)
assert(require("lfs").mkdir(dir))

-- a file with a few meshes at known offsets
local plan = assert(plan_mod.make{ scale = 0.002, seed = 1 })
local parts, size, good = {}, 0, {}
local function put(s)
  local pad = (-size) % 16
  parts[#parts + 1] = string.rep("\0", pad) .. s
  size = size + pad
  local at = size
  size = size + #s
  return at
end
for k, id in ipairs(plan.levels[4].meshes) do
  local m = level.mesh(plan, plan.meshes[id], 4, function() return 1 end)
  local e = { file = "level.bin", name = m.name .. "_" .. k,
    meta = put(m.meta), mmp = put(m.mmp), vertices = m.vertex_count,
    indices = { count = #m.indices // m.index_size, size = m.index_size,
      primitive = m.primitive } }
  if m.mgp then e.mgp, e.mgp_stride = put(m.mgp), m.mgp_stride end
  e.indices.offset = put(m.indices)
  good[#good + 1] = e
end
local f = assert(io.open(dir .. "/level.bin", "wb"))
f:write(table.concat(parts))
f:close()

local function copy(v)
  if type(v) ~= "table" then return v end
  local t = {}
  for k, x in pairs(v) do t[k] = copy(x) end
  return t
end

local function random_value(depth)
  local r = rng:int(1, 12)
  if r == 1 then return rng:int(-4, 4)
  elseif r == 2 then return rng:int(0, size + 64)
  elseif r == 3 then return 2 ^ rng:int(0, 70) - rng:int(0, 1)
  elseif r == 4 then return rng:range(-1e6, 1e6)
  elseif r == 5 then return string.format("0x%x", rng:int(0, size + 64))
  elseif r == 6 then
    local t = {}
    for i = 1, rng:int(0, 12) do t[i] = string.char(rng:int(0, 255)) end
    return table.concat(t)
  elseif r == 7 then return rng:int(0, 1) == 1
  elseif r == 8 then return ({ "triangles", "strip", "brick", "level.bin",
    "", "0x", "nope.bin", "../level.bin" })[rng:int(1, 8)]
  elseif r == 9 then return 0 / 0
  elseif r == 10 then return ({ 0x0008003d, 0x000807fd, 0x00080005,
    0x3d, 0x0018003d, 0xFFFFFFFF })[rng:int(1, 6)]
  elseif r == 11 and depth < 3 then
    local t = {}
    for _ = 1, rng:int(0, 4) do
      local key = rng:int(0, 1) == 1 and rng:int(1, 3) or
        ({ "offset", "count", "size", "record", "first", "material",
           "texture", "x" })[rng:int(1, 8)]
      t[key] = random_value(depth + 1)
    end
    return t
  end
  return nil
end

local FIELDS = { "file", "name", "meta", "mask", "mmp", "vertices", "mgp",
  "mgp_stride", "indices", "submeshes", "materials", "bogus" }

-- Lua source of a value
local function source(v, seen)
  seen = seen or {}
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) == "number" then
    if v ~= v then return "(0/0)" end
    if math.type(v) == "float" then return string.format("%.17g", v) end
    return tostring(v)
  end
  if type(v) ~= "table" then return tostring(v) end
  local out = {}
  for k, x in pairs(v) do
    out[#out + 1] = "[" .. source(k) .. "] = " .. source(x)
  end
  return "{ " .. table.concat(out, ", ") .. " }"
end

local function manifest_text()
  local r = rng:int(1, 10)
  if r == 1 then       -- random bytes
    local t = {}
    for i = 1, rng:int(0, 200) do t[i] = string.char(rng:int(0, 255)) end
    return table.concat(t)
  end
  local list = {}
  for k, e in ipairs(good) do
    if rng:int(0, 3) > 0 then list[#list + 1] = copy(e) end
    if k > 3 then break end
  end
  for _ = 1, rng:int(1, 4) do
    local e = list[rng:int(1, math.max(1, #list))]
    if not e then break end
    local field = FIELDS[rng:int(1, #FIELDS)]
    if field == "indices" and type(e.indices) == "table" and
      rng:int(0, 1) == 1 then
      e.indices[({ "offset", "count", "size", "primitive", "x" })
        [rng:int(1, 5)]] = random_value(1)
    else
      e[field] = random_value(0)
    end
  end
  if r == 2 then return "return " .. source(list[1] or {}) end
  return "return " .. source(list)
end

local started, rounds, accepted, refused = rsxmesh.clock(), 0, 0, 0
local path = dir .. "/m.lua"
while rsxmesh.clock() - started < seconds do
  local text = manifest_text()
  local mf = assert(io.open(path, "wb"))
  mf:write(text)
  mf:close()
  local ok, list, err = pcall(manifest.read, path)
  if not ok then
    io.stderr:write("fuzz_manifest: raised: ", tostring(list),
      "\n--- the manifest:\n", text, "\n")
    os.exit(1)
  end
  if list then
    local w <close> = rsxmesh.writer()
    for _, item in ipairs(list) do
      for _, s in ipairs(item.mesh.submeshes) do s.material = nil end
      local added, aerr = w:mesh(item.mesh)
      if not added and not aerr then
        io.stderr:write("fuzz_manifest: the writer raised nothing\n")
        os.exit(1)
      end
    end
    accepted = accepted + 1
  else
    if type(err) ~= "string" or not err:find(path, 1, true) then
      io.stderr:write("fuzz_manifest: a refusal not naming the manifest: ",
        tostring(err), "\n--- the manifest:\n", text, "\n")
      os.exit(1)
    end
    refused = refused + 1
  end
  rounds = rounds + 1
end
os.remove(path)
os.remove(dir .. "/level.bin")
os.remove(dir)
print(string.format("fuzz_manifest: %d manifests in %.0f s: %d accepted, "
  .. "%d refused by name, none raised", rounds, rsxmesh.clock() - started,
  accepted, refused))
