/*
** base.c - the floor under every file of the binding, as lauxlib.c is
** under Lua's libraries: class registration, argument checks, failures,
** findings, the closing of objects tracked by their owner, and the text
** sink of the bulk text methods.
*/
#ifdef __linux__
#define _GNU_SOURCE /* fallocate */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#endif

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsxlua.h"

/* ----------------------------------------------------------- classes */

static rl_bundle *aux_viewed(lua_State *L, int kind, int mt);

/* __index: methods first (upvalue 1), then a property getter (upvalue 2
** maps a name to its slot in the members array, upvalue 3), else nil.
** A getter of a bundle's type runs with the bundle pinned (a negative
** slot; upvalue 4 the pin kind, upvalue 5 the class's metatable), but
** those of aux_unpinned. */
static int aux_index(lua_State *L)
{
  lua_settop(L, 2);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(2)) == LUA_TNUMBER) {
    const rl_member *members = lua_touserdata(L, lua_upvalueindex(3));
    lua_Integer slot = lua_tointeger(L, -1);
    lua_settop(L, 1);
    if (slot < 0) {
      slot = -1 - slot;
      rsxlua_pin(L, aux_viewed(L, (int)lua_tointeger(L, lua_upvalueindex(4)),
                               lua_upvalueindex(5)));
    }
    return members[slot].push(L);
  }
  lua_pushnil(L);
  return 1;
}

/* __newindex: no field of a userdata can be set ("mesh.name is
** read-only"), rather than Lua's "attempt to index a userdata value".
** Upvalue 1 is the type's short name. */
static int aux_newindex(lua_State *L)
{
  const char *type = lua_tostring(L, lua_upvalueindex(1));
  int string = lua_type(L, 2) == LUA_TSTRING;
  size_t len;
  const char *key = luaL_tolstring(L, 2, &len);
  return luaL_error(L, string ? "%s.%s is read-only" : "%s[%s] is read-only",
                    type, rsxlua_shown(L, key, len));
}

void rsxlua_push_newindex(lua_State *L, const char *tname)
{
  const char *dot = strrchr(tname, '.');
  lua_pushstring(L, dot != NULL ? dot + 1 : tname);
  lua_pushcclosure(L, aux_newindex, 1);
}

/* The methods and properties that run unpinned, for speed (a pin costs a
** call): after the self check each converts its arguments with no
** allocation (integers; no string made from a number), reads the bytes,
** and pushes one value made after the last read (lua_pushstring copies
** first, then may collect). No Lua code can run while one holds a
** pointer into the bundle. Audited one by one: a change that allocates,
** reads a table or converts a string must take its entry out. */
static const char *const aux_unpinned[] = {
  "bundle.path", "bundle.name", "bundle.size", "bundle.mesh_count",
  "bundle.submesh_count", "bundle.material_count",
  "bundle.sampler_count", "bundle.closed",
  "mesh.name", "mesh.number", "mesh.bundle", "mesh.mask",
  "mesh.vertex_count", "mesh.mmp_stride", "mesh.mgp_stride",
  "mesh.format", "mesh.index_count", "mesh.index_size", "mesh.primitive",
  "mesh.submesh_count", "mesh:index",
  "submesh.index", "submesh.mesh", "submesh.first_index",
  "submesh.index_count", "submesh.selectors", "submesh:selector",
  "submesh:uv_set",
  "material.name", "material.index", "material.sampler_count",
  "material.base_colour",
  "record.size", "record:u8", "record:s8", "record:u16", "record:s16",
  "record:u32", "record:s32", "record:f16", "record:f32",
  NULL
};

/* Is tname's member name (sep '.' a property, ':' a method) unpinned? */
static int aux_is_unpinned(const char *tname, char sep, const char *name)
{
  const char *type = strrchr(tname, '.') + 1; /* "rsxmesh.mesh": "mesh" */
  size_t tl = strlen(type);
  int i;
  for (i = 0; aux_unpinned[i] != NULL; i++) {
    const char *u = aux_unpinned[i];
    if (strncmp(u, type, tl) == 0 && u[tl] == sep &&
        strcmp(u + tl + 1, name) == 0)
      return 1;
  }
  return 0;
}

/* How the calls of class tname are pinned: a bundle, a child of one, or
** -1 for a type that views no bundle (writer, image, format). */
static int aux_pin_kind(const char *tname)
{
  static const char *const children[] = {RSXLUA_MESH, RSXLUA_SUBMESH,
    RSXLUA_MATERIAL, RSXLUA_RECORD, NULL};
  int i;
  if (strcmp(tname, RSXLUA_BUNDLE) == 0) return RL_PIN_BUNDLE;
  for (i = 0; children[i] != NULL; i++)
    if (strcmp(tname, children[i]) == 0) return RL_PIN_CHILD;
  return -1;
}

