/*
** lines.c - tests of the vertex and face lines (src/lines.c), written
** into a memory sink that checks the room it was asked for; every
** expected line worked out by hand below.
*/
#include "rsxmesh.h"
#include "lines.h"
#include "tap.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ----------------------------------------------------------- the sink */

#define SINK_SIZE (1 << 20)
#define CANARY 0xA5

/* Text kept so far; each room is checked at keep: no more kept than
** asked for, and nothing written past the room. */
typedef struct mem {
  unsigned char buf[SINK_SIZE];
  size_t n, asked, largest;
  int rooms, overrun;
} mem;

static mem sink_mem;

static char *mem_room(void *ctx, size_t size)
{
  mem *m = ctx;
  if (size > SINK_SIZE - 64 - m->n) bail_out("sink: %zu bytes asked", size);
  m->asked = size;
  if (size > m->largest) m->largest = size;
  m->rooms++;
  memset(m->buf + m->n, CANARY, size + 64);
  return (char *)m->buf + m->n;
}

static void mem_keep(void *ctx, size_t len)
{
  mem *m = ctx;
  size_t i;
  if (len > m->asked) m->overrun = 1;
  for (i = 0; i < 64; i++)
    if (m->buf[m->n + m->asked + i] != CANARY) m->overrun = 1;
  m->n += len;
  m->buf[m->n] = 0;
}

static rsx_sink mem_start(void)
{
  rsx_sink s;
  memset(&sink_mem, 0, sizeof sink_mem);
  s.room = mem_room;
  s.keep = mem_keep;
  s.ctx = &sink_mem;
  return s;
}

static const char *mem_text(void)
{
  return (const char *)sink_mem.buf;
}

/* ------------------------------------------------------ a small mesh */

/* Unpacked layouts, from rsxb.md: the MMP holds the position's three
** floats at +0 and the normal's at +12, its stride rounded up to 16;
** the MGP holds uv0's two floats. */
#define MASK_PN_UV 0x25u /* position, normal, uv0 */
#define MMP_STRIDE 32
#define MGP_STRIDE 8
#define MAXV 700

typedef struct fx {
  uint8_t meta[RSX_META_MIN];
  uint8_t mmp[MAXV * MMP_STRIDE], mgp[MAXV * MGP_STRIDE];
  rsx_mesh m;
} fx;

static fx mesh_fx;

static void fx_vertex(int v, float x, float y, float z, float nx, float ny,
                      float nz, float u, float w)
{
  uint8_t *p = mesh_fx.mmp + v * MMP_STRIDE, *q = mesh_fx.mgp
    + v * MGP_STRIDE;
  rsx_put_f32(p, x);
  rsx_put_f32(p + 4, y);
  rsx_put_f32(p + 8, z);
  rsx_put_f32(p + 12, nx);
  rsx_put_f32(p + 16, ny);
  rsx_put_f32(p + 20, nz);
  rsx_put_f32(q, u);
  rsx_put_f32(q + 4, w);
}

static const rsx_mesh *fx_mesh(uint32_t vc)
{
  rsx_error e;
  fx *x = &mesh_fx;
  rsx_put_be32(x->meta + RSX_MASK_OFFSET, MASK_PN_UV);
  x->m.name = "lines";
  x->m.index = 0;
  x->m.meta = x->meta;
  x->m.meta_size = RSX_META_MIN;
  x->m.vertex_count = vc;
  x->m.mmp = x->mmp;
  x->m.mmp_stride = MMP_STRIDE;
  x->m.mgp = x->mgp;
  x->m.mgp_stride = MGP_STRIDE;
  x->m.index_size = 2;
  x->m.primitive = RSX_TRIANGLES;
  if (rsx_mesh_check(&x->m, 0, "mesh 1 (lines)", &e) != 0)
    bail_out("fixture refused: %s", e.text);
  return &x->m;
}

static rsx_vertex_text vt_plain(const char *prefix, int components)
{
  rsx_vertex_text how;
  how.prefix = prefix;
  how.prefix_len = strlen(prefix);
  how.components = components;
  how.scale = how.offset = NULL;
  how.with = -1;
  how.with_components = 0;
  how.memo = NULL;
  return how;
}

