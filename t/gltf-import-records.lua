-- t/gltf-import-records.lua - gltf-import's stale records: said on stderr
-- and in --report, and rewritten by a --records hook (the example of
-- doc/examples/disc-records.lua, for the synthetic disc's layout)
--
-- The example is checked first against synth's own records: given the
-- facts of a mesh as synth built it, it must give back every byte synth
-- wrote (the radius, which synth works out from double bounds, within
-- 1e-5 of it). Then a glTF edit that drops road_0001's last triangle
-- (its submesh's and mesh's index counts shrink by 3, the strip becomes
-- a list) is imported without the hook (the records stay, and stderr
-- says they are stale) and with it (those fields, and only those,
-- rewritten).

local t = require "tap"
local rsxmesh = require "rsxmesh"
local cjson = require "cjson"
local lib = require "scripts-lib"
local import = require "rsxmesh.gltf_import"

local srcdir = os.getenv("top_srcdir") or "."
local HOOK = srcdir .. "/doc/examples/disc-records.lua"
local hook = dofile(HOOK)

local tmp = lib.tmpdir()
local function at(p) return tmp .. "/" .. p end
local code, _, err = lib.rsxmesh_plain(tmp, "synth", "-o", "sample")
assert(code == 0, err)

-- the example against synth's records
do
  local metas, subs, bad, worst = 0, 0, {}, 0
  for _, name in ipairs({ "ALFA", "BRAVO", "CHARLIE" }) do
    local b = assert(rsxmesh.open(at("sample/" .. name .. ".rsxb")))
    for _, m in b:meshes() do
      local facts = import.mesh_facts(m)
      local r = m:record():bytes()
      local h = hook.meta(r, facts)
      local ra, rb = string.unpack(">f", r, 0x29), string.unpack(">f", h,
        0x29)
      worst = math.max(worst, math.abs(ra - rb) / ra)
      if #h ~= #r or h:sub(1, 0x28) ~= r:sub(1, 0x28)
          or h:sub(0x2D) ~= r:sub(0x2D) then
        bad[#bad + 1] = m.label
      end
      metas = metas + 1
      for i, s in m:submeshes() do
        local sr = s:record():bytes()
        if hook.submesh(sr, facts.submeshes[i]) ~= sr then
          bad[#bad + 1] = m.label .. " submesh " .. i
        end
        subs = subs + 1
      end
    end
    b:close()
  end
  t.ok(metas > 50 and subs > metas and #bad == 0, string.format("the"
    .. " example gives back synth's records of %d meshes, %d submeshes"
    .. " (%d differ: %s)", metas, subs, #bad, table.concat(bad, ", ")))
  -- (synth halves the box's sides in double, the example the float32
  -- bounds: a box far from the origin loses bits in hi - lo)
  t.ok(worst <= 1e-5, string.format("... the radius within 1e-5 of it"
    .. " (%.3g at worst)", worst))
end

-- road_0001 of ALFA: a u16 strip, one submesh
local base = assert(rsxmesh.open(at("sample/ALFA.rsxb")))
local road = assert(base:mesh("road_0001"))
assert(road.primitive == "strip" and road.submesh_count == 1)
local _, ntri = road:submesh(1):triangles()

code, _, err = lib.rsxmesh_plain(tmp, "gltf-export", "sample/ALFA.rsxb",
  "-o", "g")
assert(code == 0, err)
local doc = cjson.decode(lib.read(at("g/ALFA.gltf")))
for _, g in ipairs(doc.meshes) do
  if g.name == "road_0001" then
    local a = doc.accessors[g.primitives[1].indices + 1]
    assert(a.count == 3 * ntri)
    a.count = a.count - 3
  end
end
lib.write(at("g/cut.gltf"), cjson.encode(doc))

local out
code, out, err = lib.rsxmesh(tmp, "gltf-import", "g/cut.gltf", "--base",
  "sample/ALFA.rsxb", "-o", "cut.rsxb", "--report")
t.is(code, 0, "a triangle cut from road_0001: imports")
t.like(err, "gltf%-import: g/cut%.gltf: mesh 2 %(road_0001%): its records"
  .. " may be stale, they are the base's: index count " .. road.index_count
  .. " %-> " .. 3 * (ntri - 1) .. ", primitive strip %-> triangles,"
  .. " submesh 1 indices 0%+" .. road:submesh(1).index_count .. " %-> 0%+"
  .. 3 * (ntri - 1) .. " %(%-%-records HOOK%.lua rewrites them%)",
  "... stderr says its records are stale, and what they miss")
t.like(out, "mesh 2 %(road_0001%): changed[^\n]*; stale records %(the"
  .. " base's%): index count", "... and --report too")
local cut = assert(rsxmesh.open(at("cut.rsxb")))
local m = cut:mesh("road_0001")
t.ok(m:record():bytes() == road:record():bytes()
  and m:submesh(1):record():bytes() == road:submesh(1):record():bytes(),
  "... its records the base's")
cut:close()

code, out, err = lib.rsxmesh(tmp, "gltf-import", "g/cut.gltf", "--base",
  "sample/ALFA.rsxb", "-o", "fixed.rsxb", "--report", "--records", HOOK)
t.is(code, 0, "with --records: imports")
if code ~= 0 then t.diag(err) end
t.ok(not err:find("stale"), "... and stderr says nothing of stale records")
t.like(out, "mesh 2 %(road_0001%): changed[^\n]*; records rewritten by "
  .. HOOK:gsub("%p", "%%%0") .. ": metadata, submesh 1", "... --report"
  .. " names the records rewritten")
local fixed = assert(rsxmesh.open(at("fixed.rsxb")))
m = fixed:mesh("road_0001")
local r0, r1 = road:record():bytes(), m:record():bytes()
-- by hand: index count at 0x04, primitive 0 (list) at 0x0D; the vertices
-- and their bounds are the base's
local want = r0:sub(1, 4) .. string.pack(">I4", 3 * (ntri - 1))
  .. r0:sub(9, 13) .. "\0" .. r0:sub(15)
t.ok(r1:sub(1, 0x28) == want:sub(1, 0x28) and r1:sub(0x2D) == want:sub(0x2D),
  "the metadata record: index count " .. 3 * (ntri - 1) .. " and primitive"
  .. " 0, all else the base's (the radius aside)")
local s0, s1 = road:submesh(1):record():bytes(),
  m:submesh(1):record():bytes()
t.is(s1, s0:sub(1, 4) .. string.pack(">I4", 3 * (ntri - 1)) .. s0:sub(9),
  "the submesh record: index count " .. 3 * (ntri - 1) .. ", all else the"
  .. " base's")
t.ok(m:stream("mmp") == road:stream("mmp")
  and m:stream("mgp") == road:stream("mgp"), "... and the streams the base's")
local same = 0
for k, bm in base:meshes() do
  local o = fixed:mesh(k)
  if bm.name ~= "road_0001" and o:record():bytes() == bm:record():bytes()
    then same = same + 1 end
end
t.is(same, #base - 1, "every other mesh's record as it was")
fixed:close()

-- a hook that fails, or returns no table, is named
lib.write(at("bad.lua"), "return { meta = function() error('no way') end }")
code, _, err = lib.rsxmesh(tmp, "gltf-import", "g/cut.gltf", "--base",
  "sample/ALFA.rsxb", "-o", "bad.rsxb", "--records", "bad.lua")
t.is(code, 1, "a hook that raises: exit status 1")
t.like(err, "g/cut%.gltf: mesh 2 %(road_0001%): bad%.lua: the metadata"
  .. " record: [^\n]*no way", "... naming the mesh, the hook and the record")
t.ok(not lib.read(at("bad.rsxb")), "... nothing written")
lib.write(at("none.lua"), "return 42")
code, _, err = lib.rsxmesh(tmp, "gltf-import", "g/cut.gltf", "--base",
  "sample/ALFA.rsxb", "-o", "bad.rsxb", "--records", "none.lua")
t.is(code, 1, "a hook that returns no table: exit status 1")
t.like(err, "none%.lua: returns no table with a meta or submesh function",
  "... naming it")
lib.write(at("short.lua"), "return { meta = function(b) return b:sub(1,"
  .. " 16) end }")
code, _, err = lib.rsxmesh(tmp, "gltf-import", "g/cut.gltf", "--base",
  "sample/ALFA.rsxb", "-o", "bad.rsxb", "--records", "short.lua")
t.is(code, 1, "a hook that cuts the record short: exit status 1")
t.like(err, "mesh 2 %(road_0001%): short%.lua: the records it made are"
  .. " refused: ", "... naming it")

base:close()
lib.cleanup()
t.done_testing()
