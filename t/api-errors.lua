-- api-errors.lua - every error path of the API: bad arguments, a closed
-- bundle (every method and field of every child), out-of-range numbers,
-- missing attributes, and data that rsxmesh.mesh refuses.
local t = require "tap"
local rsxmesh = require "rsxmesh"
local fx = require "api-fixture"

local bytes = fx.bytes()
local b = assert(rsxmesh.load(bytes, "fixture.rsxb"))
local m = b:mesh("crate")
local s = m:submesh(1)
local pos = m:attribute("position")
local rec = m:record()
local mat = b:material(1)

local function raises(pattern, name, fn, ...)
  return t.error_like(fn, pattern, name, ...)
end

-- Bad arguments: 'fname: bad argument #n (...)', the binding's one style -
raises("rsxmesh%.open: bad argument #1 %(string expected, got no value%)$",
       "open()", rsxmesh.open)
raises("rsxmesh%.load: bad argument #1 %(string expected, got table%)$",
       "load({})", rsxmesh.load, {})
raises("bundle:mesh: bad argument #1 %(number expected, got table%)$",
       "b:mesh({})", function() return b:mesh({}) end)
raises("number has no integer representation",
       "b:mesh(1.5)", function() return b:mesh(1.5) end)
raises("bundle:material: bad argument #1", "b:material({})",
       function() return b:material({}) end)
raises("rsxmesh%.bundle expected, got table", "bundle method on a table",
       function() return b.mesh({}, 1) end)
raises("rsxmesh%.mesh expected, got rsxmesh%.bundle",
       "mesh method on a bundle",
       function() return m.submesh(b, 1) end)
raises("rsxmesh%.accessor expected, got rsxmesh%.mesh",
       "accessor method on a mesh", function() return pos.get(m, 1) end)
raises("rsxmesh%.accessor expected, got no value", "acc.get()",
       function() return pos.get() end)
raises("accessor:get: bad argument #1 %(number expected, got string%)$",
       "acc:get('x')", function() return pos:get("x") end)
raises("submesh:selector: bad argument #1 %(selector byte must be 0%.%.3%)$",
       "s:selector(4)", function() return s:selector(4) end)
raises("submesh:uv_set: bad argument #1 %(UV number must be 0%.%.3%)$",
       "s:uv_set(-1)", function() return s:uv_set(-1) end)
raises("submesh:uv: bad argument #1 %(UV number must be 0%.%.3%)$",
       "s:uv(4)", function() return s:uv(4) end)
raises("mesh:has: unknown kind 'uv4'", "m:has('uv4')",
       function() return m:has("uv4") end)
raises("mesh:attribute: unknown kind 'Position'", "kinds are exact",
       function() return m:attribute("Position") end)
raises("mesh:attribute: bad argument #1 %(string expected, got nil%)$",
       "m:attribute(nil)", function() return m:attribute(nil) end)
raises("accessor:lines: bad argument #1 %(string expected, got no value%)$",
       "acc:lines()", function() return pos:lines() end)
raises("accessor:lines: bad argument #4 %(table expected, got number%)$",
       "acc:lines opts not a table",
       function() return pos:lines("v", 1, 1, 5) end)
raises("opts%.scale must be a table, got number", "opts.scale not a table",
       function() return pos:lines("v", 1, 1, { scale = 2 }) end)
raises("opts%.offset%[2%] is not a number", "opts.offset entry",
       function() return pos:lines("v", 1, 1, { offset = { 0, "x" } }) end)
raises("rsxmesh%.accessor expected, got table", "opts.with not an accessor",
       function() return pos:lines("v", 1, 1, { with = {} }) end)
raises("opts%.with is an accessor of another mesh", "opts.with elsewhere",
       function()
         return pos:lines("v", 1, 1,
                          { with = b:mesh("strip"):attribute("position") })
       end)
raises("^accessor:lines: unknown option 'bogus'$", "acc:lines{bogus = 1}",
       pos.lines, pos, "v", { bogus = 1 })
