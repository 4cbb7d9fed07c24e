/* test/openssl_aead.h - OpenSSL's ChaCha20-Poly1305 seal, the oracle the
 * AEAD tests compare crisp with (only in builds with the peers). */
#ifndef CRISP_TEST_OPENSSL_AEAD_H
#define CRISP_TEST_OPENSSL_AEAD_H

#include <openssl/evp.h>

#include "common.h"

/* ct[0..len) and tag = OpenSSL's seal of pt with ad under key and a
 * 12-byte nonce. */
static inline void openssl_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
                                const uint8_t *ad, size_t ad_len, const uint8_t nonce[12],
                                const uint8_t key[32]) {
  EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
  int n = 0;
  assert_non_null(c);
  assert_int_equal(EVP_EncryptInit_ex(c, EVP_chacha20_poly1305(), NULL, key, nonce), 1);
  if (ad_len) assert_int_equal(EVP_EncryptUpdate(c, NULL, &n, ad, (int)ad_len), 1);
  if (len) assert_int_equal(EVP_EncryptUpdate(c, ct, &n, pt, (int)len), 1);
  assert_int_equal(EVP_EncryptFinal_ex(c, ct + len, &n), 1);
  assert_int_equal(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag), 1);
  EVP_CIPHER_CTX_free(c);
}

#endif
