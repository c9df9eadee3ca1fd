-- api-reentrancy.lua - Lua code run in the middle of a call of the binding
-- (an __index of an option table, a texture callback, a finalizer run by
-- an allocation) that closes what the call is using, and the hostile
-- numbers and sizes of issue 18: every case ends in the right result or a
-- clean error, never in a memory error (the sanitizer build and valgrind
-- run this file too). A call that has started on a bundle finishes on its
-- bytes, which the close leaves to the call's end (doc/lua-api.md,
-- "Lifetime"); the calls after the close raise "bundle is closed".
local t = require "tap"
local rsxmesh = require "rsxmesh"
local fx = require "api-fixture"

local bytes = fx.bytes()
local function open() return assert(rsxmesh.load(bytes, "fixture.rsxb")) end

-- A table whose every read first closes c (a bundle, a writer, ...), then
-- answers from fields.
local function closing(c, fields)
  return setmetatable({}, { __index = function(_, k)
    c:close()
    return fields[k]
  end })
end

-- ------------------------------------------ closed by a metamethod
do -- s:face_lines, its column's __index closes the bundle
  local want = open():mesh("crate"):submesh(1):face_lines("f", { { offset = 0 } })
  local b = open()
  local s = b:mesh("crate"):submesh(1)
  local text, n = s:face_lines("f", { closing(b, { offset = 0 }) })
  t.is(text, want, "s:face_lines: closed by a column's __index, the text")
  t.is(n, 2, "s:face_lines: and its 2 triangles")
  t.ok(b.closed, "s:face_lines: the bundle is closed after")
  t.error_like(function() return s:face_lines("f", { { offset = 0 } }) end,
               "submesh:face_lines: bundle is closed$",
               "s:face_lines: the next call raises")
end

do -- acc:lines, an option's __index closes the bundle
  local want = open():mesh("crate"):attribute("position"):lines("v",
    { scale = { 2, 2, 2 } })
  local b = open()
  local a = b:mesh("crate"):attribute("position")
  t.is(a:lines("v", closing(b, { scale = { 2, 2, 2 } })), want,
       "acc:lines: closed by an option's __index, the lines")
  t.error_like(function() return a:lines("v") end,
               "accessor%.lines: bundle is closed$",
               "acc:lines: the next call raises")
end

do -- acc:lines with opts.with, read after the __index closed the bundle:
   -- the accessor read from the options is checked, and raises
  local b = open()
  local m = b:mesh("crate")
  local a, nrm = m:attribute("position"), m:attribute("normal")
  t.error_like(function() return a:lines("v", closing(b, { with = nrm })) end,
               "accessor:lines: bundle is closed$",
               "acc:lines: opts.with of a bundle closed by the __index")
end

do -- m:with, the field table's __index closes the bundle
  local b = open()
  local m = b:mesh("crate")
  local before = m:attribute("position"):range()
  local c = m:with(closing(b, { name = "copy" }))
  t.ok(b.closed, "m:with: the bundle is closed by the table's __index")
  t.is(c.name, "copy", "m:with: the copy is made")
  t.is_deeply(c:attribute("position"):range(), before,
              "m:with: the copy has the mesh's positions")
end

do -- rsxmesh.render, the camera's __index closes the bundle
  local cam = { eye = { 0, 3, 5 }, at = { 0, 0, 0 } }
  local want = rsxmesh.render{ meshes = open():mesh("crate"), width = 16,
    height = 12, shade = "normals", camera = cam }:bytes()
  local b = open()
  local img = rsxmesh.render{ meshes = b:mesh("crate"), width = 16,
    height = 12, shade = "normals", camera = closing(b, cam) }
  t.is(img:bytes(), want, "render: closed by the camera's __index, the image")
  t.ok(b.closed, "render: the bundle is closed after")
end

do -- rsxmesh.render, the texture callback closes the bundle: the draws
   -- are made on the pinned bytes, the next draw's s.material raises
  local b = open()
  local red = rsxmesh.image(1, 1, { 255, 0, 0 })
  local calls = 0
  local ok, err = pcall(rsxmesh.render, { meshes = b, width = 8, height = 8,
    shade = "flat", texture = function()
      calls = calls + 1
      b:close()
      return red
    end })
  t.is(calls, 1, "render: the texture callback ran once")
  t.ok(not ok and err:match("submesh%.material: bundle is closed$"),
       "render: a callback that closes the bundle: a clean error (" ..
       tostring(err) .. ")")
end

do -- rsxmesh.render, the texture cache's __index closes the bundle
  local b = open()
  local ok, err = pcall(rsxmesh.render, { meshes = b:mesh("crate"),
    width = 8, height = 8, shade = "flat", textures = closing(b, {}) })
  t.ok(ok, "render: closed by the texture cache's __index, the image ("
       .. tostring(err) .. ")")
  t.ok(b.closed, "render: and the bundle is closed")