raises("^accessor:lines: unknown option 'Scale'$", "options are exact",
       pos.lines, pos, "v", 1, 2, { Scale = { 2 } })
raises("^accessor:lengths: bad argument #1 %(number expected, got string%)$",
       "acc:lengths('x')", pos.lengths, pos, "x")
raises("^image:line: bad argument #1 %(number expected, got string%)$",
       "img:line('a', ...)", rsxmesh.image(2, 2).line, rsxmesh.image(2, 2),
       "a", 1, 2, 2, 0, 0, 0)
raises("^image:line: bad argument #4 %(number has no integer "
       .. "representation%)$", "img:line(1, 1, 2, 1.5, ...)",
       rsxmesh.image(2, 2).line, rsxmesh.image(2, 2), 1, 1, 2, 1.5, 0, 0, 0)
raises("^image:paste: bad argument #1 %(rsxmesh%.image expected, got "
       .. "rsxmesh%.mesh%)$", "img:paste(m, 1, 1)",
       rsxmesh.image(2, 2).paste, rsxmesh.image(2, 2), m, 1, 1)
raises("rsxmesh%.half: bad argument #1 %(not a 16%-bit value%)$",
       "half(0x10000)",
       rsxmesh.half, 0x10000)
raises("rsxmesh%.cmp: bad argument #1 %(not a 32%-bit value%)$", "cmp(-1)",
       rsxmesh.cmp, -1)
raises("rsxmesh%.to_cmp: bad argument #3 %(number expected, got no value%)$",
       "to_cmp(1, 2)", rsxmesh.to_cmp, 1, 2)
raises("rsxmesh%.fmt: bad argument #1 %(number expected, got string%)$",
       "fmt('x')", rsxmesh.fmt, "x")
raises("rsxmesh%.mesh: bad argument #1 %(table expected, got string%)$",
       "rsxmesh.mesh('x')", rsxmesh.mesh, "x")

-- Fields are read-only (issue 9): "mesh.name is read-only" -------------------
do
  local function set(x, k) x[k] = "x" end
  local f = rsxmesh.format(0x00080005)
  local w = rsxmesh.writer()
  for _, case in ipairs({
    { b, "name", "bundle" }, { m, "name", "mesh" }, { s, "index", "submesh" },
    { pos, "kind", "accessor" }, { rec, "size", "record" },
    { mat, "name", "material" }, { f, "mask", "format" },
    { w, "mesh_count", "writer" }, { m, "triangles", "mesh" },
    { m, "no_such_field", "mesh" } }) do
    local x, k, type = case[1], case[2], case[3]
    raises("^[^\n]*api%-errors%.lua:%d+: " .. type .. "%." .. k
      .. " is read%-only$", type .. "." .. k .. " = 'x' raises", set, x, k)
  end
  raises("mesh%[1%] is read%-only$", "m[1] = 'x' raises", set, m, 1)
  t.is(m.name, "crate", "... and the field is unchanged")
end

-- Out of range --------------------------------------------------------------
raises("accessor:get: vertex 5 out of range 1%.%.4", "acc:get(5)",
       function() return pos:get(5) end)
raises("accessor:get: vertex 0 out of range 1%.%.4", "acc:get(0)",
       function() return pos:get(0) end)
raises("accessor:get: vertex %-1 out of range 1%.%.4", "acc:get(-1)",
       function() return pos:get(-1) end)
raises("accessor:range: vertex 0 out of range 1%.%.4", "acc:range(0)",
       function() return pos:range(0) end)
raises("accessor:range: vertex 5 out of range 1%.%.4", "acc:range(1, 5)",
       function() return pos:range(1, 5) end)
raises("accessor:range: vertex 6 out of range 1%.%.4", "acc:range(6)",
       function() return pos:range(6) end)
raises("accessor:range: range 3%.%.1 is reversed", "acc:range(3, 1)",
       function() return pos:range(3, 1) end)
raises("accessor:pack: vertex 9 out of range", "acc:pack(1, 9)",
       function() return pos:pack(1, 9) end)
