# t/gltf-sample.sh - the Khronos validator over gltf-export of the sample
#
# Generates rsxmesh synth's default sample, exports it as .gltf and as
# .glb, and runs the validator (t/gltf-validate.js) over every file: no
# file may have an error, and every warning code it prints must be listed,
# with its reason, in doc/scripts.md's "## gltf-export" section. Skips when
# node cannot find the validator (`npm ci` at the top installs it) or when
# there is no synth script.

: "${top_srcdir:=.}" "${RSXMESH:=./rsxmesh}"

. "$top_srcdir/t/tap.sh"

command -v node >/dev/null 2>&1 || skip_all "no node on PATH"
# found as t/gltf-validate.js's require finds it: node_modules in t/ or any
# folder above it (distcheck's tree lies inside the source tree)
if ! (cd "$top_srcdir/t" &&
  node -e 'require.resolve("gltf-validator")') >/dev/null 2>&1; then
  skip_all "node cannot find gltf-validator from $top_srcdir/t: run \
'npm ci' at the top of the source tree"
fi
"$RSXMESH" --list 2>/dev/null | grep -q '^synth ' ||
  skip_all "no synth script yet"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC2086 # TEST_WRAPPER is a command and its options
$TEST_WRAPPER "$RSXMESH" synth -o "$tmp/sample" >"$tmp/synth.log" 2>&1
ok $? "rsxmesh synth makes the default sample"
# shellcheck disable=SC2086
$TEST_WRAPPER "$RSXMESH" gltf-export "$tmp/sample" -o "$tmp/gltf" \
  2>"$tmp/gltf.log"
ok $? "gltf-export of the sample: exit status 0"
sed 's/^/# /' "$tmp/gltf.log"
# shellcheck disable=SC2086
$TEST_WRAPPER "$RSXMESH" gltf-export "$tmp/sample" -o "$tmp/glb" --glb \
  2>"$tmp/glb.log"
ok $? "gltf-export --glb of the sample: exit status 0"

find "$tmp/gltf" -name '*.gltf' | sort >"$tmp/files"
find "$tmp/glb" -name '*.glb' | sort >>"$tmp/files"
count=$(grep -c . "$tmp/files")
test "$count" -gt 0
ok $? "the export wrote files ($count)"

# shellcheck disable=SC2046 # one argument per file; the paths are ours
node "$top_srcdir/t/gltf-validate.js" $(cat "$tmp/files") \
  >"$tmp/report" 2>&1
status=$?
test $status -le 1
ok $? "the validator ran over every file (status $status)"

errors=$(sed -n 's/^.*: \([0-9]*\) errors, .*$/\1/p' "$tmp/report" |
  awk '{ s += $1 } END { print s + 0 }')
test "$errors" = 0
ok $? "no validator error in any file ($errors)"
grep '^  error ' "$tmp/report" | sort | uniq -c | head -20 | sed 's/^/# /'

# the warning codes the validator printed, each listed in the doc section
sed -n '/^## gltf-export/,/^## /p' "$top_srcdir/doc/scripts.md" \
  >"$tmp/section"
for code in $(sed -n 's/^  warning \([A-Z_]*\) .*$/\1/p' "$tmp/report" |
  sort -u); do
  grep -q "\`$code\`" "$tmp/section"
  ok $? "warning $code is listed with its reason in doc/scripts.md"
done
grep '^  warning ' "$tmp/report" | sort | uniq -c | head -20 | sed 's/^/# /'

done_testing
