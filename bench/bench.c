/* bench/bench.c - crisp-bench, the program behind `crisp bench`: options,
 * which rows each case gets (crisp implementations, peers, EVP rows), and the loop
 * that measures and reports the specs of bench/kernel_cases.c size by size. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tools/cli.h"
#include "../tools/close_stdout.h"
#include "bench.h"
#include "peer_library.h"

#define MAX_ROWS 32
#define MAX_PEER_LIB_OPTIONS 4
/* Usage errors exit with EXIT_USAGE (cli.h), like every crisp subcommand. */
/* Messages carry the name users type, whichever way the bench was started:
 * crisp tune runs crisp-bench --tune. */
static const char *program = "crisp bench";

struct options {
  const char *kernels;       /* comma-separated labels, NULL: all */
  const char *impl;          /* NULL: default, "all", or a name */
  const char *provider_path; /* --provider-path: where crisp.so is, NULL: the usual places */
  const char *peer_libs[MAX_PEER_LIB_OPTIONS]; /* --peer-lib NAME=PATH values */
  size_t peer_lib_count;
  int peers, sweep, check, tune;
  bench_settings settings;
};

static void print_error(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void print_error(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "%s: ", program);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
}

static int usage_error(const char *format, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "%s: ", program);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
  fprintf(stderr, "Try '%s --help' for more information.\n", program);
  return EXIT_USAGE;
}

/* The labels --kernel takes, comma-separated and wrapped under the option. */
static void print_labels(void) {
  size_t column = 16;
  for (size_t s = 0; s < bench_spec_count; s++) {
    const int last = s + 1 == bench_spec_count;
    const size_t width = strlen(bench_specs[s].label) + !last;
    if (s > 0 && column + 1 + width > 80)
      printf("\n%16s", ""), column = 16;
    else if (s > 0)
      putchar(' '), column++;
    printf("%s%s", bench_specs[s].label, last ? "\n" : ",");
    column += width;
  }
}

static void help(void) {
  printf(
      "Usage: crisp bench [--kernel K[,K...]] [--impl all|NAME] [--peers [--provider-path DIR]\n"
      "                   [--peer-lib NAME=PATH]...] [--json] [--time MS] [--quick]\n"
      "       crisp bench --kernel poly1305|chacha20|chacha20poly1305_seal --sweep [--peers]\n"
      "                   [--chunk N] [--json|--tsv] [--time MS]\n"
      "       crisp bench --check\n"
      "Measures crisp's kernels: ops/ms, MB/s (bytes kernels), ns/op: the best of many\n"
      "~1 ms batches after warm-up, rows of one case interleaved batch by batch.\n"
      "The program is crisp-bench; 'crisp bench' runs it with the same arguments.\n\n"
      "  --kernel K    ");
  print_labels();
  printf(
      "                (comma-separated; default all)\n"
      "  --impl all    every implementation this CPU supports (pinned with crisp_use_impl)\n"
      "  --impl NAME   one implementation (default: the dispatched one)\n"
      "  --peers       add OpenSSL, libsodium and GMP rows measured in the same run, and\n"
      "                a 'vs peer' column: crisp speed / fastest peer speed; and EVP rows\n"
      "                (md5, poly1305, chacha20poly1305_seal: 64 B, 1 KiB, 16 KiB; rsa_private:\n"
      "                2048-bit PKCS#1 v1.5 signing), the same EVP calls on OpenSSL's library\n"
      "                context with the crisp provider (provider=crisp) and with the default\n"
      "                provider alone (provider=default); provider=crisp's 'vs peer' is its\n"
      "                speed / provider=default's\n"
      "  --provider-path DIR\n"
      "                with --peers: load crisp.so from DIR (else $CRISP_PROVIDER_PATH, else\n"
      "                the build tree's provider folder when run from it, else the folder\n"
      "                it is installed in); when it cannot load, one line says why and\n"
      "                the EVP rows are left out\n"
      "  --peer-lib NAME=PATH\n"
      "                with --peers: also load the libcrypto at PATH (OpenSSL or AWS-LC built\n"
      "                from source: bench/build_peer.py) as a peer named by the version it\n"
      "                reports, counted in 'vs peer'; repeatable, and read from\n"
      "                $CRISP_BENCH_PEER_LIBS (NAME=PATH:NAME=PATH...); one that cannot load\n"
      "                gets one line and no rows\n"
      "  --json        machine-readable output\n"
      "  --time MS     measuring time per row (default 200, sweep 40)\n"
      "  --quick       short run (25 ms per row)\n"
      "  --sweep       Poly1305 (or ChaCha20, or the AEAD's seal) at every length 16 B..1 MiB\n"
      "                (powers of two, -1, +1, +15) for each implementation and the default\n"
      "                path; flags lengths where the default is below 0.95x the fastest\n"
      "                implementation (LOW) and, with --peers (always for ChaCha20 and the\n"
      "                seal), below 1.0x the faster of OpenSSL and libsodium (BEHIND)\n"
      "  --chunk N     with --sweep: stream each Poly1305 message in updates of N bytes\n"
      "  --tsv         with --sweep: tab-separated MB/s columns for plotting\n"
      "  --check       measure nothing; exit 1 naming every crisp kernel without bench\n"
      "                cases (bench/kernel_cases.c) and every malformed case\n"
      "  --version     print the version and exit\n");
}

