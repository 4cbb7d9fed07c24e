/* src/generic/chacha20_generic.c - ChaCha20 in portable C, one 64-byte block
 * at a time (RFC 8439 2.3). Also the scalar path the vector implementations
 * hand their short tails to: on cores with 1-cycle scalar rotates one
 * block's four independent quarter-rounds keep the integer units busy,
 * where a vector path would wait on its latency for a single block. */
#include "generic/generic.h"
#include "util.h"

static inline uint32_t rotl32(uint32_t x, int n) {
  return (x << n) | (x >> (32 - n));
}

#define QUARTER_ROUND(a, b, c, d)                 \
  do {                                            \
    x[a] += x[b], x[d] = rotl32(x[d] ^ x[a], 16); \
    x[c] += x[d], x[b] = rotl32(x[b] ^ x[c], 12); \
    x[a] += x[b], x[d] = rotl32(x[d] ^ x[a], 8);  \
    x[c] += x[d], x[b] = rotl32(x[b] ^ x[c], 7);  \
  } while (0)

void crisp_chacha20_rounds_generic(uint32_t x[16]) {
  for (int i = 0; i < 10; i++) {
    QUARTER_ROUND(0, 4, 8, 12);
    QUARTER_ROUND(1, 5, 9, 13);
    QUARTER_ROUND(2, 6, 10, 14);
    QUARTER_ROUND(3, 7, 11, 15);
    QUARTER_ROUND(0, 5, 10, 15);
    QUARTER_ROUND(1, 6, 11, 12);
    QUARTER_ROUND(2, 7, 8, 13);
    QUARTER_ROUND(3, 4, 9, 14);
  }
}

void crisp_chacha20_xor_generic(uint8_t *out, const uint8_t *in, size_t len, const uint32_t state[16]) {
  uint32_t input[16], x[16];
  uint8_t keystream[64];
  memcpy(input, state, sizeof input);
  while (len) {
    memcpy(x, input, sizeof x);
    crisp_chacha20_rounds_generic(x);
    const size_t n = len < 64 ? len : 64;
    if (n == 64) {
      for (int i = 0; i < 16; i++)
        crisp_store32_le(out + 4 * i, crisp_load32_le(in + 4 * i) ^ (x[i] + input[i]));
    } else {
      for (int i = 0; i < 16; i++) crisp_store32_le(keystream + 4 * i, x[i] + input[i]);
      for (size_t i = 0; i < n; i++) out[i] = in[i] ^ keystream[i];
    }
    input[12]++;
    out += n, in += n, len -= n;
  }
  crisp_wipe(x, sizeof x);
  crisp_wipe(input, sizeof input);
  crisp_wipe(keystream, sizeof keystream);
}

const crisp_chacha20_impl crisp_chacha20_generic_impl = {
    .info = CRISP_IMPL_INFO(crisp_chacha20_generic_impl),
    .xor_stream = crisp_chacha20_xor_generic,
    .group_blocks = 1,
};