end

do -- rsxmesh.render: the list of meshes emptied and collected by the
   -- callback; the draws keep what they draw
  local b = open()
  local list = { b:mesh("crate") }
  local want = rsxmesh.render{ meshes = { open():mesh("crate") },
    width = 8, height = 8, shade = "flat",
    texture = function() return nil end }:bytes()
  local img = rsxmesh.render{ meshes = list, width = 8, height = 8,
    shade = "flat", texture = function()
      list[1] = nil
      b = nil
      collectgarbage()
      return nil
    end }
  t.is(img:bytes(), want, "render: the meshes dropped by the callback")
end

do -- writer:material and writer:mesh, the writer closed by a metamethod
  local w = rsxmesh.writer()
  t.error_like(function() return w:material("m", { closing(w, { slot = 1,
    texture = "t.png" }) }) end, "writer:material: writer is closed$",
    "w:material: closed by a sampler's __index")
  local w2 = rsxmesh.writer()
  local t2 = fx.meshes()[3]
  t.error_like(function() return w2:mesh(closing(w2, t2)) end,
    "writer:mesh: writer is closed$", "w:mesh: closed by the table's __index")
end

do -- rsxmesh.writer(base): the base closed while the writer is made
  local b = open()
  local w = rsxmesh.writer(b)
  t.ok(w:material("brick") == 1, "writer(base): seeded from an open bundle")
end

-- ------------------------------------------ closed by a finalizer
-- method(prepare(b)) on fresh bundles, with garbage whose finalizer closes
-- b when it runs inside the call, the collector set to step at every
-- allocation: every try must give the right result, or the clean error
-- of a bundle closed before the call pinned it; and some try should have
-- had the finalizer close b inside a call that then finished on the
-- pinned bytes (a skip when the collector's timing never gave it: under
-- valgrind the tries are fewer).
local TRIES = (os.getenv("TEST_WRAPPER") or "") ~= "" and 300 or 4000

local function finalized(name, prepare, method, right)
  local bad, inside_ok, errors = nil, 0, 0
  math.randomseed(18) -- the same tries on every run
  collectgarbage("incremental", 0, 1000, 0)
  local b = open()
  for _ = 1, TRIES do
    if b.closed then b = open() end
    local obj = prepare(b)
    local inside, hit = false, false
    -- inside from just before the call to just after it returns (nothing
    -- allocates between the return and disarm)
    local function disarm(...) inside = false return ... end
    local function call() inside = true return disarm(method(obj)) end
    -- garbage of varying sizes first, so that the collector's phase at
    -- the call differs from one try to the next
    for _ = 1, math.random(0, 40) do local _ = ("x"):rep(math.random(64)) end
    local closer = b
    for _ = 1, math.random(1, 30) do
      setmetatable({}, { __gc = function()
        if inside then hit = true closer:close() end
      end })
    end
    local r = table.pack(pcall(call))
    inside = false
    if r[1] then
      if not right(r[2], r[3]) then bad = bad or "a wrong result" end
      if hit then inside_ok = inside_ok + 1 end
    elseif tostring(r[2]):match("bundle is closed$") then
      errors = errors + 1
    else
      bad = bad or tostring(r[2])
    end
  end
  collectgarbage("incremental", 200, 100, 13)
  t.is(bad, nil, name .. ": " .. TRIES .. " tries, each the right result "
       .. "or 'bundle is closed' (" .. errors .. ")")
  if inside_ok > 0 then
    t.ok(true, name .. ": closed inside the call, finished on its bytes ("
         .. inside_ok .. " tries)")
  else
    t.skip(1, name .. ": the collector never closed it inside the call")
  end
end

local crate = open():mesh("crate")
local function same(want)
  local text = table.concat(type(want) == "table" and want or { want }, " ")
  return function(got)
    return table.concat(type(got) == "table" and got or { got }, " ") == text
  end
end
finalized("acc:range",
  function(b) return b:mesh("crate"):attribute("position") end,
  function(a) return a:range() end, same(crate:attribute("position"):range()))
finalized("m:unit_normals", function(b) return b:mesh("crate") end,
  function(m) return m:unit_normals() end, same((crate:unit_normals())))
finalized("m:attribute (the accessor's fields)",
  function(b) return b:mesh("crate") end,
  function(m) return m:attribute("normal") end,
  function(a) return a ~= nil and a.kind == "normal" end)
