/* image.c - RGBA8 images and their PNG form, read and written by libpng */
#include "render.h"

#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Deflate expands at most 1032 times (258 bytes per two-bit code), so a
** PNG of n bytes cannot hold more than this many bytes of pixel rows. */
#define PNG_MAX_RATIO 1032u
#define PNG_FILE_MAX ((size_t)1 << 30)

int rsx_image_check_size(long width, long height, const char *what,
                         rsx_error *err)
{
  if (width < 1 || width > RSX_IMAGE_MAX_SIDE)
    return rsx_fail(err, "%s: width %ld out of range 1..%d", what, width,
                    RSX_IMAGE_MAX_SIDE);
  if (height < 1 || height > RSX_IMAGE_MAX_SIDE)
    return rsx_fail(err, "%s: height %ld out of range 1..%d", what, height,
                    RSX_IMAGE_MAX_SIDE);
  /* both sides <= 2^14, so 4 * w * h <= 2^30 fits any size_t >= 32 bits */
  return 0;
}

rsx_image *rsx_image_new(long width, long height, rsx_error *err)
{
  rsx_image *img;
  if (rsx_image_check_size(width, height, "image", err) != 0) return NULL;
  img = malloc(sizeof *img);
  if (img == NULL) {
    rsx_fail(err, "image: out of memory");
    return NULL;
  }
  img->width = (int)width;
  img->height = (int)height;
  img->rgba = calloc((size_t)width * (size_t)height, 4);
  if (img->rgba == NULL) {
    free(img);
    rsx_fail(err, "image: out of memory for %ldx%ld", width, height);
    return NULL;
  }
  return img;
}

void rsx_image_free(rsx_image *img)
{
  if (img == NULL) return;
  free(img->rgba);
  free(img);
}

/* ------------------------------------------------------------- reading */

/* libpng reports errors by longjmp; the message lands here first. */
typedef struct png_io {
  const uint8_t *data;
  size_t size, at;
  const char *name;
  rsx_error *err;
  int failed;
} png_io;

static void io_error(png_structp png, png_const_charp msg)
{
  png_io *io = png_get_error_ptr(png);
  if (!io->failed) rsx_fail(io->err, "%s: %s", io->name, msg);
  io->failed = 1;
  png_longjmp(png, 1);
}

static void io_warning(png_structp png, png_const_charp msg)
{
  (void)png;
  (void)msg; /* a damaged ancillary chunk: libpng skips it, so do we */
}

static void io_read(png_structp png, png_bytep out, png_size_t n)
{
  png_io *io = png_get_io_ptr(png);
  if (n > io->size - io->at) {
    rsx_fail(io->err, "%s: truncated PNG: it ends at byte %zu, inside a "
             "chunk", io->name, io->size);
    io->failed = 1;
    png_longjmp(png, 1);
  }
  memcpy(out, io->data + io->at, n);
  io->at += n;
}

/* The 8-bit RGBA conversions, then a check that rows are what we allocate.
** Returns 0 or fills the error. */
static int png_setup(png_structp png, png_infop info, png_io *io,
                     png_uint_32 *w, png_uint_32 *h)
{
  int depth, colour, interlace, channels;
  size_t row_bits, raw;

  png_get_IHDR(png, info, w, h, &depth, &colour, &interlace, NULL, NULL);
  if (*w < 1 || *w > RSX_IMAGE_MAX_SIDE || *h < 1 ||
      *h > RSX_IMAGE_MAX_SIDE)
    return rsx_fail(io->err, "%s: PNG of %lux%lu pixels, not within "
                    "1..%d a side", io->name, (unsigned long)*w,
                    (unsigned long)*h, RSX_IMAGE_MAX_SIDE);
  channels = png_get_channels(png, info);
  row_bits = (size_t)*w * (size_t)channels * (size_t)depth;
  raw = (row_bits + 7) / 8 * (size_t)*h;
  if (raw / PNG_MAX_RATIO > io->size)
    return rsx_fail(io->err, "%s: PNG of %lux%lu pixels cannot fit in "
                    "%zu bytes (truncated or hostile)", io->name,
                    (unsigned long)*w, (unsigned long)*h, io->size);

  if (colour == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (colour == PNG_COLOR_TYPE_GRAY && depth < 8)
    png_set_expand_gray_1_2_4_to_8(png);
  if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
  if (depth == 16) png_set_scale_16(png);
  if (colour == PNG_COLOR_TYPE_GRAY || colour == PNG_COLOR_TYPE_GRAY_ALPHA)
    png_set_gray_to_rgb(png);
  if (!(colour & PNG_COLOR_MASK_ALPHA) &&
      !png_get_valid(png, info, PNG_INFO_tRNS))
    png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
  (void)png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != (size_t)*w * 4)
    return rsx_fail(io->err, "%s: PNG rows of %zu bytes after conversion, "
                    "not %lu", io->name, png_get_rowbytes(png, info),
                    (unsigned long)*w * 4);
  return 0;
}

