/* pool.c - a pool of worker processes that take jobs one line at a time
** (see pool.h). One loop for both systems; what differs is how a worker
** starts, how a pipe is read without blocking and how a worker ends. */
#ifndef _WIN32
#define _POSIX_C_SOURCE 200809L
#endif

#include "pool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <windows.h>
#include "win32.h" /* rsx_win_console_events, rsx_win_errno_of */
typedef HANDLE pool_fd;
#define NO_FD NULL
#else
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
typedef int pool_fd;
#define NO_FD (-1)
extern char **environ;
#endif

#define CHANNEL_VAR "RSXMESH_POOL_CHANNEL"
/* The channel's number in a POSIX worker: after stdin, stdout, stderr. */
#define CHANNEL_FD 3

typedef struct buffer {
  char *data;
  size_t size, cap;
} buffer;

typedef struct job {
  char *line;
  double size;
  size_t number;
  int done;
  buffer out, err, report;
  int has_report, status;
  char *problem;      /* why its channel failed it, or NULL */
} job;

/* What a worker's pipes carry, in pool_read's order. */
enum { PIPE_OUT, PIPE_ERR, PIPE_CHAN, PIPE_COUNT };

typedef struct worker {
#ifdef _WIN32
  HANDLE process;
#else
  pid_t pid;
#endif
  pool_fd in, pipe[PIPE_COUNT];
  int live, ready;
  job *job;           /* the job it is on; NULL before its first report */
  buffer seg[2];      /* stdout and stderr since its last report */
  rsx_channel chan;   /* its reports, as they come */
} worker;

struct rsx_pool {
  char **argv;
  int workers;
  worker *w;
  job *jobs;
  size_t count, cap;
  job **start;        /* jobs in the order they start */
  size_t started, returned, done;
  int running;
  int holding;        /* in rsx_pool_next, SIGINT held (POSIX) */
#ifdef _WIN32
  long events_seen;   /* the console's Control-C count the pool has seen */
#else
  sigset_t unheld;    /* the signal mask before, which workers get */
#endif
};

/* ----------------------------------------------------------- buffers */

static int buf_add(buffer *b, const char *data, size_t n)
{
  if (n == 0) return 0;
  if (b->size + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    char *d;
    while (cap < b->size + n) cap *= 2;
    d = realloc(b->data, cap);
    if (d == NULL) return -1;
    b->data = d;
    b->cap = cap;
  }
  memcpy(b->data + b->size, data, n);
  b->size += n;
  return 0;
}

static void buf_free(buffer *b)
{
  free(b->data);
  b->data = NULL;
  b->size = b->cap = 0;
}

/* ------------------------------------------------------------ channel */

/* The digits of a report's size: RSX_POOL_REPORT_MAX has 10. */
#define SIZE_DIGITS 10

/* The n bytes at s (at most 12; out holds 64), quoted for a message:
** printable ASCII as it is, the rest escaped. */
static const char *quote_bytes(char *out, const char *s, size_t n)
{
  size_t i, k = 0;
  out[k++] = '\'';
  for (i = 0; i < n && i < 12; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '\n') {
      out[k++] = '\\';
      out[k++] = 'n';
    } else if (ch < 32 || ch > 126 || ch == '\'' || ch == '\\') {
      snprintf(out + k, 5, "\\x%02x", ch);
      k += 4;
    } else {
      out[k++] = (char)ch;
    }
  }
  out[k++] = '\'';
  out[k] = '\0';
  return out;
}

int rsx_channel_add(rsx_channel *c, const void *bytes, size_t n,
                    rsx_error *err)
{
  if (n == 0) return 0;
  if (c->start > 0) { /* drop the reports read */
    memmove(c->data, c->data + c->start, c->size - c->start);
    c->offset += c->start;
    c->size -= c->start;
    c->start = 0;
  }
  if (n > c->cap - c->size) {
    size_t cap = c->cap ? c->cap : 256;
    char *d;
    if (n > (size_t)-1 / 2 - c->size)
      return rsx_fail(err, "pool: out of memory");
    while (cap - c->size < n) cap *= 2;
    d = realloc(c->data, cap);
    if (d == NULL) return rsx_fail(err, "pool: out of memory");
    c->data = d;
    c->cap = cap;
  }
  memcpy(c->data + c->size, bytes, n);
  c->size += n;
  return 0;
}