static void tune_help(void) {
  printf(
      "Usage: crisp tune [--time MS]\n"
      "Measures every implementation this CPU supports of each kernel at three sizes (a few\n"
      "seconds in all), then prints the line CRYPTO_IMPL=kernel:impl,... that pins the\n"
      "fastest of each; set it in the environment to keep that choice.\n\n"
      "  --time MS     measuring time per implementation and size (default 30)\n");
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

/* The crisp kernel called name, or CRISP_KERNEL_COUNT. */
static crisp_kernel kernel_named(const char *name) {
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
    if (!strcmp(crisp_kernel_name((crisp_kernel)k), name)) return (crisp_kernel)k;
  return CRISP_KERNEL_COUNT;
}

/* Checks every --kernel label has a spec; returns an exit status, 0 when fine. */
static int check_labels(const char *list) {
  const size_t length = strlen(list);
  if (length == 0 || list[length - 1] == ',')
    return usage_error("unknown kernel in %s", cli_quote_argument(list));
  for (const char *p = list; *p;) {
    const char *end = strchr(p, ',');
    const size_t item = end ? (size_t)(end - p) : strlen(p);
    char name[64];
    if (item == 0 || item >= sizeof name)
      return usage_error("unknown kernel in %s", cli_quote_argument(list));
    memcpy(name, p, item), name[item] = '\0';
    if (!bench_find_spec(name)) {
      if (kernel_named(name) == CRISP_KERNEL_COUNT)
        return usage_error("unknown kernel %s", cli_quote_argument(name));
      print_error("kernel %s has no bench cases yet (they belong in bench/kernel_cases.c)",
                  cli_quote_argument(name));
      return EXIT_USAGE;
    }
    p += item + (end != NULL);
  }
  return 0;
}

/* Index of a supported implementation called name, or -1. */
static long supported_impl(crisp_kernel kernel, const char *name) {
  for (size_t i = 0; i < crisp_impl_count(kernel); i++)
    if (!strcmp(crisp_impl_name_at(kernel, i), name) && crisp_impl_supported_at(kernel, i)) return (long)i;
  return -1;
}

static size_t crisp_rows(const struct options *options, const bench_spec *spec, bench_row *rows) {
  const bench_routine *routine = spec->routine;
  const crisp_kernel kernel = spec->kernels[0];
  size_t count = 0;
  if (!options->impl) {
    rows[count++] = (bench_row){routine, crisp_impl_name(kernel), NULL, 0, 0, 0};
  } else if (!strcmp(options->impl, "all")) {
    for (size_t i = 0; i < crisp_impl_count(kernel) && count < MAX_ROWS / 2; i++)
      if (crisp_impl_supported_at(kernel, i))
        rows[count++] =
            (bench_row){routine, crisp_impl_name_at(kernel, i), crisp_impl_name_at(kernel, i), 0, 0, 0};
  } else if (supported_impl(kernel, options->impl) >= 0) {
    rows[count++] = (bench_row){routine, options->impl, options->impl, 0, 0, 0};
  }
  return count;
}

static int from_source(const bench_row *row, const char *source) {
  return !strcmp(row->routine->source, source);
}

/* crisp's rows against the fastest peer; the EVP rows are no peers, and
 * the crisp provider's row is compared with the default provider's. */
static void compare_with_peers(bench_row *rows, size_t count) {
  double best_peer = INFINITY, default_provider = NAN;
  for (size_t r = 0; r < count; r++) {
    if (from_source(&rows[r], BENCH_SOURCE_DEFAULT_PROVIDER)) default_provider = rows[r].ns_per_op;
    if (from_source(&rows[r], "crisp") || from_source(&rows[r], BENCH_SOURCE_CRISP_PROVIDER) ||
        from_source(&rows[r], BENCH_SOURCE_DEFAULT_PROVIDER))
      continue;
    if (rows[r].ns_per_op < best_peer) best_peer = rows[r].ns_per_op;
  }
  for (size_t r = 0; r < count; r++) {
    if (from_source(&rows[r], "crisp") && isfinite(best_peer))
      rows[r].vs_best_peer = best_peer / rows[r].ns_per_op;
    if (from_source(&rows[r], BENCH_SOURCE_CRISP_PROVIDER) && isfinite(default_provider) &&
        isfinite(rows[r].ns_per_op))
      rows[r].vs_default_provider = default_provider / rows[r].ns_per_op;
  }
}

static int run_case(const struct options *options, const bench_spec *spec, size_t size) {
  bench_row rows[MAX_ROWS];
  size_t count = crisp_rows(options, spec, rows);
  if (!count) return 0;
  for (size_t i = 0; options->peers && i < bench_peer_count() && count < MAX_ROWS; i++)
    if (!strcmp(bench_peer_at(i)->kernel, spec->label))
      rows[count++] = (bench_row){bench_peer_at(i), NULL, NULL, 0, 0, 0};
  if (options->peers) count += bench_provider_rows(spec->label, size, rows + count, MAX_ROWS - count);
  bench_case c;
  int status = bench_case_init(&c, spec, size);
  if (status == 0) status = bench_measure(&c, rows, count, &options->settings);
  if (status == 0) {
    bench_provider_drop_failed(rows, count);
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
  for (size_t s = 0; s < bench_spec_count; s++) {
    const crisp_kernel kernel = bench_specs[s].kernels[0];
    if (!kernel_selected(options, bench_specs[s].label)) continue;
    for (size_t i = 0; i < crisp_impl_count(kernel); i++) {
      if (strcmp(crisp_impl_name_at(kernel, i), options->impl)) continue;
      if (crisp_impl_supported_at(kernel, i)) return 0;
      known = 1;
    }
  }
  if (known) {
    print_error("implementation %s is not supported by this CPU", cli_quote_argument(options->impl));
    return EXIT_USAGE;
  }
  return usage_error("no selected kernel has an implementation called %s", cli_quote_argument(options->impl));
}

static int parse(int argc, char **argv, struct options *options) {
  int quick = 0, time_given = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    const int has_value = i + 1 < argc;
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      options->tune ? tune_help() : help();
      return -1;
    } else if (!strcmp(arg, "--tune")) {
      options->tune = 1;
    } else if (!strcmp(arg, "--version")) {
      printf("crisp-bench %s\n", CRISP_VERSION_STRING);
      if (strcmp(crisp_version(), CRISP_VERSION_STRING)) printf("libcrisp %s\n", crisp_version());
      return -1;
    } else if (!strcmp(arg, "--peers")) {
      options->peers = 1;
    } else if (!strcmp(arg, "--json")) {
      options->settings.json = 1;
    } else if (!strcmp(arg, "--tsv")) {
      options->settings.tsv = 1;
    } else if (!strcmp(arg, "--check")) {
      options->check = 1;
    } else if (!strcmp(arg, "--sweep")) {
      options->sweep = 1;
    } else if (!strcmp(arg, "--quick")) {
      quick = 1;
    } else if (!strcmp(arg, "--chunk") && has_value) {
      char *end;
      const char *text = argv[++i];
      const unsigned long long chunk = strtoull(text, &end, 10);
      if (*text < '0' || *text > '9' || *end || chunk == 0 || chunk > (1u << 30))
        return usage_error("--chunk needs a number of bytes from 1 to 1073741824 (1 GiB)");
      options->settings.chunk = (size_t)chunk;
    } else if (!strcmp(arg, "--kernel") && has_value) {
      options->kernels = argv[++i];
      const int status = check_labels(options->kernels);
      if (status) return status;
    } else if (!strcmp(arg, "--impl") && has_value) {
      options->impl = argv[++i];
    } else if (!strcmp(arg, "--provider-path") && has_value) {
      options->provider_path = argv[++i];
    } else if (!strcmp(arg, "--peer-lib") && has_value) {
      if (options->peer_lib_count == MAX_PEER_LIB_OPTIONS)
        return usage_error("--peer-lib is taken at most %d times", MAX_PEER_LIB_OPTIONS);
      options->peer_libs[options->peer_lib_count++] = argv[++i];
    } else if (!strcmp(arg, "--time") && has_value) {
      char *end;
      options->settings.row_ms = strtod(argv[++i], &end);
      if (*end || !(options->settings.row_ms > 0 && options->settings.row_ms < 1e6))
        return usage_error("--time needs a number of milliseconds above 0 and below 1000000");
      time_given = 1;
    } else if (!strcmp(arg, "--kernel") || !strcmp(arg, "--impl") || !strcmp(arg, "--time") ||
               !strcmp(arg, "--chunk") || !strcmp(arg, "--provider-path") || !strcmp(arg, "--peer-lib")) {
      return usage_error("option %s needs a value", cli_quote_argument(arg));
    } else {
      return usage_error("unknown argument %s", cli_quote_argument(arg));
    }
  }
  /* --quick: short rows, unless --time says how long, wherever it stands */
  if (quick) {
    options->settings.batch_ms = 0.5, options->settings.repetitions = 3;
    if (!time_given) options->settings.row_ms = 25;
  }
  const char *sweep_label = options->kernels ? options->kernels : BENCH_SWEEP_DEFAULT;
  if (options->sweep && !bench_sweep_supports(sweep_label, 0))
    return usage_error("--sweep measures poly1305, chacha20 or chacha20poly1305_seal only");
  if (options->sweep && !bench_sweep_supports(sweep_label, options->settings.chunk != 0))
    return usage_error("--chunk streams poly1305 only");
  if (options->tune &&
      (options->sweep || options->peers || options->kernels || options->impl || options->settings.json ||
       options->settings.tsv || options->check || options->settings.chunk || options->provider_path ||
       options->peer_lib_count || quick))
    return usage_error(
        "%s", strcmp(program, "crisp tune") ? "--tune takes only --time" : "its only option is --time");
  if (options->settings.tsv && options->settings.json)
    return usage_error("--json and --tsv are one or the other");
  if (options->sweep && options->impl) return usage_error("--sweep measures every implementation: no --impl");
  if (options->settings.tsv && !options->sweep) return usage_error("--tsv goes with --sweep");
  if (options->settings.chunk && !options->sweep) return usage_error("--chunk goes with --sweep");
  if (options->provider_path && (!options->peers || options->sweep))
    return usage_error("--provider-path goes with --peers (and not --sweep)");
  if (options->peer_lib_count && !options->peers) return usage_error("--peer-lib goes with --peers");
  options->settings.peers = options->peers;
  return 0;
}

