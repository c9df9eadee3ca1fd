-- api-gltf.lua - rsxmesh.gltf_elements and rsxmesh.gltf_values, the glTF
-- import's byte work (src/gltf_accessor.c), through the binding: values
-- worked out by hand from the glTF 2.0 spec, and hostile arguments, which
-- must raise naming the function or give nil, message, never crash or
-- size anything by a count the bytes do not hold.
local t = require "tap"
local rsxmesh = require "rsxmesh"

local elements, values = rsxmesh.gltf_elements, rsxmesh.gltf_values

local function raises(pattern, name, fn, ...)
  return t.error_like(fn, pattern, name, ...)
end

-- Two VEC2 floats of byteStride 12 from byteOffset 4: 1, 2 and 3, 4.
local pad = "\xEE\xEE\xEE\xEE"
local strided = pad .. string.pack("<ff", 1, 2) .. pad
  .. string.pack("<ff", 3, 4)
local tight = assert(elements(strided, 4, 2, 8, 12))
t.is(tight, string.pack("<ffff", 1, 2, 3, 4), "stride 12: padding left out")
t.is_deeply(values(tight, 5126), { 1.0, 2.0, 3.0, 4.0 }, "  read as floats")
t.is(math.type(values(tight, 5126)[1]), "float", "  floats are floats")
t.is(elements(tight, 0, 4, 4), tight, "tight bytes come back as they are")

-- Normalized integers (glTF 2.0, 3.11): max(c / 127, -1), c / 65535
t.is_deeply(values("\x7F\x80\x81\x00", 5120, true), { 1.0, -1.0, -1.0, 0.0 },
  "BYTE 127, -128, -127, 0 normalized: 1, -1, -1, 0")
t.is_deeply(values("\xFF\xFF\x00\x00", 5123, true), { 1.0, 0.0 },
  "UNSIGNED_SHORT 65535, 0 normalized: 1, 0")
t.is_deeply(values("\xFE\x00\x80", 5120), { -2, 0, -128 },
  "BYTE not normalized: integers")
t.is(math.type(values("\x01\x00", 5123)[1]), "integer",
  "UNSIGNED_SHORT not normalized: an integer")
t.is_deeply(values("\x01\x00\x00\x80", 5125, true), { 0x80000001 },
  "UNSIGNED_INT said normalized: the integer as it is")
t.is_deeply(values("", 5126), {}, "no bytes: an empty table")

-- Sparse: SCALAR UNSIGNED_SHORT 10, 20, 30, 40; indices 1, 3 get 99, 77
local base = string.pack("<I2I2I2I2", 10, 20, 30, 40)
local sparse = { count = 2, index_type = 5121, indices = "\1\3",
  values = string.pack("<I2I2", 99, 77) }
t.is_deeply(values(assert(elements(base, 0, 4, 2, 2, sparse)), 5123),
  { 10, 99, 30, 77 }, "sparse values in place")
sparse.indices = "\3\1"
local none, msg = elements(base, 0, 4, 2, 2, sparse)
t.is(none, nil, "decreasing sparse indices: nil")
t.is(msg, "sparse index 1 is 1: indices must increase and stay below the"
  .. " count 4", "  and the message the importer names the accessor with")
sparse.indices, sparse.values = "\1\3", "\99"
t.is(select(2, elements(base, 0, 4, 2, 2, sparse)),
  "sparse values run past their buffer view", "sparse values short")

-- Hostile counts, offsets and strides: nil, message, nothing allocated
none, msg = elements(base, 0, 1 << 62, 4)
t.is(none, nil, "a count of 2^62: nil")
t.is(msg, "count 4611686018427387904: elements of 4 bytes, byteStride 4,"
  .. " from byteOffset 0 run past the end of its 8 bytes", "  and said")
t.is(elements(base, 0, 2, 4, 1 << 62), nil, "a stride of 2^62: nil")
t.is(elements(base, math.maxinteger, 1, 4), nil, "an offset of 2^63-1: nil")
t.is(elements(base, 5, 1, 4), nil, "an element past the end: nil")
t.is(elements(base, 4, 1, 4), "\30\0\40\0", "the last 4 bytes: given")

