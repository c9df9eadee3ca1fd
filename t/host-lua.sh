#!/bin/sh
# t/host-lua.sh - the host behaves as lua 5.4 does (lua(1), section 7 of
# the reference manual, lua.c): stdin, LUA_INIT, -E, -W, the package
# paths, -l, arg, the prompt, error objects, exit statuses and bad options.
# Nothing here is particular to rsxmesh, so that the same checks pass
# against Debian's interpreter, which proves they assert lua's behaviour:
#   top_srcdir=. RSXMESH=/usr/bin/lua5.4 sh t/host-lua.sh
# (make check does so too: t/host-lua-stock.sh).
. "$top_srcdir/t/host-lib.sh"

tab=$(printf '\t')
prog=$progname
script=$tmp/script.lua
# prep TEXT: the script file holds TEXT (printf's format: \n, \t, \0NNN)
# shellcheck disable=SC2059 # the text is a format on purpose
prep() { printf "$1" >"$script"; }
# has_lines TEXT NAME LINE...: every LINE is a whole line of TEXT
has_lines() {
  text=$1 name=$2 passed=1
  shift 2
  for want; do
    printf '%s\n' "$text" | grep -Fqx -- "$want" || passed=0
  done
  tap_result $passed "$name"
  [ $passed = 1 ] || tap_diag got "$text"
}
# The Lua scripts run here see the environment this test sets alone
unset LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_PATH_5_4 LUA_CPATH LUA_CPATH_5_4

# --- stdin: run as a file with no arguments when it is not a terminal,
# with '-', and after '--' with nothing following
printf 'print(10)\nprint(2)\n' >"$tmp/stdin.lua"
run_input "$tmp/stdin.lua"
is "$status $out" "0 10
2" "no arguments, stdin not a terminal: stdin runs as a script"
printf 'print(...)\n' >"$tmp/stdin.lua"
run_input "$tmp/stdin.lua" - -h x
is "$out" "-h${tab}x" "'-' runs stdin; the arguments after it are its ..."
run_input "$tmp/stdin.lua" --
is "$status" 0 "'--' and nothing after it: stdin runs"
printf 'print(arg[0], #arg)\n' >"$tmp/stdin.lua"
run_input "$tmp/stdin.lua" -e 'x = 1' -
is "$out" "-${tab}0" "... arg[0] is '-'"
printf 'error("from stdin")\n' >"$tmp/stdin.lua"
run_input "$tmp/stdin.lua" -
is "$status" 1 "an error in the script '-': exit status 1"
like "$err" "$prog: stdin:1: from stdin*" \
  "... the message: program name, chunk 'stdin', line"

# --- a script file: a UTF-8 BOM and a first line starting with # are
# skipped, also before precompiled code
prep '\357\273\277# comment\nprint(3)'
run "$script"
is "$out" "3" "a BOM and a # first line are skipped"
if command -v luac5.4 >/dev/null; then
  printf 'print(4)\n' >"$tmp/src.lua"
  luac5.4 -o "$tmp/bin.luac" "$tmp/src.lua"
  { printf '#!/usr/bin/env lua\n'; cat "$tmp/bin.luac"; } >"$script"
  run "$script"
  is "$out" "4" "a # line before precompiled code is skipped"
else
  tap_result 1 "# SKIP no luac5.4 (Debian: lua5.4)"
fi

# --- LUA_INIT_5_4, else LUA_INIT: code or @file, run before the script,
# with arg already set; an error in it stops everything
prep 'print(X)'
LUA_INIT='X = tonumber(arg[1])' run "$script" 3.5
is "$out" "3.5" "LUA_INIT runs first and sees arg"
LUA_INIT_5_4='X = 10' LUA_INIT='X = 3' run "$script"
is "$out" "10" "LUA_INIT_5_4 wins over LUA_INIT"
printf 'X = "from a file"\n' >"$tmp/init.lua"
LUA_INIT="@$tmp/init.lua" run "$script"
is "$out" "from a file" "LUA_INIT=@FILE runs FILE"
LUA_INIT="error('msg')" run "$script"
is "$status" 1 "an error in LUA_INIT: exit status 1"
like "$err" "$prog: LUA_INIT:1: msg*" "... the message names LUA_INIT"
is "$out" "" "... and the script does not run"
LUA_INIT="@$tmp/absent.lua" run "$script"
like "$status $err" "1 $prog: cannot open $tmp/absent.lua*" \
  "LUA_INIT=@FILE of a missing file: exit status 1 and a message"
