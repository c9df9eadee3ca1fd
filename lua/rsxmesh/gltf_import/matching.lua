-- rsxmesh/gltf_import/matching.lua - the glTF import's matching: a glTF
-- mesh's primitives to the base mesh's submeshes, its vertices to the
-- base's (by the triangles' topology and order, UVs, normals and
-- positions, as an editor keeps them), and its triangles to the base's.
--
--   local src = matching.source(file, g, m, world)  -- the meshes to match
--   if not matching.verbatim(src) then
--     local match = matching.match(src)             -- a value: see there
--   end
--
-- A match is worked out whole when it is made (its groups, parts and
-- same_layout); its methods answer questions of it (columns, indices,
-- the base vertex of each glTF vertex, ...), each worked out once when
-- first asked, in any order.

local reading = require "rsxmesh.gltf_import.reading"

local gltf = require "rsxmesh.gltf"
local layout = require "rsxmesh.gltf_layout"
local rsxmesh = require "rsxmesh"

local fail, int, shown = reading.fail, reading.int, reading.shown
local expect, values = reading.expect, reading.values
local column_bytes, column_values = reading.column_bytes,
  reading.column_values
local MODES, CHUNK = reading.MODES, reading.CHUNK
-- the attributes as gltf-export writes them (rsxmesh.gltf_layout)
local POSITION, NORMAL, TANGENT = layout.POSITION, layout.NORMAL,
  layout.TANGENT
local COLOR_0, INDICES = layout.COLOR_0, layout.INDICES
local TRIANGLES = layout.TRIANGLES
local TEXCOORD_N = layout.TEXCOORD_N
-- the attribute each UV source may be (TEXCOORD_n, _UV_SET_n), by name
local UV_SOURCE = {}
for n = 0, 3 do
  UV_SOURCE[TEXCOORD_N[n]] = layout.TEXCOORD
  UV_SOURCE[layout.UV_SET_N[n]] = layout.UV_SET
end

local matching = {}

local Match = {}
Match.__index = Match

