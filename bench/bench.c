/* bench/bench.c - crisp bench: options, the list of cases (kernel x size),
 * which rows each case gets (crisp implementations, peers), and the loop
 * that measures and reports them case by case. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "bench.h"

#define MAX_ROWS 32

struct case_spec {
  const char *kernel;
  size_t size; /* bytes per message, or bits */
  size_t messages;
};

static const struct case_spec specs[] = {
    {"md5", 64, 1}, {"md5", 256, 1}, {"md5", 1024, 1}, {"md5", 16384, 1}, {"md5", 1048576, 1},
    {"md5_many", 256, 16}, {"md5_many", 1024, 16}, {"md5_many", 16384, 16}, {"md5_many", 65536, 16},
    {"poly1305", 64, 1}, {"poly1305", 256, 1}, {"poly1305", 1024, 1}, {"poly1305", 16384, 1},
    {"poly1305", 1048576, 1},
    {"bn_mul", 512, 1}, {"bn_mul", 1024, 1}, {"bn_mul", 2048, 1}, {"bn_mul", 4096, 1},
    {"bn_sqr", 512, 1}, {"bn_sqr", 1024, 1}, {"bn_sqr", 2048, 1}, {"bn_sqr", 4096, 1},
    {"bn_mul_add", 512, 1}, {"bn_mul_add", 1024, 1}, {"bn_mul_add", 2048, 1}, {"bn_mul_add", 4096, 1},
    {"bn_mont_mul", 512, 1}, {"bn_mont_mul", 1024, 1}, {"bn_mont_mul", 2048, 1}, {"bn_mont_mul", 4096, 1},
    {"bn_mont_sqr", 512, 1}, {"bn_mont_sqr", 1024, 1}, {"bn_mont_sqr", 2048, 1}, {"bn_mont_sqr", 4096, 1},
    {"mod_exp", 1024, 1}, {"mod_exp", 2048, 1}, {"mod_exp", 3072, 1}, {"mod_exp", 4096, 1},
};
#define SPEC_COUNT (sizeof specs / sizeof specs[0])

struct options {
  const char *kernels; /* comma-separated labels, NULL: all */
  const char *impl;    /* NULL: default, "all", or a name */
  int peers, sweep;
  bench_settings settings;
};

static void help(void) {
  printf("Usage: crisp bench [--kernel K[,K...]] [--impl all|NAME] [--peers] [--json] [--time MS] [--quick]\n"
         "       crisp bench --kernel poly1305 --sweep [--json|--tsv] [--time MS]\n"
         "Measures crisp's kernels: ops/ms, MB/s (bytes kernels), ns/op: the best of many\n"
         "~1 ms batches after warm-up, rows of one case interleaved batch by batch.\n\n"
         "  --kernel K    md5, md5_many, poly1305, bn_mul, bn_sqr, bn_mul_add, bn_mont_mul,\n"
         "                bn_mont_sqr, mod_exp (comma-separated; default all)\n"
         "  --impl all    every implementation this CPU supports (pinned with crisp_use_impl)\n"
         "  --impl NAME   one implementation (default: the dispatched one)\n"
         "  --peers       add OpenSSL, libsodium and GMP rows measured in the same run, and\n"
         "                a 'vs peer' column: crisp speed / fastest peer speed\n"
         "  --json        machine-readable output\n"
         "  --time MS     measuring time per row (default 200, sweep 40)\n"
         "  --quick       short run (25 ms per row)\n"
         "  --sweep       Poly1305 at every length 16 B..64 KiB (powers of two, -1, +1, +15) for\n"
         "                each implementation and the default path; flags lengths where the\n"
         "                default is below 0.95x the fastest implementation\n"
         "  --tsv         with --sweep: tab-separated MB/s columns for plotting\n");
}

