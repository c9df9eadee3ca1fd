-- rsxmesh/run.lua - a standard script's run over its inputs: counts,
-- failures, progress, outputs claimed, the summary and the exit status
--
--   local Run = require "rsxmesh.run"
--   local run = Run.new(opts)           -- opts from rsxmesh.cli's parse
--   run:each(inputs, function(bundle, input) ... end [, share])
--   run:finish("12 meshes")  -- summary on stderr; exit 1 if anything failed
--
-- With a share and -j N, run:each hands the inputs to worker processes
-- (rsxmesh.jobs). An input that cannot be opened or processed costs one
-- line on stderr and exit status 1 at the end; the other inputs are still
-- processed. Control-C stops the run with exit status 130.

local rsxmesh = require "rsxmesh"
local cli = require "rsxmesh.cli"
local jobs = require "rsxmesh.jobs"
local interrupt = require "rsxmesh.interrupt"
local output = require "rsxmesh.output"
local path = require "rsxmesh.path"
local text = require "rsxmesh.text"

local Run = {}
Run.__index = Run

-- A run of a script over its inputs: counts, failures, progress, timing.
function Run.new(opts)
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

-- Make the run's output folder (-o DIR) before any input: a folder that
-- cannot be made is said once, not once per input, and the run ends
-- (exit status 1) with nothing written.
function Run:output_folder(dir)
  local ok, err = path.mkdirs(dir)
  if ok then return true end
  self:fail(dir, err)
  self:finish("nothing written")
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

-- A progress line, shown (at most ten times a second) only on a terminal;
-- with more arguments, line is string.format's format, made into text
-- only when shown (a script's loop calls this once a mesh).
function Run:progress(line, ...)
  if not self.tty then return end
  local now = rsxmesh.clock()
  if now - self.last < 0.1 then return end
  self.last = now
  if select("#", ...) > 0 then line = line:format(...) end
  io.stderr:write("\r\27[K", line)
  self.shown = true
end

function Run:clear()
  if self.shown then
    io.stderr:write("\r\27[K")
    self.shown = false
  end
end

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
-- reported and counted. With files (a share's), the input is not opened:
-- fn(input).
function Run:each_input(inputs, k, fn, files)
  local input = inputs[k]
  self.label = string.format("[%d/%d] %s", k, #inputs, input.path)
  self:progress(self.label)
  local bundle, err
  if not files then
    bundle, err = rsxmesh.open(input.path)
    if not bundle then
      self:fail(input.path, err)
      return
    end
  end
  local before = self.failed
  local ok, msg = xpcall(fn, function(e)
    return type(e) == "string" and e or tostring(e)
  end, bundle or input, input)
  if bundle then bundle:close() end
  if not ok and interrupt.is(msg) then
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
-- process replays their output in order and merges their states. A share
-- with files = true takes files of any kind (scan's): the arguments as
-- they are, folders not searched, none opened: fn(input).
function Run:each(args, fn, share)
  -- an interrupt anywhere here (between inputs, or in the first process
  -- of -j) stops the run as one within an input does
  local inputs, k, n = {}, 0, 1
  local files = share and share.files
  local ok, err = interrupt.protect(function()
    local failures = {}
    if files then
      for i, a in ipairs(args) do
        inputs[i] = { path = a,
          stem = path.basename(a):gsub("%.[^.]*$", "") }
      end
    else
      inputs, failures = cli.expand(args)
    end
    if share and self.opts.worker then
      jobs.serve_inputs(self, share, function(i) -- exits
        k = i
        if inputs[i] then self:each_input(inputs, i, fn, files) end
      end)
    end
    for _, f in ipairs(failures) do self:fail(f.path, f.message) end
    n = share and jobs.count(self, inputs, share) or 1
    if n > 1 then return jobs.run(self, inputs, share, n) end
    for i in ipairs(inputs) do
      k = i
      self:each_input(inputs, i, fn, files)
    end
  end)
  if not ok and interrupt.is(err) then
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
  local line = self.name .. ": " .. (summary or text.plural(self.ok,
    "bundle")) .. string.format(" in %.2f s", self:seconds())
  if self.failed > 0 then
    line = line .. "; " .. text.plural(self.failed, "failure") .. " above"
  end
  io.stderr:write(line, "\n")
  io.stdout:flush()
  os.exit(self.failed > 0 and 1 or 0, true)
end

return Run
