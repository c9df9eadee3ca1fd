-- rsxmesh/jobs.lua - a run's bundles shared between worker processes (-j)
--
-- Used by rsxmesh.run's run:each when a script passes a share:
--
--   run:each(inputs, fn, { state = function() return totals end,
--                          reset = function() totals = new() end,
--                          merge = function(t) ... add t ... end })
--
-- With -j N (N > 1) and more than one input, the first process starts a
-- pool of N workers (rsxmesh.pool, in C): the script itself again, with
-- --worker, each taking one input's number after another from its stdin,
-- the largest bundles first. After each input a worker hands over the
-- share's state (the script's totals for that input alone: the worker
-- calls share.reset after share.state) and what it wrote; the first
-- process replays them in the order of the inputs, whatever order the
-- workers finish in, and merges each state with share.merge: the output
-- is the same whatever N. A worker that dies counts as a failure of its
-- input. After an interrupt no new input starts and the workers are
-- waited for; nothing is left in $TMPDIR (pipes only).

local rsxmesh = require "rsxmesh"
local lfs = require "lfs"
local json = require "rsxmesh.json"
local interrupt = require "rsxmesh.interrupt"

local jobs = {}

-- ------------------------------------------------------------ state text

-- A Lua chunk returning v: integers in hex (exact, mininteger too),
-- floats by their bytes (exact, NaN's sign too), strings as %q, and
-- json.NULL and json.EMPTY as themselves (a --json document's parts).
local SENTINEL = { [json.NULL] = "NULL", [json.EMPTY] = "EMPTY" }

local function dump(v, out)
  local t = type(v)
  if SENTINEL[v] then
    out[#out + 1] = SENTINEL[v]
  elseif t == "table" then
    out[#out + 1] = "{"
    for k, x in pairs(v) do
      out[#out + 1] = "["
      dump(k, out)
      out[#out + 1] = "]="
      dump(x, out)
      out[#out + 1] = ","
    end
    out[#out + 1] = "}"
  elseif math.type(v) == "integer" then
    out[#out + 1] = string.format("0x%x", v)
  elseif t == "number" then
    out[#out + 1] = string.format("F%q", string.pack("<d", v))
  elseif t == "string" or t == "boolean" then
    out[#out + 1] = string.format("%q", v)
  else
    error("jobs: cannot pass a " .. t .. " between processes")
  end
end

function jobs.dump(v)
  local out = { "return " }
  dump(v, out)
  return table.concat(out)
end

-- The value a jobs.dump text returns, or nil and a message (an interrupt
-- while it runs is raised: the first process reads the workers' states,
-- and a Control-C there stops the run, not just that bundle).
function jobs.load(text, name)
  local env = { F = function(b) return (string.unpack("<d", b)) end,
    NULL = json.NULL, EMPTY = json.EMPTY }
  local chunk, err = load(text, name, "t", env)
  if not chunk then return nil, err end
  local ok, v = interrupt.pcall(chunk)
  if not ok then return nil, v end
  return v
end

-- Add the counts of from into into, table within table (a merge for
-- totals that are sums: counts by kind, bytes written).
function jobs.add(into, from)
  for k, v in pairs(from) do
    if type(v) == "table" then
      into[k] = into[k] or {}
      jobs.add(into[k], v)
    else
      into[k] = (into[k] or 0) + v
    end
  end
  return into
end

-- ---------------------------------------------------------------- worker

-- A worker's loop (the script name run with --worker): ready once what the
-- script wrote before is out (the first process writes its own), then for
-- each job line from stdin, report(line)'s string goes back to the pool
-- once stdout and stderr are flushed. Exits at the end of stdin.
function jobs.serve(name, report)
  if not rsxmesh.pool_worker() then
    io.stderr:write(name, ": --worker is for the "
      .. "processes of -j (rsxmesh.pool), not for a command line\n")
    os.exit(2, true)
  end
  io.stdout:flush()
  io.stderr:flush()
  rsxmesh.pool_report("")
  for line in io.stdin:lines() do
    local bytes = report(line)
    io.stdout:flush()
    io.stderr:flush()
    rsxmesh.pool_report(bytes)
  end
  os.exit(0, true)
end

-- jobs.serve for run:each's inputs: each line an input's number, run by
-- run_input(k); its counts and the share's state go back, and the share
-- starts afresh (share.reset).
function jobs.serve_inputs(run, share, run_input)
  jobs.serve(run.name, function(line)
    local k = math.tointeger(tonumber(line))
    run.ok, run.failed = 0, 0
    if k then run_input(k) end
    local state = { ok = run.ok, failed = run.failed, state = share.state() }
    if share.reset then share.reset() end
    return jobs.dump(state)
  end)
end

-- ---------------------------------------------------------- first process

-- Inputs whose bundles add up to fewer bytes than this are not worth a
-- second process at the default -j: on the sample (5 MB) the lightest
-- scripts (info, uv-selectors) take 0.01 to 0.02 s in all, the order of
-- what starting two workers costs (the host, the module and the script:
-- about 0.01 s each), where the --scale 0.3 disc (75 MB) gives them 0.1 to
-- 0.3 s to share (doc/performance.md, issue 22). A guess between the two,
-- not a measured crossing point.
jobs.SHARE_BYTES = 48 << 20
-- The same for the scripts that only read (survey, info, uv-selectors):
-- on the --scale 0.3 disc they took 0.08 to 0.27 s at -j 1 and 0.09 to
-- 0.35 s with two workers, at load 4 (doc/performance.md); on the --scale 1
-- disc (251 MB) two workers gain.
jobs.LIGHT_SHARE_BYTES = 128 << 20

-- The number of processes to use for these inputs: 1 unless the run asks
-- for more, the share does not say one_process and each input has an
-- output name of its own. Two inputs of one name would claim the same
-- output files (and, the scripts' one_process, two bundles' textures of
-- one name the same copy): only one process can refuse the second in
-- order (run:claim, run:copy_texture). At the default -j (no -j given),
-- inputs too small to share (jobs.SHARE_BYTES, or the share's own
-- share_bytes) run in one process too.
function jobs.count(run, inputs, share)
  local given = run.opts.jobs
  local n = math.min(given or rsxmesh.processors(), #inputs)
  if n < 2 or run.opts.worker or share.one_process then return 1 end
  local seen, bytes = {}, 0
  for _, input in ipairs(inputs) do
    if seen[input.stem] then return 1 end
    seen[input.stem] = true
    bytes = bytes + (lfs.attributes(input.path, "size") or 0)
  end
  if not given and bytes < (share.share_bytes or jobs.SHARE_BYTES) then
    return 1
  end
  return n
end

-- The command that runs this script again as a worker: the host (the
-- lowest index of arg), the script, --worker, then the script's own
-- arguments.
local function worker_command()
  local host = arg[-1]
  for i = -2, -100, -1 do
    if arg[i] == nil then break end
    host = arg[i]
  end
  local cmd = { host, arg[0], "--worker" }
  for i = 1, #arg do cmd[#cmd + 1] = arg[i] end
  return cmd
end

-- Run jobs (a list of { line =, size = }) in n workers, this script again
-- (jobs.serve), the largest first; done(k, out, err, report, status) for
-- each in the order of the list (rsxmesh.pool's p:next). After an
-- interrupt (raised again here) no new job starts, and the workers are
-- waited for. A job whose worker broke the pool's channel gets a problem
-- (the pool's message) after done's count.
function jobs.each(n, list, done)
  local pool = rsxmesh.pool(worker_command(), n)
  local ok, err = interrupt.protect(function()
    for _, job in ipairs(list) do pool:add(job.line, job.size) end
    while true do
      local k, out, errs, report, status, problem = pool:next()
      if k == nil then break end
      if k then done(k, out, errs, report, status, pool:done(), problem) end
      -- false: a signal; an interrupt is raised at the next instruction
    end
  end)
  -- no second SIGINT for the workers: a Control-C reached them with this
  -- process (one process group), and a second one would kill a worker in
  -- the middle of removing its temporary (the host, as lua.c, handles one
  -- and leaves the next to the system); those it did not reach finish
  -- their input
  pool:stop(false)
  pool:close()
  if not ok then error(err, 0) end
end

-- Replay input k's output and merge its state; a worker that died, or
-- left a state that does not load, is a failure of its input.
local function replay(run, share, input, out, err, report, status,
                      problem)
  local state = report and jobs.load(report, "=" .. input.path .. ".state")
  run:clear()
  io.stdout:write(out)
  io.stdout:flush()
  io.stderr:write(err)
  if not state then
    run:fail(input.path, string.format("the worker process failed (%s)",
      problem or "exit status " .. status))
  else
    run.ok = run.ok + state.ok
    run.failed = run.failed + state.failed
    share.merge(state.state)
  end
end

-- Run the inputs in n worker processes, the largest bundles first, and
-- replay them in order.
function jobs.run(run, inputs, share, n)
  local list = {}
  for k, input in ipairs(inputs) do
    list[k] = { line = tostring(k),
      size = lfs.attributes(input.path, "size") or 0 }
  end
  jobs.each(n, list, function(k, out, err, report, status, done, problem)
    replay(run, share, inputs[k], out, err, report, status, problem)
    run:progress("%s: %d of %d %s done (%d processes)",
      run.name, done, #inputs, share.files and "files" or "bundles", n)
  end)
end

-- The -j option every script that shares its bundles takes, and the
-- worker's own (not shown by --help).
function jobs.options()
  return {
    { short = "j", long = "jobs", arg = "N",
      check = function(s)
        local v = math.tointeger(tonumber(s))
        if not v or v < 1 or v > 256 then
          return nil, "expects an integer in 1..256, not '" .. s .. "'"
        end
        return v
      end,
      help = "worker processes sharing the inputs (default: the number"
        .. " of processors, or one process for small inputs; 1: none)" },
    { long = "worker", hidden = true },
  }
end

return jobs
