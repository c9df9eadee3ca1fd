/*
** functions.c - the module's plain functions and values: the number
** encoders (half, cmp and their inverses), float32, fmt, indices, isatty,
** clock, processors, create, and the kinds, BASE_COLOUR and
** UNIT_TOLERANCE.
*/
#define _POSIX_C_SOURCE 200809L /* fileno, clock_gettime */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lualib.h>

#include "rsxlua.h"

static int mod_half(lua_State *L)
{
  lua_Integer h = rsxlua_checkinteger(L, 1, "rsxmesh.half");
  rsxlua_argcheck(L, h >= 0 && h <= 0xFFFF, 1, "rsxmesh.half",
                  "not a 16-bit value");
  lua_pushnumber(L, (lua_Number)rsx_half((uint16_t)h));
  return 1;
}

static int mod_to_half(lua_State *L)
{
  /* rounded to float32 first: the core's encoder takes a float */
  float x = (float)rsxlua_checknumber(L, 1, "rsxmesh.to_half");
  lua_pushinteger(L, (lua_Integer)rsx_half_from_float(x));
  return 1;
}

static int mod_cmp(lua_State *L)
{
  lua_Integer u = rsxlua_checkinteger(L, 1, "rsxmesh.cmp");
  float v[3];
  rsxlua_argcheck(L, u >= 0 && u <= 0xFFFFFFFF, 1, "rsxmesh.cmp",
                  "not a 32-bit value");
  rsx_cmp((uint32_t)u, v);
  lua_pushnumber(L, (lua_Number)v[0]);
  lua_pushnumber(L, (lua_Number)v[1]);
  lua_pushnumber(L, (lua_Number)v[2]);
  return 3;
}

static int mod_to_cmp(lua_State *L)
{
  /* nearest on the doubles themselves: no float32 step (issue 9) */
  double v[3];
  v[0] = (double)rsxlua_checknumber(L, 1, "rsxmesh.to_cmp");
  v[1] = (double)rsxlua_checknumber(L, 2, "rsxmesh.to_cmp");
  v[2] = (double)rsxlua_checknumber(L, 3, "rsxmesh.to_cmp");
  lua_pushinteger(L, (lua_Integer)rsx_cmp_from_doubles(v));
  return 1;
}

static int mod_float32(lua_State *L)
{
  lua_Number x = rsxlua_checknumber(L, 1, "rsxmesh.float32");
  lua_pushnumber(L, (lua_Number)(float)x);
  return 1;
}

static int mod_fmt(lua_State *L)
{
  char buf[RSX_FLOAT_CHARS];
  int len = rsxlua_fmt((float)rsxlua_checknumber(L, 1, "rsxmesh.fmt"), buf);
  lua_pushlstring(L, buf, (size_t)len);
  return 1;
}

static int mod_isatty(lua_State *L)
{
  luaL_Stream *p = rsxlua_checkudata(L, 1, LUA_FILEHANDLE, "rsxmesh.isatty");
  lua_pushboolean(L, p->closef != NULL && p->f != NULL &&
                       isatty(fileno(p->f)));
  return 1;
}

/* rsxmesh.create(path): io.open(path, "wb") with a buffer of
** RL_FILE_BUFFER bytes. A C library's own buffer is a few KiB (glibc's is
** the block size: 4 KiB), and a long text (an OBJ of 23 MB) written
** through it cost a system call per few KiB, a third of the export's
** time; setvbuf with no buffer of our own does not enlarge it. The
** buffer, after an rl_created, is the handle's user value, so it lives
** until the handle is collected, after the close (liolib's recipe for a
** file handle of a library's own: luaL_Stream). */
#define RL_FILE_BUFFER (1 << 18)

static int mod_create(lua_State *L)
{
  const char *path = rsxlua_checklstring(L, 1, NULL, "rsxmesh.create");
  luaL_Stream *p;
  rl_created *c;
  if (luaL_getmetatable(L, LUA_FILEHANDLE) != LUA_TTABLE)
    return luaL_error(L, "rsxmesh.create: the io library is not loaded");
  lua_pop(L, 1);
  p = (luaL_Stream *)lua_newuserdatauv(L, sizeof *p, 1);
  p->f = NULL;
  p->closef = NULL; /* closed until open, as liolib's newprefile */
  luaL_setmetatable(L, LUA_FILEHANDLE);
  c = (rl_created *)lua_newuserdatauv(L, sizeof *c + RL_FILE_BUFFER, 0);
  c->reserve = c->reserved = 0; /* until the file is open */
  lua_setiuservalue(L, -2, 1);
  p->f = fopen(path, "wb");
  if (p->f == NULL) return luaL_fileresult(L, 0, path);
  p->closef = rsxlua_created_close;
  rsxlua_created_init(c, p->f);
  /* refused, the library's own buffer stays: the file works as io.open's */
  (void)setvbuf(p->f, (char *)(c + 1), _IOFBF, RL_FILE_BUFFER);
  return 1;
}

