-- rsxmesh/gltf_import.lua - an edited glTF 2.0 back into RSXB, byte for
-- byte where nothing changed
--
--   local import = require "rsxmesh.gltf_import"
--   local file, err = import.read("edited.gltf")     -- or a .glb
--   local result, err = import.bundle(file, base, { only = { crate = true } })
--   -- result.writer: an rsxmesh.writer holding the new bundle
--   -- result.meshes: per base mesh { label =, state =, changed =,
--   --                derived =, kept = } (see doc/scripts.md)
--
-- The glTF is compared with what gltf-export writes for each base mesh
-- (rsxmesh.gltf, the same code): an attribute whose bytes equal the
-- export's keeps the base's stored bytes, NaN payloads and padding
-- included, and only what differs is encoded again, by m:with. A mesh
-- whose vertices or triangles differ is rebuilt as a triangle list.
-- Every failure is one message naming the file, the mesh and the accessor;
-- nothing is built unless every mesh succeeds.

local reading = require "rsxmesh.gltf_import.reading"
local matching = require "rsxmesh.gltf_import.matching"
local attributes = require "rsxmesh.gltf_import.attributes"
local records = require "rsxmesh.gltf_import.records"
local transforms = require "rsxmesh.gltf_import.transforms"

local gltf = require "rsxmesh.gltf"
local json = require "rsxmesh.json"
local rsxmesh = require "rsxmesh"

local fail, guarded = reading.fail, reading.guarded
local accessor = reading.accessor

local import = {}

