#!/bin/sh
# win64/names.sh - TAP: in a folder whose name has spaces and non-ASCII
# letters, the file functions a script reaches through Lua and
# LuaFileSystem work on rsxmesh.exe (under wine): LuaFileSystem's Windows
# build calls the ANSI API (CreateFileA, _utime, _findfirst ...), which
# src/win32.h sends to the wide one; io.popen and os.execute take UTF-8.
# Run by make check-win64 (WIN64_STAGE: the zip's folder).
. "$top_srcdir/win64/lib.sh"
dir="$tmp/dossier été"
mkdir "$dir" || exit 99

# The checks, in Lua; the folder as Windows names it (Z: is /)
cat >"$tmp/names.lua" <<'LUA'
local lfs = require "lfs"
local n, failed = 0, 0
local function ok(pass, name, got)
  n = n + 1
  print((pass and "ok " or "not ok ") .. n .. " - " .. name)
  if not pass then
    failed = failed + 1
    print("#   got: " .. tostring(got))
  end
end
local top = arg[1]
-- (λ is in no ANSI code page of the Latin ones: only the wide API has it)
local sub = top .. "\\sous-dossier ñ λ"
local file = sub .. "\\fichier à.txt"
ok(lfs.mkdir(sub), "lfs.mkdir")
local f = io.open(file, "wb")
ok(f and f:write("abc\r\n") and f:close(), "io.open, write")
ok(lfs.attributes(file, "size") == 5, "lfs.attributes",
  lfs.attributes(file, "size"))
ok(lfs.symlinkattributes(file, "size") == 5, "lfs.symlinkattributes",
  lfs.symlinkattributes(file, "size"))
local names = {}
for name in lfs.dir(sub) do names[#names + 1] = name end
table.sort(names)
ok(table.concat(names, "|") == ".|..|fichier à.txt", "lfs.dir",
  table.concat(names, "|"))
ok(lfs.touch(file, 1000000000, 1000000000) and
  lfs.attributes(file, "modification") == 1000000000, "lfs.touch",
  lfs.attributes(file, "modification"))
local lock, why = lfs.lock_dir(sub)
ok(lock, "lfs.lock_dir", why)
if lock then lock:free() end
ok(lfs.chdir(sub) and lfs.currentdir() == sub, "lfs.chdir, lfs.currentdir",
  lfs.currentdir())
lfs.chdir(top)
local p = io.popen('type "' .. file .. '"')
local text = p and p:read("a")
if p then p:close() end
ok(text == "abc\r\n", "io.popen: a UTF-8 command, the pipe binary", text)
local _, how, code = os.execute('if exist "' .. file .. '" exit 7')
ok(how == "exit" and code == 7, "os.execute: a UTF-8 command", code)
ok(os.rename(file, sub .. "\\renommé.txt"), "os.rename")
ok(os.remove(sub .. "\\renommé.txt") and lfs.rmdir(sub),
  "os.remove, lfs.rmdir")
print("1.." .. n)
os.exit(failed == 0)
LUA
$WINE "$WIN64_EXE" "$tmp/names.lua" "Z:$(printf '%s\n' "$dir" | tr / '\\')"
