/* declaration.c - the RSX vertex declaration of a mesh and submesh */
#include "rsxmesh.h"

/* The vertex-array methods the note records: one format word and one
** offset word per attribute register. */
#define DECL_FORMAT_METHOD 0x1740u
#define DECL_OFFSET_METHOD 0x1680u
#define DECL_UV_REGISTER 8 /* logical UV i is register 8 + i */
#define DECL_REGISTERS 16

/* The stored kind feeding logical UV i: the submesh's selection, or
** without a submesh the stored set of the same number when the mask
** holds it. -1 when the logical UV is absent. */
static int decl_uv_kind(const rsx_format *f, const rsx_submesh *s, int i)
{
  int set = s != NULL ? rsx_submesh_uv_set(s, i) : i;
  if (set < 0 || set > 3 || f->attr[RSX_UV0 + set] == NULL) return -1;
  return RSX_UV0 + set;
}

int rsx_declaration(const rsx_mesh *m, const rsx_submesh *s,
                    rsx_decl out[RSX_DECL_MAX])
{
  const rsx_format *f = &m->format;
  int feeds[DECL_REGISTERS]; /* register -> stored kind, -1 unused */
  int reg, k, n = 0;

  for (reg = 0; reg < DECL_REGISTERS; reg++) feeds[reg] = -1;
  /* fixed registers of the table; the UV registers follow the
  ** selectors instead of the table's own UV rows */
  for (k = 0; k < RSX_KIND_COUNT; k++) {
    const rsx_attr_info *a = f->attr[k];
    if (a == NULL || a->reg < 0) continue;
    if (k >= RSX_UV0 && k <= RSX_UV3) continue;
    feeds[a->reg] = k;
  }
  for (k = 0; k < 4; k++) feeds[DECL_UV_REGISTER + k] = decl_uv_kind(f, s, k);

  for (reg = 0; reg < DECL_REGISTERS; reg++) {
    const rsx_attr_info *a;
    uint32_t stride;
    rsx_decl *d;
    if (feeds[reg] < 0) continue;
    a = f->attr[feeds[reg]];
    stride = a->stream == RSX_MMP ? f->mmp_stride : f->mgp_stride;
    d = &out[n++];
    d->reg = reg;
    d->kind = feeds[reg];
    d->logical_uv = reg >= DECL_UV_REGISTER && reg < DECL_UV_REGISTER + 4
                      ? reg - DECL_UV_REGISTER : -1;
    d->format_method = DECL_FORMAT_METHOD + 4u * (uint32_t)reg;
    /* the frequency field (bits 16 and up) stays 0: one value per
    ** vertex. No stride the table implies exceeds 112, so it fits its
    ** 8-bit field. */
    d->format_word = (stride << 8) | ((uint32_t)a->count << 4) |
                     (uint32_t)a->type;
    d->offset_method = DECL_OFFSET_METHOD + 4u * (uint32_t)reg;
    d->offset_word = (uint32_t)f->offset[feeds[reg]];
  }
  return n;
}
