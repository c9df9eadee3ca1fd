-- scan-digests.lua - a digest of every field of every finding and mesh
-- that rsxmesh.scan returns, for inputs that exercise the scanner, read
-- in several chunk sizes and with several --min-vertices: run it before
-- and after a change to the scanner and compare the lines (`diff`). A
-- change that makes the scanner faster must leave every line the same.
--
--   rsxmesh bench/scan-digests.lua [FILE...] > digests.txt
--
-- In the test environment (make bench's, or LUA_PATH with t/ for
-- scan-lib). The inputs: t/scan-lib.lua's containers of seeds 1 to 8 and
-- its back-to-back container, 3 MB of random bytes, and each FILE (for
-- example bench/scan64.bin, its first 8,000,000 bytes as a file of its
-- own, and the bundles of `make sample`). With SCAN_BASELINE=1 in the
-- environment, the scanner's baseline vectors (SSE2) even where the
-- processor has wider ones: the digests must be the same.
local rsxmesh = require "rsxmesh"
local lib = require "scan-lib"
local R = require "rsxmesh.synth.rng"

local CHUNKS = { 4096, 5000, 65536, 0 }      -- 0: the scanner's default
local MINS = { 1, 3, 24, 30, 100 }

local function field(v)
  if math.type(v) == "float" then return string.format("%.17g", v) end
  if type(v) == "table" then
    local parts = {}
    for k, x in pairs(v) do parts[#parts + 1] = k .. "=" .. field(x) end
    table.sort(parts)
    return "{" .. table.concat(parts, ",") .. "}"
  end
  return tostring(v)
end

local function dump(r)
  local lines = {}
  for _, list in ipairs({ r.found, r.meshes }) do
    for _, f in ipairs(list) do lines[#lines + 1] = field(f) end
    lines[#lines + 1] = "--"
  end
  return table.concat(lines, "\n")
end

local tmp = os.tmpname()
local function digest(s)
  local f = assert(io.open(tmp, "wb"))
  assert(f:write(s))
  assert(f:close())
  local p = assert(io.popen("sha256sum < " .. tmp, "r"))
  local d = p:read("l"):match("^(%x+)")
  p:close()
  return d
end

local baseline = os.getenv("SCAN_BASELINE") == "1"

local function scan(name, what, opts)
  opts.baseline_vectors = baseline
  local r = assert(rsxmesh.scan(what, opts))
  print(string.format("%s chunk=%d min=%d: %d found, %d meshes, %s", name,
    opts.chunk or 0, opts.min_vertices or 24, #r.found, #r.meshes,
    digest(dump(r))))
end

local function each(name, what, bytes, big)
  for _, chunk in ipairs(CHUNKS) do
    if not big or chunk == 0 or chunk == 5000 then
      scan(name, what, { bytes = bytes or nil,
        chunk = chunk > 0 and chunk or nil })
    end
  end
  for _, min in ipairs(big and {} or MINS) do
    scan(name, what, { bytes = bytes or nil, chunk = 5000,
      min_vertices = min })
  end
end

local meshes = lib.meshes()
for seed = 1, 8 do
  each("container " .. seed, (lib.container{ seed = seed,
    meshes = meshes }), true)
end
each("back to back", (lib.container{ seed = 1, meshes = meshes,
  back_to_back = true }), true)
each("random 3 MB", lib.decoy("random", 3 * 1024 * 1024, R.new(20, 3)),
  true)
for _, path in ipairs(arg) do
  local size = assert(io.open(path, "rb")):seek("end")
  each(path, path, false, size > 16 * 1000 * 1000)
end
os.remove(tmp)
