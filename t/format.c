/* t/format.c - the format table and the layouts masks imply */
#include "rsxmesh.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

/* The table as the note and rsxb.md give it, typed out by hand. */
struct row {
  const char *name;
  int stream, type, count, size, components, reg;
};

static const struct row packed_rows[RSX_KIND_COUNT] = {
  {"position", RSX_MMP, RSX_TYPE_F, 3, 12, 3, 0},
  {"colour", RSX_MGP, RSX_TYPE_UB, 4, 4, 4, 3},
  {"normal", RSX_MMP, RSX_TYPE_CMP, 1, 4, 3, 2},
  {"tangent_a", RSX_MGP, RSX_TYPE_CMP, 1, 4, 3, 15},
  {"tangent_b", RSX_MGP, RSX_TYPE_CMP, 1, 4, 3, 14},
  {"uv0", RSX_MGP, RSX_TYPE_SF, 2, 4, 2, 8},
  {"uv1", RSX_MGP, RSX_TYPE_SF, 2, 4, 2, 9},
  {"uv2", RSX_MGP, RSX_TYPE_SF, 2, 4, 2, 10},
  {"uv3", RSX_MGP, RSX_TYPE_SF, 2, 4, 2, 11},
  {"extra_a", RSX_MGP, RSX_TYPE_SF, 4, 8, 4, 12},
  {"extra_b", RSX_MGP, RSX_TYPE_SF, 4, 8, 4, 13},
  {"s32k2", RSX_MGP, RSX_TYPE_S32K, 2, 4, 2, -1},
  {"half4", RSX_MGP, RSX_TYPE_SF, 4, 8, 4, -1},
};

static const struct row unpacked_rows[RSX_KIND_COUNT] = {
  {"position", RSX_MMP, RSX_TYPE_F, 3, 12, 3, 0},
  {"colour", RSX_MGP, RSX_TYPE_UB, 4, 4, 4, 3},
  {"normal", RSX_MMP, RSX_TYPE_F, 3, 12, 3, 2},
  {"tangent_a", RSX_MGP, RSX_TYPE_F, 3, 12, 3, 15},
  {"tangent_b", RSX_MGP, RSX_TYPE_F, 3, 12, 3, 14},
  {"uv0", RSX_MGP, RSX_TYPE_F, 2, 8, 2, 8},
  {"uv1", RSX_MGP, RSX_TYPE_F, 2, 8, 2, 9},
  {"uv2", RSX_MGP, RSX_TYPE_F, 2, 8, 2, 10},
  {"uv3", RSX_MGP, RSX_TYPE_F, 2, 8, 2, 11},
  {"extra_a", RSX_MGP, RSX_TYPE_F, 4, 16, 4, 12},
  {"extra_b", RSX_MGP, RSX_TYPE_F, 4, 16, 4, 13},
  {"s32k2", RSX_MGP, RSX_TYPE_S32K, 2, 4, 2, -1},
  {"half4", RSX_MGP, RSX_TYPE_F, 4, 16, 4, -1},
};

static void test_rows(const struct row *want, int packed)
{
  const char *variant = packed ? "packed" : "unpacked";
  int k;
  for (k = 0; k < RSX_KIND_COUNT; k++) {
    const rsx_attr_info *a = rsx_attr(k, packed);
    const struct row *w = &want[k];
    int same;
    ok(a != NULL, "%s row %d exists", variant, k);
    if (a == NULL) continue;
    same = strcmp(a->name, w->name) == 0 && a->kind == k &&
           a->stream == w->stream && a->type == w->type &&
           a->count == w->count && a->size == w->size &&
           a->components == w->components && a->reg == w->reg;
    if (!ok(same, "%s row %d (%s)", variant, k, w->name))
      diag("got %s kind %d stream %d type %d count %d size %d comps %d "
           "reg %d", a->name, a->kind, a->stream, a->type, a->count,
           a->size, a->components, a->reg);
  }
  ok(rsx_attr(-1, packed) == NULL, "%s: no row for kind -1", variant);
  ok(rsx_attr(RSX_KIND_COUNT, packed) == NULL, "%s: no row for kind 13",
     variant);
}

static void test_names(void)
{
  int k;
  for (k = 0; k < RSX_KIND_COUNT; k++)
    is_int(rsx_kind_from_name(packed_rows[k].name), k, "kind of '%s'",
           packed_rows[k].name);
  is_int(rsx_kind_from_name("UV0"), -1, "names are case-sensitive");
  is_int(rsx_kind_from_name("uv4"), -1, "no uv4");
  is_int(rsx_kind_from_name(""), -1, "empty name");
  is_int(rsx_kind_from_name(NULL), -1, "NULL name");
}

