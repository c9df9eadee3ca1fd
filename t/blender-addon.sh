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
#   filled (what was there kept corner by corner).
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

done_testing
