-- tap.lua - a small TAP producer for the Lua tests (read by automake's
-- tap-driver). Usage:
--
--   local t = require "tap"
--   t.is(1 + 1, 2, "sum")
--   t.error_like(function() error("boom") end, "boom", "raises")
--   t.done_testing()
--
-- Every check prints "ok N - name" or "not ok N - name", with "# " lines
-- saying what was got and expected on failure, and returns true or false.
-- Patterns (like, error_like) are Lua patterns: escape magic characters
-- such as "-" with "%-".
local M = {}

local count, failed, planned = 0, 0, nil

local function describe(v)
  if type(v) == "string" then return string.format("%q", v) end
  if math.type(v) == "float" then
    if v ~= v then return "nan" end
    return string.format("%.17g (float)", v)
  end
  return tostring(v)
end

-- Print a diagnostic: each line prefixed with "# ".
function M.diag(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  local msg = table.concat(parts, " ")
  for line in (msg .. "\n"):gmatch("(.-)\n") do
    io.stdout:write("# ", line, "\n")
  end
end

-- Announce the number of checks up front (optional: done_testing prints
-- the plan when none was given).
function M.plan(n)
  assert(math.type(n) == "integer" and n >= 0, "plan: a count")
  assert(planned == nil, "plan: given twice")
  planned = n
  io.stdout:write("1..", n, "\n")
end

function M.ok(cond, name)
  count = count + 1
  local line = (cond and "ok " or "not ok ") .. count
  if name and name ~= "" then line = line .. " - " .. name end
  io.stdout:write(line, "\n")
  if not cond then
    failed = failed + 1
    -- the first caller outside this file is the test's line
    local level, me = 2, debug.getinfo(1, "S").source
    local info = debug.getinfo(level, "Sl")
    while info and info.source == me do
      level = level + 1
      info = debug.getinfo(level, "Sl")
    end
    if info then
      M.diag(string.format("  Failed test at %s:%d", info.short_src,
                           info.currentline or 0))
    end
  end
  return cond and true or false
end

local ok = M.ok

-- got == expected (same type and value: 1 and 1.0 are equal, as in Lua;
-- NaN equals NaN here so that a decoded NaN can be asserted).
function M.is(got, expected, name)
  local same = got == expected or (got ~= got and expected ~= expected)
  local r = ok(same, name)
  if not r then
    M.diag("       got: " .. describe(got))
    M.diag("  expected: " .. describe(expected))
  end
  return r
end

function M.isnt(got, unexpected, name)
  local r = ok(got ~= unexpected, name)
  if not r then M.diag("  got the unexpected " .. describe(got)) end
  return r
end

-- The first difference between two values, tables compared key by key.
local function deep_diff(a, b, path)
  if type(a) ~= "table" or type(b) ~= "table" then
    if a == b or (a ~= a and b ~= b) then return nil end
    return path, a, b
  end
  for k, v in pairs(b) do
    local p, x, y = deep_diff(a[k], v, path .. "[" .. describe(k) .. "]")
    if p then return p, x, y end
  end
  for k, v in pairs(a) do
    if b[k] == nil then
      return path .. "[" .. describe(k) .. "]", v, nil
    end
  end
  return nil
end

-- Tables equal key by key, recursively.
function M.is_deeply(got, expected, name)
  local path, x, y = deep_diff(got, expected, "")
  local r = ok(path == nil, name)
  if not r then
    M.diag("  at" .. (path == "" and " the top" or " " .. path))
    M.diag("       got: " .. describe(x))
    M.diag("  expected: " .. describe(y))
  end
  return r
end

-- A string matching a Lua pattern.
function M.like(got, pattern, name)
  local r = ok(type(got) == "string" and got:find(pattern) ~= nil, name)
  if not r then
    M.diag("       got: " .. describe(got))
    M.diag("  expected: a string matching " .. describe(pattern))
  end
  return r
end

-- fn(...) raises an error whose message matches a Lua pattern.
function M.error_like(fn, pattern, name, ...)
  local success, err = pcall(fn, ...)
  local msg = tostring(err)
  local r = ok(not success and msg:find(pattern) ~= nil, name)
  if not r then
    if success then
      M.diag("  no error was raised")
    else
      M.diag("     error: " .. describe(msg))
    end
    M.diag("  expected: an error matching " .. describe(pattern))
  end
  return r
end

-- Count n checks as skipped, with a reason.
function M.skip(n, why)
  for _ = 1, n do
    count = count + 1
    io.stdout:write("ok ", count, " # SKIP ", why or "", "\n")
  end
end

-- Print the plan when none was given, and exit: status 0 when every check
-- passed and the plan (if any) was met, 1 otherwise. The state is closed,
-- so finalizers run (valgrind sees a clean exit).
function M.done_testing()
  if planned == nil then
    io.stdout:write("1..", count, "\n")
  elseif planned ~= count then
    M.diag(string.format("planned %d checks, ran %d", planned, count))
    failed = failed + 1
  end
  io.stdout:flush()
  os.exit(failed == 0, true)
end

return M
