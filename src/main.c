/*
** main.c - the rsxmesh host: runs Lua scripts as lua does, with the rsxmesh
** module preloaded, and finds the standard scripts by name.
**
** Modelled on Lua 5.4's lua.c, whose behaviour it keeps (lua(1), the
** manual's section 7): main() runs everything in host_main under
** lua_pcall; options are validated first (args_collect) and run in
** command-line order later (args_run), after LUA_INIT unless -E; errors
** go through a message handler that appends a traceback. What it adds:
** the global rsxmesh, standard scripts found by name (Lua's own
** package.searchpath, listed by the Lua helper rsxmesh.scripts), its
** helpers found by a searcher of its own (package.path stays lua's), and
** clear messages for a data file given where the script goes.
*/
#define _XOPEN_SOURCE 700 /* realpath */

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

#ifdef RSXMESH_USE_READLINE /* configure: readline, as lua.c's option */
#include <readline/history.h>
#include <readline/readline.h>
#endif

#include "rsxmesh.h"

/* The binding's entry point (src/lua/): linked in, preloaded below. */
int luaopen_rsxmesh(lua_State *L);

/* Install folders, set by the build (src/lua/lua.am). */
#ifndef RSXMESH_SCRIPTDIR
#define RSXMESH_SCRIPTDIR "/usr/local/share/rsxmesh/scripts"
#endif
#ifndef RSXMESH_LUADIR
#define RSXMESH_LUADIR "/usr/local/share/lua/5.4"
#endif

#define HOST_NAME "rsxmesh"
#define HOST_PATH_VAR "RSXMESH_PATH"
#define HOST_PROMPT "> "
#define HOST_PROMPT2 ">> "
/* The registry's field for the path of standard scripts (cli.lua reads it
** for its usage hint). */
#define HOST_PATH_KEY "rsxmesh.path"
#define HOST_INIT_VAR "LUA_INIT"
#define HOST_INIT_VAR_VERSION \
  HOST_INIT_VAR "_" LUA_VERSION_MAJOR "_" LUA_VERSION_MINOR

/* What args_collect found. */
enum {
  ARG_ERROR = 1 << 0, /* bad option: print usage, fail */
  ARG_I = 1 << 1,     /* -i */
  ARG_V = 1 << 2,     /* -v (and -i) */
  ARG_E = 1 << 3,     /* -e */
  ARG_HELP = 1 << 4,  /* --help */
  ARG_LIST = 1 << 5,  /* --list */
  ARG_NOENV = 1 << 6  /* -E: ignore environment variables */
};

/* Messages are prefixed with this, except inside the REPL: argv[0] once
** known, as lua does. */
static const char *progname = HOST_NAME;

/* The state the SIGINT handler interrupts. Static, so that it is also
** reachable (not a leak) when os.exit leaves without closing it. */
static lua_State *globalL = NULL;

/* ============================================================ messages */

static void msg_print(const char *pname, const char *msg)
{
  if (pname != NULL)
    fprintf(stderr, "%s: ", pname);
  fprintf(stderr, "%s\n", msg);
  fflush(stderr);
}

/* Print the error on top of the stack, if status says there is one. */
static int msg_report(lua_State *L, int status)
{
  if (status != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    if (msg == NULL)
      msg = "(error object is not a string)";
    msg_print(progname, msg);
    lua_pop(L, 1);
  }
  return status;
}

/* Message handler: append a traceback to the error, as lua.c does; an
** error object with __tostring gives its own message, without one. */
static int msg_handler(lua_State *L)
{
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
      return 1; /* an object that describes itself */
    msg = lua_pushfstring(L, "(error object is a %s value)",
                          luaL_typename(L, 1));
  }
  luaL_traceback(L, L, msg, 1);
  return 1;
}

static void msg_usage(const char *badoption)
{
  FILE *out = badoption != NULL ? stderr : stdout;
  if (badoption != NULL) {
    if (badoption[1] == 'e' || badoption[1] == 'l')
      fprintf(out, "%s: '%s' needs argument\n", progname, badoption);
    else
      fprintf(out, "%s: unrecognized option '%s'\n", progname, badoption);
  }
  fprintf(out,
    "usage: %s [options] [script [args]]\n"
    "       %s NAME [args]    run the standard script NAME\n"
    "Available options are:\n"
    "  -e stat   execute string 'stat'\n"
    "  -i        enter interactive mode after executing 'script'\n"
    "  -l mod    require library 'mod' into global 'mod'\n"
    "  -l g=mod  require library 'mod' into global 'g'\n"
    "  -v        show version information\n"
    "  -E        ignore environment variables\n"
    "  -W        turn warnings on\n"
    "  --list    list the standard scripts\n"
    "  --help    show this help\n"
    "  --        stop handling options\n"
    "  -         stop handling options and execute stdin\n"
    "The module is also the global 'rsxmesh'. See " HOST_NAME "(1).\n",
    progname, progname);
  fflush(out);
}

