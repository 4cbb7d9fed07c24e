/* bench/sweep.c - crisp-bench --kernel K --sweep, for the labels in
 * sweep_kernels: the call at every length from 16 B to 1 MiB that sits on or
 * next to a power of two (2^k - 1, 2^k, 2^k + 1, 2^k + 15), one-shot or
 * (Poly1305 with --chunk N) streamed in N-byte updates, for each
 * implementation of the spec's first kernel this CPU runs and for the
 * default (dispatched) path, which must stay within 0.95x of the fastest
 * single implementation at every length. With --peers (always for ChaCha20
 * and the AEAD, whose targets are stated against them), OpenSSL and
 * libsodium run the same work and the default must be at least 1.0x the
 * faster of them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../tools/close_stdout.h"
#include "bench.h"

#define MIN_LENGTH 16
#define MAX_LENGTH 1048576
#define MAX_ROWS 24
#define MAX_LENGTHS 96
#define GOOD_RATIO 0.95
#define PEER_RATIO 1.0

/* The labels --sweep measures. */
static const struct sweep_kernel {
  const char *label;
  int always_peers; /* peer rows without --peers */
  int streams;      /* --chunk applies */
} sweep_kernels[] = {
    {"poly1305", 0, 1},
    {"chacha20", 1, 0},
    {"chacha20poly1305_seal", 1, 0},
};

static const struct sweep_kernel *find_sweep_kernel(const char *label) {
  for (size_t i = 0; i < sizeof sweep_kernels / sizeof sweep_kernels[0]; i++)
    if (!strcmp(sweep_kernels[i].label, label)) return &sweep_kernels[i];
  return NULL;
}

int bench_sweep_supports(const char *label, int chunked) {
  const struct sweep_kernel *k = find_sweep_kernel(label);
  return k && (!chunked || k->streams);
}

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

static double mb_per_s(const bench_case *c, const bench_row *row) {
  return c->bytes_per_op * 1e3 / row->ns_per_op;
}

/* The rows: crisp's implementations [0, impls), the default at impls, then
 * peers (impls + 1 onwards). */
typedef struct sweep_rows {
  bench_row rows[MAX_ROWS];
  size_t impls, count;
} sweep_rows;

static size_t fastest_of(const bench_row *rows, size_t from, size_t to) {
  size_t best = from;
  for (size_t r = from + 1; r < to; r++)
    if (rows[r].ns_per_op < rows[best].ns_per_op) best = r;
  return best;
}

static double impl_ratio(const sweep_rows *s) {
  return s->rows[fastest_of(s->rows, 0, s->impls)].ns_per_op / s->rows[s->impls].ns_per_op;
}

/* Default over the best peer; 0 without peer rows. */
static double peer_ratio(const sweep_rows *s) {
  if (s->count <= s->impls + 1) return 0;
  const size_t best = fastest_of(s->rows, s->impls + 1, s->count);
  return isfinite(s->rows[best].ns_per_op) ? s->rows[best].ns_per_op / s->rows[s->impls].ns_per_op : 0;
}

static void print_header(const char *label, const sweep_rows *s, const bench_settings *settings) {
  const bench_row *rows = s->rows;
  if (settings->json) {
    printf("{\"sweep\": \"%s\", \"cpu\": \"%s\", \"uarch\": \"%s\", \"chunk\": %zu, \"implementations\": [",
           label, crisp_cpu_brand(), crisp_cpu_uarch(), settings->chunk);
    for (size_t r = 0; r < s->count; r++) printf("%s\"%s\"", r ? ", " : "", rows[r].impl);
    printf("], \"lengths\": [");
  } else if (settings->tsv) {
    printf("length");
    for (size_t r = 0; r < s->count; r++) printf("\t%s", rows[r].impl);
    printf("\n");
  } else {
    printf("%s %s MB/s by length on %s (%s)\n", label, settings->chunk ? "streamed" : "one-shot",
           crisp_cpu_brand(), crisp_cpu_uarch());
    if (settings->chunk) printf("updates of %zu bytes\n", settings->chunk);
    printf("%8s", "length");
    for (size_t r = 0; r < s->count; r++) printf(" %12s", rows[r].impl);
    printf(" %8s", "vs impl");
    if (s->count > s->impls + 1) printf(" %8s", "vs peer");
    printf("\n");
  }
}

