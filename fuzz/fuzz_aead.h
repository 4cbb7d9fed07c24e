/* fuzz/fuzz_aead.h - the one harness body both one-shot AEADs share: key,
 * nonce, AD and message come from the input; every implementation must
 * seal as the oracle does (generic alone when the oracle library is
 * absent), open its own output in place and apart, and refuse a tag or
 * ciphertext with one bit flipped, apart and in place, writing nothing.
 * Input: 32-byte key, nonce (nonce_size bytes), AD length byte, AD, message. */
#ifndef CRISP_FUZZ_AEAD_H
#define CRISP_FUZZ_AEAD_H

#include "fuzz_common.h"
#include "fuzz_oracle.h"

typedef int (*fuzz_aead_seal)(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len, const uint8_t *ad,
                              size_t ad_len, const uint8_t *nonce, const uint8_t key[32]);
typedef int (*fuzz_aead_open)(uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t tag[16],
                              const uint8_t *ad, size_t ad_len, const uint8_t *nonce, const uint8_t key[32]);

typedef struct fuzz_aead {
  size_t nonce_size;
  fuzz_aead_seal seal, oracle_seal; /* oracle_seal returns 0 when it has no library */
  fuzz_aead_open open;
  const char *oracle_name;
} fuzz_aead;

enum { FUZZ_AEAD_MAX_MESSAGE = 1 << 16 };

static int fuzz_aead_input(const fuzz_aead *aead, const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  uint8_t key[32], nonce[24], ad[255];
  fuzz_fill(&in, key, sizeof key, 0xff);
  fuzz_fill(&in, nonce, aead->nonce_size, 0);
  const size_t ad_len = fuzz_byte(&in);
  fuzz_fill(&in, ad, ad_len, 0xad);
  const size_t len = in.size < FUZZ_AEAD_MAX_MESSAGE ? in.size : FUZZ_AEAD_MAX_MESSAGE;
  const uint8_t *message = in.data;

  static uint8_t expected[FUZZ_AEAD_MAX_MESSAGE + 16], ct[FUZZ_AEAD_MAX_MESSAGE], pt[FUZZ_AEAD_MAX_MESSAGE];
  uint8_t expected_tag[16], tag[16];
  fuzz_pin(CRISP_KERNEL_CHACHA20, "generic");
  fuzz_check(aead->seal(expected, expected_tag, message, len, ad, ad_len, nonce, key) == CRISP_OK,
             "seal generic");
  fuzz_check(!aead->oracle_seal(ct, tag, message, len, ad, ad_len, nonce, key) ||
                 (!memcmp(ct, expected, len) && !memcmp(tag, expected_tag, 16)),
             "seal generic differs from %s, ad %zu, len %zu", aead->oracle_name, ad_len, len);
  const char *impls[FUZZ_MAX_IMPLS];
  const size_t count = fuzz_impls(CRISP_KERNEL_CHACHA20, impls, FUZZ_MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    fuzz_pin(CRISP_KERNEL_CHACHA20, impls[i]);
    const char *name = crisp_impl_name(CRISP_KERNEL_CHACHA20);
    fuzz_check(aead->seal(ct, tag, message, len, ad, ad_len, nonce, key) == CRISP_OK, "seal");
    fuzz_check(!memcmp(ct, expected, len) && !memcmp(tag, expected_tag, 16), "seal %s, ad %zu, len %zu", name,
               ad_len, len);
    fuzz_check(aead->open(pt, ct, len, tag, ad, ad_len, nonce, key) == CRISP_OK, "open %s", name);
    fuzz_check(!memcmp(pt, message, len), "open %s, len %zu", name, len);
    fuzz_check(aead->open(ct, ct, len, tag, ad, ad_len, nonce, key) == CRISP_OK, "open %s in place", name);
    fuzz_check(!memcmp(ct, message, len), "open %s in place, len %zu", name, len);
    /* One flipped bit, in the tag or (when there is one) the ciphertext. */
    const size_t bit = (ad_len * 131 + len * 7) % (8 * (16 + len));
    memcpy(ct, expected, len);
    if (bit < 128)
      tag[bit / 8] ^= (uint8_t)(1u << bit % 8);
    else
      ct[(bit - 128) / 8] ^= (uint8_t)(1u << bit % 8);
    memset(pt, 0xa5, len);
    fuzz_check(aead->open(pt, ct, len, tag, ad, ad_len, nonce, key) == CRISP_E_MISMATCH,
               "open %s accepted a flipped bit %zu, len %zu", name, bit, len);
    for (size_t j = 0; j < len; j++) fuzz_check(pt[j] == 0xa5, "open %s wrote to pt on a forgery", name);
    memcpy(pt, ct, len);
    fuzz_check(aead->open(pt, pt, len, tag, ad, ad_len, nonce, key) == CRISP_E_MISMATCH,
               "open %s in place accepted a flipped bit %zu, len %zu", name, bit, len);
    fuzz_check(!memcmp(pt, ct, len), "open %s in place changed the ciphertext on a forgery", name);
  }
  fuzz_pin(CRISP_KERNEL_CHACHA20, NULL);
  return 0;
}

#endif
