/*
** image.c - the image userdata: RGBA8 pixels, 1-based x and y from the
** top-left; rsxmesh.image, rsxmesh.read_png, img:get/set/save/bytes/close.
*/
#include <stdio.h>
#include <string.h>

#include "rsxlua.h"
#include "render.h"

/* The userdata owns its image; NULL after __gc. */
typedef struct rl_image {
  rsx_image *img;
} rl_image;

/* The image of im, raising "fname: image is freed" after a close. */
static rsx_image *img_open(lua_State *L, const rl_image *im,
                           const char *fname)
{
  if (im->img == NULL) luaL_error(L, "%s: image is freed", fname);
  return im->img;
}

rsx_image *rsxlua_checkimage(lua_State *L, int idx, const char *fname)
{
  rl_image *im = luaL_testudata(L, idx, RSXLUA_IMAGE);
  if (im == NULL) {
    const char *got = luaL_typename(L, idx);
    if (luaL_getmetafield(L, idx, "__name") == LUA_TSTRING)
      got = lua_tostring(L, -1);
    luaL_error(L, "%s: image expected, got %s", fname, got);
  }
  return img_open(L, im, fname);
}

/* An image argument (or self) of a method, checked in the binding's
** argument style: "image:paste: bad argument #1 (rsxmesh.image expected,
** got string)". */
static rsx_image *img_check(lua_State *L, int arg, const char *fname)
{
  return img_open(L, rsxlua_checkudata(L, arg, RSXLUA_IMAGE, fname), fname);
}

void rsxlua_push_image(lua_State *L, rsx_image *img)
{
  rl_image *im = lua_newuserdatauv(L, sizeof *im, 0);
  im->img = img;
  luaL_setmetatable(L, RSXLUA_IMAGE);
}

/* A new image userdata, empty first so that a memory error leaves a valid
** object, then filled; raises naming fname on a bad size. */
static rsx_image *img_new(lua_State *L, lua_Integer w, lua_Integer h,
                          const char *fname)
{
  rl_image *im = lua_newuserdatauv(L, sizeof *im, 0);
  rsx_error err;
  im->img = NULL;
  luaL_setmetatable(L, RSXLUA_IMAGE);
  rsxlua_check_size(L, w, h, fname);
  im->img = rsx_image_new((long)w, (long)h, &err);
  if (im->img == NULL) luaL_error(L, "%s: %s", fname, err.text);
  return im->img;
}

void rsxlua_check_size(lua_State *L, lua_Integer w, lua_Integer h,
                       const char *fname)
{
  rsx_error err;
  /* as lua_Integer first: a long may have 32 bits (Windows) */
  if (w < 1 || w > RSX_IMAGE_MAX_SIDE)
    luaL_error(L, "%s: width %I out of range 1..%d", fname, w,
               RSX_IMAGE_MAX_SIDE);
  if (h < 1 || h > RSX_IMAGE_MAX_SIDE)
    luaL_error(L, "%s: height %I out of range 1..%d", fname, h,
               RSX_IMAGE_MAX_SIDE);
  if (rsx_image_check_size((long)w, (long)h, fname, &err) != 0)
    luaL_error(L, "%s", err.text);
}

/* A channel value 0..255 at idx, raising with its name. */
static uint8_t img_channel(lua_State *L, int idx, const char *fname,
                          const char *name)
{
  lua_Integer v = rsxlua_checkinteger(L, idx, fname);
  if (v < 0 || v > 255)
    luaL_error(L, "%s: %s %I out of range 0..255", fname, name,
               (LUAI_UACINT)v);
  return (uint8_t)v;
}

/* {r, g, b [, a]} at idx into rgba (a defaults to 255). */
void rsxlua_checkcolour(lua_State *L, int idx, const char *fname,
                        const char *what, uint8_t rgba[4])
{
  static const char *const names[] = {"r", "g", "b", "a"};
  int i;
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx))
    luaL_error(L, "%s: %s must be a table {r, g, b [, a]}", fname, what);
  for (i = 0; i < 4; i++) {
    lua_Integer v;
    int isnum;
    lua_geti(L, idx, i + 1);
    if (i == 3 && lua_isnil(L, -1)) {
      rgba[3] = 255;
      lua_pop(L, 1);
      break;
    }
    v = lua_tointegerx(L, -1, &isnum);
    if (!isnum || v < 0 || v > 255)
      luaL_error(L, "%s: %s.%s (%s[%d]) must be an integer 0..255", fname,
                 what, names[i], what, i + 1);
    rgba[i] = (uint8_t)v;
    lua_pop(L, 1);
  }
}

/* ---------------------------------------------------------- functions */

