#!/bin/sh
# t/scan-interrupt.sh - Control-C during the scan of a large file: the
# scanner (src/scan-pass.c) asks between chunks whether the host has seen
# SIGINT, so the run stops within a chunk's time, not the file's, with
# exit status 130 and nothing written (--manifest). Sparse files of
# 16 GiB, whose whole scan takes some 30 s here (4 GiB: 7.5 s); a run that
# lasts 6 s after its SIGINT is killed and fails. SIGINT comes once the
# file is open, so under valgrind (make check-valgrind) too. With -j 2, SIGINT goes
# to the process group as a terminal's Control-C: the workers, each in a
# file of its own, stop as the first process does.
. "$top_srcdir/t/host-lib.sh"

big=16G
truncate -s "$big" "$tmp/a.bin" "$tmp/b.bin" 2>/dev/null ||
  { echo "1..0 # SKIP no sparse file of $big here"; exit 0; }
mkdir "$tmp/out"

# scanning FILE...: wait until some process has each FILE open (Linux's
# /proc; elsewhere 1 s): the scan has begun, its host long past setting
# its SIGINT handler (a SIGINT before that would be lost, as a background
# command's is ignored until then; under valgrind, startup takes seconds)
scanning() {
  if [ ! -d /proc/self/fd ]; then sleep 1; return; fi
  n=0
  for f in "$@"; do
    while [ "$n" -lt 600 ] &&
      ! find /proc/[0-9]*/fd -lname "$f" 2>/dev/null | grep -q .; do
      sleep 0.1
      n=$((n + 1))
    done
  done
}

# interrupted NAME PGROUP FILES ARGS...: scan ARGS in the background,
# SIGINT once each of FILES is being scanned (to its process group when
# PGROUP is 1, started by setsid), then the checks: exit 130 within the
# bound, stderr, nothing written.
interrupted() {
  name=$1 pgroup=$2 files=$3
  shift 3
  if [ "$pgroup" = 1 ]; then
    setsid ${TEST_WRAPPER:-} "$RSXMESH" scan "$@" --manifest "$tmp/out/m.lua" \
      >/dev/null 2>"$tmp/err" &
  else
    ${TEST_WRAPPER:-} "$RSXMESH" scan "$@" --manifest "$tmp/out/m.lua" \
      >/dev/null 2>"$tmp/err" &
  fi
  pid=$!
  # shellcheck disable=SC2086 # $files: paths without blanks ($tmp's)
  scanning $files
  if [ "$pgroup" = 1 ]; then kill -INT "-$pid"; else kill -INT "$pid"; fi
  # the bound: a run still going 6 s after its SIGINT is killed (137)
  ( sleep 6 && kill -KILL "$pid" ) >/dev/null 2>&1 &
  watchdog=$!
  wait "$pid"
  status=$?
  kill "$watchdog" 2>/dev/null
  is "$status" 130 "$name: SIGINT ends the scan within 6 s, exit 130"
  is "$(ls -A "$tmp/out")" "" "$name: no manifest, no temporary left"
}

interrupted "-j 1" 0 "$tmp/a.bin" -j 1 "$tmp/a.bin"
like "$(cat "$tmp/err")" "scan: $tmp/a.bin: interrupted" \
  "-j 1: the file in progress is named, interrupted"

if command -v setsid >/dev/null 2>&1; then
  interrupted "-j 2" 1 "$tmp/a.bin $tmp/b.bin" -j 2 "$tmp/a.bin" "$tmp/b.bin"
  is "$(cat "$tmp/err")" "scan: interrupted" \
    "-j 2: 'scan: interrupted', and no traceback"
fi

done_testing
