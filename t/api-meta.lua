-- api-meta.lua - the LuaLS annotations (lua/types/rsxmesh.lua) in step
-- with the module and with doc/lua-api.md: every function of the module,
-- every method and property of every type is annotated, nothing annotated
-- is missing from the module, and every annotated function and method is
-- in the manual. The module's names are walked from the module table and
-- the metatables, so that a function added later must be annotated too.
local t = require "tap"
local rsxmesh = require "rsxmesh"

local srcdir = os.getenv("top_srcdir") or "."
local meta = assert(io.open(srcdir .. "/lua/types/rsxmesh.lua")):read("a")
local doc = assert(io.open(srcdir .. "/doc/lua-api.md")):read("a")

t.like(meta, "^%-%-%-@meta rsxmesh\n", "the file is a ---@meta file")

local function sorted(set)
  local list = {}
  for k in pairs(set) do list[#list + 1] = k end
  table.sort(list)
  return list
end

-- the annotations: functions of the module, methods and fields by class
local a_funcs, a_fields, a_methods, a_members = {}, {}, {}, {}
local class
for line in meta:gmatch("[^\n]+") do
  local c = line:match("^%-%-%-@class ([%w%.]+)")
  if c then
    class = c:match("^rsxmesh%.(%a+)$") or "module"
    a_members[class] = a_members[class] or {}
  end
  local field = line:match("^%-%-%-@field ([%w_]+)")
  if field then
    if class == "module" then a_fields[field] = true
    else a_members[class][field] = true end
  end
  local f = line:match("^function rsxmesh%.([%w_]+)%(")
  if f then a_funcs[f] = true end
  local ty, m = line:match("^function (%a+):([%w_]+)%(")
  if ty then
    a_methods[ty] = a_methods[ty] or {}
    a_methods[ty][m] = true
  end
end

-- the module: its functions and other fields
local r_funcs, r_fields = {}, {}
for k, v in pairs(rsxmesh) do
  if type(v) == "function" then r_funcs[k] = true else r_fields[k] = true end
end
t.is_deeply(sorted(a_funcs), sorted(r_funcs),
  "every function of the module is annotated, and no other")
t.is_deeply(sorted(a_fields), sorted(r_fields),
  "every other field of the module is a @field of class rsxmesh")

-- the types: methods from __index (a table, or the function's first
-- upvalue), properties from its second upvalue where it has one
local types = {}
for tname, mt in pairs(debug.getregistry()) do
  local ty = type(tname) == "string" and tname:match("^rsxmesh%.(%a+)$")
  local index = ty and type(mt) == "table" and mt.__index
  if index then
    local methods = type(index) == "table" and index
      or select(2, debug.getupvalue(index, 1))
    local members = type(index) == "function"
      and select(2, debug.getupvalue(index, 2)) or nil
    types[ty] = { methods = methods, members = type(members) == "table"
      and members or nil }
  end
end
local classes = {}
for c in pairs(a_members) do
  if c ~= "module" then classes[c] = true end
end
t.is_deeply(sorted(classes), sorted(types),
  "a class for every type of the module, and no other")
for _, ty in ipairs(sorted(types)) do
  local r = types[ty]
  local methods = {}
  for name in pairs(r.methods) do methods[name] = true end
  t.is_deeply(sorted(a_methods[ty] or {}), sorted(methods),
    ty .. ": every method annotated, and no other")
  if r.members then
    local members = {}
    for name in pairs(r.members) do members[name] = true end
    t.is_deeply(sorted(a_members[ty] or {}), sorted(members),
      ty .. ": every property a @field, and no other")
  end
end

-- the manual names each: rsxmesh.NAME, and a method as its tables write
-- it (b:meshes, acc:get, ...)
local PREFIX = { bundle = "b", mesh = "m", submesh = "s", material = "mat",
  format = "f", accessor = "acc", record = "rec", writer = "w",
  image = "img", pool = "p" }
local missing = {}
for _, f in ipairs(sorted(a_funcs)) do
  if not doc:find("rsxmesh." .. f, 1, true) then
    missing[#missing + 1] = "rsxmesh." .. f
  end
end
for _, ty in ipairs(sorted(a_methods)) do
  for _, m in ipairs(sorted(a_methods[ty])) do
    local name = (PREFIX[ty] or ty) .. ":" .. m
    if not doc:find("`" .. name, 1, true) then missing[#missing + 1] = name end
  end
end
t.is_deeply(missing, {}, "doc/lua-api.md names every annotated function "
  .. "and method")

t.done_testing()
