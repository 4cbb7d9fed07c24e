/* tools/md5sum_check.c - crisp md5sum -c: reads checksum lines exactly as
 * coreutils md5sum 9.1 parses them (GNU and BSD-tag formats, escaped names,
 * the "bsd reversed" one-space form), hashes the listed files through the
 * md5 pool, and prints OK / FAILED lines, warnings and the closing summary
 * in the order coreutils prints them. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <crisp/md5.h>

#include "check_lines.h"
#include "cli.h"
#include "md5_pool.h"
#include "md5sum.h"

#define HEX_DIGITS (2 * CRISP_MD5_DIGEST_SIZE)
/* Shortest valid line: the digest, a blank and a one-character name. */
#define MIN_LINE_LENGTH (HEX_DIGITS + 1 + 1)
#define TAG_NAME "MD5"

/* Whether lines read so far use the "hex name" form of BSD md5 -r (1), the
 * GNU form (0) or neither yet (-1); like coreutils, kept across files. */
static int bsd_reversed = -1;

/* One line of a check file: a file to hash, or an improperly formatted
 * line whose warning must come out in its turn. */
struct check_job {
  unsigned long line_number;
  int misformatted;
  uint8_t expected[CRISP_MD5_DIGEST_SIZE];
  char name[]; /* unescaped */
};

struct check_run {
  struct check_lines lines;
  const char *display_name; /* "standard input" or the file name */
  int is_stdin;
  const struct md5sum_options *options;
  unsigned long line_number;
  /* Written by check_next only. */
  unsigned long misformatted;
  int properly_formatted;
  /* Written by check_done only. */
  unsigned long read_failures, mismatched;
  int matched, read_stdin;
};

static int white(char c) {
  return c == ' ' || c == '\t';
}

/* Undoes \\, \n and \r in place; NULL on any other escape, a trailing
 * backslash or a NUL inside the name. */
static char *unescape(char *s, size_t length) {
  char *out = s;
  for (size_t i = 0; i < length; i++) {
    if (s[i] == '\0') return NULL;
    if (s[i] != '\\') {
      *out++ = s[i];
      continue;
    }
    if (++i == length) return NULL;
    switch (s[i]) {
      case 'n':
        *out++ = '\n';
        break;
      case 'r':
        *out++ = '\r';
        break;
      case '\\':
        *out++ = '\\';
        break;
      default:
        return NULL;
    }
  }
  if (out < s + length) *out = '\0';
  return s;
}

/* Exactly HEX_DIGITS hex digits, then the end of the string. */
static int hex_digits(const char *s) {
  for (int i = 0; i < HEX_DIGITS; i++)
    if (!isxdigit((unsigned char)s[i])) return 0;
  return s[HEX_DIGITS] == '\0';
}

/* "NAME) = HEX" after "MD5 (". */
static int split_tag(char *s, size_t length, char **hex, char **name, int escaped) {
  if (length == 0) return 0;
  size_t i = length - 1;
  while (i && s[i] != ')') i--;
  if (s[i] != ')') return 0;
  *name = s;
  if (escaped && !unescape(s, i)) return 0;
  s[i++] = '\0';
  while (white(s[i])) i++;
  if (s[i] != '=') return 0;
  i++;
  while (white(s[i])) i++;
  *hex = s + i;
  return 1;
}

/* Splits one line (already without its newline) into digest and name. */
static int split_line(char *s, size_t length, char **hex, char **name) {
  int escaped = 0;
  size_t i = 0;
  while (white(s[i])) i++;
  if (s[i] == '\\') i++, escaped = 1;
  const size_t tag_length = strlen(TAG_NAME);
  if (!strncmp(s + i, TAG_NAME, tag_length)) {
    i += tag_length;
    if (s[i] == ' ') i++;
    if (s[i] != '(') return 0;
    i++;
    return split_tag(s + i, length - i, hex, name, escaped);
  }
  if (length - i < MIN_LINE_LENGTH + (s[i] == '\\')) return 0;
  *hex = s + i;
  i += HEX_DIGITS;
  if (!white(s[i])) return 0;
  s[i++] = '\0';
  if (!hex_digits(*hex)) return 0;
  if (length - i == 1 || (s[i] != ' ' && s[i] != '*')) {
    /* Never mix the two formats: a name could start with a blank or '*'. */
    if (bsd_reversed == 0) return 0;
    bsd_reversed = 1;
  } else if (bsd_reversed != 1) {
    bsd_reversed = 0;
    i++;
  }
  *name = s + i;
  return escaped ? unescape(s + i, length - i) != NULL : 1;
}

static struct check_job *new_job(const char *name, unsigned long line_number) {
  struct check_job *job = malloc(sizeof *job + strlen(name) + 1);
  if (!job) {
    cli_error("%s", strerror(ENOMEM));
    exit(1);
  }
  job->line_number = line_number;
  job->misformatted = 0;
  strcpy(job->name, name);
  return job;
}

/* Reads lines until one that is to be reported: a file to hash, or an
 * improperly formatted line (which goes to done without a name so that its
 * warning keeps its place among the results). */
