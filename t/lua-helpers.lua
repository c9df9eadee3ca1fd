-- t/lua-helpers.lua - the small Lua helpers: rsxmesh.path, rsxmesh.text,
-- rsxmesh.json, rsxmesh.output, with values worked out by hand.

local t = require "tap"
local path = require "rsxmesh.path"
local text = require "rsxmesh.text"
local json = require "rsxmesh.json"
local cli = require "rsxmesh.cli"
local output = require "rsxmesh.output"
local interrupt = require "rsxmesh.interrupt"
local jobs = require "rsxmesh.jobs"
local lfs = require "lfs"

-- path: pure string arithmetic
t.is(path.join("out", "a.obj"), "out/a.obj", "join")
t.is(path.join("out//", "a.obj"), "out/a.obj", "join: trailing slashes")
t.is(path.join(".", "a.obj"), "a.obj", "join: '.' adds nothing")
t.is(path.join("", "a.obj"), "a.obj", "join: '' adds nothing")
t.is(path.dirname("disc/levels/A.rsxb"), "disc/levels", "dirname")
t.is(path.dirname("A.rsxb"), ".", "dirname: none is '.'")
t.is(path.basename("disc/levels/A.rsxb"), "A.rsxb", "basename")
t.is(path.basename("A.rsxb"), "A.rsxb", "basename: no folder")
-- as POSIX dirname and basename: a file at the root is in "/" (it was in
-- "", so that no new folder at the root could be made: "-o /out" failed
-- with ': No such file or directory'), a trailing slash names no part
t.is_deeply({ path.dirname("/out"), path.dirname("/"), path.dirname("//x"),
  path.dirname("a/b/"), path.dirname("a/"), path.dirname("") },
  { "/", "/", "/", "a", ".", "." }, "dirname: the root, trailing slashes")
t.is_deeply({ path.basename("a/b/"), path.basename("/"),
  path.basename("/x") }, { "b", "/", "x" }, "basename: the same")
t.is(path.join(path.dirname("/A.rsxb"), "tex/a.png"), "/tex/a.png",
  "a texture of a bundle at the root is at the root, not in '.'")
t.is(path.absolute("/a/./b/../c"), "/a/c", "absolute: . and .. resolved")
t.is(path.absolute("x"), lfs.currentdir() .. "/x",
  "absolute: relative to the current folder")
t.is(path.relative("/d/tex/a.png", "/d/out"), "../tex/a.png",
  "relative: up one, down one")
t.is(path.relative("/d/out/a.png", "/d/out"), "a.png", "relative: inside")
t.is(path.relative("/d/a.png", "/d/out/x"), "../../a.png",
  "relative: up two")

-- text
t.is(text.count(2387), "2,387", "count")
do
  local nasty = "it's a \"dir\" with $HOME, `x`, \\ and '' in it"
  local p = io.popen("printf '%s' " .. text.quote(nasty))
  t.is(p:read("a"), nasty, "quote: one word for sh, whatever is in it")
  p:close()
  t.is(text.quote("a'b"), "'a'\\''b'", "quote: ' as '\\''")
end
t.is(text.count(-1234567), "-1,234,567", "count: negative")
t.is(text.count(999), "999", "count: no separator")
t.is(text.plural(1, "mesh", "meshes"), "1 mesh", "plural: one")
t.is(text.plural(1200, "vertex", "vertices"), "1,200 vertices",
  "plural: many")
t.is(text.plural(0, "file"), "0 files", "plural: default -s")
t.is(text.hex8(0x80005), "00080005", "hex8")

-- json: the layout and order written out by hand
local before = json.key_order{ "name", "asset" }
t.is(json.encode({ z = 1, asset = { 1, 2.5 }, name = "n", a = json.EMPTY,
  e = {} }, before),
  '{\n  "name": "n",\n  "asset": [1, 2.5],\n  "a": [],\n  "e": {},\n'
  .. '  "z": 1\n}', "encode: ranked keys, then sorted")
t.is(json.encode({ { b = true }, "s" }), '[\n  {\n    "b": true\n  },\n'
  .. '  "s"\n]', "encode: an array of values, indented")
t.is(json.encode('a"b\\c\n'), '"a\\"b\\\\c\\u000a"', "encode: escapes")
t.is(json.encode("caf\xe9"), '"caf\xc3\xa9"',
  "encode: a string that is not UTF-8 read as Latin-1")
t.is(json.encode(0.1), "0.1", "encode: shortest float32 text")
t.is(json.encode({ 0.1, 1 / 3, 2 ^ -1074, -0.5 }, nil, { doubles = true }),
  "[0.1, 0.3333333333333333, 4.94065645841247e-324, -0.5]",
  "encode, doubles: 15 digits when they read back as the double, else 16 "
  .. "(1/3), else 17")
