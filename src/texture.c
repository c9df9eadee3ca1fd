/* texture.c - sRGB conversions, mipmaps in linear light, and sampling */
#include "render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TEX_LEVELS 16 /* 16384 halves 14 times to 1 */

typedef struct tex_level {
  int w, h;
  float *px; /* linear RGBA; NULL for level 0, read from the bytes */
} tex_level;

struct rsx_texture {
  int width, height, levels;
  uint8_t *bytes;          /* level 0, the image's own bytes (a copy) */
  float linear[256];       /* sRGB byte to linear light */
  tex_level level[TEX_LEVELS];
  float mean[4];           /* the 1 x 1 level: the texture's average */
};

static double srgb_decode(double s)
{
  return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4);
}

static double srgb_encode(double l)
{
  return l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055;
}

float rsx_srgb_to_linear(uint8_t b)
{
  return (float)srgb_decode(b / 255.0);
}

uint8_t rsx_linear_to_srgb(float linear)
{
  double s;
  if (!(linear > 0)) return 0; /* NaN too */
  if (linear >= 1) return 255;
  s = srgb_encode(linear) * 255.0 + 0.5;
  return (uint8_t)(s >= 255 ? 255 : s);
}

/* -------------------------------------------------------------- levels */

/* Texel (x, y) of level l in linear light. */
static inline void tex_fetch(const rsx_texture *t, int l, int x, int y,
                             float out[4])
{
  if (l == 0) {
    const uint8_t *p = t->bytes + ((size_t)y * t->width + x) * 4;
    out[0] = t->linear[p[0]];
    out[1] = t->linear[p[1]];
    out[2] = t->linear[p[2]];
    out[3] = p[3] / 255.0f;
  } else {
    const float *p = t->level[l].px + ((size_t)y * t->level[l].w + x) * 4;
    out[0] = p[0];
    out[1] = p[1];
    out[2] = p[2];
    out[3] = p[3];
  }
}

/* The texels of n that output texel i of m = n / 2 (rounded down, or 1)
** covers, [i n / m, (i + 1) n / m): the first in *first, their number
** (at most 4: the span is at most 3 long) returned, and each one's share
** of the span in w. An even side gives two halves; an odd one spans
** 2 + 1/m texels, parts of texels at its ends, so that every texel counts
** by its area once and each level keeps the texture's mean. */
static int tex_span(int i, int n, int m, int *first, float w[4])
{
  double lo, hi;
  int j, c = 0;
  if (n == 2 * m || n == 1) { /* the common case, exactly */
    *first = n == 1 ? 0 : 2 * i;
    w[0] = w[1] = n == 1 ? 1.0f : 0.5f;
    return n == 1 ? 1 : 2;
  }
  lo = (double)i * n / m;
  hi = (double)(i + 1) * n / m;
  *first = (int)lo;
  for (j = *first; j < hi && c < 4; j++, c++) {
    double a = j > lo ? j : lo, b = j + 1 < hi ? j + 1 : hi;
    w[c] = (float)((b - a) / (hi - lo));
  }
  return c;
}

/* Level l + 1 from level l: box averages over the texels each covers. */
static void tex_reduce(rsx_texture *t, int l)
{
  const tex_level *a = &t->level[l];
  tex_level *b = &t->level[l + 1];
  int x, y, i, j, k, nx, ny, x0, y0;
  float wx[4], wy[4], s[4][4], sum[4];
  for (y = 0; y < b->h; y++) {
    ny = tex_span(y, a->h, b->h, &y0, wy);
    for (x = 0; x < b->w; x++) {
      float *o = b->px + ((size_t)y * b->w + x) * 4;
      nx = tex_span(x, a->w, b->w, &x0, wx);
      if (nx == 2 && ny == 2) { /* a 2 x 2 block: the common case, fast */
        tex_fetch(t, l, x0, y0, s[0]);
        tex_fetch(t, l, x0 + 1, y0, s[1]);
        tex_fetch(t, l, x0, y0 + 1, s[2]);
        tex_fetch(t, l, x0 + 1, y0 + 1, s[3]);
        for (k = 0; k < 4; k++)
          o[k] = (s[0][k] + s[1][k] + s[2][k] + s[3][k]) * 0.25f;
        continue;
      }
      memset(sum, 0, sizeof sum);
      for (j = 0; j < ny; j++)
        for (i = 0; i < nx; i++) {
          tex_fetch(t, l, x0 + i, y0 + j, s[0]);
          for (k = 0; k < 4; k++) sum[k] += wx[i] * wy[j] * s[0][k];
        }
      memcpy(o, sum, sizeof sum);
    }
  }
}

