/* fuzz/fuzz_xchacha20poly1305.c - crisp_xchacha20_poly1305_seal and _open:
 * key, nonce, AD and message come from the input; every implementation must
 * seal as libsodium does (generic when libsodium is absent), open its own
 * output in place and apart, and refuse a tag or ciphertext with one bit
 * flipped, leaving zeros.
 * Input: 32-byte key, 24-byte nonce, AD length byte, AD, message. */
#include "fuzz_common.h"
#include "fuzz_oracle.h"

enum { MAX_MESSAGE = 1 << 16 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  uint8_t key[32], nonce[24], ad[255];
  fuzz_fill(&in, key, sizeof key, 0xff);
  fuzz_fill(&in, nonce, sizeof nonce, 0);
  const size_t ad_len = fuzz_byte(&in);
  fuzz_fill(&in, ad, ad_len, 0xad);
  const size_t len = in.size < MAX_MESSAGE ? in.size : MAX_MESSAGE;
  const uint8_t *message = in.data;

  static uint8_t expected[MAX_MESSAGE + 16], ct[MAX_MESSAGE], pt[MAX_MESSAGE];
  uint8_t expected_tag[16], tag[16];
  fuzz_pin(CRISP_KERNEL_CHACHA20, "generic");
  fuzz_check(crisp_xchacha20_poly1305_seal(expected, expected_tag, message, len, ad, ad_len, nonce, key) == CRISP_OK,
             "seal generic");
  fuzz_check(!oracle_xchacha20_poly1305_seal(ct, tag, message, len, ad, ad_len, nonce, key) ||
                 (!memcmp(ct, expected, len) && !memcmp(tag, expected_tag, 16)),
             "seal generic differs from libsodium, ad %zu, len %zu", ad_len, len);
  const char *impls[FUZZ_MAX_IMPLS];
  const size_t count = fuzz_impls(CRISP_KERNEL_CHACHA20, impls, FUZZ_MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    fuzz_pin(CRISP_KERNEL_CHACHA20, impls[i]);
    const char *name = crisp_impl_name(CRISP_KERNEL_CHACHA20);
    fuzz_check(crisp_xchacha20_poly1305_seal(ct, tag, message, len, ad, ad_len, nonce, key) == CRISP_OK, "seal");
    fuzz_check(!memcmp(ct, expected, len) && !memcmp(tag, expected_tag, 16), "seal %s, ad %zu, len %zu", name, ad_len,
               len);
    fuzz_check(crisp_xchacha20_poly1305_open(pt, ct, len, tag, ad, ad_len, nonce, key) == CRISP_OK, "open %s", name);
    fuzz_check(!memcmp(pt, message, len), "open %s, len %zu", name, len);
    fuzz_check(crisp_xchacha20_poly1305_open(ct, ct, len, tag, ad, ad_len, nonce, key) == CRISP_OK, "open %s in place",
               name);
    fuzz_check(!memcmp(ct, message, len), "open %s in place, len %zu", name, len);
    /* One flipped bit, in the tag or (when there is one) the ciphertext. */
    const size_t bit = (ad_len * 131 + len * 7) % (8 * (16 + len));
    memcpy(ct, expected, len);
    if (bit < 128) tag[bit / 8] ^= (uint8_t)(1u << bit % 8);
    else ct[(bit - 128) / 8] ^= (uint8_t)(1u << bit % 8);
    fuzz_check(crisp_xchacha20_poly1305_open(pt, ct, len, tag, ad, ad_len, nonce, key) == CRISP_E_MISMATCH,
               "open %s accepted a flipped bit %zu, len %zu", name, bit, len);
    for (size_t j = 0; j < len; j++) fuzz_check(pt[j] == 0, "open %s left plaintext after a forgery", name);
  }
  fuzz_pin(CRISP_KERNEL_CHACHA20, NULL);
  return 0;
}
