#!/bin/sh
# t/host-scripts.sh - standard scripts: found by name with
# package.searchpath over RSXMESH_PATH's ? templates (regular files only),
# listed by --list
# with their descriptions, run with arguments; the host in the build tree
# uses that tree's scripts and helpers with no variable set.
. "$top_srcdir/t/host-lib.sh"

tab=$(printf '\t')
d1=$tmp/one
d2=$tmp/two
mkdir "$d1" "$d2" "$d2/folder.lua"
cat >"$d1/alpha.lua" <<'LUA'
#!/usr/bin/env rsxmesh

-- alpha.lua - the first test script
print("alpha", arg[0], #arg, ...)
LUA
cat >"$d2/alpha.lua" <<'LUA'
-- alpha.lua - hidden by the alpha of the first folder
print("second alpha")
LUA
cat >"$d2/beta.lua" <<'LUA'
--   beta.lua - the second one, from the second folder
print("beta", ...)
LUA
cat >"$d2/gamma.lua" <<'LUA'
print("gamma has no comment line")
-- not its description
LUA
cat >"$d1/zeta.lua" <<'LUA'
-- zeta-function.lua - a name that only starts like the script's
LUA
cat >"$d2/delta.lua" <<'LUA'
-- a description in no header form, shown as it is
LUA
echo "not a script" >"$d1/notes.txt"
echo "print('hidden file')" >"$d1/.hidden.lua"
P="$d1/?.lua;$d2/?.lua"

# --- --list: one line each, sorted, the first template's alpha wins
RSXMESH_PATH="$P" run --list
is "$status" 0 "--list: exit status 0"
is "$(printf '%s\n' "$out" | sed 's/   */  /')" "alpha  the first test script
beta  the second one, from the second folder
delta  a description in no header form, shown as it is
gamma
zeta  zeta-function.lua - a name that only starts like the script's" \
  "--list: names, and the first comment line less 'FILE - '"
col=$(printf '%s\n' "$out" | grep -E '^(alpha|beta|delta) ' |
  awk '{ match($0, /^[^ ]+ +/); print RLENGTH }' | sort -u | wc -l)
is "$col" 1 "... the descriptions start in one column"

# templates: any text around the ?, empty entries skipped
mkdir "$tmp/pre"
echo '-- x-one.lua - with a prefix' >"$tmp/pre/x-one.lua"
echo '-- other.lua - not matching the prefix' >"$tmp/pre/other.lua"
RSXMESH_PATH=";$tmp/pre/x-?.lua;;" run --list
like "$out" "*
one *with a prefix*" "a template's text before ? is kept out"
RSXMESH_PATH="$tmp/pre/x-?.lua" run --list
is "$out" "one  with a prefix" "... and files not matching it are left out"

# ';;' stands for the default path: the source tree's scripts here
RSXMESH_PATH="$d1/?.lua;;" run --list
like "$out" "alpha *the first test script*
obj-export *" "';;' in RSXMESH_PATH adds the default path"

# -E ignores RSXMESH_PATH as it ignores lua's variables
RSXMESH_PATH="$P" run -E --list
like "$out" "*obj-export *" "-E: RSXMESH_PATH is ignored"
is "$(printf '%s\n' "$out" | grep -c '^alpha ')" 0 "... its scripts unseen"

# nothing to list is a failure, never an empty list with exit 0
RSXMESH_PATH="$tmp/empty/?.lua" run --list
is "$status" 1 "--list with no scripts: exit status 1"
is "$err" "$progname: no standard scripts in $tmp/empty/?.lua" \
  "... and a message naming the path"
is "$out" "" "... and nothing on stdout"

# --- --help: the usage, then the list (no arguments at all run stdin or
# a prompt, as lua: t/host-lua.sh)
RSXMESH_PATH="$P" run --help
is "$status" 0 "--help: exit status 0"
is "$(line 1 "$out")" "usage: $progname [options] [script [args]]" \
  "... the usage first"
like "$out" "*
Standard scripts ($P):
  alpha  *the first test script
*" "... then the standard scripts, indented, under their path"

# --- running one by name: arg[0] is the file found, args as in lua
RSXMESH_PATH="$P" run alpha x "y z"
is "$status" 0 "a standard script by name: exit status 0"
is "$out" "alpha${tab}$d1/alpha.lua${tab}2${tab}x${tab}y z" \
  "... the first template's alpha, arg[0] its path, the arguments"
RSXMESH_PATH="$P" run -e 'io.write("e ")' beta 1
is "$out" "e beta${tab}1" "options before the name run first; beta found \
by the second template"

# --- a name not found: searchpath's list of the places tried
RSXMESH_PATH="$P" run nope 1
is "$status" 1 "an unknown name: exit status 1"
is "$err" "$progname: no standard script 'nope':
${tab}no file '$d1/nope.lua'
${tab}no file '$d2/nope.lua'" "... the message lists the files tried"
echo 'print("local file")' >"$tmp/nope"
(cd "$tmp" && RSXMESH_PATH="$d1/?.lua" run nope && echo "$err") >"$tmp/hint"
is "$(line 1 "$(cat "$tmp/hint")")" \
  "$progname: no standard script 'nope' (to run the file, write ./nope):" \
  "... and hints at ./NAME when a file of that name is here"
(cd "$tmp" && RSXMESH_PATH="$d1/?.lua" run ./nope && echo "$out") >"$tmp/hint"
is "$(cat "$tmp/hint")" "local file" "./NAME runs the file"
RSXMESH_PATH="$d2/?.lua" run folder
is "$err" "$progname: no standard script 'folder':
${tab}'$d2/folder.lua' is not a regular file" \
  "a folder named like a script is no script: the message says so"
# ... and a later template's script of that name is the one that runs,
# the one --list shows
echo '-- folder.lua - a script after a folder of its name
print("the script")' >"$d1/folder.lua"
RSXMESH_PATH="$d2/?.lua;$d1/?.lua" run folder
is "$status $out" "0 the script" \
  "a folder on the path before a script of its name: the script runs"
RSXMESH_PATH="$d2/?.lua;$d1/?.lua" run --list
like "$out" "*
folder  *a script after a folder of its name
*" "... and is the one --list shows"
rm "$d1/folder.lua"

# a name ending in .lua, or with a slash, is a file, not a standard script
(cd "$d1" && RSXMESH_PATH="$d2/?.lua" run alpha.lua && echo "$out") \
  >"$tmp/file"
is "$(cat "$tmp/file")" "alpha${tab}alpha.lua${tab}0" \
  "NAME.lua runs the file, not the standard script"
RSXMESH_PATH="$d2/?.lua" run "$d1/alpha"
like "$(line 1 "$err")" "$progname: cannot open $d1/alpha*" \
  "a path with a slash is a file even without .lua"

# --- the host in the build tree, no variable set: the source tree's
# standard scripts and Lua helpers, never an installed copy
(unset RSXMESH_PATH LUA_PATH LUA_CPATH; run --list)
plain_status=$status
(unset RSXMESH_PATH LUA_PATH LUA_CPATH; run --list; echo "$out") \
  >"$tmp/list"
for name in gltf-export info obj-export survey synth uv-selectors; do
  like "$(cat "$tmp/list")" "*$name  *" "build tree, no variables: --list \
shows $name"
done
(unset RSXMESH_PATH LUA_PATH LUA_CPATH; run no-such-script; echo "$err") \
  >"$tmp/tried"
is "$(cat "$tmp/tried")" "$progname: no standard script 'no-such-script':
${tab}no file '$top_srcdir/scripts/no-such-script.lua'" \
  "... the one place searched is the source tree's scripts/"
(unset RSXMESH_PATH LUA_PATH LUA_CPATH
 run -e 'print(select(2, require "rsxmesh.cli"))'
 echo "$out") >"$tmp/helper"
is "$(cat "$tmp/helper")" "$top_srcdir/lua/rsxmesh/cli.lua" \
  "... and the Lua helpers are the source tree's"
(unset RSXMESH_PATH LUA_PATH LUA_CPATH; run info --help; echo "$status") \
  >"$tmp/info"
is "$(tail -n 1 "$tmp/info")" 0 "... so 'rsxmesh info --help' runs"

# --- a usage error's hint runs the script again as it was run: a
# standard script by its name, a user's script by its file
(unset RSXMESH_PATH; run info --frobnicate; echo "$err") >"$tmp/hint"
is "$(tail -n 2 "$tmp/hint")" "Usage: $progname info [options] BUNDLE|FOLDER...
Try '$progname info --help' for more." \
  "a standard script's usage error: its usage and '$progname NAME --help', \
the program as run"
cat >"$tmp/extra-w.lua" <<'LUA'
local cli = require "rsxmesh.cli"
cli.parse(arg, { usage = "extra-w.lua [options]", options = {} })
LUA
(cd "$tmp" && unset RSXMESH_PATH && run extra-w.lua --frobnicate &&
  echo "$status" && echo "$err") >"$tmp/hint"
is "$(sed -n 1p "$tmp/hint")" 2 "a user's script's usage error: exit status 2"
is "$(tail -n 1 "$tmp/hint")" "Try '$progname extra-w.lua --help' for more." \
  "... and the hint names its file, which runs"
# the host run by another name, found on PATH: its usage lines name it so
case ${TEST_WRAPPER:-} in
*wine*) tap_result 1 "# SKIP no symbolic links for wine's programs" ;;
*)
  mkdir "$tmp/bin" && ln -s "$RSXMESH" "$tmp/bin/rsx-other"
  (unset RSXMESH_PATH; PATH=$tmp/bin:$PATH
   ${TEST_WRAPPER:-} rsx-other info --frobnicate 2>&1 >/dev/null) \
    >"$tmp/other"
  is "$(tail -n 2 "$tmp/other")" "Usage: rsx-other info [options] BUNDLE|FOLDER...
Try 'rsx-other info --help' for more." \
    "the host run as rsx-other: its usage lines say rsx-other"
  ;;
esac

# --- LuaFileSystem missing at run time (configure checks for it, but a
# LUA_CPATH may leave it out): what to install, not a traceback
(LUA_CPATH_5_4=/nonexistent/?.so; export LUA_CPATH_5_4
 run info no-such.rsxb; echo "$status"; echo "$err") >"$tmp/nolfs"
is "$(head -n 1 "$tmp/nolfs")" 1 "no LuaFileSystem: exit status 1"
want="$progname: LuaFileSystem is missing (Debian: apt-get install"
is "$(tail -n +2 "$tmp/nolfs")" "$want lua-filesystem)" \
  "... says so, and the Debian package"

done_testing
