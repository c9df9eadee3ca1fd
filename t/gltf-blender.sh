# t/gltf-blender.sh - an outside editor: Blender imports a gltf-export of
# the sample's ALFA.rsxb, moves the object of mesh box_0002 by +1 along x
# (without applying it: glTF gets a node translation), and exports glTF;
# gltf-import takes it back, with --mesh box_0002 and whole. Corner by
# corner, the moved mesh's positions must be the original's plus exactly
# (1, 0, 0) in float32, and every other position and every logical UV the
# original's; with --mesh, every other mesh byte for byte.
# make check-full; skips without Blender (Debian's blender, whose glTF
# importer needs python3-numpy).

: "${top_srcdir:=.}" "${RSXMESH:=./rsxmesh}"
. "$top_srcdir/t/tap.sh"

command -v blender >/dev/null 2>&1 || skip_all "no blender on PATH"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC2086 # TEST_WRAPPER is a command and its options
$TEST_WRAPPER "$RSXMESH" synth -o "$tmp/sample" >"$tmp/synth.log" 2>&1
ok $? "rsxmesh synth makes the sample"
# shellcheck disable=SC2086
$TEST_WRAPPER "$RSXMESH" gltf-export "$tmp/sample/ALFA.rsxb" -o "$tmp/g" \
  2>"$tmp/export.log"
ok $? "gltf-export of ALFA.rsxb"
blender -b --factory-startup --python "$top_srcdir/t/blender-move.py" -- \
  "$tmp/g/ALFA.gltf" "$tmp/moved.gltf" box_0002 1 >"$tmp/blender.log" 2>&1
test -s "$tmp/moved.gltf"
status=$?
ok $status "Blender imports, moves box_0002 and exports glTF"
test $status = 0 || sed 's/^/# /' "$tmp/blender.log" | tail -20
# shellcheck disable=SC2086
$TEST_WRAPPER "$RSXMESH" gltf-import "$tmp/moved.gltf" \
  --base "$tmp/sample/ALFA.rsxb" --mesh box_0002 -o "$tmp/new.rsxb" \
  --report >"$tmp/report" 2>"$tmp/import.log"
status=$?
ok $status "gltf-import takes Blender's glTF back (--mesh box_0002)"
sed 's/^/# /' "$tmp/import.log"
grep 'box_0002' "$tmp/report" | sed 's/^/# /'

# the whole file too: Blender merged primitives that share a material,
# which gltf-import splits back by their triangles
# shellcheck disable=SC2086
$TEST_WRAPPER "$RSXMESH" gltf-import "$tmp/moved.gltf" \
  --base "$tmp/sample/ALFA.rsxb" -o "$tmp/all.rsxb" 2>"$tmp/all.log"
status=$?
ok $status "gltf-import takes the whole of Blender's glTF back"
sed 's/^/# /' "$tmp/all.log"

# For each mesh of the base and of a new bundle, submesh by submesh and
# corner by corner (Blender keeps the triangles' order and winding): the
# position (box_0002's + (1, 0, 0) in float32) and every logical UV must
# be the base's exactly, and each submesh's triangle count. Prints the
# meshes checked, the corners compared and those that differ.
check() {
  # shellcheck disable=SC2016 # Lua code
  "$RSXMESH" -e '
local old = assert(rsxmesh.open(arg[1]))
local new = assert(rsxmesh.open(arg[2]))
local only = arg[3] ~= "" and arg[3] or nil
local meshes, corners, bad = 0, 0, 0
for k, m in old:meshes() do
  local n = new:mesh(k)
  if not only or m.name == only then
    meshes = meshes + 1
    local dx = m.name == "box_0002" and 1 or 0
    local pa, pb = m:attribute("position"), n:attribute("position")
    for i, s in m:submeshes() do
      local sn = n:submesh(i)
      local a, na = s:triangles()
      local b, nb = sn:triangles()
      if na ~= nb then bad = bad + 1 end
      for c = 1, math.min(#a, #b) do
        corners = corners + 1
        local x1, y1, z1 = pa:get(a[c])
        local x2, y2, z2 = pb:get(b[c])
        local same = rsxmesh.float32(x1 + dx) == x2 and y1 == y2
          and z1 == z2
        for l = 0, 3 do
          local ua, ub = s:uv(l), sn:uv(l)
          if ua and ub then
            local u1, v1 = ua:get(a[c])
            local u2, v2 = ub:get(b[c])
            same = same and u1 == u2 and v1 == v2
          end
        end
        if not same then bad = bad + 1 end
      end
    end
  end
end
print(meshes, corners, bad)
' "$tmp/sample/ALFA.rsxb" "$1" "$2" 2>&1
}

check "$tmp/new.rsxb" box_0002 >"$tmp/check"
read -r meshes corners bad <"$tmp/check"
test "$meshes" = 1 && test "$corners" -gt 0 && test "$bad" = 0
ok $? "box_0002 moved by exactly +1 in x, its UVs and triangles as they were ($bad of $corners corners differ)"

check "$tmp/all.rsxb" >"$tmp/check"
read -r meshes corners bad <"$tmp/check"
test "$meshes" -gt 1 && test "$corners" -gt 0 && test "$bad" = 0
ok $? "every mesh's positions, UVs and triangles as they were, box_0002 moved ($bad of $corners corners differ in $meshes meshes)"

# shellcheck disable=SC2016 # Lua code
"$RSXMESH" -e '
local old = assert(rsxmesh.open(arg[1]))
local new = assert(rsxmesh.open(arg[2]))
local same = 0
for k, m in old:meshes() do
  local o = new:mesh(k)
  if m.name ~= "box_0002" and o:stream("mmp") == m:stream("mmp")
    and o:stream("mgp") == m:stream("mgp")
    and o:index_bytes() == m:index_bytes() then
    same = same + 1
  end
end
print(same, #old - 1)
' "$tmp/sample/ALFA.rsxb" "$tmp/new.rsxb" >"$tmp/check" 2>&1
read -r same others <"$tmp/check"
test "$same" = "$others"
ok $? "with --mesh box_0002, every other mesh byte for byte ($same of $others)"

done_testing