static void msg_version(void)
{
  printf("%s %s with %s\n", HOST_NAME, RSX_VERSION, LUA_COPYRIGHT);
  fflush(stdout);
}

/* ========================================================= interrupts */

/* Hook set by the signal handler: raise at the next Lua instruction. */
static void sig_stop(lua_State *L, lua_Debug *ar)
{
  (void)ar;
  lua_sethook(L, NULL, 0, 0);
  luaL_error(L, "interrupted!");
}

static void sig_set(int sig, void (*handler)(int))
{
  struct sigaction sa;
  sa.sa_handler = handler;
  sa.sa_flags = 0;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, NULL);
}

/* SIGINT while Lua runs: set a hook rather than stopping mid-write. A
** second SIGINT before the hook runs ends the process. */
static void sig_action(int sig)
{
  int flags = LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT;
  sig_set(sig, SIG_DFL);
  lua_sethook(globalL, sig_stop, flags, 1);
}

/* ============================================================= running */

/* Call the function below narg arguments, with the message handler and
** SIGINT caught. */
static int run_call(lua_State *L, int narg, int nres)
{
  int status;
  int base = lua_gettop(L) - narg;
  lua_pushcfunction(L, msg_handler);
  lua_insert(L, base);
  globalL = L;
  sig_set(SIGINT, sig_action);
  status = lua_pcall(L, narg, nres, base);
  sig_set(SIGINT, SIG_DFL);
  lua_remove(L, base);
  return status;
}

static int run_chunk(lua_State *L, int status)
{
  if (status == LUA_OK)
    status = run_call(L, 0, 0);
  return msg_report(L, status);
}

static int run_string(lua_State *L, const char *s, const char *name)
{
  return run_chunk(L, luaL_loadbuffer(L, s, strlen(s), name));
}

/* LUA_INIT_5_4, else LUA_INIT: a chunk, or @file, run before the options
** (not under -E), as lua does; its error ends the run. */
static int run_init(lua_State *L)
{
  const char *name = "=" HOST_INIT_VAR_VERSION;
  const char *init = getenv(name + 1);
  if (init == NULL) {
    name = "=" HOST_INIT_VAR;
    init = getenv(name + 1);
  }
  if (init == NULL)
    return LUA_OK;
  if (init[0] == '@')
    return run_chunk(L, luaL_loadfile(L, init + 1));
  return run_string(L, init, name);
}

/* -l mod or -l g=mod: global g (or mod) = require(mod). */
static int run_library(lua_State *L, const char *spec)
{
  int status;
  const char *eq = strchr(spec, '=');
  if (eq != NULL)
    lua_pushlstring(L, spec, (size_t)(eq - spec)); /* the global's name */
  else
    lua_pushstring(L, spec);
  lua_getglobal(L, "require");
  lua_pushstring(L, eq != NULL ? eq + 1 : spec);
  status = run_call(L, 1, 1);
  if (status == LUA_OK)
    lua_setglobal(L, lua_tostring(L, -2));
  msg_report(L, status);
  lua_pop(L, 1); /* the name */
  return status;
}

/* Push the script's arguments, arg[1..n], as its `...`. */
static int run_pushargs(lua_State *L)
{
  int i, n;
  if (lua_getglobal(L, "arg") != LUA_TTABLE)
    luaL_error(L, "'arg' is not a table");
  n = (int)luaL_len(L, -1);
  luaL_checkstack(L, n + 3, "too many arguments to script");
  for (i = 1; i <= n; i++)
    lua_rawgeti(L, -i, i);
  lua_remove(L, -i); /* the table */
  return n;
}

/* What a bundle and a folder are called in messages. */
static const char kind_bundle[] = "an RSXB bundle";
static const char kind_folder[] = "a folder";

/* Push the message for a data file given where the script goes: what it
** looks like, and for what info reads, the command that reads it. */
static void run_pushnotscript(lua_State *L, const char *path,
                              const char *kind)
{
  int readable = kind == kind_bundle || kind == kind_folder;
  lua_pushfstring(L, "%s is not a Lua script: it %s %s%s%s%s", path,
                  kind == kind_folder ? "is" : "looks like", kind,
                  readable ? "; did you mean: " HOST_NAME " info " : "",
                  readable ? path : "", readable ? "?" : "");
}

/* ===================================================== compiled copies */

