#!/bin/sh
# win64/same-bytes.sh - TAP: the standard scripts write the same bytes on
# Windows (rsxmesh.exe of the win64 zip, under wine) as on Linux ($RSXMESH).
# Run by make check-win64, which sets WIN64_ZIP (and WIN64_LUA, Lua's own
# lua.exe). The zip is unzipped into a folder whose name has spaces and
# non-ASCII letters, and run from there. Each side works in its own such
# folder, on inputs it made itself (synth, the first comparison), with the
# same relative paths, so that any path written into a file is the same.
: "${RSXMESH:?run by make check-win64}"
: "${WIN64_ZIP:?run by make check-win64}"
WINE=${WINE:-wine}
export WINEDEBUG=${WINEDEBUG:--all}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rsxmesh-win64.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
lin="$tmp/linux dossier é"
win="$tmp/windows dossier é"
mkdir -p "$lin" "$win" "$tmp/mes outils à moi"
(cd "$tmp/mes outils à moi" && unzip -q "$WIN64_ZIP") || exit 99
WIN64_EXE=$(echo "$tmp/mes outils à moi"/rsxmesh-*-win64/rsxmesh.exe)
n=0 failed=0

# both NAME ARGS...: run the script on both sides, stdout to NAME.stdout
both() {
  name=$1; shift
  (cd "$lin" && "$RSXMESH" "$@" >"$name.stdout" 2>"$name.stderr"; \
   echo $? >"$name.status")
  (cd "$win" && $WINE "$WIN64_EXE" "$@" >"$name.stdout" 2>"$name.stderr"; \
   echo $? >"$name.status")
}

# same NAME FILES...: the files (folders: every file in them) are the same
# bytes on both sides, and the run's exit status and stdout too
same() {
  name=$1; shift
  n=$((n + 1))
  why=
  for f in "$name.status" "$name.stdout" "$@"; do
    if [ -d "$lin/$f" ]; then
      d=$(cd "$lin" && find "$f" -type f | sort)
      dw=$(cd "$win" && find "$f" -type f | sort)
      [ "$d" = "$dw" ] || why="$why; $f: other files ($(echo $dw))"
      while IFS= read -r g; do
        cmp -s "$lin/$g" "$win/$g" || why="$why; $g differs"
      done <<EOT
$d
EOT
    elif ! cmp -s "$lin/$f" "$win/$f"; then
      why="$why; $f differs"
    fi
  done
  # a run that fails fails the test, unless failures are what it is for
  if [ -z "$why" ] && { [ "$(cat "$lin/$name.status")" = 0 ] ||
                        [ -n "${failures_wanted:-}" ]; }; then
    echo "ok $n - $name: the same bytes"
  else
    echo "not ok $n - $name: ${why#; }"
    sed 's/^/#   windows: /' "$win/$name.stderr" | head -5
    sed 's/^/#   linux: /' "$lin/$name.stderr" | head -5
    failed=$((failed + 1))
  fi
}

both synth synth -o sample --jobs 1
same synth sample
both obj obj-export sample -o obj -j 1
same obj obj
both gltf gltf-export sample -o gltf -j 1
same gltf gltf
both glb gltf-export sample --glb -o glb -j 1
same glb glb
both per-mesh gltf-export sample/CHARLIE.rsxb --per-mesh --copy-textures \
  -o per-mesh -j 1
same per-mesh per-mesh
both uv-tsv uv-selectors sample --tsv -j 1
same uv-tsv
both uv-json uv-selectors sample --json -j 1
same uv-json
both survey survey sample -j 1
same survey
both survey-json survey sample --json -j 1
same survey-json
both info info sample --json --declaration -j 1
same info
# -j 2: the pool in C, CreateProcessW's workers on Windows (src/pool.c)
both synth-j2 synth -o sample-j2 --jobs 2
same synth-j2 sample-j2
both obj-j2 obj-export sample -o obj-j2 -j 2
same obj-j2 obj-j2
both glb-j2 gltf-export sample --glb -o glb-j2 -j 2
same glb-j2 glb-j2
both info-j2 info sample --json --declaration -j 2
same info-j2
both survey-j2 survey sample -j 2
same survey-j2
both uv-layout uv-layout sample/CHARLIE.rsxb --mesh building_0001 \
  -o uv-layout
same uv-layout uv-layout
both import gltf-import gltf/CHARLIE.gltf --base sample/CHARLIE.rsxb \
  -o imported.rsxb
same import imported.rsxb
# Renders: no maths-library rounding shows (measured: doc/rendering.md)
both render render sample -o render --size 320x180
same render render
both sheet render sample/CHARLIE.rsxb --sheet --size 80x80 -o sheet.png
same sheet sheet.png
both perspective render sample/CHARLIE.rsxb --size 320x240 --fov 90 \
  --eye 10,2,-30 --at 60,0,-120 --filter bilinear -o perspective.png
same perspective perspective.png
both lit render sample/DELTA.rsxb --size 320x180 --fov 33 \
  --eye -50,80,90 --at 0,0,0 --shade lit --filter trilinear -o lit.png