/*
** Three vertices:
**   v  position             normal        uv0
**   1  (1, -1.5, 0.1f)      (0, 0, 1)     (0.25, 0.75)
**   2  (0, 2.5, -0)         (0, -1, 0)    (0, -0)
**   3  (1e-8f, 150, 65504)  (1, 0, 0)     (1, 2)
** 0.1f is 13421773 * 2^-27, whose shortest decimal is 0.1; 1e-8f's is
** 1e-8; -0 is written "-0".
*/
/* The lines of vertices first..first+count-1 of kind, written whole and
** within their rooms, are want. */
static void vertices_are(const rsx_mesh *m, int kind, uint32_t first,
                         uint32_t count, const rsx_vertex_text *how,
                         const char *want, const char *name)
{
  rsx_sink s = mem_start();
  rsx_error e;
  ok(rsx_vertex_lines(m, kind, first, count, how, &s, &e) == 0,
     "%s: written", name);
  is_str(mem_text(), want, "%s", name);
  ok(!sink_mem.overrun, "%s: nothing past the room asked for", name);
}

static void test_vertices(void)
{
  static rsx_float_memo memo;
  const rsx_mesh *m;
  rsx_vertex_text how;
  rsx_sink s;
  rsx_error e;
  static const double flip_scale[2] = {1, -1}, flip_offset[2] = {0, 1};
  memset(&mesh_fx, 0, sizeof mesh_fx);
  fx_vertex(0, 1, -1.5f, 0.1f, 0, 0, 1, 0.25f, 0.75f);
  fx_vertex(1, 0, 2.5f, -0.0f, 0, -1, 0, 0, -0.0f);
  fx_vertex(2, 1e-8f, 150, 65504, 1, 0, 0, 1, 2);
  m = fx_mesh(3);

  how = vt_plain("v", 3);
  vertices_are(m, RSX_POSITION, 0, 3, &how,
               "v 1 -1.5 0.1\nv 0 2.5 -0\nv 1e-8 150 65504\n",
               "vertices: v lines, shortest float32 digits, -0 kept");
  /* through a memo, twice: 0 and -0 are two floats, as 1 and 1 are one */
  rsx_float_memo_init(&memo);
  how.memo = &memo;
  vertices_are(m, RSX_POSITION, 0, 3, &how,
               "v 1 -1.5 0.1\nv 0 2.5 -0\nv 1e-8 150 65504\n",
               "vertices: through a memo");
  vertices_are(m, RSX_POSITION, 0, 3, &how,
               "v 1 -1.5 0.1\nv 0 2.5 -0\nv 1e-8 150 65504\n",
               "vertices: through a memo, its second pass");

  how = vt_plain("vn", 3);
  vertices_are(m, RSX_NORMAL, 1, 2, &how, "vn 0 -1 0\nvn 1 0 0\n",
               "vertices: vertices 2..3");
  how = vt_plain("", 1);
  vertices_are(m, RSX_POSITION, 0, 3, &how, "1\n0\n1e-8\n",
               "vertices: no prefix, no leading space, one component");
  how = vt_plain("vertex_position", 2);
  vertices_are(m, RSX_POSITION, 0, 1, &how, "vertex_position 1 -1.5\n",
               "vertices: a prefix longer than 8 characters");

  /* V flipped: 1 - 0.75 = 0.25, 1 - -0 = 1, 1 - 2 = -1; u as
  ** 0 + 1 * u, which makes -0 into 0 */
  how = vt_plain("vt", 2);
  how.scale = flip_scale;
  how.offset = flip_offset;
  vertices_are(m, RSX_UV0, 0, 3, &how, "vt 0.25 0.25\nvt 0 1\nvt 1 -1\n",
               "vertices: the V flip, 1 - v computed and written as "
               "float32");

  how = vt_plain("v", 3);
  how.with = RSX_NORMAL;
  how.with_components = 2;
  vertices_are(m, RSX_POSITION, 0, 2, &how,
               "v 1 -1.5 0.1 0 0\nv 0 2.5 -0 0 -1\n",
               "vertices: another kind's first components after each");

  /* refusals: nothing written */
  s = mem_start();
  how = vt_plain("v", 3);
  ok(rsx_vertex_lines(m, RSX_POSITION, 2, 2, &how, &s, &e) == -1,
     "vertices: a range past the vertex count fails");
  like(e.text, "vertices 3..4 run past the vertex count 3",
       "vertices: ... with rsx_mesh_decode's message");
  is_int(sink_mem.rooms, 0, "vertices: ... and nothing written");
  how = vt_plain("v", 4);
  ok(rsx_vertex_lines(m, RSX_POSITION, 0, 1, &how, &s, &e) == -1,
     "vertices: 4 components of a position fail");
  like(e.text, "components 4 out of range 1..3", "vertices: ... named");
  how = vt_plain("v", 0);
  ok(rsx_vertex_lines(m, RSX_POSITION, 0, 1, &how, &s, &e) == -1,
     "vertices: 0 components fail");
  how = vt_plain("v", 3);
  ok(rsx_vertex_lines(m, RSX_TANGENT_A, 0, 1, &how, &s, &e) == -1,
     "vertices: a kind the mesh lacks fails");
  ok(rsx_vertex_lines(m, 99, 0, 1, &how, &s, &e) == -1,
     "vertices: kind 99 fails");
  like(e.text, "no attribute kind 99", "vertices: ... named");
  how.with = RSX_KIND_COUNT;
  how.with_components = 1;
  ok(rsx_vertex_lines(m, RSX_POSITION, 0, 1, &how, &s, &e) == -1,
     "vertices: another kind of 13 fails");
  how.with = RSX_NORMAL;
  how.with_components = 3;
  ok(rsx_vertex_lines(m, RSX_POSITION, 0, 0, &how, &s, &e) == 0,
     "vertices: an empty range");
  is_int(sink_mem.rooms, 0, "vertices: ... writes nothing");
  how.with_components = 5;
  ok(rsx_vertex_lines(m, RSX_POSITION, 0, 1, &how, &s, &e) == -1,
     "vertices: 5 components of the other kind fail");
  is_int(sink_mem.rooms, 0, "vertices: the refusals wrote nothing");
}

