/* tools/main.c - the crisp command: picks the subcommand and prints the
 * top-level help and version; a failed write to stdout fails any command. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <crisp/version.h>

#include "cli.h"
#include "close_stdout.h"

struct subcommand {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
};

static const struct subcommand subcommands[] = {
    {"info", cli_info, "CPU features, dispatch level and the implementation of every kernel"},
    {"md5sum", cli_md5sum, "compute and check MD5 sums (coreutils md5sum compatible)"},
    {"poly1305", cli_poly1305, "Poly1305 tag of a file with a 32-byte hex key"},
    {"bench", cli_bench, "measure kernels, optionally against peer libraries (runs crisp-bench)"},
    {"tune", cli_tune, "find the fastest implementation of each kernel here; print CRYPTO_IMPL"},
};

static void help(FILE *out) {
  fprintf(out,
          "Usage: crisp COMMAND [ARGS]...\n"
          "Hot cryptographic kernels (MD5, Poly1305, ChaCha20, the ChaCha20-Poly1305 and\n"
          "XChaCha20-Poly1305 AEADs, big integers) with run-time CPU dispatch.\n\n"
          "Commands:\n");
  for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
    fprintf(out, "  %-9s %s\n", subcommands[i].name, subcommands[i].summary);
  fprintf(
      out,
      "\n'crisp COMMAND --help' describes a command; 'crisp --version' prints the version.\n"
      "Environment: CRYPTO_FORCE=LEVEL caps the dispatch level; CRYPTO_OPTIONS=-UseMD5Intrinsics,...\n"
      "sends single kernels to their generic implementation; CRYPTO_IMPL=kernel:impl,... pins kernels.\n");
}

/* Runs the command line's command; returns its exit status. */
static int run(int argc, char **argv) {
  if (argc < 2) {
    help(stderr);
    return EXIT_USAGE;
  }
  const char *command = argv[1];
  if (!strcmp(command, "--help") || !strcmp(command, "-h") || !strcmp(command, "help")) {
    help(stdout);
    return 0;
  }
  if (!strcmp(command, "--version") || !strcmp(command, "-V")) {
    /* The version compiled in; the loaded library's too when it differs. */
    printf("crisp %s\n", CRISP_VERSION_STRING);
    if (strcmp(crisp_version(), CRISP_VERSION_STRING)) printf("libcrisp %s\n", crisp_version());
    return 0;
  }
  for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++) {
    if (strcmp(command, subcommands[i].name)) continue;
    static char program[64];
    snprintf(program, sizeof program, "crisp %s", subcommands[i].name);
    cli_program = program;
    return subcommands[i].run(argc - 1, argv + 1);
  }
  return cli_usage_error("unknown command %s", cli_quote_argument(command));
}

int main(int argc, char **argv) {
  /* Before any file is opened, so none lands on a closed stdout. */
  cli_reserve_standard_descriptors();
  const int status = run(argc, argv);
  /* Output that did not reach stdout fails the command, as in coreutils:
   * exit status 1 and the reason, when it is known. */
  if (cli_close_stdout(cli_descriptor_was_closed(STDOUT_FILENO)) == 0) return status;
  const int error = errno;
  fprintf(stderr, "%s: write error%s%s\n", cli_program, error ? ": " : "", error ? strerror(error) : "");
  return 1;
}
