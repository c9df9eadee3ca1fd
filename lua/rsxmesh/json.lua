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
-- computed).

local rsxmesh = require "rsxmesh"

local json = {}

json.EMPTY = setmetatable({}, { __name = "json empty array" })
json.NULL = setmetatable({}, { __name = "json null" })

-- A key comparator: the keys of list first, in its order, then any other
-- key, sorted.
function json.key_order(list)
  local rank = {}
  for i, k in ipairs(list) do rank[k] = i end
  return function(a, b)
    local ra, rb = rank[a] or math.huge, rank[b] or math.huge
    if ra ~= rb then return ra < rb end
    return a < b
  end
end

-- A JSON string must be valid UTF-8: in a string that is not, each byte
-- is read as Latin-1, so names from any encoding survive (json.utf8 gives
-- the text a JSON string holds).
local ESCAPE = { ['"'] = '\\"', ["\\"] = "\\\\" }

function json.utf8(s)
  if utf8.len(s) then return s end
  return (s:gsub("[\128-\255]", function(c) return utf8.char(c:byte()) end))
end

local function encode_string(s)
  s = json.utf8(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    return ESCAPE[c] or string.format("\\u%04x", c:byte())
  end) .. '"'
end

-- The shortest of %.15g, %.16g and %.17g that reads back as x.
local function double_text(x)
  for digits = 15, 16 do
    local s = string.format("%." .. digits .. "g", x)
    if tonumber(s) == x then return s end
  end
  return string.format("%.17g", x)
end

local doubles = false -- json.encode's option, for the call in progress

-- An integer is kept as a number: table.concat writes it as "%d" would.
local function encode_number(x)
  if math.type(x) == "integer" then return x end
  assert(x == x and x ~= math.huge and x ~= -math.huge,
    "json: a JSON number must be finite")
  if doubles then return double_text(x) end
  -- the shortest text that reads back as the same float32 (rsxmesh.fmt):
  -- exact for float32 data such as glTF's min and max
  return rsxmesh.fmt(x)
end

local function is_array(t)
  return t == json.EMPTY or t[1] ~= nil
end

local function all_numbers(t)
  for _, v in ipairs(t) do
    if type(v) ~= "number" then return false end
  end
  return true
end

local encode_value

local function encode_array(v, indent, out, before)
  if v == json.EMPTY then out[#out + 1] = "[]"; return end
  if all_numbers(v) then
    local parts = {}
    for i, x in ipairs(v) do parts[i] = encode_number(x) end
    out[#out + 1] = "[" .. table.concat(parts, ", ") .. "]"
    return
  end
  local inner = indent .. "  "
  out[#out + 1] = "[\n"
  for i, x in ipairs(v) do
    out[#out + 1] = inner
    encode_value(x, inner, out, before)
    out[#out + 1] = i < #v and ",\n" or "\n"
  end
  out[#out + 1] = indent .. "]"
end

-- Documents repeat a few shapes of object many times (a glTF has an
-- accessor per attribute of every mesh): the sorted keys of each shape
-- (its keys in the order pairs gives them) and each key's text are kept,
-- up to a bound, rather than sorted and escaped again.
local SHAPES_MAX = 1024
local shapes = setmetatable({}, { __mode = "k" }) -- before -> shapes
local key_text = {}
local key_texts = 0

local function sorted_keys(v, before)
  local keys = {}
  for k in pairs(v) do
    assert(type(k) == "string", "json: a JSON object key must be a string")
    keys[#keys + 1] = k
  end
  local known = shapes[before or json]
  if not known then
    known = { count = 0, sorted = {} }
    shapes[before or json] = known
  end
  local shape = table.concat(keys, "\0")
  local sorted = known.sorted[shape]
  if sorted then return sorted end
  table.sort(keys, before)
  if known.count < SHAPES_MAX then
    known.sorted[shape] = keys
    known.count = known.count + 1
  end
  return keys
end

-- The text before a key: "{\n" or ",\n" (first or not), the indent, the
-- key and ": ", kept per indent for the keys seen most.
local function key_prefix(k, inner, first)
  local by_indent = key_text[inner]
  if not by_indent then
    by_indent = { [true] = {}, [false] = {} }
    key_text[inner] = by_indent
  end
  local text = by_indent[first][k]
  if text then return text end
  text = (first and "{\n" or ",\n") .. inner .. encode_string(k) .. ": "
  if key_texts < SHAPES_MAX then
    by_indent[first][k] = text
    key_texts = key_texts + 1
  end
  return text
end

local function encode_object(v, indent, out, before)
  local keys = sorted_keys(v, before)
  local n = #keys
  if n == 0 then out[#out + 1] = "{}"; return end
  local inner = indent .. "  "
  for i = 1, n do
    local k = keys[i]
    out[#out + 1] = key_prefix(k, inner, i == 1)
    encode_value(v[k], inner, out, before)
  end
  out[#out + 1] = "\n" .. indent .. "}"
end

encode_value = function(v, indent, out, before)
  local tv = type(v)
  if v == json.NULL then out[#out + 1] = "null"
  elseif tv == "string" then out[#out + 1] = encode_string(v)
  elseif tv == "number" then out[#out + 1] = encode_number(v)
  elseif tv == "boolean" then out[#out + 1] = tostring(v)
  elseif tv ~= "table" then error("json: cannot write a " .. tv .. " as JSON")
  elseif is_array(v) then encode_array(v, indent, out, before)
  else encode_object(v, indent, out, before)
  end
end

-- The JSON text of v; before orders an object's keys (see json.key_order);
-- opts.doubles writes numbers as doubles, not float32s.
function json.encode(v, before, opts)
  local out = {}
  doubles = opts and opts.doubles or false
  local ok, err = pcall(encode_value, v, "", out, before)
  doubles = false
  if not ok then error(err, 0) end
  return table.concat(out)
end

return json