/* The decode proper; pixels and rows are allocated only after the header
** passed png_setup. Variables changed after setjmp are volatile. */
static rsx_image *png_run(png_structp png, png_infop info, png_io *io)
{
  rsx_image *volatile img = NULL;
  png_bytep *volatile rows = NULL;
  png_uint_32 w, h, y;

  if (setjmp(png_jmpbuf(png))) {
    free(rows);
    rsx_image_free(img);
    return NULL;
  }
  png_set_read_fn(png, io, io_read);
  png_read_info(png, info);
  if (png_setup(png, info, io, &w, &h) != 0) {
    io->failed = 1;
    return NULL;
  }
  img = rsx_image_new((long)w, (long)h, io->err);
  rows = img ? malloc(h * sizeof *rows) : NULL;
  if (rows == NULL) {
    if (img != NULL) rsx_fail(io->err, "%s: out of memory", io->name);
    rsx_image_free(img);
    io->failed = 1;
    return NULL;
  }
  for (y = 0; y < h; y++) rows[y] = img->rgba + (size_t)y * w * 4;
  png_read_image(png, rows);
  png_read_end(png, NULL);
  free(rows);
  return img;
}

rsx_image *rsx_png_decode(const void *data, size_t size, const char *name,
                          rsx_error *err)
{
  png_structp png;
  png_infop info;
  png_io io;
  rsx_image *img;

  if (name == NULL) name = "(png)";
  if (size >= 4 && memcmp(data, "DDS ", 4) == 0) {
    rsx_fail(err, "%s: a DDS texture, not a PNG (only PNG is read)", name);
    return NULL;
  }
  if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
    rsx_fail(err, "%s: not a PNG (no PNG signature)", name);
    return NULL;
  }
  io.data = data;
  io.size = size;
  io.at = 0;
  io.name = name;
  io.err = err;
  io.failed = 0;
  png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &io, io_error,
                               io_warning);
  info = png ? png_create_info_struct(png) : NULL;
  if (info == NULL) {
    png_destroy_read_struct(&png, NULL, NULL);
    rsx_fail(err, "%s: out of memory", name);
    return NULL;
  }
  img = png_run(png, info, &io);
  png_destroy_read_struct(&png, &info, NULL);
  return img;
}

/* The whole file; its size is what the file system says it holds, and
** reading stops at what is really there. */
static uint8_t *read_file(const char *path, size_t *size, rsx_error *err)
{
  /* non-blocking: a FIFO must not hang the open (as rsx_is_bundle) */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  FILE *f;
  uint8_t *buf = NULL, *p;
  size_t cap = 0, n = 0, k;

  if (fd < 0 || fstat(fd, &st) != 0) {
    rsx_fail(err, "%s: %s", path, strerror(errno));
    if (fd >= 0) close(fd);
    return NULL;
  }
  /* only a regular file: a texture path naming /dev/zero read a GiB */
  if (!S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode))
      rsx_fail(err, "%s: %s", path, strerror(EISDIR));
    else
      rsx_fail(err, "%s: not a regular file", path);
    close(fd);
    return NULL;
  }
  f = fdopen(fd, "rb");
  if (f == NULL) {
    rsx_fail(err, "%s: %s", path, strerror(errno));
    close(fd);
    return NULL;
  }
  do {
    if (n == cap) {
      if (cap >= PNG_FILE_MAX) {
        rsx_fail(err, "%s: larger than %zu bytes", path, PNG_FILE_MAX);
        goto fail;
      }
      cap = cap ? cap * 2 : 65536;
      p = realloc(buf, cap);
      if (p == NULL) {
        rsx_fail(err, "%s: out of memory", path);
        goto fail;
      }
      buf = p;
    }
    k = fread(buf + n, 1, cap - n, f);
    n += k;
  } while (k > 0);
  if (ferror(f)) {  /* fread left errno: EISDIR for a folder, EIO */
    rsx_fail(err, "%s: %s", path, strerror(errno));
    goto fail;
  }
  fclose(f);
  *size = n;
  return buf;