void rsxlua_class(lua_State *L, const char *tname, const luaL_Reg *mt,
                  const luaL_Reg *methods, const rl_member *members)
{
  int i, kind = aux_pin_kind(tname), meta;
  luaL_newmetatable(L, tname);
  meta = lua_gettop(L);
  if (mt != NULL) luaL_setfuncs(L, mt, 0);
  lua_newtable(L);
  for (i = 0; methods[i].name != NULL; i++) {
    lua_pushcfunction(L, methods[i].func);
    /* close frees, and must not pin what it frees */
    if (kind >= 0 && strcmp(methods[i].name, "close") != 0 &&
        !aux_is_unpinned(tname, ':', methods[i].name))
      rsxlua_pinned(L, kind, meta);
    lua_setfield(L, -2, methods[i].name);
  }
  lua_newtable(L);
  /* a member's slot, negative (-1 - slot) for a getter that needs a pin */
  for (i = 0; members != NULL && members[i].name != NULL; i++) {
    lua_pushinteger(L, kind >= 0 && !aux_is_unpinned(tname, '.',
                                                     members[i].name)
                       ? -1 - i : i);
    lua_setfield(L, -2, members[i].name);
  }
  lua_pushlightuserdata(L, (void *)members);
  if (kind >= 0)
    lua_pushinteger(L, kind);
  else
    lua_pushboolean(L, 0);
  lua_pushvalue(L, meta);
  lua_pushcclosure(L, aux_index, 5);
  lua_setfield(L, -2, "__index");
  rsxlua_push_newindex(L, tname);
  lua_setfield(L, -2, "__newindex");
  lua_pop(L, 1);
}

/* --------------------------------------------------------- arguments */

/* Arguments are numbered as Lua numbers them: a method's self is not
** counted (s:uv(7): argument #1 is 7). */
static int aux_argnumber(int arg, const char *fname)
{
  return strchr(fname, ':') != NULL ? arg - 1 : arg;
}

int rsxlua_argerror(lua_State *L, int arg, const char *fname,
                    const char *extramsg)
{
  int n = aux_argnumber(arg, fname);
  if (n == 0)
    return luaL_error(L, "%s: bad self (%s)", fname, extramsg);
  return luaL_error(L, "%s: bad argument #%d (%s)", fname, n, extramsg);
}

int rsxlua_typeerror(lua_State *L, int arg, const char *fname,
                     const char *tname)
{
  const char *got;
  if (luaL_getmetafield(L, arg, "__name") == LUA_TSTRING)
    got = lua_tostring(L, -1);
  else if (lua_type(L, arg) == LUA_TLIGHTUSERDATA)
    got = "light userdata";
  else
    got = luaL_typename(L, arg);
  return rsxlua_argerror(L, arg, fname,
                         lua_pushfstring(L, "%s expected, got %s", tname,
                                         got));
}

lua_Integer rsxlua_checkinteger(lua_State *L, int arg, const char *fname)
{
  int isint;
  lua_Integer v = lua_tointegerx(L, arg, &isint);
  if (!isint) {
    if (lua_isnumber(L, arg))
      rsxlua_argerror(L, arg, fname, "number has no integer representation");
    else
      rsxlua_typeerror(L, arg, fname, "number");
  }
  return v;
}

lua_Integer rsxlua_optinteger(lua_State *L, int arg, lua_Integer dflt,
                              const char *fname)
{
  return lua_isnoneornil(L, arg) ? dflt : rsxlua_checkinteger(L, arg, fname);
}

lua_Number rsxlua_checknumber(lua_State *L, int arg, const char *fname)
{
  int isnum;
  lua_Number v = lua_tonumberx(L, arg, &isnum);
  if (!isnum) rsxlua_typeerror(L, arg, fname, "number");
  return v;
}

const char *rsxlua_checklstring(lua_State *L, int arg, size_t *len,
                                const char *fname)
{
  const char *s = lua_tolstring(L, arg, len);
  if (s == NULL) rsxlua_typeerror(L, arg, fname, "string");
  return s;
}

const char *rsxlua_optstring(lua_State *L, int arg, const char *dflt,
                             const char *fname)
{
  return lua_isnoneornil(L, arg) ? dflt
                                 : rsxlua_checklstring(L, arg, NULL, fname);
}

void rsxlua_checktype(lua_State *L, int arg, int t, const char *fname)
{
  if (lua_type(L, arg) != t)
    rsxlua_typeerror(L, arg, fname, lua_typename(L, t));
}

