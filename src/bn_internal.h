/* src/bn_internal.h - helpers the bignum front-ends (bn.c, bn_mod_exp.c)
 * share: constant-time limb comparisons and masks, and R^2 mod m. */
#ifndef CRISP_SRC_BN_INTERNAL_H
#define CRISP_SRC_BN_INTERNAL_H

#include <stddef.h>

#include "impl.h"

/* Hides a value from the optimiser so that mask arithmetic on it is not
 * turned back into a branch. */
static inline crisp_limb bn_value_barrier(crisp_limb x) {
#if defined(__GNUC__) || defined(__clang__)
  __asm__("" : "+r"(x));
#endif
  return x;
}

/* All ones when x == y, else 0, without a branch. */
static inline crisp_limb bn_equal_mask(crisp_limb x, crisp_limb y) {
  const crisp_limb d = bn_value_barrier(x ^ y);
  return ((d | (0 - d)) >> 63) - 1;
}

/* 1 when a < b (n limbs each), else 0: the borrow out of a - b, computed over
 * every limb with bit operations (Hacker's Delight 2-13), no early exit. */
static inline crisp_limb bn_less_than(const crisp_limb *a, const crisp_limb *b, size_t n) {
  crisp_limb borrow = 0;
  for (size_t i = 0; i < n; i++) {
    const crisp_limb x = a[i], y = b[i];
    const crisp_limb d = x - y - borrow;
    borrow = ((~x & y) | (~(x ^ y) & d)) >> 63;
  }
  return bn_value_barrier(borrow);
}

/* r2 = R^2 mod m, R = 2^(64n), for a modulus the caller has checked (odd,
 * m[n-1] != 0, 1 <= n <= CRISP_BN_MONT_MAX_LIMBS), using sqr. r2 must not
 * overlap m. */
void crisp_bn_mont_r2_checked(crisp_limb *r2, const crisp_limb *m, size_t n, crisp_limb minv,
                              const crisp_bn_mont_sqr_impl *sqr);

#endif
