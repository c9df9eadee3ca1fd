/* render.c - the software renderer: clipping, a top-left rasterizer with a
** z-buffer and perspective-correct interpolation, and the shading modes */
#include "render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
** Vertices go to clip space (x, y, w, with ndc = x / w; w is the view depth
** for a perspective camera, 1 for an orthographic one), are clipped against
** the near plane and a guard band four times the view, and are snapped to
** 1/256 pixel. Edge functions in integers then decide coverage exactly, so
** the top-left rule draws a pixel on a shared edge once. Attributes are
** interpolated as a/w and 1/w, so they are correct in perspective.
*/

#define PI 3.14159265358979323846
#define GUARD 4.0
#define SUB 256
#define LIT_AMBIENT 0.25f
#define CHECKS 4 /* checker cells per UV unit in RSX_SHADE_UV */
#define SCREEN_LIMIT 1e6 /* pixels; beyond it a vertex is damaged data */

enum { A_U, A_V, A_NX, A_NY, A_NZ, A_R, A_G, A_B, A_A, A_COUNT };

/* A vertex in clip space, with the view depth and its attributes. */
typedef struct cv {
  double x, y, w, z;
  float a[A_COUNT];
} cv;

/* What a render keeps for the whole call. */
typedef struct rs {
  const rsx_render_options *o;
  rsx_image *img;
  float *depth;           /* larger is nearer */
  int width, height, persp;
  double right[3], up[3], fwd[3];
  double sx, sy;          /* view to clip scales */
  float lin[256];         /* sRGB byte to linear */
  float thresh[256];      /* linear where byte b + 1 starts (b < 255) */
  uint8_t enc_lut[4097];  /* a first guess of the byte, by linear * 4096 */
  rsx_render_stats *st;
  /* the current mesh's vertices */
  const rsx_mesh *mesh;
  cv *vert;               /* vertex_count, positions only */
  float *uv[4], *normal, *colour;
  int uv_tried[4], normal_tried, colour_tried;
  /* the current draw */
  const rsx_texture *tex;
  const float *uv_cur;
  float flat[4];          /* linear: fallback or the texture's mean */
  uint8_t draw_rgb[3];    /* selectors mode */
  int legend_new;         /* combinations numbered after o->legend's */
  int set;                /* stored set feeding the shown UV, -1 absent */
} rs;

/* ------------------------------------------------------------- colours */

static void srgb_tables(rs *r)
{
  int b, i;
  for (b = 0; b < 256; b++) r->lin[b] = rsx_srgb_to_linear((uint8_t)b);
  for (b = 0; b < 255; b++) {
    /* the linear value whose sRGB encoding is exactly b + 0.5 levels */
    double s = (b + 0.5) / 255.0;
    r->thresh[b] = (float)(s <= 0.04045 ? s / 12.92
                                        : pow((s + 0.055) / 1.055, 2.4));
  }
  r->thresh[255] = INFINITY;
  for (i = 0, b = 0; i <= 4096; i++) {
    while (b < 255 && (float)i / 4096.0f >= r->thresh[b]) b++;
    r->enc_lut[i] = (uint8_t)b;
  }
}

static inline uint8_t encode(const rs *r, float l)
{
  int b;
  if (!(l > 0)) return 0;
  if (l >= 1) return 255;
  b = r->enc_lut[(int)(l * 4096.0f)];
  while (b < 255 && l >= r->thresh[b]) b++;
  return (uint8_t)b;
}

void rsx_legend_colour(int i, uint8_t rgb[3])
{
  /* hues a golden angle apart, so neighbours in the list differ */
  double h = fmod(i * 0.618033988749895, 1.0) * 6, f, v = 0.95, s = 0.7;
  double p = v * (1 - s), q, t, c[3];
  int k = (int)h;
  f = h - k;
  q = v * (1 - s * f);
  t = v * (1 - s * (1 - f));
  switch (k) {
  case 0: c[0] = v; c[1] = t; c[2] = p; break;
  case 1: c[0] = q; c[1] = v; c[2] = p; break;
  case 2: c[0] = p; c[1] = v; c[2] = t; break;
  case 3: c[0] = p; c[1] = q; c[2] = v; break;
  case 4: c[0] = t; c[1] = p; c[2] = v; break;
  default: c[0] = v; c[1] = p; c[2] = q; break;
  }
  for (k = 0; k < 3; k++) rgb[k] = (uint8_t)(c[k] * 255 + 0.5);
}

