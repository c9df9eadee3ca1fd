/*
** rsxlua.h - internals shared by the files of the Lua binding.
** Floors, as Lua's lauxlib.c / libraries / linit.c: base.c (helpers every
** file uses: classes, checks, failures, findings, tracking) under the
** shared pieces (triangles.c, build.c) under one file per userdata type
** (and functions.c), under the operations over several types (render.c),
** under init.c (luaopen_rsxmesh). A type's file includes only this header
** and reaches another type only through the push function of an object
** it returns; t/binding-floors.sh checks it. A new type: its RSXLUA_
** name, its push function and its rsxlua_open_ function here, and one
** line in init.c.
*/
#ifndef RSXLUA_H
#define RSXLUA_H

#include <lua.h>
#include <lauxlib.h>

#include "rsxmesh.h"
#include "render.h"
#include "lines.h"

#define RSXLUA_BUNDLE "rsxmesh.bundle"
#define RSXLUA_MESH "rsxmesh.mesh"
#define RSXLUA_SUBMESH "rsxmesh.submesh"
#define RSXLUA_MATERIAL "rsxmesh.material"
#define RSXLUA_FORMAT "rsxmesh.format"
#define RSXLUA_ACCESSOR "rsxmesh.accessor"
#define RSXLUA_RECORD "rsxmesh.record"
#define RSXLUA_WRITER "rsxmesh.writer"
#define RSXLUA_IMAGE "rsxmesh.image"
#define RSXLUA_POOL "rsxmesh.pool"

/* A bundle: NULL once closed (it starts closed, as liolib's newprefile,
** so a memory error before the file is read leaves a valid object).
** pins counts the calls running on its bytes (rsxlua_pin): a close while
** one runs only marks it closed, and the last unpin frees the bytes, kept
** in held until then. */
typedef struct rl_bundle {
  rsx_bundle *b;
  rsx_bundle *held;
  unsigned pins;
} rl_bundle;

/* Every child of a bundle starts with this: the bundle whose memory it
** views (NULL when it views a mesh built by rsxmesh.mesh). The bundle's
** userdata is anchored in the child's user value, so the pointer stays
** valid; b->b == NULL means the bundle was closed. */
typedef struct rl_child {
  rl_bundle *bundle;
} rl_child;

typedef struct rl_mesh {
  rl_bundle *bundle;   /* NULL for a built mesh */
  const rsx_mesh *m;   /* into the bundle, or &own */
  rsx_mesh own;        /* a built mesh: views of anchored Lua strings */
  rl_bundle *materials; /* whose material table the submeshes' numbers
                        ** index: the bundle, the bundle of a copy's
                        ** source (m:with), NULL for a writer's numbers */
} rl_mesh;

typedef struct rl_submesh {
  rl_bundle *bundle;
  const rsx_mesh *m;
  const rsx_submesh *s;
  uint32_t index;      /* 0-based in its mesh */
  rl_bundle *materials; /* as its mesh's */
} rl_submesh;

typedef struct rl_material {
  rl_bundle *bundle;
  const rsx_material *mat;
  uint32_t index;      /* 0-based in its bundle */
} rl_material;

typedef struct rl_record {
  rl_bundle *bundle;
  const uint8_t *p;
  uint32_t size;
} rl_record;

/* One decoded attribute: the address of vertex 0 and the stride, so
** acc:get is one multiply and one decode. */
typedef struct rl_accessor {
  rl_bundle *bundle;
  const rsx_mesh *m;
  const rsx_attr_info *info;
  const uint8_t *base;
  uint32_t stride;
  uint32_t count;
  int kind;
} rl_accessor;

typedef struct rl_format {
  rsx_format f;
} rl_format;

/* A property read through __index: pushes one value for self at 1. */
typedef struct rl_member {
  const char *name;
  int (*push)(lua_State *L);
} rl_member;

/* ------------------------------------------------------------ base.c */

/* Register metatable tname: metamethods mt (may be NULL), methods, and
** the property getters members; __index resolves methods first, then
** members, then gives nil. Leaves nothing on the stack. */
void rsxlua_class(lua_State *L, const char *tname, const luaL_Reg *mt,
                  const luaL_Reg *methods, const rl_member *members);
