#!/bin/sh
# t/host-repl.sh - -i fed by a pipe: expressions print, multi-line chunks,
# errors at the prompt, the global rsxmesh, -i after a script and -e; and
# on a terminal, readline's editing and history.
. "$top_srcdir/t/host-lib.sh"

tab=$(printf '\t')
run -v
version=$out
# Built with readline, the REPL reads through it even from a pipe, as lua
# does: readline then writes each line read after its prompt.
readline=no
ldd "$RSXMESH" 2>/dev/null | grep -q libreadline && readline=yes

feed "$(printf '%s\n' '1 + 1' 'x = 6' 'x * 7' 'function f(a)' \
  '  return a * 2' 'end' 'f(21)' 'rsxmesh == require "rsxmesh"' \
  'error("oops")' "'a', nil, 3" 'x = = 1')" -i
is "$status" 0 "-i: exit status 0 at the end of input"
# A prompt per line read: "> " first, ">> " for a continuation line; the
# final newline comes at the end of input.
if [ $readline = yes ]; then
  want="$version
> 1 + 1
2
> x = 6
> x * 7
42
> function f(a)
>>   return a * 2
>> end
> f(21)
42
> rsxmesh == require \"rsxmesh\"
true
> error(\"oops\")
> 'a', nil, 3
a${tab}nil${tab}3
> x = = 1
> "
else
  want="$version
> 2
> > 42
> >> >> > 42
> true
> > a${tab}nil${tab}3
> > "
fi
is "$out" "$want" \
  "expressions print, statements do not, a function over three lines"
is "$(line 1 "$err")" "stdin:1: oops" \
  "an error at the prompt: the message without the program name"
like "$err" "*
stdin:1: unexpected symbol near '='" "a syntax error at the prompt"

feed '(' -i
is "$err" "stdin:1: unexpected symbol near <eof>" \
  "an unfinished chunk at the end of input is reported"

printf 'y = 5\n' >"$tmp/set.lua"
feed 'y + z' -e 'z = 1' -i "$tmp/set.lua"
is "$(printf '%s\n' "$out" | sed 's/^> //' | grep -cx 6)" 1 \
  "-i after -e and a script sees their globals"

feed '_PROMPT = "rsx" .. "> "
1' -i
like "$out" "*rsx> *" "_PROMPT sets the prompt"

# On a terminal (script(1) makes one), readline edits lines and keeps
# history: up-arrow (ESC [ A) recalls "20 + 1", Ctrl-A goes to the start
# of the line and "2 * " is typed there: 2 * 20 + 1 = 41. Without readline
# that line would be a syntax error.
if ! command -v script >/dev/null; then
  tap_result 1 "# SKIP no script(1) (Debian: bsdutils)"
elif ! ldd "$RSXMESH" 2>/dev/null | grep -q libreadline; then
  tap_result 1 "# SKIP the host is built --without-readline"
else
  { printf '20 + 1\n'; sleep 0.5; printf '\033[A\0012 * \n'; sleep 0.5
    printf '\004'; } | TERM=dumb timeout 60 script -qfec \
    "${TEST_WRAPPER:-} '$RSXMESH' -i" /dev/null >"$tmp/tty" 2>&1
  tty=$(tr -d '\r' <"$tmp/tty")
  like "$tty" "*
21
*
41
*" "-i on a terminal: readline's history and line editing (2 * 20 + 1)"
  # no arguments on a terminal: the version, a hint, and the prompt
  # (the terminal echoes what is typed at once: under load the echo can
  # come before the hint, so the pattern lets text lie between them)
  { sleep 0.5; printf 'print(6 * 7)\n'; sleep 0.5; printf '\004'; } |
    TERM=dumb timeout 60 script -qfec "${TEST_WRAPPER:-} '$RSXMESH'" /dev/null \
    >"$tmp/tty" 2>&1
  tty=$(tr -d '\r' <"$tmp/tty")
  like "$tty" "*$version
*'rsxmesh --help' for the options, 'rsxmesh --list' for the standard scripts.
*42
*" "no arguments on a terminal: the version, a hint, then the prompt"
fi

done_testing
