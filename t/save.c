/*
** save.c - tests of the whole-or-nothing file writer (src/save.c): while
** the bytes are written, the only file in the folder is the temporary,
** named by the one rule rsxmesh.output follows too (NAME.part- and six
** hex digits, beside NAME); after, NAME alone, with the bytes; a failed
** fill leaves nothing, and an old NAME as it was.
*/
#define _POSIX_C_SOURCE 200809L
#include "rsxmesh.h"
#include "tap.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

/* The names in dir (not . and ..), joined by spaces, sorted by readdir's
** order (at most two are expected). */
static void names(char *out, size_t size)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  out[0] = '\0';
  while (d != NULL && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    if (out[0] != '\0') strncat(out, " ", size - strlen(out) - 1);
    strncat(out, e->d_name, size - strlen(out) - 1);
  }
  if (d != NULL) closedir(d);
}

static int is_temporary(const char *name)
{
  size_t i;
  if (strncmp(name, "out.bin.part-", 13) != 0 || strlen(name) != 19)
    return 0;
  for (i = 13; i < 19; i++)
    if (!strchr("0123456789abcdef", name[i])) return 0;
  return 1;
}

static char seen[256];

static int fill(int fd, void *ctx)
{
  names(seen, sizeof seen);
  return rsx_write_all(fd, "bytes", 5) || (ctx != NULL ? -1 : 0);
}

int main(void)
{
  char path[128], now[256], old[8] = { 0 };
  rsx_error err;
  FILE *f;
  snprintf(dir, sizeof dir, "/tmp/rsxmesh-save-XXXXXX");
  if (mkdtemp(dir) == NULL) bail_out("mkdtemp failed");
  snprintf(path, sizeof path, "%s/out.bin", dir);

  is_int(rsx_save_file(path, fill, NULL, &err), 0, "a save succeeds");
  ok(is_temporary(seen), "while written, the one file is the temporary "
     "NAME.part-XXXXXX (six hex digits): '%s'", seen);
  names(now, sizeof now);
  is_str(now, "out.bin", "after, NAME alone");
  f = fopen(path, "rb");
  if (f != NULL) {
    if (fread(old, 1, sizeof old - 1, f) == 0) old[0] = '\0';
    fclose(f);
  }
  is_str(old, "bytes", "with its bytes");

  is_int(rsx_save_file(path, fill, "fail", &err), -1,
         "a fill that fails fails the save");
  like(err.text, "out.bin", "the message names the file");
  names(now, sizeof now);
  is_str(now, "out.bin", "no temporary left, the old file kept");

  unlink(path);
  rmdir(dir);
  return done_testing();
}
