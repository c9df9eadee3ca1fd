#!/bin/sh
# t/host-args.sh - the host's options: arg and ..., -e and -l in order,
# -v, --help, bad options, --, the module's global and the package paths.
. "$top_srcdir/t/host-lib.sh"

# --- arg and ...: arg[0] the script, options below it, arguments above
cat >"$tmp/args.lua" <<'LUA'
local t = {}
for i = -4, #arg do t[#t + 1] = i .. "=" .. tostring(arg[i]) end
print(table.concat(t, " "))
print(select("#", ...), ...)
LUA
run -e "a=1" "$tmp/args.lua" one "two words" ""
is "$status" 0 "a script runs: exit status 0"
is "$(line 1 "$out")" \
  "-4=nil -3=$argv0 -2=-e -1=a=1 0=$tmp/args.lua 1=one 2=two words 3=" \
  "arg: the host, the options, the script and its three arguments"
tab=$(printf '\t')
is "$(line 2 "$out")" "3${tab}one${tab}two words${tab}" \
  "... holds the three arguments"
is "$err" "" "nothing on stderr"

run "$tmp/args.lua"
is "$(line 1 "$out")" "-4=nil -3=nil -2=nil -1=$argv0 0=$tmp/args.lua" \
  "arg without options or arguments"
is "$(line 2 "$out")" "0" "... is empty without arguments"

# --- -e and -l run in command-line order; -l g=mod names the global
mkdir "$tmp/lib"
cat >"$tmp/lib/order.lua" <<'LUA'
seq = (seq or "") .. "l"
return { seq = seq }
LUA
LUA_PATH="$tmp/lib/?.lua;;" run -e 'seq = "e"' -l order \
  -e 'seq = seq .. "e"' -l o2=order -e 'print(seq, order.seq, o2 == order)'
is "$out" "ele${tab}el${tab}true" \
  "-e, -l, -e, -l g=mod, -e run in order; the module loads once"
is "$status" 0 "... exit status 0"

run -lorder -e 'print(order)'
is "$status" 1 "-l of a missing module: exit status 1"
like "$(line 1 "$err")" "$progname: module 'order' not found:*" \
  "... and the message names the module"
is "$out" "" "... and the -e after it does not run"

run -e "print('joined')" -eprint\(2\)
is "$out" "joined
2" "-eCODE joined to the option works as -e CODE"

# --- -v, --help
version=$(sed -n 's/^AC_INIT(\[rsxmesh\], \[\([^]]*\)\].*/\1/p' \
  "$top_srcdir/configure.ac")
run -v
is "$status" 0 "-v: exit status 0"
like "$out" "rsxmesh $version with Lua 5.4.*  Copyright *" \
  "-v prints the version of rsxmesh ($version) and of Lua"
run -v "$tmp/args.lua"
like "$(line 1 "$out")" "rsxmesh $version with Lua 5.4.*" \
  "-v with a script: the version first"
like "$(line 2 "$out")" "-4=nil*" "... then the script runs"

run --help
is "$status" 0 "--help: exit status 0"
is "$(line 1 "$out")" "usage: $progname [options] [script [args]]" \
  "--help prints the usage on stdout"
like "$out" "*--list*" "... which mentions --list"
is "$err" "" "... and nothing on stderr"

# --- bad options
run -x
is "$status" 1 "an unknown option: exit status 1"
is "$(line 1 "$err")" "$progname: unrecognized option '-x'" \
  "... named on stderr"
is "$(line 2 "$err")" "usage: $progname [options] [script [args]]" \
  "... followed by the usage"
is "$out" "" "... and nothing on stdout"
run --frobnicate
is "$(line 1 "$err")" "$progname: unrecognized option '--frobnicate'" \
  "an unknown long option is named"
run -e
is "$(line 1 "$err")" "$progname: '-e' needs argument" \
  "-e without its argument"
is "$status" 1 "... exit status 1"
run -l -e x
is "$(line 1 "$err")" "$progname: '-l' needs argument" \
  "-l followed by another option"
run -vx
is "$(line 1 "$err")" "$progname: unrecognized option '-vx'" \
  "-v with extra letters"

# --- -- ends the options: a script whose name starts with a dash
printf 'print("dash", ...)\n' >"$tmp/-dash.lua"
(cd "$tmp" && run -- -dash.lua -e && printf '%s\n%s' "$status" "$out") \
  >"$tmp/dash"
is "$(cat "$tmp/dash")" "0
dash${tab}-e" "-- ends the options; the script gets -e as an argument"

# --- a bundle or a folder is never a script: where the script would go,
# it starts the arguments (arg[1]) of -e code or of the -i prompt
mkdir "$tmp/levels"
printf 'RSXB\000\001\000\100' >"$tmp/X.rsxb"
(cd "$tmp" && run -e 'print(#arg, arg[1], arg[2], arg[0])' X.rsxb levels &&
  printf '%s\n%s' "$status" "$out") >"$tmp/data"
