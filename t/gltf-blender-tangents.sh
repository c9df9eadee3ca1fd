# t/gltf-blender-tangents.sh - the tangents gltf-import computes from UVs
# and normals (rsxmesh.gltf_tangents, MikkTSpace's convention) against
# Blender's own: Blender imports a gltf-export of the sample's ALFA.rsxb
# and exports it with its TANGENT; ours, computed from that glTF's
# POSITION, NORMAL, TEXCOORD_0 and triangles, must point within 1e-4 (as
# a dot product's distance from 1) of each vertex's and have its w. Then
# Blender adds a quad of its own to box_0007 (no base vertex at or beside
# it) and exports with its default options (no tangents): gltf-import
# takes it, its A and B computed, and says so.
# make check-full; skips without Blender.

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
blender -b --factory-startup --python "$top_srcdir/t/blender-tangents.py" \
  -- "$tmp/g/ALFA.gltf" "$tmp/tangents.gltf" "$tmp/island.gltf" box_0007 \
  >"$tmp/blender.log" 2>&1
test -s "$tmp/tangents.gltf" && test -s "$tmp/island.gltf"
status=$?
ok $status "Blender exports with its tangents, and with a quad added"
test $status = 0 || sed 's/^/# /' "$tmp/blender.log" | tail -20

# Every primitive with TANGENT: ours against Blender's, vertex by vertex.
# Prints the vertices compared, those off, and the largest distance. (The
# chunk's arguments follow "-", an empty script from /dev/null.)
# shellcheck disable=SC2016 # Lua code
"$RSXMESH" -e '
local cjson = require "cjson"
local path = arg[1]
local f = assert(io.open(path, "rb"))
local doc = cjson.decode(f:read("a"))
f:close()
local dir = path:match("^(.*)/")
local bufs = {}
for i, b in ipairs(doc.buffers) do
  local h = assert(io.open(dir .. "/" .. b.uri, "rb"))
  bufs[i] = h:read("a")
  h:close()
end
local COMPONENTS = { SCALAR = 1, VEC2 = 2, VEC3 = 3, VEC4 = 4 }
local SIZE = { [5121] = 1, [5123] = 2, [5125] = 4, [5126] = 4 }
local function values(i)
  local a = doc.accessors[i + 1]
  local v = doc.bufferViews[a.bufferView + 1]
  local bytes = assert(rsxmesh.gltf_elements(bufs[v.buffer + 1],
    (v.byteOffset or 0) + (a.byteOffset or 0), a.count,
    COMPONENTS[a.type] * SIZE[a.componentType], v.byteStride))
  return rsxmesh.gltf_values(bytes, a.componentType, a.normalized)
end
local n, off, worst = 0, 0, 0
for _, m in ipairs(doc.meshes) do
  for _, p in ipairs(m.primitives) do
    local a = p.attributes
    if a.TANGENT then
      local T = values(a.TANGENT)
      local idx = values(p.indices)
      for k = 1, #idx do idx[k] = idx[k] + 1 end
      local C = rsxmesh.gltf_tangents(values(a.POSITION), values(a.NORMAL),
        values(a.TEXCOORD_0), idx)
      for v = 0, #T // 4 - 1 do
        local d = 1 - (C[4 * v + 1] * T[4 * v + 1] + C[4 * v + 2]
          * T[4 * v + 2] + C[4 * v + 3] * T[4 * v + 3])
        n = n + 1
        if d > 1e-4 or C[4 * v + 4] ~= T[4 * v + 4] then off = off + 1 end
        worst = math.max(worst, d)
      end
    end
  end
end
print(n, off, string.format("%.3g", worst))
' - "$tmp/tangents.gltf" </dev/null >"$tmp/compared" 2>&1
read -r count off worst <"$tmp/compared"
test "${count:-0}" -gt 1000 && test "$off" = 0
ok $? "ours and Blender's tangents agree: ${count:-0} vertices, $off off, at worst $worst from a dot of 1"
test "${off:-x}" = 0 || sed 's/^/# /' "$tmp/compared"

# shellcheck disable=SC2086
$TEST_WRAPPER "$RSXMESH" gltf-import "$tmp/island.gltf" \
  --base "$tmp/sample/ALFA.rsxb" --mesh box_0007 -o "$tmp/island.rsxb" \
  --report >"$tmp/report" 2>"$tmp/import.log"
status=$?
ok $status "gltf-import takes box_0007 with a quad of Blender's"
sed 's/^/# /' "$tmp/import.log"
grep -q "box_0007.*tangent A: each vertex's base vertex's.*and 4 new vertices' with no base vertex at or beside them (.*) computed from TEXCOORD_0, NORMAL and the positions with MikkTSpace's convention" \
  "$tmp/report"
ok $? "the report: the quad's A and B computed, its vertices named"
grep 'box_0007' "$tmp/report" | sed 's/^/# /'

done_testing
