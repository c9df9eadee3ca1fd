/*
** json.c - rsxmesh.json_text(value, opts): the JSON text of a Lua value,
** indented, keys in a fixed order; the writer under rsxmesh.json
** (lua/rsxmesh/json.lua), in C, since a glTF document of a disc holds
** hundreds of thousands of objects.
**
** Tables are objects, or arrays when they have a [1] or are opts.empty;
** opts.null is null. An object's keys are ordered by opts.order: a table
** of ranks (key -> number: ranked keys first, by rank, then the others),
** a comparator function (as table.sort's), or nil; keys of equal rank
** sort as Lua's < sorts strings. Numbers: integers as %d; floats as the
** shortest text that reads back as the same float32, or with opts.doubles
** as the same double in 15, 16 or 17 digits. JSON has no infinity nor
** NaN: one is an error, or with opts.non_finite = "string" the string
** "inf", "-inf" or "nan" (and its array is no array of numbers: one item
** a line). A string that is not UTF-8 is read as Latin-1.
** Tables are read raw (lua_next, lua_rawgeti, lua_rawget), as the
** values they hold: no __index, __len or __pairs runs, so a table whose
** __index answers every key is written as what it holds (an endless
** array is not possible), and nothing but opts.order's comparator (and a
** finalizer) runs Lua code while the text is made.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsxlua.h"

#define JS_DEPTH 200 /* deeper is a cycle, or no document of ours */

/* The text grows in a block that a userdata owns, so that an error
** anywhere frees it (a luaL_Buffer would need the stack left alone). */
typedef struct js_text {
  char *p;
  size_t n, cap;
} js_text;

static int js_text_gc(lua_State *L)
{
  js_text *t = lua_touserdata(L, 1);
  free(t->p);
  t->p = NULL;
  return 0;
}

typedef struct js {
  lua_State *L;
  js_text *t;
  int order, empty, null; /* stack indices, 0 if none */
  int order_is_fn, doubles, non_finite; /* non_finite: as strings */
} js;

static char *js_room(js *w, size_t size)
{
  js_text *t = w->t;
  if (t->cap - t->n < size) {
    size_t cap = t->cap ? t->cap : 4096;
    char *p;
    while (cap - t->n < size) {
      if (cap > SIZE_MAX / 2) luaL_error(w->L, "json: text too long");
      cap *= 2;
    }
    p = realloc(t->p, cap);
    if (p == NULL) luaL_error(w->L, "json: out of memory");
    t->p = p;
    t->cap = cap;
  }
  return t->p + t->n;
}

static void js_add(js *w, const char *s, size_t len)
{
  memcpy(js_room(w, len), s, len);
  w->t->n += len;
}

#define js_lit(w, s) js_add((w), "" s, sizeof(s) - 1)

static void js_indent(js *w, int depth)
{
  char *p = js_room(w, 2 * (size_t)depth);
  memset(p, ' ', 2 * (size_t)depth);
  w->t->n += 2 * (size_t)depth;
}

/* Is s (of len bytes, NUL-terminated as Lua strings are) valid UTF-8 as
** Lua's utf8.len sees it: no overlong forms, nothing past U+10FFFF, no
** surrogates? */
static int js_utf8(const unsigned char *s, size_t len)
{
  static const unsigned long limits[] = {
    ~0ul, 0x80, 0x800, 0x10000ul, 0x200000ul, 0x4000000ul};
  const unsigned char *end = s + len;
  while (s < end) {
    unsigned c = s[0];
    unsigned long code = c;
    if (c >= 0x80) {
      int count = 0;
      code = 0;
      for (; c & 0x40; c <<= 1) {
        unsigned cc = s[++count]; /* the NUL ends a truncated form */
        if ((cc & 0xC0) != 0x80) return 0;
        code = (code << 6) | (cc & 0x3F);
      }
      code |= (unsigned long)(c & 0x7F) << (count * 5);
      if (count > 5 || code > 0x7FFFFFFFul || code < limits[count])
        return 0;
      s += count;
    }
    if (code > 0x10FFFFul || (code >= 0xD800 && code <= 0xDFFF)) return 0;
    s++;
  }
  return 1;
}

static void js_string(js *w, const char *s, size_t len)
{
  static const char hex[] = "0123456789abcdef";
  int latin1 = !js_utf8((const unsigned char *)s, len);
  size_t i;
  /* at most 6 bytes a byte (\u00XX), 2 for a Latin-1 byte */
  char *p = js_room(w, 6 * len + 2), *start = p;
  *p++ = '"';
  for (i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      *p++ = '\\';
      *p++ = (char)c;
    } else if (c < 0x20 || c == 0x7F) {
      memcpy(p, "\\u00", 4);
      p[4] = hex[c >> 4];
      p[5] = hex[c & 15];
      p += 6;
    } else if (c >= 0x80 && latin1) {
      *p++ = (char)(0xC0 | (c >> 6));
      *p++ = (char)(0x80 | (c & 0x3F));
    } else {
      *p++ = (char)c;
    }
  }
  *p++ = '"';
  w->t->n += (size_t)(p - start);
}

