-- scan-paths.lua - the scanner's code paths find the same: its widest
-- vectors (AVX2, where the processor has them; src/scan*.c) against the
-- baseline ones (opts.baseline_vectors), every field of every finding and
-- mesh, on the containers of t/scan-lib.lua, back to back, and on random
-- bytes, read in several chunk sizes; and the lines for people that
-- rsxmesh.scan makes in C (opts.text, what `rsxmesh scan` prints) against
-- the same lines made here from its tables, with and without the tables
-- (opts.tables).

local t = require "tap"
local rsxmesh = require "rsxmesh"
local lib = require "scan-lib"
local R = require "rsxmesh.synth.rng"

local function scan(bytes, opts)
  opts.bytes = true
  return assert(rsxmesh.scan(bytes, opts))
end

local meshes = lib.meshes()
local inputs = {}
for seed = 1, 8 do
  inputs[#inputs + 1] = { "container " .. seed,
    (lib.container{ seed = seed, meshes = meshes }) }
end
inputs[#inputs + 1] = { "back to back",
  (lib.container{ seed = 1, meshes = meshes, back_to_back = true }) }
inputs[#inputs + 1] = { "random bytes",
  lib.decoy("random", 1024 * 1024, R.new(20, 3)) }

-- the widest vectors and the baseline ones: the same tables
for _, input in ipairs(inputs) do
  for _, chunk in ipairs({ 4096, 5000, 65536 }) do
    local wide = scan(input[2], { chunk = chunk })
    local base = scan(input[2], { chunk = chunk, baseline_vectors = true })
    t.is_deeply(wide, base, string.format("%s, chunks of %d: the widest "
      .. "vectors find what the baseline ones do (%d findings)", input[1],
      chunk, #base.found))
  end
end

-- the text, as the scan script wrote it from the tables before it was C
local format, fmt = string.format, rsxmesh.fmt
local function hex(n) return format("0x%08x", n) end

local function describe(f)
  if f.kind == "mmp" then
    local lo, hi = f.bounds.min, f.bounds.max
    return format("%d vertices, stride 16, unit normals %.1f %%, bounds "
      .. "(%s, %s, %s) .. (%s, %s, %s)", f.vertices, 100 * f.unit_share,
      fmt(lo[1]), fmt(lo[2]), fmt(lo[3]), fmt(hi[1]), fmt(hi[2]),
      fmt(hi[3]))
  elseif f.kind == "mgp" then
    return format("%d vertices, stride %d, mask %s", f.vertices, f.stride,
      hex(f.mask))
  elseif f.kind == "indices" then
    return format("%d values, %d-byte %s%s, fits %d vertices", f.count,
      f.size, f.primitive == "strip" and "strip" or "list",
      f.restarts > 0 and format(" (%d restarts)", f.restarts) or "",
      f.vertices)
  end
  return "mask " .. hex(f.mask)
end

local function text_of(r)
  local lines = {}
  for _, f in ipairs(r.found) do
    lines[#lines + 1] = format("  %-7s  %s  %s%s\n", f.kind, hex(f.offset),
      describe(f), f.mesh and ("  [mesh " .. f.mesh .. "]") or "")
  end
  for k, m in ipairs(r.meshes) do
    local function at(i) return i and hex(r.found[i].offset) or "-" end
    lines[#lines + 1] = format("  mesh %d: %d vertices, mask %s, confidence "
      .. "%.2f: record %s, mmp %s, mgp %s, indices %s (%s)\n", k,
      m.vertices, hex(m.mask), m.confidence, at(m.meta), at(m.mmp),
      at(m.mgp), at(m.indices), m.why)
  end
  return table.concat(lines)
end

for _, input in ipairs(inputs) do
  local r = scan(input[2], { text = true })
  t.is(r.text, text_of(r), input[1] .. ": opts.text is the tables' lines")
end
t.is(scan(inputs[1][2], {}).text, nil, "no text unless asked")
do
  local full = scan(inputs[1][2], { text = true })
  local bare = scan(inputs[1][2], { text = true, tables = false })
  t.is(bare.text, full.text, "tables = false: the same text")
  t.is(bare.found_count, #full.found, "tables = false: found_count")
  t.is(bare.mesh_count, #full.meshes, "tables = false: mesh_count")
  t.ok(bare.found == nil and bare.meshes == nil,
    "tables = false: no found, no meshes")
  t.is(full.found_count, #full.found, "found_count with the tables too")
end
local r = scan(inputs[1][2], { min_vertices = 3, text = true })
local kinds = {}
for _, f in ipairs(r.found) do
  kinds[f.kind .. (f.restarts and f.restarts > 0 and "+" or "")] = true
end
t.ok(kinds.mmp and kinds.mgp and kinds.indices and kinds.meta,
  "the text's cases: every kind of finding is in the container")
t.is(r.text, text_of(r), "min_vertices 3: opts.text is the tables' lines")

t.done_testing()