static int kernel_selected(const struct options *options, const char *kernel) {
  if (!options->kernels) return 1;
  const size_t length = strlen(kernel);
  for (const char *p = options->kernels; *p;) {
    const char *end = strchr(p, ',');
    const size_t item = end ? (size_t)(end - p) : strlen(p);
    if (item == length && !strncmp(p, kernel, length)) return 1;
    p += item + (end != NULL);
  }
  return 0;
}

static int known_kernels(const char *list) {
  for (const char *p = list; *p;) {
    const char *end = strchr(p, ',');
    const size_t item = end ? (size_t)(end - p) : strlen(p);
    char name[32];
    crisp_kernel kernels[2];
    if (item == 0 || item >= sizeof name) return 0;
    memcpy(name, p, item), name[item] = '\0';
    if (!bench_case_kernels(name, kernels)) return 0;
    p += item + (end != NULL);
  }
  return 1;
}

/* Index of a supported implementation called name, or -1. */
static long supported_impl(crisp_kernel kernel, const char *name) {
  for (size_t i = 0; i < crisp_impl_count(kernel); i++)
    if (!strcmp(crisp_impl_name_at(kernel, i), name) && crisp_impl_supported_at(kernel, i)) return (long)i;
  return -1;
}

static size_t crisp_rows(const struct options *options, const struct case_spec *spec, const bench_routine *routine,
                         bench_row *rows) {
  crisp_kernel kernels[2];
  bench_case_kernels(spec->kernel, kernels);
  const crisp_kernel kernel = kernels[0];
  size_t count = 0;
  if (!options->impl) {
    rows[count++] = (bench_row){routine, crisp_impl_name(kernel), NULL, 0, 0};
  } else if (!strcmp(options->impl, "all")) {
    for (size_t i = 0; i < crisp_impl_count(kernel) && count < MAX_ROWS / 2; i++)
      if (crisp_impl_supported_at(kernel, i))
        rows[count++] = (bench_row){routine, crisp_impl_name_at(kernel, i), crisp_impl_name_at(kernel, i), 0, 0};
  } else if (supported_impl(kernel, options->impl) >= 0) {
    rows[count++] = (bench_row){routine, options->impl, options->impl, 0, 0};
  }
  return count;
}

static const bench_routine *crisp_routine(const char *kernel) {
  for (size_t i = 0; i < bench_crisp_routine_count; i++)
    if (!strcmp(bench_crisp_routines[i].kernel, kernel)) return &bench_crisp_routines[i];
  return NULL;
}

static void compare_with_peers(bench_row *rows, size_t count) {
  double best_peer = INFINITY;
  for (size_t r = 0; r < count; r++)
    if (strcmp(rows[r].routine->source, "crisp") && rows[r].ns_per_op < best_peer) best_peer = rows[r].ns_per_op;
  for (size_t r = 0; r < count; r++)
    if (!strcmp(rows[r].routine->source, "crisp") && isfinite(best_peer)) rows[r].vs_best_peer = best_peer / rows[r].ns_per_op;
}

static int run_case(const struct options *options, const struct case_spec *spec) {
  bench_row rows[MAX_ROWS];
  size_t count = crisp_rows(options, spec, crisp_routine(spec->kernel), rows);
  if (!count) return 0;
  for (size_t i = 0; options->peers && i < bench_peer_count() && count < MAX_ROWS; i++)
    if (!strcmp(bench_peer_at(i)->kernel, spec->kernel)) rows[count++] = (bench_row){bench_peer_at(i), NULL, NULL, 0, 0};
  bench_case c;
  int status = bench_case_init(&c, spec->kernel, spec->size, spec->messages);
  if (status == 0) status = bench_measure(&c, rows, count, &options->settings);
  if (status == 0) {
    compare_with_peers(rows, count);
    bench_report_case(&c, rows, count, &options->settings);
  }
  bench_case_free(&c);
  return status == 0 ? 1 : -1;
}

/* Checks --impl NAME names an implementation of some selected kernel that
 * this CPU runs; returns an exit status, 0 when fine. */
