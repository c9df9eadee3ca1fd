#!/bin/sh
# t/host-lua-stock.sh - t/host-lua.sh against the stock interpreter
# (LUA_INTERP, Debian's lua5.4): its checks hold for lua itself, so they
# assert lua's behaviour, not the host's.
if [ -z "${LUA_INTERP:-}" ] || ! command -v "$LUA_INTERP" >/dev/null; then
  echo "1..0 # SKIP no stock lua interpreter (LUA_INTERP)"
  exit 0
fi
RSXMESH=$(command -v "$LUA_INTERP")
export RSXMESH
. "$top_srcdir/t/host-lua.sh"
