-- scripts-scan.lua - rsxmesh scan on a container of the synthetic disc's
-- meshes between decoys: its text, its JSON, --extract read back by the
-- other scripts, --manifest loaded as Lua, and bad inputs among good ones.

local t = require "tap"
local lib = require "scripts-lib"
local slib = require "scan-lib"
local rsxmesh = require "rsxmesh"

local dir = lib.tmpdir()
local bytes, truth, meshes = slib.container{ seed = 1 }
lib.write(dir .. "/c.bin", bytes)

-- the first MMP placed, and its mesh, as the text should show them
local first
for _, p in ipairs(truth) do
  if p.kind == "mmp" and meshes[p.mesh].vertex_count >= 24 and
    slib.has_normals(meshes[p.mesh]) then
    first = first or p
  end
end

local status, out, err = lib.rsxmesh(dir, "scan", "c.bin")
t.is(status, 0, "scan: exit 0")
t.like(out, "^c%.bin: " .. #bytes .. " bytes, ", "scan: the file's line")
t.like(out, string.format("\n  mmp      0x%08x  %d vertices, stride 16, "
  .. "unit normals 100", first.offset, first.vertices) .. "%.0 %%",
  "scan: an MMP's line with its hex offset")
t.like(err, "^scan: 1 file scanned in [%d.]+ s\n$", "scan: the summary")

-- --min-vertices above every mesh: no stream, records still
status, out = lib.rsxmesh(dir, "scan", "--min-vertices", "100000", "c.bin")
t.is(status, 0, "--min-vertices: exit 0")
t.ok(not out:find("\n  mmp "), "--min-vertices 100000: no MMP")
t.ok(out:find("\n  meta "), "--min-vertices 100000: records still")

-- --json: the issue's shape
local has_cjson, cjson = pcall(require, "cjson")
status, out = lib.rsxmesh(dir, "scan", "--json", "c.bin")
t.is(status, 0, "--json: exit 0")
if has_cjson then
  local doc = cjson.decode(out)
  t.is(#doc.files, 1, "--json: one file")
  local f = doc.files[1]
  t.is(f.path, "c.bin", "--json: path")
  t.is(f.size, #bytes, "--json: size")
  local r = assert(rsxmesh.scan(dir .. "/c.bin"))
  t.is(#f.found, #r.found, "--json: every finding")
  t.is(#f.meshes, #r.meshes, "--json: every mesh")
  local kinds = {}
  for _, x in ipairs(f.found) do
    if x.kind == "mmp" or x.kind == "mgp" then
      kinds[x.kind] = type(x.vertices) == "number" and
        type(x.stride) == "number" and type(x.offset) == "number"
    elseif x.kind == "indices" then
      kinds.indices = type(x.count) == "number" and
        (x.size == 2 or x.size == 4)
    elseif x.kind == "meta" then
      kinds.meta = type(x.mask) == "number"
    end
  end
  t.is_deeply(kinds, { mmp = true, mgp = true, indices = true, meta = true },
    "--json: each kind with its fields, numbers as numbers")
else
  t.skip(6, "no lua-cjson")
end

-- --extract: a bundle the other scripts read
status, out, err = lib.rsxmesh(dir, "scan", "c.bin", "--extract", "-o",
  "x", "--manifest", "m.lua")
t.is(status, 0, "--extract: exit 0")
t.like(err, "1 file scanned, %d+ meshes extracted", "--extract: summary")
local b = assert(rsxmesh.open(dir .. "/x/c.rsxb"))
t.ok(#b >= 30, "--extract: the meshes with indices and streams: " .. #b)
-- the first MMP's bytes are the mesh's stream
local found
for _, m in b:meshes() do
  if m:stream("mmp") == bytes:sub(first.offset + 1,
    first.offset + 16 * first.vertices) then
    found = m
  end
end
t.ok(found, "--extract: the first MMP's bytes in a mesh")
b:close()
status = lib.rsxmesh(dir, "info", "x/c.rsxb")
t.is(status, 0, "info reads the extracted bundle")
status = lib.rsxmesh(dir, "obj-export", "x/c.rsxb", "-o", "obj")
t.is(status, 0, "obj-export reads it")
status = lib.rsxmesh(dir, "render", "x/c.rsxb", "-o", "c.png",
  "--size", "64x64")
t.is(status, 0, "render reads it")

-- --manifest: a Lua file returning an entry per mesh
local chunk = assert(loadfile(dir .. "/m.lua"))
local man = chunk()
local r = assert(rsxmesh.scan(dir .. "/c.bin"))
-- the meshes pack can take; the others are in comments
local whole = {}
for _, m in ipairs(r.meshes) do
  if m.indices and (m.mgp or rsxmesh.format(m.mask).mgp_stride == 0) then
    whole[#whole + 1] = m
  end
end
t.is(#man, #whole, "--manifest: an entry per mesh pack can take")
t.is(man[1].file, "c.bin", "--manifest: the file")
t.is(math.tointeger(tonumber(man[1].mmp)), r.found[whole[1].mmp].offset,
  "--manifest: the MMP's offset")
t.is(select(2, lib.read(dir .. "/m.lua"):gsub("%-%-%[%[", "")),
  #r.meshes - #whole, "--manifest: the others in comments")
status = lib.rsxmesh(dir, "pack", "m.lua", "-o", "p.rsxb")
t.is(status, 0, "--manifest: pack takes it")

-- bad inputs among good ones: each named, the rest scanned
lib.write(dir .. "/empty.bin", "")
status, out, err = lib.rsxmesh(dir, "scan", "empty.bin", "x", "missing",
  "c.bin")
t.is(status, 1, "bad inputs: exit 1")
t.like(err, "scan: x: is a directory\n", "a directory named")
t.like(err, "scan: missing: [^\n]+\n", "a missing file named")
t.like(out, "empty%.bin: 0 bytes, 0 findings, 0 meshes", "empty: nothing")
t.like(out, "\nc%.bin: ", "the good file after them scanned")
t.like(err, "2 files scanned in [%d.]+ s; 2 failures above",
  "bad inputs: the summary")

-- --extract without -o
status, _, err = lib.rsxmesh(dir, "scan", "--extract", "c.bin")
t.is(status, 2, "--extract without -o: a usage error")
t.like(err, "%-%-extract needs %-o DIR", "--extract without -o: said")

lib.cleanup()
t.done_testing()
