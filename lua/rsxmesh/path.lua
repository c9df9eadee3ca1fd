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

-- name inside dir; dir "" or "." adds nothing.
function path.join(dir, name)
  if dir == "" or dir == "." then return name end
  return (dir:gsub("/+$", "")) .. "/" .. name
end

-- The folder part of a path ("." when it has none), as POSIX dirname:
-- "/x" is in "/" (it was "", so that a new folder "-o /out" could not be
-- made), and a trailing slash names no part ("a/b/" is in "a").
function path.dirname(p)
  local root = p:sub(1, 1) == "/" and "/" or "."
  p = p:gsub("/+$", "")
  local dir = p:match("^(.*)/[^/]*$")
  if not dir then return p == "" and root or "." end
  dir = dir:gsub("/+$", "")
  return dir == "" and "/" or dir
end

-- The last part of a path ("a/b/" is "b"; "/" is "/").
function path.basename(p)
  return p:match("([^/]+)/*$") or (p:find("^/") and "/" or p)
end

-- An absolute path with "." and ".." resolved (without following links).
function path.absolute(p)
  if p:sub(1, 1) ~= "/" then p = path.join(lfs.currentdir(), p) end
  local parts = {}
  for part in p:gmatch("[^/]+") do
    if part == ".." then
      parts[#parts] = nil
    elseif part ~= "." then
      parts[#parts + 1] = part
    end
  end
  return "/" .. table.concat(parts, "/")
end

-- p as seen from folder dir: ("tex/a.png" seen from "out" when both are
-- relative to the same place is "../tex/a.png").
function path.relative(p, dir)
  local pp, d = {}, {}
  for part in path.absolute(p):gmatch("[^/]+") do pp[#pp + 1] = part end
  for part in path.absolute(dir):gmatch("[^/]+") do d[#d + 1] = part end
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
  if parent ~= dir and parent ~= "." and parent ~= "/" then
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
