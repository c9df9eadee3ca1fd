/*
** triangles.c - the triangles of a mesh or a submesh as Lua values: a
** table of 1-based vertex numbers, or a string of 0-based u32.
*/
#include <stdint.h>

#include "rsxlua.h"

size_t rsxlua_triangle_bytes(lua_State *L, size_t cap, const char *fname)
{
  if (cap > (SIZE_MAX - 1) / (3 * sizeof(uint32_t)))
    luaL_error(L, "%s: %I triangles are too many", fname, (lua_Integer)cap);
  return cap * 3 * sizeof(uint32_t) + 1;
}

/* The scratch space for cap triangles: a userdata the GC reclaims, so
** that an error raised later frees it (no malloc to leak). */
static uint32_t *tri_scratch(lua_State *L, size_t cap)
{
  return lua_newuserdatauv(L, rsxlua_triangle_bytes(L, cap, "triangles"),
                           0);
}

/* Pushes n triangles of tri as mode says (see rsxlua_triangles), then
** n. */
static int tri_push(lua_State *L, const uint32_t *tri, size_t n, int mode,
                    int file)
{
  size_t i;
  if (mode == RL_TRI_BYTES) {
    rl_text t;
    rsxlua_text_init(L, &t, file, n * 12, "triangle_bytes");
    for (i = 0; i < n * 3; i += 3) {
      unsigned char *p = (unsigned char *)rsxlua_text_room(&t, 12);
      int k;
      for (k = 0; k < 3; k++, p += 4) {
        uint32_t v = tri[i + (size_t)k];
        p[0] = (unsigned char)(v & 0xFF);
        p[1] = (unsigned char)((v >> 8) & 0xFF);
        p[2] = (unsigned char)((v >> 16) & 0xFF);
        p[3] = (unsigned char)(v >> 24);
      }
      rsxlua_text_add(&t, 12);
    }
    if (rsxlua_text_push(&t) != 1) return 3; /* nil, message, errno */
  } else if (mode == RL_TRI_TABLE) {
    lua_createtable(L, n * 3 < (size_t)INT32_MAX ? (int)(n * 3) : 0, 0);
    for (i = 0; i < n * 3; i++) {
      lua_pushinteger(L, (lua_Integer)tri[i] + 1);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
  }
  lua_pushinteger(L, (lua_Integer)n);
  return mode == RL_TRI_COUNT ? 1 : 2;
}

const uint32_t *rsxlua_triangle_list(lua_State *L, const rsx_mesh *m,
                                     const rsx_submesh *s, uint32_t first,
                                     uint32_t count, size_t *n)
{
  uint32_t *tri = tri_scratch(L, rsx_triangle_capacity(count));
  rsx_error err;
  *n = 0;
  if (rsx_triangles(m, s, first, count, tri, n, &err) != 0) {
    rsxlua_fail(L, err.text);
    return NULL;
  }
  return tri;
}

int rsxlua_triangles(lua_State *L, const rsx_mesh *m, const rsx_submesh *s,
                     uint32_t first, uint32_t count, int mode, int file)
{
  size_t n;
  const uint32_t *tri = rsxlua_triangle_list(L, m, s, first, count, &n);
  if (tri == NULL) return 2;
  return tri_push(L, tri, n, mode, file);
}

int rsxlua_mesh_triangles(lua_State *L, const rsx_mesh *m, int mode,
                          int file)
{
  uint32_t *tri = tri_scratch(L, rsx_mesh_triangle_capacity(m));
  size_t n = 0;
  rsx_error err;
  if (rsx_mesh_triangles(m, tri, &n, &err) != 0)
    return rsxlua_fail(L, err.text);
  return tri_push(L, tri, n, mode, file);
}
