/* fuzz/fuzz_chacha20poly1305.c - crisp_chacha20_poly1305_seal and _open
 * (12-byte nonce) against OpenSSL; the checks are fuzz_aead.h's. */
#include "fuzz_aead.h"

static const fuzz_aead chacha20poly1305 = {12, crisp_chacha20_poly1305_seal, oracle_chacha20_poly1305_seal,
                                           crisp_chacha20_poly1305_open, "OpenSSL"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_aead_input(&chacha20poly1305, data, size);
}
