/* test/bn_reference.h - slow, independent bignum arithmetic the bignum tests
 * check crisp against: schoolbook products on 32-bit digits, Knuth's long
 * division (TAOCP 4.3.1 algorithm D) for remainders, a bit-by-bit
 * shift-and-subtract remainder to check the division, and square-and-
 * multiply exponentiation on top. Plain C, no shared code with src/. */
#ifndef CRISP_TEST_BN_REFERENCE_H
#define CRISP_TEST_BN_REFERENCE_H

#include <stdint.h>
#include <string.h>

#include "crisp/bn.h"

/* Largest operand the reference handles, in 64-bit limbs. */
#define REF_MAX_LIMBS 1040
#define REF_MAX_DIGITS (2 * REF_MAX_LIMBS + 2)

static inline void ref_to_digits(uint32_t *d, const crisp_limb *x, size_t n) {
  for (size_t i = 0; i < n; i++) d[2 * i] = (uint32_t)x[i], d[2 * i + 1] = (uint32_t)(x[i] >> 32);
}

static inline void ref_from_digits(crisp_limb *x, const uint32_t *d, size_t n) {
  for (size_t i = 0; i < n; i++) x[i] = (crisp_limb)d[2 * i] | (crisp_limb)d[2 * i + 1] << 32;
}

/* z[0..xn+yn) = x * y, z may overlap x or y. */
static inline void ref_mul(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn) {
  static uint32_t dx[REF_MAX_DIGITS], dy[REF_MAX_DIGITS], dz[2 * REF_MAX_DIGITS];
  const size_t xd = 2 * xn, yd = 2 * yn;
  ref_to_digits(dx, x, xn);
  ref_to_digits(dy, y, yn);
  memset(dz, 0, (xd + yd) * sizeof *dz);
  for (size_t i = 0; i < xd; i++) {
    uint64_t carry = 0;
    for (size_t j = 0; j < yd; j++) {
      const uint64_t t = (uint64_t)dx[i] * dy[j] + dz[i + j] + carry;
      dz[i + j] = (uint32_t)t;
      carry = t >> 32;
    }
    dz[i + yd] = (uint32_t)carry;
  }
  ref_from_digits(z, dz, xn + yn);
}

