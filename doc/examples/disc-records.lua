-- disc-records.lua - a --records hook for gltf-import: the records of the
-- synthetic disc (rsxmesh synth; their layout is in doc/scripts.md, under
-- synth) rewritten to say what the imported mesh now is.
--
--   rsxmesh gltf-import EDITED.glb --base A.rsxb -o NEW.rsxb \
--     --records doc/examples/disc-records.lua
--
-- Each function receives a record's bytes (as the base has them) and the
-- new mesh's facts, and returns the record's new bytes (nil keeps them).
-- Offsets are 0-based, as in a hex dump; every other byte stays.

local function put(bytes, offset, fmt, ...)
  local field = string.pack(fmt, ...)
  return bytes:sub(1, offset) .. field .. bytes:sub(offset + #field + 1)
end

return {
  -- metadata (0x90 bytes): 0x00 vertex count, 0x04 index count, 0x08
  -- submesh count, 0x0C index size (u8), 0x0D primitive (u8: 0 list,
  -- 1 strip), 0x10 the bounding box minimum (3 f32), 0x1C its maximum,
  -- 0x28 the bounding sphere radius about the box centre (f32)
  meta = function(bytes, mesh)
    bytes = put(bytes, 0x00, ">I4I4I4BB", mesh.vertex_count,
      mesh.index_count, mesh.submesh_count, mesh.index_size,
      mesh.primitive == "strip" and 1 or 0)
    if mesh.min then
      local lo, hi = mesh.min, mesh.max
      local r = 0
      for i = 1, 3 do r = r + ((hi[i] - lo[i]) / 2) ^ 2 end
      bytes = put(bytes, 0x10, ">fffffff", lo[1], lo[2], lo[3], hi[1],
        hi[2], hi[3], math.sqrt(r))
    end
    return bytes
  end,
  -- submesh (0x40 bytes): 0x00 first index, 0x04 index count, 0x08 first
  -- vertex (0-based), 0x0C vertex count
  submesh = function(bytes, sub)
    bytes = put(bytes, 0x00, ">I4I4", sub.first_index, sub.index_count)
    if sub.first_vertex then
      bytes = put(bytes, 0x08, ">I4I4", sub.first_vertex - 1,
        sub.vertex_count)
    end
    return bytes
  end,
}
