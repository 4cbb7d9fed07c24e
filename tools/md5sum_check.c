/* tools/md5sum_check.c - crisp md5sum -c: reads checksum lines exactly as
 * coreutils md5sum 9.1 parses them (GNU and BSD-tag formats, escaped names,
 * the "bsd reversed" one-space form), hashes the listed files through the
 * md5 pool, and prints OK / FAILED lines and the closing warnings. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <crisp/md5.h>

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

struct check_job {
  uint8_t expected[CRISP_MD5_DIGEST_SIZE];
  char name[]; /* unescaped */
};

struct check_run {
  FILE *stream;
  const char *display_name; /* "standard input" or the file name */
  int is_stdin;
  const struct md5sum_options *options;
  char *line;
  size_t line_capacity;
  unsigned long line_number;
  unsigned long misformatted, read_failures, mismatched;
  int properly_formatted, matched;
};

static int white(char c) { return c == ' ' || c == '\t'; }

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
      case 'n': *out++ = '\n'; break;
      case 'r': *out++ = '\r'; break;
      case '\\': *out++ = '\\'; break;
      default: return NULL;
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

/* Reads lines until a well-formed one, which becomes the next job. */
static int check_next(void *user, const char **name, void **token) {
  struct check_run *run = user;
  for (;;) {
    const ssize_t got = getline(&run->line, &run->line_capacity, run->stream);
    if (got <= 0) return 0;
    run->line_number++;
    char *line = run->line;
    size_t length = (size_t)got;
    if (line[0] == '#') continue;
    length -= line[length - 1] == '\n';
    length -= line[length - (length > 0)] == '\r';
    if (length == 0) continue;
    line[length] = '\0';
    char *hex = NULL, *file = NULL;
    if (!split_line(line, length, &hex, &file) || (run->is_stdin && !strcmp(file, "-")) || !hex_digits(hex)) {
      run->misformatted++;
      if (run->options->warn) {
        fprintf(stderr, "%s: ", cli_program);
        cli_put_quoted(run->display_name);
        fprintf(stderr, ": %lu: improperly formatted %s checksum line\n", run->line_number, TAG_NAME);
      }
      continue;
    }
    run->properly_formatted = 1;
    struct check_job *job = malloc(sizeof *job + strlen(file) + 1);
    if (!job) {
      cli_error("%s", strerror(ENOMEM));
      exit(1);
    }
    cli_unhex(job->expected, CRISP_MD5_DIGEST_SIZE, hex);
    strcpy(job->name, file);
    *name = job->name;
    *token = job;
    return 1;
  }
}

static void check_done(void *user, void *token, const char *name, const uint8_t *digest, int error, int opened) {
  struct check_run *run = user;
  struct check_job *job = token;
  const struct md5sum_options *options = run->options;
  /* Escaped only when a name would break the line. */
  const int escape = !options->status && strchr(name, '\n') != NULL;
  if (!digest && options->ignore_missing && !opened && error == ENOENT) {
    free(job);
    return;
  }
  if (!digest) {
    fprintf(stderr, "%s: ", cli_program);
    cli_put_quoted(name);
    fprintf(stderr, ": %s\n", strerror(error));
    run->read_failures++;
  }
  const int match = digest && !memcmp(digest, job->expected, CRISP_MD5_DIGEST_SIZE);
  if (digest && match) run->matched = 1;
  if (digest && !match) run->mismatched++;
  if (!options->status && (!match || !options->quiet)) {
    if (escape) putchar('\\');
    md5sum_put_name(name, escape);
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
    fprintf(stderr, "%s: ", cli_program);
    cli_put_quoted(run->display_name);
    fprintf(stderr, ": no properly formatted checksum lines found\n");
    return 0;
  }
  if (!options->status) {
    plural_warning(run->misformatted, "line is improperly formatted", "lines are improperly formatted");
    plural_warning(run->read_failures, "listed file could not be read", "listed files could not be read");
    plural_warning(run->mismatched, "computed checksum did NOT match", "computed checksums did NOT match");
    if (options->ignore_missing && !run->matched) {
      fprintf(stderr, "%s: ", cli_program);
      cli_put_quoted(run->display_name);
      fprintf(stderr, ": no file was verified\n");
    }
  }
  return run->matched && !run->mismatched && !run->read_failures && (!options->strict || !run->misformatted);
}

static int check_file(const char *file, const struct md5sum_options *options) {
  struct check_run run = {0};
  run.options = options;
  run.is_stdin = !strcmp(file, "-");
  run.display_name = run.is_stdin ? "standard input" : file;
  run.stream = run.is_stdin ? stdin : fopen(file, "r");
  if (!run.stream) {
    fprintf(stderr, "%s: ", cli_program);
    cli_put_quoted(file);
    fprintf(stderr, ": %s\n", strerror(errno));
    return 0;
  }
  int ok = md5_pool_run(check_next, check_done, &run) == 0;
  free(run.line);
  const int read_error = ferror(run.stream);
  if (run.is_stdin) clearerr(run.stream);
  else fclose(run.stream);
  if (!ok || read_error) {
    fprintf(stderr, "%s: ", cli_program);
    cli_put_quoted(file);
    fprintf(stderr, ": read error\n");
    return 0;
  }
  fflush(stdout);
  return summarize(&run);
}

int md5sum_check(char **files, int count, const struct md5sum_options *options) {
  static char *standard_input[] = {"-"};
  if (!count) files = standard_input, count = 1;
  int ok = 1;
  for (int i = 0; i < count; i++) ok &= check_file(files[i], options);
  return ok ? 0 : 1;
}
