/*
** render.c - rsxmesh.render(opts): meshes to an image through the core's
** renderer; the options, the camera, and the textures (each file once).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsxlua.h"
#include "render.h"

#define FNAME "rsxmesh.render"
#define RENDER_STATE "rsxmesh.render state"

/* A texture met during one call: by file path (the default loader) or by
** image (a texture function's); t is NULL for a file that failed. */
typedef struct rtex {
  char *path;
  const rsx_image *image;
  rsx_texture *t;
} rtex;

/* What one call allocates, freed by __gc even if a Lua error cuts the
** call short. */
typedef struct rstate {
  rsx_draw *draws;
  size_t n, cap;
  rtex *tex;
  size_t ntex, captex;
  uint32_t *legend;
} rstate;

static int st_gc(lua_State *L)
{
  rstate *st = luaL_checkudata(L, 1, RENDER_STATE);
  size_t i;
  for (i = 0; i < st->ntex; i++) {
    free(st->tex[i].path);
    rsx_texture_free(st->tex[i].t);
  }
  free(st->tex);
  free(st->draws);
  free(st->legend);
  memset(st, 0, sizeof *st);
  return 0;
}

static void *grow(lua_State *L, void *p, size_t *cap, size_t n, size_t size)
{
  void *q;
  size_t c;
  if (n < *cap) return p;
  c = *cap ? *cap * 2 : 64;
  q = realloc(p, c * size);
  if (q == NULL) luaL_error(L, FNAME ": out of memory");
  *cap = c;
  return q;
}

static void add_draw(lua_State *L, rstate *st, const rsx_mesh *m,
                     const rsx_submesh *s)
{
  st->draws = grow(L, st->draws, &st->cap, st->n, sizeof *st->draws);
  st->draws[st->n].mesh = m;
  st->draws[st->n].submesh = s;
  st->draws[st->n].texture = NULL;
  st->n++;
}

/* ------------------------------------------------------------ options */

static lua_Integer opt_int(lua_State *L, int opts, const char *key,
                          lua_Integer def)
{
  lua_Integer v;
  int isnum;
  if (lua_getfield(L, opts, key) == LUA_TNIL) {
    lua_pop(L, 1);
    return def;
  }
  v = lua_tointegerx(L, -1, &isnum);
  if (!isnum) luaL_error(L, FNAME ": %s must be an integer", key);
  lua_pop(L, 1);
  return v;
}

/* A name of names (by the core's lookup) or the default. */
static int opt_name(lua_State *L, int opts, const char *key,
                    int (*lookup)(const char *), int def, const char *list)
{
  int v;
  if (lua_getfield(L, opts, key) == LUA_TNIL) {
    lua_pop(L, 1);
    return def;
  }
  v = lua_type(L, -1) == LUA_TSTRING ? lookup(lua_tostring(L, -1)) : -1;
  if (v < 0) {
    size_t len;
    const char *name = luaL_tolstring(L, -1, &len);
    luaL_error(L, FNAME ": %s %s unknown (%s)", key,
               rsxlua_shown(L, name, len), list);
  }
  lua_pop(L, 1);
  return v;
}

