/*
** mesh.c - tests of rsx_mesh_check, the findings, rsx_mesh_decode and
** rsx_triangles and rsx_mesh_triangles on meshes filled by hand; values
** worked out from the note.
*/
#include "rsxmesh.h"
#include "tap.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* fx_init's mesh is table entry 7, first submesh entry 5: messages name
** it b:mesh(8) would, and its submeshes by their number in it, from 1 */
#define WHERE "T.rsxb: mesh 8 (crate)"

/* A mesh and the buffers behind it. */
typedef struct fx {
  uint8_t meta[RSX_META_MIN];
  uint8_t mmp[16 * 32], mgp[16 * 40], idx[64 * 4];
  uint8_t rec[4][RSX_SUBMESH_RECORD_MIN];
  rsx_submesh sub[4];
  rsx_mesh m;
} fx;

static void fx_init(fx *x, uint32_t mask, uint32_t vc, uint32_t mmp_stride,
                    uint32_t mgp_stride)
{
  int i;
  memset(x, 0, sizeof *x);
  rsx_put_be32(x->meta + 0x8C, mask);
  x->m.name = "crate";
  x->m.index = 7;
  x->m.meta = x->meta;
  x->m.meta_size = RSX_META_MIN;
  x->m.vertex_count = vc;
  x->m.mmp = x->mmp;
  x->m.mmp_stride = mmp_stride;
  x->m.mgp = mgp_stride ? x->mgp : NULL;
  x->m.mgp_stride = mgp_stride;
  x->m.indices = x->idx;
  x->m.index_size = 2;
  x->m.primitive = RSX_TRIANGLES;
  x->m.first_submesh = 5;
  x->m.submeshes = x->sub;
  for (i = 0; i < 4; i++) {
    memset(x->rec[i] + 0x38, 0xFF, 4);
    x->sub[i].record = x->rec[i];
    x->sub[i].record_size = RSX_SUBMESH_RECORD_MIN;
    x->sub[i].material = RSX_NONE;
  }
}

/* Submesh i over indices first..first+count-1, selector bytes sel. */
static void fx_sub(fx *x, int i, uint32_t first, uint32_t count,
                   uint32_t sel)
{
  rsx_put_be32(x->rec[i] + 0x38, sel);
  x->sub[i].first_index = first;
  x->sub[i].index_count = count;
  if ((uint32_t)i + 1 > x->m.submesh_count) x->m.submesh_count = i + 1;
}

static void fx_idx(fx *x, int size, const uint32_t *v, uint32_t n)
{
  uint32_t i;
  x->m.index_size = (uint8_t)size;
  x->m.index_count = n;
  for (i = 0; i < n; i++) {
    if (size == 2)
      rsx_put_be16(x->idx + 2 * (size_t)i, (uint16_t)v[i]);
    else
      rsx_put_be32(x->idx + 4 * (size_t)i, v[i]);
  }
}

static int fx_check(fx *x, rsx_error *e)
{
  memset(e->text, 0, sizeof e->text);
  return rsx_mesh_check(&x->m, 3, WHERE, e);
}

/* The float nearest num/den: num and den are exact in a double. */
static float q(double num, double den) { return (float)(num / den); }

/* ------------------------------------------------------- refusal rules */

static void test_refusals(void)
{
  fx x;
  rsx_error e;
  static const uint32_t six[6] = {0, 1, 2, 2, 1, 3};

  fx_init(&x, 0x00080005, 4, 16, 0);
  fx_idx(&x, 2, six, 6);
  fx_sub(&x, 0, 0, 6, 0xFFFFFFFF);
  is_int(fx_check(&x, &e), 0, "a sound mesh passes");

  x.m.meta_size = 0x8F;
  is_int(fx_check(&x, &e), -1, "metadata record of 0x8f bytes refused");
  is_str(e.text, WHERE ": metadata record is 0x8f bytes, shorter than 0x90",
         "... with its message");
  x.m.meta_size = 0x90;

  x.sub[0].record_size = 0x3B;
  is_int(fx_check(&x, &e), -1, "submesh record of 0x3b bytes refused");
  is_str(e.text, WHERE ": submesh 1: submesh record is 0x3b bytes, shorter "
         "than 0x3c", "... naming the submesh by its number in the mesh, "
         "not its table entry 5");
  x.sub[0].record_size = 0x3C;

  x.m.index_size = 3;
  is_int(fx_check(&x, &e), -1, "index size 3 refused");
  is_str(e.text, WHERE ": index size 3, not 2 or 4", "... with its message");
  x.m.index_size = 1;
  is_int(fx_check(&x, &e), -1, "index size 1 refused");
  x.m.index_size = 2;

  x.m.primitive = 2;
  is_int(fx_check(&x, &e), -1, "primitive 2 refused");
  is_str(e.text, WHERE ": primitive 2, not 0 (triangle list) or 1 "
         "(triangle strip)", "... with its message");
  x.m.primitive = RSX_TRIANGLES;

  fx_sub(&x, 1, 3, 6, 0xFFFFFFFF);
  is_int(fx_check(&x, &e), -1, "submesh indices 3+6 of 6 refused");
  is_str(e.text, WHERE ": submesh 2: first index field 0x3 + count 6 lie "
         "outside the mesh's index buffer (6 indices)",
         "... with its message: the fields as stored");
  fx_sub(&x, 1, 0xFFFFFFFDu, 6, 0xFFFFFFFF);
  is_int(fx_check(&x, &e), -1, "first index 0xfffffffd + 6 (wraps to 3) "
         "refused");
  like(e.text, "first index field 0xfffffffd + count 6 lie outside",
       "... with its message");
  fx_sub(&x, 1, 6, 0, 0xFFFFFFFF);
  is_int(fx_check(&x, &e), 0, "an empty range at the end passes");
  fx_sub(&x, 1, 3, 3, 0xFFFFFFFF);
  is_int(fx_check(&x, &e), 0, "a range ending at the end passes");

  fx_sub(&x, 1, 0, 4, 0xFFFFFFFF);
  is_int(fx_check(&x, &e), -1, "list submesh of 4 indices refused");
  is_str(e.text, WHERE ": submesh 2: index count 4 of a triangle list is "
         "not a multiple of 3", "... with its message");
  x.m.primitive = RSX_STRIP;
  is_int(fx_check(&x, &e), 0, "the same 4 indices pass in a strip");
  x.m.primitive = RSX_TRIANGLES;
  fx_sub(&x, 1, 0, 3, 0xFFFFFFFF);

  x.sub[1].material = 3;
  is_int(fx_check(&x, &e), -1, "material 3 of 3 refused");
  is_str(e.text, WHERE ": submesh 2: material field 0x3 lies outside the "
         "material table (3 entries)", "... the field as stored");
  x.sub[1].material = 2;
  is_int(fx_check(&x, &e), 0, "material 2 of 3 passes");
  x.sub[1].material = RSX_NONE;
  is_int(rsx_mesh_check(&x.m, 0, WHERE, &e), 0,
         "no material (0xffffffff) passes with no materials at all");
  x.sub[1].material = 0;
  is_int(rsx_mesh_check(&x.m, 0, WHERE, &e), -1,
         "material 0 refused with no materials");
  x.sub[1].material = 1;
  is_int(rsx_mesh_check(&x.m, 1, WHERE, &e), -1,
         "material 1 refused with one material");
  is_str(e.text, WHERE ": submesh 2: material field 0x1 lies outside the "
         "material table (1 entry)", "... one entry, singular");
  x.sub[1].material = RSX_NONE;

  x.m.meta = NULL;
  is_int(rsx_mesh_check(&x.m, 3, NULL, &e), -1, "no metadata refused");
  is_str(e.text, "mesh 8 (crate): no metadata record",
         "without `where`, messages start with the mesh's label");
  x.m.meta = x.meta;
  x.m.mmp = NULL;
  is_int(fx_check(&x, &e), -1, "a missing MMP behind 4 vertices refused");
  is_str(e.text, WHERE ": no MMP stream for 4 vertices", "... named");
  x.m.mmp = x.mmp;
  x.m.mgp_stride = 4;
  is_int(fx_check(&x, &e), -1, "a missing MGP behind a stride refused");
  x.m.mgp_stride = 0;
  x.m.indices = NULL;
  is_int(fx_check(&x, &e), -1, "a missing index buffer refused");
  x.m.indices = x.idx;
  x.sub[0].record = NULL;
  is_int(fx_check(&x, &e), -1, "a missing submesh record refused");
  x.sub[0].record = x.rec[0];
  is_int(rsx_mesh_check(&x.m, 3, WHERE, NULL), 0,
         "a NULL rsx_error is allowed");
  x.m.primitive = 9;
  is_int(rsx_mesh_check(&x.m, 3, WHERE, NULL), -1,
         "... and a refusal still returns -1");
}