LUA_INIT_5_4="error('msg')" run -E "$script"
is "$status $out" "0 nil" "-E: LUA_INIT_5_4 is not run"

# --- package.path and package.cpath: LUA_PATH_5_4, else LUA_PATH, with
# ';;' standing for the default path; -E ignores them all
prep 'print(package.path)\nprint(package.cpath)'
LUA_PATH=x LUA_CPATH=xc run "$script"
is "$out" "x
xc" "LUA_PATH and LUA_CPATH are the paths"
LUA_PATH_5_4=y LUA_PATH=x LUA_CPATH_5_4=yc LUA_CPATH=xc run "$script"
is "$out" "y
yc" "LUA_PATH_5_4 and LUA_CPATH_5_4 win"
LUA_PATH=xxx LUA_CPATH=xxx LUA_INIT='error(10)' run -E "$script"
default_path=$(line 1 "$out")
default_cpath=$(line 2 "$out")
like "$status $default_path" "0 *lua*" "-E: the default path, no LUA_INIT"
like "$default_cpath" "*lua*" "... the default cpath"
(unset LUA_PATH; run "$script"; echo "$out") >"$tmp/unset"
is "$(cat "$tmp/unset")" "$default_path
$default_cpath" "... the same as with the variables unset"
# the default path as sed's replacement ('\' in Windows' paths escaped)
default_sed=$(printf '%s\n' "$default_path" | sed 's/[\\&|]/\\&/g')
for p in ';;' 'a;;b' ';;b' 'a;;' 'a;b;;c' ';'; do
  want=$(printf '%s\n' "$p" | sed "s|;;|;$default_sed;|; s|^;||; s|;\$||")
  [ "$p" = ';' ] && want=';'
  LUA_PATH=$p run "$script"
  is "$(line 1 "$out")" "$want" "LUA_PATH='$p': ';;' is the default path"
done

# --- -W turns warnings on; they are off without it
prep 'warn("@on") warn("A", "B")'
run "$script"
is "$err" "Lua warning: AB" "a script may turn warnings on itself"
prep 'warn("Z", "Z")\nio.stderr:write("end")'
run "$script"
is "$err" "end" "warnings are off by default"
run -W "$script"
is "$err" "Lua warning: ZZ
end" "-W turns them on"

# --- -l mod, -l g=mod, -e in command-line order, before the script
mkdir "$tmp/lib"
printf 'print("lib1") a = 2 return { x = 15 }\n' >"$tmp/lib/mod1.lua"
prep 'print(a, mod1.x, str.upper("ok"), m.max(1, 2))'
LUA_PATH="$tmp/lib/?.lua;;" run -l mod1 -lstr=string -e 'print("e")' \
  -l 'm=math' "$script"
is "$out" "lib1
e
2${tab}15${tab}OK${tab}2" \
  "-l mod, -lg=mod, -e, -l g=mod: in order, then the script"
run -l no_such_module_here -e 'print("after")'
is "$status" 1 "-l of a missing module: exit status 1"
like "$err" "$prog: module 'no_such_module_here' not found*" \
  "... and the message names it"
is "$out" "" "... and nothing after it runs"

# --- arg: the script at 0, what came before it below, its arguments
# above; the arguments are the script's ... too
prep 'print(arg[-3] == ..., arg[-2], arg[-1], arg[0] == ..., #arg, ...)'
run "-e " -- "$script" a "b c"
is "$out" "false${tab}-e ${tab}--${tab}false${tab}2${tab}a${tab}b c" \
  "arg: options below the script, arguments above; \"-e \" runs nothing"
# (not prep: a '\' of Windows' argv[0] is no printf escape)
printf '%s\n' 'print(arg[-3] == [=['"$argv0"']=], arg[0] == "'"$script"'")' \
  >"$script"
run "-e " -- "$script"
is "$out" "true${tab}true" "... arg[-3] the program, arg[0] the script"
printf 'print(...)\n' >"$tmp/stdin.lua"
run_input "$tmp/stdin.lua" -e 'arg[1] = 100' - x
is "$out" "100" "the script's ... come from the table arg"
run_input "$tmp/stdin.lua" -e 'arg = 1' -
like "$status $err" "1 $prog: *'arg' is not a table*" \
  "... which must be a table"
prep 'print(({...})[30])'
# shellcheck disable=SC2046 # thirty words
run "$script" $(printf 'a%s ' $(seq 1 30))
is "$out" "a30" "thirty arguments"

