/* tools/md5sum_output.c - how crisp md5sum writes a file name in a line:
 * as it is, or with the escapes coreutils md5sum uses when a name would
 * break its line. */
#include <stdio.h>

#include "md5sum.h"

void md5sum_put_name(FILE *out, const char *name, int escape) {
  if (!escape) {
    fputs(name, out);
    return;
  }
  for (; *name; name++) {
    switch (*name) {
      case '\\':
        fputs("\\\\", out);
        break;
      case '\n':
        fputs("\\n", out);
        break;
      case '\r':
        fputs("\\r", out);
        break;
      default:
        putc(*name, out);
        break;
    }
  }
}