/* -1, 0, 1 as a <, ==, > b (n limbs each). */
static inline int ref_compare(const crisp_limb *a, const crisp_limb *b, size_t n) {
  for (size_t i = n; i-- > 0;)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/* r[0..n) = a[0..an) mod m[0..n), m != 0, by algorithm D on 32-bit digits
 * (quotient digit estimate from the top two digits, corrected at most
 * twice, then an add-back when the estimate was still one too large). */
static inline void ref_mod(crisp_limb *r, const crisp_limb *a, size_t an, const crisp_limb *m, size_t n) {
  static uint32_t u[REF_MAX_DIGITS + 1], v[REF_MAX_DIGITS], dm[REF_MAX_DIGITS], du[REF_MAX_DIGITS];
  size_t ud = 2 * an, vd = 2 * n;
  ref_to_digits(du, a, an);
  ref_to_digits(dm, m, n);
  while (vd > 0 && dm[vd - 1] == 0) vd--;
  while (ud > 0 && du[ud - 1] == 0) ud--;
  uint32_t rem[REF_MAX_DIGITS];
  memset(rem, 0, 2 * n * sizeof *rem);
  if (ud < vd) {
    memcpy(rem, du, ud * sizeof *du);
  } else if (vd == 1) {
    uint64_t k = 0;
    for (size_t i = ud; i-- > 0;) k = ((k << 32) | du[i]) % dm[0];
    rem[0] = (uint32_t)k;
  } else {
    /* Normalise: shift so the divisor's top digit has its top bit set. */
    int s = 0;
    while (!(dm[vd - 1] << s & 0x80000000u)) s++;
    for (size_t i = vd - 1; i > 0; i--) v[i] = (dm[i] << s) | (s ? dm[i - 1] >> (32 - s) : 0);
    v[0] = dm[0] << s;
    u[ud] = s ? du[ud - 1] >> (32 - s) : 0;
    for (size_t i = ud - 1; i > 0; i--) u[i] = (du[i] << s) | (s ? du[i - 1] >> (32 - s) : 0);
    u[0] = du[0] << s;
    for (size_t j = ud - vd + 1; j-- > 0;) {
      const uint64_t top = (uint64_t)u[j + vd] << 32 | u[j + vd - 1];
      uint64_t qhat = top / v[vd - 1], rhat = top % v[vd - 1];
      while (qhat >> 32 || qhat * v[vd - 2] > (rhat << 32 | u[j + vd - 2])) {
        qhat--;
        rhat += v[vd - 1];
        if (rhat >> 32) break;
      }
      /* u[j..j+vd] -= qhat * v */
      int64_t borrow = 0;
      uint64_t carry = 0;
      for (size_t i = 0; i < vd; i++) {
        const uint64_t p = qhat * v[i] + carry;
        carry = p >> 32;
        const int64_t t = (int64_t)u[i + j] - (int64_t)(uint32_t)p + borrow;
        u[i + j] = (uint32_t)t;
        borrow = t >> 32;
      }
      const int64_t t = (int64_t)u[j + vd] - (int64_t)carry + borrow;
      u[j + vd] = (uint32_t)t;
      if (t < 0) {
        uint64_t add = 0;
        for (size_t i = 0; i < vd; i++) {
          add += (uint64_t)u[i + j] + v[i];
          u[i + j] = (uint32_t)add;
          add >>= 32;
        }
        u[j + vd] += (uint32_t)add;
      }
    }
    for (size_t i = 0; i < vd; i++) rem[i] = (u[i] >> s) | (s ? u[i + 1] << (32 - s) : 0);
  }
  ref_from_digits(r, rem, n);
}

/* r[0..n) = a mod m one bit at a time: r = 2r + bit, minus m when r >= m. */
static inline void ref_mod_bitwise(crisp_limb *r, const crisp_limb *a, size_t an, const crisp_limb *m,
                                   size_t n) {
  crisp_limb acc[REF_MAX_LIMBS + 1], mm[REF_MAX_LIMBS + 1];
  memset(acc, 0, (n + 1) * sizeof *acc);
  memcpy(mm, m, n * sizeof *m);
  mm[n] = 0;
  for (size_t bit = 64 * an; bit-- > 0;) {
    for (size_t i = n; i > 0; i--) acc[i] = acc[i] << 1 | acc[i - 1] >> 63;
    acc[0] = acc[0] << 1 | (a[bit / 64] >> (bit % 64) & 1);
    if (ref_compare(acc, mm, n + 1) >= 0) {
      crisp_limb borrow = 0;
      for (size_t i = 0; i <= n; i++) {
        const crisp_limb d = acc[i] - mm[i] - borrow;
        borrow = acc[i] < mm[i] || (acc[i] == mm[i] && borrow);
        acc[i] = d;
      }
    }
  }
  memcpy(r, acc, n * sizeof *r);
}

/* r = a * b mod m, all n limbs. */
static inline void ref_mul_mod(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                               size_t n) {
  static crisp_limb t[2 * REF_MAX_LIMBS];
  ref_mul(t, a, n, b, n);
  ref_mod(r, t, 2 * n, m, n);
}

/* r = base^exp mod m by left-to-right square and multiply. */
static inline void ref_mod_exp(crisp_limb *r, const crisp_limb *base, const crisp_limb *exp, size_t en,
                               const crisp_limb *m, size_t n) {
  crisp_limb acc[REF_MAX_LIMBS], one[REF_MAX_LIMBS];
  memset(one, 0, n * sizeof *one);
  one[0] = 1;
  ref_mod(acc, one, n, m, n);
  for (size_t bit = 64 * en; bit-- > 0;) {
    ref_mul_mod(acc, acc, acc, m, n);
    if (exp[bit / 64] >> (bit % 64) & 1) ref_mul_mod(acc, acc, base, m, n);
  }
  memcpy(r, acc, n * sizeof *r);
}

#endif
