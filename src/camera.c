/* camera.c - camera checks, standard views framing a box, option names */
#include "render.h"

#include <math.h>
#include <string.h>

static double dot3(const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double a[3], const double b[3], double out[3])
{
  double x = a[1] * b[2] - a[2] * b[1];
  double y = a[2] * b[0] - a[0] * b[2];
  double z = a[0] * b[1] - a[1] * b[0];
  out[0] = x;
  out[1] = y;
  out[2] = z;
}

static int normalize3(double v[3])
{
  double n = sqrt(dot3(v, v));
  if (!(n > 0) || !isfinite(n)) return -1;
  v[0] /= n;
  v[1] /= n;
  v[2] /= n;
  return 0;
}

static int finite3(const double v[3])
{
  return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

int rsx_camera_check(const rsx_camera *c, rsx_error *err)
{
  double f[3], r[3], up[3];
  if (!finite3(c->eye) || !finite3(c->at) || !finite3(c->up))
    return rsx_fail(err, "camera: eye, at and up must be finite");
  f[0] = c->at[0] - c->eye[0];
  f[1] = c->at[1] - c->eye[1];
  f[2] = c->at[2] - c->eye[2];
  if (normalize3(f) != 0)
    return rsx_fail(err, "camera: eye and at are the same point "
                    "(%g, %g, %g)", c->eye[0], c->eye[1], c->eye[2]);
  memcpy(up, c->up, sizeof up);
  if (normalize3(up) != 0)
    return rsx_fail(err, "camera: up is the zero vector");
  cross3(f, up, r);
  if (sqrt(dot3(r, r)) < 1e-6)
    return rsx_fail(err, "camera: up (%g, %g, %g) is along the view "
                    "direction", c->up[0], c->up[1], c->up[2]);
  if (c->ortho != 0) {
    if (!(c->ortho > 0) || !isfinite(c->ortho))
      return rsx_fail(err, "camera: ortho height %g is not positive",
                      c->ortho);
  } else if (!(c->fov >= 1 && c->fov <= 179)) {
    return rsx_fail(err, "camera: fov %g out of range 1..179 degrees",
                    c->fov);
  }
  if (!(c->near > 0) || !isfinite(c->near))
    return rsx_fail(err, "camera: near %g is not positive", c->near);
  return 0;
}

/* front: the world axis least along up, made perpendicular to it; right =
** up x front. For +Y up: front +Z, right +X. */
static void view_axes(const double up[3], double front[3], double right[3])
{
  static const double axes[3][3] = {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}};
  int i, best = 0;
  double d;
  for (i = 1; i < 3; i++)
    if (fabs(dot3(axes[i], up)) < fabs(dot3(axes[best], up))) best = i;
  d = dot3(axes[best], up);
  for (i = 0; i < 3; i++) front[i] = axes[best][i] - d * up[i];
  (void)normalize3(front);
  cross3(up, front, right);
}

int rsx_camera_frame(rsx_camera *c, int view, const double up_in[3],
                     const float min[3], const float max[3], double aspect,
                     rsx_error *err)
{
  double up[3], front[3], right[3], dir[3], cup[3], centre[3], half[3];
  double cr[3], radius, ext_r = 0, ext_u = 0, height;
  int i, sx, sy, sz;

  memcpy(up, up_in, sizeof up);
  if (normalize3(up) != 0) return rsx_fail(err, "camera: up is zero");
  if (!(aspect > 0) || !isfinite(aspect))
    return rsx_fail(err, "camera: aspect %g is not positive", aspect);
  view_axes(up, front, right);
  for (i = 0; i < 3; i++) {
    switch (view) {
    case RSX_VIEW_TOP: dir[i] = up[i]; cup[i] = -front[i]; break;
    case RSX_VIEW_FRONT: dir[i] = front[i]; cup[i] = up[i]; break;
    case RSX_VIEW_SIDE: dir[i] = right[i]; cup[i] = up[i]; break;
    default: dir[i] = up[i] + front[i] + right[i]; cup[i] = up[i]; break;
    }
    centre[i] = ((double)min[i] + max[i]) / 2;
    half[i] = ((double)max[i] - min[i]) / 2;
  }
  (void)normalize3(dir);
  /* the box's extent across the view: its corners projected on the image
  ** axes (the box is symmetric about its centre, so is the projection) */
  cross3(dir, cup, cr);  /* -right of the camera: only its length counts */
  (void)normalize3(cr);
  {
    double tu[3];
    cross3(cr, dir, tu);
    for (sx = -1; sx <= 1; sx += 2)
      for (sy = -1; sy <= 1; sy += 2)
        for (sz = -1; sz <= 1; sz += 2) {
          double p[3] = {sx * half[0], sy * half[1], sz * half[2]};
          double a = fabs(dot3(p, cr)), b = fabs(dot3(p, tu));
          if (a > ext_r) ext_r = a;
          if (b > ext_u) ext_u = b;
        }
  }
  height = 2 * (ext_u > ext_r / aspect ? ext_u : ext_r / aspect) * 1.05;
  if (!(height > 0) || !isfinite(height)) height = 1;
  radius = sqrt(dot3(half, half));
  if (!isfinite(radius)) return rsx_fail(err, "camera: bounds not finite");
  for (i = 0; i < 3; i++) {
    c->at[i] = centre[i];
    c->eye[i] = centre[i] + dir[i] * (2 * radius + 1);
    c->up[i] = cup[i];
  }
  c->ortho = height;
  c->fov = 0;
  c->near = RSX_DEFAULT_NEAR;
  return 0;
}

/* ---------------------------------------------------------------- names */

static const char *const shade_names[] = {"flat", "lit", "normals", "uv",
                                          "selectors", "colour", NULL};
static const char *const filter_names[] = {"nearest", "bilinear",
                                           "trilinear", NULL};
static const char *const view_names[] = {"iso", "top", "front", "side",
                                         NULL};

static int name_find(const char *const *names, const char *name)
{
  int i;
  for (i = 0; name != NULL && names[i] != NULL; i++)
    if (strcmp(names[i], name) == 0) return i;
  return -1;
}

static const char *name_at(const char *const *names, int count, int i)
{
  return i >= 0 && i < count ? names[i] : NULL;
}

const char *rsx_shade_name(int shade)
{
  return name_at(shade_names, 6, shade);
}

int rsx_shade_from_name(const char *name)
{
  return name_find(shade_names, name);
}

const char *rsx_filter_name(int filter)
{
  return name_at(filter_names, 3, filter);
}

int rsx_filter_from_name(const char *name)
{
  return name_find(filter_names, name);
}

const char *rsx_view_name(int view)
{
  return name_at(view_names, 4, view);
}

int rsx_view_from_name(const char *name)
{
  return name_find(view_names, name);
}