static void js_number(js *w, int idx)
{
  char buf[48];
  int len;
  if (lua_isinteger(w->L, idx)) {
    /* %d by hand: snprintf's format parsing was a tenth of a glTF */
    lua_Integer v = lua_tointeger(w->L, idx);
    lua_Unsigned u = v < 0 ? 0u - (lua_Unsigned)v : (lua_Unsigned)v;
    char *p = buf + sizeof buf;
    do {
      *--p = (char)('0' + u % 10);
      u /= 10;
    } while (u != 0);
    if (v < 0) *--p = '-';
    js_add(w, p, (size_t)(buf + sizeof buf - p));
    return;
  } else {
    double x = (double)lua_tonumber(w->L, idx);
    if (!isfinite(x)) {
      if (!w->non_finite)
        luaL_error(w->L, "json: a JSON number must be finite");
      if (isnan(x))
        js_lit(w, "\"nan\"");
      else if (x > 0)
        js_lit(w, "\"inf\"");
      else
        js_lit(w, "\"-inf\"");
      return;
    }
    if (w->doubles) {
      /* the shortest of %.15g, %.16g and %.17g that reads back as x */
      int digits;
      for (digits = 15; digits < 17; digits++) {
        len = snprintf(buf, sizeof buf, "%.*g", digits, x);
        if (strtod(buf, NULL) == x) break;
      }
      if (digits == 17) len = snprintf(buf, sizeof buf, "%.17g", x);
    } else {
      len = (int)rsx_format_float((float)x, buf);
    }
  }
  js_add(w, buf, (size_t)len);
}

static void js_value(js *w, int idx, int depth);

/* Is the value at idx a number written as a number? */
static int js_is_number(js *w, int idx)
{
  if (lua_type(w->L, idx) != LUA_TNUMBER) return 0;
  return !w->non_finite || lua_isinteger(w->L, idx)
    || isfinite((double)lua_tonumber(w->L, idx));
}

/* Is the value at idx the sentinel at ref (0: none)? */
static int js_is(js *w, int idx, int ref)
{
  return ref != 0 && lua_rawequal(w->L, idx, ref);
}

static void js_array(js *w, int idx, int depth)
{
  lua_State *L = w->L;
  lua_Integer i, n = 0;
  int numbers = 1;
  while (lua_rawgeti(L, idx, n + 1) != LUA_TNIL) {
    if (!js_is_number(w, -1)) numbers = 0;
    lua_pop(L, 1);
    n++;
  }
  lua_pop(L, 1);
  if (numbers) { /* on one line: min, max, node lists */
    js_lit(w, "[");
    for (i = 1; i <= n; i++) {
      lua_rawgeti(L, idx, i);
      if (i > 1) js_lit(w, ", ");
      js_number(w, lua_gettop(L));
      lua_pop(L, 1);
    }
    js_lit(w, "]");
    return;
  }
  js_lit(w, "[\n");
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, idx, i);
    js_indent(w, depth + 1);
    js_value(w, lua_gettop(L), depth + 1);
    lua_pop(L, 1);
    if (i < n)
      js_lit(w, ",\n");
    else
      js_lit(w, "\n");
  }
  js_indent(w, depth);
  js_lit(w, "]");
}

typedef struct js_key {
  const char *s;
  size_t len;
  lua_Number rank;
} js_key;

/* Lua's < on two strings in the C locale: bytes, then length. */
static int js_strless(const js_key *a, const js_key *b)
{
  size_t n = a->len < b->len ? a->len : b->len;
  int c = memcmp(a->s, b->s, n);
  return c != 0 ? c < 0 : a->len < b->len;
}

static int js_before(js *w, const js_key *a, const js_key *b)
{
  if (w->order_is_fn) {
    int r;
    lua_pushvalue(w->L, w->order);
    lua_pushlstring(w->L, a->s, a->len);
    lua_pushlstring(w->L, b->s, b->len);
    lua_call(w->L, 2, 1);
    r = lua_toboolean(w->L, -1);
    lua_pop(w->L, 1);
    return r;
  }
  if (a->rank != b->rank) return a->rank < b->rank;
  return js_strless(a, b);
}

