# t/package.sh - the release as a user meets it (make check-full): the
# tarball's files configured without LuaFileSystem, lua-cjson, readline,
# Lua's headers or pkg-config (a message naming the Debian package), then
# `luarocks --lua-version 5.4 make` into a local tree, and a stock lua5.4
# requiring the module and its helpers and running standard scripts from
# their module paths; then a
# build configured twice (another --prefix) installs a host that finds
# its scripts under the second prefix.
set -u
: "${top_builddir:?run under make check-full}" "${LUA_INTERP:=}"
. "$top_srcdir/t/host-lib.sh"

skip_all() { echo "1..0 # SKIP $1"; exit 0; }
command -v luarocks >/dev/null || skip_all "no luarocks (Debian: luarocks)"
[ -n "$LUA_INTERP" ] || skip_all "no stock Lua 5.4 interpreter"

# The files of the tarball, as make dist would pack them.
src="$tmp/src"
mkdir -p "$src"
make -s -C "$top_builddir" distdir distdir="$src" >"$tmp/dist.log" 2>&1
is "$?" 0 "make distdir: the tarball's files"
for f in rsxmesh-scm-1.rockspec luarocks.mk configure; do
  is "$(test -f "$src/$f" && echo yes)" yes "the tarball holds $f"
done

# refused WHAT PACKAGE MESSAGE ARGS...: configure with ARGS fails, its
# last line the error MESSAGE (a pattern) naming Debian's PACKAGE
refused() {
  what=$1 package=$2 message=$3
  shift 3
  (cd "$src" && ./configure "$@") >"$tmp/configure.out" 2>&1
  status=$?
  is "$([ "$status" != 0 ] && echo fails)" fails \
    "configure without $what fails"
  like "$(tail -2 "$tmp/configure.out" | tr '\n' ' ')" \
    "*configure: error: $message*apt-get install $package*" \
    "... and names Debian's $package"
}

# without lfs: an interpreter whose paths find nothing
cat >"$tmp/nolfs" <<EOF
#!/bin/sh
LUA_PATH_5_4='$tmp/none/?.lua' LUA_CPATH_5_4='$tmp/none/?.so' \\
  exec '$LUA_INTERP' "\$@"
EOF
# without lua-cjson (gltf-import's JSON reader): all but cjson
cat >"$tmp/nocjson" <<EOF
#!/bin/sh
case "\$*" in *cjson*) exit 1 ;; esac
exec '$LUA_INTERP' "\$@"
EOF
chmod +x "$tmp/nolfs" "$tmp/nocjson"
refused lfs lua-filesystem "LuaFileSystem for Lua 5.4 is missing:" \
  LUA_INTERP="$tmp/nolfs"
refused cjson lua-cjson "lua-cjson for Lua 5.4 is missing:" \
  LUA_INTERP="$tmp/nocjson"
# without Lua's development files (pkg-config finds nothing), or without
# pkg-config itself
refused "Lua's headers" liblua5.4-dev "Lua 5.4's headers and library" \
  PKG_CONFIG_LIBDIR="$tmp/none"
refused pkg-config pkg-config "pkg-config is missing:" \
  PKG_CONFIG="$tmp/none/pkg-config"
# without readline's header (the cache variable of its check)
refused readline libreadline-dev "readline is missing:" \
  ac_cv_header_readline_readline_h=no
is "$(test -f "$src/Makefile" || echo none)" none \
  "no Makefile left for luarocks.mk to reuse"

# luarocks make into a local tree. lfs comes from Debian's lua-filesystem,
# which luarocks does not see as a rock: no dependency lookups.
tree="$tmp/tree"
(cd "$src" && luarocks --lua-version 5.4 make --tree "$tree" \
  --deps-mode none) >"$tmp/rock.log" 2>&1
status=$?
is "$status" 0 "luarocks --lua-version 5.4 make --tree: exit status 0"
[ "$status" = 0 ] || tap_diag log "$(tail -20 "$tmp/rock.log")"

