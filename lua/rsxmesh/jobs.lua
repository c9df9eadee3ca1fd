-- rsxmesh/jobs.lua - a run's bundles shared between worker processes (-j)
--
-- Used by rsxmesh.cli's run:each when a script passes a share:
--
--   run:each(inputs, fn, { state = function() return totals end,
--                          merge = function(t) ... add t ... end })
--
-- With -j N (N > 1) and more than one input, the script runs as N worker
-- processes at a time, one per bundle: the script itself again, with
-- --worker K (the K-th input of the same list) and --worker-state FILE.
-- A worker runs fn over its bundle alone, from empty totals, and writes
-- the share's state (the script's totals after that one bundle) to FILE;
-- its stdout and stderr go to files. The first process replays them in
-- the order of the inputs, whatever order the workers finish in, and
-- merges each state with share.merge: the output is the same whatever N.
-- A worker that dies counts as a failure of its bundle. The files (in a
-- folder under $TMPDIR) are removed however the run ends; after an
-- interrupt no new worker starts and the running ones are waited for.

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

local function write_file(file, bytes)
  local f, err = io.open(file, "wb")
  if not f then return nil, err end
  local ok, werr = f:write(bytes)
  local closed, cerr = f:close()
  if not ok or not closed then return nil, werr or cerr end
  return true
end

-- Where stdout and stderr stood when the worker came to its bundle: what
-- the script wrote before (a header) is the first process's to write.
function jobs.worker_start()
  io.stdout:flush()
  io.stderr:flush()
  return { out = io.stdout:seek("cur") or 0, err = io.stderr:seek("cur") or 0 }
end

