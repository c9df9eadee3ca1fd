/*
** export-floor.c - the C floors of the export benchmarks: the OBJ text
** obj-export writes, made in plain C, and a plain decode pass.
**
** usage: bench/export-floor obj|decode [-r REPS] [-o DIR] BUNDLE...
**
** obj: for every bundle, the OBJ file `rsxmesh obj-export` writes with its
** default options (o, v, vn, a vt block per stored set feeding logical
** UV0 with V flipped, g, usemtl, f v/vt/vn), decoded by rsx_mesh_decode
** and rsx_triangles, written to /dev/null, or with -o to DIR/STEM.obj
** (one pass, for checking it against the script's). No MTL: a few hundred
** bytes a bundle. Floats go out as the core's rsx_format_float writes
** them: the shortest decimal that reads back as the same float32.
**
** decode: every attribute of every mesh decoded by rsx_mesh_decode, the
** survey's floor.
**
** Each pass opens the bundles, does its work and closes them; the best
** (least CPU time, clock()) of REPS passes is printed on one line:
**   obj SECONDS VERTICES TRIANGLES BYTES FLOATS
**   decode SECONDS VERTICES VALUES SUM
** A bundle that cannot be opened or a mesh that cannot be decoded stops
** the program with a message naming it: a floor of half the work would
** mean nothing.
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rsxmesh.h"

#define FL_CHUNK 1024   /* vertices decoded at a time */
#define FL_MAXC 4       /* components of any kind */
#define FL_NAME_MAX 512 /* room for an OBJ token */

/* What a pass did. */
typedef struct fl_totals {
  double vertices, triangles, bytes, floats, sum;
} fl_totals;

/* ------------------------------------------------------------ output */

/* A buffered writer: the text is made in buf and written a block at a
** time, as Lua's luaL_Buffer and io.write do for the script. */
typedef struct fl_out {
  FILE *f;
  const char *path;
  size_t len;
  double bytes;
  char buf[1 << 16];
} fl_out;

static void out_flush(fl_out *o)
{
  if (o->len > 0 && fwrite(o->buf, 1, o->len, o->f) != o->len) {
    fprintf(stderr, "export-floor: %s: write failed\n", o->path);
    exit(1);
  }
  o->bytes += (double)o->len;
  o->len = 0;
}

/* Room for n more bytes in the buffer. */
static char *out_room(fl_out *o, size_t n)
{
  if (o->len + n > sizeof o->buf) out_flush(o);
  return o->buf + o->len;
}

static void out_str(fl_out *o, const char *s)
{
  size_t n = strlen(s);
  if (n > sizeof o->buf) n = sizeof o->buf; /* names are far shorter */
  memcpy(out_room(o, n), s, n);
  o->len += n;
}

/* Decimal digits of u at p, as Lua's tostring writes an integer; returns
** the end. */
static char *put_uint(char *p, unsigned long u)
{
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u > 0);
  while (n > 0) *p++ = tmp[--n];
  return p;
}

static void out_uint(fl_out *o, unsigned long u)
{
  char *p = out_room(o, 24);
  o->len = (size_t)(put_uint(p, u) - o->buf);
}

/* An OBJ token, as obj-export makes one: white space becomes '_', and an
** empty name is "_". */
static void out_token(fl_out *o, const char *name)
{
  char t[FL_NAME_MAX];
  size_t i;
  for (i = 0; name[i] != '\0' && i + 1 < sizeof t; i++)
    t[i] = isspace((unsigned char)name[i]) ? '_' : name[i];
  t[i] = '\0';
  out_str(o, i > 0 ? t : "_");
}

/* ----------------------------------------------------------- the OBJ */

static void fl_die(const char *what, const char *message)
{
  fprintf(stderr, "export-floor: %s: %s\n", what, message);
  exit(1);
}

