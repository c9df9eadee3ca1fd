-- rsxmesh/json.lua - JSON text from Lua values, indented, in a fixed order
--
--   local json = require "rsxmesh.json"
--   local before = json.key_order{ "name", "asset", "version" }
--   print(json.encode({ name = "x", list = json.EMPTY }, before))
--
-- Tables are JSON objects, or arrays when they have a [1] or are
-- json.EMPTY. Object keys come out in the order a comparator gives
-- (sorted when none is given), so that the same value always gives the
-- same bytes. Arrays of numbers stay on one line. json.NULL is null.
-- Numbers are written as the shortest text that reads back as the same
-- float32 (glTF's data), or with { doubles = true } as the same double
-- in 15, 16 or 17 digits (reports: a consumer reads the very number
-- computed). JSON has no infinity nor NaN: one raises, or with
-- { non_finite = "string" } is the string "inf", "-inf" or "nan".

local rsxmesh = require "rsxmesh"

local json = {}

json.EMPTY = setmetatable({}, { __name = "json empty array" })
json.NULL = setmetatable({}, { __name = "json null" })

-- A key order: the keys of list first, in its order, then any other key,
-- sorted. It is a table of ranks (key -> position in list), which the
-- writer reads directly, and a comparator (as table.sort takes) too.
local Order = {
  __name = "json key order",
  __call = function(rank, a, b)
    local ra, rb = rank[a] or math.huge, rank[b] or math.huge
    if ra ~= rb then return ra < rb end
    return a < b
  end,
}

function json.key_order(list)
  local rank = {}
  for i, k in ipairs(list) do rank[k] = i end
  return setmetatable(rank, Order)
end

-- A JSON string must be valid UTF-8: in a string that is not, each byte
-- is read as Latin-1, so names from any encoding survive (json.utf8 gives
-- the text a JSON string holds).
function json.utf8(s)
  if utf8.len(s) then return s end
  return (s:gsub("[\128-\255]", function(c) return utf8.char(c:byte()) end))
end

-- The JSON text of v; before orders an object's keys (json.key_order's,
-- or any comparator); opts.doubles writes numbers as doubles, not
-- float32s, and opts.non_finite = "string" infinities and NaN as
-- strings. Written in C by rsxmesh.json_text: a glTF document of a disc
-- holds hundreds of thousands of objects.
function json.encode(v, before, opts)
  return rsxmesh.json_text(v, { order = before, empty = json.EMPTY,
    null = json.NULL, doubles = opts and opts.doubles or false,
    non_finite = opts and opts.non_finite })
end

return json
