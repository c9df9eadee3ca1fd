#!/bin/sh
# t/host-repl.sh - -i fed by a pipe: expressions print, multi-line chunks,
# errors at the prompt, the global rsxmesh, -i after a script and -e.
. "$top_srcdir/t/host-lib.sh"

tab=$(printf '\t')
run -v
version=$out

feed "$(printf '%s\n' '1 + 1' 'x = 6' 'x * 7' 'function f(a)' \
  '  return a * 2' 'end' 'f(21)' 'rsxmesh == require "rsxmesh"' \
  'error("oops")' "'a', nil, 3" 'x = = 1')" -i
is "$status" 0 "-i: exit status 0 at the end of input"
# A prompt per line read: "> " first, ">> " for a continuation line; the
# final newline comes at the end of input.
is "$out" "$version
> 2
> > 42
> >> >> > 42
> true
> > a${tab}nil${tab}3
> > " "expressions print, statements do not, a function over three lines"
is "$(line 1 "$err")" "stdin:1: oops" \
  "an error at the prompt: the message without the program name"
like "$err" "*
stdin:1: unexpected symbol near '='" "a syntax error at the prompt"

feed '(' -i
is "$err" "stdin:1: unexpected symbol near <eof>" \
  "an unfinished chunk at the end of input is reported"

printf 'y = 5\n' >"$tmp/set.lua"
feed 'y + z' -e 'z = 1' -i "$tmp/set.lua"
is "$(line 2 "$out")" "> 6" "-i after -e and a script sees their globals"

feed '_PROMPT = "rsx> "
1' -i
is "$(line 2 "$out")" "> rsx> 1" "_PROMPT sets the prompt"

done_testing
