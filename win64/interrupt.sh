#!/bin/sh
# win64/interrupt.sh - TAP: Control-C stops rsxmesh.exe (under wine)
# cleanly: exit status 130, the input in progress named, every file
# written whole (the same bytes as a whole run's) and no temporary file
# left. wine turns the SIGINT sent to the program into the console's
# CTRL_C_EVENT, which reaches the handler src/win32.c sets with
# SetConsoleCtrlHandler. Run by make check-win64 (WIN64_STAGE: the zip's
# folder).
. "$top_srcdir/win64/lib.sh"
n=0 failed=0
is() { # is GOT WANT NAME
  n=$((n + 1))
  if [ "$1" = "$2" ]; then echo "ok $n - $3"; else
    echo "not ok $n - $3"; echo "#   got: $1"; echo "#   want: $2"
    failed=$((failed + 1)); fi
}

cd "$tmp" || exit 99
# a disc large enough that -j 2 is still at work when the Control-C comes,
# also on a loaded machine (at 0.3 it once wrote all 15 bundles first)
$WINE "$WIN64_EXE" synth -q --scale 0.6 -o disc >/dev/null 2>&1 ||
  { echo "1..0 # SKIP rsxmesh.exe synth failed"; exit 0; }
$WINE "$WIN64_EXE" obj-export disc -o whole >/dev/null 2>&1

# Interrupted once the first file is written
# cut J: obj-export -j J interrupted once its first file is in place
cut() {
  j=$1
  rm -rf "cut$j"
  $WINE "$WIN64_EXE" obj-export disc -o "cut$j" -j "$j" >/dev/null \
    2>"cut$j.err" &
  pid=$!
  i=0
  # (the shell's own glob: no process started between two looks)
  while [ "$i" -lt 3000 ] && { set -- "cut$j"/*.obj; [ ! -e "$1" ]; }; do
    sleep 0.01
    i=$((i + 1))
  done
  set -- "cut$j"/*.obj
  at_kill=$#
  kill -INT "$pid"
  wait "$pid"
  is "$?" 130 "Control-C, -j $j: exit status 130"
  # one process names its input; with workers (the pool in C) the first
  # process says the run was interrupted
  if [ "$j" = 1 ]; then want="*obj-export: disc/*.rsxb: interrupted*"
  else want="obj-export: interrupted"; fi
  case $(cat "cut$j.err") in
    $want) named=yes ;;
    *) named=no; sed 's/^/#   stderr: /' "cut$j.err" ;;
  esac
  is "$named" yes "Control-C, -j $j: $want"
  written=$(ls "cut$j" | grep -c '\.obj$')
  all=$(ls whole | grep -c '\.obj$')
  is "$([ "$written" -ge 1 ] && [ "$written" -lt "$all" ] && echo yes)" yes \
    "Control-C, -j $j: some files written, not all ($written of $all)"
  # each worker ends the job it is on, and no new one starts: a few more
  # files than at the Control-C (3 a worker, for the signal's way on a
  # loaded machine), not the run going on (before the pool's fix for a
  # Control-C that came while it read its pipes, 2 then 10 of 15)
  is "$([ "$written" -le $((at_kill + 3 * j)) ] && echo yes)" yes \
    "Control-C, -j $j: no new job after it ($at_kill, then $written files)"
  bad=
  for f in $(ls "cut$j"); do
    cmp -s "cut$j/$f" "whole/$f" || bad="$bad $f"
  done
  is "$bad" "" "Control-C, -j $j: every file written is whole"
  is "$(find "cut$j" -name '*.tmp-*' -o -name '*.part*' | wc -l |
        tr -d ' ')" 0 "Control-C, -j $j: no temporary file left behind"
}
cut 1
cut 2
echo "1..$n"
[ "$failed" = 0 ]
