/*
** writer.c - the writer userdata: rsxmesh.writer() wraps the core's
** rsx_writer (materials with samplers, meshes, the file's bytes).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsxlua.h"

typedef struct rl_writer {
  rsx_writer *w;      /* NULL once closed */
  uint32_t meshes;
  uint32_t materials;
  int keep;           /* lays the file out as its base (user value 2) */
} rl_writer;

static rl_writer *wr_check(lua_State *L, int idx, const char *fname)
{
  rl_writer *w = rsxlua_checkudata(L, idx, RSXLUA_WRITER, fname);
  if (w->w == NULL) luaL_error(L, "%s: writer is closed", fname);
  return w;
}

/* The writer's core object, checked again just before the core uses it:
** Lua code run since wr_check (an __index of a field, a finalizer run by
** an allocation) may have closed the writer. No Lua code may run between
** this and the core call. */
static rsx_writer *wr_open(lua_State *L, const rl_writer *w,
                           const char *fname)
{
  if (w->w == NULL) luaL_error(L, "%s: writer is closed", fname);
  return w->w;
}

/* opts.layout of rsxmesh.writer: 1 for "base" (lay the file out as the
** base is laid out), 0 for "rsxmesh" (rsxb.md's order, the default). */
static int wr_layout_option(lua_State *L, int idx, int has_base)
{
  static const char *const known[] = {"layout", NULL};
  static const char *const layouts[] = {"rsxmesh", "base", NULL};
  int layout = 0;
  rsxlua_checktype(L, idx, LUA_TTABLE, "rsxmesh.writer");
  rsxlua_check_keys(L, idx, known, NULL, NULL, "rsxmesh.writer", "option");
  if (lua_getfield(L, idx, "layout") != LUA_TNIL) {
    const char *name = lua_tostring(L, -1);
    if (lua_type(L, -1) != LUA_TSTRING)
      return luaL_error(L, "rsxmesh.writer: opts.layout must be 'base' or "
                        "'rsxmesh', got %s", luaL_typename(L, -1));
    for (layout = 0; layouts[layout] != NULL; layout++)
      if (strcmp(layouts[layout], name) == 0) break;
    if (layouts[layout] == NULL)
      return luaL_error(L, "rsxmesh.writer: opts.layout must be 'base' or "
                        "'rsxmesh', got '%s'", name);
  }
  lua_pop(L, 1);
  if (layout == 1 && !has_base)
    return luaL_error(L, "rsxmesh.writer: opts.layout 'base' needs a base "
                      "bundle");
  return layout;
}

/* rsxmesh.writer([base [, opts]]): base, a bundle, seeds the string
** table; opts.layout = "base" lays the file out as base is. The first
** user value maps each material name to the number of its first
** material, and each number to its name, for w:mesh's mapping; the
** second holds the base whose layout the writer keeps. */
static int wr_new(lua_State *L)
{
  rl_bundle *base = NULL;
  const rsx_bundle *seed = NULL;
  rl_writer *w;
  int keep = 0;
  lua_settop(L, 2);
  if (!lua_isnil(L, 1))
    base = rsxlua_checkudata(L, 1, RSXLUA_BUNDLE, "rsxmesh.writer");
  /* the options first: their __index may close base */
  if (!lua_isnil(L, 2)) keep = wr_layout_option(L, 2, base != NULL);
  if (base != NULL) {
    rsxlua_checkopen(L, base, "rsxmesh.writer");
    seed = base->b;
  }
  /* the allocations below may run a finalizer that closes base: its
  ** bytes stay until the call ends */
  rsxlua_pin(L, base);
  w = lua_newuserdatauv(L, sizeof *w, 2);
  w->w = NULL;
  w->meshes = w->materials = 0;
  w->keep = keep;
  luaL_setmetatable(L, RSXLUA_WRITER);
  lua_newtable(L);
  lua_setiuservalue(L, -2, 1);
  if (keep) {
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 2);
  }
  w->w = rsx_writer_new();
  if (w->w == NULL) return luaL_error(L, "rsxmesh.writer: out of memory");
  if (seed != NULL) {
    size_t size;
    const uint8_t *table = rsx_bundle_strings(seed, &size);
    rsx_error err;
    if (rsx_writer_seed_strings(w->w, table, size, &err) != 0)
      return luaL_error(L, "rsxmesh.writer: %s", err.text);
  }
  return 1;
}

