/* tools/md5sum.c - crisp md5sum: the command line, parsed as coreutils
 * md5sum 9.1 parses it (same options, abbreviations, messages and exit
 * status 1 on a usage error), then computing or checking sums. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "md5sum.h"

#ifndef CRISP_VERSION
#define CRISP_VERSION "unknown"
#endif

enum { OPT_IGNORE_MISSING = 256, OPT_QUIET, OPT_STATUS, OPT_STRICT, OPT_TAG, OPT_HELP, OPT_VERSION };

/* In coreutils' order (md5sum 9.1: --binary after --zero), which decides
 * how getopt lists the candidates of an ambiguous abbreviation (--s:
 * --status, --strict; --= all of them). */
static const struct option long_options[] = {
    {"check", no_argument, NULL, 'c'},
    {"ignore-missing", no_argument, NULL, OPT_IGNORE_MISSING},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"status", no_argument, NULL, OPT_STATUS},
    {"warn", no_argument, NULL, 'w'},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"tag", no_argument, NULL, OPT_TAG},
    {"zero", no_argument, NULL, 'z'},
    {"binary", no_argument, NULL, 'b'},
    {"text", no_argument, NULL, 't'},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

static void help(void) {
  printf(
      "Usage: crisp md5sum [OPTION]... [FILE]...\n"
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
      "      --help            display this help and exit\n"
      "      --version         output version information and exit\n\n"
      "Exit status: 0 success; 1 a file could not be read, a check failed or the\n"
      "command line was wrong (as coreutils md5sum).\n");
}

/* A usage error: the message, the hint, and coreutils' exit status 1. */
static int usage_error(const char *message) {
  cli_error("%s", message);
  cli_usage_hint();
  return 1;
}

/* Option combinations coreutils refuses, in its order and wording. binary
 * is -1 unless -b, -t or --tag (which implies -b) was given. */
static int check_combinations(int check, int binary, const struct md5sum_options *o) {
  if (o->tag && !binary) return usage_error("--tag does not support --text mode");
  if (o->zero && check) return usage_error("the --zero option is not supported when verifying checksums");
  if (o->tag && check) return usage_error("the --tag option is meaningless when verifying checksums");
  if (binary >= 0 && check)
    return usage_error("the --binary and --text options are meaningless when verifying checksums");
  if (check) return 0;
  if (o->ignore_missing)
    return usage_error("the --ignore-missing option is meaningful only when verifying checksums");
  if (o->status) return usage_error("the --status option is meaningful only when verifying checksums");
  if (o->warn) return usage_error("the --warn option is meaningful only when verifying checksums");
  if (o->quiet) return usage_error("the --quiet option is meaningful only when verifying checksums");
  if (o->strict) return usage_error("the --strict option is meaningful only when verifying checksums");
  return 0;
}

/* stdout is closed, and a write error reported, by main (main.c). */
int cli_md5sum(int argc, char **argv) {
  /* Line-buffered like coreutils md5sum: each result is out as soon as it
   * is known, lines of parallel runs do not mix, and a write failure is
   * seen (and reported) the way coreutils sees it. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  struct md5sum_options options = {0};
  int check = 0, binary = -1, option;
  /* glibc's getopt words its messages as coreutils' do and prefixes them
   * with argv[0]: make that the program name. */
  char *const command_name = argv[0];
  argv[0] = (char *)cli_program;
  opterr = 1;
  optind = 1;
  while ((option = getopt_long(argc, argv, "bctwz", long_options, NULL)) != -1) {
    switch (option) {
      case 'b':
        binary = 1;
        break;
      case 't':
        binary = 0;
        break;
      case 'c':
        check = 1;
        break;
      case 'z':
        options.zero = 1;
        break;
      case 'w':
        options.warn = 1, options.status = 0, options.quiet = 0;
        break;
      case OPT_TAG:
        options.tag = 1, binary = 1;
        break;
      case OPT_QUIET:
        options.quiet = 1, options.status = 0, options.warn = 0;
        break;
      case OPT_STATUS:
        options.status = 1, options.warn = 0, options.quiet = 0;
        break;
      case OPT_STRICT:
        options.strict = 1;
        break;
      case OPT_IGNORE_MISSING:
        options.ignore_missing = 1;
        break;
      case OPT_HELP:
        help();
        return 0;
      case OPT_VERSION:
        printf("md5sum (crisp) %s\n", CRISP_VERSION);
        return 0;
      default:
        argv[0] = command_name;
        cli_usage_hint();
        return 1;
    }
  }
  argv[0] = command_name;
  const int status = check_combinations(check, binary, &options);
  if (status) return status;
  options.binary = binary > 0;
  char **files = argv + optind;
  const int count = argc - optind;
  int read_stdin = 0;
  int result = check ? md5sum_check(files, count, &options, &read_stdin)
                     : md5sum_compute(files, count, &options, &read_stdin);
  /* coreutils closes standard input after reading it and fails if that
   * fails, as it does when the descriptor was closed from the start. */
  if (read_stdin && cli_descriptor_was_closed(STDIN_FILENO)) {
    cli_error("standard input: %s", strerror(EBADF));
    result = 1;
  }
  return result;
}