int rsx_channel_next(rsx_channel *c, const char **report, size_t *size,
                     rsx_error *err)
{
  const char *s;
  size_t n = c->size - c->start, digits = 0;
  unsigned long long value = 0, at = c->offset + c->start;
  char q[64];
  if (n == 0) return 0; /* and data may be NULL */
  s = c->data + c->start;
  while (digits < n && digits <= SIZE_DIGITS &&
         s[digits] >= '0' && s[digits] <= '9')
    value = 10 * value + (unsigned long long)(s[digits++] - '0');
  /* each message quotes the bytes that decided it, and no more: they
  ** are the same however the bytes came */
  if (digits == 0)
    return rsx_fail(err, "channel byte %llu: %s where a report's size (in "
                    "decimal) should start", at, quote_bytes(q, s, 1));
  if (digits > SIZE_DIGITS)
    return rsx_fail(err, "channel byte %llu: a report's size of more than "
                    "%d digits (%s)", at, SIZE_DIGITS,
                    quote_bytes(q, s, digits));
  if (digits == n) return 0; /* the size goes on, or its newline comes */
  if (s[digits] != '\n')
    return rsx_fail(err, "channel byte %llu: %s after a report's size, "
                    "where its newline should be", at + digits,
                    quote_bytes(q, s + digits, 1));
  if (value > RSX_POOL_REPORT_MAX)
    return rsx_fail(err, "channel byte %llu: a report of %llu bytes, over "
                    "the limit of %lu", at, value,
                    (unsigned long)RSX_POOL_REPORT_MAX);
  if (n - digits - 1 < value) return 0;
  *report = s + digits + 1;
  *size = (size_t)value;
  c->start += digits + 1 + (size_t)value;
  return 1;
}

int rsx_channel_end(const rsx_channel *c, rsx_error *err)
{
  const char *s, *nl;
  size_t n = c->size - c->start;
  unsigned long long at = c->offset + c->start;
  char q[64];
  if (n == 0) return 0; /* and data may be NULL */
  s = c->data + c->start;
  nl = memchr(s, '\n', n);
  if (nl == NULL)
    return rsx_fail(err, "channel byte %llu: the channel ended inside a "
                    "report's size (%s)", at, quote_bytes(q, s, n));
  return rsx_fail(err, "channel byte %llu: the channel ended after %lu of "
                  "the report's %.*s bytes", at,
                  (unsigned long)(n - (size_t)(nl - s) - 1), (int)(nl - s),
                  s);
}

void rsx_channel_free(rsx_channel *c)
{
  free(c->data);
  memset(c, 0, sizeof *c);
}

/* --------------------------------------------------------------- pool */

rsx_pool *rsx_pool_new(const char *const *argv, int workers, rsx_error *err)
{
  rsx_pool *p;
  size_t n = 0, i;
  if (argv == NULL || argv[0] == NULL) {
    rsx_fail(err, "pool: no command");
    return NULL;
  }
  if (workers < 1) {
    rsx_fail(err, "pool: %d workers (expected at least 1)", workers);
    return NULL;
  }
  while (argv[n] != NULL) n++;
  p = calloc(1, sizeof *p);
  if (p == NULL) goto nomem;
  p->workers = workers;
  p->argv = calloc(n + 1, sizeof *p->argv);
  p->w = calloc((size_t)workers, sizeof *p->w);
  if (p->argv == NULL || p->w == NULL) goto nomem;
  for (i = 0; i < n; i++) {
    p->argv[i] = malloc(strlen(argv[i]) + 1);
    if (p->argv[i] == NULL) goto nomem;
    strcpy(p->argv[i], argv[i]);
  }
#ifdef _WIN32
  p->events_seen = rsx_win_console_events(); /* earlier ones are not its */
#endif
  return p;
nomem:
  rsx_pool_free(p);
  rsx_fail(err, "pool: out of memory");
  return NULL;
}

int rsx_pool_add(rsx_pool *p, const char *line, double size, rsx_error *err)
{
  job *j;
  if (p->running) return rsx_fail(err, "pool: the jobs have started");
  if (strchr(line, '\n') != NULL)
    return rsx_fail(err, "pool: a job line with a newline");
  if (p->count == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 16;
    job *jobs = realloc(p->jobs, cap * sizeof *jobs);
    if (jobs == NULL) return rsx_fail(err, "pool: out of memory");
    p->jobs = jobs;
    p->cap = cap;
  }
  j = &p->jobs[p->count];
  memset(j, 0, sizeof *j);
  j->line = malloc(strlen(line) + 1);
  if (j->line == NULL) return rsx_fail(err, "pool: out of memory");
  strcpy(j->line, line);
  j->size = size;
  j->number = ++p->count;
  return 0;
}

size_t rsx_pool_done(const rsx_pool *p)
{
  return p->done;
}

/* Larger first, then in the order added. */
static int by_size(const void *a, const void *b)
{
  const job *x = *(job *const *)a, *y = *(job *const *)b;
  if (x->size != y->size) return x->size > y->size ? -1 : 1;
  return x->number < y->number ? -1 : x->number > y->number;
}

