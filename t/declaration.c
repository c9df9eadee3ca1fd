/* t/declaration.c - RSX vertex declarations, words worked out by hand */
#include "rsxmesh.h"
#include "tap.h"

#include <string.h>

struct want {
  int reg, kind, logical_uv;
  uint32_t format_method, format_word, offset_method, offset_word;
};

/* A mesh needs only its format for a declaration. */
static void mesh_of(rsx_mesh *m, uint32_t mask)
{
  memset(m, 0, sizeof *m);
  m->mask = mask;
  rsx_format_init(&m->format, mask);
}

static void is_decl(const rsx_mesh *m, const rsx_submesh *s,
                    const struct want *w, int n, const char *what)
{
  rsx_decl d[RSX_DECL_MAX];
  int got = rsx_declaration(m, s, d), i;
  if (!is_int(got, n, "%s: %d attributes", what, n)) return;
  for (i = 0; i < n; i++) {
    int same = d[i].reg == w[i].reg && d[i].kind == w[i].kind &&
               d[i].logical_uv == w[i].logical_uv &&
               d[i].format_method == w[i].format_method &&
               d[i].format_word == w[i].format_word &&
               d[i].offset_method == w[i].offset_method &&
               d[i].offset_word == w[i].offset_word;
    if (!ok(same, "%s: register %d", what, w[i].reg))
      diag("got reg %d kind %d uv %d %04x=%08x %04x=%08x", d[i].reg,
           d[i].kind, d[i].logical_uv, d[i].format_method,
           d[i].format_word, d[i].offset_method, d[i].offset_word);
  }
}

static rsx_submesh selected(int uv0, int uv1, int uv2, int uv3)
{
  rsx_submesh s;
  memset(&s, 0, sizeof s);
  s.uv_set[0] = uv0;
  s.uv_set[1] = uv1;
  s.uv_set[2] = uv2;
  s.uv_set[3] = uv3;
  return s;
}

/*
** Mask 0x000801ff: MMP stride 16 (position +0, normal +12); MGP C0 A4 B8
** U0 12 U1 16 U2 20 U3 24, stride 28. Words: (stride << 8) | (count << 4)
** | type, with F 2, SF 3, UB 4, CMP 6.
*/
static void test_charlie(void)
{
  /* the note's CHARLIE example: selectors 00 00 02 01 */
  static const struct want sel[] = {
    /* position: 0x1740 + 0, (16 << 8) | (3 << 4) | 2 */
    {0, RSX_POSITION, -1, 0x1740, 0x1032, 0x1680, 0},
    /* normal: 0x1740 + 8, (16 << 8) | (1 << 4) | 6 */
    {2, RSX_NORMAL, -1, 0x1748, 0x1016, 0x1688, 12},
    /* colour: 0x1740 + 12, (28 << 8) | (4 << 4) | 4 */
    {3, RSX_COLOUR, -1, 0x174C, 0x1C44, 0x168C, 0},
    /* UV0 from stored set 0 at +12: (28 << 8) | (2 << 4) | 3 */
    {8, RSX_UV0, 0, 0x1760, 0x1C23, 0x16A0, 12},
    /* UV1 from stored set 0 */
    {9, RSX_UV0, 1, 0x1764, 0x1C23, 0x16A4, 12},
    /* UV2 from stored set 2 at +20 */
    {10, RSX_UV2, 2, 0x1768, 0x1C23, 0x16A8, 20},
    /* UV3 from stored set 1 at +16 */
    {11, RSX_UV1, 3, 0x176C, 0x1C23, 0x16AC, 16},
    /* vector B, register 14: (28 << 8) | (1 << 4) | 6, at +8 */
    {14, RSX_TANGENT_B, -1, 0x1778, 0x1C16, 0x16B8, 8},
    /* vector A, register 15, at +4 */
    {15, RSX_TANGENT_A, -1, 0x177C, 0x1C16, 0x16BC, 4},
  };
  /* the default: logical UV i from stored set i */
  static const struct want def[] = {
    {0, RSX_POSITION, -1, 0x1740, 0x1032, 0x1680, 0},
    {2, RSX_NORMAL, -1, 0x1748, 0x1016, 0x1688, 12},
    {3, RSX_COLOUR, -1, 0x174C, 0x1C44, 0x168C, 0},
    {8, RSX_UV0, 0, 0x1760, 0x1C23, 0x16A0, 12},
    {9, RSX_UV1, 1, 0x1764, 0x1C23, 0x16A4, 16},
    {10, RSX_UV2, 2, 0x1768, 0x1C23, 0x16A8, 20},
    {11, RSX_UV3, 3, 0x176C, 0x1C23, 0x16AC, 24},
    {14, RSX_TANGENT_B, -1, 0x1778, 0x1C16, 0x16B8, 8},
    {15, RSX_TANGENT_A, -1, 0x177C, 0x1C16, 0x16BC, 4},
  };
  /* only logical UV1, from stored set 3 at +24 */
  static const struct want one[] = {
    {0, RSX_POSITION, -1, 0x1740, 0x1032, 0x1680, 0},
    {2, RSX_NORMAL, -1, 0x1748, 0x1016, 0x1688, 12},
    {3, RSX_COLOUR, -1, 0x174C, 0x1C44, 0x168C, 0},
    {9, RSX_UV3, 1, 0x1764, 0x1C23, 0x16A4, 24},
    {14, RSX_TANGENT_B, -1, 0x1778, 0x1C16, 0x16B8, 8},
    {15, RSX_TANGENT_A, -1, 0x177C, 0x1C16, 0x16BC, 4},
  };
  rsx_mesh m;
  rsx_submesh s = selected(0, 0, 2, 1);
  mesh_of(&m, 0x000801ff);
  s.selector[0] = 0x00;
  s.selector[1] = 0x00;
  s.selector[2] = 0x02;
  s.selector[3] = 0x01;
  is_decl(&m, &s, sel, 9, "000801ff, selectors 00 00 02 01");
  is_decl(&m, NULL, def, 9, "000801ff, default selection");
  s = selected(0, 1, 2, 3);
  is_decl(&m, &s, def, 9, "000801ff, selectors ff ff ff ff");
  s = selected(-1, 3, -1, -1);
  is_decl(&m, &s, one, 6, "000801ff, only UV1 from set 3");
}