/* Pushes the __newindex of type tname ("rsxmesh.mesh"): assigning any
** field raises "mesh.name is read-only". rsxlua_class installs it. */
void rsxlua_push_newindex(lua_State *L, const char *tname);

/* Argument checks, as lauxlib's luaL_check* but in the binding's one
** style of error: the function's name first, then what is wrong,
** "accessor:get: bad argument #1 (number expected, got string)" (a
** method's self is not counted; "fname: bad self (...)" for it). Every
** argument error of the binding reads so: use these, not luaL_check*. */
int rsxlua_argerror(lua_State *L, int arg, const char *fname,
                    const char *extramsg);
int rsxlua_typeerror(lua_State *L, int arg, const char *fname,
                     const char *tname);
lua_Integer rsxlua_checkinteger(lua_State *L, int arg, const char *fname);
lua_Integer rsxlua_optinteger(lua_State *L, int arg, lua_Integer dflt,
                              const char *fname);
lua_Number rsxlua_checknumber(lua_State *L, int arg, const char *fname);
const char *rsxlua_checklstring(lua_State *L, int arg, size_t *len,
                                const char *fname);
const char *rsxlua_optstring(lua_State *L, int arg, const char *dflt,
                             const char *fname);
void rsxlua_checktype(lua_State *L, int arg, int t, const char *fname);
void *rsxlua_checkudata(lua_State *L, int arg, const char *tname,
                        const char *fname);
int rsxlua_checkoption(lua_State *L, int arg, const char *const list[],
                       const char *fname);
/* Every key of the table at idx is a string of known (NULL-ended) or one
** that accept (when not NULL) takes; else raises "fname: unknown what
** 'key'", so that a typo does not pass for a default. */
void rsxlua_check_keys(lua_State *L, int idx, const char *const known[],
                       int (*accept)(lua_State *L, const char *key,
                                     const void *ud),
                       const void *ud, const char *fname, const char *what);
/* A value named in a message (an unknown key, kind or option), cut to its
** first RL_SHOWN bytes and "..." so that the message stays one short
** line whatever the script gave: pushed and returned. */
#define RL_SHOWN 40
const char *rsxlua_shown(lua_State *L, const char *s, size_t len);
#define rsxlua_argcheck(L, cond, arg, fname, extramsg) \
  ((void)((cond) || rsxlua_argerror((L), (arg), (fname), (extramsg))))

/* A new userdata of size bytes (zeroed) and metatable tname, whose user
** value anchors the object at index parent (its mesh or bundle), so the
** parent outlives it (LPeg's recipe); pushed and returned. */
void *rsxlua_new_child(lua_State *L, size_t size, const char *tname,
                       int parent);

/* luaL_checkudata for a child, raising "fname: bundle is closed" after
** an explicit close. */
void *rsxlua_check(lua_State *L, int idx, const char *tname,
                   const char *fname);

/* Pins: Lua code can run in the middle of any call of the binding (an
** __index of an option table, a callback, or a finalizer run by any
** allocation), and that code can close the bundle whose bytes the call
** is reading. So every call that reads a bundle's bytes pins the bundle
** for its whole length: rsxlua_pin pushes the bundle's pin object and
** marks it to-be-closed (lua_toclose), so that the pin is dropped when
** the call returns or raises; a close in between marks the bundle closed
** (later calls raise "bundle is closed") and leaves the bytes to the
** last unpin. rsxlua_pin pushes exactly one value (the pin, or nil when
** bundle is NULL or closed); the caller must not lua_settop or lua_pop
** below it. The methods and properties of the bundle's types are pinned
** by rsxlua_class (rsxlua_pinned); a function taking other objects pins
** them itself. */
void rsxlua_pin(lua_State *L, rl_bundle *bundle);
/* The accessors: every accessor userdata is marked in a weak set in the
** registry, out of a script's reach. Its metatables cannot tell one: a
** script can reach them (getmetatable) and give any table, a mesh's
** class metatable among them, the accessor's shared metatable as its own
** metatable. rsxlua_mark_accessor marks the userdata at idx. */
void rsxlua_mark_accessor(lua_State *L, int idx);
/* The accessor at idx, or NULL when it is none. */
rl_accessor *rsxlua_test_accessor(lua_State *L, int idx);