/* ----------------------------------------------------------- labels */

static void test_names(void)
{
  fx x;
  char buf[64];
  fx_init(&x, 0x00080005, 0, 16, 0);
  rsx_mesh_label(&x.m, buf, sizeof buf);
  is_str(buf, "mesh 8 (crate)", "label with a name: entry 7 is b:mesh(8)");
  x.m.name = "";
  rsx_mesh_label(&x.m, buf, sizeof buf);
  is_str(buf, "mesh 8", "label without a name");
  x.m.name = NULL;
  rsx_mesh_label(&x.m, buf, sizeof buf);
  is_str(buf, "mesh 8", "label with a NULL name");
  x.m.name = "bridge_03";
  x.m.index = 12;
  rsx_mesh_label(&x.m, buf, 8);
  is_str(buf, "mesh 13", "a short buffer truncates");
  x.m.index = 0;
  rsx_mesh_label(&x.m, buf, sizeof buf);
  is_str(buf, "mesh 1 (bridge_03)", "entry 0 is mesh 1");
  x.m.index = 0xFFFFFFFEu; /* the last entry a 32-bit count allows */
  rsx_mesh_label(&x.m, buf, sizeof buf);
  is_str(buf, "mesh 4294967295 (bridge_03)", "the last entry does not wrap");
  x.m.index = RSX_NONE; /* a mesh built by the caller, in no table */
  rsx_mesh_label(&x.m, buf, sizeof buf);
  is_str(buf, "mesh (bridge_03)", "a mesh in no table has no number");
  x.m.name = "";
  rsx_mesh_label(&x.m, buf, sizeof buf);
  is_str(buf, "mesh", "... nor a name when it has none");

  is_str(rsx_finding_name(RSX_FIND_MMP_STRIDE), "mmp-stride", "mmp-stride");
  is_str(rsx_finding_name(RSX_FIND_MGP_STRIDE), "mgp-stride", "mgp-stride");
  is_str(rsx_finding_name(RSX_FIND_NO_POSITION), "no-position",
         "no-position");
  is_str(rsx_finding_name(RSX_FIND_UNDEFINED_BITS), "undefined-bits",
         "undefined-bits");
  is_str(rsx_finding_name(RSX_FIND_INDEX_RANGE), "index-range",
         "index-range");
  is_str(rsx_finding_name(RSX_FIND_SELECTOR), "selector", "selector");
  ok(rsx_finding_name(1u << 6) == NULL, "unknown bit: NULL");
  ok(rsx_finding_name(RSX_FIND_MMP_STRIDE | RSX_FIND_MGP_STRIDE) == NULL,
     "two bits at once: NULL");
  is_str(rsx_submesh_finding_name(RSX_FIND_SELECTOR_BYTE), "selector-byte",
         "selector-byte");
  is_str(rsx_submesh_finding_name(RSX_FIND_SELECTOR_SET), "selector-set",
         "selector-set");
  ok(rsx_submesh_finding_name(4) == NULL, "unknown submesh bit: NULL");
}

/* ---------------------------------------------------------- selectors */

