/*
** format.c - the format userdata: the layout a mask implies, and
** format:encode, which writes a whole stream through the core's encoders.
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rsxlua.h"

static rl_format *fo_check(lua_State *L, int idx, const char *fname)
{
  return rsxlua_checkudata(L, idx, RSXLUA_FORMAT, fname);
}

void rsxlua_push_format(lua_State *L, uint32_t mask)
{
  rl_format *fo = lua_newuserdatauv(L, sizeof *fo, 0);
  rsx_format_init(&fo->f, mask);
  luaL_setmetatable(L, RSXLUA_FORMAT);
}

/* rsxmesh.format(mask) */
static int fo_new(lua_State *L)
{
  lua_Integer mask = rsxlua_checkinteger(L, 1, "rsxmesh.format");
  rsxlua_argcheck(L, mask >= 0 && mask <= 0xFFFFFFFF, 1, "rsxmesh.format",
                  "mask must be a 32-bit value");
  rsxlua_push_format(L, (uint32_t)mask);
  return 1;
}

/* ------------------------------------------------------------- methods */

static int f_has(lua_State *L)
{
  rl_format *fo = fo_check(L, 1, "format:has");
  int kind = rsxlua_checkkind(L, 2, "format:has");
  lua_pushboolean(L, fo->f.attr[kind] != NULL);
  return 1;
}

static int f_attributes(lua_State *L)
{
  rl_format *fo = fo_check(L, 1, "format:attributes");
  int k, n = 0;
  lua_newtable(L);
  for (k = 0; k < RSX_KIND_COUNT; k++) {
    if (fo->f.attr[k] == NULL) continue;
    lua_pushstring(L, fo->f.attr[k]->name);
    lua_rawseti(L, -2, ++n);
  }
  return 1;
}