rsx_texture *rsx_texture_new(const rsx_image *img, rsx_error *err)
{
  rsx_texture *t;
  size_t n;
  int i, l;

  if (img == NULL || img->rgba == NULL) {
    rsx_fail(err, "texture: no image");
    return NULL;
  }
  t = calloc(1, sizeof *t);
  n = (size_t)img->width * img->height * 4;
  if (t == NULL || (t->bytes = malloc(n)) == NULL) {
    free(t);
    rsx_fail(err, "texture: out of memory");
    return NULL;
  }
  memcpy(t->bytes, img->rgba, n);
  t->width = img->width;
  t->height = img->height;
  for (i = 0; i < 256; i++) t->linear[i] = rsx_srgb_to_linear((uint8_t)i);
  t->level[0].w = img->width;
  t->level[0].h = img->height;
  for (l = 0; l + 1 < TEX_LEVELS &&
              (t->level[l].w > 1 || t->level[l].h > 1); l++) {
    tex_level *b = &t->level[l + 1];
    b->w = t->level[l].w > 1 ? t->level[l].w / 2 : 1;
    b->h = t->level[l].h > 1 ? t->level[l].h / 2 : 1;
    b->px = malloc((size_t)b->w * b->h * 4 * sizeof *b->px);
    if (b->px == NULL) {
      t->levels = l + 1;
      rsx_texture_free(t);
      rsx_fail(err, "texture: out of memory");
      return NULL;
    }
    tex_reduce(t, l);
  }
  t->levels = l + 1;
  tex_fetch(t, l, 0, 0, t->mean);
  return t;
}

void rsx_texture_free(rsx_texture *t)
{
  int l;
  if (t == NULL) return;
  for (l = 1; l < t->levels; l++) free(t->level[l].px);
  free(t->bytes);
  free(t);
}

void rsx_texture_mean(const rsx_texture *t, float out[4])
{
  memcpy(out, t->mean, sizeof t->mean);
}

/* ------------------------------------------------------------ sampling */

/* A texel coordinate wrapped into 0..n-1 (floor, not truncation). */
static inline int wrap(int i, int n)
{
  i %= n;
  return i < 0 ? i + n : i;
}

static inline float frac(float f)
{
  return f - floorf(f);
}

static void sample_nearest(const rsx_texture *t, float u, float v,
                           float out[4])
{
  int x = (int)(frac(u) * t->width), y = (int)(frac(v) * t->height);
  /* frac of a tiny negative is 1 - epsilon, which can round up to 1 */
  if (x >= t->width) x = t->width - 1;
  if (y >= t->height) y = t->height - 1;
  tex_fetch(t, 0, x, y, out);
}

static void sample_bilinear(const rsx_texture *t, int l, float u, float v,
                            float out[4])
{
  const tex_level *lv = &t->level[l];
  float x = frac(u) * lv->w - 0.5f, y = frac(v) * lv->h - 0.5f;
  float fx0 = floorf(x), fy0 = floorf(y);
  float fx = x - fx0, fy = y - fy0;
  int x0 = wrap((int)fx0, lv->w), y0 = wrap((int)fy0, lv->h);
  int x1 = wrap(x0 + 1, lv->w), y1 = wrap(y0 + 1, lv->h);
  float a[4], b[4], c[4], d[4];
  int k;
  tex_fetch(t, l, x0, y0, a);
  tex_fetch(t, l, x1, y0, b);
  tex_fetch(t, l, x0, y1, c);
  tex_fetch(t, l, x1, y1, d);
  for (k = 0; k < 4; k++) {
    float top = a[k] + (b[k] - a[k]) * fx;
    float bottom = c[k] + (d[k] - c[k]) * fx;
    out[k] = top + (bottom - top) * fy;
  }
}

void rsx_texture_sample(const rsx_texture *t, int filter, float u, float v,
                        float du_dx, float dv_dx, float du_dy, float dv_dy,
                        float out[4])
{
  float rx, ry, rho, lod, lo[4], hi[4], f;
  int l, k;

  if (!isfinite(u) || !isfinite(v)) {
    memcpy(out, t->mean, sizeof t->mean);
    return;
  }
  if (filter == RSX_FILTER_NEAREST) {
    sample_nearest(t, u, v, out);
    return;
  }
  if (filter == RSX_FILTER_BILINEAR || t->levels == 1) {
    sample_bilinear(t, 0, u, v, out);
    return;
  }
  /* the footprint of a pixel in level-0 texels, the longer axis */
  rx = (du_dx * t->width) * (du_dx * t->width) +
       (dv_dx * t->height) * (dv_dx * t->height);
  ry = (du_dy * t->width) * (du_dy * t->width) +
       (dv_dy * t->height) * (dv_dy * t->height);
  rho = rx > ry ? rx : ry;
  if (!(rho > 1.0f)) { /* magnified, or NaN derivatives */
    sample_bilinear(t, 0, u, v, out);
    return;
  }
  lod = 0.5f * log2f(rho);
  if (lod >= (float)(t->levels - 1)) {
    sample_bilinear(t, t->levels - 1, u, v, out);
    return;
  }
  l = (int)lod;
  f = lod - (float)l;
  sample_bilinear(t, l, u, v, lo);
  sample_bilinear(t, l + 1, u, v, hi);
  for (k = 0; k < 4; k++) out[k] = lo[k] + (hi[k] - lo[k]) * f;
}
