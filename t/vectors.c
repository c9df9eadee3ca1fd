/*
** vectors.c - tests of the bulk vector maths (src/vectors.c): bounds and
** the non-finite scan, lengths, unit normals and tangent frames, on
** meshes filled by hand; every expected value worked out by hand below.
*/
#include "rsxmesh.h"
#include "tap.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define WHERE "mesh 1 (frame)" /* how the core labels entry 0 */

/* Unpacked layouts, from rsxb.md: the MMP holds the position's three
** floats at +0 and the normal's at +12, its stride rounded up to 16; the
** MGP the other kinds in bit order, not rounded. */
#define MASK_FRAME 0x1Du /* position, normal, tangent_a, tangent_b */
#define FRAME_MMP 32     /* 12 + 12 -> 32 */
#define FRAME_MGP 24     /* tangent_a at +0, tangent_b at +12 */
#define MASK_UV 0x21u    /* position, uv0 */
#define UV_MMP 16
#define UV_MGP 8

typedef struct fx {
  uint8_t meta[RSX_META_MIN];
  uint8_t mmp[8 * 32], mgp[8 * 24], idx[16 * 2];
  uint8_t rec[2][RSX_SUBMESH_RECORD_MIN];
  rsx_submesh sub[2];
  rsx_mesh m;
} fx;

static void fx_init(fx *x, uint32_t mask, uint32_t vc, uint32_t mmp_stride,
                    uint32_t mgp_stride)
{
  int i;
  memset(x, 0, sizeof *x);
  rsx_put_be32(x->meta + RSX_MASK_OFFSET, mask);
  x->m.name = "frame";
  x->m.index = 0;
  x->m.meta = x->meta;
  x->m.meta_size = RSX_META_MIN;
  x->m.vertex_count = vc;
  x->m.mmp = x->mmp;
  x->m.mmp_stride = mmp_stride;
  x->m.mgp = x->mgp;
  x->m.mgp_stride = mgp_stride;
  x->m.indices = x->idx;
  x->m.index_size = 2;
  x->m.primitive = RSX_TRIANGLES;
  x->m.submeshes = x->sub;
  for (i = 0; i < 2; i++) {
    memset(x->rec[i] + 0x38, 0xFF, 4);
    x->sub[i].record = x->rec[i];
    x->sub[i].record_size = RSX_SUBMESH_RECORD_MIN;
    x->sub[i].material = RSX_NONE;
  }
}

static void fx_vec(uint8_t *p, float a, float b, float c)
{
  rsx_put_f32(p, a);
  rsx_put_f32(p + 4, b);
  rsx_put_f32(p + 8, c);
}

static void fx_check(fx *x)
{
  rsx_error e;
  if (rsx_mesh_check(&x->m, 0, WHERE, &e) != 0)
    bail_out("fixture refused: %s", e.text);
}

