/* t/render.c - the renderer, against pixels worked out by hand from the
** geometry (the camera conventions of doc/rendering.md) */
#include "render.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------- meshes for the tests */

#define TM_MAXV 16
#define TM_MAXI 48
#define TM_MAXS 4

typedef struct tm {
  uint8_t meta[RSX_META_MIN];
  uint8_t mmp[TM_MAXV * 16];
  uint8_t mgp[TM_MAXV * 40];
  uint8_t idx[TM_MAXI * 2];
  uint8_t rec[TM_MAXS][RSX_SUBMESH_RECORD_MIN];
  rsx_submesh sub[TM_MAXS];
  rsx_mesh m;
} tm;

/* A mesh of mask, n vertices at pos (3 floats each), uv[set] (2 floats a
** vertex, for each stored set the mask has), normal (3 floats a vertex, or
** NULL for (0, 0, 1)), nidx indices, and one submesh over all of them
** with the given selector bytes. */
static void tm_build(tm *t, uint32_t mask, int n, const float *pos,
                     const float *const uv[4], const float *normal,
                     int nidx, const uint16_t *idx, uint32_t selectors)
{
  rsx_format f;
  rsx_error err;
  int v, s, i;
  memset(t, 0, sizeof *t);
  if (n > TM_MAXV || nidx > TM_MAXI) bail_out("tm_build: too big");
  rsx_format_init(&f, mask);
  rsx_put_be32(t->meta + RSX_MASK_OFFSET, mask);
  for (v = 0; v < n; v++) {
    static const float up[3] = {0, 0, 1};
    rsx_encode_value(f.attr[RSX_POSITION], pos + 3 * v,
                     t->mmp + v * f.mmp_stride);
    if (f.attr[RSX_NORMAL])
      rsx_encode_value(f.attr[RSX_NORMAL], normal ? normal + 3 * v : up,
                       t->mmp + v * f.mmp_stride + f.offset[RSX_NORMAL]);
    for (s = 0; s < 4; s++)
      if (f.attr[RSX_UV0 + s] && uv && uv[s])
        rsx_encode_value(f.attr[RSX_UV0 + s], uv[s] + 2 * v,
                         t->mgp + v * f.mgp_stride + f.offset[RSX_UV0 + s]);
  }
  for (i = 0; i < nidx; i++) rsx_put_be16(t->idx + 2 * i, idx[i]);
  rsx_put_be32(t->rec[0] + RSX_SELECTOR_OFFSET, selectors);
  t->sub[0].record = t->rec[0];
  t->sub[0].record_size = RSX_SUBMESH_RECORD_MIN;
  t->sub[0].first_index = 0;
  t->sub[0].index_count = (uint32_t)nidx;
  t->sub[0].material = RSX_NONE;
  t->m.name = "test";
  t->m.index = RSX_NONE;
  t->m.meta = t->meta;
  t->m.meta_size = RSX_META_MIN;
  t->m.vertex_count = (uint32_t)n;
  t->m.mmp = t->mmp;
  t->m.mmp_stride = f.mmp_stride;
  t->m.mgp = f.mgp_stride ? t->mgp : NULL;
  t->m.mgp_stride = f.mgp_stride;
  t->m.indices = t->idx;
  t->m.index_count = (uint32_t)nidx;
  t->m.index_size = 2;
  t->m.primitive = RSX_TRIANGLES;
  t->m.submesh_count = 1;
  t->m.submeshes = t->sub;
  if (rsx_mesh_check(&t->m, 0, "test", &err) != 0)
    bail_out("tm_build: %s", err.text);
}

#define MASK_UV0 0x00080025u    /* position, normal, UV0 */
#define MASK_UV012 0x000800e5u  /* position, normal, UV0..2 */

/* Quad indices: two counter-clockwise triangles 0 1 2, 0 2 3. */
static const uint16_t quad_idx[6] = {0, 1, 2, 0, 2, 3};

static rsx_image *texture_image(int w, int h, const uint8_t *rgb)
{
  rsx_error err;
  rsx_image *img = rsx_image_new(w, h, &err);
  int i;
  if (!img) bail_out("%s", err.text);
  for (i = 0; i < w * h; i++) {
    memcpy(img->rgba + 4 * i, rgb + 3 * i, 3);
    img->rgba[4 * i + 3] = 255;
  }
  return img;
}

static rsx_texture *texture(int w, int h, const uint8_t *rgb)
{
  rsx_error err;
  rsx_image *img = texture_image(w, h, rgb);
  rsx_texture *t = rsx_texture_new(img, &err);
  rsx_image_free(img);
  if (!t) bail_out("%s", err.text);
  return t;
}

/* Head-on orthographic camera: from +Z looking at the origin, view height
** h; for a square image of N pixels, world x = -h/2 + h * sx / N. */
static void ortho_camera(rsx_render_options *o, double h)
{
  rsx_render_defaults(o);
  o->camera.eye[2] = 5;
  o->camera.up[1] = 1;
  o->camera.ortho = h;
  o->camera.near = RSX_DEFAULT_NEAR;
  o->shade = RSX_SHADE_FLAT;
  o->filter = RSX_FILTER_NEAREST;
}

/* From the origin looking down -Z, +Y up, fov 90, flat. */
static void persp_camera(rsx_render_options *o)
{
  rsx_render_defaults(o);
  o->camera.at[2] = -1;
  o->camera.up[1] = 1;
  o->camera.fov = 90;
  o->camera.near = RSX_DEFAULT_NEAR;
  o->shade = RSX_SHADE_FLAT;
}

static const uint8_t *px(const rsx_image *img, int x, int y)
{
  return img->rgba + ((size_t)y * img->width + x) * 4;
}

