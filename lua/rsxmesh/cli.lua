-- rsxmesh/cli.lua - what every standard script shares: options, inputs, runs
--
--   local cli = require "rsxmesh.cli"
--   local opts, inputs = cli.parse(arg, {
--     name = "info",
--     usage = "rsxmesh info [options] BUNDLE|FOLDER...",
--     about = "One line per mesh.",
--     options = {
--       { long = "declaration", help = "add the RSX vertex declaration" },
--       { short = "o", long = "out", arg = "DIR", required = true },
--       { long = "uv", arg = "N", check = cli.integer(0, 3), default = 0 },
--       { long = "mesh", arg = "NAME", list = true }, -- opts.mesh: a list
--     },
--   })
--   local run = cli.run(opts)
--   run:each(inputs, function(bundle, input) ... end)
--   run:finish("12 meshes")  -- summary on stderr; exit 1 if anything failed
--
-- A script whose spec says jobs = true takes -j N, and shares its bundles
-- between worker processes when run:each is given a share (rsxmesh.jobs).
--
-- A usage error exits 2, --help exits 0. An input that cannot be opened or
-- processed costs one line on stderr and exit status 1 at the end; the
-- other inputs are still processed.

local rsxmesh = require "rsxmesh"

local lfs = require "rsxmesh.need" ("lfs", "LuaFileSystem",
  "lua-filesystem", "rsxmesh")
local json = require "rsxmesh.json"
local output = require "rsxmesh.output"
local path = require "rsxmesh.path"
local text = require "rsxmesh.text"
local jobs = require "rsxmesh.jobs"
local interrupt = require "rsxmesh.interrupt"

local cli = {}

-- ------------------------------------------------------------- formatting

-- cli.count, cli.plural and cli.hex8 are rsxmesh.text's (text.lua).
cli.count, cli.plural, cli.hex8 = text.count, text.plural, text.hex8

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

function cli.pattern(s)
  local ok, err = interrupt.pcall(string.find, "", s)
  if not ok then
    return nil, "expects a Lua pattern, not '" .. s .. "' ("
      .. tostring(err):gsub("^.-:%d+: ", "") .. ")"
  end
  return s
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

local function opt_help_text(spec)
  local lines = { "Usage: " .. spec.usage }
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

local function opt_usage_error(spec, message)
  io.stderr:write(spec.name, ": ", message, "\n",
    "Usage: ", spec.usage, "\n",
    "Try 'rsxmesh ", spec.name, " --help' for more.\n")
  os.exit(2, true)
end

-- A usage error found after cli.parse (options that exclude each other):
-- the message and the usage on stderr, exit 2.
cli.usage_error = opt_usage_error

