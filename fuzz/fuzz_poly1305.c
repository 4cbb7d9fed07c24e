/* fuzz/fuzz_poly1305.c - Poly1305 streaming: key, split points and message
 * come from the input; every implementation, one-shot and streamed, must
 * give generic's tag, and verify must accept it and reject a flipped bit.
 * Input: 32-byte key, split count byte, 2-byte split points, message. */
#include "fuzz_common.h"
#include "fuzz_oracle.h"

enum { MAX_SPLITS = 8 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  uint8_t key[32];
  fuzz_fill(&in, key, sizeof key, 0xff);
  const size_t splits = fuzz_byte(&in) % (MAX_SPLITS + 1);
  size_t points[MAX_SPLITS];
  for (size_t i = 0; i < splits; i++) points[i] = fuzz_below(&in, 65536);
  const uint8_t *message = in.data;
  const size_t len = in.size;

  uint8_t expected[16], tag[16];
  fuzz_pin(CRISP_KERNEL_POLY1305, "generic");
  crisp_poly1305(expected, message, len, key);
  uint8_t outside[16];
  fuzz_check(!oracle_poly1305(outside, message, len, key) || !memcmp(outside, expected, 16),
             "poly1305 generic differs from libsodium, len %zu", len);

  const char *impls[FUZZ_MAX_IMPLS];
  const size_t count = fuzz_impls(CRISP_KERNEL_POLY1305, impls, FUZZ_MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    fuzz_pin(CRISP_KERNEL_POLY1305, impls[i]);
    const char *name = crisp_impl_name(CRISP_KERNEL_POLY1305);
    crisp_poly1305(tag, message, len, key);
    fuzz_check(!memcmp(tag, expected, 16), "poly1305 %s one-shot, len %zu", name, len);
    crisp_poly1305_ctx ctx;
    crisp_poly1305_init(&ctx, key);
    size_t done = 0;
    for (size_t s = 0; s < splits; s++) {
      const size_t piece = points[s] % (len - done + 1);
      crisp_poly1305_update(&ctx, message + done, piece);
      done += piece;
    }
    crisp_poly1305_update(&ctx, message + done, len - done);
    crisp_poly1305_final(&ctx, tag);
    fuzz_check(!memcmp(tag, expected, 16), "poly1305 %s streamed in %zu splits, len %zu", name, splits, len);
    fuzz_check(crisp_poly1305_verify(expected, message, len, key) == CRISP_OK, "poly1305_verify %s, len %zu",
               name, len);
    tag[len % 16] ^= (uint8_t)(1u << (len % 8));
    fuzz_check(crisp_poly1305_verify(tag, message, len, key) == CRISP_E_MISMATCH,
               "poly1305_verify %s accepted a wrong tag, len %zu", name, len);
  }
  fuzz_pin(CRISP_KERNEL_POLY1305, NULL);
  return 0;
}
