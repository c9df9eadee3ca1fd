-- gltf-import.lua - an edited glTF 2.0 back into an RSXB bundle
--
-- rsxmesh gltf-import EDITED.gltf|EDITED.glb --base ORIGINAL.rsxb
--                     -o NEW.rsxb [--mesh NAME]... [--records HOOK.lua]
--                     [--report] [--tangents base|computed]
--
-- The glTF's meshes are matched to the base bundle's by name (as
-- gltf-export names them), re-encoded into each base mesh's own mask and
-- layout, and written with every byte that nothing changed kept as the
-- base has it. doc/scripts.md says what comes from where.

local cli = require "rsxmesh.cli"
local text = require "rsxmesh.text"
local Run = require "rsxmesh.run"
local interrupt = require "rsxmesh.interrupt"
local lfs = require "lfs"
local output = require "rsxmesh.output"
local rsxmesh = require "rsxmesh"

local opts, inputs = cli.parse(arg, {
  name = "gltf-import",
  usage = "rsxmesh gltf-import [options] EDITED.gltf|EDITED.glb"
    .. " --base ORIGINAL.rsxb -o NEW.rsxb",
  about = "Write a bundle that is the base bundle with the glTF's meshes"
    .. " in place of\nthose of the same name: what the glTF did not"
    .. " change stays byte for byte.",
  options = {
    { long = "base", arg = "BUNDLE", required = true,
      help = "the bundle the glTF was exported from" },
    { short = "o", long = "out", arg = "FILE", required = true,
      help = "write the new bundle to FILE (whole, or not at all)" },
    { long = "mesh", arg = "NAME|NUMBER", list = true,
      help = "import only this mesh of the base: its number, or its"
        .. " name (repeatable); the others stay as the base has them" },
    { long = "records", arg = "HOOK.lua", help = "rewrite the records of"
      .. " changed meshes with the functions HOOK.lua returns (see"
      .. " doc/scripts.md)" },
    { long = "report", help = "list on stdout, per mesh, what changed,"
      .. " what was derived and what was kept" },
    { long = "tangents", arg = "base|computed", default = "base",
      check = cli.one_of({ "base", "computed" }), help = "tangent vectors"
      .. " A and B of an editor's new vertices: the base vertices' around"
      .. " them, or computed from TANGENT, else from the UVs and normals"
      .. " (MikkTSpace's convention, as Blender's)" },
  },
})

-- after the options: --help needs no lua-cjson
-- a missing lua-cjson is an error of rsxmesh.need: said in one line
local found, import = pcall(require, "rsxmesh.gltf_import")
if not found then
  io.stderr:write(tostring(import), "\n")
  os.exit(1, true)
end

