/*
** binary-stdio.c - in every program of the win64 build (rsxmesh.exe and
** the test programs: win64/build.sh links it through LDFLAGS), stdin,
** stdout and stderr are binary from the start, so that a '\n' written is
** a '\n' on Windows too, as on Linux, and no '\r' is added to the TAP or
** to a script's output. In a DLL (the module, loaded by someone else's
** lua.exe) it does nothing: the program's streams are the program's.
*/
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <windows.h>

static void binary_stdio(void) __attribute__((constructor));

static void binary_stdio(void)
{
  HMODULE self = NULL;
  if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                          GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                          (LPCWSTR)(void *)binary_stdio, &self) ||
      self != GetModuleHandleW(NULL))
    return;
  _setmode(_fileno(stdin), _O_BINARY);
  _setmode(_fileno(stdout), _O_BINARY);
  _setmode(_fileno(stderr), _O_BINARY);
}
