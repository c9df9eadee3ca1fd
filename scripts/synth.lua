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
local text = require "rsxmesh.text"
local Run = require "rsxmesh.run"
local path = require "rsxmesh.path"
local jobs = require "rsxmesh.jobs"
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
    { short = "j", long = "jobs", arg = "N", check = cli.integer(1, 16),
      default = 2, help = "processes to share the levels (default 2)" },
    { long = "no-textures", help = "do not copy the textures" },
    { short = "q", long = "quiet", help = "no progress and no summary" },
    { long = "worker", hidden = true }, -- a worker of -j (rsxmesh.jobs)
  },
  details = "Every mesh is a recognisable shape (boxes, buildings, "
    .. "cylinders, terrain,\nroads, trees, glow cards) with normals that "
    .. "agree with its faces, tangents\nalong its UVs, and a base-colour "
    .. "texture (a checker with orientation marks)\nin sampler slot "
    .. "0x95591C40.",
})

local run = Run.new(opts)
if opts.quiet then run.tty = false end

local plan, perr = plan_mod.make{ scale = opts.scale, seed = opts.seed }
if not plan then
  run:fail(opts.out, perr)
  run:finish("nothing written")
end

local ok, err = path.mkdirs(opts.out)
if not ok then
  run:fail(opts.out, err)
  run:finish("nothing written")
end

local TEXDIR = "textures"

-- Level l of the plan, the i-th of n: its counts, or nil and a message.
local function make_level(l, i, n)
  local name = plan.levels[l].name
  return level.write(plan, l, opts.out, TEXDIR, function(done, count)
    run:progress("synth: %s (%d/%d): %d/%d meshes", name, i,
      n, done, count)
  end)
end

local chosen = opts.levels
if not chosen then
  chosen = {}
  for l = 1, #plan.levels do chosen[l] = l end
end

if opts.worker then
  -- a worker of the pool below: a level number per line
  jobs.serve("synth", function(line)
    local l = math.tointeger(tonumber(line))
    local st, werr = make_level(l, 1, 1)
    return jobs.dump({ st = st, err = werr })
  end)
end

-- the textures ship beside this script
local here = path.dirname(arg[0])
if not opts.no_textures then
  ok, err = path.mkdirs(path.join(opts.out, TEXDIR))
  if not ok then
    run:fail(opts.out, err)
    run:finish("nothing written")
  end
  for _, name in ipairs(level.TEXTURES) do
    local src = path.join(path.join(here, TEXDIR), name .. ".png")
    local dst = path.join(path.join(opts.out, TEXDIR), name .. ".png")
    -- whole or not at all, as every output (rsxmesh.output)
    local copied, cerr = require("rsxmesh.output").copy(src, dst)
    if not copied then run:fail(dst, cerr) end
  end
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

-- the levels, shared between worker processes (rsxmesh.jobs), the largest
-- first, or made here one after another
local n = math.min(opts.jobs, #chosen)
if n > 1 then
  local list = {}
  for k, l in ipairs(chosen) do
    list[k] = { line = tostring(l), size = plan.levels[l].vertices }
  end
  jobs.each(n, list, function(k, out, errs, report, status, done)
    local name = plan.levels[chosen[k]].name .. ".rsxb"
    local r = report and jobs.load(report, "=" .. name)
    run:clear()
    io.stdout:write(out)
    io.stderr:write(errs)
    if r and r.st then
      add(r.st)
    else
      run:fail(name, r and r.err or string.format(
        "the worker process failed (exit status %d)", status))
    end
    run:progress("synth: %d of %d levels done (%d processes)",
      done, #chosen, n)
  end)
else
  for i, l in ipairs(chosen) do
    local st, werr = make_level(l, i, #chosen)
    if st then add(st) else run:fail(plan.levels[l].name .. ".rsxb", werr) end
  end
end

if opts.quiet then
  os.exit(run.failed > 0 and 1 or 0, true)
end
run:finish(string.format("%s, %s, %s, %s, %.1f MB in %s (scale %g, "
  .. "seed %d)", text.plural(total.levels, "bundle"),
  text.plural(total.meshes, "mesh", "meshes"),
  text.plural(total.submeshes, "submesh", "submeshes"),
  text.plural(total.vertices, "vertex", "vertices"), total.bytes / 1e6,
  opts.out, opts.scale, opts.seed))