raises("accessor:raw: vertex 0 out of range", "acc:raw(0)",
       function() return pos:raw(0) end)
raises("accessor:lines: vertex 7 out of range", "acc:lines('v', 7)",
       function() return pos:lines("v", 7) end)
raises("mesh:index: index 10 out of range 1%.%.9", "m:index(10)",
       function() return m:index(10) end)
raises("mesh:index: index 0 out of range 1%.%.9", "m:index(0)",
       function() return m:index(0) end)
raises("record:u32: offset 0x8d out of range %(record is 0x90 bytes%)",
       "rec:u32 past the end", function() return rec:u32(0x8D) end)
raises("record:u8: offset 0x90 out of range %(record is 0x90 bytes%)",
       "rec:u8 at the size", function() return rec:u8(0x90) end)
raises("record:s16: offset %-0x1 out of range", "rec:s16(-1)",
       function() return rec:s16(-1) end)
raises("record:f32: offset 0x8d out of range", "rec:f32 past the end",
       function() return rec:f32(0x8D) end)
raises("record:bytes: length 5 at offset 0x8c runs past the record "
       .. "%(0x90 bytes%)", "rec:bytes",
       function() return rec:bytes(0x8C, 5) end)
raises("record:bytes: offset 0x91 out of range %(record is 0x90 bytes%)",
       "rec:bytes(145)",
       function() return rec:bytes(145) end)

-- Missing attributes and absent UVs: nil, message ----------------------------
do
  local none, msg = m:attribute("extra_a")
  t.ok(none == nil and msg:find("has no extra_a"), "missing attribute")
  none, msg = m:submesh(2):uv(3)
  t.ok(none == nil and msg:find("logical UV3 is absent"), "absent UV")
  none, msg = m:submesh(3):uv(0)
  t.ok(none == nil and msg:find("selectors 0703ffff"),
       "a bad selector byte: absent UV")
end

