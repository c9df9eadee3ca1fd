-- api-fuzz.lua - the long pass of the random-call fuzzer of the Lua API
-- (t/api-fuzz-lib.lua), for make fuzz: seeds drawn at random, one after
-- another, for FUZZ_SECONDS (an environment variable, default 60), each
-- seed FUZZ_CALLS calls (default 4000) in a fresh world. Run by the host
-- of the build folder: a sanitizer build (./configure --enable-sanitizers)
-- reports a memory error and stops; the seed being run is on stderr
-- before its calls, so that
--   FUZZ_SEED=1234 FUZZ_TRACE=1 ./rsxmesh fuzz/api-fuzz.lua
-- runs that seed alone, naming each call on stderr before making it.
-- Ends with one line: seeds, calls, errors, seconds, findings.
local fuzz = require "api-fuzz-lib"

local seconds = tonumber(os.getenv("FUZZ_SECONDS")) or 60
local calls = tonumber(os.getenv("FUZZ_CALLS")) or 4000
local only = tonumber(os.getenv("FUZZ_SEED"))
local trace = os.getenv("FUZZ_TRACE")

local missing = fuzz.missing()
if #missing > 0 then
  io.stderr:write("api-fuzz: no argument generator for ",
                  table.concat(missing, ", "), "\n")
  os.exit(1)
end

-- seeds from the clock and the address of a new table: two runs started
-- in the same second differ
math.randomseed(os.time(), tonumber(tostring({}):match("0x(%x+)"), 16))
local start = os.time()
local total = { seeds = 0, calls = 0, errors = 0, odd = {} }
local function log(name) io.stderr:write(name, "\n") end
repeat
  local seed = only or math.random(1, 2 ^ 31)
  io.stderr:write("api-fuzz: seed ", seed, "\n")
  local st = fuzz.run{ seed = seed, calls = calls, log = trace and log }
  total.seeds = total.seeds + 1
  total.calls = total.calls + st.calls
  total.errors = total.errors + st.errors
  for _, o in ipairs(st.odd) do
    total.odd[#total.odd + 1] = "seed " .. seed .. ": " .. o
    io.stderr:write("api-fuzz: seed ", seed, ": ", o, "\n")
  end
until only or os.time() - start >= seconds
print(string.format("api-fuzz: %d seeds, %d calls (%d clean errors), %d s, "
                    .. "%d findings", total.seeds, total.calls, total.errors,
                    os.time() - start, #total.odd))
os.exit(#total.odd == 0 and 0 or 1)
