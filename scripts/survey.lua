-- survey.lua - the research note's statistics over bundles, as Markdown
--
-- Counts what the note counts over the whole disc, in its notation: the
-- layout table (mask, meshes, MGP stride, MGP order), stride mismatches,
-- normal and tangent lengths, UV and colour ranges, selector combinations,
-- the tree extras, and every finding the reader reported.

local rsxmesh = require "rsxmesh"
local cli = require "rsxmesh.cli"
local text = require "rsxmesh.text"
local json = require "rsxmesh.json"
local Run = require "rsxmesh.run"
local jobs = require "rsxmesh.jobs"

local opts, args = cli.parse(arg, {
  name = "survey",
  jobs = true,
  usage = "rsxmesh survey [options] BUNDLE|FOLDER...",
  about = "Print the research note's statistics over all the bundles given\n"
    .. "(folders are searched for *.rsxb), as Markdown on stdout.",
  options = {
    { long = "json", help = "the same statistics as one JSON document "
      .. "(its shape: doc/scripts.md)" },
  },
})

-- The note: "within 0.005 of unit length", as the core defines it
local UNIT_TOLERANCE = rsxmesh.UNIT_TOLERANCE
-- The note's letters for the MGP attributes; the extras carry their offset
local LETTER = { colour = "C", tangent_a = "A", tangent_b = "B", uv0 = "U0",
  uv1 = "U1", uv2 = "U2", uv3 = "U3", extra_a = "X", extra_b = "Y",
  s32k2 = "s32k2", half4 = "half4" }
local WITH_OFFSET = { extra_a = true, extra_b = true, s32k2 = true,
  half4 = true }

local run = Run.new(opts)
local fmt, count, plural = rsxmesh.fmt, text.count, text.plural

local total         -- bundles, meshes, submeshes, vertices, packed, ...
local masks         -- mask -> meshes
local strides       -- stride findings: { file, mesh, stream, ... }
local findings      -- every finding: { file, where, code, message }
local combos, combo_count -- selectors -> submeshes
local bytes         -- selector byte -> true
local lengths       -- kind -> { count, zero, off, max_dev, max_len }
local ranges        -- kind -> { meshes, vertices, min = {}, max = {} }

-- Empty statistics (a worker of -j starts each bundle from these).
local function reset()
  total = { bundles = 0, meshes = 0, submeshes = 0, vertices = 0,
    packed = 0, undecoded = 0 }
  masks, strides, findings, combos, combo_count = {}, {}, {}, {}, 0
  bytes, lengths, ranges = {}, {}, {}
end
reset()

-- Vector lengths of a CMP accessor, measured in C by acc:lengths: zero
-- vectors, nonzero ones off unit by more than the tolerance, the largest
-- deviation and length.
local function tally_lengths(kind, acc)
  local t = lengths[kind]
  if not t then
    t = { count = 0, zero = 0, off = 0, max_dev = 0, max_len = 0 }
    lengths[kind] = t
  end
  local l = acc:lengths(UNIT_TOLERANCE)
  t.count = t.count + #acc
  t.zero, t.off = t.zero + l.zero, t.off + l.off
  -- deviation and max are nil when no nonzero length was measured
  t.max_dev = math.max(t.max_dev, l.deviation or 0)
  t.max_len = math.max(t.max_len, l.max or 0)
end

-- The smaller (larger) of a and b where b may be NaN, a nil or NaN: NaN
-- only when nothing else was seen, so that the extremes do not depend on
-- the order the meshes come in (nor on which process saw which).
local function least(a, b)
  if a == nil or a ~= a or b < a then return b end
  return a
end

local function greatest(a, b)
  if a == nil or a ~= a or b > a then return b end
  return a
end

-- Per-component extremes of an accessor, over all meshes.
local function tally_range(kind, acc, mask)
  local r = ranges[kind]
  if not r then
    r = { meshes = 0, vertices = 0, masks = {} }
    ranges[kind] = r
  end
  r.meshes = r.meshes + 1
  r.vertices = r.vertices + #acc
  r.masks[mask] = true
  if #acc == 0 then return end
  local lo, hi = acc:bounds()
  r.min, r.max = r.min or {}, r.max or {}
  for c = 1, #lo do
    r.min[c] = least(r.min[c], lo[c])
    r.max[c] = greatest(r.max[c], hi[c])
  end
