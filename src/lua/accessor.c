/*
** accessor.c - the accessor userdata: one decoded attribute of one mesh,
** read a vertex at a time (get, iter) or in bulk in C (range, lines,
** pack, raw, bounds, lengths).
*/
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "rsxlua.h"

#define AC_MAXC 4 /* components of any kind: colour and the extras */
#define AC_CHUNK 256 /* vertices decoded at a time by the bulk paths */

/*
** An accessor's metatable is its own: a table holding its fields (kind,
** components, ...) and __index pointing at itself, whose metatable is the
** shared one registered as RSXLUA_ACCESSOR with the methods as __index.
** So acc:get and acc.kind are table lookups in the VM, with no C call for
** __index: that halves the cost of acc:get in a loop.
** Every function of this file has the shared metatable as upvalue 1. An
** accessor is recognised by the registry's set of them (a script can
** give any class's metatable the shared one as its metatable, so the
** metatables cannot tell): rsxlua_test_accessor.
*/
static rl_accessor *ac_test(lua_State *L, int idx)
{
  return rsxlua_test_accessor(L, idx);
}

static rl_accessor *ac_check(lua_State *L, int idx, const char *fname)
{
  rl_accessor *a = ac_test(L, idx);
  if (a == NULL) rsxlua_typeerror(L, idx, fname, RSXLUA_ACCESSOR);
  rsxlua_checkopen(L, a->bundle, fname);
  return a;
}

static void ac_fields(lua_State *L, const rl_accessor *a, int parent);

int rsxlua_push_accessor(lua_State *L, int parent, rl_bundle *bundle,
                         const rsx_mesh *m, int kind)
{
  rl_accessor *a;
  rsx_error err;
  parent = lua_absindex(L, parent);
  if (rsx_mesh_can_decode(m, kind, &err) != 0)
    return rsxlua_fail(L, err.text);
  a = lua_newuserdatauv(L, sizeof *a, 1);
  a->bundle = bundle;
  a->m = m;
  a->info = m->format.attr[kind];
  a->kind = kind;
  a->count = m->vertex_count;
  a->stride = a->info->stream == RSX_MMP ? m->mmp_stride : m->mgp_stride;
  /* no address arithmetic on an empty stream, which may be NULL */
  a->base = a->count > 0 ? rsx_mesh_vertex(m, kind, 0) : NULL;
  ac_fields(L, a, parent);
  if (bundle != NULL) {
    lua_getiuservalue(L, parent, 1); /* the mesh's bundle */
    rsxlua_track(L, lua_gettop(L), -2);
    lua_pop(L, 1);
  }
  lua_setmetatable(L, -2);
  lua_pushvalue(L, parent);
  lua_setiuservalue(L, -2, 1);
  rsxlua_mark_accessor(L, -1);
  return 1;
}

/* Decode vertex v (0-based, in range) into out. */
static void ac_decode(const rl_accessor *a, uint32_t v, float *out)
{
  rsx_decode_value(a->info, a->base + (size_t)v * a->stride, out);
}

/* Push the n components of one vertex: S32K values are integers. */
static void ac_push(lua_State *L, const rl_accessor *a, const float *c)
{
  int i, n = a->info->components;
  if (a->info->type == RSX_TYPE_S32K)
    for (i = 0; i < n; i++) lua_pushinteger(L, (lua_Integer)c[i]);
  else
    for (i = 0; i < n; i++) lua_pushnumber(L, (lua_Number)c[i]);
}

/* ------------------------------------------------------------- methods */

