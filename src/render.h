/*
** render.h - pictures in the core: RGBA8 images, PNG read and write,
** textures with mipmaps in linear light, and a software renderer of meshes.
** No Lua here. Conventions as in rsxmesh.h: 0 on success, -1 with an
** rsx_error on failure; nothing prints or keeps global state.
**
** The camera conventions (doc/rendering.md): coordinates as the meshes
** store them; a look-at camera as gluLookAt (forward = at - eye, right =
** forward x up, true up = right x forward); perspective with a vertical
** field of view in degrees, or orthographic with a view height; image
** row 0 at the top, pixel centres at +0.5. Texture V is top-origin: texel
** row = v * height from the top row, and UVs wrap (floor, not truncation).
*/
#ifndef RSX_RENDER_H
#define RSX_RENDER_H

#include "rsxmesh.h"

/* --------------------------------------------------------------- images */

#define RSX_IMAGE_MAX_SIDE 16384

/* Width x height pixels of 4 bytes (r, g, b, a), rows top to bottom. */
typedef struct rsx_image {
  int width, height;
  uint8_t *rgba;
} rsx_image;

/* A new image of transparent black; sides must be 1..RSX_IMAGE_MAX_SIDE. */
rsx_image *rsx_image_new(long width, long height, rsx_error *err);
void rsx_image_free(rsx_image *img);

/* Check a size before anything is allocated for it; what names the
** caller in the message ("image", "render"). */
int rsx_image_check_size(long width, long height, const char *what,
                         rsx_error *err);

/* Decode a PNG held in memory into RGBA8 (palette, grey, 16-bit and
** transparency converted; samples kept as stored, no gamma applied).
** name is used in messages. Refuses sizes outside 1..16384 and sizes the
** data cannot hold (deflate expands at most 1032 times) before
** allocating. */
rsx_image *rsx_png_decode(const void *data, size_t size, const char *name,
                          rsx_error *err);

/* Read a PNG file (rsx_png_decode on its bytes). */
rsx_image *rsx_png_read(const char *path, rsx_error *err);

/* Encode as an 8-bit RGBA PNG; *out is malloc'd, the caller frees it. */
int rsx_png_encode(const rsx_image *img, uint8_t **out, size_t *size,
                   rsx_error *err);

/* Write a PNG file whole or not at all (a temporary name, then rename). */
int rsx_png_save(const rsx_image *img, const char *path, rsx_error *err);

/* ------------------------------------------------------------- textures */

enum rsx_filter {
  RSX_FILTER_NEAREST = 0,   /* the texel holding the point, no mipmaps */
  RSX_FILTER_BILINEAR = 1,  /* four texels blended in linear light */
  RSX_FILTER_TRILINEAR = 2  /* bilinear in two mip levels, blended */
};

/* sRGB byte to linear light, and back (the byte nearest the exact sRGB
** encoding, so that decode then encode gives every byte back). */
float rsx_srgb_to_linear(uint8_t b);
uint8_t rsx_linear_to_srgb(float linear);

/* An image ready to sample: its bytes, and its mipmap levels in linear
** light, each side halved (rounded down) to 1 x 1, each texel the
** average of the area it covers (2 x 2 texels; where a side is odd,
** parts of a third row or column too). */
typedef struct rsx_texture rsx_texture;

rsx_texture *rsx_texture_new(const rsx_image *img, rsx_error *err);
void rsx_texture_free(rsx_texture *t);

/* Sample at (u, v), wrapping, into out[4] in linear light. du_dx... are
** the UV's screen derivatives; trilinear uses them to choose the level. */
void rsx_texture_sample(const rsx_texture *t, int filter, float u, float v,
                        float du_dx, float dv_dx, float du_dy, float dv_dy,
                        float out[4]);

/* The texture's average colour in linear light (its 1 x 1 level). */
void rsx_texture_mean(const rsx_texture *t, float out[4]);

/* --------------------------------------------------------------- camera */

typedef struct rsx_camera {
  double eye[3], at[3], up[3];
  double fov;    /* vertical, degrees, 1..179 (perspective) */
  double ortho;  /* > 0: orthographic with this view height; fov unused */
  double near;   /* near clipping distance along forward, > 0 */
} rsx_camera;

#define RSX_DEFAULT_FOV 40.0
#define RSX_DEFAULT_NEAR 0.01

/* Refuses eye = at, a zero up, an up along the view, a fov outside
** 1..179, an ortho height or near distance that is not positive and
** finite. */
int rsx_camera_check(const rsx_camera *c, rsx_error *err);

enum rsx_view { RSX_VIEW_ISO = 0, RSX_VIEW_TOP, RSX_VIEW_FRONT,
                RSX_VIEW_SIDE };