static void test_selectors(void)
{
  fx x;
  rsx_error e;
  char buf[200];
  rsx_submesh *s = x.sub;

  /* the note's example: 00 00 02 01 on a mask with all four sets */
  fx_init(&x, 0x000801ff, 0, 16, 28);
  fx_sub(&x, 0, 0, 0, 0x00000201);
  fx_sub(&x, 1, 0, 0, 0xFFFFFFFF);
  is_int(fx_check(&x, &e), 0, "mask 0x000801ff checks");
  is_int(x.m.findings, 0, "no findings");
  is_int(s[0].uv_set[0], 0, "00000201: UV0 <- stored set 0");
  is_int(s[0].uv_set[1], 0, "00000201: UV1 <- stored set 0");
  is_int(s[0].uv_set[2], 2, "00000201: UV2 <- stored set 2");
  is_int(s[0].uv_set[3], 1, "00000201: UV3 <- stored set 1");
  cmp_mem(s[0].selector, "\x00\x00\x02\x01", 4, "selector bytes kept");
  is_int(s[0].findings, 0, "00000201: no submesh finding");
  is_int(rsx_submesh_uv_set(&s[0], 3), 1, "rsx_submesh_uv_set(3) is 1");
  is_int(rsx_submesh_uv_set(&s[0], 4), -1, "rsx_submesh_uv_set(4) is -1");
  is_int(s[1].uv_set[0], 0, "ffffffff: UV0 <- set 0");
  is_int(s[1].uv_set[1], 1, "ffffffff: UV1 <- set 1");
  is_int(s[1].uv_set[2], 2, "ffffffff: UV2 <- set 2");
  is_int(s[1].uv_set[3], 3, "ffffffff: UV3 <- set 3");

  /* 0xFF defaults on a mask with UV0 only: absent, not a finding */
  fx_init(&x, 0x00080025, 0, 16, 4);
  fx_sub(&x, 0, 0, 0, 0xFFFFFFFF);
  is_int(fx_check(&x, &e), 0, "mask 0x00080025 checks");
  is_int(s[0].uv_set[0], 0, "UV0 <- set 0");
  is_int(s[0].uv_set[1], -1, "UV1 absent (set 1 not in the mask)");
  is_int(s[0].uv_set[3], -1, "UV3 absent");
  is_int(s[0].findings, 0, "0xff naming a missing set is no finding");
  is_int(x.m.findings, 0, "... nor on the mesh");

  /* a selector naming set 3 on a mask with UV0-UV2 only */
  fx_init(&x, 0x000800e5, 0, 16, 12);
  fx_sub(&x, 0, 0, 0, 0x0203FF01);
  fx_sub(&x, 1, 0, 0, 0x00000000);
  is_int(fx_check(&x, &e), 0, "a selector finding leaves the mesh readable");
  is_int(s[0].uv_set[0], 2, "0203ff01: UV0 <- set 2");
  is_int(s[0].uv_set[1], -1, "0203ff01: UV1 absent (set 3 missing)");
  is_int(s[0].uv_set[2], 2, "0203ff01: UV2 <- default set 2");
  is_int(s[0].uv_set[3], 1, "0203ff01: UV3 <- set 1");
  is_int(s[0].findings, RSX_FIND_SELECTOR_SET, "finding selector-set");
  is_int(s[1].findings, 0, "the other submesh has none");
  is_int(x.m.findings, RSX_FIND_SELECTOR, "the mesh has selector");
  rsx_submesh_finding_describe(&x.m, &s[0], RSX_FIND_SELECTOR_SET, buf,
                               sizeof buf);
  is_str(buf, "selectors 0203ff01: byte 1 (set 3) names a stored UV set "
         "that mask 0x000800e5 lacks", "selector-set described");
  rsx_finding_describe(&x.m, RSX_FIND_SELECTOR, buf, sizeof buf);
  is_str(buf, "1 of 2 submeshes have selector findings, the first submesh 1",
         "the mesh's selector finding described (its first submesh, table "
         "entry 5)");
  fx_sub(&x, 1, 0, 0, 0x03030303);
  is_int(fx_check(&x, &e), 0, "03030303 checks");
  rsx_submesh_finding_describe(&x.m, &s[1], RSX_FIND_SELECTOR_SET, buf,
                               sizeof buf);
  is_str(buf, "selectors 03030303: byte 0 (set 3), byte 1 (set 3), byte 2 "
         "(set 3), byte 3 (set 3) name stored UV sets that mask 0x000800e5 "
         "lacks", "four of them described");
  rsx_finding_describe(&x.m, RSX_FIND_SELECTOR, buf, sizeof buf);
  is_str(buf, "2 of 2 submeshes have selector findings, the first submesh 1",
         "both counted");
  fx_sub(&x, 0, 0, 0, 0x00000000);
  is_int(fx_check(&x, &e), 0, "00000000 and 03030303 check");
  rsx_finding_describe(&x.m, RSX_FIND_SELECTOR, buf, sizeof buf);
  is_str(buf, "1 of 2 submeshes have selector findings, the first submesh 2",
         "the second submesh alone: submesh 2");

  /* a byte that is neither 0..3 nor 0xFF */
  fx_init(&x, 0x000801ff, 0, 16, 28);
  fx_sub(&x, 0, 0, 0, 0x0007FFFF);
  is_int(fx_check(&x, &e), 0, "byte 0x07 leaves the mesh readable");
  is_int(s[0].uv_set[0], 0, "0007ffff: UV0 <- set 0");
  is_int(s[0].uv_set[1], -1, "0007ffff: UV1 absent");
  is_int(s[0].uv_set[2], 2, "0007ffff: UV2 <- set 2");
  is_int(s[0].findings, RSX_FIND_SELECTOR_BYTE, "finding selector-byte");
  is_int(x.m.findings, RSX_FIND_SELECTOR, "the mesh has selector");
  rsx_submesh_finding_describe(&x.m, &s[0], RSX_FIND_SELECTOR_BYTE, buf,
                               sizeof buf);
  is_str(buf, "selectors 0007ffff: byte 1 (0x07) is neither 0..3 nor 0xff",
         "selector-byte described");
  fx_sub(&x, 0, 0, 0, 0x0709FE04);
  is_int(fx_check(&x, &e), 0, "0709fe04 checks");
  is_int(s[0].findings, RSX_FIND_SELECTOR_BYTE, "all four bytes bad");
  rsx_submesh_finding_describe(&x.m, &s[0], RSX_FIND_SELECTOR_BYTE, buf,
                               sizeof buf);
  is_str(buf, "selectors 0709fe04: byte 0 (0x07), byte 1 (0x09), byte 2 "
         "(0xfe), byte 3 (0x04) are neither 0..3 nor 0xff",
         "four bad bytes described");
  rsx_submesh_finding_describe(&x.m, &s[0], 8, buf, sizeof buf);
  is_str(buf, "unknown submesh finding 0x8", "an unknown bit");

  /* both kinds at once */
  fx_init(&x, 0x00080025, 0, 16, 4);
  fx_sub(&x, 0, 0, 0, 0x0180FFFF);
  is_int(fx_check(&x, &e), 0, "0180ffff on UV0 only checks");
  is_int(s[0].findings, RSX_FIND_SELECTOR_BYTE | RSX_FIND_SELECTOR_SET,
         "both findings");
  is_int(s[0].uv_set[0], -1, "UV0 absent (set 1 missing)");
  is_int(s[0].uv_set[1], -1, "UV1 absent (byte 0x80)");
}

/* ------------------------------------------------------- mesh findings */

