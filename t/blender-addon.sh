# t/blender-addon.sh - the Blender add-on (blender/rsxmesh_blender, issue
# 19) headless: File > Import > RSXB and File > Export > RSXB, driven by
# t/blender-addon.py, rsxmesh found on PATH. Checked by
# t/gltf-blender-check.lua, corner by corner:
# - the import makes an object per mesh, its logical UVs as UV0..UV3, its
#   stored sets, tangent frames, colours and extras as named attributes,
#   its materials, its identity as custom properties;
# - import then export with no edit: the base's very bytes;
# - an rsxmesh that cannot describe its glTF: the import fails, saying so;
# - one object moved: only that mesh changes, +1 in x, and it keeps its
#   UVs, unrouted stored sets, A, B and extras (BRAVO's tree_0001, and
#   building_0007 moved and applied);
# - a turned object: A and B turned alike;
# - a face deleted, a face subdivided: valid meshes, every attribute
#   filled (what was there kept corner by corner);
# - Tangents of new vertices (gltf-import's --tangents): by default base,
#   the subdivision's new vertices' A and B from base vertices beside
#   them; computed, A and B computed at every vertex gltf-import paired
#   with none, the report naming them: the vertices where the two exports
#   differ, and nothing else differs.
# make check-full; skips without Blender.

: "${top_srcdir:=.}"
. "$top_srcdir/t/tap.sh"
. "$top_srcdir/t/blender-lib.sh"

"$RSXMESH" synth -o "$tmp/sample" >"$tmp/synth.log" 2>&1
ok $? "rsxmesh synth makes the sample"

# addon NAME BUNDLE OP:MESH...: import BUNDLE, edit, export as NAME.rsxb
addon() {
  name=$1 bundle=$2
  shift 2
  addon_run "$tmp/sample/$bundle.rsxb" "$tmp/$name.rsxb" "$@"
}

check() {
  "$RSXMESH" "$top_srcdir/t/gltf-blender-check.lua" "$@" >"$tmp/check" 2>&1
  status=$?
  sed 's/^/# /' "$tmp/check"
  return $status
}

# the zip of `make blender-addon`, installed and enabled as a user does
# (Preferences > Add-ons > Install), into a scratch user folder
cat >"$tmp/install.py" <<'PY'
import sys
import bpy
bpy.ops.preferences.addon_install(filepath=sys.argv[-1])
bpy.ops.preferences.addon_enable(module="rsxmesh_blender")
print("menus", hasattr(bpy.ops.import_scene, "rsxb"),
      hasattr(bpy.ops.export_scene, "rsxb"))
PY
BLENDER_USER_SCRIPTS="$tmp/user/scripts" BLENDER_USER_CONFIG="$tmp/user/config" \
  blender -b --factory-startup --python "$tmp/install.py" -- \
  "${top_builddir:-.}/rsxmesh_blender.zip" >"$tmp/install.log" 2>&1
grep -q '^menus True True$' "$tmp/install.log" \
  && test -f "$tmp/user/scripts/addons/rsxmesh_blender/gltf.py"
status=$?
ok $status "make blender-addon's zip installs and enables: File > Import and Export > RSXB"
test $status = 0 || sed 's/^/# /' "$tmp/install.log" | tail -10

addon none BRAVO
ok $? "BRAVO imported and exported with no edit"
cmp -s "$tmp/none.rsxb" "$tmp/sample/BRAVO.rsxb"
ok $? "... the base's very bytes"
meshes=$("$RSXMESH" -e 'print(#assert(rsxmesh.open(arg[1])))' \
  "$tmp/sample/BRAVO.rsxb")
grep -q "^objects $meshes\$" "$tmp/none.rsxb.blender"
ok $? "an object per mesh ($meshes)"
# tree_0001 (mask 000807fd): A, B, four stored sets all routed, extras,
# no colour; building_0007: colour, and stored sets 1, 2, 3 feed no
# logical UV
grep -E '^object\|(tree_0001|building_0007)\|' "$tmp/none.rsxb.blender" \
  | sed 's/^/# /'