-- What gltf-export writes for mesh m, in memory: the primitives, the
-- submeshes they came from ({ s =, index = }, in order: those with
-- triangles), and bytes(i) of accessor i. nil and the export's first
-- error when it writes nothing.
local function exported(m)
  local doc = gltf.new{}
  doc.material = function() return nil end -- materials play no part
  -- each view kept in memory, in the order of the views, and made bytes
  -- only when asked for: some are never compared (TANGENT)
  local kept = {}
  doc.view = function(_, bytes)
    kept[#kept + 1] = bytes
    return #kept - 1
  end
  -- the submesh of each primitive, as the export counted its triangles
  local subs = {}
  local primitive = doc.primitive
  doc.primitive = function(self, p, ...)
    subs[#subs + 1] = { s = p.s, index = p.index }
    return primitive(self, p, ...)
  end
  local r = doc:add_mesh(m)
  if not r.written then return nil, r.errors[1] or "no triangles" end
  return {
    primitives = doc.meshes[1].primitives,
    accessors = doc.accessors,
    subs = subs,
    bytes = function(i)
      if i == nil then return nil end
      local v = doc.accessors[i + 1].bufferView + 1
      kept[v] = gltf.view_bytes(kept[v])
      return kept[v]
    end,
  }
end

-- The import of one glTF mesh into one base mesh, a step per method. The
-- steps fill t, the argument of m:with, with what differs from the base,
-- and the report with what changed, was derived or was kept.
local Job = {}
Job.__index = Job
-- the phases' methods, each defined once
for _, phase in ipairs({ matching, attributes }) do
  for name, method in pairs(phase) do
    assert(Job[name] == nil, name)
    Job[name] = method
  end
end

-- A job for glTF mesh g into base mesh m; world is the node's
-- matrix, nil for the identity; tangents, import.bundle's opts.tangents.
local function new_job(file, g, m, world, tangents)
  local label = m.label -- as the core's messages name it
  local job = setmetatable({ file = file, g = g, m = m, world = world,
    label = label, where = file.path .. ": " .. label,
    new_tangents = tangents, -- not "tangents": Job:tangents is a step
    report = { label = label, changed = {}, derived = {}, kept = {} },
    t = {}, columns = {}, changes = {},
    -- a mesh's accessors read once for it: its primitives share them
    -- (gltf-export's do), and no other mesh uses them (gltf-export gives
    -- each its own), so they go with the job
    read = {} }, Job)
  local E, why = exported(m)
  if not E then
    fail("%s: the base mesh cannot be exported, so not compared: %s",
      job.where, tostring(why))
  end
  job.E, job.e_attrs = E, E.primitives[1].attributes
  job.subs = E.subs
  job.prims = type(g.primitives) == "table" and g.primitives or {}
  return job
end

function Job:note(list, text)
  local l = self.report[list]
  l[#l + 1] = text
end

-- kind (nil: the triangles) encoded again: reported as changed when its
-- bytes then differ from the base's (Job:differs)
function Job:changed(kind, text)
  self.changes[#self.changes + 1] = { kind = kind, text = text }
end

-- The accessor i of primitive p, named as messages name it.
function Job:accessor(i, p, name)
  return accessor(self.file, i, self.read, self.where, p, name)
end

-- The decoded values of a base attribute (acc:range()), read once.
function Job:base_range(kind)
  self.ranges = self.ranges or {}
  local r = self.ranges[kind]
  if not r then
    r = assert(self.m:attribute(kind)):range()
    self.ranges[kind] = r
  end
  return r
end

local STEPS = { "primitives", "positions", "normals", "colours",
  "tangents", "uv_sets", "raw_kinds", "triangles" }

-- Import glTF mesh g into base mesh m. Returns the mesh to write (m
-- itself when its bytes come out the same) and its report.
local function import_mesh(file, g, m, world, tangents)
  local job = new_job(file, g, m, world, tangents)
  job.report.state = "unchanged"
  if job:verbatim() then return m, job.report end
  job:primitives()
  local same, why = false, nil
  if not job:as_written() then
    same, why = job:untouched()
  end
  if same then
    local copy = job.painted and job:painted_copy()
    if copy then return copy, job.report end
    job:note("kept", "every byte (positions and UVs are the base's)")
    return m, job.report
  end
  job.report.why = why
  for k = 2, #STEPS do job[STEPS[k]](job) end
  if next(job.t) == nil then return m, job.report end
  local copy, err = m:with(job.t)
  if not copy then fail("%s: %s", job.where, err) end
  -- what was encoded again into the very bytes the base has is no change
  local changed = not job.same_layout
  for _, c in ipairs(job.changes) do
    if not c.kind or job:differs(copy, c.kind) then
      job:note("changed", c.text)
      changed = true
    end
  end
  for _, kind in ipairs(rsxmesh.kinds) do
    changed = changed or (job.t[kind] ~= nil and job:differs(copy, kind))
  end
  if not changed then return m, job.report end
  job.report.state = "changed"
  return copy, job.report
end

-- --------------------------------------------------------------- bundle

-- Read a .gltf with its buffers, or a .glb: { path =, json =, buffers =,
-- files = (the paths read: the document's, then its buffer files') } or
-- nil and a message naming the file. The buffer files are only opened:
-- import.bundle reads the pieces it needs.
import.read = reading.read

-- The facts a --records hook receives of mesh m (doc/scripts.md).
import.mesh_facts = records.mesh_facts

-- The name a base mesh has in a glTF: gltf-export writes a name that is
-- not UTF-8 byte by byte as Latin-1.
local function gltf_name(name)
  return json.utf8(name)
end

-- A writer of base's string table, materials and first n meshes.
local function base_writer(base, n)
  local w = rsxmesh.writer(base)
  for _, mat in base:materials() do
    assert(w:material(mat.name, mat:samplers()))
  end
  for k = 1, n do assert(w:mesh(base:mesh(k))) end
  return w
end

-- Import the glTF file (from import.read) into base (a bundle): opts.only
-- (a set of mesh names, or nil for all), opts.progress(k, n) (called
-- before base mesh k of n), opts.records (a hook's table, { meta =
-- function(bytes, facts, base_facts), submesh = function(bytes, facts,
-- base_facts, mesh_facts) }, each returning a record's new bytes or nil;
-- opts.records_name names it in messages), opts.tangents ("computed": an
-- editor's new vertices take tangent vectors made from TANGENT or their
-- UVs, not their base vertices'; doc/scripts.md). A changed mesh's report has
-- stale (what its records may say wrongly) and, with a hook, records
-- (those it rewrote). Returns { writer =, meshes =, kept = (every
-- mesh is the base's own: the base file is the output) } or nil and a
-- message.
function import.bundle(file, base, opts)
  opts = opts or {}
  local r, err = guarded(function()
    local t = file.json
    local world = transforms.mesh_transforms(file)
    -- base meshes by name, in order: the k-th glTF mesh named X is the
    -- k-th base mesh named X (X.001 and so on after them: Blender's)
    local by_name = {}
    for k, m in base:meshes() do
      local key = gltf_name(m.name)
      by_name[key] = by_name[key] or {}
      table.insert(by_name[key], k)
    end
    local taken = {}
    local match = {} -- base mesh number -> glTF mesh index
    if t.meshes ~= nil and (type(t.meshes) ~= "table"
        or (#t.meshes == 0 and next(t.meshes) ~= nil)) then
      fail("%s: meshes is not an array", file.path)
    end
    -- glTF mesh gi named name takes the next base mesh of that name
    local function take(gi, name, shown_name)
      if opts.only and not opts.only[name] then return end
      local list = by_name[name]
      local n = (taken[name] or 0) + 1
      taken[name] = n
      if not list or not list[n] then
        fail("%s: glTF mesh %d (%s) matches no mesh of %s%s", file.path,
          gi - 1, shown_name, base.path, list and string.format(": it has"
          .. " %d named %s, each taken by an earlier glTF mesh", #list,
          name) or "")
      end
      match[list[n]] = gi
    end
    -- Blender names a second object of one name NAME.001, the next
    -- NAME.002, ...: a glTF mesh named so, where no base mesh is, is NAME
    -- again, after the glTF meshes named NAME itself, in the order of the
    -- suffixes (the base's duplicates in their order)
    local renamed = {}
    for gi, g in ipairs(t.meshes or {}) do
      local name = type(g) == "table" and g.name or nil
      if type(name) ~= "string" then
        fail("%s: glTF mesh %d has no name to match a base mesh by",
          file.path, gi - 1)
      end
      local stem, suffix = name:match("^(.+)%.(%d%d%d+)$")
      if not by_name[name] and stem and by_name[stem] then
        renamed[#renamed + 1] = { gi = gi, name = stem, shown = name,
          suffix = tonumber(suffix) }
      else
        take(gi, name, name)
      end
    end
    table.sort(renamed, function(a, b)
      if a.suffix ~= b.suffix then return a.suffix < b.suffix end
      return a.gi < b.gi
    end)
    for _, r in ipairs(renamed) do take(r.gi, r.name, r.shown) end
    -- a name to import that names no glTF mesh is a slip, not "nothing
    -- to do": the bundle would come out as the base, said to be imported
    local missing = {}
    for name in pairs(opts.only or {}) do
      if not taken[name] then missing[#missing + 1] = name end
    end
    table.sort(missing)
    if #missing > 0 then
      fail("%s: no glTF mesh is named '%s'", file.path,
        table.concat(missing, "', '"))
    end

    -- the writer is made at the first changed mesh, with the base's
    -- meshes before it: an unchanged bundle (the base file is the output)
    -- costs no copy of every mesh into one
    local w
    local function write(m)
      local ok, err = w:mesh(m)
      if not ok then fail("%s: %s", file.path, err) end
    end
    local reports, kept = {}, true
    for k, m in base:meshes() do
      if opts.progress then opts.progress(k, #base) end
      local gi = match[k]
      local out, rep
      if gi then
        out, rep = import_mesh(file, t.meshes[gi], m, world[gi - 1],
          opts.tangents)
        if out ~= m then
          rep.stale = records.stale_facts(m, out)
          if opts.records then
            local where = file.path .. ": " .. m.label
            out, rep.records = records.rewrite(out, m, opts.records, where,
              opts.records_name or "--records")
          end
        end
      else
        out = m
        rep = { label = m.label,
          state = opts.only and not opts.only[m.name] and "not selected"
            or "not in the glTF", changed = {}, derived = {}, kept = {} }
      end
      if out ~= m and not w then
        w = base_writer(base, k - 1)
      end
      if w then write(out) end
      reports[k] = rep
      kept = kept and out == m
    end
    local result = { writer = w, meshes = reports, kept = kept }
    if not w then
      -- every mesh the base's: its writer only if a caller asks for it
      setmetatable(result, { __index = function(_, key)
        if key ~= "writer" then return nil end
        result.writer = base_writer(base, #base)
        return result.writer
      end })
    end
    return result
  end)
  reading.close_buffers(file)
  return r, err
end

return import
