-- fmt.lua - benchmark: rsx_format_float against Dragonbox's to_chars
-- (bench/fmt-floor, built only when configure found Dragonbox) on the
-- floats obj-export writes of the whole synthetic disc: positions,
-- normals and stored UVs. Issue 13 aims at 1.25x Dragonbox's time or
-- less. One result line.
local here = arg[0]:match("^(.*)/") or "."
local E = dofile(here .. "/export-lib.lua")

local AIM = 1.25
local program = (os.getenv("top_builddir") or ".") .. "/bench/fmt-floor"
local f = io.open(program, "rb")
if not f then
  print("fmt: skipped, no bench/fmt-floor (configure found no Dragonbox: "
    .. "apt-get install libdragonbox-dev)")
  return
end
f:close()
local words = { E.quote(program), "-r", tostring(math.max(E.reps, 5)) }
for _, b in ipairs(E.bundles(E.full_disc())) do
  words[#words + 1] = E.quote(b)
end
local p = assert(io.popen(table.concat(words, " ")))
local line = p:read("a")
assert(p:close(), "bench/fmt-floor failed")
local ratio = assert(tonumber(line:match("ratio ([%d.]+)")), line)
print((line:gsub(" %(%d+%)\n$", "")) .. "; " .. E.verdict(ratio, AIM))
