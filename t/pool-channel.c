/*
** pool-channel.c - tests of the reader of a worker's reports (src/pool.c,
** rsx_channel_*): the bytes are a user script's, so every way to break
** the framing gets one message, at the channel's byte where it starts,
** and no allocation comes from a size before its bytes have come.
*/
#include "pool.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

/* Feed s (n bytes) in pieces of `piece` bytes, taking the reports as they
** come; they go into got, each followed by "|". Returns what the last
** rsx_channel_next said (-1 on a refusal, whose message is in err), or,
** after all the bytes, what rsx_channel_end says. */
static int feed(const char *s, size_t n, size_t piece, char *got,
                size_t got_size, rsx_error *err)
{
  rsx_channel c;
  size_t i = 0;
  int r = 0;
  memset(&c, 0, sizeof c);
  got[0] = '\0';
  while (i < n) {
    size_t k = n - i < piece ? n - i : piece;
    const char *report;
    size_t size;
    if (rsx_channel_add(&c, s + i, k, err) != 0) bail_out("no memory");
    i += k;
    while ((r = rsx_channel_next(&c, &report, &size, err)) == 1) {
      strncat(got, report, size < got_size - strlen(got) - 2 ? size
              : got_size - strlen(got) - 2);
      strcat(got, "|");
    }
    if (r < 0) break;
  }
  if (r == 0) r = rsx_channel_end(&c, err);
  rsx_channel_free(&c);
  return r;
}

/* Bytes s (a literal) must give the reports want and then the refusal
** message (NULL: none), whether they come whole or a byte at a time. */
#define CHECK(s, want, message, name) \
  check(s, sizeof s - 1, want, message, name)

static void check(const char *s, size_t n, const char *want,
                  const char *message, const char *name)
{
  size_t pieces[] = { 1 << 16, 1, 3 };
  size_t p;
  for (p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
    char got[256];
    rsx_error err;
    int r = feed(s, n, pieces[p], got, sizeof got, &err);
    is_str(got, want, "%s (in pieces of %zu): the reports", name,
           pieces[p]);
    if (message == NULL)
      is_int(r, 0, "%s (in pieces of %zu): no refusal", name, pieces[p]);
    else
      is_str(r < 0 ? err.text : "(none)", message,
             "%s (in pieces of %zu): the message", name, pieces[p]);
  }
}

int main(void)
{
  rsx_channel c;
  const char *report;
  size_t size;
  rsx_error err;
  char big[100];

  CHECK("0\n5\nhello3\nabc", "|hello|abc|", NULL,
        "an empty report, then two");
  CHECK("0000000002\nok", "ok|", NULL, "ten digits with leading zeros");

  /* truncated frames */
  CHECK("2\nok5\nhel", "ok|",
        "channel byte 4: the channel ended after 3 of the report's 5 bytes",
        "a report cut short");
  CHECK("2\nok12", "ok|",
        "channel byte 4: the channel ended inside a report's size ('12')",
        "a size cut short");

  /* a length larger than what follows, and huge lengths */
  CHECK("1073741824\nabcde", "",
        "channel byte 0: the channel ended after 5 of the report's "
        "1073741824 bytes", "the largest size, five bytes behind it");
  CHECK("1073741825\n", "",
        "channel byte 0: a report of 1073741825 bytes, over the limit of "
        "1073741824", "a size over the limit");
  CHECK("9999999999\n", "",
        "channel byte 0: a report of 9999999999 bytes, over the limit of "
        "1073741824", "the largest ten digits");
  CHECK("18446744073709551617\n", "",
        "channel byte 0: a report's size of more than 10 digits "
        "('18446744073')", "a size past 64 bits");
  CHECK("0\n99999999999", "|",
        "channel byte 2: a report's size of more than 10 digits "
        "('99999999999')", "eleven digits, refused before a newline");

  /* garbage between frames, and sizes that are not decimal */
  CHECK("2\nokjunk\n2\nok", "ok|",
        "channel byte 4: 'j' where a report's size (in decimal) should "
        "start", "garbage between two reports");
  CHECK("-1\n", "",
        "channel byte 0: '-' where a report's size (in decimal) should "
        "start", "a negative size");
  CHECK("\n5\nhello", "",
        "channel byte 0: '\\n' where a report's size (in decimal) should "
        "start", "a newline before the size");
  CHECK("12 \n", "",
        "channel byte 2: ' ' after a report's size, where its newline should "
        "be", "a space after the size");
  CHECK("1\nx12\xff", "x|",
        "channel byte 5: '\\xff' after a report's size, where its newline "
        "should be", "a byte that is not text, escaped");
  CHECK("1\nx\0", "x|",
        "channel byte 3: '\\x00' where a report's size (in decimal) should "
        "start", "a zero byte between reports");

  memset(big, 'A', sizeof big);
  check(big, sizeof big, "",
        "channel byte 0: 'A' where a report's size (in decimal) should "
        "start", "a long run of garbage");

  /* no allocation from a size: the buffer holds what came */
  memset(&c, 0, sizeof c);
  rsx_channel_add(&c, "1073741824\nabc", 14, &err);
  is_int(rsx_channel_next(&c, &report, &size, &err), 0,
         "a size of 1 GiB with 3 bytes behind it: more to come");
  ok(c.cap <= 256, "and the buffer holds %zu bytes, not a GiB", c.cap);
  rsx_channel_free(&c);

  /* the offsets count what was read before, across additions */
  memset(&c, 0, sizeof c);
  rsx_channel_add(&c, "3\nabc", 5, &err);
  is_int(rsx_channel_next(&c, &report, &size, &err), 1, "a report");
  ok(size == 3 && memcmp(report, "abc", 3) == 0, "its bytes");
  rsx_channel_add(&c, "x", 1, &err);
  is_int(rsx_channel_next(&c, &report, &size, &err), -1,
         "garbage after it, added later");
  is_str(err.text, "channel byte 5: 'x' where a report's size (in decimal) "
         "should start", "at the channel's byte 5");
  rsx_channel_free(&c);

  return done_testing();
}