t.is(json.encode({ a = json.NULL, b = { 1, json.NULL } }),
  '{\n  "a": null,\n  "b": [\n    1,\n    null\n  ]\n}',
  "encode: json.NULL is null")
t.is(json.encode(1 / 3), "0.33333334", "encode: doubles only when asked")
t.error_like(function() json.encode(0 / 0) end, "must be finite",
  "encode: NaN refused")
local NF = { non_finite = "string" }
t.is(json.encode({ a = { 0.5, 1 / 0 }, b = { 0.5, 2 }, c = -1 / 0 }, nil,
  NF), '{\n  "a": [\n    0.5,\n    "inf"\n  ],\n  "b": [0.5, 2],\n'
  .. '  "c": "-inf"\n}', "encode, non_finite: infinities as strings, their"
  .. " array one item a line")
t.is(json.encode({ 0 / 0, -(0 / 0), 2 ^ 53 }, nil,
  { doubles = true, non_finite = "string" }),
  '[\n  "nan",\n  "nan",\n  9007199254740992\n]',
  "encode, non_finite and doubles: NaN of either sign is \"nan\"")
t.error_like(function() json.encode(1 / 0, nil, { non_finite = "nan" }) end,
  'rsxmesh%.json_text: opts%.non_finite must be "string" or nil, got "nan"$',
  "encode: an unknown non_finite refused, naming it")
t.error_like(function() json.encode(1, nil, { non_finite = true }) end,
  'rsxmesh%.json_text: opts%.non_finite must be "string" or nil, got'
  .. ' boolean$', "encode: a non_finite that is not a string refused")
t.error_like(function() json.encode({ [true] = 1 }) end,
  "key must be a string", "encode: a key that is not a string refused")
-- the writer is C (rsxmesh.json_text): hostile strings and values
t.is(json.encode("\xc0\x80"), '"\xc3\x80\xc2\x80"',
  "encode: an overlong form is not UTF-8: Latin-1")
t.is(json.encode("\xed\xa0\x80"), '"\xc3\xad\xc2\xa0\xc2\x80"',
  "encode: a surrogate is not UTF-8: Latin-1")
t.is(json.encode("\xe2\x82"), '"\xc3\xa2\xc2\x82"',
  "encode: a form cut short is not UTF-8: Latin-1")
t.is(json.encode("\xe2\x82\xac\x7f\0"), '"\xe2\x82\xac\\u007f\\u0000"',
  "encode: UTF-8 kept; DEL and NUL escaped")
local cycle = {}
cycle.self = cycle
t.error_like(function() json.encode(cycle) end, "nested deeper",
  "encode: a cycle refused")
t.error_like(function() json.encode({ f = print }) end,
  "cannot write a function", "encode: a function refused")
t.is(json.encode({ b = 1, a = 2, c = 3 }, function(x, y) return x > y end),
  '{\n  "c": 3,\n  "b": 1,\n  "a": 2\n}', "encode: any comparator")
t.ok(before("name", "asset") and not before("z", "a") and before("a", "z"),
  "key_order: a comparator too")
t.is(json.encode({ json.EMPTY, {}, { {} } }), '[\n  [],\n  {},\n  [\n'
  .. '    {}\n  ]\n]', "encode: empties nested")

-- cli.mesh_file_name: the one rule of per-mesh output names
local used = {}
t.is(cli.mesh_file_name("wall", 1, used), "wall", "mesh file name: as is")
t.is(cli.mesh_file_name("wall", 4, used), "wall-4",
  "... a name taken in the bundle gets -NUMBER")
t.is(cli.mesh_file_name("a/b c", 5, used), "a_b_c",
  "... no folder separators, no blanks")
t.is(cli.mesh_file_name(".hid", 6, used), "_.hid", "... nothing hidden")
t.is(cli.mesh_file_name("", 7, used), "_", "... no name: _")
t.is(cli.mesh_file_name("", 8, used), "_-8", "... twice: _-8")
used["wall-9"] = true
t.is(cli.mesh_file_name("wall", 9, used), "wall-9-9",
  "... -NUMBER again while still taken")

-- output: where texture copies go, relative to an output's folder
t.is(output.texture_path("tex/brick.png"), "tex/brick.png",
  "texture_path: a relative path is kept")
t.is(output.texture_path("./tex//a.png"), "tex/a.png",
  "texture_path: '.' and empty parts dropped")
t.is(output.texture_path("../shared/a.png"), "textures/a.png",
  "texture_path: a path that climbs out goes to textures/NAME")
t.is(output.texture_path("/abs/b.png"), "textures/b.png",
  "texture_path: an absolute path too")
t.is(output.texture_path("tex\\c.png"), "tex/c.png",
  "texture_path: backslashes as folder separators")