/*
** The frame fixture, five vertices:
**   v  position    normal          tangent A    tangent B
**   1  (0, 0, 0)   (0, 0, 0)       (2, 0, 0)    (0, 3, 0)
**   2  (2, 0, 0)   (0, 0, 1.004)   (0, 0, 0)    (0, 1, 0)
**   3  (0, 3, 0)   (0, 2, 0)       (3, 0, 4)    (0, 0, 0)
**   4  (0, 0, 5)   (0, 0, 0)       (1, 0, 0)    (0, 0, 1)
**   5  (0, 0, 1)   (0, 0, 1)       (1, 0, 0)    (1, 0, 0)
** Triangles (0-based): (0, 1, 2) in submesh 1, (0, 1, 4) in submesh 2.
*/
static void fx_frame(fx *x)
{
  static const float pos[5][3] = {
    {0, 0, 0}, {2, 0, 0}, {0, 3, 0}, {0, 0, 5}, {0, 0, 1}};
  static const float nrm[5][3] = {
    {0, 0, 0}, {0, 0, 1.004f}, {0, 2, 0}, {0, 0, 0}, {0, 0, 1}};
  static const float ta[5][3] = {
    {2, 0, 0}, {0, 0, 0}, {3, 0, 4}, {1, 0, 0}, {1, 0, 0}};
  static const float tb[5][3] = {
    {0, 3, 0}, {0, 1, 0}, {0, 0, 0}, {0, 0, 1}, {1, 0, 0}};
  static const uint16_t idx[6] = {0, 1, 2, 0, 1, 4};
  int v, i;
  fx_init(x, MASK_FRAME, 5, FRAME_MMP, FRAME_MGP);
  for (v = 0; v < 5; v++) {
    uint8_t *mmp = x->mmp + v * FRAME_MMP, *mgp = x->mgp + v * FRAME_MGP;
    fx_vec(mmp, pos[v][0], pos[v][1], pos[v][2]);
    fx_vec(mmp + 12, nrm[v][0], nrm[v][1], nrm[v][2]);
    fx_vec(mgp, ta[v][0], ta[v][1], ta[v][2]);
    fx_vec(mgp + 12, tb[v][0], tb[v][1], tb[v][2]);
  }
  for (i = 0; i < 6; i++) {
    x->idx[2 * i] = 0;
    x->idx[2 * i + 1] = (uint8_t)idx[i];
  }
  x->m.index_count = 6;
  x->sub[0].first_index = 0;
  x->sub[0].index_count = 3;
  x->sub[1].first_index = 3;
  x->sub[1].index_count = 3;
  x->m.submesh_count = 2;
  fx_check(x);
}

/*
** The bounds fixture, three positions and UVs:
**   (1, NaN, -2)   (inf, 4, -3)   (-1, NaN, 7); UVs (NaN, 0.5) each.
*/
static void fx_bounds(fx *x)
{
  static const float pos[3][3] = {
    {1, NAN, -2}, {INFINITY, 4, -3}, {-1, NAN, 7}};
  int v;
  fx_init(x, MASK_UV, 3, UV_MMP, UV_MGP);
  for (v = 0; v < 3; v++) {
    fx_vec(x->mmp + v * UV_MMP, pos[v][0], pos[v][1], pos[v][2]);
    rsx_put_f32(x->mgp + v * UV_MGP, NAN);
    rsx_put_f32(x->mgp + v * UV_MGP + 4, 0.5f);
  }
  fx_check(x);
}

static void test_bounds(void)
{
  fx x;
  rsx_bounds b;
  rsx_error e;
  fx_bounds(&x);
  is_int(rsx_mesh_bounds(&x.m, RSX_POSITION, &b, &e), 0, "bounds: ok");
  is_int(b.components, 3, "bounds: 3 components");
  /* x: 1, inf, -1; y: NaN, 4, NaN; z: -2, -3, 7 */
  is_float(b.lo[0], -1.0f, "bounds: lo x");
  is_float(b.hi[0], INFINITY, "bounds: hi x is the infinity");
  is_float(b.lo[1], 4.0f, "bounds: lo y passes over NaN");
  is_float(b.hi[1], 4.0f, "bounds: hi y passes over NaN");
  is_float(b.lo[2], -3.0f, "bounds: lo z");
  is_float(b.hi[2], 7.0f, "bounds: hi z");
  is_int((long long)b.nans, 2, "bounds: two NaN counted");
  is_int((long long)b.non_finite, 3, "bounds: two NaN and an infinity "
         "are not finite");

  is_int(rsx_mesh_bounds(&x.m, RSX_UV0, &b, &e), 0, "bounds uv0: ok");
  is_int(b.seen[0], 0, "bounds uv0: u all NaN, never seen");
  ok(isnan(b.lo[0]) && isnan(b.hi[0]), "bounds uv0: all-NaN u is NaN");
  is_float(b.lo[1], 0.5f, "bounds uv0: lo v");
  is_int((long long)b.nans, 3, "bounds uv0: three NaN");

  x.m.vertex_count = 0;
  is_int(rsx_mesh_bounds(&x.m, RSX_POSITION, &b, &e), 0, "bounds empty");
  ok(isnan(b.lo[0]) && isnan(b.hi[2]) && b.nans == 0 &&
     b.non_finite == 0, "bounds empty: NaN bounds, nothing counted");

  fx_bounds(&x);
  is_int(rsx_mesh_bounds(&x.m, RSX_NORMAL, &b, &e), -1,
         "bounds: no normal refused");
  is_str(e.text, WHERE ": mask 0x00000021 has no normal",
         "bounds: the message names the mesh and the kind");
}