static void test_tree(void)
{
  /* 0x000807fd: MGP A0 B4 U0 8 U1 12 U2 16 U3 20 X24 Y32, stride 40 */
  static const struct want tree[] = {
    {0, RSX_POSITION, -1, 0x1740, 0x1032, 0x1680, 0},
    {2, RSX_NORMAL, -1, 0x1748, 0x1016, 0x1688, 12},
    /* (40 << 8) | (2 << 4) | 3 */
    {8, RSX_UV0, 0, 0x1760, 0x2823, 0x16A0, 8},
    {9, RSX_UV1, 1, 0x1764, 0x2823, 0x16A4, 12},
    {10, RSX_UV2, 2, 0x1768, 0x2823, 0x16A8, 16},
    {11, RSX_UV3, 3, 0x176C, 0x2823, 0x16AC, 20},
    /* extras SF,4: (40 << 8) | (4 << 4) | 3 */
    {12, RSX_EXTRA_A, -1, 0x1770, 0x2843, 0x16B0, 24},
    {13, RSX_EXTRA_B, -1, 0x1774, 0x2843, 0x16B4, 32},
    /* CMP: (40 << 8) | (1 << 4) | 6 */
    {14, RSX_TANGENT_B, -1, 0x1778, 0x2816, 0x16B8, 4},
    {15, RSX_TANGENT_A, -1, 0x177C, 0x2816, 0x16BC, 0},
  };
  rsx_mesh m;
  mesh_of(&m, 0x000807fd);
  is_decl(&m, NULL, tree, 10, "000807fd, tree extras");
}

static void test_others(void)
{
  /* unpacked 0x3f: MMP 32; MGP C0 A4 B16 U0 28, stride 36 */
  static const struct want unpacked[] = {
    /* (32 << 8) | (3 << 4) | 2 */
    {0, RSX_POSITION, -1, 0x1740, 0x2032, 0x1680, 0},
    {2, RSX_NORMAL, -1, 0x1748, 0x2032, 0x1688, 12},
    /* (36 << 8) | (4 << 4) | 4 */
    {3, RSX_COLOUR, -1, 0x174C, 0x2444, 0x168C, 0},
    /* (36 << 8) | (2 << 4) | 2 */
    {8, RSX_UV0, 0, 0x1760, 0x2422, 0x16A0, 28},
    /* (36 << 8) | (3 << 4) | 2 */
    {14, RSX_TANGENT_B, -1, 0x1778, 0x2432, 0x16B8, 16},
    {15, RSX_TANGENT_A, -1, 0x177C, 0x2432, 0x16BC, 4},
  };
  /* 0x00080025: position, normal, UV0 at +0 of a 4-byte MGP */
  static const struct want uv0[] = {
    {0, RSX_POSITION, -1, 0x1740, 0x1032, 0x1680, 0},
    {2, RSX_NORMAL, -1, 0x1748, 0x1016, 0x1688, 12},
    {8, RSX_UV0, 0, 0x1760, 0x0423, 0x16A0, 0},
  };
  /* bits 11 and 12 have no register */
  static const struct want pos[] = {
    {0, RSX_POSITION, -1, 0x1740, 0x1032, 0x1680, 0},
  };
  rsx_mesh m;
  rsx_submesh s;
  mesh_of(&m, 0x0000003f);
  is_decl(&m, NULL, unpacked, 6, "0000003f, unpacked");
  mesh_of(&m, 0x00080025);
  is_decl(&m, NULL, uv0, 3, "00080025, default");
  /* a selection naming a set the mask lacks leaves the UV out */
  s = selected(0, 3, -1, -1);
  is_decl(&m, &s, uv0, 3, "00080025, UV1 from absent set 3");
  mesh_of(&m, 0x00081801);
  is_decl(&m, NULL, pos, 1, "00081801, bits 11 and 12 undeclared");
  mesh_of(&m, 0x00080000);
  is_decl(&m, NULL, pos, 0, "00080000, nothing declared");
}

int main(void)
{
  test_charlie();
  test_tree();
  test_others();
  return done_testing();
}
