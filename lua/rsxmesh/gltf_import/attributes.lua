-- rsxmesh/gltf_import/attributes.lua - the glTF import's attributes:
-- each kind the base mesh stores, taken from the glTF where it differs
-- from the export (and encoded again by m:with), or filled from the base
-- vertex each glTF vertex stands for where the glTF lacks it.
--
--   local built = attributes.build(match)  -- match: matching.match's
--   -- built.t: m:with's argument (what differs from the base)
--   -- built.changes: { kind =, text = } encoded again (kind nil: the
--   --   triangles), to report when the bytes then differ (differs)
--   -- built.kept, built.derived: the report's notes
--
-- Its steps are methods of a Job of its own, made for each call, which
-- holds what they make (t, the notes, the fitted transform and the
-- frames derived from TANGENT), and reads the rest of the match
-- (self.m, self:column(...), ...: the fields and questions of matching's
-- Match listed at job_of).

local reading = require "rsxmesh.gltf_import.reading"
local transforms = require "rsxmesh.gltf_import.transforms"

local layout = require "rsxmesh.gltf_layout"
local rsxmesh = require "rsxmesh"

local fail, values = reading.fail, reading.values
local column_bytes, column_values = reading.column_bytes,
  reading.column_values
local CTYPE, COMPONENTS = reading.CTYPE, reading.COMPONENTS
local ONLY_FLOAT, UV_CTYPES = reading.ONLY_FLOAT, reading.UV_CTYPES
local VEC2, VEC3, VEC4 = reading.VEC2, reading.VEC3, reading.VEC4
-- the attributes as gltf-export writes them (rsxmesh.gltf_layout)
local POSITION, NORMAL, COLOR_0 = layout.POSITION, layout.NORMAL,
  layout.COLOR_0
local TEXCOORD_N, UV_SET_N = layout.TEXCOORD_N, layout.UV_SET_N
local transform, solve3 = transforms.transform, transforms.solve3

local attributes = {}

local Job = {}

-- Did gltf-export write stored set `set` (as a TEXCOORD_n or _UV_SET_n)?
local function exported_set(E, subs, set)
  for p, prim in ipairs(E.primitives) do
    if prim.attributes[UV_SET_N[set]] then return true end
    for logical = 0, 3 do
      if subs[p].s:uv_set(logical) == set
          and prim.attributes[TEXCOORD_N[logical]] then
        return true
      end
    end
  end
  return false
end