/* Lines "PREFIX x y z" of every vertex of kind; flip: the vt line of a
** UV, V' = 1 - V in float32 as acc:lines computes it for obj-export. */
static void obj_block(fl_out *o, const char *path, const rsx_mesh *m,
                      int kind, const char *prefix, int flip, fl_totals *t)
{
  float c[FL_CHUNK * FL_MAXC];
  rsx_error err;
  uint32_t v, run, i;
  int n = m->format.attr[kind]->components, k;
  size_t plen = strlen(prefix);
  for (v = 0; v < m->vertex_count; v += run) {
    run = m->vertex_count - v < FL_CHUNK ? m->vertex_count - v : FL_CHUNK;
    if (rsx_mesh_decode(m, kind, v, run, c, &err) != 0)
      fl_die(path, err.text);
    for (i = 0; i < run; i++) {
      const float *x = c + (size_t)i * (size_t)n;
      char *p = out_room(o, plen + (size_t)n * (RSX_FLOAT_CHARS + 1) + 1);
      memcpy(p, prefix, plen);
      p += plen;
      for (k = 0; k < n; k++) {
        float f = flip && k == 1 ? (float)(1.0 + -1.0 * (double)x[k]) : x[k];
        *p++ = ' ';
        p += rsx_format_float(f, p);
      }
      *p++ = '\n';
      o->len = (size_t)(p - o->buf);
    }
    t->floats += (double)run * n;
  }
}

/* One corner "v/vt/vn" of a face at p, returns the end; vt or vn 0 when
** the face has none. */
static char *put_corner(char *p, uint32_t a, unsigned long v,
                        unsigned long vt, unsigned long vn)
{
  p = put_uint(p, a + 1 + v);
  if (vt > 0) {
    *p++ = '/';
    p = put_uint(p, a + vt);
  }
  if (vn > 0) {
    if (vt == 0) *p++ = '/';
    *p++ = '/';
    p = put_uint(p, a + vn);
  }
  return p;
}

/* The face lines of n triangles (0-based vertex numbers in v). */
static void obj_faces(fl_out *o, const uint32_t *tri, size_t n,
                      unsigned long v, unsigned long vt, unsigned long vn)
{
  size_t k;
  int c;
  for (k = 0; k < n; k++, tri += 3) {
    char *p = out_room(o, 3 + 3 * (1 + 3 * 21));
    *p++ = 'f';
    for (c = 0; c < 3; c++) {
      *p++ = ' ';
      p = put_corner(p, tri[c], v, vt, vn);
    }
    *p++ = '\n';
    o->len = (size_t)(p - o->buf);
  }
}

/* Growable room for the triangles of one submesh. */
typedef struct fl_tris {
  uint32_t *v;
  size_t cap;
} fl_tris;