# --- exit statuses and error objects
prep 'os.exit(3)'
run "$script"
is "$status" 3 "os.exit(3): exit status 3"
prep 'os.exit(false, true)'
run "$script"
is "$status $err" "1 " "os.exit(false, true): exit status 1, no message"
prep 'os.exit(true, true)'
run "$script"
is "$status" 0 "os.exit(true, true): exit status 0"
prep 'error(setmetatable({}, { __tostring = function() return "mine" end }))'
run "$script"
is "$status $err" "1 $prog: mine" \
  "an error object's __tostring is the message, without a traceback"
prep 'error({})'
run "$script"
like "$err" "$prog: *(error object is a table value)*" \
  "an error object without __tostring: its type"
prep 'error("plain")'
run "$script"
like "$err" "$prog: $script:1: plain
stack traceback:
*" "a string error: the program's name, the message and a traceback"
run -e 'local x <close> = setmetatable({}, { __close = function()
  print("closed") end }) os.exit(0, true)'
is "$out" "closed" "os.exit(0, true) closes the state"

# --- -v prints the version first, then the other options run
run -v -e "print'hello'"
like "$out" "*Lua 5.4*PUC-Rio
hello" "-v: the version line, then -e"

# --- bad options: a message naming the option, the usage, exit status 1
for o in -h --- -Ex -vv -iv -Wx; do
  run "$o"
  like "$status $(line 1 "$err")" "1 $prog: unrecognized option '$o'" \
    "bad option $o"
done
like "$err" "*usage: $prog *" "... followed by the usage on stderr"
run -e
is "$status $(line 1 "$err")" "1 $prog: '-e' needs argument" "-e alone"
run -l
is "$status $(line 1 "$err")" "1 $prog: '-l' needs argument" "-l alone"
run -e -v
is "$status $(line 1 "$err")" "1 $prog: '-e' needs argument" \
  "-e followed by an option"
run -e a
like "$status $err" "1 $prog: *syntax error near <eof>*" \
  "-e with a syntax error"

# --- the prompt (-i, or no arguments on a terminal): an expression
# prints its values, '=expr' too; a chunk goes on over lines; _PROMPT and
# _PROMPT2 through tostring; errors without the program's name. Built
# with readline, lua writes back each line read from a pipe: the checks
# look for lines of output, not for the whole transcript.
quiet="_PROMPT='' _PROMPT2=''"
feed "$(printf '%s\n' '(6*2-6) -- comment' 'a =' '10' 'print(a + 1)' \
  '=a + 2' 'function f(x)' '  return x + 100' 'end' 'f(1), f(2)')" \
  -e "$quiet" -i
has_lines "$out" \
  "-i: expressions print, '=expr' too, chunks go on over lines" \
  6 11 12 "101${tab}102"
is "$status" 0 "... exit status 0 at the end of input"
feed 'a = 2' -e 'C = 0 _PROMPT = setmetatable({}, { __tostring =
  function() C = C + 1 return "<P" .. C .. ">" end })
  _PROMPT2 = setmetatable({}, { __tostring = function() return "<Q>" end })
  ' -i
like "$out" "*<P1>*<P2>*" "a _PROMPT with __tostring is the prompt"
feed "$(printf '%s\n' 'function f()' 'end')" -e "$quiet
  _PROMPT2 = setmetatable({}, { __tostring = function() return '<Q>' end })" \
  -i
like "$out" "*<Q>*" "... and _PROMPT2 for a continuation line"
feed 'x = 1' -i
like "$out" "*> *> *" "the default prompt is '> '"
feed 'error("oops")' -e "$quiet" -i
is "$status $(line 1 "$err")" "0 stdin:1: oops" \
  "an error at the prompt: no program name, and the prompt goes on"
feed '10' -e 'print = nil' -i
like "$err" "*error calling 'print'*" "an error in print is reported"
printf 'X = 7\n' >"$script"
feed 'X * 6' -e "$quiet" -i "$script"
has_lines "$out" "-i with a script: the script runs, then the prompt" 42
printf 'error("stop")\n' >"$script"
feed 'print("not reached")' -i "$script"
is "$status" 1 "-i after a failing script: exit status 1, no prompt"
printf 'print(...)\n' >"$script"
feed 'print("not a prompt")' "$script" -i
is "$status $out" "0 -i" "-i after the script is one of its arguments"

done_testing