fail:
  fclose(f);
  free(buf);
  return NULL;
}

rsx_image *rsx_png_read(const char *path, rsx_error *err)
{
  size_t size;
  uint8_t *data = read_file(path, &size, err);
  rsx_image *img;
  if (data == NULL) return NULL;
  img = rsx_png_decode(data, size, path, err);
  free(data);
  return img;
}

/* ------------------------------------------------------------- writing */

typedef struct png_out {
  uint8_t *data;
  size_t size, cap;
  int failed;
} png_out;

static void out_write(png_structp png, png_bytep p, png_size_t n)
{
  png_out *o = png_get_io_ptr(png);
  if (n > o->cap - o->size) {
    size_t cap = o->cap ? o->cap : 4096;
    uint8_t *q;
    while (cap - o->size < n) cap *= 2;
    q = realloc(o->data, cap);
    if (q == NULL) {
      o->failed = 1;
      png_error(png, "out of memory");
    }
    o->data = q;
    o->cap = cap;
  }
  memcpy(o->data + o->size, p, n);
  o->size += n;
}

static void out_flush(png_structp png)
{
  (void)png;
}

static void out_error(png_structp png, png_const_charp msg)
{
  (void)msg;
  png_longjmp(png, 1);
}

static int png_put(png_structp png, png_infop info, const rsx_image *img,
                   png_out *o)
{
  png_bytep *volatile rows = NULL;
  int y;

  if (setjmp(png_jmpbuf(png))) {
    free(rows);
    return -1;
  }
  rows = malloc((size_t)img->height * sizeof *rows);
  if (rows == NULL) return -1;
  for (y = 0; y < img->height; y++)
    rows[y] = img->rgba + (size_t)y * img->width * 4;
  png_set_write_fn(png, o, out_write, out_flush);
  png_set_IHDR(png, info, (png_uint_32)img->width,
               (png_uint_32)img->height, 8, PNG_COLOR_TYPE_RGB_ALPHA,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_rows(png, info, rows);
  png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
  free(rows);
  return 0;
}

int rsx_png_encode(const rsx_image *img, uint8_t **out, size_t *size,
                   rsx_error *err)
{
  png_structp png;
  png_infop info;
  png_out o = {NULL, 0, 0, 0};
  int rc;

  if (img == NULL || img->rgba == NULL)
    return rsx_fail(err, "png: no image");
  if (rsx_image_check_size(img->width, img->height, "png", err) != 0)
    return -1;
  png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, out_error,
                                io_warning);
  info = png ? png_create_info_struct(png) : NULL;
  if (info == NULL) {
    png_destroy_write_struct(&png, NULL);
    return rsx_fail(err, "png: out of memory");
  }
  rc = png_put(png, info, img, &o);
  png_destroy_write_struct(&png, &info);
  if (rc != 0) {
    free(o.data);
    return rsx_fail(err, "png: out of memory encoding %dx%d", img->width,
                    img->height);
  }
  *out = o.data;
  *size = o.size;
  return 0;
}

int rsx_png_save(const rsx_image *img, const char *path, rsx_error *err)
{
  uint8_t *data;
  size_t size;
  int rc;
  if (rsx_png_encode(img, &data, &size, err) != 0) {
    if (err) {
      /* name the file: "out.png: png: ..." */
      rsx_error e = *err;
      rsx_fail(err, "%s: %s", path, e.text);
    }
    return -1;
  }
  rc = rsx_save_bytes(path, data, size, err);
  free(data);
  return rc;
}
