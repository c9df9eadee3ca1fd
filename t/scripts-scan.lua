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

-- --uv-tries: the UV search's budget. With the default, the MGPs of UV
-- sets alone are found as t/scan.lua counts them; with 1 try, none (a
-- search cut short says nothing), the rest the same
local function uv_only_mgps(text)
  local n = 0
  for mask in text:gmatch("\n  mgp [^\n]*mask 0x(%x+)") do
    if slib.uv_only(tonumber(mask, 16)) then n = n + 1 end
  end
  return n
end
local _, all_tries = lib.rsxmesh(dir, "scan", "c.bin")
status, out = lib.rsxmesh(dir, "scan", "--uv-tries", "1", "c.bin")
t.is(status, 0, "--uv-tries 1: exit 0")
t.ok(uv_only_mgps(all_tries) > 0, "the default finds MGPs of UV sets alone ("
  .. uv_only_mgps(all_tries) .. ")")
t.is(uv_only_mgps(out), 0, "--uv-tries 1: none")
t.ok(out:find("\n  meta "), "--uv-tries 1: records still")
status, out, err = lib.rsxmesh(dir, "scan", "--uv-tries", "0", "c.bin")
t.is(status, 2, "--uv-tries 0: a usage error")
t.like(err, "uv%-tries", "--uv-tries 0: names the option")

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

-- --json's keys in the issue's order, as written: a file's path, size,
-- found, meshes; an index entry's kind, offset, bytes, vertices, count,
-- size (then the others, sorted)
t.like(out, '^{\n  "files": %[\n    {\n      "path": "c%.bin",\n      "size": '
  .. #bytes .. ',\n      "found": %[\n', "--json: a file's path, size, found")
t.like(out, '%],\n      "meshes": %[\n', "--json: ... then meshes")
t.like(out, '{\n          "kind": "indices",\n          "offset": %d+,\n'
  .. '          "bytes": %d+,\n          "vertices": %d+,\n'
  .. '          "count": %d+,\n          "size": [24],\n'
  .. '          "primitive": "%a+",\n          "restarts": %d+\n        }',
  "--json: an index entry's kind, offset, bytes, vertices, count, size")
t.like(out, '"bounds": {\n            "min": %[[^\n]*\n            "max": ',
  "--json: bounds' min, then max")

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

-- -j N: worker processes share the files, the largest first, and the
-- output is -j 1's, byte for byte (but for the summary's seconds). The
-- inputs: a small container (other meshes, seed 2) before the big one,
-- so that the workers start them in another order than the output's.
lib.write(dir .. "/small.bin", (slib.container{ seed = 2,
  meshes = { meshes[1], meshes[2] } }))
local function unclocked(s) return (s:gsub(" in %d+%.%d+ s", " in - s")) end
local function same(name, ...)
  local one = table.pack(lib.rsxmesh(dir, "scan", "-j", "1", ...))
  local outputs = {}
  for _, f in ipairs{ "x1/m.lua", "x1/small.rsxb", "x1/c.rsxb" } do
    outputs[f] = lib.read(dir .. "/" .. f)
  end
  for _, j in ipairs{ "2", "3" } do
    local args = { ... }
    for i, a in ipairs(args) do args[i] = a:gsub("^x1", "x" .. j) end
    local many = table.pack(lib.rsxmesh(dir, "scan", "-j", j,
      table.unpack(args)))
    t.is_deeply({ many[1], many[2], unclocked(many[3]) },
      { one[1], one[2], unclocked(one[3]) },
      name .. ": -j " .. j .. " gives -j 1's exit status, stdout, stderr")
    for f, b in pairs(outputs) do
      t.is(lib.read(dir .. "/" .. f:gsub("^x1", "x" .. j)), b,
        name .. ": -j " .. j .. " writes " .. f .. " the same")
    end
  end
  return one[1], one[2], one[3]
end
status, out = same("text", "small.bin", "c.bin")
t.is(status, 0, "-j: text: exit 0")
t.like(out, "^small%.bin: [^\n]+\n.*\nc%.bin: ", "-j: text: both files, "
  .. "in the order given")
status, out = same("--json", "--json", "small.bin", "c.bin")
t.like(out, '"path": "small%.bin".*"path": "c%.bin"', "-j: --json: both files, "
  .. "in the order given")
status = same("--extract and --manifest", "small.bin", "c.bin", "--extract",
  "-o", "x1", "--manifest", "x1/m.lua")
t.is(status, 0, "-j: --extract, --manifest: exit 0")
t.ok(#lib.read(dir .. "/x1/m.lua") > 1000 and
  #lib.read(dir .. "/x1/small.rsxb") > 0, "-j: the manifest and the "
  .. "bundles written")

-- one bad file among good ones, with -j 2: one line naming it, the others
-- reported, as with -j 1
status, out, err = same("a missing file", "small.bin", "missing.bin", "c.bin")
t.is(status, 1, "-j: a missing file: exit 1")
t.like(err, "^scan: missing%.bin: [^\n]+\nscan: 2 files scanned in [%d.]+ "
  .. "s; 1 failure above\n$", "-j: a missing file: one line naming it, "
  .. "and the summary")
t.like(out, "^small%.bin: [^\n]+\n.*\nc%.bin: ", "-j: a missing file: the "
  .. "others reported")

-- -j 2 does start two workers, kept for the three files; -j 1 and the
-- default, for these few kB, none
local n, k = lib.processes(dir, "scan", "-j", "2", "small.bin", "c.bin",
  "empty.bin")
if n then
  t.is_deeply({ n, k }, { 3, 2 }, "-j 2: the first process and two workers")
  n, k = lib.processes(dir, "scan", "-j", "1", "small.bin", "c.bin")
  t.is_deeply({ n, k }, { 1, 0 }, "-j 1: one process")
  n, k = lib.processes(dir, "scan", "small.bin", "c.bin")
  t.is_deeply({ n, k }, { 1, 0 }, "no -j: one process for these few kB")
else
  t.skip(3, "no bash for the wrapper host")
end

-- -j's progress line, on a terminal (script(1) gives one), counts files,
-- not bundles as the other scripts' does
if os.execute("command -v script >/dev/null 2>&1") then
  local p = io.popen("cd " .. lib.quote(dir) .. " && script -qc " ..
    lib.quote(lib.quote(os.getenv("RSXMESH")) .. " scan -j 2 small.bin "
      .. "c.bin >/dev/null") .. " /dev/null </dev/null")
  local tty = p:read("a")
  p:close()
  -- 1 of 2 first, unless both workers ended before the line was drawn
  t.like(tty, "\r\27%[Kscan: [12] of 2 files done %(2 processes%)\r",
    "-j 2: the progress line counts files")
else
  t.skip(1, "no script(1) for a terminal")
end

lib.cleanup()
t.done_testing()
