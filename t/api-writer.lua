-- api-writer.lua - the write side: rsxmesh.writer, rsxmesh.mesh in both
-- forms, and round trips that give back the very bytes spelled out in
-- t/api-fixture.lua.
local t = require "tap"
local rsxmesh = require "rsxmesh"
local fx = require "api-fixture"

-- The writer's bookkeeping -------------------------------------------------
do
  local w = rsxmesh.writer()
  t.is(tostring(w), "rsxmesh.writer (0 meshes, 0 materials)", "a new writer")
  t.is(w:material("a"), 1, "w:material: first number 1")
  t.is(w:material("b", {}), 2, "w:material: second number 2")
  t.is(w.material_count, 2, "w.material_count")
  t.is(w:mesh(fx.meshes()[2]), true, "w:mesh of a table")
  t.is(w.mesh_count, 1, "w.mesh_count")
  t.is(tostring(w), "rsxmesh.writer (1 mesh, 2 materials)", "tostring(w)")
  local b = assert(rsxmesh.load(w:bytes()))
  t.is(b:mesh(1).name, "strip", "the table's mesh was written")
  t.is(b:material(2).name, "b", "the materials were written")
  t.is(b:material(1).sampler_count, 0, "a material without samplers")
  t.is(w:bytes(), w:bytes(), "w:bytes() twice gives the same bytes")
end

-- One of each: tostring says "1 mesh", not "1 meshes" (issue 9) ------------
do
  local w = rsxmesh.writer()
  t.is(w:material("m", { { slot = rsxmesh.BASE_COLOUR, texture = "a.png" } }),
       1, "one material of one sampler")
  -- one vertex, a strip of one index: one submesh of one index
  assert(w:mesh{ name = "one", meta = fx.meta(0x00080005), vertex_count = 1,
    mmp = string.rep("\0", 16), mmp_stride = 16,
    indices = rsxmesh.indices(2, { 1 }), index_size = 2, primitive = "strip",
    submeshes = { { record = fx.record(0xFF, 0xFF, 0xFF, 0xFF),
      first_index = 0, index_count = 1, material = 1 } } })
  t.is(tostring(w), "rsxmesh.writer (1 mesh, 1 material)",
       "tostring(w): 1 mesh, 1 material")
  local b = assert(rsxmesh.load(w:bytes(), "one.rsxb"))
  local m = b:mesh(1)
  t.is(tostring(b), "rsxmesh.bundle one.rsxb (1 mesh)", "tostring(b): 1 mesh")
  t.is(tostring(m), "rsxmesh.mesh one (mask 0x00080005, 1 vertex, "
       .. "1 submesh)", "tostring(m): 1 vertex, 1 submesh")
  t.is(tostring(m:submesh(1)), "rsxmesh.submesh 1 of one (1 index)",
       "tostring(s): 1 index")
  t.is(tostring(b:material(1)), "rsxmesh.material m (1 sampler)",
       "tostring(material): 1 sampler")
  t.is(tostring(m:attribute("position")),
       "rsxmesh.accessor position of one (1 vertex)",
       "tostring(accessor): 1 vertex")
end

-- Everything read back is what was spelled out -------------------------------
local bytes = fx.bytes()
local b = assert(rsxmesh.load(bytes, "fixture.rsxb"))

-- The stored bytes of one kind, vertex after vertex, cut by hand from a
-- stream the fixture spelled out.
local function slice(stream, stride, offset, size, count)
  local parts = {}
  for v = 0, count - 1 do
    parts[#parts + 1] = stream:sub(v * stride + offset + 1,
                                   v * stride + offset + size)
  end
  return table.concat(parts)
end

for i, tt in ipairs(fx.meshes()) do
  local m = b:mesh(i)
  t.is(m:record():bytes(), tt.meta, tt.name .. ": meta byte for byte")
  local idx = {}
  for k = 1, m.index_count do
    idx[k] = string.pack(tt.index_size == 2 and ">I2" or ">I4", m:index(k))
  end
  t.is(table.concat(idx), tt.indices, tt.name .. ": indices byte for byte")
  for k, st in ipairs(tt.submeshes or {}) do
    local s = m:submesh(k)
    t.ok(s:record():bytes() == st.record and
         s.first_index == st.first_index and
         s.index_count == st.index_count and
         (s.material and s.material.index) == st.material,
         string.format("%s: submesh %d as written", tt.name, k))
  end
  local f = m.format
  for _, kind in ipairs(m:attributes()) do
    local info = f:info(kind)
    local acc = m:attribute(kind)
    if acc then
      local stream = info.stream == "MMP" and tt.mmp or tt.mgp
      local stride = info.stream == "MMP" and tt.mmp_stride or tt.mgp_stride
      t.is(acc:raw(), slice(stream, stride, info.offset, info.size,
                            tt.vertex_count),
           string.format("%s: %s stored bytes", tt.name, kind))
    end
  end
