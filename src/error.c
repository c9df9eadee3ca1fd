/* error.c - rsx_fail: one formatted message into an rsx_error */
#include "rsxmesh.h"

#include <stdarg.h>
#include <stdio.h>

int rsx_fail(rsx_error *err, const char *fmt, ...)
{
  if (err != NULL) {
    va_list ap;
    va_start(ap, fmt);
    /* vsnprintf truncates and always terminates: a long path cannot
    ** overrun the fixed buffer. */
    (void)vsnprintf(err->text, sizeof err->text, fmt, ap);
    va_end(ap);
  }
  return -1;
}
