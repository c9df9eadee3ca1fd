-- synth-sample.lua - rsxmesh synth at the default scale (0.02): the counts
-- in the note's proportions, valid selectors, unit or zero normals, real
-- geometry, and the same bytes for the same seed.

local t = require "tap"
local lib = require "scripts-lib"
local census = require "synth-lib"

local S = 0.02
local r = function(n) return census.scaled(n, S) end

local dir = lib.tmpdir()
local a, b, c = dir .. "/a", dir .. "/b", dir .. "/c"

local function count(n)
  return tostring(n):reverse():gsub("(%d%d%d)", "%1,"):reverse()
    :gsub("^,", "")
end
local meshes = 0
for _, row in ipairs(census.MASKS) do
  meshes = meshes + math.max(1, r(row[2]))
end

local status, _, err = lib.rsxmesh(dir, "synth", "-o", a, "--seed", "7")
t.is(status, 0, "synth at the default scale exits 0")
t.like(err, "^synth: 15 bundles, " .. count(meshes) .. " meshes, "
  .. count(r(27213)) .. " submeshes, " .. count(r(6232816))
  .. " vertices, [%d.]+ MB in .+ %(scale 0%.02, seed 7%) in [%d.]+ s\n$",
  "one summary line on stderr, no progress off a terminal")
status = lib.rsxmesh(dir, "synth", "-o", b, "--seed", "7", "--jobs", "1")
t.is(status, 0, "again in one process")
local same, which = census.same_bundles(a, b)
t.ok(same, "the same seed gives the same bytes, whatever the processes ("
  .. tostring(which) .. ")")
status = lib.rsxmesh(dir, "synth", "-o", c, "--seed", "8", "-q")
t.is(status, 0, "another seed")
t.ok(not census.same_bundles(a, c), "another seed gives other bytes")

-- the geometry checks on three levels: enough faces, a bearable time
-- under valgrind
local k = census.census(a, { faces = { ["ALFA.rsxb"] = true,
  ["CHARLIE.rsxb"] = true, ["OSCAR.rsxb"] = true } })
local k8 = census.census(c)

-- the bundles and the layout table
t.is_deeply(k.bundles, { "ALFA.rsxb", "BRAVO.rsxb", "CHARLIE.rsxb",
  "DELTA.rsxb", "ECHO.rsxb", "FOXTROT.rsxb", "GOLF.rsxb", "HOTEL.rsxb",
  "INDIA.rsxb", "JULIETT.rsxb", "KILO.rsxb", "LIMA.rsxb", "MIKE.rsxb",
  "NOVEMBER.rsxb", "OSCAR.rsxb" }, "fifteen levels, ALFA to OSCAR")
for _, row in ipairs(census.MASKS) do
  local want = math.max(1, r(row[2]))
  t.is(k.masks[row[1]], want, string.format("mask %08x: %d meshes",
    row[1], want))
  t.is(k.mgp_strides[row[1]], row[3], string.format("mask %08x: MGP "
    .. "stride %d", row[1], row[3]))
end
local nmasks = 0
for _ in pairs(k.masks) do nmasks = nmasks + 1 end
t.is(nmasks, 16, "no other mask")
t.is(k.meshes, meshes, "meshes")
t.is(k.submeshes, r(27213), "submeshes: 27,213 x 0.02")
t.is(k.vertices, r(6232816), "vertices: 6,232,816 x 0.02")
t.is(k.findings, 0, "the reader reports no finding")

-- selectors
t.is(k.selector_bad, 0, "selector bytes are 0-3 or 255")
t.is(k.uv0_missing, 0, "every submesh of a mesh with UVs has logical UV0")
local top = { { "ffffffff", 4261 }, { "00000201", 3490 },
              { "00000001", 3138 }, { "00000000", 2554 } }
for i, row in ipairs(top) do
  t.is(k.selectors[row[1]], r(row[2]), string.format("selectors %s: %d",
    row[1], r(row[2])))
  t.is(k.commonest[i][1], row[1], "commonest " .. i .. ": " .. row[1])
