/* format.c - the format table of the 13 attribute kinds, and layouts */
#include "rsxmesh.h"

#include <string.h>

/*
** One row per mask bit, in both variants. The packed rows are the note's;
** the unpacked ones settle its open points as rsxb.md does (vectors three
** floats, UVs two, extras and bit 12 four; colour and bit 11 unchanged).
** Registers are the note's; bits 11 and 12 have none.
*/
#define ROW(name, kind, stream, type, count, size, comps, reg) \
  {name, kind, stream, type, count, size, comps, reg}

static const rsx_attr_info fmt_packed[RSX_KIND_COUNT] = {
  ROW("position", RSX_POSITION, RSX_MMP, RSX_TYPE_F, 3, 12, 3, 0),
  ROW("colour", RSX_COLOUR, RSX_MGP, RSX_TYPE_UB, 4, 4, 4, 3),
  ROW("normal", RSX_NORMAL, RSX_MMP, RSX_TYPE_CMP, 1, 4, 3, 2),
  ROW("tangent_a", RSX_TANGENT_A, RSX_MGP, RSX_TYPE_CMP, 1, 4, 3, 15),
  ROW("tangent_b", RSX_TANGENT_B, RSX_MGP, RSX_TYPE_CMP, 1, 4, 3, 14),
  ROW("uv0", RSX_UV0, RSX_MGP, RSX_TYPE_SF, 2, 4, 2, 8),
  ROW("uv1", RSX_UV1, RSX_MGP, RSX_TYPE_SF, 2, 4, 2, 9),
  ROW("uv2", RSX_UV2, RSX_MGP, RSX_TYPE_SF, 2, 4, 2, 10),
  ROW("uv3", RSX_UV3, RSX_MGP, RSX_TYPE_SF, 2, 4, 2, 11),
  ROW("extra_a", RSX_EXTRA_A, RSX_MGP, RSX_TYPE_SF, 4, 8, 4, 12),
  ROW("extra_b", RSX_EXTRA_B, RSX_MGP, RSX_TYPE_SF, 4, 8, 4, 13),
  ROW("s32k2", RSX_S32K2, RSX_MGP, RSX_TYPE_S32K, 2, 4, 2, -1),
  ROW("half4", RSX_HALF4, RSX_MGP, RSX_TYPE_SF, 4, 8, 4, -1),
};

static const rsx_attr_info fmt_unpacked[RSX_KIND_COUNT] = {
  ROW("position", RSX_POSITION, RSX_MMP, RSX_TYPE_F, 3, 12, 3, 0),
  ROW("colour", RSX_COLOUR, RSX_MGP, RSX_TYPE_UB, 4, 4, 4, 3),
  ROW("normal", RSX_NORMAL, RSX_MMP, RSX_TYPE_F, 3, 12, 3, 2),
  ROW("tangent_a", RSX_TANGENT_A, RSX_MGP, RSX_TYPE_F, 3, 12, 3, 15),
  ROW("tangent_b", RSX_TANGENT_B, RSX_MGP, RSX_TYPE_F, 3, 12, 3, 14),
  ROW("uv0", RSX_UV0, RSX_MGP, RSX_TYPE_F, 2, 8, 2, 8),
  ROW("uv1", RSX_UV1, RSX_MGP, RSX_TYPE_F, 2, 8, 2, 9),
  ROW("uv2", RSX_UV2, RSX_MGP, RSX_TYPE_F, 2, 8, 2, 10),
  ROW("uv3", RSX_UV3, RSX_MGP, RSX_TYPE_F, 2, 8, 2, 11),
  ROW("extra_a", RSX_EXTRA_A, RSX_MGP, RSX_TYPE_F, 4, 16, 4, 12),
  ROW("extra_b", RSX_EXTRA_B, RSX_MGP, RSX_TYPE_F, 4, 16, 4, 13),
  ROW("s32k2", RSX_S32K2, RSX_MGP, RSX_TYPE_S32K, 2, 4, 2, -1),
  ROW("half4", RSX_HALF4, RSX_MGP, RSX_TYPE_F, 4, 16, 4, -1),
};

#undef ROW

/* The MMP is fixed: position at +0, the normal at +12. */
#define FMT_NORMAL_OFFSET 12

const rsx_attr_info *rsx_attr(int kind, int packed)
{
  if (kind < 0 || kind >= RSX_KIND_COUNT) return NULL;
  return packed ? &fmt_packed[kind] : &fmt_unpacked[kind];
}

int rsx_kind_from_name(const char *name)
{
  int k;
  if (name == NULL) return -1;
  for (k = 0; k < RSX_KIND_COUNT; k++)
    if (strcmp(fmt_packed[k].name, name) == 0) return k;
  return -1;
}

void rsx_format_init(rsx_format *f, uint32_t mask)
{
  uint32_t mmp_end, mgp_end = 0;
  int k;

  memset(f, 0, sizeof *f);
  f->mask = mask;
  f->packed = (mask & RSX_MASK_PACKED) != 0;
  f->undefined_bits = mask & ~RSX_MASK_DEFINED;

  /* The position's 12 bytes are always reserved at the head of the MMP,
  ** even when bit 0 is missing, so the normal stays at +12 and the
  ** stride stays what the engine would use (rsx_mesh_check reports the
  ** missing position as a finding). */
  mmp_end = 12;
  for (k = 0; k < RSX_KIND_COUNT; k++) {
    const rsx_attr_info *a = rsx_attr(k, f->packed);
    if (!(mask & (1u << k))) {
      f->attr[k] = NULL;
      f->offset[k] = -1;
      continue;
    }
    f->attr[k] = a;
    if (a->stream == RSX_MMP) {
      f->offset[k] = k == RSX_POSITION ? 0 : FMT_NORMAL_OFFSET;
      if (k == RSX_NORMAL)
        mmp_end = FMT_NORMAL_OFFSET + (uint32_t)a->size;
    } else {
      /* MGP: each present kind appended in bit order */
      f->offset[k] = (int)mgp_end;
      mgp_end += (uint32_t)a->size;
    }
  }
  f->mmp_stride = (mmp_end + 15u) & ~15u;
  f->mgp_stride = mgp_end;
}

int rsx_format_mgp_order(const rsx_format *f, int kinds[RSX_KIND_COUNT])
{
  int k, n = 0;
  /* offsets grow with the bit number, so bit order is stream order */
  for (k = 0; k < RSX_KIND_COUNT; k++)
    if (f->attr[k] != NULL && f->attr[k]->stream == RSX_MGP) kinds[n++] = k;
  return n;
}