/* 700 vertices (x = its 0-based number, y = z = 0): the decoder's runs
** of 256 and the rooms of many lines; the text is "v N 0 0" for each. */
static void test_many_vertices(void)
{
  static char want[MAXV * 16];
  static rsx_float_memo memo;
  const rsx_mesh *m;
  rsx_vertex_text how = vt_plain("v", 3);
  rsx_sink s;
  rsx_error e;
  size_t n = 0;
  int v;
  memset(&mesh_fx, 0, sizeof mesh_fx);
  for (v = 0; v < MAXV; v++) {
    fx_vertex(v, (float)v, 0, 0, 0, 0, 1, 0, 0);
    n += (size_t)snprintf(want + n, sizeof want - n, "v %d 0 0\n", v);
  }
  m = fx_mesh(MAXV);
  s = mem_start();
  ok(rsx_vertex_lines(m, RSX_POSITION, 0, MAXV, &how, &s, &e) == 0,
     "700 vertices");
  is_str(mem_text(), want, "700 vertices: every line");
  ok(!sink_mem.overrun && sink_mem.largest <= RSX_SINK_ROOM,
     "700 vertices: no room larger than RSX_SINK_ROOM, none overrun");
  ok(rsx_vertex_lines_size(MAXV, &how) >= sink_mem.n,
     "700 vertices: rsx_vertex_lines_size bounds the text");

  /* through a memo of float texts: 700 values share 4,096 entries, so
  ** some take another's place; twice, the second mostly from the memo */
  how.memo = &memo;
  rsx_float_memo_init(&memo);
  for (v = 1; v <= 2; v++) {
    s = mem_start();
    rsx_vertex_lines(m, RSX_POSITION, 0, MAXV, &how, &s, &e);
    is_str(mem_text(), want, "700 vertices through a memo, pass %d", v);
  }
}

/* --------------------------------------------------------- face lines */

static rsx_face_text ft(const char *prefix, const rsx_face_column *c,
                        int n)
{
  rsx_face_text how;
  how.prefix = prefix;
  how.prefix_len = strlen(prefix);
  how.columns = c;
  how.ncolumns = n;
  return how;
}