/* t[key] as 3 numbers into v; 0 if absent. */
static int opt_vec3(lua_State *L, int t, const char *key, double v[3])
{
  int i;
  if (lua_getfield(L, t, key) == LUA_TNIL) {
    lua_pop(L, 1);
    return 0;
  }
  if (!lua_istable(L, -1))
    luaL_error(L, FNAME ": camera.%s must be a list of 3 numbers", key);
  for (i = 0; i < 3; i++) {
    int isnum;
    lua_geti(L, -1, i + 1);
    v[i] = lua_tonumberx(L, -1, &isnum);
    if (!isnum)
      luaL_error(L, FNAME ": camera.%s must be a list of 3 numbers", key);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return 1;
}

static double opt_num(lua_State *L, int t, const char *key, double def)
{
  double v;
  int isnum;
  if (lua_getfield(L, t, key) == LUA_TNIL) {
    lua_pop(L, 1);
    return def;
  }
  v = lua_tonumberx(L, -1, &isnum);
  if (!isnum) luaL_error(L, FNAME ": camera.%s must be a number", key);
  lua_pop(L, 1);
  return v;
}

static void read_options(lua_State *L, int opts, rsx_render_options *o,
                         lua_Integer *w, lua_Integer *h)
{
  lua_Integer uv, stored;
  int has_stored, has_uv;
  rsx_render_defaults(o);
  *w = opt_int(L, opts, "width", 1280);
  *h = opt_int(L, opts, "height", 720);
  o->shade = opt_name(L, opts, "shade", rsx_shade_from_name, o->shade,
                      "flat, lit, normals, uv, selectors, colour");
  o->filter = opt_name(L, opts, "filter", rsx_filter_from_name, o->filter,
                       "nearest, bilinear, trilinear");
  uv = opt_int(L, opts, "uv", 0);
  if (uv < 0 || uv > 3)
    luaL_error(L, FNAME ": uv %I out of range 0..3", (LUAI_UACINT)uv);
  stored = opt_int(L, opts, "stored", -1);
  has_stored = lua_getfield(L, opts, "stored") != LUA_TNIL;
  has_uv = lua_getfield(L, opts, "uv") != LUA_TNIL;
  lua_pop(L, 2);
  if (has_stored && (stored < 0 || stored > 3))
    luaL_error(L, FNAME ": stored %I out of range 0..3",
               (LUAI_UACINT)stored);
  /* as the command line: stored ignores the selectors uv goes through */
  if (has_stored && has_uv)
    luaL_error(L, FNAME ": uv and stored exclude each other");
  o->uv = (int)uv;
  o->stored = (int)stored;
  lua_getfield(L, opts, "cull");
  o->cull = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (lua_getfield(L, opts, "background") != LUA_TNIL)
    rsxlua_checkcolour(L, -1, FNAME, "background", o->background);
  lua_pop(L, 1);
}

/* The camera table at opts.camera, or a framed view of the draws'
** bounds (view "iso" when there is no camera table). */
static void read_camera(lua_State *L, int opts, rstate *st,
                        rsx_render_options *o, double aspect)
{
  rsx_camera *c = &o->camera;
  rsx_error err;
  int has_eye, has_at, view = RSX_VIEW_ISO, cam, has_ortho, has_near;
  double up[3] = {0, 1, 0}, near;
  float mn[3], mx[3];

  memset(c, 0, sizeof *c);
  c->up[1] = 1;
  c->fov = RSX_DEFAULT_FOV;
  c->near = RSX_DEFAULT_NEAR;
  if (lua_getfield(L, opts, "camera") == LUA_TNIL) {
    lua_pop(L, 1);
    lua_newtable(L);
  } else if (!lua_istable(L, -1)) {
    luaL_error(L, FNAME ": camera must be a table");
  }
  cam = lua_gettop(L);
  has_eye = opt_vec3(L, cam, "eye", c->eye);
  has_at = opt_vec3(L, cam, "at", c->at);
  if (opt_vec3(L, cam, "up", c->up)) memcpy(up, c->up, sizeof up);
  c->fov = opt_num(L, cam, "fov", c->fov);
  /* 0 is the core's "perspective": a height given must be positive, or
  ** ortho = 0 would quietly turn into a perspective (or framed) view */
  has_ortho = lua_getfield(L, cam, "ortho") != LUA_TNIL;
  has_near = lua_getfield(L, cam, "near") != LUA_TNIL;
  lua_pop(L, 2);
  c->ortho = opt_num(L, cam, "ortho", 0);
  if (has_ortho && !(c->ortho > 0 && isfinite(c->ortho))) {
    char num[32];
    snprintf(num, sizeof num, "%g", c->ortho); /* as the core says it */
    luaL_error(L, FNAME ": camera: ortho height %s is not positive", num);
  }
  c->near = near = opt_num(L, cam, "near", c->near);
  view = opt_name(L, cam, "view", rsx_view_from_name, -1,
                  "iso, top, front, side");
  if (has_eye != has_at)
    luaL_error(L, FNAME ": camera needs both eye and at (or neither)");
  if (has_eye && view >= 0)
    luaL_error(L, FNAME ": camera.view and camera.eye exclude each other");
  if (!has_eye) {
    double ortho = c->ortho;
    rsx_draw_bounds(st->draws, st->n, mn, mx);
    if (rsx_camera_frame(c, view < 0 ? RSX_VIEW_ISO : view, up, mn, mx,
                         aspect, &err) != 0 ||
        rsx_camera_fit(c, st->draws, st->n, aspect, &err) != 0)
      luaL_error(L, FNAME ": %s", err.text);
    if (ortho > 0) c->ortho = ortho; /* a height given: keep it */
    if (has_near) c->near = near;    /* and a near distance (checked) */
  }
  if (rsx_camera_check(c, &err) != 0) luaL_error(L, FNAME ": %s", err.text);
  lua_pop(L, 1);
}

/* -------------------------------------------------------------- draws */

/* The draws point into bundles until the call ends, and the texture
** callback, an option's __index or a finalizer can close them: each
** bundle met is pinned in the set at pins (rsxlua_pinset), with the
** bundle of its material numbers. */
static void add_mesh_ud(lua_State *L, rstate *st, int mesh, int keep,
                        int pins)
{
  rl_mesh *me = rsxlua_check(L, mesh, RSXLUA_MESH, FNAME);
  uint32_t j;
  rsxlua_pinset_add(L, pins, mesh, me->bundle);
  rsxlua_pinset_add(L, pins, mesh, me->materials);
  if (me->m->submesh_count == 0) {
    add_draw(L, st, me->m, NULL);
    return;
  }
  for (j = 0; j < me->m->submesh_count; j++) {
    rsxlua_push_submesh(L, mesh, me, j);
    lua_rawseti(L, keep, (lua_Integer)st->n + 1);
    add_draw(L, st, me->m, &me->m->submeshes[j]);
  }
}

/* One item of opts.meshes: a bundle, a mesh or a submesh. keep is a list
** holding, by draw number, the submesh userdata of each draw. */
static void add_item(lua_State *L, rstate *st, int item, int keep,
                     int pins)
{
  rl_bundle *b;
  item = lua_absindex(L, item);
  if ((b = luaL_testudata(L, item, RSXLUA_BUNDLE)) != NULL) {
    const rsx_bundle *bytes;
    uint32_t i;
    rsxlua_checkopen(L, b, FNAME);
    rsxlua_pinset_add(L, pins, item, b);
    bytes = b->b; /* kept by the pin, even if a finalizer closes b */
    for (i = 0; i < rsx_bundle_mesh_count(bytes); i++) {
      rsxlua_push_mesh(L, item, b, rsx_bundle_mesh(bytes, i));
      add_mesh_ud(L, st, lua_gettop(L), keep, pins);
      lua_pop(L, 1);
    }
  } else if (luaL_testudata(L, item, RSXLUA_MESH) != NULL) {
    add_mesh_ud(L, st, item, keep, pins);
  } else if (luaL_testudata(L, item, RSXLUA_SUBMESH) != NULL) {
    rl_submesh *sm = rsxlua_check(L, item, RSXLUA_SUBMESH, FNAME);
    rsxlua_pinset_add(L, pins, item, sm->bundle);
    rsxlua_pinset_add(L, pins, item, sm->materials);
    lua_pushvalue(L, item);
    lua_rawseti(L, keep, (lua_Integer)st->n + 1);
    add_draw(L, st, sm->m, sm->s);
  } else {
    luaL_error(L, FNAME ": meshes must be a bundle, a mesh, a submesh or "
               "a list of them, got %s", luaL_typename(L, item));
  }
}

static void read_meshes(lua_State *L, int opts, rstate *st, int keep,
                        int pins)
{
  lua_Integer i, n;
  if (lua_getfield(L, opts, "meshes") == LUA_TNIL)
    luaL_error(L, FNAME ": opts.meshes is missing");
  if (lua_type(L, -1) == LUA_TTABLE && !lua_getmetatable(L, -1)) {
    n = luaL_len(L, -1);
    for (i = 1; i <= n; i++) {
      lua_geti(L, -1, i);
      add_item(L, st, -1, keep, pins);
      lua_pop(L, 1);
    }
  } else {
    add_item(L, st, -1, keep, pins);
  }
  lua_pop(L, 1);
}

/* ----------------------------------------------------------- textures */

/* Note a texture problem once, in the list at missing. */
static void note_missing(lua_State *L, int missing, const char *msg)
{
  lua_pushstring(L, msg);
  lua_rawseti(L, missing, (lua_Integer)luaL_len(L, missing) + 1);
}

static rtex *new_rtex(lua_State *L, rstate *st)
{
  rtex *e;
  st->tex = grow(L, st->tex, &st->captex, st->ntex, sizeof *st->tex);
  e = &st->tex[st->ntex++];
  memset(e, 0, sizeof *e);
  return e;
}

/* The texture of img, for the draws of this call. */
static rsx_texture *texture_of(lua_State *L, const rsx_image *img)
{
  rsx_error err;
  rsx_texture *t = rsx_texture_new(img, &err);
  if (t == NULL) luaL_error(L, FNAME ": %s", err.text);
  return t;
}

/* The default loader: the material's base-colour file, relative to the
** folder of the bundle holding the material, read once per call, or once
** for all the calls given the same opts.textures table (cache, a stack
** index, or 0): path -> the image, or the message of its failure, which
** is then not listed again. */
static const rsx_texture *file_texture(lua_State *L, rstate *st,
                                       const rl_bundle *materials,
                                       const rsx_submesh *s, int missing,
                                       int cache)
{
  const rsx_material *mat;
  const char *tex, *bpath, *slash;
  rsx_error err;
  rsx_image *img;
  rtex *e;
  size_t i, dlen, n;
  char *path;

  if (materials == NULL || materials->b == NULL || s->material == RSX_NONE)
    return NULL;
  mat = rsx_bundle_material(materials->b, s->material);
  tex = mat ? rsx_material_base_colour(mat) : NULL;
  if (tex == NULL || tex[0] == '\0') return NULL;
  bpath = rsx_bundle_path(materials->b);
  slash = strrchr(bpath, '/');
  dlen = slash ? (size_t)(slash - bpath) + 1 : 0; /* the folder, its '/' */
  n = dlen + strlen(tex) + 1;
  path = malloc(n);
  if (path == NULL) luaL_error(L, FNAME ": out of memory");
  snprintf(path, n, "%.*s%s", (int)dlen, bpath, tex);
  for (i = 0; i < st->ntex; i++)
    if (st->tex[i].path && strcmp(st->tex[i].path, path) == 0) {
      free(path);
      return st->tex[i].t;
    }
  e = new_rtex(L, st);
  e->path = path;
  if (cache) {
    int type = lua_getfield(L, cache, path);
    if (type == LUA_TSTRING) { /* failed and reported before */
      lua_pop(L, 1);
      return NULL;
    }
    if (type != LUA_TNIL) {
      e->t = texture_of(L, rsxlua_checkimage(L, -1, FNAME
                                             ": opts.textures entry"));
      lua_pop(L, 1);
      return e->t;
    }
    lua_pop(L, 1);
  }
  img = rsx_png_read(path, &err);
  if (img == NULL) {
    note_missing(L, missing, err.text);
    if (cache) {
      lua_pushstring(L, err.text);
      lua_setfield(L, cache, path);
    }
    return NULL;
  }
  if (cache) { /* the userdata owns img from here */
    rsxlua_push_image(L, img);
    e->t = texture_of(L, img);
    lua_setfield(L, cache, path);
  } else {
    e->t = rsx_texture_new(img, &err);
    rsx_image_free(img);
    if (e->t == NULL) luaL_error(L, FNAME ": %s", err.text);
  }
  return e->t;
}

/* A texture function's answer for the draw's submesh (whose userdata is
** keep[d + 1]): its image, made a texture once per image. */
static const rsx_texture *func_texture(lua_State *L, rstate *st, int func,
                                       int keep, size_t d)
{
  const rsx_image *img;
  rsx_error err;
  rtex *e;
  size_t i;
  if (lua_rawgeti(L, keep, (lua_Integer)d + 1) == LUA_TNIL) {
    lua_pop(L, 1);
    return NULL;
  }
  lua_getfield(L, -1, "material");
  lua_remove(L, -2);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return NULL;
  }
  lua_pushvalue(L, func);
  lua_insert(L, -2);
  lua_call(L, 1, 1);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return NULL;
  }
  img = rsxlua_checkimage(L, -1, FNAME ": the texture function's result");
  /* anchored for the call: the image's address is its key here */
  lua_pushboolean(L, 1);
  lua_rawset(L, keep);
  for (i = 0; i < st->ntex; i++)
    if (st->tex[i].image == img) return st->tex[i].t;
  e = new_rtex(L, st);
  e->image = img;
  e->t = rsx_texture_new(img, &err);
  if (e->t == NULL) luaL_error(L, FNAME ": %s", err.text);
  return e->t;
}