static void js_object(js *w, int idx, int depth)
{
  lua_State *L = w->L;
  js_key *keys;
  size_t n = 0, cap = 16, i;
  int anchor;
  /* the keys in a userdata on the stack: an error frees them; and the
  ** key strings in a table above it, so that Lua code run while a value
  ** is written (the comparator of opts.order, a finalizer) cannot free a
  ** key by removing it from the table written */
  keys = lua_newuserdatauv(L, cap * sizeof *keys, 0);
  lua_newtable(L);
  anchor = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    js_key k;
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING)
      luaL_error(L, "json: a JSON object key must be a string");
    if (n == cap) {
      js_key *more;
      if (cap > (SIZE_MAX / sizeof *keys) / 4)
        luaL_error(L, "json: too many keys");
      more = lua_newuserdatauv(L, 2 * cap * sizeof *keys, 0);
      memcpy(more, keys, n * sizeof *keys);
      lua_replace(L, anchor - 1); /* over the old block */
      keys = more;
      cap *= 2;
    }
    k.s = lua_tolstring(L, -1, &k.len);
    lua_pushvalue(L, -1);
    lua_rawseti(L, anchor, (lua_Integer)n + 1);
    k.rank = HUGE_VAL;
    if (w->order != 0 && !w->order_is_fn) {
      lua_pushvalue(L, -1);
      if (lua_rawget(L, w->order) == LUA_TNUMBER)
        k.rank = lua_tonumber(L, -1);
      lua_pop(L, 1);
    }
    keys[n++] = k;
  }
  if (n == 0) {
    lua_pop(L, 2);
    js_lit(w, "{}");
    return;
  }
  for (i = 1; i < n; i++) { /* insertion sort: objects have few keys */
    js_key k = keys[i];
    size_t j = i;
    while (j > 0 && js_before(w, &k, &keys[j - 1])) {
      keys[j] = keys[j - 1];
      j--;
    }
    keys[j] = k;
  }
  for (i = 0; i < n; i++) {
    if (i == 0)
      js_lit(w, "{\n");
    else
      js_lit(w, ",\n");
    js_indent(w, depth + 1);
    js_string(w, keys[i].s, keys[i].len);
    js_lit(w, ": ");
    lua_pushlstring(L, keys[i].s, keys[i].len); /* s is anchored */
    lua_rawget(L, idx);
    js_value(w, lua_gettop(L), depth + 1);
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
  js_lit(w, "\n");
  js_indent(w, depth);
  js_lit(w, "}");
}

static void js_value(js *w, int idx, int depth)
{
  lua_State *L = w->L;
  size_t len;
  const char *s;
  if (depth > JS_DEPTH)
    luaL_error(L, "json: tables nested deeper than %d (a cycle?)",
               JS_DEPTH);
  luaL_checkstack(L, 8, "json: tables nested too deep");
  if (js_is(w, idx, w->null)) {
    js_lit(w, "null");
    return;
  }
  switch (lua_type(L, idx)) {
  case LUA_TSTRING:
    s = lua_tolstring(L, idx, &len);
    js_string(w, s, len);
    break;
  case LUA_TNUMBER:
    js_number(w, idx);
    break;
  case LUA_TBOOLEAN:
    if (lua_toboolean(L, idx))
      js_lit(w, "true");
    else
      js_lit(w, "false");
    break;
  case LUA_TTABLE:
    if (js_is(w, idx, w->empty)) {
      js_lit(w, "[]");
    } else {
      int array = lua_rawgeti(L, idx, 1) != LUA_TNIL;
      lua_pop(L, 1);
      if (array)
        js_array(w, idx, depth);
      else
        js_object(w, idx, depth);
    }
    break;
  default:
    luaL_error(L, "json: cannot write a %s as JSON", luaL_typename(L, idx));
  }
}

static int json_text(lua_State *L)
{
  js w;
  lua_settop(L, 2);
  w.L = L;
  w.order = w.empty = w.null = 0;
  w.order_is_fn = w.doubles = w.non_finite = 0;
  if (!lua_isnil(L, 2)) {
    rsxlua_checktype(L, 2, LUA_TTABLE, "rsxmesh.json_text");
    lua_getfield(L, 2, "order");
    if (!lua_isnil(L, -1)) {
      w.order = lua_gettop(L);
      w.order_is_fn = lua_type(L, -1) != LUA_TTABLE;
    }
    lua_getfield(L, 2, "empty");
    if (!lua_isnil(L, -1)) w.empty = lua_gettop(L);
    lua_getfield(L, 2, "null");
    if (!lua_isnil(L, -1)) w.null = lua_gettop(L);
    lua_getfield(L, 2, "doubles");
    w.doubles = lua_toboolean(L, -1);
    lua_getfield(L, 2, "non_finite");
    if (!lua_isnil(L, -1)) {
      if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "rsxmesh.json_text: opts.non_finite must be"
                   " \"string\" or nil, got %s", luaL_typename(L, -1));
      if (strcmp(lua_tostring(L, -1), "string") != 0)
        luaL_error(L, "rsxmesh.json_text: opts.non_finite must be"
                   " \"string\" or nil, got \"%s\"", lua_tostring(L, -1));
      w.non_finite = 1;
    }
    lua_pop(L, 2);
  }
  w.t = lua_newuserdatauv(L, sizeof *w.t, 0);
  memset(w.t, 0, sizeof *w.t);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, js_text_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  js_value(&w, 1, 0);
  lua_pushlstring(L, w.t->p ? w.t->p : "", w.t->n);
  free(w.t->p);
  w.t->p = NULL;
  return 1;
}

static const luaL_Reg json_funcs[] = {
  {"json_text", json_text},
  {NULL, NULL}
};

void rsxlua_open_json(lua_State *L)
{
  luaL_setfuncs(L, json_funcs, 0);
}
