-- pool-random.lua - rsxmesh.pool (src/pool.c) in random rounds: random
-- worker counts, jobs whose workers write outputs of random sizes (past a
-- pipe's 64 kB too) on stdout, stderr and the channel, fail with an exit
-- status, exit early without a report, die of a signal, write bytes that
-- are no report, cut a report short, are slow, or hang until a watchdog
-- interrupts the first process (as Control-C or a time-out would). What
-- comes back is checked against what each job was made to do: the jobs
-- in the order added, each with its own bytes, report, exit status and
-- the pool's message; after an interrupt, a prefix of them, and every
-- worker ended.
--
-- Each round runs in a process of its own (this file with --round SEED):
-- the host takes one SIGINT as an error and leaves the next to the
-- system, as lua.c does. make check runs ROUNDS rounds of a fixed seed;
-- make fuzz (fuzz/fuzz.am) runs rounds for RSXMESH_RANDOM_SECONDS from a
-- seed of the clock, which a failure names:
--   RSXMESH_RANDOM_SEED=S RSXMESH_RANDOM_SECONDS=0 make check \
--     TESTS=t/pool-random.lua           (one round, seed S)

local rsxmesh = require "rsxmesh"

-- What a job is made to do, and what must come back for it; in a round
-- of three, one job hangs (the jobs after it are not returned).
local KINDS = { "ok", "ok", "ok", "ok", "slow", "fail", "early", "signal",
  "garbage", "cut" }

-- The worker: reads "ID KIND OUT ERR REPORT ARG" lines and writes ID then
-- OUT bytes of its letter to stdout, ID then ERR bytes (upper case) to
-- stderr, then does what KIND says; a report is ID then REPORT "r" bytes.
local WORKER = [[
trap 'exit 130' INT
printf '0\n' >&3
fill() { head -c "$1" /dev/zero | tr '\0' "$2"; }
while read -r id kind out err report arg; do
  letter=$(printf '%s' abcdefghijklmnopqrstuvwxyz | cut -c $((id % 26 + 1)))
  upper=$(printf '%s' "$letter" | tr a-z A-Z)
  { printf '%s' "$id"; fill "$out" "$letter"; }
  { printf '%s' "$id"; fill "$err" "$upper"; } >&2
  case $kind in
    slow) sleep "0.0$arg" ;;
    fail) exit "$arg" ;;
    early) exit 0 ;;
    signal) kill -"$arg" $$ ;;
    garbage) printf 'junk' >&3; read -r never ;;
    cut) printf '%s\nabc' "$arg" >&3; exit 3 ;;
    hang) (sleep "0.$arg"; kill -INT $PPID) >/dev/null 2>&1 3>&- &
          read -r never ;;
  esac
  { printf '%s\n%s' $((${#id} + report)) "$id"; fill "$report" r; } >&3
done
]]

-- A size: mostly small, sometimes more than a pipe holds.
local function size()
  local r = math.random()
  if r < 0.3 then return 0 end
  if r < 0.8 then return math.random(1, 300) end
  if r < 0.95 then return math.random(1000, 20000) end
  return math.random(65536, 200000)
end

local function letter(id, upper)
  local c = string.char(97 + id % 26)
  return upper and c:upper() or c
end

-- One round: the list of problems found (empty: none), and what it did.
local function round(seed)
  math.randomseed(seed)
  local workers, jobs = math.random(1, 6), {}
  local count = math.random(0, 20)
  local hang = math.random(3) == 1 and math.random(1, count + 1)
  for id = 1, count do
    local kind = id == hang and "hang" or KINDS[math.random(#KINDS)]
    local arg = 0
    if kind == "slow" then arg = math.random(1, 9)
    elseif kind == "fail" then arg = math.random(1, 120)
    elseif kind == "signal" then arg = ({ 9, 15 })[math.random(2)]
    elseif kind == "cut" then arg = math.random(4, 1000)
    elseif kind == "hang" then arg = math.random(0, 3) end
    jobs[id] = { kind = kind, out = size(), err = size(), report = size(),
      arg = arg, size = math.random(0, 3) }
  end
  local p = rsxmesh.pool({ "sh", "-c", WORKER }, workers)
  for id, j in ipairs(jobs) do
    p:add(string.format("%d %s %d %d %d %d", id, j.kind, j.out, j.err,
      j.report, j.arg), j.size)
  end
  local problems, returned = {}, 0
  local function check(cond, ...)
    if not cond then problems[#problems + 1] = string.format(...) end
  end
  local interrupt = require "rsxmesh.interrupt"
  local started = rsxmesh.clock()
  local ok, err = interrupt.protect(function()
    while true do
      local k, out, errs, report, status, problem = p:next()
      if k == nil then break end
      if k then
        returned = returned + 1
        local j = jobs[k]
        check(k == returned, "job %d returned as number %d", returned, k)
        check(out == k .. letter(k):rep(j.out), "job %d (%s): stdout of "
          .. "%d bytes, %d expected", k, j.kind, #out, #tostring(k) + j.out)
        check(errs == k .. letter(k, true):rep(j.err), "job %d (%s): stderr "
          .. "of %d bytes, %d expected", k, j.kind, #errs,
          #tostring(k) + j.err)
        local want_status = ({ ok = 0, slow = 0, fail = j.arg, early = 1,
          signal = 128 + j.arg, garbage = 128 + 9, cut = 3 })[j.kind]
        check(status == want_status, "job %d (%s): status %s, %s expected",
          k, j.kind, status, want_status)
        if j.kind == "ok" or j.kind == "slow" then
          check(report == k .. ("r"):rep(j.report), "job %d (%s): its "
            .. "report", k, j.kind)
        else
          check(report == nil, "job %d (%s): a report", k, j.kind)
        end
        local want = j.kind == "garbage"
          and "^channel byte %d+: 'j' where a report's size %(in decimal%) "
            .. "should start$"
          or j.kind == "cut" and "^channel byte %d+: the channel ended "
            .. "after 3 of the report's " .. j.arg .. " bytes$"
        check(want and problem and problem:find(want) or
          not want and problem == nil, "job %d (%s): problem %s", k,
          j.kind, problem)
      end
    end
  end)
  local stopped = p:stop(true)
  p:close()
  local hung
  for k, j in ipairs(jobs) do
    if j.kind == "hang" then hung = k end
  end
  if hung then
    check(not ok and interrupt.is(err), "a hanging job, but no interrupt: "
      .. "%s", err)
    check(returned < hung, "%d jobs returned, past the hanging job %d",
      returned, hung)
    check(stopped >= 1 and stopped <= workers, "%d workers stopped of %d",
      stopped, workers)
  else
    check(ok, "an error: %s", err)
    check(returned == #jobs, "%d of %d jobs returned", returned, #jobs)
    check(stopped == 0 or stopped <= workers, "%d workers stopped",
      stopped)
  end
  check(rsxmesh.clock() - started < 60, "the round took %.1f s",
    rsxmesh.clock() - started)
  local kinds = {}
  for _, j in ipairs(jobs) do kinds[j.kind] = true end
  return problems, #jobs, workers, kinds
end

if arg[1] == "--round" then
  local problems, jobs, workers, kinds = round(math.tointeger(arg[2]))
  for _, p in ipairs(problems) do print("problem " .. p) end
  local list = {}
  for k in pairs(kinds) do list[#list + 1] = k end
  print(string.format("done %d %d %s", jobs, workers,
    table.concat(list, ",")))
  os.exit(0)
end

-- ---------------------------------------------------------------- driver

local t = require "tap"
local ROUNDS = 16
local SEED = math.tointeger(tonumber(os.getenv("RSXMESH_RANDOM_SEED")))
  or 22
local SECONDS = tonumber(os.getenv("RSXMESH_RANDOM_SECONDS"))
local host, script = os.getenv("RSXMESH"), arg[0]
local quote = require("rsxmesh.text").quote

io.stderr:write(string.format("pool-random: seed %d, %s\n", SEED,
  SECONDS and SECONDS .. " s" or ROUNDS .. " rounds"))
local started = rsxmesh.clock()
local rounds, jobs, bad, covered = 0, 0, 0, {}
repeat
  local seed = SEED + rounds
  local f = assert(io.popen(quote(host) .. " " .. quote(script)
    .. " --round " .. seed .. " 2>&1"))
  local text = f:read("a")
  local closed, how, status = f:close()
  rounds = rounds + 1
  local n, w, kinds = text:match("\ndone (%d+) (%d+) (%S*)\n$")
  if not n then n, w, kinds = text:match("^done (%d+) (%d+) (%S*)\n$") end
  if not closed or not n or text:find("problem ") then
    bad = bad + 1
    t.ok(false, string.format("round of seed %d (RSXMESH_RANDOM_SEED=%d "
      .. "RSXMESH_RANDOM_SECONDS=0 replays it): %s %s", seed, seed, how,
      status))
    t.diag(text)
  else
    jobs = jobs + n
    for k in kinds:gmatch("[^,]+") do covered[k] = true end
  end
until (SECONDS and rsxmesh.clock() - started >= SECONDS)
  or (not SECONDS and rounds >= ROUNDS)

t.is(bad, 0, string.format("%d rounds from seed %d, %d jobs: every job "
  .. "came back as made, in order", rounds, SEED, jobs))
if not SECONDS then
  local missing = {}
  for _, k in ipairs(KINDS) do
    if not covered[k] then missing[#missing + 1] = k end
  end
  if not covered.hang then missing[#missing + 1] = "hang" end
  t.is(table.concat(missing, " "), "", "the rounds made every kind of job")
end
t.done_testing()
