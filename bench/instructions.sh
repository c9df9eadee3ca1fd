#!/bin/sh
# bench/instructions.sh - instructions per read of the accessor benchmark,
# counted by callgrind: repeatable on a loaded machine, where seconds are
# not. Each pass runs once and three times; half the difference is one
# pass, without the cost of opening the bundle. Slow (minutes), so not in
# BENCHES by default: make bench BENCHES='bench/accessor.lua
# bench/instructions.sh' (it needs the bundle accessor.lua builds).
bundle=$BENCH_DIR/accessor.rsxb
floor=${BENCH_FLOOR:-$top_builddir/bench/floor}
here=$(dirname "$0")
if [ ! -f "$bundle" ]; then
  echo "instructions: no $bundle: run bench/accessor.lua first" >&2
  exit 1
fi

# ir COMMAND...: the instructions callgrind counts for COMMAND
ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 \
    >/dev/null | sed -n 's/^==[0-9]*== Collected : //p'
}

# per_read ONE THREE: instructions per read of one pass
per_read() {
  vertices=$("$RSXMESH" -e "local b = assert(require 'rsxmesh'.open(arg[1]))
    local n = 0 for _, m in b:meshes() do n = n + m.vertex_count end
    print(n)" "$bundle")
  awk -v a="$1" -v b="$2" -v n="$vertices" \
    'BEGIN { printf "%.0f", (b - a) / 2 / n }'
}

line="instructions per read:"
for mode in get range table; do
  one=$(ir "$RSXMESH" "$here/count.lua" "$bundle" $mode 1)
  three=$(ir "$RSXMESH" "$here/count.lua" "$bundle" $mode 3)
  [ -n "$one" ] && [ -n "$three" ] || exit 1
  line="$line $mode $(per_read "$one" "$three"),"
done
# floor: one repetition of one pass each (SECONDS tiny)
one=$(ir "$floor" "$bundle" 1 0.000001)
three=$(ir "$floor" "$bundle" 3 0.000001)
[ -n "$one" ] && [ -n "$three" ] || exit 1
echo "$line C floor $(per_read "$one" "$three") (callgrind)"
