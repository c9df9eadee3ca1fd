-- scripts-full.lua - survey of the whole synthetic disc (rsxmesh synth
-- --scale 1) against the research note: its layout table row for row, and
-- the counts the note gives in its prose. Slow: make check-full only.

local t = require "tap"
local lib = require "scripts-lib"

if not lib.has_script("synth") then
  io.write("1..0 # SKIP rsxmesh synth is not installed\n")
  os.exit(0)
end

local dir = lib.tmpdir()
local status = lib.rsxmesh_plain(dir, "synth", "-q", "--scale", "1", "-o",
  "disc")
assert(status == 0, "rsxmesh synth --scale 1 failed")

local out, err
status, out, err = lib.rsxmesh(dir, "survey", "disc")
t.is(status, 0, "survey: exit status 0")
t.like(err, "^survey: 15 bundles, 17,897 meshes in ", "survey: summary")

-- The note's table, row for row and in its order
local rows = lib.survey_layouts(out)
t.is(#rows, #lib.NOTE_LAYOUTS, "the note's 16 masks, no more")
for k, note in ipairs(lib.NOTE_LAYOUTS) do
  t.is_deeply(rows[k], note, "layout row " .. k .. ": " .. note[1] .. " | "
    .. note[2] .. " | " .. note[3] .. " | " .. note[4])
end

-- The note's prose
local function has(text, name)
  local plain = text:gsub("[%-%.%(%)%[%]%+%*%?%^%$%%]", "%%%0")
  t.like(out, plain, name)
end
has("17,897 meshes, 27,213 submeshes, 6,232,816 vertices.",
  "17,897 meshes, 27,213 submeshes, 6,232,816 vertices")
has("Packed variant (flag 0x80000): 17,897 of 17,897 meshes.",
  "every rigid mesh has the flag 0x80000")
has("Stored strides that differ from the strides the mask implies: none.",
  "the table's strides explain every stride: no mismatch")
has("6,232,816 normals: 11,488 zero vectors; 0 nonzero normals off unit "
  .. "length by more than 0.005;", "11,488 zero normals, every other "
  .. "within 0.005 of unit length")
has("Vector A: 1,743,419 of 4,930,385 vectors off unit length by more "
  .. "than 0.005", "tangent A: 1,743,419 of 4,930,385 off unit")
has("Vector B: 0 of ", "every nonzero B is unit")
has("Extremes over all sets: -807 to 512.", "UV extremes -807 to 512")
has("; all in [0, 1].", "colours in [0, 1]")
has("The selector bytes are 0, 1, 2, 3 and 255, in 189 distinct "
  .. "combinations over 27,213 submeshes; the commonest are ffffffff "
  .. "(4,261 submeshes), 00000201 (3,490), 00000001 (3,138), 00000000 "
  .. "(2,554), ", "selector bytes, 189 combinations, the four commonest")
has("Extra A: 21 meshes (mask 000807fd)", "21 tree meshes with extra A")
has("Extra B: 21 meshes (mask 000807fd)", "21 tree meshes with extra B")
t.like(out, "Extra B: [^\n]*, w in %[0, 0%]%.", "extra B has w = 0")
has("## Findings\n\nNone.\n", "no findings")

lib.cleanup()
t.done_testing()