/* The writer's core object for an output call (w:bytes, w:save): a base
** whose layout it keeps is pinned for the call and handed to the core
** again, since the core holds no reference of its own. Pushes one value,
** which the caller must not pop. */
static rsx_writer *wr_output(lua_State *L, const rl_writer *w,
                             const char *fname)
{
  rl_bundle *base = NULL;
  if (w->keep) {
    lua_getiuservalue(L, 1, 2);
    base = lua_touserdata(L, -1);
    lua_pop(L, 1); /* the writer anchors it */
  }
  rsxlua_pin(L, base);
  if (base != NULL && base->b == NULL)
    luaL_error(L, "%s: the base bundle is closed (the writer lays the "
               "file out as it)", fname);
  rsx_writer_keep_layout(wr_open(L, w, fname), base ? base->b : NULL);
  return w->w;
}

/* w:material(name [, samplers]) */
static int w_material(lua_State *L)
{
  rl_writer *w = wr_check(L, 1, "writer:material");
  const char *name = rsxlua_checklstring(L, 2, NULL, "writer:material");
  size_t n = 0, i;
  rsx_sampler *smp;
  uint32_t index;
  rsx_error err;

  if (!lua_isnoneornil(L, 3)) {
    rsxlua_checktype(L, 3, LUA_TTABLE, "writer:material");
    n = lua_rawlen(L, 3);
  }
  lua_settop(L, 3);
  if (n > UINT32_MAX / sizeof *smp)
    return luaL_error(L, "writer:material: too many samplers");
  smp = lua_newuserdatauv(L, n * sizeof *smp + 1, 0); /* at 4 */
  lua_createtable(L, (int)(n < 1024 ? n : 0), 0);   /* 5: keeps textures */
  for (i = 0; i < n; i++) {
    int isint;
    lua_Integer slot;
    if (lua_rawgeti(L, 3, (lua_Integer)i + 1) != LUA_TTABLE)
      return luaL_error(L, "writer:material: samplers[%I] must be a table, "
                        "got %s", (lua_Integer)i + 1, luaL_typename(L, -1));
    lua_getfield(L, -1, "slot");
    slot = lua_tointegerx(L, -1, &isint);
    if (!isint || slot < 0 || slot > 0xFFFFFFFF)
      return luaL_error(L, "writer:material: samplers[%I].slot must be a "
                        "32-bit integer", (lua_Integer)i + 1);
    lua_pop(L, 1);
    if (lua_getfield(L, -1, "texture") != LUA_TSTRING)
      return luaL_error(L, "writer:material: samplers[%I].texture must be "
                        "a string, got %s", (lua_Integer)i + 1,
                        luaL_typename(L, -1));
    smp[i].slot = (uint32_t)slot;
    smp[i].texture = lua_tostring(L, -1);
    lua_rawseti(L, 5, (lua_Integer)i + 1);
    lua_pop(L, 1);
  }
  index = rsx_writer_add_material(wr_open(L, w, "writer:material"), name,
                                  smp, (uint32_t)n, &err);
  if (index == RSX_NONE) return rsxlua_fail(L, err.text);
  w->materials++;
  lua_getiuservalue(L, 1, 1);
  lua_pushstring(L, name);
  lua_rawseti(L, -2, (lua_Integer)index + 1);
  if (lua_getfield(L, -1, name) == LUA_TNIL) {
    lua_pushinteger(L, (lua_Integer)index + 1);
    lua_setfield(L, -3, name);
  }
  lua_pushinteger(L, (lua_Integer)index + 1);
  return 1;
}

