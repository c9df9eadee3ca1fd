-- passes.lua - the passes of the accessor benchmark: each reads every
-- position of the accessors given once, as bench/accessor.lua times them
-- and bench/count.lua counts their instructions.
local P = {}

-- Passes: each reads every position once, returns the sum of all
-- components (x + y + z vertex after vertex, as bench/floor sums them).
function P.get(accs)
  local s = 0.0
  for m = 1, #accs do
    local acc = accs[m]
    for i = 1, #acc do
      local x, y, z = acc:get(i)
      s = s + x + y + z
    end
  end
  return s
end

function P.range(accs)
  local s = 0.0
  for m = 1, #accs do
    local t = accs[m]:range()
    for k = 1, #t, 3 do
      s = s + t[k] + t[k + 1] + t[k + 2]
    end
  end
  return s
end

-- The bulk call alone: the values reach a Lua table, nothing reads them.
-- What it leaves of P.range's time is Lua's own loop over the table.
function P.table(accs)
  local s = 0
  for m = 1, #accs do
    s = s + #accs[m]:range()
  end
  return s
end

return P
