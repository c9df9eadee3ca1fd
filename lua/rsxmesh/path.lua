-- rsxmesh/path.lua - path arithmetic on "/" paths, and making folders
--
--   local path = require "rsxmesh.path"
--   path.join("out", "CHARLIE.obj")          --> "out/CHARLIE.obj"
--   path.relative("tex/a.png", "out")        --> "../tex/a.png"
--   assert(path.mkdirs("out/levels"))
--
-- Pure string work but for absolute (the current folder) and mkdirs.

local lfs = require "lfs"

local path = {}

-- On Windows '\\' separates too, and a path may start with a drive
-- ("C:"): paths given that way are taken as they are, and the paths
-- made here (written into OBJ, MTL and glTF files) use '/'.
local windows = package.config:sub(1, 1) == "\\"
local SEP = windows and "[/\\]" or "/"      -- a separator
local PART = windows and "[^/\\]+" or "[^/]+" -- a name between them

-- The root p starts with ("/", "C:/", "C:" or ""), and the rest after
-- it without its leading separators.
local function root(p)
  if windows then
    local drive, rest = p:match("^(%a:)(.*)$")
    if drive then
      if rest:find("^" .. SEP) then
        return drive .. "/", (rest:gsub("^" .. SEP .. "+", ""))
      end
      return drive, rest
    end
  end
  if p:find("^" .. SEP) then return "/", (p:gsub("^" .. SEP .. "+", "")) end
  return "", p
end

-- name inside dir; dir "" or "." adds nothing.
function path.join(dir, name)
  if dir == "" or dir == "." then return name end
  return (dir:gsub(SEP .. "+$", "")) .. "/" .. name
end

-- The folder part of a path ("." when it has none), as POSIX dirname:
-- "/x" is in "/" (it was "", so that a new folder "-o /out" could not be
-- made), and a trailing slash names no part ("a/b/" is in "a").
function path.dirname(p)
  local top, rest = root(p)
  rest = rest:gsub(SEP .. "+$", "")
  local dir = rest:match("^(.*)" .. SEP)
  if dir then dir = dir:gsub(SEP .. "+$", "") end
  if not dir or dir == "" then return top ~= "" and top or "." end
  return top .. dir
end

-- The last part of a path ("a/b/" is "b"; "/" is "/").
function path.basename(p)
  local top, rest = root(p)
  return rest:match("(" .. PART .. ")" .. SEP .. "*$")
    or (top ~= "" and top or p)
end

-- An absolute path with "." and ".." resolved (without following links).
-- On Windows, with its drive and '/' separators ("C:/out/a.obj").
function path.absolute(p)
  local top, rest = root(p)
  if top == "" or (windows and top:sub(-1) ~= "/") then
    -- relative, or (Windows) relative to a drive's current folder, which
    -- is lfs.currentdir()'s when it is that drive
    local cwd = lfs.currentdir()
    local ctop, crest = root(cwd)
    if top ~= "" and ctop:sub(1, 2):upper() ~= top:upper() then
      ctop, crest = top .. "/", ""
    end
    top, rest = ctop, crest .. "/" .. rest
  elseif windows and top == "/" then
    top = root(lfs.currentdir()):sub(1, 2) .. "/" -- the current drive's
  end
  local parts = {}
  for part in rest:gmatch(PART) do
    if part == ".." then
      parts[#parts] = nil
    elseif part ~= "." then
      parts[#parts + 1] = part
    end
  end
  return top .. table.concat(parts, "/")
end

-- p as seen from folder dir: ("tex/a.png" seen from "out" when both are
-- relative to the same place is "../tex/a.png"). On Windows, p on another
-- drive than dir is its absolute path.
function path.relative(p, dir)
  local ap, ad = path.absolute(p), path.absolute(dir)
  local ptop, prest = root(ap)
  local dtop, drest = root(ad)
  if ptop:upper() ~= dtop:upper() then return ap end
  local pp, d = {}, {}
  for part in prest:gmatch(PART) do pp[#pp + 1] = part end
  for part in drest:gmatch(PART) do d[#d + 1] = part end
  local common = 0
  while common < #d and common < #pp - 1 and pp[common + 1] == d[common + 1]
  do
    common = common + 1
  end
  local out = {}
  for _ = common + 1, #d do out[#out + 1] = ".." end
  for k = common + 1, #pp do out[#out + 1] = pp[k] end
  return table.concat(out, "/")
end

-- Create dir and its missing parents; true or nil, message.
function path.mkdirs(dir)
  local mode = lfs.attributes(dir, "mode")
  if mode == "directory" then return true end
  if mode then return nil, dir .. ": exists and is not a folder" end
  local parent = path.dirname(dir)
  if parent ~= dir and parent ~= "." and parent ~= "/" and
     not parent:find("^%a:/?$") then
    local ok, err = path.mkdirs(parent)
    if not ok then return nil, err end
  end
  local ok, err = lfs.mkdir(dir)
  if not ok and lfs.attributes(dir, "mode") ~= "directory" then
    return nil, dir .. ": " .. tostring(err)
  end
  return true
end

return path