/* Tints of the stored sets in RSX_SHADE_UV: red, green, blue, yellow. */
static const uint8_t set_tint[4][3] = {
  {230, 80, 80}, {80, 200, 80}, {80, 120, 240}, {230, 200, 60}};

void rsx_render_defaults(rsx_render_options *o)
{
  memset(o, 0, sizeof *o);
  o->shade = RSX_SHADE_LIT;
  o->filter = RSX_FILTER_TRILINEAR;
  o->stored = -1;
  o->background[0] = o->background[1] = o->background[2] = 48;
  o->background[3] = 255;
}

/* ------------------------------------------------------------ vertices */

static void free_mesh(rs *r)
{
  int i;
  free(r->vert);
  free(r->normal);
  free(r->colour);
  for (i = 0; i < 4; i++) free(r->uv[i]);
  r->vert = NULL;
  r->normal = r->colour = NULL;
  for (i = 0; i < 4; i++) {
    r->uv[i] = NULL;
    r->uv_tried[i] = 0;
  }
  r->normal_tried = r->colour_tried = 0;
  r->mesh = NULL;
}

/* Decode kind for every vertex of the current mesh; NULL if it cannot be
** (absent, or a finding). */
static float *decode_all(const rsx_mesh *m, int kind)
{
  const rsx_attr_info *info = m->format.attr[kind];
  float *out;
  if (info == NULL || rsx_mesh_can_decode(m, kind, NULL) != 0 ||
      m->vertex_count == 0)
    return NULL;
  out = malloc((size_t)m->vertex_count * info->components * sizeof *out);
  if (out && rsx_mesh_decode(m, kind, 0, m->vertex_count, out, NULL) != 0) {
    free(out);
    return NULL;
  }
  return out;
}

/* Positions of the mesh into clip space. -1 on memory; 1 if the positions
** cannot be decoded (why in err). */
static int load_mesh(rs *r, const rsx_mesh *m, rsx_error *err)
{
  const rsx_camera *c = &r->o->camera;
  float *pos;
  uint32_t v;

  free_mesh(r);
  if (rsx_mesh_can_decode(m, RSX_POSITION, err) != 0) return 1;
  r->mesh = m;
  if (m->vertex_count == 0) return 0;
  pos = decode_all(m, RSX_POSITION);
  r->vert = malloc((size_t)m->vertex_count * sizeof *r->vert);
  if (pos == NULL || r->vert == NULL) {
    free(pos);
    return rsx_fail(err, "render: out of memory");
  }
  for (v = 0; v < m->vertex_count; v++) {
    double d[3], vx, vy, vz;
    cv *o = &r->vert[v];
    d[0] = pos[3 * v] - c->eye[0];
    d[1] = pos[3 * v + 1] - c->eye[1];
    d[2] = pos[3 * v + 2] - c->eye[2];
    vx = d[0] * r->right[0] + d[1] * r->right[1] + d[2] * r->right[2];
    vy = d[0] * r->up[0] + d[1] * r->up[1] + d[2] * r->up[2];
    vz = d[0] * r->fwd[0] + d[1] * r->fwd[1] + d[2] * r->fwd[2];
    o->x = vx * r->sx;
    o->y = vy * r->sy;
    o->w = r->persp ? vz : 1.0;
    o->z = vz;
  }
  free(pos);
  return 0;
}

static const float *mesh_uv(rs *r, int set)
{
  if (set < 0 || set > 3) return NULL;
  if (!r->uv_tried[set]) {
    r->uv[set] = decode_all(r->mesh, RSX_UV0 + set);
    r->uv_tried[set] = 1;
  }
  return r->uv[set];
}

static const float *mesh_normals(rs *r)
{
  if (!r->normal_tried) {
    r->normal = decode_all(r->mesh, RSX_NORMAL);
    r->normal_tried = 1;
  }
  return r->normal;
}

static const float *mesh_colours(rs *r)
{
  if (!r->colour_tried) {
    r->colour = decode_all(r->mesh, RSX_COLOUR);
    r->colour_tried = 1;
  }
  return r->colour;
}

/* ------------------------------------------------------------ clipping */

/* Signed distance of a vertex to clip plane p (inside >= 0). */
static double plane_dist(const rs *r, const cv *v, int p)
{
  switch (p) {
  case 0: return v->z - r->o->camera.near;
  case 1: return GUARD * v->w + v->x;
  case 2: return GUARD * v->w - v->x;
  case 3: return GUARD * v->w + v->y;
  default: return GUARD * v->w - v->y;
  }
}

