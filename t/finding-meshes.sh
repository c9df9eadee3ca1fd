#!/bin/sh
# t/finding-meshes.sh - the walkthrough doc/finding-meshes.md runs: each
# ```sh block in turn, in a scratch folder, with the host as `rsxmesh`,
# each exiting 0; its contact sheet is the picture of the page, byte for
# byte (the renderer and the PNG writer are exact).
. "$top_srcdir/t/host-lib.sh"

doc="$top_srcdir/doc/finding-meshes.md"
mkdir -p "$tmp/bin" "$tmp/work"
cat >"$tmp/bin/rsxmesh" <<EOT
#!/bin/sh
exec ${TEST_WRAPPER:-} "$RSXMESH" "\$@"
EOT
chmod +x "$tmp/bin/rsxmesh"

# the blocks, one file each
awk -v dir="$tmp" '
  /^```sh$/ { n++; f = sprintf("%s/block%02d.sh", dir, n); inblock = 1; next }
  /^```/ { inblock = 0; next }
  inblock { print > f }
' "$doc"
blocks=$(ls "$tmp"/block*.sh 2>/dev/null | wc -l)
is "$([ "$blocks" -ge 5 ] && echo yes)" yes "the walkthrough has its blocks"
for b in "$tmp"/block*.sh; do
  (cd "$tmp/work" && PATH="$tmp/bin:$PATH" sh -e "$b") \
    >"$tmp/out" 2>"$tmp/err"
  status=$?
  is "$status" 0 "$(basename "$b"): $(head -1 "$b")"
  [ "$status" = 0 ] || sed 's/^/# /' "$tmp/err"
done
for f in level.bin level-meshes.lua level.rsxb level.png obj/level.obj \
         found/level.rsxb found.png; do
  is "$([ -s "$tmp/work/$f" ] && echo yes)" yes "it made $f"
done
is "$(cmp "$tmp/work/found.png" "$top_srcdir/doc/finding-meshes.png" \
      >/dev/null 2>&1 && echo same)" same \
  "found.png is the page's picture, byte for byte"
done_testing
