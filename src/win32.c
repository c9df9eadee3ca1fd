/*
** win32.c - the functions win32.h sends the C library's calls to, on
** Windows: UTF-8 file names over the wide-character API, binary files,
** rename over an existing file, Control-C, and the program's own folder.
** Compiled into every Windows binary of the win64 build (lua54.dll, the
** module, lfs and cjson too). Empty elsewhere.
*/
#ifdef _WIN32
#include "win32.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <wchar.h>
#include <windows.h>
#include <shellapi.h>

/* The real functions, under the names win32.h does not take. */
#undef fopen
#undef freopen
#undef open
#undef remove
#undef rename
#undef _fstat64
#undef mkdir
#undef rmdir
#undef chdir
#undef getcwd
#undef strrchr
#undef getenv
#undef _popen
#undef popen
#undef system
#undef utime
#undef fwrite
#undef fprintf
#undef printf
#undef fputs

/* ================================================= UTF-8 and UTF-16 */

/* A malloc'ed wide copy of UTF-8 s, or NULL with errno set (EINVAL for
** bytes that are not UTF-8, which no file can be named by). */
static wchar_t *to_wide(const char *s)
{
  int n;
  wchar_t *w;
  if (s == NULL) {
    errno = EINVAL;
    return NULL;
  }
  n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
  if (n <= 0) {
    errno = EINVAL;
    return NULL;
  }
  if ((w = malloc((size_t)n * sizeof *w)) == NULL) {
    errno = ENOMEM;
    return NULL;
  }
  MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n);
  return w;
}

/* Write wide w as UTF-8 into buf of size bytes; the length written, or -1
** with errno ERANGE when it does not fit. */
static int to_utf8(const wchar_t *w, char *buf, size_t size)
{
  int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
  if (n <= 0 || (size_t)n > size || size > INT_MAX) {
    errno = ERANGE;
    return -1;
  }
  WideCharToMultiByte(CP_UTF8, 0, w, -1, buf, (int)size, NULL, NULL);
  return n - 1;
}

int rsx_win_errno_of(unsigned long error)
{
  switch (error) {
  case ERROR_FILE_NOT_FOUND:
  case ERROR_PATH_NOT_FOUND:
  case ERROR_INVALID_NAME:
    return ENOENT;
  case ERROR_ACCESS_DENIED:
  case ERROR_SHARING_VIOLATION:
  case ERROR_LOCK_VIOLATION:
    return EACCES;
  case ERROR_ALREADY_EXISTS:
  case ERROR_FILE_EXISTS:
    return EEXIST;
  case ERROR_NOT_SAME_DEVICE:
    return EXDEV;
  case ERROR_DIR_NOT_EMPTY:
    return ENOTEMPTY;
  case ERROR_NOT_ENOUGH_MEMORY:
  case ERROR_OUTOFMEMORY:
    return ENOMEM;
  case ERROR_DISK_FULL:
  case ERROR_HANDLE_DISK_FULL:
    return ENOSPC;
  case ERROR_BROKEN_PIPE:
  case ERROR_NO_DATA:
    return EPIPE;
  default:
    return EIO;
  }
}

/* Set errno from GetLastError, for the calls that are not the C
** library's. */
static void errno_from_windows(void)
{
  errno = rsx_win_errno_of(GetLastError());
}

/* ========================================================== the files */

/* fn, one of the C library's wide functions of a name, on UTF-8 path. */
static int wide_call(int (*fn)(const wchar_t *), const char *path)
{
  wchar_t *wpath = to_wide(path);
  int r;
  if (wpath == NULL) return -1;
  r = fn(wpath);
  free(wpath);
  return r;
}

static int is_folder(const wchar_t *wpath)
{
  DWORD attributes = GetFileAttributesW(wpath);
  return attributes != INVALID_FILE_ATTRIBUTES &&
         (attributes & FILE_ATTRIBUTE_DIRECTORY);
}

/* mode with a 'b' (every file binary), wide; 0 when too long. */
static int binary_mode(const char *mode, wchar_t *w, size_t size)
{
  size_t i, n = 0;
  int has_b = 0;
  for (i = 0; mode[i] != '\0'; i++) {
    if (n + 2 >= size) return 0;
    if (mode[i] == 'b') has_b = 1;
    if (mode[i] == 't') continue; /* text mode is what is refused */
    w[n++] = (wchar_t)(unsigned char)mode[i];
  }
  if (!has_b) w[n++] = L'b';
  w[n] = L'\0';
  return 1;
}

