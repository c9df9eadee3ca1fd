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

local json = require "rsxmesh.json"
local rsxmesh = require "rsxmesh"

local fail, guarded = reading.fail, reading.guarded

local import = {}

-- Append the texts of list to the report's list of that name.
local function noted(report, name, list)
  table.move(list, 1, #list, #report[name] + 1, report[name])
end

-- Import glTF mesh g into base mesh m (world: the node's matrix, nil for
-- the identity), the phases in turn, each given the one before's value:
-- the source (matching.source), its match (matching.match), the
-- attributes built from it (attributes.build), and the copy m:with makes
-- of them; tangents: import.bundle's opts.tangents. Returns the mesh to
-- write (m itself when its bytes come out the same) and its report.
local function import_mesh(file, g, m, world, tangents)
  local src = matching.source(file, g, m, world)
  local report = { label = src.label, state = "unchanged", changed = {},
    derived = {}, kept = {} }
  if matching.verbatim(src) then return m, report end
  local match = matching.match(src)
  noted(report, "derived", match.derived)
  local same, why, painted = false, nil, nil
  if not match:as_written() then
    same, why, painted = match:untouched()
  end
  if same then
    local copy = painted and attributes.painted_copy(match, painted)
    if copy then
      report.state, report.why = "changed", "its colours"
      noted(report, "changed", { "colours (COLOR_0, rounded to bytes;"
        .. " positions and UVs are the base's: every other byte kept)" })
      return copy, report
    end
    noted(report, "kept", { "every byte (positions and UVs are the"
      .. " base's)" })
    return m, report
  end
  report.why = why
  local built = attributes.build(match, { tangents = tangents })
  noted(report, "kept", built.kept)
  noted(report, "derived", built.derived)
  if next(built.t) == nil then return m, report end
  local copy, err = m:with(built.t)
  if not copy then fail("%s: %s", match.where, err) end
  -- what was encoded again into the very bytes the base has is no change
  local changed = not match.same_layout
  for _, c in ipairs(built.changes) do
    if not c.kind or attributes.differs(match, copy, c.kind) then
      noted(report, "changed", { c.text })
      changed = true
    end
  end
  for _, kind in ipairs(rsxmesh.kinds) do
    changed = changed
      or (built.t[kind] ~= nil and attributes.differs(match, copy, kind))
  end
  if not changed then return m, report end
  report.state = "changed"
  return copy, report
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

-- A writer of base's string table, materials and first n meshes, that
-- lays the file out as base is (rsxmesh.writer's layout = "base").
local function base_writer(base, n)
  local w = rsxmesh.writer(base, { layout = "base" })
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
