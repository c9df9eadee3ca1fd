-- api-fuzz.lua - the random-call fuzzer of the API (api-fuzz-lib.lua), a
-- short pass of fixed seeds for make check: every function, method,
-- property and metamethod called under pcall with plausible, hostile and
-- closing arguments, with no crash, no memory error (the sanitizer build
-- and check-valgrind run it too) and no hang. make fuzz runs the long
-- pass with random seeds (fuzz/api-fuzz.lua).
local t = require "tap"
local fuzz = require "api-fuzz-lib"

local missing = fuzz.missing()
t.is(#missing, 0, "every function and method has an argument generator"
     .. (#missing > 0 and ": none for " .. table.concat(missing, ", ") or ""))

-- under valgrind (check-valgrind sets TEST_WRAPPER) a shorter pass
local slow = (os.getenv("TEST_WRAPPER") or "") ~= ""
local SEEDS, CALLS = slow and 2 or 6, slow and 400 or 2000
local called, calls, errors = {}, 0, 0
for seed = 1, SEEDS do
  local st = fuzz.run{ seed = seed, calls = CALLS }
  t.is(table.concat(st.odd, "; "), "", "seed " .. seed .. ": " .. st.calls
       .. " calls, nothing odd")
  for name, n in pairs(st.called) do called[name] = (called[name] or 0) + n end
  calls, errors = calls + st.calls, errors + st.errors
end

-- the pass covers the whole API, and not only with errors
local never = {}
for _, e in ipairs(fuzz.api()) do
  if not called[e.name] then never[#never + 1] = e.name end
end
t.is(table.concat(never, ", "), "", "every entry of the API was called")
t.ok(errors < calls * 0.8, "most calls are not errors (" .. errors .. " of "
     .. calls .. ")")

t.done_testing()