/* One image for every draw (opts.texture is an image). */
static void image_texture(lua_State *L, rstate *st, int idx)
{
  const rsx_image *img = rsxlua_checkimage(L, idx, FNAME ": opts.texture");
  rsx_error err;
  rtex *e = new_rtex(L, st);
  size_t d;
  e->image = img;
  e->t = rsx_texture_new(img, &err);
  if (e->t == NULL) luaL_error(L, FNAME ": %s", err.text);
  for (d = 0; d < st->n; d++) st->draws[d].texture = e->t;
}

static void load_textures(lua_State *L, int opts, rstate *st, int keep,
                          int missing)
{
  int func = 0, cache = 0;
  size_t d;
  if (lua_getfield(L, opts, "textures") != LUA_TNIL) {
    if (!lua_istable(L, -1))
      luaL_error(L, FNAME ": opts.textures must be a table, got %s",
                 luaL_typename(L, -1));
    cache = lua_gettop(L);
  }
  if (lua_getfield(L, opts, "texture") != LUA_TNIL) {
    if (luaL_testudata(L, -1, RSXLUA_IMAGE)) {
      image_texture(L, st, lua_gettop(L));
      lua_pop(L, cache ? 2 : 1);
      return;
    }
    if (!lua_isfunction(L, -1))
      luaL_error(L, FNAME ": opts.texture must be a function or an image, "
                 "got %s", luaL_typename(L, -1));
    func = lua_gettop(L);
  }
  for (d = 0; d < st->n; d++) {
    const rsx_submesh *s = st->draws[d].submesh;
    if (s == NULL) continue;
    if (func) {
      st->draws[d].texture = func_texture(L, st, func, keep, d);
    } else {
      rl_submesh *sm;
      lua_rawgeti(L, keep, (lua_Integer)d + 1);
      sm = lua_touserdata(L, -1);
      lua_pop(L, 1);
      if (sm != NULL)
        st->draws[d].texture =
          file_texture(L, st, sm->materials, s, missing, cache);
    }
  }
  lua_pop(L, cache ? 2 : 1);
}

