-- api-sink.lua - the text of acc:lines and s:face_lines on its way into a
-- file (src/lua/base.c's sink; issue 22's fifth round): written in place
-- in the buffer of a file of rsxmesh.create, through a block elsewhere,
-- in the order of the file's own writes; a full device reported; the disk
-- room reserved ahead of a long file given back at its close. Every file
-- must hold what the same calls return as strings.
local t = require "tap"
local lfs = require "lfs"
local rsxmesh = require "rsxmesh"
local fx = require "api-fixture"

-- A mesh of n vertices with distinct positions, in a triangle list that
-- walks them (triangle i: i, i + 1, i + 2).
local function built(n)
  local mmp, idx = {}, {}
  for i = 1, n do
    mmp[i] = string.pack(">fffI4", i * 0.37, -i, i / 3, 0)
  end
  for i = 1, n - 2 do
    idx[#idx + 1], idx[#idx + 2], idx[#idx + 3] = i, i + 1, i + 2
  end
  return assert(rsxmesh.mesh{ name = "walk", meta = fx.meta(0x00080001),
    vertex_count = n, mmp = table.concat(mmp), mmp_stride = 16,
    indices = rsxmesh.indices(2, idx), index_size = 2,
    submeshes = { { record = fx.record(0xFF, 0xFF, 0xFF, 0xFF),
      first_index = 0, index_count = #idx } } })
end

local mesh = built(4000)
local pos, sub = mesh:attribute("position"), mesh:submesh(1)

-- Run by the size-limit check below: the vertex lines rounds times into a
-- created file, then its close's result on stdout.
if arg[1] == "close-child" then
  local f = assert(rsxmesh.create(arg[2]))
  for _ = 1, tonumber(arg[3]) do assert(pos:lines("v", { file = f })) end
  local ok, msg = f:close()
  io.stdout:write(tostring(ok), "|", tostring(msg), "\n")
  os.exit(0)
end
local COLUMNS = { { offset = 0 }, { offset = 7 } }
local v_text = pos:lines("v")
local f_text = sub:face_lines("f", COLUMNS)
t.ok(#v_text > 80000 and #f_text > 80000,
  "the texts are long: a few fill a 256 KiB buffer")

-- rounds of a line by f:write, the vertex lines, a line by f:write, the
-- face lines: what the file must hold, and the calls that write it
local ROUNDS = 6
local want = {}
for i = 1, ROUNDS do
  want[#want + 1] = "o part" .. i .. "\n" .. v_text .. "g\n" .. f_text
end
want = table.concat(want)

local function write_rounds(f)
  for i = 1, ROUNDS do
    assert(f:write("o part", i, "\n"))
    local n = assert(pos:lines("v", { file = f }))
    t.is(n, #v_text, "round " .. i .. ": the vertex lines' bytes")
    assert(f:write("g\n"))
    local m, count = sub:face_lines("f", COLUMNS, f)
    t.is(m, #f_text, "round " .. i .. ": the face lines' bytes")
    t.is(count, 3998, "round " .. i .. ": the triangles")
  end
end

local function read_all(name)
  local g = assert(io.open(name, "rb"))
  local s = g:read("a")
  g:close()
  return s
end

local name = os.tmpname()

-- rsxmesh.create's file: the lines in place in its buffer
do
  local f = assert(rsxmesh.create(name))
  write_rounds(f)
  t.is(f:seek("cur"), #want, "created file: seek counts every byte")
  -- on ext4, room reserved ahead once the file passed 1 MiB (each time
  -- the buffer filled, up to 2 MiB ahead at least)
  local stat = io.popen("stat -f -c %T " .. name .. " 2>/dev/null")
  local fs = stat:read("a")
  stat:close()
  if fs:match("^ext2/ext3") then
    t.ok(lfs.attributes(name, "blocks") * 512 >= #want + (2 << 20),
      "created file on ext4: room reserved ahead of its end")
  else
    t.skip(1, "not ext4 here")
  end
  t.ok(f:close(), "created file closes")
  local got = read_all(name)
  t.is(#got, #want, "created file: its size")
  t.ok(got == want, "created file: the same bytes as the strings, in order")
  -- the room reserved ahead (4 MiB past 1 MiB on ext4) is given back
  -- (Windows' LuaFileSystem has no such attribute, and raises)
  local has_blocks, blocks = pcall(lfs.attributes, name, "blocks")
  if has_blocks and blocks then
    t.ok(blocks * 512 < #want + (1 << 20),
      "created file: no room reserved past its end once closed ("
      .. blocks * 512 .. " bytes on the disk for " .. #want .. ")")
  else
    t.skip(1, "no st_blocks here")
  end
end

-- io.open's files (the lines through the block) and created ones (in
-- place where the buffer has room), buffered every way
local openers = {
  ["io.open"] = function() return io.open(name, "wb") end,
  ["rsxmesh.create"] = function() return rsxmesh.create(name) end,
}
for _, how in ipairs({ "io.open", "rsxmesh.create" }) do
  for _, mode in ipairs({ { "full" }, { "full", 100 }, { "line" },
      { "no" } }) do
    local f = assert(openers[how]())
    local what = how .. ", setvbuf " .. table.concat(mode, " ")
    f:setvbuf(mode[1], mode[2])
    write_rounds(f)
    t.ok(f:close(), what .. ": closes")
    t.ok(read_all(name) == want, what .. ": the same bytes as the strings, "
      .. "in order")
  end
end

-- a file read, then written: C asks for a seek between the two
do
  local f = assert(io.open(name, "w+b"))
  assert(f:write("head\n"))
  assert(f:seek("set", 0))
  t.is(f:read(4), "head", "w+b: read back")
  assert(f:seek("end"))
  t.is(pos:lines("v", { file = f }), #v_text, "w+b: the lines after a read")
  t.ok(f:close(), "w+b: closes")
  t.ok(read_all(name) == "head\n" .. v_text, "w+b: the lines after the head")
end
os.remove(name)

-- a full device: the failure comes back from the call that met it, or
-- from the close when the text still fit in the buffer
-- (Windows has no /dev/full: under wine the name opens a file of its own)
local windows = package.config:sub(1, 1) == "\\"
local full = not windows and io.open("/dev/full", "wb")
if full then
  full:close()
  local f = assert(rsxmesh.create("/dev/full"))
  local r, msg, code = pos:lines("v", { file = f })
  if r == nil then -- the first buffer's write failed within the call
    t.is(msg, "No space left on device", "/dev/full: the reason")
    t.is(math.type(code), "integer", "/dev/full: the errno")
  else
    t.is(r, #v_text, "/dev/full: the text fit in the buffer")
  end
  for _ = 1, 3 do
    r, msg = pos:lines("v", { file = f })
    if r == nil then break end
  end
  t.is(r, nil, "/dev/full: a long text fails")
  t.is(msg, "No space left on device", "/dev/full: the reason, again")
  f:close() -- glibc drops a buffer it failed to write: nothing more to say


  local short = sub:face_lines("f", { { offset = 0 } })
  f = assert(rsxmesh.create("/dev/full"))
  t.is(sub:face_lines("f", { { offset = 0 } }, f), #short,
    "/dev/full: a short text fits in the buffer")
  local ok, cmsg = f:close()
  t.is(ok, nil, "/dev/full: a short text fails at the close")
  t.like(cmsg, "No space left on device", "/dev/full: the close's reason")
else
  t.skip(7, "no /dev/full here")
end

-- A file-size limit met by the last bytes, which the close writes (ulimit
-- -f, in blocks of 512 bytes; SIGXFSZ ignored, so that a write fails with
-- EFBIG instead of killing): the close says so. The lines go out in
-- 256 KiB writes, and the rest at the close; the limit falls in that rest.
-- On ext4 the file is past 1 MiB, so room was reserved ahead, and the close
-- flushes before it gives the room back: its failure must not be lost.
do
  local RSXMESH = os.getenv("RSXMESH")
  local rounds = 12
  local total = rounds * #v_text
  local whole = total // 262144 * 262144
  local blocks = (whole + (total - whole) // 2) // 512
  local out = os.tmpname()
  if RSXMESH and total - whole > 4096 and not windows then
    local p = io.popen(string.format("trap '' XFSZ && ulimit -f %d && "
      .. "%q %q close-child %q %d 2>&1", blocks, RSXMESH, arg[0], out,
      rounds))
    local said = p:read("a")
    p:close()
    t.like(said, "^nil|.*File too large\n$", "a size limit met at the "
      .. "close (" .. total .. " bytes, the limit " .. blocks * 512
      .. "): the close fails, naming the reason")
  else
    t.skip(1, "RSXMESH is not set, Windows (no ulimit -f), or the text "
      .. "ends near a 256 KiB write")
  end
  os.remove(out)
end

t.done_testing()
