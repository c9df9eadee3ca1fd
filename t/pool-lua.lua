-- pool-lua.lua - rsxmesh.pool (src/pool.c) with workers that are the host
-- running a Lua script, so that the pool's checks run on Windows too
-- (t/pool.lua's workers are sh): the jobs come back in the order added,
-- each with what its worker wrote for it and its report; the largest
-- start first; what a worker writes before it is ready is dropped; a
-- worker that exits fails its job alone and another takes the rest; a
-- program that cannot start is an error in the same words everywhere.
local t = require "tap"
local lib = require "pool-lib"

-- The host as the system names it: on Windows (the win64 suite, under
-- wine) RSXMESH_EXE, set by win64/suite.sh.
local windows = package.config:sub(1, 1) == "\\"
local host = assert(os.getenv(windows and "RSXMESH_EXE" or "RSXMESH"),
  "the host is not named (RSXMESH, or RSXMESH_EXE on Windows)")

-- A worker: ready, then for each job line K: stdout "out K", stderr
-- "err K", report "done K"; the job "die" ends the worker with status 3.
-- The log (its argument) records the order jobs started in.
local script = os.tmpname()
local log = os.tmpname()
do
  local f = assert(io.open(script, "wb"))
  assert(f:write([[
local log = ...
io.write("header\n")
io.stderr:write("header-err\n")
io.stdout:flush()
io.stderr:flush()
rsxmesh.pool_report("")
for k in io.stdin:lines() do
  local f = assert(io.open(log, "ab"))
  f:write(k, "\n")
  f:close()
  if k == "die" then
    io.stderr:write("dying\n")
    io.stderr:flush()
    os.exit(3)
  end
  io.write("out ", k, "\n")
  io.stderr:write("err ", k, "\n")
  io.stdout:flush()
  io.stderr:flush()
  rsxmesh.pool_report("done " .. k)
end
]]))
  assert(f:close())
end

local pool = lib.new({ host, script, log }, log)

lib.check_one_worker(pool)

-- two workers, nine jobs: in order, each with its own output
local jobs = {}
for i = 1, 9 do jobs[i] = { "j" .. i, i % 3 } end
lib.check_in_order(lib.run(pool, jobs, 2), jobs, "two workers")
lib.started(pool)

-- a worker that exits: that job fails with its status, the rest are done
lib.check_dying_worker(pool, 3, "a worker that exits with status 3")

lib.check_cannot_start()

os.remove(script)
os.remove(log)
t.done_testing()