/* The project's Lua files (the helpers, the standard scripts) are also
** kept compiled, so that a run does not parse them again (about 1 ms of
** obj-export's start): `make` writes BUILDDIR/luac/REL.luac for
** SRCDIR/REL, and `make install` FILE.luac beside each installed FILE
** (src/compile-lua.lua). A copy starts with a line "#rsxmesh-luac SIZE
** DIGEST", the size and FNV-1a digest of the text it was made from, then
** string.dump's bytes (with the text's chunk name and lines, so messages
** are the same). It is used only while its text is that text, and only
** when it loads; anything else (an edited file, another Lua's format)
** loads the text. */
#define LUAC_TAG "#rsxmesh-luac "

static int host_tree; /* set by host_setup: the build tree's host */

/* The rest of file after folder and a slash, or NULL. */
static const char *host_under(const char *file, const char *folder)
{
  size_t n = strlen(folder);
  return strncmp(file, folder, n) == 0 && file[n] == '/' ? file + n + 1
                                                          : NULL;
}

/* The size and FNV-1a digest of file's bytes; 0 when it cannot be read. */
static int luac_digest(const char *file, unsigned long long *size,
                       unsigned long long *digest)
{
  unsigned char buf[8192];
  unsigned long long h = 14695981039346656037ULL, n = 0;
  size_t got, i;
  FILE *f = fopen(file, "rb");
  if (f == NULL)
    return 0;
  while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
    for (i = 0; i < got; i++)
      h = (h ^ buf[i]) * 1099511628211ULL;
    n += got;
  }
  got = (size_t)ferror(f);
  fclose(f);
  *size = n;
  *digest = h;
  return got == 0;
}

/* The compiled copy of file, open past its first line, when there is one
** made from the file as it is now; else NULL. */
static FILE *luac_open(const char *file)
{
  char copy[PATH_MAX], line[80];
  unsigned long long n, digest, want_n, want;
  int len = -1;
  FILE *f;
#ifdef RSXMESH_SRCDIR
  const char *rest;
  if (host_tree && (rest = host_under(file, RSXMESH_SRCDIR)) != NULL)
    len = snprintf(copy, sizeof copy, "%s/luac/%sc", RSXMESH_BUILDDIR,
                   rest);
#endif
  if (!host_tree && (host_under(file, RSXMESH_LUADIR) != NULL ||
                     host_under(file, RSXMESH_SCRIPTDIR) != NULL))
    len = snprintf(copy, sizeof copy, "%sc", file);
  if (len < 0 || (size_t)len >= sizeof copy ||
      (f = fopen(copy, "rb")) == NULL)
    return NULL;
  if (fgets(line, sizeof line, f) != NULL &&
      sscanf(line, LUAC_TAG "%llu %llx", &want_n, &want) == 2 &&
      luac_digest(file, &n, &digest) && n == want_n && digest == want)
    return f;
  fclose(f);
  return NULL;
}

/* lua_load's reader of an open copy. */
typedef struct luac_reader {
  FILE *f;
  char buf[BUFSIZ];
} luac_reader;

static const char *luac_read(lua_State *L, void *ud, size_t *size)
{
  luac_reader *r = ud;
  (void)L;
  *size = fread(r->buf, 1, sizeof r->buf, r->f);
  return *size > 0 ? r->buf : NULL;
}

/* luaL_loadfile of one of the project's Lua files (or any file: only
** the project's have copies), from its compiled copy when it has one. */
static int host_loadfile(lua_State *L, const char *file)
{
  luac_reader r;
  if (file != NULL && (r.f = luac_open(file)) != NULL) {
    int status = lua_load(L, luac_read, &r, file, "b");
    fclose(r.f);
    if (status == LUA_OK)
      return LUA_OK;
    lua_pop(L, 1); /* a damaged copy, another Lua's format: the text */
  }
  return luaL_loadfilex(L, file, NULL);
}

/* What a file that Lua could not compile looks like, when it is no Lua
** text at all: "an RSXB bundle", "a PNG image", ... or NULL (Lua's own
** message then stands). Precompiled Lua, after an optional BOM and '#'
** line as luaL_loadfile skips them, keeps Lua's message too. */
static const char *run_data_kind(const char *path)
{
  unsigned char head[512];
  size_t n, i = 0;
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return NULL;
  n = fread(head, 1, sizeof head, f);
  fclose(f);
  if (n >= 8 && memcmp(head, "\x89PNG\r\n\x1a\n", 8) == 0)
    return "a PNG image";
  if (rsx_is_bundle(path))
    return kind_bundle;
  if (n >= 4 && memcmp(head, "glTF", 4) == 0)
    return "a binary glTF file";
  if (n >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0)
    i = 3;
  if (i < n && head[i] == '#')
    while (i < n && head[i++] != '\n') {}
  if (i < n && head[i] == LUA_SIGNATURE[0])
    return NULL;
  return memchr(head, '\0', n) != NULL ? "binary data" : NULL;
}

