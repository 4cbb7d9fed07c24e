/* bench/bench.h - the benchmark engine's shared types: a spec (how one kernel
 * is benchmarked), a case (one operation at one size with its inputs), a
 * routine (crisp's or a peer library's code for that operation), and the
 * measuring, case-building and reporting calls crisp-bench strings together. */
#ifndef CRISP_BENCH_H
#define CRISP_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include <crisp/crisp.h>

struct bench_routine;

#define BENCH_MAX_SPEC_KERNELS 2
#define BENCH_MAX_SIZES 8

/* How one label given to --kernel is benchmarked: the crisp kernels its
 * operation runs (the first one's implementations make the rows of
 * --impl all), crisp's routine, and the sizes measured. A crisp kernel is
 * benchmarked by the spec whose label is its crisp_kernel_name; other labels
 * (mod_exp) measure operations built on several kernels. */
typedef struct bench_spec {
  const char *label;
  crisp_kernel kernels[BENCH_MAX_SPEC_KERNELS];
  size_t kernel_count;
  const struct bench_routine *routine;
  int is_bignum;                 /* sizes count bits and inputs are limbs */
  size_t messages;               /* messages per operation (md5_many), else 1 */
  size_t sizes[BENCH_MAX_SIZES]; /* bytes per message, or bits; 0 ends the list */
} bench_spec;

/* One operation at one size, with deterministic pseudo-random inputs. */
typedef struct bench_case {
  const bench_spec *spec;
  const char *kernel; /* the spec's label */
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
  crisp_limb minv;                 /* crisp_bn_mont_inv(modulus[0]) */
  const struct bench_rsa_key *rsa; /* rsa_private: the key (modulus is its n, x the input c) */
  size_t chunk;                    /* Poly1305: streamed in updates of this many bytes; 0: one call */
} bench_case;

/* Code that performs a case's operation `iterations` times. */
typedef struct bench_routine {
  const char *kernel;                  /* the cases it applies to */
  const char *source;                  /* "crisp", "openssl", "libsodium", "gmp" */
  const char *name;                    /* what is called, e.g. "MD5()" */
  void *(*setup)(const bench_case *c); /* may be NULL; returns per-case state */
  void (*run)(void *state, const bench_case *c, size_t iterations);
  void (*teardown)(void *state); /* may be NULL */
} bench_routine;

/* A row of results: a routine, and for crisp the implementation pinned
 * while it runs (NULL: the dispatched default). */
typedef struct bench_row {
  const bench_routine *routine;
  const char *impl;           /* implementation name shown in the table */
  const char *pin;            /* passed to crisp_use_impl, NULL for default */
  double ns_per_op;           /* best of the repetitions */
  double vs_best_peer;        /* crisp rows: crisp speed / fastest peer; 0 if none */
  double vs_default_provider; /* the crisp provider's rows: its speed / the default provider's; 0 if none */
} bench_row;

typedef struct bench_settings {
  double row_ms;   /* measuring time per row, all batches together */
  double batch_ms; /* one timed batch */
  int repetitions; /* batches per row at least */
  int json;
  int tsv;      /* sweep only: tab-separated data for plotting */
  int peers;    /* sweep only: peer rows and the default's ratio to the best */
  size_t chunk; /* sweep only: Poly1305 streamed in updates of this size; 0: one-shot */
} bench_settings;

/* Every spec, in the order the bench runs them (bench/kernel_cases.c). */
extern const bench_spec bench_specs[];
extern const size_t bench_spec_count;
/* The spec with this label, or NULL. */
const bench_spec *bench_find_spec(const char *label);
/* The spec that benchmarks crisp kernel k (label crisp_kernel_name(k),
 * first kernel k), or NULL when the kernel has no bench cases yet. */
const bench_spec *bench_kernel_spec(crisp_kernel kernel);

