/* tools/standard_descriptors.c - keeps files the crisp command opens off
 * descriptors 0, 1 and 2 when it was started with them closed.
 *
 * A file opened while standard input is closed would get descriptor 0 and
 * then be read again as "-". Each closed one is taken by /dev/null opened
 * the wrong way round (write-only for 0, read-only for 1 and 2), so reading
 * "-" or writing output still fails with EBADF as on a closed descriptor. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "cli.h"

static int was_closed[3];

void cli_reserve_standard_descriptors(void) {
  for (int fd = 0; fd <= 2; fd++) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    was_closed[fd] = 1;
    const int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
    /* Lower descriptors are open by now, so got is fd unless open failed. */
    if (got >= 0 && got != fd) close(got);
  }
}

int cli_descriptor_was_closed(int fd) { return fd >= 0 && fd <= 2 && was_closed[fd]; }