static int rgb_is(const uint8_t *p, int r, int g, int b)
{
  return p[0] == r && p[1] == g && p[2] == b && p[3] == 255;
}

static rsx_image *new_image(int w, int h)
{
  rsx_error err;
  rsx_image *img = rsx_image_new(w, h, &err);
  if (!img) bail_out("%s", err.text);
  return img;
}

static void render_ok(rsx_image *img, const rsx_render_options *o,
                      const rsx_draw *d, size_t n, rsx_render_stats *st,
                      const char *what)
{
  rsx_error err;
  if (rsx_render(img, o, d, n, st, &err) != 0)
    bail_out("render (%s): %s", what, err.text);
}

/* ------------------------------------------------------------ the tests */

/* The quad (-1..1)^2 at z = 0 fills an 8 x 8 image (ortho height 2). Its
** top edge (y = 1) has v = 0, left edge u = 0. The 2 x 2 texture: red,
** green / blue, white. Pixel centres x + 0.5: u = (x + 0.5) / 8 < 0.5 for
** x < 4, so each 4 x 4 quadrant is one texel. The diagonal of the quad
** runs through pixel centres (i + 0.5, i + 0.5): each is drawn once. */
static void test_ortho_quad(void)
{
  static const float pos[] = {-1, 1, 0, -1, -1, 0, 1, -1, 0, 1, 1, 0};
  static const float uv0[] = {0, 0, 0, 1, 1, 1, 1, 0};
  static const uint8_t tex[] = {255, 0, 0, 0, 255, 0, 0, 0, 255,
                                255, 255, 255};
  const float *uv[4] = {uv0, NULL, NULL, NULL};
  rsx_render_options o;
  rsx_render_stats st;
  rsx_draw d;
  tm t;
  rsx_image *img = new_image(8, 8);
  uint32_t cover[64];
  int x, y, bad = 0, once = 0;

  tm_build(&t, MASK_UV0, 4, pos, uv, NULL, 6, quad_idx, 0xFFFFFFFFu);
  ortho_camera(&o, 2);
  memset(cover, 0, sizeof cover);
  o.coverage = cover;
  d.mesh = &t.m;
  d.submesh = &t.sub[0];
  d.texture = texture(2, 2, tex);
  render_ok(img, &o, &d, 1, &st, "ortho quad");
  for (y = 0; y < 8; y++)
    for (x = 0; x < 8; x++) {
      const uint8_t *p = px(img, x, y);
      int want = (y >= 4) * 2 + (x >= 4);
      bad += !rgb_is(p, tex[3 * want], tex[3 * want + 1],
                     tex[3 * want + 2]);
      once += cover[y * 8 + x] == 1;
    }
  is_int(bad, 0, "ortho quad: each quadrant is its texel, red at top left");
  is_int(once, 64, "ortho quad: every pixel covered exactly once");
  is_int((long long)st.fragments, 64, "64 fragments written");
  is_int((long long)st.triangles, 2, "2 triangles");
  rsx_texture_free((rsx_texture *)d.texture);
  rsx_image_free(img);
}

/* Four triangles fanned around the centre of the square whose corners are
** pixel centres (0.5, 0.5) .. (8.5, 8.5) of a 10 x 10 image: world x = sx
** - 5 with ortho height 10. Top and left edges are in, right and bottom
** out: pixels 0..7 in each axis, 64 pixels, each once. */
static void test_shared_edges(void)
{
  static const float pos[] = {-4.5f, 4.5f, 0,  -4.5f, -3.5f, 0,
                              3.5f, -3.5f, 0,  3.5f, 4.5f, 0,
                              -0.5f, 0.5f, 0};
  static const uint16_t idx[] = {0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4};
  rsx_render_options o;
  rsx_render_stats st;
  rsx_draw d;
  tm t;
  rsx_image *img = new_image(10, 10);
  uint32_t cover[100];
  int x, y, in = 0, twice = 0, wrong = 0;

  tm_build(&t, 0x00080005u, 5, pos, NULL, NULL, 12, idx, 0xFFFFFFFFu);
  ortho_camera(&o, 10);
  memset(cover, 0, sizeof cover);
  o.coverage = cover;
  d.mesh = &t.m;
  d.submesh = NULL;
  d.texture = NULL;
  render_ok(img, &o, &d, 1, &st, "fan");
  for (y = 0; y < 10; y++)
    for (x = 0; x < 10; x++) {
      uint32_t c = cover[y * 10 + x];
      int inside = x < 8 && y < 8;
      in += c == 1;
      twice += c > 1;
      wrong += (c > 0) != inside;
    }
  is_int(in, 64, "fan: 64 pixels covered once");
  is_int(twice, 0, "fan: no pixel covered twice");
  is_int(wrong, 0, "fan: exactly the pixels 0..7 x 0..7");
  ok(rgb_is(px(img, 0, 0), RSX_FALLBACK_R, RSX_FALLBACK_G,
            RSX_FALLBACK_B), "no texture: the fallback colour");
  ok(rgb_is(px(img, 8, 8), 48, 48, 48), "outside: the background");
  rsx_image_free(img);
}