/* ---------------------------------------------- the system's own parts */

#ifdef _WIN32

/* argv as one command line that CommandLineToArgvW (and the C runtime)
** splits back: each argument in quotes, a quote and the backslashes
** before it (or before the closing quote) doubled. */
static char *command_line(char **argv)
{
  buffer b = { 0 };
  int i;
  for (i = 0; argv[i] != NULL; i++) {
    const char *s = argv[i];
    size_t slashes = 0;
    if (i > 0 && buf_add(&b, " ", 1) != 0) goto nomem;
    if (buf_add(&b, "\"", 1) != 0) goto nomem;
    for (; *s; s++) {
      if (*s == '\\') {
        slashes++;
      } else {
        size_t k, extra = *s == '"' ? slashes + 1 : 0;
        for (k = 0; k < extra; k++)
          if (buf_add(&b, "\\", 1) != 0) goto nomem;
        slashes = 0;
      }
      if (buf_add(&b, s, 1) != 0) goto nomem;
    }
    while (slashes-- > 0)
      if (buf_add(&b, "\\", 1) != 0) goto nomem;
    if (buf_add(&b, "\"", 1) != 0) goto nomem;
  }
  if (buf_add(&b, "", 1) != 0) goto nomem;
  return b.data;
nomem:
  buf_free(&b);
  return NULL;
}

static wchar_t *wide(const char *s)
{
  int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
  wchar_t *w;
  if (n <= 0) return NULL;
  w = malloc((size_t)n * sizeof *w);
  if (w != NULL && MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n) <= 0) {
    free(w);
    w = NULL;
  }
  return w;
}

static void close_fd(pool_fd *h)
{
  if (*h != NO_FD) CloseHandle(*h);
  *h = NO_FD;
}

/* Start worker w: its stdin, stdout, stderr and channel are pipes, the
** channel's handle in its environment. */
static int start_worker(rsx_pool *p, worker *w, rsx_error *err)
{
  SECURITY_ATTRIBUTES sa = { sizeof sa, NULL, TRUE };
  HANDLE child[4] = { NULL, NULL, NULL, NULL }; /* in, out, err, chan */
  STARTUPINFOW si;
  PROCESS_INFORMATION pi;
  wchar_t *cmd = NULL;
  char value[32];
  char *line = NULL;
  int k, ok;
  memset(w, 0, sizeof *w);
  /* the child's ends inheritable, the pool's not */
  if (!CreatePipe(&child[0], &w->in, &sa, 0)) goto fail;
  SetHandleInformation(w->in, HANDLE_FLAG_INHERIT, 0);
  for (k = 0; k < PIPE_COUNT; k++) {
    if (!CreatePipe(&w->pipe[k], &child[k + 1], &sa, 0)) goto fail;
    SetHandleInformation(w->pipe[k], HANDLE_FLAG_INHERIT, 0);
  }
  line = command_line(p->argv);
  cmd = line ? wide(line) : NULL;
  if (cmd == NULL) goto fail;
  snprintf(value, sizeof value, "%llu",
           (unsigned long long)(uintptr_t)child[3]);
  SetEnvironmentVariableA(CHANNEL_VAR, value);
  memset(&si, 0, sizeof si);
  si.cb = sizeof si;
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = child[0];
  si.hStdOutput = child[1];
  si.hStdError = child[2];
  ok = CreateProcessW(NULL, cmd, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi);
  SetEnvironmentVariableA(CHANNEL_VAR, NULL);
  if (!ok) goto fail;
  CloseHandle(pi.hThread);
  w->process = pi.hProcess;
  for (k = 0; k < 4; k++) CloseHandle(child[k]);
  free(cmd);
  free(line);
  w->live = 1;
  return 0;
fail:
  rsx_fail(err, "pool: cannot start %s: %s", p->argv[0],
           strerror(rsx_win_errno_of(GetLastError())));
  for (k = 0; k < 4; k++)
    if (child[k]) CloseHandle(child[k]);
  close_fd(&w->in);
  for (k = 0; k < PIPE_COUNT; k++) close_fd(&w->pipe[k]);
  free(cmd);
  free(line);
  return -1;
}

static int write_line(pool_fd fd, const char *s, size_t n)
{
  while (n > 0) {
    DWORD k;
    if (!WriteFile(fd, s, (DWORD)(n > 65536 ? 65536 : n), &k, NULL))
      return -1;
    s += k;
    n -= k;
  }
  return 0;
}

