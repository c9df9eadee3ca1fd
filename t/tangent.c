/*
** tangent.c - tests of the glTF import's tangent frames (src/tangent.c):
** every expected value worked out by hand. MikkTSpace's rule: a
** triangle's tangent is dP/dU, from U and V' = -v (glTF's v grows
** downwards, MikkTSpace's V upwards; only differences count), w = +1
** when the triangle's UVs (u, V') wind counter-clockwise, made across N,
** summed by corner angle, made unit. The game's B = cross(N, T) * w, and
** turned round for MikkTSpace's w (its bitangent runs along falling v).
*/
#include "tangent.h"
#include "tap.h"

#include <math.h>
#include <string.h>

static double out[4 * 8];
static unsigned char how[8];
static rsx_error err;

static int near(double got, double want)
{
  return fabs(got - want) <= 1e-12;
}

static int tangent_is(size_t v, double x, double y, double z, double w)
{
  const double *t = out + 4 * v;
  return near(t[0], x) && near(t[1], y) && near(t[2], z) && t[3] == w;
}

static int compute(const double *pos, const double *nrm, const double *uv,
                   size_t nv, const uint32_t *tri, size_t ntri)
{
  memset(out, 0xFF, sizeof out); /* NaN: a vertex left unwritten shows */
  memset(how, 9, sizeof how);
  err.text[0] = '\0';
  return rsx_tangent_compute(pos, nrm, uv, nv, tri, ntri, out, how, &err);
}

