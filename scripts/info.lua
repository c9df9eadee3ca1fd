-- info.lua - a line per mesh: mask, vertices, strides, submeshes, findings
--
-- With --declaration, each submesh adds the RSX vertex declaration the
-- engine would write for it: per attribute register, the format method
-- 0x1740 + 4*reg with its word and the offset method 0x1680 + 4*reg with
-- its word.

local cli = require "rsxmesh.cli"
local jobs = require "rsxmesh.jobs"
local text = require "rsxmesh.text"
local json = require "rsxmesh.json"
local Run = require "rsxmesh.run"

local opts, args = cli.parse(arg, {
  name = "info",
  jobs = true,
  usage = "rsxmesh info [options] BUNDLE|FOLDER...",
  about = "A line per mesh: name, mask, vertex count, stored MMP and MGP\n"
    .. "strides, submesh count and findings.",
  options = {
    { long = "declaration",
      help = "add the RSX vertex declaration of each submesh" },
    { long = "mesh", arg = "NAME|NUMBER", list = true,
      help = "only this mesh: its number in the bundle, or its exact name"
        .. " (repeatable)" },
    { long = "json", help = "one JSON document on stdout (its shape: "
      .. "doc/scripts.md)" },
  },
})

local run = Run.new(opts)
local meshes = 0
local json_empty = require("rsxmesh.json").EMPTY

-- The findings of a mesh and its submeshes, on one line; "-" if none.
local function findings_text(mesh)
  local t = {}
  for _, f in ipairs(mesh.findings) do
    t[#t + 1] = f.code .. ": " .. f.message
  end
  for i, s in mesh:submeshes() do
    for _, f in ipairs(s.findings) do
      t[#t + 1] = "submesh " .. i .. " " .. f.code .. ": " .. f.message
    end
  end
  return #t > 0 and table.concat(t, "; ") or "-"
end

-- The declaration of submesh s, a line per register.
local function declaration_text(s)
  local lines = {}
  for _, d in ipairs(s:declaration()) do
    local what = d.kind
    if d.logical_uv and d.logical_uv >= 0 then
      what = "UV" .. d.logical_uv .. " from " .. d.kind
    end
    lines[#lines + 1] = string.format(
      "      reg %2d  %-12s  0x%04x = 0x%08x  0x%04x = 0x%08x\n", d.reg,
      what, d.format_method, d.format_word, d.offset_method, d.offset_word)
  end
  return table.concat(lines)
end

local function submesh_text(s)
  local mat = s.material
  return string.format("    submesh %d: selectors %s, material %s, "
    .. "indices %d+%d\n", s.index, s.selectors, mat and mat.name or "-",
    s.first_index, s.index_count) .. declaration_text(s)
end

-- ------------------------------------------------------------------ --json

local function findings_json(list)
  local t = {}
  for k, f in ipairs(list) do t[k] = { code = f.code, message = f.message } end
  return #t > 0 and t or json_empty
end

local function submesh_json(s)
  local t = { number = s.index, selectors = s.selectors,
    material = s.material and s.material.name or json.NULL,
    first_index = s.first_index, index_count = s.index_count,
    findings = findings_json(s.findings) }
  if opts.declaration then
    t.declaration = {}
    for k, d in ipairs(s:declaration()) do
      t.declaration[k] = { reg = d.reg, kind = d.kind,
        logical_uv = d.logical_uv and d.logical_uv >= 0 and d.logical_uv
          or json.NULL,
        format_method = d.format_method, format_word = d.format_word,
        offset_method = d.offset_method, offset_word = d.offset_word }
    end
  end
  return t
end

local function mesh_json(number, mesh)
  local subs = {}
  for i, s in mesh:submeshes() do subs[i] = submesh_json(s) end
  return { number = number, name = mesh.name, mask = mesh.mask,
    mask_hex = text.hex8(mesh.mask), vertices = mesh.vertex_count,
    mmp_stride = mesh.mmp_stride, mgp_stride = mesh.mgp_stride,
    findings = findings_json(mesh.findings),
    submeshes = #subs > 0 and subs or json_empty }
end

local JSON_ORDER = { "bundles", "path", "number", "name", "size",
  "mesh_count", "submesh_count", "material_count", "mask", "mask_hex",
  "vertices", "mmp_stride", "mgp_stride", "selectors", "material",
  "first_index", "index_count", "code", "message", "findings", "reg",
  "kind", "logical_uv", "format_method", "format_word", "offset_method",
  "offset_word", "declaration", "meshes", "submeshes" }

-- ------------------------------------------------------------------- text

local HEADER = { "mesh", "mask", "vertices", "MMP", "MGP", "submeshes",
  "findings" }
local RIGHT = { false, false, true, true, true, true, false }

local bundles = {}

run:each(args, function(bundle, input)
  local selected = cli.selected_meshes(run, bundle, input, opts.mesh)
  if opts.json then
    local list = {}
    for _, mesh in ipairs(selected) do
      list[#list + 1] = mesh_json(mesh.number, mesh)
    end
    bundles[#bundles + 1] = { path = input.path, size = bundle.size,
      mesh_count = #bundle, submesh_count = bundle.submesh_count,
      material_count = bundle.material_count,
      meshes = #list > 0 and list or json_empty }
    meshes = meshes + #list
    return
  end
  local rows, list = {}, {}
  for _, mesh in ipairs(selected) do
    list[#list + 1] = mesh
    rows[#rows + 1] = { mesh.name, text.hex8(mesh.mask),
      tostring(mesh.vertex_count), tostring(mesh.mmp_stride),
      tostring(mesh.mgp_stride), tostring(mesh.submesh_count),
      findings_text(mesh) }
  end
  local width = {}
  for c, h in ipairs(HEADER) do width[c] = #h end
  for _, r in ipairs(rows) do
    for c, v in ipairs(r) do width[c] = math.max(width[c], #v) end
  end
  local out = { string.format("%s: %s, %s, %s, %s\n", input.path,
    text.plural(#bundle, "mesh", "meshes"),
    text.plural(bundle.submesh_count, "submesh", "submeshes"),
    text.plural(bundle.material_count, "material"),
    text.plural(bundle.size, "byte")) }
  for r = 0, #rows do
    local cells = {}
    for c, v in ipairs(rows[r] or HEADER) do
      local pad = string.rep(" ", width[c] - #v)
      cells[c] = RIGHT[c] and pad .. v or (c < #HEADER and v .. pad or v)
    end
    out[#out + 1] = "  " .. table.concat(cells, "  ") .. "\n"
    if r > 0 and opts.declaration then
      for _, s in list[r]:submeshes() do out[#out + 1] = submesh_text(s) end
    end
  end
  io.write(table.concat(out))
  meshes = meshes + #list
end, { state = function() return { meshes, bundles } end,
       reset = function() meshes, bundles = 0, {} end,
       merge = function(t)
         meshes = meshes + t[1]
         for _, b in ipairs(t[2]) do bundles[#bundles + 1] = b end
       end,
       share_bytes = jobs.LIGHT_SHARE_BYTES })

if opts.json then
  cli.write_json({ bundles = #bundles > 0 and bundles or json_empty },
    JSON_ORDER)
end
run:finish(text.plural(run.ok, "bundle") .. ", "
  .. text.plural(meshes, "mesh", "meshes"))
