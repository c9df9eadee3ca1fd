#!/bin/sh
# win64/build.sh SRCDIR BUILDDIR VERSION - make dist-win64: cross-compile
# rsxmesh for 64-bit Windows with Debian's MinGW-w64 and write
# BUILDDIR/rsxmesh-VERSION-win64.zip. In BUILDDIR/win64-build:
#   deps/   Lua, lfs, cjson, libpng from Debian's sources (win64/deps.sh)
#   build/  this source tree configured with --host=x86_64-w64-mingw32
#   stage/  the zip's folder, made by make install into it
# Needs root the first time (apt-get: see win64/deps.sh).
set -eu
srcdir=$1 builddir=$2 version=$3
host=x86_64-w64-mingw32
w=$builddir/win64-build
name=rsxmesh-$version-win64
say() { echo "win64/build.sh: $*" >&2; }

"$srcdir/win64/deps.sh" "$w/deps"
deps=$w/deps
# stdin, stdout and stderr binary in every program (see the file)
$host-gcc -O2 -c -o "$deps/binary-stdio.o" "$srcdir/win64/binary-stdio.c"
# zlib linked in: the static library alone in a folder searched first, so
# that -lz does not find Debian's import library of zlib1.dll
cp "/usr/$host/lib/libz.a" "$deps/lib/libz.a"

# configure refuses a second build of a source tree configured in place:
# build then from a copy of it, as make distcheck does
src=$srcdir
if [ -f "$srcdir/config.status" ]; then
  say "the source tree is configured in place: building from its make distdir"
  rm -rf "$w/source"
  (cd "$builddir" && make distdir distdir="$w/source" >/dev/null)
  src=$w/source
fi

mkdir -p "$w/build"
cd "$w/build"
if [ ! -f Makefile ] || [ "$src/configure" -nt Makefile ]; then
  say "configuring for $host in $w/build"
  # Lua's and libpng's flags given, not asked of pkg-config (and libtool
  # told to link the static libpng and zlib into the module DLL, which it
  # would refuse: pass_all); lfs and cjson are built above, not asked
  # of a Linux lua; src/win32.h in every file; -Wno-format since gcc
  # checks the formats against Microsoft's printf, which lacks %zu, not
  # MinGW's own (__USE_MINGW_ANSI_STDIO), which has it and is used
  "$src/configure" --host=$host --without-readline --disable-silent-rules \
    LUA_CFLAGS="-I$deps/include -DLUA_BUILD_AS_DLL" \
    LUA_LIBS="-L$deps/lib -llua54" \
    PNG_CFLAGS="-I$deps/include" \
    PNG_LIBS="-L$deps/lib -lpng -lz" lt_cv_deplibs_check_method=pass_all \
    CPPFLAGS="-include $src/src/win32.h -D__USE_MINGW_ANSI_STDIO=1" \
    CFLAGS="-g -O2 -Wno-format" \
    LDFLAGS="-static-libgcc $deps/binary-stdio.o" \
    rsx_cv_lua_lfs=yes rsx_cv_lua_cjson=yes
fi
say "building in $w/build"
make -j2 all
# The module DLL's link (libtool, rsxmesh.la) removes .libs/rsxmesh.exe,
# the program's own name there: when it runs after or beside the
# program's link, link the program again
if [ ! -f .libs/rsxmesh.exe ]; then
  rm -f rsxmesh.exe
  make rsxmesh.exe
fi

# The zip's folder: everything beside rsxmesh.exe, which finds the
# scripts in scripts\ and the Lua helpers in lua\ (Lua's "!" folder)
say "staging $name"
stage=$w/stage/$name
rm -rf "$w/stage"
make install DESTDIR="$stage" prefix=/ bindir=/ luaexecdir=/ luadir=/lua \
  pkgdatadir=/ mandir=/doc >/dev/null
rm -f "$stage"/*.la "$stage"/*.dll.a
cp "$deps/bin/lua54.dll" "$deps/bin/lfs.dll" "$deps/bin/cjson.dll" "$stage/"
$host-strip "$stage"/*.exe "$stage"/*.dll
mkdir -p "$stage/doc"
cp "$srcdir/README.md" "$stage/"
cp "$srcdir"/doc/*.md "$srcdir"/doc/*.png "$stage/doc/"
# Windows' text: CR LF, for the editors that still want it
sed 's/$/\r/' "$srcdir/win64/README-windows.txt" > "$stage/README-windows.txt"

rm -f "$builddir/$name.zip"
(cd "$w/stage" && zip -q -r -X "$builddir/$name.zip" "$name")
say "wrote $builddir/$name.zip"
