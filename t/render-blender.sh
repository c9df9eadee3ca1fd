# t/render-blender.sh - an independent renderer: Blender (Workbench, flat,
# textures "Closest", no anti-aliasing, Standard view) renders the OBJ
# export of the sample's CHARLIE.rsxb with the same explicit camera as
# `rsxmesh render --eye --at --fov --shade flat --filter nearest`, and the
# two pictures are compared pixel by pixel: what is covered must be the
# same pixels, and at least 99.5% of the covered pixels the same colour
# (the rest, measured: under 0.3%, take the neighbouring texel where a
# sample falls on a texel's edge, as any two renderers' float rounding
# does). Two cameras: a high view, and a low wide-angle one (fov 90).
# Then bilinear filtering against Blender's "Linear" (which filters in
# linear light, as rsxmesh does): at least 98% within 2 levels of 255.
# make check-full; skips without Blender (Debian's blender).

: "${top_srcdir:=.}" "${RSXMESH:=./rsxmesh}"

. "$top_srcdir/t/tap.sh"
command -v blender >/dev/null 2>&1 || skip_all "no blender on PATH"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

"$RSXMESH" synth -o "$tmp/sample" >"$tmp/synth.log" 2>&1
ok $? "rsxmesh synth makes the sample"
"$RSXMESH" obj-export "$tmp/sample/CHARLIE.rsxb" -o "$tmp/obj" \
  2>"$tmp/export.log"
ok $? "obj-export of CHARLIE.rsxb"

# compare.lua A.png B.png: "SAME WITHIN_2 COVERED COVERAGE_DIFFERS"
cat >"$tmp/compare.lua" <<'LUA'
local rsxmesh = require "rsxmesh"
local a = assert(rsxmesh.read_png(arg[1]))
local b = assert(rsxmesh.read_png(arg[2]))
assert(a.width == b.width and a.height == b.height, "sizes differ")
local sa, sb = a:bytes(), b:bytes()
local covered, same, near, differs = 0, 0, 0, 0
for i = 0, a.width * a.height - 1 do
  local r1, g1, b1, a1 = sa:byte(4 * i + 1, 4 * i + 4)
  local r2, g2, b2, a2 = sb:byte(4 * i + 1, 4 * i + 4)
  if (a1 == 255) ~= (a2 == 255) then
    differs = differs + 1
  elseif a1 == 255 then
    covered = covered + 1
    if r1 == r2 and g1 == g2 and b1 == b2 then same = same + 1 end
    if math.abs(r1 - r2) <= 2 and math.abs(g1 - g2) <= 2
        and math.abs(b1 - b2) <= 2 then
      near = near + 1
    end
  end
end
print(same, near, covered, differs)
LUA

view() { # NAME W H EYE AT FOV FILTER(nearest|bilinear)
  interp=Closest
  test "$7" = bilinear && interp=Linear
  blender -b --factory-startup --python "$top_srcdir/t/blender-render.py" \
    -- "$tmp/obj/CHARLIE.obj" "$tmp/$1-blender.png" "$2" "$3" "$4" "$5" \
    "$6" "$interp" >"$tmp/blender.log" 2>&1
  test -s "$tmp/$1-blender.png"
  status=$?
  ok $status "$1: Blender renders the OBJ export"
  test $status = 0 || sed 's/^/# /' "$tmp/blender.log" | tail -20
  # shellcheck disable=SC2086 # TEST_WRAPPER is a command and its options
  $TEST_WRAPPER "$RSXMESH" render "$tmp/sample/CHARLIE.rsxb" \
    -o "$tmp/$1-rsxmesh.png" --size "$2x$3" --eye "$4" --at "$5" \
    --fov "$6" --shade flat --filter "$7" --background 0,0,0,0 \
    2>"$tmp/render.log"
  ok $? "$1: rsxmesh render with the same camera"
  filter=$7
  # shellcheck disable=SC2046 # four numbers, split on purpose
  set -- $("$RSXMESH" "$tmp/compare.lua" "$tmp/$1-rsxmesh.png" \
    "$tmp/$1-blender.png") "$1"
  test $# = 5 || set -- 0 0 1 1 "$1"
  echo "# $5: of $3 covered pixels $1 the same colour, $2 within 2" \
    "levels; coverage differs in $4"
  test "$4" = 0
  ok $? "$5: the same pixels covered"
  if test "$filter" = nearest; then
    test $(($1 * 1000)) -ge $(($3 * 995))
    ok $? "$5: at least 99.5% of them the same colour"
  else
    test $(($2 * 1000)) -ge $(($3 * 980))
    ok $? "$5: at least 98% of them within 2 levels (blended in linear light)"
  fi
}

view high 320 180 -60,40,40 -30,24,-60 50 nearest
view low 320 240 -20,3,-40 40,0,-90 90 nearest
view bilinear 320 180 -60,40,40 -30,24,-60 50 bilinear
done_testing
