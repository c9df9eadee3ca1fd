---@meta rsxmesh
-- types/rsxmesh.lua - LuaLS annotations for the rsxmesh module, so that an
-- editor (VS Code's Lua extension, Neovim's lua_ls) completes and checks a
-- script's calls. Never run: the module is C (src/lua/). Point LuaLS at
-- this folder: "Lua.workspace.library": ["/usr/share/rsxmesh/types"].
-- doc/lua-api.md says what each does; t/api-meta.lua keeps the three (the
-- module, this file, the manual) in step.

---@class rsxmesh
---@field kinds string[] the 13 kind names, in bit order
---@field BASE_COLOUR integer 0x95591C40, the base-colour sampler slot
---@field UNIT_TOLERANCE number 0.005, the note's test for a unit vector
---@field _VERSION string "rsxmesh 0.1.0"
---@field program string? the host's name as run ("./rsxmesh"); nil in another Lua
local rsxmesh = {}

---@alias rsxmesh.kind "position"|"colour"|"normal"|"tangent_a"|"tangent_b"|"uv0"|"uv1"|"uv2"|"uv3"|"extra_a"|"extra_b"|"s32k2"|"half4"

-- ---------------------------------------------------------------- module

---A bundle read from a file, or nil and a message naming the file.
---@param path string
---@return rsxmesh.bundle|nil bundle
---@return string? message
function rsxmesh.open(path) end

---A bundle read from a string; name is used in messages (default "(memory)").
---@param bytes string
---@param name? string
---@return rsxmesh.bundle|nil bundle
---@return string? message
function rsxmesh.load(bytes, name) end

---The format (layout) a mask implies.
---@param mask integer
---@return rsxmesh.format
function rsxmesh.format(mask) end

---A mesh built from strings (see doc/lua-api.md), or nil and a message.
---@param t table
---@return rsxmesh.mesh|nil mesh
---@return string? message
function rsxmesh.mesh(t) end

---A new bundle writer; with base, its string table starts as base's, and
---with opts.layout = "base" the file is laid out as base is.
---@param base? rsxmesh.bundle
---@param opts? { layout?: "base"|"rsxmesh" }
---@return rsxmesh.writer
function rsxmesh.writer(base, opts) end

---binary16 bits to a number.
---@param h integer
---@return number
function rsxmesh.half(h) end

---A number to binary16 bits (round to nearest even).
---@param x number
---@return integer
function rsxmesh.to_half(x) end

---A CMP word to x, y, z.
---@param u integer
---@return number x
---@return number y
---@return number z
function rsxmesh.cmp(u) end

---x, y, z to a CMP word.
---@param x number
---@param y number
---@param z number
---@return integer
function rsxmesh.to_cmp(x, y, z) end

---x rounded to the nearest float32.
---@param x number
---@return number
function rsxmesh.float32(x) end

---The shortest decimal that reads back as the same float32.
---@param x number
---@return string
function rsxmesh.fmt(x) end

---True when a Lua file handle is a terminal.
---@param file file*
---@return boolean
function rsxmesh.isatty(file) end

---A file open for writing (io.open(path, "wb")) with a 256 KiB buffer.
---@param path string
---@return file*|nil
---@return string? message
---@return integer? errno
function rsxmesh.create(path) end

---Wall-clock seconds from a monotonic clock (subtract two readings).
---@return number
function rsxmesh.clock() end

---The JSON text rsxmesh.json writes (call it through json.encode).
---@param value any
---@param opts? table
---@return string
function rsxmesh.json_text(value, opts) end

---The number of processors online.
---@return integer
function rsxmesh.processors() end

---A big-endian index buffer (size 2 or 4) from vertex numbers (base
---default 1 is subtracted; -1 is a restart).
---@param size 2|4
---@param t integer[]
---@param base? integer
---@return string
function rsxmesh.indices(size, t, base) end

