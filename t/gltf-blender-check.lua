-- t/gltf-blender-check.lua - compare a bundle imported back from Blender
-- with its base (run by t/gltf-blender-default.sh):
--   rsxmesh t/gltf-blender-check.lua BASE NEW MODE MESH...
-- MODE says what the meshes named went through; every other mesh must be
-- the base's byte for byte (streams, indices, records). Blender keeps
-- the triangles' order and winding, so the named meshes are compared
-- submesh by submesh, corner by corner:
--   move DX   position = the base's + (DX, 0, 0), in float32 exactly
--   scale     position = the base's with x doubled, exactly
--   turn      position = the base's (x, y, z) turned 90 degrees about y:
--             (z, y, -x), within 1e-5 (Blender's sine and cosine)
--   delete    the first triangle gone, every other corner as the base's
-- and in every mode each logical UV the base's exactly, and each kind
-- Blender drops (tangents A and B, every stored UV set, extras, bits 11
-- and 12) the base corner's very bytes; after a turn, A and B the base's
-- turned alike, within a CMP step. Prints "ok" or what differs.

local rsxmesh = require "rsxmesh"

local base = assert(rsxmesh.open(arg[1]))
local new = assert(rsxmesh.open(arg[2]))
local mode, dx = arg[3], nil
local first = 4
if mode == "move" then
  dx, first = tonumber(arg[4]), 5
end
local named = {}
for i = first, #arg do named[arg[i]] = true end

local problems = {}
local function problem(fmt, ...)
  if #problems < 10 then problems[#problems + 1] = fmt:format(...) end
end

local KEPT = { tangent_a = true, tangent_b = true, uv0 = true, uv1 = true,
  uv2 = true, uv3 = true, extra_a = true, extra_b = true, s32k2 = true,
  half4 = true }

-- the vectors a turn turns
local TURNED = { tangent_a = true, tangent_b = true }

local function position_ok(a, b)
  local x, y, z = a[1], a[2], a[3]
  if mode == "move" then
    return rsxmesh.float32(x + dx) == b[1] and y == b[2] and z == b[3]
  elseif mode == "scale" then
    return rsxmesh.float32(2 * x) == b[1] and y == b[2] and z == b[3]
  elseif mode == "turn" then
    local want = { z, y, -x }
    for i = 1, 3 do
      if math.abs(want[i] - b[i]) > 1e-5 * math.max(1, math.abs(want[i]))
        then return false end
    end
    return true
  end
  return x == b[1] and y == b[2] and z == b[3]
end

local corners, meshes = 0, 0
for k, m in base:meshes() do
  local n = new:mesh(k)
  if not named[m.name] then
    if n:stream("mmp") ~= m:stream("mmp") or n:stream("mgp") ~= m:stream("mgp")
        or n:index_bytes() ~= m:index_bytes()
        or n:record():bytes() ~= m:record():bytes() then
      problem("%s: not the base's bytes", m.label)
    end
  else
    meshes = meshes + 1
    if #n.findings > 0 then
      problem("%s: a finding: %s", m.label, n.findings[1].message)
    end
    local raw = {}
    for _, kind in ipairs(m:attributes()) do
      if KEPT[kind] then
        raw[kind] = { m:attribute(kind):raw(), n:attribute(kind):raw(),
          #m:attribute(kind):raw() // m.vertex_count }
      end
    end
    local pa, pb = m:attribute("position"), n:attribute("position")
    for i, s in m:submeshes() do
      local sn = n:submesh(i)
      local a, na = s:triangles()
      local b, nb = sn:triangles()
      local skip = 0
      if mode == "delete" and i == 1 then
        skip = 1
        if nb ~= na - 1 then
          problem("%s: submesh %d: %d triangles, not %d - 1", m.label, i,
            nb, na)
        end
      elseif na ~= nb then
        problem("%s: submesh %d: %d triangles, not %d", m.label, i, nb, na)
      end
      for c = 1, math.min(#a - 3 * skip, #b) do
        corners = corners + 1
        local va, vb = a[c + 3 * skip], b[c]
        if not position_ok({ pa:get(va) }, { pb:get(vb) }) then
          problem("%s: submesh %d: corner %d: position (%s, %s, %s) from"
            .. " (%s, %s, %s)", m.label, i, c, pb:get(vb), pa:get(va))
        end
        for l = 0, 3 do
          local ua, ub = s:uv(l), sn:uv(l)
          if ua then
            local u1, v1 = ua:get(va)
            local u2, v2 = ub:get(vb)
            if u1 ~= u2 or v1 ~= v2 then
              problem("%s: submesh %d: corner %d: UV%d", m.label, i, c, l)
            end
          end
        end
        for kind, r in pairs(raw) do
          local size = r[3]
          if mode == "turn" and TURNED[kind] then
            -- turned as the positions, within a CMP step (64/32767)
            local x, y, z = m:attribute(kind):get(va)
            local want = { z, y, -x }
            local got = { n:attribute(kind):get(vb) }
            for j = 1, 3 do
              if math.abs(want[j] - got[j]) > 0.004 then
                problem("%s: submesh %d: corner %d: %s (%s, %s, %s), not"
                  .. " the base's (%s, %s, %s) turned", m.label, i, c, kind,
                  got[1], got[2], got[3], x, y, z)
                break
              end
            end
          elseif r[1]:sub(va * size - size + 1, va * size)
              ~= r[2]:sub(vb * size - size + 1, vb * size) then
            problem("%s: submesh %d: corner %d: %s not the base's",
              m.label, i, c, kind)
          end
        end
      end
    end
  end
end
if #problems > 0 then
  print(table.concat(problems, "\n"))
  os.exit(1)
end
print(string.format("ok %d meshes, %d corners", meshes, corners))