/* fopen over CreateFileW, so that the file is shared for deletion: as on
** POSIX, a file still open may be removed or renamed over (the name goes
** when the last handle closes). The Lua side relies on it: a temporary
** whose handle an interrupt left to the collector is removed at once. */
FILE *rsx_win_fopen(const char *path, const char *mode)
{
  DWORD access, disposition;
  int flags, fd, plus = strchr(mode, '+') != NULL;
  wchar_t *wpath;
  HANDLE h;
  FILE *f;
  char cmode[8];
  switch (mode[0]) {
  case 'r':
    access = plus ? GENERIC_READ | GENERIC_WRITE : GENERIC_READ;
    disposition = OPEN_EXISTING;
    flags = plus ? _O_RDWR : _O_RDONLY;
    break;
  case 'w':
    access = plus ? GENERIC_READ | GENERIC_WRITE : GENERIC_WRITE;
    disposition = strchr(mode, 'x') != NULL ? CREATE_NEW : CREATE_ALWAYS;
    flags = plus ? _O_RDWR : _O_WRONLY;
    break;
  case 'a':
    access = plus ? GENERIC_READ | GENERIC_WRITE : GENERIC_WRITE;
    disposition = OPEN_ALWAYS;
    flags = (plus ? _O_RDWR : _O_WRONLY) | _O_APPEND;
    break;
  default:
    errno = EINVAL;
    return NULL;
  }
  /* the C library's mode, binary: "r", "w", "a", with "+" */
  snprintf(cmode, sizeof cmode, "%c%sb", mode[0], plus ? "+" : "");
  if ((wpath = to_wide(path)) == NULL) return NULL;
  h = CreateFileW(wpath, access,
                  FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                  NULL, disposition, FILE_ATTRIBUTE_NORMAL, NULL);
  if (h == INVALID_HANDLE_VALUE) {
    errno_from_windows();
    /* a folder: POSIX's EISDIR, not Windows' "Permission denied" */
    if (errno == EACCES && is_folder(wpath)) errno = EISDIR;
    free(wpath);
    return NULL;
  }
  free(wpath);
  if ((fd = _open_osfhandle((intptr_t)h, flags | _O_BINARY)) < 0) {
    CloseHandle(h);
    return NULL;
  }
  if ((f = _fdopen(fd, cmode)) == NULL) {
    _close(fd);
    return NULL;
  }
  return f;
}

FILE *rsx_win_freopen(const char *path, const char *mode, FILE *stream)
{
  wchar_t wmode[16], *wpath;
  FILE *f;
  if (!binary_mode(mode, wmode, 16)) {
    errno = EINVAL;
    return NULL;
  }
  if (path == NULL) /* a change of mode only: binary already */
    return stream;
  if ((wpath = to_wide(path)) == NULL) return NULL;
  f = _wfreopen(wpath, wmode, stream);
  free(wpath);
  return f;
}

/* POSIX opens a folder read-only, so that fstat names it a folder (the
** readers' "is a directory"), and refuses to write one with EISDIR, where
** Windows refuses both with "Permission denied". */
static int open_folder(const wchar_t *wpath, int flags)
{
  HANDLE h;
  int fd;
  if ((flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)) != 0) {
    errno = (flags & O_CREAT) && (flags & O_EXCL) ? EEXIST : EISDIR;
    return -1;
  }
  h = CreateFileW(wpath, GENERIC_READ,
                  FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                  NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
  if (h == INVALID_HANDLE_VALUE) {
    errno_from_windows();
    return -1;
  }
  if ((fd = _open_osfhandle((intptr_t)h, _O_RDONLY | _O_BINARY)) < 0)
    CloseHandle(h);
  return fd;
}

int rsx_win_open(const char *path, int flags, ...)
{
  int mode = 0, fd;
  wchar_t *wpath;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = va_arg(ap, int);
    va_end(ap);
  }
  if ((wpath = to_wide(path)) == NULL) return -1;
  if (is_folder(wpath)) {
    fd = open_folder(wpath, flags);
    free(wpath);
    return fd;
  }
  /* POSIX's permission bits: Windows knows only read-only */
  fd = _wopen(wpath, (flags & ~O_TEXT) | O_BINARY | O_NOINHERIT,
              (mode & 0200) ? _S_IREAD | _S_IWRITE : _S_IREAD);
  free(wpath);
  return fd;
}

