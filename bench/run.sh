#!/bin/sh
# bench/run.sh - run the benchmarks named on the command line (make bench
# passes BENCHES): a .lua with the rsxmesh host, a .sh with the shell, in
# the test environment. Each prints one result line; a header names the
# machine, its load and the commit, since the figures mean little
# without them. Exit status 1 if any benchmark failed.
: "${RSXMESH:?run by make bench, which sets the test environment}"
BENCH_DIR=${BENCH_DIR:-.}
export BENCH_DIR
mkdir -p "$BENCH_DIR" || exit 1

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null |
  sed 1q)
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m), $(nproc) cores" \
  "(${cpu:-unknown cpu}), load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "# rsxmesh $(cd "${top_srcdir:-.}" &&
  git describe --always --dirty 2>/dev/null || echo '(no git)')," \
  "$("$RSXMESH" -v | sed 's/  Copyright.*//')"

failed=0
for bench in "$@"; do
  case $bench in
  *.lua) set -- "$RSXMESH" ;;
  *.sh) set -- "${SHELL:-/bin/sh}" ;;
  *) echo "$bench: not a .lua or .sh benchmark" >&2; failed=1; continue ;;
  esac
  src=$bench
  [ -f "$src" ] || src=${top_srcdir:-.}/$bench
  if ! "$@" "$src"; then
    echo "$bench: FAILED" >&2
    failed=1
  fi
done
exit $failed
