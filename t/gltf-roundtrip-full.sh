# t/gltf-roundtrip-full.sh - t/gltf-roundtrip.sh over the whole synthetic
# disc (--scale 1): make check-full
: "${top_srcdir:=.}"
SCALE=1
. "$top_srcdir/t/gltf-roundtrip.sh"
