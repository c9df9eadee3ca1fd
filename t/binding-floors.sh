#!/bin/sh
# t/binding-floors.sh - the Lua binding is built in floors, as Lua's
# libraries over lauxlib.c and under linit.c: base.c under the shared
# pieces (triangles.c, build.c), under the types' files and functions.c,
# under the operations over several types (render.c), under init.c. Read
# from the objects' symbols (nm): a file uses only what a lower floor
# defines, and from a type's file beside it only the push function of an
# object it returns. Every file src/lua/lua.am lists is examined.
. "$top_srcdir/t/host-lib.sh"

skip_all() {
  echo "1..0 # SKIP $1"
  exit 0
}

command -v nm >/dev/null 2>&1 || skip_all "no nm"
# the binding's sources as src/lua/lua.am lists them (not a stale object):
# each one's object is examined, and one not found is a failure, so that
# no file of the binding goes unchecked
names=$(sed -n 's|^[[:space:]]*src/lua/\([a-z]*\)\.c.*$|\1|p' \
        "$top_srcdir/src/lua/lua.am")
objs=
for name in $names; do
  for f in "$top_builddir/src/lua/.libs/librsxlua_la-$name.o" \
           "$top_builddir/src/lua/librsxlua_la-$name.o"; do
    if [ -f "$f" ]; then
      objs="$objs $name"
      eval "obj_$name=\$f"
      break
    fi
  done
done
is "$(echo $names | wc -w)" "$(ls "$top_srcdir"/src/lua/*.c | wc -l)" \
  "src/lua/lua.am lists every .c file of src/lua/"
is "$(echo $objs)" "$(echo $names)" \
  "the objects examined are those of lua.am's list, each found"

floor() {
  case $1 in
    base) echo 0 ;;
    triangles|build) echo 1 ;;
    render) echo 3 ;;
    init) echo 4 ;;
    *) echo 2 ;;
  esac
}

# who defines each rsxlua_ symbol
defs=$tmp/defs
: >"$defs"
for name in $objs; do
  eval "f=\$obj_$name"
  nm --defined-only "$f" | awk -v n="$name" \
    '$2 == "T" && $3 ~ /^(rsxlua_|luaopen_)/ { print $3, n }' >>"$defs"
done

for name in $objs; do
  eval "f=\$obj_$name"
  mine=$(floor "$name")
  bad=
  for sym in $(nm -u "$f" | awk '$2 ~ /^rsxlua_/ { print $2 }'); do
    from=$(awk -v s="$sym" '$1 == s { print $2 }' "$defs")
    test -n "$from" || continue
    theirs=$(floor "$from")
    if [ "$theirs" -lt "$mine" ]; then
      continue
    elif [ "$theirs" = 2 ] && [ "$mine" = 2 ]; then
      case $sym in rsxlua_push_*) continue ;; esac
    fi
    bad="$bad $sym($from)"
  done
  is "$bad" "" "$name.c (floor $mine) uses only lower floors and push \
functions"
done

done_testing
