/* tools/close_stdout.c - closes stdout at the end of crisp and crisp-bench
 * and says whether everything written reached it, so that output lost to a
 * full disk or a closed descriptor is an error, as in coreutils. */
#include "close_stdout.h"

#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>

/* errno of the first failed cli_flush_stdout, else 0. */
static int first_flush_error;

void cli_flush_stdout(void) {
  if (fflush(stdout) != 0 && !first_flush_error) first_flush_error = errno;
}

int cli_close_stdout(int was_closed) {
  const int some_pending = __fpending(stdout) != 0;
  const int earlier_failure = ferror(stdout) != 0;
  int close_failed = fclose(stdout) != 0;
  /* Closing the /dev/null that stands in for a closed stdout succeeds;
   * closing the closed descriptor itself would have failed. */
  if (was_closed) close_failed = 1, errno = EBADF;
  /* Nothing written to a closed stdout is no failure (EBADF alone). */
  if (earlier_failure || (close_failed && (some_pending || errno != EBADF))) {
    if (!close_failed) errno = first_flush_error;
    return -1;
  }
  return 0;
}