/* POSIX's remove: a file, or an empty folder. */
int rsx_win_remove(const char *path)
{
  wchar_t *wpath = to_wide(path);
  int r;
  if (wpath == NULL) return -1;
  if (is_folder(wpath))
    r = _wrmdir(wpath);
  else
    r = _wremove(wpath);
  free(wpath);
  return r;
}

/* POSIX's rename: an existing file under to is replaced, in one step. */
int rsx_win_rename(const char *from, const char *to)
{
  wchar_t *wfrom = to_wide(from), *wto = to_wide(to);
  int r = -1;
  if (wfrom != NULL && wto != NULL) {
    if (MoveFileExW(wfrom, wto, MOVEFILE_REPLACE_EXISTING))
      r = 0;
    else {
      errno_from_windows();
      /* onto a folder: POSIX's EISDIR, not "Permission denied" */
      if (errno == EACCES && is_folder(wto) && !is_folder(wfrom))
        errno = EISDIR;
    }
  }
  free(wfrom);
  free(wto);
  return r;
}

int rsx_win_stat64(const char *path, struct _stat64 *st)
{
  wchar_t *wpath = to_wide(path);
  int r;
  if (wpath == NULL) return -1;
  r = _wstat64(wpath, st);
  free(wpath);
  return r;
}

/* Copy the fields of a struct _stat64 into another stat struct, whose
** size and times may be narrower. */
#define STAT_COPY(to, from) \
  ((to)->st_dev = (from).st_dev, (to)->st_ino = (from).st_ino, \
   (to)->st_mode = (from).st_mode, (to)->st_nlink = (from).st_nlink, \
   (to)->st_uid = (from).st_uid, (to)->st_gid = (from).st_gid, \
   (to)->st_rdev = (from).st_rdev, (to)->st_size = (from).st_size, \
   (to)->st_atime = (from).st_atime, (to)->st_mtime = (from).st_mtime, \
   (to)->st_ctime = (from).st_ctime)

int rsx_win_stati64(const char *path, struct rsx_win_stati64 *st)
{
  struct _stat64 s;
  if (rsx_win_stat64(path, &s) != 0) return -1;
  STAT_COPY(st, s);
  return 0;
}

/* The C library's fstat calls a folder's handle (rsx_win_open's) a
** regular file. */
int rsx_win_fstat64(int fd, struct _stat64 *st)
{
  BY_HANDLE_FILE_INFORMATION info;
  HANDLE h = (HANDLE)_get_osfhandle(fd);
  if (_fstat64(fd, st) != 0) return -1;
  if (h != INVALID_HANDLE_VALUE && GetFileInformationByHandle(h, &info) &&
      (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY))
    st->st_mode = (unsigned short)((st->st_mode & ~_S_IFMT) | _S_IFDIR);
  return 0;
}

int rsx_win_mkdir(const char *path)
{
  return wide_call(_wmkdir, path);
}

int rsx_win_rmdir(const char *path)
{
  return wide_call(_wrmdir, path);
}

int rsx_win_chdir(const char *path)
{
  return wide_call(_wchdir, path);
}

/* getcwd as the C library's: buf NULL allocates. */
char *rsx_win_getcwd(char *buf, int size)
{
  wchar_t w[MAX_PATH * 4];
  size_t n;
  if (_wgetcwd(w, MAX_PATH * 4) == NULL) return NULL;
  n = (size_t)WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
  if (buf == NULL) {
    if ((buf = malloc(n > (size_t)size ? n : (size_t)size)) == NULL) {
      errno = ENOMEM;
      return NULL;
    }
    size = (int)(n > (size_t)size ? n : (size_t)size);
  }
  if (size <= 0 || to_utf8(w, buf, (size_t)size) < 0) return NULL;
  return buf;
}

FILE *rsx_win_popen(const char *command, const char *mode)
{
  wchar_t wmode[16], *wcommand;
  FILE *f;
  if (!binary_mode(mode, wmode, 16)) {
    errno = EINVAL;
    return NULL;
  }
  if ((wcommand = to_wide(command)) == NULL) return NULL;
  fflush(NULL); /* as POSIX Lua's l_popen: what was written comes first */
  f = _wpopen(wcommand, wmode);
  free(wcommand);
  return f;
}

