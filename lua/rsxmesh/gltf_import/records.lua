-- rsxmesh/gltf_import/records.lua - the glTF import's records: the facts
-- of a changed mesh, what its base records would say wrongly of it
-- (stale), and the records a --records hook makes for it
-- (rsxmesh.gltf_import, doc/scripts.md).

local reading = require "rsxmesh.gltf_import.reading"

local rsxmesh = require "rsxmesh"

local fail = reading.fail

local records = {}

-- The facts of a mesh that a record of the game may hold: counts, index
-- size, primitive, bounds (min, max: x, y, z) and, per submesh, its
-- range of indices and of vertices (first_vertex 1-based, the least its
-- triangles use; vertex_count up to the greatest).
local function mesh_facts(m)
  local f = { name = m.name, vertex_count = m.vertex_count,
    index_count = m.index_count, index_size = m.index_size,
    primitive = m.primitive, submesh_count = m.submesh_count,
    submeshes = {} }
  local pos = m:attribute("position")
  if pos and m.vertex_count > 0 then f.min, f.max = pos:bounds() end
  for i, s in m:submeshes() do
    local sf = { index = i, first_index = s.first_index,
      index_count = s.index_count }
    local tri = s:triangles()
    if tri and #tri > 0 then
      local lo, hi = math.huge, 0
      for _, v in ipairs(tri) do
        if v < lo then lo = v end
        if v > hi then hi = v end
      end
      sf.first_vertex, sf.vertex_count = lo, hi - lo + 1
    end
    f.submeshes[i] = sf
  end
  return f
end

-- What the records of base mesh m would say wrongly of its copy: a list
-- of "vertex count 4 -> 6"-like texts, empty when the mesh's counts, index
-- size, primitive and submesh ranges are the base's.
local function stale_facts(m, copy)
  local list = {}
  for _, k in ipairs({ "vertex_count", "index_count", "index_size",
      "primitive" }) do
    if m[k] ~= copy[k] then
      list[#list + 1] = string.format("%s %s -> %s", k:gsub("_", " "),
        tostring(m[k]), tostring(copy[k]))
    end
  end
  local a, b = m:attribute("position"), copy:attribute("position")
  if a and b and m.vertex_count > 0 and copy.vertex_count > 0 then
    local lo0, hi0 = a:bounds()
    local lo1, hi1 = b:bounds()
    for i = 1, 3 do
      if lo0[i] ~= lo1[i] or hi0[i] ~= hi1[i] then
        list[#list + 1] = "bounds"
        break
      end
    end
  end
  for i, s in m:submeshes() do
    local c = copy:submesh(i)
    if s.first_index ~= c.first_index or s.index_count ~= c.index_count then
      list[#list + 1] = string.format("submesh %d indices %d+%d -> %d+%d",
        i, s.first_index, s.index_count, c.first_index, c.index_count)
    end
  end
  return list
end

-- The copy with its records as hook (a table: meta = function(bytes,
-- facts, base), submesh = function(bytes, facts, base, mesh_facts)) makes
-- them; a function may return nil to keep the record. where names the
-- mesh in messages. The new mesh, and what was rewritten.
local function rewrite_records(copy, m, hook, where, hook_name)
  local facts, base = mesh_facts(copy), mesh_facts(m)
  local function call(fn, what, ...)
    local ok, r = pcall(fn, ...)
    if not ok then
      fail("%s: %s: the %s record: %s", where, hook_name, what, tostring(r))
    end
    if r ~= nil and type(r) ~= "string" then
      fail("%s: %s: the %s record: a string of bytes or nil expected, got"
        .. " %s", where, hook_name, what, type(r))
    end
    return r
  end
  local done = {}
  local meta = copy:record():bytes()
  if hook.meta then
    local r = call(hook.meta, "metadata", meta, facts, base)
    if r and r ~= meta then
      meta = r
      done[#done + 1] = "metadata"
    end
  end
  local subs = {}
  for i, s in copy:submeshes() do
    local rec = s:record():bytes()
    if hook.submesh then
      local r = call(hook.submesh, "submesh " .. i, rec, facts.submeshes[i],
        base.submeshes[i], facts)
      if r and r ~= rec then
        rec = r
        done[#done + 1] = "submesh " .. i
      end
    end
    subs[i] = { record = rec, first_index = s.first_index,
      index_count = s.index_count,
      material = s.material and s.material.index or nil }
  end
  if #done == 0 then return copy, done end
  local built, err = rsxmesh.mesh{ name = copy.name, meta = meta,
    vertex_count = copy.vertex_count, mmp = copy:stream("mmp"),
    mmp_stride = copy.mmp_stride, mgp = copy:stream("mgp"),
    mgp_stride = copy.mgp_stride, indices = copy:index_bytes(),
    index_size = copy.index_size, primitive = copy.primitive,
    submeshes = subs }
  if not built then
    fail("%s: %s: the records it made are refused: %s", where, hook_name,
      tostring(err))
  end
  return built, done
end

records.mesh_facts, records.stale_facts = mesh_facts, stale_facts
records.rewrite = rewrite_records

return records