/* Each accessor's metatable holds its own get, a closure with the
** accessor as upvalue 2: acc:get(i) is then one table lookup, and self is
** recognised by comparing two addresses (the same block is the same
** accessor). Any other self (acc1.get(acc2, i), or the shared method,
** which has no upvalue 2) takes the full check. */
static int a_get(lua_State *L)
{
  rl_accessor *a = lua_touserdata(L, 1);
  int isint;
  lua_Integer i = lua_tointegerx(L, 2, &isint);
  float c[AC_MAXC];
  if (a == NULL || a != lua_touserdata(L, lua_upvalueindex(2)))
    a = ac_check(L, 1, "accessor:get");
  if (!isint) /* raises the usual message */
    i = rsxlua_checkinteger(L, 2, "accessor:get");
  rsxlua_checkopen(L, a->bundle, "accessor:get");
  if ((lua_Unsigned)i - 1u >= (lua_Unsigned)a->count)
    return luaL_error(L, "accessor:get: vertex %I out of range 1..%I", i,
                      (lua_Integer)a->count);
  ac_decode(a, (uint32_t)(i - 1), c);
  ac_push(L, a, c);
  return a->info->components;
}

static int a_next(lua_State *L)
{
  rl_accessor *a = ac_check(L, 1, "accessor:iter");
  lua_Integer i = rsxlua_checkinteger(L, 2, "accessor:iter");
  float c[AC_MAXC];
  if (i < 0 || i >= (lua_Integer)a->count) return 0;
  lua_pushinteger(L, i + 1);
  ac_decode(a, (uint32_t)i, c);
  ac_push(L, a, c);
  return 1 + a->info->components;
}

