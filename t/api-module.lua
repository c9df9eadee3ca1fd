-- api-module.lua - the module's functions, encoders and formats, against
-- values worked out by hand from the research note and IEEE 754.
local t = require "tap"
local rsxmesh = require "rsxmesh"
local f32 = require("api-fixture").f32

local function be32(...)
  return string.pack(">" .. ("I4"):rep(select("#", ...)), ...)
end
local function be16(...)
  return string.pack(">" .. ("I2"):rep(select("#", ...)), ...)
end

-- The module -------------------------------------------------------------
t.is(rsxmesh._VERSION, "rsxmesh 0.1.0", "_VERSION")
t.is(rsxmesh.BASE_COLOUR, 0x95591C40, "BASE_COLOUR")
t.is_deeply(rsxmesh.kinds, { "position", "colour", "normal", "tangent_a",
  "tangent_b", "uv0", "uv1", "uv2", "uv3", "extra_a", "extra_b", "s32k2",
  "half4" }, "kinds in mask-bit order")
-- (the host, which preloads it, sets the global as lua -l rsxmesh would)
t.is(rawget(_G, "rsxmesh"), package.preload.rsxmesh and rsxmesh or nil,
  "the module sets no global")
t.is(require "rsxmesh", rsxmesh, "require gives the same table")

-- Binary16 ----------------------------------------------------------------
t.is(rsxmesh.half(0x0001), 2^-24, "half 0x0001: smallest subnormal 2^-24")
t.is(rsxmesh.half(0x03FF), 1023 * 2^-24, "half 0x03ff: largest subnormal")
t.is(rsxmesh.half(0x0400), 2^-14, "half 0x0400: smallest normal 2^-14")
t.is(rsxmesh.half(0x3C00), 1.0, "half 0x3c00: 1")
t.is(rsxmesh.half(0xC000), -2.0, "half 0xc000: -2")
t.is(rsxmesh.half(0x7BFF), 65504.0, "half 0x7bff: 65504")
t.is(rsxmesh.half(0x3555), 1365 / 4096, "half 0x3555: 1365/4096")
t.is(1 / rsxmesh.half(0x8000), -math.huge, "half 0x8000: -0")
t.is(1 / rsxmesh.half(0x0000), math.huge, "half 0x0000: +0")
t.is(rsxmesh.half(0x7C00), math.huge, "half 0x7c00: infinity")
t.is(rsxmesh.half(0xFC00), -math.huge, "half 0xfc00: -infinity")
local nan = rsxmesh.half(0x7E00)
t.ok(nan ~= nan, "half 0x7e00: NaN")

t.is(rsxmesh.to_half(1.0), 0x3C00, "to_half 1")
t.is(rsxmesh.to_half(-2.0), 0xC000, "to_half -2")
t.is(rsxmesh.to_half(65504), 0x7BFF, "to_half 65504")
t.is(rsxmesh.to_half(65520), 0x7C00,
     "to_half 65520: the tie above 65504 goes to even, infinity")
t.is(rsxmesh.to_half(1e6), 0x7C00, "to_half overflow: infinity")
t.is(rsxmesh.to_half(-1e6), 0xFC00, "to_half overflow: -infinity")
t.is(rsxmesh.to_half(1 + 2^-11), 0x3C00, "to_half tie to even (down)")
t.is(rsxmesh.to_half(1 + 3 * 2^-11), 0x3C02, "to_half tie to even (up)")
t.is(rsxmesh.to_half(2^-25), 0x0000, "to_half 2^-25: tie to even zero")
t.is(rsxmesh.to_half(3 * 2^-26), 0x0001, "to_half 1.5 x 2^-25: 0x0001")
t.is(rsxmesh.to_half(1023 * 2^-24), 0x03FF, "to_half largest subnormal")
t.is(rsxmesh.to_half(-0.0), 0x8000, "to_half -0 keeps the sign")
local hn = rsxmesh.to_half(0 / 0)
t.ok(hn & 0x7C00 == 0x7C00 and hn & 0x03FF ~= 0, "to_half NaN is a NaN")
t.is(rsxmesh.to_half(math.huge), 0x7C00, "to_half infinity")