# A stock lua5.4 with the tree's paths (luarocks path) and nothing else
eval "$(luarocks --lua-version 5.4 path --tree "$tree")"
unset LUA_PATH_5_4 LUA_CPATH_5_4
stock() { (cd "$tmp" && "$LUA_INTERP" "$@") >"$tmp/out" 2>"$tmp/err"
  status=$?; out=$(cat "$tmp/out"); err=$(cat "$tmp/err"); }

stock -e 'local r = require "rsxmesh"
  print(r._VERSION, package.searchpath("rsxmesh", package.cpath))'
is "$out" "rsxmesh 0.1.0	$tree/lib/lua/5.4/rsxmesh.so" \
  "require \"rsxmesh\" loads the tree's rsxmesh.so"
stock -e 'for _, m in ipairs{ "cli", "gltf", "json", "path", "text",
  "output", "jobs", "gltf_import", "synth.plan" } do
    require("rsxmesh." .. m) end
  print(package.searchpath("rsxmesh.cli", package.path))'
is "$out" "$tree/share/lua/5.4/rsxmesh/cli.lua" \
  "the Lua helpers load from the tree"
is "$(test -f "$tree/lib/lua/5.4/rsxmesh.la" || echo none)" none \
  "no libtool .la file in the tree"

# A standard script from its module path, on a bundle the fixture writes:
# the same text as the build tree's host running it by name.
where() { "$LUA_INTERP" -e "print((package.searchpath('$1', package.path)))"; }
info=$(where rsxmesh.scripts.info)
is "$info" "$tree/share/lua/5.4/rsxmesh/scripts/info.lua" \
  "rsxmesh.scripts.info is a module path"
LUA_PATH="$top_srcdir/t/?.lua;$LUA_PATH" stock -e '
  assert(require("api-fixture").writer():save("F.rsxb"))'
stock "$info" F.rsxb
stock_status=$status stock_out=$out stock_err=$err
# (the build tree's host finds the tree's scripts and helpers itself)
(cd "$tmp" && unset LUA_PATH LUA_CPATH && "$RSXMESH" info F.rsxb) \
  >"$tmp/want" 2>/dev/null
is "$stock_status" 0 "lua5.4 .../info.lua F.rsxb: exit status 0"
is "$stock_out" "$(cat "$tmp/want")" "... prints what rsxmesh info prints"
like "$stock_err" "info: 1 bundle, 4 meshes in *" "... and its summary"

# synth finds its textures beside the installed script
stock "$(where rsxmesh.scripts.synth)" -q -o disc --scale 0.002
is "$status" 0 "lua5.4 .../synth.lua: exit status 0"
is "$(ls "$tmp/disc"/*.rsxb 2>/dev/null | wc -l | tr -d ' ')" 15 \
  "... writes the 15 bundles"
is "$(cmp "$tmp/disc/textures/brick.png" \
  "$top_srcdir/scripts/textures/brick.png" 2>&1 && echo same)" same \
  "... and copies the installed textures"

# configure again with another prefix, then make and install: the host's
# compiled-in folders follow the new prefix (its object depends on the
# Makefile that configure rewrites), so the installed host finds its
# scripts. It kept the first prefix's folders: 'no standard script'.
build="$tmp/build"
make -s -C "$top_builddir" distdir distdir="$build" >"$tmp/dist.log" 2>&1
(cd "$build" && ./configure --prefix="$tmp/first" &&
  make -j2 && ./configure --prefix="$tmp/second" && make -j2 &&
  make install) >"$tmp/reconfigure.log" 2>&1
status=$?
is "$status" 0 "configure, make, configure --prefix=second, make install"
[ "$status" = 0 ] || tap_diag log "$(tail -20 "$tmp/reconfigure.log")"
(cd "$tmp" && env -u LUA_PATH -u LUA_CPATH -u LUA_PATH_5_4 \
  -u LUA_CPATH_5_4 -u RSXMESH_PATH "$tmp/second/bin/rsxmesh" --list) \
  >"$tmp/out" 2>&1
like "$(cat "$tmp/out")" "*obj-export*" \
  "the second prefix's host lists its standard scripts"

done_testing
