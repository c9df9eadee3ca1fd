/*
** scan-read.c - the scanned input's bytes: a file (pread) or bytes in
** memory; after the pass, the many small reads served from windows of
** the file.
*/
#define _POSIX_C_SOURCE 200809L /* pread */

#include "scan-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --------------------------------------------------------- reading */

static int src_pread(scan_source *src, uint64_t off, uint8_t *buf,
                     size_t n, rsx_error *err)
{
  size_t got = 0;
  while (got < n) {
    ssize_t r = pread(src->fd, buf + got, n - got, (off_t)(off + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0)
      return rsx_fail(err, "%s: offset 0x%llx: %s", src->name,
                      (unsigned long long)(off + got), strerror(errno));
    if (r == 0)
      return rsx_fail(err, "%s: offset 0x%llx: the file ended early "
                      "(it shrank while being read)", src->name,
                      (unsigned long long)(off + got));
    got += (size_t)r;
  }
  return 0;
}

/* n bytes at off from a window that holds them, else from the window
** used longest ago, filled with the file from off's 4 KiB page on; 0, or
** -1 when no window can be had or filled (the caller reads directly). */
static int src_window(scan_source *src, uint64_t off, uint8_t *buf,
                      size_t n)
{
  int w, old = 0;
  uint64_t at;
  for (w = 0; w < SRC_WINDOWS; w++) {
    if (off >= src->window_at[w] &&
        off + n <= src->window_at[w] + src->window_len[w])
      break;
    if (src->window_used[w] < src->window_used[old]) old = w;
  }
  if (w == SRC_WINDOWS) {
    if (src->window == NULL &&
        (src->window = malloc((size_t)SRC_WINDOWS * SRC_WINDOW)) == NULL)
      return -1;
    w = old;
    at = off & ~(uint64_t)4095;
    src->window_len[w] = 0;
    if (src_pread(src, at, src->window + (size_t)w * SRC_WINDOW,
                  src->size - at < SRC_WINDOW ? (size_t)(src->size - at)
                                              : SRC_WINDOW, NULL) != 0)
      return -1;
    src->window_at[w] = at;
    src->window_len[w] = src->size - at < SRC_WINDOW
                           ? (size_t)(src->size - at) : SRC_WINDOW;
  }
  src->window_used[w] = ++src->window_clock;
  memcpy(buf, src->window + (size_t)w * SRC_WINDOW +
         (size_t)(off - src->window_at[w]), n);
  return 0;
}

int src_read(scan_source *src, uint64_t off, uint8_t *buf, size_t n,
             rsx_error *err)
{
  if (off > src->size || n > src->size - off)
    return rsx_fail(err, "%s: offset 0x%llx: %zu bytes past the end "
                    "(size %llu)", src->name, (unsigned long long)off, n,
                    (unsigned long long)src->size);
  if (src->mem != NULL) {
    memcpy(buf, src->mem + off, n);
    return 0;
  }
  if (src->windowed && n <= SRC_WINDOW - 4096 &&
      src_window(src, off, buf, n) == 0)
    return 0;
  return src_pread(src, off, buf, n, err);
}
