-- rsxmesh/output.lua - output files written whole or not at all
--
--   local output = require "rsxmesh.output"
--   local ok, err = output.write("out/A.obj", function(f)
--     return f:write(text) -- the file, or nil and a message; may raise
--   end)
--   ok, err = output.copy("in/tex/brick.png", "out/tex/brick.png")
--
-- A file is written under a temporary name beside it (NAME.part-XXXXXX,
-- six hex digits, the one rule the core's files follow too: src/save.c;
-- the same folder, so that the rename cannot cross file systems) and
-- renamed to NAME only once it is written and closed. An interrupt, a full
-- disk or any other error leaves no file of that name half-written, and no
-- temporary behind; an error raised while writing (an interrupt) is raised
-- again after the cleanup. Messages name the file and the system's reason:
-- "out/A.obj: No space left on device".

local lfs = require "lfs"
local rsxmesh = require "rsxmesh"
local path = require "rsxmesh.path"

local output = {}

-- "file: reason" from a message of io's, which may name the temporary.
local function reason(file, tmp, err)
  err = tostring(err)
  if tmp and err:sub(1, #tmp + 2) == tmp .. ": " then
    err = err:sub(#tmp + 3)
  end
  if err:sub(1, #file + 2) == file .. ": " then return err end
  return file .. ": " .. err
end

-- A temporary name beside file: a random suffix, so that two processes
-- writing the same file (workers copying one texture) never share one.
function output.temporary(file)
  return string.format("%s.part-%06x", file, math.random(0, 0xFFFFFF))
end

-- Open a temporary file for file (named tmp, by default a new
-- output.temporary: a caller that must clean up after an interrupt at any
-- instruction names it, and keeps the name, before it opens): the handle
-- and its name, or nil and a message naming file. Pair with
-- output.commit or output.abandon. A file written from the start ("wb",
-- the default) has a large buffer (rsxmesh.create): long texts are
-- written in few system calls.
local function open(tmp, mode)
  if mode == "wb" then return rsxmesh.create(tmp) end
  return io.open(tmp, mode)
end

function output.open(file, mode, tmp)
  tmp = tmp or output.temporary(file)
  local f, err = open(tmp, mode or "wb")
  if not f then return nil, reason(file, tmp, err) end
  return f, tmp
end

-- Close f, its temporary tmp written whole (the last buffered bytes may
-- fail here). true, or nil and a message naming file (tmp removed).
function output.close(f, tmp, file)
  local closed, cerr = f:close()
  if not closed then
    os.remove(tmp)
    return nil, reason(file, tmp, cerr)
  end
  return true
end

-- Put the closed temporary tmp in place as file. true, or nil and a
-- message naming file (tmp removed).
function output.rename(tmp, file)
  local renamed, rerr = os.rename(tmp, file)
  if not renamed then
    os.remove(tmp)
    return nil, reason(file, tmp, rerr)
  end
  return true
end

-- Close f and rename its temporary tmp to file. true, or nil and a
-- message naming file (the temporary is removed).
function output.commit(f, tmp, file)
  local ok, err = output.close(f, tmp, file)
  if not ok then return nil, err end
  return output.rename(tmp, file)
end

-- Close f (if open) and remove its temporary: nothing is left.
function output.abandon(f, tmp)
  if f and io.type(f) == "file" then f:close() end
  if tmp then os.remove(tmp) end
end

-- Write file with fn(f), which returns a true value, or nil and a
-- message; it may raise, and the error is raised again once the temporary
-- is gone. true, or nil and a message naming file.
function output.write(file, fn)
  -- everything from the open to the rename under one pcall, the
  -- temporary's name known before: an interrupt at any instruction
  -- between still leaves nothing behind
  local tmp, f = output.temporary(file), nil
  local ok, res, err = pcall(function()
    local g, oerr = open(tmp, "wb")
    f = g
    if not g then return nil, oerr end
    local r, e = fn(g)
    if not r then return nil, e or "write failed" end
    local closed, cerr = g:close()
    if not closed then return nil, cerr end
    local renamed, rerr = os.rename(tmp, file)
    if not renamed then return nil, rerr end
    return true
  end)
  if ok and res then return true end
  output.abandon(f, tmp)
  if not ok then error(res, 0) end
  return nil, reason(file, tmp, err)
end

-- Copy the file src to dest, a chunk at a time. true, or nil and a message
-- naming the file that failed.
local CHUNK = 1 << 20

function output.copy(src, dest)
  -- only a regular file: a texture path naming /dev/zero filled the disk,
  -- and a FIFO would hang the open
  local mode = lfs.attributes(src, "mode")
  if mode and mode ~= "file" then
    return nil, src .. ": " .. (mode == "directory" and "Is a directory"
      or "not a regular file")
  end
  local from, err = io.open(src, "rb")
  if not from then return nil, reason(src, nil, err) end
  local ok, werr = output.write(dest, function(f)
    while true do
      local bytes, rerr = from:read(CHUNK)
      if not bytes then
        if rerr then error(reason(src, nil, rerr), 0) end
        return true
      end
      local written, e = f:write(bytes)
      if not written then return nil, e end
    end
  end)
  from:close()
  return ok, werr
end

-- Where a copy of texture (a path as a material names it, relative to its
-- bundle's folder) goes, relative to the folder of an output: the same
-- relative path, "." parts dropped; a path that is absolute or climbs out
-- with ".." goes to textures/ under its base name instead.
function output.texture_path(texture)
  local parts = {}
  local absolute = texture:sub(1, 1) == "/"
  for part in texture:gsub("\\", "/"):gmatch("[^/]+") do
    if part == ".." then
      absolute = true -- it leaves the folder: keep only its name
    elseif part ~= "." then
      parts[#parts + 1] = part
    end
  end
  if absolute or #parts == 0 then
    return path.join("textures", path.basename(texture:gsub("\\", "/")))
  end
  return table.concat(parts, "/")
end

return output
