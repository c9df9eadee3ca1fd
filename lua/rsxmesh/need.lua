-- need.lua - a module that another package provides, or an error that
-- names that package
--
--   local lfs = require "rsxmesh.need" ("lfs", "LuaFileSystem",
--     "lua-filesystem", "rsxmesh")
--
-- configure checks for these packages, but a run without them (another
-- LUA_CPATH, a stock lua5.4) should say what to install, not where
-- require looked. who (may be nil) starts the message. The error is an
-- object whose __tostring is that one
-- line ("rsxmesh: LuaFileSystem is missing (Debian: apt-get install
-- lua-filesystem)"), so that the host, as lua.c does, prints it without
-- a traceback; a program that requires a module of rsxmesh can catch it
-- (never an os.exit from a library). A module that is there but fails to
-- load still raises its own error.

local Missing = {
  __tostring = function(e) return e.message end,
}

return function(module, what, package, who)
  local found, value = pcall(require, module)
  if found then return value end
  if not tostring(value):find("module '" .. module .. "' not found", 1,
      true) then
    error(value, 0)
  end
  error(setmetatable({ message = string.format(
    "%s%s is missing (Debian: apt-get install %s)", who and who .. ": " or "",
    what, package), module = module, package = package }, Missing), 0)
end