const char *rsxlua_shown(lua_State *L, const char *s, size_t len)
{
  if (len <= RL_SHOWN) return lua_pushlstring(L, s, len);
  lua_pushlstring(L, s, RL_SHOWN);
  lua_pushliteral(L, "...");
  lua_concat(L, 2);
  return lua_tostring(L, -1);
}

void rsxlua_check_keys(lua_State *L, int idx, const char *const known[],
                       int (*accept)(lua_State *L, const char *key,
                                     const void *ud),
                       const void *ud, const char *fname, const char *what)
{
  idx = lua_absindex(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    int i = 0;
    const char *key = NULL;
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING) {
      key = lua_tostring(L, -1);
      for (; known[i] != NULL; i++)
        if (strcmp(known[i], key) == 0) break;
    }
    if (key == NULL ||
        (known[i] == NULL && (accept == NULL || !accept(L, key, ud)))) {
      size_t len;
      const char *shown = luaL_tolstring(L, -1, &len);
      luaL_error(L, "%s: unknown %s '%s'", fname, what,
                 rsxlua_shown(L, shown, len));
    }
  }
}

void *rsxlua_checkudata(lua_State *L, int arg, const char *tname,
                        const char *fname)
{
  void *p = luaL_testudata(L, arg, tname);
  if (p == NULL) rsxlua_typeerror(L, arg, fname, tname);
  return p;
}

int rsxlua_checkoption(lua_State *L, int arg, const char *const list[],
                       const char *fname)
{
  size_t len;
  const char *name = rsxlua_checklstring(L, arg, &len, fname);
  int i;
  for (i = 0; list[i] != NULL; i++)
    if (strcmp(list[i], name) == 0) return i;
  return rsxlua_argerror(L, arg, fname,
                         lua_pushfstring(L, "invalid option '%s'",
                                         rsxlua_shown(L, name, len)));
}

/* -------------------------------------------------------------- pins */

/* The registry's table from a bundle's address to its pin object (weak
** values: the pin lives as long as its bundle, which holds it). */
static const char pins_key = 'p';

typedef struct rl_pin {
  rl_bundle *bundle;
} rl_pin;

static void aux_free_held(rl_bundle *b)
{
  rsx_bundle *bytes = b->held;
  b->held = NULL;
  rsx_bundle_free(bytes);
}

static void aux_unpin_bundle(rl_bundle *b)
{
  if (b->pins > 0 && --b->pins == 0 && b->held != NULL) aux_free_held(b);
}

/* The pin's __close: the call that pushed it has returned or raised. */
static int aux_unpin(lua_State *L)
{
  rl_pin *pin = lua_touserdata(L, 1);
  aux_unpin_bundle(pin->bundle);
  return 0;
}

/* The pin's __gc, with its bundle's: a pin left counted by a coroutine
** that died in a call (its to-be-closed slots are never closed) must not
** keep the bytes for ever. The pin is marked for finalization after its
** bundle, so it is finalized first, and the bundle's __gc then frees. */
static int aux_pin_gc(lua_State *L)
{
  rl_pin *pin = lua_touserdata(L, 1);
  pin->bundle->pins = 0;
  if (pin->bundle->held != NULL) aux_free_held(pin->bundle);
  return 0;
}

/* Push the registry's table at key, made on first use with weak keys or
** values (mode "k" or "v"): the pins and the accessors' set. */
static void push_weak_registry_table(lua_State *L, const void *key,
                                     const char *mode)
{
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) != LUA_TNIL) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushstring(L, mode);
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, key);
}

void rsxlua_new_pin(lua_State *L, int idx)
{
  rl_pin *pin;
  idx = lua_absindex(L, idx);
  push_weak_registry_table(L, &pins_key, "v");
  pin = lua_newuserdatauv(L, sizeof *pin, 1);
  pin->bundle = lua_touserdata(L, idx);
  lua_createtable(L, 0, 2);
  lua_pushcfunction(L, aux_unpin);
  lua_setfield(L, -2, "__close");
  lua_pushcfunction(L, aux_pin_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, idx); /* the pin anchors its bundle for the call */
  lua_setiuservalue(L, -2, 1);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, -3, pin->bundle);
  lua_setiuservalue(L, idx, 3); /* and the bundle its pin */
  lua_pop(L, 1);
}