is "$(cat "$tmp/data")" "0
2${tab}X.rsxb${tab}levels${tab}print(#arg, arg[1], arg[2], arg[0])" \
  "-e CODE X.rsxb levels: arg[1] the bundle, arg[2] the folder, no script"
run -e 'print(arg[1])' "$tmp/levels" "$tmp/X.rsxb"
is "$out" "$tmp/levels" "... a folder first works too"
feed 'arg[1]' -i "$tmp/X.rsxb"
is "$(line 3 "$out")" "$tmp/X.rsxb" "-i X.rsxb: the bundle is arg[1]"
run "$tmp/X.rsxb" -e x
is "$status" 1 "a bundle alone: exit status 1"
is "$err" "$progname: $tmp/X.rsxb is not a Lua script: it looks like an \
RSXB bundle; did you mean: rsxmesh info $tmp/X.rsxb?" \
  "... and the message says why, and what reads it"
run "$tmp/levels"
is "$err" "$progname: $tmp/levels is not a Lua script: it is a folder; did \
you mean: rsxmesh info $tmp/levels?" "a folder alone: the message says why"
printf 'RSXB = 1 print(RSXB)\n' >"$tmp/rsxb.lua"
run "$tmp/rsxb.lua"
is "$out" "1" "a script starting with the letters RSXB is still a script"

# --- the module: preloaded, and the global rsxmesh everywhere (as
# lua -l rsxmesh would make it)
run -e 'print(type(rsxmesh), rsxmesh == require "rsxmesh")'
is "$out" "table${tab}true" "-e: the global rsxmesh is the module"
cat >"$tmp/global.lua" <<'LUA'
print(rsxmesh, type(require "rsxmesh"), type(package.preload.rsxmesh))
LUA
run "$tmp/global.lua"
like "$out" "table: *${tab}table${tab}function" \
  "a script: the global rsxmesh; require finds it in package.preload"
printf 'print(rsxmesh == require "rsxmesh")\n' >"$tmp/global.lua"
run "$tmp/global.lua"
is "$out" "true" "... the global is the module"

# --- package paths: LUA_PATH and LUA_CPATH as in lua; the host finds its
# helpers with a searcher of its own, before Lua's (t/host-lua.sh checks
# ';;' and -E)
LUA_PATH="$tmp/nowhere/?.lua" LUA_CPATH="$tmp/nowhere/?.so" \
  run -e 'print(package.path) print(package.cpath)
    print(select(2, require "rsxmesh.text"))'
is "$(line 1 "$out")" "$tmp/nowhere/?.lua" "package.path: LUA_PATH alone"
is "$(line 2 "$out")" "$tmp/nowhere/?.so" "package.cpath: LUA_CPATH alone"
is "$(line 3 "$out")" "$top_srcdir/lua/rsxmesh/text.lua" \
  "... and the helpers come from the source tree all the same"

# --- in the build tree with LUA_PATH unset, Lua's default path follows
# the tree's (./?.lua among its places), but a helper rsxmesh.X comes
# from the tree alone: missing there, it is an error, never a copy found
# later on the path (an installed one, or here one in the current folder)
mkdir -p "$tmp/cwd/rsxmesh"
printf 'return "plain"\n' >"$tmp/cwd/plain_elsewhere.lua"
printf 'return "elsewhere"\n' >"$tmp/cwd/rsxmesh/only_elsewhere.lua"
(cd "$tmp/cwd" && unset LUA_PATH LUA_PATH_5_4 LUA_CPATH RSXMESH_PATH &&
  run -e 'print((require "plain_elsewhere"))' &&
  printf '%s\n%s' "$status" "$out") >"$tmp/plain"
is "$(cat "$tmp/plain")" "0
plain" "LUA_PATH unset: another module is found on Lua's default path"
(cd "$tmp/cwd" && unset LUA_PATH LUA_PATH_5_4 LUA_CPATH RSXMESH_PATH &&
  run -e 'print(require "rsxmesh.only_elsewhere")'
  printf '%s\n%s\n%s' "$status" "$out" "$err") >"$tmp/fake"
is "$(sed -n '1,4p' "$tmp/fake")" "1

$progname: module 'rsxmesh.only_elsewhere' not found in the build tree (an \
installed copy is not used from it):
${tab}no file '$top_srcdir/lua/rsxmesh/only_elsewhere.lua'" \
  "... but rsxmesh.X only in the tree: missing there, an error naming it"

# --- LuaFileSystem (Debian's lua-filesystem) loads
run -e "local lfs = require 'lfs'; print(lfs.attributes('$tmp', 'mode'))"
is "$out" "directory" "require \"lfs\" works, lfs.attributes reads a folder"
is "$status" 0 "... exit status 0"

done_testing