/* --check: every crisp kernel has its spec, and every spec is well formed
 * (a routine for its label, sizes, known kernels, a label used once). */
static int check_specs(void) {
  int problems = 0;
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    if (bench_kernel_spec((crisp_kernel)k)) continue;
    print_error(
        "kernel '%s' has no bench cases (bench/kernel_cases.c needs a spec labelled so, first kernel itself)",
        crisp_kernel_name((crisp_kernel)k));
    problems++;
  }
  for (size_t s = 0; s < bench_spec_count; s++) {
    const bench_spec *spec = &bench_specs[s];
    int good = spec->routine && !strcmp(spec->routine->kernel, spec->label) && spec->sizes[0] > 0 &&
               spec->kernel_count >= 1 && spec->kernel_count <= BENCH_MAX_SPEC_KERNELS &&
               bench_find_spec(spec->label) == spec;
    for (size_t k = 0; good && k < spec->kernel_count; k++)
      good = crisp_kernel_name(spec->kernels[k]) != NULL;
    if (good) continue;
    print_error("bench spec '%s' is malformed", spec->label);
    problems++;
  }
  if (problems) return 1;
  printf("%zu bench specs cover all %d kernels\n", bench_spec_count, (int)CRISP_KERNEL_COUNT);
  return 0;
}

