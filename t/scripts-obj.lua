-- scripts-obj.lua - obj-export on hand-built bundles: exact OBJ and MTL,
-- its options, bad inputs among good ones, and assimp reading the result.
--
-- Expected text worked out by hand from the bundles of scripts-lib.lua:
-- 0x001FF800 decodes to (0, 32736/32767, 0), whose float32 prints as
-- 0.99905396; V is flipped (1 - v); half 0x2E66 is 0.0999755859375, whose
-- float32 prints as 0.099975586.

local t = require "tap"
local lib = require "scripts-lib"
local lfs = require "lfs"

local dir = lib.inputs("A", "B", "C")

local Y = "0.99905396" -- 32736/32767 as the shortest float32

local function rep(line, n)
  return string.rep(line .. "\n", n)
end

local A_OBJ = table.concat{
  "# from A.rsxb by rsxmesh obj-export\n",
  "mtllib A.mtl\n",
  "o quad\n",
  "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0.1 1 -2.5\n",
  rep("vn 0 " .. Y .. " 0", 3), "vn 0 0 0\n",
  -- stored set 0, V flipped: (0, .25) (.5, .25) (0, 1) (.5, 1)
  "vt 0 0.75\nvt 0.5 0.75\nvt 0 0\nvt 0.5 0\n",
  "g quad.1\nusemtl brick\n",
  "f 1/1/1 2/2/2 3/3/3\n",
  "f 2/2/2 4/4/4 3/3/3\n", -- (1,1,2) is degenerate: dropped
  -- submesh 2's selectors send UV0 to stored set 2: its own vt block,
  -- (2, 1.5) (-1, .125) (0.0999755859375, 0) (1024, 2) flipped
  "vt 2 -0.5\nvt -1 0.875\nvt 0.099975586 1\nvt 1024 -1\n",
  "g quad.2\nusemtl road\n",
  "f 3/7/3 2/6/2 4/8/4\n",
  "o strip\n",
  "v 1 0 -1\nv 2 0 -2\nv 3 0 -3\nv 4 0 -4\nv 5 0 -5\nv 6 0 -6\n",
  "v 7 0 -7\nv 8 0 -8\nv 9 0 -9\n",
  rep("vn 0 " .. Y .. " 0", 9),
  -- no UV at all: faces v//vn, numbered after quad's 4 vertices.
  -- strip 1 2 3 4 | 5 6 7 8 | 9 9 1: (1,2,3), (3,2,4) wound, (5,6,7),
  -- (7,6,8) wound; (9,9,1) is degenerate
  "g strip.1\nusemtl (none)\n",
  "f 5//5 6//6 7//7\n",
  "f 7//7 6//6 8//8\n",
  "f 9//9 10//10 11//11\n",
  "f 11//11 10//10 12//12\n",
}

local A_MTL = table.concat{
  "# from A.rsxb by rsxmesh obj-export\n",
  "\nnewmtl brick\nKd 1 1 1\nmap_Kd ../in/tex/brick.png\n",
  "\nnewmtl road\nKd 1 1 1\nmap_Kd ../in/tex/road.png\n",
  "\nnewmtl glass\nKd 1 1 1\n",
  "\nnewmtl (none)\nKd 0.8 0.8 0.8\n",
}

-- ------------------------------------------------------------ one bundle

local status, out, err = lib.rsxmesh(dir, "obj-export", "in/A.rsxb", "-o",
  "out")
t.is(status, 0, "obj-export A: exit status 0")
t.is(out, "", "obj-export A: nothing on stdout")
t.like(err, "^obj%-export: 1 bundle, 2 meshes, 13 vertices, 7 triangles, "
  .. "%d[%d,]* bytes written in [%d.]+ s\n$", "obj-export A: summary line")
t.is(lib.read(dir .. "/out/A.obj"), A_OBJ, "A.obj exactly")
t.is(lib.read(dir .. "/out/A.mtl"), A_MTL, "A.mtl exactly")
local bytes = #A_OBJ + #A_MTL
t.like(err, " " .. tostring(bytes):gsub("(%d)(%d%d%d)$", "%1,%2")
  .. " bytes written",
  "the summary counts the bytes of both files")

-- --uv 1: both submeshes take stored set 1 (selector bytes 1 are 0xff),
-- (3, 3) everywhere: one vt block
status = lib.rsxmesh(dir, "obj-export", "in/A.rsxb", "-o", "uv1", "--uv",
  "1")
