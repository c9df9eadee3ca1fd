-- rsxmesh/gltf_import/transforms.lua - the glTF import's maths: the
-- nodes' world matrices, and vectors taken through them
-- (rsxmesh.gltf_import).

local reading = require "rsxmesh.gltf_import.reading"
local gltf_transform = require "rsxmesh".gltf_transform

local fail, int = reading.fail, reading.int

local transforms = {}

-- The world matrix (column-major, 16 numbers) of each glTF mesh index
-- used by a node: nil for the identity. Two nodes that place one mesh
-- differently cannot both be baked into it.
local IDENTITY = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 }

local function mat_mul(a, b)
  local c = {}
  for col = 0, 3 do
    for row = 0, 3 do
      local s = 0
      for k = 0, 3 do s = s + a[k * 4 + row + 1] * b[col * 4 + k + 1] end
      c[col * 4 + row + 1] = s
    end
  end
  return c
end

-- A node's field: n numbers, or dflt when absent.
local function numbers(file, node, k, field, n, dflt)
  local v = node[field]
  if v == nil then return dflt end
  local good = type(v) == "table" and #v == n
  for i = 1, n do good = good and type(v[i]) == "number" end
  if not good then
    fail("%s: node %d: %s is not %d numbers", file.path, k, field, n)
  end
  return v
end

local function node_matrix(file, node, k)
  -- most nodes only place a mesh where it is: no matrix to build
  if node.matrix == nil and node.translation == nil
      and node.rotation == nil and node.scale == nil then
    return IDENTITY
  end
  local m = numbers(file, node, k, "matrix", 16, nil)
  if m then return m end
  local t = numbers(file, node, k, "translation", 3, { 0, 0, 0 })
  local q = numbers(file, node, k, "rotation", 4, { 0, 0, 0, 1 })
  local s = numbers(file, node, k, "scale", 3, { 1, 1, 1 })
  local x, y, z, w = q[1], q[2], q[3], q[4]
  -- glTF: T * R * S, R from the unit quaternion (x, y, z, w)
  local r = {
    1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0,
    2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0,
    2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0,
    0, 0, 0, 1 }
  for col = 0, 2 do
    for row = 0, 2 do
      r[col * 4 + row + 1] = r[col * 4 + row + 1] * s[col + 1]
    end
  end
  r[13], r[14], r[15] = t[1], t[2], t[3]
  return r
end

local function is_identity(m)
  if m == IDENTITY then return true end
  for i = 1, 16 do
    if m[i] ~= IDENTITY[i] then return false end
  end
  return true
end

local function mesh_transforms(file)
  local t = file.json
  local nodes = type(t.nodes) == "table" and t.nodes or {}
  local parent = {}
  for k, node in ipairs(nodes) do
    if type(node) ~= "table" then
      fail("%s: node %d is not an object", file.path, k - 1)
    end
    for _, c in ipairs(type(node.children) == "table" and node.children
        or {}) do
      if int(c) then parent[int(c) + 1] = k end
    end
  end
  local world = {}
  local function world_of(k, depth)
    if world[k] then return world[k] end
    if depth > #nodes then fail("%s: node %d is its own ancestor",
      file.path, k - 1) end
    local m = node_matrix(file, nodes[k], k - 1)
    if parent[k] then
      local above = world_of(parent[k], depth + 1)
      m = m == IDENTITY and above or above == IDENTITY and m
        or mat_mul(above, m)
    end
    world[k] = m
    return m
  end
  local of_mesh = {}
  for k, node in ipairs(nodes) do
    local mi = type(node) == "table" and int(node.mesh)
    if mi then
      local m = world_of(k, 0)
      local known = of_mesh[mi]
      if known and known ~= m then
        for i = 1, 16 do
          if known[i] ~= m[i] then
            fail("%s: glTF mesh %d is placed by two nodes with different"
              .. " transforms: they cannot both be baked into it",
              file.path, mi)
          end
        end
      end
      of_mesh[mi] = m
    end
  end
  for i, m in pairs(of_mesh) do
    if is_identity(m) then of_mesh[i] = nil end
  end
  return of_mesh
end

-- Apply the matrix m to the flat xyz table v (positions: with the
-- translation; vectors: without). normal: the inverse transpose, and the
-- results made unit again. In C (src/gltf_accessor.c): a moved object's
-- every position and normal comes through here.
local function transform(m, v, how)
  return gltf_transform(m, v, how)
end

-- Solve the 3x3 system m x = y (m row-major, 9 numbers): x, or nil when
-- m is singular.
local function solve3(m, y)
  local a = { { m[1], m[2], m[3], y[1] }, { m[4], m[5], m[6], y[2] },
    { m[7], m[8], m[9], y[3] } }
  for c = 1, 3 do
    local p = c
    for r = c + 1, 3 do
      if math.abs(a[r][c]) > math.abs(a[p][c]) then p = r end
    end
    if math.abs(a[p][c]) < 1e-12 then return nil end
    a[c], a[p] = a[p], a[c]
    for r = 1, 3 do
      if r ~= c then
        local k = a[r][c] / a[c][c]
        for j = c, 4 do a[r][j] = a[r][j] - k * a[c][j] end
      end
    end
  end
  return { a[1][4] / a[1][1], a[2][4] / a[2][2], a[3][4] / a[3][3] }
end

transforms.mesh_transforms, transforms.transform = mesh_transforms, transform
transforms.solve3 = solve3

return transforms
