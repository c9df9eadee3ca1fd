/* t/image.c - images and PNG: sizes, round trips, PNGs made by hand here
** (stored deflate blocks, our own CRC), hostile and truncated files */
#define _POSIX_C_SOURCE 200809L
#include "render.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------- a PNG writer by hand */

typedef struct buf {
  uint8_t d[1 << 16];
  size_t n;
} buf;

static uint32_t crc32_of(const uint8_t *p, size_t n)
{
  uint32_t c = 0xFFFFFFFFu;
  size_t i;
  int k;
  for (i = 0; i < n; i++) {
    c ^= p[i];
    for (k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
  }
  return c ^ 0xFFFFFFFFu;
}

static void put(buf *b, const void *p, size_t n)
{
  if (b->n + n > sizeof b->d) bail_out("test PNG too large");
  memcpy(b->d + b->n, p, n);
  b->n += n;
}

static void buf_put32(buf *b, uint32_t v)
{
  uint8_t q[4];
  rsx_put_be32(q, v);
  put(b, q, 4);
}

static void chunk(buf *b, const char *type, const uint8_t *p, size_t n)
{
  size_t at;
  buf_put32(b, (uint32_t)n);
  at = b->n;
  put(b, type, 4);
  if (n) put(b, p, n);
  buf_put32(b, crc32_of(b->d + at, n + 4));
}

/* raw (filter bytes included) as a zlib stream of stored blocks */
static size_t zlib_stored(const uint8_t *raw, size_t n, uint8_t *out)
{
  size_t o = 0, at = 0;
  uint32_t a = 1, s = 0;
  size_t i;
  out[o++] = 0x78;
  out[o++] = 0x01;
  do {
    size_t k = n - at > 65535 ? 65535 : n - at;
    out[o++] = at + k == n ? 1 : 0;
    out[o++] = (uint8_t)k;
    out[o++] = (uint8_t)(k >> 8);
    out[o++] = (uint8_t)~k;
    out[o++] = (uint8_t)(~k >> 8);
    memcpy(out + o, raw + at, k);
    o += k;
    at += k;
  } while (at < n);
  for (i = 0; i < n; i++) {
    a = (a + raw[i]) % 65521;
    s = (s + a) % 65521;
  }
  out[o++] = (uint8_t)(s >> 8);
  out[o++] = (uint8_t)s;
  out[o++] = (uint8_t)(a >> 8);
  out[o++] = (uint8_t)a;
  return o;
}

static void ihdr(buf *b, uint32_t w, uint32_t h, int depth, int colour)
{
  uint8_t p[13];
  p[0] = (uint8_t)(w >> 24); p[1] = (uint8_t)(w >> 16);
  p[2] = (uint8_t)(w >> 8); p[3] = (uint8_t)w;
  p[4] = (uint8_t)(h >> 24); p[5] = (uint8_t)(h >> 16);
  p[6] = (uint8_t)(h >> 8); p[7] = (uint8_t)h;
  p[8] = (uint8_t)depth;
  p[9] = (uint8_t)colour;
  p[10] = p[11] = p[12] = 0;
  put(b, "\x89PNG\r\n\x1a\n", 8);
  chunk(b, "IHDR", p, 13);
}

static void idat_iend(buf *b, const uint8_t *raw, size_t n)
{
  static uint8_t z[1 << 15];
  size_t zn = zlib_stored(raw, n, z);
  chunk(b, "IDAT", z, zn);
  chunk(b, "IEND", NULL, 0);
}

/* RSX_SEED_DIR=fuzz/corpus-png t/image.t writes the hand-made PNGs there
** as seeds of the fuzz target */
static void seed(const buf *b, const char *name)
{
  const char *dir = getenv("RSX_SEED_DIR");
  char path[512];
  FILE *f;
  if (dir == NULL) return;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  f = fopen(path, "wb");
  if (f == NULL || fwrite(b->d, 1, b->n, f) != b->n) bail_out("seed %s", path);
  fclose(f);
}

static rsx_image *decode(const buf *b, rsx_error *err)
{
  return rsx_png_decode(b->d, b->n, "hand.png", err);
}

static int px_is(const rsx_image *img, int x, int y, int r, int g, int bl,
                 int a)
{
  const uint8_t *p = img->rgba + ((size_t)y * img->width + x) * 4;
  return p[0] == r && p[1] == g && p[2] == bl && p[3] == a;
}

/* ------------------------------------------------------------ the tests */

static void test_sizes(void)
{
  rsx_error err;
  rsx_image *img;
  ok(rsx_image_new(0, 4, &err) == NULL, "width 0 refused");
  is_str(err.text, "image: width 0 out of range 1..16384", "its message");
  ok(rsx_image_new(4, 16385, &err) == NULL, "height 16385 refused");
  is_str(err.text, "image: height 16385 out of range 1..16384",
         "its message");
  ok(rsx_image_new(-3, 4, &err) == NULL, "width -3 refused");
  img = rsx_image_new(16384, 1, &err);
  ok(img != NULL, "16384 x 1 is allowed");
  if (img) ok(img->rgba[0] == 0 && img->rgba[16384 * 4 - 1] == 0,
              "a new image is transparent black");
  rsx_image_free(img);
}

static uint32_t rng_state = 12345;
static uint32_t rng(void)
{
  rng_state = rng_state * 1103515245u + 12345u;
  return rng_state >> 8;
}

static void test_round_trip(void)
{
  static const int sizes[][2] = {{1, 1}, {3, 5}, {17, 9}, {64, 64},
                                 {300, 2}};
  rsx_error err;
  size_t i, j;
  for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    rsx_image *img = rsx_image_new(sizes[i][0], sizes[i][1], &err), *back;
    uint8_t *png;
    size_t n, bytes = (size_t)sizes[i][0] * sizes[i][1] * 4;
    if (!img) bail_out("%s", err.text);
    for (j = 0; j < bytes; j++) img->rgba[j] = (uint8_t)rng();
    ok(rsx_png_encode(img, &png, &n, &err) == 0, "encode %dx%d",
       sizes[i][0], sizes[i][1]);
    back = rsx_png_decode(png, n, "mem.png", &err);
    ok(back != NULL && back->width == img->width &&
       back->height == img->height, "decode %dx%d", sizes[i][0],
       sizes[i][1]);
    if (back) cmp_mem(back->rgba, img->rgba, bytes, "same bytes back");
    rsx_image_free(back);
    free(png);
    rsx_image_free(img);
  }
}

