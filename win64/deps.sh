#!/bin/sh
# win64/deps.sh DIR - the third-party parts of the win64 build, from Debian:
# MinGW-w64 and zlib as Debian builds them for Windows, and the sources of
# Lua 5.4, LuaFileSystem, lua-cjson and libpng from Debian's source
# packages (nothing of theirs is in this repository). Builds, in DIR:
#   bin/lua54.dll bin/lua.exe bin/lfs.dll bin/cjson.dll  (Lua and its C modules)
#   lib/liblua54.dll.a lib/libpng.a                      (to link against)
#   include/                                             (their headers)
# Needs root for apt-get (the packages below and a deb-src line, added
# once to /etc/apt/sources.list.d/rsxmesh-deb-src.sources).
# Lua, lfs and cjson are compiled with src/win32.h forced in (-include),
# so that their file names are UTF-8 as on Linux (see that header).
set -eu

dir=$1
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
host=x86_64-w64-mingw32
CC=$host-gcc
AR=$host-ar
APT="apt-get -o DPkg::Lock::Timeout=900"
PACKAGES="gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 binutils-mingw-w64-x86-64 libz-mingw-w64-dev dpkg-dev zip"
SOURCES="lua5.4 lua-filesystem lua-cjson libpng1.6"

say() { echo "win64/deps.sh: $*" >&2; }

missing=
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
    missing="$missing $p"
done
if [ -n "$missing" ]; then
  say "installing Debian packages:$missing"
  $APT install -y --no-install-recommends $missing
fi

# built already, from these sources of ours
if [ -f "$dir/.built" ] && [ "$dir/.built" -nt "$0" ] &&
   [ "$dir/.built" -nt "$top_srcdir/src/win32.c" ] &&
   [ "$dir/.built" -nt "$top_srcdir/src/win32.h" ]; then
  exit 0
fi

mkdir -p "$dir/src" "$dir/bin" "$dir/lib" "$dir/include" "$dir/obj"
dir=$(cd "$dir" && pwd)

# ------------------------------------------------------------ the sources
if [ ! -f "$dir/src/.fetched" ]; then
  if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list \
       /etc/apt/sources.list.d/; then
    say "adding deb-src to apt's sources (rsxmesh-deb-src.sources)"
    sed -n 's/^Types: deb$/Types: deb-src/p; /^Types/!p' \
      /etc/apt/sources.list.d/debian.sources \
      > /etc/apt/sources.list.d/rsxmesh-deb-src.sources
    $APT update
  fi
  say "fetching Debian's sources: $SOURCES"
  # one at a time: a security update missing from the mirror falls back
  # to the release's version
  for p in $SOURCES; do
    (cd "$dir/src" && { $APT source "$p" || $APT source "$p/bookworm"; })
  done
  touch "$dir/src/.fetched"
fi
src_of() { # the unpacked folder of a source package
  for d in "$dir/src/$1"-[0-9]*; do
    [ -d "$d" ] && { echo "$d"; return; }
  done
  say "no unpacked source of $1 in $dir/src"; exit 1
}
LUA=$(src_of lua5.4)
LFS=$(src_of lua-filesystem)
CJSON=$(src_of lua-cjson)
PNG=$(src_of libpng1.6)

UTF8="-include $top_srcdir/src/win32.h"
CFLAGS="-O2 -D__USE_MINGW_ANSI_STDIO=1"
W32=$dir/obj/win32.o
$CC $CFLAGS -c -o "$W32" "$top_srcdir/src/win32.c"

# ---------------------------------------------------------------- Lua 5.4
# As Lua's own "make mingw": lua54.dll, and lua.exe on it (a stock Lua for
# testing the module DLL).
say "building Lua ($LUA)"
o=$dir/obj/lua; mkdir -p "$o"
objs=
for c in "$LUA"/src/*.c; do
  case $c in */lua.c|*/luac.c|*/onelua.c) continue ;; esac
  b=$(basename "$c" .c)
  extra=
  [ "$b" = loadlib ] && extra=-DRSX_WIN32_API # see src/win32.h
  $CC $CFLAGS -DLUA_COMPAT_5_3 -DLUA_BUILD_AS_DLL $UTF8 $extra \
    -c -o "$o/$b.o" "$c"
  objs="$objs $o/$b.o"
done
$CC -shared -o "$dir/bin/lua54.dll" $objs "$W32" \
  -Wl,--out-implib,"$dir/lib/liblua54.dll.a"
$CC $CFLAGS -DLUA_COMPAT_5_3 -DLUA_BUILD_AS_DLL $UTF8 -o "$dir/bin/lua.exe" \
  "$LUA/src/lua.c" "$W32" "$dir/lib/liblua54.dll.a"
for h in lua.h luaconf.h lualib.h lauxlib.h lua.hpp; do
  cp "$LUA/src/$h" "$dir/include/"
done

LUAINC="-I$dir/include -DLUA_BUILD_AS_DLL"
# ---------------------------------------------------------- LuaFileSystem
say "building LuaFileSystem ($LFS)"
$CC $CFLAGS $LUAINC $UTF8 -DRSX_WIN32_API -shared -o "$dir/bin/lfs.dll" \
  "$LFS/src/lfs.c" \
  "$W32" "$dir/lib/liblua54.dll.a"

# ----------------------------------------------------------------- cjson
# Its own strtod and printf-style number formatting (fpconv.c), as Debian
# builds it.
say "building lua-cjson ($CJSON)"
$CC $CFLAGS $LUAINC $UTF8 -shared -o "$dir/bin/cjson.dll" \
  "$CJSON/lua_cjson.c" "$CJSON/strbuf.c" "$CJSON/fpconv.c" \
  "$W32" "$dir/lib/liblua54.dll.a"

# ----------------------------------------------------------------- libpng
# A static library with Debian's zlib for MinGW, linked into the module
# and the host.
say "building libpng ($PNG)"
o=$dir/obj/png; mkdir -p "$o"
cp "$PNG/scripts/pnglibconf.h.prebuilt" "$dir/include/pnglibconf.h"
cp "$PNG/png.h" "$PNG/pngconf.h" "$dir/include/"
objs=
for b in png pngerror pngget pngmem pngpread pngread pngrio pngrtran \
         pngrutil pngset pngtrans pngwio pngwrite pngwtran pngwutil; do
  $CC $CFLAGS -I"$dir/include" -c -o "$o/$b.o" "$PNG/$b.c"
  objs="$objs $o/$b.o"
done
rm -f "$dir/lib/libpng.a"
$AR rcs "$dir/lib/libpng.a" $objs
cp "$LUA/doc/readme.html" "$dir/lua-readme.html" 2>/dev/null || :
touch "$dir/.built"
say "done: $dir/bin: $(cd "$dir/bin" && echo *)"
