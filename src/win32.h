/*
** win32.h - the POSIX and UTF-8 file names rsxmesh expects, on Windows.
**
** The win64 build (win64/) forces this header into every file it compiles
** (gcc -include), rsxmesh's own and Lua's, LuaFileSystem's and lua-cjson's
** alike, so that their sources need no change for Windows:
** - file names are UTF-8, as on Linux: the C library's narrow functions
**   (fopen, open, stat, rename, the folder functions ...) are sent to
**   versions over the wide-character API, since Windows' narrow API reads
**   names in the ANSI code page and cannot open most non-ASCII ones;
** - every file is binary: no '\r' is added or taken away;
** - rename replaces an existing file (MoveFileExW), as POSIX's does;
** - the few POSIX calls the host and the binding make (sigaction for
**   Control-C, through SetConsoleCtrlHandler; readlink of /proc/self/exe;
**   realpath; sysconf for the processors) exist.
** The definitions are in win32.c. Elsewhere this header is empty.
*/
#ifndef RSX_WIN32_H
#define RSX_WIN32_H
#ifdef _WIN32

/* 64-bit sizes and offsets, as on Linux: off_t, and struct stat with stat
** and fstat (MinGW's sys/stat.h makes them _stat64 and _fstat64), so that
** a disc image past 2 GiB is scanned whole. */
#ifndef _FILE_OFFSET_BITS
#define _FILE_OFFSET_BITS 64
#endif

/* Every header whose functions are renamed below comes first, so that
** their declarations are not renamed when a file includes them again. */
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <io.h>
#include <fcntl.h>
#include <direct.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/utime.h>
#include <signal.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------ UTF-8 file names */
FILE *rsx_win_fopen(const char *path, const char *mode);
FILE *rsx_win_freopen(const char *path, const char *mode, FILE *f);
int rsx_win_open(const char *path, int flags, ...);
int rsx_win_remove(const char *path);
int rsx_win_rename(const char *from, const char *to);
int rsx_win_stat64(const char *path, struct _stat64 *st);
int rsx_win_fstat64(int fd, struct _stat64 *st);
int rsx_win_mkdir(const char *path);
int rsx_win_rmdir(const char *path);
int rsx_win_chdir(const char *path);
char *rsx_win_getcwd(char *buf, int size);
intptr_t rsx_win_findfirst(const char *pattern, struct _finddata64i32_t *d);
int rsx_win_findnext(intptr_t handle, struct _finddata64i32_t *d);