/* Saved whole, read back from the file, and accepted by pngcheck. */
static void test_file(void)
{
  char dir[] = "/tmp/rsx-image-XXXXXX", path[128], cmd[256];
  rsx_error err;
  rsx_image *img, *back;
  int i;

  if (mkdtemp(dir) == NULL) bail_out("mkdtemp failed");
  snprintf(path, sizeof path, "%s/out.png", dir);
  img = rsx_image_new(13, 7, &err);
  for (i = 0; i < 13 * 7 * 4; i++) img->rgba[i] = (uint8_t)rng();
  ok(rsx_png_save(img, path, &err) == 0, "save %s", path);
  back = rsx_png_read(path, &err);
  ok(back && memcmp(back->rgba, img->rgba, 13 * 7 * 4) == 0,
     "read back the same");
  rsx_image_free(back);
  snprintf(cmd, sizeof cmd, "pngcheck -q %s >/dev/null", path);
  is_int(system(cmd), 0, "pngcheck accepts our PNG");
  snprintf(path, sizeof path, "%s/no/such/dir/out.png", dir);
  ok(rsx_png_save(img, path, &err) != 0, "save into a missing folder fails");
  like(err.text, "no/such/dir/out.png", "and names the file");
  ok(rsx_png_read(path, &err) == NULL, "reading a missing file fails");
  like(err.text, "No such file", "with the system's reason");
  rsx_image_free(img);
  snprintf(path, sizeof path, "%s/out.png", dir);
  unlink(path);
  rmdir(dir);
}