/* The OBJ text of mesh m; base[0..2] count the v, vt and vn before it. */
static void obj_mesh(fl_out *o, const rsx_bundle *b, const rsx_mesh *m,
                     unsigned long base[3], fl_tris *tris, fl_totals *t)
{
  unsigned long vt_base[4], vt_count = base[1];
  int written[4] = {0, 0, 0, 0};
  int has_normal = m->format.attr[RSX_NORMAL] != NULL;
  const char *path = rsx_bundle_path(b);
  rsx_error err;
  uint32_t i;

  if (rsx_mesh_can_decode(m, RSX_POSITION, &err) != 0 ||
      (has_normal && rsx_mesh_can_decode(m, RSX_NORMAL, &err) != 0))
    fl_die(path, err.text);
  out_str(o, "o ");
  out_token(o, m->name);
  out_str(o, "\n");
  obj_block(o, path, m, RSX_POSITION, "v", 0, t);
  if (has_normal) obj_block(o, path, m, RSX_NORMAL, "vn", 0, t);
  for (i = 0; i < m->submesh_count; i++) {
    const rsx_submesh *s = &m->submeshes[i];
    int set = rsx_submesh_uv_set(s, 0);
    size_t need = rsx_triangle_capacity(s->index_count) * 3, n;
    if (need > tris->cap) {
      /* the reader found the index range inside the file */
      uint32_t *p = realloc(tris->v, need * sizeof *p);
      if (p == NULL) fl_die(path, "out of memory");
      tris->v = p;
      tris->cap = need;
    }
    if (rsx_triangles(m, s, s->first_index, s->index_count, tris->v, &n,
                      &err) != 0)
      fl_die(path, err.text);
    if (set >= 0 && !written[set]) {
      if (rsx_mesh_can_decode(m, RSX_UV0 + set, &err) != 0)
        fl_die(path, err.text);
      written[set] = 1;
      vt_base[set] = vt_count;
      obj_block(o, path, m, RSX_UV0 + set, "vt", 1, t);
      vt_count += m->vertex_count;
    }
    out_str(o, "g ");
    out_token(o, m->name);
    out_str(o, ".");
    out_uint(o, (unsigned long)i + 1);
    out_str(o, "\nusemtl ");
    if (s->material == RSX_NONE)
      out_str(o, "(none)");
    else
      out_token(o, rsx_bundle_material(b, s->material)->name);
    out_str(o, "\n");
    /* vt and vn numbers are 1-based: base + 1 passed as the offset */
    obj_faces(o, tris->v, n, base[0], set >= 0 ? vt_base[set] + 1 : 0,
              has_normal ? base[2] + 1 : 0);
    t->triangles += (double)n;
  }
  base[0] += m->vertex_count;
  base[1] = vt_count;
  base[2] += has_normal ? m->vertex_count : 0;
  t->vertices += m->vertex_count;
}

/* "ALFA" from ".../ALFA.rsxb": what obj-export names its files after. */
static void obj_stem(const char *name, char *stem, size_t size)
{
  size_t n = strlen(name);
  if (n > 5 && (name[n - 5] == '.') &&
      (name[n - 4] == 'r' || name[n - 4] == 'R') &&
      (name[n - 3] == 's' || name[n - 3] == 'S') &&
      (name[n - 2] == 'x' || name[n - 2] == 'X') &&
      (name[n - 1] == 'b' || name[n - 1] == 'B'))
    n -= 5;
  if (n >= size) n = size - 1;
  memcpy(stem, name, n);
  stem[n] = '\0';
}

/* One bundle's OBJ into o. */
static void obj_bundle(fl_out *o, const rsx_bundle *b, fl_tris *tris,
                       fl_totals *t)
{
  unsigned long base[3] = {0, 0, 0};
  char stem[FL_NAME_MAX];
  uint32_t i, n = rsx_bundle_mesh_count(b);
  obj_stem(rsx_bundle_name(b), stem, sizeof stem);
  out_str(o, "# from ");
  out_str(o, rsx_bundle_name(b));
  out_str(o, " by rsxmesh obj-export\nmtllib ");
  out_str(o, stem);
  out_str(o, ".mtl\n");
  for (i = 0; i < n; i++) obj_mesh(o, b, rsx_bundle_mesh(b, i), base, tris,
                                    t);
}

/* -------------------------------------------------------------- passes */

static rsx_bundle *fl_open(const char *path)
{
  rsx_error err;
  rsx_bundle *b = rsx_bundle_open(path, &err);
  if (b == NULL) {
    /* the reader's message names the file */
    fprintf(stderr, "export-floor: %s\n", err.text);
    exit(1);
  }
  return b;
}

