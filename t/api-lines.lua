-- api-lines.lua - acc:lines and s:face_lines since the core writes their
-- text (src/lines.c; issue 22): hostile arguments through the binding,
-- the same bytes into a string and into a file, the corners a face line
-- writes once and copies, and the edges of the prefix's fixed copy;
-- against lines worked out by hand.
local t = require "tap"
local rsxmesh = require "rsxmesh"
local fx = require "api-fixture"

-- A mesh of positions alone (0x00080005 without a normal is 0x00080001:
-- the MMP stride 16), its indices given.
local function built(name, positions, indices)
  local mmp = {}
  for i, p in ipairs(positions) do
    mmp[i] = string.pack(">fffI4", p[1], p[2], p[3], 0)
  end
  return assert(rsxmesh.mesh{ name = name, meta = fx.meta(0x00080001),
    vertex_count = #positions, mmp = table.concat(mmp), mmp_stride = 16,
    indices = rsxmesh.indices(2, indices), index_size = 2,
    submeshes = { { record = fx.record(0xFF, 0xFF, 0xFF, 0xFF),
      first_index = 0, index_count = #indices } } })
end

local into_file = fx.into_file

-- acc:lines -----------------------------------------------------------------

local tri = built("tri", { { 1, -1.5, 0.25 }, { 0, 2.5, -0.0 },
  { 1e-8, 150, 65504 } }, { 1, 2, 3 })
local pos = tri:attribute("position")

t.is(pos:lines("v"), "v 1 -1.5 0.25\nv 0 2.5 -0\nv 1e-8 150 65504\n",
  "lines: shortest float32 digits, -0 kept")
t.is(pos:lines("12345678", 1, 1), "12345678 1 -1.5 0.25\n",
  "lines: a prefix of 8 bytes, the fixed copy's size")
t.is(pos:lines("123456789", 1, 1), "123456789 1 -1.5 0.25\n",
  "lines: a prefix of 9 bytes, copied as it is")
t.is(pos:lines("a\0b", 2, 2), "a\0b 0 2.5 -0\n",
  "lines: a prefix with a zero byte, every byte kept")
t.is(pos:lines("", 3, 3, { components = 1 }), "1e-8\n",
  "lines: no prefix, no leading space")
local long = string.rep("p", 40000)
t.is(pos:lines(long, 1, 1), long .. " 1 -1.5 0.25\n",
  "lines: a prefix longer than a sink's room, into a string")
local text, written = into_file(function(f)
  return pos:lines("v", { scale = { 2, 1, 1 }, offset = { 0, 1, 0 },
    file = f })
end)
-- 2 * 1, 1 + -1.5, 0.25; 0, 3.5, -0 (0 + -0 is 0 in double: "0");
-- 2e-8, 151, 65504
t.is(text, "v 2 -0.5 0.25\nv 0 3.5 0\nv 2e-8 151 65504\n",
  "lines: scale and offset into a file, -0 + 0 written 0")
t.is(written, #text, "lines: the bytes written")
t.error_like(function() pos:lines("v", 0, 1) end,
  "accessor:lines", "lines: vertex 0 refused, naming the method")
t.error_like(function() pos:lines("v", 1, 4) end,
  "accessor:lines", "lines: a range past the end refused")
t.error_like(function() pos:lines("v", { components = 4 }) end,
  "accessor:lines: opts%.components must be an integer in 1%.%.3, got 4",
  "lines: 4 components of a position")
t.error_like(function() pos:lines("v", { file = "out.obj" }) end,
  "accessor:lines", "lines: a file name instead of a file")
t.error_like(function() pos:lines({}, 1, 1) end,
  "accessor:lines: bad argument #1 %(string expected, got table%)",
  "lines: a table as the prefix (#1: the first after self)")

-- s:face_lines --------------------------------------------------------------

-- A grid of 6 x 6 vertices (0-based v = 6 * row + col), two triangles a
-- cell: 50 triangles over 36 vertices, each vertex in up to 6 corners:
-- the corners are written once and copied. Its lines, made here by
-- string.format from the cells.
local grid_pos, grid_idx, cells = {}, {}, {}
for v = 0, 35 do grid_pos[v + 1] = { v, 0, 0 } end
for row = 0, 4 do
  for col = 0, 4 do
    local a = 6 * row + col
    for _, k in ipairs({ a, a + 1, a + 6, a + 1, a + 7, a + 6 }) do
      grid_idx[#grid_idx + 1] = k + 1 -- rsxmesh.indices takes 1-based
    end
    cells[#cells + 1] = { a, a + 1, a + 6 }
    cells[#cells + 1] = { a + 1, a + 7, a + 6 }
  end
end
local grid = built("grid", grid_pos, grid_idx):submesh(1)
local function grid_lines(fmt, v, vt)
  local out = {}
  for i, c in ipairs(cells) do
    local a, b, d = c[1] + 1, c[2] + 1, c[3] + 1
    out[i] = string.format(fmt, a + v, a + vt, b + v, b + vt, d + v,
      d + vt)
  end
  return table.concat(out)
end
local COLUMNS = { { offset = 0 }, { offset = 100000 } }
local want = grid_lines("f %d/%d %d/%d %d/%d\n", 0, 100000)
t.is_deeply({ grid:face_lines("f", COLUMNS) }, { want, 50 },
  "face_lines: 50 triangles over 36 vertices, corners copied")
local ftext, fbytes, fcount = into_file(function(f)
  return grid:face_lines("f", COLUMNS, f)
end)
t.is(ftext, want, "face_lines: into a file, the same bytes")
t.is(fbytes, #want, "face_lines: into a file, the bytes written")
t.is(fcount, 50, "face_lines: into a file, the triangle count")

-- the largest offset, 2^63 - 1 - 2^32 = 9223372032559808511, and the
-- last triangle: 30 36 35
local max = math.maxinteger - (1 << 32)
local top = grid:face_lines("", { { offset = max } })
t.is(top:match("[^\n]*\n$"), "9223372032559808541 9223372032559808547 "
  .. "9223372032559808546\n", "face_lines: the largest offset, exact")
t.error_like(function() grid:face_lines("f", { { offset = max + 1 } }) end,
  "columns%[1%]%.offset must be an integer below 2%^63 %- 2%^32",
  "face_lines: one above the largest offset")
t.is(grid:face_lines("", { { offset = math.mininteger } }):match("^[^\n]*"),
  "-9223372036854775807 -9223372036854775806 -9223372036854775801",
  "face_lines: the smallest offset, 1 - 2^63")

-- empty prefix and empty corners: lines shorter than the prefix's fixed
-- copy of 8 bytes
local tiny = grid:face_lines("", { false })
t.is(tiny, string.rep("  \n", 50), "face_lines: one empty column")
t.is((into_file(function(f) return grid:face_lines("", { false }, f) end)),
  string.rep("  \n", 50), "face_lines: one empty column, into a file")
t.is(grid:face_lines("12345678", { false }):sub(1, 12), "12345678   \n",
  "face_lines: a prefix of 8 bytes and empty corners")

t.error_like(function() grid:face_lines("f", { { offset = {} } }) end,
  "columns%[1%]%.offset must be an integer", "face_lines: a table offset")
t.error_like(function() grid:face_lines("f", { { offset = 0 / 0 } }) end,
  "columns%[1%]%.offset must be an integer", "face_lines: a NaN offset")
t.error_like(function() grid:face_lines("f", { { offset = 0 } }, "x") end,
  "submesh:face_lines.*file",
  "face_lines: a string as the file")

t.done_testing()