/* Run a file (NULL: stdin) with the arguments. */
static int run_script(lua_State *L, const char *path)
{
  int status = host_loadfile(L, path);
  const char *kind;
  if (status == LUA_ERRSYNTAX && path != NULL &&
      (kind = run_data_kind(path)) != NULL) {
    lua_pop(L, 1); /* Lua's "unexpected symbol near '<\137>'" */
    run_pushnotscript(L, path, kind);
  }
  if (status == LUA_OK) {
    int n = run_pushargs(L);
    status = run_call(L, n, 0);
  }
  return msg_report(L, status);
}

/* =================================================== standard scripts */

/* A script argument without a slash and without a dot names a standard
** script (a file of that name is run as ./NAME); anything else is a file,
** as for lua: missing.rsxb is a file that cannot be opened. */
static int std_is_name(const char *s)
{
#ifdef _WIN32 /* '\' and a drive letter ("C:x") make a path there too */
  if (strchr(s, '\\') != NULL || (s[0] != '\0' && s[1] == ':')) return 0;
#endif
  return s[0] != '\0' && s[0] != '-' && strpbrk(s, "/.") == NULL;
}

/* Push the path of standard scripts, as host_setup made it. */
static void std_pushpath(lua_State *L)
{
  lua_getfield(L, LUA_REGISTRYINDEX, HOST_PATH_KEY);
}

/* Push the file of standard script name and return 1, or push a message
** listing the places tried and return 0: the Lua helper rsxmesh.scripts
** finds it (package.searchpath's work), as it does for --list. */
static int std_find(lua_State *L, const char *name)
{
  struct stat st;
  int here = stat(name, &st) == 0 && S_ISREG(st.st_mode);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "rsxmesh.scripts");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "find");
  lua_remove(L, -2);
  lua_pushstring(L, name);
  std_pushpath(L);
  lua_call(L, 2, 2);
  if (!lua_isnil(L, -2)) {
    lua_pop(L, 1);
    return 1;
  }
  lua_pushfstring(L, "no standard script '%s'%s%s%s:\n\t%s", name,
                  here ? " (to run the file, write ./" : "",
                  here ? name : "", here ? ")" : "", lua_tostring(L, -1));
  lua_replace(L, -3);
  lua_pop(L, 1);
  return 0;
}

/* rsxmesh --list, and the list after the usage: the Lua helper
** rsxmesh.scripts writes it. Fails when there is nothing to list. */
static int std_list(lua_State *L, const char *indent)
{
  int status, n = 0, top = lua_gettop(L);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "rsxmesh.scripts");
  status = run_call(L, 1, 1);
  if (status == LUA_OK) {
    lua_getfield(L, -1, "list");
    std_pushpath(L);
    lua_pushstring(L, indent);
    status = run_call(L, 2, 1);
    n = (int)lua_tointeger(L, -1);
    if (status == LUA_OK && n == 0) {
      std_pushpath(L);
      lua_pushfstring(L, "no standard scripts in %s", lua_tostring(L, -1));
      status = LUA_ERRFILE;
    }
  }
  msg_report(L, status);
  lua_settop(L, top);
  return status == LUA_OK;
}

/* ========================================================= the paths */

/* 1 when this program is the one in the tree it was built in: it then
** uses that tree's scripts and helpers, never silently an installed copy.
** Its own file (Linux's /proc/self/exe) lies in the build folder, or in
** the .libs folder in it where libtool may keep it. */
static int host_in_build_tree(void)
{
#ifdef RSXMESH_BUILDDIR
  char self[PATH_MAX], build[PATH_MAX], *slash;
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0 || realpath(RSXMESH_BUILDDIR, build) == NULL)
    return 0;
  self[n] = '\0';
  if ((slash = strrchr(self, '/')) == NULL)
    return 0;
  *slash = '\0';
  if (strcmp(self, build) == 0)
    return 1;
  if ((slash = strrchr(self, '/')) == NULL || strcmp(slash, "/.libs") != 0)
    return 0;
  *slash = '\0';
  return strcmp(self, build) == 0;
#else
  return 0;
#endif
}

