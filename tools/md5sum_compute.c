/* tools/md5sum_compute.c - crisp md5sum without -c: the sums of many files
 * hashed side by side by the md5 pool, printed in argument order byte for
 * byte as coreutils md5sum 9.1 prints them (escaped names, -b, --tag, -z).
 *
 * The lines of the results the pool hands over together are collected and
 * written to the line-buffered stdout in one fwrite: the same bytes, the
 * same lines complete on stdout when the batch ends, and one write() where
 * coreutils makes one per line. Before an error message the collected
 * lines go out first, so the order on a shared terminal or file is kept. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <crisp/md5.h>

#include "cli.h"
#include "md5_pool.h"
#include "md5sum.h"

struct compute_run {
  char **files;
  int count, position;
  const struct md5sum_options *options;
  int failed;
  int read_stdin;
  FILE *batch; /* the lines of the current batch, in memory */
  char *batch_text;
  size_t batch_length;
};

static int compute_next(void *user, const char **name, void **token, int may_wait) {
  struct compute_run *run = user;
  (void)token, (void)may_wait;
  if (run->position >= run->count) return MD5_POOL_END;
  *name = run->files[run->position++];
  return MD5_POOL_ITEM;
}

/* Moves the collected lines to stdout. */
static void write_batch(void *user) {
  struct compute_run *run = user;
  if (run->batch == stdout) return;
  fflush(run->batch);
  if (run->batch_length) fwrite(run->batch_text, 1, run->batch_length, stdout);
  rewind(run->batch);
  run->batch_length = 0;
}

static void compute_done(void *user, void *token, const char *name, const uint8_t *digest, int error,
                         int opened) {
  struct compute_run *run = user;
  (void)token, (void)opened;
  if (!strcmp(name, "-")) run->read_stdin = 1;
  if (!digest) {
    write_batch(run);
    cli_error("%s: %s", cli_quote(name), strerror(error));
    run->failed = 1;
    return;
  }
  const struct md5sum_options *options = run->options;
  FILE *out = run->batch;
  const int escape = !options->zero && strpbrk(name, "\\\n\r") != NULL;
  char hex[2 * CRISP_MD5_DIGEST_SIZE + 1];
  cli_hex(hex, digest, CRISP_MD5_DIGEST_SIZE);
  if (escape) putc('\\', out);
  if (options->tag) {
    fputs("MD5 (", out);
    md5sum_put_name(out, name, escape);
    fputs(") = ", out);
    fputs(hex, out);
  } else {
    fputs(hex, out);
    putc(' ', out);
    putc(options->binary ? '*' : ' ', out);
    md5sum_put_name(out, name, escape);
  }
  putc(options->zero ? '\0' : '\n', out);
}

int md5sum_compute(char **files, int count, const struct md5sum_options *options, int *read_stdin) {
  static char *standard_input[] = {"-"};
  struct compute_run run = {
      count ? files : standard_input, count ? count : 1, 0, options, 0, 0, NULL, NULL, 0};
  run.batch = open_memstream(&run.batch_text, &run.batch_length);
  if (!run.batch) run.batch = stdout; /* no memory for batches: line by line */
  const int status = md5_pool_run(compute_next, compute_done, write_batch, &run);
  write_batch(&run);
  if (run.batch != stdout) fclose(run.batch);
  free(run.batch_text);
  *read_stdin = run.read_stdin;
  if (status != 0) {
    cli_error("%s", strerror(errno));
    return 1;
  }
  return run.failed;
}