raises("rsxmesh%.gltf_elements: bad argument #1 %(string expected, got"
  .. " no value%)$", "gltf_elements()", elements)
raises("rsxmesh%.gltf_elements: bad argument #2 %(a byte offset is 0 or"
  .. " more%)$", "offset -1", elements, base, -1, 1, 4)
raises("rsxmesh%.gltf_elements: bad argument #3 %(a count is 1 or more%)$",
  "count 0", elements, base, 0, 0, 4)
raises("rsxmesh%.gltf_elements: bad argument #4 %(an element is 1 to 64"
  .. " bytes%)$", "size 65", elements, base, 0, 1, 65)
raises("rsxmesh%.gltf_elements: bad argument #5 %(a stride is at least the"
  .. " element's size%)$", "stride 3 for 4 bytes", elements, base, 0, 1, 4, 3)
raises("number has no integer representation", "count 1.5", elements, base,
  0, 1.5, 4)
raises("rsxmesh%.gltf_elements: sparse%.count is not an integer in 1%.%.4$",
  "a sparse count of 2^62", elements, base, 0, 4, 2, 2,
  { count = 1 << 62, index_type = 5121, indices = "", values = "" })
raises("rsxmesh%.gltf_elements: sparse%.indices is not a string$",
  "sparse indices a table", elements, base, 0, 4, 2, 2,
  { count = 1, index_type = 5121, indices = {}, values = "" })
raises("rsxmesh%.gltf_elements: unknown sparse field 'offset'",
  "a sparse field mistyped", elements, base, 0, 4, 2, 2,
  { count = 1, index_type = 5121, indices = "", values = "", offset = 0 })
t.is(select(2, elements(base, 0, 4, 2, 2, { count = 1, index_type = 5122,
  indices = "\0\0", values = "\0\0" })), "sparse indices of componentType"
  .. " 5122", "SHORT sparse indices: nil, message")

raises("rsxmesh%.gltf_values: bad argument #2 %(not a glTF componentType%)$",
  "componentType 5124", values, "\0\0\0\0", 5124)
raises("rsxmesh%.gltf_values: bad argument #1 %(not a whole number of"
  .. " components%)$", "3 bytes of SHORT", values, "\0\0\0", 5122)
raises("rsxmesh%.gltf_values: bad argument #2 %(number expected, got"
  .. " string%)$", "componentType a string", values, "", "FLOAT")

-- Node transforms: a translation by (1, 2, 3); a scale of 2 in x
local move = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1 }
local scale_x = { 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 }
local transform = rsxmesh.gltf_transform
t.is_deeply(transform(move, { 1, 1, 1, 0, 0, 0 }, "position"),
  { 2.0, 3.0, 4.0, 1.0, 2.0, 3.0 }, "positions moved by (1, 2, 3)")
t.is_deeply(transform(move, { 1, 1, 1 }, "vector"), { 1.0, 1.0, 1.0 },
  "a vector not moved")
t.is_deeply(transform(scale_x, { 1, 1, 0 }, "normal"),
  { 0.5 / math.sqrt(1.25), 1 / math.sqrt(1.25), 0.0 },
  "a normal scaled x2 in x: (0.5, 1, 0) made unit")
t.is_deeply(transform(move, {}, "position"), {}, "no vectors")
raises("rsxmesh%.gltf_transform: bad argument #1 %(not 16 numbers%)$",
  "15 numbers", transform, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
  15 }, {}, "position")
raises("rsxmesh%.gltf_transform: m%[3%] is not a number$", "a string in m",
  transform, { 1, 2, "x", 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 }, {},
  "position")
raises("rsxmesh%.gltf_transform: bad argument #2 %(not a whole number of"
  .. " xyz%)$", "4 numbers", transform, move, { 1, 2, 3, 4 }, "position")
raises("rsxmesh%.gltf_transform: v%[2%] is not a number$", "false in v",
  transform, move, { 1, false, 3 }, "position")
