/*
** mesh.c - the mesh userdata: its attributes, submeshes, triangles and
** findings, and rsxmesh.mesh{...} (built by build.c).
*/
#include <stdio.h>
#include <string.h>

#include "rsxlua.h"

static rl_mesh *me_check(lua_State *L, int idx, const char *fname)
{
  return rsxlua_check(L, idx, RSXLUA_MESH, fname);
}

void rsxlua_push_mesh(lua_State *L, int parent, rl_bundle *bundle,
                      const rsx_mesh *m)
{
  rl_mesh *me;
  parent = lua_absindex(L, parent); /* the bundle */
  if (rsxlua_cached(L, parent, m)) return;
  me = rsxlua_new_child(L, sizeof *me, RSXLUA_MESH, parent);
  me->bundle = bundle;
  me->m = m;
  me->materials = bundle;
  rsxlua_cache(L, parent, m);
}

/* ------------------------------------------------------------- methods */

static int m_has(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:has");
  int kind = rsxlua_checkkind(L, 2, "mesh:has");
  lua_pushboolean(L, me->m->format.attr[kind] != NULL);
  return 1;
}

static int m_attributes(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:attributes");
  int k, n = 0;
  lua_newtable(L);
  for (k = 0; k < RSX_KIND_COUNT; k++) {
    if (me->m->format.attr[k] == NULL) continue;
    lua_pushstring(L, me->m->format.attr[k]->name);
    lua_rawseti(L, -2, ++n);
  }
  return 1;
}

static int m_attribute(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:attribute");
  int kind = rsxlua_checkkind(L, 2, "mesh:attribute");
  return rsxlua_push_accessor(L, 1, me->bundle, me->m, kind);
}

/* ------------------------------------------------------ vector maths */

/* n floats as little-endian float32 bytes into t, whatever the host's
** order. */
static void me_put_floats(rl_text *b, const float *f, size_t n)
{
  size_t i, run, k;
  for (i = 0; i < n; i += run) {
    unsigned char *p;
    run = n - i < 256 ? n - i : 256;
    p = (unsigned char *)rsxlua_text_room(b, run * 4);
    for (k = 0; k < run; k++, p += 4) {
      uint32_t u;
      memcpy(&u, &f[i + k], sizeof u);
      p[0] = (unsigned char)(u & 0xFF);
      p[1] = (unsigned char)((u >> 8) & 0xFF);
      p[2] = (unsigned char)((u >> 16) & 0xFF);
      p[3] = (unsigned char)(u >> 24);
    }
    rsxlua_text_add(b, run * 4);
  }
}

/* Scratch space the GC reclaims, so an error leaks nothing. */
static void *me_scratch(lua_State *L, size_t count, size_t size)
{
  if (count > (SIZE_MAX - 1) / size)
    luaL_error(L, "mesh: %I vertices are too many", (lua_Integer)count);
  return lua_newuserdatauv(L, count * size + 1, 0);
}

/* The unit normals in double (rsx_mesh_unit_normals) as a scratch
** userdata pushed on the stack, or NULL with the message in err. */
static double *me_normals(lua_State *L, const rsx_mesh *m,
                          rsx_normal_fixes *fixes, rsx_error *err)
{
  double *n = me_scratch(L, (size_t)m->vertex_count * 3, sizeof *n);
  return rsx_mesh_unit_normals(m, n, fixes, err) == 0 ? n : NULL;
}

static int m_unit_normals(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:unit_normals");
  int file = rsxlua_take_file(L, 2);
  size_t n = (size_t)me->m->vertex_count * 3, i, run;
  rsx_normal_fixes fx;
  rsx_error err;
  rl_text b;
  float f[256];
  const double *d = me_normals(L, me->m, &fx, &err);
  if (d == NULL) return rsxlua_fail(L, err.text);
  rsxlua_text_init(L, &b, file, n * 4, "mesh:unit_normals");
  for (i = 0; i < n; i += run) {
    size_t k;
    run = n - i < 256 ? n - i : 256;
    for (k = 0; k < run; k++) f[k] = (float)d[i + k];
    me_put_floats(&b, f, run);
  }
  if (rsxlua_text_push(&b) != 1) return 3; /* nil, message, errno */
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, fx.zero);
  lua_setfield(L, -2, "zero");
  lua_pushinteger(L, fx.from_faces);
  lua_setfield(L, -2, "from_faces");
  lua_pushinteger(L, fx.up);
  lua_setfield(L, -2, "up");
  lua_pushinteger(L, fx.renormalised);
  lua_setfield(L, -2, "renormalised");
  return 2;
}

