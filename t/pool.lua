-- pool.lua - rsxmesh.pool (src/pool.c) with workers written in sh, so that
-- what each one does is plain: the jobs come back in the order added, each
-- with what its worker wrote for it and its report; the largest start
-- first; what a worker writes before it is ready is dropped; a worker that
-- dies fails its job alone and another takes the rest; stop ends them all.
local t = require "tap"
local rsxmesh = require "rsxmesh"
local lib = require "pool-lib"

-- A worker in sh: ready, then for each job line "K": stdout "out K", stderr
-- "err K", report "done K by PID"; the job "die" kills the worker, "sleep"
-- waits first. $log records the order jobs started in.
local function worker(log)
  return { "sh", "-c", [[
echo header
echo header-err >&2
printf '0\n' >&3
while read -r k; do
  echo "$k" >>"$1"
  case $k in
    die) echo "dying" >&2; kill -9 $$ ;;
    sleep*) sleep 0.2 ;;
  esac
  echo "out $k"
  echo "err $k" >&2
  r="done $k by $$"
  printf '%s\n%s' "${#r}" "$r" >&3
done
]], "worker", log }
end

local log = os.tmpname()
-- the reports without their worker's process number
local pool = lib.new(worker(log), log, function(report)
  return (report:gsub(" by %d+$", ""))
end)

lib.check_one_worker(pool)

-- two workers, the first job slow: still returned first
local jobs = { { "sleep1", 0 } }
for i = 2, 9 do jobs[i] = { "j" .. i, 0 } end
lib.check_in_order(lib.run(pool, jobs, 2), jobs,
  "two workers, the first job slowest")
lib.started(pool)

-- a worker that dies: that job fails with its status, the rest are done
lib.check_dying_worker(pool, 128 + 9, "a worker killed by signal 9")

-- more workers than jobs; no job at all
local got = lib.run(pool, { { "x", 0 } }, 4)
lib.started(pool)
t.is(#got, 1, "four workers, one job")
local p = rsxmesh.pool(worker(log), 2)
t.is(p:next(), nil, "no job: p:next() gives nil at once")
t.like(tostring(p), "^rsxmesh%.pool", "__tostring")
p:close()
t.error_like(function() p:next() end, "pool:next: pool is closed",
  "a closed pool says so")

-- stop: a worker busy on a long job is interrupted (SIGINT), an idle one
-- sees its stdin end; both are waited for
p = rsxmesh.pool({ "sh", "-c", [[
trap 'exit 130' INT
printf '0\n' >&3
while read -r k; do
  [ "$k" = long ] && { sleep 5 >/dev/null 2>&1 3>&- & wait; }
  printf '0\n' >&3
done
]] }, 2)
p:add("quick")
p:add("long")
local before = rsxmesh.clock()
t.is(p:next(), 1, "the quick job is done")
t.is(p:stop(true), 2, "stop: two workers were running")
t.ok(rsxmesh.clock() - before < 10, "stop ended the long job early")
p:close()

-- stop while a worker writes more than a pipe holds to stderr, then to
-- stdout: its pipes are read together, so that it never waits on a full
-- one (reading stdout to its end first would wait for ever)
p = rsxmesh.pool({ "sh", "-c", [[
printf '0\n' >&3
while read -r k; do
  if [ "$k" = big ]; then
    i=0; while [ $i -lt 8000 ]; do echo "err line $i" >&2; i=$((i + 1)); done
    i=0; while [ $i -lt 8000 ]; do echo "out line $i"; i=$((i + 1)); done
  fi
  printf '0\n' >&3
done
]] }, 2)
p:add("quick")
p:add("big")
t.is(p:next(), 1, "the quick job is done while the big one writes")
t.is(p:stop(), 2, "stop: both workers waited for, the writer's pipes read")
p:close()

-- a worker that ends before it is ready would fail again: an error that
-- says what it wrote
p = rsxmesh.pool({ "sh", "-c", "echo 'no rsxmesh here' >&2; exit 3" }, 2)
p:add("a")
t.error_like(function() p:next() end,
  "cannot start sh: it ended before it was ready %(exit status 3%): no "
    .. "rsxmesh here",
  "a worker that ends before it is ready: an error, with its stderr")
p:close()

-- a worker's channel is read as bytes it must prove (the reader's own
-- tests: t/pool-channel.c). Each job line here is a mode and the bytes
-- (printf's format) the worker writes to its channel: "hang", bytes that
-- are no report, and the pool must stop the worker; "exit", a channel cut
-- short, then exit status 5. The job fails with one message, the worker
-- is ended and waited for, and another worker does the jobs after it.
local function hostile(bytes, mode)
  p = rsxmesh.pool({ "sh", "-c", [[
printf '0\n' >&3
while read -r mode bytes; do
  echo "out $mode"
  case $mode in
    good) printf '2\nok' >&3 ;;
    hang) printf "$bytes" >&3; read -r never ;;
    exit) printf "$bytes" >&3; exit 5 ;;
  esac
done
]] }, 1)
  p:add("good")
  p:add(mode .. " " .. bytes)
  p:add("good")
  p:add("good")
  local got = {}
  while true do
    local k, out, _, report, status, problem = p:next()
    if k == nil then break end
    got[k] = { out = out, report = report, status = status,
      problem = problem }
  end
  p:close()
  return got
end