/* Wall seconds from an arbitrary start, for timing a run: os.clock counts
** the processor time of this process only, not the wait for children or
** for the disk. Monotonic, so a clock set back mid-run does no harm. */
static int mod_clock(lua_State *L)
{
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
    return luaL_error(L, "rsxmesh.clock: %s", strerror(errno));
  lua_pushnumber(L, (lua_Number)ts.tv_sec + (lua_Number)ts.tv_nsec * 1e-9);
  return 1;
}

static int mod_indices(lua_State *L)
{
  lua_Integer size = rsxlua_checkinteger(L, 1, "rsxmesh.indices");
  lua_Integer base, max;
  size_t n, i;
  luaL_Buffer b;
  unsigned char *p;

  rsxlua_argcheck(L, size == 2 || size == 4, 1, "rsxmesh.indices",
                  "index size must be 2 or 4");
  rsxlua_checktype(L, 2, LUA_TTABLE, "rsxmesh.indices");
  base = rsxlua_optinteger(L, 3, 1, "rsxmesh.indices");
  max = size == 2 ? 0xFFFF : 0xFFFFFFFF;
  n = lua_rawlen(L, 2);
  p = (unsigned char *)luaL_buffinitsize(L, &b, n * (size_t)size);
  for (i = 0; i < n; i++) {
    int isint;
    lua_Integer v, idx;
    lua_rawgeti(L, 2, (lua_Integer)i + 1);
    v = lua_tointegerx(L, -1, &isint);
    if (!isint)
      return luaL_error(L, "rsxmesh.indices: t[%I] is not an integer",
                        (lua_Integer)i + 1);
    lua_pop(L, 1);
    /* -1 is the strip restart: all ones whatever the base. v - base is
    ** worked out in unsigned arithmetic, its sign apart: any two integers
    ** (math.mininteger among them) give no overflow */
    if (v == -1) {
      idx = max;
    } else {
      int below = v < base;
      lua_Unsigned d = below ? (lua_Unsigned)base - (lua_Unsigned)v
                             : (lua_Unsigned)v - (lua_Unsigned)base;
      if (below || d > (lua_Unsigned)max) {
        char gives[32];
        snprintf(gives, sizeof gives, "%s%llu", below ? "-" : "",
                 (unsigned long long)d);
        return luaL_error(L, "rsxmesh.indices: t[%I] = %I gives index %s,"
                          " out of range 0..%I", (lua_Integer)i + 1, v,
                          gives, max);
      }
      idx = (lua_Integer)d;
    }
    if (size == 2)
      rsx_put_be16(p + i * 2, (uint16_t)idx);
    else
      rsx_put_be32(p + i * 4, (uint32_t)idx);
  }
  luaL_pushresultsize(&b, n * (size_t)size);
  return 1;
}

/* ---------------------------------------------------------- registration */

/* ------------------------------------------------------- registration */

/* The processors online: the scripts' default number of worker
** processes (-j). 1 when the system cannot say. */
static int mod_processors(lua_State *L)
{
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  lua_pushinteger(L, n > 0 ? (lua_Integer)n : 1);
  return 1;
}

static const luaL_Reg mod_funcs[] = {
  {"half", mod_half},
  {"to_half", mod_to_half},
  {"cmp", mod_cmp},
  {"to_cmp", mod_to_cmp},
  {"float32", mod_float32},
  {"fmt", mod_fmt},
  {"isatty", mod_isatty},
  {"clock", mod_clock},
  {"processors", mod_processors},
  {"indices", mod_indices},
  {"create", mod_create},
  {NULL, NULL}
};

void rsxlua_open_functions(lua_State *L)
{
  int k;
  luaL_setfuncs(L, mod_funcs, 0);
  lua_createtable(L, RSX_KIND_COUNT, 0);
  for (k = 0; k < RSX_KIND_COUNT; k++) {
    lua_pushstring(L, rsx_attr(k, 1)->name);
    lua_rawseti(L, -2, k + 1);
  }
  lua_setfield(L, -2, "kinds");
  lua_pushinteger(L, (lua_Integer)RSX_BASE_COLOUR_SLOT);
  lua_setfield(L, -2, "BASE_COLOUR");
  lua_pushnumber(L, RSX_UNIT_TOLERANCE);
  lua_setfield(L, -2, "UNIT_TOLERANCE");
}