static void test_findings(void)
{
  fx x;
  rsx_error e;
  char buf[200];
  float out[8];
  static const uint32_t bad[6] = {0, 1, 2, 3, 4, 9};

  fx_init(&x, 0x00080005, 1, 20, 0);
  is_int(fx_check(&x, &e), 0, "a stride mismatch leaves the mesh readable");
  is_int(x.m.findings, RSX_FIND_MMP_STRIDE, "finding mmp-stride");
  rsx_finding_describe(&x.m, RSX_FIND_MMP_STRIDE, buf, sizeof buf);
  is_str(buf, "MMP stride 20 differs from 16 implied by mask 0x00080005",
         "mmp-stride described");
  is_int(rsx_mesh_can_decode(&x.m, RSX_POSITION, &e), -1,
         "position cannot be decoded");
  is_str(e.text, "mesh 8 (crate): cannot decode position: mmp-stride: MMP "
         "stride 20 differs from 16 implied by mask 0x00080005",
         "... the message names the mesh, the kind and the finding");
  is_int(rsx_mesh_decode(&x.m, RSX_NORMAL, 0, 1, out, &e), -1,
         "rsx_mesh_decode of the normal fails too");

  fx_init(&x, 0x00080005, 1, 16, 4);
  is_int(fx_check(&x, &e), 0, "an MGP stride on a mask without MGP checks");
  is_int(x.m.findings, RSX_FIND_MGP_STRIDE, "finding mgp-stride");
  rsx_finding_describe(&x.m, RSX_FIND_MGP_STRIDE, buf, sizeof buf);
  is_str(buf, "MGP stride 4 differs from 0 implied by mask 0x00080005",
         "the implied MGP stride is 0");
  is_int(rsx_mesh_can_decode(&x.m, RSX_POSITION, &e), 0,
         "the MMP still decodes");

  fx_init(&x, 0x00080025, 1, 16, 0);
  is_int(fx_check(&x, &e), 0, "no MGP where the mask implies one checks");
  is_int(x.m.findings, RSX_FIND_MGP_STRIDE, "finding mgp-stride");
  rsx_finding_describe(&x.m, RSX_FIND_MGP_STRIDE, buf, sizeof buf);
  is_str(buf, "MGP stride 0 differs from 4 implied by mask 0x00080025",
         "stored 0, implied 4");
  is_int(rsx_mesh_decode(&x.m, RSX_UV0, 0, 1, out, &e), -1,
         "uv0 is not read from the missing stream");

  fx_init(&x, 0x0008007d, 1, 16, 20);
  is_int(fx_check(&x, &e), 0, "mask 0x0008007d with MGP stride 20 checks");
  is_int(x.m.findings, RSX_FIND_MGP_STRIDE, "finding mgp-stride");
  rsx_finding_describe(&x.m, RSX_FIND_MGP_STRIDE, buf, sizeof buf);
  is_str(buf, "MGP stride 20 differs from 16 implied by mask 0x0008007d",
         "the header's example");
  is_int(rsx_mesh_can_decode(&x.m, RSX_UV0, &e), -1, "uv0 cannot decode");
  is_str(e.text, "mesh 8 (crate): cannot decode uv0: mgp-stride: MGP stride "
         "20 differs from 16 implied by mask 0x0008007d", "... named");
  is_int(rsx_mesh_can_decode(&x.m, RSX_TANGENT_A, &e), -1,
         "tangent_a cannot decode");
  is_int(rsx_mesh_can_decode(&x.m, RSX_POSITION, &e), 0,
         "position still decodes");
  is_int(rsx_mesh_can_decode(&x.m, RSX_NORMAL, &e), 0,
         "normal still decodes");

  fx_init(&x, 0x00080024, 1, 16, 4);
  is_int(fx_check(&x, &e), 0, "a mask without position checks");
  is_int(x.m.findings, RSX_FIND_NO_POSITION, "finding no-position alone "
         "(normal at +12: MMP stride 16)");
  rsx_finding_describe(&x.m, RSX_FIND_NO_POSITION, buf, sizeof buf);
  is_str(buf, "mask 0x00080024 lacks the position bit 0x1", "described");
  is_int(rsx_mesh_can_decode(&x.m, RSX_POSITION, &e), -1,
         "position is absent");
  is_str(e.text, "mesh 8 (crate): mask 0x00080024 has no position",
         "... named");
  is_int(rsx_mesh_can_decode(&x.m, RSX_NORMAL, &e), -1,
         "the normal, an MMP kind, cannot decode");
  is_str(e.text, "mesh 8 (crate): cannot decode normal: no-position: mask "
         "0x00080024 lacks the position bit 0x1", "... named");
  is_int(rsx_mesh_can_decode(&x.m, RSX_UV0, &e), 0, "uv0 decodes");

  fx_init(&x, 0x40082025, 1, 16, 4);
  is_int(fx_check(&x, &e), 0, "a mask with undefined bits checks");
  is_int(x.m.findings, RSX_FIND_UNDEFINED_BITS, "finding undefined-bits");
  rsx_finding_describe(&x.m, RSX_FIND_UNDEFINED_BITS, buf, sizeof buf);
  is_str(buf, "mask 0x40082025 has bits 0x40002000 that the format table "
         "does not define", "described, the bits in hex");
  is_int(rsx_mesh_can_decode(&x.m, RSX_UV0, &e), -1, "uv0 cannot decode");
  is_str(e.text, "mesh 8 (crate): cannot decode uv0: undefined-bits: mask "
         "0x40082025 has bits 0x40002000 that the format table does not "
         "define", "... named");
  is_int(rsx_mesh_can_decode(&x.m, RSX_POSITION, &e), 0,
         "position decodes");
  is_int(rsx_mesh_can_decode(&x.m, RSX_NORMAL, &e), 0, "normal decodes");

  fx_init(&x, 0x00000001, 1, 16, 0);
  is_int(fx_check(&x, &e), 0, "unpacked position-only mask");
  is_int(x.m.findings, 0, "no findings (the packed flag is not required)");
  fx_init(&x, 0x00000005, 1, 16, 0);
  is_int(fx_check(&x, &e), 0, "unpacked position and normal, stride 16");
  is_int(x.m.findings, RSX_FIND_MMP_STRIDE, "mmp-stride: unpacked implies "
         "12 + 12 rounded up, 32");

  /* indices: 4 vertices, 9 and 4 out of range */
  fx_init(&x, 0x00080005, 4, 16, 0);
  fx_idx(&x, 2, bad, 6);
  is_int(fx_check(&x, &e), 0, "out-of-range indices leave it readable");
  is_int(x.m.findings, RSX_FIND_INDEX_RANGE, "finding index-range");
  is_int(x.m.bad_index_count, 2, "two indices counted");
  is_int(x.m.first_bad_index, 4, "the first at position 4");
  rsx_finding_describe(&x.m, RSX_FIND_INDEX_RANGE, buf, sizeof buf);
  is_str(buf, "2 indices are not below the vertex count 4, the first at "
         "position 5 (4)", "index-range described: position 5 as "
         "m:index(5), 0-based 4 in the C field");
  {
    static const uint32_t one[3] = {0, 0xFFFF, 1};
    static const uint32_t strip[7] = {0, 1, 2, 0xFFFF, 3, 1, 2};
    static const uint32_t big[5] = {0, 1, 0xFFFF, 0xFFFFFFFFu, 2};
    fx_idx(&x, 2, one, 3);
    fx_check(&x, &e);
    is_int(x.m.bad_index_count, 1, "0xffff counts in a u16 list");
    rsx_finding_describe(&x.m, RSX_FIND_INDEX_RANGE, buf, sizeof buf);
    is_str(buf, "1 index is not below the vertex count 4, the first at "
           "position 2 (65535)", "... singular");
    x.m.primitive = RSX_STRIP;
    fx_idx(&x, 2, strip, 7);
    fx_check(&x, &e);
    is_int(x.m.findings, 0, "0xffff restarts a u16 strip: no finding");
    fx_idx(&x, 4, big, 5);
    fx_check(&x, &e);
    is_int(x.m.bad_index_count, 1, "u32 strip: 0xffff counts, not the "
           "restart 0xffffffff");
    is_int(x.m.first_bad_index, 2, "... at position 2");
    x.m.primitive = RSX_TRIANGLES;
    fx_check(&x, &e);
    is_int(x.m.bad_index_count, 2, "u32 list: both count");
    x.m.vertex_count = 0;
    fx_check(&x, &e);
    is_int(x.m.bad_index_count, 5, "no vertices: every index counts");
    is_int(x.m.first_bad_index, 0, "... from position 0");
  }
  {
    /* 20 u16 indices of 258 vertices, eight at a time and then four: 3
    ** everywhere (0x0300, bad, were its bytes not swapped), and one 258
    ** (the vertex count) or one 0xffff at each place in turn */
    uint32_t v[20];
    int at, k, lists = 0, strips = 0, restarts = 0;
    fx_init(&x, 0x00080005, 258, 16, 0);
    for (at = 0; at < 20; at++) {
      for (k = 0; k < 20; k++) v[k] = 3;
      v[at] = 258;
      fx_idx(&x, 2, v, 20);
      x.m.primitive = RSX_TRIANGLES;
      fx_check(&x, &e);
      lists += x.m.bad_index_count == 1 && x.m.first_bad_index == (uint32_t)at;
      v[at] = 0xFFFF;
      fx_idx(&x, 2, v, 20);
      fx_check(&x, &e);
      restarts += x.m.bad_index_count == 1;
      x.m.primitive = RSX_STRIP;
      fx_check(&x, &e);
      strips += x.m.findings == 0;
    }
    is_int(lists, 20, "u16 list: the vertex count found at each of 20 "
           "places");
    is_int(restarts, 20, "u16 list: 0xffff found at each place");
    is_int(strips, 20, "u16 strip: 0xffff, a restart, at each place");
    for (k = 0; k < 20; k++) v[k] = 257; /* 0x0101: the last vertex */
    fx_idx(&x, 2, v, 20);
    x.m.primitive = RSX_TRIANGLES;
    fx_check(&x, &e);
    is_int(x.m.findings, 0, "u16 list: the last vertex everywhere is sound");
  }

  /* several findings at once, and the describe of an unknown bit */
  fx_init(&x, 0x20080024, 1, 20, 8);
  fx_check(&x, &e);
  is_int(x.m.findings, RSX_FIND_MMP_STRIDE | RSX_FIND_MGP_STRIDE |
         RSX_FIND_NO_POSITION | RSX_FIND_UNDEFINED_BITS, "four at once");
  is_int(rsx_mesh_can_decode(&x.m, RSX_NORMAL, &e), -1, "normal blocked");
  like(e.text, "cannot decode normal: mmp-stride:", "... by the stride first");
  rsx_finding_describe(&x.m, 1u << 9, buf, sizeof buf);
  is_str(buf, "unknown finding 0x200", "an unknown bit described");
}