/* Every peer routine built in (may be none). */
size_t bench_peer_count(void);
const bench_routine *bench_peer_at(size_t i);
/* The routine whose setup bench_measure is calling: a setup shared by
 * routines of several loaded libraries (bench/peers_dynamic.c) tells by it
 * which library to set up. */
extern const bench_routine *bench_setup_routine;
/* Called once before peers run (e.g. sodium_init); 0 on success. */
int bench_peers_init(void);

/* The EVP rows (bench/peers_provider.c): the same EVP calls on two
 * library contexts, one with the crisp provider loaded and its algorithms
 * fetched with "provider=crisp", one with the default provider alone; rows
 * of these sources are no peers of crisp's own rows. */
#define BENCH_SOURCE_CRISP_PROVIDER "provider=crisp"
#define BENCH_SOURCE_DEFAULT_PROVIDER "provider=default"
/* Loads the crisp provider from the folder given (--provider-path), else
 * CRISP_PROVIDER_PATH, else the build tree's provider folder when this
 * crisp-bench runs from a build tree, else the folder it is installed in.
 * When it cannot, or this crisp-bench was built without OpenSSL 3, there
 * are no EVP rows and one stderr line says why (only when a folder was
 * given, for the latter). Never fails the bench. */
void bench_provider_init(const char *path);
/* Frees the library contexts. */
void bench_provider_finish(void);
/* The EVP rows of the case label at size, written to rows (at most
 * capacity); returns how many. */
size_t bench_provider_rows(const char *label, size_t size, bench_row *rows, size_t capacity);
/* After bench_measure: EVP rows whose calls failed (a stderr line said so)
 * get no figures (ns_per_op NAN). */
void bench_provider_drop_failed(bench_row *rows, size_t count);
/* While EVP rows run: OpenSSL_version(OPENSSL_VERSION) and the folder crisp.so
 * was loaded from; NULL otherwise. */
const char *bench_provider_openssl_version(void);
const char *bench_provider_folder(void);

/* Case inputs for one size of a spec. */
int bench_case_init(bench_case *c, const bench_spec *spec, size_t size);
void bench_case_free(bench_case *c);

/* Measures every row on one case, interleaved: warm-up and calibration,
 * then `repetitions` rounds that each time every row once; keeps the best. */
int bench_measure(const bench_case *c, bench_row *rows, size_t count, const bench_settings *settings);

/* Monotonic clock in nanoseconds. */
double bench_now_ns(void);

/* Reporting: a header, one block of rows per case, a footer. */
void bench_report_begin(const bench_settings *settings);
void bench_report_case(const bench_case *c, const bench_row *rows, size_t count,
                       const bench_settings *settings);
void bench_report_end(const bench_settings *settings);
/* "64 B", "16 KiB", "16x16 KiB", "2048 bit". */
void bench_size_label(char *out, size_t capacity, const bench_case *c);

/* --tune: every supported implementation of each kernel at a few sizes,
 * then the CRYPTO_IMPL line that pins the winners. Returns the exit status. */
int bench_tune(const bench_settings *settings);

/* ChaCha20 / AEAD cases: an output buffer and a ciphertext with its tag,
 * sealed by crisp (no AD, zero nonce, the case's key) for open to verify;
 * peers' routines share them. */
void *bench_aead_setup(const bench_case *c);
void bench_aead_teardown(void *state);
uint8_t *bench_aead_ct(void *state);
uint8_t *bench_aead_out(void *state);
const uint8_t *bench_aead_tag(void *state);
/* The output buffer refilled with the first size bytes of the ciphertext,
 * for an open in place (chacha20poly1305_open_inplace). */
void bench_aead_refill(void *state, size_t size);

/* --kernel poly1305|chacha20|chacha20poly1305_seal --sweep. Returns the
 * exit status. */
int bench_sweep(const bench_settings *settings, const char *label);
#define BENCH_SWEEP_DEFAULT "poly1305" /* --sweep without --kernel */
/* Whether --sweep measures label (with --chunk when chunked). */
int bench_sweep_supports(const char *label, int chunked);

#endif