/* The OBJ of every bundle, to /dev/null or, with dir, to DIR/STEM.obj. */
static void pass_obj(char **paths, int n, const char *dir, fl_totals *t)
{
  static fl_out o;
  fl_tris tris = {NULL, 0};
  int i;
  if (dir == NULL) {
    o.path = "/dev/null";
    o.f = fopen(o.path, "wb");
    if (o.f == NULL) fl_die(o.path, "cannot open");
  }
  o.bytes = 0.0;
  o.len = 0;
  for (i = 0; i < n; i++) {
    rsx_bundle *b = fl_open(paths[i]);
    char stem[FL_NAME_MAX], file[2 * FL_NAME_MAX + 8];
    if (dir != NULL) {
      obj_stem(rsx_bundle_name(b), stem, sizeof stem);
      snprintf(file, sizeof file, "%s/%s.obj", dir, stem);
      o.path = file;
      o.f = fopen(file, "wb");
      if (o.f == NULL) fl_die(file, "cannot create");
    }
    obj_bundle(&o, b, &tris, t);
    out_flush(&o);
    if (dir != NULL && fclose(o.f) != 0) fl_die(file, "write failed");
    rsx_bundle_free(b);
  }
  if (dir == NULL) fclose(o.f);
  t->bytes = o.bytes;
  free(tris.v);
}

/* Every attribute of every mesh decoded; their sum keeps the work. */
static void pass_decode(char **paths, int n, fl_totals *t)
{
  float c[FL_CHUNK * FL_MAXC];
  int i, kind;
  for (i = 0; i < n; i++) {
    rsx_bundle *b = fl_open(paths[i]);
    uint32_t j, nmesh = rsx_bundle_mesh_count(b);
    for (j = 0; j < nmesh; j++) {
      const rsx_mesh *m = rsx_bundle_mesh(b, j);
      for (kind = 0; kind < RSX_KIND_COUNT; kind++) {
        rsx_error err;
        uint32_t v, run;
        size_t k, values;
        if (m->format.attr[kind] == NULL) continue;
        values = (size_t)m->format.attr[kind]->components;
        for (v = 0; v < m->vertex_count; v += run) {
          run = m->vertex_count - v < FL_CHUNK ? m->vertex_count - v
                                               : FL_CHUNK;
          if (rsx_mesh_decode(m, kind, v, run, c, &err) != 0)
            fl_die(paths[i], err.text);
          for (k = 0; k < run * values; k++) t->sum += c[k];
          t->floats += (double)(run * values);
        }
      }
      t->vertices += m->vertex_count;
    }
    rsx_bundle_free(b);
  }
}

int main(int argc, char **argv)
{
  const char *mode, *dir = NULL;
  int reps = 3, rep, first;
  double best = -1.0;
  fl_totals t = {0, 0, 0, 0, 0};

  if (argc < 3 || (strcmp(argv[1], "obj") != 0 &&
                   strcmp(argv[1], "decode") != 0)) {
    fprintf(stderr, "usage: export-floor obj|decode [-r REPS] [-o DIR] "
                    "BUNDLE...\n");
    return 2;
  }
  mode = argv[1];
  for (first = 2; first + 1 < argc && argv[first][0] == '-'; first += 2) {
    if (strcmp(argv[first], "-r") == 0)
      reps = atoi(argv[first + 1]);
    else if (strcmp(argv[first], "-o") == 0)
      dir = argv[first + 1];
    else
      break;
  }
  if (reps < 1 || first >= argc || argv[first][0] == '-') {
    fprintf(stderr, "export-floor: REPS must be 1 or more, then the "
                    "bundles\n");
    return 2;
  }
  if (dir != NULL) reps = 1;
  for (rep = 0; rep < reps; rep++) {
    clock_t start = clock();
    double seconds;
    memset(&t, 0, sizeof t);
    if (mode[0] == 'o')
      pass_obj(argv + first, argc - first, dir, &t);
    else
      pass_decode(argv + first, argc - first, &t);
    seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    if (best < 0.0 || seconds < best) best = seconds;
  }
  if (mode[0] == 'o')
    printf("obj %.3f %.0f %.0f %.0f %.0f\n", best, t.vertices, t.triangles,
           t.bytes, t.floats);
  else
    printf("decode %.3f %.0f %.0f %.17g\n", best, t.vertices, t.floats,
           t.sum);
  return 0;
}
