-- api-image.lua - the image userdata: rsxmesh.image, rsxmesh.read_png,
-- get/set/paste/save/bytes, sizes and bad files, with values by hand.
local t = require "tap"
local rsxmesh = require "rsxmesh"

local dir = os.tmpname()
os.remove(dir)
assert(os.execute("mkdir '" .. dir .. "'"))

-- A new image is transparent black; x and y are 1-based from the top-left.
local img = rsxmesh.image(2, 3)
t.is(tostring(img), "rsxmesh.image (2x3)", "tostring")
t.is(getmetatable(img).__name, "rsxmesh.image", "__name")
t.is(img.width, 2, "width")
t.is(img.height, 3, "height")
t.is_deeply({ img:get(2, 3) }, { 0, 0, 0, 0 }, "transparent black")
img:set(2, 3, 10, 20, 30)
t.is_deeply({ img:get(2, 3) }, { 10, 20, 30, 255 }, "set without alpha: 255")
img:set(1, 1, 1, 2, 3, 4)
-- bytes: rows top to bottom, 4 bytes a pixel: (1,1) first, (2,3) last
local bytes = img:bytes()
t.is(#bytes, 2 * 3 * 4, "bytes: 24")
t.is(bytes:sub(1, 4), "\1\2\3\4", "bytes: pixel (1, 1) first")
t.is(bytes:sub(21, 24), "\10\20\30\255", "bytes: pixel (2, 3) last")

-- a fill colour, or pixels as bytes
local red = rsxmesh.image(3, 2, { 255, 0, 0 })
t.is_deeply({ red:get(3, 2) }, { 255, 0, 0, 255 }, "fill colour")
local copy = rsxmesh.image(2, 3, bytes)
t.is(copy:bytes(), bytes, "an image from bytes")
t.error_like(function() rsxmesh.image(2, 3, "abc") end,
  "rsxmesh.image: 3 bytes of pixels, not 24 %(2 x 3 x 4%)", "short bytes")
t.error_like(function() rsxmesh.image(2, 2, { 256, 0, 0 }) end,
  "rsxmesh.image: fill.r %(fill%[1%]%) must be an integer 0..255",
  "a bad fill")

-- paste: src's top-left at (x, y), clipped to the image
local big = rsxmesh.image(4, 4, { 0, 0, 255 })
big:paste(red, 3, 4)       -- covers x 3..5, y 4..5: only (3..4, 4) inside
t.is_deeply({ big:get(3, 4) }, { 255, 0, 0, 255 }, "paste: (3, 4) red")
t.is_deeply({ big:get(4, 4) }, { 255, 0, 0, 255 }, "paste: (4, 4) red")
t.is_deeply({ big:get(2, 4) }, { 0, 0, 255, 255 }, "paste: (2, 4) not")
t.is_deeply({ big:get(3, 3) }, { 0, 0, 255, 255 }, "paste: (3, 3) not")
big:paste(red, -1, 0)      -- covers x -1..1, y 0..1: only (1, 1) inside
t.is_deeply({ big:get(1, 1) }, { 255, 0, 0, 255 }, "paste: negative start")
t.is_deeply({ big:get(2, 1) }, { 0, 0, 255, 255 }, "paste: clipped")

-- misuse raises, naming the function and the value
t.error_like(function() img:get(3, 1) end,
  "image:get: x 3 out of range 1..2", "x out of range")
t.error_like(function() img:get(1, 0) end,
  "image:get: y 0 out of range 1..3", "y out of range")
t.error_like(function() img:set(1, 1, 256, 0, 0) end,
  "image:set: r 256 out of range 0..255", "channel out of range")
t.error_like(function() rsxmesh.image(0, 5) end,
  "rsxmesh.image: width 0 out of range 1..16384", "width 0")
t.error_like(function() rsxmesh.image(5, 16385) end,
  "rsxmesh.image: height 16385 out of range 1..16384", "height 16385")
t.error_like(function() img.get(42, 1, 1) end,
  "image:get: bad self %(rsxmesh.image expected, got number%)$",
  "not an image")

-- save and read back
local path = dir .. "/img.png"
t.is(img:save(path), true, "save")
local back, err = rsxmesh.read_png(path)
t.ok(back, "read_png: " .. tostring(err))
t.is(back:bytes(), img:bytes(), "the same bytes back")
local ok, msg = img:save(dir .. "/none/img.png")
t.is(ok, nil, "save into a missing folder: nil")
t.like(msg, "none/img%.png", "and a message naming the file")
local left = 0
for name in io.popen("ls '" .. dir .. "'"):lines() do
  if name ~= "img.png" then left = left + 1 end
end
t.is(left, 0, "no temporary file left beside it")

-- bad files: nil, message
local function write(name, data)
  local f = assert(io.open(dir .. "/" .. name, "wb"))
  f:write(data)
  f:close()
  return dir .. "/" .. name
end
local png = assert(io.open(path, "rb")):read("a")
local r, e = rsxmesh.read_png(dir .. "/missing.png")
t.is(r, nil, "a missing file: nil")
t.is(e, dir .. "/missing.png: No such file or directory", "its message")
r, e = rsxmesh.read_png(write("text.png", "hello, world"))
t.is(e, dir .. "/text.png: not a PNG (no PNG signature)", "not a PNG")
r, e = rsxmesh.read_png(write("old.dds", "DDS |" .. string.rep("\0", 120)))
t.is(e, dir .. "/old.dds: a DDS texture, not a PNG (only PNG is read)",
  "a DDS")
r, e = rsxmesh.read_png(write("cut.png", png:sub(1, #png - 20)))
t.is(r, nil, "a truncated PNG: nil")
t.like(e, "^" .. dir:gsub("%p", "%%%0") .. "/cut%.png: ", "names the file")
assert(os.execute("mkdir '" .. dir .. "/folder.png'"))
r, e = rsxmesh.read_png(dir .. "/folder.png")
t.is(e, dir .. "/folder.png: Is a directory",
  "a folder: the system's reason, as io.open's")
assert(os.remove(dir .. "/folder.png"))
-- Only a regular file is read: a texture path naming /dev/zero read a GiB
-- before it failed, and a FIFO hung the open until a writer came. (A
-- writer comes here after 5 s, should the open block again: the test then
-- fails on the time taken, it does not hang.)
r, e = rsxmesh.read_png("/dev/zero")
t.is(e, "/dev/zero: not a regular file", "a device: refused unread")
local fifo = dir .. "/pipe.png"
assert(os.execute("mkfifo '" .. fifo .. "'"))
os.execute("F='" .. fifo .. [[' sh -c 'sleep 5; [ -p "$F" ] &&]]
  .. [[ timeout 5 sh -c "echo x > \"\$F\""' >/dev/null 2>&1 &]])
local t0 = rsxmesh.clock()
local bundle
bundle, e = rsxmesh.open(fifo)
t.is(e, fifo .. ": not a regular file", "a FIFO: rsxmesh.open refuses it")
r, e = rsxmesh.read_png(fifo)
t.is(e, fifo .. ": not a regular file", "a FIFO: read_png refuses it")
t.ok(rsxmesh.clock() - t0 < 4, "... both without waiting for a writer")
os.remove(fifo)

for _, f in ipairs{ "img.png", "text.png", "old.dds", "cut.png" } do
  os.remove(dir .. "/" .. f)
end
os.remove(dir)
t.done_testing()