/* Two quads, far (z = 0, 2 x 2) and near (z = 1, 1 x 1 at the centre),
** each one texel: whichever is drawn first, the centre shows the near. */
static void test_depth(void)
{
  static const float far_pos[] = {-1, 1, 0, -1, -1, 0, 1, -1, 0, 1, 1, 0};
  static const float near_pos[] = {-0.5f, 0.5f, 1, -0.5f, -0.5f, 1,
                                   0.5f, -0.5f, 1, 0.5f, 0.5f, 1};
  static const float uv0[] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f,
                              0.5f, 0.5f};
  static const uint8_t red[] = {255, 0, 0}, green[] = {0, 255, 0};
  const float *uv[4] = {uv0, NULL, NULL, NULL};
  rsx_render_options o;
  rsx_draw d[2];
  tm a, b;
  int order, persp;

  tm_build(&a, MASK_UV0, 4, far_pos, uv, NULL, 6, quad_idx, 0xFFFFFFFFu);
  tm_build(&b, MASK_UV0, 4, near_pos, uv, NULL, 6, quad_idx, 0xFFFFFFFFu);
  for (persp = 0; persp < 2; persp++)
    for (order = 0; order < 2; order++) {
      rsx_image *img = new_image(8, 8);
      ortho_camera(&o, 2);
      if (persp) { /* fov 2 atan(1/5): the far quad fills the view */
        o.camera.ortho = 0;
        o.camera.fov = 2 * atan(1 / 5.0) * 180 / 3.14159265358979;
      }
      d[order].mesh = &a.m;
      d[order].submesh = NULL;
      d[order].texture = texture(1, 1, red);
      d[!order].mesh = &b.m;
      d[!order].submesh = NULL;
      d[!order].texture = texture(1, 1, green);
      render_ok(img, &o, d, 2, NULL, "depth");
      ok(rgb_is(px(img, 3, 3), 0, 255, 0) && rgb_is(px(img, 4, 4), 0, 255, 0),
         "%s, %s first: the near quad wins at the centre",
         persp ? "perspective" : "ortho", order ? "near" : "far");
      ok(rgb_is(px(img, 0, 0), 255, 0, 0) && rgb_is(px(img, 7, 7), 255, 0, 0),
         "%s, %s first: the far quad at the corners",
         persp ? "perspective" : "ortho", order ? "near" : "far");
      rsx_texture_free((rsx_texture *)d[0].texture);
      rsx_texture_free((rsx_texture *)d[1].texture);
      rsx_image_free(img);
    }
}

/* A submesh with selectors 02 ff ff ff takes logical UV0 from stored set
** 2. Set 0 points at texel (0, 0) red, set 1 at (0, 1) blue, set 2 at
** (1, 0) green. */
static void test_selectors(void)
{
  static const float pos[] = {-1, 1, 0, -1, -1, 0, 1, -1, 0, 1, 1, 0};
  static const float s0[] = {.25f, .25f, .25f, .25f, .25f, .25f, .25f, .25f};
  static const float s1[] = {.25f, .75f, .25f, .75f, .25f, .75f, .25f, .75f};
  static const float s2[] = {.75f, .25f, .75f, .25f, .75f, .25f, .75f, .25f};
  static const uint8_t tex[] = {255, 0, 0, 0, 255, 0, 0, 0, 255,
                                255, 255, 255};
  const float *uv[4] = {s0, s1, s2, NULL};
  rsx_render_options o;
  rsx_render_stats st;
  rsx_draw d;
  tm t;
  rsx_image *img = new_image(4, 4);

  tm_build(&t, MASK_UV012, 4, pos, uv, NULL, 6, quad_idx, 0x02FFFFFFu);
  is_int(t.sub[0].uv_set[0], 2, "selectors 02ffffff: UV0 from set 2");
  ortho_camera(&o, 2);
  d.mesh = &t.m;
  d.submesh = &t.sub[0];
  d.texture = texture(2, 2, tex);
  render_ok(img, &o, &d, 1, NULL, "selectors");
  ok(rgb_is(px(img, 1, 2), 0, 255, 0), "UV0 samples stored set 2 (green)");
  o.stored = 0;
  render_ok(img, &o, &d, 1, NULL, "stored 0");
  ok(rgb_is(px(img, 1, 2), 255, 0, 0), "--stored 0 samples set 0 (red)");
  o.stored = -1;
  o.uv = 1;
  render_ok(img, &o, &d, 1, NULL, "uv 1");
  ok(rgb_is(px(img, 1, 2), 0, 0, 255), "UV1 (ff: set 1) is blue");
  o.uv = 3;
  render_ok(img, &o, &d, 1, NULL, "uv 3");
  /* UV3 absent: the texture's mean, (255+0+0+255)/4 etc. in linear light;
  ** red: lin(255) * 2 / 4 = 0.5 -> 188 */
  ok(rgb_is(px(img, 1, 2), 188, 188, 188),
     "an absent UV: the texture's mean colour (188 = 0.5 linear)");
  o.uv = 0;
  o.shade = RSX_SHADE_SELECTORS;
  render_ok(img, &o, &d, 1, &st, "selectors mode");
  is_int(st.legend_count, 1, "one combination in the legend");
  is_int(st.legend[0], 0x02FFFFFF, "it is 02ffffff");
  ok(rgb_is(px(img, 1, 2), st.legend_rgb[0][0], st.legend_rgb[0][1],
            st.legend_rgb[0][2]), "drawn in its legend colour");
  /* a legend given (earlier renders'): 02ffffff at place 1 keeps number
  ** 1, colour 1: hue 0.618 x 6 = 3.708, sector 3: (p, q, v) = (0.285,
  ** 0.95 (1 - 0.7 x 0.708), 0.95) -> 73 122 242; not there, it is
  ** numbered after the legend's one entry: 1 again */
  {
    static const uint32_t known[2] = {0xFFFFFFFFu, 0x02FFFFFFu};
    static const uint32_t other[1] = {0};
    o.legend = known;
    o.legend_count = 2;
    render_ok(img, &o, &d, 1, &st, "selectors, a legend given");
    is_int(st.legend_index[0], 1, "a legend given: its number kept (1)");
    ok(rgb_is(px(img, 1, 2), 73, 122, 242), "and its colour: 73 122 242");
    o.legend = other;
    o.legend_count = 1;
    render_ok(img, &o, &d, 1, &st, "selectors, a legend without it");
    is_int(st.legend_index[0], 1, "not in the legend: numbered after it");
    o.legend = NULL;
    o.legend_count = 0;
  }
  o.shade = RSX_SHADE_UV;
  render_ok(img, &o, &d, 1, &st, "uv mode");
  /* UV0 = (0.75, 0.25) from set 2: cell (3, 1) of 4 a unit, 3 + 1 even:
  ** set 2's tint, light */
  ok(rgb_is(px(img, 1, 2), 80, 120, 240), "uv mode: set 2's tint");
  o.stored = 0;
  render_ok(img, &o, &d, 1, &st, "uv mode, stored 0");
  /* (0.25, 0.25): cell (1, 1), even: set 0's tint */
  ok(rgb_is(px(img, 1, 2), 230, 80, 80), "uv mode --stored 0: set 0's");
  o.stored = -1;
  rsx_texture_free((rsx_texture *)d.texture);
  rsx_image_free(img);
}