end

-- Rewriting a bundle's meshes gives the same file
do
  local w = rsxmesh.writer()
  for _, mat in b:materials() do w:material(mat.name, mat:samplers()) end
  for _, m in b:meshes() do assert(w:mesh(m)) end
  t.is(w:bytes(), bytes, "a bundle rewritten mesh by mesh: the same bytes")
  local w2 = fx.writer()
  t.is(w2:bytes(), bytes, "the same meshes written twice: the same bytes")
end

-- Both index sizes with both primitives --------------------------------------
do
  local cases = {
    { 2, "triangles", { 1, 2, 3, 3, 2, 4 }, { 1, 2, 3, 3, 2, 4 }, 2 },
    { 4, "triangles", { 1, 2, 3, 3, 2, 4 }, { 1, 2, 3, 3, 2, 4 }, 2 },
    { 2, "strip", { 1, 2, 3, 4, -1, 4, 3, 5 }, { 1, 2, 3, 3, 2, 4, 4, 3, 5 },
      3 },
    { 4, "strip", { 1, 2, 3, 4, -1, 4, 3, 5 }, { 1, 2, 3, 3, 2, 4, 4, 3, 5 },
      3 },
  }
  for _, c in ipairs(cases) do
    local size, prim, idx, want, n = c[1], c[2], c[3], c[4], c[5]
    -- indices spelled out by hand (0-based; all ones for -1)
    local raw = {}
    for k, v in ipairs(idx) do
      raw[k] = v == -1 and string.rep("\255", size)
               or string.pack(size == 2 and ">I2" or ">I4", v - 1)
    end
    local t0 = fx.meshes()[2]
    t0.name = "case"
    t0.indices, t0.index_size, t0.primitive = table.concat(raw), size, prim
    t0.submeshes[1].index_count = #idx
    t0.submeshes[1].material = nil
    local w = rsxmesh.writer()
    assert(w:mesh(t0))
    local back = assert(rsxmesh.load(w:bytes())):mesh(1)
    local label = string.format("u%d %s", size * 8, prim)
    t.is(back.index_size, size, label .. ": index size")
    t.is(back.primitive, prim, label .. ": primitive")
    t.is_deeply({ back:triangles() }, { want, n }, label .. ": triangles")
    t.is(rsxmesh.indices(size, idx), table.concat(raw),
         label .. ": rsxmesh.indices gives the same bytes")
  end
end

-- format:encode of decoded values gives the stored bytes back ----------------
do
  local m = b:mesh("crate")
  local f = m.format
  local cols = {}
  for _, kind in ipairs(m:attributes()) do
    cols[kind] = m:attribute(kind):range()
  end
  t.is(f:encode("mmp", m.vertex_count, cols), fx.crate_mmp,
       "encode(decode(MMP)) is the MMP")
  t.is(f:encode("mgp", m.vertex_count, cols), fx.crate_mgp,
       "encode(decode(MGP)) is the MGP: colour, CMP and halves exact")
  -- and the mesh built from encoded streams decodes to the same values
  local tt = fx.meshes()[1]
  tt.mmp = f:encode("mmp", 4, cols)
  tt.mgp = f:encode("mgp", 4, cols)
  local built = assert(rsxmesh.mesh(tt))
  t.is_deeply(built:attribute("uv2"):range(), cols.uv2, "uv2 round trip")
end

-- An index that is not below the vertex count --------------------------------
do
  local tt = fx.meshes()[2]
  tt.indices = string.pack(">I4I4I4", 0, 1, 6) -- vertex 6 of 0..5
  tt.submeshes[1].index_count = 3
  tt.primitive = "triangles"
  local m = assert(rsxmesh.mesh(tt))
  t.is(m.findings[1].code, "index-range", "a bad index is a finding")
  local none, msg = m:triangles()
  t.is(none, nil, "m:triangles with a bad index: nil")
  t.like(msg, "6", "... a message naming the index")
  none, msg = m:submesh(1):triangles()
  t.is(none, nil, "s:triangles with a bad index: nil")
  t.is(type(msg), "string", "... and a message")
  none, msg = m:submesh(1):triangle_bytes()
  t.is(none, nil, "s:triangle_bytes with a bad index: nil")
  t.is_deeply({ m:attribute("position"):get(1) }, { 0, 0, 0 },
              "the vertices still decode")
end

t.done_testing()
