/*
** scan.c - rsxmesh.scan: the core's scanner (src/scan.c) from Lua, its
** findings as plain tables (offsets 0-based as in hex dumps, the findings
** and meshes numbered from 1).
*/
#include "rsxlua.h"
#include "../scan.h"

#include <stdio.h>
#include <string.h>

#define FNAME "rsxmesh.scan"

/* The scan's arrays while their tables are made: a userdata owns them,
** so that a memory error among the tables leaves them to the collector
** (lua-cjson's rule: no C memory across a raise). */
#define SCAN_RESULT "rsxmesh.scan result"

/* __gc and __close: idempotent (rsx_scan_free empties it) */
static int result_free(lua_State *L)
{
  rsx_scan_free((rsx_scan *)luaL_checkudata(L, 1, SCAN_RESULT));
  return 0;
}

static int result_tostring(lua_State *L)
{
  const rsx_scan *r = (const rsx_scan *)luaL_checkudata(L, 1, SCAN_RESULT);
  lua_pushfstring(L, "scan result (%I findings, %I meshes)",
                  (lua_Integer)r->found_count, (lua_Integer)r->mesh_count);
  return 1;
}

static const luaL_Reg result_meta[] = {
  {"__gc", result_free},
  {"__close", result_free},
  {"__tostring", result_tostring},
  {NULL, NULL}
};

static void set_int(lua_State *L, const char *key, lua_Integer v)
{
  lua_pushinteger(L, v);
  lua_setfield(L, -2, key);
}

static void set_num(lua_State *L, const char *key, lua_Number v)
{
  lua_pushnumber(L, v);
  lua_setfield(L, -2, key);
}