void rsxlua_pin(lua_State *L, rl_bundle *bundle)
{
  luaL_checkstack(L, 2, "too many pins");
  if (bundle == NULL || bundle->b == NULL) {
    lua_pushnil(L); /* nothing to pin: the call raises "closed" */
    return;
  }
  lua_rawgetp(L, LUA_REGISTRYINDEX, &pins_key);
  lua_rawgetp(L, -1, bundle);
  lua_remove(L, -2);
  if (lua_isnil(L, -1)) return; /* not reached: a bundle has its pin */
  /* nothing between the count and lua_toclose can raise or run Lua */
  bundle->pins++;
  lua_toclose(L, -1);
}

typedef struct rl_pinset {
  rl_bundle **b;
  size_t n, cap;
} rl_pinset;

/* __close and __gc of a pin set (a set never closed, left by a coroutine
** that died in the call, is finalized before its bundles, made before
** it) */
static int aux_pinset_close(lua_State *L)
{
  rl_pinset *ps = lua_touserdata(L, 1);
  size_t i;
  for (i = 0; i < ps->n; i++) aux_unpin_bundle(ps->b[i]);
  free(ps->b);
  ps->b = NULL;
  ps->n = ps->cap = 0;
  return 0;
}

int rsxlua_pinset(lua_State *L)
{
  rl_pinset *ps = lua_newuserdatauv(L, sizeof *ps, 1);
  ps->b = NULL;
  ps->n = ps->cap = 0;
  if (luaL_newmetatable(L, "rsxmesh.pinset")) {
    lua_pushcfunction(L, aux_pinset_close);
    lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, aux_pinset_close);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  lua_newtable(L); /* the objects anchored */
  lua_setiuservalue(L, -2, 1);
  lua_toclose(L, -1);
  return lua_gettop(L);
}

void rsxlua_pinset_add(lua_State *L, int set, int obj, rl_bundle *bundle)
{
  rl_pinset *ps = lua_touserdata(L, set);
  size_t i;
  if (bundle == NULL || bundle->b == NULL) return;
  for (i = 0; i < ps->n; i++)
    if (ps->b[i] == bundle) return;
  obj = lua_absindex(L, obj);
  lua_getiuservalue(L, set, 1);
  lua_pushvalue(L, obj);
  lua_rawseti(L, -2, (lua_Integer)ps->n + 1);
  lua_pop(L, 1);
  if (ps->n == ps->cap) {
    size_t cap = ps->cap ? 2 * ps->cap : 8;
    rl_bundle **more = realloc(ps->b, cap * sizeof *more);
    if (more == NULL) luaL_error(L, "out of memory");
    ps->b = more;
    ps->cap = cap;
  }
  /* nothing ran Lua code since the check above */
  bundle->pins++;
  ps->b[ps->n++] = bundle;
}

int rsxlua_close_bundle(rl_bundle *bundle)
{
  rsx_bundle *bytes = bundle->b;
  if (bytes == NULL) return 0;
  bundle->b = NULL;
  if (bundle->pins > 0)
    bundle->held = bytes; /* a call still reads them */
  else
    rsx_bundle_free(bytes);
  return 1;
}

static const char accessors_key = 'a';

void rsxlua_mark_accessor(lua_State *L, int idx)
{
  idx = lua_absindex(L, idx);
  push_weak_registry_table(L, &accessors_key, "k");
  lua_pushvalue(L, idx);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

rl_accessor *rsxlua_test_accessor(lua_State *L, int idx)
{
  void *p = lua_touserdata(L, idx);
  int marked;
  if (p == NULL || lua_type(L, idx) != LUA_TUSERDATA) return NULL;
  idx = lua_absindex(L, idx);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &accessors_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    return NULL;
  }
  lua_pushvalue(L, idx);
  marked = lua_rawget(L, -2) != LUA_TNIL;
  lua_pop(L, 2);
  return marked ? p : NULL;
}

/* The bundle viewed by the object at 1, whose class is given by kind and
** the metatable at mt; NULL when 1 is not such an object (the call then
** raises its own type error). */
static rl_bundle *aux_viewed(lua_State *L, int kind, int mt)
{
  void *p = lua_touserdata(L, 1);
  int same;
  if (kind == RL_PIN_ACCESSOR) {
    rl_accessor *a = rsxlua_test_accessor(L, 1);
    return a != NULL ? a->bundle : NULL;
  }
  if (p == NULL || lua_type(L, 1) != LUA_TUSERDATA ||
      !lua_getmetatable(L, 1))
    return NULL;
  same = lua_rawequal(L, -1, mt);
  lua_pop(L, 1);
  if (!same) return NULL;
  return kind == RL_PIN_BUNDLE ? (rl_bundle *)p : ((rl_child *)p)->bundle;
}

