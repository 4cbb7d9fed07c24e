/* src/chacha20.c - the ChaCha20 front-end: argument and counter checks, the
 * input block, then the kernel in use; and HChaCha20 for XChaCha20. */
#include "crisp/chacha20.h"

#include "chacha20_internal.h"
#include "dispatch/select.h"
#include "generic/generic.h"
#include "scrub_depths.h"
#include "util.h"

/* "expand 32-byte k" as four little-endian words (RFC 8439 2.3). */
static const uint32_t sigma[4] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};

void crisp_chacha20_setup(uint32_t state[16], const uint8_t key[32], const uint8_t nonce[12],
                          uint32_t counter) {
  for (int i = 0; i < 4; i++) state[i] = sigma[i];
  for (int i = 0; i < 8; i++) state[4 + i] = crisp_load32_le(key + 4 * i);
  state[12] = counter;
  for (int i = 0; i < 3; i++) state[13 + i] = crisp_load32_le(nonce + 4 * i);
}

/* Out of line: whatever a compiler keeps of the key in its frame lies
 * below its caller's, where crisp_hchacha20's scrub (or the XChaCha20
 * AEAD's) reaches. */
__attribute__((noinline)) void crisp_hchacha20_subkey(uint8_t subkey[32], const uint8_t key[32],
                                                      const uint8_t input[16]) {
  uint32_t x[16];
  for (int i = 0; i < 4; i++) x[i] = sigma[i];
  for (int i = 0; i < 8; i++) x[4 + i] = crisp_load32_le(key + 4 * i);
  for (int i = 0; i < 4; i++) x[12 + i] = crisp_load32_le(input + 4 * i);
  crisp_chacha20_rounds_generic(x);
  /* The first and last rows, without the feed-forward addition. */
  for (int i = 0; i < 4; i++) crisp_store32_le(subkey + 4 * i, x[i]);
  for (int i = 0; i < 4; i++) crisp_store32_le(subkey + 16 + 4 * i, x[12 + i]);
  crisp_wipe(x, sizeof x);
}

int crisp_hchacha20(uint8_t subkey[32], const uint8_t key[CRISP_CHACHA20_KEY_SIZE], const uint8_t input[16]) {
  if (!subkey || !key || !input) return CRISP_E_INVALID;
  crisp_hchacha20_subkey(subkey, key, input);
  crisp_scrub_below(CRISP_SCRUB_HCHACHA20_BYTES);
  return CRISP_OK;
}

/* The key's words in the input block and the kernel, as a call of their
 * own: every frame that held them lies below crisp_chacha20's. */
static __attribute__((noinline)) void chacha20_keyed(const crisp_chacha20_impl *impl, uint8_t *out,
                                                     const uint8_t *in, size_t len, const uint8_t key[32],
                                                     const uint8_t nonce[12], uint32_t counter) {
  uint32_t state[16];
  crisp_chacha20_setup(state, key, nonce, counter);
  impl->xor_stream(out, in, len, state);
  crisp_wipe(state, sizeof state);
}

int crisp_chacha20(uint8_t *out, const uint8_t *in, size_t len, const uint8_t key[CRISP_CHACHA20_KEY_SIZE],
                   const uint8_t nonce[CRISP_CHACHA20_NONCE_SIZE], uint32_t counter) {
  if (!key || !nonce || (len && (!out || !in))) return CRISP_E_INVALID;
  if (!len) return CRISP_OK;
  if (out != in && crisp_overlaps(out, len, in, len)) return CRISP_E_INVALID;
  /* Blocks from counter to 2^32 - 1 inclusive are available. */
  const uint64_t blocks = (uint64_t)(len / 64) + (len % 64 != 0);
  if (blocks > (uint64_t)0x100000000u - counter) return CRISP_E_RANGE;
  chacha20_keyed(crisp_active_chacha20(), out, in, len, key, nonce, counter);
  crisp_scrub_below(CRISP_SCRUB_CHACHA20_BYTES(len));
  return CRISP_OK;
}
