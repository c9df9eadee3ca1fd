# win64/lib.sh - the start of the win64 TAP tests that run the zip's
# rsxmesh.exe under wine, sourced: WIN64_EXE (in WIN64_STAGE, the zip's
# folder, which make check-win64 sets), WINE, and a scratch folder $tmp
# removed at the end.
: "${WIN64_STAGE:?run by make check-win64}"
WIN64_EXE=$WIN64_STAGE/rsxmesh.exe
WINE=${WINE:-wine}
export WINEDEBUG=${WINEDEBUG:--all}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rsxmesh-win64.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
