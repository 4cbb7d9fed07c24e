/* fuzz/fuzz_chacha20.c - crisp_chacha20 and crisp_hchacha20: key, nonce,
 * counter and message come from the input; every implementation, out of
 * place and in place, must give OpenSSL's keystream (generic's when OpenSSL
 * is absent), and a counter that would pass 2^32 - 1 must be refused;
 * HChaCha20 of the nonce and counter bytes must give libsodium's.
 * Input: 32-byte key, 12-byte nonce, 4-byte counter (big-endian), message. */
#include "fuzz_common.h"
#include "fuzz_oracle.h"

enum { MAX_MESSAGE = 1 << 16 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  uint8_t key[32], nonce[12], counter_bytes[4];
  fuzz_fill(&in, key, sizeof key, 0xff);
  fuzz_fill(&in, nonce, sizeof nonce, 0);
  fuzz_fill(&in, counter_bytes, sizeof counter_bytes, 0);
  const uint32_t counter = (uint32_t)counter_bytes[0] << 24 | (uint32_t)counter_bytes[1] << 16 |
                           (uint32_t)counter_bytes[2] << 8 | counter_bytes[3];
  const size_t len = in.size < MAX_MESSAGE ? in.size : MAX_MESSAGE;
  const uint8_t *message = in.data;
  const uint64_t blocks = (uint64_t)(len / 64) + (len % 64 != 0);
  const int fits = blocks <= (uint64_t)0x100000000u - counter;

  static uint8_t expected[MAX_MESSAGE], out[MAX_MESSAGE];
  fuzz_pin(CRISP_KERNEL_CHACHA20, "generic");
  const int status = crisp_chacha20(expected, message, len, key, nonce, counter);
  fuzz_check(status == (fits ? CRISP_OK : CRISP_E_RANGE), "chacha20 status %d, counter %u, len %zu", status,
             counter, len);
  if (fits) {
    fuzz_check(!oracle_chacha20(out, message, len, key, nonce, counter) || !memcmp(out, expected, len),
               "chacha20 generic differs from OpenSSL, counter %u, len %zu", counter, len);
    const char *impls[FUZZ_MAX_IMPLS];
    const size_t count = fuzz_impls(CRISP_KERNEL_CHACHA20, impls, FUZZ_MAX_IMPLS);
    for (size_t i = 0; i < count; i++) {
      fuzz_pin(CRISP_KERNEL_CHACHA20, impls[i]);
      const char *name = crisp_impl_name(CRISP_KERNEL_CHACHA20);
      fuzz_check(crisp_chacha20(out, message, len, key, nonce, counter) == CRISP_OK, "chacha20 %s", name);
      fuzz_check(!memcmp(out, expected, len), "chacha20 %s, counter %u, len %zu", name, counter, len);
      memcpy(out, message, len);
      fuzz_check(crisp_chacha20(out, out, len, key, nonce, counter) == CRISP_OK, "chacha20 %s in place",
                 name);
      fuzz_check(!memcmp(out, expected, len), "chacha20 %s in place, counter %u, len %zu", name, counter,
                 len);
    }
  }
  /* HChaCha20 on the nonce and counter bytes as its 16-byte input. */
  uint8_t input[16], subkey[32], outside[32];
  memcpy(input, nonce, 12);
  memcpy(input + 12, counter_bytes, 4);
  fuzz_check(crisp_hchacha20(subkey, key, input) == CRISP_OK, "hchacha20");
  fuzz_check(!oracle_hchacha20(outside, key, input) || !memcmp(outside, subkey, 32),
             "hchacha20 differs from libsodium");
  fuzz_pin(CRISP_KERNEL_CHACHA20, NULL);
  return 0;
}