raises("rsxmesh%.gltf_transform: bad argument #3 %(invalid option 'point'%)$",
  "how 'point'", transform, move, { 1, 2, 3 }, "point")

-- rsxmesh.gltf_frames: A = T.xyz, B = cross(N, T.xyz) * w, turned round
-- for MikkTSpace's w: (0, 0, 1) x (1, 0, 0) = (0, 1, 0)
local frames = rsxmesh.gltf_frames
local A, B = frames({ 1, 0, 0, -1 }, { 0, 0, 1 })
t.is_deeply({ A, B }, { { 1, 0, 0 }, { 0, -1, 0 } },
  "gltf_frames: A = T.xyz, B = cross(N, T) * w")
A, B = frames({ 1, 0, 0, -1 }, { 0, 0, 1 }, "mikktspace")
t.is(B[2], 1, "... turned round for MikkTSpace's")
local none, why = frames({ 1, 0, 0, 1, 0 / 0, 0, 0, 1 }, { 0, 0, 1, 0, 0, 1 })
t.is(none, nil, "a NaN: nil")
t.like(why, "^vertex 2: TANGENT %(%-?nan, 0, 0, 1%) or NORMAL %(0, 0, 1%) is"
  .. " not finite$", "... and the vertex, 1-based, and its values")
raises("rsxmesh%.gltf_frames: bad argument #1 %(not an xyzw for each xyz of"
  .. " N%)$", "3 numbers of T", frames, { 1, 0, 0 }, { 0, 0, 1 })
raises("rsxmesh%.gltf_frames: bad argument #2 %(not a whole number of"
  .. " xyz%)$", "2 numbers of N", frames, { 1, 0, 0, 1 }, { 0, 1 })
raises("rsxmesh%.gltf_frames: bad argument #3 %(invalid option 'gl'%)$",
  "convention 'gl'", frames, { 1, 0, 0, 1 }, { 0, 0, 1 }, "gl")
raises("rsxmesh%.gltf_frames: T%[2%] is not a number$", "a string in T",
  frames, { 1, "x", 0, 1 }, { 0, 0, 1 })

-- rsxmesh.gltf_tangents: a quad in z = 0, u along +x, v along -y (V'
-- along +y): T = (1, 0, 0), w = +1 at each vertex (t/tangent.c has the
-- rule's cases)
local tangents = rsxmesh.gltf_tangents
local QP = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 }
local QN = { 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1 }
local QUV = { 0, 1, 1, 1, 1, 0, 0, 0 }
local T, across = tangents(QP, QN, QUV, { 1, 2, 3, 1, 3, 4 })
t.is_deeply(T, { 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1 },
  "gltf_tangents: a quad's T and w")
t.is_deeply(across, {}, "... none across N")
T, across = tangents(QP, QN, QUV, { 1, 2, 3 })
t.is_deeply(across, { 4 }, "a vertex of no triangle: listed, 1-based")
raises("rsxmesh%.gltf_tangents: triangles%[3%] is not a vertex of 1%.%.4$",
  "vertex 5 of 4", tangents, QP, QN, QUV, { 1, 2, 5 })
raises("rsxmesh%.gltf_tangents: triangles%[1%] is not a vertex of 1%.%.4$",
  "vertex 0", tangents, QP, QN, QUV, { 0, 1, 2 })
raises("rsxmesh%.gltf_tangents: bad argument #4 %(not a whole number of"
  .. " triangles%)$", "4 numbers", tangents, QP, QN, QUV, { 1, 2, 3, 4 })
raises("rsxmesh%.gltf_tangents: bad argument #3 %(not a uv for each of P%)$",
  "3 UVs for 4", tangents, QP, QN, { 0, 0, 1, 0, 1, 1 }, {})
raises("rsxmesh%.gltf_tangents: UV%[1%] is not a number$", "a string in UV",
  tangents, QP, QN, { "u", 1, 1, 1, 1, 0, 0, 0 }, {})

t.done_testing()
