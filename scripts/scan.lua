-- scan.lua - find mesh streams, index buffers and metadata records in
-- files of unknown layout (rsxmesh.scan), and the meshes they make
--
--   rsxmesh scan FILE... [--json] [--min-vertices N] [--extract -o DIR]
--                        [--manifest OUT.lua] [-j N]
--
-- Offsets are bytes from the file's start, in hex in the text. --extract
-- writes the assembled meshes as RSXB, one bundle per input (DIR/NAME.rsxb);
-- --manifest writes what was found as a manifest for rsxmesh pack. With
-- -j N, N worker processes share the files (rsxmesh.run, rsxmesh.jobs),
-- the largest first; the output is the same, byte for byte.

local rsxmesh = require "rsxmesh"
local cli = require "rsxmesh.cli"
local text = require "rsxmesh.text"
local Run = require "rsxmesh.run"
local jobs = require "rsxmesh.jobs"
local interrupt = require "rsxmesh.interrupt"
local output = require "rsxmesh.output"
local path = require "rsxmesh.path"

local opts, args = cli.parse(arg, {
  name = "scan",
  usage = "rsxmesh scan [options] FILE...",
  about = "Find MMP and MGP vertex streams, index buffers and metadata "
    .. "records\nin files of unknown layout by the research note's "
    .. "signatures, and the\nmeshes they make, with byte offsets from each "
    .. "file's start.",
  jobs = true,
  options = {
    { long = "json", help = "one JSON document on stdout (its shape: "
      .. "doc/scripts.md)" },
    { long = "min-vertices", arg = "N", check = cli.integer(1, 0x7FFFFFFF),
      default = 24, help = "shorter runs are not reported (default 24)" },
    { long = "uv-tries", arg = "N", check = cli.integer(1, 1 << 53),
      default = 65536, help = "starts the search for MGPs of UV sets may "
      .. "try in a file (default 65536; more finds more in a large file)" },
    { long = "extract", help = "write the meshes found as RSXB, one bundle "
      .. "per input, in the folder of -o" },
    { short = "o", long = "out", arg = "DIR", help = "the folder --extract "
      .. "writes to (created if missing)" },
    { long = "manifest", arg = "OUT.lua", help = "write a manifest of the "
      .. "meshes found, for rsxmesh pack" },
  },
})
if opts.extract and not opts.out then
  cli.usage_error({ name = "scan", usage = "rsxmesh scan [options] FILE..." },
    "--extract needs -o DIR")
end

local run = Run.new(opts)
local plural = text.plural

-- ------------------------------------------------------------- reading

local function read_at(f, offset, n)
  assert(f:seek("set", offset))
  local s = f:read(n)
  if not s or #s ~= n then
    error(string.format("offset 0x%x: %d bytes cannot be read", offset, n), 0)
  end
  return s
end

-- A mesh's parts, by the findings' numbers.
local function parts(r, m)
  return m.meta and r.found[m.meta], r.found[m.mmp],
    m.mgp and r.found[m.mgp], m.indices and r.found[m.indices]
end

-- The table writer:mesh takes for mesh k of scan r of file f. Without a
-- record, one of 0x90 zero bytes carries the mask; the submesh record
-- (0x40 bytes, selectors ff ff ff ff: the default UV sets) is made up, as
-- the file's are unknown. A list's values are cut to whole triangles.
local function mesh_table(f, r, k, m, name)
  local meta, mmp, mgp, ix = parts(r, m)
  local rec = meta and read_at(f, meta.offset, 0x90) or
    string.rep("\0", 0x8C) .. string.pack(">I4", m.mask)
  local count = ix.count
  if ix.primitive == "triangles" then count = count - count % 3 end
  local t = {
    name = string.format("%s_%d", name, k),
    meta = rec, vertex_count = m.vertices,
    mmp = read_at(f, mmp.offset, 16 * m.vertices), mmp_stride = 16,
    indices = read_at(f, ix.offset, count * ix.size),
    index_size = ix.size, primitive = ix.primitive,
    submeshes = { {
      record = string.rep("\0", 0x38) .. "\255\255\255\255\0\0\0\0",
      first_index = 0, index_count = count } },
  }
  if mgp then
    t.mgp = read_at(f, mgp.offset, mgp.stride * m.vertices)
    t.mgp_stride = mgp.stride
  end
  return t
