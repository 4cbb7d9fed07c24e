/* tools/md5sum_output.c - how crisp md5sum writes a file name on stdout:
 * as it is, or with the escapes coreutils md5sum uses when a name would
 * break its line. */
#include <stdio.h>

#include "md5sum.h"

void md5sum_put_name(const char *name, int escape) {
  if (!escape) {
    fputs(name, stdout);
    return;
  }
  for (; *name; name++) {
    switch (*name) {
      case '\\': fputs("\\\\", stdout); break;
      case '\n': fputs("\\n", stdout); break;
      case '\r': fputs("\\r", stdout); break;
      default: putchar(*name); break;
    }
  }
}