/* The plan of n triangles, which must be made. */
static rsx_face_plan plan_of(const uint32_t *tri, size_t n,
                             const rsx_face_text *how, const char *name)
{
  rsx_face_plan plan;
  rsx_error e;
  if (rsx_face_measure(tri, n, how, &plan, &e) != 0)
    bail_out("%s: no plan: %s", name, e.text);
  return plan;
}

/* The lines of n triangles with a cache and without: the same text. */
static void faces_both(const uint32_t *tri, size_t n, rsx_face_text how,
                       const char *want, const char *name)
{
  static unsigned char cache[4096];
  rsx_face_plan plan = plan_of(tri, n, &how, name);
  rsx_sink s = mem_start();
  rsx_face_lines(tri, n, &how, &plan, NULL, &s);
  is_str(mem_text(), want, "%s", name);
  ok(!sink_mem.overrun, "%s: nothing past the room", name);
  ok(plan.text_size >= sink_mem.n, "%s: the plan's text_size bounds it",
     name);
  if (plan.cache_size > 0 && plan.cache_size <= sizeof cache) {
    memset(cache, 0xFF, sizeof cache); /* any content */
    s = mem_start();
    rsx_face_lines(tri, n, &how, &plan, cache, &s);
    is_str(mem_text(), want, "%s: through the cache (%zu bytes)", name,
           plan.cache_size);
    ok(!sink_mem.overrun, "%s: through the cache, nothing past the room",
       name);
  }
}

static void test_faces(void)
{
  /* four triangles over vertices 0..3, each vertex used three times */
  static const uint32_t quad[12] = {0, 1, 2, 2, 1, 3, 0, 2, 3, 3, 1, 0};
  const rsx_face_column vtn[3] = {{1, 0}, {1, 10}, {1, 100}};
  const rsx_face_column v_n[3] = {{1, 0}, {0, 0}, {1, 4}};
  const rsx_face_column tail[2] = {{1, -3}, {0, 0}};
  const rsx_face_column one[1] = {{1, 0}};
  const rsx_face_column none[1] = {{0, 0}};
  static const uint32_t carry[3] = {8, 98, 99998};
  const rsx_face_column long_columns[2] = {{1, 1000000000000000},
                                           {1, -1000000000000000}};
  rsx_face_text how = ft("f", vtn, 3), big_how = ft("f", long_columns, 2);

  /* corners 1/11/101 .. 4/14/104: one digit, two, three, and two
  ** slashes, 8 characters: a 32-byte slot and a 2-byte length each */
  is_int((long long)plan_of(quad, 4, &how, "quad").cache_size,
         4 * (32 + 2), "faces: the cache of 4 vertices, 34 bytes each");
  faces_both(quad, 4, how,
             "f 1/11/101 2/12/102 3/13/103\n"
             "f 3/13/103 2/12/102 4/14/104\n"
             "f 1/11/101 3/13/103 4/14/104\n"
             "f 4/14/104 2/12/102 1/11/101\n",
             "faces: v/vt/vn, 1-based plus each column's offset");
  faces_both(quad, 2, ft("f", v_n, 3),
             "f 1//5 2//6 3//7\nf 3//7 2//6 4//8\n",
             "faces: an empty middle column (v//vn)");
  faces_both(quad, 2, ft("f", tail, 2),
             "f -2/ -1/ 0/\nf 0/ -1/ 1/\n",
             "faces: a negative offset, an empty last column");
  faces_both(quad, 2, ft("", one, 1), "1 2 3\n3 2 4\n",
             "faces: no prefix, no leading space");
  faces_both(quad, 4, ft("", none, 1), "  \n  \n  \n  \n",
             "faces: one empty column, empty corners");
  faces_both(quad, 1, ft("triangle", one, 1), "triangle 1 2 3\n",
             "faces: a prefix of 8 characters");
  faces_both(quad, 1, ft("triangle:", one, 1), "triangle: 1 2 3\n",
             "faces: a prefix longer than 8 characters");
  faces_both(carry, 1, ft("f", one, 1), "f 9 99 99999\n",
             "faces: numbers carried to 2 and 5 digits");
  is_int((long long)plan_of(carry, 1, &how, "carry").cache_size, 0,
         "faces: no cache for one triangle over 99,991 vertices");
  faces_both(quad, 0, how, "", "faces: no triangles, no text");
  /* 1..4 plus 10^15 and minus 10^15: 16 characters each, a corner of
  ** 16 + 1 + 16 = 33, past a 32-byte slot: 40 bytes, copied by words */
  is_int((long long)plan_of(quad, 4, &big_how, "long").slot, 40,
         "faces: a 33-character corner, a 40-byte slot");
  faces_both(quad, 4, big_how,
             "f 1000000000000001/-999999999999999 "
             "1000000000000002/-999999999999998 "
             "1000000000000003/-999999999999997\n"
             "f 1000000000000003/-999999999999997 "
             "1000000000000002/-999999999999998 "
             "1000000000000004/-999999999999996\n"
             "f 1000000000000001/-999999999999999 "
             "1000000000000003/-999999999999997 "
             "1000000000000004/-999999999999996\n"
             "f 1000000000000004/-999999999999996 "
             "1000000000000002/-999999999999998 "
             "1000000000000001/-999999999999999\n",
             "faces: corners longer than a 32-byte slot");
}

