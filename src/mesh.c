/*
** mesh.c - checks a mesh, derives its layout, UV sets and findings, and
** decodes its attributes in bulk.
*/
#include "rsxmesh.h"
#include "decode.h"

#include <stdio.h>
#include <string.h>

#define LABEL_MAX 160
#define SELECTOR_ABSENT (-1)

/* ----------------------------------------------------------- naming */

/* Messages number entries as Lua does: entry 12 is b:mesh(13). */
void rsx_mesh_label(const rsx_mesh *m, char *buf, size_t size)
{
  unsigned long long number = (unsigned long long)m->index + 1;
  int named = m->name && m->name[0];
  if (!buf || size == 0) return;
  if (m->index == RSX_NONE) /* in no table: a mesh the caller built */
    snprintf(buf, size, named ? "mesh (%s)" : "mesh", named ? m->name : "");
  else if (named)
    snprintf(buf, size, "mesh %llu (%s)", number, m->name);
  else
    snprintf(buf, size, "mesh %llu", number);
}

const char *rsx_finding_name(unsigned bit)
{
  switch (bit) {
  case RSX_FIND_MMP_STRIDE: return "mmp-stride";
  case RSX_FIND_MGP_STRIDE: return "mgp-stride";
  case RSX_FIND_NO_POSITION: return "no-position";
  case RSX_FIND_UNDEFINED_BITS: return "undefined-bits";
  case RSX_FIND_INDEX_RANGE: return "index-range";
  case RSX_FIND_SELECTOR: return "selector";
  default: return NULL;
  }
}

const char *rsx_submesh_finding_name(unsigned bit)
{
  switch (bit) {
  case RSX_FIND_SELECTOR_BYTE: return "selector-byte";
  case RSX_FIND_SELECTOR_SET: return "selector-set";
  default: return NULL;
  }
}

static void aux_selector_hex(const rsx_submesh *s, char out[9])
{
  snprintf(out, 9, "%02x%02x%02x%02x", s->selector[0], s->selector[1],
           s->selector[2], s->selector[3]);
}

void rsx_finding_describe(const rsx_mesh *m, unsigned bit, char *buf,
                          size_t size)
{
  const rsx_format *f = &m->format;
  if (!buf || size == 0) return;
  switch (bit) {
  case RSX_FIND_MMP_STRIDE:
    snprintf(buf, size, "MMP stride %lu differs from %lu implied by mask "
             "0x%08lx", (unsigned long)m->mmp_stride,
             (unsigned long)f->mmp_stride, (unsigned long)m->mask);
    break;
  case RSX_FIND_MGP_STRIDE:
    snprintf(buf, size, "MGP stride %lu differs from %lu implied by mask "
             "0x%08lx", (unsigned long)m->mgp_stride,
             (unsigned long)f->mgp_stride, (unsigned long)m->mask);
    break;
  case RSX_FIND_NO_POSITION:
    snprintf(buf, size, "mask 0x%08lx lacks the position bit 0x1",
             (unsigned long)m->mask);
    break;
  case RSX_FIND_UNDEFINED_BITS:
    snprintf(buf, size, "mask 0x%08lx has bits 0x%08lx that the format "
             "table does not define", (unsigned long)m->mask,
             (unsigned long)f->undefined_bits);
    break;
  case RSX_FIND_INDEX_RANGE:
    if (m->bad_index_count == 0)
      snprintf(buf, size, "no index is out of range");
    else
      snprintf(buf, size, "%lu %s not below the vertex count %lu, the "
               "first at position %llu (%lu)",
               (unsigned long)m->bad_index_count,
               m->bad_index_count == 1 ? "index is" : "indices are",
               (unsigned long)m->vertex_count,
               (unsigned long long)m->first_bad_index + 1, /* m:index */
               (unsigned long)rsx_mesh_index(m, m->first_bad_index));
    break;
  case RSX_FIND_SELECTOR: {
    uint32_t i, n = 0, first = 0;
    for (i = 0; i < m->submesh_count; i++)
      if (m->submeshes[i].findings && n++ == 0) first = i;
    /* numbered within the mesh, as m:submesh(i) */
    snprintf(buf, size, "%lu of %lu submeshes have selector findings, the "
             "first submesh %lu", (unsigned long)n,
             (unsigned long)m->submesh_count, (unsigned long)first + 1);
    break;
  }
  default:
    snprintf(buf, size, "unknown finding 0x%x", bit);
  }
}