/* The wrapper of rsxlua_pinned: upvalue 1 the function, 2 the kind, 3
** the class's metatable. The arguments are passed on above the pin. */
static int aux_pinned(lua_State *L)
{
  int n = lua_gettop(L), i;
  rl_bundle *b = aux_viewed(L, (int)lua_tointeger(L, lua_upvalueindex(2)),
                            lua_upvalueindex(3));
  luaL_checkstack(L, n + 3, "too many arguments");
  rsxlua_pin(L, b);
  lua_pushvalue(L, lua_upvalueindex(1));
  for (i = 1; i <= n; i++) lua_pushvalue(L, i);
  lua_call(L, n, LUA_MULTRET);
  return lua_gettop(L) - n - 1;
}

void rsxlua_pinned(lua_State *L, int kind, int mt)
{
  mt = lua_absindex(L, mt);
  lua_pushinteger(L, kind);
  lua_pushvalue(L, mt);
  lua_pushcclosure(L, aux_pinned, 3);
}

/* ------------------------------------------------------------ checks */

void rsxlua_checkopen(lua_State *L, const rl_bundle *bundle,
                      const char *fname)
{
  if (bundle != NULL && bundle->b == NULL)
    luaL_error(L, "%s: bundle is closed", fname);
}

void *rsxlua_check(lua_State *L, int idx, const char *tname,
                   const char *fname)
{
  rl_child *c = rsxlua_checkudata(L, idx, tname, fname);
  rsxlua_checkopen(L, c->bundle, fname);
  return c;
}

int rsxlua_checkkind(lua_State *L, int idx, const char *fname)
{
  size_t len;
  const char *name = rsxlua_checklstring(L, idx, &len, fname);
  int kind = rsx_kind_from_name(name);
  if (kind < 0)
    return luaL_error(L, "%s: unknown kind '%s'", fname,
                      rsxlua_shown(L, name, len));
  return kind;
}

/* ---------------------------------------------------------- objects */

void *rsxlua_new_child(lua_State *L, size_t size, const char *tname,
                       int parent)
{
  void *p;
  parent = lua_absindex(L, parent);
  p = lua_newuserdatauv(L, size, 1);
  memset(p, 0, size);
  luaL_setmetatable(L, tname);
  lua_pushvalue(L, parent);
  lua_setiuservalue(L, -2, 1);
  return p;
}

/* ---------------------------------------------------------- results */

int rsxlua_fail(lua_State *L, const char *message)
{
  lua_pushnil(L);
  lua_pushstring(L, message);
  return 2;
}

/* Append {code = code, message = message} to the array at the top of the
** stack as its element n. */
static void aux_push_finding(lua_State *L, int n, const char *code,
                             const char *message)
{
  lua_createtable(L, 0, 2);
  lua_pushstring(L, code != NULL ? code : "unknown");
  lua_setfield(L, -2, "code");
  lua_pushstring(L, message);
  lua_setfield(L, -2, "message");
  lua_rawseti(L, -2, n);
}

void rsxlua_push_findings(lua_State *L, const rsx_mesh *m,
                          const rsx_submesh *s)
{
  unsigned findings = s != NULL ? s->findings : m->findings, bit;
  int n = 0;
  lua_newtable(L);
  for (bit = 1; bit != 0; bit <<= 1) {
    char buf[512];
    if (!(findings & bit)) continue;
    if (s != NULL) {
      rsx_submesh_finding_describe(m, s, bit, buf, sizeof buf);
      aux_push_finding(L, ++n, rsx_submesh_finding_name(bit), buf);
    } else {
      rsx_finding_describe(m, bit, buf, sizeof buf);
      aux_push_finding(L, ++n, rsx_finding_name(bit), buf);
    }
  }
}

void rsxlua_range(lua_State *L, int arg, uint32_t n, const char *fname,
                  uint32_t *first, uint32_t *count)
{
  lua_Integer i = rsxlua_optinteger(L, arg, 1, fname);
  lua_Integer j = rsxlua_optinteger(L, arg + 1, (lua_Integer)n, fname);
  /* i may be n + 1 in an empty range, as in string.sub */
  if (i < 1 || i > (lua_Integer)n + 1)
    luaL_error(L, "%s: vertex %I out of range 1..%I", fname, i,
               (lua_Integer)n);
  if (j < 0 || j > (lua_Integer)n)
    luaL_error(L, "%s: vertex %I out of range 1..%I", fname, j,
               (lua_Integer)n);
  if (j < i - 1)
    luaL_error(L, "%s: range %I..%I is reversed", fname, i, j);
  *first = (uint32_t)(i - 1);
  *count = (uint32_t)(j - i + 1);
}

