# t/tap.sh - TAP for the shell tests: `. "$top_srcdir/t/tap.sh"`, then
# `ok STATUS NAME` per check (STATUS 0 passes), `skip_all WHY` to skip the
# whole file, and `done_testing` last (the plan; exit status 1 on a
# failure).
tap_n=0
tap_fails=0

ok() {
  tap_n=$((tap_n + 1))
  if test "$1" = 0; then
    echo "ok $tap_n - $2"
  else
    echo "not ok $tap_n - $2"
    tap_fails=$((tap_fails + 1))
  fi
}

skip_all() {
  echo "1..0 # SKIP $1"
  exit 0
}

done_testing() {
  echo "1..$tap_n"
  test $tap_fails = 0
}
