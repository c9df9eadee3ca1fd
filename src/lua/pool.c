/*
** pool.c - the pool userdata: worker processes that take jobs a line at a
** time (src/pool.c); rsxmesh.pool, p:add/next/done/stop/close, and the
** worker's side, rsxmesh.pool_report and rsxmesh.pool_worker.
*/
#include <stdlib.h>
#include <string.h>

#include "rsxlua.h"
#include "pool.h"

/* The userdata owns its pool; NULL after close. */
typedef struct rl_pool {
  rsx_pool *p;
} rl_pool;

static rsx_pool *pool_check(lua_State *L, const char *fname)
{
  rl_pool *pl = rsxlua_checkudata(L, 1, RSXLUA_POOL, fname);
  if (pl->p == NULL) luaL_error(L, "%s: pool is closed", fname);
  return pl->p;
}

/* rsxmesh.pool(command, workers): command is a list of strings, the
** program first (found on PATH). */
static int pool_new(lua_State *L)
{
  const char *fname = "rsxmesh.pool";
  lua_Integer workers;
  lua_Integer n, i;
  const char **argv;
  rl_pool *pl;
  rsx_error err;
  rsxlua_checktype(L, 1, LUA_TTABLE, fname);
  workers = rsxlua_checkinteger(L, 2, fname);
  if (workers < 1 || workers > 256)
    return luaL_error(L, "%s: workers %I out of range 1..256", fname,
                      (LUAI_UACINT)workers);
  n = (lua_Integer)lua_rawlen(L, 1);
  if (n < 1) return luaL_error(L, "%s: empty command", fname);
  argv = lua_newuserdatauv(L, (size_t)(n + 1) * sizeof *argv, 0);
  for (i = 1; i <= n; i++) {
    if (lua_rawgeti(L, 1, i) != LUA_TSTRING)
      return luaL_error(L, "%s: command word %I is a %s, not a string",
                        fname, (LUAI_UACINT)i, luaL_typename(L, -1));
    argv[i - 1] = lua_tostring(L, -1); /* anchored in the table */
    lua_pop(L, 1);
  }
  argv[n] = NULL;
  pl = lua_newuserdatauv(L, sizeof *pl, 0);
  pl->p = NULL;
  luaL_setmetatable(L, RSXLUA_POOL);
  pl->p = rsx_pool_new(argv, (int)workers, &err);
  if (pl->p == NULL) return luaL_error(L, "%s: %s", fname, err.text);
  return 1;
}

/* p:add(line [, size]) */
static int pool_add(lua_State *L)
{
  rsx_pool *p = pool_check(L, "pool:add");
  size_t len;
  const char *line = rsxlua_checklstring(L, 2, &len, "pool:add");
  lua_Number size = lua_isnoneornil(L, 3) ? 0
    : rsxlua_checknumber(L, 3, "pool:add");
  rsx_error err;
  if (strlen(line) != len)
    return luaL_error(L, "pool:add: a job line with a zero byte");
  if (rsx_pool_add(p, line, (double)size, &err) != 0)
    return luaL_error(L, "pool:add: %s", err.text);
  return 0;
}

/* p:next(): number, out, err, report (nil when the worker died), status,
** problem (why the worker's channel failed the job, or nil);
** nil after the last job; false when a signal cut the wait short (the
** host raises an interrupt at the next instruction). */
static int pool_next(lua_State *L)
{
  rsx_pool *p = pool_check(L, "pool:next");
  rsx_pool_result r;
  rsx_error err;
  int k = rsx_pool_next(p, &r, &err);
  if (k == RSX_POOL_END) {
    lua_pushnil(L);
    return 1;
  }
  if (k == RSX_POOL_INTERRUPTED) {
    lua_pushboolean(L, 0);
    return 1;
  }
  if (k < 0) return luaL_error(L, "pool:next: %s", err.text);
  lua_pushinteger(L, (lua_Integer)r.number);
  lua_pushlstring(L, r.out, r.out_size);
  lua_pushlstring(L, r.err, r.err_size);
  if (r.report) lua_pushlstring(L, r.report, r.report_size);
  else lua_pushnil(L);
  lua_pushinteger(L, r.status);
  if (r.problem) lua_pushstring(L, r.problem);
  else lua_pushnil(L);
  return 6;
}

static int pool_done(lua_State *L)
{
  lua_pushinteger(L, (lua_Integer)rsx_pool_done(pool_check(L,
    "pool:done")));
  return 1;
}

/* p:stop([interrupt]): the number of workers that were still running. */
static int pool_stop(lua_State *L)
{
  rsx_pool *p = pool_check(L, "pool:stop");
  lua_pushinteger(L, rsx_pool_stop(p, lua_toboolean(L, 2)));
  return 1;
}

/* p:close(), __gc and __close: the workers stopped and waited for. */
static int pool_close(lua_State *L)
{
  rl_pool *pl = rsxlua_checkudata(L, 1, RSXLUA_POOL, "pool:close");
  rsx_pool_free(pl->p);
  pl->p = NULL;
  return 0;
}

static int pool_tostring(lua_State *L)
{
  rl_pool *pl = rsxlua_checkudata(L, 1, RSXLUA_POOL, "pool:__tostring");
  if (pl->p == NULL) lua_pushliteral(L, "rsxmesh.pool (closed)");
  else lua_pushfstring(L, "rsxmesh.pool (%d done)",
                       (int)rsx_pool_done(pl->p));
  return 1;
}

/* rsxmesh.pool_report(bytes): in a worker, hand bytes to the pool. */
static int pool_report(lua_State *L)
{
  size_t len;
  const char *s = rsxlua_checklstring(L, 1, &len, "rsxmesh.pool_report");
  rsx_error err;
  if (rsx_pool_report(s, len, &err) != 0)
    return luaL_error(L, "rsxmesh.pool_report: %s", err.text);
  return 0;
}

/* rsxmesh.pool_worker(): true in a process that a pool started. */
static int pool_worker(lua_State *L)
{
  lua_pushboolean(L, rsx_pool_is_worker());
  return 1;
}

static const luaL_Reg p_meta[] = {
  { "__gc", pool_close },
  { "__close", pool_close },
  { "__tostring", pool_tostring },
  { NULL, NULL }
};

static const luaL_Reg p_methods[] = {
  { "add", pool_add },
  { "next", pool_next },
  { "done", pool_done },
  { "stop", pool_stop },
  { "close", pool_close },
  { NULL, NULL }
};

static const rl_member p_members[] = {
  { NULL, NULL }
};

static const luaL_Reg p_funcs[] = {
  { "pool", pool_new },
  { "pool_report", pool_report },
  { "pool_worker", pool_worker },
  { NULL, NULL }
};

void rsxlua_open_pool(lua_State *L)
{
  rsxlua_class(L, RSXLUA_POOL, p_meta, p_methods, p_members);
  luaL_setfuncs(L, p_funcs, 0);
}