-- CMP ---------------------------------------------------------------------
do
  local x, y, z = rsxmesh.cmp(0x001FF800)
  t.is_deeply({ x, y, z }, { 0, f32(32736 / 32767), 0 },
              "cmp 0x001FF800: the note's (0, 32736/32767, 0)")
  x, y, z = rsxmesh.cmp(0x00000400)
  t.is_deeply({ x, y, z }, { f32(-32768 / 32767), 0, 0 },
              "cmp x = -1024: -1024 x 32/32767")
  x, y, z = rsxmesh.cmp(0x7FC00000)
  t.is_deeply({ x, y, z }, { 0, 0, f32(32704 / 32767) },
              "cmp z = 511: 511 x 64/32767")
  x, y, z = rsxmesh.cmp(0x803FF801)
  t.is_deeply({ x, y, z },
              { f32(32 / 32767), f32(-32 / 32767), f32(-32768 / 32767) },
              "cmp x = 1, y = -1, z = -512")
end
t.is(rsxmesh.to_cmp(0, 32736 / 32767, 0), 0x001FF800, "to_cmp of the note")
t.is(rsxmesh.to_cmp(-1, 0, 0), 0x00000400, "to_cmp x = -1: -1024")
t.is(rsxmesh.to_cmp(0, 0, 1), 0x7FC00000, "to_cmp z = 1: clamped to 511")
t.is(rsxmesh.to_cmp(2, -2, 2), 0x7FE003FF, "to_cmp clamps every field")
t.is(rsxmesh.to_cmp(0, 0, 0), 0, "to_cmp zero vector")
-- nearest on the double, no float32 step (issue 9): x * 32767 / 32 is
-- 592.50001 (exactly 85388250369589732215 / 2^57), so 593; the float32
-- of x, 0.578630924..., would give 592.49998, so 592
t.is(rsxmesh.to_cmp(0.578630949386737, 0, 0) & 0x7FF, 593,
     "to_cmp 0.578630949386737: 592.50001 -> 593, not its float32's 592")
t.is(rsxmesh.to_cmp(0, 0.578630949386737, 0) >> 11 & 0x7FF, 593,
     "to_cmp: the same in y")
-- the doubles either side of 18960/32767 (592.5 * 32 / 32767): their
-- exact x * 32767 / 32 are 592.5 - 1.5e-14 and 592.5 + 9.9e-14
t.is(rsxmesh.to_cmp(0x1.28425084a1094p-1, 0, 0), 592,
     "to_cmp: 1.5e-14 below a half goes down (the product rounds onto it)")
t.is(rsxmesh.to_cmp(0x1.28425084a1095p-1, 0, 0), 593,
     "to_cmp: 9.9e-14 above a half goes up")

-- float32 and fmt -----------------------------------------------------------
t.is(rsxmesh.float32(0.1), f32(0.1), "float32 0.1")
t.isnt(rsxmesh.float32(0.1), 0.1, "float32 0.1 is not the double 0.1")
t.is(rsxmesh.float32(16777217), 16777216.0, "float32 2^24 + 1")
t.is(rsxmesh.float32(1e39), math.huge, "float32 overflow: infinity")
t.is(math.type(rsxmesh.float32(3)), "float", "float32 gives a float")

-- The core's rsx_format_float: plain for first-digit exponents -4 to 15,
-- a short exponent beyond; the digits are the fewest that read back.
local fmts = {
  { 0.1, "0.1" }, { -3, "-3" }, { 1e-8, "1e-8" }, { 0.5, "0.5" },
  { 1200, "1200" }, { 1, "1" }, { 100, "100" }, { 65504, "65504" },
  { -0.0, "-0" }, { 0, "0" }, { 1 / 3, "0.33333334" },
  { 16777217, "16777216" }, { 2^-149, "1e-45" }, { 2^-126, "1.1754944e-38" },
  { 3.4028234663852886e38, "3.4028235e38" }, { math.huge, "inf" },
  { -math.huge, "-inf" }, { 128 / 255, "0.5019608" }, { 0.2, "0.2" },
  { 1 - 2^-24, "0.99999994" }, { 2^-24, "5.9604645e-8" },
  { 0.0001, "0.0001" }, { 0.00001, "1e-5" }, { 1e15, "1000000000000000" },
  { 1e16, "1e16" }, { -2.5e-7, "-2.5e-7" }, { 123.456, "123.456" },
}
for _, c in ipairs(fmts) do
  t.is(rsxmesh.fmt(c[1]), c[2], string.format("fmt %.17g", c[1]))
