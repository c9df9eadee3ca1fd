-- synth-lib.lua - the tests' census of a synthetic disc, read back through
-- the public rsxmesh API only, and the note's numbers to hold it to.
--
-- The census decodes every bundle of a folder and counts what the research
-- note counts; the tests compare it with the note's figures (times the
-- scale, rounded), never with figures the generator reports.

local rsxmesh = require "rsxmesh"
local lfs = require "lfs"

local sqrt = math.sqrt

local lib = {}

-- The note's layout table: mask, meshes, MGP stride.
lib.MASKS = {
  { 0x00080005, 2387, 0 }, { 0x00080007, 2, 4 }, { 0x00080025, 1506, 4 },
  { 0x00080027, 37, 8 }, { 0x0008003d, 3127, 12 }, { 0x0008003f, 35, 16 },
  { 0x00080065, 1172, 8 }, { 0x00080067, 1, 12 }, { 0x0008007d, 2708, 16 },
  { 0x000800e5, 191, 12 }, { 0x000800fd, 3324, 20 },
  { 0x000800ff, 10, 24 }, { 0x000801e5, 3, 16 }, { 0x000801fd, 2134, 24 },
  { 0x000801ff, 1239, 28 }, { 0x000807fd, 21, 40 },
}

lib.NATO = { "ALFA", "BRAVO", "CHARLIE", "DELTA", "ECHO", "FOXTROT",
             "GOLF", "HOTEL", "INDIA", "JULIETT", "KILO", "LIMA", "MIKE",
             "NOVEMBER", "OSCAR" }

-- A count of the note at scale s: rounded to nearest.
function lib.scaled(n, s)
  return math.floor(n * s + 0.5)
end

local function len3(t, i)
  local x, y, z = t[i], t[i + 1], t[i + 2]
  return sqrt(x * x + y * y + z * z)
end

-- The per-triangle checks of one submesh: the face's normal against its
-- vertices' normals, and the direction of growing U and V (from positions
-- and logical UV0) against tangent vectors A and B.
local function check_faces(c, s, pos, nrm, ta, tb)
  local tris, nt = s:triangles()
  assert(tris, nt)
  local uv = s:uv(0)
  local uvs = uv and uv:range()
  for t = 0, nt - 1 do
    local a, b, d = tris[3 * t + 1], tris[3 * t + 2], tris[3 * t + 3]
    local ia, ib, id = 3 * a - 2, 3 * b - 2, 3 * d - 2
    local e1x, e1y, e1z = pos[ib] - pos[ia], pos[ib + 1] - pos[ia + 1],
      pos[ib + 2] - pos[ia + 2]
    local e2x, e2y, e2z = pos[id] - pos[ia], pos[id + 1] - pos[ia + 1],
      pos[id + 2] - pos[ia + 2]
    local fx, fy, fz = e1y * e2z - e1z * e2y, e1z * e2x - e1x * e2z,
      e1x * e2y - e1y * e2x
    local fl = sqrt(fx * fx + fy * fy + fz * fz)
    if fl > 1e-9 then
      c.faces = c.faces + 1
      for _, i in ipairs{ ia, ib, id } do
        local d2 = fx * nrm[i] + fy * nrm[i + 1] + fz * nrm[i + 2]
        if len3(nrm, i) > 0 and d2 <= 0 then
          c.faces_against = c.faces_against + 1
        end
      end
      if ta and uvs then
        local ua, va = uvs[2 * a - 1], uvs[2 * a]
        local du1, dv1 = uvs[2 * b - 1] - ua, uvs[2 * b] - va
        local du2, dv2 = uvs[2 * d - 1] - ua, uvs[2 * d] - va
        local det = du1 * dv2 - du2 * dv1
        if det > 1e-6 or det < -1e-6 then
          -- dP/du and dP/dv of the face
          local tx, ty, tz = (e1x * dv2 - e2x * dv1) / det,
            (e1y * dv2 - e2y * dv1) / det, (e1z * dv2 - e2z * dv1) / det
          local bx, by, bz = (e2x * du1 - e1x * du2) / det,
            (e2y * du1 - e1y * du2) / det, (e2z * du1 - e1z * du2) / det
          local tl = sqrt(tx * tx + ty * ty + tz * tz)
          local bl = sqrt(bx * bx + by * by + bz * bz)
          local al, ql = len3(ta, ia), len3(tb, ia)
          if tl > 0 and bl > 0 and al > 0 and ql > 0 then
            c.frames = c.frames + 1
            local ca = (tx * ta[ia] + ty * ta[ia + 1] + tz * ta[ia + 2])
              / (tl * al)
            local cb = (bx * tb[ia] + by * tb[ia + 1] + bz * tb[ia + 2])
              / (bl * ql)
            if ca < 0.8 then c.frames_a_off = c.frames_a_off + 1 end
            if cb < 0.8 then c.frames_b_off = c.frames_b_off + 1 end
          end
        end
      end
    end
  end
