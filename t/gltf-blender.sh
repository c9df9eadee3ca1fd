# t/gltf-blender.sh - an outside editor: Blender imports a gltf-export of
# the sample's ALFA.rsxb, moves the object of mesh box_0002 by +1 along x
# (without applying it: glTF gets a node translation), and exports glTF;
# gltf-import takes it back. The moved mesh's every position must be a
# position of the original plus exactly (1, 0, 0) in float32, every
# original position must be there, and every other mesh byte for byte.
# make check-full; skips without Blender (Debian's blender, whose glTF
# importer needs python3-numpy).

: "${top_srcdir:=.}" "${RSXMESH:=./rsxmesh}"

skip_all() {
  echo "1..0 # SKIP $1"
  exit 0
}
command -v blender >/dev/null 2>&1 || skip_all "no blender on PATH"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
ok() {
  n=$((n + 1))
  if test "$1" = 0; then
    echo "ok $n - $2"
  else
    echo "not ok $n - $2"
    fails=$((fails + 1))
  fi
}

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

# shellcheck disable=SC2016 # Lua code
"$RSXMESH" -e '
local old = assert(rsxmesh.open(arg[1]))
local new = assert(rsxmesh.open(arg[2]))
local function f32(x) return (string.unpack("<f", string.pack("<f", x))) end
-- positions as keys: float32 bytes, -0 as 0
local function key(x, y, z)
  return string.pack("<fff", x + 0.0, y + 0.0, z + 0.0)
end
local want, seen = {}, {}
for _, x, y, z in old:mesh("box_0002"):attribute("position"):iter() do
  want[key(f32(x + 1), y, z)] = true
end
local stray = 0
for _, x, y, z in new:mesh("box_0002"):attribute("position"):iter() do
  local k = key(x, y, z)
  if want[k] then seen[k] = true else stray = stray + 1 end
end
local missing = 0
for k in pairs(want) do if not seen[k] then missing = missing + 1 end end
print(stray, missing)
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
{ read -r stray missing; read -r same others; } <"$tmp/check"
test "$stray" = 0
ok $? "every position of box_0002 is an original one + (1, 0, 0) ($stray not)"
test "$missing" = 0
ok $? "every original position of box_0002 came back moved ($missing not)"
test "$same" = "$others"
ok $? "every other mesh byte for byte ($same of $others)"

echo "1..$n"
test $fails = 0