/* The extremes: vertex 2^32 - 1 (0-based, 2^32 1-based) plus the largest
** offset is 2^32 + 2^63 - 1 - 2^32 = 2^63 - 1, plus the smallest 2^32 -
** 2^63; vertex 0 plus them 2^63 - 2^32 and 1 - 2^63. */
static void test_face_extremes(void)
{
  static const uint32_t high[3] = {0xFFFFFFFFu, 0xFFFFFFFEu, 0};
  const rsx_face_column big[2] = {{1, RSX_FACE_OFFSET_MAX},
                                  {1, INT64_MIN}};
  rsx_face_column bad[1] = {{1, RSX_FACE_OFFSET_MAX + 1}};
  rsx_face_column many[RSX_FACE_COLUMNS + 1];
  rsx_face_text how = ft("f", big, 2);
  rsx_face_plan plan = plan_of(high, 1, &how, "extremes");
  rsx_sink s = mem_start();
  rsx_error e;
  rsx_face_lines(high, 1, &how, &plan, NULL, &s);
  /* 2^63 = 9223372036854775808, 2^32 = 4294967296 */
  is_str(mem_text(), "f 9223372036854775807/-9223372032559808512 "
         "9223372036854775806/-9223372032559808513 "
         "9223372032559808512/-9223372036854775807\n",
         "extremes: 2^63 - 1 and 1 - 2^63, no overflow");
  is_int((long long)plan.cache_size, 0,
         "extremes: no cache over 2^32 vertices");
  /* a corner of 19 + 1 + 20 characters: 40, past a 32-byte slot */
  is_int((long long)plan.slot, 40, "extremes: a 40-byte corner");

  how = ft("f", bad, 1);
  ok(rsx_face_measure(high, 1, &how, &plan, &e) == -1,
     "refused: an offset above 2^63 - 2^32");
  like(e.text, "column 1's offset is above 2^63 - 2^32",
       "refused: ... named");
  memset(many, 0, sizeof many);
  how = ft("f", many, 0);
  ok(rsx_face_measure(high, 1, &how, &plan, &e) == -1,
     "refused: no columns");
  like(e.text, "0 columns, not 1..16", "refused: ... named");
  how = ft("f", many, RSX_FACE_COLUMNS + 1);
  ok(rsx_face_measure(high, 1, &how, &plan, &e) == -1,
     "refused: 17 columns");
  how = ft("f", many, RSX_FACE_COLUMNS);
  plan = plan_of(high, 1, &how, "16 empty columns");
  s = mem_start();
  rsx_face_lines(high, 1, &how, &plan, NULL, &s);
  is_str(mem_text(), "f /////////////// /////////////// "
         "///////////////\n", "16 empty columns: 15 slashes a corner");
}