/* The point where edge in..out crosses the plane, always computed from
** the inside vertex, so both triangles sharing the edge get the same. */
static void clip_point(const cv *in, const cv *out, double din, double dout,
                       cv *res)
{
  double t = din / (din - dout);
  int k;
  res->x = in->x + t * (out->x - in->x);
  res->y = in->y + t * (out->y - in->y);
  res->w = in->w + t * (out->w - in->w);
  res->z = in->z + t * (out->z - in->z);
  for (k = 0; k < A_COUNT; k++)
    res->a[k] = in->a[k] + (float)t * (out->a[k] - in->a[k]);
}

#define POLY_MAX 12

/* Clip polygon v[0..n-1] against plane p into out; returns the count. */
static int clip_plane(const rs *r, const cv *v, int n, int p, cv *out)
{
  int i, m = 0;
  for (i = 0; i < n; i++) {
    const cv *a = &v[i], *b = &v[(i + 1) % n];
    double da = plane_dist(r, a, p), db = plane_dist(r, b, p);
    if (da >= 0) out[m++] = *a;
    if ((da >= 0) != (db >= 0)) {
      if (da >= 0)
        clip_point(a, b, da, db, &out[m++]);
      else
        clip_point(b, a, db, da, &out[m++]);
    }
  }
  return m;
}

/* --------------------------------------------------------------- shade */

static void shade(rs *r, const float *a, float du_dx, float dv_dx,
                  float du_dy, float dv_dy, uint8_t *px)
{
  const rsx_render_options *o = r->o;
  float c[4];
  int k;
  switch (o->shade) {
  case RSX_SHADE_NORMALS: {
    float n = sqrtf(a[A_NX] * a[A_NX] + a[A_NY] * a[A_NY] +
                    a[A_NZ] * a[A_NZ]);
    for (k = 0; k < 3; k++) {
      float v = n > 0 ? a[A_NX + k] / n : 0;
      px[k] = (uint8_t)floorf((v * 0.5f + 0.5f) * 255.0f + 0.5f);
    }
    break;
  }
  case RSX_SHADE_UV:
    if (r->uv_cur == NULL) {
      px[0] = 255; px[1] = 0; px[2] = 255;
    } else {
      float fu = floorf(a[A_U] * CHECKS), fv = floorf(a[A_V] * CHECKS);
      int odd = isfinite(fu) && isfinite(fv) &&
                (((long long)fu + (long long)fv) & 1);
      for (k = 0; k < 3; k++)
        px[k] = odd ? set_tint[r->set][k] / 2 : set_tint[r->set][k];
    }
    break;
  case RSX_SHADE_SELECTORS:
    memcpy(px, r->draw_rgb, 3);
    break;
  case RSX_SHADE_COLOUR:
    for (k = 0; k < 3; k++) {
      float v = a[A_R + k];
      px[k] = v <= 0 ? 0 : v >= 1 ? 255 : (uint8_t)(v * 255.0f + 0.5f);
    }
    break;
  default: /* flat, lit */
    if (r->tex != NULL && r->uv_cur != NULL)
      rsx_texture_sample(r->tex, o->filter, a[A_U], a[A_V], du_dx, dv_dx,
                         du_dy, dv_dy, c);
    else
      memcpy(c, r->flat, sizeof c);
    if (o->shade == RSX_SHADE_LIT) {
      float n = sqrtf(a[A_NX] * a[A_NX] + a[A_NY] * a[A_NY] +
                      a[A_NZ] * a[A_NZ]);
      float l = 1;
      if (n > 0) {
        l = (float)(a[A_NX] * r->fwd[0] + a[A_NY] * r->fwd[1] +
                    a[A_NZ] * r->fwd[2]) / n;
        l = LIT_AMBIENT + (1 - LIT_AMBIENT) * fabsf(l);
      }
      for (k = 0; k < 3; k++) c[k] *= l;
    }
    for (k = 0; k < 3; k++) px[k] = encode(r, c[k]);
    break;
  }
  px[3] = 255;
}

/* ---------------------------------------------------------- rasterizer */

static inline int top_left(int64_t dx, int64_t dy)
{
  return dy < 0 || (dy == 0 && dx > 0);
}

