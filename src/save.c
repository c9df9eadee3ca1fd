/* save.c - files written whole or not at all: a temporary name, then rename */
#define _POSIX_C_SOURCE 200809L

#include "rsxmesh.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int rsx_write_all(int fd, const void *data, size_t n)
{
  const uint8_t *p = data;
  while (n > 0) {
    ssize_t k = write(fd, p, n);
    if (k < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

/* Six hex digits that differ between processes and between attempts:
** the process id, a counter and the clock, mixed (not secret: O_EXCL
** settles a clash). */
static unsigned long temporary_number(int attempt)
{
  static unsigned long counter;
  unsigned long x = (unsigned long)getpid() * 2654435761UL
    ^ (unsigned long)time(NULL) * 40503UL ^ (++counter + (unsigned)attempt)
    * 2246822519UL;
  x ^= x >> 15;
  return x & 0xFFFFFFUL;
}

int rsx_save_file(const char *path, int (*fill)(int fd, void *ctx),
                  void *ctx, rsx_error *err)
{
  size_t tmp_size;
  char *tmp;
  int fd = -1, attempt, e;

  if (path == NULL) return rsx_fail(err, "save: no path");
  /* a new name beside path, so the rename stays in one file system and a
  ** failed write never leaves a half file under path: NAME.part-XXXXXX,
  ** six hex digits, the rule rsxmesh.output follows too. O_EXCL with a
  ** new number on a clash avoids both a race and mkstemp's 0600 mode */
  tmp_size = strlen(path) + sizeof ".part-XXXXXX";
  tmp = malloc(tmp_size);
  if (tmp == NULL) return rsx_fail(err, "%s: out of memory", path);
  for (attempt = 0; attempt < 100 && fd < 0; attempt++) {
    snprintf(tmp, tmp_size, "%s.part-%06lx", path,
             temporary_number(attempt));
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    e = errno;
    rsx_fail(err, "%s: cannot create %s: %s", path, tmp, strerror(e));
    free(tmp);
    return -1;
  }
  if (fill(fd, ctx) != 0) {
    e = errno;
    close(fd);
    goto fail;
  }
  if (close(fd) != 0) {
    e = errno;
    goto fail;
  }
  if (rename(tmp, path) != 0) {
    e = errno;
    goto fail;
  }
  free(tmp);
  return 0;

fail:
  unlink(tmp);
  rsx_fail(err, "%s: %s", path, strerror(e));
  free(tmp);
  return -1;
}

typedef struct save_bytes {
  const void *data;
  size_t size;
} save_bytes;

static int fill_bytes(int fd, void *ctx)
{
  const save_bytes *b = ctx;
  return rsx_write_all(fd, b->data, b->size);
}

int rsx_save_bytes(const char *path, const void *data, size_t size,
                   rsx_error *err)
{
  save_bytes b;
  b.data = data;
  b.size = size;
  return rsx_save_file(path, fill_bytes, &b, err);
}