/* ------------------------------------------------------------ decoding */

static void mmp_vertex(uint8_t *p, uint32_t x, uint32_t y, uint32_t z,
                       uint32_t n)
{
  rsx_put_be32(p, x);
  rsx_put_be32(p + 4, y);
  rsx_put_be32(p + 8, z);
  rsx_put_be32(p + 12, n);
}

static void test_decode(void)
{
  fx x;
  rsx_error e;
  float o[16];
  uint8_t *g;

  /* mask 0x000801ff: MMP 16 = position, normal at +12; MGP 28 = colour 0,
  ** A 4, B 8, UV0 12, UV1 16, UV2 20, UV3 24 (the note's order) */
  fx_init(&x, 0x000801ff, 2, 16, 28);
  mmp_vertex(x.mmp, 0x3F800000, 0xC0000000, 0x00000000, 0x001FF800);
  mmp_vertex(x.mmp + 16, 0x40400000, 0x3E800000, 0xBF000000, 0xFFFFFFFF);
  g = x.mgp;
  memcpy(g, "\x00\xff\x80\x33", 4);
  rsx_put_be32(g + 4, 0x00000400);   /* x = -1024 */
  rsx_put_be32(g + 8, 0x7FC00000);   /* z = 511 */
  rsx_put_be32(g + 12, 0x3C00C000);  /* 1, -2 */
  rsx_put_be32(g + 16, 0x38000001);  /* 0.5, 2^-24 */
  rsx_put_be32(g + 20, 0x7BFF8000);  /* 65504, -0 */
  rsx_put_be32(g + 24, 0x040003FF);  /* 2^-14, 1023 * 2^-24 */
  g = x.mgp + 28;
  memcpy(g, "\xff\xff\xff\xff", 4);
  rsx_put_be32(g + 4, 0x001FF800);
  rsx_put_be32(g + 8, 0x80000000);   /* z = -512 */
  rsx_put_be32(g + 12, 0x7C00FC00);  /* inf, -inf */
  is_int(fx_check(&x, &e), 0, "mask 0x000801ff checks");
  is_int(x.m.findings, 0, "no findings");
  is_int(x.m.format.mmp_stride, 16, "implied MMP stride 16");
  is_int(x.m.format.mgp_stride, 28, "implied MGP stride 28 (the note)");
  is_int(x.m.mask, 0x000801ff, "mask read from meta+0x8c");

  is_int(rsx_mesh_decode(&x.m, RSX_POSITION, 0, 2, o, &e), 0,
         "positions decode");
  is_float(o[0], 1.0f, "3f800000 -> 1");
  is_float(o[1], -2.0f, "c0000000 -> -2");
  is_float(o[2], 0.0f, "00000000 -> 0");
  is_float(o[3], 3.0f, "40400000 -> 3");
  is_float(o[4], 0.25f, "3e800000 -> 0.25");
  is_float(o[5], -0.5f, "bf000000 -> -0.5");

  is_int(rsx_mesh_decode(&x.m, RSX_NORMAL, 0, 2, o, &e), 0,
         "normals decode");
  is_float(o[0], 0.0f, "001ff800: x 0");
  is_float(o[1], q(32736, 32767), "001ff800: y 32736/32767 (the note)");
  is_float(o[2], 0.0f, "001ff800: z 0");
  is_float(o[3], q(-32, 32767), "ffffffff: x -1 * 32/32767");
  is_float(o[4], q(-32, 32767), "ffffffff: y -1 * 32/32767");
  is_float(o[5], q(-64, 32767), "ffffffff: z -1 * 64/32767");

  is_int(rsx_mesh_decode(&x.m, RSX_COLOUR, 0, 2, o, &e), 0,
         "colours decode");
  is_float(o[0], 0.0f, "byte 0 -> 0");
  is_float(o[1], 1.0f, "byte 255 -> 1");
  is_float(o[2], q(128, 255), "byte 0x80 -> 128/255");
  is_float(o[3], q(51, 255), "byte 0x33 -> 51/255, in component order");
  is_float(o[7], 1.0f, "vertex 1: 255 -> 1");

  is_int(rsx_mesh_decode(&x.m, RSX_TANGENT_A, 0, 2, o, &e), 0,
         "tangent A decodes");
  is_float(o[0], q(-32768, 32767), "A x = -1024*32/32767, not normalised");
  is_float(o[1], 0.0f, "A y 0");
  is_float(o[4], q(32736, 32767), "vertex 1: A y");
  is_int(rsx_mesh_decode(&x.m, RSX_TANGENT_B, 0, 2, o, &e), 0,
         "tangent B decodes");
  is_float(o[2], q(32704, 32767), "B z = 511*64/32767");
  is_float(o[5], q(-32768, 32767), "vertex 1: B z = -512*64/32767");

  is_int(rsx_mesh_decode(&x.m, RSX_UV0, 0, 2, o, &e), 0, "uv0 decodes");
  is_float(o[0], 1.0f, "3c00 -> 1");
  is_float(o[1], -2.0f, "c000 -> -2");
  is_float(o[2], INFINITY, "7c00 -> inf");
  is_float(o[3], -INFINITY, "fc00 -> -inf");
  is_int(rsx_mesh_decode(&x.m, RSX_UV1, 0, 1, o, &e), 0, "uv1 decodes");
  is_float(o[0], 0.5f, "3800 -> 0.5");
  is_float(o[1], 0x1p-24f, "0001 -> 2^-24");
  is_int(rsx_mesh_decode(&x.m, RSX_UV2, 0, 1, o, &e), 0, "uv2 decodes");
  is_float(o[0], 65504.0f, "7bff -> 65504");
  is_float(o[1], -0.0f, "8000 -> -0");
  is_int(rsx_mesh_decode(&x.m, RSX_UV3, 0, 1, o, &e), 0, "uv3 decodes");
  is_float(o[0], 0x1p-14f, "0400 -> 2^-14");
  is_float(o[1], 1023 * 0x1p-24f, "03ff -> 1023 * 2^-24");

  /* a range that starts at vertex 1 */
  is_int(rsx_mesh_decode(&x.m, RSX_POSITION, 1, 1, o, &e), 0,
         "vertex 1 alone");
  is_float(o[0], 3.0f, "... its x");
  is_int(rsx_mesh_decode(&x.m, RSX_POSITION, 2, 0, o, &e), 0,
         "no vertices from the end");
  is_int(rsx_mesh_decode(&x.m, RSX_POSITION, 1, 2, o, &e), -1,
         "vertices 1+2 of 2 refused");
  is_str(e.text, "mesh 8 (crate): position: vertices 2..3 run past the "
         "vertex count 2", "... named as Lua's range 2..3");
  is_int(rsx_mesh_decode(&x.m, RSX_POSITION, 0xFFFFFFFFu, 2, o, &e), -1,
         "a range that wraps refused");
  is_int(rsx_mesh_decode(&x.m, RSX_EXTRA_A, 0, 1, o, &e), -1,
         "extra_a is not in the mask");
  is_str(e.text, "mesh 8 (crate): mask 0x000801ff has no extra_a", "named");
  is_int(rsx_mesh_decode(&x.m, 13, 0, 1, o, &e), -1, "kind 13 refused");
  is_str(e.text, "mesh 8 (crate): no attribute kind 13", "named");
  is_int(rsx_mesh_decode(&x.m, -1, 0, 1, o, &e), -1, "kind -1 refused");

  /* the tree mask: extras at MGP 24 and 32, stride 40 */
  fx_init(&x, 0x000807fd, 1, 16, 40);
  rsx_put_be32(x.mgp + 24, 0x3C000000);
  rsx_put_be32(x.mgp + 28, 0xBC004248);
  rsx_put_be32(x.mgp + 32, 0x4900C500);
  rsx_put_be32(x.mgp + 36, 0x40000000);
  is_int(fx_check(&x, &e), 0, "mask 0x000807fd with MGP stride 40 checks");
  is_int(x.m.findings, 0, "no findings");
  is_int(rsx_mesh_decode(&x.m, RSX_EXTRA_A, 0, 1, o, &e), 0, "extra A");
  is_float(o[0], 1.0f, "3c00 -> 1");
  is_float(o[1], 0.0f, "0000 -> 0");
  is_float(o[2], -1.0f, "bc00 -> -1");
  is_float(o[3], 3.140625f, "4248 -> 2 * (1 + 584/1024)");
  is_int(rsx_mesh_decode(&x.m, RSX_EXTRA_B, 0, 1, o, &e), 0, "extra B");
  is_float(o[0], 10.0f, "4900 -> 8 * 1.25");
  is_float(o[1], -5.0f, "c500 -> -4 * 1.25");
  is_float(o[2], 2.0f, "4000 -> 2");
  is_float(o[3], 0.0f, "w 0");

  /* bits 11 and 12: MGP s32k2 at 0, half4 at 4, stride 12 */
  fx_init(&x, 0x00081801, 2, 16, 12);
  rsx_put_be32(x.mgp, 0xFFFE7FFF);
  rsx_put_be32(x.mgp + 4, 0x3C00BC00);
  rsx_put_be32(x.mgp + 8, 0x35557E00);
  rsx_put_be32(x.mgp + 12, 0x80000001);
  is_int(fx_check(&x, &e), 0, "mask 0x00081801 checks");
  is_int(x.m.findings, 0, "no findings");
  is_int(rsx_mesh_decode(&x.m, RSX_S32K2, 0, 2, o, &e), 0, "s32k2");
  is_float(o[0], -2.0f, "fffe -> -2");
  is_float(o[1], 32767.0f, "7fff -> 32767");
  is_float(o[2], -32768.0f, "8000 -> -32768");
  is_float(o[3], 1.0f, "0001 -> 1");
  is_int(rsx_mesh_decode(&x.m, RSX_HALF4, 0, 1, o, &e), 0, "half4");
  is_float(o[1], -1.0f, "bc00 -> -1");
  is_float(o[2], 1365.0f / 4096.0f, "3555 -> 0.25 * (1 + 341/1024)");
  ok(o[3] != o[3], "7e00 -> NaN");

  /* unpacked: MMP 32 (normal three floats at 12), MGP colour 0, uv0 4 */
  fx_init(&x, 0x00000027, 1, 32, 12);
  rsx_put_be32(x.mmp + 12, 0x3F000000);
  rsx_put_be32(x.mmp + 16, 0xBF000000);
  rsx_put_be32(x.mmp + 20, 0x00000000);
  memcpy(x.mgp, "\x01\x02\x03\x04", 4);
  rsx_put_be32(x.mgp + 4, 0x3E000000);
  rsx_put_be32(x.mgp + 8, 0xC1200000);
  is_int(fx_check(&x, &e), 0, "unpacked mask 0x00000027 checks");
  is_int(x.m.findings, 0, "no findings with strides 32 and 12");
  is_int(rsx_mesh_decode(&x.m, RSX_NORMAL, 0, 1, o, &e), 0, "F3 normal");
  is_float(o[0], 0.5f, "3f000000 -> 0.5");
  is_float(o[1], -0.5f, "bf000000 -> -0.5");
  is_int(rsx_mesh_decode(&x.m, RSX_UV0, 0, 1, o, &e), 0, "F2 uv0");
  is_float(o[0], 0.125f, "3e000000 -> 0.125");
  is_float(o[1], -10.0f, "c1200000 -> -10");
  is_int(rsx_mesh_decode(&x.m, RSX_COLOUR, 0, 1, o, &e), 0, "colour");
  is_float(o[3], q(4, 255), "byte 4 -> 4/255");
}