static void test_lengths(void)
{
  fx x;
  rsx_lengths l;
  rsx_error e;
  fx_frame(&x);
  /* normals: zero; 1.004 (a float: z*z exact in double, so its length
  ** is the float itself, 0.004 from 1, within 0.005); 2 (off by 1);
  ** zero; 1 */
  is_int(rsx_mesh_lengths(&x.m, RSX_NORMAL, RSX_UNIT_TOLERANCE, &l, &e),
         0, "lengths: ok");
  is_int((long long)l.zero, 2, "lengths: two zero");
  is_int((long long)l.off, 1, "lengths: one off (length 2)");
  is_int((long long)l.nans, 0, "lengths: no NaN");
  ok(l.seen && l.min == 1.0 && l.max == 2.0 && l.deviation == 1.0,
     "lengths: min 1, max 2, deviation 1");
  is_int(rsx_mesh_lengths(&x.m, RSX_NORMAL, 0.001, &l, &e), 0,
         "lengths tolerance 0.001: ok");
  is_int((long long)l.off, 2, "lengths tolerance 0.001: 1.004 off too");

  fx_bounds(&x);
  /* (1, NaN, -2) and (-1, NaN, 7): NaN length; (inf, 4, -3): inf, off */
  is_int(rsx_mesh_lengths(&x.m, RSX_POSITION, 0.005, &l, &e), 0,
         "lengths of positions: ok");
  ok(l.nans == 2 && l.off == 1 && l.zero == 0, "lengths: 2 NaN, 1 off");
  ok(l.min == INFINITY && l.max == INFINITY && l.deviation == INFINITY,
     "lengths: the infinite one is min, max and deviation");
  is_int(rsx_mesh_lengths(&x.m, RSX_UV0, 0.005, &l, &e), -1,
         "lengths of a UV refused");
  is_str(e.text, WHERE ": uv0 has 2 components, needs 3 or more",
         "lengths: the message says why");
}

