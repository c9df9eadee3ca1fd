#!/bin/sh
# t/export-interrupt.sh - an export interrupted by SIGINT (Control-C) stops
# the run, leaves every file it wrote whole (the same bytes as an
# uninterrupted run's) and no file half-written, temporaries included.
# obj-export and gltf-export (.gltf with its streamed .bin, and .glb) on
# the default synthetic sample, one process (-j 1), SIGINT sent as soon as
# the first output file is in place.
. "$top_srcdir/t/host-lib.sh"

"$RSXMESH" synth -q -o "$tmp/disc" >/dev/null 2>&1 ||
  { echo "1..0 # SKIP rsxmesh synth failed"; exit 0; }

# interrupted SCRIPT EXT ARGS...: the run in the background, SIGINT once a
# first *.EXT is in $tmp/cut; then $status, $err.
interrupted() {
  script=$1 ext=$2
  shift 2
  rm -rf "$tmp/cut"
  ${TEST_WRAPPER:-} "$RSXMESH" "$script" -j 1 "$tmp/disc" -o "$tmp/cut" \
    "$@" >/dev/null 2>"$tmp/cut.err" &
  pid=$!
  n=0
  while [ "$n" -lt 600 ] && ! ls "$tmp/cut/"*."$ext" >/dev/null 2>&1; do
    sleep 0.05
    n=$((n + 1))
  done
  kill -INT "$pid"
  wait "$pid"
  status=$?
  err=$(cat "$tmp/cut.err")
}

# check SCRIPT EXT ARGS...: the interrupted run against a whole one.
check() {
  script=$1 ext=$2
  shift 2
  rm -rf "$tmp/whole"
  "$RSXMESH" "$script" -j 1 "$tmp/disc" -o "$tmp/whole" "$@" \
    >/dev/null 2>&1
  interrupted "$script" "$ext" "$@"
  name="$script${*:+ $*}"
  is "$status" 130 "$name: SIGINT ends the run, exit status 130"
  like "$err" "*$script: $tmp/disc/*.rsxb: interrupted" \
    "$name: the input in progress is named, interrupted"
  written=$(ls "$tmp/cut" | grep -c "\.$ext\$")
  all=$(ls "$tmp/whole" | grep -c "\.$ext\$")
  is "$([ "$written" -ge 1 ] && [ "$written" -lt "$all" ] && echo yes)" yes \
    "$name: some files written, not all ($written of $all)"
  bad=
  for f in $(ls "$tmp/cut"); do
    [ -d "$tmp/cut/$f" ] && continue
    cmp -s "$tmp/cut/$f" "$tmp/whole/$f" || bad="$bad $f"
  done
  is "$bad" "" "$name: every file written is whole, as without SIGINT"
  is "$(find "$tmp/cut" -name '*.part*' | wc -l | tr -d ' ')" 0 \
    "$name: no temporary file left behind"
}

check obj-export obj
check gltf-export gltf
check gltf-export glb --glb

done_testing
