/* tools/standard_descriptors.c - keeps files the crisp command opens off
 * descriptors 0, 1 and 2 when it was started with them closed.
 *
 * A file opened while standard input is closed would get descriptor 0 and
 * then be read again as "-". Each closed one is taken by /dev/null opened
 * the wrong way round (write-only for 0, read-only for 1 and 2), so reading
 * "-" or writing output still fails with EBADF as on a closed descriptor.
 * A name that leads to such a descriptor (/dev/stdin, /dev/fd/0,
 * /proc/self/fd/0) would open the /dev/null instead of failing: those are
 * recognised by following the name's links. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

int cli_descriptor_was_closed(int fd) {
  return fd >= 0 && fd <= 2 && was_closed[fd];
}

/* Whether directory is this process's descriptor directory: /proc/PID/fd
 * or /proc/PID/task/TID/fd, with links resolved. */
static int own_descriptor_directory(const char *directory) {
  char own[64];
  snprintf(own, sizeof own, "/proc/%ld/", (long)getpid());
  const size_t length = strlen(own);
  if (strncmp(directory, own, length)) return 0;
  const char *rest = directory + length;
  if (!strcmp(rest, "fd")) return 1;
  if (strncmp(rest, "task/", 5)) return 0;
  rest = strchr(rest + 5, '/');
  return rest && !strcmp(rest, "/fd");
}

int cli_names_closed_descriptor(const char *name) {
  if (!was_closed[0] && !was_closed[1] && !was_closed[2]) return 0;
  char path[PATH_MAX], directory[PATH_MAX], target[PATH_MAX];
  if (strlen(name) >= sizeof path) return 0;
  strcpy(path, name);
  /* Follows at most as many links as the kernel would (ELOOP after 40). */
  for (int links = 0; links < 40; links++) {
    char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (slash == path)
      strcpy(directory, "/");
    else if (slash)
      *slash = '\0', strcpy(directory, path), *slash = '/';
    else
      strcpy(directory, ".");
    char resolved[PATH_MAX];
    if (!realpath(directory, resolved)) return 0;
    if (own_descriptor_directory(resolved)) {
      char *end;
      const long fd = strtol(base, &end, 10);
      return *base && !*end && cli_descriptor_was_closed((int)fd);
    }
    if (snprintf(target, sizeof target, "%s/%s", resolved, base) >= (int)sizeof target) return 0;
    struct stat info;
    if (lstat(target, &info) != 0 || !S_ISLNK(info.st_mode)) return 0;
    char link[PATH_MAX];
    const ssize_t got = readlink(target, link, sizeof link - 1);
    if (got < 0) return 0;
    link[got] = '\0';
    if (link[0] == '/')
      strcpy(path, link);
    else if (snprintf(path, sizeof path, "%s/%s", resolved, link) >= (int)sizeof path)
      return 0;
  }
  return 0;
}