-- Parse args (the script's `arg`) against spec. Returns the options, keyed
-- by long name with '-' as '_' (per-mesh -> opts.per_mesh; a flag is true
-- or nil), and the positional arguments. opts._name is the script's name.
-- Exits 0 after --help, 2 on a usage error.
function cli.parse(args, spec)
  spec.name = spec.name or opt_script_name(args)
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
      if not o then opt_usage_error(spec, "unknown option '" .. a .. "'") end
      local value = true
      if o.arg then
        value = inline
        if value == nil then
          i = i + 1
          value = args[i]
        end
        if value == nil then
          opt_usage_error(spec, "option '" .. (key or a) .. "' needs a "
            .. o.arg)
        end
        if o.check then
          local v, why = o.check(value)
          if v == nil then
            opt_usage_error(spec, "option '--" .. o.long .. "' " .. why)
          end
          value = v
        end
      elseif inline then
        opt_usage_error(spec, "option '" .. key .. "' takes no value")
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
        opt_usage_error(spec, "option '--" .. o.long .. "' is required")
      end
      opts[k] = o.default
    end
  end
  if #positional < (spec.inputs or 1) then
    opt_usage_error(spec, "no input given")
  end
  return opts, positional
end

-- ------------------------------------------------------------------ paths

-- cli.join, cli.dirname, cli.absolute, cli.relative and cli.mkdirs are
-- rsxmesh.path's (path.lua), for the scripts written against cli.
cli.join, cli.dirname, cli.absolute = path.join, path.dirname, path.absolute
cli.relative, cli.mkdirs = path.relative, path.mkdirs

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

-- -------------------------------------------------------------------- run

local Run = {}
Run.__index = Run

-- A run of a script over its inputs: counts, failures, progress, timing.
function cli.run(opts)
  -- A run leaves short-lived objects behind every mesh (accessors, tables
  -- of results) while what it gathers lives to the end: Lua's generational
  -- collector spends less time walking the long-lived ones (gltf-export of
  -- the whole disc: 10 to 20 % less processor time, obj-export a little).
  collectgarbage("generational")
  local name = type(opts) == "table" and opts._name or opts
  return setmetatable({
    name = name or "rsxmesh",
    opts = type(opts) == "table" and opts or {},
    ok = 0, failed = 0,
    started = rsxmesh.clock(),
    tty = rsxmesh.isatty(io.stderr),
    shown = false, last = -1,
    outputs = {}, -- output path -> the input that wrote it
    copies = {},  -- absolute path of a texture copy -> its source
  }, Run)
end

-- Claim an output file for an input: its folder is made, and a path that
-- an earlier input of this run wrote is refused, so that two inputs of the
-- same name cannot overwrite each other. true, or nil and a message.
function Run:claim(file, input)
  local earlier = self.outputs[file]
  if earlier then
    return nil, file .. ": also the output of " .. earlier
      .. "; give inputs with distinct names"
  end
  local ok, err = path.mkdirs(path.dirname(file))
  if not ok then return nil, err end
  self.outputs[file] = input
  return true
end

-- Copy the texture file src (named texture by its material) beside an
-- output in folder dir (rsxmesh.output.texture_path says where), once per
-- run; a copy that another source already made there is refused. The
-- copy's path relative to dir, or nil and a message.
function Run:copy_texture(src, texture, dir)
  local rel = output.texture_path(texture)
  local dest = path.join(dir, rel)
  local key, from = path.absolute(dest), path.absolute(src)
  local earlier = self.copies[key]
  if earlier == from then return rel end
  if earlier then
    return nil, dest .. ": also the copy of " .. earlier
  end
  local ok, err = path.mkdirs(path.dirname(dest))
  if ok then ok, err = output.copy(src, dest) end
  if not ok then return nil, err end
  self.copies[key] = from
  return rel
end

-- One line on stderr about a problem with file; counts the failure. The
-- message names the file once, by the path given, whether or not it
-- already starts with it (the module's messages do).
function Run:fail(file, message)
  message = tostring(message)
  if message:sub(1, #file + 1) ~= file .. ":" then
    message = file .. ": " .. message
  end
  self:clear()
  io.stderr:write(self.name, ": ", message, "\n")
  self.failed = self.failed + 1
end

-- A progress line, shown (at most ten times a second) only on a terminal.
function Run:progress(text)
  if not self.tty then return end
  local now = rsxmesh.clock()
  if now - self.last < 0.1 then return end
  self.last = now
  io.stderr:write("\r\27[K", text)
  self.shown = true
end

function Run:clear()
  if self.shown then
    io.stderr:write("\r\27[K")
    self.shown = false
  end
end

-- True when message is the host's interrupt (SIGINT raises "interrupted!"
-- at the next Lua instruction, as lua.c does): rsxmesh.interrupt's is.
cli.interrupted = interrupt.is

-- Control-C stops the run, not just the input in progress (named by
-- what, if any): what was being written is gone already (rsxmesh.output),
-- what was written is whole. Exit status 130, as a shell gives.
function Run:interrupted(what)
  self:clear()
  io.stderr:write(self.name, ": ", what and what .. ": " or "",
    "interrupted\n")
  io.stdout:flush()
  os.exit(130, true)
end

-- Open input k of inputs and call fn(bundle, input); the bundle is closed
-- after. An input that cannot be opened, or whose fn raises an error, is
-- reported and counted.
function Run:each_input(inputs, k, fn)
  local input = inputs[k]
  self.label = string.format("[%d/%d] %s", k, #inputs, input.path)
  self:progress(self.label)
  local bundle, err = rsxmesh.open(input.path)
  if not bundle then
    self:fail(input.path, err)
    return
  end
  local before = self.failed
  local ok, msg = xpcall(fn, function(e)
    return type(e) == "string" and e or tostring(e)
  end, bundle, input)
  bundle:close()
  if not ok and cli.interrupted(msg) then
    self:interrupted(input.path)
  elseif not ok then
    self:fail(input.path, msg)
  elseif self.failed == before then
    self.ok = self.ok + 1
  end
end

-- Open each input and call fn(bundle, input), as each_input does; the run
-- goes on after a failure. run.label names the input in progress
-- ("[3/15] disc/CHARLIE.rsxb"). With a share ({ state =, merge = }, see
-- rsxmesh.jobs) and -j N, worker processes take the bundles, and this
-- process replays their output in order and merges their states.
function Run:each(args, fn, share)
  -- an interrupt anywhere here (between inputs, or in the first process
  -- of -j) stops the run as one within an input does
  local inputs, k, n = {}, 0, 1
  local ok, err = interrupt.protect(function()
    local failures
    inputs, failures = cli.expand(args)
    if share and self.opts.worker then
      jobs.serve(self, share, function(i) -- exits
        k = i
        if inputs[i] then self:each_input(inputs, i, fn) end
      end)
    end
    for _, f in ipairs(failures) do self:fail(f.path, f.message) end
    n = share and jobs.count(self, inputs, share) or 1
    if n > 1 then return jobs.run(self, inputs, share, n) end
    for i in ipairs(inputs) do
      k = i
      self:each_input(inputs, i, fn)
    end
  end)
  if not ok and cli.interrupted(err) then
    -- with -j, the workers had the inputs in progress
    self:interrupted(n == 1 and inputs[k] and inputs[k].path or nil)
  elseif not ok then
    error(err, 0)
  end
  return self
end

-- The wall seconds since the run started: os.clock would count this
-- process's processor time only, not the time spent waiting for the disk
-- or for worker processes (synth -j).
function Run:seconds()
  return rsxmesh.clock() - self.started
end

-- The summary line on stderr, then exit: 1 if anything failed, else 0.
function Run:finish(summary)
  self:clear()
  local line = self.name .. ": " .. (summary or cli.plural(self.ok,
    "bundle")) .. string.format(" in %.2f s", self:seconds())
  if self.failed > 0 then
    line = line .. "; " .. cli.plural(self.failed, "failure") .. " above"
  end
  io.stderr:write(line, "\n")
  io.stdout:flush()
  os.exit(self.failed > 0 and 1 or 0, true)
end

return cli