static int m_tangent_frames(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:tangent_frames");
  int file = rsxlua_take_file(L, 2);
  rsx_normal_fixes nf;
  rsx_tangent_fixes tf;
  rsx_error err;
  rl_text b;
  float *t;
  const double *d = me_normals(L, me->m, &nf, &err);
  if (d == NULL) return rsxlua_fail(L, err.text);
  t = me_scratch(L, (size_t)me->m->vertex_count * 4, sizeof *t);
  if (rsx_mesh_tangent_frames(me->m, d, t, &tf, &err) != 0)
    return rsxlua_fail(L, err.text);
  rsxlua_text_init(L, &b, file, (size_t)me->m->vertex_count * 16,
                   "mesh:tangent_frames");
  me_put_floats(&b, t, (size_t)me->m->vertex_count * 4);
  if (rsxlua_text_push(&b) != 1) return 3; /* nil, message, errno */
  lua_createtable(L, 0, 2);
  lua_pushinteger(L, tf.zero_a);
  lua_setfield(L, -2, "zero_a");
  lua_pushinteger(L, tf.no_handedness);
  lua_setfield(L, -2, "no_handedness");
  return 2;
}

static int m_submesh(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:submesh");
  lua_Integer i = rsxlua_checkinteger(L, 2, "mesh:submesh");
  if (i >= 1 && i <= (lua_Integer)me->m->submesh_count)
    rsxlua_push_submesh(L, 1, me, (uint32_t)(i - 1));
  else
    lua_pushnil(L);
  return 1;
}

static int m_submeshes_next(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:submeshes");
  lua_Integer i = rsxlua_checkinteger(L, 2, "mesh:submeshes") + 1;
  if (i < 1 || i > (lua_Integer)me->m->submesh_count) return 0;
  lua_pushinteger(L, i);
  rsxlua_push_submesh(L, 1, me, (uint32_t)(i - 1));
  return 2;
}

