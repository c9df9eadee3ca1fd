#!/bin/sh
# t/host-scripts.sh - standard scripts: found by name in RSXMESH_PATH's
# folders, listed by --list with their descriptions, run with arguments.
. "$top_srcdir/t/host-lib.sh"

tab=$(printf '\t')
d1=$tmp/one
d2=$tmp/two
mkdir "$d1" "$d2" "$d2/folder.lua"
cat >"$d1/alpha.lua" <<'LUA'
#!/usr/bin/env rsxmesh

-- alpha: the first test script
print("alpha", arg[0], #arg, ...)
LUA
cat >"$d2/alpha.lua" <<'LUA'
-- alpha: hidden by the alpha of the first folder
print("second alpha")
LUA
cat >"$d2/beta.lua" <<'LUA'
--   beta:   the second one, from the second folder
print("beta", ...)
LUA
cat >"$d2/gamma.lua" <<'LUA'
print("gamma has no comment line")
-- not its description
LUA
cat >"$d2/eps.lua" <<'LUA'
-- eps.lua - the house style's first line: name, dash, purpose
LUA
cat >"$d1/eta.lua" <<'LUA'
-- rsxmesh eta: as the command line reads
LUA
cat >"$d1/zeta.lua" <<'LUA'
-- zeta-function: a name that only starts like the script's
LUA
cat >"$d2/delta.lua" <<'LUA'
-- a description without the name in front
LUA
echo "not a script" >"$d1/notes.txt"
echo "print('hidden file')" >"$d1/.hidden.lua"

# --- --list: one line each, sorted, the first folder's alpha wins. The
# installed folder may add scripts of its own: keep only these names.
RSXMESH_PATH="$d1:$d2" run --list
is "$status" 0 "--list: exit status 0"
names='(alpha|beta|gamma|delta|eps|eta|zeta|folder)'
mine=$(printf '%s\n' "$out" | grep -E "^$names( |\$)" |
  sed 's/   */  /')
is "$mine" "alpha  the first test script
beta  the second one, from the second folder
delta  a description without the name in front
eps  the house style's first line: name, dash, purpose
eta  as the command line reads
gamma
zeta  zeta-function: a name that only starts like the script's" \
  "--list: names and descriptions from the first comment line"
is "$(printf '%s\n' "$out" | grep -c '^alpha')" 1 \
  "... a name found twice is listed once"
col=$(printf '%s\n' "$out" | grep -E '^(alpha|beta|delta) ' |
  awk '{ match($0, /^[^ ]+ +/); print RLENGTH }' | sort -u | wc -l)
is "$col" 1 "... the descriptions start in one column"

# empty entries of RSXMESH_PATH are skipped
RSXMESH_PATH=":$d1::$d2:" run --list
is "$(printf '%s\n' "$out" | grep -cE "^$names( |\$)")" 7 \
  "empty entries in RSXMESH_PATH are skipped"

# --- no arguments at all: the usage, then the list
RSXMESH_PATH="$d1:$d2" run
is "$status" 0 "no arguments: exit status 0"
is "$(line 1 "$out")" "usage: rsxmesh [options] [script [args]]" \
  "... the usage first"
like "$out" "*
Standard scripts (RSXMESH_PATH, then /*):
  alpha  *the first test script
*" "... then the standard scripts, indented"

# --- running one by name: arg[0] is the file found, args as in lua
RSXMESH_PATH="$d1:$d2" run alpha x "y z"
is "$status" 0 "a standard script by name: exit status 0"
is "$out" "alpha${tab}$d1/alpha.lua${tab}2${tab}x${tab}y z" \
  "... the first folder's alpha, arg[0] its path, the arguments"
RSXMESH_PATH="$d1:$d2" run -e 'io.write("e ")' beta 1
is "$out" "e beta${tab}1" "options before the name run first; beta found \
in the second folder"

# --- a name not found
RSXMESH_PATH="$d1:$d2" run nope 1
is "$status" 1 "an unknown name: exit status 1"
like "$err" "rsxmesh: no standard script 'nope' in $d1:$d2:/*" \
  "... the message names the folders searched"
echo 'print("local file")' >"$tmp/nope"
(cd "$tmp" && RSXMESH_PATH="$d1" run nope && echo "$err") >"$tmp/hint"
like "$(cat "$tmp/hint")" \
  "rsxmesh: no standard script 'nope' in *(to run the file, write ./nope)" \
  "... and hints at ./NAME when a file of that name is here"
(cd "$tmp" && RSXMESH_PATH="$d1" run ./nope && echo "$out") >"$tmp/hint"
is "$(cat "$tmp/hint")" "local file" "./NAME runs the file"

# a name ending in .lua, or with a slash, is a file, not a standard script
(cd "$d1" && RSXMESH_PATH="$d2" run alpha.lua && echo "$out") >"$tmp/file"
is "$(cat "$tmp/file")" "alpha${tab}alpha.lua${tab}0" \
  "NAME.lua runs the file, not the standard script"
RSXMESH_PATH="$d2" run "$d1/alpha"
like "$(line 1 "$err")" "rsxmesh: cannot open $d1/alpha*" \
  "a path with a slash is a file even without .lua"

done_testing
