/* bench/measure.c - timing: every row of a case is warmed up and calibrated
 * to a short batch (about 1 ms, shorter than a scheduler time slice, so on a
 * busy machine many batches run undisturbed), then the rows take turns batch
 * by batch, starting with a different row each round, until the case's time
 * is used up; each row keeps its best batch. Interleaving makes drifting
 * clocks and noisy neighbours hit every row alike. A batch whose thread CPU
 * time falls short of its wall time was preempted and counts only while a
 * row has no undisturbed batch (then by its CPU time): single operations
 * longer than a time slice still get a fair number on a loaded machine. */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"

#define MAX_ITERATIONS ((size_t)1 << 32)

const bench_routine *bench_setup_routine;

double bench_now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec * 1e9 + (double)now.tv_nsec;
}

/* Pins the row's implementation on the case's kernels (crisp rows only);
 * a kernel without an implementation of that name runs its default. */
static void pin(const bench_case *c, const bench_row *row) {
  const bench_spec *spec = c->spec;
  for (size_t k = 0; k < spec->kernel_count; k++)
    if (!row->pin || crisp_use_impl(spec->kernels[k], row->pin) != CRISP_OK)
      crisp_use_impl(spec->kernels[k], NULL);
}

static void unpin(const bench_case *c) {
  for (size_t k = 0; k < c->spec->kernel_count; k++) crisp_use_impl(c->spec->kernels[k], NULL);
}

static double thread_cpu_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return (double)now.tv_sec * 1e9 + (double)now.tv_nsec;
}

/* Wall time of one batch; *preempted tells whether the thread lost the CPU
 * for more than a few percent of it, and *cpu_ns its CPU time. */
static double time_batch_checked(const bench_row *row, void *state, const bench_case *c, size_t iterations,
                                 int *preempted, double *cpu_ns) {
  const double cpu_start = thread_cpu_ns();
  const double start = bench_now_ns();
  row->routine->run(state, c, iterations);
  const double wall = bench_now_ns() - start;
  *cpu_ns = thread_cpu_ns() - cpu_start;
  *preempted = *cpu_ns < 0.97 * wall;
  return wall;
}

static double time_batch(const bench_row *row, void *state, const bench_case *c, size_t iterations) {
  int preempted;
  double cpu_ns;
  return time_batch_checked(row, state, c, iterations, &preempted, &cpu_ns);
}

/* Iterations for one batch of about batch_ns; the growing runs warm caches,
 * branch predictors and clocks up. */
static size_t calibrate(const bench_row *row, void *state, const bench_case *c, double batch_ns) {
  size_t iterations = 1;
  for (;;) {
    const double elapsed = time_batch(row, state, c, iterations);
    if (elapsed >= batch_ns || iterations >= MAX_ITERATIONS) return iterations;
    if (elapsed < batch_ns / 8 || elapsed < 1000) {
      iterations *= 8;
      continue;
    }
    /* Close enough to extrapolate; one more run at the final count warms up. */
    iterations = (size_t)ceil((double)iterations * batch_ns / elapsed);
    time_batch(row, state, c, iterations);
    return iterations;
  }
}

int bench_measure(const bench_case *c, bench_row *rows, size_t count, const bench_settings *settings) {
  void **states = calloc(count, sizeof *states);
  size_t *iterations = calloc(count, sizeof *iterations);
  int *clean = calloc(count, sizeof *clean); /* has an undisturbed batch */
  if (!states || !iterations || !clean) {
    free(states), free(iterations), free(clean);
    return -1;
  }
  const double batch_ns = settings->batch_ms * 1e6;
  double round_ns = 0;
  for (size_t r = 0; r < count; r++) {
    rows[r].ns_per_op = INFINITY;
    bench_setup_routine = rows[r].routine;
    if (rows[r].routine->setup && !(states[r] = rows[r].routine->setup(c))) {
      rows[r].ns_per_op = NAN; /* the peer could not set up; its row is left out */
      continue;
    }
    pin(c, &rows[r]);
    iterations[r] = calibrate(&rows[r], states[r], c, batch_ns);
    round_ns += time_batch(&rows[r], states[r], c, iterations[r]);
  }
  /* Rounds to fill row_ms per row, at least the minimum repetitions. */
  double rounds = round_ns > 0 ? settings->row_ms * 1e6 * (double)count / round_ns : 0;
  if (rounds < settings->repetitions) rounds = settings->repetitions;
  if (rounds > 100000) rounds = 100000;
  for (int repetition = 0; repetition < (int)rounds; repetition++) {
    for (size_t turn = 0; turn < count; turn++) {
      const size_t r = (turn + (size_t)repetition) % count;
      if (isnan(rows[r].ns_per_op)) continue;
      pin(c, &rows[r]);
      int preempted;
      double cpu_ns;
      const double wall = time_batch_checked(&rows[r], states[r], c, iterations[r], &preempted, &cpu_ns);
      const double per_op = (preempted ? cpu_ns : wall) / (double)iterations[r];
      if (!preempted && !clean[r])
        clean[r] = 1, rows[r].ns_per_op = per_op;
      else if (preempted == !clean[r] && per_op < rows[r].ns_per_op)
        rows[r].ns_per_op = per_op;
    }
  }
  unpin(c);
  for (size_t r = 0; r < count; r++)
    if (rows[r].routine->teardown && states[r]) rows[r].routine->teardown(states[r]);
  free(states);
  free(iterations);
  free(clean);
  return 0;
}