/* The console's handle when f is stdout or stderr and writes to one, or
** NULL. */
static HANDLE console_of(FILE *f)
{
  HANDLE h;
  DWORD mode;
  if (f != stdout && f != stderr) return NULL;
  h = (HANDLE)_get_osfhandle(_fileno(f));
  return h != INVALID_HANDLE_VALUE && GetConsoleMode(h, &mode) ? h : NULL;
}

size_t rsx_win_fwrite(const void *data, size_t size, size_t n, FILE *f)
{
  HANDLE h;
  DWORD done;
  size_t bytes = size * n;
  if (bytes > 0 && bytes <= 0x40000000u && (h = console_of(f)) != NULL) {
    fflush(f); /* what the C library holds comes first */
    if (WriteFile(h, data, (DWORD)bytes, &done, NULL) && done == bytes)
      return n;
    errno = EIO;
    return (size_t)done / size;
  }
  return fwrite(data, size, n, f);
}

static int console_vprintf(FILE *f, const char *format, va_list ap)
{
  char small[1024], *buf = small;
  va_list copy;
  int n;
  if (console_of(f) == NULL) return vfprintf(f, format, ap);
  va_copy(copy, ap);
  n = vsnprintf(small, sizeof small, format, copy);
  va_end(copy);
  if (n < 0) return n;
  if ((size_t)n >= sizeof small) {
    if ((buf = malloc((size_t)n + 1)) == NULL) return -1;
    vsnprintf(buf, (size_t)n + 1, format, ap);
  }
  n = rsx_win_fwrite(buf, 1, (size_t)n, f) == (size_t)n ? n : -1;
  if (buf != small) free(buf);
  return n;
}

int rsx_win_fprintf(FILE *f, const char *format, ...)
{
  va_list ap;
  int n;
  va_start(ap, format);
  n = console_vprintf(f, format, ap);
  va_end(ap);
  return n;
}

int rsx_win_printf(const char *format, ...)
{
  va_list ap;
  int n;
  va_start(ap, format);
  n = console_vprintf(stdout, format, ap);
  va_end(ap);
  return n;
}

int rsx_win_fputs(const char *s, FILE *f)
{
  size_t n = strlen(s);
  return rsx_win_fwrite(s, 1, n, f) == n ? 0 : EOF;
}

int rsx_win_utime(const char *path, struct utimbuf *times)
{
  wchar_t *wpath = to_wide(path);
  int r;
  if (wpath == NULL) return -1;
  r = _wutime(wpath, (struct _utimbuf *)times); /* the same two time_t */
  free(wpath);
  return r;
}

/* errno is left as it was when the command ran: os.execute takes one set
** for a failure to run it, and the C library's search for cmd sets one
** on the way. */
int rsx_win_system(const char *command)
{
  int saved = errno, r;
  wchar_t *wcommand;
  if (command == NULL) return _wsystem(NULL); /* is there a shell? */
  if ((wcommand = to_wide(command)) == NULL) return -1;
  r = _wsystem(wcommand);
  free(wcommand);
  if (r != -1) errno = saved;
  return r;
}

/* getenv's value as UTF-8. A value read once is kept for the life of the
** program, as the environment's own strings are, and the same pointer is
** given for the same value. */
char *rsx_win_getenv(const char *name)
{
  static char *kept[64];
  static int nkept = 0;
  wchar_t *wname = to_wide(name), *wvalue;
  char *value;
  int i, n;
  if (wname == NULL) return NULL;
  wvalue = _wgetenv(wname);
  free(wname);
  if (wvalue == NULL) return NULL;
  n = WideCharToMultiByte(CP_UTF8, 0, wvalue, -1, NULL, 0, NULL, NULL);
  if (n <= 0 || (value = malloc((size_t)n)) == NULL) return NULL;
  WideCharToMultiByte(CP_UTF8, 0, wvalue, -1, value, n, NULL, NULL);
  for (i = 0; i < nkept; i++)
    if (strcmp(kept[i], value) == 0) {
      free(value);
      return kept[i];
    }
  if (nkept < 64) kept[nkept++] = value;
  /* past 64 values, each new one is a small leak: no program here reads
  ** that many */
  return value;
}

/* The folder listing of LuaFileSystem's lfs.dir: the names as UTF-8. */
static int find_copy(const struct _wfinddata64i32_t *w,
                     struct _finddata64i32_t *d)
{
  d->attrib = w->attrib;
  d->time_create = w->time_create;
  d->time_access = w->time_access;
  d->time_write = w->time_write;
  d->size = w->size;
  return to_utf8(w->name, d->name, sizeof d->name) < 0 ? -1 : 0;
}

