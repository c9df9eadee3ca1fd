/*
** triangles.c - the triangles of a mesh or a submesh as Lua values: a
** table of 1-based vertex numbers, or a string of 0-based u32.
*/
#include <stdint.h>

#include "rsxlua.h"

/* Pushes the bytes of a malloc-free temporary: called under the caller's
** error rules, the scratch space is a userdata the GC reclaims. */
int rsxlua_triangles(lua_State *L, const rsx_mesh *m, const rsx_submesh *s,
                     uint32_t first, uint32_t count, int as_bytes)
{
  size_t cap = rsx_triangle_capacity(count), n = 0, i;
  uint32_t *tri;
  rsx_error err;

  if (cap > SIZE_MAX / (3 * sizeof *tri))
    return luaL_error(L, "triangles: %I indices are too many",
                      (lua_Integer)count);
  tri = lua_newuserdatauv(L, cap * 3 * sizeof *tri + 1, 0);
  if (rsx_triangles(m, s, first, count, tri, &n, &err) != 0)
    return rsxlua_fail(L, err.text);
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