-- Messages number what they name as Lua does --------------------------------
do
  -- the fixture's four meshes, then bad: three vertices, a u16 list whose
  -- second triangle (submesh 2) ends in 7; the 6th index is m:index(6)
  local w = fx.writer()
  assert(w:mesh{ name = "bad", meta = fx.meta(0x00080005), vertex_count = 3,
    mmp = string.rep("\0", 48), mmp_stride = 16,
    indices = rsxmesh.indices(2, { 0, 1, 2, 0, 1, 7 }, 0), index_size = 2,
    submeshes = {
      { record = fx.record(0xFF, 0xFF, 0xFF, 0xFF), first_index = 0,
        index_count = 3 },
      { record = fx.record(0xFF, 0xFF, 0xFF, 0xFF), first_index = 3,
        index_count = 3 } } })
  local good = w:bytes()
  local bb = assert(rsxmesh.load(good, "five.rsxb"))
  local bad = bb:mesh(5)
  local none, msg = bad:submesh(2):triangles()
  t.is(none, nil, "an index out of range: s:triangles() gives nil")
  t.is(msg, "mesh 5 (bad): submesh 2: index at position 6 is 7, not below "
    .. "the vertex count 3", "... naming b:mesh(5), m:submesh(2) and "
    .. "m:index(6)")
  t.is(bad:index(6), 7, "m:index(6) is the index named")
  t.is(bad.findings[1].message, "1 index is not below the vertex count 3, "
    .. "the first at position 6 (7)", "the finding names m:index(6) too")
  none, msg = bad:attribute("colour")
  t.is(msg, "mesh 5 (bad): mask 0x00080005 has no colour",
    "m:attribute names the mesh as b:mesh(5)")
  -- crate's third submesh has the bad selector byte 0x07
  local f = bb:mesh(1).findings
  t.is(f[#f].message, "1 of 3 submeshes have selector findings, the first "
    .. "submesh 3", "a selector finding names m:submesh(3)")
  t.is(bb:mesh(1):submesh(3).selectors, "0703ffff", "... which has it")
  bb:close()

  -- a file refused by the reader: strip's only submesh is submesh entry 3
  -- (crate holds 0..2); its material field at +0x10 set to 7 of 2
  local sub_table = string.unpack(">I4", good, 0x18 + 1)
  local at = sub_table + 3 * 32 + 0x10
  local broken = good:sub(1, at) .. string.pack(">I4", 7)
    .. good:sub(at + 5)
  none, msg = rsxmesh.load(broken, "five.rsxb")
  t.is(none, nil, "a material past the table: refused")
  t.is(msg, "five.rsxb: mesh 2 (strip): submesh 1: material field 0x7 lies "
    .. "outside the material table (2 entries)",
    "... naming b:mesh(2), m:submesh(1) and the field as stored")
end

-- rsxmesh.mesh: misuse raises, bad data gives nil, message -------------------
local function base()
  local tt = fx.meshes()[1]
  return tt
end
local function refused(pattern, name, change)
  local tt = base()
  change(tt)
  local none, msg = rsxmesh.mesh(tt)
  return t.ok(none == nil and type(msg) == "string" and msg:find(pattern),
              name .. ": " .. tostring(msg))
end
refused("metadata record is 0x8f bytes, shorter than 0x90", "short meta",
        function(tt) tt.meta = tt.meta:sub(2) end)
refused("mmp is 63 bytes, expected 64 %(vertex_count 4 x stride 16%)",
        "short mmp", function(tt) tt.mmp = tt.mmp:sub(2) end)
refused("mmp is 64 bytes, expected 80", "vertex_count too big",
        function(tt) tt.vertex_count = 5 end)
refused("mgp is 0 bytes, expected 96", "missing mgp",
        function(tt) tt.mgp = nil end)
refused("index size 3 is not 2 or 4", "index size 3",
        function(tt) tt.index_size = 3 end)
refused("indices is 19 bytes, not a whole number of 2%-byte indices",
        "odd index bytes", function(tt) tt.indices = tt.indices .. "\0" end)
refused("submesh 1: submesh record is 0x3b bytes, shorter than 0x3c",
        "short submesh record", function(tt)
          tt.submeshes[1].record = tt.submeshes[1].record:sub(2)
        end)
refused("submesh 2: first index field 0x6 %+ count 6 lie outside the "
        .. "mesh's index buffer %(9 indices%)", "submesh past the end",
        function(tt) tt.submeshes[2].index_count = 6 end)
refused("index count 4 of a triangle list is not a multiple of 3",
        "list count", function(tt) tt.submeshes[1].index_count = 4 end)

local function misuse(pattern, name, change)
  local tt = base()
  change(tt)
  return t.error_like(rsxmesh.mesh, pattern, name, tt)
end
misuse("rsxmesh%.mesh: field 'meta' must be a string, got nil", "no meta",
       function(tt) tt.meta = nil end)
misuse("field 'mmp' must be a string, got number", "mmp a number",
       function(tt) tt.mmp = 5 end)
misuse("field 'vertex_count' must be an integer, got nil",
       "no vertex_count", function(tt) tt.vertex_count = nil end)
misuse("field 'vertex_count' = %-1 out of range", "negative vertex_count",
       function(tt) tt.vertex_count = -1 end)
misuse("field 'primitive': invalid option 'fan'", "primitive fan",
       function(tt) tt.primitive = "fan" end)
misuse("submeshes%[2%] must be a table, got string", "a submesh string",
       function(tt) tt.submeshes[2] = "x" end)
misuse("submeshes%[1%]: field 'material' must be 1 or more", "material 0",
       function(tt) tt.submeshes[1].material = 0 end)
misuse("submeshes%[1%]: field 'first_index' must be an integer",
       "no first_index", function(tt) tt.submeshes[1].first_index = nil end)
misuse("rsxmesh%.mesh: field 'submeshes' must be a table, got number",
       "submeshes not a table", function(tt) tt.submeshes = 5 end)

-- m:with names the field as rsxmesh.mesh does, for the same mistakes ------
for _, case in ipairs({
  { "indices", {}, "field 'indices' must be a string, got table" },
  { "indices", 7, "field 'indices' must be a string, got number" },
  { "primitive", "fan", "field 'primitive': invalid option 'fan'" },
  { "primitive", 2, "field 'primitive' must be a string, got number" },
  { "index_size", "x", "field 'index_size' must be an integer, got string" },
}) do
  local key, value, why = case[1], case[2], case[3]
  local shown = key .. " = " .. (type(value) == "table" and "{}"
                                 or string.format("%q", value))
  local tt = base()
  tt[key] = value
  raises("^rsxmesh%.mesh: " .. why:gsub("%p", "%%%0") .. "$",
         "rsxmesh.mesh{" .. shown .. "}",
         rsxmesh.mesh, tt)
  local change = { [key] = value }
  if key == "index_size" then change.indices = "" end
  raises("^mesh:with: " .. why:gsub("%p", "%%%0") .. "$",
         "m:with{" .. shown .. "}",
         m.with, m, change)
end
raises("^mesh:with: indices is 3 bytes, not a whole number of 2%-byte "
       .. "indices$", "m:with: odd index bytes",
       m.with, m, { indices = "abc", index_size = 2 })
raises("^mesh:with: index size 3 is not 2 or 4$", "m:with: index size 3",
       m.with, m, { indices = "abc", index_size = 3 })

-- Writer misuse and refusals ------------------------------------------------
do
  local w = rsxmesh.writer()
  raises("writer:material: bad argument #1 %(string expected, got no value%)$",
         "w:material()", function() return w:material() end)
  raises("samplers%[1%]%.slot must be a 32%-bit integer", "sampler slot",
         function() return w:material("x", { { texture = "t" } }) end)
  raises("samplers%[1%]%.texture must be a string, got nil",
         "sampler texture",
         function() return w:material("x", { { slot = 1 } }) end)
  raises("samplers%[1%] must be a table", "sampler not a table",
         function() return w:material("x", { 1 }) end)
  raises("rsxmesh%.mesh expected, got number", "w:mesh(5)",
         function() return w:mesh(5) end)
  local none, msg = w:mesh(fx.meshes()[1]) -- materials 1 and 2, none here
  t.is(none, nil, "w:mesh with materials the writer lacks: nil")
  t.like(msg, "material", "... a message naming the material")
  none, msg = w:mesh({ meta = "short", vertex_count = 0, mmp = "",
                       mmp_stride = 16, indices = "", index_size = 2 })
  t.is(none, nil, "w:mesh of a table the rules refuse: nil")
  t.like(msg, "writer:mesh.*metadata record is 0x5 bytes", "... a message")
  none, msg = w:save("/nonexistent-folder/x.rsxb")
  t.is(none, nil, "w:save in a missing folder: nil")
  t.like(msg, "/nonexistent%-folder/x%.rsxb", "... a message naming it")
  w:close()
  w:close()
  t.is(tostring(w), "rsxmesh.writer (closed)", "a closed writer")
  raises("writer:bytes: writer is closed", "w:bytes after close",
         function() return w:bytes() end)
  raises("writer:mesh: writer is closed", "w:mesh after close",
         function() return w:mesh(m) end)
  raises("writer%.mesh_count: writer is closed", "w.mesh_count after close",
         function() return w.mesh_count end)
end

-- Every method of every type: a first argument of the wrong type raises
-- 'TYPE:METHOD: bad argument #1 (...)'. The methods are walked from the
-- metatables, so a method added later is checked too; those that take no
-- argument are named here and must exist.
do
  local bb = assert(rsxmesh.load(bytes, "walk.rsxb"))
  local mm = bb:mesh("crate")
  local objects = {
    bundle = bb, mesh = mm, submesh = mm:submesh(1),
    material = bb:material(1), format = rsxmesh.format(0x00080005),
    accessor = mm:attribute("position"), record = mm:record(),
    writer = rsxmesh.writer(), image = rsxmesh.image(2, 2),
    pool = rsxmesh.pool({ "sh" }, 1),
  }
  local takes_none = {
    ["bundle:meshes"] = true, ["bundle:materials"] = true,
    ["bundle:close"] = true, ["mesh:attributes"] = true,
    ["mesh:submeshes"] = true, ["mesh:record"] = true,
    ["submesh:declaration"] = true, ["submesh:record"] = true,
    ["material:samplers"] = true, ["accessor:bounds"] = true,
    ["accessor:non_finite"] = true, ["accessor:iter"] = true,
    ["writer:bytes"] = true, ["writer:close"] = true,
    ["image:bytes"] = true, ["image:close"] = true,
    ["format:attributes"] = true, ["format:order"] = true,
    ["mesh:triangles"] = true, ["submesh:triangles"] = true,
    ["submesh:triangle_count"] = true,
    -- these take a file as an optional last argument
    ["mesh:triangle_bytes"] = true, ["submesh:triangle_bytes"] = true,
    ["mesh:index_bytes"] = true, ["mesh:unit_normals"] = true,
    ["mesh:tangent_frames"] = true,
    -- a pool with no job: next gives nil; stop takes any flag
    ["pool:next"] = true, ["pool:done"] = true, ["pool:stop"] = true,
    ["pool:close"] = true,
  }
  local wrong = coroutine.create(print) -- no method takes a thread
  local calls, seen = {}, {}
  for tname, mt in pairs(debug.getregistry()) do
    local type = _G.type(tname) == "string" and tname:match("^rsxmesh%.(%a+)$")
    local index = type and _G.type(mt) == "table" and mt.__index
    if index then
      local methods = _G.type(index) == "table" and index
                      or select(2, debug.getupvalue(index, 1))
      t.ok(objects[type] ~= nil, "an object of " .. tname .. " to call")
      for name in pairs(methods) do
        calls[#calls + 1] = { type, name }
      end
    end
  end
  -- the closes last: a closed bundle would refuse its children's calls
  table.sort(calls, function(x, y)
    local cx, cy = x[2] == "close", y[2] == "close"
    if cx ~= cy then return cy end
    return x[1] .. ":" .. x[2] < y[1] .. ":" .. y[2]
  end)
  for _, c in ipairs(calls) do
    local full = c[1] .. ":" .. c[2]
    local obj = objects[c[1]]
    local prefix = "^" .. full:gsub("%p", "%%%0") .. ": "
    seen[full] = true
    if takes_none[full] and c[2] ~= "close" then
      local ok, err = pcall(obj[c[2]], obj)
      if not t.ok(ok, full .. "() takes no argument") then t.diag(err) end
    end
    local ok, err = pcall(obj[c[2]], obj, wrong)
    if takes_none[full] then
      if not t.ok(ok or err:find(prefix), full .. "(thread): no error, "
                  .. "or one naming " .. full) then t.diag(err) end
    else
      t.like(ok and "no error" or err, prefix .. "bad argument #1 %(",
             full .. "(thread): bad argument #1")
    end
  end
  for full in pairs(takes_none) do
    t.ok(seen[full], full .. " exists")
  end
end

-- An image closes as a bundle does: img:close, <close>, both idempotent ----
do
  local img = rsxmesh.image(2, 1)
  img:close()
  img:close() -- a second close does nothing
  t.is(tostring(img), "rsxmesh.image (freed)", "img:close frees the pixels")
  raises("^image:get: image is freed$", "img:get after img:close",
         img.get, img, 1, 1)
  local kept
  do
    local scoped <close> = rsxmesh.image(1, 1)
    kept = scoped
    t.is(tostring(kept), "rsxmesh.image (1x1)", "<close>: open in scope")
  end
  t.is(tostring(kept), "rsxmesh.image (freed)", "<close>: freed after it")
  local meta = getmetatable(kept)
  t.ok(kept.close == meta.__gc and meta.__close == meta.__gc,
       "img.close, __close and __gc are one function")
end

-- A closed bundle: every use of it and of its children raises ----------------
local iter_acc = pos:iter()
local strip = b:mesh("strip")
local nrm = m:attribute("normal")
local uv = s:uv(2)
b:close()
b:close() -- a second close does nothing
t.is(b.closed, true, "closed")
local uses = {
  { "b:mesh", function() return b:mesh(1) end },
  { "b:meshes", function() return b:meshes() end },
  { "b:material", function() return b:material(1) end },
  { "b:materials", function() return b:materials() end },
  { "#b", function() return #b end },
  { "b.name", function() return b.name end },
  { "b.size", function() return b.size end },
  { "b.path", function() return b.path end },
  { "m.name", function() return m.name end },
  { "m.mask", function() return m.mask end },
  { "m.findings", function() return m.findings end },
  { "m.format", function() return m.format end },
  { "m.bundle", function() return m.bundle end },
  { "m:has", function() return m:has("normal") end },
  { "m:attributes", function() return m:attributes() end },
  { "m:attribute", function() return m:attribute("normal") end },
  { "m:submesh", function() return m:submesh(1) end },
  { "m:submeshes", function() return m:submeshes() end },
  { "m:record", function() return m:record() end },
  { "m:triangles", function() return strip:triangles() end },
  { "m:triangle_bytes", function() return m:triangle_bytes() end },
  { "m:index", function() return m:index(1) end },
  { "s.selectors", function() return s.selectors end },
  { "s.material", function() return s.material end },
  { "s.mesh", function() return s.mesh end },
  { "s:selector", function() return s:selector(0) end },
  { "s:uv_set", function() return s:uv_set(0) end },
  { "s:uv", function() return s:uv(0) end },
  { "s:triangles", function() return s:triangles() end },
  { "s:triangle_bytes", function() return s:triangle_bytes() end },
  { "s:declaration", function() return s:declaration() end },
  { "s:record", function() return s:record() end },
  { "mat.name", function() return mat.name end },
  { "mat.base_colour", function() return mat.base_colour end },
  { "mat:samplers", function() return mat:samplers() end },
  { "rec:u32", function() return rec:u32(0) end },
  { "rec:bytes", function() return rec:bytes() end },
  { "#rec", function() return #rec end },
  { "acc:get", function() return pos:get(1) end },
  { "the iterator of acc:iter", function() return iter_acc(pos, 0) end },
  { "acc:range", function() return nrm:range() end },
  { "acc:lines", function() return pos:lines("v") end },
  { "acc:pack", function() return uv:pack() end },
  { "acc:raw", function() return pos:raw() end },
  { "acc:bounds", function() return pos:bounds() end },
  { "acc:iter", function() return pos:iter() end },
  { "#acc", function() return #pos end },
  { "acc.kind", function() return pos.kind end },
  { "acc.mesh", function() return nrm.mesh end },
  { "acc.stride", function() return uv.stride end },
}
for _, u in ipairs(uses) do
  raises("bundle is closed", u[1] .. " after close", u[2])
end
t.is(tostring(m), "rsxmesh.mesh (bundle closed)", "tostring(mesh) closed")
t.is(tostring(s), "rsxmesh.submesh (bundle closed)", "tostring(s) closed")
t.is(tostring(mat), "rsxmesh.material (bundle closed)", "tostring(mat)")
t.is(tostring(rec), "rsxmesh.record (bundle closed)", "tostring(rec)")
t.is(tostring(pos), "rsxmesh.accessor (bundle closed)", "tostring(acc)")
do
  local w = rsxmesh.writer()
  raises("writer:mesh: bundle is closed", "w:mesh of a closed bundle's mesh",
         function() return w:mesh(m) end)
end

-- A mesh built by rsxmesh.mesh has no bundle to close.
do
  local built = assert(rsxmesh.mesh(fx.meshes()[2]))
  t.is(built.number, nil, "a built mesh has no number")
  t.is(built.bundle, nil, "a built mesh has no bundle")
  t.is(built:submesh(1).material, nil, "a built mesh's submesh: no material")
  t.is_deeply({ built:attribute("position"):get(2) }, { 1, 2, 3 },
              "a built mesh decodes")
end

t.done_testing()
