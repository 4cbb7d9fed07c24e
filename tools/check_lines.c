/* tools/check_lines.c - lines of a check file, read with read() so that the
 * reader can tell whether the next line is already there (poll with no
 * wait) before committing to a blocking read. */
#include "check_lines.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define READ_SIZE (64 * 1024)

void check_lines_init(struct check_lines *lines, int fd) {
  *lines = (struct check_lines){.fd = fd};
}

void check_lines_free(struct check_lines *lines) {
  free(lines->buffer);
  free(lines->line);
  *lines = (struct check_lines){.fd = -1};
}

static void *grow(void *memory, size_t size) {
  void *grown = realloc(memory, size);
  if (!grown) {
    cli_error("%s", strerror(ENOMEM));
    exit(1);
  }
  return grown;
}

/* Copies count buffered bytes out as the current line. */
static void take_line(struct check_lines *lines, size_t count, char **line, size_t *length) {
  if (count + 1 > lines->line_capacity) {
    lines->line_capacity = count + 1;
    lines->line = grow(lines->line, lines->line_capacity);
  }
  memcpy(lines->line, lines->buffer + lines->start, count);
  lines->line[count] = '\0';
  lines->start += count;
  *line = lines->line, *length = count;
}

/* Whether a read would return at once. */
static int readable_now(int fd) {
  struct pollfd poll_fd = {.fd = fd, .events = POLLIN};
  int got;
  while ((got = poll(&poll_fd, 1, 0)) < 0 && errno == EINTR) continue;
  return got != 0;
}

int check_lines_next(struct check_lines *lines, char **line, size_t *length, int may_wait) {
  for (;;) {
    const size_t buffered = lines->end - lines->start;
    const char *newline = buffered ? memchr(lines->buffer + lines->start, '\n', buffered) : NULL;
    if (newline) {
      take_line(lines, (size_t)(newline - (lines->buffer + lines->start)) + 1, line, length);
      return CHECK_LINES_LINE;
    }
    if (lines->at_end || lines->error) {
      if (!buffered || lines->error) return CHECK_LINES_END;
      take_line(lines, buffered, line, length);
      return CHECK_LINES_LINE;
    }
    if (!may_wait && !readable_now(lines->fd)) return CHECK_LINES_NOT_YET;
    /* Room for one more read: move what is left to the front, then grow. */
    if (lines->start) memmove(lines->buffer, lines->buffer + lines->start, buffered);
    lines->start = 0, lines->end = buffered;
    if (lines->capacity - lines->end < READ_SIZE) {
      lines->capacity = lines->end + READ_SIZE;
      lines->buffer = grow(lines->buffer, lines->capacity);
    }
    const ssize_t got = read(lines->fd, lines->buffer + lines->end, lines->capacity - lines->end);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0)
      lines->error = errno;
    else if (got == 0)
      lines->at_end = 1;
    else
      lines->end += (size_t)got;
  }
}
