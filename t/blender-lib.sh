# t/blender-lib.sh - what the add-on's shell tests share: `.
# "$top_srcdir/t/blender-lib.sh"` after t/tap.sh skips the file without
# Blender, makes $tmp (removed at exit) and a $tmp/bin/rsxmesh that runs
# the rsxmesh under test ($RSXMESH), for the add-on, which runs `rsxmesh`
# from PATH; then `addon_run BUNDLE OUT.rsxb [OP:MESH]...` runs
# t/blender-addon.py (File > Import > RSXB, the edits of
# t/blender_edits.py, File > Export > RSXB with its report) with its
# output in OUT.rsxb.blender, and shows its end when it fails.

: "${top_srcdir:=.}" "${RSXMESH:=./rsxmesh}"
command -v blender >/dev/null 2>&1 || skip_all "no blender on PATH"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
rsxmesh_abs=$(cd "$(dirname "$RSXMESH")" && pwd)/$(basename "$RSXMESH")
printf '#!/bin/sh\nexec %s "$@"\n' "$rsxmesh_abs" >"$tmp/bin/rsxmesh"
chmod +x "$tmp/bin/rsxmesh"

addon_run() {
  bundle=$1 out=$2
  shift 2
  PATH="$tmp/bin:$PATH" blender -b --factory-startup \
    --python "$top_srcdir/t/blender-addon.py" -- "$top_srcdir/blender" \
    "$bundle" "$out" "$@" >"$out.blender" 2>&1
  status=$?
  test -s "$out" || status=1
  test $status = 0 || sed 's/^/# /' "$out.blender" | tail -20
  return $status
}