/* Make the pin object of the bundle userdata at idx (bun_new). */
void rsxlua_new_pin(lua_State *L, int idx);
/* Close bundle: marks it closed, frees its bytes now or at the last
** unpin. Returns 0 if it was closed already. */
int rsxlua_close_bundle(rl_bundle *bundle);
/* A pin set, for a call that reads several bundles (rsxmesh.render,
** writer:mesh, rsxmesh.writer): rsxlua_pinset pushes an empty set marked
** to-be-closed and returns its index; rsxlua_pinset_add pins bundle (if
** not NULL, open and not yet in the set), anchoring the object at obj
** (the bundle or a child of it) for the call; the set unpins all when the
** call returns or raises. */
int rsxlua_pinset(lua_State *L);
void rsxlua_pinset_add(lua_State *L, int set, int obj, rl_bundle *bundle);

/* Replace the function on top of the stack by a wrapper that pins the
** bundle viewed by argument 1 (self) around each call: kind RL_PIN_BUNDLE
** (self is a bundle), RL_PIN_CHILD (an rl_child of the class whose
** metatable is at mt) or RL_PIN_ACCESSOR (an accessor; mt unused). */
enum { RL_PIN_BUNDLE, RL_PIN_CHILD, RL_PIN_ACCESSOR };
void rsxlua_pinned(lua_State *L, int kind, int mt);

/* Raise "fname: bundle is closed" when bundle is closed. */
void rsxlua_checkopen(lua_State *L, const rl_bundle *bundle,
                      const char *fname);

/* A kind from its name at idx; raises with fname on an unknown name. */
int rsxlua_checkkind(lua_State *L, int idx, const char *fname);

/* Push nil and message, return 2 (the io.open convention). */
int rsxlua_fail(lua_State *L, const char *message);

/* Push the findings of mesh m (s NULL) or of its submesh s: an array of
** {code = "mgp-stride", message = "..."}, possibly empty, in bit order:
** mesh.findings and submesh.findings. */
void rsxlua_push_findings(lua_State *L, const rsx_mesh *m,
                          const rsx_submesh *s);

/* The shortest decimal that reads back as x (a float32), as the core's
** rsx_format_float writes it: into buf (RSX_FLOAT_CHARS bytes at least);
** returns its length. */
#define rsxlua_fmt(x, buf) ((int)rsx_format_float((x), (buf)))

/* The texts of the floats the line writers wrote (acc:lines,
** m:obj_lines), kept for the life of the state. */
rsx_float_memo *rsxlua_float_memo(lua_State *L);

/* The 1-based range [i, j] of args i and j (defaults 1 and n), checked
** against 1..n; an empty range has j = i - 1. Raises naming fname. */
void rsxlua_range(lua_State *L, int arg, uint32_t n, const char *fname,
                  uint32_t *first, uint32_t *count);

/* "F", "SF", "UB", "S32K" or "CMP" for an enum rsx_type. */
const char *rsxlua_type_name(int type);

/* Tracking, for an object whose fields live in a metatable of its own
** (the accessor): its owner (the bundle) keeps a tracker in its user
** value 1, made by rsxlua_new_tracker (pushed on the stack); rsxlua_track
** adds the metatable at mt to the tracker of the owner at index owner;
** rsxlua_close_tracked empties every tracked metatable of its fields (all
** but functions and metamethods) and makes any other read raise
** "accessor.kind: WHY" (the type's short name from __name). */
void rsxlua_new_tracker(lua_State *L);
void rsxlua_track(lua_State *L, int owner, int mt);
void rsxlua_close_tracked(lua_State *L, int owner, const char *why);

/* One userdata per entry of an owner (a bundle's meshes, submeshes and
** materials), so that == and table keys work: the owner keeps a cache in
** its user value 2, made by rsxlua_new_cache (pushed on the stack; it
** holds its values weakly); rsxlua_cached pushes the value cached under
** key (the entry's address) by the owner at index owner and returns 1,
** or pushes nothing and returns 0; rsxlua_cache caches the value on top
** of the stack (left there). */
void rsxlua_new_cache(lua_State *L);
int rsxlua_cached(lua_State *L, int owner, const void *key);
void rsxlua_cache(lua_State *L, int owner, const void *key);

