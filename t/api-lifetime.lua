-- api-lifetime.lua - children keep their bundle alive; a bundle with no
-- child left is collected; <close> variables; built meshes keep their
-- strings.
local t = require "tap"
local rsxmesh = require "rsxmesh"
local fx = require "api-fixture"

local bytes = fx.bytes()
local weak = setmetatable({}, { __mode = "v" })

-- A mesh and an accessor kept after the bundle's variable is gone.
local m, acc, rec, s, mat, uv
do
  local b = assert(rsxmesh.load(bytes, "fixture.rsxb"))
  weak.bundle = b
  m = b:mesh("crate")
  acc = b:mesh("strip"):attribute("position")
  rec = b:mesh("crate"):submesh(1):record()
  s = b:mesh("crate"):submesh(3)
  mat = b:material(2)
  uv = b:mesh("crate"):submesh(1):uv(3)
end
collectgarbage()
collectgarbage()
t.ok(weak.bundle ~= nil, "the bundle lives while its children do")
t.is(m.name, "crate", "the mesh still reads")
t.is_deeply({ m:attribute("normal"):get(1) },
            { 0, fx.f32(32736 / 32767), 0 }, "the mesh still decodes")
t.is_deeply({ acc:get(6) }, { 5, 10, 15 },
            "an accessor of a collected mesh still decodes")
t.is(acc.mesh.name, "strip", "the accessor keeps its mesh")
t.is(rec:u32(0x38), 0x00000201, "a record still reads")
t.is(s.mesh.name, "crate", "a submesh keeps its mesh")
t.is(mat.name, "glass", "a material still reads")
t.is_deeply({ uv:get(1) }, { 2, 3 }, "a UV accessor still decodes")
t.is(m.bundle.closed, false, "m.bundle gives the bundle back")

m, acc, rec, s, mat, uv = nil, nil, nil, nil, nil, nil
collectgarbage()
collectgarbage()
t.is(weak.bundle, nil, "with no child left, the bundle is collected")

-- The bundle of a child from an iterator, and close through the child.
do
  local b = assert(rsxmesh.load(bytes))
  local last
  for _, mm in b:meshes() do last = mm end
  collectgarbage()
  t.is(last.name, "bits", "a mesh from b:meshes() stays valid")
  last.bundle:close()
  t.error_like(function() return last.name end, "bundle is closed",
               "closing through mesh.bundle closes it")
end

-- <close>
do
  local kept, keptacc
  do
    local b <close> = assert(rsxmesh.load(bytes))
    kept = b:mesh(1)
    keptacc = kept:attribute("colour")
    t.is(#keptacc, 4, "inside the scope")
  end
  t.error_like(function() return kept:submesh(1) end, "bundle is closed",
               "a <close> bundle is closed at the end of its scope")
  t.error_like(function() return keptacc:get(1) end, "bundle is closed",
               "... and so are its accessors")
end
do
  local w2
  do
    local w <close> = rsxmesh.writer()
    w2 = w
  end
  t.is(tostring(w2), "rsxmesh.writer (closed)", "a <close> writer")
end

-- A mesh built from strings keeps them, whatever happens to the table.
do
  local tt = fx.meshes()[1]
  local built = assert(rsxmesh.mesh(tt))
  local pos = built:attribute("position")
  tt.mmp, tt.mgp, tt.meta, tt.submeshes = nil, nil, nil, nil
  tt = nil
  for _ = 1, 3 do collectgarbage() end
  -- churn: new strings of the same size where the old ones may have been
  local junk = {}
  for i = 1, 200 do junk[i] = string.rep(string.char(i % 256), 64) end
  t.is_deeply({ pos:get(2) }, { -1.5, 0.25, 2^-149 },
              "a built mesh keeps its strings")
  t.is(built:record():u32(0x8C), 0x000800ff, "... and its meta")
  t.is(built:submesh(1):record():u32(0x38), 0x00000201,
       "... and its submesh records")
  t.is_deeply({ built:submesh(1):triangles() }, { { 1, 2, 3, 3, 2, 4 }, 2 },
              "... and its indices")
end

-- Many bundles opened and dropped: memory is given back (valgrind checks
-- the leaks; here the count of live bundles).
do
  local live = setmetatable({}, { __mode = "k" })
  for _ = 1, 50 do
    local b = assert(rsxmesh.load(bytes))
    live[b] = true
    local a = b:mesh(1):attribute("position")
    a:range()
  end
  collectgarbage()
  collectgarbage()
  t.is(next(live), nil, "dropped bundles are all collected")
end

-- One close: the same idempotent function is close, __close and __gc
-- (liolib's f_gc), for each type that holds a resource.
do
  local b = assert(rsxmesh.load(bytes))
  local w = rsxmesh.writer()
  for _, o in ipairs{ { b, "bundle" }, { w, "writer" } } do
    local mt = getmetatable(o[1])
    t.ok(mt.__gc == mt.__close and mt.__close == o[1].close,
         o[2] .. ": close, __close and __gc are one function")
    o[1]:close()
    t.ok(pcall(mt.__gc, o[1]), o[2] .. ": __gc after close does nothing")
  end
  -- the accessor's fields, in a metatable of its own, raise after close
  local b2 = assert(rsxmesh.load(bytes))
  local a = b2:mesh(1):attribute("position")
  t.is(a.stream, "MMP", "an accessor's field before close")
  b2:close()
  t.error_like(function() return a.stream end,
               ": accessor%.stream: bundle is closed$",
               "... raises after close, naming the field")
  t.error_like(function() return a:get(1) end,
               ": accessor%.get: bundle is closed$", "... as does its get")
end

t.done_testing()