/* 5,000 triangles (k, k + 1, k + 2) over 5,002 vertices: rooms of many
** lines, never more than RSX_SINK_ROOM; the cache and the plain path
** agree with lines made by snprintf. */
static void test_many_faces(void)
{
  static uint32_t tri[5000 * 3];
  static char want[5000 * 64];
  static unsigned char cache[5002 * 34];
  const rsx_face_column vtn[3] = {{1, 0}, {1, 1000}, {1, 1000000}};
  rsx_face_text how = ft("f", vtn, 3);
  rsx_face_plan plan;
  size_t n = 0;
  rsx_sink s;
  uint32_t k;
  for (k = 0; k < 5000; k++) {
    unsigned a = k + 1, b = k + 2, c = k + 3;
    tri[3 * k] = k;
    tri[3 * k + 1] = k + 1;
    tri[3 * k + 2] = k + 2;
    n += (size_t)snprintf(want + n, sizeof want - n,
                          "f %u/%u/%u %u/%u/%u %u/%u/%u\n", a, a + 1000,
                          a + 1000000, b, b + 1000, b + 1000000, c,
                          c + 1000, c + 1000000);
  }
  /* corners up to 5002/6002/1005002: 4 + 4 + 7 + 2 = 17, slot 32 */
  plan = plan_of(tri, 5000, &how, "5,000 faces");
  is_int((long long)plan.cache_size, 5002 * (32 + 2),
         "5,000 faces: a cache of 5,002 slots of 32 bytes and a length");
  s = mem_start();
  rsx_face_lines(tri, 5000, &how, &plan, NULL, &s);
  is_str(mem_text(), want, "5,000 faces: every line, no cache");
  ok(!sink_mem.overrun && sink_mem.largest <= RSX_SINK_ROOM,
     "5,000 faces: no room above RSX_SINK_ROOM, none overrun");
  s = mem_start();
  rsx_face_lines(tri, 5000, &how, &plan, cache, &s);
  is_str(mem_text(), want, "5,000 faces: every line, through the cache");
  ok(!sink_mem.overrun && sink_mem.largest <= RSX_SINK_ROOM,
     "5,000 faces: through the cache, rooms kept");
}

/* 100 triangles (k, k + 1, k + 2) whose numbers gain a digit midway
** (10^15 - 50 + 1 .. 10^15 + 51): the cache's corners, counted from one
** another, are written anew there; corners of 16 and 17 digits twice
** and an empty column, past 32 bytes, go in 40-byte slots copied by
** words. The text is made by snprintf. */
static void test_counted_faces(void)
{
  static uint32_t tri[100 * 3];
  static char want[100 * 128];
  static unsigned char cache[102 * (40 + 2)];
  const long long off = 1000000000000000LL - 50;
  const rsx_face_column wide[3] = {{1, off}, {0, 0}, {1, off}};
  const rsx_face_column digits[2] = {{1, 0}, {1, 999 - 50}};
  rsx_face_text how = ft("f", wide, 3);
  rsx_face_plan plan;
  size_t n = 0;
  rsx_sink s;
  uint32_t k;
  for (k = 0; k < 100; k++) {
    long long a = off + k + 1;
    tri[3 * k] = k;
    tri[3 * k + 1] = k + 1;
    tri[3 * k + 2] = k + 2;
    n += (size_t)snprintf(want + n, sizeof want - n,
                          "f %lld//%lld %lld//%lld %lld//%lld\n", a, a,
                          a + 1, a + 1, a + 2, a + 2);
  }
  plan = plan_of(tri, 100, &how, "counted faces");
  is_int((long long)plan.slot, 40,
         "counted faces: corners of 34 characters, 40-byte slots");
  ok(plan.cache_size > 0 && plan.cache_size <= sizeof cache,
     "counted faces: a cache of %zu bytes", plan.cache_size);
  s = mem_start();
  rsx_face_lines(tri, 100, &how, &plan, cache, &s);
  is_str(mem_text(), want, "counted faces: 10^15 crossed, by the cache");
  ok(!sink_mem.overrun, "counted faces: nothing past the room");
  n = 0;
  for (k = 0; k < 100; k++)
    n += (size_t)snprintf(want + n, sizeof want - n,
                          "f %u/%u %u/%u %u/%u\n", k + 1, k + 950, k + 2,
                          k + 951, k + 3, k + 952);
  faces_both(tri, 100, ft("f", digits, 2), want,
             "counted faces: 999 to 1000 and 9 to 10 in one corner");
}

