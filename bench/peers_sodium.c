/* bench/peers_sodium.c - libsodium as a benchmark peer: one-shot
 * crypto_onetimeauth_poly1305. */
#include <sodium.h>

#include "bench.h"

static void run_poly1305(void *state, const bench_case *c, size_t iterations) {
  unsigned char tag[crypto_onetimeauth_poly1305_BYTES];
  (void)state;
  for (size_t i = 0; i < iterations; i++) crypto_onetimeauth_poly1305(tag, c->data, c->size, c->key);
}

int bench_sodium_init(void) { return sodium_init() < 0 ? -1 : 0; }

const bench_routine bench_sodium_routines[] = {
    {"poly1305", "libsodium", "crypto_onetimeauth_poly1305", NULL, run_poly1305, NULL},
};
const size_t bench_sodium_routine_count = sizeof bench_sodium_routines / sizeof bench_sodium_routines[0];