-- output.write: whole, or nothing and no temporary
local scratch = os.tmpname()
os.remove(scratch)
assert(lfs.mkdir(scratch))
local function names()
  local list = {}
  for n in lfs.dir(scratch) do
    if n ~= "." and n ~= ".." then list[#list + 1] = n end
  end
  table.sort(list)
  return list
end
local file = scratch .. "/a.txt"
t.is(output.write(file, function(f) return f:write("one") end), true,
  "write: true")
t.is_deeply({ io.open(file):read("a"), names() }, { "one", { "a.txt" } },
  "write: the file, and nothing else")
t.is_deeply({ output.write(file, function() return nil, "no room" end) },
  { nil, file .. ": no room" }, "write: fn's failure, naming the file")
t.is_deeply({ io.open(file):read("a"), names() }, { "one", { "a.txt" } },
  "write: a failure leaves the old file as it was, and no temporary")
t.error_like(function()
  output.write(file, function(f) f:write("two"); error("interrupted!") end)
end, "interrupted!$", "write: an error raised by fn is raised again")
t.is_deeply({ io.open(file):read("a"), names() }, { "one", { "a.txt" } },
  "write: ... once the temporary is gone")
t.is_deeply({ output.write(scratch .. "/no/b.txt", function() end) },
  { nil, scratch .. "/no/b.txt: No such file or directory" },
  "write: a folder that is not there, named by the file")
t.is(output.copy(file, scratch .. "/c.txt"), true, "copy: true")
t.is(io.open(scratch .. "/c.txt"):read("a"), "one", "copy: the bytes")
t.is_deeply({ output.copy(scratch .. "/none", scratch .. "/d.txt") },
  { nil, scratch .. "/none: No such file or directory" },
  "copy: a source that is not there, named")
-- only a regular file is copied: a texture path naming /dev/zero filled
-- the disk. A FIFO stands in for the device here (a writer comes after
-- 5 s should the open block: then the copy succeeds and the test fails,
-- with no endless copy)
local fifo = scratch .. "/pipe.png"
assert(os.execute("mkfifo '" .. fifo .. "'"))
os.execute("F='" .. fifo .. [[' sh -c 'sleep 5; [ -p "$F" ] &&]]
  .. [[ timeout 5 sh -c "echo x > \"\$F\""' >/dev/null 2>&1 &]])
t.is_deeply({ output.copy(fifo, scratch .. "/z.png") },
  { nil, fifo .. ": not a regular file" },
  "copy: not a regular file, refused unread")
os.remove(fifo)
t.is_deeply({ output.copy(scratch, scratch .. "/e.txt") },
  { nil, scratch .. ": Is a directory" }, "copy: a folder refused")
t.is_deeply(names(), { "a.txt", "c.txt" }, "copy: nothing else written")
t.ok(output.temporary("x") ~= output.temporary("x"),
  "temporary: a name of its own each time")

-- rsxmesh.interrupt: a protected call keeps every error but Control-C's
t.ok(not interrupt.is({}), "interrupt.is: not a string, no")
t.is_deeply(table.pack(interrupt.pcall(function(a, b) return a + b, nil, 7
  end, 2, 3)), { true, 5, nil, 7, n = 4 },
  "interrupt.pcall: every result, nil included, as pcall gives them")
t.is_deeply({ interrupt.pcall(error, "bad", 0) }, { false, "bad" },
  "interrupt.pcall: another error returned, as pcall does")
t.is_deeply({ pcall(interrupt.pcall, error, "x.lua:1: interrupted!", 0) },
  { false, "x.lua:1: interrupted!" },
  "interrupt.pcall: an interrupt raised again, not returned")
t.is_deeply({ interrupt.protect(error, "x.lua:1: interrupted!", 0) },
  { false, "x.lua:1: interrupted!" },
  "interrupt.protect: an interrupt caught, to clean up after")
t.is_deeply({ interrupt.protect(function() end) }, { true },
  "interrupt.protect: true when nothing was raised")

-- The host's interrupt, raised as it does (a hook at the next Lua event),
-- as the chunk of a worker's state begins: jobs.load raises it, where a
-- plain pcall returned nil and "interrupted!" and the first process took
-- it for a failed worker and went on (a CI run: SIGINT ignored, exit 1)
local state = jobs.dump({ ok = 1, failed = 0, state = { 1.5, "a" } })
t.is_deeply(jobs.load(state, "=w.state"), { ok = 1, failed = 0,
  state = { 1.5, "a" } }, "jobs.load: a worker's state read back")
debug.sethook(function()
  if debug.getinfo(2, "S").source == "=w.state" then
    debug.sethook()
    error("interrupted!")
  end
end, "c")
local loaded, why = pcall(jobs.load, state, "=w.state")
debug.sethook()
t.is_deeply({ loaded, interrupt.is(why) }, { false, true },
  "jobs.load: an interrupt in the state's chunk is raised, not returned")
t.is(jobs.load("return {", "=w.state"), nil,
  "jobs.load: a state that does not load is nil")
os.execute("rm -rf " .. scratch)

t.done_testing()