/* A floor quad y = -1 from z = -1 (v = 0) to z = -5 (v = 1), x -1..1, seen
** from the origin looking down -Z, fov 90, 64 x 64. A floor point at
** depth d is at ndc y = -1/d, row sy = 32 + 32/d; v = (d - 1)/4. The
** texture is 1 x 8, row k a colour of its own: a pixel centre at row j
** samples k = floor(8 v) with d = 32 / (j + 0.5 - 32).
**   row 42: d = 32/10.5 = 3.048, v = 0.512, k = 4 (the midpoint d = 3
**           projects to sy = 42.67, in row 42)
**   row 43: d = 32/11.5 = 2.783, v = 0.446, k = 3
**   row 51: d = 32/19.5 = 1.641, v = 0.160, k = 1
** The screen midpoint of the quad (sy = (64 + 38.4)/2 = 51.2) is row 51:
** affine interpolation would give v = (64 - 51.5)/25.6 = 0.49, k = 3. */
static void test_perspective(void)
{
  static const float pos[] = {-1, -1, -5, -1, -1, -1, 1, -1, -1, 1, -1, -5};
  static const float uv0[] = {0, 1, 0, 0, 1, 0, 1, 1};
  uint8_t tex[24];
  const float *uv[4] = {uv0, NULL, NULL, NULL};
  rsx_render_options o;
  rsx_draw d;
  tm t;
  rsx_image *img = new_image(64, 64);
  int k;

  for (k = 0; k < 8; k++) {
    tex[3 * k] = (uint8_t)(10 + 30 * k);
    tex[3 * k + 1] = (uint8_t)(200 - 20 * k);
    tex[3 * k + 2] = 7;
  }
  tm_build(&t, MASK_UV0, 4, pos, uv, NULL, 6, quad_idx, 0xFFFFFFFFu);
  persp_camera(&o);
  o.filter = RSX_FILTER_NEAREST;
  d.mesh = &t.m;
  d.submesh = NULL;
  d.texture = texture(1, 8, tex);
  render_ok(img, &o, &d, 1, NULL, "perspective");
  ok(rgb_is(px(img, 32, 42), 130, 120, 7), "row 42 samples texel row 4");
  ok(rgb_is(px(img, 32, 43), 100, 140, 7), "row 43 samples texel row 3");
  ok(rgb_is(px(img, 32, 51), 40, 180, 7),
     "row 51 (the screen midpoint) samples row 1, not the middle");
  /* the far edge d = 5 is at sy = 38.4: row 37 (centre 37.5) is beyond;
  ** row 38: d = 32/6.5 = 4.92, v = 0.98, k = 7; row 39: d = 4.27,
  ** v = 0.817, k = 6 */
  ok(rgb_is(px(img, 32, 37), 48, 48, 48), "row 37: beyond the far edge");
  ok(rgb_is(px(img, 32, 38), 220, 60, 7), "row 38: texel row 7");
  ok(rgb_is(px(img, 32, 39), 190, 80, 7), "row 39: texel row 6");
  rsx_texture_free((rsx_texture *)d.texture);
  rsx_image_free(img);
}

/* The floor triangle (-1, -1, -2), (1, -1, -2), (0, -1, 2) crosses the
** plane of the eye (origin, looking down -Z, fov 90, 64 x 64). Only its
** part in front is drawn: floor pixels at depth d from 0.01 to 2, rows
** sy = 32 + 32/d >= 48; at d < 2 the triangle spans |x| <= 1 - (d...),
** wide enough for the centre column. Row 48 (d = 32/16.5 = 1.939) is
** drawn, row 47 (d = 2.065) is beyond the front edge, and nothing is
** drawn above the horizon (rows < 32), where an unclipped vertex behind
** the eye would project. */
static void test_near_clip(void)
{
  static const float pos[] = {-1, -1, -2, 1, -1, -2, 0, -1, 2};
  static const float all_behind[] = {-1, -1, 1, 1, -1, 1, 0, -1, 2};
  static const uint16_t idx[] = {0, 1, 2};
  rsx_render_options o;
  rsx_render_stats st;
  rsx_draw d;
  tm t, b;
  rsx_image *img = new_image(64, 64);
  int x, y, above = 0;

  tm_build(&t, 0x00080005u, 3, pos, NULL, NULL, 3, idx, 0xFFFFFFFFu);
  persp_camera(&o);
  d.mesh = &t.m;
  d.submesh = NULL;
  d.texture = NULL;
  render_ok(img, &o, &d, 1, &st, "near clip");
  ok(rgb_is(px(img, 32, 48), 180, 180, 180), "row 48 is drawn");
  ok(rgb_is(px(img, 32, 47), 48, 48, 48), "row 47 is not");
  ok(rgb_is(px(img, 32, 63), 180, 180, 180), "the bottom row is drawn");
  for (y = 0; y < 40; y++)
    for (x = 0; x < 64; x++) above += !rgb_is(px(img, x, y), 48, 48, 48);
  is_int(above, 0, "nothing above row 40");
  ok(st.rasterized >= 1, "the clipped part reached the rasterizer");

  tm_build(&b, 0x00080005u, 3, all_behind, NULL, NULL, 3, idx, 0xFFFFFFFFu);
  d.mesh = &b.m;
  render_ok(img, &o, &d, 1, &st, "behind");
  is_int((long long)st.fragments, 0, "a triangle behind the eye: nothing");
  rsx_image_free(img);
}