t.is(status, 0, "--uv 1: exit status 0")
local uv1 = lib.read(dir .. "/uv1/A.obj") or ""
t.like(uv1, "vn 0 0 0\n" .. rep("vt 3 %-2", 4) .. "g quad%.1\nusemtl brick\n"
  .. "f 1/1/1 2/2/2 3/3/3\nf 2/2/2 4/4/4 3/3/3\ng quad%.2\nusemtl road\n"
  .. "f 3/3/3 2/2/2 4/4/4\n", "--uv 1: one block of stored set 1")

-- --uv 3: set 3 is absent from the mask (0xff keeps set 3): faces v//vn
status = lib.rsxmesh(dir, "obj-export", "in/A.rsxb", "-o", "uv3", "--uv=3")
t.is(status, 0, "--uv 3: exit status 0")
local uv3 = lib.read(dir .. "/uv3/A.obj") or ""
t.ok(not uv3:find("\nvt "), "--uv 3: no vt at all")
t.like(uv3, "g quad%.1\nusemtl brick\nf 1//1 2//2 3//3\nf 2//2 4//4 3//3\n",
  "--uv 3: faces without vt")

-- --colours: colour bytes / 255, alpha left out (v x y z r g b)
status, out, err = lib.rsxmesh(dir, "obj-export", "--colours", "in/B.rsxb",
  "-o", "col")
t.is(status, 0, "--colours: exit status 0")
t.is(lib.read(dir .. "/col/B.obj"), table.concat{
  "# from B.rsxb by rsxmesh obj-export\n", "mtllib B.mtl\n", "o painted\n",
  "v 0 0 0 0 1 0.2\n", "v 1 0 0 1 0 0\n", "v 0 0 1 0.4 0.2 1\n",
  rep("vn 0 0 0", 3), rep("vt 0.5 0.5", 3),
  "g painted.1\nusemtl paint\n", "f 1/1/1 2/2/2 3/3/3\n",
}, "--colours: B.obj exactly")
t.is(lib.read(dir .. "/col/B.mtl"),
  "# from B.rsxb by rsxmesh obj-export\n\nnewmtl paint\nKd 1 1 1\n",
  "--colours: B.mtl exactly")

-- --mesh and --per-mesh
status = lib.rsxmesh(dir, "obj-export", "in/A.rsxb", "-o", "one", "--mesh",
  "strip", "--per-mesh")
t.is(status, 0, "--mesh --per-mesh: exit status 0")
t.is(lfs.attributes(dir .. "/one/A/quad.obj"), nil,
  "--mesh strip: quad is left out")
t.is(lib.read(dir .. "/one/A/strip.obj"), table.concat{
  "# from A.rsxb by rsxmesh obj-export\n", "mtllib strip.mtl\n",
  "o strip\n",
  "v 1 0 -1\nv 2 0 -2\nv 3 0 -3\nv 4 0 -4\nv 5 0 -5\nv 6 0 -6\n",
  "v 7 0 -7\nv 8 0 -8\nv 9 0 -9\n",
  rep("vn 0 " .. Y .. " 0", 9),
  "g strip.1\nusemtl (none)\n",
  "f 1//1 2//2 3//3\nf 3//3 2//2 4//4\n",
  "f 5//5 6//6 7//7\nf 7//7 6//6 8//8\n" },
  "--per-mesh: strip.obj numbered from 1")
t.is(lib.read(dir .. "/one/A/strip.mtl"),
  "# from A.rsxb by rsxmesh obj-export\n\nnewmtl (none)\nKd 0.8 0.8 0.8\n",
  "--per-mesh: strip.mtl holds only what strip uses")

-- ------------------------------------------------- bad inputs among good

assert(lfs.mkdir(dir .. "/mixed"))
assert(lfs.mkdir(dir .. "/mixed/sub"))
lib.write(dir .. "/mixed/A.rsxb", lib.read(dir .. "/in/A.rsxb"))
lib.write(dir .. "/mixed/B.rsxb", lib.read(dir .. "/in/B.rsxb"))
lib.write(dir .. "/mixed/bad.rsxb", "this is not a bundle\n")
lib.write(dir .. "/mixed/sub/cut.rsxb", lib.read(dir .. "/in/A.rsxb")
  :sub(1, 100))
status, out, err = lib.rsxmesh(dir, "obj-export", "mixed", "nothere.rsxb",
  "-o", "mix")
