/* test/ct_rsa_keys.h - RSA keys for the timing test, made from the test's
 * seeded random numbers without a peer library: primes p and q of a given
 * number of limbs (top two bits set, so p q fills twice as many), e = 65537,
 * dp and dq its inverses mod p - 1 and q - 1, qinv = q^-1 mod p. Primality is
 * trial division by the small primes, then Fermat's test to base 2 with
 * crisp_bn_mod_exp; the caller confirms each key by a checked
 * crisp_bn_mod_exp_crt, which fails unless the key is consistent. */
#ifndef CRISP_TEST_CT_RSA_KEYS_H
#define CRISP_TEST_CT_RSA_KEYS_H

#include "ct_common.h"

#define CT_RSA_E 65537u
/* Small primes up to this bound sieve the candidates before Fermat's test. */
#define CT_SIEVE_BOUND 2048

typedef struct ct_rsa_key {
  crisp_limb p[CT_MAX_LIMBS / 2], q[CT_MAX_LIMBS / 2], dp[CT_MAX_LIMBS / 2], dq[CT_MAX_LIMBS / 2],
      qinv[CT_MAX_LIMBS / 2];
} ct_rsa_key;

/* x mod d for d < 2^32, 32 bits at a time from the top. */
static uint32_t ct_mod_small(const crisp_limb *x, size_t n, uint32_t d) {
  uint64_t r = 0;
  for (size_t i = n; i-- > 0;) {
    r = ((r << 32) | (x[i] >> 32)) % d;
    r = ((r << 32) | (x[i] & 0xffffffffu)) % d;
  }
  return (uint32_t)r;
}

/* q = x / d for d < 2^32; returns the remainder. q may be x. */
static uint32_t ct_div_small(crisp_limb *q, const crisp_limb *x, size_t n, uint32_t d) {
  uint64_t r = 0;
  for (size_t i = n; i-- > 0;) {
    const uint64_t high = (r << 32) | (x[i] >> 32);
    r = high % d;
    const uint64_t low = (r << 32) | (x[i] & 0xffffffffu);
    r = low % d;
    q[i] = (high / d) << 32 | (low / d);
  }
  return (uint32_t)r;
}

/* z = x - k for x >= k, n limbs. */
static void ct_sub_small(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k) {
  for (size_t i = 0; i < n; i++) {
    z[i] = x[i] - k;
    k = x[i] < k;
  }
}

static uint64_t ct_pow_mod_small(uint64_t b, uint64_t e, uint64_t m) {
  uint64_t r = 1;
  for (b %= m; e; e >>= 1, b = b * b % m)
    if (e & 1) r = r * b % m;
  return r;
}

/* d = e^-1 mod (p - 1) for a prime p with p mod e != 1 (e prime): with
 * k = -(p - 1)^-1 mod e, e divides k (p - 1) + 1, and d is the quotient. */
static void ct_rsa_exponent(crisp_limb *d, const crisp_limb *p, size_t n) {
  crisp_limb x[CT_MAX_LIMBS / 2 + 1];
  ct_sub_small(x, p, n, 1);
  const uint64_t t = ct_mod_small(x, n, CT_RSA_E);
  const uint64_t k = CT_RSA_E - ct_pow_mod_small(t, CT_RSA_E - 2, CT_RSA_E);
  crisp_limb carry = 0;
  for (size_t i = 0; i < n; i++) { /* x = k (p - 1) + 1, k < 2^17 */
    const crisp_limb low = x[i] & 0xffffffffu, high = x[i] >> 32;
    const crisp_limb a = low * k + (carry & 0xffffffffu), b = high * k + (carry >> 32) + (a >> 32);
    x[i] = (a & 0xffffffffu) | (b << 32);
    carry = b >> 32;
  }
  x[n] = carry;
  x[0] += 1; /* k (p - 1) is even */
  if (ct_div_small(x, x, n + 1, CT_RSA_E) != 0 || x[n] != 0)
    ct_fail("RSA exponent: e does not divide k (p-1) + 1");
  memcpy(d, x, n * sizeof(crisp_limb));
}

/* A prime of n limbs, its top two bits set, p mod e != 1. */
static void ct_rsa_prime(crisp_limb *p, size_t n) {
  static uint16_t primes[CT_SIEVE_BOUND / 2];
  static size_t count;
  if (!count)
    for (uint32_t d = 3; d < CT_SIEVE_BOUND; d += 2) {
      uint32_t f = 3;
      while (f * f <= d && d % f) f += 2;
      if (f * f > d) primes[count++] = (uint16_t)d;
    }
  uint32_t residue[CT_SIEVE_BOUND / 2], residue_e;
  crisp_limb base[CT_MAX_LIMBS / 2] = {2}, exp[CT_MAX_LIMBS / 2], r[CT_MAX_LIMBS / 2];
  for (;;) {
    test_fill_random(p, n * sizeof(crisp_limb));
    p[0] |= 1;
    p[n - 1] |= (crisp_limb)3 << 62;
    for (size_t i = 0; i < count; i++) residue[i] = ct_mod_small(p, n, primes[i]);
    residue_e = ct_mod_small(p, n, CT_RSA_E);
    /* walk p, p + 2, ... within limb 0 */
    for (;; p[0] += 2) {
      int divisible = residue_e == 1;
      for (size_t i = 0; i < count; i++) divisible |= residue[i] == 0;
      if (!divisible) {
        ct_sub_small(exp, p, n, 1);
        if (crisp_bn_mod_exp(r, base, exp, n, p, n) != CRISP_OK) ct_fail("crisp_bn_mod_exp in prime search");
        int one = r[0] == 1;
        for (size_t i = 1; i < n; i++) one &= r[i] == 0;
        if (one) return;
      }
      for (size_t i = 0; i < count; i++) residue[i] = (residue[i] + 2) % primes[i];
      residue_e = (residue_e + 2) % CT_RSA_E;
      if (p[0] >= (crisp_limb)-2) break; /* a carry would leave limb 0: draw again */
    }
  }
}

/* A whole key of half-size n: distinct primes, CRT exponents, coefficient. */
static void ct_rsa_key_make(ct_rsa_key *key, size_t n) {
  ct_rsa_prime(key->p, n);
  do ct_rsa_prime(key->q, n);
  while (!memcmp(key->p, key->q, n * sizeof(crisp_limb)));
  ct_rsa_exponent(key->dp, key->p, n);
  ct_rsa_exponent(key->dq, key->q, n);
  /* qinv = q^(p-2) mod p, q first reduced (p, q >= 3 2^(64n-2): q < 2p) */
  crisp_limb qr[CT_MAX_LIMBS / 2], pm2[CT_MAX_LIMBS / 2], borrow = 0;
  int q_below_p = 0;
  for (size_t i = n; i-- > 0;)
    if (key->q[i] != key->p[i]) {
      q_below_p = key->q[i] < key->p[i];
      break;
    }
  for (size_t i = 0; i < n; i++) {
    const crisp_limb sub = q_below_p ? 0 : key->p[i], diff = key->q[i] - sub - borrow;
    borrow = (key->q[i] < sub) | ((key->q[i] - sub) < borrow);
    qr[i] = diff;
  }
  ct_sub_small(pm2, key->p, n, 2);
  if (crisp_bn_mod_exp(key->qinv, qr, pm2, n, key->p, n) != CRISP_OK) ct_fail("crisp_bn_mod_exp for qinv");
}

#endif