static int a_iter(lua_State *L)
{
  ac_check(L, 1, "accessor:iter");
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushcclosure(L, a_next, 1);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

/* Decode n (up to AC_CHUNK) vertices from v through the core's bulk
** decoder. The accessor was found decodable when it was made and a mesh
** never changes, so a failure is a broken invariant, raised all the
** same. */
static void ac_decode_run(lua_State *L, const rl_accessor *a, uint32_t v,
                          uint32_t n, float *out)
{
  rsx_error err;
  if (rsx_mesh_decode(a->m, a->kind, v, n, out, &err) != 0)
    luaL_error(L, "%s", err.text);
}

static int a_range(lua_State *L)
{
  rl_accessor *a = ac_check(L, 1, "accessor:range");
  size_t n = (size_t)a->info->components, k;
  int as_int = a->info->type == RSX_TYPE_S32K;
  uint32_t first, count, v, run;
  lua_Integer at = 0;
  float c[AC_CHUNK * AC_MAXC];
  rsxlua_range(L, 2, a->count, "accessor:range", &first, &count);
  lua_createtable(L, (uint64_t)count * n < INT32_MAX ? (int)(count * n) : 0,
                  0);
  for (v = 0; v < count; v += run) {
    run = count - v < AC_CHUNK ? count - v : AC_CHUNK;
    ac_decode_run(L, a, first + v, run, c);
    for (k = 0; k < run * n; k++) {
      if (as_int)
        lua_pushinteger(L, (lua_Integer)c[k]);
      else
        lua_pushnumber(L, (lua_Number)c[k]);
      lua_rawseti(L, -2, ++at);
    }
  }
  return 1;
}

/* Per-component numbers from opts[key] (a table or nil) into out. */
static void ac_opt_vector(lua_State *L, int opts, const char *key, int n,
                          double dflt, double *out, int *given)
{
  int k;
  for (k = 0; k < n; k++) out[k] = dflt;
  if (lua_getfield(L, opts, key) == LUA_TNIL) {
    lua_pop(L, 1);
    return;
  }
  if (!lua_istable(L, -1))
    luaL_error(L, "accessor:lines: opts.%s must be a table, got %s", key,
               luaL_typename(L, -1));
  for (k = 0; k < n; k++) {
    int t = lua_rawgeti(L, -1, k + 1);
    if (t != LUA_TNIL) {
      int isnum;
      out[k] = lua_tonumberx(L, -1, &isnum);
      if (!isnum)
        luaL_error(L, "accessor:lines: opts.%s[%d] is not a number", key,
                   k + 1);
    }
    lua_pop(L, 1);
  }
  *given = 1;
  lua_pop(L, 1);
}

/* opts[key], how many of an accessor's n components to write: n when
** nil, else an integer in 1..n. */
static int ac_opt_count(lua_State *L, int opts, const char *key, int n)
{
  int isint;
  lua_Integer k;
  if (lua_getfield(L, opts, key) == LUA_TNIL) {
    lua_pop(L, 1);
    return n;
  }
  k = lua_tointegerx(L, -1, &isint);
  if (!isint || k < 1 || k > n)
    luaL_error(L, "accessor:lines: opts.%s must be an integer in 1..%d, "
               "got %s", key, n, lua_isnumber(L, -1)
               ? luaL_tolstring(L, -1, NULL) : luaL_typename(L, -1));
  lua_pop(L, 1);
  return (int)k;
}

/* The options table at idx names only options acc:lines knows: a typo
** must not pass for the default. */
static void ac_check_options(lua_State *L, int idx)
{
  static const char *const known[] = {"scale", "offset", "components",
    "with", "with_components", "file", NULL};
  rsxlua_checktype(L, idx, LUA_TTABLE, "accessor:lines");
  rsxlua_check_keys(L, idx, known, NULL, NULL, "accessor:lines", "option");
}

static int a_lines(lua_State *L)
{
  rl_accessor *a = ac_check(L, 1, "accessor:lines");
  int n = a->info->components, mapped = 0, top = lua_gettop(L), file = 0;
  double scale[AC_MAXC], offset[AC_MAXC];
  uint32_t first, count;
  rsx_vertex_text how;
  rsx_sink sink;
  rsx_error err;
  rl_text t;

  how.prefix = rsxlua_checklstring(L, 2, &how.prefix_len, "accessor:lines");
  how.components = n;
  how.with = -1;
  how.with_components = 0;
  how.memo = rsxlua_float_memo(L);
  /* acc:lines(prefix, opts) and acc:lines(prefix, i, opts): the options
  ** table is the last argument, whatever the range before it leaves out */
  if ((top == 3 || top == 4) && lua_type(L, top) == LUA_TTABLE) {
    lua_settop(L, 5);
    lua_rotate(L, top, 5 - top); /* the table to 5, nils where it was */
  }
  rsxlua_range(L, 3, a->count, "accessor:lines", &first, &count);
  lua_settop(L, 5);
  if (!lua_isnil(L, 5)) {
    ac_check_options(L, 5);
    ac_opt_vector(L, 5, "scale", n, 1.0, scale, &mapped);
    ac_opt_vector(L, 5, "offset", n, 0.0, offset, &mapped);
    how.components = ac_opt_count(L, 5, "components", n);
    if (lua_getfield(L, 5, "with") != LUA_TNIL) {
      const rl_accessor *with = ac_check(L, -1, "accessor:lines");
      if (with->m != a->m)
        return luaL_error(L, "accessor:lines: opts.with is an accessor of "
                          "another mesh");
      how.with = with->kind;
      how.with_components = ac_opt_count(L, 5, "with_components",
                                         with->info->components);
    } else if (lua_getfield(L, 5, "with_components") != LUA_TNIL) {
      return luaL_error(L, "accessor:lines: opts.with_components needs "
                        "opts.with");
    }
    /* the with accessor stays at 6: it anchors what it views */
    if (lua_getfield(L, 5, "file") != LUA_TNIL) file = lua_gettop(L);
  }
  how.scale = mapped ? scale : NULL;
  how.offset = mapped ? offset : NULL;

  rsxlua_text_init(L, &t, file, rsx_vertex_lines_size(count, &how),
                   "accessor:lines");
  sink = rsxlua_text_sink(&t);
  /* decodable since the accessor was made, and a mesh never changes: a
  ** failure is a broken invariant, raised all the same */
  if (rsx_vertex_lines(a->m, a->kind, first, count, &how, &sink, &err) != 0)
    return luaL_error(L, "%s", err.text);
  return rsxlua_text_push(&t);
}

/* Little-endian bytes of a float32, whatever the host's order. */
static void ac_put_le32(unsigned char *p, float f)
{
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  p[0] = (unsigned char)(u & 0xFF);
  p[1] = (unsigned char)((u >> 8) & 0xFF);
  p[2] = (unsigned char)((u >> 16) & 0xFF);
  p[3] = (unsigned char)(u >> 24);
}

static int a_pack(lua_State *L)
{
  rl_accessor *a = ac_check(L, 1, "accessor:pack");
  int file = rsxlua_take_file(L, 2);
  size_t n = (size_t)a->info->components, k;
  uint32_t first, count, v, run;
  float c[AC_CHUNK * AC_MAXC];
  rl_text t;
  rsxlua_range(L, 2, a->count, "accessor:pack", &first, &count);
  rsxlua_text_init(L, &t, file, (size_t)count * n * 4, "accessor:pack");
  for (v = 0; v < count; v += run) {
    unsigned char *p;
    run = count - v < AC_CHUNK ? count - v : AC_CHUNK;
    ac_decode_run(L, a, first + v, run, c);
    p = (unsigned char *)rsxlua_text_room(&t, run * n * 4);
    for (k = 0; k < run * n; k++) ac_put_le32(p + k * 4, c[k]);
    rsxlua_text_add(&t, run * n * 4);
  }
  return rsxlua_text_push(&t);
}

static int a_raw(lua_State *L)
{
  rl_accessor *a = ac_check(L, 1, "accessor:raw");
  int file = rsxlua_take_file(L, 2);
  size_t w = (size_t)a->info->size;
  uint32_t first, count, v;
  rl_text t;
  rsxlua_range(L, 2, a->count, "accessor:raw", &first, &count);
  rsxlua_text_init(L, &t, file, (size_t)count * w, "accessor:raw");
  for (v = 0; v < count; v++) {
    memcpy(rsxlua_text_room(&t, w), a->base + (size_t)(first + v) *
           a->stride, w);
    rsxlua_text_add(&t, w);
  }
  return rsxlua_text_push(&t);
}

static int a_bounds(lua_State *L)
{
  rl_accessor *a = ac_check(L, 1, "accessor:bounds");
  int n = a->info->components, k, t;
  rsx_bounds bd;
  rsx_error err;
  if (rsx_mesh_bounds(a->m, a->kind, &bd, &err) != 0)
    return luaL_error(L, "%s", err.text);
  for (t = 0; t < 2; t++) {
    const float *x = t == 0 ? bd.lo : bd.hi;
    lua_createtable(L, n, 0);
    for (k = 0; k < n && a->count > 0; k++) {
      if (bd.seen[k] && a->info->type == RSX_TYPE_S32K)
        lua_pushinteger(L, (lua_Integer)x[k]);
      else
        lua_pushnumber(L, (lua_Number)x[k]); /* NaN when never seen */
      lua_rawseti(L, -2, k + 1);
    }
  }
  lua_pushinteger(L, (lua_Integer)bd.nans);
  lua_pushinteger(L, (lua_Integer)bd.non_finite);
  return 4;
}

static int a_non_finite(lua_State *L)
{
  rl_accessor *a = ac_check(L, 1, "accessor:non_finite");
  rsx_bounds bd;
  rsx_error err;
  if (a->info->type != RSX_TYPE_F && a->info->type != RSX_TYPE_SF) {
    /* bytes, S32K integers and CMP fields decode to finite floats */
    lua_pushinteger(L, 0);
    return 1;
  }
  if (rsx_mesh_bounds(a->m, a->kind, &bd, &err) != 0)
    return luaL_error(L, "%s", err.text);
  lua_pushinteger(L, (lua_Integer)bd.non_finite);
  return 1;
}

/* The lengths of the vectors made by the first three components: the
** survey's normal and tangent statistics, measured by the core. */
static int a_lengths(lua_State *L)
{
  rl_accessor *a = ac_check(L, 1, "accessor:lengths");
  int n = a->info->components;
  double tol = RSX_UNIT_TOLERANCE;
  rsx_lengths l;
  rsx_error err;
  if (!lua_isnoneornil(L, 2)) {
    tol = rsxlua_checknumber(L, 2, "accessor:lengths");
    rsxlua_argcheck(L, tol >= 0.0, 2, "accessor:lengths", /* and NaN */
                    lua_pushfstring(L, "tolerance must be 0 or more, got %s",
                                    luaL_tolstring(L, 2, NULL)));
  }
  if (n < 3)
    return luaL_error(L, "accessor:lengths: %s has %d component%s, "
                      "needs 3 or more", a->info->name, n,
                      n == 1 ? "" : "s");
  if (rsx_mesh_lengths(a->m, a->kind, tol, &l, &err) != 0)
    return luaL_error(L, "%s", err.text);
  lua_createtable(L, 0, 6);
  lua_pushinteger(L, (lua_Integer)l.zero);
  lua_setfield(L, -2, "zero");
  lua_pushinteger(L, (lua_Integer)l.off);
  lua_setfield(L, -2, "off");
  lua_pushinteger(L, (lua_Integer)l.nans);
  lua_setfield(L, -2, "nan");
  if (l.seen) { /* min, max and deviation only over some nonzero length */
    lua_pushnumber(L, (lua_Number)l.min);
    lua_setfield(L, -2, "min");
    lua_pushnumber(L, (lua_Number)l.max);
    lua_setfield(L, -2, "max");
    lua_pushnumber(L, (lua_Number)l.deviation);
    lua_setfield(L, -2, "deviation");
  }
  return 1;
}

static int a_len(lua_State *L)
{
  rl_accessor *a = ac_check(L, 1, "accessor:__len");
  lua_pushinteger(L, (lua_Integer)a->count);
  return 1;
}

static int a_tostring(lua_State *L)
{
  rl_accessor *a = ac_test(L, 1);
  if (a == NULL)
    return rsxlua_typeerror(L, 1, "accessor:__tostring", RSXLUA_ACCESSOR);
  if (a->bundle != NULL && a->bundle->b == NULL)
    lua_pushliteral(L, RSXLUA_ACCESSOR " (bundle closed)");
  else
    lua_pushfstring(L, RSXLUA_ACCESSOR " %s of %s (%I %s)",
                    a->info->name, a->m->name, (lua_Integer)a->count,
                    rsxlua_plural(a->count, "vertex", "vertices"));
  return 1;
}

/* ------------------------------------------------------- registration */

static const luaL_Reg a_methods[] = {
  {"get", a_get},
  {"iter", a_iter},
  {"range", a_range},
  {"lines", a_lines},
  {"pack", a_pack},
  {"raw", a_raw},
  {"bounds", a_bounds},
  {"lengths", a_lengths},
  {"non_finite", a_non_finite},
  {NULL, NULL}
};

/* The keys of an accessor's own metatable, in the order they are set
** (the order pairs walks them in), made once (rsxlua_open_accessor) and
** kept, interned, in the registry's shared table under ac_shared_key:
** its slot k holds key k, slot AC_KEYS + k the value of key k when that
** is the same for every accessor (__len, __tostring, __newindex,
** __name), slot AC_SHARED_MT the shared metatable. ac_fields sets each
** with lua_rawset from there: no C string to intern per key. */
static const char *const ac_keys[] = {
  "__len", "__tostring", "__newindex", "__index", "__name", "kind", "mesh",
  "components", "type", "stream", "offset", "stride", "get", NULL
};
enum { AK_LEN = 1, AK_TOSTRING, AK_NEWINDEX, AK_INDEX, AK_NAME, AK_KIND,
       AK_MESH, AK_COMPONENTS, AK_TYPE, AK_STREAM, AK_OFFSET, AK_STRIDE,
       AK_GET, AC_KEYS = AK_GET, AC_SHARED_MT = 2 * AC_KEYS + 1 };
static const char ac_shared_key = 'm';

/* Set the key of slot key of the shared table at shared to the value on
** top of the stack (popped), in the metatable at mt. */
static void ac_set(lua_State *L, int mt, int shared, int key)
{
  lua_rawgeti(L, shared, key);
  lua_insert(L, -2);
  lua_rawset(L, mt);
}

/* The per-accessor metatable, with the fields, on top of the stack; the
** accessor is at -2 and its mesh at parent. */
static void ac_fields(lua_State *L, const rl_accessor *a, int parent)
{
  int mt, shared;
  lua_createtable(L, 0, AC_KEYS);
  mt = lua_gettop(L);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ac_shared_key);
  shared = mt + 1;
  lua_rawgeti(L, shared, AC_KEYS + AK_LEN);
  ac_set(L, mt, shared, AK_LEN);
  lua_rawgeti(L, shared, AC_KEYS + AK_TOSTRING);
  ac_set(L, mt, shared, AK_TOSTRING);
  lua_rawgeti(L, shared, AC_KEYS + AK_NEWINDEX);
  ac_set(L, mt, shared, AK_NEWINDEX);
  lua_pushvalue(L, mt);
  ac_set(L, mt, shared, AK_INDEX);
  lua_rawgeti(L, shared, AC_KEYS + AK_NAME);
  ac_set(L, mt, shared, AK_NAME);
  lua_pushstring(L, a->info->name);
  ac_set(L, mt, shared, AK_KIND);
  lua_pushvalue(L, parent);
  ac_set(L, mt, shared, AK_MESH);
  lua_pushinteger(L, a->info->components);
  ac_set(L, mt, shared, AK_COMPONENTS);
  lua_pushstring(L, rsxlua_type_name(a->info->type));
  ac_set(L, mt, shared, AK_TYPE);
  lua_pushstring(L, a->info->stream == RSX_MMP ? "MMP" : "MGP");
  ac_set(L, mt, shared, AK_STREAM);
  lua_pushinteger(L, a->m->format.offset[a->kind]);
  ac_set(L, mt, shared, AK_OFFSET);
  lua_pushinteger(L, (lua_Integer)a->stride);
  ac_set(L, mt, shared, AK_STRIDE);
  lua_rawgeti(L, shared, AC_SHARED_MT);
  lua_pushvalue(L, mt - 1); /* the accessor */
  lua_pushcclosure(L, a_get, 2);
  ac_set(L, mt, shared, AK_GET);
  lua_rawgeti(L, shared, AC_SHARED_MT);
  lua_setmetatable(L, mt);
  lua_pop(L, 1); /* the shared table */
}