t.is(status, 1, "bad inputs: exit status 1")
local lines = lib.lines(err)
t.is(#lines, 4, "bad inputs: three lines and the summary")
t.like(lines[1], "^obj%-export: mixed/bad%.rsxb: %S", "line 1 names bad.rsxb")
t.like(lines[2], "^obj%-export: mixed/sub/cut%.rsxb: %S",
  "line 2 names sub/cut.rsxb")
t.like(lines[3], "^obj%-export: nothere%.rsxb: %S",
  "line 3 names the missing file")
t.like(lines[4], "^obj%-export: 2 bundles, 3 meshes, 16 vertices, "
  .. "8 triangles, .*; 3 failures above$", "summary counts the failures")
t.is(lib.read(dir .. "/mix/A.obj"), A_OBJ, "the good A is still exported")
t.ok(lib.read(dir .. "/mix/B.obj") ~= nil, "the good B is still exported")
t.is(lfs.attributes(dir .. "/mix/bad.obj"), nil, "no OBJ for bad.rsxb")

-- a mesh whose MGP stride disagrees with its mask: reported, left out,
-- the other meshes exported
status, out, err = lib.rsxmesh(dir, "obj-export", "in/C.rsxb", "-o", "c")
t.is(status, 1, "stride finding: exit status 1")
lines = lib.lines(err)
t.like(lines[1], "^obj%-export: in/C%.rsxb: .*odd.*MGP stride 20 differs "
  .. "from 16 implied by mask 0x0008007d", "stride finding: one line "
  .. "naming the file, the mesh and the finding")
t.is(#lines, 2, "stride finding: that line and the summary")
local c = lib.read(dir .. "/c/C.obj") or ""
t.ok(c:find("\no crate\n") and c:find("\no tree\n")
  and not c:find("\no odd\n"), "stride finding: the others are exported")

-- ---------------------------------------------------------------- usage

status, out = lib.rsxmesh(dir, "obj-export", "--help")
t.is(status, 0, "--help: exit status 0")
t.like(out, "^Usage: " .. lib.progname_pattern .. " obj%-export ",
  "--help: usage on stdout, with the program's name as run")
for _, bad in ipairs{ { "--bogus", "in/A.rsxb", "-o", "x" },
    { "in/A.rsxb" }, { "in/A.rsxb", "-o" }, { "-o", "x" },
    { "--uv", "4", "in/A.rsxb", "-o", "x" },
    { "--jobs", "0", "in/A.rsxb", "-o", "x" } } do
  status, out, err = lib.rsxmesh(dir, "obj-export", table.unpack(bad))
  t.is(status, 2, "usage error, exit 2: " .. table.concat(bad, " "))
  t.like(err, "^obj%-export: [^\n]+\nUsage: " .. lib.progname_pattern
    .. " obj%-export ",
    "usage error on stderr: " .. table.concat(bad, " "))
end

-- ---------------------------------------------- an independent reader

if not lib.have("assimp") then
  t.skip(6, "assimp is not installed (Debian: assimp-utils)")
else
  local a, text = lib.assimp_info(dir .. "/out/A.obj")
  -- by hand: quad.1 2 faces, quad.2 1, strip.1 4; 3 + 1 materials
  t.is(a.faces, 7, "assimp: 7 faces, as the summary said")
  t.is(a.vertices, 21, "assimp: 3 vertices per face")
  t.is(a.meshes, 3, "assimp: a mesh per submesh")
  t.is(a.materials, 5, "assimp: brick, road, glass, (none) and its default")
  t.is_deeply(a.groups, { ["quad.1"] = { 6, 2 }, ["quad.2"] = { 3, 1 },
    ["strip.1"] = { 12, 4 } }, "assimp: faces per submesh")
  -- the strip's vertices 1..8 are used: x from 0 (quad) to 8
  t.is_deeply({ a.min, a.max }, { { "0.000000", "0.000000", "-8.000000" },
    { "8.000000", "1.000000", "0.000000" } }, "assimp: bounds of the "
    .. "vertices used")
  if a.faces ~= 7 then t.diag(text) end
end

-- Two inputs of the same name write the same OBJ: the second is refused,
-- the first is kept, and the run ends with status 1.
assert(lfs.mkdir(dir .. "/twin"))
lib.bundle_a(dir .. "/twin/A.rsxb")
status, out, err = lib.rsxmesh(dir, "obj-export", "in/A.rsxb", "twin/A.rsxb",
  "-o", "twins")
t.is(status, 1, "same-named inputs: exit status 1")
t.like(err, "obj%-export: twin/A%.rsxb: [^\n]*twins/A%.obj: also the output"
  .. " of in/A%.rsxb; give inputs with distinct names",
  "... the second is refused, naming the first")
t.ok(lib.read(dir .. "/twins/A.obj"), "... and the first's OBJ is kept")

-- --copy-textures (issue 9): the base-colour textures copied beside the
-- MTL, which refers to the copies; the road's normal map is no map_Kd.
-- other/B.rsxb (A again) names tex/brick.png of its own folder, which
-- would go to the same copy: refused, the first copy kept.
assert(lfs.mkdir(dir .. "/in/tex"))
lib.write(dir .. "/in/tex/brick.png", "brick bytes")
lib.write(dir .. "/in/tex/road.png", "road bytes")
status, out, err = lib.rsxmesh(dir, "obj-export", "in/A.rsxb", "-o",
  "copied", "--copy-textures")
t.is(status, 0, "--copy-textures: exit status 0")
t.is(lib.read(dir .. "/copied/A.mtl"), (A_MTL:gsub("%.%./in/tex/", "tex/")),
  "--copy-textures: map_Kd tex/brick.png and tex/road.png, the copies")
t.is_deeply({ lib.read(dir .. "/copied/tex/brick.png"),
  lib.read(dir .. "/copied/tex/road.png"),
  lib.read(dir .. "/copied/tex/road_n.png") },
  { "brick bytes", "road bytes", nil },
  "--copy-textures: the textures' bytes, only those the MTL names")
status, out, err = lib.rsxmesh(dir, "obj-export", "in/A.rsxb", "-o",
  "copied2", "--copy-textures", "--per-mesh", "--mesh", "quad")
t.is(lib.read(dir .. "/copied2/A/tex/brick.png"), "brick bytes",
  "--copy-textures --per-mesh: beside the mesh's MTL")
assert(lfs.mkdir(dir .. "/other"))
assert(lfs.mkdir(dir .. "/other/tex"))
lib.bundle_a(dir .. "/other/B.rsxb")
lib.write(dir .. "/other/tex/brick.png", "another brick")
lib.write(dir .. "/other/tex/road.png", "another road")
-- under -j 2 as under -j 1: only one process can refuse the second in
-- order
for _, j in ipairs{ "1", "2" } do
  local to = "copied3_" .. j
  status, out, err = lib.rsxmesh(dir, "obj-export", "in/A.rsxb",
    "other/B.rsxb", "-o", to, "--copy-textures", "-j", j)
  t.is(status, 1, "two textures for one copy, -j " .. j .. ": exit status 1")
  t.like(err, "obj%-export: other/B%.rsxb: " .. to .. "/tex/brick%.png: "
    .. "also the copy of [^\n]*/in/tex/brick%.png\n",
    "... the second is refused, naming the first's source")
  t.is(lib.read(dir .. "/" .. to .. "/tex/brick.png"), "brick bytes",
    "... and the first copy is kept")
  t.like(lib.read(dir .. "/" .. to .. "/B.mtl") or "", "map_Kd "
    .. "%.%./other/tex/brick%.png\n",
    "... B's MTL names B's own texture, not the first's copy")
end

-- Every file is written whole or not at all (issue 9): under a file-size
-- limit (ulimit -f, in blocks of 512 bytes; SIGXFSZ ignored, so that a
-- write fails with EFBIG instead of killing) the OBJ of A (4 KiB of
-- limit for some 700 bytes) is written and the big one is not: no
-- big.obj, no temporary left, and a message naming the file and the reason.
do
  local w = require("rsxmesh").writer()
  local n = 2000 -- 2000 vertices: some 30 bytes of "v" line each
  local mmp = {}
  for k = 1, n do mmp[k] = lib.f32(k, k, k) .. lib.u32(0) end
  assert(w:mesh(require("rsxmesh").mesh{ name = "big",
    meta = lib.meta(0x00080005), vertex_count = n, mmp_stride = 16,
    mmp = table.concat(mmp), indices = "", index_size = 2 }))
  assert(w:save(dir .. "/big.rsxb"))
end
local cmd = string.format("cd %s && trap '' XFSZ && ulimit -f 8 && "
  .. "%s obj-export -j 1 in/A.rsxb big.rsxb -o limited >/dev/null "
  .. "2>limited.err", lib.quote(dir), lib.quote(os.getenv("RSXMESH")))
local _, _, code = os.execute(cmd)
err = lib.read(dir .. "/limited.err") or ""
t.is(code, 1, "a file-size limit: exit status 1")
t.like(err, "obj%-export: big%.rsxb: limited/big%.obj: File too large\n",
  "... the message names the file and the system's reason")
t.is(lib.read(dir .. "/limited/big.obj"), nil, "... no big.obj at all")
t.is(lib.read(dir .. "/limited/A.obj"), A_OBJ, "... A.obj whole")
local left = {}
for name in lfs.dir(dir .. "/limited") do
  if name:find("%.part") then left[#left + 1] = name end
end
t.is_deeply(left, {}, "... and no temporary file left behind")

lib.cleanup()
t.done_testing()