end
t.is((rsxmesh.fmt(0 / 0):gsub("^-", "")), "nan", "fmt NaN")
-- what fmt writes reads back as the same float32, and one significant
-- digit fewer would not (checked with string.format, not with fmt)
for _, x in ipairs{ 0.1, 1 / 3, 2 / 3, 1e-8, 123.456, -7.25e-20, 1e30,
                    2^-10, 3 * 2^40, 6.02214076e23 } do
  local s = rsxmesh.fmt(x)
  local digits = #s:gsub("e.*", ""):gsub("[^0-9]", "")
                    :gsub("^0+", ""):gsub("0+$", "")
  local shorter = string.format("%." .. math.max(digits - 1, 1) .. "g", x)
  t.ok(f32(tonumber(s)) == f32(x) and
       (digits == 1 or f32(tonumber(shorter)) ~= f32(x)),
       "fmt " .. s .. " is the shortest that reads back")
end

-- isatty --------------------------------------------------------------------
t.is(type(rsxmesh.isatty(io.stderr)), "boolean", "isatty gives a boolean")
do
  local f = assert(io.tmpfile())
  t.is(rsxmesh.isatty(f), false, "isatty of a file: false")
  f:close()
  t.is(rsxmesh.isatty(f), false, "isatty of a closed file: false")
end
t.error_like(rsxmesh.isatty, "FILE%* expected", "isatty needs a file", "x")

