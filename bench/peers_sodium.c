/* bench/peers_sodium.c - libsodium as a benchmark peer:
 * crypto_onetimeauth_poly1305, one-shot or streamed. */
#include <sodium.h>

#include "bench.h"

static void run_poly1305(void *state, const bench_case *c, size_t iterations) {
  unsigned char tag[crypto_onetimeauth_poly1305_BYTES];
  (void)state;
  if (!c->chunk) {
    for (size_t i = 0; i < iterations; i++) crypto_onetimeauth_poly1305(tag, c->data, c->size, c->key);
    return;
  }
  crypto_onetimeauth_poly1305_state st;
  for (size_t i = 0; i < iterations; i++) {
    crypto_onetimeauth_poly1305_init(&st, c->key);
    for (size_t done = 0; done < c->size; done += c->chunk)
      crypto_onetimeauth_poly1305_update(&st, c->data + done, c->size - done < c->chunk ? c->size - done : c->chunk);
    crypto_onetimeauth_poly1305_final(&st, tag);
  }
}

int bench_sodium_init(void) { return sodium_init() < 0 ? -1 : 0; }

const bench_routine bench_sodium_routines[] = {
    {"poly1305", "libsodium", "crypto_onetimeauth_poly1305", NULL, run_poly1305, NULL},
};
const size_t bench_sodium_routine_count = sizeof bench_sodium_routines / sizeof bench_sodium_routines[0];
