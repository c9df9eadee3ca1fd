-- rsxmesh/text.lua - numbers and counts as the research note writes them
--
--   local text = require "rsxmesh.text"
--   text.count(2387)                  --> "2,387"
--   text.plural(1, "mesh", "meshes")  --> "1 mesh"
--   text.hex8(0x80005)                --> "00080005"

local text = {}

-- 2387 -> "2,387", as the research note writes counts.
function text.count(n)
  local s = string.format("%d", n)
  local sign, digits = s:match("^(-?)(%d+)$")
  digits = digits:reverse():gsub("(%d%d%d)", "%1,"):reverse()
  return sign .. digits:gsub("^,", "")
end

-- text.plural(1, "mesh", "meshes") -> "1 mesh"; counts with separators.
function text.plural(n, one, many)
  return text.count(n) .. " " .. (n == 1 and one or (many or one .. "s"))
end

-- "00080005": a mask or selector word as the note writes it.
function text.hex8(n)
  return string.format("%08x", n)
end

-- s as one word of a POSIX shell command: in single quotes, each ' as
-- '\'' (for the tests' and benchmarks' commands; the scripts start no
-- shell: rsxmesh.pool takes its command as a list).
function text.quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

return text
