-- rsxmesh/cli.lua - what every standard script shares: options and inputs
--
--   local cli = require "rsxmesh.cli"
--   local Run = require "rsxmesh.run"
--   local spec = {
--     name = "info",
--     usage = "rsxmesh info [options] BUNDLE|FOLDER...",
--     about = "One line per mesh.",
--     options = {
--       { long = "declaration", help = "add the RSX vertex declaration" },
--       { short = "o", long = "out", arg = "DIR", required = true },
--       { long = "uv", arg = "N", check = cli.integer(0, 3), default = 0 },
--       { long = "mesh", arg = "NAME", list = true }, -- opts.mesh: a list
--     },
--     -- options that exclude each other: a message, or nil
--     check = function(opts) ... end,
--   }
--   local opts, inputs = cli.parse(arg, spec)
--   local run = Run.new(opts)          -- rsxmesh.run
--
-- A script whose spec says jobs = true takes -j N, and shares its bundles
-- between worker processes when run:each is given a share (rsxmesh.jobs).
--
-- A usage error exits 2 (cli.usage_error, the one way every script reports
-- one), --help exits 0; both name the program as it was run (a usage that
-- starts with the word rsxmesh shows the host's name there instead). This
-- module and rsxmesh.run are the scripts' own, and end the program as a
-- script would; the modules under them never do.

-- A missing package is an error (rsxmesh.need); a standard script says it
-- in one line and exits 1.
local found, lfs = pcall(require "rsxmesh.need", "lfs", "LuaFileSystem",
  "lua-filesystem", "rsxmesh")
if not found then
  io.stderr:write(tostring(lfs), "\n")
  os.exit(1, true)
end
local rsxmesh = require "rsxmesh"
local json = require "rsxmesh.json"
local path = require "rsxmesh.path"
local jobs = require "rsxmesh.jobs"
local interrupt = require "rsxmesh.interrupt"

local cli = {}

-- ---------------------------------------------------------------- options

-- Value checks for options: each returns the converted value, or nil and
-- what is wrong with it.
function cli.integer(lo, hi)
  return function(s)
    local n = math.tointeger(tonumber(s))
    if not n or n < lo or n > hi then
      return nil, string.format("expects an integer in %d..%d, not '%s'",
        lo, hi, s)
    end
    return n
  end
end

-- A word of list.
function cli.one_of(list)
  return function(s)
    for _, v in ipairs(list) do
      if v == s then return s end
    end
    return nil, "expects one of " .. table.concat(list, ", ") .. ", not '"
      .. s .. "'"
  end
end


-- "obj-export" from arg[0] ("/usr/share/rsxmesh/scripts/obj-export.lua").
local function opt_script_name(args)
  local script = args and args[0] or "rsxmesh"
  return (path.basename(script):gsub("%.lua$", ""))
end

-- One option's lines of --help: its help text filled within 79 columns,
-- every line beside the option's column (a line break in the text is a
-- space).
local function opt_help_row(left, width, help)
  local indent = 2 + width + 2
  local lines, line = {}, string.format("  %-" .. width .. "s ", left)
  for word in help:gmatch("%S+") do
    if #line > indent and #line + 1 + #word > 79 then
      lines[#lines + 1] = line
      line = string.rep(" ", indent - 1)
    end
    line = line .. " " .. word
  end
  lines[#lines + 1] = line
  return table.concat(lines, "\n")
end

-- The program's name as it was run (rsxmesh.program, which the host sets:
-- ./rsxmesh in the build tree, rsxmesh as installed, rsxmesh for Windows'
-- C:\...\rsxmesh.exe), "rsxmesh" in another Lua.
local function program()
  return rsxmesh.program or "rsxmesh"
end

-- A usage line as shown: one that starts with the word rsxmesh (the
-- standard scripts' all do) starts with the program's name instead.
local function usage_line(spec)
  local rest = spec.usage:match("^rsxmesh (.*)$")
  return "Usage: " .. (rest and program() .. " " .. rest or spec.usage)
end

local function opt_help_text(spec)
  local lines = { usage_line(spec) }
  if spec.about then lines[#lines + 1] = "\n" .. spec.about end
  lines[#lines + 1] = "\nOptions:"
  local rows, width = {}, 0
  local all = { table.unpack(spec.options) }
  all[#all + 1] = { short = "h", long = "help",
                    help = "show this help and exit" }
  for _, o in ipairs(all) do
    if o.hidden then goto next end
    local left = (o.short and "-" .. o.short .. ", " or "    ")
      .. "--" .. o.long .. (o.arg and " " .. o.arg or "")
    rows[#rows + 1] = { left, o.help or "" }
    width = math.max(width, #left)
    ::next::
  end
  for _, r in ipairs(rows) do
    lines[#lines + 1] = opt_help_row(r[1], width, r[2])
  end
  if spec.details then lines[#lines + 1] = "\n" .. spec.details end
  return table.concat(lines, "\n") .. "\n"
end

-- The command that shows a script's --help: a standard script by its name
-- (its spec names it), another by the file it was run as.
local function help_command(spec, args)
  if spec.standard then return program() .. " " .. spec.name end
  return program() .. " " .. (args and args[0] or spec.name)
end

-- A usage error, the one way every script reports one (during cli.parse or
-- after it, such as options that exclude each other): the message, the
-- usage and where to read more on stderr; exit status 2.
function cli.usage_error(spec, message)
  io.stderr:write(spec.name, ": ", message, "\n", usage_line(spec), "\n",
    "Try '", spec.help_command or help_command(spec), " --help' for more.\n")
  os.exit(2, true)
end

-- Parse args (the script's `arg`) against spec. Returns the options, keyed
-- by long name with '-' as '_' (per-mesh -> opts.per_mesh; a flag is true
-- or nil), and the positional arguments. opts._name is the script's name.
-- Exits 0 after --help, 2 on a usage error.
function cli.parse(args, spec)
  spec.standard = spec.name ~= nil
  spec.name = spec.name or opt_script_name(args)
  spec.help_command = help_command(spec, args)
  spec.options = spec.options or {}
  if spec.jobs then
    for _, o in ipairs(jobs.options()) do
      spec.options[#spec.options + 1] = o
    end
  end
  local by_name, opts, positional = {}, { _name = spec.name }, {}
  for _, o in ipairs(spec.options) do
    by_name["--" .. o.long] = o
    if o.short then by_name["-" .. o.short] = o end
  end

  local i, only_inputs = 1, false
  while args[i] ~= nil do
    local a = args[i]
    if only_inputs or a == "-" or a:sub(1, 1) ~= "-" then
      positional[#positional + 1] = a
    elseif a == "--" then
      only_inputs = true
    elseif a == "-h" or a == "--help" then
      io.stdout:write(opt_help_text(spec))
      os.exit(0, true)
    else
      local key, inline = a:match("^(%-%-[^=]+)=(.*)$")
      local o = by_name[key or a]
      if not o then cli.usage_error(spec, "unknown option '" .. a .. "'") end
      local value = true
      if o.arg then
        value = inline
        if value == nil then
          i = i + 1
          value = args[i]
        end
        if value == nil then
          cli.usage_error(spec, "option '" .. (key or a) .. "' needs a "
            .. o.arg)
        end
        if o.check then
          local v, why = o.check(value)
          if v == nil then
            cli.usage_error(spec, "option '--" .. o.long .. "' " .. why)
          end
          value = v
        end
      elseif inline then
        cli.usage_error(spec, "option '" .. key .. "' takes no value")
      end
      local k = o.long:gsub("-", "_")
      if o.list then
        -- a repeatable option: every value, in order
        opts[k] = opts[k] or {}
        table.insert(opts[k], value)
      else
        opts[k] = value
      end
    end
    i = i + 1
  end

  for _, o in ipairs(spec.options) do
    local k = o.long:gsub("-", "_")
    if opts[k] == nil then
      if o.required then
        cli.usage_error(spec, "option '--" .. o.long .. "' is required")
      end
      opts[k] = o.default
    end
  end
  if #positional < (spec.inputs or 1) then
    cli.usage_error(spec, "no input given")
  end
  if spec.check then
    local why = spec.check(opts, positional)
    if why then cli.usage_error(spec, why) end
  end
  return opts, positional
end

-- ----------------------------------------------------------------- inputs

local function walk_folder(dir, rel, out, failures)
  local names = {}
  local ok, iter, state = interrupt.pcall(lfs.dir, dir)
  if not ok then
    failures[#failures + 1] = { path = dir,
      message = tostring(iter):gsub("^.-: ", "") }
    return
  end
  for name in iter, state do
    if name ~= "." and name ~= ".." then names[#names + 1] = name end
  end
  table.sort(names)
  for _, name in ipairs(names) do
    local file, sub = path.join(dir, name), path.join(rel, name)
    -- links to folders are not followed, so a loop cannot trap the walk
    local mode = lfs.symlinkattributes(file, "mode")
    if mode == "link" then mode = lfs.attributes(file, "mode") end
    if mode == "directory" and lfs.symlinkattributes(file, "mode") ~= "link"
    then
      walk_folder(file, sub, out, failures)
    elseif mode == "file" and name:lower():match("%.rsxb$") then
      out[#out + 1] = { path = file, stem = sub:sub(1, -6) }
    end
  end
end

-- Turn the positional arguments into inputs: a file stays itself, a folder
-- becomes its *.rsxb files, recursively, sorted by name. Each input is
-- { path =, stem = } where stem names its output ("levels/CHARLIE" for
-- disc/levels/CHARLIE.rsxb when "disc" was given). Also returns the
-- arguments that gave nothing, as { path =, message = }.
function cli.expand(args)
  local inputs, failures = {}, {}
  for _, a in ipairs(args) do
    local mode = lfs.attributes(a, "mode")
    if mode == "directory" then
      local before = #inputs
      walk_folder(a, "", inputs, failures)
      if #inputs == before then
        failures[#failures + 1] = { path = a, message = "no *.rsxb files" }
      end
    elseif mode then
      inputs[#inputs + 1] = { path = a,
        stem = path.basename(a):gsub("%.[Rr][Ss][Xx][Bb]$", "") }
    else
      -- a missing file is still an input: opening it reports why
      inputs[#inputs + 1] = { path = a, stem = path.basename(a) }
    end
  end
  return inputs, failures
end

-- ---------------------------------------------------------------- outputs

-- The file name (without extension) of a mesh's own output file, one rule
-- for every exporter's --per-mesh: the mesh's name with every byte but
-- letters, digits, "-", "_" and "." made "_", never hidden ("_" before a
-- leading "."; "_" for no name), and "-NUMBER" (the mesh's number in its
-- bundle) added while used[name] says another mesh of the bundle has it.
-- Records the name in used.
function cli.mesh_file_name(name, number, used)
  name = name:gsub("[^%w%-_.]", "_")
  if name == "" or name:sub(1, 1) == "." then name = "_" .. name end
  while used[name] do name = name .. "-" .. number end
  used[name] = true
  return name
end

-- One JSON document on stdout, for --json: numbers as numbers, each the
-- very double computed; an object's keys in the order of key_order (the
-- others sorted after them). cli.NULL is JSON's null. JSON has no
-- infinity nor NaN: such a value (the bounds of a half UV of 0x7C00) is
-- the string "inf", "-inf" or "nan", as the text reports print it.
cli.NULL = json.NULL

function cli.write_json(value, key_order)
  io.write(json.encode(value, json.key_order(key_order or {}),
    { doubles = true, non_finite = "string" }), "\n")
end

-- The meshes of bundle that --mesh NAME|NUMBER options (a list, or nil
-- for every mesh) name: a number is the mesh's number in the bundle, else
-- the first mesh of that name. Returns the meshes in the order named
-- (each once) and the options that named none.
function cli.named_meshes(bundle, names)
  local list, seen, unknown = {}, {}, {}
  if not names then
    for _, m in bundle:meshes() do list[#list + 1] = m end
    return list, unknown
  end
  for _, name in ipairs(names) do
    local k = math.tointeger(tonumber(name))
    local m = k and bundle:mesh(k) or bundle:mesh(name)
    if not m then
      unknown[#unknown + 1] = name
    elseif not seen[m] then
      seen[m] = true
      list[#list + 1] = m
    end
  end
  return list, unknown
end

-- cli.named_meshes for a run's input: each name that names none is a
-- failure of the input, reported in run. Returns the meshes and how many
-- names named none.
function cli.selected_meshes(run, bundle, input, names)
  local list, unknown = cli.named_meshes(bundle, names)
  for _, name in ipairs(unknown) do
    run:fail(input.path, "no mesh " .. name)
  end
  return list, #unknown
end

return cli