static int m_submeshes(lua_State *L)
{
  me_check(L, 1, "mesh:submeshes");
  luaL_getmetatable(L, RSXLUA_MESH);
  lua_pushcfunction(L, m_submeshes_next);
  rsxlua_pinned(L, RL_PIN_CHILD, -2); /* the step pins, as the methods */
  lua_remove(L, -2);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

static int m_record(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:record");
  rsxlua_push_record(L, 1, me->bundle, me->m->meta, me->m->meta_size);
  return 1;
}

static int m_triangles(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:triangles");
  return rsxlua_mesh_triangles(L, me->m, RL_TRI_TABLE, 0);
}

static int m_triangle_bytes(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:triangle_bytes");
  return rsxlua_mesh_triangles(L, me->m, RL_TRI_BYTES,
                               rsxlua_take_file(L, 2));
}

static int m_index(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:index");
  lua_Integer i = rsxlua_checkinteger(L, 2, "mesh:index");
  if (i < 1 || i > (lua_Integer)me->m->index_count)
    return luaL_error(L, "mesh:index: index %I out of range 1..%I", i,
                      (lua_Integer)me->m->index_count);
  lua_pushinteger(L, (lua_Integer)rsx_mesh_index(me->m, (uint32_t)(i - 1)));
  return 1;
}

/* m:stream("mmp"|"mgp"): the stream's bytes as stored */
static int m_stream(lua_State *L)
{
  static const char *const streams[] = {"mmp", "mgp", NULL};
  rl_mesh *me = me_check(L, 1, "mesh:stream");
  const rsx_mesh *m = me->m;
  int mgp = rsxlua_checkoption(L, 2, streams, "mesh:stream");
  const uint8_t *p = mgp ? m->mgp : m->mmp;
  size_t n = (size_t)m->vertex_count * (mgp ? m->mgp_stride : m->mmp_stride);
  lua_pushlstring(L, p != NULL ? (const char *)p : "", p != NULL ? n : 0);
  return 1;
}

static int m_index_bytes(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh:index_bytes");
  lua_pushlstring(L, (const char *)me->m->indices,
                  (size_t)me->m->index_count * me->m->index_size);
  return 1;
}

static int m_tostring(lua_State *L)
{
  rl_mesh *me = rsxlua_checkudata(L, 1, RSXLUA_MESH, "mesh:__tostring");
  char mask[16];
  if (me->bundle != NULL && me->bundle->b == NULL) {
    lua_pushliteral(L, RSXLUA_MESH " (bundle closed)");
    return 1;
  }
  snprintf(mask, sizeof mask, "0x%08lx", (unsigned long)me->m->mask);
  lua_pushfstring(L, RSXLUA_MESH " %s (mask %s, %I %s, %I %s)",
                  me->m->name, mask, (lua_Integer)me->m->vertex_count,
                  rsxlua_plural(me->m->vertex_count, "vertex", "vertices"),
                  (lua_Integer)me->m->submesh_count,
                  rsxlua_plural(me->m->submesh_count, "submesh",
                                "submeshes"));
  return 1;
}

/* ---------------------------------------------------------- properties */

#define ME_INTEGER(fn, field)                                     \
  static int fn(lua_State *L)                                     \
  {                                                               \
    rl_mesh *me = me_check(L, 1, "mesh." #field);                 \
    lua_pushinteger(L, (lua_Integer)me->m->field);                \
    return 1;                                                     \
  }

ME_INTEGER(mp_mask, mask)
ME_INTEGER(mp_vertex_count, vertex_count)
ME_INTEGER(mp_mmp_stride, mmp_stride)
ME_INTEGER(mp_mgp_stride, mgp_stride)
ME_INTEGER(mp_index_count, index_count)
ME_INTEGER(mp_index_size, index_size)
ME_INTEGER(mp_submesh_count, submesh_count)

static int mp_name(lua_State *L)
{
  lua_pushstring(L, me_check(L, 1, "mesh.name")->m->name);
  return 1;
}

/* "mesh 3 (wall)", as the core's messages name it: "mesh (NAME)" for a
** built mesh, which has no number. */
static int mp_label(lua_State *L)
{
  const rsx_mesh *m = me_check(L, 1, "mesh.label")->m;
  size_t size = strlen(m->name) + 48; /* the name whole, and a number */
  luaL_Buffer b;
  char *p = luaL_buffinitsize(L, &b, size);
  rsx_mesh_label(m, p, size);
  luaL_pushresultsize(&b, strlen(p));
  return 1;
}

/* m.number, not m.index: index is the method m:index(i) */
static int mp_number(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh.number");
  if (me->bundle == NULL)
    lua_pushnil(L); /* a built mesh has no number */
  else
    lua_pushinteger(L, (lua_Integer)me->m->index + 1);
  return 1;
}

static int mp_bundle(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh.bundle");
  if (me->bundle == NULL)
    lua_pushnil(L);
  else
    lua_getiuservalue(L, 1, 1);
  return 1;
}

static int mp_format(lua_State *L)
{
  rsxlua_push_format(L, me_check(L, 1, "mesh.format")->m->mask);
  return 1;
}

static int mp_primitive(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh.primitive");
  lua_pushstring(L, me->m->primitive == RSX_STRIP ? "strip" : "triangles");
  return 1;
}

static int mp_findings(lua_State *L)
{
  rl_mesh *me = me_check(L, 1, "mesh.findings");
  rsxlua_push_findings(L, me->m, NULL);
  return 1;
}

/* ----------------------------------------------------------- OBJ lines */

#define OL_FN "mesh:obj_lines"
/* the numbers already in the file: v, vt and vn counted from 0, so that
** each stays far below RSX_FACE_OFFSET_MAX after a mesh's vertices */
#define OL_COUNT_MAX ((lua_Integer)1 << 53)

/* The stack of m:obj_lines: the slots its options are read into, and the
** holder, a table that keeps what the text refers to (each submesh's
** material name at its number; the scratch spaces at 0 and -1) below
** the text, whose string buffer needs the stack balanced between its
** calls. */
enum { OL_OPTS = 2, OL_NAME, OL_NONE, OL_COUNTS, OL_MATERIALS, OL_USED,
       OL_FILE, OL_HOLDER };

/* opts.counts[key], 0 when counts or the field is nil. */
static int64_t ol_count(lua_State *L, const char *key)
{
  lua_Integer v = 0;
  int isint = 1;
  if (lua_isnil(L, OL_COUNTS)) return 0;
  if (lua_getfield(L, OL_COUNTS, key) != LUA_TNIL)
    v = lua_tointegerx(L, -1, &isint);
  if (!isint || v < 0 || v > OL_COUNT_MAX)
    luaL_error(L, OL_FN ": opts.counts.%s must be an integer 0..2^53, got "
               "%s", key, lua_isnumber(L, -1) ? luaL_tolstring(L, -1, NULL)
               : luaL_typename(L, -1));
  lua_pop(L, 1);
  return v;
}

/* The optional field key of the options into slot: a value of type t
** (a file when t is LUA_TUSERDATA), or nil. */
static void ol_field(lua_State *L, const char *key, int t, int slot)
{
  int got = LUA_TNIL;
  if (lua_isnil(L, OL_OPTS))
    lua_pushnil(L);
  else
    got = lua_getfield(L, OL_OPTS, key);
  if (got != LUA_TNIL && (got != t || (t == LUA_TUSERDATA &&
      luaL_testudata(L, -1, LUA_FILEHANDLE) == NULL)))
    luaL_error(L, OL_FN ": opts.%s must be a %s, got %s", key,
               t == LUA_TUSERDATA ? "file" : lua_typename(L, t),
               luaL_typename(L, -1));
  lua_replace(L, slot);
}

/* Room of at least size bytes kept by the holder at slot (0: the
** triangles, -1: the corner cache), reused from submesh to submesh. */
static void *ol_scratch(lua_State *L, int slot, size_t size, void *have,
                        size_t *cap)
{
  void *p;
  if (have != NULL && size <= *cap) return have;
  p = lua_newuserdatauv(L, size, 0);
  lua_rawseti(L, OL_HOLDER, slot); /* balanced: the text may be a buffer */
  *cap = size;
  return p;
}

/* The triangles of submesh s (rsx_triangles, as s:triangles gives them)
** into the holder's scratch, their count in n; NULL with the message in
** err on an index out of range. */
static uint32_t *ol_triangles(lua_State *L, const rsx_mesh *m,
                              const rsx_submesh *s, uint32_t **tri,
                              size_t *cap, size_t *n, rsx_error *err)
{
  size_t count = rsx_triangle_capacity(s->index_count);
  *tri = ol_scratch(L, 0, rsxlua_triangle_bytes(L, count, OL_FN), *tri,
                    cap);
  *n = 0;
  return rsx_triangles(m, s, s->first_index, s->index_count, *tri, n, err)
         == 0 ? *tri : NULL;
}

/* len bytes of p into the text, in pieces a block holds. */
static void ol_put(rl_text *t, const char *p, size_t len)
{
  while (len > 0) {
    size_t run = len < 4096 ? len : 4096;
    memcpy(rsxlua_text_room(t, run), p, run);
    rsxlua_text_add(t, run);
    p += run;
    len -= run;
  }
}

/* The lines of kind for every vertex, as acc:lines writes them. */
static void ol_vertices(lua_State *L, const rsx_mesh *m, int kind,
                        rsx_vertex_text *how, rsx_sink *sink)
{
  rsx_error err;
  how->components = m->format.attr[kind]->components;
  /* checked decodable before the first line: a failure is a broken
  ** invariant, raised all the same */
  if (rsx_vertex_lines(m, kind, 0, m->vertex_count, how, sink, &err) != 0)
    luaL_error(L, "%s", err.text);
}

/* m:obj_lines([opts]): the mesh as obj-export writes it (doc/lua-api.md):
** an o line, its v (and colours), vn, a vt block per stored UV set its
** submeshes read, and for each submesh a g group, its usemtl and its f
** lines; numbered after opts.counts, which it advances. The text (or the
** bytes written to opts.file), the triangles and the vertices; nil and a
** message when the mesh cannot be decoded, before anything is written. */
static int m_obj_lines(lua_State *L)
{
  static const char *const known[] = {"name", "uv", "colours", "counts",
    "materials", "none", "used", "file", NULL};
  static const double flip_scale[4] = {1, -1, 1, 1};
  static const double flip_offset[4] = {0, 1, 0, 0};
  rl_mesh *me = me_check(L, 1, OL_FN);
  const rsx_mesh *m = me->m;
  uint32_t n = m->vertex_count, i;
  int logical = 0, colours = 0, normal, k;
  int64_t v_base, vt_count, vn_base, vt_base[4] = {-1, -1, -1, -1};
  size_t name_len, tri_cap = 0, cache_cap = 0, nt;
  const char *name;
  uint32_t *tri = NULL;
  void *cache = NULL;
  lua_Integer triangles = 0;
  rsx_vertex_text how;
  rsx_error err;
  rsx_sink sink;
  rl_text t;

  lua_settop(L, OL_HOLDER);
  if (!lua_isnil(L, OL_OPTS)) {
    rsxlua_checktype(L, OL_OPTS, LUA_TTABLE, OL_FN);
    rsxlua_check_keys(L, OL_OPTS, known, NULL, NULL, OL_FN, "option");
    if (lua_getfield(L, OL_OPTS, "uv") != LUA_TNIL) {
      int isint;
      lua_Integer uv = lua_tointegerx(L, -1, &isint);
      if (!isint || uv < 0 || uv > 3)
        luaL_error(L, OL_FN ": opts.uv must be an integer 0..3, got %s",
                   lua_isnumber(L, -1) ? luaL_tolstring(L, -1, NULL)
                   : luaL_typename(L, -1));
      logical = (int)uv;
    }
    lua_getfield(L, OL_OPTS, "colours");
    colours = lua_toboolean(L, -1);
    lua_pop(L, 2);
  }
  ol_field(L, "name", LUA_TSTRING, OL_NAME);
  if (lua_isnil(L, OL_NAME)) lua_pushstring(L, m->name);
  else lua_pushvalue(L, OL_NAME);
  lua_replace(L, OL_NAME);
  name = lua_tolstring(L, OL_NAME, &name_len);
  ol_field(L, "none", LUA_TSTRING, OL_NONE);
  if (lua_isnil(L, OL_NONE)) {
    lua_pushliteral(L, "(none)");
    lua_replace(L, OL_NONE);
  }
  ol_field(L, "counts", LUA_TTABLE, OL_COUNTS);
  ol_field(L, "materials", LUA_TTABLE, OL_MATERIALS);
  ol_field(L, "used", LUA_TTABLE, OL_USED);
  ol_field(L, "file", LUA_TUSERDATA, OL_FILE);
  v_base = ol_count(L, "v");
  vt_count = ol_count(L, "vt");
  vn_base = ol_count(L, "vn");
  lua_createtable(L, (int)(m->submesh_count < 1024 ? m->submesh_count : 0),
                  2);
  lua_replace(L, OL_HOLDER);

  /* what the text needs, checked before any of it is written (the order
  ** of m:attribute, s:triangle_count and s:uv, for the same message) */
  normal = m->format.attr[RSX_NORMAL] != NULL;
  colours = colours && m->format.attr[RSX_COLOUR] != NULL;
  if (rsx_mesh_can_decode(m, RSX_POSITION, &err) != 0 ||
      (normal && rsx_mesh_can_decode(m, RSX_NORMAL, &err) != 0) ||
      (colours && rsx_mesh_can_decode(m, RSX_COLOUR, &err) != 0))
    return rsxlua_fail(L, err.text);
  for (i = 0; i < m->submesh_count; i++) {
    const rsx_submesh *s = &m->submeshes[i];
    int set = rsx_submesh_uv_set(s, logical);
    if ((m->findings & RSX_FIND_INDEX_RANGE) &&
        ol_triangles(L, m, s, &tri, &tri_cap, &nt, &err) == NULL)
      return rsxlua_fail(L, err.text);
    if (set >= 0 && vt_base[set] == -1) {
      if (rsx_mesh_can_decode(m, RSX_UV0 + set, &err) != 0)
        return rsxlua_fail(L, err.text);
      vt_base[set] = -2; /* checked */
    }
  }
  /* each submesh's material name, kept by the holder, and marked used */
  for (i = 0; i < m->submesh_count; i++) {
    const rsx_submesh *s = &m->submeshes[i];
    int got = LUA_TNIL;
    if (me->materials != NULL && s->material != RSX_NONE) {
      rsxlua_checkopen(L, me->materials, OL_FN);
      if (!lua_isnil(L, OL_MATERIALS))
        got = lua_geti(L, OL_MATERIALS, (lua_Integer)s->material + 1);
      else
        lua_pushnil(L);
      if (got != LUA_TNIL && got != LUA_TSTRING)
        luaL_error(L, OL_FN ": opts.materials[%I] must be a string, got %s",
                   (lua_Integer)s->material + 1, luaL_typename(L, -1));
      if (got == LUA_TNIL) lua_pop(L, 1);
    }
    if (got == LUA_TNIL) lua_pushvalue(L, OL_NONE);
    if (!lua_isnil(L, OL_USED)) {
      lua_pushvalue(L, -1);
      lua_pushboolean(L, 1);
      lua_settable(L, OL_USED);
    }
    lua_rawseti(L, OL_HOLDER, (lua_Integer)i + 1);
  }

  how.memo = rsxlua_float_memo(L);
  how.scale = how.offset = NULL;
  how.with = -1;
  how.with_components = 0;
  rsxlua_text_init(L, &t, OL_FILE, 0, OL_FN);
  sink = rsxlua_text_sink(&t);
  ol_put(&t, "o ", 2);
  ol_put(&t, name, name_len);
  ol_put(&t, "\n", 1);
  if (n > 0) {
    how.prefix = "v";
    how.prefix_len = 1;
    if (colours) {
      how.with = RSX_COLOUR;
      how.with_components = 3; /* "v x y z r g b": no alpha */
    }
    ol_vertices(L, m, RSX_POSITION, &how, &sink);
    how.with = -1;
    how.with_components = 0;
    if (normal) {
      how.prefix = "vn";
      how.prefix_len = 2;
      ol_vertices(L, m, RSX_NORMAL, &how, &sink);
    }
  }
  for (k = 0; k < 4; k++) vt_base[k] = -1;
  for (i = 0; i < m->submesh_count; i++) {
    const rsx_submesh *s = &m->submeshes[i];
    int set = rsx_submesh_uv_set(s, logical);
    rsx_face_column columns[3];
    rsx_face_text face;
    rsx_face_plan plan;
    const char *mat;
    size_t mat_len;
    char number[32];

    /* "v/vt/vn", "v//vn", "v/vt" or "v": a set first met here gets its
    ** vt block next, at vt_count */
    columns[0].used = 1;
    columns[0].offset = v_base;
    columns[1].used = set >= 0;
    columns[1].offset = set < 0 ? 0 : vt_base[set] >= 0 ? vt_base[set]
                                                         : vt_count;
    columns[2].used = 1;
    columns[2].offset = vn_base;
    face.columns = columns;
    face.ncolumns = normal ? 3 : set >= 0 ? 2 : 1;
    face.prefix = "f";
    face.prefix_len = 1;
    if (set >= 0 && vt_base[set] < 0) {
      vt_base[set] = vt_count;
      if (n > 0) {
        how.prefix = "vt";
        how.prefix_len = 2;
        how.scale = flip_scale; /* v' = 1 - v: OBJ's V is bottom-origin */
        how.offset = flip_offset;
        ol_vertices(L, m, RSX_UV0 + set, &how, &sink);
        how.scale = how.offset = NULL;
      }
      vt_count += n;
    }
    lua_rawgeti(L, OL_HOLDER, (lua_Integer)i + 1);
    mat = lua_tolstring(L, -1, &mat_len); /* the holder keeps it */
    lua_pop(L, 1);
    ol_put(&t, "g ", 2);
    ol_put(&t, name, name_len);
    ol_put(&t, number, (size_t)snprintf(number, sizeof number, ".%lu\n"
           "usemtl ", (unsigned long)i + 1));
    ol_put(&t, mat, mat_len);
    ol_put(&t, "\n", 1);
    if (ol_triangles(L, m, s, &tri, &tri_cap, &nt, &err) == NULL)
      return luaL_error(L, "%s", err.text); /* checked above */
    if (rsx_face_measure(tri, nt, &face, &plan, &err) != 0)
      return luaL_error(L, OL_FN ": %s", err.text);
    cache = plan.cache_size > 0 && plan.cache_size != SIZE_MAX
            ? ol_scratch(L, -1, plan.cache_size, cache, &cache_cap) : NULL;
    rsx_face_lines(tri, nt, &face, &plan, cache, &sink);
    triangles += (lua_Integer)nt;
  }
  if (rsxlua_text_push(&t) != 1) return 3; /* nil, message, errno */
  if (!lua_isnil(L, OL_COUNTS)) {
    lua_pushinteger(L, v_base + n);
    lua_setfield(L, OL_COUNTS, "v");
    lua_pushinteger(L, vt_count);
    lua_setfield(L, OL_COUNTS, "vt");
    lua_pushinteger(L, vn_base + (normal ? n : 0));
    lua_setfield(L, OL_COUNTS, "vn");
  }
  lua_pushinteger(L, triangles);
  lua_pushinteger(L, (lua_Integer)n);
  return 3;
}

/* rsxmesh.mesh{...} */
static int me_new(lua_State *L)
{
  rsxlua_checktype(L, 1, LUA_TTABLE, "rsxmesh.mesh");
  return rsxlua_build_mesh(L, 1, "rsxmesh.mesh");
}

static const luaL_Reg m_meta[] = {
  {"__tostring", m_tostring},
  {NULL, NULL}
};

static const luaL_Reg m_methods[] = {
  {"has", m_has},
  {"attributes", m_attributes},
  {"attribute", m_attribute},
  {"submesh", m_submesh},
  {"submeshes", m_submeshes},
  {"record", m_record},
  {"triangles", m_triangles},
  {"triangle_bytes", m_triangle_bytes},
  {"unit_normals", m_unit_normals},
  {"tangent_frames", m_tangent_frames},
  {"index", m_index},
  {"stream", m_stream},
  {"index_bytes", m_index_bytes},
  {"with", rsxlua_mesh_with},
  {"obj_lines", m_obj_lines},
  {NULL, NULL}
};

static const rl_member m_members[] = {
  {"name", mp_name},
  {"number", mp_number},
  {"label", mp_label},
  {"bundle", mp_bundle},
  {"mask", mp_mask},
  {"vertex_count", mp_vertex_count},
  {"mmp_stride", mp_mmp_stride},
  {"mgp_stride", mp_mgp_stride},
  {"format", mp_format},
  {"index_count", mp_index_count},
  {"index_size", mp_index_size},
  {"primitive", mp_primitive},
  {"submesh_count", mp_submesh_count},
  {"findings", mp_findings},
  {NULL, NULL}
};

void rsxlua_open_mesh(lua_State *L)
{
  rsxlua_class(L, RSXLUA_MESH, m_meta, m_methods, m_members);
  lua_pushcfunction(L, me_new);
  lua_setfield(L, -2, "mesh");
}