/* ------------------------------------------------------------- legend */

/* A combination as the legend spells it: "02ffffff". */
static void legend_key(uint32_t w, char hex[9])
{
  snprintf(hex, 9, "%08lx", (unsigned long)w);
}

static int legend_bad(lua_State *L, lua_Integer n)
{
  return luaL_error(L, FNAME ": opts.legend must map combinations "
                    "(\"02ffffff\") to the numbers 1..%I, each once",
                    (LUAI_UACINT)n);
}

/* opts.legend (a stack index, or 0), a table kept across calls:
** combination -> its number, 1..n each once; into st->legend by number. */
static void read_legend(lua_State *L, int legend, rstate *st,
                        rsx_render_options *o)
{
  lua_Integer n = 0, k;
  if (legend == 0) return;
  lua_pushnil(L);
  while (lua_next(L, legend)) {
    n++;
    lua_pop(L, 1);
  }
  if (n == 0) return;
  if (n > 0x7FFFFFFF / 2 || (st->legend = calloc((size_t)n,
                                                 sizeof *st->legend)) == NULL)
    luaL_error(L, FNAME ": out of memory");
  o->legend = st->legend;
  o->legend_count = (int)n;
  lua_pushnil(L);
  while (lua_next(L, legend)) {
    const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                     : NULL;
    char *end, hex[9];
    unsigned long w = key ? strtoul(key, &end, 16) : 0;
    int isnum;
    k = lua_tointegerx(L, -1, &isnum);
    if (key == NULL || *end != '\0' || strlen(key) != 8 ||
        !isnum || k < 1 || k > n || (legend_key((uint32_t)w, hex),
                                     strcmp(hex, key) != 0))
      legend_bad(L, n);
    st->legend[k - 1] = (uint32_t)w;
    lua_pop(L, 1);
  }
  /* n numbers in 1..n: a number twice leaves one out */
  for (k = 1; k <= n; k++) {
    char hex[9];
    legend_key(st->legend[k - 1], hex);
    if (lua_getfield(L, legend, hex) != LUA_TNUMBER ||
        lua_tointeger(L, -1) != k)
      legend_bad(L, n);
    lua_pop(L, 1);
  }
}

