/* tools/md5sum_compute.c - crisp md5sum without -c: the sums of many files
 * hashed side by side by the md5 pool, printed in argument order byte for
 * byte as coreutils md5sum 9.1 prints them (escaped names, -b, --tag, -z). */
#include <errno.h>
#include <stdio.h>
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
};

static int compute_next(void *user, const char **name, void **token, int may_wait) {
  struct compute_run *run = user;
  (void)token, (void)may_wait;
  if (run->position >= run->count) return MD5_POOL_END;
  *name = run->files[run->position++];
  return MD5_POOL_ITEM;
}

static void compute_done(void *user, void *token, const char *name, const uint8_t *digest, int error, int opened) {
  struct compute_run *run = user;
  (void)token, (void)opened;
  if (!strcmp(name, "-")) run->read_stdin = 1;
  if (!digest) {
    cli_error("%s: %s", cli_quote(name), strerror(error));
    run->failed = 1;
    return;
  }
  const struct md5sum_options *options = run->options;
  const int escape = !options->zero && strpbrk(name, "\\\n\r") != NULL;
  char hex[2 * CRISP_MD5_DIGEST_SIZE + 1];
  cli_hex(hex, digest, CRISP_MD5_DIGEST_SIZE);
  if (escape) putchar('\\');
  if (options->tag) {
    fputs("MD5 (", stdout);
    md5sum_put_name(name, escape);
    printf(") = %s", hex);
  } else {
    fputs(hex, stdout);
    putchar(' ');
    putchar(options->binary ? '*' : ' ');
    md5sum_put_name(name, escape);
  }
  putchar(options->zero ? '\0' : '\n');
}

int md5sum_compute(char **files, int count, const struct md5sum_options *options, int *read_stdin) {
  static char *standard_input[] = {"-"};
  struct compute_run run = {count ? files : standard_input, count ? count : 1, 0, options, 0, 0};
  const int status = md5_pool_run(compute_next, compute_done, &run);
  *read_stdin = run.read_stdin;
  if (status != 0) {
    cli_error("%s", strerror(errno));
    return 1;
  }
  return run.failed;
}
