-- synth.lua - a deterministic synthetic disc of RSXB levels
--
-- Its counts reproduce the research note's statistics.
--
--   rsxmesh synth -o DIR [--scale S] [--seed N]
--
-- Writes DIR/ALFA.rsxb ... DIR/OSCAR.rsxb and DIR/textures/*.png. The same
-- options give the same bytes on every machine. At --scale 1 the counts
-- are the note's exactly; smaller scales keep its proportions.

local cli = require "rsxmesh.cli"
local lfs = require "lfs"
local plan_mod = require "rsxmesh.synth.plan"
local level = require "rsxmesh.synth.level"

local function check_scale(s)
  local v = tonumber(s)
  if not v or v ~= v or v < plan_mod.MIN_SCALE or v > plan_mod.MAX_SCALE
  then
    return nil, string.format("expects a number in %g..%g, not '%s'",
      plan_mod.MIN_SCALE, plan_mod.MAX_SCALE, s)
  end
  return v + 0.0
end

-- "CHARLIE,5,oscar" -> { 3, 5, 15 }, in the disc's order.
local function check_levels(s)
  local want = {}
  for item in s:gmatch("[^,]+") do
    local n = math.tointeger(tonumber(item))
    if not n then
      for i, name in ipairs(plan_mod.LEVELS) do
        if name == item:upper() then n = i end
      end
    end
    if not n or n < 1 or n > #plan_mod.LEVELS then
      return nil, "expects level names or numbers 1.."
        .. #plan_mod.LEVELS .. ", not '" .. item .. "'"
    end
    want[n] = true
  end
  local out = {}
  for i = 1, #plan_mod.LEVELS do
    if want[i] then out[#out + 1] = i end
  end
  if #out == 0 then return nil, "expects at least one level" end
  return out
end

local opts = cli.parse(arg, {
  name = "synth",
  usage = "rsxmesh synth -o DIR [--scale S] [--seed N]",
  about = "Writes a synthetic disc: bundles named after the NATO alphabet\n"
    .. "(ALFA.rsxb ... OSCAR.rsxb) with textures, whose meshes reproduce "
    .. "the\nresearch note's counts: exactly at --scale 1 (17,897 meshes, "
    .. "6,232,816\nvertices), in proportion below it.",
  inputs = 0,
  options = {
    { short = "o", long = "out", arg = "DIR", required = true,
      help = "the folder to write (created if missing)" },
    { long = "scale", arg = "S", check = check_scale, default = 0.02,
      help = "the share of the note's disc (default 0.02, a sample of "
        .. "363 meshes)" },
    { long = "seed", arg = "N", check = cli.integer(0, 0x7FFFFFFF),
      default = 1, help = "the seed: the same seed, the same bytes" },
    { long = "levels", arg = "LIST", check = check_levels,
      help = "make only these levels (names or numbers, comma-separated)" },
    -- one on Windows, which has no sh for the children (until the pool)
    { short = "j", long = "jobs", arg = "N", check = cli.integer(1, 16),
      default = package.config:sub(1, 1) == "\\" and 1 or 2,
      help = "processes to share the levels (default 2; 1 on Windows)" },
    { long = "no-textures", help = "do not copy the textures" },
    { short = "q", long = "quiet", help = "no progress and no summary" },
  },
  details = "Every mesh is a recognisable shape (boxes, buildings, "
    .. "cylinders, terrain,\nroads, trees, glow cards) with normals that "
    .. "agree with its faces, tangents\nalong its UVs, and a base-colour "
    .. "texture (a checker with orientation marks)\nin sampler slot "
    .. "0x95591C40.",
})

local run = cli.run(opts)
if opts.quiet then run.tty = false end

local plan, perr = plan_mod.make{ scale = opts.scale, seed = opts.seed }
if not plan then
  run:fail(opts.out, perr)
  run:finish("nothing written")
end

local ok, err = cli.mkdirs(opts.out)
if not ok then
  run:fail(opts.out, err)
  run:finish("nothing written")
end

-- the textures ship beside this script
local here = cli.dirname(arg[0])
local TEXDIR = "textures"
if not opts.no_textures then
  ok, err = cli.mkdirs(cli.join(opts.out, TEXDIR))
  if not ok then
    run:fail(opts.out, err)
    run:finish("nothing written")
  end
  for _, name in ipairs(level.TEXTURES) do
    local src = cli.join(cli.join(here, TEXDIR), name .. ".png")
    local dst = cli.join(cli.join(opts.out, TEXDIR), name .. ".png")
    -- whole or not at all, as every output (rsxmesh.output)
    local copied, cerr = require("rsxmesh.output").copy(src, dst)
    if not copied then run:fail(dst, cerr) end
  end
end

-- the levels, shared between processes: this one makes the first share,
-- the others run this script again with --levels
local chosen = opts.levels
if not chosen then
  chosen = {}
  for l = 1, #plan.levels do chosen[l] = l end
end
local shares = { chosen }
if opts.jobs > 1 and #chosen > 1 then
  local sub = { levels = {} }
  for i, l in ipairs(chosen) do sub.levels[i] = plan.levels[l] end
  shares = plan_mod.split(sub, math.min(opts.jobs, #chosen))
  for _, share in ipairs(shares) do
    for i, j in ipairs(share) do share[i] = chosen[j] end
  end
end

local function quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

local children = {}
for p = 2, #shares do
  local host = arg[-1]
  for i = -2, -100, -1 do
    if arg[i] == nil then break end
    host = arg[i]
  end
  local cmd = { quote(host), quote(arg[0]), "-o", quote(opts.out),
    "--scale", string.format("%.17g", opts.scale), "--seed", opts.seed,
    "--levels", table.concat(shares[p], ","), "--jobs", "1",
    "--no-textures", "--quiet" }
  children[#children + 1] = { pipe = assert(io.popen(table.concat(cmd, " "),
    "r")), levels = shares[p] }
end

local total = { levels = 0, meshes = 0, submeshes = 0, vertices = 0,
                bytes = 0 }
local function add(st)
  total.levels = total.levels + 1
  total.meshes = total.meshes + st.meshes
  total.submeshes = total.submeshes + st.submeshes
  total.vertices = total.vertices + st.vertices
  total.bytes = total.bytes + st.bytes
end

for i, l in ipairs(shares[1]) do
  local name = plan.levels[l].name
  local st, werr = level.write(plan, l, opts.out, TEXDIR,
    function(done, count)
      run:progress(string.format("synth: %s (%d/%d): %d/%d meshes", name,
        i, #shares[1], done, count))
    end)
  if st then add(st) else run:fail(name .. ".rsxb", werr) end
end

-- the other processes' levels: counted from the plan and the files
for _, c in ipairs(children) do
  run:progress("synth: waiting for the other processes")
  c.pipe:read("a")
  local cok, how, code = c.pipe:close()
  for _, l in ipairs(c.levels) do
    local lv = plan.levels[l]
    local path = cli.join(opts.out, lv.name .. ".rsxb")
    local size = lfs.attributes(path, "size")
    if cok and size then
      local st = { meshes = #lv.meshes, submeshes = 0,
                   vertices = lv.vertices, bytes = size }
      for _, id in ipairs(lv.meshes) do
        st.submeshes = st.submeshes + plan.meshes[id].k
      end
      add(st)
    else
      run:fail(path, string.format("the process making it failed (%s %s)",
        tostring(how), tostring(code)))
    end
  end
end

if opts.quiet then
  os.exit(run.failed > 0 and 1 or 0, true)
end
run:finish(string.format("%s, %s, %s, %s, %.1f MB in %s (scale %g, "
  .. "seed %d)", cli.plural(total.levels, "bundle"),
  cli.plural(total.meshes, "mesh", "meshes"),
  cli.plural(total.submeshes, "submesh", "submeshes"),
  cli.plural(total.vertices, "vertex", "vertices"), total.bytes / 1e6,
  opts.out, opts.scale, opts.seed))