/* PNG kinds the core converts, from bytes laid out here. */
static void test_kinds(void)
{
  rsx_error err;
  rsx_image *img;
  buf b;
  /* 2 x 1 grey 8-bit: filter 0, samples 0x10 0xF0 */
  static const uint8_t grey[] = {0, 0x10, 0xF0};
  /* 2 x 2 palette 2-bit: indices 0 1 / 2 1 packed high bits first */
  static const uint8_t pal_raw[] = {0, 0x10, 0, 0x90};
  static const uint8_t plte[] = {255, 0, 0, 0, 255, 0, 0, 0, 255};
  static const uint8_t trns[] = {255, 128};
  /* 1 x 1 RGB 16-bit: 0xABAB 0x0101 0xFEFE scale to AB 01 FE */
  static const uint8_t rgb16[] = {0, 0xAB, 0xAB, 0x01, 0x01, 0xFE, 0xFE};
  /* 1 x 2 grey + alpha 8-bit, with the Sub filter on row 2 */
  static const uint8_t ga[] = {0, 50, 200, 1, 10, 20};

  b.n = 0;
  ihdr(&b, 2, 1, 8, 0);
  idat_iend(&b, grey, sizeof grey);
  seed(&b, "grey8.png");
  img = decode(&b, &err);
  ok(img && px_is(img, 0, 0, 0x10, 0x10, 0x10, 255) &&
     px_is(img, 1, 0, 0xF0, 0xF0, 0xF0, 255), "grey 8-bit to RGBA");
  rsx_image_free(img);

  b.n = 0;
  ihdr(&b, 2, 2, 2, 3);
  chunk(&b, "PLTE", plte, sizeof plte);
  chunk(&b, "tRNS", trns, sizeof trns);
  idat_iend(&b, pal_raw, sizeof pal_raw);
  seed(&b, "palette2-trns.png");
  img = decode(&b, &err);
  ok(img != NULL, "palette 2-bit with tRNS read");
  if (img) {
    ok(px_is(img, 0, 0, 255, 0, 0, 255), "index 0: red, tRNS 255");
    ok(px_is(img, 1, 0, 0, 255, 0, 128), "index 1: green, tRNS 128");
    ok(px_is(img, 0, 1, 0, 0, 255, 255), "index 2: blue, no tRNS: 255");
    ok(px_is(img, 1, 1, 0, 255, 0, 128), "index 1 again");
  }
  rsx_image_free(img);

  b.n = 0;
  ihdr(&b, 1, 1, 16, 2);
  idat_iend(&b, rgb16, sizeof rgb16);
  seed(&b, "rgb16.png");
  img = decode(&b, &err);
  ok(img && px_is(img, 0, 0, 0xAB, 0x01, 0xFE, 255),
     "RGB 16-bit scaled to 8 (v * 257 gives v)");
  rsx_image_free(img);

  b.n = 0;
  ihdr(&b, 1, 2, 8, 4);
  idat_iend(&b, ga, sizeof ga);
  seed(&b, "grey-alpha.png");
  img = decode(&b, &err);
  /* Sub on a 1-pixel row: no left neighbour, bytes as stored */
  ok(img && px_is(img, 0, 0, 50, 50, 50, 200) &&
     px_is(img, 0, 1, 10, 10, 10, 20), "grey + alpha, Sub filter");
  rsx_image_free(img);
}

static void refused(const buf *b, const char *want, const char *what)
{
  rsx_error err;
  rsx_image *img;
  err.text[0] = '\0';
  img = decode(b, &err);
  ok(img == NULL, "refused: %s", what);
  like(err.text, want, "message for %s", what);
  like(err.text, "hand.png: ", "names the file (%s)", what);
  rsx_image_free(img);
}

static void test_hostile(void)
{
  static const uint8_t row[] = {0, 1, 2, 3};
  rsx_error err;
  buf b, good;
  size_t cut;
  int bad = 0;

  b.n = 0;
  put(&b, "DDS |\0\0\0", 8);
  refused(&b, "a DDS texture, not a PNG", "a DDS file");
  b.n = 0;
  put(&b, "GIF89a..", 8);
  refused(&b, "not a PNG", "a GIF");

  b.n = 0;
  ihdr(&b, 16385, 1, 8, 2);
  idat_iend(&b, row, sizeof row);
  refused(&b, "not within 1..16384 a side", "width 16385");

  b.n = 0;
  ihdr(&b, 16384, 16384, 8, 6);
  idat_iend(&b, row, sizeof row);
  refused(&b, "cannot fit in", "16384 x 16384 in a few bytes");

  b.n = 0;
  ihdr(&b, 1, 1, 8, 2);
  b.d[b.n - 1] ^= 0xFF; /* IHDR's CRC */
  idat_iend(&b, row, sizeof row);
  refused(&b, "CRC", "a bad IHDR CRC");

  /* every truncation of a good file fails cleanly and names the file */
  good.n = 0;
  ihdr(&good, 1, 1, 8, 2);
  idat_iend(&good, row, sizeof row);
  {
    rsx_image *img = decode(&good, &err);
    ok(img && px_is(img, 0, 0, 1, 2, 3, 255), "the untruncated file reads");
    rsx_image_free(img);
  }
  for (cut = 0; cut < good.n; cut++) {
    rsx_image *img = rsx_png_decode(good.d, cut, "cut.png", &err);
    if (img != NULL || strncmp(err.text, "cut.png: ", 9) != 0) bad++;
    rsx_image_free(img);
  }
  is_int(bad, 0, "all %zu truncations refused with the file's name",
         good.n);
  {
    rsx_image *img = rsx_png_decode(good.d, good.n - 20, "cut.png", &err);
    ok(img == NULL, "cut inside IDAT");
    like(err.text, "truncated PNG", "says truncated");
    rsx_image_free(img);
  }
}

int main(void)
{
  test_sizes();
  test_round_trip();
  test_file();
  test_kinds();
  test_hostile();
  return done_testing();
}
