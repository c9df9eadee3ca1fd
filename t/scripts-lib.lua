-- scripts-lib.lua - helpers for the tests of the standard scripts: bytes
-- of records and streams spelled out by hand, a scratch folder, and a way
-- to run `rsxmesh NAME args` and collect its output and exit status.

local lfs = require "lfs"

local lib = {}

-- The metadata record: 0x90 bytes, the mask at 0x8C.
function lib.meta(mask)
  return string.rep("\0", 0x8C) .. string.pack(">I4", mask)
end

-- The submesh record: 0x3C bytes, the four selector bytes at 0x38.
function lib.subrec(selectors)
  return string.rep("\0", 0x38) .. string.pack(">I4", selectors)
end

-- Big-endian float32s, u32s, u16s (half-float bits are written as u16).
function lib.f32(...)
  return string.pack(">" .. string.rep("f", select("#", ...)), ...)
end

function lib.u32(...)
  return string.pack(">" .. string.rep("I4", select("#", ...)), ...)
end

function lib.u16(...)
  return string.pack(">" .. string.rep("I2", select("#", ...)), ...)
end

function lib.read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

function lib.write(path, s)
  local f = assert(io.open(path, "wb"))
  assert(f:write(s))
  assert(f:close())
end

local quote = require("rsxmesh.text").quote
lib.quote = quote