-- (the channel's bytes: the first report "0\n", then job 1's "2\nok", so
-- that job 2's bytes start at byte 6)
local HOSTILE = {
  { "junk", "hang", 2, "channel byte 6: 'j' where a report's size (in "
    .. "decimal) should start", "garbage where a report should be" },
  { "99999999999", "hang", 2, "channel byte 6: a report's size of more "
    .. "than 10 digits ('99999999999')", "a huge size" },
  { "2000000000\\n", "hang", 2, "channel byte 6: a report of 2000000000 "
    .. "bytes, over the limit of 1073741824", "a size over the limit" },
  { "12x", "hang", 2, "channel byte 8: 'x' after a report's size, where "
    .. "its newline should be", "a size without its newline" },
  { "10\\nshort", "exit", 2, "channel byte 6: the channel ended after 5 "
    .. "of the report's 10 bytes", "a size larger than what follows" },
  { "12", "exit", 2, "channel byte 6: the channel ended inside a report's "
    .. "size ('12')", "a size cut short" },
  -- a good report with garbage behind it: that job is done, and the
  -- garbage fails the job the worker is then given
  { "2\\nokjunk", "hang", 3, "channel byte 10: 'j' where a report's size "
    .. "(in decimal) should start", "garbage between two reports" },
}
for _, h in ipairs(HOSTILE) do
  local bytes, mode, bad, message, name = h[1], h[2], h[3], h[4], h[5]
  local got = hostile(bytes, mode)
  t.is(#got, 4, name .. ": every job returned")
  t.is_deeply({ got[bad].report, got[bad].problem, got[bad].status },
    { nil, message, mode == "exit" and 5 or 128 + 9 },
    name .. ": job " .. bad .. " failed, with one message")
  local others = true
  for k = 1, 4 do
    if k ~= bad then
      others = others and got[k].report == "ok" and got[k].problem == nil
        and got[k].status == 0
    end
  end
  t.ok(others, name .. ": the other jobs done")
end

-- bytes that are no report in place of the first: the worker cannot
-- start, and says why
p = rsxmesh.pool({ "sh", "-c", "printf 'junk' >&3; read -r k" }, 2)
p:add("a")
t.error_like(function() p:next() end, "pool: cannot start sh: its first "
  .. "report: channel byte 0: 'j' where a report's size",
  "garbage for the first report: an error naming the program")
p:close()

-- a fixed-seed random pass: random job counts, sizes and worker counts,
-- some jobs writing more than a pipe holds; every job comes back in order
-- with its own output
math.randomseed(22)
for round = 1, 6 do
  local n, jobs = math.random(1, 4), {}
  for i = 1, math.random(0, 12) do
    jobs[i] = { "j" .. i .. "-" .. math.random(0, 3), math.random(0, 5) }
  end
  p = rsxmesh.pool({ "sh", "-c", [[
printf '0\n' >&3
while read -r k; do
  case $k in *-3) i=0; while [ $i -lt 5000 ]; do
    echo "$k line $i"; i=$((i + 1)); done ;; *) echo "$k" ;; esac
  echo "err $k" >&2
  printf '%s\n%s' "${#k}" "$k" >&3
done
]] }, n)
  for _, j in ipairs(jobs) do p:add(j[1], j[2]) end
  local good, count = true, 0
  while true do
    local k, out, err, report = p:next()
    if k == nil then break end
    if k then
      count = count + 1
      local name = jobs[k][1]
      local want = name .. "\n"
      if name:find("%-3$") then
        local lines = {}
        for i = 0, 4999 do lines[#lines + 1] = name .. " line " .. i end
        want = table.concat(lines, "\n") .. "\n"
      end
      good = good and k == count and out == want
        and err == "err " .. name .. "\n" and report == name
    end
  end
  p:close()
  t.ok(good and count == #jobs, string.format("random round %d: %d jobs, "
    .. "%d workers: each in order, with its own output", round, #jobs, n))
end

-- argument checks
t.error_like(function() rsxmesh.pool({}, 1) end, "empty command",
  "an empty command is refused")
t.error_like(function() rsxmesh.pool({ "sh" }, 0) end,
  "workers 0 out of range 1..256", "0 workers are refused")
t.error_like(function() rsxmesh.pool({ "sh", 1 }, 1) end,
  "command word 2 is a number", "a command word that is not a string")
p = rsxmesh.pool({ "sh" }, 1)
t.error_like(function() p:add("a\nb") end, "a job line with a newline",
  "a job line with a newline is refused")
p:close()
lib.check_cannot_start()
-- a SIGINT that lands while the pool is not waiting for all its workers
-- (here, while it reads a dead worker's pipes, which a child of that
-- worker holds open) still cuts the wait short: it is held till the next
-- wait, which the other worker, busy for 5 s, would not end. Last: the
-- host takes one SIGINT as an error, and leaves the next to the system.
local interrupt = require "rsxmesh.interrupt"
p = rsxmesh.pool({ "sh", "-c", [[
printf '0\n' >&3
read -r k
if [ "$k" = die ]; then
  (sleep 0.3; kill -INT $PPID; sleep 0.3) 3>&- &
  exit 1
fi
sleep 5 >/dev/null 2>&1 3>&-
]] }, 2)
p:add("busy", 2)
p:add("die", 1)
before = rsxmesh.clock()
local ok, err = interrupt.protect(function()
  while p:next() ~= nil do end
end)
local seconds = rsxmesh.clock() - before
t.ok(not ok and interrupt.is(err), "an interrupt while a dead worker's "
  .. "pipes are read is raised: " .. tostring(err))
t.ok(seconds < 3, string.format("... once they are read, without waiting "
  .. "for the busy worker (%.1f s)", seconds))
p:stop(true)
p:close()

t.is(rsxmesh.pool_worker(), false, "this process is not a pool's worker")
t.error_like(function() rsxmesh.pool_report("x") end, "not a worker",
  "pool_report outside a worker is an error")

os.remove(log)

t.done_testing()