const char *rsxlua_type_name(int type)
{
  switch (type) {
  case RSX_TYPE_F: return "F";
  case RSX_TYPE_SF: return "SF";
  case RSX_TYPE_UB: return "UB";
  case RSX_TYPE_S32K: return "S32K";
  case RSX_TYPE_CMP: return "CMP";
  default: return "?";
  }
}

/* ---------------------------------------------------------- tracking */

/* Push a new table, weak as mode says ("k" or "v"). */
static void aux_weaktable(lua_State *L, const char *mode)
{
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushstring(L, mode);
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
}

void rsxlua_new_tracker(lua_State *L)
{
  aux_weaktable(L, "k");
}

void rsxlua_track(lua_State *L, int owner, int mt)
{
  mt = lua_absindex(L, mt);
  lua_getiuservalue(L, owner, 1);
  lua_pushvalue(L, mt);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/* The __index of a closed object: "accessor.kind: bundle is closed",
** from upvalue 1, the type's short name, and upvalue 2, the reason. */
static int aux_closed_index(lua_State *L)
{
  return luaL_error(L, "%s.%s: %s", lua_tostring(L, lua_upvalueindex(1)),
                    luaL_optstring(L, 2, "?"),
                    lua_tostring(L, lua_upvalueindex(2)));
}

/* Empty the fields of the metatable at mt (what is neither a function nor
** a metamethod) and make its __index raise. */
static void aux_close_one(lua_State *L, int mt, const char *why)
{
  const char *name;
  int n = 0, i, keys;
  mt = lua_absindex(L, mt);
  lua_newtable(L); /* the keys to clear: a table is not changed while
                   ** walked */
  keys = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, mt) != 0) {
    int data = lua_type(L, -1) != LUA_TFUNCTION;
    lua_pop(L, 1);
    if (data && !(lua_type(L, -1) == LUA_TSTRING &&
                  strncmp(lua_tostring(L, -1), "__", 2) == 0)) {
      lua_pushvalue(L, -1);
      lua_rawseti(L, keys, ++n);
    }
  }
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, keys, i);
    lua_pushnil(L);
    lua_rawset(L, mt);
  }
  lua_pop(L, 1);
  lua_getfield(L, mt, "__name");
  name = luaL_optstring(L, -1, "object");
  if (strrchr(name, '.') != NULL) name = strrchr(name, '.') + 1;
  lua_pushstring(L, name);
  lua_remove(L, -2);
  lua_pushstring(L, why);
  lua_pushcclosure(L, aux_closed_index, 2);
  lua_setfield(L, mt, "__index");
}

void rsxlua_close_tracked(lua_State *L, int owner, const char *why)
{
  int n = 0, i, list;
  owner = lua_absindex(L, owner);
  lua_getiuservalue(L, owner, 1);
  lua_newtable(L); /* copied out, not changed while walked */
  list = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, list - 1) != 0) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, list, ++n);
  }
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, list, i);
    aux_close_one(L, -1, why);
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
}

/* ------------------------------------------------------------ caching */

void rsxlua_new_cache(lua_State *L)
{
  aux_weaktable(L, "v");
}

int rsxlua_cached(lua_State *L, int owner, const void *key)
{
  lua_getiuservalue(L, owner, 2);
  if (lua_rawgetp(L, -1, key) != LUA_TNIL) {
    lua_remove(L, -2);
    return 1;
  }
  lua_pop(L, 2);
  return 0;
}

void rsxlua_cache(lua_State *L, int owner, const void *key)
{
  owner = lua_absindex(L, owner);
  lua_getiuservalue(L, owner, 2);
  lua_pushvalue(L, -2);
  lua_rawsetp(L, -2, key);
  lua_pop(L, 1);
}

/* ------------------------------------------------------------ columns */

float *rsxlua_floats(lua_State *L, int idx, size_t n, const char *fname,
                     const char *what)
{
  float *out;
  size_t i;
  idx = lua_absindex(L, idx);
  out = lua_newuserdatauv(L, n * sizeof *out + 1, 0);
  for (i = 0; i < n; i++) {
    int isnum;
    lua_rawgeti(L, idx, (lua_Integer)i + 1);
    out[i] = (float)lua_tonumberx(L, -1, &isnum);
    lua_pop(L, 1);
    if (!isnum)
      luaL_error(L, "%s: %s[%I] is not a number", fname, what,
                 (lua_Integer)i + 1);
  }
  return out;
}

/* ----------------------------------------------------------- float memo */

/* Kept in the registry for the life of the state: a pure cache (lines.h),
** so any call may use it. */
static const char float_memo_key = 0;