/* Read what pipe fd has now (wait: block for some): 1 with *n bytes
** (0: nothing yet), 0 at its end, -1 on an error. */
static int read_some(pool_fd fd, char *buf, size_t cap, size_t *n, int wait)
{
  DWORD avail = 0, k = 0;
  *n = 0;
  if (!wait) {
    if (!PeekNamedPipe(fd, NULL, 0, NULL, &avail, NULL))
      return GetLastError() == ERROR_BROKEN_PIPE ? 0 : -1;
    if (avail == 0) return 1;
  }
  if (!ReadFile(fd, buf, (DWORD)cap, &k, NULL))
    return GetLastError() == ERROR_BROKEN_PIPE ? 0 : -1;
  if (k == 0 && wait) return 0;
  *n = k;
  return 1;
}

/* The worker's exit status, once it has ended. */
static int wait_worker(worker *w)
{
  DWORD code = 1;
  WaitForSingleObject(w->process, INFINITE);
  GetExitCodeProcess(w->process, &code);
  CloseHandle(w->process);
  w->process = NULL;
  return (int)code;
}

static void interrupt_worker(worker *w)
{
  (void)w; /* no SIGINT to send: its stdin ends, and its job finishes */
}

static void kill_worker(worker *w)
{
  if (w->process != NULL) TerminateProcess(w->process, 1);
}

/* Wait until some pipe of a live worker (of only, when not NULL) may have
** bytes: Windows has no poll for anonymous pipes, so look every few
** milliseconds; a Control-C (win32.c counts them) cuts the wait short,
** as SIGINT cuts poll short elsewhere. */
static int wait_pipes(rsx_pool *p, const worker *only)
{
  int i, k;
  for (;;) {
    /* a Control-C since the pool last saw one: one that came while it
    ** read its pipes counts too (else p:next would go on feeding the
    ** workers until the job it waits for is done) */
    long events = rsx_win_console_events();
    if (events != p->events_seen) {
      p->events_seen = events;
      return RSX_POOL_INTERRUPTED;
    }
    for (i = 0; i < p->workers; i++) {
      worker *w = &p->w[i];
      if (!w->live || (only != NULL && w != only)) continue;
      for (k = 0; k < PIPE_COUNT; k++) {
        DWORD avail = 0;
        if (w->pipe[k] == NO_FD) continue;
        if (!PeekNamedPipe(w->pipe[k], NULL, 0, NULL, &avail, NULL) ||
            avail > 0)
          return 0;
      }
    }
    Sleep(2);
  }
}

#else /* POSIX */

static void close_fd(pool_fd *fd)
{
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

/* A pipe whose ends are close-on-exec and above the channel's number, so
** that no worker inherits another's pipes and dup2 onto 0..3 always
** makes a new descriptor. */
static int make_pipe(int fds[2])
{
  int raw[2], k;
  if (pipe(raw) != 0) return -1;
  for (k = 0; k < 2; k++) {
    fds[k] = fcntl(raw[k], F_DUPFD_CLOEXEC, CHANNEL_FD + 1);
    close(raw[k]);
  }
  if (fds[0] < 0 || fds[1] < 0) {
    if (fds[0] >= 0) close(fds[0]);
    if (fds[1] >= 0) close(fds[1]);
    return -1;
  }
  return 0;
}

/* environ with CHANNEL_VAR=3 in place of any earlier one. */
static char **worker_environment(void)
{
  static char channel[] = CHANNEL_VAR "=3";
  size_t n = 0, k = 0, i;
  char **env;
  while (environ[n] != NULL) n++;
  env = malloc((n + 2) * sizeof *env);
  if (env == NULL) return NULL;
  for (i = 0; i < n; i++)
    if (strncmp(environ[i], CHANNEL_VAR "=", sizeof CHANNEL_VAR) != 0)
      env[k++] = environ[i];
  env[k++] = channel;
  env[k] = NULL;
  return env;
}

static int start_worker(rsx_pool *p, worker *w, rsx_error *err)
{
  int in[2] = { -1, -1 }, pipes[PIPE_COUNT][2], k, e = 0, made = 0;
  int attr_made = 0;
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  char **env = NULL;
  memset(w, 0, sizeof *w);
  w->in = -1;
  for (k = 0; k < PIPE_COUNT; k++) w->pipe[k] = pipes[k][0] = pipes[k][1] = -1;
  if (make_pipe(in) != 0) goto fail;
  for (k = 0; k < PIPE_COUNT; k++)
    if (make_pipe(pipes[k]) != 0) goto fail;
  env = worker_environment();
  if (env == NULL) goto fail;
  if ((e = posix_spawn_file_actions_init(&fa)) != 0) goto fail;
  made = 1;
  if ((e = posix_spawn_file_actions_adddup2(&fa, in[0], 0)) != 0 ||
      (e = posix_spawn_file_actions_adddup2(&fa, pipes[PIPE_OUT][1], 1)) != 0 ||
      (e = posix_spawn_file_actions_adddup2(&fa, pipes[PIPE_ERR][1], 2)) != 0 ||
      (e = posix_spawn_file_actions_adddup2(&fa, pipes[PIPE_CHAN][1],
                                            CHANNEL_FD)) != 0)
    goto fail;
  if (p->holding) {
    /* a worker would inherit the held SIGINT, blocked for good: a
    ** Control-C would not reach it, and it would finish its input */
    if ((e = posix_spawnattr_init(&attr)) != 0) goto fail;
    attr_made = 1;
    if ((e = posix_spawnattr_setsigmask(&attr, &p->unheld)) != 0 ||
        (e = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK)) != 0)
      goto fail;
  }
  e = posix_spawnp(&w->pid, p->argv[0], &fa, attr_made ? &attr : NULL,
                   p->argv, env);
  if (e != 0) goto fail;
  posix_spawn_file_actions_destroy(&fa);
  if (attr_made) posix_spawnattr_destroy(&attr);
  free(env);
  close(in[0]);
  w->in = in[1];
  for (k = 0; k < PIPE_COUNT; k++) {
    close(pipes[k][1]);
    w->pipe[k] = pipes[k][0];
    fcntl(w->pipe[k], F_SETFL, fcntl(w->pipe[k], F_GETFL) | O_NONBLOCK);
  }
  w->live = 1;
  return 0;
fail:
  if (e == 0) e = errno;
  if (made) posix_spawn_file_actions_destroy(&fa);
  if (attr_made) posix_spawnattr_destroy(&attr);
  free(env);
  if (in[0] >= 0) close(in[0]);
  if (in[1] >= 0) close(in[1]);
  for (k = 0; k < PIPE_COUNT; k++) {
    if (pipes[k][0] >= 0) close(pipes[k][0]);
    if (pipes[k][1] >= 0) close(pipes[k][1]);
    w->pipe[k] = -1;
  }
  w->in = -1;
  return rsx_fail(err, "pool: cannot start %s: %s", p->argv[0],
                  strerror(e));
}

