/* bench/peers.c - the peer libraries built into this crisp command: their
 * routine tables gathered into one list (each table only when its library
 * was found at build time), then the rows of the libraries loaded at run
 * time (--peer-lib); and no EVP rows when OpenSSL 3 was not found. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "peer_library.h"

#ifdef CRISP_HAVE_OPENSSL
extern const bench_routine bench_openssl_routines[];
extern const size_t bench_openssl_routine_count;
#endif
#ifdef CRISP_HAVE_SODIUM
extern const bench_routine bench_sodium_routines[];
extern const size_t bench_sodium_routine_count;
int bench_sodium_init(void);
#endif
#ifdef CRISP_HAVE_GMP
extern const bench_routine bench_gmp_routines[];
extern const size_t bench_gmp_routine_count;
#endif

struct table {
  const bench_routine *routines;
  const size_t *count;
};

static const struct table tables[] = {
#ifdef CRISP_HAVE_OPENSSL
    {bench_openssl_routines, &bench_openssl_routine_count},
#endif
#ifdef CRISP_HAVE_SODIUM
    {bench_sodium_routines, &bench_sodium_routine_count},
#endif
#ifdef CRISP_HAVE_GMP
    {bench_gmp_routines, &bench_gmp_routine_count},
#endif
    {NULL, NULL},
};

size_t bench_peer_count(void) {
  size_t total = 0;
  for (const struct table *t = tables; t->routines; t++) total += *t->count;
  return total + bench_dynamic_peer_count();
}

const bench_routine *bench_peer_at(size_t i) {
  for (const struct table *t = tables; t->routines; t++) {
    if (i < *t->count) return &t->routines[i];
    i -= *t->count;
  }
  return bench_dynamic_peer_at(i);
}

int bench_peers_init(void) {
#ifdef CRISP_HAVE_SODIUM
  if (bench_sodium_init() != 0) return -1;
#endif
  return 0;
}

#ifndef CRISP_HAVE_PROVIDER
void bench_provider_init(const char *path) {
  if (path || getenv("CRISP_PROVIDER_PATH"))
    fprintf(stderr,
            "crisp bench: no EVP rows: this crisp-bench was built without OpenSSL 3 "
            "(libcrypto 3 not found, or -Dprovider=disabled)\n");
}

void bench_provider_finish(void) {}

size_t bench_provider_rows(const char *label, size_t size, bench_row *rows, size_t capacity) {
  (void)label, (void)size, (void)rows, (void)capacity;
  return 0;
}

void bench_provider_drop_failed(bench_row *rows, size_t count) {
  (void)rows, (void)count;
}

const char *bench_provider_openssl_version(void) {
  return NULL;
}

const char *bench_provider_folder(void) {
  return NULL;
}
#endif