/* The searcher of the host's helpers, before Lua's own, so that
** package.path stays what LUA_PATH makes it: "rsxmesh.X" is looked for in
** the helpers' folder (upvalue 1, a path; upvalue 2, package.searchpath;
** upvalue 3, true in the build tree). In the build tree, missing there is
** an error, so that an installed copy later on package.path is never used
** silently; installed, the other searchers go on. Other names go on to
** the next searchers. */
static int host_search_helpers(lua_State *L)
{
  const char *name = luaL_checkstring(L, 1), *file;
  if (strncmp(name, "rsxmesh.", 8) != 0) return 0;
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_pushvalue(L, 1);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_call(L, 2, 2);
  if (lua_isnil(L, -2)) {
    if (!lua_toboolean(L, lua_upvalueindex(3)))
      return 1; /* the places tried, for require's message */
    return luaL_error(L, "module '%s' not found in the build tree (an "
                      "installed copy is not used from it):\n\t%s", name,
                      lua_tostring(L, -1));
  }
  file = lua_tostring(L, -2);
  if (host_loadfile(L, file) != LUA_OK)
    return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s",
                      name, file, lua_tostring(L, -1));
  lua_pushstring(L, file);
  return 2;
}

/* Put host_search_helpers, over path, second in package.searchers, after
** the preload searcher (the module itself is preloaded). */
static void host_add_searcher(lua_State *L, const char *path, int tree)
{
  lua_Integer i;
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "searchers");
  lua_pushstring(L, path);
  lua_getfield(L, -3, "searchpath");
  lua_pushboolean(L, tree);
  lua_pushcclosure(L, host_search_helpers, 3);
  for (i = (lua_Integer)lua_rawlen(L, -2); i >= 2; i--) {
    lua_rawgeti(L, -2, i);
    lua_rawseti(L, -3, i + 1);
  }
  lua_rawseti(L, -2, 2);
  lua_pop(L, 2);
}

/* The module through package.preload (linit.c's recipe); the project's
** Lua helpers, and the path of standard scripts (in the registry), from
** the build tree or the install folders; RSXMESH_PATH unless -E. */
static void host_setup(lua_State *L, int noenv)
{
  const char *scripts = RSXMESH_SCRIPTDIR "/?.lua";
  const char *env = noenv ? NULL : getenv(HOST_PATH_VAR);
#ifdef _WIN32
  scripts = rsx_win_script_path(); /* beside the program: src/win32.c */
#endif
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_rsxmesh);
  lua_setfield(L, -2, "rsxmesh");
  lua_pop(L, 1);
#ifdef RSXMESH_SRCDIR
  if ((host_tree = host_in_build_tree())) {
    scripts = RSXMESH_SRCDIR "/scripts/?.lua";
    host_add_searcher(L, RSXMESH_SRCDIR "/lua/?.lua;"
                      RSXMESH_SRCDIR "/lua/?/init.lua", 1);
  } else
#endif
    host_add_searcher(L, RSXMESH_LUADIR "/?.lua;"
                      RSXMESH_LUADIR "/?/init.lua", 0);
  if (env == NULL)
    lua_pushstring(L, scripts);
  else {
    luaL_gsub(L, env, ";;", lua_pushfstring(L, ";%s;", scripts));
    lua_remove(L, -2);
  }
  lua_setfield(L, LUA_REGISTRYINDEX, HOST_PATH_KEY);
}

/* =============================================================== REPL */

/* Write prompt, then push a line of stdin without its newline; 0 at end
** of input. The one place the REPL reads: readline when built with it,
** as lua.c (which echoes a line read from a pipe, as lua does), else
** through a luaL_Buffer (no line length limit, no leak). */
#ifdef RSXMESH_USE_READLINE
static int repl_readline(lua_State *L, const char *prompt)
{
  char *line;
  rl_readline_name = "rsxmesh"; /* for ~/.inputrc's $if */
  line = readline(prompt);
  if (line == NULL)
    return 0;
  if (line[0] != '\0')
    add_history(line);
  lua_pushstring(L, line);
  free(line);
  return 1;
}
#else
static int repl_readline(lua_State *L, const char *prompt)
{
  luaL_Buffer b;
  int c;
  size_t n = 0;
  fputs(prompt, stdout);
  fflush(stdout);
  luaL_buffinit(L, &b);
  while ((c = getchar()) != EOF && c != '\n') {
    luaL_addchar(&b, (char)c);
    n++;
  }
  luaL_pushresult(&b);
  if (c == EOF && n == 0) {
    lua_pop(L, 1);
    return 0;
  }
  return 1;
}
#endif

