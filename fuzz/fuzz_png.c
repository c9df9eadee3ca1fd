/*
** fuzz_png.c - libFuzzer target: the PNG reader on arbitrary bytes.
** A PNG the reader accepts must be within the size limits, survive our
** encoder and decoder byte for byte, and make a texture that samples; a
** refusal is one line naming the file. A broken promise aborts, so
** libFuzzer keeps the input.
*/
#include "render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_broken(const char *what, const rsx_error *err)
{
  fprintf(stderr, "fuzz_png: %s%s%s\n", what, err ? ": " : "",
          err ? err->text : "");
  abort();
}

static volatile float fz_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  rsx_error err;
  rsx_image *img = rsx_png_decode(data, size, "fuzz.png", &err), *back;
  rsx_texture *t;
  uint8_t *png;
  size_t n;
  float out[4];

  if (img == NULL) {
    if (strncmp(err.text, "fuzz.png: ", 10) != 0)
      fz_broken("a refusal that does not name the file", &err);
    return 0;
  }
  if (img->width < 1 || img->width > RSX_IMAGE_MAX_SIDE ||
      img->height < 1 || img->height > RSX_IMAGE_MAX_SIDE)
    fz_broken("an accepted size out of range", NULL);
  if (rsx_png_encode(img, &png, &n, &err) != 0)
    fz_broken("cannot encode a decoded image", &err);
  back = rsx_png_decode(png, n, "again.png", &err);
  if (back == NULL) fz_broken("cannot decode our own PNG", &err);
  if (back->width != img->width || back->height != img->height ||
      memcmp(back->rgba, img->rgba,
             (size_t)img->width * img->height * 4) != 0)
    fz_broken("our PNG decodes to other pixels", NULL);
  t = rsx_texture_new(img, &err);
  if (t == NULL) fz_broken("no texture from an image", &err);
  rsx_texture_sample(t, RSX_FILTER_TRILINEAR, -3.3f, 7.9f, 0.1f, 0, 0, 0.2f,
                     out);
  fz_sink = out[0];
  rsx_texture_free(t);
  rsx_image_free(back);
  free(png);
  rsx_image_free(img);
  return 0;
}