/* The plan's bounds, found four numbers at a time and then one by one:
** the lowest and the highest at every place of 5 triangles (15 numbers:
** three groups of four, three after them). */
static void test_face_bounds(void)
{
  const rsx_face_column one[1] = {{1, 0}};
  rsx_face_text how = ft("f", one, 1);
  uint32_t tri[15];
  int at, k, right = 0;
  for (at = 0; at < 15; at++) {
    rsx_face_plan plan;
    for (k = 0; k < 15; k++) tri[k] = 100;
    tri[at] = 7;
    tri[(at + 5) % 15] = 900;
    plan = plan_of(tri, 5, &how, "bounds");
    right += plan.low == 7 && plan.range == 894;
  }
  is_int(right, 15, "bounds: the lowest and highest at each of 15 places");
}

/* Corners made a run at a time up to the next carry (fl_run), columns
** carrying at different vertices (offsets 0, 3 and 7, an empty column
** between): 1,200 triangles (k + 5, k + 6, k + 7), their numbers across
** 9 to 10, 99 to 100 and 999 to 1000, against snprintf's. */
static void test_carried_runs(void)
{
  static uint32_t tri[1200 * 3];
  static char want[1200 * 64];
  static unsigned char cache[1202 * (32 + 2)];
  const rsx_face_column cols[4] = {{1, 0}, {0, 0}, {1, 3}, {1, 7}};
  rsx_face_text how = ft("f", cols, 4);
  rsx_face_plan plan;
  size_t n = 0;
  rsx_sink s;
  uint32_t k;
  for (k = 0; k < 1200; k++) {
    unsigned a = k + 6, b = k + 7, c = k + 8;
    tri[3 * k] = k + 5;
    tri[3 * k + 1] = k + 6;
    tri[3 * k + 2] = k + 7;
    n += (size_t)snprintf(want + n, sizeof want - n,
                          "f %u//%u/%u %u//%u/%u %u//%u/%u\n", a, a + 3,
                          a + 7, b, b + 3, b + 7, c, c + 3, c + 7);
  }
  plan = plan_of(tri, 1200, &how, "carried runs");
  is_int((long long)plan.slot, 32, "carried runs: 32-byte slots");
  ok(plan.cache_size > 0 && plan.cache_size <= sizeof cache,
     "carried runs: a cache of %zu bytes", plan.cache_size);
  memset(cache, 0xFF, sizeof cache); /* any content */
  s = mem_start();
  rsx_face_lines(tri, 1200, &how, &plan, cache, &s);
  is_str(mem_text(), want, "carried runs: every line, by the cache");
  ok(!sink_mem.overrun, "carried runs: nothing past the room");
}

/* A fresh memo's empty slots hold bits of another slot (0, and 1 in slot
** 0, which 0.0 takes): the floats of those bits, met first, are written,
** not taken for the empty slots' texts. 1e-45 is the smallest subnormal
** (bits 1), -0 has bits 0x80000000. */
static void test_memo_empty(void)
{
  static rsx_float_memo memo;
  const rsx_mesh *m;
  rsx_vertex_text how;
  float tiny;
  uint32_t one = 1;
  memcpy(&tiny, &one, sizeof tiny);
  memset(&mesh_fx, 0, sizeof mesh_fx);
  fx_vertex(0, 0.0f, tiny, -0.0f, 0, 0, 1, 0, 0);
  fx_vertex(1, tiny, 0.0f, tiny, 0, 0, 1, 0, 0);
  m = fx_mesh(2);
  how = vt_plain("v", 3);
  rsx_float_memo_init(&memo);
  how.memo = &memo;
  vertices_are(m, RSX_POSITION, 0, 2, &how, "v 0 1e-45 -0\nv 1e-45 0 1e-45\n",
               "memo: 0, the smallest subnormal and -0 in a fresh memo");
}

int main(void)
{
  test_vertices();
  test_memo_empty();
  test_many_vertices();
  test_faces();
  test_face_extremes();
  test_many_faces();
  test_counted_faces();
  test_carried_runs();
  test_face_bounds();
  return done_testing();
}
