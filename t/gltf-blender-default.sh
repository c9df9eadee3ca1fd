# t/gltf-blender-default.sh - Blender's default glTF export, as a new user
# makes it (no tangents, no custom attributes, transforms not applied),
# imported back by gltf-import (issue 19). Blender 3.4 re-derives normals
# and colours, splits vertices per corner, merges primitives that share a
# material and drops every "_" attribute; t/blender-edit.py does the
# edits. Checked by t/gltf-blender-check.lua, corner by corner:
# - nothing edited, .glb and .gltf: the base's very bytes;
# - box_0002 moved without applying: only it changes, its positions + 1
#   in x exactly, all else of it and every other mesh the base's;
# - BRAVO's road_0001 and tree_0001 (submeshes routing other stored sets,
#   tree's extras) moved and applied; ALFA's box_0002 turned and
#   building_0001 scaled, applied; box_0003 with a face deleted: their
#   UVs, tangents A and B (turned with box_0002), every stored set and
#   the extras the base's, corner by corner;
# - box_0004 with a face subdivided (new vertices): imports, the report
#   saying where their A and B came from.
# make check-full; skips without Blender (Debian's blender, whose glTF
# importer needs python3-numpy).

: "${top_srcdir:=.}" "${RSXMESH:=./rsxmesh}"
. "$top_srcdir/t/tap.sh"

command -v blender >/dev/null 2>&1 || skip_all "no blender on PATH"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

"$RSXMESH" synth -o "$tmp/sample" >"$tmp/synth.log" 2>&1
ok $? "rsxmesh synth makes the sample"
for b in ALFA BRAVO; do
  "$RSXMESH" gltf-export "$tmp/sample/$b.rsxb" -o "$tmp/g" 2>>"$tmp/export.log"
done
ok $? "gltf-export of ALFA.rsxb and BRAVO.rsxb"

# edit NAME BUNDLE OUT-SUFFIX OP:MESH...: Blender's default export of the
# edit as $tmp/NAME.OUT-SUFFIX, imported back as $tmp/NAME.rsxb
edit() {
  name=$1 bundle=$2 suffix=$3
  shift 3
  blender -b --factory-startup --python "$top_srcdir/t/blender-edit.py" -- \
    "$tmp/g/$bundle.gltf" "$tmp/$name.$suffix" "$@" >"$tmp/$name.blender" 2>&1
  if ! test -s "$tmp/$name.$suffix"; then
    sed 's/^/# /' "$tmp/$name.blender" | tail -20
    return 1
  fi
  # shellcheck disable=SC2086 # TEST_WRAPPER is a command and its options
  $TEST_WRAPPER "$RSXMESH" gltf-import "$tmp/$name.$suffix" \
    --base "$tmp/sample/$bundle.rsxb" -o "$tmp/$name.rsxb" --report \
    >"$tmp/$name.report" 2>"$tmp/$name.log"
  status=$?
  test $status = 0 || sed 's/^/# /' "$tmp/$name.log"
  return $status
}

check() {
  "$RSXMESH" "$top_srcdir/t/gltf-blender-check.lua" "$@" >"$tmp/check" 2>&1
  status=$?
  sed 's/^/# /' "$tmp/check"
  return $status
}

edit none ALFA glb
ok $? "nothing edited, .glb: imports"
cmp -s "$tmp/none.rsxb" "$tmp/sample/ALFA.rsxb"
ok $? "... the base's very bytes"
grep -q ': unchanged' "$tmp/none.report" && ! grep -q ': changed' "$tmp/none.report"
ok $? "... every mesh reported unchanged"

edit none-gltf ALFA gltf
ok $? "nothing edited, .gltf: imports"
cmp -s "$tmp/none-gltf.rsxb" "$tmp/sample/ALFA.rsxb"
ok $? "... the base's very bytes"

edit move ALFA glb move:box_0002
ok $? "box_0002 moved, not applied: imports"
check "$tmp/sample/ALFA.rsxb" "$tmp/move.rsxb" move 1 box_0002
ok $? "... only box_0002 changed, +1 in x, its UVs, A, B, stored sets the base's"

edit apply BRAVO glb apply:road_0001 apply:tree_0001
ok $? "BRAVO's road_0001 and tree_0001 moved and applied: imports"
check "$tmp/sample/BRAVO.rsxb" "$tmp/apply.rsxb" move 1 road_0001 tree_0001
ok $? "... +1 in x, UVs, A, B, every stored set and the extras the base's"

edit turn ALFA glb turn:box_0002
ok $? "box_0002 turned 90 degrees, applied: imports"
check "$tmp/sample/ALFA.rsxb" "$tmp/turn.rsxb" turn box_0002
ok $? "... turned, A and B turned alike, its UVs and stored sets the base's"

edit scale ALFA gltf scale:building_0001
ok $? "building_0001 scaled x 2, applied (.gltf): imports"
check "$tmp/sample/ALFA.rsxb" "$tmp/scale.rsxb" scale building_0001
ok $? "... x doubled exactly, all else the base's"

edit delete ALFA glb delete:box_0003
ok $? "box_0003 with a face deleted: imports"
check "$tmp/sample/ALFA.rsxb" "$tmp/delete.rsxb" delete box_0003
ok $? "... one triangle fewer, every other corner the base's"
grep -q 'mesh 5 (box_0003): changed.*stale records' "$tmp/delete.report"
ok $? "... and its records reported stale"

edit cut ALFA glb cut:box_0004
ok $? "box_0004 with a face subdivided (new vertices): imports"
grep -q 'new vertices. from the base vertex of a corner beside them' \
  "$tmp/cut.report"
ok $? "... the report says where the new vertices' A and B came from"
sed 's/^/# /' "$tmp/cut.report" | grep box_0004

done_testing