/* MGP order in the note's letters: "C,A,B,U0" */
static void order_letters(const rsx_format *f, char *buf, size_t size)
{
  static const char *const letter[RSX_KIND_COUNT] = {
    "P", "C", "N", "A", "B", "U0", "U1", "U2", "U3", "X", "Y", "S", "H"};
  int kinds[RSX_KIND_COUNT];
  int n = rsx_format_mgp_order(f, kinds), i;
  size_t len = 0;
  buf[0] = '\0';
  for (i = 0; i < n && len < size; i++)
    len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? "," : "",
                            letter[kinds[i]]);
}

/* The note's 16 masks: every rigid mesh has one, MMP stride 16. */
static void test_note_masks(void)
{
  static const struct {
    uint32_t mask;
    uint32_t mgp_stride;
    const char *order;
  } note[16] = {
    {0x00080005, 0, ""},
    {0x00080007, 4, "C"},
    {0x00080025, 4, "U0"},
    {0x00080027, 8, "C,U0"},
    {0x0008003d, 12, "A,B,U0"},
    {0x0008003f, 16, "C,A,B,U0"},
    {0x00080065, 8, "U0,U1"},
    {0x00080067, 12, "C,U0,U1"},
    {0x0008007d, 16, "A,B,U0,U1"},
    {0x000800e5, 12, "U0,U1,U2"},
    {0x000800fd, 20, "A,B,U0,U1,U2"},
    {0x000800ff, 24, "C,A,B,U0,U1,U2"},
    {0x000801e5, 16, "U0,U1,U2,U3"},
    {0x000801fd, 24, "A,B,U0,U1,U2,U3"},
    {0x000801ff, 28, "C,A,B,U0,U1,U2,U3"},
    {0x000807fd, 40, "A,B,U0,U1,U2,U3,X,Y"},
  };
  int i;
  for (i = 0; i < 16; i++) {
    rsx_format f;
    char order[128];
    rsx_format_init(&f, note[i].mask);
    order_letters(&f, order, sizeof order);
    is_int(f.mmp_stride, 16, "mask %08x: MMP stride 16", note[i].mask);
    is_int(f.mgp_stride, note[i].mgp_stride, "mask %08x: MGP stride %u",
           note[i].mask, note[i].mgp_stride);
    is_str(order, note[i].order, "mask %08x: MGP order", note[i].mask);
    ok(f.packed && f.undefined_bits == 0 && f.offset[RSX_POSITION] == 0 &&
         f.offset[RSX_NORMAL] == 12,
       "mask %08x: packed, defined, position +0, normal +12",
       note[i].mask);
  }
}

static void test_offsets(const char *what, uint32_t mask,
                         const int want[RSX_KIND_COUNT])
{
  rsx_format f;
  int k, same = 1;
  rsx_format_init(&f, mask);
  for (k = 0; k < RSX_KIND_COUNT; k++) {
    int present = ((mask >> k) & 1u) != 0;
    if (f.offset[k] != want[k] || (f.attr[k] != NULL) != present) {
      diag("kind %d: offset %d (want %d), attr %p", k, f.offset[k],
           want[k], (const void *)f.attr[k]);
      same = 0;
    }
  }
  ok(same, "%s: offsets of every kind, attr only where present", what);
}

