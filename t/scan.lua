-- scan.lua - rsxmesh.scan: streams, index buffers and records found in
-- bytes of unknown layout. Hand-made inputs whose findings follow from the
-- note's rules, then containers of the synthetic disc's meshes between
-- decoys (t/scan-lib.lua), held to what issue 20 asks, then bad input.

local t = require "tap"
local rsxmesh = require "rsxmesh"
local lib = require "scan-lib"

local function scan(bytes, opts)
  opts = opts or {}
  opts.bytes = true
  return rsxmesh.scan(bytes, opts)
end

local function of_kind(r, kind)
  local out = {}
  for _, f in ipairs(r.found) do
    if f.kind == kind then out[#out + 1] = f end
  end
  return out
end

local function tmpfile(bytes)
  local path = os.tmpname()
  local f = assert(io.open(path, "wb"))
  f:write(bytes)
  f:close()
  return path
end

-- ------------------------------------------------------------ by hand

-- An MMP of 30 vertices: positions (i, 2i, -i), the normal 0x001FF800,
-- the note's example of (0, 32736/32767, 0), within 0.005 of unit. It
-- lies at 0x40, after 64 bytes that are not floats in range (0xFF).
do
  local parts = { string.rep("\xFF", 0x40) }
  for i = 0, 29 do
    parts[#parts + 1] = string.pack(">fffI4", i, 2 * i, -i, 0x001FF800)
  end
  parts[#parts + 1] = string.rep("\xFF", 0x40)
  local r = assert(scan(table.concat(parts)))
  local mmp = of_kind(r, "mmp")
  t.is(#mmp, 1, "hand MMP: one run")
  t.is(mmp[1] and mmp[1].offset, 0x40, "hand MMP: at 0x40")
  t.is(mmp[1] and mmp[1].vertices, 30, "hand MMP: 30 vertices")
  t.is(mmp[1] and mmp[1].stride, 16, "hand MMP: stride 16")
  t.is(mmp[1] and mmp[1].unit_share, 1.0, "hand MMP: every normal unit")
  t.is_deeply(mmp[1] and mmp[1].bounds,
    { min = { 0, 0, -29 }, max = { 29, 58, 0 } }, "hand MMP: bounds")
  t.is(#r.meshes, 1, "hand MMP: one mesh")
  t.is(r.meshes[1] and r.meshes[1].mask, 0x00080005,
    "hand MMP: no record, no MGP: mask 0x00080005")
  -- with min_vertices 31 it is too short
  r = assert(scan(table.concat(parts), { min_vertices = 31 }))
  t.is(#r.found, 0, "hand MMP: min_vertices 31 reports nothing")

  -- the same positions with normal 0x3F800000 (1.0f read as CMP: z =
  -- 254 * 64/32767 = 0.496, not unit): nothing; with zero normals (the
  -- padded float3 look-alike): nothing
  for _, n in ipairs{ 0x3F800000, 0 } do
    local q = {}
    for i = 0, 29 do q[#q + 1] = string.pack(">fffI4", i, 2 * i, -i, n) end
    r = assert(scan(table.concat(q)))
    t.is(#of_kind(r, "mmp"), 0,
      string.format("normals 0x%08x: no MMP", n))
  end

  -- zero normals inside a run (up to 3 in a row) are counted, not cut
  local z = {}
  for i = 0, 29 do
    z[#z + 1] = string.pack(">fffI4", i, 0, 0,
      (i == 10 or i == 11) and 0 or 0x001FF800)
  end
  r = assert(scan(table.concat(z)))
  mmp = of_kind(r, "mmp")
  t.is(mmp[1] and mmp[1].vertices, 30, "two zero normals inside: 30")
  t.is(mmp[1] and mmp[1].zero_normals, 2, "two zero normals counted")
end

-- An MGP of mask 0x0008003d (A, B, U0: stride 12): A and B 0x001FF800
-- (unit), the UVs (1.0, 0.5) as halves 0x3C00, 0x3800; then A and B
-- 0x000007C0 (x = 0x7C0 - 0x800 = -64: length 64 * 32/32767, short of
-- unit), which A may be and B may not.
do
  local function mgp(b)
    local q = { string.rep("\xFF", 16) }
    for _ = 1, 40 do
      q[#q + 1] = string.pack(">I4I4I2I2", b, b, 0x3C00, 0x3800)
    end
    q[#q + 1] = string.rep("\xFF", 16)
    return table.concat(q)
  end
  local r = assert(scan(mgp(0x001FF800)))
  local g = of_kind(r, "mgp")
  t.is(#g, 1, "hand MGP: one run")
  t.is(g[1] and g[1].offset, 16, "hand MGP: at 0x10")
  t.is(g[1] and g[1].mask, 0x0008003d, "hand MGP: mask 0x0008003d")
  t.is(g[1] and g[1].stride, 12, "hand MGP: stride 12")
  t.is(g[1] and g[1].vertices, 40, "hand MGP: 40 vertices")
  r = assert(scan(mgp(0x000007C0)))
  t.is(#of_kind(r, "mgp"), 0, "B not unit: no MGP")
end

-- A metadata record: the mask at +0x8C; one at 0x20 and a word that is
-- no mask (0x00080009: bit 3 without its pair is in no layout)
do
  local rec = string.rep("\xEE", 0x8C) .. string.pack(">I4", 0x000801ff)
  local r = assert(scan(string.rep("\xEE", 0x20) .. rec ..
    string.rep("\xEE", 0x8C) .. string.pack(">I4", 0x00080009)))
  local m = of_kind(r, "meta")
  t.is(#m, 1, "one metadata record")
  t.is(m[1] and m[1].offset, 0x20, "record at 0x20 (mask at 0xAC)")
  t.is(m[1] and m[1].mask, 0x000801ff, "its mask")
end

-- Index buffers: a 7 x 5 grid of quads as a u16 list (grid_triangles of
-- the generator: 35 quads, 210 indices of vertices 0..47) between bytes
-- 0xFF, and the same values as u32
do
  local B = require "rsxmesh.synth.builder"
  local idx = {}
  B.grid_triangles(idx, 1, 7, 5)
  for i = 1, #idx do idx[i] = idx[i] - 1 end
  t.is(#idx, 210, "grid: 210 indices")
  for _, size in ipairs{ 2, 4 } do
    local fmt = size == 2 and ">I2" or ">I4"
    local q = { string.rep("\xFF", 32) }
    for i = 1, #idx do q[#q + 1] = string.pack(fmt, idx[i]) end
    q[#q + 1] = string.rep("\xFF", 32)
    local r = assert(scan(table.concat(q)))
    local ix = of_kind(r, "indices")
    t.is(#ix, 1, size .. "-byte grid: one buffer")
    t.is(ix[1] and ix[1].offset, 32, size .. "-byte grid: at 0x20")
    t.is(ix[1] and ix[1].count, 210, size .. "-byte grid: 210 values")
    t.is(ix[1] and ix[1].size, size, size .. "-byte grid: size")
    t.is(ix[1] and ix[1].vertices, 48, size .. "-byte grid: fits 48")
    t.is(ix[1] and ix[1].primitive, "triangles", size .. "-byte: a list")
  end
  -- as strips (grid_strips: rows restarted by 0xFFFF)
  local st = {}
  B.grid_strips(st, 1, 7, 5)
  local q = { string.rep("\xFF", 32) }
  for i = 1, #st do
    q[#q + 1] = string.pack(">I2", st[i] == -1 and 0xFFFF or st[i] - 1)
  end
  q[#q + 1] = string.rep("\x80", 32)
  local r = assert(scan(table.concat(q)))
  local ix = of_kind(r, "indices")
  t.is(ix[1] and ix[1].primitive, "strip", "strip grid: a strip")
  t.is(ix[1] and ix[1].restarts, 4, "strip grid: 4 restarts")
  t.is(ix[1] and ix[1].count, #st, "strip grid: every value")
end

-- ------------------------------------------------- generated containers

local function covers(f, p)
  return f.offset <= p.offset and f.offset >= p.offset - 64 and
    f.offset + f.bytes >= p.offset + p.bytes and
    f.offset + f.bytes <= p.offset + p.bytes + 64
end

local meshes = lib.meshes()
local masks = {}
for _, m in ipairs(meshes) do
  masks[string.unpack(">I4", m.meta, 0x8D)] = true
end
local nmasks = 0
for _ in pairs(masks) do nmasks = nmasks + 1 end
t.is(nmasks, 16, "the sample's meshes have every mask of the note")

-- MGPs of UV sets alone (no tangent frames, no colour): found by their
-- triangles (scan_find_uv), counted over the containers
local uv_placed, uv_exact = 0, 0
-- and of colour and UV sets, where the mesh has normals (its MMP found)
local colour_placed, colour_exact = 0, 0

for seed = 1, 8 do
  local bytes, truth = lib.container{ seed = seed, meshes = meshes }
  local r = assert(scan(bytes))
  local at = {}
  for _, f in ipairs(r.found) do at[f.kind .. ":" .. f.offset] = f end
  local bad = {}
  local function miss(p, why)
    bad[#bad + 1] = string.format("%s at 0x%x of %s: %s", p.kind, p.offset,
      meshes[p.mesh].name, why)
  end
  local want = { mmp = 0, mgp = 0, indices = 0, meta = 0 }
  for _, p in ipairs(truth) do
    local m = p.mesh and meshes[p.mesh]
    -- the glow cards' normals are all zero (see has_normals), and they
    -- are shorter than the default 24 vertices anyway
    local must = m and m.vertex_count >= 24 and lib.has_normals(m)
    if p.kind == "mmp" and must then
      want.mmp = want.mmp + 1
      local f = at["mmp:" .. p.offset]
      if not f then miss(p, "not found")
      elseif f.vertices ~= p.vertices then
        miss(p, f.vertices .. " vertices, not " .. p.vertices)
      end
    elseif p.kind == "meta" then
      want.meta = want.meta + 1
      local f = at["meta:" .. p.offset]
      if not f then miss(p, "not found")
      elseif f.mask ~= p.mask then miss(p, "mask") end
    elseif p.kind == "mgp" and must and lib.has_frames(p.mask) then
      want.mgp = want.mgp + 1
      local f = at["mgp:" .. p.offset]
      if not f then miss(p, "not found")
      elseif f.vertices ~= p.vertices or f.stride ~= p.stride or
        f.mask ~= p.mask then
        miss(p, string.format("%d x %d mask 0x%08x", f.vertices, f.stride,
          f.mask))
      end
    elseif p.kind == "indices" and must then
      want.indices = want.indices + 1
      local ok
      for _, f in ipairs(of_kind(r, "indices")) do
        if covers(f, p) and f.size == p.size then ok = true end
      end
      if not ok then miss(p, "no run covers it within 64 bytes") end
    end
  end
  t.is_deeply(bad, {}, string.format("container %d: %d MMPs, %d records, "
    .. "%d MGPs with frames, %d index buffers found as placed", seed,
    want.mmp, want.meta, want.mgp, want.indices))
  -- every MGP reported lies where one was placed, with its stride, count
  -- and mask (those of UV sets alone included); those found are counted
  local placed_mgp, stray = {}, {}
  local function exact(p)
    local f = at["mgp:" .. p.offset]
    return f and f.vertices == p.vertices and f.stride == p.stride and
      f.mask == p.mask and 1 or 0
  end
  for _, p in ipairs(truth) do
    if p.kind == "mgp" then placed_mgp[p.offset] = p end
    if p.kind == "mgp" and lib.uv_only(p.mask) then
      uv_placed = uv_placed + 1
      uv_exact = uv_exact + exact(p)
    end
    if p.kind == "mgp" and lib.colour_uv(p.mask) and
      lib.has_normals(meshes[p.mesh]) then
      colour_placed = colour_placed + 1
      colour_exact = colour_exact + exact(p)
    end
  end
  for _, f in ipairs(of_kind(r, "mgp")) do
    local p = placed_mgp[f.offset]
    if not (p and p.vertices == f.vertices and p.stride == f.stride and
            p.mask == f.mask) then
      stray[#stray + 1] = string.format("0x%x: %d x %d mask 0x%08x",
        f.offset, f.vertices, f.stride, f.mask)
    end
  end
  t.is_deeply(stray, {}, "container " .. seed .. ": every MGP as placed")
  -- nothing inside a decoy: no finding overlaps one, but for an index
  -- run's allowed 64 bytes
  local inside = {}
  for _, p in ipairs(truth) do
    if p.kind == "decoy" then
      for _, f in ipairs(r.found) do
        local slack = f.kind == "indices" and 64 or 0
        if f.offset + slack < p.offset + p.bytes and
          p.offset < f.offset + f.bytes - slack then
          inside[#inside + 1] = string.format("%s at 0x%x in %s at 0x%x",
            f.kind, f.offset, p.what, p.offset)
        end
      end
    end
  end
  t.is_deeply(inside, {}, "container " .. seed .. ": nothing in decoys")

  -- the meshes: each whose streams were found is assembled with its own
  -- record, MMP, index buffer and (with frames) MGP
  local wrong = {}
  local placed = {}
  for _, p in ipairs(truth) do
    if p.mesh then
      placed[p.mesh] = placed[p.mesh] or {}
      placed[p.mesh][p.kind] = p
    end
  end
  for i, m in ipairs(meshes) do
    local pl = placed[i]
    if m.vertex_count >= 24 and lib.has_normals(m) then
      local f = at["mmp:" .. pl.mmp.offset]
      local sm = f and f.mesh and r.meshes[f.mesh]
      if not sm then
        wrong[#wrong + 1] = m.name .. ": not assembled"
      else
        local function off(k) return sm[k] and r.found[sm[k]].offset end
        if off("meta") ~= pl.meta.offset then
          wrong[#wrong + 1] = m.name .. ": another record"
        end
        -- (or one of the same bytes: boxes built alike have the same
        -- index buffer, and nothing tells them apart)
        local ix = sm.indices and r.found[sm.indices]
        local same = ix and bytes:sub(ix.offset + 1, ix.offset + ix.bytes)
          :find(bytes:sub(pl.indices.offset + 1,
                          pl.indices.offset + pl.indices.bytes), 1, true)
        if not (ix and (covers(ix, pl.indices) or same)) then
          wrong[#wrong + 1] = m.name .. ": another index buffer"
        end
        if lib.has_frames(pl.meta.mask) and off("mgp") ~= pl.mgp.offset then
          wrong[#wrong + 1] = m.name .. ": another MGP"
        end
        -- an MGP of UV sets found is this mesh's
        if lib.uv_only(pl.meta.mask) and at["mgp:" .. pl.mgp.offset] and
          off("mgp") ~= pl.mgp.offset then
          wrong[#wrong + 1] = m.name .. ": its UV MGP not in the mesh"
        end
        if lib.has_frames(pl.meta.mask) and sm.confidence ~= 1 then
          wrong[#wrong + 1] = m.name .. ": confidence " .. sm.confidence
        end
      end
    end
  end
  t.is_deeply(wrong, {}, "container " .. seed .. ": meshes assembled")

  if seed == 1 then
    -- a file read in chunks of 4 KiB finds the same as the bytes whole
    local path = tmpfile(bytes)
    local rf = assert(rsxmesh.scan(path, { chunk = 4096 }))
    os.remove(path)
    t.is(rf.path, path, "file: path")
    t.is(rf.size, #bytes, "file: size")
    t.is_deeply(rf.found, r.found, "chunks of 4 KiB: the same findings")
    t.is_deeply(rf.meshes, r.meshes, "chunks of 4 KiB: the same meshes")
  end
end

-- 43 of the 56 at the time of writing: a box whose faces share their UVs
-- ties with the same read a face later, a regular grid with itself a row
-- later, and are left out; the share is kept from going back
t.diag(string.format("MGPs of UV sets alone: %d of %d exact", uv_exact,
  uv_placed))
t.is(uv_placed, 56, "56 MGPs of UV sets alone placed in the 8 containers")
t.ok(uv_exact >= 40, "40 MGPs of UV sets alone at least found exact")
-- a mesh of mask 0x67 (226 vertices) in each container; its colour bytes
-- break the runs of UV words (the 0x27 one is a glow card, whose MMP is
-- not found)
t.diag(string.format("MGPs of colour and UV sets: %d of %d exact",
  colour_exact, colour_placed))
t.is(colour_placed, 8, "8 MGPs of colour and UV sets placed, in meshes "
  .. "with normals")
t.is(colour_exact, 8, "the 8 MGPs of colour and UV sets found exact")

-- back to back: every MMP, then every MGP, then every index buffer, no
-- gap. What is found goes in the diagnostics (doc/finding-meshes.md).
do
  local bytes, truth = lib.container{ seed = 1, meshes = meshes,
                                      back_to_back = true }
  local r = assert(scan(bytes))
  local at = {}
  for _, f in ipairs(r.found) do at[f.kind .. ":" .. f.offset] = f end
  local n, hit = { mmp = 0, mgp = 0 }, { mmp = 0, mgp = 0 }
  for _, p in ipairs(truth) do
    if (p.kind == "mmp" or p.kind == "mgp" and lib.has_frames(p.mask)) and
      meshes[p.mesh].vertex_count >= 24 and lib.has_normals(meshes[p.mesh])
    then
      n[p.kind] = n[p.kind] + 1
      local f = at[p.kind .. ":" .. p.offset]
      if f and f.vertices == p.vertices then hit[p.kind] = hit[p.kind] + 1 end
    end
  end
  local uv_n, uv_hit, placed_mgp, stray = 0, 0, {}, {}
  local colour_n, colour_hit = 0, 0
  for _, p in ipairs(truth) do
    if p.kind == "mgp" then placed_mgp[p.offset] = p end
    if p.kind == "mgp" and lib.uv_only(p.mask) then
      uv_n = uv_n + 1
      local f = at["mgp:" .. p.offset]
      if f and f.vertices == p.vertices then uv_hit = uv_hit + 1 end
    end
    if p.kind == "mgp" and lib.colour_uv(p.mask) then
      colour_n = colour_n + 1
      local f = at["mgp:" .. p.offset]
      if f and f.vertices == p.vertices then colour_hit = colour_hit + 1 end
    end
  end
  for _, f in ipairs(of_kind(r, "mgp")) do
    local p = placed_mgp[f.offset]
    if (lib.uv_only(f.mask) or lib.colour_uv(f.mask)) and
      not (p and p.vertices == f.vertices and p.mask == f.mask) then
      stray[#stray + 1] = string.format("0x%x", f.offset)
    end
  end
  t.is_deeply(stray, {}, "back to back: no MGP of UV sets but as placed")
  t.diag(string.format("back to back: %d of %d MMPs, %d of %d MGPs with "
    .. "frames, %d of %d of UV sets alone, %d of %d of colour and UV sets "
    .. "exact", hit.mmp, n.mmp, hit.mgp, n.mgp, uv_hit, uv_n, colour_hit,
    colour_n))
  -- runs cut where the records' vertex counts add up (the figures the
  -- closing note gives, kept from going back)
  t.ok(hit.mmp >= 29, "back to back: 29 MMPs at least")
  t.ok(hit.mgp >= 21, "back to back: 21 MGPs with frames at least")
end

-- ---------------------------------------------------------- bad input

for _, case in ipairs{
  { "empty", "" }, { "1 byte", "\1" }, { "zeros", string.rep("\0", 1 << 20) },
  { "0xFF", string.rep("\xFF", 1 << 20) },
  { "text", string.rep("rsxmesh ", 1 << 17) },
} do
  local r = assert(scan(case[2]))
  t.is(#r.found + #r.meshes, 0, case[1] .. ": nothing found")
  local path = tmpfile(case[2])
  r = assert(rsxmesh.scan(path))
  os.remove(path)
  t.is(#r.found, 0, case[1] .. " as a file: nothing found")
end

do
  local dir = os.tmpname()
  os.remove(dir)
  assert(require("lfs").mkdir(dir))
  local r, err = rsxmesh.scan(dir)
  t.is(r, nil, "a directory: nil")
  t.is(err, dir .. ": is a directory", "a directory: named")
  os.remove(dir)
  r, err = rsxmesh.scan(dir .. "/missing.bin")
  t.is(r, nil, "a missing file: nil")
  t.like(err, "^" .. dir:gsub("%p", "%%%0") .. "/missing%.bin: ",
    "a missing file: named")
  r, err = rsxmesh.scan("a\0b")
  t.like(err, "NUL", "a path with a NUL byte")
end

-- A UV search cut short by uv_tries reports nothing: it has not seen the
-- start that may tie with its best. A UV-only mesh whose MGP lies twice,
-- the same bytes nearer its MMP and farther, between text: with every
-- start tried the two tie and neither is taken; with fewer tries, the
-- nearer one alone was seen and must not be taken either. With the one
-- copy, the search finds it at its offset.
do
  local m
  for _, x in ipairs(lib.meshes()) do
    local mask = string.unpack(">I4", x.meta, 0x8D)
    if lib.uv_only(mask) and lib.has_normals(x) and x.vertex_count >= 100
        and not m then
      m = x
    end
  end
  local function text(n) return lib.decoy("text", n) end
  local function build(twice)
    local parts, size = {}, 0
    local function put(b)
      local pad = (-size) % 16
      parts[#parts + 1] = string.rep("\0", pad) .. b
      size = size + pad + #b
      return size - #b
    end
    put(text(256))
    put(m.meta)
    for _, sub in ipairs(m.submeshes) do put(sub.record) end
    put(text(512))
    local mmp = put(m.mmp)
    put(text(512))
    local near = twice and put(m.mgp)
    put(text(4096))
    local own = put(m.mgp)
    put(text(512))
    put(m.indices)
    put(text(256))
    return table.concat(parts), own, near
  end
  local function mgps(bytes, tries)
    local out = {}
    for _, f in ipairs(scan(bytes, { uv_tries = tries }).found) do
      if f.kind == "mgp" then out[#out + 1] = f.offset end
    end
    return out
  end
  local once, own = build(false)
  t.is_deeply(mgps(once), { own }, "a UV-only MGP once: found at its offset")
  local both, _, near = build(true)
  t.is_deeply(mgps(both), {}, "the same MGP twice: a tie, neither taken")
  local taken = {}
  for tries = 1, 600 do
    local got = mgps(both, tries)
    if #got > 0 then taken[#taken + 1] = tries .. ": " .. got[1] end
  end
  t.is_deeply(taken, {}, "uv_tries 1 to 600: neither copy taken (the "
    .. "nearer at " .. near .. ") by a search cut short")
end

t.error_like(function() rsxmesh.scan("", { bytes = true, bogus = 1 }) end,
  "rsxmesh.scan: unknown option 'bogus'", "an unknown option")
t.error_like(function() rsxmesh.scan("", { bytes = true, min_vertices = 0 })
  end, "min_vertices 0 out of range", "min_vertices 0")
t.error_like(function() rsxmesh.scan("", { bytes = true, uv_tries = 0 })
  end, "rsxmesh.scan: uv_tries 0 out of range", "uv_tries 0")
t.error_like(function() rsxmesh.scan("", { bytes = true, chunk = 100 }) end,
  "chunk 100 out of range", "a chunk too small")
t.error_like(function() rsxmesh.scan(nil) end, "rsxmesh.scan",
  "no path")

t.done_testing()