/* rsxmesh.image(w, h [, fill]): fill is a colour {r, g, b [, a]} or a
** string of w * h * 4 bytes (as img:bytes() gives); else transparent
** black. */
static int f_image(lua_State *L)
{
  lua_Integer w = rsxlua_checkinteger(L, 1, "rsxmesh.image");
  lua_Integer h = rsxlua_checkinteger(L, 2, "rsxmesh.image");
  rsx_image *img;
  size_t i, n;
  if (lua_type(L, 3) == LUA_TSTRING) {
    const char *s = lua_tolstring(L, 3, &n);
    img = img_new(L, w, h, "rsxmesh.image");
    if (n != (size_t)img->width * img->height * 4)
      return luaL_error(L, "rsxmesh.image: %I bytes of pixels, not %I "
                        "(%I x %I x 4)", (LUAI_UACINT)n,
                        (LUAI_UACINT)img->width * img->height * 4,
                        (LUAI_UACINT)w, (LUAI_UACINT)h);
    memcpy(img->rgba, s, n);
  } else if (!lua_isnoneornil(L, 3)) {
    uint8_t c[4];
    rsxlua_checkcolour(L, 3, "rsxmesh.image", "fill", c);
    img = img_new(L, w, h, "rsxmesh.image");
    n = (size_t)img->width * img->height;
    for (i = 0; i < n; i++) memcpy(img->rgba + 4 * i, c, 4);
  } else {
    img_new(L, w, h, "rsxmesh.image");
  }
  return 1;
}

static int f_read_png(lua_State *L)
{
  const char *path = rsxlua_checklstring(L, 1, NULL, "rsxmesh.read_png");
  rsx_error err;
  rsx_image *img = rsx_png_read(path, &err);
  if (img == NULL) return rsxlua_fail(L, err.text);
  rsxlua_push_image(L, img);
  return 1;
}

/* ------------------------------------------------------------ methods */

/* x and y at idx, idx + 1, checked against the image: 0-based offset. */
static size_t img_xy(lua_State *L, const rsx_image *img, int idx,
                     const char *fname)
{
  lua_Integer x = rsxlua_checkinteger(L, idx, fname);
  lua_Integer y = rsxlua_checkinteger(L, idx + 1, fname);
  if (x < 1 || x > img->width)
    luaL_error(L, "%s: x %I out of range 1..%d", fname, (LUAI_UACINT)x,
               img->width);
  if (y < 1 || y > img->height)
    luaL_error(L, "%s: y %I out of range 1..%d", fname, (LUAI_UACINT)y,
               img->height);
  return ((size_t)(y - 1) * img->width + (size_t)(x - 1)) * 4;
}

static int i_get(lua_State *L)
{
  rsx_image *img = img_check(L, 1, "image:get");
  const uint8_t *p = img->rgba + img_xy(L, img, 2, "image:get");
  int i;
  for (i = 0; i < 4; i++) lua_pushinteger(L, p[i]);
  return 4;
}

static int i_set(lua_State *L)
{
  rsx_image *img = img_check(L, 1, "image:set");
  size_t at = img_xy(L, img, 2, "image:set");
  uint8_t c[4];
  c[0] = img_channel(L, 4, "image:set", "r");
  c[1] = img_channel(L, 5, "image:set", "g");
  c[2] = img_channel(L, 6, "image:set", "b");
  c[3] = lua_isnoneornil(L, 7) ? 255 : img_channel(L, 7, "image:set", "a");
  memcpy(img->rgba + at, c, 4);
  return 0;
}

/* img:paste(src, x, y): src's pixels with its top-left at (x, y), the
** part that falls inside img; x and y any integers. src may be img: the
** rows are copied in the order that reads each before it is written
** over, each with memmove. */
static int i_paste(lua_State *L)
{
  rsx_image *dst = img_check(L, 1, "image:paste");
  rsx_image *src = img_check(L, 2, "image:paste");
  lua_Integer x = rsxlua_checkinteger(L, 3, "image:paste");
  lua_Integer y = rsxlua_checkinteger(L, 4, "image:paste");
  lua_Integer x0, y0, ya, yb, xa, xb, row, step;
  /* nothing falls inside: compared before any arithmetic, which cannot
  ** overflow after (both then within the images' sizes) */
  if (x > dst->width || y > dst->height || x <= -(lua_Integer)src->width ||
      y <= -(lua_Integer)src->height)
    return 0;
  x0 = x - 1;
  y0 = y - 1;
  xa = x0 < 0 ? 0 : x0;
  xb = x0 + src->width > dst->width ? dst->width : x0 + src->width;
  ya = y0 < 0 ? 0 : y0;
  yb = y0 + src->height > dst->height ? dst->height : y0 + src->height;
  if (xa >= xb || ya >= yb) return 0;
  /* moved down within one image: the bottom row first */
  step = y0 > 0 ? -1 : 1;
  for (row = step > 0 ? ya : yb - 1; row >= ya && row < yb; row += step)
    memmove(dst->rgba + ((size_t)row * dst->width + (size_t)xa) * 4,
            src->rgba + ((size_t)(row - y0) * src->width +
                         (size_t)(xa - x0)) * 4,
            (size_t)(xb - xa) * 4);
  return 0;
}

