# t/gltf-blender-names.sh - two meshes of one name through the Blender
# add-on (issue 19): a bundle of mesh 1 "crate" (a triangle at x 0..1),
# mesh 2 "wall" (x 10..11) and mesh 3 "crate" (x 20..21), imported by
# File > Import > RSXB (the second crate's object and mesh become
# "crate.001"), the first crate moved +1 along x (a node move), and
# written by File > Export > RSXB. gltf-import takes crate.001 for the
# base's second crate: mesh 1's x become 1 2 1 (0 1 0 + 1, worked out
# here), meshes 2 and 3 keep their bytes.
# make check-full; skips without Blender.

: "${top_srcdir:=.}" "${RSXMESH:=./rsxmesh}"
. "$top_srcdir/t/tap.sh"

command -v blender >/dev/null 2>&1 || skip_all "no blender on PATH"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# the add-on runs `rsxmesh` from PATH: the one under test
mkdir "$tmp/bin"
rsxmesh_abs=$(cd "$(dirname "$RSXMESH")" && pwd)/$(basename "$RSXMESH")
printf '#!/bin/sh\nexec %s "$@"\n' "$rsxmesh_abs" >"$tmp/bin/rsxmesh"
chmod +x "$tmp/bin/rsxmesh"

cat >"$tmp/make.lua" <<'LUA'
local lib = require "scripts-lib"
local UP = 511 << 22 -- CMP (0, 0, 511*64/32767)
local function triangle(name, x)
  return assert(rsxmesh.mesh{
    name = name, meta = lib.meta(0x00080005), vertex_count = 3,
    mmp_stride = 16, mmp = lib.f32(x, 0, 0) .. lib.u32(UP)
      .. lib.f32(x + 1, 0, 0) .. lib.u32(UP)
      .. lib.f32(x, 1, 0) .. lib.u32(UP),
    indices = rsxmesh.indices(2, { 1, 2, 3 }), index_size = 2,
    submeshes = { { record = lib.subrec(0xFFFFFFFF), first_index = 0,
      index_count = 3 } },
  })
end
local w = rsxmesh.writer()
for _, m in ipairs({ triangle("crate", 0), triangle("wall", 10),
    triangle("crate", 20) }) do
  assert(w:mesh(m))
end
assert(w:save(arg[1]))
LUA
LUA_PATH="$top_srcdir/t/?.lua;;" "$RSXMESH" "$tmp/make.lua" "$tmp/dup.rsxb" \
  >"$tmp/make.log" 2>&1
status=$?
ok $status "a bundle with two meshes named crate"
test $status = 0 || sed 's/^/# /' "$tmp/make.log"

PATH="$tmp/bin:$PATH" blender -b --factory-startup \
  --python "$top_srcdir/t/blender-addon.py" -- "$top_srcdir/blender" \
  "$tmp/dup.rsxb" "$tmp/out.rsxb" move:crate >"$tmp/blender.log" 2>&1
status=$?
test -s "$tmp/out.rsxb" || status=1
ok $status "the add-on imports it, moves the first crate and exports it"
test $status = 0 || sed 's/^/# /' "$tmp/blender.log" | tail -20
grep '^object|crate' "$tmp/blender.log" | sed 's/^/# /'
sed 's/^/# /' "$tmp/out.rsxb.txt" 2>/dev/null

cat >"$tmp/check.lua" <<'LUA'
local old, new = assert(rsxmesh.open(arg[1])), assert(rsxmesh.open(arg[2]))
local pos = new:mesh(1):attribute("position")
local xs = {}
for v = 1, #pos do xs[v] = string.format("%g", (pos:get(v))) end
print(table.concat(xs, " "), #new,
  new:mesh(2):stream("mmp") == old:mesh(2):stream("mmp"),
  new:mesh(3):stream("mmp") == old:mesh(3):stream("mmp"))
LUA
got=$("$RSXMESH" "$tmp/check.lua" "$tmp/dup.rsxb" "$tmp/out.rsxb" 2>&1)
want=$(printf '1 2 1\t3\ttrue\ttrue')
test "$got" = "$want"
status=$?
ok $status "crate moved +1 in x, crate.001 taken for mesh 3: wall and it as they were"
test $status = 0 || printf '# got: %s\n' "$got"
done_testing
