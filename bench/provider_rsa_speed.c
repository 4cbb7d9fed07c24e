/* bench/provider_rsa_speed.c - RSA signs per second through OpenSSL's EVP
 * API, crisp's provider against the default provider, rounds interleaved.
 * `openssl speed rsa2048` measures the same path (OpenSSL 3.0's speed
 * signs through EVP_PKEY_sign) by elapsed rounds; this program adds other
 * sizes, several rounds interleaved and the ratio.
 * Usage: provider-rsa-speed PROVIDER_DIR [BITS [SECONDS [ROUNDS]]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "evp_work.h"

/* The process's CPU time, as openssl speed divides by (its -elapsed
 * switches to wall time): on a shared machine wall time counts other
 * processes' turns. */
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Signs a SHA-256 hash (PKCS#1 v1.5) with the provider `properties`
 * picks for `seconds` of CPU time; returns signs per CPU second, or -1. */
static double signs_per_second(OSSL_LIB_CTX *libctx, EVP_PKEY *key, const char *properties, double seconds) {
  const evp_work_input input = {libctx, properties, NULL, 0, NULL, key};
  void *state = evp_work_rsa_sign.setup(&input);
  if (!state) return -1;
  long count = 0;
  double start = now(), elapsed;
  do {
    if (!evp_work_rsa_sign.run(state, 1)) {
      evp_work_rsa_sign.teardown(state);
      return -1;
    }
    count++;
  } while ((elapsed = now() - start) < seconds);
  evp_work_rsa_sign.teardown(state);
  return (double)count / elapsed;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s PROVIDER_DIR [BITS [SECONDS [ROUNDS]]]\n", argv[0]);
    return 2;
  }
  int bits = argc > 2 ? atoi(argv[2]) : 2048;
  double seconds = argc > 3 ? atof(argv[3]) : 3.0;
  int rounds = argc > 4 ? atoi(argv[4]) : 3;
  OSSL_LIB_CTX *libctx = OSSL_LIB_CTX_new();
  OSSL_PROVIDER *default_provider = OSSL_PROVIDER_load(libctx, "default");
  OSSL_PROVIDER *crisp = NULL;
  if (default_provider && OSSL_PROVIDER_set_default_search_path(libctx, argv[1]))
    crisp = OSSL_PROVIDER_load(libctx, "crisp");
  EVP_PKEY *key = crisp ? EVP_PKEY_Q_keygen(libctx, "provider=default", "RSA", (size_t)bits) : NULL;
  if (!key) {
    ERR_print_errors_fp(stderr);
    return 1;
  }
  printf("RSA-%d PKCS#1 v1.5 SHA-256 signs per CPU second through EVP_PKEY_sign, %.1f s per run\n", bits,
         seconds);
  double best_default = 0, best_crisp = 0;
  for (int round = 0; round < rounds; round++) {
    double with_default = signs_per_second(libctx, key, "provider=default", seconds);
    double with_crisp = signs_per_second(libctx, key, "provider=crisp", seconds);
    if (with_default < 0 || with_crisp < 0) {
      ERR_print_errors_fp(stderr);
      return 1;
    }
    printf("round %d: default %8.1f  crisp %8.1f  ratio %.3f\n", round + 1, with_default, with_crisp,
           with_crisp / with_default);
    if (with_default > best_default) best_default = with_default;
    if (with_crisp > best_crisp) best_crisp = with_crisp;
  }
  printf("best:    default %8.1f  crisp %8.1f  ratio %.3f\n", best_default, best_crisp,
         best_crisp / best_default);
  EVP_PKEY_free(key);
  OSSL_PROVIDER_unload(crisp);
  OSSL_PROVIDER_unload(default_provider);
  OSSL_LIB_CTX_free(libctx);
  return 0;
}