/* The submeshes of me with their materials, numbers of the bundle
** me->materials, mapped by name to this writer's (the writer at 1): a
** scratch copy pushed on the stack, or NULL and a message in buf when the
** writer lacks a material. */
static rsx_submesh *wr_map_materials(lua_State *L, const rl_mesh *me,
                                     char *buf, size_t size)
{
  const rsx_mesh *m = me->m;
  const rsx_bundle *materials = me->materials->b; /* pinned by w_mesh */
  rsx_submesh *subs;
  uint32_t i;
  subs = lua_newuserdatauv(L, (size_t)m->submesh_count * sizeof *subs + 1,
                           0);
  if (m->submesh_count > 0)
    memcpy(subs, m->submeshes, (size_t)m->submesh_count * sizeof *subs);
  lua_getiuservalue(L, 1, 1);
  for (i = 0; i < m->submesh_count; i++) {
    const rsx_material *mat;
    int isint;
    lua_Integer k;
    if (subs[i].material == RSX_NONE) continue;
    mat = rsx_bundle_material(materials, subs[i].material);
    /* the same number when this writer's material of that number has
    ** the name (a copy of a bundle with names used twice stays exact),
    ** else the first of the name */
    lua_rawgeti(L, -1, (lua_Integer)subs[i].material + 1);
    if (lua_type(L, -1) == LUA_TSTRING &&
        strcmp(lua_tostring(L, -1), mat->name) == 0) {
      lua_pop(L, 1);
      continue;
    }
    lua_pop(L, 1);
    lua_getfield(L, -1, mat->name);
    k = lua_tointegerx(L, -1, &isint);
    lua_pop(L, 1);
    if (!isint) {
      char label[160];
      rsx_mesh_label(m, label, sizeof label);
      snprintf(buf, size, "writer:mesh: %s: submesh %lu: material %s is "
               "not in this writer (w:material adds it)", label,
               (unsigned long)i + 1, mat->name);
      lua_pop(L, 1);
      return NULL;
    }
    subs[i].material = (uint32_t)(k - 1);
  }
  lua_pop(L, 1);
  return subs;
}

/* w:mesh(m): a mesh userdata, or a table in rsxmesh.mesh's form */
static int w_mesh(lua_State *L)
{
  rl_writer *w = wr_check(L, 1, "writer:mesh");
  rl_mesh *me;
  rsx_mesh c;
  rsx_error err;
  int pins;
  lua_settop(L, 2);
  if (lua_istable(L, 2)) {
    if (rsxlua_build_mesh(L, 2, "writer:mesh") != 1) return 2;
    lua_replace(L, 2); /* the mesh built */
  }
  me = rsxlua_check(L, 2, RSXLUA_MESH, "writer:mesh");
  /* the mesh's bytes and its material names stay until the call ends */
  pins = rsxlua_pinset(L);
  rsxlua_pinset_add(L, pins, 2, me->bundle);
  rsxlua_pinset_add(L, pins, 2, me->materials);
  rsxlua_check(L, 2, RSXLUA_MESH, "writer:mesh");
  c = *me->m;
  if (me->materials != NULL) {
    /* numbers of another bundle's table: by name to this writer's */
    char buf[512];
    rsxlua_checkopen(L, me->materials, "writer:mesh");
    c.submeshes = wr_map_materials(L, me, buf, sizeof buf);
    if (c.submeshes == NULL) return rsxlua_fail(L, buf);
  }
  if (rsx_writer_add_mesh(wr_open(L, w, "writer:mesh"), &c, &err) != 0)
    return rsxlua_fail(L, err.text);
  w->meshes++;
  lua_pushboolean(L, 1);
  return 1;
}