static void test_layouts(void)
{
  rsx_format f;
  /* tree mask 0x000807fd: A0 B4 U0 8 U1 12 U2 16 U3 20 X24 Y32 */
  static const int tree[RSX_KIND_COUNT] = {0, -1, 12, 0, 4, 8, 12, 16,
                                           20, 24, 32, -1, -1};
  /* unpacked 0x3f: C0, A4 (+12), B16 (+12), UV0 28 (+8) = 36 */
  static const int unpacked[RSX_KIND_COUNT] = {0, 0, 12, 4, 16, 28, -1, -1,
                                               -1, -1, -1, -1, -1};
  /* every bit, packed: C0 A4 B8 U0 12 U1 16 U2 20 U3 24 X28 Y36 S44
  ** H48, stride 56 */
  static const int all_packed[RSX_KIND_COUNT] = {0, 0, 12, 4, 8, 12, 16,
                                                 20, 24, 28, 36, 44, 48};
  /* every bit, unpacked: C0 A4 B16 U0 28 U1 36 U2 44 U3 52 X60 Y76 S92
  ** H96, stride 112 */
  static const int all_unpacked[RSX_KIND_COUNT] = {0, 0, 12, 4, 16, 28, 36,
                                                   44, 52, 60, 76, 92, 96};
  /* bits 11 and 12 alone: S32K 4 bytes at 0, half4 8 (or 16) at 4 */
  static const int s32k_half[RSX_KIND_COUNT] = {0, -1, -1, -1, -1, -1, -1,
                                                -1, -1, -1, -1, 0, 4};
  /* normal without position: the normal keeps +12 */
  static const int no_position[RSX_KIND_COUNT] = {-1, -1, 12, -1, -1, -1,
                                                  -1, -1, -1, -1, -1, -1,
                                                  -1};

  test_offsets("mask 000807fd", 0x000807fd, tree);

  rsx_format_init(&f, 0x0000003f);
  is_int(f.packed, 0, "0000003f: unpacked");
  is_int(f.mmp_stride, 32, "0000003f: MMP 12 + normal 12 = 24 -> 32");
  is_int(f.mgp_stride, 36, "0000003f: MGP C4 + A12 + B12 + UV0 8 = 36");
  test_offsets("mask 0000003f", 0x0000003f, unpacked);
  ok(f.attr[RSX_NORMAL] == rsx_attr(RSX_NORMAL, 0),
     "0000003f: rows from the unpacked table");

  rsx_format_init(&f, 0x00000001);
  is_int(f.mmp_stride, 16, "00000001: position alone, 12 -> 16");
  is_int(f.mgp_stride, 0, "00000001: no MGP");
  rsx_format_init(&f, 0x00000005);
  is_int(f.mmp_stride, 32, "00000005: unpacked normal, 24 -> 32");
  rsx_format_init(&f, 0x00080001);
  is_int(f.mmp_stride, 16, "00080001: packed position alone -> 16");

  rsx_format_init(&f, 0x00081fff);
  is_int(f.mgp_stride, 56, "00081fff: MGP stride 56");
  is_int(f.mmp_stride, 16, "00081fff: MMP stride 16");
  test_offsets("mask 00081fff", 0x00081fff, all_packed);
  rsx_format_init(&f, 0x00001fff);
  is_int(f.mgp_stride, 112, "00001fff: MGP stride 112");
  is_int(f.mmp_stride, 32, "00001fff: MMP stride 32");
  test_offsets("mask 00001fff", 0x00001fff, all_unpacked);

  rsx_format_init(&f, 0x00081801);
  is_int(f.mgp_stride, 12, "00081801: S32K 4 + half4 8 = 12");
  test_offsets("mask 00081801", 0x00081801, s32k_half);
  rsx_format_init(&f, 0x00001801);
  is_int(f.mgp_stride, 20, "00001801: S32K 4 + four floats 16 = 20");
  test_offsets("mask 00001801", 0x00001801, s32k_half);

  rsx_format_init(&f, 0x00080004);
  is_int(f.mmp_stride, 16, "00080004: normal without position -> 16");
  test_offsets("mask 00080004", 0x00080004, no_position);
  rsx_format_init(&f, 0x00000000);
  is_int(f.mmp_stride, 16, "00000000: the position's bytes reserved");
  is_int(f.mgp_stride, 0, "00000000: no MGP");
}

static void test_bits(void)
{
  rsx_format f;
  int kinds[RSX_KIND_COUNT];
  rsx_format_init(&f, 0x00180005);
  is_int(f.mask, 0x00180005, "mask kept");
  is_int(f.undefined_bits, 0x00100000, "00180005: undefined 0x00100000");
  is_int(f.packed, 1, "00180005: packed");
  is_int(f.mmp_stride, 16, "00180005: undefined bits leave the MMP alone");
  rsx_format_init(&f, 0xffffe000);
  is_int(f.undefined_bits, 0xfff7e000, "ffffe000: all but the flag");
  is_int(rsx_format_mgp_order(&f, kinds), 0, "ffffe000: nothing in MGP");
  is_int(RSX_MASK_DEFINED, 0x00081fff, "defined bits");
}

int main(void)
{
  test_rows(packed_rows, 1);
  test_rows(unpacked_rows, 0);
  test_names();
  test_note_masks();
  test_layouts();
  test_bits();
  return done_testing();
}
