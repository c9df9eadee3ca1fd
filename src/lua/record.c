/*
** record.c - the record userdata: a metadata or submesh record's raw
** bytes, read as big-endian integers and floats at 0-based offsets.
*/
#include <stdio.h>

#include "rsxlua.h"

void rsxlua_push_record(lua_State *L, int parent, rl_bundle *bundle,
                        const uint8_t *p, uint32_t size)
{
  rl_record *r;
  r = rsxlua_new_child(L, sizeof *r, RSXLUA_RECORD, parent);
  r->bundle = bundle;
  r->p = p;
  r->size = size;
}

/* "fname: offset 0x90 out of range (record is 0x90 bytes)" */
static int rec_range_error(lua_State *L, const char *fname, lua_Integer off,
                           uint32_t size)
{
  char buf[160];
  snprintf(buf, sizeof buf, "%s: offset %s0x%llx out of range (record "
           "is 0x%lx bytes)", fname, off < 0 ? "-" : "",
           off < 0 ? -(unsigned long long)off : (unsigned long long)off,
           (unsigned long)size);
  return luaL_error(L, "%s", buf);
}

/* The record at 1 and the address of width bytes at the offset at 2. */
static const uint8_t *rec_at(lua_State *L, int width, const char *fname)
{
  rl_record *r = rsxlua_check(L, 1, RSXLUA_RECORD, fname);
  lua_Integer off = rsxlua_checkinteger(L, 2, fname);
  if (off < 0 || off > (lua_Integer)r->size - width)
    rec_range_error(L, fname, off, r->size);
  return r->p + off;
}

static int r_u8(lua_State *L)
{
  lua_pushinteger(L, *rec_at(L, 1, "record:u8"));
  return 1;
}

static int r_s8(lua_State *L)
{
  int v = *rec_at(L, 1, "record:s8");
  lua_pushinteger(L, v >= 0x80 ? v - 0x100 : v);
  return 1;
}

static int r_u16(lua_State *L)
{
  lua_pushinteger(L, rsx_be16(rec_at(L, 2, "record:u16")));
  return 1;
}

static int r_s16(lua_State *L)
{
  long v = rsx_be16(rec_at(L, 2, "record:s16"));
  lua_pushinteger(L, v >= 0x8000 ? v - 0x10000 : v);
  return 1;
}

static int r_u32(lua_State *L)
{
  lua_pushinteger(L, (lua_Integer)rsx_be32(rec_at(L, 4, "record:u32")));
  return 1;
}

static int r_s32(lua_State *L)
{
  lua_Integer v = (lua_Integer)rsx_be32(rec_at(L, 4, "record:s32"));
  lua_pushinteger(L, v >= 0x80000000 ? v - 0x100000000 : v);
  return 1;
}

static int r_f16(lua_State *L)
{
  lua_pushnumber(L, rsx_half(rsx_be16(rec_at(L, 2, "record:f16"))));
  return 1;
}

static int r_f32(lua_State *L)
{
  lua_pushnumber(L, rsx_f32(rec_at(L, 4, "record:f32")));
  return 1;
}

static int r_bytes(lua_State *L)
{
  rl_record *r = rsxlua_check(L, 1, RSXLUA_RECORD, "record:bytes");
  lua_Integer off = rsxlua_optinteger(L, 2, 0, "record:bytes");
  lua_Integer len;
  if (off < 0 || off > (lua_Integer)r->size)
    return rec_range_error(L, "record:bytes", off, r->size);
  len = rsxlua_optinteger(L, 3, (lua_Integer)r->size - off, "record:bytes");
  if (len < 0 || len > (lua_Integer)r->size - off) {
    char buf[160];
    snprintf(buf, sizeof buf, "record:bytes: length %lld at offset 0x%llx "
             "runs past the record (0x%lx bytes)", (long long)len,
             (unsigned long long)off, (unsigned long)r->size);
    return luaL_error(L, "%s", buf);
  }
  lua_pushlstring(L, (const char *)r->p + off, (size_t)len);
  return 1;
}

static int r_len(lua_State *L)
{
  rl_record *r = rsxlua_check(L, 1, RSXLUA_RECORD, "record:__len");
  lua_pushinteger(L, (lua_Integer)r->size);
  return 1;
}

static int rp_size(lua_State *L)
{
  rl_record *r = rsxlua_check(L, 1, RSXLUA_RECORD, "record.size");
  lua_pushinteger(L, (lua_Integer)r->size);
  return 1;
}

static int r_tostring(lua_State *L)
{
  rl_record *r = rsxlua_checkudata(L, 1, RSXLUA_RECORD, "record:__tostring");
  char buf[64];
  if (r->bundle != NULL && r->bundle->b == NULL)
    snprintf(buf, sizeof buf, RSXLUA_RECORD " (bundle closed)");
  else
    snprintf(buf, sizeof buf, RSXLUA_RECORD " (0x%lx bytes)",
             (unsigned long)r->size);
  lua_pushstring(L, buf);
  return 1;
}

static const luaL_Reg r_meta[] = {
  {"__len", r_len},
  {"__tostring", r_tostring},
  {NULL, NULL}
};

static const luaL_Reg r_methods[] = {
  {"u8", r_u8},
  {"s8", r_s8},
  {"u16", r_u16},
  {"s16", r_s16},
  {"u32", r_u32},
  {"s32", r_s32},
  {"f16", r_f16},
  {"f32", r_f32},
  {"bytes", r_bytes},
  {NULL, NULL}
};

static const rl_member r_members[] = {
  {"size", rp_size},
  {NULL, NULL}
};

void rsxlua_open_record(lua_State *L)
{
  rsxlua_class(L, RSXLUA_RECORD, r_meta, r_methods, r_members);
}
