/* bench/provider_speed.c - the crisp provider against the default provider
 * through the same EVP calls, in one process: two library contexts, one
 * with the default provider alone, one with crisp beside it and preferred
 * ("?provider=crisp"), measured in turn (interleaved, best of the rounds)
 * through the calls of bench/evp_work.c
 * on the work `openssl speed` cannot do in OpenSSL 3.0 (a Poly1305 MAC per
 * message) and on the TLS-like AEAD sequence and MD5 for comparison.
 * Prints MB/s per context and the ratio; fails when crisp's call counters
 * did not move (the preferred context did not run crisp).
 * Usage: provider_speed PROVIDER_DIR [SECONDS_PER_MEASUREMENT [ROUNDS [WORK]]]
 * WORK: only the works whose name starts so ("poly1305", "chacha", "md5"). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "evp_work.h"

enum { MAX_SIZE = 16384 };

typedef struct work {
  const char *name;
  const evp_work *work;
} work;

static unsigned char input[MAX_SIZE];
static const unsigned char key[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9};

/* The thread's CPU time, as openssl speed's default: time spent descheduled
 * on a shared machine does not count. */
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void fail(const char *name) {
  ERR_print_errors_fp(stderr);
  fprintf(stderr, "provider_speed: %s failed\n", name);
  exit(1);
}

/* Bytes per second for `seconds` of the work, in batches. */
static double rate(const work *w, OSSL_LIB_CTX *libctx, size_t size, double seconds) {
  const evp_work_input in = {libctx, NULL, input, size, key, NULL};
  void *state = w->work->setup(&in);
  if (!state) fail(w->name);
  long batch = 64, done = 0;
  const double start = now();
  double elapsed = 0;
  while (elapsed < seconds) {
    if (!w->work->run(state, (size_t)batch)) fail(w->name);
    done += batch;
    elapsed = now() - start;
    if (elapsed < seconds / 8) batch *= 2;
  }
  w->work->teardown(state);
  return (double)done * (double)size / elapsed;
}

static uint64_t crisp_calls(OSSL_PROVIDER *crisp) {
  uint64_t counts[3] = {0, 0, 0};
  OSSL_PARAM params[] = {OSSL_PARAM_uint64("crisp.calls.md5", &counts[0]),
                         OSSL_PARAM_uint64("crisp.calls.poly1305", &counts[1]),
                         OSSL_PARAM_uint64("crisp.calls.chacha20-poly1305", &counts[2]), OSSL_PARAM_END};
  if (!OSSL_PROVIDER_get_params(crisp, params)) return 0;
  return counts[0] + counts[1] + counts[2];
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 5) {
    fprintf(stderr, "usage: provider_speed PROVIDER_DIR [SECONDS_PER_MEASUREMENT [ROUNDS [WORK]]]\n");
    return 2;
  }
  const double seconds = argc > 2 ? atof(argv[2]) : 0.5;
  const int rounds = argc > 3 ? atoi(argv[3]) : 3;
  const char *only = argc > 4 ? argv[4] : "";
  OSSL_LIB_CTX *plain = OSSL_LIB_CTX_new(), *preferred = OSSL_LIB_CTX_new();
  OSSL_PROVIDER *crisp = NULL;
  if (!plain || !preferred || !OSSL_PROVIDER_load(plain, "default") ||
      !OSSL_PROVIDER_set_default_search_path(preferred, argv[1]) ||
      !(crisp = OSSL_PROVIDER_load(preferred, "crisp")) || !OSSL_PROVIDER_load(preferred, "default") ||
      !EVP_set_default_properties(preferred, "?provider=crisp") || seconds <= 0 || rounds < 1) {
    ERR_print_errors_fp(stderr);
    fprintf(stderr, "provider_speed: cannot set up the library contexts\n");
    return 1;
  }
  static const work works[] = {
      {"poly1305 MAC", &evp_work_poly1305},
      {"chacha20-poly1305 seal", &evp_work_aead_seal},
      {"md5 digest", &evp_work_md5},
  };
  static const size_t sizes[] = {64, 1024, 16384};
  printf("%-24s %7s %12s %12s %7s\n", "work", "bytes", "default MB/s", "crisp MB/s", "ratio");
  for (size_t w = 0; w < sizeof works / sizeof *works; w++)
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && strncmp(works[w].name, only, strlen(only)) == 0;
         s++) {
      double best_plain = 0, best_crisp = 0;
      const uint64_t before = crisp_calls(crisp);
      for (int round = 0; round < rounds; round++) {
        const double p = rate(&works[w], plain, sizes[s], seconds);
        const double c = rate(&works[w], preferred, sizes[s], seconds);
        best_plain = p > best_plain ? p : best_plain;
        best_crisp = c > best_crisp ? c : best_crisp;
      }
      if (crisp_calls(crisp) == before) {
        fprintf(stderr, "provider_speed: crisp's counters did not move for %s\n", works[w].name);
        return 1;
      }
      printf("%-24s %7zu %12.0f %12.0f %6.2fx\n", works[w].name, sizes[s], best_plain / 1e6, best_crisp / 1e6,
             best_crisp / best_plain);
      fflush(stdout);
    }
  OSSL_LIB_CTX_free(plain);
  OSSL_LIB_CTX_free(preferred);
  return 0;
}