void rsx_submesh_finding_describe(const rsx_mesh *m, const rsx_submesh *s,
                                  unsigned bit, char *buf, size_t size)
{
  char hex[9], list[80];
  size_t used = 0;
  int i, listed = 0;
  if (!buf || size == 0) return;
  if (bit != RSX_FIND_SELECTOR_BYTE && bit != RSX_FIND_SELECTOR_SET) {
    snprintf(buf, size, "unknown submesh finding 0x%x", bit);
    return;
  }
  aux_selector_hex(s, hex);
  list[0] = '\0';
  for (i = 0; i < 4; i++) {
    unsigned b = s->selector[i];
    int bad = bit == RSX_FIND_SELECTOR_BYTE ? (b > 3 && b != 0xFF)
                                            : (b <= 3 && s->uv_set[i] < 0);
    if (!bad) continue;
    /* four entries of at most 16 characters always fit */
    used += (size_t)snprintf(list + used, sizeof list - used,
                             bit == RSX_FIND_SELECTOR_BYTE
                               ? "%s byte %d (0x%02x)" : "%s byte %d (set %u)",
                             listed ? "," : "", i, b);
    listed++;
  }
  if (!listed)
    snprintf(buf, size, "selectors %s: no %s finding", hex,
             rsx_submesh_finding_name(bit));
  else if (bit == RSX_FIND_SELECTOR_BYTE)
    snprintf(buf, size, "selectors %s:%s %s neither 0..3 nor 0xff", hex,
             list, listed == 1 ? "is" : "are");
  else
    snprintf(buf, size, "selectors %s:%s %s that mask 0x%08lx lacks", hex,
             list, listed == 1 ? "names a stored UV set"
                               : "name stored UV sets",
             (unsigned long)m->mask);
}

/* ------------------------------------------------------------ checks */

/* number: the submesh's number within its mesh, 1-based as in
** m:submesh(i). Values read from fields are printed as stored, in hex,
** with the field's name, so that none reads as a number of Lua's. */
static int chk_submesh(const rsx_mesh *m, const rsx_submesh *s,
                       unsigned long number, uint32_t material_count,
                       const char *where, rsx_error *err)
{
  if (!s->record)
    return rsx_fail(err, "%s: submesh %lu: no submesh record", where,
                    number);
  if (s->record_size < RSX_SUBMESH_RECORD_MIN)
    return rsx_fail(err, "%s: submesh %lu: submesh record is 0x%lx bytes, "
                    "shorter than 0x%x", where, number,
                    (unsigned long)s->record_size, RSX_SUBMESH_RECORD_MIN);
  /* first + count <= index_count, written so that it cannot overflow */
  if (s->index_count > m->index_count ||
      s->first_index > m->index_count - s->index_count)
    return rsx_fail(err, "%s: submesh %lu: first index field 0x%lx + "
                    "count %lu lie outside the mesh's index buffer (%lu "
                    "indices)", where, number,
                    (unsigned long)s->first_index,
                    (unsigned long)s->index_count,
                    (unsigned long)m->index_count);
  if (m->primitive == RSX_TRIANGLES && s->index_count % 3 != 0)
    return rsx_fail(err, "%s: submesh %lu: index count %lu of a triangle "
                    "list is not a multiple of 3", where, number,
                    (unsigned long)s->index_count);
  if (s->material != RSX_NONE && s->material >= material_count)
    return rsx_fail(err, "%s: submesh %lu: material field 0x%lx lies "
                    "outside the material table (%lu %s)", where,
                    number, (unsigned long)s->material,
                    (unsigned long)material_count,
                    material_count == 1 ? "entry" : "entries");
  return 0;
}

/* Selector byte i names the stored set feeding logical UV i; 0xFF keeps
** set i. Only a byte that names a set explicitly is a finding when the
** mask lacks it: 0xFF on a mesh with fewer sets is the ordinary case (the
** note's ffffffff on masks with one UV set). */
static void sel_derive(rsx_submesh *s, uint32_t mask)
{
  int i;
  s->findings = 0;
  for (i = 0; i < 4; i++) {
    uint8_t b = s->record[RSX_SELECTOR_OFFSET + i];
    int set = b == 0xFF ? i : b <= 3 ? b : SELECTOR_ABSENT;
    s->selector[i] = b;
    if (set == SELECTOR_ABSENT)
      s->findings |= RSX_FIND_SELECTOR_BYTE;
    else if (!(mask & (1u << (RSX_UV0 + set)))) {
      if (b != 0xFF) s->findings |= RSX_FIND_SELECTOR_SET;
      set = SELECTOR_ABSENT;
    }
    s->uv_set[i] = set;
  }
}

