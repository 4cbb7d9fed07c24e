/* fuzz/fuzz_oracle.h - answers from outside crisp, so a harness's reference
 * (generic) is itself checked: OpenSSL's MD5, ChaCha20 and
 * ChaCha20-Poly1305, libsodium's Poly1305, HChaCha20 and
 * XChaCha20-Poly1305, and GMP's integers, each compiled in when meson found the library (FUZZ_WITH_*).
 * Each function returns 1 with the answer written, or 0 when its library is
 * absent (then the harness compares implementations only). */
#ifndef CRISP_FUZZ_ORACLE_H
#define CRISP_FUZZ_ORACLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crisp/crisp.h"

#ifdef FUZZ_WITH_OPENSSL
#include <openssl/evp.h>
#endif
#ifdef FUZZ_WITH_SODIUM
#include <sodium.h>
#endif
#ifdef FUZZ_WITH_GMP
#include <gmp.h>
#endif

static inline int oracle_md5(const void *data, size_t len, uint8_t digest[16]) {
#ifdef FUZZ_WITH_OPENSSL
  unsigned size = 0;
  return EVP_Digest(data, len, digest, &size, EVP_md5(), NULL) == 1 && size == 16;
#else
  (void)data, (void)len, (void)digest;
  return 0;
#endif
}

static inline int oracle_poly1305(uint8_t tag[16], const void *data, size_t len, const uint8_t key[32]) {
#ifdef FUZZ_WITH_SODIUM
  return crypto_onetimeauth_poly1305(tag, data, len, key) == 0;
#else
  (void)tag, (void)data, (void)len, (void)key;
  return 0;
#endif
}

/* ChaCha20 from OpenSSL's EVP (counter, then nonce, as its 16-byte IV). */
static inline int oracle_chacha20(uint8_t *out, const uint8_t *in, size_t len, const uint8_t key[32],
                                  const uint8_t nonce[12], uint32_t counter) {
#ifdef FUZZ_WITH_OPENSSL
  uint8_t iv[16] = {(uint8_t)counter, (uint8_t)(counter >> 8), (uint8_t)(counter >> 16),
                    (uint8_t)(counter >> 24)};
  memcpy(iv + 4, nonce, 12);
  EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
  int n = 0, ok = c && EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, key, iv) == 1 &&
                  (!len || EVP_EncryptUpdate(c, out, &n, in, (int)len) == 1);
  EVP_CIPHER_CTX_free(c);
  return ok;
#else
  (void)out, (void)in, (void)len, (void)key, (void)nonce, (void)counter;
  return 0;
#endif
}

/* RFC 8439 ChaCha20-Poly1305 seal from OpenSSL's EVP. */
static inline int oracle_chacha20_poly1305_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
                                                const uint8_t *ad, size_t ad_len, const uint8_t nonce[12],
                                                const uint8_t key[32]) {
#ifdef FUZZ_WITH_OPENSSL
  EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
  int n = 0, ok = c && EVP_EncryptInit_ex(c, EVP_chacha20_poly1305(), NULL, key, nonce) == 1 &&
                  (!ad_len || EVP_EncryptUpdate(c, NULL, &n, ad, (int)ad_len) == 1) &&
                  (!len || EVP_EncryptUpdate(c, ct, &n, pt, (int)len) == 1) &&
                  EVP_EncryptFinal_ex(c, ct + len, &n) == 1 &&
                  EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag) == 1;
  EVP_CIPHER_CTX_free(c);
  return ok;
#else
  (void)ct, (void)tag, (void)pt, (void)len, (void)ad, (void)ad_len, (void)nonce, (void)key;
  return 0;
#endif
}

/* XChaCha20-Poly1305 seal and HChaCha20 from libsodium. */
static inline int oracle_xchacha20_poly1305_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
                                                 const uint8_t *ad, size_t ad_len, const uint8_t nonce[24],
                                                 const uint8_t key[32]) {
#ifdef FUZZ_WITH_SODIUM
  return sodium_init() >= 0 && crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
                                   ct, tag, NULL, pt, len, ad, ad_len, NULL, nonce, key) == 0;
