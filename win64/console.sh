#!/bin/sh
# win64/console.sh - TAP: on a console (a terminal under wine, made by
# script(1)) rsxmesh.exe's output that is not ASCII shows as written: the
# console's code page is UTF-8 while it runs, and what Lua and the host
# write reaches it in one piece (src/win32.c: rsx_win_start,
# rsx_win_fwrite), where byte by byte each byte of a letter would be
# U+FFFD. Run by make check-win64.
. "$top_srcdir/win64/lib.sh"
if ! command -v script >/dev/null; then
  echo "1..0 # SKIP no script(1) for a terminal (Debian: bsdutils)"
  exit 0
fi
# the terminal's text: wine's escape sequences taken out, its moves one
# column forward made spaces
WINE="$WINE" EXE="$WIN64_EXE" timeout 120 script -qec \
  '$WINE "$EXE" -e "io.write(\"caf\\u{e9} \\u{3bb}\\n\") print(\"p\\u{e9}\")
    error(\"m\\u{e9}\", 0)"' /dev/null 2>&1 |
  sed 's/\x1b\[1C/ /g; s/\x1b\[[0-9;?]*[A-Za-z]//g' | tr -d '\r' \
  >"$tmp/console"
n=0 failed=0
has() { # has TEXT NAME: a line of the console holds TEXT
  n=$((n + 1))
  if grep -qF -- "$1" "$tmp/console"; then echo "ok $n - $2"; else
    echo "not ok $n - $2"; sed 's/^/#   console: /' "$tmp/console"
    failed=$((failed + 1)); fi
}
has "café λ" "io.write: é and λ on the console"
has "pé" "print: é"
has "rsxmesh: mé" "the host's error message: é"
echo "1..$n"
[ "$failed" = 0 ]
