-- scripts-selectors.lua - uv-selectors on hand-built bundles: the text
-- listing with its combinations, --tsv and --json.
--
-- By hand from scripts-lib.lua: 0xff keeps the stored set of the same
-- number when the mask holds it (else the logical UV is absent, "-");
-- 02ffffff sends UV0 to stored set 2; 00000201 gives 0 0 2 1 where the
-- mask holds sets 0-2 (odd holds 0 and 1 only: UV2 is absent); 03ff07ff
-- names set 3 (absent from mask 00080025) and the bad byte 7.

local t = require "tap"
local lib = require "scripts-lib"

local dir = lib.inputs("A", "C")

local TEXT = [[
in/A.rsxb
  mesh   submesh  selectors  uv0  uv1  uv2  uv3  base colour
  quad         1  ffffffff     0    1    2    -  tex/brick.png
  quad         2  02ffffff     2    1    2    -  tex/road.png
  strip        1  ffffffff     -    -    -    -  -

in/C.rsxb
  mesh     submesh  selectors  uv0  uv1  uv2  uv3  base colour
  crate          1  ffffffff     0    -    -    -  tex/crate.png
  odd            1  00000201     0    0    -    1  -
  tree           1  00000201     0    0    2    1  -
  bad_sel        1  03ff07ff     -    -    -    -  -

4 distinct combinations over 7 submeshes, commonest first:
  ffffffff (3 submeshes)
  00000201 (2 submeshes)
  02ffffff (1 submesh)
  03ff07ff (1 submesh)
]]

local status, out, err = lib.rsxmesh(dir, "uv-selectors", "in/A.rsxb",
  "in/C.rsxb")
t.is(status, 0, "uv-selectors: exit status 0")
t.is(out, TEXT, "uv-selectors: the listing and the combinations")
t.like(err, "^uv%-selectors: 2 bundles, 7 submeshes, 4 combinations in "
  .. "[%d.]+ s\n$", "uv-selectors: summary on stderr")

local TSV = table.concat({
  "bundle\tmesh\tsubmesh\tselectors\tuv0\tuv1\tuv2\tuv3",
  "in/A.rsxb\tquad\t1\tffffffff\t0\t1\t2\t-",
  "in/A.rsxb\tquad\t2\t02ffffff\t2\t1\t2\t-",
  "in/A.rsxb\tstrip\t1\tffffffff\t-\t-\t-\t-",
  "in/C.rsxb\tcrate\t1\tffffffff\t0\t-\t-\t-",
  "in/C.rsxb\todd\t1\t00000201\t0\t0\t-\t1",
  "in/C.rsxb\ttree\t1\t00000201\t0\t0\t2\t1",
  "in/C.rsxb\tbad_sel\t1\t03ff07ff\t-\t-\t-\t-",
}, "\n") .. "\n"

status, out = lib.rsxmesh(dir, "uv-selectors", "--tsv", "in")
t.is(status, 0, "--tsv: exit status 0")
t.is(out, TSV, "--tsv: a header and a line per submesh, in bundle order, "
  .. "the bundle first")

-- --json: the same, parsed (lua-cjson); absent UVs and materials are null
local cjson = require "cjson"
local null = cjson.null
local function row(bundle, number, mesh, sel, uv, base)
  return { bundle = bundle, mesh = mesh, mesh_number = number, submesh = 1,
    selectors = sel, uv = uv, base_colour = base }
