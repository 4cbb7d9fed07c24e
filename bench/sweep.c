/* bench/sweep.c - crisp-bench --kernel poly1305|chacha20poly1305_seal
 * --sweep: the one-shot call at every length from 16 B to 64 KiB that sits
 * on or next to a power of two (2^k - 1, 2^k, 2^k + 1, 2^k + 15), for each
 * implementation of the spec's first kernel this CPU runs and for the
 * default (dispatched) path, which must stay within 0.95x of the fastest
 * single implementation at every length; the AEAD's peers (OpenSSL,
 * libsodium) are measured beside them for its chart. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define MIN_LENGTH 16
#define MAX_LENGTH 65536
#define MAX_IMPLS 15
#define MAX_ROWS (MAX_IMPLS + 1 + 8)
#define MAX_LENGTHS 64
#define GOOD_RATIO 0.95

static size_t sweep_lengths(size_t lengths[MAX_LENGTHS]) {
  size_t count = 0;
  for (size_t power = MIN_LENGTH; power <= MAX_LENGTH; power *= 2) {
    const size_t around[] = {power - 1, power, power + 1, power + 15};
    for (size_t i = 0; i < 4; i++)
      if (around[i] >= MIN_LENGTH && around[i] <= MAX_LENGTH && (!count || around[i] > lengths[count - 1]))
        lengths[count++] = around[i];
  }
  return count;
}

static double mb_per_s(const bench_case *c, const bench_row *row) { return c->bytes_per_op * 1e3 / row->ns_per_op; }

/* Index of the fastest single implementation (rows before the default). */
static size_t fastest(const bench_row *rows, size_t impls) {
  size_t best = 0;
  for (size_t r = 1; r < impls; r++)
    if (rows[r].ns_per_op < rows[best].ns_per_op) best = r;
  return best;
}

static void print_header(const char *label, const bench_row *rows, size_t count, const bench_settings *settings) {
  if (settings->json) {
    printf("{\"sweep\": \"%s\", \"cpu\": \"%s\", \"implementations\": [", label, crisp_cpu_brand());
    for (size_t r = 0; r < count; r++) printf("%s\"%s\"", r ? ", " : "", rows[r].impl);
    printf("], \"lengths\": [");
  } else if (settings->tsv) {
    printf("length");
    for (size_t r = 0; r < count; r++) printf("\t%s", rows[r].impl);
    printf("\n");
  } else {
    printf("%s one-shot MB/s by length on %s\n%8s", label, crisp_cpu_brand(), "length");
    for (size_t r = 0; r < count; r++) printf(" %12s", rows[r].impl);
    printf(" %8s %s\n", "ratio", "(default / fastest implementation)");
  }
}

static void print_length(const bench_case *c, const bench_row *rows, size_t count, size_t impls, int first,
                         const bench_settings *settings) {
  const size_t best = fastest(rows, impls);
  const double ratio = rows[best].ns_per_op / rows[impls].ns_per_op;
  const int low = ratio < GOOD_RATIO;
  if (settings->json) {
    printf("%s\n  {\"length\": %zu", first ? "" : ",", c->size);
    for (size_t r = 0; r < count; r++) printf(", \"%s\": %.2f", rows[r].impl, mb_per_s(c, &rows[r]));
    printf(", \"fastest\": \"%s\", \"ratio\": %.4f, \"low\": %s}", rows[best].impl, ratio, low ? "true" : "false");
  } else if (settings->tsv) {
    printf("%zu", c->size);
    for (size_t r = 0; r < count; r++) printf("\t%.2f", mb_per_s(c, &rows[r]));
    printf("\n");
  } else {
    printf("%8zu", c->size);
    for (size_t r = 0; r < count; r++) printf(" %12.1f", mb_per_s(c, &rows[r]));
    printf(" %7.2fx", ratio);
    if (low) printf("  LOW (fastest: %s)", rows[best].impl);
    printf("\n");
  }
  fflush(stdout);
}

/* Measures one length; a length that looks low is measured once more and
 * each row keeps its better result, so one noisy batch does not flag it. */
static int measure_length(bench_case *c, bench_row *rows, size_t count, size_t impls,
                          const bench_settings *settings) {
  if (bench_measure(c, rows, count, settings) != 0) return -1;
  const size_t best = fastest(rows, impls);
  if (rows[best].ns_per_op / rows[impls].ns_per_op >= GOOD_RATIO) return 0;
  double previous[MAX_ROWS];
  for (size_t r = 0; r < count; r++) previous[r] = rows[r].ns_per_op;
  if (bench_measure(c, rows, count, settings) != 0) return -1;
  for (size_t r = 0; r < count; r++) rows[r].ns_per_op = fmin(rows[r].ns_per_op, previous[r]);
  return 0;
}

int bench_sweep(const bench_settings *settings, const char *label) {
  const bench_spec *spec = bench_find_spec(label);
  if (!spec || !spec->kernel_count) {
    fprintf(stderr, "crisp bench: %s has no bench cases\n", label);
    return 1;
  }
  const crisp_kernel kernel = spec->kernels[0];
  const bench_routine *routine = spec->routine;
  bench_row rows[MAX_ROWS];
  size_t count = 0;
  for (size_t i = 0; i < crisp_impl_count(kernel) && count < MAX_IMPLS; i++) {
    const char *name = crisp_impl_name_at(kernel, i);
    if (crisp_impl_supported_at(kernel, i)) rows[count++] = (bench_row){routine, name, name, 0, 0};
  }
  const size_t impls = count;
  rows[count++] = (bench_row){routine, "default", NULL, 0, 0};
  /* Peers for the AEAD's chart; Poly1305's sweep stays crisp's own. */
  if (strcmp(label, "poly1305") != 0 && bench_peers_init() == 0)
    for (size_t p = 0; p < bench_peer_count() && count < MAX_ROWS; p++)
      if (!strcmp(bench_peer_at(p)->kernel, label))
        rows[count++] = (bench_row){bench_peer_at(p), bench_peer_at(p)->source, NULL, 0, 0};
  size_t lengths[MAX_LENGTHS];
  const size_t length_count = sweep_lengths(lengths);
  size_t low = 0;
  print_header(label, rows, count, settings);
  for (size_t l = 0; l < length_count; l++) {
    bench_case c;
    if (bench_case_init(&c, spec, lengths[l]) != 0 || measure_length(&c, rows, count, impls, settings) != 0) {
      bench_case_free(&c);
      fprintf(stderr, "crisp bench: out of memory\n");
      return 1;
    }
    low += rows[fastest(rows, impls)].ns_per_op / rows[impls].ns_per_op < GOOD_RATIO;
    print_length(&c, rows, count, impls, l == 0, settings);
    bench_case_free(&c);
  }
  if (settings->json) printf("\n], \"low_lengths\": %zu}\n", low);
  else if (!settings->tsv) printf("%zu of %zu lengths below %.2fx\n", low, length_count, GOOD_RATIO);
  return 0;
}
