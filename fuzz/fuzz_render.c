/*
** fuzz_render.c - libFuzzer target: the renderer on whatever bundle the
** reader accepts. Every submesh is drawn at 48 x 32 from the framed iso
** view (fitted to what is drawn), and again from a perspective camera at
** the bounds' corner, in each shading mode, with a texture of the input's
** first bytes. Damaged positions, UVs and normals must never crash, and a
** render must not fail on a good camera: a broken promise aborts.
*/
#include "render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_broken(const char *what, const rsx_error *err)
{
  fprintf(stderr, "fuzz_render: %s%s%s\n", what, err ? ": " : "",
          err ? err->text : "");
  abort();
}

/* A 3 x 2 texture from the input's first bytes (zeros past its end). */
static rsx_texture *fz_texture(const uint8_t *data, size_t size)
{
  rsx_error err;
  rsx_image *img = rsx_image_new(3, 2, &err);
  rsx_texture *t;
  size_t i;
  if (img == NULL) fz_broken("image", &err);
  for (i = 0; i < 24; i++) img->rgba[i] = i < size ? data[i] : 0;
  t = rsx_texture_new(img, &err);
  rsx_image_free(img);
  if (t == NULL) fz_broken("texture", &err);
  return t;
}

static void fz_render(rsx_image *img, rsx_render_options *o,
                      const rsx_draw *d, size_t n)
{
  rsx_render_stats st;
  rsx_error err;
  int shade;
  for (shade = RSX_SHADE_FLAT; shade <= RSX_SHADE_COLOUR; shade++) {
    o->shade = shade;
    o->filter = shade % 3;
    o->cull = shade & 1;
    if (rsx_render(img, o, d, n, &st, &err) != 0)
      fz_broken("a render failed", &err);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static const double up[3] = {0, 1, 0};
  rsx_error err;
  rsx_bundle *b = rsx_bundle_from_memory(data, size, "fuzz.rsxb", &err);
  rsx_render_options o;
  rsx_texture *tex;
  rsx_draw *d;
  rsx_image *img;
  float mn[3], mx[3];
  size_t n = 0, cap;
  uint32_t i, s;

  if (b == NULL) return 0;
  cap = (size_t)rsx_bundle_submesh_count(b) + rsx_bundle_mesh_count(b);
  d = malloc((cap ? cap : 1) * sizeof *d);
  img = rsx_image_new(48, 32, &err);
  if (d == NULL || img == NULL) fz_broken("out of memory", NULL);
  tex = fz_texture(data, size);
  for (i = 0; i < rsx_bundle_mesh_count(b); i++) {
    const rsx_mesh *m = rsx_bundle_mesh(b, i);
    if (m->submesh_count == 0) {
      d[n].mesh = m;
      d[n].submesh = NULL;
      d[n++].texture = tex;
    }
    for (s = 0; s < m->submesh_count; s++) {
      d[n].mesh = m;
      d[n].submesh = &m->submeshes[s];
      d[n++].texture = (s & 1) ? NULL : tex;
    }
  }
  rsx_render_defaults(&o);
  rsx_draw_bounds(d, n, mn, mx);
  if (rsx_camera_frame(&o.camera, RSX_VIEW_ISO, up, mn, mx, 1.5, &err) != 0)
    fz_broken("frame", &err);
  if (rsx_camera_fit(&o.camera, d, n, 1.5, &err) != 0)
    fz_broken("fit", &err);
  fz_render(img, &o, d, n);
  /* perspective from a corner of the bounds, looking at the other */
  memset(&o.camera, 0, sizeof o.camera);
  for (i = 0; i < 3; i++) {
    o.camera.eye[i] = mn[i];
    o.camera.at[i] = mx[i];
  }
  o.camera.up[1] = 1;
  o.camera.fov = 60;
  o.camera.near = RSX_DEFAULT_NEAR;
  if (rsx_camera_check(&o.camera, NULL) == 0) fz_render(img, &o, d, n);
  rsx_texture_free(tex);
  rsx_image_free(img);
  free(d);
  rsx_bundle_free(b);
  return 0;
}
