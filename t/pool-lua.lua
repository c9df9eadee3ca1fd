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
local function run(jobs, n) return lib.run(pool, jobs, n) end
local function started() return lib.started(pool) end

lib.check_one_worker(pool)

-- two workers, nine jobs: in order, each with its own output
local jobs = {}
for i = 1, 9 do jobs[i] = { "j" .. i, i % 3 } end
local got = run(jobs, 2)
started()
local order, own = {}, true
for i, g in ipairs(got) do
  order[i] = g[1]
  own = own and g[2] == "out j" .. i .. "\n" and g[3] == "err j" .. i .. "\n"
    and g[4] == "done j" .. i and g[5] == 0
end
t.is(table.concat(order, " "), "1 2 3 4 5 6 7 8 9",
  "two workers: the jobs returned in the order added")
t.ok(own, "... each with its own output and report")

-- a worker that exits: that job fails with its status, the rest are done
got = run({ { "a", 3 }, { "die", 2 }, { "c", 1 } }, 1)
started()
t.is_deeply(got[2], { 2, "", "dying\n", nil, 3 },
  "a worker that exits with status 3: its job has no report, status 3, "
  .. "and what it wrote for the job")
t.is_deeply({ got[1][4], got[3][4] }, { "done a", "done c" },
  "the jobs before and after it are done (another worker took the rest)")

lib.check_cannot_start()

os.remove(script)
os.remove(log)
t.done_testing()
