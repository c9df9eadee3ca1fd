/*
** triangles.c - the triangles of a mesh or a submesh as Lua values: a
** table of 1-based vertex numbers, or a string of 0-based u32.
*/
#include <stdint.h>

#include "rsxlua.h"

/* The scratch space for cap triangles: a userdata the GC reclaims, so
** that an error raised later frees it (no malloc to leak). */
static uint32_t *tri_scratch(lua_State *L, size_t cap)
{
  if (cap > (SIZE_MAX - 1) / (3 * sizeof(uint32_t)))
    luaL_error(L, "triangles: %I triangles are too many", (lua_Integer)cap);
  return lua_newuserdatauv(L, cap * 3 * sizeof(uint32_t) + 1, 0);
}

/* Pushes n triangles of tri as a table of 1-based numbers or a string of
** little-endian 0-based u32, then n. */
static int tri_push(lua_State *L, const uint32_t *tri, size_t n,
                    int as_bytes)
{
  size_t i;
  if (as_bytes) {
    luaL_Buffer b;
    unsigned char *p = (unsigned char *)luaL_buffinitsize(L, &b, n * 12);
    for (i = 0; i < n * 3; i++) {
      p[4 * i] = (unsigned char)(tri[i] & 0xFF);
      p[4 * i + 1] = (unsigned char)((tri[i] >> 8) & 0xFF);
      p[4 * i + 2] = (unsigned char)((tri[i] >> 16) & 0xFF);
      p[4 * i + 3] = (unsigned char)(tri[i] >> 24);
    }
    luaL_pushresultsize(&b, n * 12);
  } else {
    lua_createtable(L, n * 3 < (size_t)INT32_MAX ? (int)(n * 3) : 0, 0);
    for (i = 0; i < n * 3; i++) {
      lua_pushinteger(L, (lua_Integer)tri[i] + 1);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
  }
  lua_pushinteger(L, (lua_Integer)n);
  return 2;
}

int rsxlua_triangles(lua_State *L, const rsx_mesh *m, const rsx_submesh *s,
                     uint32_t first, uint32_t count, int as_bytes)
{
  uint32_t *tri = tri_scratch(L, rsx_triangle_capacity(count));
  size_t n = 0;
  rsx_error err;
  if (rsx_triangles(m, s, first, count, tri, &n, &err) != 0)
    return rsxlua_fail(L, err.text);
  return tri_push(L, tri, n, as_bytes);
}

int rsxlua_mesh_triangles(lua_State *L, const rsx_mesh *m, int as_bytes)
{
  uint32_t *tri = tri_scratch(L, rsx_mesh_triangle_capacity(m));
  size_t n = 0;
  rsx_error err;
  if (rsx_mesh_triangles(m, tri, &n, &err) != 0)
    return rsxlua_fail(L, err.text);
  return tri_push(L, tri, n, as_bytes);
}