local run = Run.new(opts)
if #inputs > 1 then
  run:fail(inputs[2], "one glTF at a time (" .. #inputs .. " given)")
  run:finish("nothing written")
end
local input = inputs[1]


-- The output must not be a file the import reads: a slip of -o onto the
-- edited glTF or its .bin would replace the user's edit with the bundle.
local function output_read(file, out)
  local o = lfs.attributes(out)
  if not o then return nil end
  for _, f in ipairs(file.files) do
    local a = lfs.attributes(f)
    if a and a.dev == o.dev and a.ino == o.ino then return f end
  end
end

-- The hook of --records: a Lua file returning a table of functions
-- (meta, submesh). The table, or nil and a message naming the file.
local function load_records(file)
  local chunk, err = loadfile(file)
  if not chunk then return nil, err end
  local ok, hook = pcall(chunk)
  if not ok then return nil, file .. ": " .. tostring(hook) end
  if type(hook) ~= "table" or (type(hook.meta) ~= "function"
      and type(hook.submesh) ~= "function") then
    return nil, file .. ": returns no table with a meta or submesh function"
  end
  for _, k in ipairs({ "meta", "submesh" }) do
    if hook[k] ~= nil and type(hook[k]) ~= "function" then
      return nil, file .. ": its " .. k .. " is not a function"
    end
  end
  return hook
end

local function main()
  local base, err = rsxmesh.open(opts.base)
  if not base then return nil, err end
  local records
  if opts.records then
    records, err = load_records(opts.records)
    if not records then return nil, err end
  end
  run:progress("reading " .. input)
  local file
  file, err = import.read(input)
  if not file then return nil, err end
  local read = output_read(file, opts.out)
  if read then
    return nil, string.format("-o %s is %s, which this import reads: it"
      .. " would be replaced", opts.out, read)
  end
  -- --mesh as every script takes it (rsxmesh.cli): a number is the base's
  -- mesh of that number, a name is matched in the glTF (the import says
  -- when a name matches none)
  local only
  if opts.mesh then
    only = {}
    for _, name in ipairs(opts.mesh) do
      local k = math.tointeger(tonumber(name))
      if k then
        local m = base:mesh(k)
        if not m then
          return nil, string.format("%s: no mesh %d", opts.base, k)
        end
        name = m.name
      end
      only[name] = true
    end
  end
  local result
  result, err = import.bundle(file, base, { only = only,
    records = records, records_name = opts.records, tangents = opts.tangents,
    progress = function(k, n)
      run:progress("%s: mesh %d of %d", input, k, n)
    end })
  if not result then return nil, err end
  local ok
  ok, err = run:claim(opts.out, input) -- its folder made
  if not ok then return nil, opts.out .. ": " .. err end
  if result.kept then
    -- nothing changed: the base's very bytes, whatever order its
    -- sections lie in and whatever gaps lie between them
    ok, err = output.copy(opts.base, opts.out)
    result.layout = "the base's bytes"
  else
    -- the writer lays it out as the base (rsxmesh.writer's layout =
    -- "base"): what outgrew its place went after the base's end
    local bytes = result.writer:bytes()
    local grown = #bytes - base.size
    result.layout = "laid out as the base" .. (grown > 0 and ", "
      .. text.plural(grown, "byte") .. " after its end" or "")
    -- whole or nothing, the message naming -o, never its temporary
    ok, err = output.write(opts.out, function(f) return f:write(bytes) end)
  end
  if not ok then return nil, err end
  return result
end

-- Control-C stops the import as it stops the batch scripts: exit status
-- 130, the input named, nothing written (w:save renames a whole file)
local result, err
local done, why = interrupt.protect(function() result, err = main() end)
if not done then
  if interrupt.is(why) then run:interrupted(input) end
  error(why, 0)
end
if not result then
  run:fail(input, err)
  run:finish("nothing written")
end

local counts = { unchanged = 0, changed = 0, derived = 0, other = 0 }
for _, r in ipairs(result.meshes) do
  if r.state == "changed" then
    counts.changed = counts.changed + 1
    if #r.derived > 0 then counts.derived = counts.derived + 1 end
  elseif r.state == "unchanged" then
    counts.unchanged = counts.unchanged + 1
  else
    counts.other = counts.other + 1
  end
  -- the records the game reads may now say wrong counts: said always,
  -- not only with --report, unless a hook rewrote them
  local stale = r.stale and #r.stale > 0
    and table.concat(r.stale, ", ") or nil
  if stale and not opts.records then
    io.stderr:write(string.format("gltf-import: %s: %s: its records may be"
      .. " stale, they are the base's: %s (--records HOOK.lua rewrites"
      .. " them)\n", input, r.label, stale))
  end
  if opts.report then
    local parts = { r.label .. ": " .. r.state
      .. (r.state == "changed" and r.why and " (" .. r.why .. ")" or "") }
    if #r.changed > 0 then
      parts[#parts + 1] = "changed: " .. table.concat(r.changed, ", ")
    end
    if #r.derived > 0 then
      parts[#parts + 1] = "derived: " .. table.concat(r.derived, ", ")
    end
    if #r.kept > 0 then
      parts[#parts + 1] = "kept from the base: "
        .. table.concat(r.kept, ", ")
    end
    if stale then
      parts[#parts + 1] = "stale records (the base's): " .. stale
    end
    if r.records then
      parts[#parts + 1] = "records rewritten by " .. opts.records .. ": "
        .. (#r.records > 0 and table.concat(r.records, ", ") or "none")
    end
    io.stdout:write(table.concat(parts, "; "), "\n")
  end
end

local size = lfs.attributes(opts.out, "size") or 0
run.ok = 1
run:finish(string.format("%s: %s unchanged, %s changed (%s with derived"
  .. " data), %s copied; %s, %s written (%s)",
  text.plural(#result.meshes, "mesh", "meshes"), text.count(counts.unchanged),
  text.count(counts.changed), text.count(counts.derived),
  text.count(counts.other), opts.out, text.plural(size, "byte"),
  result.layout))
