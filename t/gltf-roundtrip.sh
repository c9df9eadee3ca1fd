# t/gltf-roundtrip.sh - gltf-export, then gltf-import, of every bundle of a
# synthetic disc gives back the very file (cmp), as .gltf and as .glb
#
# SCALE (default: synth's own small sample) sets the disc's size:
# t/gltf-roundtrip-full.sh runs this with SCALE=1, the whole disc, in
# make check-full.

: "${top_srcdir:=.}" "${RSXMESH:=./rsxmesh}"
. "$top_srcdir/t/tap.sh"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

scale=${SCALE:+--scale $SCALE}
# shellcheck disable=SC2086 # TEST_WRAPPER is a command and its options
$TEST_WRAPPER "$RSXMESH" synth -o "$tmp/disc" $scale >"$tmp/synth.log" 2>&1
ok $? "rsxmesh synth makes the disc ${SCALE:+(scale $SCALE)}"
for form in gltf glb; do
  flag=
  test $form = glb && flag=--glb
  # shellcheck disable=SC2086
  $TEST_WRAPPER "$RSXMESH" gltf-export "$tmp/disc" -o "$tmp/$form" $flag \
    2>"$tmp/export.log"
  ok $? "gltf-export${flag:+ $flag} of the disc: exit status 0"
  same=0
  total=0
  for bundle in "$tmp"/disc/*.rsxb; do
    name=$(basename "$bundle" .rsxb)
    total=$((total + 1))
    # shellcheck disable=SC2086
    if $TEST_WRAPPER "$RSXMESH" gltf-import "$tmp/$form/$name.$form" \
         --base "$bundle" -o "$tmp/$form/$name.rsxb" 2>"$tmp/import.log" &&
       cmp "$bundle" "$tmp/$form/$name.rsxb"; then
      same=$((same + 1))
    else
      sed 's/^/# /' "$tmp/import.log"
    fi
  done
  test "$total" -gt 0 && test "$same" = "$total"
  ok $? "gltf-import of every .$form gives the very bundle ($same of $total)"
done

done_testing
