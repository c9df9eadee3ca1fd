# t/host-lib.sh - TAP helpers for the host tests (t/host-*.sh), sourced.
# The host is $RSXMESH, run under $TEST_WRAPPER when set (valgrind in
# make check-valgrind), so a memory error shows as a wrong exit status.

: "${RSXMESH:?run under make check, which sets RSXMESH}"
# The program's name in its messages: $RSXMESH, argv[0] as lua.c takes it;
# on Windows (the win64 build under wine) the file's name alone, without
# ".exe", as the host takes it there (src/win32.c: rsx_win_progname). And
# argv[0] as the program sees it: as given, or under wine the Windows path
# wine makes of it (Z: is /).
case ${TEST_WRAPPER:-} in
*wine*)
  progname=$(basename "$RSXMESH" .exe)
  argv0=Z:$(printf '%s\n' "$RSXMESH" | tr / '\\')
  ;;
*) progname=$RSXMESH argv0=$RSXMESH ;;
esac
tap_count=0
tap_failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rsxmesh-host.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

# run ARGS...: run the host, stdin empty; $status is its exit status,
# $out and $err what it wrote (less trailing newlines).
run() {
  run_input /dev/null "$@"
}

# feed TEXT ARGS...: run the host with TEXT and a newline on stdin. (Not
# a pipe into run: the end of a pipeline may run in a subshell.)
feed() {
  printf '%s\n' "$1" >"$tmp/stdin"
  shift
  run_input "$tmp/stdin" "$@"
}

run_input() {
  input=$1
  shift
  ${TEST_WRAPPER:-} "$RSXMESH" "$@" <"$input" >"$tmp/stdout" \
    2>"$tmp/stderr"
  status=$?
  out=$(cat "$tmp/stdout")
  err=$(cat "$tmp/stderr")
}

tap_result() { # tap_result PASSED NAME
  tap_count=$((tap_count + 1))
  if [ "$1" = 1 ]; then
    echo "ok $tap_count - $2"
  else
    echo "not ok $tap_count - $2"
    tap_failed=$((tap_failed + 1))
  fi
}

tap_diag() { # tap_diag LABEL TEXT: TEXT as TAP comments
  printf '%s\n' "$2" | sed "s/^/#   $1: /"
}

is() { # is GOT WANT NAME
  if [ "$1" = "$2" ]; then
    tap_result 1 "$3"
  else
    tap_result 0 "$3"
    tap_diag got "$1"
    tap_diag want "$2"
  fi
}

like() { # like GOT GLOB NAME: GOT matches the shell pattern GLOB
  case $1 in
  $2) tap_result 1 "$3" ;;
  *)
    tap_result 0 "$3"
    tap_diag got "$1"
    tap_diag pattern "$2"
    ;;
  esac
}

# line N TEXT: line N of TEXT
line() { printf '%s\n' "$2" | sed -n "$1p"; }

done_testing() {
  echo "1..$tap_count"
  [ "$tap_failed" = 0 ]
}