static void print_length(const bench_case *c, const sweep_rows *s, int first,
                         const bench_settings *settings) {
  const bench_row *rows = s->rows;
  const size_t best = fastest_of(rows, 0, s->impls);
  const double ratio = impl_ratio(s), versus_peer = peer_ratio(s);
  const int low = ratio<GOOD_RATIO, behind = versus_peer> 0 && versus_peer < PEER_RATIO;
  if (settings->json) {
    printf("%s\n  {\"length\": %zu", first ? "" : ",", c->size);
    for (size_t r = 0; r < s->count; r++)
      if (isfinite(rows[r].ns_per_op)) printf(", \"%s\": %.2f", rows[r].impl, mb_per_s(c, &rows[r]));
    printf(", \"fastest\": \"%s\", \"ratio\": %.4f, \"low\": %s", rows[best].impl, ratio,
           low ? "true" : "false");
    if (versus_peer > 0)
      printf(", \"vs_peer\": %.4f, \"behind\": %s", versus_peer, behind ? "true" : "false");
    printf("}");
  } else if (settings->tsv) {
    printf("%zu", c->size);
    for (size_t r = 0; r < s->count; r++)
      printf("\t%.2f", isfinite(rows[r].ns_per_op) ? mb_per_s(c, &rows[r]) : 0);
    printf("\n");
  } else {
    printf("%8zu", c->size);
    for (size_t r = 0; r < s->count; r++)
      printf(" %12.1f", isfinite(rows[r].ns_per_op) ? mb_per_s(c, &rows[r]) : 0);
    printf(" %7.2fx", ratio);
    if (versus_peer > 0) printf(" %7.2fx", versus_peer);
    if (low) printf("  LOW (fastest: %s)", rows[best].impl);
    if (behind) printf("  BEHIND (%s)", rows[fastest_of(rows, s->impls + 1, s->count)].routine->source);
    printf("\n");
  }
  cli_flush_stdout();
}

/* Measures one length; a length that looks low or behind is measured once
 * more and each row keeps its better result, so one noisy batch does not
 * flag it. */
static int measure_length(bench_case *c, sweep_rows *s, const bench_settings *settings) {
  if (bench_measure(c, s->rows, s->count, settings) != 0) return -1;
  const double versus_peer = peer_ratio(s);
  if (impl_ratio(s) >= GOOD_RATIO && (versus_peer == 0 || versus_peer >= PEER_RATIO)) return 0;
  double previous[MAX_ROWS];
  for (size_t r = 0; r < s->count; r++) previous[r] = s->rows[r].ns_per_op;
  if (bench_measure(c, s->rows, s->count, settings) != 0) return -1;
  for (size_t r = 0; r < s->count; r++) s->rows[r].ns_per_op = fmin(s->rows[r].ns_per_op, previous[r]);
  return 0;
}

int bench_sweep(const bench_settings *settings, const char *label) {
  const bench_spec *spec = bench_find_spec(label);
  const struct sweep_kernel *sweep_kernel = find_sweep_kernel(label);
  if (!spec || !spec->kernel_count || !sweep_kernel) {
    fprintf(stderr, "crisp bench: %s has no bench cases\n", label);
    return 1;
  }
  const crisp_kernel kernel = spec->kernels[0];
  const bench_routine *routine = spec->routine;
  sweep_rows s = {.impls = 0};
  for (size_t i = 0; i < crisp_impl_count(kernel) && s.impls < MAX_ROWS / 2; i++) {
    const char *name = crisp_impl_name_at(kernel, i);
    if (crisp_impl_supported_at(kernel, i)) s.rows[s.impls++] = (bench_row){routine, name, name, 0, 0, 0};
  }
  s.count = s.impls;
  s.rows[s.count++] = (bench_row){routine, "default", NULL, 0, 0, 0};
  const int peers = settings->peers || sweep_kernel->always_peers;
  for (size_t i = 0; peers && bench_peers_init() == 0 && i < bench_peer_count() && s.count < MAX_ROWS; i++)
    if (!strcmp(bench_peer_at(i)->kernel, label))
      s.rows[s.count++] = (bench_row){bench_peer_at(i), bench_peer_at(i)->source, NULL, 0, 0, 0};
  size_t lengths[MAX_LENGTHS];
  const size_t length_count = sweep_lengths(lengths);
  size_t low = 0, behind = 0;
  print_header(label, &s, settings);
  for (size_t l = 0; l < length_count; l++) {
    bench_case c;
    int status = bench_case_init(&c, spec, lengths[l]);
    c.chunk = settings->chunk;
    if (status != 0 || measure_length(&c, &s, settings) != 0) {
      bench_case_free(&c);
      fprintf(stderr, "crisp bench: out of memory\n");
      return 1;
    }
    low += impl_ratio(&s) < GOOD_RATIO;
    behind += peer_ratio(&s) > 0 && peer_ratio(&s) < PEER_RATIO;
    print_length(&c, &s, l == 0, settings);
    bench_case_free(&c);
  }
  if (settings->json) {
    printf("\n], \"low_lengths\": %zu", low);
    if (s.count > s.impls + 1) printf(", \"behind_lengths\": %zu", behind);
    printf("}\n");
  } else if (!settings->tsv) {
    printf("%zu of %zu lengths below %.2fx the fastest implementation", low, length_count, GOOD_RATIO);
    if (s.count > s.impls + 1) printf("; %zu below %.2fx the best peer", behind, PEER_RATIO);
    printf("\n");
  }
  return 0;
}