#define fopen(path, mode) rsx_win_fopen(path, mode)
#define freopen(path, mode, f) rsx_win_freopen(path, mode, f)
#define open(...) rsx_win_open(__VA_ARGS__)
#define _open(...) rsx_win_open(__VA_ARGS__)
#define remove(path) rsx_win_remove(path)
#define unlink(path) rsx_win_remove(path)
#define _unlink(path) rsx_win_remove(path)
#define rename(from, to) rsx_win_rename(from, to)
/* stat is _stat64 (above): the name is the wide-character call's */
#define _stat64(path, st) rsx_win_stat64(path, st)
/* fstat is _fstat64: a folder's (open gives one, read-only, as POSIX's
** does) is S_IFDIR */
#define _fstat64(fd, st) rsx_win_fstat64(fd, st)
#define mkdir(path, mode) rsx_win_mkdir(path) /* no POSIX modes */
#define _mkdir(path) rsx_win_mkdir(path)
#define rmdir(path) rsx_win_rmdir(path)
#define _rmdir(path) rsx_win_rmdir(path)
#define chdir(path) rsx_win_chdir(path)
#define _chdir(path) rsx_win_chdir(path)
#define getcwd(buf, size) rsx_win_getcwd(buf, size)
#define _getcwd(buf, size) rsx_win_getcwd(buf, size)
/* LuaFileSystem passes _stati64 as a function, uncalled: a name of its
** own, with a struct of the same name (tags are another name space) laid
** out as _stat64. */
struct rsx_win_stati64 {
  _dev_t st_dev;
  _ino_t st_ino;
  unsigned short st_mode;
  short st_nlink;
  short st_uid;
  short st_gid;
  _dev_t st_rdev;
  __int64 st_size;
  __time64_t st_atime;
  __time64_t st_mtime;
  __time64_t st_ctime;
};
int rsx_win_stati64(const char *path, struct rsx_win_stati64 *st);
#undef _stati64
#define _stati64 rsx_win_stati64
/* fwrite to the console (stdout or stderr, unbuffered there): in one
** WriteFile, where the C library writes a byte at a time, which the
** console, in UTF-8 (rsx_win_start), decodes a byte at a time: U+FFFD for
** every byte of a letter that is not ASCII. Lua's print and io.write
** come here. */
size_t rsx_win_fwrite(const void *data, size_t size, size_t n, FILE *f);
#define fwrite(data, size, n, f) rsx_win_fwrite(data, size, n, f)
/* and the host's messages, and Lua's, formatted first */
int rsx_win_fprintf(FILE *f, const char *format, ...);
int rsx_win_printf(const char *format, ...);
int rsx_win_fputs(const char *s, FILE *f);
#define fprintf(...) rsx_win_fprintf(__VA_ARGS__)
#define printf(...) rsx_win_printf(__VA_ARGS__)
#define fputs(s, f) rsx_win_fputs(s, f)
/* A file's times (lfs.touch). */
int rsx_win_utime(const char *path, struct utimbuf *times);
#undef utime
#define utime(path, times) rsx_win_utime(path, times)
/* io.popen and os.execute: the command is UTF-8 (a file name in it that
** is not ASCII), given to cmd through the wide-character API, and
** io.popen's pipe is binary, as every file is. */
FILE *rsx_win_popen(const char *command, const char *mode);
int rsx_win_system(const char *command);
#define _popen(command, mode) rsx_win_popen(command, mode)
#undef popen
#define popen(command, mode) rsx_win_popen(command, mode)
#define system(command) rsx_win_system(command)
/* The environment, UTF-8 (LUA_PATH, RSXMESH_PATH naming a folder that is
** not ASCII). */
char *rsx_win_getenv(const char *name);
#define getenv(name) rsx_win_getenv(name)

#define _findfirst64i32(pattern, d) rsx_win_findfirst(pattern, d)
#define _findnext64i32(handle, d) rsx_win_findnext(handle, d)

/* The last '/' of a path (a bundle's name, the folder of its textures) is
** its last '/' or '\\' on Windows: the user may give either. A search for
** any other character is strrchr's. */
char *rsx_win_strrchr(const char *s, int c);
#define strrchr(s, c) rsx_win_strrchr(s, c)

/* Flags Windows lacks: a handle is not inherited by the children
** rsxmesh starts unless asked, and a read never blocks on a file. */
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NONBLOCK
#define O_NONBLOCK 0
#endif

/* --------------------------------------------------- POSIX the host uses */
/* Control-C (and Control-Break) through SetConsoleCtrlHandler: the
** handler runs on the console's thread, as lua.c's runs on a signal. */
#ifndef SA_RESTART
struct sigaction {
  void (*sa_handler)(int);
  int sa_flags;
  int sa_mask;
};
#define sigemptyset(set) (*(set) = 0)
int rsx_win_sigaction(int sig, const struct sigaction *sa,
                      struct sigaction *old);
#define sigaction(sig, sa, old) rsx_win_sigaction(sig, sa, old)
#endif

/* How many Control-C (or Break) events the console has sent: the pool's
** wait ends on a new one, as poll ends on SIGINT elsewhere. */
long rsx_win_console_events(void);

/* The errno of a Windows error (GetLastError), for a message in
** strerror's words, as on POSIX. */
int rsx_win_errno_of(unsigned long error);

/* mkdtemp, for the tests' scratch folders. */
char *rsx_win_mkdtemp(char *template_name);
#define mkdtemp(template_name) rsx_win_mkdtemp(template_name)

/* pread, which MinGW lacks (the scanner reads a file a chunk at a time):
** ReadFile at a 64-bit offset. */
long long rsx_win_pread(int fd, void *buf, size_t n, long long off);
#define pread(fd, buf, n, off) rsx_win_pread(fd, buf, n, off)

