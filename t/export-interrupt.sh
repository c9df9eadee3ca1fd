#!/bin/sh
# t/export-interrupt.sh - an export interrupted by SIGINT (Control-C) stops
# the run, leaves every file it wrote whole (the same bytes as an
# uninterrupted run's) and no file half-written, temporaries included.
# obj-export and gltf-export (.gltf with its streamed .bin, and .glb) on
# a synthetic sample of 0.3 of the disc (some 60 ms a bundle), one
# process (-j 1), SIGINT sent as soon as the first output file is in
# place. Then -j 2, SIGINT sent to the process group as a terminal's
# Control-C: the same, no traceback, and nothing in $TMPDIR.
. "$top_srcdir/t/host-lib.sh"

"$RSXMESH" synth -q --scale 0.3 -o "$tmp/disc" >/dev/null 2>&1 ||
  { echo "1..0 # SKIP rsxmesh synth failed"; exit 0; }

# -j 2 runs its host through a wrapper that starts each worker 0.2 s late
# (the workers run the host the first process was run as, its arg[-1]):
# the first process is waiting for its workers when SIGINT comes, and not
# every bundle has started. setsid gives the run its own process group.
jobs=
if command -v bash >/dev/null 2>&1 && command -v setsid >/dev/null 2>&1
then
  jobs=2
  cat >"$tmp/host" <<EOF
#!$(command -v bash)
case " \$* " in *" --worker "*) sleep 0.2 ;; esac
exec -a "\$0" "$RSXMESH" "\$@"
EOF
  chmod +x "$tmp/host"
  mkdir "$tmp/tmpdir"
fi

# interrupted J SCRIPT EXT ARGS...: the run with -j J in the background,
# SIGINT once a first *.EXT is in $tmp/cut (-j 1: to the process, -j 2:
# to its process group, $TMPDIR an empty folder); then $status, $err and
# $used, the number of files in $TMPDIR then.
interrupted() {
  j=$1 script=$2 ext=$3
  shift 3
  rm -rf "$tmp/cut"
  if [ "$j" = 1 ]; then
    ${TEST_WRAPPER:-} "$RSXMESH" "$script" -j 1 "$tmp/disc" -o "$tmp/cut" \
      "$@" >/dev/null 2>"$tmp/cut.err" &
  else
    TMPDIR="$tmp/tmpdir" setsid "$tmp/host" "$script" -j "$j" \
      "$tmp/disc" -o "$tmp/cut" "$@" >/dev/null 2>"$tmp/cut.err" &
  fi
  pid=$!
  n=0
  while [ "$n" -lt 3000 ] && ! ls "$tmp/cut/"*."$ext" >/dev/null 2>&1; do
    sleep 0.01
    n=$((n + 1))
  done
  used=$(ls "$tmp/tmpdir" 2>/dev/null | wc -l | tr -d ' ')
  if [ "$j" = 1 ]; then kill -INT "$pid"; else kill -INT "-$pid"; fi
  wait "$pid"
  status=$?
  err=$(cat "$tmp/cut.err")
}

# check J SCRIPT EXT ARGS...: the interrupted run against a whole one.
check() {
  j=$1 script=$2 ext=$3
  shift 3
  rm -rf "$tmp/whole"
  "$RSXMESH" "$script" -j 1 "$tmp/disc" -o "$tmp/whole" "$@" \
    >/dev/null 2>&1
  interrupted "$j" "$script" "$ext" "$@"
  name="$script -j $j${*:+ $*}"
  is "$status" 130 "$name: SIGINT ends the run, exit status 130"
  if [ "$j" = 1 ]; then
    like "$err" "*$script: $tmp/disc/*.rsxb: interrupted" \
      "$name: the input in progress is named, interrupted"
  else
    is "$err" "$script: interrupted" \
      "$name: '$script: interrupted', and no traceback"
    is "$used $(ls -A "$tmp/tmpdir")" "0 " \
      "$name: nothing in \$TMPDIR, during the run or after (pipes only)"
  fi
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

for j in 1 $jobs; do
  check "$j" obj-export obj
  check "$j" gltf-export gltf
  check "$j" gltf-export glb --glb
done

done_testing
