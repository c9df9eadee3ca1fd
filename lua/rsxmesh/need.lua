-- need.lua - a module that another package provides, or one line naming
-- that package and exit status 1
--
--   local lfs = require "rsxmesh.need" ("lfs", "LuaFileSystem",
--     "lua-filesystem", "rsxmesh")
--
-- configure checks for these packages, but a run without them (another
-- LUA_CPATH, a stock lua5.4) should say what to install, not where
-- require looked. A module that is there but fails to load still raises
-- its own error.

return function(module, what, package, who)
  local found, value = pcall(require, module)
  if found then return value end
  if not tostring(value):find("module '" .. module .. "' not found", 1,
      true) then
    error(value, 0)
  end
  io.stderr:write(who, ": ", what, " is missing (Debian: apt-get install ",
    package, ")\n")
  os.exit(1, true)
end