static void test_normals(void)
{
  fx x;
  double n[5 * 3];
  rsx_normal_fixes f;
  rsx_error e;
  fx_frame(&x);
  is_int(rsx_mesh_unit_normals(&x.m, n, &f, &e), 0, "normals: ok");
  /* v1 is zero, in both triangles. (0, 1, 2): (2,0,0) x (0,3,0) =
  ** (0, 0, 6); (0, 1, 4): (2,0,0) x (0,0,1) = (0, -2, 0). The sum
  ** (0, -2, 6) has length sqrt(40). */
  ok(n[0] == 0.0 && n[1] == -2.0 / sqrt(40.0) && n[2] == 6.0 / sqrt(40.0),
     "normals: v1 zero, from its faces (0, -2, 6) / sqrt(40)");
  /* v2: 1.004 is within the tolerance, kept as decoded */
  ok(n[3] == 0.0 && n[4] == 0.0 && n[5] == (double)1.004f,
     "normals: v2 within 0.005 of unit, as decoded");
  ok(n[6] == 0.0 && n[7] == 1.0 && n[8] == 0.0,
     "normals: v3 (0, 2, 0) renormalised to (0, 1, 0)");
  ok(n[9] == 0.0 && n[10] == 1.0 && n[11] == 0.0,
     "normals: v4 zero in no triangle: (0, 1, 0)");
  ok(n[12] == 0.0 && n[13] == 0.0 && n[14] == 1.0,
     "normals: v5 unit, as decoded");
  is_int(f.zero, 2, "normals: 2 zero");
  is_int(f.from_faces, 1, "normals: 1 from faces");
  is_int(f.up, 1, "normals: 1 up");
  is_int(f.renormalised, 1, "normals: 1 renormalised");

  /* without submesh 2 v1 has one face: (0, 0, 6) -> (0, 0, 1) */
  x.m.submesh_count = 1;
  is_int(rsx_mesh_unit_normals(&x.m, n, &f, &e), 0, "one submesh: ok");
  ok(n[0] == 0.0 && n[1] == 0.0 && n[2] == 1.0,
     "normals: v1 from its one face (0, 0, 1)");
  /* a submesh whose triangles cannot be listed adds nothing: index 9
  ** is past the 5 vertices */
  x.m.submesh_count = 2;
  x.idx[2 * 5 + 1] = 9;
  is_int(rsx_mesh_unit_normals(&x.m, n, &f, &e), 0, "bad submesh: ok");
  ok(n[0] == 0.0 && n[1] == 0.0 && n[2] == 1.0,
     "normals: a submesh with a bad index adds no face");

  fx_bounds(&x);
  is_int(rsx_mesh_unit_normals(&x.m, n, &f, &e), -1, "no normal refused");
  is_str(e.text, WHERE ": mask 0x00000021 has no normal",
         "normals: the message names the mesh");
}

static void is_frame(const double n[3], const double a[3],
                     const double b[3], double tx, double ty, double tz,
                     double w, int how, const char *what)
{
  double t[4];
  int got = rsx_tangent_frame(n, a, b, t);
  ok(t[0] == tx && t[1] == ty && t[2] == tz && t[3] == w,
     "frame %s: (%g, %g, %g, %g)", what, tx, ty, tz, w);
  if (t[0] != tx || t[1] != ty || t[2] != tz || t[3] != w)
    diag("got (%.17g, %.17g, %.17g, %.17g)", t[0], t[1], t[2], t[3]);
  is_int(got, how, "frame %s: how", what);
}

static void test_frame(void)
{
  static const double z[3] = {0, 0, 0}, up[3] = {0, 0, 1},
                      xx[3] = {1, 0, 0};
  double a[3] = {2, 0, 0}, b[3] = {0, 3, 0};
  /* T = A / |A| = (1, 0, 0); cross(N, T) = (0, 1, 0); dot with B = 3 */
  is_frame(up, a, b, 1, 0, 0, 1, 0, "B along cross(N, T)");
  b[1] = -3; /* dot -3 */
  is_frame(up, a, b, 1, 0, 0, -1, 0, "B against cross(N, T)");
  b[0] = 5, b[1] = 0; /* B in the plane of N and A: dot 0 */
  is_frame(up, a, b, 1, 0, 0, 1, RSX_TANGENT_NO_HANDEDNESS, "B in plane");
  b[0] = 0, b[1] = -1e-6; /* dot exactly -1e-6: the limit, a side */
  is_frame(up, a, b, 1, 0, 0, -1, 0, "dot -1e-6");
  b[1] = -5e-7; /* within 1e-6 of 0: no side */
  is_frame(up, a, b, 1, 0, 0, 1, RSX_TANGENT_NO_HANDEDNESS, "dot -5e-7");
  a[0] = 3, a[2] = 4, b[1] = 1; /* |A| = 5: T = (0.6, 0, 0.8) */
  /* cross(N, T) = (0*0.8 - 1*0, 1*0.6 - 0*0.8, 0) = (0, 0.6, 0) */
  is_frame(up, a, b, 0.6, 0, 0.8, 1, 0, "A of length 5");
  /* A zero: T = B x N = (by*nz - bz*ny, bz*nx - bx*nz, bx*ny - by*nx)
  ** = (1, 0, 0) for B = (0, 1, 0); cross(N, T) . B = 1 */
  b[1] = 1;
  is_frame(up, z, b, 1, 0, 0, 1, RSX_TANGENT_ZERO_A, "A zero");
  /* A and B zero, N = z: the axis least along N is x, T = x x N
  ** = (0*1 - 0*0, 0*0 - 1*1, 1*0 - 0*0) = (0, -1, 0); dot 0 but A
  ** already said zero-a */
  is_frame(up, z, z, 0, -1, 0, 1, RSX_TANGENT_ZERO_A, "A and B zero");
  /* N = x: |nx| > 0.9, the axis is y: T = y x N = (0, 0, -1) */
  is_frame(xx, z, z, 0, 0, -1, 1, RSX_TANGENT_ZERO_A, "along x");
  /* N zero too: no axis is across it: T = (1, 0, 0) */
  is_frame(z, z, z, 1, 0, 0, 1, RSX_TANGENT_ZERO_A, "all zero");
}

