# t/render-blender.sh - an independent renderer: Blender (Workbench, flat,
# textures "Closest", no anti-aliasing, Standard view) renders the OBJ
# export of the sample's CHARLIE.rsxb with the same explicit camera as
# `rsxmesh render --eye --at --fov --shade flat --filter nearest`, and the
# two pictures are compared pixel by pixel: what is covered must be the
# same pixels, and at least 99.5% of the covered pixels the same colour
# (the rest, measured: under 0.3%, take the neighbouring texel where a
# sample falls on a texel's edge, as any two renderers' float rounding
# does). Two cameras: a high view, and a low wide-angle one (fov 90).
# make check-full; skips without Blender (Debian's blender).

: "${top_srcdir:=.}" "${RSXMESH:=./rsxmesh}"

skip_all() {
  echo "1..0 # SKIP $1"
  exit 0
}
command -v blender >/dev/null 2>&1 || skip_all "no blender on PATH"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
ok() {
  n=$((n + 1))
  if test "$1" = 0; then
    echo "ok $n - $2"
  else
    echo "not ok $n - $2"
  fi
}

"$RSXMESH" synth -o "$tmp/sample" >"$tmp/synth.log" 2>&1
ok $? "rsxmesh synth makes the sample"
"$RSXMESH" obj-export "$tmp/sample/CHARLIE.rsxb" -o "$tmp/obj" \
  2>"$tmp/export.log"
ok $? "obj-export of CHARLIE.rsxb"

# compare.lua A.png B.png: "SAME COVERED COVERAGE_DIFFERS"
cat >"$tmp/compare.lua" <<'LUA'
local rsxmesh = require "rsxmesh"
local a = assert(rsxmesh.read_png(arg[1]))
local b = assert(rsxmesh.read_png(arg[2]))
assert(a.width == b.width and a.height == b.height, "sizes differ")
local sa, sb = a:bytes(), b:bytes()
local covered, same, differs = 0, 0, 0
for i = 0, a.width * a.height - 1 do
  local r1, g1, b1, a1 = sa:byte(4 * i + 1, 4 * i + 4)
  local r2, g2, b2, a2 = sb:byte(4 * i + 1, 4 * i + 4)
  if (a1 == 255) ~= (a2 == 255) then
    differs = differs + 1
  elseif a1 == 255 then
    covered = covered + 1
    if r1 == r2 and g1 == g2 and b1 == b2 then same = same + 1 end
  end
end
print(same, covered, differs)
LUA

view() { # NAME W H EYE AT FOV
  blender -b --factory-startup --python "$top_srcdir/t/blender-render.py" \
    -- "$tmp/obj/CHARLIE.obj" "$tmp/$1-blender.png" "$2" "$3" "$4" "$5" \
    "$6" >"$tmp/blender.log" 2>&1
  test -s "$tmp/$1-blender.png"
  status=$?
  ok $status "$1: Blender renders the OBJ export"
  test $status = 0 || sed 's/^/# /' "$tmp/blender.log" | tail -20
  # shellcheck disable=SC2086 # TEST_WRAPPER is a command and its options
  $TEST_WRAPPER "$RSXMESH" render "$tmp/sample/CHARLIE.rsxb" \
    -o "$tmp/$1-rsxmesh.png" --size "$2x$3" --eye "$4" --at "$5" \
    --fov "$6" --shade flat --filter nearest --background 0,0,0,0 \
    2>"$tmp/render.log"
  ok $? "$1: rsxmesh render with the same camera"
  # shellcheck disable=SC2046 # three numbers, split on purpose
  set -- $("$RSXMESH" "$tmp/compare.lua" "$tmp/$1-rsxmesh.png" \
    "$tmp/$1-blender.png") "$1"
  test $# = 4 || set -- 0 1 1 "$1"
  echo "# $4: $1 of $2 covered pixels the same colour; coverage differs" \
    "in $3"
  test "$3" = 0
  ok $? "$4: the same pixels covered"
  test $(($1 * 1000)) -ge $(($2 * 995))
  ok $? "$4: at least 99.5% of them the same colour"
}

view high 320 180 -60,40,40 -30,24,-60 50
view low 320 240 -20,3,-40 40,0,-90 90
echo "1..$n"