/* Every method but get pins the accessor's bundle for its call (see
** rsxlua_pin): get, and iter's step, read the bytes after every
** conversion of their arguments and allocate nothing before the last
** read, so no Lua code can run while they hold the accessor's pointers. */
void rsxlua_open_accessor(lua_State *L)
{
  int i, mt;
  luaL_newmetatable(L, RSXLUA_ACCESSOR);
  mt = lua_gettop(L);
  lua_newtable(L);
  for (i = 0; a_methods[i].name != NULL; i++) {
    lua_pushvalue(L, mt);
    lua_pushcclosure(L, a_methods[i].func, 1);
    if (a_methods[i].func != a_get) rsxlua_pinned(L, RL_PIN_ACCESSOR, mt);
    lua_setfield(L, -2, a_methods[i].name);
  }
  lua_setfield(L, mt, "__index");
  lua_createtable(L, AC_SHARED_MT, 0); /* ac_fields' keys and constants */
  for (i = 0; ac_keys[i] != NULL; i++) {
    lua_pushstring(L, ac_keys[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_pushvalue(L, mt);
  lua_pushcclosure(L, a_len, 1);
  lua_rawseti(L, -2, AC_KEYS + AK_LEN);
  lua_pushvalue(L, mt);
  lua_pushcclosure(L, a_tostring, 1);
  lua_rawseti(L, -2, AC_KEYS + AK_TOSTRING);
  rsxlua_push_newindex(L, RSXLUA_ACCESSOR);
  lua_rawseti(L, -2, AC_KEYS + AK_NEWINDEX);
  lua_pushliteral(L, RSXLUA_ACCESSOR);
  lua_rawseti(L, -2, AC_KEYS + AK_NAME);
  lua_pushvalue(L, mt);
  lua_rawseti(L, -2, AC_SHARED_MT);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &ac_shared_key);
  lua_pop(L, 1);
}