grep -q "^object|tree_0001|tree_0001|19|$tmp/sample/BRAVO.rsxb|UV0,UV1,UV2,UV3|EXTRA_A,EXTRA_B,no colour,tangent frame A,tangent frame B|bravo/bark_lm,bravo/leaves_lm\$" \
  "$tmp/none.rsxb.blender"
ok $? "tree_0001: its identity, UV0..UV3, extras, tangent frames, materials"
grep -q "^object|building_0007|building_0007|14|$tmp/sample/BRAVO.rsxb|UV0,UV1,UV2,UV3|UV_SET_1,UV_SET_2,UV_SET_3,colour,tangent frame A,tangent frame B|" \
  "$tmp/none.rsxb.blender"
ok $? "building_0007: its unrouted stored sets 1..3, its colour"

# an rsxmesh that cannot describe its glTF (older than the add-on, its
# rsxmesh.gltf_layout without json()): the import fails, naming it
mkdir "$tmp/old"
cat >"$tmp/old/rsxmesh" <<EOF
#!/bin/sh
test "\$1" = -e && exec "$rsxmesh_abs" -e 'require "rsxmesh.gltf_layout".json = nil' -e "\$2"
exec "$rsxmesh_abs" "\$@"
EOF
chmod +x "$tmp/old/rsxmesh"
PATH="$tmp/old:$PATH" blender -b --factory-startup \
  --python "$top_srcdir/t/blender-addon.py" -- "$top_srcdir/blender" \
  "$tmp/sample/BRAVO.rsxb" "$tmp/old.rsxb" >"$tmp/old.log" 2>&1
test ! -e "$tmp/old.rsxb" \
  && grep -q "$tmp/old/rsxmesh did not describe its glTF (rsxmesh.gltf_layout.json(); an rsxmesh older than the add-on?): .*attempt to call a nil value (field 'json')" \
    "$tmp/old.log"
ok $? "an rsxmesh that does not describe its glTF: the import fails, saying so"
grep 'did not describe' "$tmp/old.log" | sed 's/^/# /'

addon move BRAVO move:tree_0001
ok $? "tree_0001 moved"
check "$tmp/sample/BRAVO.rsxb" "$tmp/move.rsxb" move 1 tree_0001
ok $? "... only it changed: +1 in x, its UVs, stored sets, A, B, extras kept"

addon apply BRAVO apply:building_0007
ok $? "building_0007 moved and applied"
check "$tmp/sample/BRAVO.rsxb" "$tmp/apply.rsxb" move 1 building_0007
ok $? "... +1 in x, its unrouted stored sets, A and B the base's"

addon turn BRAVO turn:tree_0001
ok $? "tree_0001 turned 90 degrees, applied"
check "$tmp/sample/BRAVO.rsxb" "$tmp/turn.rsxb" turn tree_0001
ok $? "... A and B turned alike, its UVs, stored sets and extras kept"

addon delete BRAVO delete:tree_0001
ok $? "a face of tree_0001 deleted"
check "$tmp/sample/BRAVO.rsxb" "$tmp/delete.rsxb" delete tree_0001
ok $? "... one triangle fewer, every other corner the base's"

addon cut BRAVO cut:tree_0001
ok $? "a face of tree_0001 subdivided (new vertices)"
"$RSXMESH" -e '
local b = assert(rsxmesh.open(arg[1]))
local m = assert(b:mesh("tree_0001"))
local bad = #m.findings
for _, kind in ipairs(m:attributes()) do
  bad = bad + m:attribute(kind):non_finite()
end
print(bad, m.vertex_count)' "$tmp/cut.rsxb" >"$tmp/check" 2>&1
read -r bad count <"$tmp/check"
test "$bad" = 0
ok $? "... a valid mesh, every attribute of its $count vertices filled"