intptr_t rsx_win_findfirst(const char *pattern, struct _finddata64i32_t *d)
{
  struct _wfinddata64i32_t w;
  wchar_t *wpattern = to_wide(pattern);
  intptr_t h;
  if (wpattern == NULL) return -1;
  h = _wfindfirst64i32(wpattern, &w);
  free(wpattern);
  if (h != -1 && find_copy(&w, d) != 0) {
    _findclose(h);
    return -1;
  }
  return h;
}

int rsx_win_findnext(intptr_t handle, struct _finddata64i32_t *d)
{
  struct _wfinddata64i32_t w;
  if (_wfindnext64i32(handle, &w) != 0) return -1;
  return find_copy(&w, d);
}

char *rsx_win_strrchr(const char *s, int c)
{
  char *last = strrchr(s, c);
  if (c == '/') {
    char *back = strrchr(s, '\\');
    if (back != NULL && (last == NULL || back > last)) last = back;
  }
  return last;
}

int rsx_win_tmpname(char *buf, size_t size)
{
  wchar_t dir[MAX_PATH + 1], file[MAX_PATH + 1];
  DWORD n = GetTempPathW(MAX_PATH + 1, dir);
  if (n == 0 || n > MAX_PATH || GetTempFileNameW(dir, L"lua", 0, file) == 0)
    return 1;
  return to_utf8(file, buf, size) < 0;
}

/* ============================================================== POSIX */

static void (*interrupt_handler)(int) = SIG_DFL;

/* The console's thread calls this on Control-C and Control-Break: the
** handler set with sigaction runs (it sets a Lua hook), and the program
** goes on; with none, Windows ends the program. */
static volatile LONG console_events = 0;

long rsx_win_console_events(void)
{
  return InterlockedCompareExchange(&console_events, 0, 0);
}

static BOOL WINAPI console_event(DWORD event)
{
  void (*handler)(int) = interrupt_handler;
  if (event != CTRL_C_EVENT && event != CTRL_BREAK_EVENT) return FALSE;
  if (handler == SIG_DFL || handler == SIG_IGN) {
    InterlockedIncrement(&console_events);
    return handler == SIG_IGN;
  }
  handler(SIGINT);
  /* counted after the handler: whoever sees the count (the pool) sees
  ** the interrupt the handler set, too */
  InterlockedIncrement(&console_events);
  return TRUE;
}

int rsx_win_sigaction(int sig, const struct sigaction *sa,
                      struct sigaction *old)
{
  static int installed = 0;
  if (sig != SIGINT) {
    errno = EINVAL;
    return -1;
  }
  if (old != NULL) {
    old->sa_handler = interrupt_handler;
    old->sa_flags = 0;
    old->sa_mask = 0;
  }
  if (sa != NULL) {
    interrupt_handler = sa->sa_handler;
    if (!installed)
      installed = SetConsoleCtrlHandler(console_event, TRUE);
  }
  return 0;
}

/* The program's file as UTF-8 with '/' separators, in buf of size. */
static int program_file(char *buf, size_t size)
{
  wchar_t w[32768];
  DWORD n = GetModuleFileNameW(NULL, w, 32768);
  int len;
  char *p;
  if (n == 0 || n >= 32768) {
    errno = ENAMETOOLONG;
    return -1;
  }
  if ((len = to_utf8(w, buf, size)) < 0) return -1;
  for (p = buf; *p != '\0'; p++)
    if (*p == '\\') *p = '/';
  return len;
}

/* pread: ReadFile at a 64-bit offset, which moves no file pointer the
** C library keeps. */
long long rsx_win_pread(int fd, void *buf, size_t n, long long off)
{
  HANDLE h = (HANDLE)_get_osfhandle(fd);
  OVERLAPPED at;
  DWORD got = 0;
  if (h == INVALID_HANDLE_VALUE) {
    errno = EBADF;
    return -1;
  }
  if (n > 0x40000000u) n = 0x40000000u; /* a DWORD's worth, at most */
  memset(&at, 0, sizeof at);
  at.Offset = (DWORD)((unsigned long long)off & 0xFFFFFFFFu);
  at.OffsetHigh = (DWORD)((unsigned long long)off >> 32);
  if (!ReadFile(h, buf, (DWORD)n, &got, &at)) {
    if (GetLastError() == ERROR_HANDLE_EOF) return 0;
    errno = EIO;
    return -1;
  }
  return (long long)got;
}