-- create ----------------------------------------------------------------
do
  local name = os.tmpname()
  local f = assert(rsxmesh.create(name))
  t.is(io.type(f), "file", "create gives a Lua file")
  t.like(tostring(f), "^file %(", "create's file has io's __tostring")
  -- past the buffer (256 KiB) and back: what is written is what is read
  local lines = {}
  for i = 1, 40000 do lines[i] = string.format("line %d of 40000\n", i) end
  local whole = table.concat(lines)
  t.is(f:write("head\n", 7, "\n"), f, "create's file: write gives the file")
  t.is(f:write(whole), f, "create's file: a long write")
  t.is(f:seek("cur"), 7 + #whole, "create's file: seek counts the bytes")
  t.ok(f:close(), "create's file closes")
  t.is(io.type(f), "closed file", "create's file: closed")
  t.error_like(f.write, "closed file", "create's file: no write once closed",
    f, "x")
  local g = assert(io.open(name, "rb"))
  t.is(g:read("a"), "head\n7\n" .. whole, "create's file holds every byte")
  g:close()
  -- a handle dropped unclosed is closed, its buffer written, when collected
  f = assert(rsxmesh.create(name))
  f:write("dropped")
  f = nil -- luacheck: no unused
  collectgarbage()
  collectgarbage()
  g = assert(io.open(name, "rb"))
  t.is(g:read("a"), "dropped", "create: a collected handle is flushed")
  g:close()
  os.remove(name)
  local missing = name .. "/none/x"
  local r, msg, code = rsxmesh.create(missing)
  t.is(r, nil, "create in a missing folder: nil")
  t.is(msg, missing .. ": No such file or directory",
    "create's message names the path and the reason, as io.open's")
  t.is(math.type(code), "integer", "create gives the errno too")
end
t.error_like(rsxmesh.create, "rsxmesh.create: bad argument #1",
  "create needs a path", {})

-- indices ---------------------------------------------------------------
t.is(rsxmesh.indices(2, { 1, 2, 3 }), be16(0, 1, 2), "indices u16, base 1")
t.is(rsxmesh.indices(2, { 0, 2, 0xFFFF }, 0), be16(0, 2, 0xFFFF),
     "indices u16, base 0")
t.is(rsxmesh.indices(4, { 1, -1, 70000 }), be32(0, 0xFFFFFFFF, 69999),
     "indices u32, -1 is the strip restart")
t.is(rsxmesh.indices(2, { 5, -1 }, 5), be16(0, 0xFFFF),
     "indices -1 is all ones whatever the base")
t.is(rsxmesh.indices(4, {}), "", "indices of nothing")
t.is(rsxmesh.indices(2, { 3.0 }), be16(2), "indices: integral floats")
t.error_like(rsxmesh.indices, "rsxmesh%.indices: bad argument #1",
             "indices: size 3", 3, { 1 })
t.error_like(rsxmesh.indices, "t%[2%] = 0 gives index %-1, out of range",
             "indices: below the base", 2, { 1, 0 })
t.error_like(rsxmesh.indices, "t%[1%] = 65538 gives index 65537",
             "indices: above u16", 2, { 65538 })
t.error_like(rsxmesh.indices, "t%[1%] is not an integer",
             "indices: not an integer", 2, { 1.5 })
t.error_like(rsxmesh.indices, "table expected", "indices: no table", 2)

-- Formats: the note's table --------------------------------------------------
local layouts = {
  { 0x00080005, 0, {} },
  { 0x00080007, 4, { "colour" } },
  { 0x00080025, 4, { "uv0" } },
  { 0x00080027, 8, { "colour", "uv0" } },
  { 0x0008003d, 12, { "tangent_a", "tangent_b", "uv0" } },
  { 0x0008003f, 16, { "colour", "tangent_a", "tangent_b", "uv0" } },
  { 0x00080065, 8, { "uv0", "uv1" } },
  { 0x00080067, 12, { "colour", "uv0", "uv1" } },
  { 0x0008007d, 16, { "tangent_a", "tangent_b", "uv0", "uv1" } },
  { 0x000800e5, 12, { "uv0", "uv1", "uv2" } },
  { 0x000800fd, 20, { "tangent_a", "tangent_b", "uv0", "uv1", "uv2" } },
  { 0x000800ff, 24, { "colour", "tangent_a", "tangent_b", "uv0", "uv1",
                      "uv2" } },
  { 0x000801e5, 16, { "uv0", "uv1", "uv2", "uv3" } },
  { 0x000801fd, 24, { "tangent_a", "tangent_b", "uv0", "uv1", "uv2",
                      "uv3" } },
  { 0x000801ff, 28, { "colour", "tangent_a", "tangent_b", "uv0", "uv1",
                      "uv2", "uv3" } },
  { 0x000807fd, 40, { "tangent_a", "tangent_b", "uv0", "uv1", "uv2", "uv3",
                      "extra_a", "extra_b" } },
}
for _, l in ipairs(layouts) do
  local f = rsxmesh.format(l[1])
  t.ok(f.mmp_stride == 16 and f.mgp_stride == l[2] and f.packed,
       string.format("format 0x%08x: MMP 16, MGP %d", l[1], l[2]))
  t.is_deeply(f:order(), l[3], string.format("format 0x%08x: MGP order",
                                             l[1]))
end

do
  local f = rsxmesh.format(0x000807fd)
  t.is(f.mask, 0x000807fd, "format.mask")
  t.is(f.undefined_bits, 0, "format.undefined_bits: none")
  t.is(f:info("extra_a").offset, 24, "tree extra A at MGP +24")
  t.is(f:info("extra_b").offset, 32, "tree extra B at MGP +32")
  t.is(f:has("extra_b"), true, "format:has extra_b")
  t.is(f:has("colour"), false, "format:has colour: no")
  t.is_deeply(f:attributes(), { "position", "normal", "tangent_a",
    "tangent_b", "uv0", "uv1", "uv2", "uv3", "extra_a", "extra_b" },
    "format:attributes in bit order")
  t.is_deeply(f:info("normal"), { stream = "MMP", offset = 12, type = "CMP",
    count = 1, size = 4, components = 3, reg = 2 }, "format:info normal")
  t.is_deeply(f:info("position"), { stream = "MMP", offset = 0, type = "F",
    count = 3, size = 12, components = 3, reg = 0 }, "format:info position")
  t.is_deeply(f:info("uv2"), { stream = "MGP", offset = 16, type = "SF",
    count = 2, size = 4, components = 2, reg = 10 }, "format:info uv2")
  t.is_deeply(f:info("tangent_a"), { stream = "MGP", offset = 0,
    type = "CMP", count = 1, size = 4, components = 3, reg = 15 },
    "format:info tangent_a: register 15")
  t.is(f:info("colour"), nil, "format:info of an absent kind: nil")
  t.is(tostring(f), "rsxmesh.format 0x000807fd (MMP 16, MGP 40)",
       "tostring(format)")
  t.is(f.nonsense, nil, "an unknown field is nil")
end
do
  local f = rsxmesh.format(0x00081803)
  t.is_deeply(f:info("colour"), { stream = "MGP", offset = 0, type = "UB",
    count = 4, size = 4, components = 4, reg = 3 }, "format:info colour")
  t.is_deeply(f:info("s32k2"), { stream = "MGP", offset = 4, type = "S32K",
    count = 2, size = 4, components = 2 }, "format:info s32k2: no register")
  t.is_deeply(f:info("half4"), { stream = "MGP", offset = 8, type = "SF",
    count = 4, size = 8, components = 4 }, "format:info half4")
  t.is(f.mgp_stride, 16, "bits 11 and 12: MGP stride 4 + 4 + 8")
end
do -- the unpacked variant, as rsxb.md settles it
  local f = rsxmesh.format(0x00000005)
  t.ok(not f.packed and f.mmp_stride == 32, "unpacked: MMP 12 + 12 -> 32")
  t.is_deeply(f:info("normal"), { stream = "MMP", offset = 12, type = "F",
    count = 3, size = 12, components = 3, reg = 2 }, "unpacked normal: F 3")
  f = rsxmesh.format(0x00001FFF)
  t.is(f.mgp_stride, 4 + 12 + 12 + 4 * 8 + 16 + 16 + 4 + 16,
       "unpacked: colour 4, vectors 12, UVs 8, extras 16, bit 12 16")
  t.is(rsxmesh.format(0x00080001).mmp_stride, 16, "position alone: 16")
  t.is(rsxmesh.format(0x00180005).undefined_bits, 0x00100000,
       "undefined bits")
end
t.error_like(rsxmesh.format, "rsxmesh%.format: bad argument #1",
             "format: mask beyond 32 bits", 0x100000000)
t.error_like(function() rsxmesh.format(0x80005):has("uv9") end,
             "format:has: unknown kind 'uv9'", "format:has: unknown kind")

-- format:encode: bytes spelled out by hand -----------------------------------
do
  local f = rsxmesh.format(0x00080005)
  local mmp = f:encode("mmp", 3, {
    position = { 1, 2, 3, -1.5, 0.25, 0, 0, 0, 65536 },
    normal = { 0, 32736 / 32767, 0, -1, 0, 0, 0, 0, 1 },
  })
  t.is(mmp, be32(0x3F800000, 0x40000000, 0x40400000, 0x001FF800,
                 0xBFC00000, 0x3E800000, 0x00000000, 0x00000400,
                 0x00000000, 0x00000000, 0x47800000, 0x7FC00000),
       "encode mmp: floats and CMP words")
  t.is(f:encode("mgp", 3, {}), "", "encode mgp of a mask without MGP")
  t.is(f:encode("mmp", 0, { position = {}, normal = {} }), "",
       "encode no vertices")

  f = rsxmesh.format(0x00080027)
  t.is(f:encode("mgp", 2, {
    colour = { 0, 1, 128 / 255, 0.2, 1, 1, 1, 1 },
    uv0 = { 1, -2, 65504, 2^-24 },
    position = { "ignored: not in the MGP" },
  }), string.pack("BBBB", 0, 255, 128, 51) .. be16(0x3C00, 0xC000)
      .. string.pack("BBBB", 255, 255, 255, 255) .. be16(0x7BFF, 0x0001),
      "encode mgp: colour bytes and half floats")

  f = rsxmesh.format(0x00080001)
  t.is(f:encode("mmp", 1, { position = { 1, 1, 1 } }),
       be32(0x3F800000, 0x3F800000, 0x3F800000, 0),
       "encode: the stride's gap is zero bytes")
  f = rsxmesh.format(0x00080801)
  t.is(f:encode("mgp", 2, { s32k2 = { -32768, 32767, -1, 1 } }),
       be16(0x8000, 0x7FFF, 0xFFFF, 0x0001), "encode s32k2")

  f = rsxmesh.format(0x00080005)
  t.error_like(function() f:encode("mmp", 1, { position = { 1, 2, 3 } }) end,
               "columns.normal must be a table, got nil",
               "encode: a column the stream holds is missing")
  t.error_like(function()
    f:encode("mmp", 2, { position = { 1, 2, 3 }, normal = { 0, 0, 1 } })
  end, "columns.position has 3 values, expected 6",
       "encode: a column of the wrong length")
  t.error_like(function()
    f:encode("mmp", 1, { position = { 1, "x", 3 }, normal = { 0, 0, 1 } })
  end, "columns.position%[2%] is not a number", "encode: not a number")
  t.error_like(function() f:encode("xyz", 1, {}) end,
               "invalid option 'xyz'", "encode: bad stream name")
  t.error_like(function() f:encode("mmp", -1, {}) end,
               "format:encode: bad argument #2", "encode: negative count")
end

t.done_testing()