end
local JSON = { submeshes = {
  row("in/A.rsxb", 1, "quad", "ffffffff", { 0, 1, 2, null }, "tex/brick.png"),
  row("in/A.rsxb", 1, "quad", "02ffffff", { 2, 1, 2, null }, "tex/road.png"),
  row("in/A.rsxb", 2, "strip", "ffffffff", { null, null, null, null }, null),
  row("in/C.rsxb", 1, "crate", "ffffffff", { 0, null, null, null },
    "tex/crate.png"),
  row("in/C.rsxb", 2, "odd", "00000201", { 0, 0, null, 1 }, null),
  row("in/C.rsxb", 3, "tree", "00000201", { 0, 0, 2, 1 }, null),
  row("in/C.rsxb", 4, "bad_sel", "03ff07ff", { null, null, null, null },
    null),
}, combinations = {
  { selectors = "ffffffff", submeshes = 3 },
  { selectors = "00000201", submeshes = 2 },
  { selectors = "02ffffff", submeshes = 1 },
  { selectors = "03ff07ff", submeshes = 1 },
} }
JSON.submeshes[2].submesh = 2
status, out, err = lib.rsxmesh(dir, "uv-selectors", "--json", "in")
t.is(status, 0, "--json: exit status 0")
local ok, doc = pcall(cjson.decode, out)
t.ok(ok, "--json: one JSON document on stdout")
t.is_deeply(ok and doc, JSON, "--json: every submesh and the combinations")
t.like(out, '"uv": %[%s*0,%s*0,%s*2,%s*1%s*%]',
  "--json: set numbers written as integers (tree: 0 0 2 1)")
t.like(err, "^uv%-selectors: 2 bundles, 7 submeshes, 4 combinations in ",
  "--json: the summary on stderr")
status, out, err = lib.rsxmesh(dir, "uv-selectors", "--json", "--tsv", "in")
t.is(status, 2, "--json with --tsv: a usage error")
t.is(err, "uv-selectors: --tsv and --json exclude each other\n"
  .. "Usage: " .. lib.progname .. " uv-selectors [options] BUNDLE|FOLDER...\n"
  .. "Try '" .. lib.progname .. " uv-selectors --help' for more.\n",
  "--json with --tsv: says why, as every usage error does")

-- a truncated bundle among good ones
lib.write(dir .. "/in/B.rsxb", lib.read(dir .. "/in/A.rsxb"):sub(1, 64))
status, out, err = lib.rsxmesh(dir, "uv-selectors", "--tsv", "in")
t.is(status, 1, "a bad bundle: exit status 1")
t.is(out, TSV, "a bad bundle: the others are listed as before")
t.like(err, "^uv%-selectors: in/B%.rsxb: [^\n]+\nuv%-selectors: [^\n]*"
  .. "1 failure above\n$", "a bad bundle: one line naming it")

-- a mesh named with a tab, a newline and a backslash (the reader takes
-- any bytes): its field is escaped, so its row stays one row of 8 fields
do
  local rsxmesh = require "rsxmesh"
  local w = rsxmesh.writer()
  assert(w:mesh(assert(rsxmesh.mesh{
    name = "a\tb\nc\\d\re", meta = lib.meta(0x00080005), vertex_count = 3,
    mmp_stride = 16, mmp = string.rep("\0", 48),
    indices = rsxmesh.indices(2, { 1, 2, 3 }), index_size = 2,
    primitive = "triangles",
    submeshes = { { record = lib.subrec(0xFFFFFFFF), first_index = 0,
      index_count = 3 } } })))
  assert(w:save(dir .. "/odd\tname.rsxb"))
  status, out = lib.rsxmesh(dir, "uv-selectors", "--tsv", "odd\tname.rsxb")
  t.is(status, 0, "--tsv, a name with a tab and a newline: exit status 0")
  t.is(out, "bundle\tmesh\tsubmesh\tselectors\tuv0\tuv1\tuv2\tuv3\n"
    .. "odd\\tname.rsxb\ta\\tb\\nc\\\\d\\re\t1\tffffffff\t-\t-\t-\t-\n",
    "... the fields escaped as \\t, \\n, \\\\ and \\r: one row")
end

status, out, err = lib.rsxmesh(dir, "uv-selectors", "--tsv=yes", "in")
t.is(status, 2, "--tsv=yes: a usage error")
t.like(err, "'%-%-tsv' takes no value", "--tsv=yes: says why")

lib.cleanup()
t.done_testing()
