/* bench/bench.h - the benchmark engine's shared types: a case (one operation
 * at one size with its inputs), a routine (crisp's or a peer library's code
 * for that operation), and the measuring, case-building and reporting calls
 * the crisp bench subcommand strings together. */
#ifndef CRISP_BENCH_H
#define CRISP_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include <crisp/crisp.h>

/* One operation at one size, with deterministic pseudo-random inputs. */
typedef struct bench_case {
  const char *kernel; /* "md5", "md5_many", "poly1305", "bn_mul", ..., "mod_exp" */
  size_t size;        /* bytes per message, or bits for big-integer cases */
  size_t messages;    /* messages per operation (md5_many), else 1 */
  int is_bignum;      /* size counts bits; report ns/op rather than MB/s */
  double bytes_per_op;
  uint8_t *data;                          /* messages * size bytes */
  const void **message_pointers;          /* md5_many: one pointer per message */
  size_t *message_lengths;                /* md5_many: one length per message */
  uint8_t key[CRISP_POLY1305_KEY_SIZE];   /* Poly1305 key */
  crisp_limb *x, *y, *modulus, *exponent; /* limbs operands */
  crisp_limb *out;                        /* 2 * limbs + 1 */
  size_t limbs;
  crisp_limb minv; /* crisp_bn_mont_inv(modulus[0]) */
} bench_case;

/* Code that performs a case's operation `iterations` times. */
typedef struct bench_routine {
  const char *kernel; /* the cases it applies to */
  const char *source; /* "crisp", "openssl", "libsodium", "gmp" */
  const char *name;   /* what is called, e.g. "MD5()" */
  void *(*setup)(const bench_case *c);  /* may be NULL; returns per-case state */
  void (*run)(void *state, const bench_case *c, size_t iterations);
  void (*teardown)(void *state);        /* may be NULL */
} bench_routine;

/* A row of results: a routine, and for crisp the implementation pinned
 * while it runs (NULL: the dispatched default). */
typedef struct bench_row {
  const bench_routine *routine;
  const char *impl;      /* implementation name shown in the table */
  const char *pin;       /* passed to crisp_use_impl, NULL for default */
  double ns_per_op;      /* best of the repetitions */
  double vs_best_peer;   /* crisp rows: crisp speed / fastest peer; 0 if none */
} bench_row;

typedef struct bench_settings {
  double row_ms;      /* measuring time per row, all batches together */
  double batch_ms;    /* one timed batch */
  int repetitions;    /* batches per row at least */
  int json;
  int tsv;            /* sweep only: tab-separated data for plotting */
} bench_settings;

/* crisp's own routines, and every peer routine built in (may be none). */
extern const bench_routine bench_crisp_routines[];
extern const size_t bench_crisp_routine_count;
size_t bench_peer_count(void);
const bench_routine *bench_peer_at(size_t i);
/* Called once before peers run (e.g. sodium_init); 0 on success. */
int bench_peers_init(void);

/* The crisp kernels a case's kernel label depends on (mod_exp: two). */
size_t bench_case_kernels(const char *kernel, crisp_kernel out[2]);

/* Case inputs. */
int bench_case_init(bench_case *c, const char *kernel, size_t size, size_t messages);
void bench_case_free(bench_case *c);

/* Measures every row on one case, interleaved: warm-up and calibration,
 * then `repetitions` rounds that each time every row once; keeps the best. */
int bench_measure(const bench_case *c, bench_row *rows, size_t count, const bench_settings *settings);

/* Monotonic clock in nanoseconds. */
double bench_now_ns(void);

/* Reporting: a header, one block of rows per case, a footer. */
void bench_report_begin(const bench_settings *settings);
void bench_report_case(const bench_case *c, const bench_row *rows, size_t count, const bench_settings *settings);
void bench_report_end(const bench_settings *settings);
/* "64 B", "16 KiB", "16x16 KiB", "2048 bit". */
void bench_size_label(char *out, size_t capacity, const bench_case *c);

/* crisp bench --kernel poly1305 --sweep. Returns the exit status. */
int bench_sweep(const bench_settings *settings);

#endif