/* A full run says which kernels it cannot measure rather than skip them. */
static void report_missing_specs(void) {
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
    if (!bench_kernel_spec((crisp_kernel)k))
      print_error("kernel '%s' has no bench cases: not measured (they belong in bench/kernel_cases.c)",
                  crisp_kernel_name((crisp_kernel)k));
}

static int run(int argc, char **argv) {
  struct options options = {NULL, NULL, NULL, {NULL}, 0, 0, 0, 0, 0, {0, 1, 5, 0, 0, 0, 0}};
  const int parsed = parse(argc, argv, &options);
  if (parsed) return parsed < 0 ? 0 : parsed;
  if (options.check) return check_specs();
  if (options.tune) {
    if (options.settings.row_ms == 0) options.settings.row_ms = 30;
    options.settings.batch_ms = 0.5, options.settings.repetitions = 3;
    return bench_tune(&options.settings);
  }
  /* The sweep has ~50 lengths times every implementation: shorter rows. */
  if (options.settings.row_ms == 0) options.settings.row_ms = options.sweep ? 40 : 200;
  const int impl_status = check_impl(&options);
  if (impl_status) return impl_status;
  if (options.peers) bench_peer_libraries_load(options.peer_libs, options.peer_lib_count);
  if (options.peers && !bench_peer_count())
    print_error("no peer library (OpenSSL, libsodium, GMP) was found at build time: no peer rows");
  if (options.peers && bench_peers_init() != 0) {
    print_error("a peer library failed to initialise");
    return 1;
  }
  if (options.sweep)
    return bench_sweep(&options.settings, options.kernels ? options.kernels : BENCH_SWEEP_DEFAULT);
  if (!options.kernels) report_missing_specs();
  if (options.peers) bench_provider_init(options.provider_path);
  bench_report_begin(&options.settings);
  int status = 0;
  for (size_t s = 0; s < bench_spec_count; s++) {
    const bench_spec *spec = &bench_specs[s];
    if (!kernel_selected(&options, spec->label)) continue;
    for (size_t i = 0; i < BENCH_MAX_SIZES && spec->sizes[i]; i++) {
      if (run_case(&options, spec, spec->sizes[i]) >= 0) continue;
      print_error("out of memory measuring %s", spec->label);
      status = 1;
    }
  }
  bench_report_end(&options.settings);
  bench_provider_finish();
  return status;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--tune")) program = "crisp tune";
  /* Before any file is opened, so none lands on a closed stdout. */
  cli_reserve_standard_descriptors();
  const int status = run(argc, argv);
  /* Output that did not reach stdout fails the run, as in the crisp command. */
  if (cli_close_stdout(cli_descriptor_was_closed(STDOUT_FILENO)) == 0) return status;
  const int error = errno;
  print_error("write error%s%s", error ? ": " : "", error ? strerror(error) : "");
  return 1;
}
