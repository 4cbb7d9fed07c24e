/* src/x86/bn_mont_flavoured.h - Montgomery multiply and square over the
 * bignum rows of one flavour, written once for the MULQ and the ADX files:
 * each includes its flavour header (bn_flavour_mulq.h, bn_flavour_adx.h),
 * then this one, and wraps mont_mul_rows / mont_sqr_rows in its named
 * functions.
 *
 * Radix 2^64, R = 2^(64n). Separated operand scanning: the full product (or
 * the square, with each cross product once) from the flavour's rows,
 * Karatsuba from CRISP_KARATSUBA_MUL_MIN limbs, then n reduction rows whose
 * carries are added in one pass, then one subtraction of m selected by mask.
 * Constant time in the operand values; any n up to CRISP_BN_MONT_MAX_LIMBS.
 * The product and the Karatsuba scratch held secrets and are wiped. */
#ifndef CRISP_SRC_X86_BN_MONT_FLAVOURED_H
#define CRISP_SRC_X86_BN_MONT_FLAVOURED_H

#include "util.h"

/* The product, wiping the Karatsuba scratch it used. The scratch lives in
 * this frame only, so the schoolbook sizes keep a small one. */
static __attribute__((noinline)) void karatsuba_product(crisp_limb *product, const crisp_limb *a, const crisp_limb *b,
                                                        size_t n, int square) {
  crisp_limb scratch[CRISP_KARATSUBA_SCRATCH(CRISP_BN_MONT_MAX_LIMBS)];
  crisp_bn_mul_equal(product, a, b, n, scratch, square);
  crisp_wipe(scratch, crisp_karatsuba_scratch_used(n, square) * sizeof *scratch);
  crisp_scrub_stack(); /* the recursion's frames: borrows of the differences */
}

static inline void mont_mul_rows(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                                 size_t n, crisp_limb minv) {
  crisp_limb product[2 * CRISP_BN_MONT_MAX_LIMBS];
  if (n < CRISP_KARATSUBA_MUL_MIN)
    CRISP_ROW_MUL_BASECASE(product, a, n, b, n);
  else
    karatsuba_product(product, a, b, n, 0);
  crisp_bn_redc(r, product, m, n, minv);
  crisp_wipe(product, 2 * n * sizeof *product);
}

static inline void mont_sqr_rows(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                                 crisp_limb minv) {
  crisp_limb product[2 * CRISP_BN_MONT_MAX_LIMBS];
  if (CRISP_SQR_SCHOOLBOOK(n))
    crisp_bn_sqr_basecase(product, a, n);
  else
    karatsuba_product(product, a, a, n, 1);
  crisp_bn_redc(r, product, m, n, minv);
  crisp_wipe(product, 2 * n * sizeof *product);
}

#endif
