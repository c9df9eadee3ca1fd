/*
** fuzz_pool.c - libFuzzer target: the reader of a worker's reports
** (rsx_channel_*, src/pool.c), the bytes a user's script controls. The
** first byte sets how the rest is cut into pieces; the rest is the
** channel. Read whole and read in those pieces, the channel must give the
** same reports and end the same way, with the same message; every report
** must be the bytes behind a decimal size and a newline at the place the
** reader says; the reader must hold no more than twice what came (a size
** allocates nothing); a refusal is one line at a byte of the channel. A
** broken promise aborts, so libFuzzer keeps the input.
*/
#include "pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_broken(const char *what)
{
  fprintf(stderr, "fuzz_pool: %s\n", what);
  abort();
}

/* What one read of the channel gave: the reports' places and sizes, in
** order, then how it ended and why. */
typedef struct outcome {
  size_t count, at[512], size[512];
  int end;              /* 0: between reports; -1: refused or cut short */
  char message[sizeof ((rsx_error *)0)->text];
} outcome;

/* Report r at the channel's offset at must be the bytes of the input
** behind 1 to 10 decimal digits that say its size and a newline, these
** starting where the last report ended (*frame): reports are back to
** back, with nothing between them. */
static void fz_report(const char *in, size_t n, unsigned long long at,
                      const char *r, size_t size, size_t *frame)
{
  unsigned long long value = 0;
  size_t k;
  if (size > RSX_POOL_REPORT_MAX) fz_broken("a report over the limit");
  if (at > n || size > n - at) fz_broken("a report past the input");
  if (memcmp(r, in + at, size) != 0) fz_broken("a report's bytes");
  if (at < *frame + 2 || at - *frame - 1 > 10)
    fz_broken("a report's size: not 1 to 10 digits");
  for (k = *frame; k < at - 1; k++) {
    if (in[k] < '0' || in[k] > '9') fz_broken("a report's size: a digit");
    value = 10 * value + (unsigned long long)(in[k] - '0');
  }
  if (in[at - 1] != '\n' || value != size) fz_broken("a report's size");
  *frame = (size_t)at + size;
}

static void fz_message(const char *text, size_t n)
{
  unsigned long long at;
  if (strncmp(text, "channel byte ", 13) != 0)
    fz_broken("a message that does not say the channel's byte");
  if (strchr(text, '\n') != NULL) fz_broken("a message of two lines");
  at = strtoull(text + 13, NULL, 10);
  if (at > n) fz_broken("a message's byte past the input");
}

/* Read in (n bytes) in pieces of the sizes next_piece gives. */
static void fz_read(const char *in, size_t n, unsigned seed, outcome *o)
{
  rsx_channel c;
  rsx_error err;
  size_t i = 0, frame = 0;
  int r = 0;
  memset(&c, 0, sizeof c);
  memset(o, 0, sizeof *o);
  while (i < n) {
    size_t k = n - i;
    const char *report;
    size_t size;
    if (seed != 0) { /* a piece of 1..seed bytes, by a small LCG */
      static unsigned state;
      if (i == 0) state = seed;
      state = state * 1103515245u + 12345u;
      if (k > 1 + (state >> 16) % seed) k = 1 + (state >> 16) % seed;
    }
    if (rsx_channel_add(&c, in + i, k, &err) != 0) fz_broken("no memory");
    i += k;
    if (c.cap > 256 && c.cap > 2 * i) fz_broken("more held than came");
    while ((r = rsx_channel_next(&c, &report, &size, &err)) == 1) {
      unsigned long long at = c.offset + (unsigned long long)(report -
                                                               c.data);
      fz_report(in, n, at, report, size, &frame);
      if (o->count < 512) {
        o->at[o->count] = (size_t)at;
        o->size[o->count] = size;
      }
      o->count++;
    }
    if (r < 0) break;
  }
  if (r == 0) r = rsx_channel_end(&c, &err);
  if (r != 0 && r != -1) fz_broken("an end that is neither 0 nor -1");
  o->end = r;
  if (r < 0) {
    fz_message(err.text, n);
    strcpy(o->message, err.text);
  }
  rsx_channel_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static outcome whole, pieces;
  const char *in = (const char *)data + 1;
  if (size < 1) return 0;
  fz_read(in, size - 1, 0, &whole);
  fz_read(in, size - 1, 1u + data[0] % 64u, &pieces);
  if (whole.count != pieces.count) fz_broken("pieces: another count");
  if (memcmp(whole.at, pieces.at, sizeof whole.at) != 0 ||
      memcmp(whole.size, pieces.size, sizeof whole.size) != 0)
    fz_broken("pieces: other reports");
  if (whole.end != pieces.end || strcmp(whole.message, pieces.message) != 0)
    fz_broken("pieces: another end");
  return 0;
}