---A glTF accessor's elements tightly packed (gltf-import's reading), sparse
---values in place; or nil and a message when one lies outside bytes.
---@param bytes string
---@param offset integer
---@param count integer
---@param size integer
---@param stride? integer
---@param sparse? {count: integer, index_type: integer, indices: string, values: string}
---@return string|nil
---@return string? message
function rsxmesh.gltf_elements(bytes, offset, count, size, stride, sparse) end

---The game's tangent vectors A and B (flat xyz tables) of glTF's TANGENT
---T (flat xyzw) and NORMAL N: A = T.xyz, B = cross(N, A) * w, turned round
---for "mikktspace" (Blender's w); nil and a message naming the vertex when
---a value is not finite.
---@param T number[]
---@param N number[]
---@param convention? "export"|"mikktspace"
---@return number[]|nil A
---@return number[]|string B or message
function rsxmesh.gltf_frames(T, N, convention) end

---A glTF TANGENT (flat xyzw) computed from positions P, normals N (flat
---xyz), glTF UVs (flat uv) and triangles (flat, 1-based vertex numbers)
---with MikkTSpace's convention, as Blender exports it; and the vertices
---(1-based) no triangle with UV area gave a direction, whose T is any
---unit vector across N.
---@param P number[]
---@param N number[]
---@param UV number[]
---@param triangles integer[]
---@return number[] T
---@return integer[] across
function rsxmesh.gltf_tangents(P, N, UV, triangles) end

---The 3-vectors of the flat table v through the glTF node matrix m
---(column-major): a position with its translation, a vector without, a
---normal through the inverse transpose, made unit.
---@param m number[]
---@param v number[]
---@param how "position"|"vector"|"normal"
---@return number[]
function rsxmesh.gltf_transform(m, v, how) end

---The little-endian glTF components of bytes as a flat table of numbers,
---normalized integers mapped as the glTF 2.0 spec says.
---@param bytes string
---@param componentType integer
---@param normalized? boolean
---@return number[]
function rsxmesh.gltf_values(bytes, componentType, normalized) end

---A new image, transparent black, or filled with fill = {r, g, b [, a]}.
---@param w integer
---@param h integer
---@param fill? integer[]|string
---@return rsxmesh.image
function rsxmesh.image(w, h, fill) end

---An image read from a PNG file, or nil and a message.
---@param path string
---@return rsxmesh.image|nil image
---@return string? message
function rsxmesh.read_png(path) end

---Render meshes into an image (opts: meshes, width, height, camera,
---shade, uv, stored, filter, cull, background, texture, textures, legend).
---@param opts table
---@return rsxmesh.image image
---@return table info
function rsxmesh.render(opts) end

---A pool that will run command (the program first) in at most n worker
---processes.
---@param command string[]
---@param n integer
---@return rsxmesh.pool
function rsxmesh.pool(command, n) end

---What the scanner finds in a file of unknown layout (doc/scripts.md, scan):
---{path, size, found = {...}, meshes = {...}}; nil and a message when the
---file cannot be read. opts: min_vertices (default 24), bytes = true (the
---first argument is the bytes, not a path), chunk (4096 to 2^30), text =
---true (also the lines `rsxmesh scan` prints), tables = false (the counts
---found_count and mesh_count alone), baseline_vectors = true (SSE2 even
---where there is AVX2: the same findings), uv_tries (the starts the UV
---search may try in the input, default 65,536).
---@param path string
---@param opts? {min_vertices?: integer, bytes?: boolean, chunk?: integer, text?: boolean, tables?: boolean, baseline_vectors?: boolean, uv_tries?: integer}
---@return table|nil
---@return string? message
function rsxmesh.scan(path, opts) end

---In a worker of a pool: hand bytes over as this job's report.
---@param bytes string
function rsxmesh.pool_report(bytes) end

---True in a process that a pool started.
---@return boolean
function rsxmesh.pool_worker() end

-- ---------------------------------------------------------------- bundle

---@class rsxmesh.bundle
---@field path string the path as given
---@field name string the file's base name
---@field size integer bytes
---@field mesh_count integer
---@field submesh_count integer
---@field material_count integer
---@field sampler_count integer
---@field closed boolean
---@operator len: integer
local bundle = {}

---Mesh number i (1-based), or the first mesh named i; nil when none.
---@param i integer|string
---@return rsxmesh.mesh|nil
function bundle:mesh(i) end

---An iterator: for i, mesh in b:meshes() do
---@return fun(): integer, rsxmesh.mesh
function bundle:meshes() end

---Material number i, or the first material named i; nil when none.
---@param i integer|string
---@return rsxmesh.material|nil
function bundle:material(i) end

---An iterator: for i, mat in b:materials() do
---@return fun(): integer, rsxmesh.material
function bundle:materials() end

---Close the bundle (a second close does nothing).
function bundle:close() end

-- ------------------------------------------------------------------ mesh

---@class rsxmesh.mesh
---@field name string
---@field number integer? its number in the bundle; nil for a built mesh
---@field label string "mesh 13 (bridge_03)", as messages name it
---@field bundle rsxmesh.bundle? nil for a built mesh
---@field mask integer
---@field vertex_count integer
---@field mmp_stride integer
---@field mgp_stride integer
---@field format rsxmesh.format
---@field index_count integer
---@field index_size 2|4
---@field primitive "triangles"|"strip"
---@field submesh_count integer
---@field findings table[] { code =, message = }
local mesh = {}

---True when the mask holds the kind.
---@param kind rsxmesh.kind
---@return boolean
function mesh:has(kind) end

---The kinds the mask holds, in bit order.
---@return rsxmesh.kind[]
function mesh:attributes() end

---The accessor of a stored attribute, or nil and a message.
---@param kind rsxmesh.kind
---@return rsxmesh.accessor|nil accessor
---@return string? message
function mesh:attribute(kind) end

---Submesh i, or nil.
---@param i integer
---@return rsxmesh.submesh|nil
function mesh:submesh(i) end

---An iterator: for i, s in m:submeshes() do
---@return fun(): integer, rsxmesh.submesh
function mesh:submeshes() end

---The metadata record.
---@return rsxmesh.record
function mesh:record() end

---The triangles of every submesh: a flat table of 1-based vertex numbers
---and the count, or nil and a message.
---@return integer[]|nil triangles
---@return integer|string count
function mesh:triangles() end

---The same triangles as little-endian u32, 0-based, and the count.
---@param file? file*
---@return string|integer|nil bytes
---@return integer|string count
function mesh:triangle_bytes(file) end

---The raw value of index i (1-based position in the buffer).
---@param i integer
---@return integer
function mesh:index(i) end

---The normals as glTF takes them (float32 bytes) and what was fixed.
---@param file? file*
---@return string|integer|nil bytes
---@return table|string fixed
function mesh:unit_normals(file) end

---glTF's TANGENT, four float32 a vertex.
---@param file? file*
---@return string|integer|nil bytes
---@return table|string fixed
function mesh:tangent_frames(file) end

---The bytes of stream "mmp" or "mgp" as stored.
---@param name "mmp"|"mgp"
---@return string
function mesh:stream(name) end

---The index buffer's bytes as stored (big-endian).
---@param file? file*
---@return string|integer
function mesh:index_bytes(file) end

---A copy with what t names replaced, or nil and a message.
---@param t table
---@return rsxmesh.mesh|nil mesh
---@return string? message
function mesh:with(t) end

---The mesh as obj-export writes it: an o line, its v, vn and vt lines, and
---a g group with its usemtl and f lines per submesh; the text (or the
---bytes written to opts.file), the triangles and the vertices; nil and a
---message when something it needs cannot be decoded (nothing written).
---@param opts? {name?: string, uv?: integer, colours?: boolean, counts?: {v?: integer, vt?: integer, vn?: integer}, materials?: table<integer, string>, none?: string, used?: table<string, boolean>, file?: file*}
---@return string|integer|nil text
---@return integer|string triangles
---@return integer? vertices
function mesh:obj_lines(opts) end

-- --------------------------------------------------------------- submesh

---@class rsxmesh.submesh
---@field index integer its number in the mesh
---@field mesh rsxmesh.mesh
---@field first_index integer 0-based position in the index buffer
---@field index_count integer
---@field material rsxmesh.material?
---@field selectors integer the four selector bytes as one word
---@field findings table[]
local submesh = {}

---Byte i (0..3) of the selectors.
---@param i integer
---@return integer
function submesh:selector(i) end

---The stored set (0..3) feeding logical UV i, or nil when absent.
---@param i integer
---@return integer|nil
function submesh:uv_set(i) end

---The accessor of the stored set feeding logical UV i, or nil and a
---message.
---@param i integer
---@return rsxmesh.accessor|nil accessor
---@return string? message
function submesh:uv(i) end

---The triangles: a flat table of 1-based vertex numbers and the count,
---or nil and a message.
---@return integer[]|nil triangles
---@return integer|string count
function submesh:triangles() end

---The number of triangles.
---@return integer|nil count
---@return string? message
function submesh:triangle_count() end

---The same triangles as little-endian u32, 0-based, and the count.
---@param file? file*
---@return string|integer|nil bytes
---@return integer|string count
function submesh:triangle_bytes(file) end

---The triangles as text lines (OBJ's f lines), written by C.
---@param prefix string
---@param columns table
---@param file? file*
---@return string|integer|nil text
---@return integer|string count
function submesh:face_lines(prefix, columns, file) end

---The RSX vertex declaration: an array of registers.
---@return table[]
function submesh:declaration() end

---The submesh record.
---@return rsxmesh.record
function submesh:record() end

-- -------------------------------------------------------------- material

---@class rsxmesh.material
---@field name string
---@field index integer its number in the bundle
---@field base_colour string? the texture of the base-colour slot
---@field sampler_count integer
local material = {}

---An array of { slot =, texture = }.
---@return table[]
function material:samplers() end

-- ---------------------------------------------------------------- format

---@class rsxmesh.format
---@field mask integer
---@field packed boolean
---@field mmp_stride integer
---@field mgp_stride integer
---@field undefined_bits integer
local format = {}

---@param kind rsxmesh.kind
---@return boolean
function format:has(kind) end

---The present kinds in bit order.
---@return rsxmesh.kind[]
function format:attributes() end

---The MGP kinds in stream order.
---@return rsxmesh.kind[]
function format:order() end

---Where and how a kind is stored.
---@param kind rsxmesh.kind
---@return table|nil
function format:info(kind) end

---The bytes of a whole stream of n vertices from columns[kind].
---@param stream "mmp"|"mgp"
---@param n integer
---@param columns table<rsxmesh.kind, number[]>
---@return string
function format:encode(stream, n, columns) end

-- -------------------------------------------------------------- accessor

---@class rsxmesh.accessor
---@field kind rsxmesh.kind
---@field mesh rsxmesh.mesh
---@field components integer
---@field type string
---@field stream string
---@field offset integer
---@field stride integer
---@operator len: integer
local accessor = {}

---The components of vertex i.
---@param i integer
---@return number ...
function accessor:get(i) end

---An iterator: for i, x, y, z in acc:iter() do
---@return fun(): integer, number, number?, number?, number?
function accessor:iter() end

---A flat table of the components of vertices i..j (default all).
---@param i? integer
---@param j? integer
---@return number[]
function accessor:range(i, j) end

---A line per vertex, prefix first (opts: scale, offset, with, file ...).
---@param prefix string
---@param ... any i, j, opts
---@return string|integer
function accessor:lines(prefix, ...) end

---The components as little-endian float32 bytes.
---@param ... any i, j, file
---@return string|integer
function accessor:pack(...) end

---The stored bytes of the attribute, vertex after vertex.
---@param ... any i, j, file
---@return string|integer
function accessor:raw(...) end

---Per-component minimum and maximum, NaNs skipped, non-finite values.
---@return number[] min
---@return number[] max
---@return integer nan
---@return integer non_finite
function accessor:bounds() end

---The number of NaN and infinite values.
---@return integer
function accessor:non_finite() end

---The lengths of the first three components, summed up.
---@param tolerance? number
---@return table
function accessor:lengths(tolerance) end

-- ---------------------------------------------------------------- record

---@class rsxmesh.record
---@field size integer
local record = {}

---@param off integer
---@return integer
function record:u8(off) end
---@param off integer
---@return integer
function record:s8(off) end
---@param off integer
---@return integer
function record:u16(off) end
---@param off integer
---@return integer
function record:s16(off) end
---@param off integer
---@return integer
function record:u32(off) end
---@param off integer
---@return integer
function record:s32(off) end
---@param off integer
---@return number
function record:f16(off) end
---@param off integer
---@return number
function record:f32(off) end

---The raw bytes (default all, or from off to the end).
---@param off? integer
---@param len? integer
---@return string
function record:bytes(off, len) end

-- ---------------------------------------------------------------- writer

---@class rsxmesh.writer
---@field mesh_count integer
---@field material_count integer
local writer = {}

---Add a material; returns its number.
---@param name string
---@param samplers? table[]
---@return integer
function writer:material(name, samplers) end

---Add a mesh: true, or nil and a message.
---@param m rsxmesh.mesh|table
---@return boolean|nil ok
---@return string? message
function writer:mesh(m) end

---The whole file as a string.
---@return string
function writer:bytes() end

---Save whole or not at all: true, or nil and a message.
---@param path string
---@return boolean|nil ok
---@return string? message
function writer:save(path) end

---Free the writer.
function writer:close() end

-- ----------------------------------------------------------------- image

---@class rsxmesh.image
---@field width integer
---@field height integer
local image = {}

---r, g, b, a (0..255) of pixel x, y (1-based from the top-left).
---@param x integer
---@param y integer
---@return integer r
---@return integer g
---@return integer b
---@return integer a
function image:get(x, y) end

---@param x integer
---@param y integer
---@param r integer
---@param g integer
---@param b integer
---@param a? integer
function image:set(x, y, r, g, b, a) end

---Copy src with its top-left at x, y, clipped.
---@param src rsxmesh.image
---@param x integer
---@param y integer
function image:paste(src, x, y) end

---Draw a line between two pixels, both included.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param r integer
---@param g integer
---@param b integer
---@param a? integer
function image:line(x1, y1, x2, y2, r, g, b, a) end

---Write an RGBA PNG whole or not at all: true, or nil and a message.
---@param path string
---@return boolean|nil ok
---@return string? message
function image:save(path) end

---The pixels as a string, rows top to bottom, r, g, b, a a pixel.
---@return string
function image:bytes() end

---Free the pixels now.
function image:close() end

-- ------------------------------------------------------------------ pool

---@class rsxmesh.pool
local pool = {}

---Add a job: a line a worker reads; greater sizes start first.
---@param line string
---@param size? number
function pool:add(line, size) end

---The next job in the order added: its number, stdout, stderr, report
---(nil when the worker died), status, and why the worker's channel failed
---it (nil when it did not); nil after the last; false when a signal cut
---the wait short.
---@return integer|false|nil number
---@return string out
---@return string err
---@return string? report
---@return integer status
---@return string? problem
function pool:next() end

---The number of jobs finished so far.
---@return integer
function pool:done() end

---End the workers (interrupt: SIGINT first); how many were running.
---@param interrupt? boolean
---@return integer
function pool:stop(interrupt) end

---Stop the workers and free the pool.
function pool:close() end

return rsxmesh