static int check_impl(const struct options *options) {
  if (!options->impl || !strcmp(options->impl, "all")) return 0;
  int known = 0;
  for (size_t s = 0; s < SPEC_COUNT; s++) {
    crisp_kernel kernels[2];
    if (!kernel_selected(options, specs[s].kernel)) continue;
    bench_case_kernels(specs[s].kernel, kernels);
    for (size_t i = 0; i < crisp_impl_count(kernels[0]); i++) {
      if (strcmp(crisp_impl_name_at(kernels[0], i), options->impl)) continue;
      if (crisp_impl_supported_at(kernels[0], i)) return 0;
      known = 1;
    }
  }
  if (known) {
    cli_error("implementation '%s' is not supported by this CPU", options->impl);
    return EXIT_USAGE;
  }
  return cli_usage_error("no selected kernel has an implementation called '%s'", options->impl);
}

static int parse(int argc, char **argv, struct options *options) {
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    const int has_value = i + 1 < argc;
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      help();
      return -1;
    } else if (!strcmp(arg, "--peers")) {
      options->peers = 1;
    } else if (!strcmp(arg, "--json")) {
      options->settings.json = 1;
    } else if (!strcmp(arg, "--tsv")) {
      options->settings.tsv = 1;
    } else if (!strcmp(arg, "--sweep")) {
      options->sweep = 1;
    } else if (!strcmp(arg, "--quick")) {
      options->settings.row_ms = 25, options->settings.batch_ms = 0.5, options->settings.repetitions = 3;
    } else if (!strcmp(arg, "--kernel") && has_value) {
      options->kernels = argv[++i];
      if (!known_kernels(options->kernels)) return cli_usage_error("unknown kernel in '%s'", options->kernels);
    } else if (!strcmp(arg, "--impl") && has_value) {
      options->impl = argv[++i];
    } else if (!strcmp(arg, "--time") && has_value) {
      char *end;
      options->settings.row_ms = strtod(argv[++i], &end);
      if (*end || !(options->settings.row_ms > 0 && options->settings.row_ms < 1e6))
        return cli_usage_error("--time needs a positive number of milliseconds");
    } else if (!strcmp(arg, "--kernel") || !strcmp(arg, "--impl") || !strcmp(arg, "--time")) {
      return cli_usage_error("option '%s' needs a value", arg);
    } else {
      return cli_usage_error("unknown argument '%s'", arg);
    }
  }
  if (options->sweep && options->kernels && strcmp(options->kernels, "poly1305"))
    return cli_usage_error("--sweep measures poly1305 only");
  if (options->settings.tsv && !options->sweep) return cli_usage_error("--tsv goes with --sweep");
  return 0;
}

int cli_bench(int argc, char **argv) {
  struct options options = {NULL, NULL, 0, 0, {0, 1, 5, 0, 0}};
  const int parsed = parse(argc, argv, &options);
  if (parsed) return parsed < 0 ? 0 : parsed;
  /* The sweep has ~50 lengths times every implementation: shorter rows. */
  if (options.settings.row_ms == 0) options.settings.row_ms = options.sweep ? 40 : 200;
  const int impl_status = check_impl(&options);
  if (impl_status) return impl_status;
  if (options.peers && !bench_peer_count())
    cli_error("no peer library (OpenSSL, libsodium, GMP) was found at build time: no peer rows");
  if (options.peers && bench_peers_init() != 0) {
    cli_error("a peer library failed to initialise");
    return 1;
  }
  if (options.sweep) return bench_sweep(&options.settings);
  bench_report_begin(&options.settings);
  int status = 0;
  for (size_t s = 0; s < SPEC_COUNT; s++) {
    if (!kernel_selected(&options, specs[s].kernel)) continue;
    if (run_case(&options, &specs[s]) < 0) {
      cli_error("out of memory measuring %s", specs[s].kernel);
      status = 1;
    }
  }
  bench_report_end(&options.settings);
  return status;
}