/* The numbers of the flat table at idx, n of them (the caller checked its
** length), as floats in a scratch userdata pushed on the stack; raises
** "fname: what[i] is not a number". */
float *rsxlua_floats(lua_State *L, int idx, size_t n, const char *fname,
                     const char *what);

/* A file of rsxmesh.create (functions.c): the handle's user value begins
** with this, its buffer after it (a multiple of 16 bytes, for the
** buffer's alignment). rsxlua_created_init sets it for the file f just
** opened; rsxlua_created_reserve (the text sink's) reserves disk room
** ahead of f's end where that pays; the handle's close,
** rsxlua_created_close, gives back what was not written. */
typedef struct rl_created {
  int reserve;  /* 1: the file system gains from room reserved ahead */
  int reserved; /* some was */
  int pad[2];
} rl_created;
void rsxlua_created_init(rl_created *c, FILE *f);
void rsxlua_created_reserve(rl_created *c, FILE *f);
int rsxlua_created_close(lua_State *L);

/* Where a bulk method writes its text or bytes (acc:lines, acc:pack,
** s:face_lines, m:unit_normals, ...): a string it returns, or a Lua file
** (io.open's) it writes to in blocks, with no string of the whole.
** rsxlua_text_room gives room for size bytes, rsxlua_text_add keeps len
** of them, rsxlua_text_push pushes the string, or the bytes written (nil,
** message and an errno on a write error). */
#define RL_TEXT_BLOCK 65536
typedef struct rl_text {
  lua_State *L;
  FILE *f;          /* NULL: into b */
  luaL_Stream *stream; /* f's, checked open at each write (a finalizer
                       ** may close it mid-call, as liolib's tofile) */
  const char *fname;
  luaL_Buffer b;
  size_t n, total;  /* bytes in block, bytes written */
  int err;          /* errno of a failed write, 0 */
  int direct;       /* the last room is in the file's buffer */
  int spill;        /* the last room's text is written at once */
  rl_created *created; /* f's when rsxmesh.create made it, or NULL */
  char block[RL_TEXT_BLOCK];
} rl_text;

/* Start t: into the file at arg when it is one (arg 0: none), else into a
** string, reserving hint bytes (an upper bound of the text, 0 if
** unknown). */
void rsxlua_text_init(lua_State *L, rl_text *t, int arg, size_t hint,
                      const char *fname);
char *rsxlua_text_room(rl_text *t, size_t size);
void rsxlua_text_add(rl_text *t, size_t len);
int rsxlua_text_push(rl_text *t);

/* t as the sink of the core's line writers (lines.h); the room they ask
** for at once (RSX_SINK_ROOM) must fit in a block. */
typedef char rsxlua_sink_room_fits[RSX_SINK_ROOM <= RL_TEXT_BLOCK ? 1 : -1];

static inline char *rsxlua_sink_room(void *t, size_t size)
{
  return rsxlua_text_room(t, size);
}

static inline void rsxlua_sink_keep(void *t, size_t len)
{
  rsxlua_text_add(t, len);
}

static inline rsx_sink rsxlua_text_sink(rl_text *t)
{
  rsx_sink sink;
  sink.room = rsxlua_sink_room;
  sink.keep = rsxlua_sink_keep;
  sink.ctx = t;
  return sink;
}

/* The index of a file (io.open's) given as the last argument, from arg
** first on, or 0: its argument is set to nil and the file moved above
** first + 1, so that a range read from first does not see it. */
int rsxlua_take_file(lua_State *L, int first);

/* ------------------------------------------------------- triangles.c */

/* The triangles of count indices from first of m (s names the submesh in
** messages, may be NULL), by mode: RL_TRI_TABLE a flat table of 1-based
** vertex numbers, RL_TRI_BYTES a string of little-endian 0-based u32 (or,
** with file, the stack index of a Lua file, those bytes written to it and
** their count), RL_TRI_COUNT nothing; then the triangle count. nil and a
** message on an index out of range. Returns the number of results. */
enum { RL_TRI_TABLE = 0, RL_TRI_BYTES = 1, RL_TRI_COUNT = 2 };
int rsxlua_triangles(lua_State *L, const rsx_mesh *m, const rsx_submesh *s,
                     uint32_t first, uint32_t count, int mode, int file);
