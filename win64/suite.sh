#!/bin/sh
# win64/suite.sh BUILDDIR - the suite's tests in the win64 build tree, under
# wine: each test's log made there with TEST_WRAPPER=wine, then the totals.
# The tests that cannot run on Windows are left out (NOT_RUN, with why).
# Exit 1 when any test that ran failed.
set -u
cd "$1/win64-build/build" || exit 99
export WINEDEBUG=${WINEDEBUG:--all}
# the tests run $top_builddir/rsxmesh, as on Linux: the program itself
# (not libtool's wrapper, which wants its own name), beside the DLLs it
# and the tests load
ln -sf .libs/rsxmesh.exe rsxmesh
for dll in lua54 lfs cjson; do
  cp "../deps/bin/$dll.dll" .libs/
  cp "../deps/bin/$dll.dll" .
done
# t/bundle.t: Windows has no mkfifo, with which it shows a FIFO refused
NOT_RUN="t/bundle.t"
logs=
for t in $WIN64_SUITE; do
  case " $NOT_RUN " in *" $t "*) continue ;; esac
  logs="$logs $(echo "$t" | sed -E 's/\.(t|lua|sh)$/.log/')"
done
rm -f $logs
make -k $logs TEST_WRAPPER=wine >/dev/null 2>&1
pass=0 fail=0
for l in $logs; do
  p=$(grep -c '^PASS' "$l" 2>/dev/null)
  f=$(grep -c '^\(FAIL\|ERROR\)' "$l" 2>/dev/null)
  pass=$((pass + ${p:-0}))
  fail=$((fail + ${f:-0}))
  [ "${f:-0}" = 0 ] && [ "${p:-0}" != 0 ] || echo "win64: $l: ${p:-0} passed, ${f:-1} failed"
done
echo "win64: the suite under wine: $pass passed, $fail failed ($(echo $logs | wc -w) tests)"
[ "$fail" = 0 ]
