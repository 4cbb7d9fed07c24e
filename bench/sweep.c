/* bench/sweep.c - crisp-bench --kernel poly1305 --sweep: one-shot Poly1305
 * at every length from 16 B to 64 KiB that sits on or next to a power of two
 * (2^k - 1, 2^k, 2^k + 1, 2^k + 15), for each implementation this CPU runs
 * and for the default (dispatched) path, which must stay within 0.95x of the
 * fastest single implementation at every length. */
#include <math.h>
#include <stdio.h>

#include "bench.h"

#define MIN_LENGTH 16
#define MAX_LENGTH 65536
#define MAX_IMPLS 15
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

/* Index of the fastest single implementation (every row but the last). */
static size_t fastest(const bench_row *rows, size_t impls) {
  size_t best = 0;
  for (size_t r = 1; r < impls; r++)
    if (rows[r].ns_per_op < rows[best].ns_per_op) best = r;
  return best;
}

static void print_header(const bench_row *rows, size_t count, const bench_settings *settings) {
  if (settings->json) {
    printf("{\"sweep\": \"poly1305\", \"cpu\": \"%s\", \"implementations\": [", crisp_cpu_brand());
    for (size_t r = 0; r < count; r++) printf("%s\"%s\"", r ? ", " : "", rows[r].impl);
    printf("], \"lengths\": [");
  } else if (settings->tsv) {
    printf("length");
    for (size_t r = 0; r < count; r++) printf("\t%s", rows[r].impl);
    printf("\n");
  } else {
    printf("poly1305 one-shot MB/s by length on %s\n%8s", crisp_cpu_brand(), "length");
    for (size_t r = 0; r < count; r++) printf(" %12s", rows[r].impl);
    printf(" %8s %s\n", "ratio", "(default / fastest implementation)");
  }
}

static void print_length(const bench_case *c, const bench_row *rows, size_t count, int first,
                         const bench_settings *settings) {
  const size_t best = fastest(rows, count - 1);
  const double ratio = rows[best].ns_per_op / rows[count - 1].ns_per_op;
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
static int measure_length(bench_case *c, bench_row *rows, size_t count, const bench_settings *settings) {
  if (bench_measure(c, rows, count, settings) != 0) return -1;
  const size_t best = fastest(rows, count - 1);
  if (rows[best].ns_per_op / rows[count - 1].ns_per_op >= GOOD_RATIO) return 0;
  double previous[MAX_IMPLS + 1];
  for (size_t r = 0; r < count; r++) previous[r] = rows[r].ns_per_op;
  if (bench_measure(c, rows, count, settings) != 0) return -1;
  for (size_t r = 0; r < count; r++) rows[r].ns_per_op = fmin(rows[r].ns_per_op, previous[r]);
  return 0;
}

int bench_sweep(const bench_settings *settings) {
  const bench_spec *spec = bench_kernel_spec(CRISP_KERNEL_POLY1305);
  if (!spec) {
    fprintf(stderr, "crisp bench: poly1305 has no bench cases\n");
    return 1;
  }
  const bench_routine *routine = spec->routine;
  bench_row rows[MAX_IMPLS + 1];
  size_t count = 0;
  for (size_t i = 0; i < crisp_impl_count(CRISP_KERNEL_POLY1305) && count < MAX_IMPLS; i++) {
    const char *name = crisp_impl_name_at(CRISP_KERNEL_POLY1305, i);
    if (crisp_impl_supported_at(CRISP_KERNEL_POLY1305, i)) rows[count++] = (bench_row){routine, name, name, 0, 0};
  }
  rows[count++] = (bench_row){routine, "default", NULL, 0, 0};
  size_t lengths[MAX_LENGTHS];
  const size_t length_count = sweep_lengths(lengths);
  size_t low = 0;
  print_header(rows, count, settings);
  for (size_t l = 0; l < length_count; l++) {
    bench_case c;
    if (bench_case_init(&c, spec, lengths[l]) != 0 || measure_length(&c, rows, count, settings) != 0) {
      bench_case_free(&c);
      fprintf(stderr, "crisp bench: out of memory\n");
      return 1;
    }
    low += rows[fastest(rows, count - 1)].ns_per_op / rows[count - 1].ns_per_op < GOOD_RATIO;
    print_length(&c, rows, count, l == 0, settings);
    bench_case_free(&c);
  }
  if (settings->json) printf("\n], \"low_lengths\": %zu}\n", low);
  else if (!settings->tsv) printf("%zu of %zu lengths below %.2fx\n", low, length_count, GOOD_RATIO);
  return 0;
}
