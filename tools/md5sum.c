/* tools/md5sum.c - crisp md5sum: options, and printing the sums of many files
 * hashed side by side by the md5 pool, byte for byte as coreutils md5sum 9.1
 * prints them (escaped names, -b, --tag, -z, exit status). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <crisp/md5.h>

#include "cli.h"
#include "md5_pool.h"
#include "md5sum.h"

enum { OPT_TAG = 256, OPT_QUIET, OPT_STATUS, OPT_STRICT, OPT_IGNORE_MISSING, OPT_HELP };

static const struct option long_options[] = {
    {"binary", no_argument, NULL, 'b'},
    {"check", no_argument, NULL, 'c'},
    {"tag", no_argument, NULL, OPT_TAG},
    {"text", no_argument, NULL, 't'},
    {"zero", no_argument, NULL, 'z'},
    {"ignore-missing", no_argument, NULL, OPT_IGNORE_MISSING},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"status", no_argument, NULL, OPT_STATUS},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"warn", no_argument, NULL, 'w'},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

static void help(void) {
  printf("Usage: crisp md5sum [OPTION]... [FILE]...\n"
         "Print or check MD5 (128-bit) checksums, like coreutils md5sum, hashing many\n"
         "files at once in SIMD lanes. With no FILE, or when FILE is -, read standard input.\n\n"
         "  -b, --binary          mark lines with '*' (read mode is always binary)\n"
         "  -c, --check           read checksums from the FILEs and check them\n"
         "      --tag             create a BSD-style checksum\n"
         "  -t, --text            mark lines with ' ' (the default)\n"
         "  -z, --zero            end each output line with NUL, not newline, and do not escape names\n\n"
         "The following five options are useful only when verifying checksums:\n"
         "      --ignore-missing  don't fail or report status for missing files\n"
         "      --quiet           don't print OK for each successfully verified file\n"
         "      --status          don't output anything, status code shows success\n"
         "      --strict          exit non-zero for improperly formatted checksum lines\n"
         "  -w, --warn            warn about improperly formatted checksum lines\n\n"
         "      --help            display this help and exit\n\n"
         "Exit status: 0 success, 1 a file could not be read or a check failed, 2 usage error.\n");
}

void md5sum_put_name(const char *name, int escape) {
  if (!escape) {
    fputs(name, stdout);
    return;
  }
  for (; *name; name++) {
    switch (*name) {
      case '\\': fputs("\\\\", stdout); break;
      case '\n': fputs("\\n", stdout); break;
      case '\r': fputs("\\r", stdout); break;
      default: putchar(*name); break;
    }
  }
}

struct compute_run {
  char **files;
  int count, position;
  const struct md5sum_options *options;
  int failed;
};

static int compute_next(void *user, const char **name, void **token) {
  struct compute_run *run = user;
  (void)token;
  if (run->position >= run->count) return 0;
  *name = run->files[run->position++];
  return 1;
}

static void compute_done(void *user, void *token, const char *name, const uint8_t *digest, int error, int opened) {
  struct compute_run *run = user;
  (void)token, (void)opened;
  if (!digest) {
    fprintf(stderr, "%s: ", cli_program);
    cli_put_quoted(name);
    fprintf(stderr, ": %s\n", strerror(error));
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

static int compute(char **files, int count, const struct md5sum_options *options) {
  static char *standard_input[] = {"-"};
  struct compute_run run = {count ? files : standard_input, count ? count : 1, 0, options, 0};
  if (md5_pool_run(compute_next, compute_done, &run) != 0) {
    cli_error("%s", strerror(errno));
    return 1;
  }
  return run.failed;
}

/* Option combinations coreutils refuses, with its wording. */
static int check_combinations(int check, int text, const struct md5sum_options *o) {
  if (o->tag && check) return cli_usage_error("the --tag option is meaningless when verifying checksums");
  if (o->tag && text) return cli_usage_error("--tag does not support --text mode");
  if (o->zero && check) return cli_usage_error("the --zero option is not supported when verifying checksums");
  if ((o->binary || text) && check)
    return cli_usage_error("the --binary and --text options are meaningless when verifying checksums");
  if (check) return 0;
  if (o->ignore_missing) return cli_usage_error("the --ignore-missing option is meaningful only when verifying checksums");
  if (o->status) return cli_usage_error("the --status option is meaningful only when verifying checksums");
  if (o->warn) return cli_usage_error("the --warn option is meaningful only when verifying checksums");
  if (o->quiet) return cli_usage_error("the --quiet option is meaningful only when verifying checksums");
  if (o->strict) return cli_usage_error("the --strict option is meaningful only when verifying checksums");
  return 0;
}

int cli_md5sum(int argc, char **argv) {
  struct md5sum_options options = {0};
  int check = 0, text = 0, option;
  opterr = 0;
  optind = 1;
  while ((option = getopt_long(argc, argv, "bctwz", long_options, NULL)) != -1) {
    switch (option) {
      case 'b': options.binary = 1, text = 0; break;
      case 't': text = 1, options.binary = 0; break;
      case 'c': check = 1; break;
      case 'z': options.zero = 1; break;
      case 'w': options.warn = 1, options.status = 0, options.quiet = 0; break;
      case OPT_TAG: options.tag = 1; break;
      case OPT_QUIET: options.quiet = 1, options.status = 0, options.warn = 0; break;
      case OPT_STATUS: options.status = 1, options.warn = 0, options.quiet = 0; break;
      case OPT_STRICT: options.strict = 1; break;
      case OPT_IGNORE_MISSING: options.ignore_missing = 1; break;
      case OPT_HELP: help(); return 0;
      default:
        if (optopt) return cli_usage_error("invalid option -- '%c'", optopt);
        return cli_usage_error("unrecognized option '%s'", argv[optind - 1]);
    }
  }
  const int status = check_combinations(check, text, &options);
  if (status) return status;
  char **files = argv + optind;
  const int count = argc - optind;
  const int result = check ? md5sum_check(files, count, &options) : compute(files, count, &options);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    cli_error("write error: %s", strerror(errno));
    return 1;
  }
  return result;
}