#else
  (void)ct, (void)tag, (void)pt, (void)len, (void)ad, (void)ad_len, (void)nonce, (void)key;
  return 0;
#endif
}

static inline int oracle_hchacha20(uint8_t subkey[32], const uint8_t key[32], const uint8_t input[16]) {
#ifdef FUZZ_WITH_SODIUM
  return sodium_init() >= 0 && crypto_core_hchacha20(subkey, input, key, NULL) == 0;
#else
  (void)subkey, (void)key, (void)input;
  return 0;
#endif
}

#ifdef FUZZ_WITH_GMP
static inline void oracle_import(mpz_t z, const crisp_limb *x, size_t n) {
  mpz_import(z, n, -1, sizeof *x, 0, 0, x);
}

/* z into n limbs (it must fit). */
static inline void oracle_export(crisp_limb *x, size_t n, const mpz_t z) {
  size_t count = 0;
  memset(x, 0, n * sizeof *x);
  if (mpz_sizeinbase(z, 2) <= 64 * n) mpz_export(x, &count, -1, sizeof *x, 0, 0, z);
}
#endif

/* z[0..xn+yn) = x * y */
static inline int oracle_bn_mul(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y,
                                size_t yn) {
#ifdef FUZZ_WITH_GMP
  mpz_t a, b;
  mpz_inits(a, b, NULL);
  oracle_import(a, x, xn), oracle_import(b, y, yn);
  mpz_mul(a, a, b);
  oracle_export(z, xn + yn, a);
  mpz_clears(a, b, NULL);
  return 1;
#else
  (void)z, (void)x, (void)xn, (void)y, (void)yn;
  return 0;
#endif
}

/* z[0..n) + x[0..n) * k: the low n limbs to sum, the top one to *carry. */
static inline int oracle_bn_mul_add(crisp_limb *sum, crisp_limb *carry, const crisp_limb *z,
                                    const crisp_limb *x, size_t n, crisp_limb k) {
#ifdef FUZZ_WITH_GMP
  mpz_t a, b;
  mpz_inits(a, b, NULL);
  oracle_import(a, z, n), oracle_import(b, x, n);
  mpz_addmul_ui(a, b, (unsigned long)k);
  crisp_limb out[n + 1];
  oracle_export(out, n + 1, a);
  memcpy(sum, out, n * sizeof *sum);
  *carry = out[n];
  mpz_clears(a, b, NULL);
  return 1;
#else
  (void)sum, (void)carry, (void)z, (void)x, (void)n, (void)k;
  return 0;
#endif
}

/* r = a * b / 2^(64n) mod m */
static inline int oracle_bn_mont_mul(crisp_limb *r, const crisp_limb *a, const crisp_limb *b,
                                     const crisp_limb *m, size_t n) {
#ifdef FUZZ_WITH_GMP
  mpz_t x, y, modulus, radix;
  mpz_inits(x, y, modulus, radix, NULL);
  oracle_import(x, a, n), oracle_import(y, b, n), oracle_import(modulus, m, n);
  mpz_mul(x, x, y);
  mpz_setbit(radix, 64 * n);
  mpz_invert(radix, radix, modulus);
  mpz_mul(x, x, radix);
  mpz_mod(x, x, modulus);
  oracle_export(r, n, x);
  mpz_clears(x, y, modulus, radix, NULL);
  return 1;
#else
  (void)r, (void)a, (void)b, (void)m, (void)n;
  return 0;
#endif
}

/* r = base^exp mod m */
static inline int oracle_bn_mod_exp(crisp_limb *r, const crisp_limb *base, const crisp_limb *exp, size_t en,
                                    const crisp_limb *m, size_t n) {
#ifdef FUZZ_WITH_GMP
  mpz_t b, e, modulus;
  mpz_inits(b, e, modulus, NULL);
  oracle_import(b, base, n), oracle_import(modulus, m, n);
  if (en) oracle_import(e, exp, en);
  mpz_powm(b, b, e, modulus);
  oracle_export(r, n, b);
  mpz_clears(b, e, modulus, NULL);
  return 1;
#else
  (void)r, (void)base, (void)exp, (void)en, (void)m, (void)n;
  return 0;
#endif
}

#endif
