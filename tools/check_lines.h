/* tools/check_lines.h - the lines of a check file read from a descriptor,
 * with a way to ask for the next line only if it is already there, so that
 * a list arriving slowly on a pipe does not hold back results. */
#ifndef CRISP_TOOLS_CHECK_LINES_H
#define CRISP_TOOLS_CHECK_LINES_H

#include <stddef.h>

enum {
  CHECK_LINES_END = 0,      /* end of input, or a read error (error set) */
  CHECK_LINES_LINE = 1,     /* a line */
  CHECK_LINES_NOT_YET = -1, /* no whole line is available without waiting */
};

struct check_lines {
  int fd;
  char *buffer; /* bytes read, [start, end) not yet returned */
  size_t capacity, start, end;
  char *line; /* the line returned last, NUL-terminated */
  size_t line_capacity;
  int at_end;
  int error; /* errno of a failed read, else 0 */
};

void check_lines_init(struct check_lines *lines, int fd);
void check_lines_free(struct check_lines *lines);

/* Returns CHECK_LINES_LINE with *line (newline included, if it had one, then
 * a NUL; NUL bytes may occur inside) and *length (without the NUL), valid
 * until the next call. When may_wait is 0 and no whole line is buffered, it
 * reads only what can be read without blocking, and returns
 * CHECK_LINES_NOT_YET if that is not a whole line. */
int check_lines_next(struct check_lines *lines, char **line, size_t *length, int may_wait);

#endif