-- glTF material names come back with suffixes (Blender's ".001"), and
-- gltf-export names a variant "NAME (no UV0)" (layout.UNTEXTURED_SUFFIX).
local UNTEXTURED = layout.UNTEXTURED_SUFFIX:gsub("%p", "%%%0") .. "$"
local function material_name(file, index)
  local mats = type(file.json.materials) == "table" and file.json.materials
  local mat = mats and int(index) and mats[int(index) + 1]
  if type(mat) ~= "table" or type(mat.name) ~= "string" then return nil end
  return (mat.name:gsub(UNTEXTURED, ""):gsub("%.%d%d%d$", ""))
end

-- Each primitive a triangle list with a POSITION; its vertices a group
-- per POSITION accessor, in the glTF's order.
function Match:vertex_groups()
  local groups, group_of, nv = {}, {}, 0
  for p, prim in ipairs(self.prims) do
    local pw = string.format("%s: primitive %d", self.where, p)
    if type(prim) ~= "table" then fail("%s is not an object", pw) end
    local mode = int(prim.mode or TRIANGLES) or prim.mode
    if mode ~= TRIANGLES then
      fail("%s: mode %s (%s) is not a triangle list", pw, shown(mode),
        MODES[mode] or "unknown")
    end
    if type(prim.attributes) ~= "table" then prim.attributes = {} end
    local pi = prim.attributes[POSITION.name]
    if pi == nil then fail("%s: no POSITION", pw) end
    if not group_of[pi] then
      local r = self:accessor(pi, p, POSITION.name)
      expect(r, POSITION.types, POSITION.ctypes)
      groups[#groups + 1] = { first = nv, count = r.count, prims = {},
        position = r }
      group_of[pi] = groups[#groups]
      nv = nv + r.count
    end
    table.insert(group_of[pi].prims, p)
  end
  self.groups, self.group_of, self.nv = groups, group_of, nv
end

local function quoted(name)
  return name and "'" .. name .. "'" or "none"
end

-- A position as a key: its float32 bytes, -0 read as 0.
local function position_key(bytes, at)
  local x, y, z = string.unpack("<fff", bytes, at)
  return string.pack("<fff", x + 0.0, y + 0.0, z + 0.0)
end

-- A triangle's corners rotated to start at the least, the winding kept
-- (the lexicographically least of its three rotations), and how far they
-- were rotated: corner c of the result is corner (c + r) % 3 of the
-- triangle. Numbers or strings.
local function least_rotation(a, b, c)
  local x, y, z, r = a, b, c, 0
  if b < x or (b == x and (c < y or (c == y and a < z))) then
    x, y, z, r = b, c, a, 1
  end
  if c < x or (c == x and (a < y or (a == y and b < z))) then
    x, y, z, r = c, a, b, 2
  end
  return x, y, z, r
end

-- Triangles in the order of their keys (t[1]).
local function in_key_order(a, b)
  return a[1] < b[1]
end

-- A triangle as a key: its three position keys, sorted (the corners in
-- any order).
local function triangle_key(a, b, c)
  if a > b then a, b = b, a end
  if b > c then b, c = c, b end
  if a > b then a, b = b, a end
  return a .. b .. c
end

-- Glue primitive p back into the submeshes subs (a list of exported
-- submeshes that share its material): each triangle goes to a submesh
-- with a triangle of the same three positions, wound alike. Where several
-- base triangles have them (a double-sided card's two sides are told
-- apart by their winding, two layers are not), the glTF's triangles take
-- them in the base's order, as an editor keeps them: the k-th to the
-- submesh of the k-th. One wound the other way (flipped in the editor)
-- goes to the first submesh with those positions, one of no submesh (an
-- editor's new one) to the first. Returns a part per submesh.
function Match:split(p, subs)
  local pos = assert(self.m:attribute("position")):pack()
  local function keys(bytes, a, b, c)
    a, b, c = position_key(bytes, a), position_key(bytes, b),
      position_key(bytes, c)
    local x, y, z = least_rotation(a, b, c)
    return x .. y .. z, triangle_key(a, b, c)
  end
  local wound, owner = {}, {}
  for k, sub in ipairs(subs) do
    local tri, n = sub.s:triangles()
    for i = 0, (tri and n or 0) - 1 do
      local key, loose = keys(pos, 12 * tri[3 * i + 1] - 11,
        12 * tri[3 * i + 2] - 11, 12 * tri[3 * i + 3] - 11)
      local list = wound[key]
      if not list then
        list = { at = 1 }
        wound[key] = list
      end
      list[#list + 1] = k
      owner[loose] = owner[loose] or k
    end
  end
  local idx = self:primitive_indices(p)
  local gpos = self:group(p).position.bytes
  local parts, stray = {}, 0
  for k, sub in ipairs(subs) do
    parts[k] = { prim = self.prims[p], p = p, sub = sub, tris = {} }
  end
  for i = 0, #idx // 3 - 1 do
    local key, loose = keys(gpos, 12 * idx[3 * i + 1] + 1,
      12 * idx[3 * i + 2] + 1, 12 * idx[3 * i + 3] + 1)
    local list = wound[key]
    local k
    if list then
      -- past the base's count of them: an editor's copy, to the first
      k = list[list.at] or list[1]
      list.at = list.at + 1
    else
      k = owner[loose]
    end
    if not k then
      k, stray = 1, stray + 1
    end
    table.insert(parts[k].tris, i)
  end
  local list = {}
  for k = 1, #subs do list[k] = subs[k].index end
  self:note("derived", string.format("primitive %d split back into"
    .. " submeshes %s by their triangles' positions%s", p,
    table.concat(list, ", "), stray > 0 and string.format(" (%d of no"
    .. " submesh given to submesh %d)", stray, subs[1].index) or ""))
  return parts
end

-- Primitives to the submeshes gltf-export wrote, by order and material:
-- self.parts, { prim =, p =, sub =, e = (what the export wrote for it),
-- tris = (nil: all its triangles) }, and self.same_layout
-- (Match:numbered_as_base). Where an editor merged primitives
-- that share a material (Blender does), the merged one is split back.
function Match:primitives()
  self:vertex_groups()
  local prims, subs = self.prims, self.subs
  local parts = {}
  if #prims == #subs then
    for p, prim in ipairs(prims) do
      local sub = subs[p]
      local want = sub.s.material and sub.s.material.name
      local got = material_name(self.file, prim.material)
      if got ~= want then
        fail("%s: primitive %d: material %s where submesh %d has %s",
          self.where, p, quoted(got), sub.index, quoted(want))
      end
      parts[p] = { prim = prim, p = p, sub = sub,
        e = self.E.primitives[p] }
    end
  else
    local by_material, order = {}, {}
    for _, sub in ipairs(subs) do
      local name = sub.s.material and sub.s.material.name or false
      if not by_material[name] then
        by_material[name] = {}
        order[#order + 1] = name
      end
      table.insert(by_material[name], sub)
    end
    local claimed = {}
    for p, prim in ipairs(prims) do
      local got = material_name(self.file, prim.material) or false
      local list = by_material[got]
      if not list or claimed[got] then
        fail("%s: %d primitives where the base has %d submeshes with"
          .. " triangles, and primitive %d's material %s is %s",
          self.where, #prims, #subs, p, quoted(got or nil), list
          and "another primitive's too" or "no submesh's")
      end
      claimed[got] = true
      for _, part in ipairs(#list == 1 and { { prim = prim, p = p,
          sub = list[1] } } or self:split(p, list)) do
        parts[#parts + 1] = part
      end
    end
    for _, name in ipairs(order) do
      if not claimed[name] then
        fail("%s: no primitive has material %s of submesh %d", self.where,
          quoted(name or nil), by_material[name][1].index)
      end
    end
    -- back in the submeshes' order
    table.sort(parts, function(a, b) return a.sub.index < b.sub.index end)
  end
  self.parts = parts
  -- the base's vertices, in its order: attributes compare as exported,
  -- and those the glTF lacks are the base's as they stand
  self.same_layout = self:numbered_as_base()
end

function Match:group(p)
  return self.group_of[self.prims[p].attributes[POSITION.name]]
end

-- An attribute of every vertex: per group, the accessor of the group's
-- first primitive that has it (others of the group must hold the same
-- bytes); nil when a group lacks it. name: the attribute's, and types
-- and ctypes what its accessors may be (expect's); or name alone, an
-- attribute of rsxmesh.gltf_layout, which gives all three.
function Match:column(name, types, ctypes)
  if type(name) == "table" then
    name, types, ctypes = name.name, name.types, name.ctypes
  end
  local known = self.columns[name]
  if known ~= nil then return known or nil end
  local parts = {}
  for _, grp in ipairs(self.groups) do
    local found
    for _, p in ipairs(grp.prims) do
      local i = self.prims[p].attributes[name]
      if i ~= nil then
        local r = self:accessor(i, p, name)
        expect(r, types, ctypes)
        if r.count ~= grp.count then
          fail("%s: count %d where POSITION has %d", r.label, r.count,
            grp.count)
        end
        if found and found.bytes ~= r.bytes then
          fail("%s differs from primitive %d's for the same vertices",
            r.label, found.p)
        end
        if not found then
          found = r
          found.p = p
        end
      end
    end
    if not found then
      self.columns[name] = false
      return nil
    end
    parts[#parts + 1] = found
  end
  self.columns[name] = parts
  return parts
end

-- Is the glTF's column what gltf-export wrote for the base?
function Match:as_exported(parts, name)
  return self.same_layout and self.e_attrs[name] ~= nil
    and column_bytes(parts) == self.E.bytes(self.e_attrs[name])
end

-- UVs within this much are one: an editor's V flipped there and back may
-- lose the last bits, while the two sides of a seam lie far apart.
local UV_TOLERANCE = 1e-4
-- Normals agree when their directions' dot product is at least this
-- (Blender re-derives normals within 0.04; a hard edge's differ more).
local NORMAL_AGREE = 0.99

-- The position key of each base vertex (1-based) and of each glTF vertex
-- (1-based, POSITION before any node transform).
function Match:position_keys()
  if self.bkeys then return self.bkeys, self.gkeys end
  local pos = assert(self.m:attribute("position")):pack()
  local bkeys, gkeys = {}, {}
  for v = 1, self.m.vertex_count do
    bkeys[v] = position_key(pos, 12 * v - 11)
  end
  for _, grp in ipairs(self.groups) do
    for li = 0, grp.count - 1 do
      gkeys[grp.first + li + 1] = position_key(grp.position.bytes,
        12 * li + 1)
    end
  end
  self.bkeys, self.gkeys = bkeys, gkeys
  return bkeys, gkeys
end

-- The UVs a part's corners carry: per logical UV its submesh routes (up
-- to the first absent one, as gltf-export writes them) that the glTF
-- gives, { set =, g = (the glTF's, flat, by vertex of the group), b =
-- (the base's stored set, flat, by base vertex) }.
function Match:part_uvs(part)
  if part.uvs then return part.uvs end
  local list = {}
  for logical = 0, 3 do
    local set = part.sub.s:uv_set(logical)
    local name = TEXCOORD_N[logical]
    local i = part.prim.attributes[name]
    if set == nil or i == nil then break end
    local b = self.base_uvs[set]
    if b == nil then
      local acc = self.m:attribute("uv" .. set)
      b = acc and acc:range() or false
      self.base_uvs[set] = b
    end
    if b then
      list[#list + 1] = { set = set, b = b, g = values(self:uv_accessor({
        p = part.p, i = i, name = name })) }
    end
  end
  part.uvs = list
  return list
end

-- A UV value as a key in the type the base stores it in: float32 bits,
-- or the half's (SF) when the base holds halves, so that a half that
-- went out as a float and came back as one, or as the float nearest it,
-- is the same. NaN is one key whatever its payload.
local function uv_key(x, y, half)
  if x ~= x then x = 0 / 0 end
  if y ~= y then y = 0 / 0 end
  if half then return string.pack("<I2I2", rsxmesh.to_half(x),
    rsxmesh.to_half(y)) end
  return string.pack("<ff", x + 0.0, y + 0.0)
end

-- Do glTF vertex li of a part's group and base vertex bv (both 0-based)
-- carry the same UVs (the set skip aside)?
local function uvs_agree(uvs, li, bv, skip)
  for _, u in ipairs(uvs) do
    if u.set ~= skip then
      local du = u.g[2 * li + 1] - u.b[2 * bv + 1]
      local dv = u.g[2 * li + 2] - u.b[2 * bv + 2]
      if not (math.abs(du) <= UV_TOLERANCE
          and math.abs(dv) <= UV_TOLERANCE) then
        return false
      end
    end
  end
  return true
end

-- The glTF's triangles of a part aligned with its submesh's: the base's
-- in their order with some left out (deleted) and some added, as an
-- editor keeps them, the whole perhaps moved, turned or scaled (a
-- transform applied). In turn:
-- 1. a glTF triangle matches the next base triangle whose corners agree
--    (positions and UVs, its corners rotated alike);
-- 2. between two matches, as many glTF triangles as base ones pair in
--    order when at least two corners agree, by UVs (or by position where
--    the submesh has no UV): a vertex moved in edit mode, or every vertex
--    moved by a transform, keeps its base vertex. A part with no match
--    at all and as many triangles as its submesh, and no UV to compare,
--    pairs in order: the topology is all that is left;
-- 3. a glTF triangle still alone takes a base triangle still alone whose
--    corners carry its UVs, from any corner.
-- Each corner of a pair gives its glTF vertex (1-based) its base vertex
-- (0-based) in map, the first pair to name it winning; seen[v] is a part
-- that uses vertex v.
function Match:align(part, map, seen)
  local tri, n = part.sub.s:triangles()
  local idx = self:part_indices(part)
  local first = self:group(part.p).first
  local bkeys, gkeys = self:position_keys()
  local uvs = self:part_uvs(part)
  for c = 1, #idx do seen[first + idx[c] + 1] = seen[first + idx[c] + 1]
    or part end
  if not tri then return end
  -- does glTF corner gc agree with base corner bc (1-based in idx, tri)?
  local function agree(gc, bc)
    return gkeys[first + idx[gc] + 1] == bkeys[tri[bc]]
      and uvs_agree(uvs, idx[gc], tri[bc] - 1)
  end
  -- the same, by UVs alone where there are any (a transform moved them)
  local function loose(gc, bc)
    if #uvs == 0 then return agree(gc, bc) end
    return uvs_agree(uvs, idx[gc], tri[bc] - 1)
  end
  -- how many corners of glTF triangle i agree with base triangle k's
  -- (0-based) when glTF corner c stands for base corner (c + r) % 3
  local function corners(i, k, r, how)
    local count = 0
    for c = 0, 2 do
      if how(3 * i + c + 1, 3 * k + (c + r) % 3 + 1) then
        count = count + 1
      end
    end
    return count
  end
  local by_key, rot = {}, {}
  for k = 0, n - 1 do
    local x, y, z, r = least_rotation(bkeys[tri[3 * k + 1]],
      bkeys[tri[3 * k + 2]], bkeys[tri[3 * k + 3]])
    local key = x .. y .. z
    local list = by_key[key]
    if not list then
      list = { at = 1 }
      by_key[key] = list
    end
    list[#list + 1], rot[k] = k, r
  end
  -- exact matches, in order: gi[j] the glTF triangle of base triangle
  -- bk[j], with rotation rr[j]
  local gi, bk, rr, next_base = {}, {}, {}, 0
  local nt = #idx // 3
  for i = 0, nt - 1 do
    local x, y, z, r = least_rotation(gkeys[first + idx[3 * i + 1] + 1],
      gkeys[first + idx[3 * i + 2] + 1], gkeys[first + idx[3 * i + 3] + 1])
    local list = by_key[x .. y .. z]
    if list then
      while list[list.at] and list[list.at] < next_base do
        list.at = list.at + 1
      end
      for q = list.at, #list do
        local k = list[q]
        -- glTF corner c is its rotated corner c - r, base corner
        -- (c - r + rot[k]) % 3
        local shift = (rot[k] - r) % 3
        if corners(i, k, shift, agree) == 3 then
          gi[#gi + 1], bk[#bk + 1], rr[#rr + 1] = i, k, shift
          next_base = k + 1
          break
        end
      end
    end
  end
  local paired, used = {}, {}
  local function pair(i, k, r)
    paired[i], used[k] = true, true
    for c = 0, 2 do
      local gv = first + idx[3 * i + c + 1] + 1
      map[gv] = map[gv] or tri[3 * k + (c + r) % 3 + 1] - 1
    end
  end
  for j = 1, #gi do pair(gi[j], bk[j], rr[j]) end
  -- the gaps between matches (and before the first, after the last)
  local blind = #gi == 0 and nt == n and #uvs == 0
  for j = 1, #gi + 1 do
    local i0, k0 = gi[j - 1] or -1, bk[j - 1] or -1
    local i1, k1 = gi[j] or nt, bk[j] or n
    if i1 - i0 == k1 - k0 then
      for d = 1, i1 - i0 - 1 do
        local best, shift = 0, 0
        for r = 0, 2 do
          local count = corners(i0 + d, k0 + d, r, loose)
          if count > best then best, shift = count, r end
        end
        if best >= 2 or blind then pair(i0 + d, k0 + d, shift) end
      end
    end
  end
  -- the triangles left, by their UVs
  if #uvs == 0 then return end
  local function uv_corner(list, v)
    local key = {}
    for u, l in ipairs(list) do
      key[u] = uv_key(l[2 * v + 1], l[2 * v + 2])
    end
    return table.concat(key)
  end
  local gl, bl = {}, {}
  for u, set in ipairs(uvs) do gl[u], bl[u] = set.g, set.b end
  local alone = {}
  for k = 0, n - 1 do
    if not used[k] then
      local x, y, z, r = least_rotation(uv_corner(bl, tri[3 * k + 1] - 1),
        uv_corner(bl, tri[3 * k + 2] - 1), uv_corner(bl, tri[3 * k + 3] - 1))
      local key = x .. y .. z
      alone[key] = alone[key] or {}
      table.insert(alone[key], { k = k, r = r })
    end
  end
  for i = 0, nt - 1 do
    if not paired[i] then
      local x, y, z, r = least_rotation(uv_corner(gl, idx[3 * i + 1]),
        uv_corner(gl, idx[3 * i + 2]), uv_corner(gl, idx[3 * i + 3]))
      local list = alone[x .. y .. z]
      local found = list and table.remove(list, 1)
      if found then pair(i, found.k, (found.r - r) % 3) end
    end
  end
end

-- The base vertices each glTF vertex (1-based) stands for, for vertices
-- that are not the base's: map[v], one (0-based) from the triangles'
-- alignment (Match:align), else near[v], the list of base vertices at its
-- position (POSITION before any node transform), nil where none is;
-- part[v], a part using vertex v.
function Match:base_vertices()
  if self.base_of then return self.base_of end
  local map, seen = {}, {}
  for _, part in ipairs(self.parts) do self:align(part, map, seen) end
  local bkeys, gkeys = self:position_keys()
  local at = {}
  for v = 1, self.m.vertex_count do
    local list = at[bkeys[v]]
    if not list then
      list = {}
      at[bkeys[v]] = list
    end
    list[#list + 1] = v - 1
  end
  local near = {}
  for v = 1, self.nv do
    if not map[v] then near[v] = at[gkeys[v]] end
  end
  self.base_of = { map = map, near = near, part = seen,
    beside = self:beside(map, near) }
  return self.base_of
end

-- For each new glTF vertex (1-based) with no base vertex of its own
-- (none in map, none at its position in near): the base vertex of a
-- corner beside it, of a triangle it or a vertex at its position is a
-- corner of (an editor's new vertex: a loop cut, a subdivision), found
-- by spreading out from the vertices that have one, nearest first.
function Match:beside(map, near)
  local _, gkeys = self:position_keys()
  local beside, lonely = {}, {}
  local function own(v)
    return map[v] or (near[v] and near[v][1]) or beside[v]
  end
  for v = 1, self.nv do
    if not own(v) then lonely[#lonely + 1] = v end
  end
  if #lonely == 0 then return beside end
  local tris, at_key = {}, {}
  for _, part in ipairs(self.parts) do
    local idx, first = self:part_indices(part), self:group(part.p).first
    for c = 1, #idx do tris[#tris + 1] = first + idx[c] + 1 end
  end
  for v = 1, self.nv do
    local list = at_key[gkeys[v]]
    if not list then
      list = {}
      at_key[gkeys[v]] = list
    end
    list[#list + 1] = v
  end
  -- rounds: each gives the vertices next to those that had one before it
  while true do
    local found = {}
    for c = 1, #tris, 3 do
      for k = 0, 2 do
        local v = tris[c + k]
        if not own(v) and not found[v] then
          for j = 1, 2 do
            local b = own(tris[c + (k + j) % 3])
            if b then
              found[v] = b
              break
            end
          end
        end
      end
    end
    for _, v in ipairs(lonely) do
      if not own(v) and not found[v] then
        for _, w in ipairs(at_key[gkeys[v]]) do
          if own(w) then
            found[v] = own(w)
            break
          end
        end
      end
    end
    if next(found) == nil then break end
    for v, b in pairs(found) do beside[v] = b end
  end
  return beside
end

-- Does glTF vertex v (1-based) carry the normal of base vertex b
-- (0-based), where the glTF and the base have normals?
function Match:normal_agrees(v, b)
  if not self.m:has("normal") then return true end
  if self.agree_normals == nil then
    local N = self:column(NORMAL)
    local acc = self.m:attribute("normal")
    self.agree_normals = N and acc and { g = column_values(N),
      b = acc:range() } or false
  end
  local an = self.agree_normals
  if not an then return true end
  local gx, gy, gz = an.g[3 * v - 2], an.g[3 * v - 1], an.g[3 * v]
  local bx, by, bz = an.b[3 * b + 1], an.b[3 * b + 2], an.b[3 * b + 3]
  local d = gx * bx + gy * by + gz * bz
  local l = math.sqrt((gx * gx + gy * gy + gz * gz)
    * (bx * bx + by * by + bz * bz))
  return d >= NORMAL_AGREE * l
end

-- Does glTF vertex v (1-based) carry the UVs and the normal of base
-- vertex b (0-based), leaving out the kind being kept?
function Match:vertex_agrees(v, b, kind)
  local part = self:base_vertices().part[v]
  if part then
    local skip = tonumber(kind:match("^uv(%d)$"))
    if not uvs_agree(self:part_uvs(part), v - 1 - self:group(part.p).first,
        b, skip) then
      return false
    end
  end
  return kind == "normal" or self:normal_agrees(v, b)
end

-- A buffer read whole for a mesh's accessors is at most this many times
-- their bytes (gltf-export lays them out one after the other, 4-aligned).
local VERBATIM_SPREAD = 2

-- Is glTF mesh g (of source src, matching.source) what gltf-export
-- writes for the base mesh, accessor for
-- accessor: the same primitives, materials and attributes, each accessor
-- of the same type, count and bytes (TANGENT aside, which an unchanged
-- mesh never reads), no node transform? Then the mesh is the base's,
-- with no step to take: the common case, an export imported back as it
-- was, checked with one read of the buffer for all the mesh's accessors
-- (a read each cost more than the rest). Any other mesh, false: the
-- steps decide, and say what is wrong.
local function verbatim(src)
  local json, E = src.file.json, src.E
  local prims, eprims = src.prims, E.primitives
  local accessors, views = json.accessors, json.bufferViews
  if src.world or #prims ~= #eprims or type(accessors) ~= "table"
      or type(views) ~= "table" then
    return false
  end
  -- each glTF accessor's view and the export's accessor it must equal,
  -- once: the primitives share the mesh's (the export's do)
  local list, buf, lo, hi, total = {}, nil, math.huge, 0, 0
  local equal = {}
  local function add(gi, ei)
    gi = int(gi)
    if not gi or equal[gi] then return equal[gi] == ei end
    equal[gi] = ei
    local a = accessors[gi + 1]
    local ea = E.accessors[ei + 1]
    if type(a) ~= "table" or a.sparse ~= nil or a.type ~= ea.type
        or a.componentType ~= ea.componentType or a.count ~= ea.count
        or (a.normalized == true) ~= (ea.normalized == true)
        or (a.byteOffset or 0) ~= 0 then
      return false
    end
    local v = int(a.bufferView) and views[a.bufferView + 1]
    if type(v) ~= "table" or v.byteStride ~= nil then return false end
    local b = int(v.buffer) and src.file.buffers[v.buffer + 1]
    local off, len = int(v.byteOffset or 0), int(v.byteLength)
    if not b or (buf and b ~= buf) or not off or not len or off < 0
        or len < 0 or off > reading.buffer_length(b) - len then
      return false
    end
    buf, lo, hi, total = b, math.min(lo, off), math.max(hi, off + len),
      total + len
    list[#list + 1] = { off = off, len = len, e = ei }
    return true
  end
  for p, prim in ipairs(prims) do
    local ep, sub = eprims[p], src.subs[p]
    if type(prim) ~= "table" or type(prim.attributes) ~= "table"
        or (prim.mode or TRIANGLES) ~= TRIANGLES or prim.indices == nil
        or material_name(src.file, prim.material)
          ~= (sub.s.material and sub.s.material.name) then
      return false
    end
    for name in pairs(ep.attributes) do
      if prim.attributes[name] == nil then return false end
    end
    for name, gi in pairs(prim.attributes) do
      local ei = ep.attributes[name]
      if ei == nil or (name ~= TANGENT.name and not add(gi, ei)) then
        return false
      end
    end
    if not add(prim.indices, ep.indices) then return false end
  end
  if not buf or hi - lo > VERBATIM_SPREAD * total + 4096 then
    return false
  end
  local bytes, at = reading.piece(buf, lo, hi - lo)
  at = at - lo
  for _, x in ipairs(list) do
    if bytes:sub(at + x.off + 1, at + x.off + x.len) ~= E.bytes(x.e) then
      return false
    end
  end
  return true
end

-- The glTF's indices (idxs, Match:part_indices's per part), positions and
-- normals as gltf-export wrote them: every vertex is then the base's by
-- its values, without a look at each (an unchanged mesh, the common case).
function Match:exported_as_is(idxs, gpos)
  for k = 1, #self.parts do
    if idxs[k] ~= false then return false end
  end
  if gpos ~= self.E.bytes(self.e_attrs[POSITION.name]) then return false end
  if not self.m:has("normal") then return true end
  local N = self:column(NORMAL)
  local e = self.e_attrs[NORMAL.name]
  return N == nil or (e ~= nil and column_bytes(N) == self.E.bytes(e))
end

-- Is each glTF vertex the base vertex of its number, as same_layout
-- takes it? Equal counts do not say so: an editor may renumber the
-- vertices, and the attributes it dropped would then be kept from other
-- vertices. A vertex is the base's when a glTF triangle that uses it is
-- one of its submesh's, the same numbers in the same order (its values
-- edited in place: moved, other UVs or normal), or else when its
-- position, UVs and normal are those of the base vertex. Any other goes
-- through the triangles' alignment (Match:base_vertices).
function Match:numbered_as_base()
  if #self.groups ~= 1 or self.nv ~= self.m.vertex_count
      or #self.prims ~= #self.subs then
    return false
  end
  local gpos = self.groups[1].position.bytes
  local idxs = self:exported_indices()
  if self:exported_as_is(idxs, gpos) then return true end
  local pos = assert(self.m:attribute("position")):pack()
  local nv, placed, used = self.nv, {}, {}
  for k, part in ipairs(self.parts) do
    local tri, n = part.sub.s:triangles()
    n = tri and n or 0
    local idx = idxs[k]
    if idx == false then -- the export's: the submesh's triangles
      for c = 1, 3 * n do placed[tri[c]] = true end
    else
      local own = {}
      for c = 1, 3 * n, 3 do
        own[(tri[c] * nv + tri[c + 1]) * nv + tri[c + 2]] = true
      end
      for c = 1, #idx, 3 do
        local a, b, d = idx[c] + 1, idx[c + 1] + 1, idx[c + 2] + 1
        if own[(a * nv + b) * nv + d] then
          placed[a], placed[b], placed[d] = true, true, true
        end
      end
      for _, li in ipairs(idx) do
        used[li + 1] = used[li + 1] or part
      end
    end
  end
  -- the others must be the base vertex by their values
  for v = 1, nv do
    if not placed[v] then
      local part = used[v]
      -- a vertex no triangle uses has no UVs to compare
      if position_key(pos, 12 * v - 11) ~= position_key(gpos, 12 * v - 11)
          or (part and not uvs_agree(self:part_uvs(part), v - 1, v - 1))
          or not self:normal_agrees(v, v - 1) then
        return false
      end
    end
  end
  return true
end

-- The 0-based indices of glTF primitive p, checked (read once). With
-- exported (the bytes gltf-export wrote for it), false when they are
-- those bytes: they need no reading.
function Match:primitive_indices(p, exported)
  if self.indices_of[p] then return self.indices_of[p] end
  if exported and self.exported_of[p] == exported then return false end
  local prim, grp = self.prims[p], self:group(p)
  local idx
  if prim.indices == nil then
    if grp.count % 3 ~= 0 then
      fail("%s: primitive %d: %d vertices without indices are not whole"
        .. " triangles", self.where, p, grp.count)
    end
    idx = {}
    for i = 1, grp.count do idx[i] = i - 1 end
  else
    local r = self:accessor(prim.indices, p, INDICES.name)
    expect(r, INDICES.types, INDICES.ctypes)
    if r.count % 3 ~= 0 then
      fail("%s: count %d is not a whole number of triangles", r.label,
        r.count)
    end
    if exported and r.ctype == INDICES.componentType
        and r.bytes == exported then
      self.exported_of[p] = exported
      return false
    end
    idx = values(r)
    for i, v in ipairs(idx) do
      if v >= grp.count then
        fail("%s: index %d is %d, not below the %d vertices of POSITION",
          r.label, i - 1, v, grp.count)
      end
    end
  end
  self.indices_of[p] = idx
  return idx
end

-- The indices of a part: its primitive's, or the triangles split to it.
function Match:part_indices(part, exported)
  local idx = self:primitive_indices(part.p, exported)
  if not idx or not part.tris then return idx end
  local out = {}
  for _, i in ipairs(part.tris) do
    out[#out + 1], out[#out + 2], out[#out + 3] =
      idx[3 * i + 1], idx[3 * i + 2], idx[3 * i + 3]
  end
  return out
end

-- Each part's indices (Match:part_indices) given the export's, false where
-- they are its bytes: worked out once, for numbered_as_base and
-- Match:triangles.
function Match:exported_indices()
  if not self.idxs then
    local idxs = {}
    for k, part in ipairs(self.parts) do
      idxs[k] = self:part_indices(part, self.E.bytes(part.e.indices))
    end
    self.idxs = idxs
  end
  return self.idxs
end

-- little-endian u32 bytes of a table of integers, as gltf-export writes
local function u32_bytes(idx)
  local u = {}
  for i = 1, #idx, CHUNK do
    local j = math.min(i + CHUNK - 1, #idx)
    u[#u + 1] = string.pack("<" .. ("I4"):rep(j - i + 1),
      table.unpack(idx, i, j))
  end
  return table.concat(u)
end

-- A list of triangles (flat, 0-based) as a set: each rotated to start at
-- its least corner, the winding kept, then sorted.
local function triangle_set(idx)
  local keys = {}
  for i = 1, #idx, 3 do
    keys[#keys + 1] = string.pack(">I4I4I4",
      least_rotation(idx[i], idx[i + 1], idx[i + 2]))
  end
  table.sort(keys)
  return table.concat(keys)
end

-- The integers of little-endian u32 bytes (the export's indices).
local function u32_values(bytes)
  return rsxmesh.gltf_values(bytes, INDICES.componentType)
end

-- Each submesh's triangles the export's as a set (the same triangles,
-- the same winding, in any order and from any corner) keep the base's
-- index buffer (strips, restarts); others make a triangle list of the
-- glTF's triangles, u16 when the vertices allow: nil when the base's
-- index buffer stays, else { index_size =, indices =, primitive =,
-- submeshes = } (m:with's fields) and the count of triangles.
function Match:new_triangles()
  local same = self.same_layout
  -- same_layout: numbered_as_base has worked them out
  local idxs = same and self:exported_indices()
  for k, part in ipairs(self.parts) do
    if not same then break end
    local exported = self.E.bytes(part.e.indices)
    local idx = idxs[k]
    same = idx == false or u32_bytes(idx) == exported
      or (#idx == #exported // 4
        and triangle_set(idx) == triangle_set(u32_values(exported)))
  end
  if same then return nil end
  local all, ranges = {}, {}
  for _, part in ipairs(self.parts) do
    local idx = self:part_indices(part)
    local first = self:group(part.p).first
    ranges[part.sub.index] = { first_index = #all, index_count = #idx }
    for i = 1, #idx do all[#all + 1] = idx[i] + first + 1 end
  end
  local list = {}
  for i = 1, self.m.submesh_count do
    -- a submesh without triangles had no primitive
    list[i] = ranges[i] or { first_index = 0, index_count = 0 }
  end
  local size = self.nv <= 0xFFFF and 2 or 4
  return { index_size = size, indices = rsxmesh.indices(size, all),
    primitive = "triangles", submeshes = list }, #all // 3
end

-- Are the mesh's positions and logical UVs the base's, corner by corner,
-- exactly (float32; a half as a half), with no node transform but the
-- identity? The triangles may come in any order, from any corner (the
-- winding kept), their vertices split or numbered anew: an editor does
-- all that to a mesh it was never asked to change, and re-derives its
-- normals, tangents and colours too. true, nil and, with trusted
-- colours (Match:trusted_colours), the glTF's COLOR_0 of each base
-- vertex (Match:corner_colours); or false and why not.
function Match:untouched()
  if self.world then return false, "the node's transform" end
  local pos = assert(self.m:attribute("position")):pack()
  local painted
  for _, part in ipairs(self.parts) do
    local s = part.sub.s
    local tri, n = s:triangles()
    n = tri and n or 0
    local idx = self:part_indices(part)
    if #idx ~= 3 * n then
      return false, string.format("submesh %d: %d triangles where the"
        .. " base has %d", part.sub.index, #idx // 3, n)
    end
    -- the logical UVs the submesh routes, as gltf-export writes them
    local uvs = {}
    for logical = 0, 3 do
      local set = s:uv_set(logical)
      if set == nil then break end
      local acc = self.m:attribute("uv" .. set)
      if acc then
        local name = TEXCOORD_N[logical]
        local i = part.prim.attributes[name]
        if i == nil then
          return false, string.format("submesh %d: no %s",
            part.sub.index, name)
        end
        uvs[#uvs + 1] = { b = self:base_range("uv" .. set),
          half = self.m.format:info("uv" .. set).type == "SF",
          g = values(self:uv_accessor({ p = part.p, i = i,
            name = name })) }
      end
    end
    local gpos = self:group(part.p).position.bytes
    local function corner(bytes, at, v, which)
      local key = position_key(bytes, at)
      for _, u in ipairs(uvs) do
        local list = u[which]
        key = key .. uv_key(list[2 * v + 1], list[2 * v + 2], u.half)
      end
      return key
    end
    -- each triangle's key; with colours to read, { key, its number, its
    -- rotation to the key } (a sort by a Lua function is the slower)
    local paint = part.prim.attributes[COLOR_0.name] ~= nil
      and self:trusted_colours()
    local base, mine = {}, {}
    for k = 0, n - 1 do
      local a, b, c = tri[3 * k + 1] - 1, tri[3 * k + 2] - 1,
        tri[3 * k + 3] - 1
      local x, y, z, r = least_rotation(corner(pos, 12 * a + 1, a, "b"),
        corner(pos, 12 * b + 1, b, "b"), corner(pos, 12 * c + 1, c, "b"))
      base[k + 1] = paint and { x .. y .. z, k, r } or x .. y .. z
      a, b, c = idx[3 * k + 1], idx[3 * k + 2], idx[3 * k + 3]
      x, y, z, r = least_rotation(corner(gpos, 12 * a + 1, a, "g"),
        corner(gpos, 12 * b + 1, b, "g"), corner(gpos, 12 * c + 1, c, "g"))
      mine[k + 1] = paint and { x .. y .. z, k, r } or x .. y .. z
    end
    table.sort(base, paint and in_key_order or nil)
    table.sort(mine, paint and in_key_order or nil)
    for k = 1, n do
      if (paint and base[k][1] or base[k])
          ~= (paint and mine[k][1] or mine[k]) then
        return false, string.format("submesh %d: the positions or UVs of"
          .. " its triangles", part.sub.index)
      end
    end
    if paint then
      painted = painted or {}
      self:corner_colours(part, tri, idx, base, mine, painted)
    end
  end
  return true, nil, painted
end

-- The add-on's colours (blender/rsxmesh_blender): it exports the colours
-- it imported as Blender's point colours, which come back as they went
-- (a float per component), and marks its meshes (extras.rsxmesh_bundle).
-- Blender's own importer makes them corner colours, which its 3.4
-- exporter scrambles: those are not read.
function Match:trusted_colours()
  local extras = self.g.extras
  return self.m:has("colour") and type(extras) == "table"
    and extras.rsxmesh_bundle ~= nil
end

-- Of an untouched part with trusted colours (Match:untouched: base and
-- mine, its triangles and the glTF's in the one order of their keys),
-- the glTF's COLOR_0 of each base vertex: that of the first glTF corner
-- standing for it, in painted[v] (0-based base vertex).
function Match:corner_colours(part, tri, idx, base, mine, painted)
  local r = self:accessor(part.prim.attributes[COLOR_0.name], part.p,
    COLOR_0.name)
  expect(r, COLOR_0.types, COLOR_0.ctypes)
  if r.count ~= self:group(part.p).count then
    fail("%s: count %d where POSITION has %d", r.label, r.count,
      self:group(part.p).count)
  end
  local C, n = values(r), r.components
  for j = 1, #base do
    local kb, rb, kg, rg = base[j][2], base[j][3], mine[j][2], mine[j][3]
    for c = 0, 2 do
      local bv = tri[3 * kb + (c + rb) % 3 + 1] - 1
      local li = idx[3 * kg + (c + rg) % 3 + 1]
      if not painted[bv] then
        painted[bv] = { C[n * li + 1], C[n * li + 2], C[n * li + 3],
          n == 4 and C[n * li + 4] or 1 }
      end
    end
  end
end

-- Does the glTF hold the base's vertices, number for number, and the
-- export's very index bytes? Then no editor rebuilt the mesh (Blender
-- splits vertices and writes its own indices): its values were edited in
-- place, by a script, and each attribute is compared on its own.
function Match:as_written()
  if not self.same_layout then return false end
  for _, idx in ipairs(self:exported_indices()) do
    if idx ~= false then return false end
  end
  return true
end

-- What gltf-export writes for mesh m, in memory: the primitives, the
-- submeshes they came from ({ s =, index = }, in order: those with
-- triangles), and bytes(i) of accessor i. nil and the export's first
-- error when it writes nothing.
local function exported(m)
  local doc = gltf.new{}
  doc.material = function() return nil end -- materials play no part
  -- each view kept in memory, in the order of the views, and made bytes
  -- only when asked for: some are never compared (TANGENT)
  local kept = {}
  doc.view = function(_, bytes)
    kept[#kept + 1] = bytes
    return #kept - 1
  end
  -- the submesh of each primitive, as the export counted its triangles
  local subs = {}
  local primitive = doc.primitive
  doc.primitive = function(self, p, ...)
    subs[#subs + 1] = { s = p.s, index = p.index }
    return primitive(self, p, ...)
  end
  local r = doc:add_mesh(m)
  if not r.written then return nil, r.errors[1] or "no triangles" end
  return {
    primitives = doc.meshes[1].primitives,
    accessors = doc.accessors,
    subs = subs,
    bytes = function(i)
      if i == nil then return nil end
      local v = doc.accessors[i + 1].bufferView + 1
      kept[v] = gltf.view_bytes(kept[v])
      return kept[v]
    end,
  }
end

-- The accessor i of primitive p, named as messages name it.
function Match:accessor(i, p, name)
  return reading.accessor(self.file, i, self.read, self.where, p, name)
end

-- The accessor of a UV source ({ p =, i =, name = }), checked against its
-- primitive's vertices.
function Match:uv_accessor(src)
  local grp = self:group(src.p)
  local r = self:accessor(src.i, src.p, src.name)
  local a = UV_SOURCE[src.name]
  expect(r, a.types, a.ctypes)
  if r.count ~= grp.count then
    fail("%s: count %d where POSITION has %d", r.label, r.count, grp.count)
  end
  return r
end

-- The decoded values of a base attribute (acc:range()), read once.
function Match:base_range(kind)
  local r = self.ranges[kind]
  if not r then
    r = assert(self.m:attribute(kind)):range()
    self.ranges[kind] = r
  end
  return r
end

-- A note of the matching's for the report (list: "derived").
function Match:note(list, text)
  local l = self[list]
  l[#l + 1] = text
end

-- glTF mesh g of file (import.read's) and base mesh m, to be matched;
-- world is the node's matrix, nil for the identity: { file =, g =, m =,
-- world =, label =, where = (messages' "file: mesh"), E = (what
-- gltf-export writes for m: exported), e_attrs = (its attributes), subs =
-- (E.subs), prims = (g's primitives), read = (the accessors read, by
-- index) }. Raises when m cannot be exported.
function matching.source(file, g, m, world)
  local label = m.label -- as the core's messages name it
  local where = file.path .. ": " .. label
  local E, why = exported(m)
  if not E then
    fail("%s: the base mesh cannot be exported, so not compared: %s",
      where, tostring(why))
  end
  return { file = file, g = g, m = m, world = world, label = label,
    where = where, E = E, e_attrs = E.primitives[1].attributes,
    subs = E.subs,
    prims = type(g.primitives) == "table" and g.primitives or {},
    -- a mesh's accessors read once for it: its primitives share them
    -- (gltf-export's do), and no other mesh uses them (gltf-export gives
    -- each its own), so they go with the mesh
    read = {} }
end

matching.verbatim = verbatim

-- The match of a source (matching.source): its fields and, worked out
-- here, groups (a vertex group per POSITION accessor: { first =, count =,
-- prims =, position = }), group_of (by POSITION accessor), nv (the glTF's
-- vertices), parts (Match:primitives), same_layout (every glTF vertex is
-- the base vertex of its number) and derived (the report's notes of
-- what was worked out). Raises a Failure naming what does not match.
function matching.match(src)
  local self = setmetatable({ file = src.file, g = src.g, m = src.m,
    world = src.world, label = src.label, where = src.where, E = src.E,
    e_attrs = src.e_attrs, subs = src.subs, prims = src.prims,
    read = src.read, derived = {},
    -- the answers' caches
    columns = {}, ranges = {}, base_uvs = {}, indices_of = {},
    exported_of = {},
    -- set by Match:primitives, named here so that the table is made at
    -- its size at once
    groups = false, group_of = false, nv = 0, parts = false,
    same_layout = false }, Match)
  self:primitives()
  return self
end

return matching