/* ----------------------------------------------------------- triangles */

static void tri_expect(fx *x, const rsx_submesh *s, uint32_t first,
                       uint32_t count, const uint32_t *want, size_t nwant,
                       const char *what)
{
  uint32_t out[64 * 3];
  size_t n = 99;
  rsx_error e;
  int rc = rsx_triangles(&x->m, s, first, count, out, &n, &e);
  if (!is_int(rc, 0, "%s: succeeds", what)) diag("%s", e.text);
  ok(n <= rsx_triangle_capacity(count), "%s: within the capacity", what);
  if (is_int((long long)n, (long long)nwant, "%s: %zu triangles", what,
             nwant) && nwant)
    cmp_mem(out, want, nwant * 3 * sizeof *want, "%s: vertices", what);
}

static void test_triangles(void)
{
  fx x;

  is_int((long long)rsx_triangle_capacity(0), 0, "capacity of 0 indices");
  is_int((long long)rsx_triangle_capacity(2), 0, "capacity of 2");
  is_int((long long)rsx_triangle_capacity(3), 1, "capacity of 3");
  is_int((long long)rsx_triangle_capacity(4), 2, "capacity of 4 (strip)");
  is_int((long long)rsx_triangle_capacity(0xFFFFFFFFu), 0xFFFFFFFDLL,
         "capacity of 2^32 - 1");

  fx_init(&x, 0x00080005, 4, 16, 0);
  {
    static const uint32_t list[10] = {0, 1, 2, 2, 1, 3, 0, 0, 1, 3};
    static const uint32_t want[6] = {0, 1, 2, 2, 1, 3};
    fx_idx(&x, 2, list, 10);
    tri_expect(&x, NULL, 0, 9, want, 2, "u16 list, one degenerate");
    tri_expect(&x, NULL, 0, 10, want, 2, "whole buffer, a leftover index");
    tri_expect(&x, NULL, 3, 3, want + 3, 1, "a list from position 3");
    fx_idx(&x, 4, list, 10);
    tri_expect(&x, NULL, 0, 9, want, 2, "u32 list");
  }
  {
    /* 0 1 2 3 | 4 5 6 7 8: (0,1,2) (2,1,3) | (4,5,6) (6,5,7) (6,7,8) */
    static const uint32_t strip[10] = {0, 1, 2, 3, 0xFFFF, 4, 5, 6, 7, 8};
    static const uint32_t want[15] = {0, 1, 2, 2, 1, 3,
                                      4, 5, 6, 6, 5, 7, 6, 7, 8};
    static const uint32_t one23[3] = {1, 2, 3};
    static const uint32_t strip32[8] = {0, 1, 2, 0xFFFFFFFFu, 3, 2, 1, 0};
    static const uint32_t want32[9] = {0, 1, 2, 3, 2, 1, 1, 2, 0};
    /* degenerates count for the parity: k1 (1,2,2) and k2 (2,2,3) drop,
    ** k3 (2,3,4) is odd and swapped, k4 (3,4,5) is even */
    static const uint32_t dege[7] = {0, 1, 2, 2, 3, 4, 5};
    static const uint32_t wantd[9] = {0, 1, 2, 3, 2, 4, 3, 4, 5};
    x.m.primitive = RSX_STRIP;
    x.m.vertex_count = 9;
    fx_idx(&x, 2, strip, 10);
    tri_expect(&x, NULL, 0, 10, want, 5, "u16 strip with a restart");
    tri_expect(&x, NULL, 5, 5, want + 6, 3, "the strip after the restart");
    tri_expect(&x, NULL, 1, 3, one23, 1,
               "a range starts its own strip: (1,2,3) even, unswapped");
    tri_expect(&x, NULL, 0, 2, NULL, 0, "two indices, no triangle");
    fx_idx(&x, 4, strip32, 8);
    tri_expect(&x, NULL, 0, 8, want32, 3, "u32 strip, restart 0xffffffff");
    fx_idx(&x, 2, dege, 7);
    tri_expect(&x, NULL, 0, 7, wantd, 3, "degenerates keep the parity");
  }
  {
    static const uint32_t s32[5] = {0, 1, 2, 0xFFFF, 1};
    static const uint32_t l16[6] = {0, 1, 2, 0xFFFF, 1, 2};
    static const uint32_t tail[7] = {0, 1, 2, 3, 1, 2, 9};
    uint32_t out[64 * 3];
    size_t n;
    rsx_error e;
    x.m.vertex_count = 4;
    fx_idx(&x, 4, s32, 5);
    fx_sub(&x, 0, 0, 5, 0xFFFFFFFF);
    fx_sub(&x, 1, 0, 5, 0xFFFFFFFF);
    is_int(rsx_triangles(&x.m, &x.sub[1], 0, 5, out, &n, &e), -1,
           "u32 strip: 0xffff is no restart, and out of range");
    is_str(e.text, "mesh 8 (crate): submesh 2: index at position 4 is "
           "65535, not below the vertex count 4",
           "... naming mesh, submesh, position (as m:index) and value");
    is_int((long long)n, 0, "no triangles reported on failure");
    is_int(rsx_triangles(&x.m, NULL, 0, 5, out, &n, &e), -1,
           "without a submesh");
    is_str(e.text, "mesh 8 (crate): index at position 4 is 65535, not "
           "below the vertex count 4", "... the message omits it");
    {
      rsx_submesh other = x.sub[1];
      is_int(rsx_triangles(&x.m, &other, 0, 5, out, &n, &e), -1,
             "a submesh that is not the mesh's");
      is_str(e.text, "mesh 8 (crate): index at position 4 is 65535, not "
             "below the vertex count 4", "... has no number to give");
    }
    x.m.primitive = RSX_TRIANGLES;
    fx_idx(&x, 2, l16, 6);
    is_int(rsx_triangles(&x.m, &x.sub[0], 0, 6, out, &n, &e), -1,
           "u16 list: 0xffff is an index like any other");
    is_str(e.text, "mesh 8 (crate): submesh 1: index at position 4 is "
           "65535, not below the vertex count 4", "... named");
    fx_idx(&x, 2, tail, 7);
    is_int(rsx_triangles(&x.m, NULL, 0, 7, out, &n, &e), -1,
           "a leftover list index is checked too");
    like(e.text, "position 7 is 9", "... named");
    is_int(rsx_triangles(&x.m, NULL, 4, 6, out, &n, &e), -1,
           "indices 4+6 of 7 refused");
    is_str(e.text, "mesh 8 (crate): indices 5..10 lie outside the index "
           "buffer (7 indices)", "... named as m:index positions 5..10");
    is_int(rsx_triangles(&x.m, NULL, 0xFFFFFFFFu, 2, out, &n, &e), -1,
           "a range that wraps refused");
    is_int(rsx_triangles(&x.m, NULL, 7, 0, out, &n, &e), 0,
           "an empty range at the end");
    is_int(rsx_triangles(&x.m, NULL, 0, 3, out, NULL, &e), 0,
           "ntriangles may be NULL");
  }
  {
    /* a u16 list a triangle at a time: each kind of degenerate dropped
    ** (a = b, b = c, a = c), and a bad index at each place named */
    static const uint32_t mixed[15] = {0, 1, 2, 3, 3, 1, 1, 2, 2,
                                       2, 0, 2, 3, 2, 1};
    static const uint32_t wantm[6] = {0, 1, 2, 3, 2, 1};
    uint32_t list[12], out[64 * 3];
    size_t n;
    rsx_error e;
    char want[96];
    int at, k, named = 0;
    x.m.primitive = RSX_TRIANGLES;
    x.m.vertex_count = 4;
    fx_idx(&x, 2, mixed, 15);
    tri_expect(&x, NULL, 0, 15, wantm, 2, "u16 list: three kinds of "
               "degenerate dropped");
    for (at = 0; at < 12; at++) {
      for (k = 0; k < 12; k++) list[k] = (uint32_t)k % 4;
      list[at] = 4;
      fx_idx(&x, 2, list, 12);
      snprintf(want, sizeof want, "mesh 8 (crate): index at position %d "
               "is 4, not below the vertex count 4", at + 1);
      named += rsx_triangles(&x.m, NULL, 0, 12, out, &n, &e) == -1 &&
               strcmp(e.text, want) == 0;
    }
    is_int(named, 12, "u16 list: a bad index named at each of 12 places");
  }
}