rsx_float_memo *rsxlua_float_memo(lua_State *L)
{
  rsx_float_memo *memo;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &float_memo_key) == LUA_TUSERDATA) {
    memo = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return memo;
  }
  lua_pop(L, 1);
  memo = lua_newuserdatauv(L, sizeof *memo, 0);
  rsx_float_memo_init(memo);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &float_memo_key);
  return memo;
}

/* ------------------------------------------------------------ text sink */

/* The text sink reserves disk room ahead of a long text on ext4 (Linux's
** fallocate, the file's size kept): its delayed allocation otherwise
** reserves each 4 KiB page as the write reaches it, and 23 MB of an OBJ
** took 1.5 ms more of system time so (doc/performance.md, issue 22's
** fifth round). From RL_RESERVE_FROM bytes on, as much again as the file
** holds, at least RL_RESERVE_MIN and at most RL_RESERVE_MAX, whenever less
** than half of RL_RESERVE_MIN is left. Elsewhere it would not pay: tmpfs
** fills reserved pages with zeros (6 ms more for the same OBJ). */
#define RL_EXT4_MAGIC 0xEF53
#define RL_RESERVE_FROM ((off_t)1 << 20)
#define RL_RESERVE_MIN ((off_t)4 << 20)
#define RL_RESERVE_MAX ((off_t)32 << 20)

void rsxlua_created_init(rl_created *c, FILE *f)
{
  c->reserve = c->reserved = 0;
#ifdef __linux__
  {
    struct statfs fs;
    c->reserve = fstatfs(fileno(f), &fs) == 0 && fs.f_type == RL_EXT4_MAGIC;
  }
#else
  (void)f;
#endif
}

void rsxlua_created_reserve(rl_created *c, FILE *f)
{
#if defined(__linux__) && defined(FALLOC_FL_KEEP_SIZE)
  struct stat st;
  off_t ahead;
  int fd = fileno(f);
  if (!c->reserve || fd < 0 || fstat(fd, &st) != 0 ||
      st.st_size < RL_RESERVE_FROM ||
      (off_t)st.st_blocks * 512 >= st.st_size + RL_RESERVE_MIN / 2)
    return;
  ahead = st.st_size < RL_RESERVE_MIN ? RL_RESERVE_MIN
          : st.st_size > RL_RESERVE_MAX ? RL_RESERVE_MAX : st.st_size;
  if (fallocate(fd, FALLOC_FL_KEEP_SIZE, st.st_size, ahead) == 0)
    c->reserved = 1;
  else /* no room, no support: the writes say what they meet */
    c->reserve = 0;
#else
  (void)c;
  (void)f;
#endif
}

int rsxlua_created_close(lua_State *L)
{
  luaL_Stream *p = (luaL_Stream *)luaL_checkudata(L, 1, LUA_FILEHANDLE);
  rl_created *c;
  int flushed = 1, err = 0, closed;
  lua_getiuservalue(L, 1, 1);
  c = (rl_created *)lua_touserdata(L, -1);
  lua_pop(L, 1);
#ifdef __linux__
  if (c != NULL && c->reserved) {
    /* the last bytes written first, so that the size is the file's; a
    ** failure is the close's (glibc drops a buffer it failed to write,
    ** and fclose would then say nothing) */
    if (fflush(p->f) != 0) {
      flushed = 0;
      err = errno ? errno : EIO;
    } else {
      /* the room reserved past the end given back (ext4 truncates at the
      ** size it has); a failure here loses no byte, and is not reported */
      struct stat st;
      if (fstat(fileno(p->f), &st) == 0)
        (void)ftruncate(fileno(p->f), st.st_size);
    }
  }
#else
  (void)c;
#endif
  errno = 0;
  closed = fclose(p->f) == 0;
  if (!flushed) errno = err;
  return luaL_fileresult(L, closed && flushed, NULL);
}

void rsxlua_text_init(lua_State *L, rl_text *t, int arg, size_t hint,
                      const char *fname)
{
  t->L = L;
  t->f = NULL;
  t->stream = NULL;
  t->fname = fname;
  t->n = t->total = 0;
  t->err = 0;
  t->direct = t->spill = 0;
  t->created = NULL;
  if (arg != 0 && !lua_isnoneornil(L, arg)) {
    luaL_Stream *s = luaL_testudata(L, arg, LUA_FILEHANDLE);
    if (s == NULL)
      rsxlua_typeerror(L, arg, fname, "file");
    if (s->closef == NULL)
      luaL_error(L, "%s: the file is closed", fname);
    t->f = s->f;
    t->stream = s;
    if (s->closef == rsxlua_created_close) {
      lua_getiuservalue(L, arg, 1); /* the handle anchors it */
      t->created = (rl_created *)lua_touserdata(L, -1);
      lua_pop(L, 1);
    }
    return;
  }
  luaL_buffinit(L, &t->b);
  /* room for all the text at once: the buffer never grows by copies,
  ** and the pages past the text's end are never touched */
  if (hint > 0) luaL_prepbuffsize(&t->b, hint);
}