/* Push the prompt: _PROMPT (or _PROMPT2 within a chunk) through
** tostring, so that a table with __tostring may be one, or the default. */
static const char *repl_pushprompt(lua_State *L, int firstline)
{
  if (lua_getglobal(L, firstline ? "_PROMPT" : "_PROMPT2") == LUA_TNIL) {
    lua_pop(L, 1);
    return lua_pushstring(L, firstline ? HOST_PROMPT : HOST_PROMPT2);
  }
  luaL_tolstring(L, -1, NULL);
  lua_remove(L, -2);
  return lua_tostring(L, -1);
}

/* Push a line read after the prompt; 0 at end of input. A first line
** "=expr" is "return expr", as lua 5.4 still takes it. */
static int repl_pushline(lua_State *L, int firstline)
{
  int got = repl_readline(L, repl_pushprompt(L, firstline));
  lua_remove(L, got ? -2 : -1); /* the prompt */
  if (got && firstline && lua_tostring(L, -1)[0] == '=') {
    lua_pushfstring(L, "return %s", lua_tostring(L, -1) + 1);
    lua_remove(L, -2);
  }
  return got;
}

/* Try the line as "return <line>;", so expressions print their values. */
static int repl_addreturn(lua_State *L)
{
  const char *line = lua_tostring(L, -1);
  const char *retline = lua_pushfstring(L, "return %s;", line);
  int status = luaL_loadbuffer(L, retline, strlen(retline), "=stdin");
  if (status == LUA_OK)
    lua_remove(L, -2); /* the modified line */
  else
    lua_pop(L, 2); /* the error and the modified line */
  return status;
}

/* A syntax error at <eof> means the chunk goes on: ask for more. */
static int repl_incomplete(lua_State *L, int status)
{
  if (status == LUA_ERRSYNTAX) {
    size_t lmsg;
    const char *msg = lua_tolstring(L, -1, &lmsg);
    size_t lmark = sizeof "<eof>" - 1;
    if (lmsg >= lmark && strcmp(msg + lmsg - lmark, "<eof>") == 0)
      return 1;
  }
  return 0;
}

/* Read lines until they make a complete chunk, or an error that more
** lines cannot mend (end of input included). */
static int repl_multiline(lua_State *L)
{
  for (;;) {
    size_t len;
    const char *line = lua_tolstring(L, 1, &len);
    int status = luaL_loadbuffer(L, line, len, "=stdin");
    if (!repl_incomplete(L, status) || !repl_pushline(L, 0))
      return status;
    lua_remove(L, -2); /* the <eof> error */
    lua_pushliteral(L, "\n");
    lua_insert(L, -2);
    lua_concat(L, 3); /* line, "\n", next line */
  }
}

/* Leave a compiled chunk (or an error) on the stack; -1 at end of input. */
static int repl_loadline(lua_State *L)
{
  int status;
  lua_settop(L, 0);
  if (!repl_pushline(L, 1))
    return -1;
  if ((status = repl_addreturn(L)) != LUA_OK)
    status = repl_multiline(L);
  lua_remove(L, 1); /* the line */
  return status;
}

/* Print what the chunk returned, with the global print. */
static void repl_print(lua_State *L)
{
  int n = lua_gettop(L);
  if (n > 0) {
    luaL_checkstack(L, LUA_MINSTACK, "too many results to print");
    lua_getglobal(L, "print");
    lua_insert(L, 1);
    if (lua_pcall(L, n, 0, 0) != LUA_OK)
      msg_print(progname, lua_pushfstring(L, "error calling 'print' (%s)",
                                          lua_tostring(L, -1)));
  }
}

static void repl_run(lua_State *L)
{
  int status;
  const char *oldprogname = progname;
  progname = NULL; /* messages at the prompt need no program name */
  while ((status = repl_loadline(L)) != -1) {
    if (status == LUA_OK)
      status = run_call(L, 0, LUA_MULTRET);
    if (status == LUA_OK)
      repl_print(L);
    else
      msg_report(L, status);
  }
  lua_settop(L, 0);
  fputs("\n", stdout);
  fflush(stdout);
  progname = oldprogname;
}

/* ========================================================== arguments */