static void test_frames(void)
{
  fx x;
  double n[5 * 3];
  float t[5 * 4];
  rsx_normal_fixes nf;
  rsx_tangent_fixes tf;
  rsx_error e;
  fx_frame(&x);
  if (rsx_mesh_unit_normals(&x.m, n, &nf, &e) != 0)
    bail_out("normals: %s", e.text);
  is_int(rsx_mesh_tangent_frames(&x.m, n, t, &tf, &e), 0, "frames: ok");
  /* v1: N from faces, (0, -1, 3)/sqrt(10) in effect; A (2, 0, 0) gives
  ** T (1, 0, 0); cross(N, T) = (0, nz, -ny) = (0, 6, 2) / sqrt(40);
  ** dot with B (0, 3, 0) = 18 / sqrt(40) > 0: w = +1 */
  ok(t[0] == 1 && t[1] == 0 && t[2] == 0 && t[3] == 1, "frames: v1");
  /* v2: N (0, 0, 1.004), A zero, B (0, 1, 0): B x N = (1.004, 0, 0),
  ** normalised (1, 0, 0); cross(N, T) = (0, 1.004, 0), dot 1.004: +1 */
  ok(t[4] == 1 && t[5] == 0 && t[6] == 0 && t[7] == 1, "frames: v2");
  /* v3: N (0, 1, 0), A (3, 0, 4): T (0.6, 0, 0.8); B zero: no side */
  ok(t[8] == 0.6f && t[9] == 0 && t[10] == 0.8f && t[11] == 1,
     "frames: v3");
  /* v4: N (0, 1, 0), A (1, 0, 0): cross(N, T) = (0, 0, -1); B (0, 0, 1)
  ** against it, dot -1: w = -1 */
  ok(t[12] == 1 && t[13] == 0 && t[14] == 0 && t[15] == -1, "frames: v4");
  /* v5: N (0, 0, 1), T (1, 0, 0), cross (0, 1, 0), B (1, 0, 0): dot 0 */
  ok(t[16] == 1 && t[17] == 0 && t[18] == 0 && t[19] == 1, "frames: v5");
  is_int(tf.zero_a, 1, "frames: 1 zero A (v2)");
  is_int(tf.no_handedness, 2, "frames: 2 without handedness (v3, v5)");

  fx_bounds(&x);
  is_int(rsx_mesh_tangent_frames(&x.m, n, t, &tf, &e), -1,
         "frames: no tangents refused");
  is_str(e.text, WHERE ": mask 0x00000021 has no tangent_a",
         "frames: the message names the missing kind");
}

int main(void)
{
  test_bounds();
  test_lengths();
  test_normals();
  test_frame();
  test_frames();
  return done_testing();
}
