-- rsxmesh/synth/rng.lua - the synthetic disc's random numbers and trig,
-- the same bits on every machine.
--
-- math.random differs between Lua builds and libm's sin and cos may differ
-- in the last bit between C libraries, so the disc uses SplitMix64 in
-- Lua's 64-bit wrapping integers and trig from + - * / alone (IEEE 754
-- rounds those identically everywhere).

local M = {}

local GOLDEN = 0x9E3779B97F4A7C15
local MIX1 = 0xBF58476D1CE4E5B9
local MIX2 = 0x94D049BB133111EB

-- SplitMix64's output function: a 64-bit integer hash.
local function mix(z)
  z = (z ~ (z >> 30)) * MIX1
  z = (z ~ (z >> 27)) * MIX2
  return z ~ (z >> 31)
end
M.mix = mix

local Rng = {}
Rng.__index = Rng

-- A generator from any number of integers (seed, level, mesh number...):
-- streams keyed by different tuples are independent.
function M.new(...)
  local s = 0x2545F4914F6CDD1D
  for i = 1, select("#", ...) do
    s = mix(s + GOLDEN * (select(i, ...) + i))
  end
  return setmetatable({ s = s }, Rng)
end

-- The next 64-bit integer.
function Rng:int64()
  local s = self.s + GOLDEN
  self.s = s
  return mix(s)
end

-- A float in [0, 1) with 53 random bits.
function Rng:float()
  return (self:int64() >> 11) * (1.0 / 9007199254740992.0)
end

-- A float in [a, b).
function Rng:range(a, b)
  return a + (b - a) * self:float()
end

-- An integer in [a, b], unbiased (rejection).
function Rng:int(a, b)
  local n = b - a + 1
  assert(n >= 1, "rng:int: empty range")
  local limit = (0x7FFFFFFFFFFFFFFF // n) * n
  while true do
    local r = self:int64() >> 1
    if r < limit then return a + r % n end
  end
end

-- Index into weights (an array of nonnegative numbers), by weight.
function Rng:pick(weights)
  local total = 0
  for i = 1, #weights do total = total + weights[i] end
  local x = self:float() * total
  for i = 1, #weights do
    x = x - weights[i]
    if x < 0 and weights[i] > 0 then return i end
  end
  for i = #weights, 1, -1 do
    if weights[i] > 0 then return i end
  end
  error("rng:pick: no positive weight")
end

-- Shuffle an array in place (Fisher-Yates).
function Rng:shuffle(t)
  for i = #t, 2, -1 do
    local j = self:int(1, i)
    t[i], t[j] = t[j], t[i]
  end
  return t
end

-- ------------------------------------------------------------------ trig

local PI = 3.141592653589793
local HALF_PI = PI / 2
M.PI = PI

-- sin and cos of x in [-pi/4, pi/4]: Taylor series, error below 1e-16.
local function ksin(x)
  local x2 = x * x
  return x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72 *
    (1 - x2 / 110 * (1 - x2 / 156 * (1 - x2 / 210)))))))
end

local function kcos(x)
  local x2 = x * x
  return 1 - x2 / 2 * (1 - x2 / 12 * (1 - x2 / 30 * (1 - x2 / 56 *
    (1 - x2 / 90 * (1 - x2 / 132 * (1 - x2 / 182 * (1 - x2 / 240)))))))
end

-- sin(x) and cos(x) together, by quadrant reduction.
function M.sincos(x)
  local q = math.floor(x / HALF_PI + 0.5)
  local r = x - q * HALF_PI
  local s, c = ksin(r), kcos(r)
  q = q % 4
  if q == 0 then return s, c
  elseif q == 1 then return c, -s
  elseif q == 2 then return -s, -c
  else return -c, s end
end

function M.sin(x) return (M.sincos(x)) end

function M.cos(x)
  local _, c = M.sincos(x)
  return c
end

-- Integer x * num / den rounded half up, for count apportioning
-- (exact in integers).
function M.muldiv_round(x, num, den)
  return (2 * x * num + den) // (2 * den)
end

return M