static inline int64_t edge(int64_t ax, int64_t ay, int64_t bx, int64_t by,
                           int64_t px, int64_t py)
{
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/* Which attributes the shading mode reads. */
static int attr_first(int shade)
{
  return shade == RSX_SHADE_NORMALS ? A_NX
         : shade == RSX_SHADE_COLOUR ? A_R
         : shade == RSX_SHADE_SELECTORS ? A_COUNT : A_U;
}

static int attr_end(int shade)
{
  return shade == RSX_SHADE_LIT ? A_NZ + 1
         : shade == RSX_SHADE_NORMALS ? A_NZ + 1
         : shade == RSX_SHADE_COLOUR ? A_A + 1
         : shade == RSX_SHADE_SELECTORS ? A_COUNT : A_V + 1;
}

static void raster(rs *r, const cv *p0, const cv *p1, const cv *p2)
{
  const cv *v[3];
  int64_t X[3], Y[3], area, e0r, e1r, e2r;
  int64_t dx0, dy0, dx1, dy1, dx2, dy2;
  int b0, b1, b2, i, k, minx, maxx, miny, maxy, px, py, persp = r->persp;
  int a0 = attr_first(r->o->shade), a1 = attr_end(r->o->shade);
  double q[3], key[3], inv_area, dqdx, dqdy, dudx = 0, dudy = 0, dvdx = 0,
         dvdy = 0;
  float aq[3][A_COUNT];

  v[0] = p0;
  v[1] = p1;
  v[2] = p2;
  for (i = 0; i < 3; i++) {
    double sx = (v[i]->x / v[i]->w + 1) * 0.5 * r->width;
    double sy = (1 - v[i]->y / v[i]->w) * 0.5 * r->height;
    if (!(fabs(sx) < SCREEN_LIMIT) || !(fabs(sy) < SCREEN_LIMIT)) return;
    X[i] = (int64_t)llround(sx * SUB);
    Y[i] = (int64_t)llround(sy * SUB);
  }
  area = edge(X[0], Y[0], X[1], Y[1], X[2], Y[2]);
  if (area == 0) return;
  /* y runs down the image: a counter-clockwise (front) face has area < 0 */
  if (r->o->cull && area > 0) return;
  if (area < 0) {
    const cv *t = v[1];
    int64_t tx = X[1], ty = Y[1];
    v[1] = v[2];
    v[2] = t;
    X[1] = X[2];
    Y[1] = Y[2];
    X[2] = tx;
    Y[2] = ty;
    area = -area;
  }
  r->st->rasterized++;

  minx = (int)((X[0] < X[1] ? (X[0] < X[2] ? X[0] : X[2])
                            : (X[1] < X[2] ? X[1] : X[2])) / SUB) - 1;
  maxx = (int)((X[0] > X[1] ? (X[0] > X[2] ? X[0] : X[2])
                            : (X[1] > X[2] ? X[1] : X[2])) / SUB) + 1;
  miny = (int)((Y[0] < Y[1] ? (Y[0] < Y[2] ? Y[0] : Y[2])
                            : (Y[1] < Y[2] ? Y[1] : Y[2])) / SUB) - 1;
  maxy = (int)((Y[0] > Y[1] ? (Y[0] > Y[2] ? Y[0] : Y[2])
                            : (Y[1] > Y[2] ? Y[1] : Y[2])) / SUB) + 1;
  if (minx < 0) minx = 0;
  if (miny < 0) miny = 0;
  if (maxx > r->width - 1) maxx = r->width - 1;
  if (maxy > r->height - 1) maxy = r->height - 1;
  if (minx > maxx || miny > maxy) return;

  /* edge i is opposite vertex i: e0 = v1->v2, e1 = v2->v0, e2 = v0->v1 */
  dx0 = X[2] - X[1]; dy0 = Y[2] - Y[1];
  dx1 = X[0] - X[2]; dy1 = Y[0] - Y[2];
  dx2 = X[1] - X[0]; dy2 = Y[1] - Y[0];
  b0 = top_left(dx0, dy0) ? 0 : -1;
  b1 = top_left(dx1, dy1) ? 0 : -1;
  b2 = top_left(dx2, dy2) ? 0 : -1;

  inv_area = 1.0 / (double)area;
  for (i = 0; i < 3; i++) {
    q[i] = persp ? 1.0 / v[i]->w : 1.0;
    key[i] = persp ? q[i] : -v[i]->z;
    for (k = a0; k < a1; k++) aq[i][k] = (float)(v[i]->a[k] * q[i]);
  }
  /* barycentric steps per pixel: d(e_i)/dx = -dy_i * SUB, d/dy = dx_i */
  {
    double gx[3] = {-(double)dy0 * SUB * inv_area,
                    -(double)dy1 * SUB * inv_area,
                    -(double)dy2 * SUB * inv_area};
    double gy[3] = {(double)dx0 * SUB * inv_area,
                    (double)dx1 * SUB * inv_area,
                    (double)dx2 * SUB * inv_area};
    dqdx = gx[0] * q[0] + gx[1] * q[1] + gx[2] * q[2];
    dqdy = gy[0] * q[0] + gy[1] * q[1] + gy[2] * q[2];
    if (a0 == A_U) {
      dudx = gx[0] * aq[0][A_U] + gx[1] * aq[1][A_U] + gx[2] * aq[2][A_U];
      dudy = gy[0] * aq[0][A_U] + gy[1] * aq[1][A_U] + gy[2] * aq[2][A_U];
      dvdx = gx[0] * aq[0][A_V] + gx[1] * aq[1][A_V] + gx[2] * aq[2][A_V];
      dvdy = gy[0] * aq[0][A_V] + gy[1] * aq[1][A_V] + gy[2] * aq[2][A_V];
    }
  }

  {
    int64_t cx = (int64_t)minx * SUB + SUB / 2;
    int64_t cy = (int64_t)miny * SUB + SUB / 2;
    e0r = edge(X[1], Y[1], X[2], Y[2], cx, cy);
    e1r = edge(X[2], Y[2], X[0], Y[0], cx, cy);
    e2r = edge(X[0], Y[0], X[1], Y[1], cx, cy);
  }
  for (py = miny; py <= maxy; py++) {
    int64_t e0 = e0r, e1 = e1r, e2 = e2r;
    size_t row = (size_t)py * r->width;
    for (px = minx; px <= maxx; px++) {
      if ((e0 + b0) >= 0 && (e1 + b1) >= 0 && (e2 + b2) >= 0) {
        double w0 = (double)e0 * inv_area, w1 = (double)e1 * inv_area,
               w2 = (double)e2 * inv_area;
        float kk = (float)(w0 * key[0] + w1 * key[1] + w2 * key[2]);
        size_t at = row + px;
        if (r->o->coverage) r->o->coverage[at]++;
        if (kk > r->depth[at]) {
          float a[A_COUNT];
          double qq = w0 * q[0] + w1 * q[1] + w2 * q[2], iq = 1.0 / qq;
          float du_dx = 0, dv_dx = 0, du_dy = 0, dv_dy = 0;
          r->depth[at] = kk;
          for (k = a0; k < a1; k++)
            a[k] = (float)((w0 * aq[0][k] + w1 * aq[1][k] +
                            w2 * aq[2][k]) * iq);
          if (a0 == A_U) {
            du_dx = (float)((dudx - a[A_U] * dqdx) * iq);
            du_dy = (float)((dudy - a[A_U] * dqdy) * iq);
            dv_dx = (float)((dvdx - a[A_V] * dqdx) * iq);
            dv_dy = (float)((dvdy - a[A_V] * dqdy) * iq);
          }
          shade(r, a, du_dx, dv_dx, du_dy, dv_dy, r->img->rgba + at * 4);
          r->st->fragments++;
        }
      }
      e0 -= dy0 * SUB;
      e1 -= dy1 * SUB;
      e2 -= dy2 * SUB;
    }
    e0r += dx0 * SUB;
    e1r += dx1 * SUB;
    e2r += dx2 * SUB;
  }
}

/* One triangle of the current draw: clip if it must, then raster. */
static void triangle(rs *r, const uint32_t t[3])
{
  cv in[3], buf[2][POLY_MAX];
  const cv *cur;
  int i, k, p, n = 3, outside = 0, s = 0;
  const float *uv = r->uv_cur, *nr = NULL, *col = NULL;
  int sh = r->o->shade;

  if (sh == RSX_SHADE_LIT || sh == RSX_SHADE_NORMALS) nr = mesh_normals(r);
  if (sh == RSX_SHADE_COLOUR) col = mesh_colours(r);
  for (i = 0; i < 3; i++) {
    uint32_t v = t[i];
    cv *o = &in[i];
    *o = r->vert[v];
    if (!isfinite(o->x) || !isfinite(o->y) || !isfinite(o->z)) return;
    for (k = 0; k < A_COUNT; k++) o->a[k] = 0;
    if (uv) {
      o->a[A_U] = uv[2 * v];
      o->a[A_V] = uv[2 * v + 1];
    }
    if (nr)
      for (k = 0; k < 3; k++) o->a[A_NX + k] = nr[3 * v + k];
    if (col)
      for (k = 0; k < 4; k++) o->a[A_R + k] = col[4 * v + k];
    else if (sh == RSX_SHADE_COLOUR)
      for (k = 0; k < 4; k++) o->a[A_R + k] = 1;
  }
  /* which planes cut it; all three out of one plane: nothing to draw */
  for (p = 0; p < 5; p++) {
    int outs = 0;
    for (i = 0; i < 3; i++) outs += plane_dist(r, &in[i], p) < 0;
    if (outs == 3) return;
    if (outs) outside |= 1 << p;
  }
  if (!outside) {
    raster(r, &in[0], &in[1], &in[2]);
    return;
  }
  cur = in;
  for (p = 0; p < 5 && n >= 3; p++) {
    if (!(outside & (1 << p))) continue;
    n = clip_plane(r, cur, n, p, buf[s]);
    cur = buf[s];
    s ^= 1;
  }
  for (i = 1; i + 1 < n; i++) raster(r, &cur[0], &cur[i], &cur[i + 1]);
}

/* --------------------------------------------------------------- draws */

static void skip(rs *r, const rsx_error *why)
{
  if (r->st->skipped++ == 0)
    memcpy(r->st->first_skip, why->text, sizeof r->st->first_skip);
}

static uint32_t selector_word(const rsx_submesh *s)
{
  if (s == NULL) return 0xFFFFFFFFu;
  return (uint32_t)s->selector[0] << 24 | (uint32_t)s->selector[1] << 16 |
         (uint32_t)s->selector[2] << 8 | s->selector[3];
}

static void legend_pick(rs *r, const rsx_submesh *s)
{
  rsx_render_stats *st = r->st;
  const rsx_render_options *o = r->o;
  uint32_t w = selector_word(s);
  int i, k;
  for (i = 0; i < st->legend_count; i++)
    if (st->legend[i] == w) break;
  if (i == RSX_LEGEND_MAX) { /* the rest, unlisted: one colour of theirs */
    rsx_legend_colour(o->legend_count + RSX_LEGEND_MAX, r->draw_rgb);
    return;
  }
  if (i == st->legend_count) {
    for (k = 0; k < o->legend_count; k++)
      if (o->legend[k] == w) break;
    if (k == o->legend_count) k += r->legend_new++;
    st->legend[i] = w;
    st->legend_index[i] = k;
    rsx_legend_colour(k, st->legend_rgb[i]);
    st->legend_count++;
  }
  memcpy(r->draw_rgb, st->legend_rgb[i], 3);
}

/* The triangles of a draw: 3 vertex numbers each, malloc'd. */
static uint32_t *draw_triangles(const rsx_draw *d, size_t *nt,
                                rsx_error *err)
{
  const rsx_mesh *m = d->mesh;
  uint32_t first = d->submesh ? d->submesh->first_index : 0;
  uint32_t count = d->submesh ? d->submesh->index_count : m->index_count;
  size_t cap = rsx_triangle_capacity(count);
  uint32_t *t = malloc((cap ? cap : 1) * 3 * sizeof *t);
  if (t == NULL) {
    rsx_fail(err, "render: out of memory");
    return NULL;
  }
  if (rsx_triangles(m, d->submesh, first, count, t, nt, err) != 0) {
    free(t);
    return NULL;
  }
  return t;
}

static int draw_one(rs *r, const rsx_draw *d, rsx_error *err)
{
  const rsx_render_options *o = r->o;
  rsx_error why;
  uint32_t *t;
  size_t nt, i;
  int k;

  if (d->mesh == NULL) return 0;
  if (d->mesh != r->mesh) {
    int rc = load_mesh(r, d->mesh, &why);
    if (rc < 0) return rsx_fail(err, "%s", why.text);
    if (rc > 0) {
      skip(r, &why);
      return 0;
    }
  }
  t = draw_triangles(d, &nt, &why);
  if (t == NULL) {
    skip(r, &why);
    return 0;
  }
  r->st->triangles += nt;
  r->set = o->stored >= 0 ? o->stored
           : d->submesh ? rsx_submesh_uv_set(d->submesh, o->uv)
                        : o->uv;
  r->uv_cur = mesh_uv(r, r->set);
  if (r->uv_cur == NULL) r->set = -1;
  r->tex = d->texture;
  if (d->texture != NULL) {
    rsx_texture_mean(d->texture, r->flat);
  } else {
    r->flat[0] = r->lin[RSX_FALLBACK_R];
    r->flat[1] = r->lin[RSX_FALLBACK_G];
    r->flat[2] = r->lin[RSX_FALLBACK_B];
    r->flat[3] = 1;
  }
  if (o->shade == RSX_SHADE_SELECTORS) legend_pick(r, d->submesh);
  for (i = 0; i < nt; i++) {
    for (k = 0; k < 3; k++)
      if (t[3 * i + k] >= d->mesh->vertex_count) break;
    if (k == 3) triangle(r, &t[3 * i]);
  }
  free(t);
  return 0;
}

/* --------------------------------------------------------------- setup */

static void basis(rs *r)
{
  const rsx_camera *c = &r->o->camera;
  double f[3], u[3], x[3], n;
  int i;
  for (i = 0; i < 3; i++) {
    f[i] = c->at[i] - c->eye[i];
    u[i] = c->up[i];
  }
  n = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
  for (i = 0; i < 3; i++) f[i] /= n;
  /* right = forward x up; true up = right x forward (gluLookAt) */
  x[0] = f[1] * u[2] - f[2] * u[1];
  x[1] = f[2] * u[0] - f[0] * u[2];
  x[2] = f[0] * u[1] - f[1] * u[0];
  n = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
  for (i = 0; i < 3; i++) x[i] /= n;
  r->up[0] = x[1] * f[2] - x[2] * f[1];
  r->up[1] = x[2] * f[0] - x[0] * f[2];
  r->up[2] = x[0] * f[1] - x[1] * f[0];
  memcpy(r->right, x, sizeof x);
  memcpy(r->fwd, f, sizeof f);
}

int rsx_render(rsx_image *target, const rsx_render_options *o,
               const rsx_draw *draws, size_t n, rsx_render_stats *stats,
               rsx_error *err)
{
  rs r;
  rsx_render_stats local;
  double aspect;
  size_t i, npx;
  int rc = 0;

  if (target == NULL || target->rgba == NULL)
    return rsx_fail(err, "render: no target image");
  if (rsx_camera_check(&o->camera, err) != 0) return -1;
  if (rsx_shade_name(o->shade) == NULL)
    return rsx_fail(err, "render: shade %d unknown", o->shade);
  if (rsx_filter_name(o->filter) == NULL)
    return rsx_fail(err, "render: filter %d unknown", o->filter);
  if (o->uv < 0 || o->uv > 3)
    return rsx_fail(err, "render: uv %d out of range 0..3", o->uv);
  if (o->stored < -1 || o->stored > 3)
    return rsx_fail(err, "render: stored %d out of range 0..3", o->stored);
  if (o->legend_count < 0 || (o->legend_count > 0 && o->legend == NULL))
    return rsx_fail(err, "render: legend of %d entries unset",
                    o->legend_count);

  memset(&r, 0, sizeof r);
  r.o = o;
  r.img = target;
  r.width = target->width;
  r.height = target->height;
  r.st = stats ? stats : &local;
  memset(r.st, 0, sizeof *r.st);
  npx = (size_t)r.width * r.height;
  r.depth = malloc(npx * sizeof *r.depth);
  if (r.depth == NULL) return rsx_fail(err, "render: out of memory");
  for (i = 0; i < npx; i++) {
    r.depth[i] = -INFINITY;
    memcpy(target->rgba + i * 4, o->background, 4);
  }
  srgb_tables(&r);
  basis(&r);
  aspect = (double)r.width / r.height;
  r.persp = o->camera.ortho == 0;
  if (r.persp) {
    double t = tan(o->camera.fov * PI / 360.0);
    r.sy = 1 / t;
    r.sx = 1 / (t * aspect);
  } else {
    r.sy = 2 / o->camera.ortho;
    r.sx = 2 / (o->camera.ortho * aspect);
  }
  for (i = 0; i < n && rc == 0; i++) rc = draw_one(&r, &draws[i], err);
  free_mesh(&r);
  free(r.depth);
  return rc;
}

/* -------------------------------------------------------------- bounds */

/* Calls fn(ctx, p) for each position (finite) that the draws' triangles
** use, a vertex once per triangle corner. Positions are decoded once per
** run of draws of the same mesh. */
static void each_position(const rsx_draw *draws, size_t n,
                          void (*fn)(void *ctx, const float p[3]),
                          void *ctx)
{
  const rsx_mesh *pm = NULL;
  float *pos = NULL;
  size_t i, j;
  for (i = 0; i < n; i++) {
    const rsx_mesh *m = draws[i].mesh;
    size_t nt;
    uint32_t *t;
    if (m == NULL) continue;
    if (m != pm) {
      free(pos);
      pos = decode_all(m, RSX_POSITION);
      pm = m;
    }
    if (pos == NULL) continue;
    t = draw_triangles(&draws[i], &nt, NULL);
    if (t == NULL) continue;
    for (j = 0; j < nt * 3; j++) {
      const float *p = pos + (size_t)t[j] * 3;
      if (t[j] < m->vertex_count && isfinite(p[0]) && isfinite(p[1]) &&
          isfinite(p[2]))
        fn(ctx, p);
    }
    free(t);
  }
  free(pos);
}

typedef struct box {
  float min[3], max[3];
  int any;
} box;

static void box_add(void *ctx, const float p[3])
{
  box *b = ctx;
  int k;
  for (k = 0; k < 3; k++) {
    if (!b->any || p[k] < b->min[k]) b->min[k] = p[k];
    if (!b->any || p[k] > b->max[k]) b->max[k] = p[k];
  }
  b->any = 1;
}

int rsx_draw_bounds(const rsx_draw *draws, size_t n, float min[3],
                    float max[3])
{
  box b;
  memset(&b, 0, sizeof b);
  each_position(draws, n, box_add, &b);
  memcpy(min, b.min, sizeof b.min);
  memcpy(max, b.max, sizeof b.max);
  return b.any;
}

/* Recentre an orthographic camera on what the draws' triangles use, and
** size its view to their projected extent (5% margin): tighter than the
** bounding box's corners. The view direction and up are kept. */
/* The extent of positions along a camera's right, up and forward. */
typedef struct extent {
  const rs *r;
  const double *eye;
  double lo[3], hi[3];
} extent;

static void extent_add(void *ctx, const float p[3])
{
  extent *e = ctx;
  const rs *r = e->r;
  double d[3], v[3];
  int k;
  for (k = 0; k < 3; k++) d[k] = p[k] - e->eye[k];
  v[0] = d[0] * r->right[0] + d[1] * r->right[1] + d[2] * r->right[2];
  v[1] = d[0] * r->up[0] + d[1] * r->up[1] + d[2] * r->up[2];
  v[2] = d[0] * r->fwd[0] + d[1] * r->fwd[1] + d[2] * r->fwd[2];
  for (k = 0; k < 3; k++) {
    if (v[k] < e->lo[k]) e->lo[k] = v[k];
    if (v[k] > e->hi[k]) e->hi[k] = v[k];
  }
}

int rsx_camera_fit(rsx_camera *c, const rsx_draw *draws, size_t n,
                   double aspect, rsx_error *err)
{
  rsx_render_options o;
  rs r;
  extent e;
  double w, h, mid[3], back;
  int k;

  if (rsx_camera_check(c, err) != 0) return -1;
  memset(&o, 0, sizeof o);
  o.camera = *c;
  memset(&r, 0, sizeof r);
  r.o = &o;
  basis(&r);
  e.r = &r;
  e.eye = c->eye;
  for (k = 0; k < 3; k++) {
    e.lo[k] = INFINITY;
    e.hi[k] = -INFINITY;
  }
  each_position(draws, n, extent_add, &e);
  if (!(e.lo[0] <= e.hi[0])) return 0; /* nothing drawn: keep the camera */
  for (k = 0; k < 3; k++) mid[k] = (e.lo[k] + e.hi[k]) / 2;
  w = e.hi[0] - e.lo[0];
  h = e.hi[1] - e.lo[1];
  c->ortho = 1.05 * (h > w / aspect ? h : w / aspect);
  if (!(c->ortho > 0)) c->ortho = 1;
  /* the eye: over the middle, in front of the nearest point */
  back = (e.hi[2] - e.lo[2]) / 2 + 1;
  for (k = 0; k < 3; k++) {
    double centre = c->eye[k] + mid[0] * r.right[k] + mid[1] * r.up[k] +
                    mid[2] * r.fwd[k];
    c->at[k] = centre;
    c->eye[k] = centre - r.fwd[k] * back;
  }
  return 0;
}
