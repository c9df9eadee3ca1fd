-- synth-full.lua - rsxmesh synth --scale 1 (make check-full): every count
-- of the research note, exactly.

local t = require "tap"
local lib = require "scripts-lib"
local census = require "synth-lib"

local dir = lib.tmpdir()
local out = dir .. "/disc"

local status, _, err = lib.rsxmesh(dir, "synth", "-o", out, "--scale", "1")
t.is(status, 0, "synth --scale 1 exits 0")
t.like(err, "^synth: 15 bundles, 17,897 meshes, 27,213 submeshes, "
  .. "6,232,816 vertices, ", "its summary line")
t.diag(err)

local k = census.census(out)

t.is(#k.bundles, 15, "fifteen bundles")
t.is(k.bundles[3], "CHARLIE.rsxb", "CHARLIE among them")
t.is(k.bundles[#k.bundles], "OSCAR.rsxb", "and OSCAR")
for _, row in ipairs(census.MASKS) do
  t.is(k.masks[row[1]], row[2], string.format("mask %08x: %d meshes",
    row[1], row[2]))
  t.is(k.mgp_strides[row[1]], row[3], string.format("mask %08x: MGP "
    .. "stride %d", row[1], row[3]))
end
t.is(k.meshes, 17897, "17,897 rigid meshes")
t.is(k.submeshes, 27213, "27,213 submeshes")
t.is(k.vertices, 6232816, "6,232,816 vertices")
t.is(k.findings, 0, "no finding")

t.is(k.distinct, 189, "189 distinct selector combinations")
t.is(k.selector_bad, 0, "selector bytes are 0-3 or 255")
t.is(k.uv0_missing, 0, "no submesh of a mesh with UVs lacks logical UV0")
for i, row in ipairs{ { "ffffffff", 4261 }, { "00000201", 3490 },
                      { "00000001", 3138 }, { "00000000", 2554 } } do
  t.is(k.commonest[i][1], row[1], "commonest " .. i .. ": " .. row[1])
  t.is(k.commonest[i][2], row[2], row[1] .. ": " .. row[2] .. " submeshes")
end
t.ok(k.commonest[5][2] < 2554, "the fifth is rarer")

t.is(k.normals_zero, 11488, "11,488 zero normals")
t.is(k.normals_bad, 0, "every other normal within 0.005 of unit length")
t.diag("largest normal deviation from unit: " .. k.normal_dev)
t.is(k.a_vertices, 4930385, "4,930,385 tangent A vectors")
t.is(k.a_off, 1743419, "1,743,419 of them off unit by more than 0.005")
t.is(k.a_near, 0, "each of those off by 0.02 or more")
t.is(k.b_bad, 0, "every nonzero B unit")

t.is(k.trees, 21, "21 tree meshes")
census.check_ranges(t, k)

t.is(k.no_base_colour, 0, "every material has a base-colour texture")
t.is(k.missing_textures, 0, "every base-colour texture is there")
t.is(k.no_material_other, 0, "only mask 00080007 draws without material")
t.ok((k.index_sizes[2] or 0) > 0 and (k.index_sizes[4] or 0) > 0,
  "both index sizes")
t.ok(k.strips > 0 and k.restarts > 0, "strips with restarts")

lib.cleanup()
t.done_testing()