end

-- --extract: the meshes with an index buffer, and with their MGP when
-- their mask has one, as DIR/NAME.rsxb. Returns the meshes written.
local function extract(file, r)
  local name = path.basename(file):gsub("%.[^.]*$", "")
  local dest = path.join(opts.out, name .. ".rsxb")
  local ok, err = run:claim(dest, file)
  if not ok then return nil, err end
  local w <close> = rsxmesh.writer()
  local f <close> = assert(io.open(file, "rb"))
  local n = 0
  for k, m in ipairs(r.meshes) do
    local needs_mgp = rsxmesh.format(m.mask).mgp_stride > 0
    if m.indices and (m.mgp or not needs_mgp) then
      local added, merr = w:mesh(mesh_table(f, r, k, m, name))
      if not added then return nil, merr end
      n = n + 1
    end
  end
  ok, err = w:save(dest)
  if not ok then return nil, err end
  return n
end

-- ----------------------------------------------------------------- text

-- The findings' and meshes' lines are rsxmesh.scan's (opts.text: made in
-- C, 20 thousand of them in 64 MB of containers).
local function print_text(file, r)
  io.write(string.format("%s: %s bytes, %s, %s\n", file, r.size,
    plural(r.found_count, "finding"),
    plural(r.mesh_count, "mesh", "meshes")), r.text)
end

-- ----------------------------------------------------------------- JSON

-- A finding as issue 20 shapes it: kind, offset, then what its kind has.
local function json_found(f)
  local o = { kind = f.kind, offset = f.offset, bytes = f.bytes }
  if f.kind == "mmp" or f.kind == "mgp" then
    o.vertices, o.stride = f.vertices, f.stride
    o.unit_share = f.unit_share
    if f.kind == "mmp" then
      o.zero_normals = f.zero_normals
      o.bounds = f.bounds
    end
  end
  if f.kind == "indices" then
    o.count, o.size, o.primitive = f.count, f.size, f.primitive
    o.restarts, o.vertices = f.restarts, f.vertices
  end
  if f.kind == "meta" or f.kind == "mgp" then o.mask = f.mask end
  return o
end

local function json_mesh(r, m)
  local meta, mmp, mgp, ix = parts(r, m)
  return { vertices = m.vertices, mask = m.mask,
    confidence = m.confidence, why = m.why,
    meta = meta and meta.offset or cli.NULL, mmp = mmp.offset,
    mgp = mgp and mgp.offset or cli.NULL,
    indices = ix and ix.offset or cli.NULL }
end

-- ------------------------------------------------------------- manifest