/* A 2 x 1 texture, black and white, across an 8 x 8 quad: bilinear
** blends in linear light. Pixel x samples u = (x + 0.5)/8, texel
** coordinate 2u - 0.5 (texel centres at 0.25, 0.75), wrapping:
**   x = 0: -0.375: white (wrapped) to black by 0.625: 0.375 -> 165
**   x = 1: -0.125: 0.125 -> 99;   x = 2: 0.125 -> 0.125 -> 99
**   x = 3: 0.375 -> 165;  x = 4: 0.625 -> 0.625 linear
** sRGB of linear l is 1.055 l^(1/2.4) - 0.055 (x 255, rounded):
** 0.375 -> 164.75, 0.125 -> 99.09. */
static void test_bilinear(void)
{
  static const float pos[] = {-1, 1, 0, -1, -1, 0, 1, -1, 0, 1, 1, 0};
  static const float uv0[] = {0, 0, 0, 1, 1, 1, 1, 0};
  static const uint8_t bw[] = {0, 0, 0, 255, 255, 255};
  const float *uv[4] = {uv0, NULL, NULL, NULL};
  rsx_render_options o;
  rsx_draw d;
  tm t;
  rsx_image *img = new_image(8, 8);
  rsx_texture *tx = texture(2, 1, bw);
  float s[4];
  int b, bad = 0;

  for (b = 0; b < 256; b++)
    bad += rsx_linear_to_srgb(rsx_srgb_to_linear((uint8_t)b)) != b;
  is_int(bad, 0, "sRGB: every byte decodes and encodes back");
  is_int(rsx_linear_to_srgb(0.5f), 188, "linear 0.5 is sRGB 188 (187.52)");
  rsx_texture_sample(tx, RSX_FILTER_BILINEAR, 0.5f, 0.5f, 0, 0, 0, 0, s);
  is_float(s[0], 0.5f, "half way between black and white: linear 0.5");
  rsx_texture_sample(tx, RSX_FILTER_NEAREST, -0.25f, 0.5f, 0, 0, 0, 0, s);
  is_float(s[0], 1.0f, "u = -0.25 wraps to 0.75: the white texel");
  rsx_texture_sample(tx, RSX_FILTER_NEAREST, -807.75f, 0.5f, 0, 0, 0, 0, s);
  is_float(s[0], 0.0f, "u = -807.75 wraps to 0.25: the black texel");

  tm_build(&t, MASK_UV0, 4, pos, uv, NULL, 6, quad_idx, 0xFFFFFFFFu);
  ortho_camera(&o, 2);
  o.filter = RSX_FILTER_BILINEAR;
  d.mesh = &t.m;
  d.submesh = NULL;
  d.texture = tx;
  render_ok(img, &o, &d, 1, NULL, "bilinear");
  ok(rgb_is(px(img, 0, 5), 165, 165, 165), "x = 0: 165");
  ok(rgb_is(px(img, 1, 5), 99, 99, 99), "x = 1: 99");
  ok(rgb_is(px(img, 2, 5), 99, 99, 99), "x = 2: 99");
  ok(rgb_is(px(img, 3, 5), 165, 165, 165), "x = 3: 165");
  rsx_texture_free(tx);
  rsx_image_free(img);
}

/* A 4 x 4 checker of single texels on a 2 x 2 pixel quad: a pixel spans 2
** texels, lod 1, and level 1 averages two black and two white texels to
** linear 0.5 (188) everywhere; nearest shows black or white. */
static void test_trilinear(void)
{
  static const float pos[] = {-1, 1, 0, -1, -1, 0, 1, -1, 0, 1, 1, 0};
  static const float uv0[] = {0, 0, 0, 1, 1, 1, 1, 0};
  const float *uv[4] = {uv0, NULL, NULL, NULL};
  uint8_t tex[48];
  rsx_render_options o;
  rsx_draw d;
  tm t;
  rsx_image *img = new_image(2, 2);
  int i, x, y, bad = 0;

  for (i = 0; i < 16; i++)
    memset(tex + 3 * i, ((i % 4) + (i / 4)) % 2 ? 255 : 0, 3);
  tm_build(&t, MASK_UV0, 4, pos, uv, NULL, 6, quad_idx, 0xFFFFFFFFu);
  ortho_camera(&o, 2);
  o.filter = RSX_FILTER_TRILINEAR;
  d.mesh = &t.m;
  d.submesh = NULL;
  d.texture = texture(4, 4, tex);
  render_ok(img, &o, &d, 1, NULL, "trilinear");
  for (y = 0; y < 2; y++)
    for (x = 0; x < 2; x++) bad += !rgb_is(px(img, x, y), 188, 188, 188);
  is_int(bad, 0, "trilinear: the checker averages to 188 at lod 1");
  rsx_texture_free((rsx_texture *)d.texture);
  rsx_image_free(img);
}