static int check_next(void *user, const char **name, void **token, int may_wait) {
  struct check_run *run = user;
  for (;;) {
    char *line;
    size_t length;
    const int got = check_lines_next(&run->lines, &line, &length, may_wait);
    if (got == CHECK_LINES_NOT_YET) return MD5_POOL_NOT_YET;
    if (got == CHECK_LINES_END) return MD5_POOL_END;
    run->line_number++;
    if (line[0] == '#') continue;
    length -= line[length - 1] == '\n';
    length -= line[length - (length > 0)] == '\r';
    if (length == 0) continue;
    line[length] = '\0';
    char *hex = NULL, *file = NULL;
    if (!split_line(line, length, &hex, &file) || (run->is_stdin && !strcmp(file, "-")) || !hex_digits(hex)) {
      run->misformatted++;
      if (!run->options->warn) continue;
      struct check_job *job = new_job("", run->line_number);
      job->misformatted = 1;
      *name = NULL;
      *token = job;
      return MD5_POOL_ITEM;
    }
    run->properly_formatted = 1;
    struct check_job *job = new_job(file, run->line_number);
    cli_unhex(job->expected, CRISP_MD5_DIGEST_SIZE, hex);
    *name = job->name;
    *token = job;
    return MD5_POOL_ITEM;
  }
}

static void check_done(void *user, void *token, const char *name, const uint8_t *digest, int error,
                       int opened) {
  struct check_run *run = user;
  struct check_job *job = token;
  const struct md5sum_options *options = run->options;
  if (job->misformatted) {
    cli_error("%s: %lu: improperly formatted %s checksum line", cli_quote(run->display_name),
              job->line_number, TAG_NAME);
    free(job);
    return;
  }
  if (!strcmp(name, "-")) run->read_stdin = 1;
  /* Escaped only when a name would break the line. */
  const int escape = !options->status && strchr(name, '\n') != NULL;
  if (!digest && options->ignore_missing && !opened && error == ENOENT) {
    free(job);
    return;
  }
  if (!digest) {
    cli_error("%s: %s", cli_quote(name), strerror(error));
    run->read_failures++;
  }
  const int match = digest && !memcmp(digest, job->expected, CRISP_MD5_DIGEST_SIZE);
  if (digest && match) run->matched = 1;
  if (digest && !match) run->mismatched++;
  if (!options->status && (!match || !options->quiet)) {
    if (escape) putchar('\\');
    md5sum_put_name(stdout, name, escape);
    printf(": %s\n", !digest ? "FAILED open or read" : match ? "OK" : "FAILED");
  }
  free(job);
}

static void plural_warning(unsigned long count, const char *one, const char *many) {
  if (count) cli_error("WARNING: %lu %s", count, count == 1 ? one : many);
}

/* The closing summary; returns 1 when this check file passed. */
static int summarize(const struct check_run *run) {
  const struct md5sum_options *options = run->options;
  if (!run->properly_formatted) {
    cli_error("%s: no properly formatted checksum lines found", cli_quote(run->display_name));
    return 0;
  }
  if (!options->status) {
    plural_warning(run->misformatted, "line is improperly formatted", "lines are improperly formatted");
    plural_warning(run->read_failures, "listed file could not be read", "listed files could not be read");
    plural_warning(run->mismatched, "computed checksum did NOT match", "computed checksums did NOT match");
    if (options->ignore_missing && !run->matched)
      cli_error("%s: no file was verified", cli_quote(run->display_name));
  }
  return run->matched && !run->mismatched && !run->read_failures && (!options->strict || !run->misformatted);
}

static int check_file(const char *file, const struct md5sum_options *options, int *read_stdin) {
  struct check_run run = {0};
  run.options = options;
  run.is_stdin = !strcmp(file, "-");
  run.display_name = run.is_stdin ? "standard input" : file;
  *read_stdin |= run.is_stdin;
  int fd = run.is_stdin ? STDIN_FILENO : -1;
  if (!run.is_stdin) {
    if (cli_names_closed_descriptor(file))
      errno = ENOENT;
    else
      fd = open(file, O_RDONLY | O_CLOEXEC);
  }
  if (fd < 0) {
    /* Kept before quoting: the first quote sets the locale, which may set
     * errno, and the arguments may be evaluated in either order. */
    const int error = errno;
    cli_error("%s: %s", cli_quote(file), strerror(error));
    return 0;
  }
  check_lines_init(&run.lines, fd);
  const int ok = md5_pool_run(check_next, check_done, NULL, &run) == 0;
  *read_stdin |= run.read_stdin;
  const int read_error = run.lines.error;
  check_lines_free(&run.lines);
  if (!run.is_stdin) close(fd);
  if (!ok || read_error) {
    cli_error("%s: read error", cli_quote(run.display_name));
    return 0;
  }
  return summarize(&run);
}

int md5sum_check(char **files, int count, const struct md5sum_options *options, int *read_stdin) {
  static char *standard_input[] = {"-"};
  if (!count) files = standard_input, count = 1;
  int ok = 1;
  for (int i = 0; i < count; i++) ok &= check_file(files[i], options, read_stdin);
  return ok ? 0 : 1;
}