end
t.ok(k.commonest[5][2] < r(2554), "the others are rarer")
t.ok(k.distinct > 4 and k.distinct <= 189, "distinct combinations: "
  .. k.distinct .. " of the note's 189")

-- normals, tangents
t.is(k.normals_zero, r(11488), "zero normals: 11,488 x 0.02")
t.is(k.normals_bad, 0, "every other normal within 0.005 of unit length")
t.is(k.a_vertices, r(4930385), "vertices with tangent A: 4,930,385 x 0.02")
t.is(k.a_off, r(1743419), "A off unit: 1,743,419 x 0.02")
t.is(k.a_near, 0, "no A is off by less than 0.02")
t.is(k.b_bad, 0, "every nonzero B unit")

-- UVs, colours, trees
t.is(k.trees, 1, "one tree mesh")
census.check_ranges(t, k)

-- materials, indices
t.ok(k.materials > 0, "materials: " .. k.materials)
t.is(k.no_base_colour, 0, "every material has a base-colour texture")
t.is(k.missing_textures, 0, "every base-colour texture is shipped")
t.ok(k.no_material > 0, "submeshes without material: " .. k.no_material)
t.is(k.no_material_other, 0, "only on mask 00080007 (colour, no UVs)")
t.ok((k.index_sizes[2] or 0) > 0 and (k.index_sizes[4] or 0) > 0,
  "both index sizes")
t.ok(k.strips > 0 and k.restarts > 0, string.format("strips (%d meshes) "
  .. "with restarts (%d)", k.strips, k.restarts))

-- geometry
t.ok(k.faces > 20000, "faces checked: " .. k.faces)
t.is(k.faces_against, 0, "normals agree with their faces")
t.ok(k.frames > 15000, "tangent frames checked: " .. k.frames)
t.is(k.frames_a_off, 0, "A runs along growing U")
t.is(k.frames_b_off, 0, "B runs along growing V")

-- another seed: other bytes, the same counts
t.is(k8.submeshes, k.submeshes, "seed 8: the same submesh count")
t.is(k8.vertices, k.vertices, "seed 8: the same vertex count")
t.is(k8.normals_zero, k.normals_zero, "seed 8: the same zero normals")
t.is(k8.a_off, k.a_off, "seed 8: the same A off unit")
t.is(k8.selectors.ffffffff, k.selectors.ffffffff,
  "seed 8: the same ffffffff count")

-- options
local out
status, out = lib.rsxmesh(dir, "synth", "--help")
t.is(status, 0, "--help exits 0")
t.like(out, "^Usage: " .. lib.progname_pattern .. " synth %-o DIR",
  "--help starts with the usage")
status, _, err = lib.rsxmesh(dir, "synth", "-o", dir .. "/x", "--scale",
  "7")
t.is(status, 2, "a scale out of range is a usage error")
t.like(err, "scale' expects a number in 0%.001%.%.4", "naming the range")
status = lib.rsxmesh(dir, "synth", "-o", dir .. "/y", "--seed", "7",
  "--levels", "charlie,15", "-q", "--no-textures")
t.is(status, 0, "--levels")
for _, name in ipairs{ "CHARLIE", "OSCAR" } do
  t.is(lib.read(dir .. "/y/" .. name .. ".rsxb"),
    lib.read(a .. "/" .. name .. ".rsxb"), name .. " alone is the same "
    .. "level")
end
t.is(lib.read(dir .. "/y/ALFA.rsxb"), nil, "and the others are not made")
t.is(lib.read(dir .. "/y/textures/brick.png"), nil, "nor the textures")
t.is(lib.read(a .. "/textures/brick.png"),
  lib.read(os.getenv("top_srcdir") .. "/scripts/textures/brick.png"),
  "the textures are copied from the shipped ones")

lib.cleanup()
t.done_testing()