static void text_flush(rl_text *t)
{
  if (t->stream->closef == NULL) /* the file argument anchors the stream */
    luaL_error(t->L, "%s: the file is closed", t->fname);
  if (t->n > 0 && t->err == 0 && fwrite(t->block, 1, t->n, t->f) != t->n)
    t->err = errno ? errno : EIO;
  t->n = 0;
}

/* Room of size bytes straight in the file's own buffer, or NULL: the text
** then goes to the block, and from there to the file by fwrite. glibc's
** FILE shows its buffer's free room, [_IO_write_ptr, _IO_write_end),
** which putc_unlocked's macro and fwrite's fast path fill in place; the
** lines are written there, so that the 23 MB of an OBJ (in rsxmesh.create's
** 256 KiB buffer) are not copied once more. When the room is short, that
** one room's text goes through the block and is written at once: fwrite
** fills the buffer to its end before the system call, so that the file is
** written in whole buffers (a write that ends within a page cost the
** kernel more: 23 MB in writes of 240,000 bytes took 1.2 ms more than in
** writes of 256 KiB). Only a file of rsxmesh.create, which this Lua state
** alone writes (no other thread's fwrite holds its lock); io.open's files
** take the block as ever. A stream with no room (unbuffered, line
** buffered, reading, never written yet) takes the block, as does any text
** once the block holds some, so that the order stays. */
static char *text_file_room(rl_text *t, size_t size)
{
#if defined(__GLIBC__) && !defined(RSXLUA_TEXT_COPY)
  FILE *f = t->f;
  if (t->created == NULL || t->n > 0 || t->err != 0) return NULL;
  if (f->_IO_write_end - f->_IO_write_ptr < (ptrdiff_t)size) {
    t->spill = 1;
    return NULL;
  }
  if (t->stream->closef == NULL) /* as text_flush */
    luaL_error(t->L, "%s: the file is closed", t->fname);
  t->direct = 1;
  return f->_IO_write_ptr;
#else
  (void)t;
  (void)size;
  return NULL;
#endif
}

char *rsxlua_text_room(rl_text *t, size_t size)
{
  char *p;
  if (t->f == NULL) return luaL_prepbuffsize(&t->b, size);
  if (size > RL_TEXT_BLOCK)
    luaL_error(t->L, "text: a line of %I bytes is too long",
               (lua_Integer)size);
  if ((p = text_file_room(t, size)) != NULL) return p;
  if (RL_TEXT_BLOCK - t->n < size) text_flush(t);
  return t->block + t->n;
}

void rsxlua_text_add(rl_text *t, size_t len)
{
  if (t->f == NULL) {
    luaL_addsize(&t->b, len);
    return;
  }
  t->total += len;
#if defined(__GLIBC__) && !defined(RSXLUA_TEXT_COPY)
  if (t->direct) {
    t->f->_IO_write_ptr += len;
    t->direct = 0;
    return;
  }
#endif
  t->n += len;
  if (t->spill) { /* the buffer was full: a long text goes on */
    t->spill = 0;
    text_flush(t);
    if (t->created != NULL && t->err == 0)
      rsxlua_created_reserve(t->created, t->f);
  }
}

int rsxlua_text_push(rl_text *t)
{
  if (t->f == NULL) {
    luaL_pushresult(&t->b);
    return 1;
  }
  text_flush(t);
  if (t->err != 0) {
    lua_pushnil(t->L);
    lua_pushstring(t->L, strerror(t->err));
    lua_pushinteger(t->L, t->err);
    return 3;
  }
  lua_pushinteger(t->L, (lua_Integer)t->total);
  return 1;
}

int rsxlua_take_file(lua_State *L, int first)
{
  int top = lua_gettop(L), at;
  if (top < first || luaL_testudata(L, top, LUA_FILEHANDLE) == NULL)
    return 0;
  /* the file goes above the arguments a range reads (first, first + 1) */
  at = (top > first + 1 ? top : first + 1) + 1;
  lua_settop(L, at);
  lua_copy(L, top, at);
  lua_pushnil(L);
  lua_replace(L, top);
  return at;
}