end

-- Count what the note counts in every *.rsxb of dir. opts.faces, a set of
-- bundle names ({ ["ALFA.rsxb"] = true }), adds the per-triangle geometry
-- checks on those (slow, under valgrind above all).
function lib.census(dir, opts)
  opts = opts or {}
  local c = {
    bundles = {}, meshes = 0, submeshes = 0, vertices = 0, masks = {},
    mgp_strides = {}, findings = 0, selectors = {}, selector_bad = 0,
    uv0_missing = 0, normals_zero = 0, normals_bad = 0, normal_dev = 0,
    a_vertices = 0, a_off = 0, a_near = 0, b_zero = 0, b_bad = 0,
    uv_min = math.huge, uv_max = -math.huge,
    colour_min = math.huge, colour_max = -math.huge,
    trees = 0, xa_min = math.huge, xa_max = -math.huge,
    xw_min = math.huge, xw_max = -math.huge, xb_w_nonzero = 0,
    xb_outside = 0, index_sizes = {}, strips = 0, restarts = 0,
    materials = 0, no_base_colour = 0, missing_textures = 0,
    no_material = 0, no_material_other = 0, faces = 0, faces_against = 0, frames = 0,
    frames_a_off = 0, frames_b_off = 0,
  }
  local names = {}
  for name in lfs.dir(dir) do
    if name:match("%.rsxb$") then names[#names + 1] = name end
  end
  table.sort(names)
  local textures_seen = {}
  for _, name in ipairs(names) do
    local b <close> = assert(rsxmesh.open(dir .. "/" .. name))
    c.bundles[#c.bundles + 1] = name
    for _, mat in b:materials() do
      c.materials = c.materials + 1
      local tex = mat.base_colour
      if not tex then
        c.no_base_colour = c.no_base_colour + 1
      elseif textures_seen[tex] == nil then
        textures_seen[tex] = lfs.attributes(dir .. "/" .. tex, "mode")
          == "file"
        if not textures_seen[tex] then
          c.missing_textures = c.missing_textures + 1
        end
      end
    end
    for _, m in b:meshes() do
      c.meshes = c.meshes + 1
      c.vertices = c.vertices + m.vertex_count
      c.submeshes = c.submeshes + m.submesh_count
      c.masks[m.mask] = (c.masks[m.mask] or 0) + 1
      c.mgp_strides[m.mask] = m.mgp_stride
      c.findings = c.findings + #m.findings
      c.index_sizes[m.index_size] = (c.index_sizes[m.index_size] or 0) + 1
      local n = m.vertex_count
      if m.primitive == "strip" then
        c.strips = c.strips + 1
        local all = m.index_size == 2 and 0xFFFF or 0xFFFFFFFF
        for i = 1, m.index_count do
          if m:index(i) == all then c.restarts = c.restarts + 1 end
        end
      end

      local nrm = m:attribute("normal"):range()
      for i = 1, 3 * n, 3 do
        local l = len3(nrm, i)
        if l == 0 then
          c.normals_zero = c.normals_zero + 1
        else
          local dev = math.abs(l - 1)
          if dev > c.normal_dev then c.normal_dev = dev end
          if dev > 0.005 then c.normals_bad = c.normals_bad + 1 end
        end
      end
      local ta, tb
      if m:has("tangent_a") then
        ta = m:attribute("tangent_a"):range()
        tb = m:attribute("tangent_b"):range()
        c.a_vertices = c.a_vertices + n
        for i = 1, 3 * n, 3 do
          local dev = math.abs(len3(ta, i) - 1)
          if dev > 0.005 then
            c.a_off = c.a_off + 1
            -- "off" must be off by well over the threshold
            if dev < 0.02 then c.a_near = c.a_near + 1 end
          end
          local lb = len3(tb, i)
          if lb == 0 then
            c.b_zero = c.b_zero + 1
          elseif math.abs(lb - 1) > 0.005 then
            c.b_bad = c.b_bad + 1
          end
        end
      end
      for set = 0, 3 do
        local kind = "uv" .. set
        if m:has(kind) then
          local lo, hi = m:attribute(kind):bounds()
          for k = 1, 2 do
            if lo[k] < c.uv_min then c.uv_min = lo[k] end
            if hi[k] > c.uv_max then c.uv_max = hi[k] end
          end
        end
      end
      if m:has("colour") then
        local lo, hi = m:attribute("colour"):bounds()
        for k = 1, 4 do
          if lo[k] < c.colour_min then c.colour_min = lo[k] end
          if hi[k] > c.colour_max then c.colour_max = hi[k] end
        end
      end
      if m:has("extra_a") then
        c.trees = c.trees + 1
        local lo, hi = m:attribute("extra_a"):bounds()
        for k = 1, 3 do
          if lo[k] < c.xa_min then c.xa_min = lo[k] end
          if hi[k] > c.xa_max then c.xa_max = hi[k] end
        end
        if lo[4] < c.xw_min then c.xw_min = lo[4] end
        if hi[4] > c.xw_max then c.xw_max = hi[4] end
        -- extra B: a position (inside the mesh's box, give or take half
        -- precision) with w = 0
        local plo, phi = m:attribute("position"):bounds()
        local xb = m:attribute("extra_b"):range()
        for i = 1, 4 * n, 4 do
          if xb[i + 3] ~= 0 then c.xb_w_nonzero = c.xb_w_nonzero + 1 end
          for k = 0, 2 do
            local slack = 0.01 * math.abs(xb[i + k]) + 0.01
            if xb[i + k] < plo[k + 1] - slack or xb[i + k] > phi[k + 1]
                + slack then
              c.xb_outside = c.xb_outside + 1
            end
          end
        end
      end
      local pos = opts.faces and opts.faces[name]
        and m:attribute("position"):range()
      for _, s in m:submeshes() do
        local sel = s.selectors
        c.selectors[sel] = (c.selectors[sel] or 0) + 1
        c.findings = c.findings + #s.findings
        for i = 0, 3 do
          local v = s:selector(i)
          if v > 3 and v ~= 0xFF then c.selector_bad = c.selector_bad + 1 end
        end
        if m:has("uv0") and not s:uv(0) then
          c.uv0_missing = c.uv0_missing + 1
        end
        if not s.material then
          c.no_material = c.no_material + 1
          if m.mask ~= 0x00080007 then
            c.no_material_other = c.no_material_other + 1
          end
        end
        if pos then check_faces(c, s, pos, nrm, ta, tb) end
      end
    end
  end
  local distinct, list = 0, {}
  for sel, n in pairs(c.selectors) do
    distinct = distinct + 1
    list[#list + 1] = { sel, n }
  end
  table.sort(list, function(x, y)
    if x[2] ~= y[2] then return x[2] > y[2] end
    return x[1] < y[1]
  end)
  c.distinct, c.commonest = distinct, list
  return c
end

-- Every byte of the *.rsxb files of two folders equal: true, or false and
-- the first that differs.
-- The ranges the note gives whatever the scale: UVs reaching -807 and 512,
-- colours in [0, 1], the tree extras' ranges and extra B's w = 0.
function lib.check_ranges(t, k)
  t.is(k.uv_min, -807, "UVs reach -807")
  t.is(k.uv_max, 512, "UVs reach 512")
  t.ok(k.colour_min >= 0 and k.colour_max <= 1, "colours in [0, 1]")
  t.ok(k.xa_min >= -0.96 and k.xa_min < -0.959, "extra A xyz down to -0.96")
  t.ok(k.xa_max <= 0.94 and k.xa_max > 0.939, "extra A xyz up to 0.94")
  t.ok(k.xw_min >= -3.14 and k.xw_min < -3.13, "extra A w down to -3.14")
  t.ok(k.xw_max <= 2.99 and k.xw_max > 2.98, "extra A w up to 2.99")
  t.is(k.xb_w_nonzero, 0, "extra B w = 0")
  t.is(k.xb_outside, 0, "extra B lies in its mesh's box")
end

function lib.same_bundles(a, b)
  for _, name in ipairs(lib.NATO) do
    local fa = io.open(a .. "/" .. name .. ".rsxb", "rb")
    local fb = io.open(b .. "/" .. name .. ".rsxb", "rb")
    local da, db = fa and fa:read("a"), fb and fb:read("a")
    if fa then fa:close() end
    if fb then fb:close() end
    if da == nil or da ~= db then return false, name end
  end
  return true
end

return lib