/* The Xs at the end of name replaced until a new folder is made. */
char *rsx_win_mkdtemp(char *name)
{
  static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  size_t n = strlen(name), x = n;
  unsigned long seed = (unsigned long)GetTickCount() ^
                       ((unsigned long)GetCurrentProcessId() << 16);
  int attempt, i;
  while (x > 0 && name[x - 1] == 'X') x--;
  if (n - x < 6) {
    errno = EINVAL;
    return NULL;
  }
  for (attempt = 0; attempt < 1000; attempt++) {
    for (i = (int)x; i < (int)n; i++) {
      seed = seed * 1103515245u + 12345u;
      name[i] = letters[(seed >> 16) % 36];
    }
    if (rsx_win_mkdir(name) == 0) return name;
    if (errno != EEXIST) return NULL;
  }
  return NULL;
}

long rsx_win_readlink(const char *path, char *buf, size_t size)
{
  char file[MAX_PATH * 4];
  int n;
  if (strcmp(path, "/proc/self/exe") != 0) {
    errno = EINVAL; /* Windows' links are not followed here */
    return -1;
  }
  if ((n = program_file(file, sizeof file)) < 0) return -1;
  if ((size_t)n > size) n = (int)size; /* readlink truncates */
  memcpy(buf, file, (size_t)n);
  return n;
}

char *rsx_win_realpath(const char *path, char *resolved)
{
  wchar_t *wpath = to_wide(path), full[MAX_PATH * 4];
  char *p, *out = resolved;
  if (wpath == NULL) return NULL;
  if (_wfullpath(full, wpath, MAX_PATH * 4) == NULL) {
    free(wpath);
    errno = ENAMETOOLONG;
    return NULL;
  }
  free(wpath);
  if (GetFileAttributesW(full) == INVALID_FILE_ATTRIBUTES) {
    errno = ENOENT;
    return NULL;
  }
  if (out == NULL && (out = malloc(PATH_MAX)) == NULL) {
    errno = ENOMEM;
    return NULL;
  }
  if (to_utf8(full, out, PATH_MAX) < 0) {
    if (resolved == NULL) free(out);
    return NULL;
  }
  for (p = out; *p != '\0'; p++)
    if (*p == '\\') *p = '/';
  return out;
}

int rsx_win_clock_gettime(int clock, struct timespec *ts)
{
  LARGE_INTEGER count, frequency;
  if (clock != CLOCK_MONOTONIC || !QueryPerformanceFrequency(&frequency) ||
      !QueryPerformanceCounter(&count)) {
    errno = EINVAL;
    return -1;
  }
  ts->tv_sec = (time_t)(count.QuadPart / frequency.QuadPart);
  ts->tv_nsec = (long)(count.QuadPart % frequency.QuadPart * 1000000000 /
                       frequency.QuadPart);
  return 0;
}

long rsx_win_sysconf(int name)
{
  SYSTEM_INFO info;
  if (name != _SC_NPROCESSORS_ONLN) {
    errno = EINVAL;
    return -1;
  }
  GetSystemInfo(&info);
  return (long)info.dwNumberOfProcessors;
}

/* ========================================================== the host */

static UINT console_code_page = 0; /* the console's, to be given back */

static void console_code_page_back(void)
{
  SetConsoleOutputCP(console_code_page);
}

void rsx_win_start(int *argc, char ***argv)
{
  int n, i;
  wchar_t **wargv = CommandLineToArgvW(GetCommandLineW(), &n);
  /* the console shows the UTF-8 written to it (a file's name, a mesh's),
  ** not its bytes in the OEM code page; the console's own is given back
  ** at the end, as the console outlives the program */
  console_code_page = GetConsoleOutputCP(); /* 0: no console */
  if (console_code_page != 0 && console_code_page != CP_UTF8 &&
      SetConsoleOutputCP(CP_UTF8))
    atexit(console_code_page_back);
  /* the progress line's "\r\33[K" (lua/rsxmesh/run.lua) erases the line,
  ** as on a terminal (Windows 10 on; an older console keeps its mode) */
  {
    HANDLE h = GetStdHandle(STD_ERROR_HANDLE);
    DWORD mode;
    if (h != INVALID_HANDLE_VALUE && GetConsoleMode(h, &mode))
      SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
  }
  _setmode(_fileno(stdin), _O_BINARY);
  _setmode(_fileno(stdout), _O_BINARY);
  _setmode(_fileno(stderr), _O_BINARY);
  if (wargv == NULL) return; /* keep the C library's */
  {
    /* one block, kept for the life of the program as argv is */
    char **v = malloc(((size_t)n + 1) * sizeof *v);
    if (v == NULL) return;
    for (i = 0; i < n; i++) {
      int len = WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, NULL, 0,
                                    NULL, NULL);
      if (len <= 0 || (v[i] = malloc((size_t)len)) == NULL) return;
      WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, v[i], len, NULL, NULL);
    }
    v[n] = NULL;
    LocalFree(wargv);
    *argc = n;
    *argv = v;
  }
}