/* 1 when none of the n big-endian u16 at p is vc or more but restart (vc
** 1 to 0xFFFF; restart 0x10000 for none), else 0: the caller counts them.
** Eight at a time where the compiler has vectors (GCC and clang;
** RSX_MESH_PLAIN for the plain loop), the rest one by one. */
static int idx_clean16(const uint8_t *p, uint32_t n, uint32_t vc,
                       uint32_t restart)
{
  uint32_t i = 0;
#if defined(__GNUC__) && !defined(RSX_MESH_PLAIN)
  typedef uint16_t u16x8 __attribute__((vector_size(16)));
  /* above top and not skip; with no restart, skip 0, which is never
  ** above top */
  const uint16_t top = (uint16_t)(vc - 1);
  const uint16_t skip = restart <= 0xFFFFu ? (uint16_t)restart : 0;
  u16x8 any = {0, 0, 0, 0, 0, 0, 0, 0}, x;
  int k;
  for (; i + 8 <= n; i += 8) {
    memcpy(&x, p + (size_t)i * 2, sizeof x);
    x = (u16x8)((x << 8) | (x >> 8)); /* big-endian: the bytes swapped */
    any |= (u16x8)(x > top) & (u16x8)(x != skip);
  }
  for (k = 0; k < 8; k++)
    if (any[k]) return 0;
#endif
  for (; i < n; i++) {
    uint32_t v = rsx_be16(p + (size_t)i * 2);
    if (v >= vc && v != restart) return 0;
  }
  return 1;
}

/* Counts the indices not below the vertex count (a strip's restart value
** excepted) and finds the first. A branch-free count first, since almost
** every buffer is clean; the position is sought only when one is bad. */
static void idx_scan(rsx_mesh *m)
{
  const uint8_t *p = m->indices;
  uint32_t n = m->index_count, vc = m->vertex_count, bad = 0, i;
  int strip = m->primitive == RSX_STRIP;
  if (m->index_size == 2) {
    uint32_t restart = strip ? 0xFFFFu : 0x10000u; /* never a u16 value */
    if (vc > 0xFFFFu || (vc > 0 && idx_clean16(p, n, vc, restart))) {
      m->bad_index_count = 0; /* no u16 value reaches the count */
      m->first_bad_index = 0;
      return;
    }
    for (i = 0; i < n; i++) {
      uint32_t v = rsx_be16(p + (size_t)i * 2);
      bad += (uint32_t)(v >= vc && v != restart);
    }
  } else {
    for (i = 0; i < n; i++) {
      uint32_t v = rsx_be32(p + (size_t)i * 4);
      bad += (uint32_t)(v >= vc && !(strip && v == 0xFFFFFFFFu));
    }
  }
  m->bad_index_count = bad;
  m->first_bad_index = 0;
  if (bad == 0) return;
  for (i = 0; i < n; i++) {
    uint32_t v = rsx_mesh_index(m, i);
    uint32_t restart = m->index_size == 2 ? 0xFFFFu : 0xFFFFFFFFu;
    if (v >= vc && !(strip && v == restart)) break;
  }
  m->first_bad_index = i;
}

int rsx_mesh_check(rsx_mesh *m, uint32_t material_count, const char *where,
                   rsx_error *err)
{
  char label[LABEL_MAX];
  uint32_t i;
  const rsx_format *f = &m->format;
  if (!where) {
    rsx_mesh_label(m, label, sizeof label);
    where = label;
  }
  if (!m->meta)
    return rsx_fail(err, "%s: no metadata record", where);
  if (m->meta_size < RSX_META_MIN)
    return rsx_fail(err, "%s: metadata record is 0x%lx bytes, shorter than "
                    "0x%x", where, (unsigned long)m->meta_size,
                    RSX_META_MIN);
  if (m->index_size != 2 && m->index_size != 4)
    return rsx_fail(err, "%s: index size %u, not 2 or 4", where,
                    (unsigned)m->index_size);
  if (m->primitive != RSX_TRIANGLES && m->primitive != RSX_STRIP)
    return rsx_fail(err, "%s: primitive %u, not 0 (triangle list) or 1 "
                    "(triangle strip)", where, (unsigned)m->primitive);
  /* A view that is missing but would hold bytes is the caller's slip. */
  if (!m->mmp && m->vertex_count && m->mmp_stride)
    return rsx_fail(err, "%s: no MMP stream for %lu vertices", where,
                    (unsigned long)m->vertex_count);
  if (!m->mgp && m->vertex_count && m->mgp_stride)
    return rsx_fail(err, "%s: no MGP stream for %lu vertices", where,
                    (unsigned long)m->vertex_count);
  if (!m->indices && m->index_count)
    return rsx_fail(err, "%s: no index buffer for %lu indices", where,
                    (unsigned long)m->index_count);
  if (!m->submeshes && m->submesh_count)
    return rsx_fail(err, "%s: no submeshes for a count of %lu", where,
                    (unsigned long)m->submesh_count);
  for (i = 0; i < m->submesh_count; i++)
    if (chk_submesh(m, &m->submeshes[i], (unsigned long)i + 1,
                    material_count, where, err))
      return -1;

  m->mask = rsx_be32(m->meta + RSX_MASK_OFFSET);
  rsx_format_init(&m->format, m->mask);
  m->findings = 0;
  if (m->mmp_stride != f->mmp_stride) m->findings |= RSX_FIND_MMP_STRIDE;
  /* a mask with no MGP attribute implies an MGP stride of 0 */
  if (m->mgp_stride != f->mgp_stride) m->findings |= RSX_FIND_MGP_STRIDE;
  if (!(m->mask & (1u << RSX_POSITION)))
    m->findings |= RSX_FIND_NO_POSITION;
  if (f->undefined_bits)
    m->findings |= RSX_FIND_UNDEFINED_BITS;
  for (i = 0; i < m->submesh_count; i++) {
    sel_derive(&m->submeshes[i], m->mask);
    if (m->submeshes[i].findings) m->findings |= RSX_FIND_SELECTOR;
  }
  idx_scan(m);
  if (m->bad_index_count) m->findings |= RSX_FIND_INDEX_RANGE;
  return 0;
}