finalized("m:with (the copy's vertices)", function(b) return b:mesh("crate") end,
  function(m) return m:with{ position = crate:attribute("position"):range() } end,
  function(c) return c ~= nil and same(crate:attribute("position"):range())(
    c:attribute("position"):range()) end)
finalized("m:triangles", function(b) return b:mesh("crate") end,
  function(m) return m:triangles() end, same((crate:triangles())))
finalized("s:face_lines", function(b) return b:mesh("crate"):submesh(1) end,
  function(s) return s:face_lines("f", { { offset = 0 } }) end,
  same((crate:submesh(1):face_lines("f", { { offset = 0 } }))))
finalized("b:mesh by name", function(b) return b end,
  function(b) return b:mesh("strip") end,
  function(m) return m ~= nil end)
finalized("rsxmesh.writer(base)", function(b) return b end,
  function(b) return rsxmesh.writer(b) end,
  function(w) return w ~= nil and w:material("brick") == 1 end)

do -- a coroutine that dies in a call leaves its pin counted: the close
   -- after it waits, and the collector frees the bytes with the pin
  local b = open()
  local a = b:mesh("crate"):attribute("position")
  local co = coroutine.create(function()
    return a:lines("v", setmetatable({}, { __index = function()
      error("raised in the call")
    end }))
  end)
  local ok, err = coroutine.resume(co)
  t.ok(not ok and err:match("raised in the call"), "a call died in a coroutine")
  b:close()
  t.ok(b.closed, "its bundle closes")
  t.error_like(function() return a:range() end, "bundle is closed",
               "and its accessor raises")
  co, a, b = nil, nil, nil
  collectgarbage()
  collectgarbage()
  t.ok(true, "the collector freed the pinned bytes")
end

do -- a file closed by a finalizer while acc:lines writes to it: the
   -- lines written, or a clean error, never a write to a closed FILE
  local a = open():mesh("crate"):attribute("position")
  local bad
  math.randomseed(19)
  collectgarbage("incremental", 0, 1000, 0)
  for _ = 1, TRIES // 4 do
    local f = io.tmpfile()
    local inside = false
    for _ = 1, math.random(0, 40) do local _ = ("x"):rep(math.random(64)) end
    for _ = 1, math.random(1, 30) do
      setmetatable({}, { __gc = function() if inside then f:close() end end })
    end
    inside = true
    local ok, err = pcall(a.lines, a, "v", { file = f })
    inside = false
    if not ok and not tostring(err):match("the file is closed$") then
      bad = bad or tostring(err)
    end
    pcall(io.close, f)
  end
  collectgarbage("incremental", 200, 100, 13)
  t.is(bad, nil, "acc:lines into a file closed by a finalizer: a clean end")
end

-- ------------------------------------------ json_text
do -- an __index that answers every key: json_text reads tables raw
  local endless = setmetatable({}, { __index = function(_, k) return k end })
  t.is(rsxmesh.json_text(endless), "{}", "json_text: an endless table is {}")
  local arr = setmetatable({ 1, 2 }, { __index = function(_, k) return k end })
  t.is(rsxmesh.json_text(arr), "[1, 2]", "json_text: an array, as it holds")
end

do -- keys removed and collected while the object is written: the names
   -- stay whole (anchored), the values are gone, a clean error
  local doc = {}
  for i = 1, 20 do doc[("key%02d"):rep(4):format(i, i, i, i)] = i end
  local ran = 0
  local ok, err = pcall(rsxmesh.json_text, doc, { order = function(x, y)
    ran = ran + 1
    for k in pairs(doc) do doc[k] = nil end
    collectgarbage()
    return x < y
  end })
  t.ok(ran > 0, "json_text: the comparator ran")
  t.ok(not ok and err:match("cannot write a nil as JSON"),
       "json_text: keys removed by the comparator: a clean error")
end

do -- an __index met inside a value removes a later key: never called
  local doc = { a = setmetatable({}, { __index = function() error("read") end }),
                b = "x" }
  t.is(rsxmesh.json_text(doc), '{\n  "a": {},\n  "b": "x"\n}',
       "json_text: no __index runs")
end

-- ------------------------------------------ hostile numbers
t.error_like(rsxmesh.indices, "^rsxmesh%.indices: t%[1%] = "
  .. "%-9223372036854775808 gives index %-9223372036854775809, out of range "
  .. "0%.%.65535$", "indices: math.mininteger", 2, { math.mininteger })
t.error_like(rsxmesh.indices, "t%[1%] = 0 gives index 9223372036854775808,",
  "indices: base math.mininteger", 2, { 0 }, math.mininteger)
t.is(rsxmesh.indices(2, { math.mininteger + 5 }, math.mininteger),
     "\0\5", "indices: base math.mininteger, an index in range")