/* Check the options; nothing runs yet. *first becomes the index of the
** script argument (0: none), or of the bad option. */
static int args_collect(char **argv, int *first)
{
  int args = 0, i;
  *first = 0;
  for (i = 1; argv[i] != NULL; i++) {
    *first = i;
    if (argv[i][0] != '-')
      return args; /* the script */
    switch (argv[i][1]) {
    case '-':
      if (argv[i][2] == '\0') { /* "--" */
        *first = argv[i + 1] != NULL ? i + 1 : 0;
        return args;
      }
      if (strcmp(argv[i], "--help") == 0)
        return args | ARG_HELP;
      if (strcmp(argv[i], "--list") == 0)
        return args | ARG_LIST;
      return ARG_ERROR;
    case '\0': /* "-": the script is stdin */
      return args;
    case 'E':
      if (argv[i][2] != '\0')
        return ARG_ERROR;
      args |= ARG_NOENV;
      break;
    case 'W': /* run in order by args_run */
      if (argv[i][2] != '\0')
        return ARG_ERROR;
      break;
    case 'i':
      args |= ARG_I; /* -i implies -v */
      /* fall through */
    case 'v':
      if (argv[i][2] != '\0')
        return ARG_ERROR;
      args |= ARG_V;
      break;
    case 'e':
      args |= ARG_E;
      /* fall through */
    case 'l': /* both take an argument, joined or next */
      if (argv[i][2] == '\0') {
        i++;
        if (argv[i] == NULL || argv[i][0] == '-')
          return ARG_ERROR;
      }
      break;
    default:
      return ARG_ERROR;
    }
  }
  *first = 0;
  return args;
}

/* Run -e, -l and -W in command-line order, up to the script (n). */
static int args_run(lua_State *L, char **argv, int n)
{
  int i;
  for (i = 1; i < n; i++) {
    int option = argv[i][1];
    if (argv[i][0] == '-' && option == 'W')
      lua_warning(L, "@on", 0); /* warnings on */
    if (argv[i][0] == '-' && (option == 'e' || option == 'l')) {
      const char *extra = argv[i] + 2;
      int status;
      if (*extra == '\0')
        extra = argv[++i];
      status = option == 'e' ? run_string(L, extra, "=(command line)")
                             : run_library(L, extra);
      if (status != LUA_OK)
        return 0;
    }
  }
  return 1;
}

/* The global arg, as lua sets it: arg[0] the script, the options before
** it at negative indices, the script's arguments from 1. */
static void args_table(lua_State *L, char **argv, int argc, int script)
{
  int i;
  lua_createtable(L, argc - (script + 1) > 0 ? argc - (script + 1) : 0,
                  script + 1);
  for (i = 0; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i - script);
  }
  lua_setglobal(L, "arg");
}

/* What the first argument after the options is. */
enum { SCRIPT_NONE, SCRIPT_STDIN, SCRIPT_FILE, SCRIPT_DATA, SCRIPT_MISSING };

/* kind_bundle or kind_folder when path is one, else NULL. Neither can be a Lua
** script (a chunk cannot start with a bundle's first bytes: see
** rsx_is_bundle), so where the script would go they start the arguments
** instead: rsxmesh -e CODE X.rsxb gives arg[1] = X.rsxb. */
static const char *args_data_kind(const char *path)
{
  struct stat st;
  if (stat(path, &st) != 0)
    return NULL;
  if (S_ISDIR(st.st_mode))
    return kind_folder;
  return rsx_is_bundle(path) ? kind_bundle : NULL;
}

/* Resolve argv[script]: "-" is stdin, NAME a standard script (unless
** there is none and NAME is a bundle or folder), a bundle or folder the
** first argument, anything else a file. Leaves the script's path on the
** stack for SCRIPT_FILE, a message for SCRIPT_MISSING; *data says what
** SCRIPT_DATA is. */
static int args_resolve(lua_State *L, char **argv, int script,
                        const char **data)
{
  const char *a = argv[script];
  if (strcmp(a, "-") == 0 && strcmp(argv[script - 1], "--") != 0)
    return SCRIPT_STDIN;
  if (std_is_name(a)) {
    if (std_find(L, a))
      return SCRIPT_FILE;
    if ((*data = args_data_kind(a)) == NULL)
      return SCRIPT_MISSING;
    lua_pop(L, 1);
    return SCRIPT_DATA;
  }
  if ((*data = args_data_kind(a)) != NULL)
    return SCRIPT_DATA;
  lua_pushstring(L, a);
  return SCRIPT_FILE;
}

/* ================================================================ host */

/* The global rsxmesh = require "rsxmesh", for every chunk the host runs,
** as lua -l rsxmesh would make it; rsxmesh.program is the host's name as
** run (progname), which the scripts' usage lines show (rsxmesh.cli). */
static int host_global(lua_State *L)
{
  int status;
  lua_getglobal(L, "require");
  lua_pushliteral(L, "rsxmesh");
  status = run_call(L, 1, 1);
  if (status == LUA_OK) {
    lua_pushstring(L, progname);
    lua_setfield(L, -2, "program");
    lua_setglobal(L, "rsxmesh");
  }
  return msg_report(L, status);
}

