/* fuzz/fuzz_xchacha20poly1305.c - crisp_xchacha20_poly1305_seal and _open
 * (24-byte nonce) against libsodium; the checks are fuzz_aead.h's. */
#include "fuzz_aead.h"

static const fuzz_aead xchacha20poly1305 = {24, crisp_xchacha20_poly1305_seal, oracle_xchacha20_poly1305_seal,
                                            crisp_xchacha20_poly1305_open, "libsodium"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_aead_input(&xchacha20poly1305, data, size);
}
