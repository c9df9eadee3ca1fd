# t/gltf-blender-names.sh - two meshes of one name through the Blender
# add-on (issue 19): t/crates.lua's bundle (mesh 1 "crate", a triangle at
# x 0..1; mesh 2 "wall", x 10..11; mesh 3 "crate", x 20..21), imported by
# File > Import > RSXB (the second crate's object and mesh become
# "crate.001"), the first crate moved +1 along x (a node move), and
# written by File > Export > RSXB. gltf-import takes crate.001 for the
# base's second crate: mesh 1's x become 1 2 1 (0 1 0 + 1, worked out
# here), meshes 2 and 3 keep their bytes.
# make check-full; skips without Blender.

: "${top_srcdir:=.}" "${RSXMESH:=./rsxmesh}"
. "$top_srcdir/t/tap.sh"
. "$top_srcdir/t/blender-lib.sh"

LUA_PATH="$top_srcdir/t/?.lua;;" "$RSXMESH" "$top_srcdir/t/crates.lua" \
  "$tmp/dup.rsxb" >"$tmp/make.log" 2>&1
status=$?
ok $status "a bundle with two meshes named crate"
test $status = 0 || sed 's/^/# /' "$tmp/make.log"

addon_run "$tmp/dup.rsxb" "$tmp/out.rsxb" move:crate
ok $? "the add-on imports it, moves the first crate and exports it"
grep '^object|crate' "$tmp/out.rsxb.blender" | sed 's/^/# /'
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