do -- img:paste into itself: the pixels as they were before the paste
  local img = rsxmesh.image(3, 3)
  for y = 1, 3 do for x = 1, 3 do img:set(x, y, x, y, 0) end end
  local function pixels() -- "r,g" of each pixel, row by row
    local got = {}
    for y = 1, 3 do for x = 1, 3 do
      local r, g = img:get(x, y)
      got[#got + 1] = r .. "," .. g
    end end
    return table.concat(got, " ")
  end
  img:paste(img, 2, 2)
  t.is(pixels(), "1,1 2,1 3,1 1,2 1,1 2,1 1,3 1,2 2,2",
       "img:paste(img, 2, 2): moved down and right")
  img:paste(img, 0, 0)
  -- (x, y) for x, y in 1..2 from (x + 1, y + 1) as they were; the rest kept
  t.is(pixels(), "1,1 2,1 3,1 1,2 2,2 2,1 1,3 1,2 2,2",
       "img:paste(img, 0, 0): moved up and left")
  local before = img:bytes()
  for _, xy in ipairs{ { math.maxinteger, 1 }, { 1, math.maxinteger },
                       { math.mininteger, 1 }, { 1, math.mininteger },
                       { math.mininteger, math.mininteger } } do
    img:paste(img, xy[1], xy[2])
  end
  t.is(img:bytes(), before, "img:paste at integer extremes: nothing inside")
  t.error_like(img.line, "^image:line: an end is too far from the image "
    .. "%(%-9223372036854775808%)$", "img:line at math.mininteger", img,
    math.mininteger, 1, 1, 1, 0, 0, 0)
  t.error_like(img.line, "too far", "img:line at math.maxinteger", img,
    1, 1, 1, math.maxinteger, 0, 0, 0)
end

-- image sides are checked as Lua integers, not cut to a C long (32 bits on
-- Windows: 2^32 + 4 would pass for 4)
t.error_like(rsxmesh.image, "^rsxmesh%.image: width 4294967300 out of range "
  .. "1%.%.16384$", "image: a width of 2^32 + 4", (1 << 32) + 4, 4)
t.error_like(rsxmesh.image, "^rsxmesh%.image: height %-9223372036854775808 "
  .. "out of range", "image: a height of math.mininteger", 4, math.mininteger)
t.error_like(rsxmesh.render, "^rsxmesh%.render: width 4294967297 out of "
  .. "range", "render: a width of 2^32 + 1",
  { meshes = open(), width = (1 << 32) + 1, height = 4 })

-- ------------------------------------------ m:with's vertex count
do
  local m = open():mesh("crate")
  for _, n in ipairs{ 0xFFFFFFFF, 100000000, (1 << 24) + 1 } do
    t.error_like(function() return m:with{ vertex_count = n } end,
      "mesh:with: vertex_count " .. n .. " is more than 16777216$",
      "m:with{vertex_count = " .. n .. "}: refused before any allocation")
  end
  t.error_like(function() return m:with{ vertex_count = 1 << 24 } end,
    "mesh:with: vertex_count 16777216 is not the mesh's 4, so every "
    .. "attribute is needed: %w+ is missing$",
    "m:with{vertex_count = 2^24}: every attribute checked first")
  t.error_like(function() return m:with{ vertex_count = 5,
    position = { 1, 2, 3 } } end,
    "position has 3 values, expected 15 %(5 vertices x 3%)",
    "m:with: an attribute's length checked before the copy")
end

-- ------------------------------------------ messages
do
  local unnamed = fx.meshes()[1]
  unnamed.name = nil
  local w = rsxmesh.writer()
  w:material("brick")
  w:material("glass")
  assert(w:mesh(unnamed))
  local b = assert(rsxmesh.load(w:bytes()))
  t.error_like(function() return b:mesh(1):with{ s32k2 = {} } end,
    "mesh:with: mesh 1 has no s32k2 %(mask 0x000800ff%)$",
    "m:with on an unnamed mesh names it by its label")
  local long = ("x"):rep(70000)
  local ok, err = pcall(function() return b:mesh(1):with{ [long] = 1 } end)
  t.is(err, "mesh:with: unknown field '" .. ("x"):rep(40) .. "...'",
       "an unknown key of 70 kB is cut to 40 bytes")
  ok, err = pcall(function() return b:mesh(1):attribute(long) end)
  t.is(err, "mesh:attribute: unknown kind '" .. ("x"):rep(40) .. "...'",
       "an unknown kind too")
  ok, err = pcall(function() b:mesh(1)[long] = 1 end)
  t.like(err, "mesh%." .. ("x"):rep(40) .. "%.%.%. is read%-only$",
         "and a field set")
end

t.done_testing()