/* --list, or --help: the usage, then the list. */
static int host_list(lua_State *L, int with_usage)
{
  if (with_usage) {
    msg_usage(NULL);
    std_pushpath(L);
    printf("\nStandard scripts (%s):\n", lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  return std_list(L, with_usage ? "  " : "");
}

/* Resolve the script argument and make the global arg; returns its kind,
** or -1 after reporting why nothing can run. For SCRIPT_FILE, the file's
** path is left at the top of the stack. */
static int host_script(lua_State *L, char **argv, int argc, int script,
                       int args)
{
  const char *data = NULL;
  int kind = script > 0 ? args_resolve(L, argv, script, &data)
                        : SCRIPT_NONE;
  if (kind == SCRIPT_MISSING) {
    msg_report(L, LUA_ERRFILE);
    return -1;
  }
  if (kind == SCRIPT_DATA && !(args & (ARG_E | ARG_I))) {
    run_pushnotscript(L, argv[script], data);
    msg_report(L, LUA_ERRFILE);
    return -1;
  }
  args_table(L, argv, argc, kind == SCRIPT_DATA ? script - 1 : script);
  if (kind == SCRIPT_FILE) { /* a standard script's arg[0] is its path */
    lua_getglobal(L, "arg");
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, 0);
    lua_pop(L, 1);
  }
  return kind;
}

/* Everything, in protected mode, as lua.c's pmain: returns true on
** success. */
static int host_main(lua_State *L)
{
  int argc = (int)lua_tointeger(L, 1);
  char **argv = (char **)lua_touserdata(L, 2);
  int script = 0, args = 0, kind, path;
  luaL_checkversion(L);
  if (argv[0] != NULL && argv[0][0] != '\0')
    progname = argv[0];
#ifdef _WIN32 /* "rsxmesh", not the C:\...\rsxmesh.exe Windows may give */
  progname = rsx_win_progname(progname);
#endif
  if (argc >= 2)
    args = args_collect(argv, &script);
  if (args & ARG_ERROR) {
    msg_usage(argv[script]);
    return 0;
  }
  if (args & ARG_V)
    msg_version();
  if (args & ARG_NOENV) { /* read by the package library as it opens */
    lua_pushboolean(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
  }
  luaL_openlibs(L);
  host_setup(L, args & ARG_NOENV);
  if (args & (ARG_HELP | ARG_LIST)) {
    lua_pushboolean(L, host_list(L, args & ARG_HELP));
    return 1;
  }
  if ((kind = host_script(L, argv, argc, script, args)) < 0)
    return 0;
  path = lua_gettop(L); /* the file, for SCRIPT_FILE */
  lua_gc(L, LUA_GCRESTART);
  lua_gc(L, LUA_GCGEN, 0, 0);
  if (host_global(L) != LUA_OK)
    return 0;
  if (!(args & ARG_NOENV) && run_init(L) != LUA_OK)
    return 0;
  if (!args_run(L, argv, script > 0 ? script : argc))
    return 0;
  if (kind == SCRIPT_FILE && run_script(L, lua_tostring(L, path)) != LUA_OK)
    return 0;
  if (kind == SCRIPT_STDIN && run_script(L, NULL) != LUA_OK)
    return 0;
  if (args & ARG_I)
    repl_run(L);
  else if (kind == SCRIPT_NONE && !(args & (ARG_E | ARG_V))) {
    if (isatty(STDIN_FILENO)) { /* as lua: the version, then a prompt */
      msg_version();
      printf("'%s --help' for the options, '%s --list' for the standard "
             "scripts.\n", HOST_NAME, HOST_NAME);
      repl_run(L);
    } else if (run_script(L, NULL) != LUA_OK) /* stdin, as a file */
      return 0;
  }
  lua_pushboolean(L, 1);
  return 1;
}

int main(int argc, char **argv)
{
  int status, result;
  lua_State *L;
#ifdef _WIN32
  rsx_win_start(&argc, &argv); /* UTF-8 arguments, binary stdio: win32.c */
#endif
  L = luaL_newstate();
  if (L == NULL) {
    msg_print(argv[0] != NULL && argv[0][0] != '\0' ? argv[0] : HOST_NAME,
              "cannot create state: not enough memory");
    return EXIT_FAILURE;
  }
  globalL = L;
  lua_gc(L, LUA_GCSTOP); /* no collection while the state is built */
  lua_pushcfunction(L, host_main);
  lua_pushinteger(L, argc);
  lua_pushlightuserdata(L, argv);
  status = lua_pcall(L, 2, 1, 0);
  result = lua_toboolean(L, -1);
  msg_report(L, status);
  lua_close(L);
  return (result && status == LUA_OK) ? EXIT_SUCCESS : EXIT_FAILURE;
}
