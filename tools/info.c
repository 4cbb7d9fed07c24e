/* tools/info.c - crisp info: the CPU and its microarchitecture, the
 * dispatch level and why, and which implementation runs each kernel and why
 * (--all: every built-in implementation; --kernels: only the kernel names,
 * for scripts). Scripts read the 'kernel: implementation' lines, so the
 * reason goes on an indented line of its own. */
#include <stdio.h>
#include <string.h>

#include <crisp/crisp.h>

#include "cli.h"

static void help(void) {
  printf(
      "Usage: crisp info [--all | --kernels]\n"
      "Prints the CPU brand, microarchitecture and features, the dispatch level and\n"
      "why it was chosen, then one 'kernel: implementation' line per kernel, each\n"
      "followed by an indented 'why:' line (feature order, a microarchitecture table\n"
      "entry with its evidence, CRYPTO_FORCE, CRYPTO_OPTIONS, CRYPTO_IMPL or a pin).\n"
      "  --all       also list every built-in implementation and whether this CPU runs it\n"
      "  --kernels   print only the kernel names, one per line\n"
      "Exit status: 0, or 2 when a CRYPTO_FORCE / CRYPTO_OPTIONS / CRYPTO_IMPL request\n"
      "could not be honoured.\n");
}

static void list_all(crisp_kernel kernel) {
  const char *active = crisp_impl_name(kernel);
  for (size_t i = 0; i < crisp_impl_count(kernel); i++) {
    const char *name = crisp_impl_name_at(kernel, i);
    printf("  %-20s %s%s\n", name, crisp_impl_supported_at(kernel, i) ? "supported" : "unsupported",
           strcmp(name, active) ? "" : ", in use");
  }
}

static void list_kernels(void) {
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) printf("%s\n", crisp_kernel_name((crisp_kernel)k));
}

/* The CPU, the levels and each kernel's implementation (with all, every
 * implementation built in). */
static void print_dispatch(int all) {
  printf("cpu: %s\n", crisp_cpu_brand());
  printf("uarch: %s\n", crisp_cpu_uarch());
  printf("features: %s\n", crisp_cpu_features());
  printf("levels: %s\n", crisp_levels());
  printf("level: %s (%s)\n", crisp_level(), crisp_dispatch_reason());
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    printf("%s: %s\n", crisp_kernel_name((crisp_kernel)k), crisp_impl_name((crisp_kernel)k));
    printf("    why: %s\n", crisp_impl_reason((crisp_kernel)k));
    if (all) list_all((crisp_kernel)k);
  }
}

int cli_info(int argc, char **argv) {
  int all = 0, kernels_only = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      help();
      return 0;
    }
    if (!strcmp(argv[i], "--all") || !strcmp(argv[i], "-a"))
      all = 1;
    else if (!strcmp(argv[i], "--kernels"))
      kernels_only = 1;
    else
      return cli_usage_error("unexpected argument %s", cli_quote_argument(argv[i]));
  }
  if (all && kernels_only) return cli_usage_error("--all and --kernels exclude each other");
  if (kernels_only) {
    list_kernels();
  } else {
    print_dispatch(all);
  }
  /* A write error is reported by main, after this. */
  const int status = crisp_env_status();
  if (status != CRISP_OK) {
    cli_error("the environment's dispatch request was not honoured as written: %s", crisp_strerror(status));
    return EXIT_USAGE;
  }
  return 0;
}
