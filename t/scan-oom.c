/*
** scan-oom.c - rsxmesh.scan under an allocator that fails: whichever Lua
** allocation fails, the first or one among the result's tables, the
** scan's own arrays (src/scan.c's malloc) are freed once the state is
** closed, and the call raises a memory error, never anything else.
** The bytes held by malloc are read with glibc's mallinfo2, its cache
** of freed blocks turned off (it counts them as held): the test runs
** itself again with GLIBC_TUNABLES set. Elsewhere it is skipped.
*/
#include "../src/lua/rsxlua.h"
#include "tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#include <unistd.h>
#endif

#define UNLIMITED ((size_t)-1)

typedef struct budget {
  size_t left;          /* allocations that may still succeed */
} budget;

static void *fail_alloc(void *ud, void *p, size_t osize, size_t nsize)
{
  budget *b = (budget *)ud;
  (void)osize;
  if (nsize == 0) {
    free(p);
    return NULL;
  }
  if (b->left != UNLIMITED) {
    if (b->left == 0) return NULL;
    b->left--;
  }
  return realloc(p, nsize);
}

static char *slurp(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  char *s = NULL;
  long size;
  if (f == NULL) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 &&
      fseek(f, 0, SEEK_SET) == 0 && (s = malloc((size_t)size)) != NULL &&
      fread(s, 1, (size_t)size, f) != (size_t)size) {
    free(s);
    s = NULL;
  }
  if (s != NULL) *n = (size_t)size;
  fclose(f);
  return s;
}

#ifdef __GLIBC__
/* rsxmesh.scan(bytes, {bytes = true}) with `allowed` allocations after
** the module is loaded: the status of the call; held, the bytes malloc
** holds after lua_close beyond those before lua_newstate */
static int scan_with(const char *bytes, size_t n, size_t allowed,
                     long long *held, char *msg, size_t msg_size)
{
  budget b;
  lua_State *L;
  int rc;
  size_t before = mallinfo2().uordblks;
  b.left = UNLIMITED;
  L = lua_newstate(fail_alloc, &b);
  if (L == NULL) bail_out("lua_newstate");
  luaL_requiref(L, "rsxmesh", luaopen_rsxmesh, 0);
  lua_getfield(L, -1, "scan");
  lua_pushlstring(L, bytes, n);
  lua_createtable(L, 0, 1);
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "bytes");
  b.left = allowed;
  rc = lua_pcall(L, 2, 1, 0);
  b.left = UNLIMITED;
  snprintf(msg, msg_size, "%s", rc == LUA_OK ? "" : lua_tostring(L, -1));
  lua_close(L);
  *held = (long long)mallinfo2().uordblks - (long long)before;
  return rc;
}
#endif

int main(int argc, char **argv)
{
#ifdef __GLIBC__
  const char *srcdir = getenv("top_srcdir");
  const char *tunables = getenv("GLIBC_TUNABLES");
  char path[4096], msg[256];
  size_t n = 0, allowed;
  char *bytes;
  int failures = 0, other = 0, rc = LUA_ERRMEM;
  long long held = 0, leaked = 0;

  (void)argc;
  if (tunables == NULL || strstr(tunables, "tcache_count=0") == NULL) {
    char t[1024];
    snprintf(t, sizeof t, "%s%sglibc.malloc.tcache_count=0",
             tunables ? tunables : "", tunables ? ":" : "");
    setenv("GLIBC_TUNABLES", t, 1);
    execv(argv[0], argv);
    bail_out("cannot run %s again: %s", argv[0], strerror(errno));
  }
  snprintf(path, sizeof path, "%s/fuzz/corpus-scan/small-meshes.bin",
           srcdir ? srcdir : ".");
  bytes = slurp(path, &n);
  if (bytes == NULL) bail_out("cannot read %s", path);
  /* a first call warms up what stays (stdio's buffers) */
  scan_with(bytes, n, UNLIMITED, &held, msg, sizeof msg);
  for (allowed = 0; allowed < 100000 && rc != LUA_OK; allowed++) {
    rc = scan_with(bytes, n, allowed, &held, msg, sizeof msg);
    if (rc != LUA_OK) {
      failures++;
      if (rc != LUA_ERRMEM) {
        if (other++ == 0) diag("allowed %zu: %s", allowed, msg);
      }
    }
    if (held != 0 && leaked == 0) {
      diag("allowed %zu: %lld bytes held after lua_close", allowed, held);
      leaked = held;
    }
  }
  is_int(rc, LUA_OK, "the scan succeeds with enough memory");
  ok(failures > 100, "it fails at every allocation before (%d points)",
     failures);
  is_int(other, 0, "every failure is a memory error");
  is_int(leaked, 0, "no failure leaves malloc's memory behind");
  free(bytes);
  return done_testing();
#else
  (void)argc;
  (void)argv;
  puts("1..0 # SKIP mallinfo2 is glibc's");
  return 0;
#endif
}
