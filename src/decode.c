/* decode.c - the decoders: float32, binary16, CMP, colour bytes, S32K */
#include "rsxmesh.h"
#include "decode.h"

float rsx_f32(const uint8_t *p)
{
  return dec_f32(p);
}

float rsx_half(uint16_t h)
{
  return dec_half(h);
}

void rsx_cmp(uint32_t v, float out[3])
{
  dec_cmp(v, out);
}

float rsx_ub(uint8_t b)
{
  return (float)b / 255.0f;
}

void rsx_decode_value(const rsx_attr_info *info, const uint8_t *p,
                      float *out)
{
  /* size_t i keeps the byte offsets in pointer arithmetic's width */
  size_t i, n = info->count > 0 ? (size_t)info->count : 0;
  switch (info->type) {
  case RSX_TYPE_F:
    for (i = 0; i < n; i++) out[i] = rsx_f32(p + 4 * i);
    break;
  case RSX_TYPE_SF:
    for (i = 0; i < n; i++) out[i] = rsx_half(rsx_be16(p + 2 * i));
    break;
  case RSX_TYPE_UB:
    for (i = 0; i < n; i++) out[i] = rsx_ub(p[i]);
    break;
  case RSX_TYPE_S32K:
    for (i = 0; i < n; i++)
      out[i] = (float)dec_signed(rsx_be16(p + 2 * i), 16);
    break;
  case RSX_TYPE_CMP:
    for (i = 0; i < n; i++)
      rsx_cmp(rsx_be32(p + 4 * i), out + 3 * i);
    break;
  default:
    /* rows come from the format table, which has no other type */
    break;
  }
}