local function manifest_entry(file, r, k, m)
  local meta, mmp, mgp, ix = parts(r, m)
  local name = path.basename(file):gsub("%.[^.]*$", "")
  local q = string.format
  local lines = {
    q("  -- confidence %.2f: %s", m.confidence, m.why),
    q("  { file = %q, name = %q,", path.relative(path.absolute(file),
      path.absolute(path.dirname(opts.manifest))), q("%s_%d", name, k)),
    meta and q("    meta = %q,", q("0x%x", meta.offset))
      or q("    mask = 0x%08x,", m.mask),
    q("    mmp = %q, vertices = %d,", q("0x%x", mmp.offset), m.vertices),
  }
  if mgp then
    lines[#lines + 1] = q("    mgp = %q, mgp_stride = %d,",
      q("0x%x", mgp.offset), mgp.stride)
  end
  if ix then
    local count = ix.count
    if ix.primitive == "triangles" then count = count - count % 3 end
    lines[#lines + 1] = q("    indices = { offset = %q, count = %d, "
      .. "size = %d, primitive = %q },", q("0x%x", ix.offset), count,
      ix.size, ix.primitive)
  end
  lines[#lines + 1] = "  },"
  -- an entry that lacks a part pack needs stays in a comment, saying what
  -- to give, so that pack takes the rest as they are
  local missing = not ix and "indices = { offset =, count =, size =, "
    .. "primitive = }" or (not mgp and rsxmesh.format(m.mask).mgp_stride > 0
    and "mgp = OFFSET") or nil
  if missing then
    lines[1] = lines[1] .. "\n  -- give " .. missing .. ", then take this "
      .. "entry out of its comment"
    lines[2] = "  --[[" .. lines[2]:sub(3)
    lines[#lines] = "  },]]"
  end
  return table.concat(lines, "\n")
end

-- ----------------------------------------------------------------- main

-- What the files gave, in their order. With -j, a worker's share of it
-- for each file goes back to the first process (share.state), which
-- appends it (share.merge) in the order of the files.
local files, entries = {}, {}
local counts = { scanned = 0, extracted = 0 }

run:each(args, function(input)
  local file = input.path
  -- the text alone needs no tables (20 thousand in 64 MB of containers)
  local r, serr = rsxmesh.scan(file, { min_vertices = opts.min_vertices,
    uv_tries = opts.uv_tries, text = not opts.json,
    tables = opts.json or opts.manifest or opts.extract or false })
  if not r and interrupt.is(serr) then error(serr, 0) end -- Control-C
  if not r then return run:fail(file, serr) end
  counts.scanned = counts.scanned + 1
  if opts.json then
    local doc = { path = file, size = r.size, found = {}, meshes = {} }
    for i, f in ipairs(r.found) do doc.found[i] = json_found(f) end
    for i, m in ipairs(r.meshes) do doc.meshes[i] = json_mesh(r, m) end
    files[#files + 1] = doc
  else
    print_text(file, r)
  end
  if opts.manifest then
    for i, m in ipairs(r.meshes) do
      entries[#entries + 1] = manifest_entry(file, r, i, m)
    end
  end
  if opts.extract then
    local n, xerr = extract(file, r)
    if not n then return run:fail(file, xerr) end
    counts.extracted = counts.extracted + n
  end
end, {
  files = true,
  state = function()
    return { files = files, entries = entries, counts = counts }
  end,
  reset = function()
    files, entries, counts = {}, {}, { scanned = 0, extracted = 0 }
  end,
  merge = function(s)
    table.move(s.files, 1, #s.files, #files + 1, files)
    table.move(s.entries, 1, #s.entries, #entries + 1, entries)
    jobs.add(counts, s.counts)
  end,
  -- the scan only reads, as survey and info do
  share_bytes = jobs.LIGHT_SHARE_BYTES,
})

-- One key order for every object (the writer's): a file's path, size,
-- found, meshes as the issue gives them, and an entry's kind, offset,
-- bytes, vertices, stride, count, size, mask. Index entries and files share
-- "size" alone, so it goes after an entry's count and before a file's
-- found. Other keys follow, sorted (bounds' min before max).
if opts.json then
  cli.write_json({ files = files }, { "files", "path", "kind", "offset",
    "bytes", "vertices", "stride", "count", "size", "found", "meshes",
    "mask", "min", "max" })
end
if opts.manifest then
  local mok, merr = output.write(opts.manifest, function(f)
    return f:write("-- rsxmesh scan's manifest: correct it, then run\n",
      "-- rsxmesh pack ", path.basename(opts.manifest), " -o OUT.rsxb\n",
      "return {\n", table.concat(entries, "\n"),
      #entries > 0 and "\n" or "", "}\n")
  end)
  if not mok then run:fail(opts.manifest, merr) end
end
run:finish(plural(counts.scanned, "file") .. " scanned" ..
  (opts.extract and ", " .. plural(counts.extracted, "mesh", "meshes")
    .. " extracted" or ""))
