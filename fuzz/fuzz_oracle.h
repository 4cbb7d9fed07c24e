/* fuzz/fuzz_oracle.h - answers from outside crisp, so a harness's reference
 * (generic) is itself checked: OpenSSL's MD5, libsodium's Poly1305 and GMP's
 * integers, each compiled in when meson found the library (FUZZ_WITH_*).
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