-- On Windows (the win64 build's suite, under wine) the commands below go
-- to cmd, not sh: its quoting and NUL, rd for rm, and the host as Windows
-- names it, RSXMESH_EXE (set by win64/suite.sh: RSXMESH is the build
-- tree's POSIX path, which wine runs but cmd cannot).
local windows = package.config:sub(1, 1) == "\\"

-- A word as CommandLineToArgvW splits it back: in quotes, the backslashes
-- before a quote, or before the closing one, doubled (src/pool.c's rule).
local function win_quote(s)
  s = s:gsub('(\\*)"', '%1%1\\"'):gsub("(\\+)$", "%1%1")
  return '"' .. s .. '"'
end

-- cmd /c takes away the first and the last quote of a command that
-- starts with one: a pair around it all, for it to take.
local function win_command(s)
  return '"' .. s .. '"'
end

-- A fresh scratch folder, removed by lib.cleanup().
local scratch = {}
function lib.tmpdir()
  local path = os.tmpname()
  os.remove(path)
  assert(lfs.mkdir(path))
  scratch[#scratch + 1] = path
  return path
end

-- A fresh scratch folder whose in/ holds the bundles named, of "A", "B"
-- and "C" below (lib.bundle_a ...), as in/A.rsxb ...; returns the folder.
function lib.inputs(...)
  local dir = lib.tmpdir()
  assert(lfs.mkdir(dir .. "/in"))
  for _, name in ipairs{ ... } do
    lib["bundle_" .. name:lower()](dir .. "/in/" .. name .. ".rsxb")
  end
  return dir
end

function lib.cleanup()
  for _, path in ipairs(scratch) do
    if windows then
      os.execute(win_command("rd /s /q " .. win_quote(path)))
    else
      os.execute("rm -rf " .. quote(path))
    end
  end
end

local function run_windows(dir, ...)
  local host = assert(os.getenv("RSXMESH_EXE"), "RSXMESH_EXE is not set")
  local args = {}
  for i = 1, select("#", ...) do args[i] = win_quote((select(i, ...))) end
  local out, err = dir .. "\\.stdout", dir .. "\\.stderr"
  local _, _, status = os.execute(win_command(string.format(
    "cd /d %s && %s %s >%s 2>%s", win_quote(dir), win_quote(host),
    table.concat(args, " "), win_quote(out), win_quote(err))))
  local stdout, stderr = lib.read(out), lib.read(err)
  os.remove(out)
  os.remove(err)
  return status, stdout, stderr
end

local function run(dir, wrapper, ...)
  if windows then return run_windows(dir, ...) end -- no wrapper: in wine
  local host = assert(os.getenv("RSXMESH"), "RSXMESH is not set")
  local args = {}
  for i = 1, select("#", ...) do args[i] = quote((select(i, ...))) end
  local out, err = dir .. "/.stdout", dir .. "/.stderr"
  local cmd = string.format("cd %s && %s %s %s >%s 2>%s", quote(dir),
    wrapper, quote(host), table.concat(args, " "), quote(out), quote(err))
  local _, _, status = os.execute(cmd)
  local stdout, stderr = lib.read(out), lib.read(err)
  os.remove(out)
  os.remove(err)
  return status, stdout, stderr
end

-- The host's name in the usage lines of the scripts lib.rsxmesh runs
-- (rsxmesh.program): RSXMESH as run, or on Windows the file's name
-- without ".exe" (src/win32.c: rsx_win_progname); and as a pattern.
local function progname()
  if not windows then return os.getenv("RSXMESH") or "" end
  local exe = (os.getenv("RSXMESH_EXE") or ""):match("([^\\/]*)$")
  return (exe:gsub("%.[eE][xX][eE]$", ""))
end
lib.progname = progname()
lib.progname_pattern = lib.progname:gsub("%W", "%%%0")

-- Run `rsxmesh ARGS...` in folder dir (under TEST_WRAPPER, so valgrind
-- checks the scripts too). Returns the exit status, stdout and stderr.
function lib.rsxmesh(dir, ...)
  return run(dir, os.getenv("TEST_WRAPPER") or "", ...)
end

-- The same without TEST_WRAPPER, for what is not under test (synth).
function lib.rsxmesh_plain(dir, ...)
  return run(dir, "", ...)
end

-- Run `rsxmesh ARGS...` in folder dir through a wrapper of the host that
-- logs its arguments (-j's workers run the host the first process was run
-- as, its arg[-1]): the number of processes the run started, and how many
-- of them were workers. nil when there is no bash for the wrapper.
function lib.processes(dir, ...)
  local bash = io.popen("command -v bash"):read("l")
  if not bash then return nil end
  local log, host = dir .. "/.host.log", dir .. "/.host"
  lib.write(host, "#!" .. bash .. "\necho \"$*\" >> " .. quote(log)
    .. "\nexec -a \"$0\" " .. quote(os.getenv("RSXMESH")) .. " \"$@\"\n")
  assert(os.execute("chmod +x " .. quote(host)))
  os.remove(log)
  local args = {}
  for i, a in ipairs({ ... }) do args[i] = quote(a) end
  os.execute("cd " .. quote(dir) .. " && " .. quote(host) .. " "
    .. table.concat(args, " ") .. " >/dev/null 2>&1")
  local n, k = 0, 0
  for _, line in ipairs(lib.lines(lib.read(log))) do
    n = n + 1
    if line:find(" %-%-worker ") then k = k + 1 end
  end
  os.remove(log)
  os.remove(host)
  return n, k
end

-- 2387 -> "2,387", worked out here rather than taken from the scripts.
function lib.count(n)
  local s = tostring(n):reverse():gsub("(%d%d%d)", "%1,"):reverse()
  return (s:gsub("^,", ""))
end

-- assimp info --raw (no post-processing, so no vertex joining) counts a
-- mesh per OBJ group, three vertices per face, and the materials of the
-- MTL plus its own default one. Returns those counts, faces and vertices
-- per group name, and the bounds as assimp prints them (%f).
function lib.assimp_info(path)
  local p = io.popen("assimp info " .. quote(path) .. " --raw -v 2>&1")
  local text = p:read("a")
  p:close()
  local r = { groups = {} }
  for key in ("Meshes Materials Vertices Faces"):gmatch("%a+") do
    r[key:lower()] = tonumber(text:match("\n" .. key .. ":%s+(%d+)"))
  end
  for name, v, f in text:gmatch("\n%s+%d+ %(([^)]*)%): %[(%d+) / %d+ / "
      .. "(%d+) |") do
    r.groups[name] = { tonumber(v), tonumber(f) }
  end
  local num = "([%-%d.]+)"
  r.min = { text:match("Minimum point%s+%(" .. num .. " " .. num .. " "
    .. num .. "%)") }
  r.max = { text:match("Maximum point%s+%(" .. num .. " " .. num .. " "
    .. num .. "%)") }
  return r, text
end

-- Lines of a string, as a table.
function lib.lines(s)
  local t = {}
  for line in (s or ""):gmatch("([^\n]*)\n") do t[#t + 1] = line end
  return t
end

-- Whether a program is on PATH.
function lib.have(program)
  local _, _, status = os.execute("command -v " .. quote(program)
    .. " >/dev/null 2>&1")
  return status == 0
end

-- Whether the host knows a standard script (rsxmesh --list).
function lib.has_script(name)
  local host = os.getenv("RSXMESH")
  local p = windows and io.popen(win_command(
      win_quote(os.getenv("RSXMESH_EXE")) .. " --list 2>NUL"))
    or io.popen(quote(host) .. " --list 2>/dev/null")
  local list = p:read("a")
  p:close()
  return list:find("%f[%w%-]" .. name:gsub("%-", "%%-") .. "%f[^%w%-]")
    ~= nil
end

-- The layout table of the research note (vertex-formats.txt, "The layouts
-- on the disc"), copied row for row: mask, meshes, MGP stride, MGP order.
lib.NOTE_LAYOUTS = {
  { "00080005", "2,387", 0, "none" },
  { "00080007", "2", 4, "C" },
  { "00080025", "1,506", 4, "U0" },
  { "00080027", "37", 8, "C, U0" },
  { "0008003d", "3,127", 12, "A, B, U0" },
  { "0008003f", "35", 16, "C, A, B, U0" },
  { "00080065", "1,172", 8, "U0, U1" },
  { "00080067", "1", 12, "C, U0, U1" },
  { "0008007d", "2,708", 16, "A, B, U0, U1" },
  { "000800e5", "191", 12, "U0, U1, U2" },
  { "000800fd", "3,324", 20, "A, B, U0, U1, U2" },
  { "000800ff", "10", 24, "C, A, B, U0, U1, U2" },
  { "000801e5", "3", 16, "U0, U1, U2, U3" },
  { "000801fd", "2,134", 24, "A, B, U0, U1, U2, U3" },
  { "000801ff", "1,239", 28, "C, A, B, U0, U1, U2, U3" },
  { "000807fd", "21", 40, "A, B, U0, U1, U2, U3, X (24), Y (32)" },
}

-- The rows of the survey's layout table: { mask, meshes, stride, order }.
function lib.survey_layouts(markdown)
  local rows = {}
  local section = markdown:match("\n## Layouts\n(.-)\n## ") or ""
  for mask, meshes, stride, order in section:gmatch(
      "\n| (%x+) | ([%d,]+) | (%d+) | ([^|\n]-) |") do
    rows[#rows + 1] = { mask, meshes, tonumber(stride), order }
  end
  return rows
end

-- ------------------------------------------------- hand-built bundles

local function save(w, path)
  local ok, err = w:save(path)
  assert(ok, err)
  return path
end

local function mesh(t)
  local rsxmesh = require "rsxmesh"
  return assert(rsxmesh.mesh(t))
end

-- Bundle A: the cases of the OBJ export.
--   materials: 1 brick (base colour tex/brick.png), 2 road (a normal map
--   slot, then base colour tex/road.png), 3 glass (no base colour)
--   mesh 1 "quad", mask 000800e5 (U0, U1, U2), a u16 triangle list:
--     submesh 1 (selectors ffffffff, brick): (1,2,3) (2,4,3), then a
--       degenerate (1,1,2)
--     submesh 2 (selectors 02ffffff: UV0 from stored set 2, road): (3,2,4)
--   mesh 2 "strip", mask 00080005 (no UV at all), a u32 strip with
--     restarts, one submesh without material: 1 2 3 4 R 5 6 7 8 R 9 9 1
function lib.bundle_a(path)
  local rsxmesh = require "rsxmesh"
  local w = rsxmesh.writer()
  w:material("brick", { { slot = rsxmesh.BASE_COLOUR,
    texture = "tex/brick.png" } })
  w:material("road", { { slot = 0x12345678, texture = "tex/road_n.png" },
    { slot = rsxmesh.BASE_COLOUR, texture = "tex/road.png" } })
  w:material("glass", {})
  local up = 0x001FF800 -- the note's example: (0, 32736/32767, 0)
  assert(w:mesh(mesh{
    name = "quad", meta = lib.meta(0x000800E5), vertex_count = 4,
    mmp_stride = 16, mmp = lib.f32(0, 0, 0) .. lib.u32(up)
      .. lib.f32(1, 0, 0) .. lib.u32(up)
      .. lib.f32(0, 1, 0) .. lib.u32(up)
      .. lib.f32(0.1, 1, -2.5) .. lib.u32(0),
    -- U0 u v, U1 u v, U2 u v as half bits:
    -- U0 (0, .25) (.5, .25) (0, 1) (.5, 1); U1 (3, 3) everywhere;
    -- U2 (2, 1.5) (-1, .125) (0x2E66 = 0.0999755859375, 0) (1024, 2)
    mgp_stride = 12, mgp = lib.u16(0x0000, 0x3400, 0x4200, 0x4200,
        0x4000, 0x3E00)
      .. lib.u16(0x3800, 0x3400, 0x4200, 0x4200, 0xBC00, 0x3000)
      .. lib.u16(0x0000, 0x3C00, 0x4200, 0x4200, 0x2E66, 0x0000)
      .. lib.u16(0x3800, 0x3C00, 0x4200, 0x4200, 0x6400, 0x4000),
    indices = rsxmesh.indices(2, { 1, 2, 3, 2, 4, 3, 1, 1, 2, 3, 2, 4 }),
    index_size = 2, primitive = "triangles",
    submeshes = {
      { record = lib.subrec(0xFFFFFFFF), first_index = 0, index_count = 9,
        material = 1 },
      { record = lib.subrec(0x02FFFFFF), first_index = 9, index_count = 3,
        material = 2 },
    },
  }))
  local mmp = {}
  for k = 1, 9 do mmp[k] = lib.f32(k, 0, -k) .. lib.u32(up) end
  assert(w:mesh(mesh{
    name = "strip", meta = lib.meta(0x00080005), vertex_count = 9,
    mmp_stride = 16, mmp = table.concat(mmp),
    indices = rsxmesh.indices(4, { 1, 2, 3, 4, -1, 5, 6, 7, 8, -1, 9, 9,
      1 }),
    index_size = 4, primitive = "strip",
    submeshes = {
      { record = lib.subrec(0xFFFFFFFF), first_index = 0, index_count = 13 },
    },
  }))
  return save(w, path)
end

-- Bundle B: vertex colours. Mesh "painted", mask 00080027 (C, U0), three
-- vertices with colour bytes (0, 255, 51, 102), (255, 0, 0, 255),
-- (102, 51, 255, 0), one triangle, material "paint" without textures.
function lib.bundle_b(path)
  local rsxmesh = require "rsxmesh"
  local w = rsxmesh.writer()
  w:material("paint", {})
  assert(w:mesh(mesh{
    name = "painted", meta = lib.meta(0x00080027), vertex_count = 3,
    mmp_stride = 16, mmp = lib.f32(0, 0, 0) .. lib.u32(0)
      .. lib.f32(1, 0, 0) .. lib.u32(0)
      .. lib.f32(0, 0, 1) .. lib.u32(0),
    mgp_stride = 8,
    mgp = string.char(0, 255, 51, 102) .. lib.u16(0x3800, 0x3800)
      .. string.char(255, 0, 0, 255) .. lib.u16(0x3800, 0x3800)
      .. string.char(102, 51, 255, 0) .. lib.u16(0x3800, 0x3800),
    indices = rsxmesh.indices(2, { 1, 2, 3 }), index_size = 2,
    primitive = "triangles",
    submeshes = { { record = lib.subrec(0xFFFFFFFF), first_index = 0,
      index_count = 3, material = 1 } },
  }))
  return save(w, path)
end

-- Bundle C: the survey's and info's cases.
--   materials: 1 crate_mat (base colour tex/crate.png), 2 leaf (none)
--   mesh 1 "crate", mask 0008003d (A, B, U0), three vertices:
--     normals 0x001FF800, zero, 0x000003FF (x = 1023 * 32/32767)
--     A 0x001FF800, 0x0012C000 (y = 600 * 32/32767), zero
--     B 0x000003FF, 0x000003FF, zero
--     U0 (-807, 0.5) (512, -1) (0.25, 2); selectors ffffffff, crate_mat
--   mesh 2 "odd", mask 0008007d (implies MGP stride 16) stored with MGP
--     stride 20: a stride-mismatch finding; one vertex of zeros;
--     selectors 00000201, no material
--   mesh 3 "tree", mask 000807fd: one vertex at (1, 2, 3), normal and A
--     0x001FF800, B 0x000003FF, U0..U3 (0,0) (1,1) (2,2) (3,3),
--     X (-0.5, 0.25, 0.75, -3.140625), Y (1, 2, 3, 0); selectors
--     00000201, leaf
--   mesh 4 "bad_sel", mask 00080025 (U0), one vertex, normal 0x000003FF,
--     U0 (0.125, 0.125), selectors 03ff07ff: byte 0 names set 3, which
--     the mask lacks, and byte 2 is 7; no material
function lib.bundle_c(path)
  local rsxmesh = require "rsxmesh"
  local w = rsxmesh.writer()
  w:material("crate_mat", { { slot = rsxmesh.BASE_COLOUR,
    texture = "tex/crate.png" } })
  w:material("leaf", {})
  local up, side = 0x001FF800, 0x000003FF
  local one = rsxmesh.indices(2, { 1, 1, 1 })
  assert(w:mesh(mesh{
    name = "crate", meta = lib.meta(0x0008003D), vertex_count = 3,
    mmp_stride = 16, mmp = lib.f32(0, 0, 0) .. lib.u32(up)
      .. lib.f32(1, 0, 0) .. lib.u32(0)
      .. lib.f32(0, 1, 0) .. lib.u32(side),
    mgp_stride = 12,
    mgp = lib.u32(up, side) .. lib.u16(0xE24E, 0x3800)
      .. lib.u32(600 << 11, side) .. lib.u16(0x6000, 0xBC00)
      .. lib.u32(0, 0) .. lib.u16(0x3400, 0x4000),
    indices = rsxmesh.indices(2, { 1, 2, 3 }), index_size = 2,
    primitive = "triangles",
    submeshes = { { record = lib.subrec(0xFFFFFFFF), first_index = 0,
      index_count = 3, material = 1 } },
  }))
  assert(w:mesh(mesh{
    name = "odd", meta = lib.meta(0x0008007D), vertex_count = 1,
    mmp_stride = 16, mmp = string.rep("\0", 16),
    mgp_stride = 20, mgp = string.rep("\0", 20),
    indices = one, index_size = 2, primitive = "triangles",
    submeshes = { { record = lib.subrec(0x00000201), first_index = 0,
      index_count = 3 } },
  }))
  assert(w:mesh(mesh{
    name = "tree", meta = lib.meta(0x000807FD), vertex_count = 1,
    mmp_stride = 16, mmp = lib.f32(1, 2, 3) .. lib.u32(up),
    mgp_stride = 40,
    mgp = lib.u32(up, side)
      .. lib.u16(0x0000, 0x0000, 0x3C00, 0x3C00, 0x4000, 0x4000,
        0x4200, 0x4200)
      .. lib.u16(0xB800, 0x3400, 0x3A00, 0xC248)
      .. lib.u16(0x3C00, 0x4000, 0x4200, 0x0000),
    indices = one, index_size = 2, primitive = "triangles",
    submeshes = { { record = lib.subrec(0x00000201), first_index = 0,
      index_count = 3, material = 2 } },
  }))
  assert(w:mesh(mesh{
    name = "bad_sel", meta = lib.meta(0x00080025), vertex_count = 1,
    mmp_stride = 16, mmp = lib.f32(0, 0, 0) .. lib.u32(side),
    mgp_stride = 4, mgp = lib.u16(0x3000, 0x3000),
    indices = one, index_size = 2, primitive = "triangles",
    submeshes = { { record = lib.subrec(0x03FF07FF), first_index = 0,
      index_count = 3 } },
  }))
  return save(w, path)
end

return lib