end

-- A worker's statistics (see rsxmesh.jobs) added to these: sums added,
-- lists appended, sets joined, extremes compared.
local function set_join(into, from)
  for k in pairs(from) do into[k] = true end
end

local function list_append(into, from)
  for _, x in ipairs(from) do into[#into + 1] = x end
end

local function merge(w)
  jobs.add(total, w.total)
  jobs.add(masks, w.masks)
  list_append(strides, w.strides)
  list_append(findings, w.findings)
  jobs.add(combos, w.combos)
  combo_count = combo_count + w.combo_count
  set_join(bytes, w.bytes)
  for kind, l in pairs(w.lengths) do
    local t = lengths[kind]
    if not t then
      lengths[kind] = l
    else
      t.count, t.zero, t.off = t.count + l.count, t.zero + l.zero,
        t.off + l.off
      t.max_dev = math.max(t.max_dev, l.max_dev)
      t.max_len = math.max(t.max_len, l.max_len)
    end
  end
  for kind, x in pairs(w.ranges) do
    local r = ranges[kind]
    if not r then
      ranges[kind] = x
    else
      r.meshes, r.vertices = r.meshes + x.meshes, r.vertices + x.vertices
      set_join(r.masks, x.masks)
      if x.min then
        r.min, r.max = r.min or {}, r.max or {}
        for c = 1, #x.min do
          r.min[c] = least(r.min[c], x.min[c])
          r.max[c] = greatest(r.max[c], x.max[c])
        end
      end
    end
  end
end

local function state()
  return { total = total, masks = masks, strides = strides,
    findings = findings, combos = combos, combo_count = combo_count,
    bytes = bytes, lengths = lengths, ranges = ranges }
end

-- A finding: the table's cells, and by name what --json gives.
local function finding(file, where, f, mesh, submesh)
  findings[#findings + 1] = { file, where, f.code, f.message,
    mesh = mesh.number, name = mesh.name, submesh = submesh }
end

local STRIDE_FINDING = { ["mmp-stride"] = "MMP", ["mgp-stride"] = "MGP" }
local LENGTH_KINDS = { normal = true, tangent_a = true, tangent_b = true }
local RANGE_KINDS = { uv0 = true, uv1 = true, uv2 = true, uv3 = true,
  colour = true, extra_a = true, extra_b = true }

local function survey_mesh(file, mesh)
  local where = mesh.label -- as the module's messages name it
  masks[mesh.mask] = (masks[mesh.mask] or 0) + 1
  if mesh.format.packed then total.packed = total.packed + 1 end
  total.vertices = total.vertices + mesh.vertex_count
  for _, f in ipairs(mesh.findings) do
    finding(file, where, f, mesh)
    local stream = STRIDE_FINDING[f.code]
    if stream then
      strides[#strides + 1] = { file, where, text.hex8(mesh.mask), stream,
        stream == "MMP" and mesh.mmp_stride or mesh.mgp_stride,
        stream == "MMP" and mesh.format.mmp_stride or mesh.format.mgp_stride,
        mesh = mesh.number, name = mesh.name, mask = mesh.mask }
    end
  end
  for i, s in mesh:submeshes() do
    combos[s.selectors] = (combos[s.selectors] or 0) + 1
    combo_count = combo_count + 1
    for b = 0, 3 do bytes[s:selector(b)] = true end
    for _, f in ipairs(s.findings) do
      finding(file, where .. ", submesh " .. i, f, mesh, i)
    end
  end
  total.submeshes = total.submeshes + mesh.submesh_count
  local decoded = true
  for _, kind in ipairs(mesh:attributes()) do
    if LENGTH_KINDS[kind] or RANGE_KINDS[kind] then
      local acc = mesh:attribute(kind)
      if not acc then
        decoded = false -- a finding touches it, and is listed
      elseif LENGTH_KINDS[kind] then
        tally_lengths(kind, acc)
      else
        tally_range(kind, acc, mesh.mask)
      end
    end
  end
  if not decoded then total.undecoded = total.undecoded + 1 end
end

run:each(args, function(bundle, input)
  for k, mesh in bundle:meshes() do
    run:progress("%s: mesh %d of %d", run.label, k, #bundle)
    survey_mesh(input.path, mesh)
  end
  total.bundles = total.bundles + 1
  total.meshes = total.meshes + #bundle
end, { state = state, reset = reset, merge = merge,
       share_bytes = jobs.LIGHT_SHARE_BYTES })

-- no bundle read (a folder without any): the failures say why, and an
-- empty report would only hide them
if total.bundles == 0 then run:finish("no bundle read") end

-- ------------------------------------------------------------------ --json

local function sorted_keys(t, cmp)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, cmp)
  return keys
end

-- The selector combinations, commonest first (then by their text).
local function combo_list()
  return sorted_keys(combos, function(x, y)
    if combos[x] ~= combos[y] then return combos[x] > combos[y] end
    return x < y
  end)
end

local NULL, EMPTY = json.NULL, require("rsxmesh.json").EMPTY
local function list_or_empty(t) return #t > 0 and t or EMPTY end

local function lengths_json(kind)
  local l = lengths[kind]
  if not l then return NULL end
  return { count = l.count, zero = l.zero, off = l.off,
    max_deviation = l.max_dev, max_length = l.max_len }
end

local function range_json(r, t)
  t.meshes, t.vertices = r.meshes, r.vertices
  t.min, t.max = r.min, r.max
  return t
end

local function survey_json()
  local doc = { bundles = total.bundles, meshes = total.meshes,
    submeshes = total.submeshes, vertices = total.vertices,
    packed = total.packed, undecoded = total.undecoded,
    unit_tolerance = UNIT_TOLERANCE, layouts = {}, strides = {},
    normals = lengths_json("normal"), tangent_a = lengths_json("tangent_a"),
    tangent_b = lengths_json("tangent_b"), uv_sets = {}, colours = NULL,
    extras = {}, findings = {} }
  for _, mask in ipairs(sorted_keys(masks)) do
    local f, mgp = rsxmesh.format(mask), {}
    for k, kind in ipairs(f:order()) do
      mgp[k] = { kind = kind, offset = f:info(kind).offset }
    end
    doc.layouts[#doc.layouts + 1] = { mask = mask, mask_hex = text.hex8(mask),
      meshes = masks[mask], mmp_stride = f.mmp_stride,
      mgp_stride = f.mgp_stride, mgp = list_or_empty(mgp) }
  end
  for k, s in ipairs(strides) do
    doc.strides[k] = { bundle = s[1], mesh = s.mesh, name = s.name,
      mask = s.mask, mask_hex = s[3], stream = s[4], stored = s[5],
      implied = s[6] }
  end
  for set = 0, 3 do
    local r = ranges["uv" .. set]
    if r and r.min then
      doc.uv_sets[#doc.uv_sets + 1] = range_json(r, { set = set })
    end
  end
  if ranges.colour and ranges.colour.min then
    doc.colours = range_json(ranges.colour, {})
  end
  for _, kind in ipairs({ "extra_a", "extra_b" }) do
    local r = ranges[kind]
    if r and r.min then
      local m = {}
      for _, mask in ipairs(sorted_keys(r.masks)) do m[#m + 1] = mask end
      doc.extras[#doc.extras + 1] = range_json(r, { kind = kind, masks = m })
    end
  end
  local combinations = {}
  for k, sel in ipairs(combo_list()) do
    combinations[k] = { selectors = sel, submeshes = combos[sel] }
  end
  doc.selectors = { bytes = list_or_empty(sorted_keys(bytes)),
    submeshes = combo_count, combinations = list_or_empty(combinations) }
  for k, f in ipairs(findings) do
    doc.findings[k] = { bundle = f[1], mesh = f.mesh, name = f.name,
      submesh = f.submesh or NULL, code = f[3], message = f[4] }
  end
  for _, key in ipairs({ "layouts", "strides", "uv_sets", "extras",
    "findings" }) do
    doc[key] = list_or_empty(doc[key])
  end
  return doc
end

if opts.json then
  cli.write_json(survey_json(), { "set", "kind", "bundles", "meshes",
    "submeshes", "vertices", "packed", "undecoded", "unit_tolerance",
    "layouts", "strides", "normals", "tangent_a", "tangent_b", "uv_sets",
    "colours", "selectors", "extras", "findings", "bundle", "mesh", "name",
    "submesh", "mask", "mask_hex", "masks", "mmp_stride", "mgp_stride",
    "mgp", "offset", "stream", "stored", "implied", "count", "zero", "off",
    "max_deviation", "max_length", "min", "max", "code", "message" })
  run:finish(plural(total.bundles, "bundle") .. ", "
    .. plural(total.meshes, "mesh", "meshes"))
end

-- ----------------------------------------------------------------- report

local out = {}
local function say(...)
  out[#out + 1] = table.concat({ ... })
end

-- A Markdown table row; '|' in a cell is escaped.
local function row(cells)
  local t = {}
  for k, c in ipairs(cells) do t[k] = tostring(c):gsub("|", "\\|") end
  say("| ", table.concat(t, " | "), " |")
end

-- "0, 1, 2, 3 and 255"
local function and_list(items)
  if #items < 2 then return table.concat(items) end
  return table.concat(items, ", ", 1, #items - 1) .. " and " .. items[#items]
end

local function range(r, c)
  return "[" .. fmt(r.min[c]) .. ", " .. fmt(r.max[c]) .. "]"
end

say("# Survey")
say()
say(plural(total.bundles, "bundle"), ": ",
  plural(total.meshes, "mesh", "meshes"), ", ",
  plural(total.submeshes, "submesh", "submeshes"), ", ",
  plural(total.vertices, "vertex", "vertices"), ".")
say()
say("Packed variant (flag 0x80000): ", count(total.packed), " of ",
  plural(total.meshes, "mesh", "meshes"), ".")

say()
say("## Layouts")
say()
say(plural(#sorted_keys(masks), "mask"), ". N = the normal at MMP +12, ",
  "C = colour, A and B = the two tangent-frame vectors, U0 to U3 = UV ",
  "sets, X and Y = the tree extras (with their MGP offset).")
say()
row({ "Mask", "Meshes", "MGP stride", "MGP order" })
say("|---|---|---|---|")
for _, mask in ipairs(sorted_keys(masks)) do
  local f = rsxmesh.format(mask)
  local order = {}
  for _, kind in ipairs(f:order()) do
    order[#order + 1] = LETTER[kind] .. (WITH_OFFSET[kind]
      and " (" .. f:info(kind).offset .. ")" or "")
  end
  row({ text.hex8(mask), count(masks[mask]), f.mgp_stride,
    #order > 0 and table.concat(order, ", ") or "none" })
end

say()
say("## Strides")
say()
if #strides == 0 then
  say("Stored strides that differ from the strides the mask implies: none.")
else
  say("Stored strides that differ from the strides the mask implies: ",
    count(#strides), ".")
  say()
  row({ "Bundle", "Mesh", "Mask", "Stream", "Stored", "Implied" })
  say("|---|---|---|---|---|---|")
  for _, s in ipairs(strides) do row(s) end
end
if total.undecoded > 0 then
  say()
  say(plural(total.undecoded, "mesh", "meshes"), " left out, wholly or in ",
    "part, of the statistics below, because of the findings listed at ",
    "the end.")
end

say()
say("## Normals")
say()
local n = lengths.normal
if not n then
  say("No normals.")
else
  say(count(n.count), " normals: ", count(n.zero), " zero vectors; ",
    count(n.off), " nonzero normals off unit length by more than ",
    UNIT_TOLERANCE, "; largest deviation from unit ",
    string.format("%.3g", n.max_dev), " (largest length ",
    string.format("%.6g", n.max_len), ").")
end

say()
say("## Tangent frame")
say()
local a, b = lengths.tangent_a, lengths.tangent_b
if not a and not b then say("No tangent-frame vectors.") end
if a then
  say("Vector A: ", count(a.off + a.zero), " of ", count(a.count),
    " vectors off unit length by more than ", UNIT_TOLERANCE,
    " (", count(a.zero), " of them zero); largest deviation of a nonzero ",
    "vector ", string.format("%.3g", a.max_dev), ".")
end
if b then
  if a then say() end
  say("Vector B: ", count(b.off), " of ", count(b.count - b.zero),
    " nonzero vectors off unit length by more than ", UNIT_TOLERANCE,
    " (largest deviation ", string.format("%.3g", b.max_dev), "); ",
    plural(b.zero, "zero vector"), ".")
end

say()
say("## UV sets")
say()
local uv_lo, uv_hi
for set = 0, 3 do
  local r = ranges["uv" .. set]
  if r and r.min then
    uv_lo = math.min(uv_lo or r.min[1], r.min[1], r.min[2])
    uv_hi = math.max(uv_hi or r.max[1], r.max[1], r.max[2])
  end
end
if not uv_lo then
  say("No UV values.")
else
  row({ "Stored set", "Meshes", "Vertices", "U", "V" })
  say("|---|---|---|---|---|")
  for set = 0, 3 do
    local r = ranges["uv" .. set]
    if r and r.min then
      row({ "U" .. set, count(r.meshes), count(r.vertices), range(r, 1),
        range(r, 2) })
    end
  end
  say()
  say("Extremes over all sets: ", fmt(uv_lo), " to ", fmt(uv_hi), ".")
end

say()
say("## Colours")
say()
local c = ranges.colour
if not c or not c.min then
  say("No vertex colours.")
else
  local inside = true
  for k = 1, 4 do
    if c.min[k] < 0 or c.max[k] > 1 then inside = false end
  end
  say(plural(c.vertices, "vertex", "vertices"), " in ",
    plural(c.meshes, "mesh", "meshes"), "; components: ", range(c, 1),
    ", ", range(c, 2), ", ", range(c, 3), ", ", range(c, 4), "; ",
    inside and "all in [0, 1]." or "some outside [0, 1].")
end

say()
say("## Selectors")
say()
local list = combo_list()
if #list == 0 then
  say("No submeshes.")
else
  local seen = {}
  for _, byte in ipairs(sorted_keys(bytes)) do seen[#seen + 1] = byte end
  local common = {}
  for k = 1, math.min(#list, 10) do
    local sel = list[k]
    common[k] = sel .. " (" .. (k == 1
      and plural(combos[sel], "submesh", "submeshes")
      or count(combos[sel])) .. ")"
  end
  say("The selector bytes are ", and_list(seen), ", in ",
    plural(#list, "distinct combination"), " over ",
    plural(combo_count, "submesh", "submeshes"), "; the commonest are ",
    table.concat(common, ", "), ".")
end

say()
say("## Tree extras")
say()
local xa, yb = ranges.extra_a, ranges.extra_b
if not xa and not yb then say("No extra attributes.") end
for _, e in ipairs({ { "A", xa }, { "B", yb } }) do
  local r = e[2]
  if r and r.min then
    local m = {}
    for _, mask in ipairs(sorted_keys(r.masks)) do
      m[#m + 1] = text.hex8(mask)
    end
    say("Extra ", e[1], ": ", plural(r.meshes, "mesh", "meshes"), " (mask ",
      table.concat(m, ", "), "), ", plural(r.vertices, "vertex", "vertices"),
      "; x in ", range(r, 1), ", y in ", range(r, 2), ", z in ", range(r, 3),
      ", w in ", range(r, 4), ".")
    say()
  end
end
if out[#out] == "" then out[#out] = nil end

say()
say("## Findings")
say()
if #findings == 0 then
  say("None.")
else
  row({ "Bundle", "Where", "Code", "Finding" })
  say("|---|---|---|---|")
  for _, f in ipairs(findings) do row(f) end
end

io.write(table.concat(out, "\n"), "\n")
run:finish(plural(total.bundles, "bundle") .. ", "
  .. plural(total.meshes, "mesh", "meshes"))
