-- scripts-obj-index.lua - obj-export of a bundle whose mesh has an index
-- past its vertices (the reader's index-range finding): that mesh is
-- named once and leaves nothing in the OBJ, the meshes before and after
-- it are written, numbered as if it were not there. The OBJ worked out
-- by hand from the quads below.
local t = require "tap"
local rsxmesh = require "rsxmesh"
local lib = require "scripts-lib"

-- A quad of positions alone (mask 0x00080001: the MMP stride 16), its
-- corners (-1, 1), (-1, -1), (1, -1), (1, 1) at z = 0 (x + dx), two
-- submeshes of one triangle each: 1 2 3 and 1 3 4 (1-based).
local function quad(name, dx, last)
  local pos = { { -1, 1 }, { -1, -1 }, { 1, -1 }, { 1, 1 } }
  local mmp = {}
  for i = 1, 4 do
    mmp[i] = lib.f32(pos[i][1] + dx, pos[i][2], 0) .. lib.u32(0)
  end
  return { name = name, meta = lib.meta(0x00080001), vertex_count = 4,
    mmp = table.concat(mmp), mmp_stride = 16, index_size = 2,
    indices = rsxmesh.indices(2, { 1, 2, 3, 1, 3, last }),
    submeshes = { { record = lib.subrec(0xFFFFFFFF), first_index = 0,
      index_count = 3 }, { record = lib.subrec(0xFFFFFFFF),
      first_index = 3, index_count = 3 } } }
end

local dir = lib.tmpdir()
local w = rsxmesh.writer()
assert(w:mesh(quad("good", 0, 4)))
assert(w:mesh(quad("broken", 2, 9))) -- index 9 of 4 vertices: 8, 0-based
assert(w:mesh(quad("after", 4, 4)))
assert(w:save(dir .. "/U.rsxb"))

local status, out, err = lib.rsxmesh(dir, "obj-export", "U.rsxb", "-o",
  "obj")
t.is(status, 1, "an index past the vertices: exit status 1")
t.is(out, "", "nothing on stdout")
local lines = lib.lines(err)
t.like(lines[1], "^obj%-export: U%.rsxb: mesh 2 %(broken%): submesh 2: "
  .. "index at position 6 is 8, not below the vertex count 4$",
  "the mesh, the submesh, the position and the index, named once")
t.is(#lines, 2, "that line and the summary")
t.is(lib.read(dir .. "/obj/U.obj"), table.concat({
  "# from U.rsxb by rsxmesh obj-export", "mtllib U.mtl",
  "o good", "v -1 1 0", "v -1 -1 0", "v 1 -1 0", "v 1 1 0",
  "g good.1", "usemtl (none)", "f 1 2 3",
  "g good.2", "usemtl (none)", "f 1 3 4",
  "o after", "v 3 1 0", "v 3 -1 0", "v 5 -1 0", "v 5 1 0",
  "g after.1", "usemtl (none)", "f 5 6 7",
  "g after.2", "usemtl (none)", "f 5 7 8", "" }, "\n"),
  "the OBJ: good and after, numbered 1..4 and 5..8, nothing of broken")

lib.cleanup()
t.done_testing()