/* An end of a line at arg: within 2^24 of the image (the loop's count
** stays far from overflow), checked before any arithmetic; 0-based. */
static lua_Integer img_line_end(lua_State *L, int arg)
{
  lua_Integer v = rsxlua_checkinteger(L, arg, "image:line");
  if (v < -(1 << 24) || v > (1 << 24))
    luaL_error(L, "image:line: an end is too far from the image (%I)", v);
  return v - 1;
}

/* img:line(x1, y1, x2, y2, r, g, b [, a]): the pixels of a line from
** (x1, y1) to (x2, y2), both drawn (Bresenham), clipped to the image. */
static int i_line(lua_State *L)
{
  rsx_image *img = img_check(L, 1, "image:line");
  lua_Integer x = img_line_end(L, 2);
  lua_Integer y = img_line_end(L, 3);
  lua_Integer x1 = img_line_end(L, 4);
  lua_Integer y1 = img_line_end(L, 5);
  lua_Integer dx, dy, sx, sy, e, n;
  uint8_t c[4];
  c[0] = img_channel(L, 6, "image:line", "r");
  c[1] = img_channel(L, 7, "image:line", "g");
  c[2] = img_channel(L, 8, "image:line", "b");
  c[3] = lua_isnoneornil(L, 9) ? 255 : img_channel(L, 9, "image:line", "a");
  dx = x1 > x ? x1 - x : x - x1;
  dy = y1 > y ? y1 - y : y - y1;
  sx = x < x1 ? 1 : -1;
  sy = y < y1 ? 1 : -1;
  e = dx - dy;
  for (n = 0; n <= dx + dy + 1; n++) {
    lua_Integer e2 = 2 * e;
    if (x >= 0 && x < img->width && y >= 0 && y < img->height)
      memcpy(img->rgba + ((size_t)y * img->width + (size_t)x) * 4, c, 4);
    if (x == x1 && y == y1) break;
    if (e2 > -dy) {
      e -= dy;
      x += sx;
    }
    if (e2 < dx) {
      e += dx;
      y += sy;
    }
  }
  return 0;
}

static int i_save(lua_State *L)
{
  const char *path = rsxlua_checklstring(L, 2, NULL, "image:save");
  /* after the path: a number made a string is an allocation, and a
  ** finalizer it runs may close the image */
  rsx_image *img = img_check(L, 1, "image:save");
  rsx_error err;
  if (rsx_png_save(img, path, &err) != 0) return rsxlua_fail(L, err.text);
  lua_pushboolean(L, 1);
  return 1;
}

static int i_bytes(lua_State *L)
{
  rsx_image *img = img_check(L, 1, "image:bytes");
  lua_pushlstring(L, (const char *)img->rgba,
                  (size_t)img->width * img->height * 4);
  return 1;
}

/* close, __close and __gc: frees the pixels; idempotent */
static int i_close(lua_State *L)
{
  rl_image *im = rsxlua_checkudata(L, 1, RSXLUA_IMAGE, "image:close");
  rsx_image *img = im->img;
  im->img = NULL; /* marked closed first, as liolib's f_gc */
  rsx_image_free(img);
  return 0;
}

static int i_tostring(lua_State *L)
{
  rl_image *im = rsxlua_checkudata(L, 1, RSXLUA_IMAGE,
                                   "image:__tostring");
  if (im->img == NULL)
    lua_pushliteral(L, "rsxmesh.image (freed)");
  else
    lua_pushfstring(L, "rsxmesh.image (%dx%d)", im->img->width,
                    im->img->height);
  return 1;
}

static int ip_width(lua_State *L)
{
  lua_pushinteger(L, img_check(L, 1, "image.width")->width);
  return 1;
}

static int ip_height(lua_State *L)
{
  lua_pushinteger(L, img_check(L, 1, "image.height")->height);
  return 1;
}

static const luaL_Reg i_meta[] = {
  {"__gc", i_close},
  {"__close", i_close},
  {"__tostring", i_tostring},
  {NULL, NULL}
};

static const luaL_Reg i_methods[] = {
  {"get", i_get},
  {"set", i_set},
  {"paste", i_paste},
  {"line", i_line},
  {"save", i_save},
  {"bytes", i_bytes},
  {"close", i_close},
  {NULL, NULL}
};

static const rl_member i_members[] = {
  {"width", ip_width},
  {"height", ip_height},
  {NULL, NULL}
};

static const luaL_Reg i_funcs[] = {
  {"image", f_image},
  {"read_png", f_read_png},
  {NULL, NULL}
};

void rsxlua_open_image(lua_State *L)
{
  rsxlua_class(L, RSXLUA_IMAGE, i_meta, i_methods, i_members);
  luaL_setfuncs(L, i_funcs, 0);
}
