-- t/path-windows.lua - rsxmesh.path's Windows rules ('\' separates too, a
-- drive letter is a root, paths made use '/'), checked on any system: the
-- helper is loaded as Windows' Lua would load it (package.config starting
-- with '\'), with the current folder D:\work. Values worked out by hand.

local t = require "tap"
local lfs = require "lfs"

local config, currentdir = package.config, lfs.currentdir
package.config = "\\" .. config:sub(2)
lfs.currentdir = function() return "D:\\work" end
package.loaded["rsxmesh.path"] = nil
local path = require "rsxmesh.path"

t.is(path.join("out\\", "a.obj"), "out/a.obj", "join: a trailing '\\'")
t.is(path.join("C:\\out", "a.obj"), "C:\\out/a.obj", "join: the folder as given")

t.is_deeply({ path.dirname("sample\\CHARLIE.rsxb"), path.dirname("a\\b\\"),
  path.dirname("C:\\x.rsxb"), path.dirname("C:x.rsxb"), path.dirname("\\x"),
  path.dirname("C:\\"), path.dirname("x.rsxb") },
  { "sample", "a", "C:/", "C:", "/", "C:/", "." },
  "dirname: '\\', a drive's root, a drive's current folder")
t.is_deeply({ path.basename("sample\\CHARLIE.rsxb"), path.basename("a/b\\c\\"),
  path.basename("C:\\"), path.basename("C:x.rsxb") },
  { "CHARLIE.rsxb", "c", "C:/", "x.rsxb" }, "basename: '\\' and drives")

t.is(path.absolute("x\\..\\y.obj"), "D:/work/y.obj",
  "absolute: relative to the current folder, '/' made")
t.is(path.absolute("\\t\\a.png"), "D:/t/a.png",
  "absolute: the current drive's root")
t.is(path.absolute("c:/A/./b\\..\\c"), "c:/A/c", "absolute: another drive")
t.is(path.absolute("C:foo"), "C:/foo",
  "absolute: another drive's current folder, unknown here, is its root")

t.is(path.relative("D:\\disc\\tex\\a.png", "D:/disc/out"), "../tex/a.png",
  "relative: '/' between the parts, whatever was given")
t.is(path.relative("d:/disc/a.png", "D:\\disc\\out"), "../a.png",
  "relative: drive letters of either case")
t.is(path.relative("E:\\tex\\a.png", "out"), "E:/tex/a.png",
  "relative: on another drive, the absolute path")
t.is(path.relative("tex\\a.png", "out"), "../tex/a.png",
  "relative: both relative to the current folder")

package.config, lfs.currentdir = config, currentdir
package.loaded["rsxmesh.path"] = nil
t.done_testing()