static void push_vec3(lua_State *L, const float v[3])
{
  int i;
  lua_createtable(L, 3, 0);
  for (i = 0; i < 3; i++) {
    lua_pushnumber(L, (lua_Number)v[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

static void push_found(lua_State *L, const rsx_scan_found *f)
{
  lua_createtable(L, 0, 12);
  lua_pushstring(L, rsx_scan_kind_name(f->kind));
  lua_setfield(L, -2, "kind");
  set_int(L, "offset", (lua_Integer)f->offset);
  set_int(L, "bytes", (lua_Integer)f->bytes);
  switch (f->kind) {
  case RSX_SCAN_MMP:
  case RSX_SCAN_MGP:
    set_int(L, "vertices", f->vertices);
    set_int(L, "stride", f->stride);
    if (f->kind == RSX_SCAN_MGP) {
      set_int(L, "mask", f->mask);
      set_num(L, "unit_share", (double)f->unit / f->vertices);
    } else {
      set_num(L, "unit_share", (double)f->unit / f->vertices);
      set_int(L, "zero_normals", f->zero);
      lua_createtable(L, 0, 2);
      push_vec3(L, f->lo);
      lua_setfield(L, -2, "min");
      push_vec3(L, f->hi);
      lua_setfield(L, -2, "max");
      lua_setfield(L, -2, "bounds");
    }
    break;
  case RSX_SCAN_INDICES:
    set_int(L, "count", f->count);
    set_int(L, "size", f->size);
    lua_pushstring(L, f->primitive == RSX_STRIP ? "strip" : "triangles");
    lua_setfield(L, -2, "primitive");
    set_int(L, "restarts", f->restarts);
    set_int(L, "vertices", f->vertices);
    set_num(L, "locality", f->locality);
    break;
  default:
    set_int(L, "mask", f->mask);
    break;
  }
  if (f->in_mesh >= 0) set_int(L, "mesh", f->in_mesh + 1);
}

static void push_mesh(lua_State *L, const rsx_scan_mesh *m)
{
  lua_createtable(L, 0, 8);
  if (m->meta >= 0) set_int(L, "meta", m->meta + 1);
  if (m->mmp >= 0) set_int(L, "mmp", m->mmp + 1);
  if (m->mgp >= 0) set_int(L, "mgp", m->mgp + 1);
  if (m->indices >= 0) set_int(L, "indices", m->indices + 1);
  set_int(L, "mask", m->mask);
  set_int(L, "vertices", m->vertices);
  set_num(L, "confidence", m->confidence);
  lua_pushstring(L, m->why);
  lua_setfield(L, -2, "why");
}

/* ------------------------------------------------ the text for people */

/* The findings and meshes as `rsxmesh scan` prints them, a line each
** (opts.text): made here from the scan's arrays, as the script made them
** from the tables, because 64 MB of containers give 20 thousand lines and
** their string.format calls were a sixth of the scan's time. Offsets and
** masks in hex, the bounds as rsxmesh.fmt writes them. */
static char *put_hex8(char *p, uint64_t v)
{
  static const char digits[] = "0123456789abcdef";
  char tmp[16];
  int n = 0;
  do {
    tmp[n++] = digits[v & 15];
    v >>= 4;
  } while (v != 0);
  *p++ = '0';
  *p++ = 'x';
  while (n < 8) tmp[n++] = '0';
  while (n > 0) *p++ = tmp[--n];
  return p;
}

static char *put_uint(char *p, uint64_t v)
{
  char tmp[20];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) *p++ = tmp[--n];
  return p;
}

static char *put_str(char *p, const char *s)
{
  size_t n = strlen(s);
  memcpy(p, s, n);
  return p + n;
}

static char *put_float(char *p, float x)
{
  return p + rsx_format_float(x, p);
}

/* "%.1f" or "%.2f" as string.format writes a number (a share or a
** confidence: a few characters; cut at 63) */
static char *put_fixed(char *p, int decimals, double x)
{
  int n = snprintf(p, 64, "%.*f", decimals, x);
  return p + (n < 0 ? 0 : n > 63 ? 63 : n);
}

/* room for any finding's line; a mesh's adds its why */
#define TEXT_LINE 512

static char *found_line(char *p, const rsx_scan_found *f)
{
  int k;
  switch (f->kind) {
  case RSX_SCAN_MMP:
    p = put_hex8(put_str(p, "  mmp      "), f->offset);
    p = put_uint(put_str(p, "  "), f->vertices);
    p = put_fixed(put_str(p, " vertices, stride 16, unit normals "), 1,
                  100 * ((double)f->unit / f->vertices));
    p = put_str(p, " %, bounds (");
    for (k = 0; k < 3; k++)
      p = put_float(k > 0 ? put_str(p, ", ") : p, f->lo[k]);
    p = put_str(p, ") .. (");
    for (k = 0; k < 3; k++)
      p = put_float(k > 0 ? put_str(p, ", ") : p, f->hi[k]);
    p = put_str(p, ")");
    break;
  case RSX_SCAN_MGP:
    p = put_hex8(put_str(p, "  mgp      "), f->offset);
    p = put_uint(put_str(p, "  "), f->vertices);
    p = put_uint(put_str(p, " vertices, stride "), f->stride);
    p = put_hex8(put_str(p, ", mask "), f->mask);
    break;
  case RSX_SCAN_INDICES:
    p = put_hex8(put_str(p, "  indices  "), f->offset);
    p = put_uint(put_str(p, "  "), f->count);
    p = put_uint(put_str(p, " values, "), f->size);
    p = put_str(p, f->primitive == RSX_STRIP ? "-byte strip" : "-byte list");
    if (f->restarts > 0)
      p = put_str(put_uint(put_str(p, " ("), f->restarts), " restarts)");
    p = put_str(put_uint(put_str(p, ", fits "), f->vertices), " vertices");
    break;
  default:
    p = put_hex8(put_str(p, "  meta     "), f->offset);
    p = put_hex8(put_str(p, "  mask "), f->mask);
    break;
  }
  if (f->in_mesh >= 0)
    p = put_str(put_uint(put_str(p, "  [mesh "), (uint64_t)f->in_mesh + 1),
                "]");
  *p++ = '\n';
  return p;
}

static char *part_offset(char *p, const rsx_scan *r, long at)
{
  return at >= 0 ? put_hex8(p, r->found[at].offset) : put_str(p, "-");
}

static char *mesh_line(char *p, const rsx_scan *r, size_t k)
{
  const rsx_scan_mesh *m = &r->meshes[k];
  p = put_uint(put_str(p, "  mesh "), (uint64_t)k + 1);
  p = put_uint(put_str(p, ": "), m->vertices);
  p = put_hex8(put_str(p, " vertices, mask "), m->mask);
  p = put_fixed(put_str(p, ", confidence "), 2, m->confidence);
  p = part_offset(put_str(p, ": record "), r, m->meta);
  p = part_offset(put_str(p, ", mmp "), r, m->mmp);
  p = part_offset(put_str(p, ", mgp "), r, m->mgp);
  p = part_offset(put_str(p, ", indices "), r, m->indices);
  p = put_str(put_str(put_str(p, " ("), m->why), ")\n");
  return p;
}

static void push_text(lua_State *L, const rsx_scan *r)
{
  luaL_Buffer b;
  size_t i;
  luaL_buffinit(L, &b);
  for (i = 0; i < r->found_count; i++) {
    char *p = luaL_prepbuffsize(&b, TEXT_LINE);
    luaL_addsize(&b, (size_t)(found_line(p, &r->found[i]) - p));
  }
  for (i = 0; i < r->mesh_count; i++) {
    char *p = luaL_prepbuffsize(&b, TEXT_LINE + sizeof r->meshes[i].why);
    luaL_addsize(&b, (size_t)(mesh_line(p, r, i) - p));
  }
  luaL_pushresult(&b);
}

/* Control-C: the host (src/main.c), as lua.c does, answers SIGINT by
** setting a hook that raises "interrupted!" at the next Lua event, and
** none comes while the scan runs in C. The scan asks between chunks
** whether the hook of the calling thread or of the main one (the host's)
** has changed since it began. */
typedef struct scan_watch {
  lua_State *L, *main;
  lua_Hook hook, main_hook;
} scan_watch;

static int scan_interrupted(void *ud)
{
  const scan_watch *w = (const scan_watch *)ud;
  return lua_gethook(w->L) != w->hook ||
         lua_gethook(w->main) != w->main_hook;
}

static void scan_watch_init(lua_State *L, scan_watch *w)
{
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
  w->main = lua_tothread(L, -1);
  lua_pop(L, 1);
  w->L = L;
  w->hook = lua_gethook(L);
  w->main_hook = lua_gethook(w->main);
}

static const char *const scan_keys[] = {"min_vertices", "bytes", "chunk",
                                        "baseline_vectors", "text", "tables",
                                        "uv_tries", NULL};

/* rsxmesh.scan(path [, opts]) or rsxmesh.scan(bytes, {bytes = true}) */
static int l_scan(lua_State *L)
{
  size_t len;
  const char *s = rsxlua_checklstring(L, 1, &len, FNAME);
  rsx_scan_options o;
  scan_watch watch;
  rsx_scan *r;
  rsx_error err;
  int from_bytes = 0, text = 0, tables = 1, rc;
  size_t i;

  rsx_scan_options_init(&o);
  if (!lua_isnoneornil(L, 2)) {
    rsxlua_checktype(L, 2, LUA_TTABLE, FNAME);
    rsxlua_check_keys(L, 2, scan_keys, NULL, NULL, FNAME, "option");
    if (lua_getfield(L, 2, "min_vertices") != LUA_TNIL) {
      lua_Integer n = rsxlua_checkinteger(L, -1, FNAME);
      if (n < 1 || n > 0x7FFFFFFF)
        luaL_error(L, FNAME ": min_vertices %I out of range 1..2147483647",
                   n);
      o.min_vertices = (uint32_t)n;
    }
    lua_pop(L, 1);
    if (lua_getfield(L, 2, "chunk") != LUA_TNIL) {
      lua_Integer n = rsxlua_checkinteger(L, -1, FNAME);
      if (n < 4096 || n > (1 << 30))
        luaL_error(L, FNAME ": chunk %I out of range 4096..1073741824", n);
      o.chunk = (size_t)n;
    }
    lua_pop(L, 1);
    if (lua_getfield(L, 2, "uv_tries") != LUA_TNIL) {
      lua_Integer n = rsxlua_checkinteger(L, -1, FNAME);
      if (n < 1)
        luaL_error(L, FNAME ": uv_tries %I out of range 1..%I", n,
                   (lua_Integer)LUA_MAXINTEGER);
      o.uv_tries = (uint64_t)n;
    }
    lua_pop(L, 1);
    lua_getfield(L, 2, "bytes");
    from_bytes = lua_toboolean(L, -1);
    lua_pop(L, 1);
    lua_getfield(L, 2, "baseline_vectors");
    o.baseline_vectors = lua_toboolean(L, -1);
    lua_pop(L, 1);
    lua_getfield(L, 2, "text");
    text = lua_toboolean(L, -1);
    lua_pop(L, 1);
    /* false: the counts alone, for a listing that needs only the text */
    if (lua_getfield(L, 2, "tables") != LUA_TNIL)
      tables = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  if (!from_bytes && strlen(s) != len)
    return rsxlua_fail(L, FNAME ": the path holds a NUL byte");
  /* empty before anything is in it, as liolib's newprefile */
  r = (rsx_scan *)lua_newuserdatauv(L, sizeof *r, 0);
  memset(r, 0, sizeof *r);
  luaL_setmetatable(L, SCAN_RESULT);
  scan_watch_init(L, &watch);
  o.stop = scan_interrupted;
  o.stop_ud = &watch;
  if (from_bytes)
    rc = rsx_scan_memory(s, len, "(string)", &o, r, &err);
  else
    rc = rsx_scan_file(s, &o, r, &err);
  if (rc == RSX_SCAN_STOPPED) {
    /* the host's hook raises the interrupt as this returns; the message
    ** is one rsxmesh.interrupt.is knows, should anything else stop it */
    lua_pushnil(L);
    lua_pushfstring(L, "%s: interrupted!", err.text);
    return 2;
  }
  if (rc != 0) return rsxlua_fail(L, err.text);

  lua_createtable(L, 0, 5);
  if (!from_bytes) {
    lua_pushvalue(L, 1);
    lua_setfield(L, -2, "path");
  }
  set_int(L, "size", (lua_Integer)r->size);
  set_int(L, "found_count", (lua_Integer)r->found_count);
  set_int(L, "mesh_count", (lua_Integer)r->mesh_count);
  if (tables) {
    lua_createtable(L, (int)(r->found_count < 1000000 ? r->found_count : 0),
                    0);
    for (i = 0; i < r->found_count; i++) {
      push_found(L, &r->found[i]);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "found");
    lua_createtable(L, (int)(r->mesh_count < 1000000 ? r->mesh_count : 0),
                    0);
    for (i = 0; i < r->mesh_count; i++) {
      push_mesh(L, &r->meshes[i]);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "meshes");
  }
  set_int(L, "dropped", (lua_Integer)r->dropped);
  set_int(L, "buffer_bytes", (lua_Integer)r->buffer_bytes);
  if (text) {
    push_text(L, r);
    lua_setfield(L, -2, "text");
  }
  rsx_scan_free(r);
  return 1;
}

static const luaL_Reg scan_funcs[] = {
  {"scan", l_scan},
  {NULL, NULL}
};

void rsxlua_open_scan(lua_State *L)
{
  luaL_newmetatable(L, SCAN_RESULT);
  luaL_setfuncs(L, result_meta, 0);
  lua_pop(L, 1);
  luaL_setfuncs(L, scan_funcs, 0);
}