/* The bytes of a scratch space for cap triangles (u32, one byte more so
** that none is empty); raises, naming fname, when they do not fit. */
size_t rsxlua_triangle_bytes(lua_State *L, size_t cap, const char *fname);
/* The same triangles as 0-based vertex numbers, three each, in a scratch
** userdata pushed on the stack: their address, and their count in *n;
** NULL (with nil and the message pushed instead) on an index out of
** range. */
const uint32_t *rsxlua_triangle_list(lua_State *L, const rsx_mesh *m,
                                     const rsx_submesh *s, uint32_t first,
                                     uint32_t count, size_t *n);
/* The same for the whole mesh: its submeshes' triangles in turn. */
int rsxlua_mesh_triangles(lua_State *L, const rsx_mesh *m, int mode,
                          int file);

/* ---------------------------------------------- the types' own files */

/* Constructors: each pushes a new userdata whose user value anchors the
** object at parent (a stack index). */
void rsxlua_push_format(lua_State *L, uint32_t mask);
void rsxlua_push_mesh(lua_State *L, int parent, rl_bundle *bundle,
                      const rsx_mesh *m);
void rsxlua_push_submesh(lua_State *L, int parent, const rl_mesh *mesh,
                         uint32_t index);
void rsxlua_push_material(lua_State *L, int parent, rl_bundle *bundle,
                          uint32_t index);
void rsxlua_push_record(lua_State *L, int parent, rl_bundle *bundle,
                        const uint8_t *p, uint32_t size);
/* The accessor of kind, or nil and a message when it cannot be decoded. */
int rsxlua_push_accessor(lua_State *L, int parent, rl_bundle *bundle,
                         const rsx_mesh *m, int kind);

/* ----------------------------------------------------------- build.c */

/* rsxmesh.mesh{...}: the mesh table at idx to a mesh userdata; returns 1
** with it pushed, or 2 with nil and a message. fname names the caller. */
int rsxlua_build_mesh(lua_State *L, int idx, const char *fname);

/* m:with(t), the method: a built copy of the mesh at 1 with what the
** table at 2 names replaced, every other byte as the mesh has it. */
int rsxlua_mesh_with(lua_State *L);


/* The word for n things in a __tostring: "1 submesh", "2 submeshes". */
static inline const char *rsxlua_plural(lua_Integer n, const char *one,
                                        const char *many)
{
  return n == 1 ? one : many;
}

/* Each part of the module: registers its metatable (if any) and adds its
** functions (rsxmesh.open, rsxmesh.format, ...) to the module table at the
** top of the stack, which it leaves there. Called in turn by init.c. */
void rsxlua_open_functions(lua_State *L);
void rsxlua_open_json(lua_State *L);
void rsxlua_open_bundle(lua_State *L);
void rsxlua_open_mesh(lua_State *L);
void rsxlua_open_submesh(lua_State *L);
void rsxlua_open_material(lua_State *L);
void rsxlua_open_format(lua_State *L);
void rsxlua_open_accessor(lua_State *L);
void rsxlua_open_record(lua_State *L);
void rsxlua_open_writer(lua_State *L);
void rsxlua_open_image(lua_State *L);
void rsxlua_open_render(lua_State *L);
void rsxlua_open_pool(lua_State *L);
void rsxlua_open_scan(lua_State *L);
void rsxlua_open_gltf(lua_State *L);

/* ----------------------------------------------------------- image.c */

/* The image of the image userdata at idx, a value that is not an argument
** (a field, a callback's result): raises "fname: image expected, got X".
** The methods check their arguments in the argument style. */
rsx_image *rsxlua_checkimage(lua_State *L, int idx, const char *fname);
/* Raise "fname: width W out of range 1..16384" (or height) unless both
** sides are ones the core accepts; any integers. */
void rsxlua_check_size(lua_State *L, lua_Integer w, lua_Integer h,
                       const char *fname);
/* Push a new image userdata owning img. */
void rsxlua_push_image(lua_State *L, rsx_image *img);
/* The colour {r, g, b [, a]} at idx (a defaults to 255); raises naming
** fname and what ("background"). */
void rsxlua_checkcolour(lua_State *L, int idx, const char *fname,
                        const char *what, uint8_t rgba[4]);

int luaopen_rsxmesh(lua_State *L);

#endif
