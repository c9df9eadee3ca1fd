-- uv-selectors.lua - which stored UV set feeds each logical UV, per submesh
--
-- A submesh's four selector bytes (record offset 0x38) name the stored UV
-- set behind each logical UV0-3; 0xFF keeps the set of the same number.
-- This lists them with the resolved sets and the base-colour texture,
-- then the distinct combinations, commonest first.

local cli = require "rsxmesh.cli"
local text = require "rsxmesh.text"
local json = require "rsxmesh.json"
local Run = require "rsxmesh.run"
local jobs = require "rsxmesh.jobs"

local opts, args = cli.parse(arg, {
  name = "uv-selectors",
  jobs = true,
  usage = "rsxmesh uv-selectors [options] BUNDLE|FOLDER...",
  about = "For each submesh: mesh, submesh number, selector bytes, the\n"
    .. "stored UV set each logical UV0-3 takes (- when absent) and the\n"
    .. "base-colour texture; then the distinct selector combinations,\n"
    .. "commonest first.",
  options = {
    { long = "tsv", help = "tab-separated lines for other tools: bundle, "
      .. "mesh, submesh, selectors, uv0-uv3" },
    { long = "json", help = "one JSON document on stdout (its shape: "
      .. "doc/scripts.md)" },
  },
  check = function(opts)
    if opts.tsv and opts.json then
      return "--tsv and --json exclude each other"
    end
  end,
})

local run = Run.new(opts)
local combos, submeshes = {}, 0
local records = {} -- --json: a record per submesh

-- One row per submesh of the bundle: mesh, submesh, selectors, uv0..uv3,
-- base colour.
local function bundle_rows(bundle)
  local rows = {}
  for _, mesh in bundle:meshes() do
    for i, s in mesh:submeshes() do
      local row = { mesh.name, tostring(i), s.selectors }
      for uv = 0, 3 do row[#row + 1] = tostring(s:uv_set(uv) or "-") end
      row[#row + 1] = s.material and s.material.base_colour or "-"
      rows[#rows + 1] = row
    end
  end
  return rows
end

-- Rows as text columns: names left-aligned, numbers right-aligned.
local HEADER = { "mesh", "submesh", "selectors", "uv0", "uv1", "uv2", "uv3",
  "base colour" }
local RIGHT = { false, true, false, true, true, true, true, false }

local function columns(rows)
  local width = {}
  for c, h in ipairs(HEADER) do width[c] = #h end
  for _, row in ipairs(rows) do
    for c, v in ipairs(row) do width[c] = math.max(width[c], #v) end
  end
  local out = {}
  for r = 0, #rows do
    local row, cells = rows[r] or HEADER, {}
    for c, v in ipairs(row) do
      local pad = string.rep(" ", width[c] - #v)
      cells[c] = RIGHT[c] and pad .. v or (c < #row and v .. pad or v)
    end
    out[#out + 1] = "  " .. table.concat(cells, "  ") .. "\n"
  end
  return table.concat(out)
end

if opts.tsv then
  io.write("bundle\tmesh\tsubmesh\tselectors\tuv0\tuv1\tuv2\tuv3\n")
end

-- A --tsv field: a backslash, tab, newline or carriage return in it (a
-- mesh may be named so) written as \\, \t, \n or \r, so that it cannot
-- split its row.
local TSV_ESCAPE = { ["\\"] = "\\\\", ["\t"] = "\\t", ["\n"] = "\\n",
  ["\r"] = "\\r" }
local function tsv_row(fields)
  local t = {}
  for k, f in ipairs(fields) do t[k] = f:gsub("[\\\t\n\r]", TSV_ESCAPE) end
  return table.concat(t, "\t") .. "\n"
end

-- The --json record of a submesh: the stored set of each logical UV, null
-- when absent.
local function submesh_json(path, number, mesh, i, s)
  local uv = {}
  for k = 0, 3 do uv[k + 1] = s:uv_set(k) or json.NULL end
  return { bundle = path, mesh = mesh.name, mesh_number = number,
    submesh = i, selectors = s.selectors, uv = uv,
    base_colour = s.material and s.material.base_colour or json.NULL }
end

run:each(args, function(bundle, input)
  local rows = bundle_rows(bundle)
  for _, row in ipairs(rows) do
    combos[row[3]] = (combos[row[3]] or 0) + 1
  end
  submeshes = submeshes + #rows
  if opts.json then
    for k, mesh in bundle:meshes() do
      for i, s in mesh:submeshes() do
        records[#records + 1] = submesh_json(input.path, k, mesh, i, s)
      end
    end
  elseif opts.tsv then
    for _, row in ipairs(rows) do
      io.write(tsv_row({ input.path, table.unpack(row, 1, 7) }))
    end
  else
    io.write(input.path, "\n", columns(rows), "\n")
  end
end, { state = function() return { combos, submeshes, records } end,
       reset = function() combos, submeshes, records = {}, 0, {} end,
       merge = function(t)
         jobs.add(combos, t[1])
         submeshes = submeshes + t[2]
         for _, r in ipairs(t[3]) do records[#records + 1] = r end
       end,
       share_bytes = jobs.LIGHT_SHARE_BYTES })

local list = {}
for sel, n in pairs(combos) do list[#list + 1] = { sel = sel, n = n } end
table.sort(list, function(a, b)
  if a.n ~= b.n then return a.n > b.n end
  return a.sel < b.sel
end)

if opts.json then
  local c = {}
  for k, x in ipairs(list) do c[k] = { selectors = x.sel, submeshes = x.n } end
  local empty = require("rsxmesh.json").EMPTY
  cli.write_json({ submeshes = #records > 0 and records or empty,
    combinations = #c > 0 and c or empty }, { "submeshes", "combinations",
    "bundle", "mesh", "mesh_number", "submesh", "selectors", "uv",
    "base_colour" })
elseif not opts.tsv then
  io.write(string.format("%s over %s, commonest first:\n",
    text.plural(#list, "distinct combination"),
    text.plural(submeshes, "submesh", "submeshes")))
  for _, c in ipairs(list) do
    io.write("  ", c.sel, " (", text.plural(c.n, "submesh", "submeshes"),
      ")\n")
  end
end

run:finish(string.format("%s, %s, %s", text.plural(run.ok, "bundle"),
  text.plural(submeshes, "submesh", "submeshes"),
  text.plural(#list, "combination")))