static int f_order(lua_State *L)
{
  rl_format *fo = fo_check(L, 1, "format:order");
  int kinds[RSX_KIND_COUNT];
  int i, n = rsx_format_mgp_order(&fo->f, kinds);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    lua_pushstring(L, fo->f.attr[kinds[i]]->name);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int f_info(lua_State *L)
{
  rl_format *fo = fo_check(L, 1, "format:info");
  int kind = rsxlua_checkkind(L, 2, "format:info");
  const rsx_attr_info *a = fo->f.attr[kind];
  if (a == NULL) {
    lua_pushnil(L);
    return 1;
  }
  lua_createtable(L, 0, 7);
  lua_pushstring(L, a->stream == RSX_MMP ? "MMP" : "MGP");
  lua_setfield(L, -2, "stream");
  lua_pushinteger(L, fo->f.offset[kind]);
  lua_setfield(L, -2, "offset");
  lua_pushstring(L, rsxlua_type_name(a->type));
  lua_setfield(L, -2, "type");
  lua_pushinteger(L, a->count);
  lua_setfield(L, -2, "count");
  lua_pushinteger(L, a->size);
  lua_setfield(L, -2, "size");
  lua_pushinteger(L, a->components);
  lua_setfield(L, -2, "components");
  if (a->reg >= 0) {
    lua_pushinteger(L, a->reg);
    lua_setfield(L, -2, "reg");
  }
  return 1;
}

/* The kinds of one stream, in stream order. */
static int fo_stream_kinds(const rsx_format *f, int stream,
                           int kinds[RSX_KIND_COUNT])
{
  int k, n = 0;
  if (stream == RSX_MGP) return rsx_format_mgp_order(f, kinds);
  for (k = 0; k < RSX_KIND_COUNT; k++)
    if (f->attr[k] != NULL && f->attr[k]->stream == RSX_MMP) kinds[n++] = k;
  return n;
}

static int f_encode(lua_State *L)
{
  static const char *const streams[] = {"mmp", "mgp", NULL};
  rl_format *fo = fo_check(L, 1, "format:encode");
  int stream = rsxlua_checkoption(L, 2, streams, "format:encode") == 0
               ? RSX_MMP : RSX_MGP;
  lua_Integer n = rsxlua_checkinteger(L, 3, "format:encode");
  int kinds[RSX_KIND_COUNT], nk, i, col;
  uint32_t stride = stream == RSX_MMP ? fo->f.mmp_stride
                                      : fo->f.mgp_stride;
  size_t total;
  uint8_t *p;

  rsxlua_argcheck(L, n >= 0 && n <= 0xFFFFFFFF, 3, "format:encode",
                  "vertex count out of range");
  rsxlua_checktype(L, 4, LUA_TTABLE, "format:encode");
  if ((uint64_t)n * stride > SIZE_MAX / 2)
    return luaL_error(L, "format:encode: %I vertices are too many", n);
  total = (size_t)n * stride;
  nk = fo_stream_kinds(&fo->f, stream, kinds);

  /* every column first: present, a table, exactly n x components long */
  lua_settop(L, 4);
  col = 5;
  for (i = 0; i < nk; i++) {
    const rsx_attr_info *a = fo->f.attr[kinds[i]];
    size_t want = (size_t)n * (size_t)a->components, have;
    if (lua_getfield(L, 4, a->name) != LUA_TTABLE)
      return luaL_error(L, "format:encode: columns.%s must be a table, got "
                        "%s (the %s of the mask holds %s)", a->name,
                        luaL_typename(L, -1),
                        stream == RSX_MMP ? "MMP" : "MGP", a->name);
    have = lua_rawlen(L, -1);
    if (have != want)
      return luaL_error(L, "format:encode: columns.%s has %I values, "
                        "expected %I (%I vertices x %d)", a->name,
                        (lua_Integer)have, (lua_Integer)want, n,
                        a->components);
  }

  /* the stream in a userdata, a column at a time by the core's encoder */
  p = lua_newuserdatauv(L, total + 1, 0);
  memset(p, 0, total); /* the gaps a stride leaves are zero bytes */
  for (i = 0; i < nk; i++) {
    const rsx_attr_info *a = fo->f.attr[kinds[i]];
    char what[32];
    float *in;
    snprintf(what, sizeof what, "columns.%s", a->name);
    in = rsxlua_floats(L, col + i, (size_t)n * (size_t)a->components,
                       "format:encode", what);
    rsx_encode_column(a, in, (size_t)n, p + fo->f.offset[kinds[i]], stride);
    lua_pop(L, 1);
  }
  lua_pushlstring(L, (const char *)p, total);
  return 1;
}

static int f_tostring(lua_State *L)
{
  rl_format *fo = fo_check(L, 1, "format:__tostring");
  char buf[96];
  snprintf(buf, sizeof buf, RSXLUA_FORMAT " 0x%08lx (MMP %lu, MGP %lu)",
           (unsigned long)fo->f.mask, (unsigned long)fo->f.mmp_stride,
           (unsigned long)fo->f.mgp_stride);
  lua_pushstring(L, buf);
  return 1;
}

/* ---------------------------------------------------------- properties */

static int fp_mask(lua_State *L)
{
  lua_pushinteger(L, (lua_Integer)fo_check(L, 1, "format.mask")->f.mask);
  return 1;
}

static int fp_packed(lua_State *L)
{
  lua_pushboolean(L, fo_check(L, 1, "format.packed")->f.packed);
  return 1;
}

static int fp_mmp_stride(lua_State *L)
{
  rl_format *fo = fo_check(L, 1, "format.mmp_stride");
  lua_pushinteger(L, (lua_Integer)fo->f.mmp_stride);
  return 1;
}

static int fp_mgp_stride(lua_State *L)
{
  rl_format *fo = fo_check(L, 1, "format.mgp_stride");
  lua_pushinteger(L, (lua_Integer)fo->f.mgp_stride);
  return 1;
}

static int fp_undefined_bits(lua_State *L)
{
  rl_format *fo = fo_check(L, 1, "format.undefined_bits");
  lua_pushinteger(L, (lua_Integer)fo->f.undefined_bits);
  return 1;
}

static const luaL_Reg f_meta[] = {
  {"__tostring", f_tostring},
  {NULL, NULL}
};

static const luaL_Reg f_methods[] = {
  {"has", f_has},
  {"attributes", f_attributes},
  {"order", f_order},
  {"info", f_info},
  {"encode", f_encode},
  {NULL, NULL}
};

static const rl_member f_members[] = {
  {"mask", fp_mask},
  {"packed", fp_packed},
  {"mmp_stride", fp_mmp_stride},
  {"mgp_stride", fp_mgp_stride},
  {"undefined_bits", fp_undefined_bits},
  {NULL, NULL}
};

void rsxlua_open_format(lua_State *L)
{
  rsxlua_class(L, RSXLUA_FORMAT, f_meta, f_methods, f_members);
  lua_pushcfunction(L, fo_new);
  lua_setfield(L, -2, "format");
}
