-- api-doc.lua - runs the examples of doc/lua-api.md and compares what
-- they print with their "-->" comments, so the manual cannot drift from
-- the module. The bundle CHARLIE.rsxb of the examples is the fixture of
-- t/api-fixture.lua, written to a temporary folder.
local t = require "tap"
local rsxmesh = require "rsxmesh"
local fx = require "api-fixture"

local srcdir = os.getenv("top_srcdir") or "."
local doc = assert(io.open(srcdir .. "/doc/lua-api.md")):read("a")

local dir = os.tmpname()
os.remove(dir)
assert(os.execute("mkdir '" .. dir .. "'"))
local charlie = dir .. "/CHARLIE.rsxb"
assert(fx.writer():save(charlie))

-- Each ```lua block; "```lua no-test" blocks are shown, not run.
local blocks = {}
for tag, code in doc:gmatch("```lua([^\n]*)\n(.-)```") do
  if tag == "" then blocks[#blocks + 1] = code end
end
t.ok(#blocks >= 10, "the manual has examples: " .. #blocks)

local function normal(s)
  s = s:gsub("example:%d+: ", "")   -- where an error was raised
  s = s:gsub("[ \t]+", " "):gsub("^ ", ""):gsub(" $", "")
  return s
end

for n, code in ipairs(blocks) do
  local want = {}
  for line in code:gmatch("[^\n]+") do
    local out = line:match("%-%->%s?(.*)$")
    if out then want[#want + 1] = normal(out) end
  end
  local got = {}
  local function emit(s)
    got[#got + 1] = s
  end
  local env = setmetatable({
    rsxmesh = rsxmesh,
    print = function(...)
      local parts = table.pack(...)
      for i = 1, parts.n do parts[i] = tostring(parts[i]) end
      emit(table.concat(parts, "\t", 1, parts.n) .. "\n")
    end,
    io = setmetatable({ write = function(...)
      for _, s in ipairs{ ... } do emit(tostring(s)) end
    end }, { __index = io }),
  }, { __index = _G })
  local chunk = assert(load(code:gsub("CHARLIE%.rsxb", charlie),
                            "=example", "t", env))
  local okrun, err = pcall(chunk)
  local lines = {}
  for line in (table.concat(got)):gmatch("([^\n]*)\n?") do
    if line ~= "" then lines[#lines + 1] = normal(line) end
  end
  local first = code:match("[^\n]+")
  t.ok(okrun, string.format("example %d runs (%s)", n, first))
  if not okrun then t.diag(err) end
  t.is_deeply(lines, want, string.format("example %d prints its -->", n))
end

os.remove(charlie)
os.remove(dir)
t.done_testing()