addon cutc BRAVO cut:tree_0001 tangents:computed
ok $? "the same, exported with Tangents of new vertices: computed"
# the vertices at no base vertex's position in the default export; the
# vertices where the two exports differ, kind by kind, as the report
# lists vertices ("3-4, 7"); those whose computed A is not a unit vector
# across the normal (within 0.005: the stored encoding's steps)
# shellcheck disable=SC2016 # Lua code
"$RSXMESH" -e '
local function mesh(file)
  return assert(assert(rsxmesh.open(file)):mesh("tree_0001"))
end
local base, cut, comp = mesh(arg[1]), mesh(arg[2]), mesh(arg[3])
local function key(acc, v) return table.concat({ acc:get(v) }, " ") end
local at, new = {}, 0
for v = 1, base.vertex_count do at[key(base:attribute("position"), v)] = true end
for v = 1, cut.vertex_count do
  if not at[key(cut:attribute("position"), v)] then new = new + 1 end
end
local differ = {}
for _, kind in ipairs(cut:attributes()) do
  local a, b = cut:attribute(kind), comp:attribute(kind)
  for v = 1, math.min(cut.vertex_count, comp.vertex_count) do
    if key(a, v) ~= key(b, v) then
      differ[kind] = differ[kind] or {}
      table.insert(differ[kind], v)
    end
  end
end
local function ranges(list)
  local out, i = {}, 1
  while i <= #list do
    local j = i
    while list[j + 1] == list[j] + 1 do j = j + 1 end
    out[#out + 1] = j > i and list[i] .. "-" .. list[j] or tostring(list[i])
    i = j + 1
  end
  return table.concat(out, ", ")
end
local A, N, off = comp:attribute("tangent_a"), comp:attribute("normal"), 0
for _, v in ipairs(differ.tangent_a or {}) do
  local x, y, z = A:get(v)
  local nx, ny, nz = N:get(v)
  if math.abs(math.sqrt(x * x + y * y + z * z) - 1) > 0.005
      or math.abs(x * nx + y * ny + z * nz) > 0.005 then off = off + 1 end
end
local others = {}
for kind in pairs(differ) do
  if kind ~= "tangent_a" and kind ~= "tangent_b" then others[#others + 1] = kind end
end
print(new, cut.vertex_count == comp.vertex_count, #(differ.tangent_a or {}),
  ranges(differ.tangent_a or {}) == ranges(differ.tangent_b or {}),
  #others, off)
print(ranges(differ.tangent_a or {}))' - "$tmp/sample/BRAVO.rsxb" \
  "$tmp/cut.rsxb" "$tmp/cutc.rsxb" </dev/null >"$tmp/check" 2>&1
{ read -r new same computed alike others off; read -r list; } <"$tmp/check"
sed 's/^/# /' "$tmp/check"
test "${new:-0}" -gt 0 \
  && grep -q "tree_0001.*tangent A (no _TANGENT_A or TANGENT, and $new new vertices' from the base vertex of a corner beside them), tangent B (no _TANGENT_B or TANGENT, and $new new vertices' from the base vertex of a corner beside them)" \
  "$tmp/cut.rsxb.txt"
ok $? "by default (base) the $new new vertices' A and B are from base vertices beside them"
test "$same" = true && test "${computed:-0}" -ge "${new:-1}" \
  && test "$alike" = true && test "$others" = 0
ok $? "computed: the exports differ in A and B at ${computed:-0} vertices, and in nothing else"
test "$off" = 0
ok $? "... each computed A a unit vector across its normal"
grep -q "tree_0001.*tangent A: each vertex's base vertex's, and $computed new vertices' ($list: --tangents computed) computed from TEXCOORD_0, NORMAL and the positions with MikkTSpace's convention" \
  "$tmp/cutc.rsxb.txt"
status=$?
ok $status "... the report names those vertices: $list"
test $status = 0 || grep tree_0001 "$tmp/cutc.rsxb.txt" | sed 's/^/# /'

done_testing