/* Between two levels. A 4 x 4 texture, columns 0..1 white and 2..3
** black: level 1 (2 x 2) is white then black, level 2 (1 x 1) linear 0.5.
** At (0.25, 0.25), level 1's texel (0, 0) centre: 1 from level 1, 0.5 from
** level 2. A screen step of (du, dv) = (0.5, 0.5), 2 texels each way, is
** rho = 2^2 + 2^2 = 8 texels squared: lod 0.5 log2 8 = 1.5, half of each:
** 0.75 linear, sRGB 224.61 -> 225 (levels 0 and 1 would give 1, 255).
** (0.25, 0.75), 1 and 3 texels: rho 10, lod 0.5 log2 10 = 1.66096, 0.661
** of level 2: 1 x 0.339 + 0.5 x 0.661 = 0.66952, sRGB 213.59 -> 214
** (the weights swapped: 0.83048, 235). */
static void test_trilinear_between(void)
{
  uint8_t tex[48];
  rsx_texture *tx;
  float s[4];
  int i;

  for (i = 0; i < 16; i++) memset(tex + 3 * i, i % 4 < 2 ? 255 : 0, 3);
  tx = texture(4, 4, tex);
  rsx_texture_sample(tx, RSX_FILTER_TRILINEAR, 0.25f, 0.25f, 0.5f, 0.5f, 0,
                     0, s);
  ok(fabsf(s[0] - 0.75f) < 1e-6f, "lod 1.5: half level 1 (1), half level "
     "2 (0.5): 0.75 (got %.9g)", s[0]);
  is_int(rsx_linear_to_srgb(s[0]), 225, "lod 1.5: sRGB 225");
  rsx_texture_sample(tx, RSX_FILTER_TRILINEAR, 0.25f, 0.25f, 0.25f, 0.75f,
                     0, 0, s);
  ok(fabsf(s[0] - 0.669518f) < 1e-5f, "lod 1.661: 0.339 of level 1, 0.661 "
     "of level 2: 0.66952 (got %.9g)", s[0]);
  is_int(rsx_linear_to_srgb(s[0]), 214, "lod 1.661: sRGB 214");
  rsx_texture_free(tx);
}

/* Odd sides: every texel counts, by its area. 3 x 1 red, red, blue
** halves to 1 x 1, the mean of all three: red 2/3 linear, sRGB 213.18 ->
** 213; blue 1/3, 156.19 -> 156 (the last column dropped: red 255, 0, 0).
** 5 x 1 black, black, white, white, white: level 1 (2 x 1) spans 2.5
** texels each, weights 0.4, 0.4, 0.2 and 0.2, 0.4, 0.4: 0.2 and 1; level
** 2 is 0.6 (3/5), sRGB 203.42 -> 203 (dropping texel 5: 0.5, 188). Level
** 1's texel 0, read at its centre u = 0.25 with a step of 2 texels (rho 4,
** lod 1): 0.2, sRGB 123.55 -> 124. */
static void test_mip_odd(void)
{
  static const uint8_t rrb[] = {255, 0, 0, 255, 0, 0, 0, 0, 255};
  static const uint8_t kkwww[] = {0, 0, 0, 0, 0, 0, 255, 255, 255,
                                  255, 255, 255, 255, 255, 255};
  rsx_texture *tx = texture(3, 1, rrb);
  float m[4], s[4];

  rsx_texture_mean(tx, m);
  ok(rsx_linear_to_srgb(m[0]) == 213 && rsx_linear_to_srgb(m[1]) == 0 &&
     rsx_linear_to_srgb(m[2]) == 156 && m[3] == 1.0f,
     "3 x 1 red, red, blue: the mean 213, 0, 156 (got %d, %d, %d)",
     rsx_linear_to_srgb(m[0]), rsx_linear_to_srgb(m[1]),
     rsx_linear_to_srgb(m[2]));
  rsx_texture_free(tx);
  tx = texture(5, 1, kkwww);
  rsx_texture_mean(tx, m);
  is_int(rsx_linear_to_srgb(m[0]), 203, "5 x 1: the mean 3/5, sRGB 203");
  rsx_texture_sample(tx, RSX_FILTER_TRILINEAR, 0.25f, 0.5f, 0.4f, 0, 0, 0,
                     s);
  is_int(rsx_linear_to_srgb(s[0]), 124,
         "5 x 1: level 1's first texel 0.4 x 0 + 0.4 x 0 + 0.2 x 1: 124");
  rsx_texture_free(tx);
}

/* Lit: a white texture x (0.25 + 0.75 |n . forward|). The quad's normal
** (0, 0, 1) faces the camera: 255; a normal along +X: linear 0.25, 137.
** Normals mode: (0, 0, 1) is (128, 128, 255). */
static void test_lit(void)
{
  static const float pos[] = {-1, 1, 0, -1, -1, 0, 1, -1, 0, 1, 1, 0};
  static const float side[] = {1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0};
  static const float uv0[] = {0, 0, 0, 1, 1, 1, 1, 0};
  static const uint8_t white[] = {255, 255, 255};
  const float *uv[4] = {uv0, NULL, NULL, NULL};
  rsx_render_options o;
  rsx_draw d;
  tm t, s;
  rsx_image *img = new_image(4, 4);

  tm_build(&t, MASK_UV0, 4, pos, uv, NULL, 6, quad_idx, 0xFFFFFFFFu);
  tm_build(&s, MASK_UV0, 4, pos, uv, side, 6, quad_idx, 0xFFFFFFFFu);
  ortho_camera(&o, 2);
  o.shade = RSX_SHADE_LIT;
  d.mesh = &t.m;
  d.submesh = NULL;
  d.texture = texture(1, 1, white);
  render_ok(img, &o, &d, 1, NULL, "lit");
  /* CMP z of 1.0 stores 511: 511 * 64 / 32767, normalised to 1 */
  ok(rgb_is(px(img, 1, 1), 255, 255, 255), "lit, facing: the texture");
  d.mesh = &s.m;
  render_ok(img, &o, &d, 1, NULL, "lit side");
  ok(rgb_is(px(img, 1, 1), 137, 137, 137), "lit, edge-on: ambient 137");
  d.mesh = &t.m;
  o.shade = RSX_SHADE_NORMALS;
  render_ok(img, &o, &d, 1, NULL, "normals");
  ok(rgb_is(px(img, 1, 1), 128, 128, 255), "normals: +Z is 128 128 255");
  o.shade = RSX_SHADE_FLAT;
  o.cull = 1;
  render_ok(img, &o, &d, 1, NULL, "cull front");
  ok(rgb_is(px(img, 1, 1), 255, 255, 255), "cull: a front face stays");
  o.camera.eye[2] = -5; /* from behind, it faces away */
  render_ok(img, &o, &d, 1, NULL, "cull back");
  ok(rgb_is(px(img, 1, 1), 48, 48, 48), "cull: a back face goes");
  o.cull = 0;
  render_ok(img, &o, &d, 1, NULL, "no cull");
  ok(rgb_is(px(img, 1, 1), 255, 255, 255), "no cull: drawn from behind");
  rsx_texture_free((rsx_texture *)d.texture);
  rsx_image_free(img);
}

