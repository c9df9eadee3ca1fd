#!/bin/sh
# t/luacheck.sh - luacheck (Debian's lua-check) finds nothing in lua/ and
# scripts/, with the project's .luacheckrc: no global set by mistake, no
# unused variable, no shadowed local, lines within 79 columns. Skipped,
# saying so, where luacheck is not installed (the README's setup command
# installs it).
. "$top_srcdir/t/host-lib.sh"

if ! command -v luacheck >/dev/null 2>&1; then
  echo "1..0 # SKIP luacheck is not installed (Debian: apt-get install lua-check)"
  exit 0
fi
out=$(cd "$top_srcdir" && luacheck --no-color --config .luacheckrc -q \
  lua scripts 2>&1)
status=$?
is "$status" 0 "luacheck over lua/ and scripts/: no warning"
[ "$status" = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
done_testing
