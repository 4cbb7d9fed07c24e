/* test/grow_on_read.c - an LD_PRELOAD shim for test_md5sum_growing.py: makes
 * a file grow while a program reads it, at a moment fixed by the reads
 * themselves, so the test cannot depend on timing.
 *
 * CRISP_GROW_FILES names regular files, separated by ':'. The first time a
 * read() of one of them leaves its offset at the file's current end, the
 * shim appends CRISP_GROW_BYTES bytes (default 1000) of 'g' to it before
 * returning. A reader that stops at the size it saw at open() misses those
 * bytes; one that reads until read() returns 0 gets them. Each file grows
 * once per process. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_FILES 16
#define PATTERN_BYTE 'g'

struct target {
  char *path;
  dev_t device;
  ino_t inode;
  int grown;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct target targets[MAX_FILES];
static size_t target_count;
static int targets_read;

/* Under the lock: the files named in CRISP_GROW_FILES, examined once. */
static void read_targets(void) {
  if (targets_read) return;
  targets_read = 1;
  const char *list = getenv("CRISP_GROW_FILES");
  if (!list) return;
  char *copy = strdup(list), *rest = copy, *name;
  while (copy && (name = strsep(&rest, ":")) && target_count < MAX_FILES) {
    struct stat info;
    if (!*name || stat(name, &info) != 0) continue;
    targets[target_count++] = (struct target){strdup(name), info.st_dev, info.st_ino, 0};
  }
  free(copy);
}

/* Appends the bytes through raw system calls, which this shim does not see. */
static void grow(const char *path) {
  const char *text = getenv("CRISP_GROW_BYTES");
  size_t count = text ? strtoul(text, NULL, 10) : 1000;
  char bytes[4096];
  memset(bytes, PATTERN_BYTE, sizeof bytes);
  const int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return;
  while (count) {
    const long wrote = syscall(SYS_write, fd, bytes, count < sizeof bytes ? count : sizeof bytes);
    if (wrote <= 0) break;
    count -= (size_t)wrote;
  }
  syscall(SYS_close, fd);
}

/* After a read of fd: grows the file if it is a target read to its end. */
static void after_read(int fd) {
  struct stat info;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return;
  pthread_mutex_lock(&lock);
  read_targets();
  for (size_t i = 0; i < target_count; i++) {
    struct target *target = &targets[i];
    if (target->grown || target->device != info.st_dev || target->inode != info.st_ino) continue;
    if (lseek(fd, 0, SEEK_CUR) != info.st_size) continue;
    target->grown = 1;
    grow(target->path);
  }
  pthread_mutex_unlock(&lock);
}

ssize_t read(int fd, void *buffer, size_t count) {
  const ssize_t got = syscall(SYS_read, fd, buffer, count);
  if (got > 0) after_read(fd);
  return got;
}

ssize_t __read_chk(int fd, void *buffer, size_t count, size_t buffer_size) {
  if (count > buffer_size) abort();
  return read(fd, buffer, count);
}