/* ---------------------------------------------------------- decoding */

/* The finding that keeps kind (present in the mask) from decoding, 0 if
** none: a stream whose stored stride is not the implied one cannot be
** addressed, and the MGP offsets of a mask with unknown bits are unknown. */
static unsigned dec_blocking(const rsx_mesh *m, const rsx_attr_info *info)
{
  static const unsigned mmp[] = {RSX_FIND_MMP_STRIDE, RSX_FIND_NO_POSITION};
  static const unsigned mgp[] = {RSX_FIND_MGP_STRIDE,
                                 RSX_FIND_UNDEFINED_BITS};
  const unsigned *which = info->stream == RSX_MMP ? mmp : mgp;
  int i;
  for (i = 0; i < 2; i++)
    if (m->findings & which[i]) return which[i];
  return 0;
}

int rsx_mesh_can_decode(const rsx_mesh *m, int kind, rsx_error *err)
{
  char label[LABEL_MAX];
  const rsx_attr_info *info, *row;
  unsigned bit;
  row = rsx_attr(kind, 1);
  info = row ? m->format.attr[kind] : NULL;
  bit = info ? dec_blocking(m, info) : 0;
  if (info && !bit) return 0;
  /* the label only for a message: callers decode a vertex at a time */
  rsx_mesh_label(m, label, sizeof label);
  if (!row)
    return rsx_fail(err, "%s: no attribute kind %d", label, kind);
  if (!info)
    return rsx_fail(err, "%s: mask 0x%08lx has no %s", label,
                    (unsigned long)m->mask, row->name);
  {
    char why[256];
    rsx_finding_describe(m, bit, why, sizeof why);
    return rsx_fail(err, "%s: cannot decode %s: %s: %s", label, info->name,
                    rsx_finding_name(bit), why);
  }
}

int rsx_mesh_decode(const rsx_mesh *m, int kind, uint32_t first, uint32_t n,
                    float *out, rsx_error *err)
{
  const rsx_attr_info *info;
  const uint8_t *p;
  size_t stride;
  uint32_t v;
  if (rsx_mesh_can_decode(m, kind, err)) return -1;
  info = m->format.attr[kind];
  if (n > m->vertex_count || first > m->vertex_count - n) {
    char label[LABEL_MAX];
    rsx_mesh_label(m, label, sizeof label);
    /* as Lua's 1-based inclusive range i..j */
    return rsx_fail(err, "%s: %s: vertices %llu..%llu run past the vertex "
                    "count %lu", label, info->name,
                    (unsigned long long)first + 1,
                    (unsigned long long)first + n,
                    (unsigned long)m->vertex_count);
  }
  if (n == 0) return 0;
  p = rsx_mesh_vertex(m, kind, first);
  stride = info->stream == RSX_MMP ? m->mmp_stride : m->mgp_stride;
  /* The common rows get their own loops, free of the per-value switch of
  ** rsx_decode_value; the rare ones go through it. */
  if (info->type == RSX_TYPE_F && info->count == 3) {
    for (v = 0; v < n; v++, p += stride, out += 3) {
      out[0] = dec_f32(p);
      out[1] = dec_f32(p + 4);
      out[2] = dec_f32(p + 8);
    }
  } else if (info->type == RSX_TYPE_CMP) {
    for (v = 0; v < n; v++, p += stride, out += 3)
      dec_cmp(rsx_be32(p), out);
  } else if (info->type == RSX_TYPE_SF && info->count == 2) {
    for (v = 0; v < n; v++, p += stride, out += 2) {
      out[0] = dec_half(rsx_be16(p));
      out[1] = dec_half(rsx_be16(p + 2));
    }
  } else {
    int c = info->components;
    for (v = 0; v < n; v++, p += stride, out += c)
      rsx_decode_value(info, p, out);
  }
  return 0;
}
