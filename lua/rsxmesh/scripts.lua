-- scripts.lua - the standard scripts on a path of ? templates (rsxmesh --list)
--
--   local scripts = require "rsxmesh.scripts"
--   for _, s in ipairs(scripts.find_all("/usr/share/rsxmesh/scripts/?.lua"))
--   do print(s.name, s.file, scripts.describe(s.file)) end
--
-- A path is package.path's form: templates separated by ";", each with a
-- "?" in its file name. The host finds a script by name with
-- scripts.find, and --list shows what scripts.find finds, so --list
-- shows what runs.

local interrupt = require "rsxmesh.interrupt"
-- the host uses this module before any script runs: a missing package is
-- said in a line (rsxmesh.need's error is an object, which the host would
-- not print)
local found, lfs = pcall(require "rsxmesh.need", "lfs", "LuaFileSystem",
  "lua-filesystem")
if not found then error(tostring(lfs), 0) end

local scripts = {}

-- The description of a script: its first comment line, after a #! line
-- and blank lines, less the "FILE - " of the house's header form, FILE
-- the script's file name ("-- obj-export.lua - export RSXB bundles as
-- ..."). "" when the script starts with code or cannot be read.
function scripts.describe(file)
  local f = io.open(file, "r")
  if not f then return "" end
  local text, first = "", true
  for line in f:lines() do
    if not (first and line:sub(1, 1) == "#") then
      local trimmed = line:match("^%s*(.-)%s*$")
      if trimmed ~= "" then
        text = trimmed:match("^%-%-+%s*(.*)$") or ""
        break
      end
    end
    first = false
  end
  f:close()
  local form = file:match("([^/]*)$") .. " - "
  if text:sub(1, #form) == form then text = text:sub(#form + 1) end
  return text
end

-- The file of script name on path: package.searchpath over each template
-- in turn, the first regular file it names (a folder or a device named
-- like a script is passed over: it cannot run). nil and the places tried,
-- as package.searchpath lists them, when there is none.
function scripts.find(name, path)
  local tried = {}
  for template in path:gmatch("[^;]+") do
    local file, why = package.searchpath(name, template, "")
    if file and lfs.attributes(file, "mode") == "file" then return file end
    tried[#tried + 1] = why or "'" .. file .. "' is not a regular file"
  end
  return nil, table.concat(tried, "\n\t")
end

-- The names a template can stand for: the entries of its folder that
-- fit it, of any kind (scripts.find decides which run).
local function template_names(template, names)
  local dir, before, after = template:match("^(.-)([^/]*)%?([^/?]*)$")
  if not dir or dir:find("?", 1, true) then return end
  local ok, iter, state = interrupt.pcall(lfs.dir, dir == "" and "." or dir)
  if not ok then return end
  for entry in iter, state do
    local name = #entry > #before + #after and entry:sub(1, 1) ~= "."
      and entry:sub(1, #before) == before
      and entry:sub(#entry - #after + 1) == after
      and entry:sub(#before + 1, #entry - #after)
    if name then names[name] = true end
  end
end

-- Every script on path, as { name =, file = }, sorted by name: each name
-- with the file scripts.find gives it, which the host runs.
function scripts.find_all(path)
  local names, list = {}, {}
  for template in path:gmatch("[^;]+") do
    template_names(template, names)
  end
  for name in pairs(names) do
    local file = scripts.find(name, path)
    if file then list[#list + 1] = { name = name, file = file } end
  end
  table.sort(list, function(a, b) return a.name < b.name end)
  return list
end

-- Write a line per script on path to out (io.stdout): its name, and its
-- description in a column; each line starts with indent. Returns how
-- many there are.
function scripts.list(path, indent, out)
  out, indent = out or io.stdout, indent or ""
  local list, width = scripts.find_all(path), 0
  for _, s in ipairs(list) do width = math.max(width, #s.name) end
  for _, s in ipairs(list) do
    local desc = scripts.describe(s.file)
    if desc ~= "" then
      out:write(indent, s.name, string.rep(" ", width - #s.name + 2), desc,
        "\n")
    else
      out:write(indent, s.name, "\n")
    end
  end
  out:flush()
  return #list
end

return scripts