-- The end of a worker: its counts and the share's state to the state file,
-- then exit (what the script does after run:each is the first process's).
function jobs.worker_finish(run, share, from)
  local state = { ok = run.ok, failed = run.failed, from = from,
    state = share.state() }
  local ok, err = write_file(run.opts.worker_state, jobs.dump(state))
  io.stdout:flush()
  if not ok then
    io.stderr:write(run.name, ": ", tostring(err), "\n")
    os.exit(1, true)
  end
  os.exit(0, true)
end

-- ---------------------------------------------------------- first process

-- The number of processes to use for these inputs: 1 unless the run asks
-- for more, the share does not say one_process and each input has an
-- output name of its own. Two inputs of one name would claim the same
-- output files (and, the scripts' one_process, two bundles' textures of
-- one name the same copy): only one process can refuse the second in
-- order (run:claim, run:copy_texture).
function jobs.count(run, inputs, share)
  local n = math.min(run.opts.jobs or 1, #inputs)
  if n < 2 or run.opts.worker or share.one_process then return 1 end
  local seen = {}
  for _, input in ipairs(inputs) do
    if seen[input.stem] then return 1 end
    seen[input.stem] = true
  end
  return n
end

local function quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

-- The command that runs this script again: the host (the lowest index of
-- arg), the script, then the worker's options before the script's own.
local function script_command(dir)
  local host = arg[-1]
  for i = -2, -100, -1 do
    if arg[i] == nil then break end
    host = arg[i]
  end
  local cmd = { quote(host), quote(arg[0]), "--worker", '"$k"',
    "--worker-state", quote(dir) .. '/"$k".state' }
  for i = 1, #arg do cmd[#cmd + 1] = quote(arg[i]) end
  return table.concat(cmd, " ")
end

local function read_file(file, from)
  local f = io.open(file, "rb")
  if not f then return "" end
  if from and from > 0 then f:seek("set", from) end
  local bytes = f:read("a") or ""
  f:close()
  return bytes
end

-- Replay worker k's output and merge its state; a worker that died, or
-- left no state, is a failure of its input.
local function replay(run, share, dir, k, input, status)
  local base = dir .. "/" .. k
  local state = jobs.load(read_file(base .. ".state"), base .. ".state")
  local from = state and state.from or {}
  local out = read_file(base .. ".out", from.out)
  local err = read_file(base .. ".err", from.err)
  run:clear()
  io.stdout:write(out)
  io.stdout:flush()
  io.stderr:write(err)
  if status ~= 0 or not state then
    run:fail(input.path, string.format("the worker process failed (exit "
      .. "status %s)", tostring(status)))
  else
    run.ok = run.ok + state.ok
    run.failed = run.failed + state.failed
    share.merge(state.state)
  end
  for _, ext in ipairs{ ".state", ".out", ".err" } do
    os.remove(base .. ext)
  end
end

-- rsxmesh.interrupt's protect, under the name scripts have used.
jobs.protect = interrupt.protect

-- A new folder for the run's files, under $TMPDIR as mktemp makes it.
local function temporary_folder()
  local tmp = os.getenv("TMPDIR")
  if not tmp or tmp == "" then tmp = "/tmp" end
  local p = assert(io.popen("mktemp -d "
    .. quote(tmp .. "/rsxmesh-jobs.XXXXXX") .. " 2>&1"))
  local line = p:read("a"):gsub("\n$", "")
  if not p:close() then
    error("jobs: cannot make a temporary folder: " .. line, 0)
  end
  return line
end

-- Start the workers and replay them as they finish. work keeps the folder
-- and the pipe, for ending_workers.
local function running_workers(run, inputs, share, n, work)
  work.dir = temporary_folder()
  local dir = work.dir
  local order = {}
  for k, input in ipairs(inputs) do
    order[k] = { k = k, size = lfs.attributes(input.path, "size") or 0 }
  end
  table.sort(order, function(a, b)
    if a.size ~= b.size then return a.size > b.size end
    return a.k < b.k
  end)
  local list = {}
  for i, o in ipairs(order) do list[i] = o.k end
  assert(write_file(dir .. "/order", table.concat(list, "\n") .. "\n"))
  -- after an interrupt no new worker starts (the stop file)
  assert(write_file(dir .. "/worker.sh", "k=$1\n[ -e " .. quote(dir)
    .. "/stop ] && exit 0\n" .. script_command(dir)
    .. " > " .. quote(dir) .. '/"$k".out 2> ' .. quote(dir)
    .. '/"$k".err < /dev/null\necho "$k $?"\n'))
  -- xargs and the shells between ignore SIGINT, so that they wait for
  -- the workers, which take it (the host catches it again)
  work.pipe = assert(io.popen("trap '' INT; exec xargs -P " .. n
    .. " -n 1 sh " .. quote(dir .. "/worker.sh") .. " < "
    .. quote(dir .. "/order"), "r"))
  local status, next_k, done = {}, 1, 0
  for line in work.pipe:lines() do
    local k, code = line:match("^(%d+) (%d+)$")
    if k then
      status[tonumber(k)] = tonumber(code)
      done = done + 1
      run:progress(string.format("%s: %d of %d bundles done (%d processes)",
        run.name, done, #inputs, n))
      while status[next_k] do
        replay(run, share, dir, next_k, inputs[next_k], status[next_k])
        next_k = next_k + 1
      end
    end
  end
  local pipe = work.pipe
  work.pipe = nil
  pipe:close()
  for k = next_k, #inputs do
    replay(run, share, dir, k, inputs[k], status[k] or "none")
  end
end

-- After the workers, whichever way running_workers ended: when it failed
-- (an interrupt), no new worker starts and those running are waited for;
-- then the run's files go.
local function ending_workers(work, failed)
  if work.pipe then
    if failed then write_file(work.dir .. "/stop", "") end
    repeat until not work.pipe:read("l")
    work.pipe:close()
  end
  if work.dir then
    for name in lfs.dir(work.dir) do
      if name ~= "." and name ~= ".." then
        os.remove(work.dir .. "/" .. name)
      end
    end
    lfs.rmdir(work.dir)
  end
end

-- Run the inputs in n worker processes, the largest bundles first, and
-- replay them in order. An error (an interrupt) is raised again once the
-- workers have ended and the temporary files are gone.
function jobs.run(run, inputs, share, n)
  local work = {}
  local ok, err = interrupt.protect(running_workers, run, inputs, share, n,
    work)
  local ended, why = interrupt.protect(ending_workers, work, not ok)
  if not ok then error(err, 0) end
  if not ended then error(why, 0) end
end

-- The -j option every script that shares its bundles takes, and the
-- worker's own (not shown by --help).
function jobs.options()
  local n = rsxmesh.processors()
  -- Windows has no sh or xargs for the workers: one process until the
  -- process pool in C replaces them
  local windows = package.config:sub(1, 1) == "\\"
  if windows then n = 1 end
  return {
    { short = "j", long = "jobs", arg = "N",
      check = function(s)
        local v = math.tointeger(tonumber(s))
        if not v or v < 1 or v > 256 then
          return nil, "expects an integer in 1..256, not '" .. s .. "'"
        end
        if windows and v > 1 then
          return nil, "expects 1 on Windows (no worker processes there"
            .. " yet), not '" .. s .. "'"
        end
        return v
      end, default = n,
      help = "worker processes, a bundle each (default: the number of"
        .. " processors; 1: none)" },
    { long = "worker", arg = "K", hidden = true,
      check = function(s) return math.tointeger(tonumber(s)) end },
    { long = "worker-state", arg = "FILE", hidden = true },
  }
end

return jobs
