# t/gltf-blender-colours.sh - colours painted in Blender through the
# add-on (issue 19): File > Import > RSXB of the sample's ALFA.rsxb, every
# vertex of box_0002 painted (1, 0.5, 0.25, 1) (t/blender_edits.py's
# paint), File > Export > RSXB. box_0002's colours come back as the bytes
# 255 128 64 255 (0.5 * 255 = 127.5 and 0.25 * 255 = 63.75 rounded,
# worked out here) and every other byte of the bundle as it was; with
# nothing painted, the bundle's very bytes.
# make check-full; skips without Blender.

: "${top_srcdir:=.}" "${RSXMESH:=./rsxmesh}"
. "$top_srcdir/t/tap.sh"
. "$top_srcdir/t/blender-lib.sh"

"$RSXMESH" synth -o "$tmp/sample" >"$tmp/synth.log" 2>&1
ok $? "rsxmesh synth makes the sample"

addon_run "$tmp/sample/ALFA.rsxb" "$tmp/none.rsxb"
ok $? "the add-on imports ALFA and exports it unpainted"
cmp -s "$tmp/sample/ALFA.rsxb" "$tmp/none.rsxb"
ok $? "... as the bundle's very bytes"

addon_run "$tmp/sample/ALFA.rsxb" "$tmp/painted.rsxb" paint:box_0002
ok $? "the add-on exports ALFA with box_0002 painted"
grep 'box_0002' "$tmp/painted.rsxb.txt" | sed 's/^/# /'

cat >"$tmp/check.lua" <<'LUA'
local old, new = assert(rsxmesh.open(arg[1])), assert(rsxmesh.open(arg[2]))
local others, painted = 0, nil
for k, m in old:meshes() do
  local n = new:mesh(k)
  local same = m:stream("mmp") == n:stream("mmp")
    and m:index_bytes() == n:index_bytes()
    and m:record():bytes() == n:record():bytes()
  for _, kind in ipairs(rsxmesh.kinds) do
    if m:has(kind) and (kind ~= "colour" or m.name ~= arg[3]) then
      same = same and m:attribute(kind):raw() == n:attribute(kind):raw()
    end
  end
  if not same then others = others + 1 end
  if m.name == arg[3] then
    painted = n:attribute("colour"):raw()
      == string.rep("\255\128\64\255", n.vertex_count)
  end
end
print(others, painted)
LUA
got=$("$RSXMESH" "$tmp/check.lua" "$tmp/sample/ALFA.rsxb" \
  "$tmp/painted.rsxb" box_0002 2>&1)
want=$(printf '0\ttrue')
test "$got" = "$want"
status=$?
ok $status "box_0002's colours all 255 128 64 255, every other byte as it was"
test $status = 0 || printf '# got: %s\n' "$got"
done_testing
