# t/blender-layout.sh - the add-on's layout.py (blender/rsxmesh_blender)
# against the description of the glTF that rsxmesh prints for it
# (rsxmesh.gltf_layout.json(); doc/blender.md), with plain python3, no
# Blender: what the add-on keeps in Python (the Blender names by kind,
# numpy's types by component type) must fit rsxmesh's layout, so that the
# two cannot drift apart:
# - the description is rsxmesh.gltf_layout's: each attribute is the one
#   the layout's look-up (which gltf-import reads by) gives that name;
# - every kind layout.py names is an attribute's of the layout;
# - every "_" attribute is kept on the vertices, under a name that
#   Blender's exporter ("_" + the name in capitals) writes back as its
#   glTF name, but the tangent frames, whose names it writes back as none
#   of the layout's (gltf-import turns them from the base);
# - each kept attribute's type has a Blender data type, and each
#   component type a numpy type of its size;
# - the names a user sees, as doc/blender.md gives them.
# make check; skips without python3.

: "${top_srcdir:=.}" "${RSXMESH:=./rsxmesh}"
. "$top_srcdir/t/tap.sh"

command -v python3 >/dev/null 2>&1 || skip_all "no python3 on PATH"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# the description, checked against the layout's own look-up
# shellcheck disable=SC2016 # Lua code
"$RSXMESH" -e '
local layout = require "rsxmesh.gltf_layout"
local d = layout.description()
local bad = {}
for _, e in ipairs(d.attributes) do
  local a = layout.attribute(e.name)
  if not (a and a.type == e.type and a.componentType == e.componentType
      and a.kind == e.kind and a.normalized == e.normalized) then
    bad[#bad + 1] = e.name
  end
end
print(#d.attributes, table.concat(bad, ","))' </dev/null >"$tmp/lookup" 2>&1
read -r count bad <"$tmp/lookup"
test "${count:-0}" -ge 18 && test -z "$bad"
status=$?
ok $status "the description's ${count:-0} attributes are the layout's (off: ${bad:-none})"
test $status = 0 || sed 's/^/# /' "$tmp/lookup"

# layout.py's checks, a line each: STATUS what
PYTHONDONTWRITEBYTECODE=1 python3 - "$top_srcdir/blender/rsxmesh_blender" \
  "$RSXMESH" >"$tmp/checks" 2>&1 <<'PY'
import json
import subprocess
import sys

sys.path.insert(0, sys.argv[1])
import layout  # noqa: E402  (the add-on's, without its package: no bpy)


def check(good, what):
    print(0 if good else 1, what)


text = subprocess.run([sys.argv[2]] + list(layout.ARGS), check=True,
                      stdin=subprocess.DEVNULL, capture_output=True,
                      text=True).stdout
lay = layout.Layout(text)
by_name = {a["name"]: a for a in lay.attributes}
kinds = {a.get("kind") for a in lay.attributes}
kept = lay.point_attributes
check(set(layout.NAME_OF_KIND) <= kinds,
      "layout.py's kinds are the layout's: missing %s"
      % sorted(set(layout.NAME_OF_KIND) - kinds))
under = [a["name"] for a in lay.attributes if a["name"].startswith("_")]
check(under and all(n in kept for n in under),
      "the %d \"_\" attributes are kept on the vertices" % len(under))
back = {n: "_" + blender.upper() for n, (blender, _) in kept.items()}
renamed = {n for n in kept if by_name[n].get("kind") in layout.NAME_OF_KIND}
wrong = sorted(n for n in under if n not in renamed and back[n] != n)
check(not wrong, "Blender's exporter writes each back under its glTF name"
      " (not: %s)" % wrong)
frames = sorted(back[n] for n in renamed if n.startswith("_"))
check(len(frames) == 2 and not set(by_name) & set(frames),
      "the tangent frames go back under names of no attribute: %s" % frames)
check(all(a["type"] in layout.BLENDER_TYPE
          for a in lay.attributes if a["name"] in kept),
      "each kept attribute's type has a Blender data type")
sizes = {"<i1": 1, "<u1": 1, "<i2": 2, "<u2": 2, "<u4": 4, "<f4": 4}
check(all(sizes[layout.DTYPE[c["name"]]] == c["size"]
          for c in json.loads(text)["componentTypes"]),
      "each component type has a numpy type of its size")
expected = {
    "_UV_SET_0": ("UV_SET_0", "FLOAT2"), "_UV_SET_3": ("UV_SET_3", "FLOAT2"),
    "_EXTRA_A": ("EXTRA_A", "FLOAT_COLOR"),
    "_EXTRA_B": ("EXTRA_B", "FLOAT_COLOR"),
    "_S32K2": ("S32K2", "FLOAT2"), "_HALF4": ("HALF4", "FLOAT_COLOR"),
    "_TANGENT_A": ("tangent frame A", "FLOAT_VECTOR"),
    "_TANGENT_B": ("tangent frame B", "FLOAT_VECTOR"),
    "COLOR_0": ("colour", "FLOAT_COLOR")}
check(all(kept.get(n) == v for n, v in expected.items())
      and not {"POSITION", "NORMAL", "TANGENT", "TEXCOORD_0"} & set(kept),
      "the Blender names and types doc/blender.md gives")
check(lay.texcoords == [(n, "TEXCOORD_%d" % n) for n in range(4)],
      "the logical UVs TEXCOORD_0..3, made UV0..UV3")
PY
status=$?
grep -E '^[01] ' "$tmp/checks" >"$tmp/lines"
while read -r good what; do ok "$good" "$what"; done <"$tmp/lines"
test $status = 0
ok $? "python3 ran the checks"
test $status = 0 || sed 's/^/# /' "$tmp/checks"

done_testing