/* Colour mode: the vertex colour bytes (mask 0x00080027: MGP colour at
** +0, UV0 at +4), interpolated; at every vertex the same (255, 128, 0),
** so every pixel is that. Without colours: white. A zero normal in lit
** mode counts as facing the camera: the texture as it is. The uv mode
** shows magenta where the submesh lacks the UV. */
static void test_colour_and_zero(void)
{
  static const float pos[] = {-1, 1, 0, -1, -1, 0, 1, -1, 0, 1, 1, 0};
  static const float zero[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  static const float uv0[] = {0, 0, 0, 1, 1, 1, 1, 0};
  static const uint8_t grey[] = {100, 150, 200};
  const float *uv[4] = {uv0, NULL, NULL, NULL};
  rsx_render_options o;
  rsx_draw d;
  tm t, z;
  rsx_image *img = new_image(4, 4);
  int v;

  tm_build(&t, 0x00080027u, 4, pos, uv, NULL, 6, quad_idx, 0xFFFFFFFFu);
  for (v = 0; v < 4; v++) {
    uint8_t *c = t.mgp + v * t.m.mgp_stride;
    c[0] = 255;
    c[1] = 128;
    c[2] = 0;
    c[3] = 255;
  }
  ortho_camera(&o, 2);
  o.shade = RSX_SHADE_COLOUR;
  d.mesh = &t.m;
  d.submesh = NULL;
  d.texture = NULL;
  render_ok(img, &o, &d, 1, NULL, "colour");
  ok(rgb_is(px(img, 1, 2), 255, 128, 0), "colour: the vertex bytes");
  tm_build(&z, MASK_UV0, 4, pos, uv, zero, 6, quad_idx, 0xFFFFFFFFu);
  d.mesh = &z.m;
  render_ok(img, &o, &d, 1, NULL, "colour absent");
  ok(rgb_is(px(img, 1, 2), 255, 255, 255), "colour: none is white");
  o.shade = RSX_SHADE_LIT;
  o.filter = RSX_FILTER_NEAREST;
  d.texture = texture(1, 1, grey);
  render_ok(img, &o, &d, 1, NULL, "zero normal");
  ok(rgb_is(px(img, 1, 2), 100, 150, 200),
     "lit: a zero normal faces the camera (factor 1)");
  o.shade = RSX_SHADE_NORMALS;
  render_ok(img, &o, &d, 1, NULL, "zero normal, normals");
  ok(rgb_is(px(img, 1, 2), 128, 128, 128), "normals: zero is 128 grey");
  o.shade = RSX_SHADE_UV;
  o.uv = 2;
  render_ok(img, &o, &d, 1, NULL, "uv absent");
  ok(rgb_is(px(img, 1, 2), 255, 0, 255), "uv: an absent UV is magenta");
  rsx_texture_free((rsx_texture *)d.texture);
  rsx_image_free(img);
}

static void test_bad_camera(void)
{
  rsx_render_options o;
  rsx_error err;
  rsx_image *img = new_image(4, 4);

  ortho_camera(&o, 2);
  o.camera.ortho = 0;
  o.camera.fov = 0.5;
  ok(rsx_render(img, &o, NULL, 0, NULL, &err) != 0, "fov 0.5 refused");
  is_str(err.text, "camera: fov 0.5 out of range 1..179 degrees", "message");
  o.camera.fov = 180;
  ok(rsx_render(img, &o, NULL, 0, NULL, &err) != 0, "fov 180 refused");
  o.camera.fov = 40;
  memcpy(o.camera.eye, o.camera.at, sizeof o.camera.eye);
  ok(rsx_render(img, &o, NULL, 0, NULL, &err) != 0, "eye = at refused");
  like(err.text, "eye and at are the same point", "message");
  o.camera.eye[1] = 3;
  ok(rsx_render(img, &o, NULL, 0, NULL, &err) != 0, "up along view refused");
  like(err.text, "along the view direction", "message");
  o.camera.eye[1] = 0;
  o.camera.eye[2] = 5;
  o.camera.ortho = -1;
  ok(rsx_render(img, &o, NULL, 0, NULL, &err) != 0, "ortho -1 refused");
  o.camera.ortho = 2;
  o.camera.near = 0;
  ok(rsx_render(img, &o, NULL, 0, NULL, &err) != 0, "near 0 refused");
  rsx_image_free(img);
}

/* Top view of the box (-1,-2,-3)..(1,2,3), aspect 1: the image's axes are
** x (half 1) and z (half 3); height 2 * 3 * 1.05; the eye above on +Y at
** distance 2 |half| + 1 = 2 sqrt(14) + 1, with -Z at the top. */
static void test_frame(void)
{
  static const float mn[3] = {-1, -2, -3}, mx[3] = {1, 2, 3};
  static const double up[3] = {0, 1, 0};
  rsx_camera c;
  rsx_error err;
  memset(&c, 0, sizeof c);
  ok(rsx_camera_frame(&c, RSX_VIEW_TOP, up, mn, mx, 1.0, &err) == 0,
     "frame the top view");
  ok(fabs(c.ortho - 6.3) < 1e-12, "ortho height 6.3 (got %g)", c.ortho);
  ok(fabs(c.eye[1] - (2 * sqrt(14.0) + 1)) < 1e-12 && c.eye[0] == 0 &&
     c.eye[2] == 0, "eye straight above");
  ok(c.up[2] == -1 && c.up[0] == 0 && c.up[1] == 0, "-Z at the top");
  ok(rsx_camera_frame(&c, RSX_VIEW_FRONT, up, mn, mx, 2.0, &err) == 0,
     "frame the front view, aspect 2");
  /* front: x half 1 across (1/2 < 2 up), y half 2 up: 2 * 2 * 1.05 */
  ok(fabs(c.ortho - 4.2) < 1e-12, "ortho height 4.2 (got %g)", c.ortho);
  ok(c.eye[2] > 0 && c.eye[0] == 0, "front: the eye on +Z");
  ok(rsx_camera_check(&c, &err) == 0, "a framed camera passes the check");
}

/* Fit: the quad (-1..1)^2 at z = 0, offset by (3, 0, 0), seen from the
** front: the view is recentred on (3, 0, 0) and its height is the quad's
** 2 x 1.05 (aspect 1); the eye stays on +Z, in front of the quad. */
static void test_fit(void)
{
  static const float pos[] = {2, 1, 0, 2, -1, 0, 4, -1, 0, 4, 1, 0};
  static const double up[3] = {0, 1, 0};
  static const float mn[3] = {-10, -10, -10}, mx[3] = {10, 10, 10};
  rsx_camera c;
  rsx_error err;
  rsx_draw d;
  tm t;
  tm_build(&t, 0x00080005u, 4, pos, NULL, NULL, 6, quad_idx, 0xFFFFFFFFu);
  d.mesh = &t.m;
  d.submesh = NULL;
  d.texture = NULL;
  memset(&c, 0, sizeof c);
  rsx_camera_frame(&c, RSX_VIEW_FRONT, up, mn, mx, 1.0, &err);
  ok(rsx_camera_fit(&c, &d, 1, 1.0, &err) == 0, "fit");
  ok(fabs(c.ortho - 2.1) < 1e-9, "fit: height 2.1 (got %g)", c.ortho);
  ok(fabs(c.at[0] - 3) < 1e-9 && fabs(c.at[1]) < 1e-9 &&
     fabs(c.at[2]) < 1e-9, "fit: at the quad's centre");
  ok(c.eye[2] > 0 && fabs(c.eye[0] - 3) < 1e-9, "fit: the eye on +Z");
}

/* Damaged data never crashes: NaN, infinite and huge positions, a
** triangle through the eye itself; a mesh whose MMP stride disagrees
** with its mask is skipped, counted and named. */
static void test_hostile_geometry(void)
{
  static const float pos[] = {NAN, 0, -1, 1, -1, -2, 0, 1, -2,
                              INFINITY, 0, -3, 1e30f, -1e30f, -1,
                              0, 0, 0, -1e-30f, 1, 0,
                              1e30f, 1e30f, -1e-3f, -1, -1, -2};
  static const uint16_t idx[] = {0, 1, 2, 3, 1, 2, 4, 1, 2, 5, 6, 1,
                                 7, 8, 2, 5, 5, 8};
  rsx_render_options o;
  rsx_render_stats st;
  rsx_draw d;
  tm t;
  rsx_image *img = new_image(32, 32);
  int k;

  tm_build(&t, 0x00080005u, 9, pos, NULL, NULL, 18, idx, 0xFFFFFFFFu);
  d.mesh = &t.m;
  d.submesh = NULL;
  d.texture = NULL;
  for (k = 0; k < 2; k++) {
    persp_camera(&o);
    if (k) {
      o.camera.ortho = 3;
      o.camera.eye[2] = 5;
    }
    render_ok(img, &o, &d, 1, &st, "hostile");
    /* six triangles, the last degenerate (5, 5, 8): dropped */
    ok(st.triangles == 5, "%s: damaged positions drawn without harm",
       k ? "ortho" : "perspective");
  }
  /* the MMP stride as stored is 20, the mask implies 16 */
  t.m.mmp_stride = 20;
  t.m.vertex_count = 4;
  if (rsx_mesh_check(&t.m, 0, "test", NULL) != 0) bail_out("recheck");
  t.m.index_count = 0;
  t.sub[0].index_count = 0;
  render_ok(img, &o, &d, 1, &st, "stride finding");
  is_int(st.skipped, 1, "a mesh that cannot be decoded is skipped");
  like(st.first_skip, "cannot decode position", "and the reason kept");
  rsx_image_free(img);
}

int main(void)
{
  test_ortho_quad();
  test_shared_edges();
  test_depth();
  test_selectors();
  test_perspective();
  test_near_clip();
  test_bilinear();
  test_trilinear();
  test_trilinear_between();
  test_mip_odd();
  test_lit();
  test_colour_and_zero();
  test_bad_camera();
  test_frame();
  test_fit();
  test_hostile_geometry();
  return done_testing();
}