-- The base vertex that new glTF vertex v takes kind from, among those at
-- its position (near): any when they hold the same bytes of it, else
-- those whose UVs and normal agree with v's when they hold the same;
-- else the first that agrees (or the first) and false: a guess.
function Job:nearest(v, near, kind, raw, size)
  local function same(list)
    local b0 = list[1] * size
    for i = 2, #list do
      if raw:sub(list[i] * size + 1, list[i] * size + size)
          ~= raw:sub(b0 + 1, b0 + size) then
        return false
      end
    end
    return true
  end
  if same(near) then return near[1], true end
  local agreeing = {}
  for _, b in ipairs(near) do
    if self:vertex_agrees(v, b, kind) then
      agreeing[#agreeing + 1] = b
    end
  end
  if #agreeing > 0 and same(agreeing) then return agreeing[1], true end
  return agreeing[1] or near[1], false
end

-- The base's stored bytes of kind for each glTF vertex: as they are when
-- the vertices are the base's, else from each one's base vertex; and how
-- many vertices took them from a base vertex nothing singled out. spare:
-- a set of vertices the caller fills, which get no bytes and no choice.
function Job:from_base(kind, what, spare)
  local m = self.m
  local raw = assert(m:attribute(kind)):raw()
  if self.same_layout then return raw, 0, 0 end
  local size = #raw // m.vertex_count
  local bv = self:base_vertices()
  local out, guessed, besides, choice = {}, 0, 0, {}
  for v = 1, self.nv do
    local mine = not (spare and spare[v])
    local b = mine and bv.map[v]
    if mine and not b and bv.near[v] then
      local sure
      b, sure = self:nearest(v, bv.near[v], kind, raw, size)
      if not sure then guessed = guessed + 1 end
    end
    if mine and not b and bv.beside[v] then
      b, besides = bv.beside[v], besides + 1
    end
    if mine and not b then
      local gpos = column_bytes(self:column(POSITION))
      local x, y, z = string.unpack("<fff", gpos, 12 * v - 11)
      -- a new vertex (an extrusion) has none (the tangent vectors are
      -- made instead: Job:lonely_frames)
      fail("%s: vertex %d: no %s in the glTF, and no vertex of the base"
        .. " lies at its position (%s, %s, %s) or beside it", self.where,
        v, what, rsxmesh.fmt(x), rsxmesh.fmt(y), rsxmesh.fmt(z))
    end
    out[v], choice[v] = b and raw:sub(b * size + 1, b * size + size) or "",
      b or nil
  end
  return table.concat(out), guessed, besides, choice
end

-- A kind the glTF lacks: the base's bytes, and a note when the export
-- had it (an editor dropped it), saying how many new vertices' were a
-- guess.
function Job:keep(kind, what, had)
  if not self.same_layout then
    local bytes, guessed, besides = self:from_base(kind, what)
    self.t[kind] = bytes
    local function add(why)
      what = what:match("%)$") and what:sub(1, -2) .. ", and " .. why .. ")"
        or what .. " (" .. why .. ")"
    end
    if guessed > 0 then
      add(string.format("%s a guess: the base vertices at %s"
        .. " position differ in it, and %s UVs and normal single none out",
        guessed == 1 and "1 new vertex's was" or guessed
        .. " new vertices' were", guessed == 1 and "its" or "their",
        guessed == 1 and "its" or "their"))
    end
    if besides > 0 then
      add(string.format("%s from the base vertex of a corner beside %s",
        besides == 1 and "1 new vertex's" or besides .. " new vertices'",
        besides == 1 and "it" or "them"))
    end
  end
  if had or not self.same_layout then self:note("kept", what) end
end

-- The least magnitude that float32 rounds to infinity (FLT_MAX and half
-- its last place, which rounds to even: up).
local F32_INFINITE = 2^128 - 2^103

-- Is x finite as float32 (NaN is not)?
local function finite32(x)
  return math.abs(x) < F32_INFINITE
end

function Job:positions()
  local P = self:column(POSITION)
  if self.world or not self:as_exported(P, POSITION.name) then
    local v = column_values(P)
    v = self.world and transform(self.world, v, "position") or v
    -- gltf-export refuses a mesh whose positions are not finite, so
    -- none came from the base: an edit (a huge scale) made them
    for i = 1, #v do
      if not finite32(v[i]) then
        local k = (i - 1) // 3 * 3
        local function f(x)
          return finite32(x) and rsxmesh.fmt(x)
            or string.format("%.9g", x)
        end
        fail("%s: vertex %d: POSITION (%s, %s, %s)%s is not finite as"
          .. " float32", self.where, k // 3 + 1, f(v[k + 1]), f(v[k + 2]),
          f(v[k + 3]), self.world and " with the node's transform" or "")
      end
    end
    self.t.position = v
    self:changed("position", self.world
      and "positions (the node's transform baked in)" or "positions")
  end
end

function Job:normals()
  if not self.m:has("normal") then return end
  local N = self:column(NORMAL)
  if not N then
    self:keep("normal", "normals (no NORMAL)", true)
  elseif self.world or not self:as_exported(N, NORMAL.name) then
    local v = column_values(N)
    self.t.normal = self.world and transform(self.world, v, "normal") or v
    self:changed("normal", "normals")
  end
end

function Job:colours()
  if not self.m:has("colour") then return end
  local C = self:column(COLOR_0)
  if not C then
    self:keep("colour", "colours (no COLOR_0)", true)
  elseif not self:as_exported(C, COLOR_0.name) then
    if #C == 1 and C[1].ctype == COLOR_0.componentType
        and C[1].type == COLOR_0.type then
      -- as gltf-export writes them: the stored bytes as they are
      self.t.colour = C[1].bytes
    else
      local v = column_values(C)
      if C[1].type == "VEC3" then -- opaque
        local rgba = {}
        for i = 0, self.nv - 1 do
          rgba[4 * i + 1], rgba[4 * i + 2], rgba[4 * i + 3], rgba[4 * i + 4]
            = v[3 * i + 1], v[3 * i + 2], v[3 * i + 3], 1
        end
        v = rgba
      end
      self.t.colour = v
    end
    local ct = C[1].ctype
    self:changed("colour", ct == COLOR_0.componentType and "colours"
      or string.format("colours (COLOR_0 as %s%s, not as exported:"
      .. " Blender 3.4 scrambles colours, check them)", CTYPE[ct].name,
      C[1].normalized and " normalized" or ""))
  end
end

-- The glTF's TANGENT (flat xyzw) and NORMAL (flat xyz) through the
-- node's transform; nil when it lacks either.
function Job:tangent_values()
  local T = self:column("TANGENT", VEC4, ONLY_FLOAT)
  local N = self:column("NORMAL", VEC3, ONLY_FLOAT)
  if not T or not N then return nil end
  local Tv, Nv = column_values(T), column_values(N)
  if self.world then
    local xyz, turned = {}, {}
    for i = 0, self.nv - 1 do
      xyz[3 * i + 1], xyz[3 * i + 2], xyz[3 * i + 3] =
        Tv[4 * i + 1], Tv[4 * i + 2], Tv[4 * i + 3]
    end
    xyz = transform(self.world, xyz, "vector")
    for i = 0, self.nv - 1 do
      turned[4 * i + 1], turned[4 * i + 2], turned[4 * i + 3],
        turned[4 * i + 4] = xyz[3 * i + 1], xyz[3 * i + 2], xyz[3 * i + 3],
        Tv[4 * i + 4]
    end
    Tv, Nv = turned, transform(self.world, Nv, "normal")
  end
  return Tv, Nv
end

-- A and B from TANGENT and NORMAL (through the node's transform), once;
-- nil when the glTF lacks either. The vertices are the base's, so the
-- TANGENT is the export's (w: which way B points).
function Job:derived_frames()
  if self.frames ~= nil then return self.frames or nil end
  local Tv, Nv = self:tangent_values()
  if not Tv then
    self.frames = false
    return nil
  end
  local A, B = rsxmesh.gltf_frames(Tv, Nv, "export")
  if not A then fail("%s: %s", self.where, B) end
  self.frames = { tangent_a = A, tangent_b = B }
  return self.frames
end

-- gltf-export's raw attributes (rsxmesh.gltf_layout's RAW), by kind.
local RAW_OF = {}
for _, r in ipairs(layout.RAW) do RAW_OF[r.kind] = r end

local FRAMES = { RAW_OF.tangent_a, RAW_OF.tangent_b }

function Job:tangents()
  for _, f in ipairs(FRAMES) do
    if self.m:has(f.kind) then
      local V = self:column(f.name, VEC3, ONLY_FLOAT)
      if V and (self.world or not self:as_exported(V, f.name)) then
        local v = column_values(V)
        self.t[f.kind] = self.world and transform(self.world, v, "vector")
          or v
        self:changed(f.kind, f.what)
      elseif not V and not self.same_layout then
        -- an editor rebuilt the mesh and dropped it: each vertex's base
        -- vertex's (its stock length kept), turned as the positions were
        self:kept_frame(f)
      elseif not V and self.e_attrs[f.name] then
        -- a script dropped it: from TANGENT, else from the base
        local d = self:derived_frames()
        if d then
          self.t[f.kind] = d[f.kind]
          self:note("derived", f.what .. " from TANGENT and NORMAL (no "
            .. f.name .. ")")
        else
          self:keep(f.kind, f.what .. " (no " .. f.name .. " or TANGENT)",
            true)
        end
      end
    end
  end
end

-- The linear part (row-major, 9 numbers) of the transform that takes the
-- base's positions to the glTF's (the node's transform applied), fitted
-- over the vertices the triangles' alignment paired (Job:align), with
-- the normals as rows too (a flat mesh's own positions say nothing of
-- the direction across it). nil when the pairs are too few or the fit
-- misses a position by more than 1e-4 of the mesh's size (an edit in
-- edit mode, not a transform), and false when it is the identity (a
-- move): the base's tangent vectors then stand as they are.
function Job:fitted()
  if self.fit ~= nil then return self.fit end
  self.fit = false
  local map = self:base_vertices().map
  local P = column_values(self:column("POSITION", VEC3, ONLY_FLOAT))
  if self.world then P = transform(self.world, P, "position") end
  local N = self:column("NORMAL", VEC3, ONLY_FLOAT)
  N = N and column_values(N)
  if N and self.world then N = transform(self.world, N, "normal") end
  local bp = self:base_range("position")
  local bn = self.m:has("normal") and N and self:base_range("normal")
  local pairs_, cb, cg = {}, { 0, 0, 0 }, { 0, 0, 0 }
  for v, b in pairs(map) do
    pairs_[#pairs_ + 1] = { v - 1, b }
    for i = 1, 3 do
      cb[i], cg[i] = cb[i] + bp[3 * b + i], cg[i] + P[3 * (v - 1) + i]
    end
  end
  local n = #pairs_
  if n < 3 then
    self.fit = nil
    return nil
  end
  for i = 1, 3 do cb[i], cg[i] = cb[i] / n, cg[i] / n end
  local size = 0
  for _, q in ipairs(pairs_) do
    for i = 1, 3 do size = math.max(size, math.abs(bp[3 * q[2] + i] - cb[i]))
    end
  end
  -- sums of x x^T and y x^T over the rows
  local xx, yx = { 0, 0, 0, 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0, 0, 0, 0 }
  local function row(x, y)
    for r = 1, 3 do
      for c = 1, 3 do
        xx[3 * r + c - 3] = xx[3 * r + c - 3] + x[r] * x[c]
        yx[3 * r + c - 3] = yx[3 * r + c - 3] + y[r] * x[c]
      end
    end
  end
  for _, q in ipairs(pairs_) do
    local v, b = q[1], q[2]
    row({ bp[3 * b + 1] - cb[1], bp[3 * b + 2] - cb[2],
          bp[3 * b + 3] - cb[3] },
      { P[3 * v + 1] - cg[1], P[3 * v + 2] - cg[2], P[3 * v + 3] - cg[3] })
    if bn then
      -- light: enough to settle a flat mesh, too little to pull a solid
      -- one's fit off its positions (Blender's normals are re-derived)
      -- (directions: a stored normal's length is not always 1)
      local lb = math.sqrt(bn[3 * b + 1] ^ 2 + bn[3 * b + 2] ^ 2
        + bn[3 * b + 3] ^ 2)
      local lg = math.sqrt(N[3 * v + 1] ^ 2 + N[3 * v + 2] ^ 2
        + N[3 * v + 3] ^ 2)
      if lb > 0 and lg > 0 then
        local wb, wg = 1e-3 * size / lb, 1e-3 * size / lg
        row({ wb * bn[3 * b + 1], wb * bn[3 * b + 2], wb * bn[3 * b + 3] },
          { wg * N[3 * v + 1], wg * N[3 * v + 2], wg * N[3 * v + 3] })
      end
    end
  end
  -- L xx = yx, row by row of L: xx (symmetric) l_r = (yx row r)
  local L = {}
  for r = 1, 3 do
    local l = solve3(xx, { yx[3 * r - 2], yx[3 * r - 1], yx[3 * r] })
    if not l then
      self.fit = nil
      return nil
    end
    L[3 * r - 2], L[3 * r - 1], L[3 * r] = l[1], l[2], l[3]
  end
  local worst = 0
  for _, q in ipairs(pairs_) do
    local v, b = q[1], q[2]
    local x = { bp[3 * b + 1] - cb[1], bp[3 * b + 2] - cb[2],
      bp[3 * b + 3] - cb[3] }
    for r = 1, 3 do
      local y = L[3 * r - 2] * x[1] + L[3 * r - 1] * x[2] + L[3 * r] * x[3]
      worst = math.max(worst, math.abs(y - (P[3 * v + r] - cg[r])))
    end
  end
  if worst > 1e-4 * math.max(size, 1) then
    self.fit = nil
    return nil
  end
  local identity = true
  for i = 1, 9 do
    local want = (i == 1 or i == 5 or i == 9) and 1 or 0
    identity = identity and math.abs(L[i] - want) <= 1e-4
  end
  self.fit = not identity and L or false
  self.fit_pairs = n
  return self.fit
end

-- "12-15, 20": the sorted vertex numbers of list, runs as ranges.
local function vertex_runs(list)
  local out, i = {}, 1
  while i <= #list do
    local j = i
    while j < #list and list[j + 1] == list[j] + 1 do j = j + 1 end
    out[#out + 1] = j > i and list[i] .. "-" .. list[j] or tostring(list[i])
    i = j + 1
  end
  return table.concat(out, ", ")
end

-- Which way the glTF's TANGENT (Tv, Nv: Job:tangent_values) gives B, as
-- gltf_frames takes it: "export" when at the vertices paired with a base
-- vertex its bitangent cross(N, T) * w points along the base's B more
-- often than against it (an editor that kept gltf-export's TANGENT),
-- else "mikktspace" (Blender's, made anew: against it); and the report's
-- words.
function Job:tangent_convention(Tv, Nv)
  local along, against = 0, 0
  if self.m:has("tangent_b") then
    local base = self:base_range("tangent_b")
    for v, b in pairs(self:base_vertices().map) do
      local i, j = 4 * v - 4, 3 * v - 3
      local tx, ty, tz = Tv[i + 1], Tv[i + 2], Tv[i + 3]
      local nx, ny, nz = Nv[j + 1], Nv[j + 2], Nv[j + 3]
      local d = ((ny * tz - nz * ty) * base[3 * b + 1]
        + (nz * tx - nx * tz) * base[3 * b + 2]
        + (nx * ty - ny * tx) * base[3 * b + 3])
        * (Tv[i + 4] < 0 and -1 or 1)
      if d > 0 then
        along = along + 1
      elseif d < 0 then
        against = against + 1
      end
    end
  end
  if along > against then
    return "export", string.format("from TANGENT (its w read as"
      .. " gltf-export's: it gives the base's B at %d of %d paired vertices)",
      along, along + against)
  end
  return "mikktspace", string.format("from TANGENT (its w read as"
    .. " MikkTSpace's, Blender's: %s)", along + against > 0
    and string.format("against the base's B at %d of %d paired vertices",
    against, along + against) or "no paired vertex to say otherwise")
end

-- The tangent vectors of the new vertices that no base vertex lies at or
-- beside (Job:beside: a new island's, an added object's), or with
-- --tangents computed of every new vertex (none paired with a base
-- vertex: an extrusion's, a loop cut's), once: from
-- TANGENT where the glTF has it, else computed from TEXCOORD_0, NORMAL
-- and the positions with MikkTSpace's convention (rsxmesh.gltf_tangents),
-- A the unit tangent and B = cross(N, A), turned the way the game's B
-- runs (along glTF's growing V, where Blender's bitangent runs along its
-- falling V: gltf_frames' "mikktspace"). nil when there is no such
-- vertex; else { tangent_a =, tangent_b = (by glTF vertex, 1-based, each
-- an xyz), how = (the report's words) }.
function Job:lonely_frames()
  if self.lonely ~= nil then return self.lonely or nil end
  self.lonely = false
  local bv = self:base_vertices()
  local every_new = self.new_tangents == "computed"
  local list = {}
  for v = 1, self.nv do
    if not bv.map[v] and (every_new or not (bv.near[v] or bv.beside[v]))
    then
      list[#list + 1] = v
    end
  end
  if #list == 0 then return nil end
  local Tv, Nv = self:tangent_values()
  local convention, how = "mikktspace", nil
  if Tv then convention, how = self:tangent_convention(Tv, Nv) end
  if not Tv then
    local N = self:column("NORMAL", VEC3, ONLY_FLOAT)
    local UV = self:column("TEXCOORD_0", VEC2, UV_CTYPES)
    if not N or not UV then
      fail("%s: vertex %d: no vertex of the base lies at its position or"
        .. " beside it, and the glTF has no _TANGENT_A, %s to make its"
        .. " tangent vectors of", self.where, list[1], N and "no TANGENT"
        .. " and no TEXCOORD_0" or "and no NORMAL")
    end
    Nv = column_values(N)
    if self.world then Nv = transform(self.world, Nv, "normal") end
    local P = self.t.position
    if type(P) ~= "table" then
      P = column_values(self:column("POSITION", VEC3, ONLY_FLOAT))
      if self.world then P = transform(self.world, P, "position") end
    end
    local tris = {}
    for _, part in ipairs(self.parts) do
      local idx, first = self:part_indices(part), self:group(part.p).first
      for c = 1, #idx do tris[#tris + 1] = first + idx[c] + 1 end
    end
    local across
    Tv, across = rsxmesh.gltf_tangents(P, Nv, column_values(UV), tris)
    local lonely_across = {}
    local is_lonely = {}
    for _, v in ipairs(list) do is_lonely[v] = true end
    for _, v in ipairs(across) do
      if is_lonely[v] then lonely_across[#lonely_across + 1] = v end
    end
    how = "computed from TEXCOORD_0, NORMAL and the positions with"
      .. " MikkTSpace's convention"
    if #lonely_across > 0 then
      how = how .. string.format("; %s no UV area around %s: a direction"
        .. " across the normal", #lonely_across == 1 and "vertex "
        .. lonely_across[1] .. " with" or "vertices "
        .. vertex_runs(lonely_across) .. " with", #lonely_across == 1
        and "it" or "them")
    end
  end
  -- only the vertices that take them: another's TANGENT plays no part
  local T, N = {}, {}
  for k, v in ipairs(list) do
    table.move(Tv, 4 * v - 3, 4 * v, 4 * k - 3, T)
    table.move(Nv, 3 * v - 2, 3 * v, 3 * k - 2, N)
  end
  local A, B = rsxmesh.gltf_frames(T, N, convention)
  if not A then
    local k = tonumber(B:match("^vertex (%d+)"))
    fail("%s: vertex %d%s", self.where, list[k], B:match("^vertex %d+(.*)"))
  end
  local frames = { tangent_a = {}, tangent_b = {}, how = string.format(
    "%s new %s %s %s", #list, #list == 1 and "vertex's" or "vertices'",
    every_new and "(" .. vertex_runs(list) .. ": --tangents computed)"
    or string.format("with no base vertex at or beside %s (%s)",
    #list == 1 and "it" or "them", vertex_runs(list)), how) }
  frames.spare = {}
  for k, v in ipairs(list) do
    frames.spare[v] = true
    frames.tangent_a[v] = { A[3 * k - 2], A[3 * k - 1], A[3 * k] }
    frames.tangent_b[v] = { B[3 * k - 2], B[3 * k - 1], B[3 * k] }
  end
  self.lonely = frames
  return frames
end

-- Tangent vector f (FRAMES) of a rebuilt mesh that lacks it: each glTF
-- vertex takes its base vertex's (Job:keep), turned and scaled by the
-- transform fitted to the positions when there is one, its length kept;
-- a vertex with none around it, Job:lonely_frames'.
function Job:kept_frame(f)
  local fit, lonely = self:fitted(), self:lonely_frames()
  if not fit and not lonely then
    self:keep(f.kind, f.what .. " (no " .. f.name .. (self:column("TANGENT",
      VEC4, ONLY_FLOAT) and "; its stock length kept rather than derived"
      .. " from TANGENT" or " or TANGENT") .. ")", true)
    return
  end
  local _, guessed, besides, choice = self:from_base(f.kind, f.what,
    lonely and lonely.spare)
  local base = self:base_range(f.kind)
  fit = fit or { 1, 0, 0, 0, 1, 0, 0, 0, 1 }
  local out = {}
  for v = 0, self.nv - 1 do
    local b = choice[v + 1]
    if b then
      local x, y, z = base[3 * b + 1], base[3 * b + 2], base[3 * b + 3]
      local X = fit[1] * x + fit[2] * y + fit[3] * z
      local Y = fit[4] * x + fit[5] * y + fit[6] * z
      local Z = fit[7] * x + fit[8] * y + fit[9] * z
      local l0 = math.sqrt(x * x + y * y + z * z)
      local l1 = math.sqrt(X * X + Y * Y + Z * Z)
      local k = l1 > 0 and l0 / l1 or 0
      out[3 * v + 1], out[3 * v + 2], out[3 * v + 3] = X * k, Y * k, Z * k
    else
      local a = lonely[f.kind][v + 1]
      out[3 * v + 1], out[3 * v + 2], out[3 * v + 3] = a[1], a[2], a[3]
    end
  end
  self.t[f.kind] = out
  if lonely then
    self:note("derived", string.format("%s: each vertex's base vertex's%s%s"
      .. "%s, and %s (no %s)", f.what, self.fit and string.format(
      ", turned by the transform fitted to %d vertices' positions",
      self.fit_pairs) or "", guessed > 0 and string.format(" (%d new"
      .. " %s a guess among those at %s position)", guessed, guessed == 1
      and "vertex's" or "vertices'", guessed == 1 and "its" or "their")
      or "", besides > 0 and string.format(", %d new %s from the base"
      .. " vertex of a corner beside %s", besides, besides == 1
      and "vertex's" or "vertices'", besides == 1 and "it" or "them")
      or "",
      lonely.how, f.name))
    return
  end
  self:note("derived", string.format("%s: each vertex's base vertex's,"
    .. " turned by the transform fitted to %d vertices' positions (no %s)",
    f.what, self.fit_pairs, f.name))
end

-- The glTF attributes that carry stored UV set `set`: each primitive's
-- TEXCOORD_n for the logical UVs its submesh's selectors route to the
-- set (up to the first absent one, as gltf-export writes them), and
-- _UV_SET_n; each with what the export wrote for it (e).
function Job:uv_sources(set)
  local sources = {}
  for _, part in ipairs(self.parts) do
    local prim, s = part.prim, part.sub.s
    local ep = part.e and part.e.attributes or {}
    for logical = 0, 3 do
      local routed = s:uv_set(logical)
      if routed == nil then break end
      local name = TEXCOORD_N[logical]
      if routed == set and prim.attributes[name] ~= nil then
        sources[#sources + 1] = { p = part.p, sub = part.sub, part = part,
          name = name, i = prim.attributes[name], e = ep[name] }
      end
    end
    local name = UV_SET_N[set]
    if prim.attributes[name] ~= nil then
      sources[#sources + 1] = { p = part.p, sub = part.sub, part = part,
        name = name, i = prim.attributes[name], e = ep[name] }
    end
  end
  return sources
end

local function differ(a, b)
  return a ~= b and (a == a or b == b) -- NaN is NaN's equal here
end

-- Stored set `set` vertex by vertex: each source gives the vertices that
-- its submesh's triangles use, and sources that give one vertex must
-- agree (else an error naming the submesh and the vertex); a vertex no
-- triangle uses takes its group's first source. nil when a group has no
-- source at all; else the values and, per vertex (1-based), the name of
-- the attribute that gave them.
function Job:uv_column(set, sources)
  local out, claim, read, names = {}, {}, {}, {}
  for _, src in ipairs(sources) do
    local V = read[src.i]
    if not V then
      V = values(self:uv_accessor(src))
      read[src.i] = V
    end
    local first = self:group(src.p).first
    for _, li in ipairs(self:part_indices(src.part)) do
      local v, x, y = first + li, V[2 * li + 1], V[2 * li + 2]
      local known = claim[v]
      if not known then
        claim[v], out[2 * v + 1], out[2 * v + 2] = src, x, y
      elseif differ(out[2 * v + 1], x) or differ(out[2 * v + 2], y) then
        fail("%s: submesh %d: vertex %d: %s (%s, %s) and %s (%s, %s) feed"
          .. " the one stored UV set %d and differ", self.where,
          src.sub.index, v + 1, known.name, rsxmesh.fmt(out[2 * v + 1]),
          rsxmesh.fmt(out[2 * v + 2]), src.name, rsxmesh.fmt(x),
          rsxmesh.fmt(y), set)
      end
    end
  end
  for _, grp in ipairs(self.groups) do
    local fill
    for _, src in ipairs(sources) do
      if self:group(src.p) == grp then
        fill = src
        break
      end
    end
    for v = grp.first, grp.first + grp.count - 1 do
      if claim[v] then
        names[v + 1] = claim[v].name
      else
        if not fill then return nil end
        local li, F = v - grp.first, read[fill.i]
        out[2 * v + 1], out[2 * v + 2] = F[2 * li + 1], F[2 * li + 2]
        names[v + 1] = fill.name
      end
    end
  end
  return out, names
end

-- Are the sources the very bytes gltf-export wrote (the base's vertices)?
function Job:uv_as_exported(sources)
  if not self.same_layout then return false end
  for _, src in ipairs(sources) do
    local r = self:uv_accessor(src)
    if not (src.e and r.bytes == self.E.bytes(src.e)) then return false end
  end
  return true
end

function Job:uv_sets()
  for set = 0, 3 do
    local kind = "uv" .. set
    if self.m:has(kind) then
      local sources = self:uv_sources(set)
      local v, names = false, nil
      if #sources > 0 and not self:uv_as_exported(sources) then
        v, names = self:uv_column(set, sources)
      end
      if v then
        self:storable(kind, names, v, 2)
        self.t[kind] = v
        self:changed(kind, "stored UV set " .. set)
      elseif #sources == 0 or v == nil then
        self:keep(kind, "stored UV set " .. set, #sources > 0
          or exported_set(self.E, self.subs, set))
      end
    end
  end
end

-- The attributes that come back only as themselves.
local RAW = { RAW_OF.extra_a, RAW_OF.extra_b, RAW_OF.s32k2, RAW_OF.half4 }

-- Refuse a value of v (flat, n a vertex) that the stored type would
-- change past recognition: S32K2 holds integers of -32768..32767 (the
-- encoder would round and clamp), a half no finite value beyond 65504
-- (it would become infinity). name: the glTF attribute, or a table of
-- one per vertex (1-based).
function Job:storable(kind, name, v, n)
  if kind ~= "s32k2" and self.m.format:info(kind).type ~= "SF" then
    return
  end
  local rule = kind == "s32k2" and "is not an integer of -32768..32767"
    or "is past the largest half, 65504 (it would be stored as infinity)"
  for i = 1, #v do
    local x = v[i]
    local bad
    if kind == "s32k2" then
      bad = not (x >= -32768 and x <= 32767 and x == math.floor(x))
    else
      bad = math.abs(x) < math.huge
        and rsxmesh.to_half(x) & 0x7FFF == 0x7C00
    end
    if bad then
      local k = (i - 1) // n * n
      local shown = {}
      for c = 1, n do shown[c] = rsxmesh.fmt(v[k + c]) end
      fail("%s: vertex %d: %s (%s): %s %s", self.where, k // n + 1,
        type(name) == "table" and name[k // n + 1] or name,
        table.concat(shown, ", "), rsxmesh.fmt(x), rule)
    end
  end
end

function Job:raw_kinds()
  for _, f in ipairs(RAW) do
    if self.m:has(f.kind) then
      local V = self:column(f)
      if not V then
        self:keep(f.kind, f.what .. " (no " .. f.name .. ")",
          self.e_attrs[f.name] ~= nil)
      elseif not self:as_exported(V, f.name) then
        local v = column_values(V)
        self:storable(f.kind, f.name, v, COMPONENTS[V[1].type])
        self.t[f.kind] = v
        self:changed(f.kind, f.what)
      end
    end
  end
end

-- Do the copy's stored bytes of kind differ from the base's: the
-- vertices' own, or (other vertices) a vertex's from those of the base
-- vertex it stands for, or of every base vertex at its position? self:
-- the match (matching.match's) the copy was built from.
function attributes.differs(self, copy, kind)
  local raw = assert(self.m:attribute(kind)):raw()
  local new = assert(copy:attribute(kind)):raw()
  if self.same_layout then return new ~= raw end
  local size = #raw // self.m.vertex_count
  local bv = self:base_vertices()
  for v = 1, self.nv do
    local mine = new:sub(v * size - size + 1, v * size)
    local list = bv.map[v] and { bv.map[v] } or bv.near[v]
      or { bv.beside[v] }
    local found = false
    for _, b in ipairs(list) do
      found = found or raw:sub(b * size + 1, b * size + size) == mine
    end
    if not found then return true end
  end
  return false
end

-- An untouched mesh (Match:untouched) whose trusted COLOR_0 gives a base
-- vertex other colour bytes (Match:corner_colours): the base with only its
-- colours encoded again (each component clamped to 0..1, times 255,
-- rounded to the nearest byte, by m:with), every other byte kept; nil
-- when they round to the base's bytes. self: the match (matching.match's),
-- painted what Match:untouched gave.
function attributes.painted_copy(self, painted)
  local v = {}
  table.move(self:base_range("colour"), 1, 4 * self.m.vertex_count, 1, v)
  for b, c in pairs(painted) do
    v[4 * b + 1], v[4 * b + 2], v[4 * b + 3], v[4 * b + 4] =
      c[1], c[2], c[3], c[4]
  end
  local copy, err = self.m:with({ colour = v })
  if not copy then fail("%s: %s", self.where, err) end
  if copy:attribute("colour"):raw() == self.m:attribute("colour"):raw() then
    return nil
  end
  return copy
end

-- The triangles: the glTF's, when the match says the base's index buffer
-- cannot stay (Match:new_triangles).
function Job:triangles()
  local fields, count = self:new_triangles()
  if not fields then return end
  for k, v in pairs(fields) do self.t[k] = v end
  self:changed(nil, string.format("triangles (%d, a triangle list of"
    .. " u%d indices)", count, 8 * fields.index_size))
end

function Job:note(list, text)
  local l = self[list]
  l[#l + 1] = text
end

-- kind (nil: the triangles) encoded again: reported as changed when its
-- bytes then differ from the base's (attributes.differs)
function Job:changed(kind, text)
  self.changes[#self.changes + 1] = { kind = kind, text = text }
end

local STEPS = { "positions", "normals", "colours", "tangents", "uv_sets",
  "raw_kinds", "triangles" }

-- A Job reads these fields of its match (matching.match's), copied into
-- it, and asks it these questions (Match's methods, called on the
-- match). Looking each up in the match as asked, through an __index
-- function, cost 2 % of the Lua bytecodes of an edited import (JULIETT
-- with every mesh moved).
local MATCH_FIELDS = { "m", "world", "nv", "same_layout", "where", "E",
  "e_attrs", "subs", "parts", "groups" }
for _, name in ipairs({ "column", "as_exported", "base_range",
    "base_vertices", "uv_accessor", "group", "vertex_agrees",
    "part_indices", "new_triangles" }) do
  Job[name] = function(self, ...)
    local match = self.match
    return match[name](match, ...)
  end
end

-- What a job may hold as nil: its match's fields (world, for one) and
-- its own that a step sets (fit, fit_pairs, frames, lonely) or the
-- options leave unset (new_tangents). Any other name a job lacks is a
-- slip (a field or question of the match not listed above), said at
-- once rather than read as nil.
local UNSET = { fit = true, fit_pairs = true, frames = true,
  lonely = true, new_tangents = true }
for _, name in ipairs(MATCH_FIELDS) do UNSET[name] = true end
setmetatable(Job, { __index = function(_, key)
  if not UNSET[key] then
    error("gltf_import.attributes: a job has no " .. tostring(key)
      .. " (MATCH_FIELDS or the match's questions lack it)", 2)
  end
end })

local JOB = { __index = Job }

local function job_of(match)
  local job = { match = match, t = {}, changes = {}, kept = {},
    derived = {} }
  for _, name in ipairs(MATCH_FIELDS) do job[name] = match[name] end
  return setmetatable(job, JOB)
end

-- The attributes of the base mesh as the match (matching.match's) gives
-- them, in turn: what differs from the base in t (with vertex_count when
-- the glTF's vertices are not the base's) and the report's notes;
-- opts.tangents: import.bundle's.
function attributes.build(match, opts)
  local job = job_of(match)
  job.new_tangents = opts and opts.tangents
  if not match.same_layout then job.t.vertex_count = match.nv end
  for _, step in ipairs(STEPS) do job[step](job) end
  return { t = job.t, changes = job.changes, kept = job.kept,
    derived = job.derived }
end

return attributes
