#!/bin/sh
# t/export-interrupt.sh - an export interrupted by SIGINT (Control-C) stops
# the run, leaves every file it wrote whole (the same bytes as an
# uninterrupted run's) and no file half-written, temporaries included.
# obj-export and gltf-export (.gltf with its streamed .bin, and .glb) on
# a synthetic sample of a tenth of the disc (some 20 ms a bundle), one
# process (-j 1), SIGINT sent as soon as the first output file is in
# place. Then -j 2, SIGINT sent to the process group as a terminal's
# Control-C: the same, no traceback, and nothing left in $TMPDIR.
. "$top_srcdir/t/host-lib.sh"

"$RSXMESH" synth -q --scale 0.1 -o "$tmp/disc" >/dev/null 2>&1 ||
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
  while [ "$n" -lt 3000 ] && ! ls "$tmp/cut/"*."$ext" >/dev/null 2>&1; do
    sleep 0.01
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

# -j 2. The host is run by a wrapper that starts each worker 0.2 s late
# (the workers run the host the first process was run as, its arg[-1]):
# the first process is waiting for its workers when SIGINT comes, and not
# every bundle has started. setsid gives the run its own process group.
command -v bash >/dev/null 2>&1 && command -v setsid >/dev/null 2>&1 || {
  done_testing
  exit
}
cat >"$tmp/host" <<EOF
#!$(command -v bash)
case " \$* " in *" --worker "*) sleep 0.2 ;; esac
exec -a "\$0" "$RSXMESH" "\$@"
EOF
chmod +x "$tmp/host"
mkdir "$tmp/tmpdir"

# check_jobs SCRIPT EXT ARGS...: an interrupted -j 2 run against a whole
# one.
check_jobs() {
  script=$1 ext=$2
  shift 2
  rm -rf "$tmp/whole" "$tmp/cut"
  "$RSXMESH" "$script" -j 1 "$tmp/disc" -o "$tmp/whole" "$@" \
    >/dev/null 2>&1
  TMPDIR="$tmp/tmpdir" setsid "$tmp/host" "$script" -j 2 "$tmp/disc" \
    -o "$tmp/cut" "$@" >/dev/null 2>"$tmp/cut.err" &
  pid=$!
  n=0
  while [ "$n" -lt 3000 ] && ! ls "$tmp/cut/"*."$ext" >/dev/null 2>&1; do
    sleep 0.01
    n=$((n + 1))
  done
  used=$(ls "$tmp/tmpdir" | wc -l | tr -d ' ')
  kill -INT -- "-$pid"
  wait "$pid"
  status=$?
  err=$(cat "$tmp/cut.err")
  name="$script -j 2${*:+ $*}"
  is "$status" 130 "$name: SIGINT ends the run, exit status 130"
  is "$err" "$script: interrupted" \
    "$name: '$script: interrupted', and no traceback"
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
  is "$used $(ls -A "$tmp/tmpdir")" "1 " \
    "$name: the workers' files were in \$TMPDIR, and are gone"
}

check_jobs obj-export obj
check_jobs gltf-export gltf
check_jobs gltf-export glb --glb

done_testing
