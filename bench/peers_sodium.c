/* bench/peers_sodium.c - libsodium as a benchmark peer:
 * crypto_onetimeauth_poly1305 (one-shot or streamed), the IETF ChaCha20
 * stream and its AEAD. */
#include <sodium.h>
#include <stdlib.h>

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
      crypto_onetimeauth_poly1305_update(&st, c->data + done,
                                         c->size - done < c->chunk ? c->size - done : c->chunk);
    crypto_onetimeauth_poly1305_final(&st, tag);
  }
}

static const unsigned char zero_nonce[12];

static void run_chacha20(void *state, const bench_case *c, size_t iterations) {
  for (size_t i = 0; i < iterations; i++)
    crypto_stream_chacha20_ietf_xor_ic(bench_aead_out(state), c->data, c->size, zero_nonce, 1, c->key);
}

static void run_aead_seal(void *state, const bench_case *c, size_t iterations) {
  unsigned char tag[crypto_aead_chacha20poly1305_ietf_ABYTES];
  for (size_t i = 0; i < iterations; i++)
    crypto_aead_chacha20poly1305_ietf_encrypt_detached(bench_aead_out(state), tag, NULL, c->data, c->size,
                                                       NULL, 0, NULL, zero_nonce, c->key);
}

static void run_aead_open(void *state, const bench_case *c, size_t iterations) {
  for (size_t i = 0; i < iterations; i++)
    if (crypto_aead_chacha20poly1305_ietf_decrypt_detached(bench_aead_out(state), NULL, bench_aead_ct(state),
                                                           c->size, bench_aead_tag(state), NULL, 0,
                                                           zero_nonce, c->key))
      abort();
}

static void run_aead_open_inplace(void *state, const bench_case *c, size_t iterations) {
  unsigned char *out = bench_aead_out(state);
  for (size_t i = 0; i < iterations; i++) {
    bench_aead_refill(state, c->size);
    if (crypto_aead_chacha20poly1305_ietf_decrypt_detached(out, NULL, out, c->size, bench_aead_tag(state),
                                                           NULL, 0, zero_nonce, c->key))
      abort();
  }
}

int bench_sodium_init(void) {
  return sodium_init() < 0 ? -1 : 0;
}

const bench_routine bench_sodium_routines[] = {
    {"poly1305", "libsodium", "crypto_onetimeauth_poly1305", NULL, run_poly1305, NULL},
    {"chacha20", "libsodium", "crypto_stream_chacha20_ietf_xor_ic", bench_aead_setup, run_chacha20,
     bench_aead_teardown},
    {"chacha20poly1305_seal", "libsodium", "crypto_aead_chacha20poly1305_ietf_encrypt_detached",
     bench_aead_setup, run_aead_seal, bench_aead_teardown},
    {"chacha20poly1305_open", "libsodium", "crypto_aead_chacha20poly1305_ietf_decrypt_detached",
     bench_aead_setup, run_aead_open, bench_aead_teardown},
    {"chacha20poly1305_open_inplace", "libsodium",
     "crypto_aead_chacha20poly1305_ietf_decrypt_detached in place", bench_aead_setup, run_aead_open_inplace,
     bench_aead_teardown},
};
const size_t bench_sodium_routine_count = sizeof bench_sodium_routines / sizeof bench_sodium_routines[0];