static void mesh_tri_expect(fx *x, const uint32_t *want, size_t nwant,
                            const char *what)
{
  uint32_t out[64 * 3];
  size_t n = 99;
  rsx_error e;
  int rc = rsx_mesh_triangles(&x->m, out, &n, &e);
  if (!is_int(rc, 0, "%s: succeeds", what)) diag("%s", e.text);
  ok(n <= rsx_mesh_triangle_capacity(&x->m), "%s: within the capacity",
     what);
  if (is_int((long long)n, (long long)nwant, "%s: %zu triangles", what,
             nwant) && nwant)
    cmp_mem(out, want, nwant * 3 * sizeof *want, "%s: vertices", what);
}

/* The whole mesh is its submeshes one after the other, each a strip of
** its own: never one strip over the whole buffer (issue 9). */
static void test_mesh_triangles(void)
{
  fx x;
  /* 7 vertices, strip 0..6; submesh 1 on positions 0-3, 2 on 4-6.
  ** Submesh 1: (0,1,2) even, (1,2,3) odd -> (2,1,3); submesh 2: (4,5,6).
  ** One strip would add (2,3,4) and (4,3,5) between them. */
  static const uint32_t seven[7] = {0, 1, 2, 3, 4, 5, 6};
  static const uint32_t want[9] = {0, 1, 2, 2, 1, 3, 4, 5, 6};
  static const uint32_t swapped[9] = {4, 5, 6, 0, 1, 2, 2, 1, 3};
  static const uint32_t whole[15] = {0, 1, 2, 2, 1, 3, 2, 3, 4,
                                     4, 3, 5, 4, 5, 6};
  /* list 0 1 2 | 3 4 5 | 6 0 1, submeshes on the first and last three */
  static const uint32_t list[9] = {0, 1, 2, 3, 4, 5, 6, 0, 1};
  static const uint32_t wantl[6] = {0, 1, 2, 6, 0, 1};
  static const uint32_t bad[7] = {0, 1, 2, 3, 4, 5, 9};
  uint32_t out[64 * 3];
  size_t n;
  rsx_error e;

  fx_init(&x, 0x00080005, 7, 16, 0);
  x.m.primitive = RSX_STRIP;
  fx_idx(&x, 2, seven, 7);
  fx_sub(&x, 0, 0, 4, 0xFFFFFFFF);
  fx_sub(&x, 1, 4, 3, 0xFFFFFFFF);
  is_int((long long)rsx_mesh_triangle_capacity(&x.m), 3,
         "capacity: 2 + 1 for strips of 4 and 3");
  mesh_tri_expect(&x, want, 3, "strip of two submeshes");
  fx_sub(&x, 0, 4, 3, 0xFFFFFFFF);
  fx_sub(&x, 1, 0, 4, 0xFFFFFFFF);
  mesh_tri_expect(&x, swapped, 3, "in submesh order, not buffer order");
  x.m.submesh_count = 0;
  is_int((long long)rsx_mesh_triangle_capacity(&x.m), 5,
         "no submeshes: the capacity of the buffer");
  mesh_tri_expect(&x, whole, 5, "no submeshes: one strip over the buffer");

  x.m.primitive = RSX_TRIANGLES;
  fx_idx(&x, 2, list, 9);
  fx_sub(&x, 0, 0, 3, 0xFFFFFFFF);
  fx_sub(&x, 1, 6, 3, 0xFFFFFFFF);
  mesh_tri_expect(&x, wantl, 2, "list: indices in no submesh are no face");

  x.m.primitive = RSX_STRIP;
  fx_idx(&x, 2, bad, 7);
  fx_sub(&x, 0, 0, 4, 0xFFFFFFFF);
  fx_sub(&x, 1, 4, 3, 0xFFFFFFFF);
  is_int(rsx_mesh_triangles(&x.m, out, &n, &e), -1,
         "an index out of range in submesh 2");
  is_str(e.text, "mesh 8 (crate): submesh 2: index at position 7 is 9, "
         "not below the vertex count 7", "... names the submesh");
  is_int((long long)n, 0, "no triangles reported on failure");
}

int main(void)
{
  test_refusals();
  test_names();
  test_selectors();
  test_findings();
  test_decode();
  test_triangles();
  test_mesh_triangles();
  return done_testing();
}