/* readlink knows /proc/self/exe (the program's file, UTF-8, '/'
** separators); realpath is _wfullpath's, with '/' separators. */
long rsx_win_readlink(const char *path, char *buf, size_t size);
char *rsx_win_realpath(const char *path, char *resolved);
#define readlink(path, buf, size) rsx_win_readlink(path, buf, size)
#define realpath(path, resolved) rsx_win_realpath(path, resolved)

/* clock_gettime(CLOCK_MONOTONIC), from QueryPerformanceCounter. */
#ifndef CLOCK_MONOTONIC
#define CLOCK_MONOTONIC 1
#endif
struct timespec;
int rsx_win_clock_gettime(int clock, struct timespec *ts);
#define clock_gettime(clock, ts) rsx_win_clock_gettime(clock, ts)

/* sysconf(_SC_NPROCESSORS_ONLN), from GetSystemInfo. */
#ifndef _SC_NPROCESSORS_ONLN
#define _SC_NPROCESSORS_ONLN 84
#endif
long rsx_win_sysconf(int name);
#define sysconf(name) rsx_win_sysconf(name)

/* Lua's os.tmpname (loslib.c): a new empty file in the user's temporary
** folder (GetTempFileNameW), as POSIX Lua's mkstemp makes one, instead of
** the C library's tmpnam, whose "\\s4.." names the root of the current
** drive. */
#define LUA_TMPNAMBUFSIZE 1024
int rsx_win_tmpname(char *buf, size_t size);
#define lua_tmpnam(buf, err) { err = rsx_win_tmpname(buf, LUA_TMPNAMBUFSIZE); }

/* ----------------------------------------------------------- the host */
/* The command line as UTF-8 (CommandLineToArgvW), stdin, stdout and
** stderr in binary mode; called first thing in main. */
void rsx_win_start(int *argc, char ***argv);
/* The program's name in its messages: argv[0] without its folder and
** its ".exe". Windows gives argv[0] as typed in cmd ("rsxmesh"), but as a
** whole path from PowerShell, Explorer or another program; lua.c's
** "argv[0]: message" would then differ with the way it was started. */
const char *rsx_win_progname(const char *argv0);
/* "FOLDER/scripts/?.lua", FOLDER the program's own (UTF-8, '/'). */
const char *rsx_win_script_path(void);

/* The Windows API's narrow functions that Lua's loadlib.c (the module
** DLLs, in a folder whose name is not ANSI; the program's folder, "!" in
** package.path) and LuaFileSystem (lfs.symlinkattributes, lfs.lock_dir)
** call. The
** build defines RSX_WIN32_API for those two files alone, which include
** windows.h anyway. */
#ifdef RSX_WIN32_API
#include <windows.h>
HMODULE rsx_win_LoadLibraryExA(const char *path, HANDLE file, DWORD flags);
DWORD rsx_win_GetModuleFileNameA(HMODULE module, char *buf, DWORD size);
BOOL rsx_win_GetFileAttributesExA(const char *path,
                                  GET_FILEEX_INFO_LEVELS level, void *info);
HANDLE rsx_win_CreateFileA(const char *path, DWORD access, DWORD share,
                           SECURITY_ATTRIBUTES *security, DWORD disposition,
                           DWORD flags, HANDLE template_file);
#define CreateFileA(path, access, share, security, disposition, flags, \
                    template_file) \
  rsx_win_CreateFileA(path, access, share, security, disposition, flags, \
                      template_file)
#define LoadLibraryExA(path, file, flags) \
  rsx_win_LoadLibraryExA(path, file, flags)
#define GetModuleFileNameA(module, buf, size) \
  rsx_win_GetModuleFileNameA(module, buf, size)
#define GetFileAttributesExA(path, level, info) \
  rsx_win_GetFileAttributesExA(path, level, info)
#endif

#ifdef __cplusplus
}
#endif

#endif /* _WIN32 */
#endif /* RSX_WIN32_H */
