/* bench/tune.c - crisp-bench --tune, behind `crisp tune`: for a CPU nobody
 * has measured, times every implementation this CPU supports of each kernel
 * at three of its bench sizes (the smallest, a middle one, the largest),
 * scores each by the geometric mean over those sizes of its speed relative
 * to the fastest, and prints the CRYPTO_IMPL line that pins the winners
 * (the default wherever nothing beats it by more than noise). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../tools/close_stdout.h"
#include "bench.h"

#define MAX_IMPLS 16
#define TUNE_SIZES 3
/* A winner must beat the default by this fraction, or the default stays. */
#define TIE_MARGIN 0.03

/* The representative sizes of a spec: its first, middle and last. */
static size_t tune_sizes(const bench_spec *spec, size_t out[TUNE_SIZES]) {
  size_t n = 0;
  while (n < BENCH_MAX_SIZES && spec->sizes[n]) n++;
  if (n == 0) return 0;
  const size_t picks[TUNE_SIZES] = {0, n / 2, n - 1};
  size_t count = 0;
  for (size_t i = 0; i < TUNE_SIZES; i++)
    if (count == 0 || spec->sizes[picks[i]] != out[count - 1]) out[count++] = spec->sizes[picks[i]];
  return count;
}

/* Measures one kernel; writes its winner's name; returns -1 on failure. */
static int tune_kernel(crisp_kernel kernel, const bench_settings *settings, const char **winner) {
  const bench_spec *spec = bench_kernel_spec(kernel);
  *winner = crisp_impl_name(kernel);
  if (!spec) return 0;
  bench_row rows[MAX_IMPLS];
  size_t count = 0;
  for (size_t i = 0; i < crisp_impl_count(kernel) && count < MAX_IMPLS; i++)
    if (crisp_impl_supported_at(kernel, i))
      rows[count++] =
          (bench_row){spec->routine, crisp_impl_name_at(kernel, i), crisp_impl_name_at(kernel, i), 0, 0, 0};
  if (count < 2) return 0;
  double log_score[MAX_IMPLS] = {0};
  size_t sizes[TUNE_SIZES];
  const size_t size_count = tune_sizes(spec, sizes);
  for (size_t s = 0; s < size_count; s++) {
    bench_case c;
    if (bench_case_init(&c, spec, sizes[s]) != 0 || bench_measure(&c, rows, count, settings) != 0) {
      bench_case_free(&c);
      return -1;
    }
    char label[32];
    bench_size_label(label, sizeof label, &c);
    double best = INFINITY;
    for (size_t r = 0; r < count; r++) best = fmin(best, rows[r].ns_per_op);
    printf("  %-12s %-10s", crisp_kernel_name(kernel), label);
    for (size_t r = 0; r < count; r++) {
      log_score[r] += log(best / rows[r].ns_per_op);
      printf("  %s %.3gx", rows[r].impl, best / rows[r].ns_per_op);
    }
    printf("\n");
    bench_case_free(&c);
  }
  size_t top = 0, current = 0;
  for (size_t r = 1; r < count; r++) {
    if (log_score[r] > log_score[top]) top = r;
    if (!strcmp(rows[r].impl, crisp_impl_name(kernel))) current = r;
  }
  /* Within the noise of a shared machine, the default stays. */
  if (exp((log_score[top] - log_score[current]) / (double)size_count) < 1.0 + TIE_MARGIN) top = current;
  *winner = rows[top].impl;
  return 0;
}

int bench_tune(const bench_settings *settings) {
  const char *winners[CRISP_KERNEL_COUNT];
  printf("crisp tune: %s, %s; speed relative to the fastest implementation at each size\n", crisp_cpu_brand(),
         crisp_cpu_uarch());
  cli_flush_stdout();
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    if (tune_kernel((crisp_kernel)k, settings, &winners[k]) != 0) {
      fprintf(stderr, "crisp tune: out of memory measuring %s\n", crisp_kernel_name((crisp_kernel)k));
      return 1;
    }
    cli_flush_stdout();
  }
  printf("winners (geometric mean over the sizes; default in brackets):\n");
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
    printf("  %-12s %s [%s]\n", crisp_kernel_name((crisp_kernel)k), winners[k],
           crisp_impl_name((crisp_kernel)k));
  printf("CRYPTO_IMPL=");
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
    printf("%s%s:%s", k ? "," : "", crisp_kernel_name((crisp_kernel)k), winners[k]);
  printf("\n");
  return 0; /* a write error is reported by main (bench.c) */
}