/* Run under lua_pcall by w_bytes, so that a memory error while the
** string is made cannot leak the core's malloc'd buffer. */
static int wr_pushbytes(lua_State *L)
{
  const char *p = lua_touserdata(L, 1);
  size_t n = (size_t)lua_tointeger(L, 2);
  lua_pushlstring(L, p, n);
  return 1;
}

static int w_bytes(lua_State *L)
{
  rl_writer *w = wr_check(L, 1, "writer:bytes");
  rsx_writer *core;
  uint8_t *out = NULL;
  size_t size = 0;
  rsx_error err;
  int status;
  lua_settop(L, 1);
  core = wr_output(L, w, "writer:bytes");
  luaL_checkstack(L, 3, "writer:bytes"); /* no allocation once out is */
  if (rsx_writer_bytes(core, &out, &size, &err) != 0)
    return rsxlua_fail(L, err.text);
  lua_pushcfunction(L, wr_pushbytes);
  lua_pushlightuserdata(L, out);
  lua_pushinteger(L, (lua_Integer)size);
  status = lua_pcall(L, 2, 1, 0);
  free(out);
  if (status != LUA_OK) return lua_error(L);
  return 1;
}

static int w_save(lua_State *L)
{
  rl_writer *w = wr_check(L, 1, "writer:save");
  const char *path = rsxlua_checklstring(L, 2, NULL, "writer:save");
  rsx_error err;
  /* a number path became a string: an allocation, maybe a finalizer */
  if (rsx_writer_save(wr_output(L, w, "writer:save"), path, &err) != 0)
    return rsxlua_fail(L, err.text);
  lua_pushboolean(L, 1);
  return 1;
}

/* close, __close and __gc: marked closed first; idempotent */
static int w_close(lua_State *L)
{
  rl_writer *w = rsxlua_checkudata(L, 1, RSXLUA_WRITER, "writer:close");
  rsx_writer *open = w->w;
  if (open == NULL) return 0;
  w->w = NULL;
  rsx_writer_free(open);
  return 0;
}

static int w_tostring(lua_State *L)
{
  rl_writer *w = rsxlua_checkudata(L, 1, RSXLUA_WRITER, "writer:__tostring");
  if (w->w == NULL)
    lua_pushliteral(L, RSXLUA_WRITER " (closed)");
  else
    lua_pushfstring(L, RSXLUA_WRITER " (%I %s, %I %s%s)",
                    (lua_Integer)w->meshes,
                    rsxlua_plural(w->meshes, "mesh", "meshes"),
                    (lua_Integer)w->materials,
                    rsxlua_plural(w->materials, "material", "materials"),
                    w->keep ? ", laid out as its base" : "");
  return 1;
}

static int wp_mesh_count(lua_State *L)
{
  lua_pushinteger(L, (lua_Integer)wr_check(L, 1, "writer.mesh_count")->meshes);
  return 1;
}

static int wp_material_count(lua_State *L)
{
  rl_writer *w = wr_check(L, 1, "writer.material_count");
  lua_pushinteger(L, (lua_Integer)w->materials);
  return 1;
}

static const luaL_Reg w_meta[] = {
  {"__gc", w_close},
  {"__close", w_close},
  {"__tostring", w_tostring},
  {NULL, NULL}
};

static const luaL_Reg w_methods[] = {
  {"material", w_material},
  {"mesh", w_mesh},
  {"bytes", w_bytes},
  {"save", w_save},
  {"close", w_close},
  {NULL, NULL}
};

static const rl_member w_members[] = {
  {"mesh_count", wp_mesh_count},
  {"material_count", wp_material_count},
  {NULL, NULL}
};

void rsxlua_open_writer(lua_State *L)
{
  rsxlua_class(L, RSXLUA_WRITER, w_meta, w_methods, w_members);
  lua_pushcfunction(L, wr_new);
  lua_setfield(L, -2, "writer");
}