static const double QUAD[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
static const double UP[] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
static const uint32_t QUAD_TRIS[] = {0, 1, 2, 0, 2, 3};

static void test_quad(void)
{
  /* u along +x, v along -y (an image's top at +y): V' along +y, u and
  ** V' turn as x and y do: T = +x, w = +1 at every vertex */
  static const double uv[] = {0, 1, 1, 1, 1, 0, 0, 0};
  /* v along +y: V' along -y, the turn reversed: w = -1 */
  static const double uv_down[] = {0, 0, 1, 0, 1, 1, 0, 1};
  /* u along -x (mirrored): T = -x, and the turn reversed again */
  static const double uv_mirrored[] = {1, 1, 0, 1, 0, 0, 1, 0};
  static const double tilted[] = {0.6, 0, 0.8, 0.6, 0, 0.8, 0.6, 0, 0.8,
                                  0.6, 0, 0.8};
  size_t v;
  int all;

  is_int(compute(QUAD, UP, uv, 4, QUAD_TRIS, 2), 0, "a quad: computed");
  for (all = 1, v = 0; v < 4; v++)
    all = all && tangent_is(v, 1, 0, 0, 1) && how[v] == RSX_TANGENT_FROM_UVS;
  ok(all, "a quad, v falling along +y: T = (1, 0, 0), w = +1 everywhere");
  compute(QUAD, UP, uv_down, 4, QUAD_TRIS, 2);
  for (all = 1, v = 0; v < 4; v++) all = all && tangent_is(v, 1, 0, 0, -1);
  ok(all, "v growing along +y: T = (1, 0, 0), w = -1");
  compute(QUAD, UP, uv_mirrored, 4, QUAD_TRIS, 2);
  for (all = 1, v = 0; v < 4; v++) all = all && tangent_is(v, -1, 0, 0, -1);
  ok(all, "u mirrored: T = (-1, 0, 0), w = -1");
  /* N = (0.6, 0, 0.8): (1, 0, 0) - 0.6 N = (0.64, 0, -0.48), over 0.8 */
  compute(QUAD, tilted, uv, 4, QUAD_TRIS, 2);
  for (all = 1, v = 0; v < 4; v++) all = all && tangent_is(v, 0.8, 0, -0.6, 1);
  ok(all, "N tilted: T made across it, (0.8, 0, -0.6)");
}

static void test_slanted(void)
{
  /* u = x + y, V' = y - x over (0, 0, 0), (2, 0, 0), (0, 1, 0): x =
  ** (u - V') / 2, y = (u + V') / 2, dP/du = (1/2, 1/2, 0): T = (1, 1, 0)
  ** / sqrt 2; the UV triangle (0, 0), (2, -2), (1, 1) winds
  ** counter-clockwise: w = +1. glTF's v = -V'. */
  static const double pos[] = {0, 0, 0, 2, 0, 0, 0, 1, 0};
  static const double uv[] = {0, 0, 2, 2, 1, -1};
  static const uint32_t tri[] = {0, 1, 2};
  double r = sqrt(0.5);
  compute(pos, UP, uv, 3, tri, 1);
  ok(tangent_is(0, r, r, 0, 1) && tangent_is(1, r, r, 0, 1) &&
       tangent_is(2, r, r, 0, 1),
     "u = x + y: T = (1, 1, 0) / sqrt 2, w = +1");
}

static void test_angles(void)
{
  /* vertex 0 at the origin is a corner of two triangles: 0 1 2 with a
  ** right angle there and T = (1, 0, 0) (u = x, V' = y), and 0 4 3 with
  ** 45 degrees there (edges to (0, -1) and (1, -1)) and T = (0, 1, 0)
  ** (u = y, V' = -x), both winding counter-clockwise in (u, V'). Summed
  ** by angle: (pi/2, pi/4, 0), unit: (2, 1, 0) / sqrt 5. */
  static const double pos[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, -1, 0,
                               0, -1, 0};
  static const double nrm[] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
  /* glTF's v = -V': vertex 3 (1, -1): u = -1, V' = -1; 4 (0, -1): u = -1,
  ** V' = 0 */
  static const double uv[] = {0, 0, 1, 0, 0, -1, -1, 1, -1, 0};
  static const uint32_t tri[] = {0, 1, 2, 0, 4, 3};
  double s = sqrt(5.0);
  compute(pos, nrm, uv, 5, tri, 2);
  ok(tangent_is(0, 2 / s, 1 / s, 0, 1),
     "two triangles at a vertex: weighted by their angles there,"
     " (2, 1, 0) / sqrt 5");
  ok(tangent_is(1, 1, 0, 0, 1) && tangent_is(3, 0, 1, 0, 1),
     "... each other vertex its one triangle's");
}

static void test_sides(void)
{
  /* vertex 0 in a right-angled triangle winding counter-clockwise in
  ** (u, V') (T = +x, w = +1) and a 45-degree one winding the other way
  ** (u = y, V' = x): the larger angle's side, w = +1 and T = +x */
  static const double pos[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, -1, 0,
                               0, -1, 0};
  static const double uv[] = {0, 0, 1, 0, 0, -1, -1, -1, -1, 0};
  static const uint32_t tri[] = {0, 1, 2, 0, 4, 3};
  static const double nrm[] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
  compute(pos, nrm, uv, 5, tri, 2);
  ok(tangent_is(0, 1, 0, 0, 1), "sides that disagree: the one with more"
     " angle at the vertex");
  ok(tangent_is(3, 0, 1, 0, -1), "... and the other triangle's own"
     " vertices its side, w = -1");
}

static void test_degenerate(void)
{
  static const double flat_uv[] = {0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5};
  static const double uv[] = {0, 1, 1, 1, 1, 0, 0, 0};
  static const double same[] = {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3};
  static const double x_normal[] = {1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0};
  double nan_uv[8], nan_n[12];
  static const uint32_t past[] = {0, 1, 4};
  size_t v;
  int all;

  /* no UV area: N = +z, the axis least along it +x: cross(x, N) =
  ** (0, -1, 0), w = +1 */
  is_int(compute(QUAD, UP, flat_uv, 4, QUAD_TRIS, 2), 0,
         "no UV area: computed");
  for (all = 1, v = 0; v < 4; v++)
    all = all && tangent_is(v, 0, -1, 0, 1) && how[v] == RSX_TANGENT_ACROSS_N;
  ok(all, "no UV area: T across N, (0, -1, 0), w = +1, said so");
  /* every position the same: dP/du has no length */
  compute(same, UP, uv, 4, QUAD_TRIS, 2);
  for (all = 1, v = 0; v < 4; v++)
    all = all && tangent_is(v, 0, -1, 0, 1) && how[v] == RSX_TANGENT_ACROSS_N;
  ok(all, "no length: across N too");
  /* N along x: the axis least along it is y: cross(y, N) = (0, 0, -1) */
  compute(QUAD, x_normal, flat_uv, 4, QUAD_TRIS, 2);
  ok(tangent_is(0, 0, 0, -1, 1), "N = +x, no UV area: (0, 0, -1)");
  /* a vertex of no triangle */
  compute(QUAD, UP, uv, 4, QUAD_TRIS, 1);
  ok(tangent_is(3, 0, -1, 0, 1) && how[3] == RSX_TANGENT_ACROSS_N &&
       tangent_is(0, 1, 0, 0, 1),
     "a vertex of no triangle: across N; the others from their UVs");
  /* NaN: the triangles with it give nothing */
  memcpy(nan_uv, uv, sizeof nan_uv);
  nan_uv[1] = NAN;
  compute(QUAD, UP, nan_uv, 4, QUAD_TRIS, 2);
  ok(tangent_is(0, 0, -1, 0, 1) && tangent_is(1, 0, -1, 0, 1) &&
       tangent_is(3, 0, -1, 0, 1),
     "a NaN v at vertex 0: its triangles give nothing");
  nan_uv[1] = INFINITY;
  compute(QUAD, UP, nan_uv, 4, QUAD_TRIS, 2);
  ok(tangent_is(2, 0, -1, 0, 1), "an infinite v: the same");
  /* a NaN normal is no direction: T from the UVs, not made across */
  memcpy(nan_n, UP, sizeof nan_n);
  nan_n[0] = NAN;
  compute(QUAD, nan_n, uv, 4, QUAD_TRIS, 2);
  ok(tangent_is(0, 1, 0, 0, 1) && tangent_is(1, 1, 0, 0, 1),
     "a NaN normal: T from the UVs alone");
  is_int(compute(QUAD, UP, uv, 4, past, 1), -1, "a vertex number past the"
         " count: refused");
  is_str(err.text, "triangle 1 names vertex 5 of 4", "... saying which");
}

static void test_frames(void)
{
  static const double t[] = {1, 0, 0, -1, 0, 1, 0, 0, 0, 0, 1, 1};
  static const double n[] = {0, 0, 1, 0, 0, 1, 1, 0, 0};
  double a[9], b[9], bad_t[12];
  /* B = cross(N, T) * w: (0, 0, 1) x (1, 0, 0) = (0, 1, 0), w = -1;
  ** (0, 0, 1) x (0, 1, 0) = (-1, 0, 0), w = 0 taken as +1;
  ** (1, 0, 0) x (0, 0, 1) = (0, -1, 0) */
  is_int((long long)rsx_tangent_frames(t, n, 3, 1.0, a, b), 3,
         "frames: every vertex");
  ok(a[0] == 1 && a[1] == 0 && a[2] == 0 && a[3] == 0 && a[4] == 1 &&
       a[8] == 1, "A = T.xyz as it is");
  ok(b[0] == 0 && b[1] == -1 && b[2] == 0 && b[3] == -1 && b[4] == 0 &&
       b[6] == 0 && b[7] == -1 && b[8] == 0,
     "B = cross(N, T) * w, w = 0 as +1");
  rsx_tangent_frames(t, n, 3, -1.0, a, b);
  ok(b[1] == 1 && b[3] == 1 && b[7] == 1, "MikkTSpace's: B turned round");
  memcpy(bad_t, t, sizeof t);
  bad_t[7] = NAN;
  is_int((long long)rsx_tangent_frames(bad_t, n, 3, 1.0, a, b), 1,
         "a NaN w: stops at that vertex");
  bad_t[7] = 1;
  bad_t[8] = -INFINITY;
  is_int((long long)rsx_tangent_frames(bad_t, n, 3, 1.0, a, b), 2,
         "an infinite T: the same");
}

int main(void)
{
  test_quad();
  test_slanted();
  test_angles();
  test_sides();
  test_degenerate();
  test_frames();
  return done_testing();
}
