#!/bin/sh
# t/host-errors.sh - how a run ends: script errors with a traceback, syntax
# errors, missing files, os.exit, a script on stdin, and SIGINT.
. "$top_srcdir/t/host-lib.sh"

tab=$(printf '\t')

# --- a runtime error: the message, a traceback, exit status 1
cat >"$tmp/boom.lua" <<'LUA'
local function inner() error("boom") end
io.write("before ")
inner()
print("not reached")
LUA
run "$tmp/boom.lua"
is "$status" 1 "a script error: exit status 1"
is "$out" "before " "... after what ran before it"
is "$(line 1 "$err")" "$progname: $tmp/boom.lua:1: boom" \
  "... 'rsxmesh: ' and the message on stderr"
is "$(line 2 "$err")" "stack traceback:" "... then a traceback"
like "$err" "*
${tab}$tmp/boom.lua:3: in main chunk*" \
  "... which reaches the main chunk at line 3"

cat >"$tmp/obj.lua" <<'LUA'
error(setmetatable({}, { __tostring = function() return "obj" end }))
LUA
run "$tmp/obj.lua"
is "$err" "$progname: obj" "an error object with __tostring prints itself"
run -e 'error({})'
is "$(line 1 "$err")" "$progname: (error object is a table value)" \
  "an error object without __tostring is named by its type"
is "$status" 1 "... exit status 1"

run -e 'error("bad")' -e 'print("not reached")' "$tmp/boom.lua"
is "$(line 1 "$err")" "$progname: (command line):1: bad" \
  "an -e error is named (command line)"
is "$out" "" "... and stops the run"

# --- a syntax error: nothing runs
printf 'print("not reached")\nx = = 1\n' >"$tmp/syntax.lua"
run "$tmp/syntax.lua"
is "$status" 1 "a syntax error: exit status 1"
is "$err" "$progname: $tmp/syntax.lua:2: unexpected symbol near '='" \
  "... its message, without a traceback"
is "$out" "" "... and nothing of the script runs"

run "$tmp/missing.lua"
is "$status" 1 "a missing script: exit status 1"
like "$err" "$progname: cannot open $tmp/missing.lua*" \
  "... named on stderr"

# --- os.exit
run -e 'io.write("flushed") os.exit(3)'
is "$status" 3 "os.exit(3): exit status 3"
is "$out" "flushed" "... after stdout is flushed"
run -e 'os.exit(false)'
is "$status" 1 "os.exit(false): exit status 1"
run -e 'os.exit(true, true)'
is "$status" 0 "os.exit(true, true): exit status 0"

# --- a script on stdin
feed 'print("stdin", arg[0], ...)' - a b
is "$out" "stdin${tab}-${tab}a${tab}b" "- runs stdin with the arguments"
is "$status" 0 "... exit status 0"
feed 'print(type(lfs))' -l lfs
is "$out" "table" "options without a script, stdin not a terminal: runs stdin"
feed 'error("piped")' -
is "$(line 1 "$err")" "$progname: stdin:1: piped" \
  "an error on stdin is named stdin"
is "$status" 1 "... exit status 1"

feed 'error("piped")'
is "$status" 1 "no arguments, an error on stdin: exit status 1 (lua 5.4.4 \
exits 0 there; rsxmesh(1) lists the difference)"

# --- a data file where the script goes: what it is, not Lua's "unexpected
# symbol" nor "no standard script"
run -e 'print(1)' "$tmp/missing.rsxb"
is "$status $err" "1 $progname: cannot open $tmp/missing.rsxb: No such file \
or directory" "-e CODE missing.rsxb: lua's message, the file named"
(cd "$tmp" && run -e 'print(1)' missing.rsxb && echo "$err") >"$tmp/rel"
is "$(cat "$tmp/rel")" "$progname: cannot open missing.rsxb: No such file \
or directory" "... also without a folder: a name with a dot is a file"
printf '\211PNG\r\n\032\n\000\000\000\rIHDR' >"$tmp/pic.rsxb"
run "$tmp/pic.rsxb"
is "$status $err" "1 $progname: $tmp/pic.rsxb is not a Lua script: it looks \
like a PNG image" "a PNG renamed .rsxb first: not taken for Lua"
printf 'glTF\002\000\000\000' >"$tmp/model.glb"
run "$tmp/model.glb"
is "$err" "$progname: $tmp/model.glb is not a Lua script: it looks like a \
binary glTF file" "a .glb first: named as such"
printf 'x\000\001\002' >"$tmp/junk.bin"
run "$tmp/junk.bin"
is "$err" "$progname: $tmp/junk.bin is not a Lua script: it looks like \
binary data" "other binary data: named as such"
printf 'print(1\n' >"$tmp/text.lua"
run "$tmp/text.lua"
like "$err" "$progname: $tmp/text.lua:2: ')' expected*" \
  "a text script with a syntax error keeps Lua's message"

# --- SIGINT raises "interrupted!" inside the script
${TEST_WRAPPER:-} "$RSXMESH" -e "io.open('$tmp/started', 'w'):close()
  while true do end" >"$tmp/stdout" 2>"$tmp/stderr" &
pid=$!
tries=0
while [ ! -e "$tmp/started" ] && [ "$tries" -lt 600 ]; do
  sleep 0.1
  tries=$((tries + 1))
done
kill -INT "$pid"
wait "$pid"
status=$?
is "$status" 1 "SIGINT: exit status 1"
is "$(sed -n 1p "$tmp/stderr")" "$progname: interrupted!" \
  "... the script stops with 'interrupted!'"

done_testing
