# api-stock.sh - the module under a stock lua5.4 ($LUA_INTERP), loaded from
# the build tree's rsxmesh.so through LUA_CPATH, not preloaded by the host:
# the API tests pass there too, and the module exports one symbol.
# TAP: one check per Lua test (its own TAP is checked whole here).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}" "${TEST_WRAPPER:=}"

if [ -z "${LUA_INTERP:-}" ] || ! command -v "$LUA_INTERP" >/dev/null; then
  echo "1..0 # SKIP no stock Lua 5.4 interpreter"
  exit 0
fi
tests="api-module api-bundle api-errors api-lifetime api-writer api-doc"
echo "1..9"
n=0
check() { # check NAME COMMAND...: ok when the command succeeds
  name=$1; shift
  n=$((n + 1))
  if "$@"; then echo "ok $n - $name"; else echo "not ok $n - $name"; fi
}

so="$top_builddir/.libs/rsxmesh.so"
check "rsxmesh.so is built" test -f "$so"
# A sanitizer build's module needs the sanitizer runtimes loaded before
# anything else, and the stock interpreter does not link them.
preload=$(ldd "$so" 2>/dev/null | awk '/lib(asan|ubsan)\.so/ { print $3 }' |
          tr '\n' ' ')
if [ -n "$preload" ]; then
  LD_PRELOAD="$preload${LD_PRELOAD:+ $LD_PRELOAD}"
  export LD_PRELOAD
fi
where=$($TEST_WRAPPER "$LUA_INTERP" -e '
  local r = require "rsxmesh"
  io.write(package.searchpath("rsxmesh", package.cpath) or "?", " ",
           r._VERSION)')
check "require finds the build tree's module: $where" \
  test "$where" = "$so rsxmesh 0.1.0"
syms=$(nm -D --defined-only "$so" 2>/dev/null | awk '$2 == "T" { print $3 }')
check "the module exports luaopen_rsxmesh alone: $syms" \
  test "$syms" = "luaopen_rsxmesh"

out=${TMPDIR:-/tmp}/api-stock.$$
for t in $tests; do
  $TEST_WRAPPER "$LUA_INTERP" "$top_srcdir/t/$t.lua" >"$out" 2>&1
  status=$?
  if [ $status -eq 0 ] && grep -q '^1\.\.[1-9]' "$out" &&
     ! grep -q '^not ok' "$out"; then
    checks=$(grep -c '^ok' "$out")
    echo "ok $((n = n + 1)) - $LUA_INTERP t/$t.lua ($checks checks)"
  else
    echo "not ok $((n = n + 1)) - $LUA_INTERP t/$t.lua (exit $status)"
    sed 's/^/# /' "$out"
  fi
done
rm -f "$out"