const char *rsx_win_progname(const char *argv0)
{
  static char name[256];
  const char *base = argv0, *p;
  size_t n;
  for (p = argv0; *p != '\0'; p++)
    if (*p == '/' || *p == '\\' || *p == ':') base = p + 1;
  n = strlen(base);
  if (n > 4 && _stricmp(base + n - 4, ".exe") == 0) n -= 4;
  if (n == 0 || n >= sizeof name) return argv0;
  memcpy(name, base, n);
  name[n] = '\0';
  return name;
}

const char *rsx_win_script_path(void)
{
  static char path[MAX_PATH * 4 + 32];
  char *slash;
  if (program_file(path, MAX_PATH * 4) < 0 ||
      (slash = strrchr(path, '/')) == NULL)
    return "scripts/?.lua";
  strcpy(slash, "/scripts/?.lua");
  return path;
}

/* =================================== loadlib.c's and lfs.c's calls */
HMODULE rsx_win_LoadLibraryExA(const char *path, HANDLE file, DWORD flags);
DWORD rsx_win_GetModuleFileNameA(HMODULE module, char *buf, DWORD size);
BOOL rsx_win_GetFileAttributesExA(const char *path,
                                  GET_FILEEX_INFO_LEVELS level, void *info);
HANDLE rsx_win_CreateFileA(const char *path, DWORD access, DWORD share,
                           SECURITY_ATTRIBUTES *security, DWORD disposition,
                           DWORD flags, HANDLE template_file);

BOOL rsx_win_GetFileAttributesExA(const char *path,
                                  GET_FILEEX_INFO_LEVELS level, void *info)
{
  wchar_t *wpath = to_wide(path);
  BOOL ok;
  if (wpath == NULL) {
    SetLastError(ERROR_INVALID_NAME);
    return FALSE;
  }
  ok = GetFileAttributesExW(wpath, level, info);
  free(wpath);
  return ok;
}

HANDLE rsx_win_CreateFileA(const char *path, DWORD access, DWORD share,
                           SECURITY_ATTRIBUTES *security, DWORD disposition,
                           DWORD flags, HANDLE template_file)
{
  wchar_t *wpath = to_wide(path);
  HANDLE h;
  if (wpath == NULL) {
    SetLastError(ERROR_INVALID_NAME);
    return INVALID_HANDLE_VALUE;
  }
  h = CreateFileW(wpath, access, share, security, disposition, flags,
                  template_file);
  free(wpath);
  return h;
}

HMODULE rsx_win_LoadLibraryExA(const char *path, HANDLE file, DWORD flags)
{
  wchar_t *wpath = to_wide(path);
  HMODULE m;
  if (wpath == NULL) {
    SetLastError(ERROR_INVALID_NAME);
    return NULL;
  }
  m = LoadLibraryExW(wpath, file, flags);
  free(wpath);
  return m;
}

/* As GetModuleFileNameA (n, or size when cut short), in UTF-8. */
DWORD rsx_win_GetModuleFileNameA(HMODULE module, char *buf, DWORD size)
{
  wchar_t w[32768];
  DWORD n = GetModuleFileNameW(module, w, 32768);
  int len;
  if (n == 0 || n >= 32768) return n == 0 ? 0 : size;
  len = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
  if (len <= 0 || (DWORD)len > size) {
    SetLastError(ERROR_INSUFFICIENT_BUFFER);
    return size;
  }
  WideCharToMultiByte(CP_UTF8, 0, w, -1, buf, (int)size, NULL, NULL);
  return (DWORD)len - 1;
}

#else
/* ISO C wants something in every file. */
typedef int rsx_win32_unused;
#endif
