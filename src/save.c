/* save.c - files written whole or not at all: a temporary name, then rename */
#define _POSIX_C_SOURCE 200809L

#include "rsxmesh.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int rsx_save_file(const char *path, int (*fill)(int fd, void *ctx),
                  void *ctx, rsx_error *err)
{
  size_t tmp_size;
  char *tmp;
  int fd = -1, attempt, e;

  if (path == NULL) return rsx_fail(err, "save: no path");
  /* a new name beside path, so the rename stays in one file system and a
  ** failed write never leaves a half file under path. O_EXCL with the
  ** process id and a counter avoids both a race and mkstemp's 0600 mode */
  tmp_size = strlen(path) + 40;
  tmp = malloc(tmp_size);
  if (tmp == NULL) return rsx_fail(err, "%s: out of memory", path);
  for (attempt = 0; attempt < 100 && fd < 0; attempt++) {
    snprintf(tmp, tmp_size, "%s.tmp-%ld-%d", path, (long)getpid(),
             attempt);
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
