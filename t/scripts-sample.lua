-- scripts-sample.lua - the standard scripts on the default synthetic
-- sample (rsxmesh synth), checked against the module's own reading of the
-- bundles, the note's rules and tables, and assimp as an independent OBJ
-- reader.

local t = require "tap"
local lib = require "scripts-lib"
local lfs = require "lfs"
local rsxmesh = require "rsxmesh"

if not lib.has_script("synth") then
  io.write("1..0 # SKIP rsxmesh synth is not installed\n")
  os.exit(0)
end

local dir = lib.tmpdir()
-- synth is not under test here: run it without TEST_WRAPPER
local status = lib.rsxmesh_plain(dir, "synth", "-q", "-o", "disc")
assert(status == 0, "rsxmesh synth failed")

local files = {}
for name in lfs.dir(dir .. "/disc") do
  if name:match("%.rsxb$") then files[#files + 1] = name end
end
table.sort(files)

-- What the scripts should report, from the module directly: per bundle
-- its meshes, vertices, triangles, submeshes with faces, materials, the
-- bounds of the positions faces use, and the TSV of uv-selectors worked
-- out from the raw submesh records by the note's rule.
local facts, total = {}, { meshes = 0, vertices = 0, triangles = 0 }
local masks, tsv = {},
  { "bundle\tmesh\tsubmesh\tselectors\tuv0\tuv1\tuv2\tuv3" }
for _, name in ipairs(files) do
  local b = assert(rsxmesh.open(dir .. "/disc/" .. name))
  local f = { name = name:sub(1, -6), meshes = #b, vertices = 0,
    triangles = 0, groups = 0, materials = b.material_count,
    none = false, min = { math.huge, math.huge, math.huge },
    max = { -math.huge, -math.huge, -math.huge } }
  for _, m in b:meshes() do
    masks[m.mask] = (masks[m.mask] or 0) + 1
    f.vertices = f.vertices + m.vertex_count
    local pos = assert(m:attribute("position"))
    for i, s in m:submeshes() do
      local tris, n = assert(s:triangles())
      f.triangles = f.triangles + n
      if n > 0 then f.groups = f.groups + 1 end
      if not s.material then f.none = true end
      for k = 1, 3 * n do
        local p = { pos:get(tris[k]) }
        for c = 1, 3 do
          f.min[c] = math.min(f.min[c], p[c])
          f.max[c] = math.max(f.max[c], p[c])
        end
      end
      -- the note: byte i names the stored set of logical UV i, 0xff the
      -- set of the same number; a set the mask lacks leaves it absent
      local sel = s:record():bytes(0x38, 4)
      local row = { "disc/" .. name, m.name, i,
        string.format("%02x%02x%02x%02x", sel:byte(1, 4)) }
      for uv = 0, 3 do
        local byte = sel:byte(uv + 1)
        local set = byte == 0xFF and uv or byte
        row[#row + 1] = (set <= 3 and m:has("uv" .. set)) and set or "-"
      end
      tsv[#tsv + 1] = table.concat(row, "\t")
    end
  end
  facts[#facts + 1] = f
  total.meshes = total.meshes + f.meshes
  total.vertices = total.vertices + f.vertices
  total.triangles = total.triangles + f.triangles
  b:close()
end
t.ok(#files > 0, "synth wrote bundles")

-- ------------------------------------------------------------ obj-export

local out, err
status, out, err = lib.rsxmesh(dir, "obj-export", "disc", "-o", "obj")
t.is(status, 0, "obj-export: exit status 0")
t.like(err, "^obj%-export: " .. #files .. " bundles, "
  .. lib.count(total.meshes) .. " meshes, " .. lib.count(total.vertices)
  .. " vertices, " .. lib.count(total.triangles) .. " triangles, ",
  "obj-export: the summary agrees with the module")

local have_assimp = lib.have("assimp")
local obj_faces = 0
for _, f in ipairs(facts) do
  local obj = lib.read(dir .. "/obj/" .. f.name .. ".obj") or ""
  local v, faces = 0, 0
  for kind in obj:gmatch("\n(%a+) ") do
    if kind == "v" then v = v + 1 elseif kind == "f" then faces = faces + 1 end
  end
  t.is(v, f.vertices, f.name .. ".obj: a v per vertex")
  t.is(faces, f.triangles, f.name .. ".obj: an f per triangle")
  obj_faces = obj_faces + faces
  if have_assimp then
    local a = lib.assimp_info(dir .. "/obj/" .. f.name .. ".obj")
    t.is_deeply({ a.faces, a.vertices, a.meshes, a.materials },
      { f.triangles, 3 * f.triangles, f.groups,
        1 + f.materials + (f.none and 1 or 0) },
      f.name .. ".obj read by assimp: faces, vertices (3 a face), "
      .. "meshes (a submesh each), materials (the MTL's and a default)")
    local want = {}
    for c = 1, 3 do
      want[c] = string.format("%f", f.min[c])
      want[c + 3] = string.format("%f", f.max[c])
    end
    t.is_deeply({ a.min[1], a.min[2], a.min[3], a.max[1], a.max[2],
      a.max[3] }, want, f.name .. ".obj read by assimp: the bounds of "
      .. "the positions its faces use")
  else
    t.skip(2, "assimp is not installed (Debian: assimp-utils)")
  end
end

-- ---------------------------------------- doc/scripts.md's count-tris

-- The example of "Writing your own" counts with m:triangles(): it must
-- count what obj-export writes (issue 9: a strip mesh's submeshes once
-- ran together into triangles of no submesh).
do
  local doc = lib.read((os.getenv("top_srcdir") or ".")
    .. "/doc/scripts.md") or ""
  local code = doc:match("\n```lua\n(local cli = require \"rsxmesh.cli\"\n"
    .. ".-count%-tris.-)```\n")
  t.ok(code ~= nil, "doc/scripts.md holds the count-tris example")
  lib.write(dir .. "/count-tris.lua", code or "")
  status, out, err = lib.rsxmesh(dir, "./count-tris.lua", "disc")
  t.is(status, 0, "count-tris: exit status 0")
  t.like(err, "^count%-tris: " .. lib.count(obj_faces) .. " triangles in ",
    "count-tris: the example counts the f lines obj-export wrote ("
    .. obj_faces .. ")")

  -- synth restarts a strip between submeshes, which hides the bug: the
  -- issue's 7-vertex strip, submesh 1 on indices 0-3 (1 2 3, 3 2 4),
  -- submesh 2 on 4-6 (5 6 7), with no restart between them: 3 triangles
  -- (one strip over the buffer gives 5)
  assert(lfs.mkdir(dir .. "/joined"))
  local w = rsxmesh.writer()
  assert(w:mesh(assert(rsxmesh.mesh{ name = "two",
    meta = lib.meta(0x00080005), vertex_count = 7, mmp_stride = 16,
    mmp = string.rep(lib.f32(0, 0, 0) .. lib.u32(0), 7),
    indices = rsxmesh.indices(2, { 1, 2, 3, 4, 5, 6, 7 }), index_size = 2,
    primitive = "strip", submeshes = {
      { record = lib.subrec(0xFFFFFFFF), first_index = 0, index_count = 4 },
      { record = lib.subrec(0xFFFFFFFF), first_index = 4, index_count = 3 },
    } })))
  assert(w:save(dir .. "/joined/J.rsxb"))
  status, out, err = lib.rsxmesh(dir, "./count-tris.lua", "joined")
  t.like(err, "^count%-tris: 3 triangles in ",
    "count-tris: a strip of two submeshes without a restart: 3 triangles")
  status = lib.rsxmesh(dir, "obj-export", "joined", "-o", "jobj")
  local faces = select(2, (lib.read(dir .. "/jobj/J.obj") or "")
    :gsub("\nf ", ""))
  t.is(faces, 3, "obj-export writes the same 3 triangles")
end

-- ---------------------------------------------------------- uv-selectors

status, out = lib.rsxmesh(dir, "uv-selectors", "--tsv", "disc")
t.is(status, 0, "uv-selectors --tsv: exit status 0")
t.is(out, table.concat(tsv, "\n") .. "\n",
  "uv-selectors --tsv: the selectors of the records, resolved as the note "
  .. "says")

-- ---------------------------------------------------------------- survey

status, out = lib.rsxmesh(dir, "survey", "disc")
t.is(status, 0, "survey: exit status 0")
local rows = lib.survey_layouts(out)
t.is(#rows, 16, "survey: the sample holds the note's 16 masks")
for _, note in ipairs(lib.NOTE_LAYOUTS) do
  local mask = tonumber(note[1], 16)
  local got
  for _, r in ipairs(rows) do
    if r[1] == note[1] then got = r end
  end
  t.is_deeply(got, { note[1], lib.count(masks[mask] or 0), note[3],
    note[4] }, "survey: " .. note[1] .. ": the module's count, the "
    .. "note's stride and order")
end
t.like(out, "\nStored strides that differ from the strides the mask "
  .. "implies: none%.\n", "survey: no stride mismatch, as in the note")
t.like(out, "\n## Findings\n\nNone%.\n$", "survey: no findings")

-- ------------------------------------------------------------------ info

status, out = lib.rsxmesh(dir, "info", "disc")
t.is(status, 0, "info: exit status 0")
t.is(#lib.lines(out), 2 * #files + total.meshes,
  "info: a header and a title per bundle, a line per mesh")

lib.cleanup()
t.done_testing()
