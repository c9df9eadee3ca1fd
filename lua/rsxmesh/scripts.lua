-- scripts.lua - the standard scripts on a path of ? templates (rsxmesh --list)
--
--   local scripts = require "rsxmesh.scripts"
--   for _, s in ipairs(scripts.find_all("/usr/share/rsxmesh/scripts/?.lua"))
--   do print(s.name, s.file, scripts.describe(s.file)) end
--
-- A path is package.path's form: templates separated by ";", each with a
-- "?" in its file name; the host finds a script by name with
-- package.searchpath over the same path, so --list shows what runs.

local lfs = require "lfs"

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

-- The scripts a template can name, as { name =, file = }.
local function template_scripts(template, out, seen)
  local dir, before, after = template:match("^(.-)([^/]*)%?([^/?]*)$")
  if not dir or dir:find("?", 1, true) then return end
  local ok, iter, state = pcall(lfs.dir, dir == "" and "." or dir)
  if not ok then return end
  for entry in iter, state do
    local name = #entry > #before + #after and entry:sub(1, 1) ~= "."
      and entry:sub(1, #before) == before
      and entry:sub(#entry - #after + 1) == after
      and entry:sub(#before + 1, #entry - #after)
    if name and not seen[name] then
      local file = dir .. before .. name .. after
      if lfs.attributes(file, "mode") == "file" then
        seen[name] = true
        out[#out + 1] = { name = name, file = file }
      end
    end
  end
end

-- Every script on path, sorted by name; a name an earlier template finds
-- hides the same name in a later one, as in package.searchpath.
function scripts.find_all(path)
  local list, seen = {}, {}
  for template in path:gmatch("[^;]+") do
    template_scripts(template, list, seen)
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