/* ------------------------------------------------------------- result */

static void push_vec3(lua_State *L, const double v[3])
{
  int i;
  lua_createtable(L, 3, 0);
  for (i = 0; i < 3; i++) {
    lua_pushnumber(L, v[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

static void push_info(lua_State *L, const rsx_render_options *o,
                      const rsx_render_stats *s, int info, int legend)
{
  int i, k;
  char hex[9];
  lua_pushinteger(L, (lua_Integer)s->triangles);
  lua_setfield(L, info, "triangles");
  lua_pushinteger(L, (lua_Integer)s->fragments);
  lua_setfield(L, info, "pixels");
  lua_pushinteger(L, (lua_Integer)s->skipped);
  lua_setfield(L, info, "skipped");
  if (s->skipped) {
    lua_pushstring(L, s->first_skip);
    lua_setfield(L, info, "skip_message");
  }
  lua_createtable(L, 0, 6);
  push_vec3(L, o->camera.eye);
  lua_setfield(L, -2, "eye");
  push_vec3(L, o->camera.at);
  lua_setfield(L, -2, "at");
  push_vec3(L, o->camera.up);
  lua_setfield(L, -2, "up");
  lua_pushnumber(L, o->camera.ortho > 0 ? o->camera.ortho : o->camera.fov);
  lua_setfield(L, -2, o->camera.ortho > 0 ? "ortho" : "fov");
  lua_pushnumber(L, o->camera.near);
  lua_setfield(L, -2, "near");
  lua_setfield(L, info, "camera");
  lua_createtable(L, s->legend_count, 0);
  for (i = 0; i < s->legend_count; i++) {
    lua_createtable(L, 0, 3);
    legend_key(s->legend[i], hex);
    lua_pushstring(L, hex);
    lua_setfield(L, -2, "selectors");
    lua_pushinteger(L, s->legend_index[i] + 1);
    lua_setfield(L, -2, "number");
    if (legend && s->legend_index[i] >= o->legend_count) { /* new */
      lua_pushinteger(L, s->legend_index[i] + 1);
      lua_setfield(L, legend, hex);
    }
    lua_createtable(L, 3, 0);
    for (k = 0; k < 3; k++) {
      lua_pushinteger(L, s->legend_rgb[i][k]);
      lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "colour");
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, info, "legend");
}

/* rsxmesh.render(opts) -> image, info */
static int f_render(lua_State *L)
{
  rsx_render_options o;
  rsx_render_stats stats;
  rsx_error err;
  rsx_image *img;
  rstate *st;
  lua_Integer w, h;
  int info, missing, keep, pins, legend = 0;

  rsxlua_checktype(L, 1, LUA_TTABLE, FNAME);
  lua_settop(L, 1);
  st = lua_newuserdatauv(L, sizeof *st, 0); /* 2 */
  memset(st, 0, sizeof *st);
  luaL_setmetatable(L, RENDER_STATE);
  lua_newtable(L);                          /* 3: info */
  info = 3;
  lua_newtable(L);                          /* 4: info.missing */
  missing = 4;
  lua_pushvalue(L, missing);
  lua_setfield(L, info, "missing");
  lua_newtable(L);                          /* 5: submeshes by draw */
  keep = 5;
  pins = rsxlua_pinset(L);                  /* 6: the bundles drawn */

  read_options(L, 1, &o, &w, &h);
  if (lua_getfield(L, 1, "legend") != LUA_TNIL) {   /* 7 */
    if (!lua_istable(L, -1))
      luaL_error(L, FNAME ": opts.legend must be a table, got %s",
                 luaL_typename(L, -1));
    legend = lua_gettop(L);
  }
  read_legend(L, legend, st, &o);
  rsxlua_check_size(L, w, h, FNAME);
  read_meshes(L, 1, st, keep, pins);
  read_camera(L, 1, st, &o, (double)w / (double)h);
  if (o.shade == RSX_SHADE_FLAT || o.shade == RSX_SHADE_LIT)
    load_textures(L, 1, st, keep, missing);

  img = rsx_image_new((long)w, (long)h, &err);
  if (img == NULL) return luaL_error(L, FNAME ": %s", err.text);
  rsxlua_push_image(L, img);
  if (rsx_render(img, &o, st->draws, st->n, &stats, &err) != 0)
    return luaL_error(L, FNAME ": %s", err.text);
  push_info(L, &o, &stats, info, legend);
  lua_pushvalue(L, info);
  return 2;
}

static const luaL_Reg r_funcs[] = {
  {"render", f_render},
  {NULL, NULL}
};

void rsxlua_open_render(lua_State *L)
{
  luaL_newmetatable(L, RENDER_STATE);
  lua_pushcfunction(L, st_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  luaL_setfuncs(L, r_funcs, 0);
}