/* A worker that died before reading its job must not end the pool with
** SIGPIPE: the write fails (EPIPE) and its end is read as usual. */
static int write_line(pool_fd fd, const char *s, size_t n)
{
  struct sigaction ignore, old;
  int r;
  memset(&ignore, 0, sizeof ignore);
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &old);
  r = rsx_write_all(fd, s, n);
  sigaction(SIGPIPE, &old, NULL);
  return r;
}

static int read_some(pool_fd fd, char *buf, size_t cap, size_t *n, int wait)
{
  ssize_t k;
  *n = 0;
  for (;;) {
    k = read(fd, buf, cap);
    if (k > 0) {
      *n = (size_t)k;
      return 1;
    }
    if (k == 0) return 0;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return -1;
    if (!wait) return 1;
    {
      struct pollfd pf = { fd, POLLIN, 0 };
      if (poll(&pf, 1, -1) < 0 && errno != EINTR) return -1;
    }
  }
}

static int wait_worker(worker *w)
{
  int status = 0;
  while (waitpid(w->pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  w->pid = 0;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 127;
}

static void interrupt_worker(worker *w)
{
  if (w->pid > 0) kill(w->pid, SIGINT);
}

static void kill_worker(worker *w)
{
  if (w->pid > 0) kill(w->pid, SIGKILL);
}

/* rsx_pool_next holds SIGINT (blocks it) while it reads and decides, and
** looks for it between short waits: a Control-C that came while no wait
** ran would be taken by the host's handler, and the next wait would last
** until a worker wrote, for ever for one that hangs. */
static void hold_interrupt(sigset_t *old)
{
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigprocmask(SIG_BLOCK, &set, old);
}

/* A SIGINT held and not ignored (one ignored, as in a job started with
** &, is dropped when released). */
static int interrupt_held(void)
{
  sigset_t set;
  struct sigaction sa;
  if (sigpending(&set) != 0 || sigismember(&set, SIGINT) != 1) return 0;
  return sigaction(SIGINT, NULL, &sa) == 0 && sa.sa_handler != SIG_IGN;
}

/* Wait until some pipe of a live worker (of only, when not NULL) has
** bytes or has ended: 0, or RSX_POOL_INTERRUPTED when a signal came
** first, or -1. A wait for one worker (drain's) is not interrupted. */
static int wait_pipes(rsx_pool *p, const worker *only)
{
  struct pollfd fds[3 * 64];
  struct pollfd *pf = fds;
  nfds_t n = 0;
  int i, k, r;
  if ((size_t)p->workers * PIPE_COUNT > sizeof fds / sizeof fds[0]) {
    pf = malloc((size_t)p->workers * PIPE_COUNT * sizeof *pf);
    if (pf == NULL) return -1;
  }
  for (i = 0; i < p->workers; i++)
    for (k = 0; k < PIPE_COUNT; k++)
      if (p->w[i].live && p->w[i].pipe[k] >= 0 &&
          (only == NULL || &p->w[i] == only)) {
        pf[n].fd = p->w[i].pipe[k];
        pf[n].events = POLLIN;
        pf[n].revents = 0;
        n++;
      }
  if (p->holding && only == NULL) {
    do {
      if (interrupt_held()) {
        if (pf != fds) free(pf);
        return RSX_POOL_INTERRUPTED;
      }
      r = poll(pf, n, 50);
    } while (r == 0);
  } else {
    r = poll(pf, n, -1);
  }
  if (pf != fds) free(pf);
  if (r < 0) return errno == EINTR ? RSX_POOL_INTERRUPTED : -1;
  return 0;
}

#endif

/* ---------------------------------------------------------- the loop */

static int spawn_next(rsx_pool *p, worker *w, rsx_error *err);

/* Send worker w the next job that has not started, or end its stdin.
** The worker has reported (ready, or its last job done) and waits for the
** line: whatever it wrote before is in the pipes. */
static int feed(rsx_pool *p, worker *w, rsx_error *err)
{
  job *j;
  if (p->started == p->count) {
    close_fd(&w->in);
    return 0;
  }
  j = p->start[p->started++];
  w->job = j;
  if (write_line(w->in, j->line, strlen(j->line)) != 0 ||
      write_line(w->in, "\n", 1) != 0) {
    /* a worker that died before its job: its end is read as usual */
    close_fd(&w->in);
  }
  (void)err;
  return 0;
}

/* Job j has ended: its output is what the worker wrote since its last
** report. */
static void finish_job(rsx_pool *p, worker *w, job *j)
{
  j->out = w->seg[0];
  j->err = w->seg[1];
  memset(w->seg, 0, sizeof w->seg);
  j->done = 1;
  p->done++;
}

static int end_worker(rsx_pool *p, worker *w, const char *problem,
                      rsx_error *err);

/* The whole reports in w's channel. Bytes that are no report end the
** worker (it is killed: it may write for ever) and fail its job, saying
** why; the other jobs go on. */
static int take_reports(rsx_pool *p, worker *w, rsx_error *err)
{
  for (;;) {
    const char *report;
    size_t size;
    rsx_error why;
    int r = rsx_channel_next(&w->chan, &report, &size, &why);
    if (r == 0) return 0;
    if (r < 0) {
      kill_worker(w);
      return end_worker(p, w, why.text, err);
    }
    /* everything the worker wrote before its report is in the pipes (its
    ** writes had returned), and nothing after: it waits for its next
    ** line, sent below */
    {
      char buf[65536];
      int k;
      for (k = 0; k < 2; k++) {
        size_t n;
        while (w->pipe[k] != NO_FD &&
               read_some(w->pipe[k], buf, sizeof buf, &n, 0) == 1 && n > 0)
          if (buf_add(&w->seg[k], buf, n) != 0)
            return rsx_fail(err, "pool: out of memory");
      }
    }
    if (!w->ready) {
      w->ready = 1; /* the first report: what came before is dropped */
      w->seg[0].size = w->seg[1].size = 0;
    } else if (w->job != NULL) {
      job *j = w->job;
      if (buf_add(&j->report, report, size) != 0)
        return rsx_fail(err, "pool: out of memory");
      j->has_report = 1;
      finish_job(p, w, j);
      w->job = NULL;
    }
    if (w->ready && w->job == NULL && w->in != NO_FD) {
      if (feed(p, w, err) != 0) return -1;
    }
  }
}

/* Read worker w's pipes to their ends, all of them at once (a worker
** blocked on a full stderr would never close its stdout); what stdout and
** stderr held goes to its segment when keep. 0, or -1 (no memory). */
static int drain(rsx_pool *p, worker *w, int keep)
{
  char buf[65536];
  for (;;) {
    int k, open = 0, got = 0;
    for (k = 0; k < PIPE_COUNT; k++) {
      size_t n;
      if (w->pipe[k] == NO_FD) continue;
      if (read_some(w->pipe[k], buf, sizeof buf, &n, 0) != 1) {
        close_fd(&w->pipe[k]); /* its end, or a pipe that failed */
        continue;
      }
      open++;
      if (n == 0) continue;
      got = 1;
      if (keep && k != PIPE_CHAN && buf_add(&w->seg[k], buf, n) != 0)
        return -1;
    }
    if (open == 0) return 0;
    /* a signal (RSX_POOL_INTERRUPTED) only cuts the wait short */
    if (!got && wait_pipes(p, w) < 0) return -1;
  }
}

/* Worker w's channel has ended (or broke its rules: problem says how):
** read its stdout and stderr to their end, wait for it, fail the job it
** was on, and start another worker when jobs are left. */
static int end_worker(rsx_pool *p, worker *w, const char *problem,
                      rsx_error *err)
{
  int k, status;
  if (drain(p, w, 1) != 0) return rsx_fail(err, "pool: out of memory");
  for (k = 0; k < PIPE_COUNT; k++) close_fd(&w->pipe[k]);
  close_fd(&w->in);
  status = wait_worker(w);
  w->live = 0;
  if (!w->ready && p->running) {
    /* it would fail again: say why, with what it wrote */
    size_t n = w->seg[1].size;
    if (n > 300) n = 300;
    if (problem != NULL)
      rsx_fail(err, "pool: cannot start %s: its first report: %s",
               p->argv[0], problem);
    else
      rsx_fail(err, "pool: cannot start %s: it ended before it was ready "
               "(exit status %d)%s%.*s", p->argv[0], status, n ? ": " : "",
               (int)n, n ? w->seg[1].data : "");
    buf_free(&w->seg[0]);
    buf_free(&w->seg[1]);
    rsx_channel_free(&w->chan);
    return -1;
  }
  if (w->job != NULL) {
    job *j = w->job;
    j->status = status != 0 ? status : 1;
    if (problem != NULL) {
      j->problem = malloc(strlen(problem) + 1);
      if (j->problem != NULL) strcpy(j->problem, problem);
    }
    finish_job(p, w, j);
    w->job = NULL;
  }
  buf_free(&w->seg[0]);
  buf_free(&w->seg[1]);
  rsx_channel_free(&w->chan);
  if (p->running && p->started < p->count) return spawn_next(p, w, err);
  return 0;
}

/* A worker's first job goes once it is ready: what it wrote before is
** then all in the pipes, and nothing of its job yet. */
static int spawn_next(rsx_pool *p, worker *w, rsx_error *err)
{
  return start_worker(p, w, err);
}

/* Read what the workers' pipes have now. */
static int read_pipes(rsx_pool *p, rsx_error *err)
{
  char buf[65536];
  int i, k;
  for (i = 0; i < p->workers; i++) {
    worker *w = &p->w[i];
    for (k = 0; k < PIPE_COUNT && w->live; k++) {
      size_t n;
      int r;
      if (w->pipe[k] == NO_FD) continue;
      r = read_some(w->pipe[k], buf, sizeof buf, &n, 0);
      if (r < 0) return rsx_fail(err, "pool: %s", strerror(errno));
      if (r == 0 && k == PIPE_CHAN) {
        rsx_error why; /* a report cut short fails its job, saying so */
        int cut = rsx_channel_end(&w->chan, &why) != 0;
        if (end_worker(p, w, cut ? why.text : NULL, err) != 0) return -1;
      } else if (r == 0) {
        close_fd(&w->pipe[k]);
      } else if (n > 0 && k == PIPE_CHAN) {
        if (rsx_channel_add(&w->chan, buf, n, err) != 0 ||
            take_reports(p, w, err) != 0)
          return -1;
      } else if (n > 0) {
        if (buf_add(&w->seg[k], buf, n) != 0)
          return rsx_fail(err, "pool: out of memory");
      }
    }
  }
  return 0;
}

static void free_job_output(job *j)
{
  buf_free(&j->out);
  buf_free(&j->err);
  buf_free(&j->report);
  free(j->problem);
  j->problem = NULL;
}

static int next_job(rsx_pool *p, rsx_pool_result *r, rsx_error *err)
{
  job *j;
  if (p->returned > 0) free_job_output(&p->jobs[p->returned - 1]);
  if (p->returned == p->count) return RSX_POOL_END;
  if (!p->running) {
    size_t i;
    int n = p->workers;
    p->start = malloc(p->count * sizeof *p->start);
    if (p->start == NULL) return rsx_fail(err, "pool: out of memory");
    for (i = 0; i < p->count; i++) p->start[i] = &p->jobs[i];
    qsort(p->start, p->count, sizeof *p->start, by_size);
    p->running = 1;
    if ((size_t)n > p->count) n = (int)p->count;
    for (i = 0; i < (size_t)n; i++)
      if (spawn_next(p, &p->w[i], err) != 0) return -1;
  }
  j = &p->jobs[p->returned];
  while (!j->done) {
    int any = 0, i, w;
    for (i = 0; i < p->workers; i++) any |= p->w[i].live;
    if (!any) {
      /* every worker failed to take its job: cannot happen while jobs
      ** are left (end_worker starts another) */
      return rsx_fail(err, "pool: no worker left for job %lu",
                      (unsigned long)j->number);
    }
    w = wait_pipes(p, NULL);
    if (w == RSX_POOL_INTERRUPTED) return RSX_POOL_INTERRUPTED;
    if (w != 0) return rsx_fail(err, "pool: %s", strerror(errno));
    if (read_pipes(p, err) != 0) return -1;
  }
#ifdef _WIN32
  /* A job whose worker a Control-C ended (130, or Windows' own
  ** STATUS_CONTROL_C_EXIT) can be read before this process's console
  ** handler has run on its thread: wait a moment for it, so that the run
  ** stops as interrupted, not with that job failed (as SIGINT, delivered
  ** before poll returns, does on POSIX). */
  if (j->status == 130 || (unsigned long)j->status == 0xC000013AUL) {
    int tries;
    for (tries = 0; tries < 100; tries++) {
      long events = rsx_win_console_events();
      if (events != p->events_seen) {
        p->events_seen = events;
        return RSX_POOL_INTERRUPTED;
      }
      Sleep(2);
    }
  }
#endif
  p->returned++;
  r->number = j->number;
  r->out = j->out.data ? j->out.data : "";
  r->out_size = j->out.size;
  r->err = j->err.data ? j->err.data : "";
  r->err_size = j->err.size;
  r->report = j->has_report ? (j->report.data ? j->report.data : "") : NULL;
  r->report_size = j->report.size;
  r->status = j->status;
  r->problem = j->problem;
  return RSX_POOL_JOB;
}

int rsx_pool_next(rsx_pool *p, rsx_pool_result *r, rsx_error *err)
{
  int k;
#ifdef _WIN32
  k = next_job(p, r, err);
#else
  hold_interrupt(&p->unheld);
  p->holding = 1;
  k = next_job(p, r, err);
  p->holding = 0;
  /* a held SIGINT is taken here */
  sigprocmask(SIG_SETMASK, &p->unheld, NULL);
#endif
  return k;
}

int rsx_pool_stop(rsx_pool *p, int interrupt)
{
  int i, stopped = 0;
  p->running = 0; /* no new job, no new worker */
  for (i = 0; i < p->workers; i++) {
    worker *w = &p->w[i];
    int k;
    if (!w->live) continue;
    stopped++;
    close_fd(&w->in);
    if (interrupt) interrupt_worker(w);
    /* read to the end, so that no worker waits on a full pipe */
    drain(p, w, 0);
    for (k = 0; k < PIPE_COUNT; k++) close_fd(&w->pipe[k]);
    wait_worker(w);
    w->live = 0;
    w->job = NULL;
    buf_free(&w->seg[0]);
    buf_free(&w->seg[1]);
    rsx_channel_free(&w->chan);
  }
  return stopped;
}

void rsx_pool_free(rsx_pool *p)
{
  size_t i;
  if (p == NULL) return;
  if (p->w != NULL) rsx_pool_stop(p, 0);
  if (p->argv != NULL)
    for (i = 0; p->argv[i] != NULL; i++) free(p->argv[i]);
  free(p->argv);
  for (i = 0; i < p->count; i++) {
    free(p->jobs[i].line);
    free_job_output(&p->jobs[i]);
  }
  free(p->jobs);
  free(p->start);
  free(p->w);
  free(p);
}

/* ------------------------------------------------------------ worker */

int rsx_pool_is_worker(void)
{
  const char *v = getenv(CHANNEL_VAR);
  return v != NULL && *v != '\0';
}

int rsx_pool_report(const void *bytes, size_t n, rsx_error *err)
{
  const char *v = getenv(CHANNEL_VAR);
  char head[32];
  char *end;
  unsigned long long id;
  if (v == NULL || *v == '\0')
    return rsx_fail(err, "pool: not a worker (no " CHANNEL_VAR ")");
  id = strtoull(v, &end, 10);
  if (*end != '\0') return rsx_fail(err, "pool: bad " CHANNEL_VAR);
  snprintf(head, sizeof head, "%zu\n", n);
#ifdef _WIN32
  {
    HANDLE h = (HANDLE)(uintptr_t)id;
    if (write_line(h, head, strlen(head)) != 0 ||
        write_line(h, bytes, n) != 0)
      return rsx_fail(err, "pool: cannot report: %s",
                      strerror(rsx_win_errno_of(GetLastError())));
  }
#else
  if (rsx_write_all((int)id, head, strlen(head)) != 0 ||
      rsx_write_all((int)id, bytes, n) != 0)
    return rsx_fail(err, "pool: cannot report: %s", strerror(errno));
#endif
  return 0;
}