same lit lit.png

# The Windows cases: names with spaces and non-ASCII letters; '\' and a
# drive letter (wine's Z: is /) on the command line, the files written the
# same; outputs written over existing ones.
for side in "$lin" "$win"; do
  cp "$side/sample/CHARLIE.rsxb" "$side/sample/Çharlie été.rsxb"
done
both utf8 obj-export "sample/Çharlie été.rsxb" -o "obj où" -j 1
same utf8 "obj où"
both utf8-gltf gltf-export "sample/Çharlie été.rsxb" -o "gltf où" -j 1
same utf8-gltf "gltf où"
(cd "$lin" && "$RSXMESH" obj-export sample/CHARLIE.rsxb -o bs/out \
  >bs.stdout 2>bs.stderr; echo $? >bs.status)
(cd "$win" && $WINE "$WIN64_EXE" obj-export 'sample\CHARLIE.rsxb' \
  -o 'bs\out' >bs.stdout 2>bs.stderr; echo $? >bs.status)
same bs bs
(cd "$lin" && "$RSXMESH" gltf-export "$lin/sample/CHARLIE.rsxb" -o drive \
  --copy-textures >drive.stdout 2>drive.stderr; echo $? >drive.status)
(cd "$win" && $WINE "$WIN64_EXE" gltf-export \
  "Z:$(echo "$win" | tr / '\\')\\sample\\CHARLIE.rsxb" -o drive \
  --copy-textures >drive.stdout 2>drive.stderr; echo $? >drive.status)
same drive drive
both again obj-export sample -o obj -j 1
same again obj

n=$((n + 1))
if cmp -s "$lin/imported.rsxb" "$lin/sample/CHARLIE.rsxb"; then
  echo "ok $n - import: an unedited export gives back the bundle"
else
  echo "not ok $n - import: an unedited export gives back the bundle"
  failed=$((failed + 1))
fi
# scan (text, JSON, --extract with its manifest) and pack of that manifest
both scan scan sample/CHARLIE.rsxb --extract -o scanned \
  --manifest scanned.lua
same scan scanned scanned.lua
both scan-json scan sample/CHARLIE.rsxb sample/DELTA.rsxb --json
same scan-json
both pack pack scanned.lua -o packed.rsxb
same pack packed.rsxb
# A disc image past 2 GiB (sparse: a hole, then a bundle at 2 GiB + 1
# MiB): on Windows too its size and offsets are 64-bit (stat, fstat and
# pread: src/win32.h), and scan finds the same there
for side in "$lin" "$win"; do
  truncate -s 2148532224 "$side/big.bin"
  cat "$side/sample/CHARLIE.rsxb" >>"$side/big.bin"
done
both big scan big.bin
same big
rm -f "$lin/big.bin" "$win/big.bin"

# Bad input: the same messages, with the paths as given (the run's time
# taken out of the summary line)
for side in "$lin" "$win"; do
  head -c 3000 "$side/sample/BRAVO.rsxb" >"$side/sample/cut short.rsxb"
  printf 'not a bundle' >"$side/sample/junk.rsxb"
done
both bad obj-export "sample/cut short.rsxb" sample/junk.rsxb sample/none.rsxb \
  sample/ALFA.rsxb -o bad
for side in "$lin" "$win"; do
  sed 's/ in [0-9.]* s/ in T s/' "$side/bad.stderr" >"$side/bad.messages"
done
failures_wanted=yes same bad bad bad.messages
n=$((n + 1))
if grep -q "cut short.rsxb" "$lin/bad.messages" &&
   [ "$(cat "$lin/bad.status")" != 0 ]; then
  echo "ok $n - bad: the failures named, the run goes on, exit status not 0"
else
  echo "not ok $n - bad: the failures named, the run goes on"
  failed=$((failed + 1))
fi

# A stock Lua 5.4 for Windows (Lua's own lua.c, built by win64/deps.sh)
# loads the zip's module DLL (unzipped in a folder whose name is not ASCII,
# given in LUA_CPATH), with its lua54.dll (the build the zip has)
if [ -n "${WIN64_LUA:-}" ]; then
  n=$((n + 1))
  want=$(cd "$lin" && "$RSXMESH" -e 'print(rsxmesh.open("sample/CHARLIE.rsxb"))')
  got=$(cd "$win" && LUA_CPATH="$(dirname "$WIN64_EXE")/?.dll" $WINE \
    "$WIN64_LUA" -e 'print(require("rsxmesh").open("sample/CHARLIE.rsxb"))' \
    | tr -d '\r')
  if [ "$got" = "$want" ]; then
    echo "ok $n - a stock lua.exe requires rsxmesh.dll: $got"
  else
    echo "not ok $n - a stock lua.exe requires rsxmesh.dll"
    echo "#   got: $got"; echo "#   want: $want"
    failed=$((failed + 1))
  fi
fi
echo "1..$n"
[ "$failed" = 0 ]
