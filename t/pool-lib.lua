-- pool-lib.lua - what the tests of rsxmesh.pool share (t/pool.lua, whose
-- workers are sh, and t/pool-lua.lua, whose workers are the host running
-- a Lua script): running a list of jobs, the order the workers started
-- them in, and the checks of one worker's order that both make.
local t = require "tap"
local rsxmesh = require "rsxmesh"

local lib = {}

-- A pool's command and log: lib.new(command, log [, clean]). Its workers
-- write each job's line to the file log as they start it; clean (if
-- given) makes each report what the checks compare (t/pool.lua's reports
-- end with the worker's process number).
function lib.new(command, log, clean)
  return { command = command, log = log, clean = clean }
end

-- run(pool, jobs, n): the jobs ({ line, size } each) through n workers:
-- { number, out, err, report, status } per job, in order.
function lib.run(pool, jobs, n)
  local p = rsxmesh.pool(pool.command, n)
  for _, j in ipairs(jobs) do p:add(j[1], j[2]) end
  local got = {}
  while true do
    local k, out, err, report, status = p:next()
    if k == nil then break end
    if k then
      if report and pool.clean then report = pool.clean(report) end
      got[#got + 1] = { k, out, err, report, status }
    end
  end
  t.is(p:done(), #jobs, "p:done() counts every job")
  p:close()
  return got
end

-- The job lines the workers started, in order, since the last call; the
-- log is emptied.
function lib.started(pool)
  local list = {}
  for line in io.lines(pool.log) do list[#list + 1] = line end
  assert(io.open(pool.log, "wb")):close()
  return list
end

-- One worker: the start order is by size, the result order by number, and
-- each job has its own output and report ("out K", "err K", "done K").
function lib.check_one_worker(pool)
  local got = lib.run(pool, { { "a", 1 }, { "b", 30 }, { "c", 20 },
    { "d", 30 } }, 1)
  t.is_deeply(lib.started(pool), { "b", "d", "c", "a" },
    "one worker: the largest job first, ties in the order added")
  t.is_deeply(got, {
    { 1, "out a\n", "err a\n", "done a", 0 },
    { 2, "out b\n", "err b\n", "done b", 0 },
    { 3, "out c\n", "err c\n", "done c", 0 },
    { 4, "out d\n", "err d\n", "done d", 0 },
  }, "the jobs in the order added, each with its own output and report; "
    .. "the header before the first report is dropped")
end

-- The jobs (as given to lib.run) in got, returned in the order added,
-- each done with its own output and report ("out K", "err K", "done K").
function lib.check_in_order(got, jobs, what)
  local order, want, own = {}, {}, #got == #jobs
  for i, g in ipairs(got) do
    local k = jobs[i][1]
    order[i], want[i] = g[1], i
    own = own and g[2] == "out " .. k .. "\n" and g[3] == "err " .. k .. "\n"
      and g[4] == "done " .. k and g[5] == 0
  end
  t.is(table.concat(order, " "), table.concat(want, " "),
    what .. ": the jobs returned in the order added")
  t.ok(own, "... each with its own output and report")
end

-- A worker that ends on the job "die", with status: that job fails alone,
-- with what the worker wrote for it; another worker does the rest.
function lib.check_dying_worker(pool, status, what)
  local got = lib.run(pool, { { "a", 3 }, { "die", 2 }, { "c", 1 } }, 1)
  lib.started(pool)
  t.is_deeply(got[2], { 2, "", "dying\n", nil, status }, what
    .. ": its job has no report, status " .. status .. ", and what it "
    .. "wrote for the job")
  t.is_deeply({ got[1][4], got[3][4] }, { "done a", "done c" },
    "the jobs before and after it are done (another worker took the rest)")
end

-- A program that cannot start: an error naming it and why, in the same
-- words on every system. Under valgrind (make check-valgrind, which
-- follows the children) valgrind's launcher takes the exec's failure, and
-- the worker ends with status 127 instead.
local valgrind = (os.getenv("TEST_WRAPPER") or ""):find("valgrind", 1, true)

function lib.check_cannot_start()
  local p = rsxmesh.pool({ "rsxmesh-no-such-program" }, 1)
  p:add("a")
  t.error_like(function() p:next() end,
    "pool: cannot start rsxmesh%-no%-such%-program: " .. (valgrind
      and "it ended before it was ready %(exit status 127%)$"
      or "No such file or directory$"),
    "a program that cannot start: named, with why")
  p:close()
end

return lib