/* An orthographic camera looking at the box min..max from a standard view,
** framing it whole (5% margin) in an image of the given aspect (width /
** height). up is the world's up axis ((0, 1, 0) for the meshes as stored).
** iso looks from the up + front + right octant; top from +up with the
** image's top towards -front; front from +front; side from +right (front
** is the world axis least along up, +Z for +Y up; right = up x front). */
int rsx_camera_frame(rsx_camera *c, int view, const double up[3],
                     const float min[3], const float max[3], double aspect,
                     rsx_error *err);

/* -------------------------------------------------------------- render */

typedef struct rsx_draw rsx_draw;

enum rsx_shade {
  RSX_SHADE_FLAT = 0,  /* base-colour texture, unlit */
  RSX_SHADE_LIT,       /* texture x (ambient + headlight Lambert) */
  RSX_SHADE_NORMALS,   /* normal direction as a colour */
  RSX_SHADE_UV,        /* the UV as a checker tinted by its stored set */
  RSX_SHADE_SELECTORS, /* a colour per selector combination */
  RSX_SHADE_COLOUR     /* the vertex colour bytes */
};

/* Names as the scripts spell them ("flat", "lit", ...), and back (-1). */
const char *rsx_shade_name(int shade);
int rsx_shade_from_name(const char *name);
const char *rsx_filter_name(int filter);
int rsx_filter_from_name(const char *name);
const char *rsx_view_name(int view);
int rsx_view_from_name(const char *name);

/* What stands in for a texture that is missing or unreadable (sRGB). */
#define RSX_FALLBACK_R 180
#define RSX_FALLBACK_G 180
#define RSX_FALLBACK_B 180

/* One submesh to draw. */
struct rsx_draw {
  const rsx_mesh *mesh;
  const rsx_submesh *submesh;  /* NULL: the whole index buffer, with the
                                  default selectors */
  const rsx_texture *texture;  /* NULL: the fallback colour */
};

typedef struct rsx_render_options {
  rsx_camera camera;
  int shade;      /* enum rsx_shade */
  int filter;     /* enum rsx_filter */
  int uv;         /* logical UV 0..3 sampled (or shown by RSX_SHADE_UV) */
  int stored;     /* -1: through the selectors; 0..3: this stored set,
                     the selectors ignored */
  int cull;       /* drop triangles whose front (counter-clockwise) faces
                     away */
  uint8_t background[4];
  /* RSX_SHADE_SELECTORS: the combinations earlier renders numbered (a
  ** legend shared by the cells of a sheet): legend[i] keeps colour i, and
  ** a combination not there is numbered after them. NULL, 0: none. */
  const uint32_t *legend;
  int legend_count;
  uint32_t *coverage; /* NULL, or width * height counters: +1 for every
                         fragment a triangle covers, before the depth test
                         (for tests of the fill rule) */
} rsx_render_options;

/* Initial options: lit, trilinear, UV 0 through the selectors, no cull,
** a dark grey background, the camera unset (all zero). */
void rsx_render_defaults(rsx_render_options *o);

#define RSX_LEGEND_MAX 64

typedef struct rsx_render_stats {
  uint64_t triangles;     /* in the draws */
  uint64_t rasterized;    /* that reached the rasterizer after clipping
                             and culling (a clipped one may count twice) */
  uint64_t fragments;     /* pixels written (that passed the depth test) */
  uint32_t skipped;       /* draws not drawn: a finding stopped them */
  char first_skip[512];   /* why the first was skipped */
  /* RSX_SHADE_SELECTORS: each combination met, in order, with its number
  ** (0-based: its place in the options' legend, else after it, in the
  ** order met) and its colour (the selector bytes as a big-endian u32:
  ** 02ffffff) */
  int legend_count;
  uint32_t legend[RSX_LEGEND_MAX];
  int legend_index[RSX_LEGEND_MAX];
  uint8_t legend_rgb[RSX_LEGEND_MAX][3];
} rsx_render_stats;

/* The colour of the i-th (0-based) selector combination in a legend. */
void rsx_legend_colour(int i, uint8_t rgb[3]);

/* The bounds of the vertices the draws' triangles use; 0 if there are
** none (min and max are then 0). */
int rsx_draw_bounds(const rsx_draw *draws, size_t n, float min[3],
                    float max[3]);

/* Recentre an orthographic camera (as rsx_camera_frame makes) on the
** vertices the draws' triangles use and size its view height to their
** extent across the view, with a 5% margin: tighter than the box. The
** view direction and up are kept; nothing drawn keeps the camera. */
int rsx_camera_fit(rsx_camera *c, const rsx_draw *draws, size_t n,
                   double aspect, rsx_error *err);

/* Clear target to the background and draw. Fails only on bad options or
** memory; a draw a finding stops is skipped and counted in stats (which
** may be NULL). */
int rsx_render(rsx_image *target, const rsx_render_options *o,
               const rsx_draw *draws, size_t n, rsx_render_stats *stats,
               rsx_error *err);

#endif
