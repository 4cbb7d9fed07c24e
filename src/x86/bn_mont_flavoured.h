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
 * Constant time in the operand values; any n up to CRISP_BN_MONT_MAX_LIMBS,
 * on a stack frame sized for n's class. */
#ifndef CRISP_SRC_X86_BN_MONT_FLAVOURED_H
#define CRISP_SRC_X86_BN_MONT_FLAVOURED_H

#include "util.h"

/* The product's reduction into r; the product held secrets and is wiped. */
static inline void reduce_wipe(crisp_limb *r, crisp_limb *product, const crisp_limb *m, size_t n,
                               crisp_limb minv) {
  crisp_bn_redc(r, product, m, n, minv);
  crisp_wipe(product, 2 * n * sizeof *product);
}

/* The schoolbook product (or square) into product, for sizes below both
 * Karatsuba thresholds: no scratch. */
static inline void schoolbook_product(crisp_limb *product, const crisp_limb *a, const crisp_limb *b, size_t n,
                                      int square) {
  if (square)
    crisp_bn_sqr_basecase(product, a, n);
  else
    crisp_bn_mul_schoolbook(product, a, n, b, n);
}

/* The product (or square), reduced; product and scratch come from the
 * caller's frame, sized for n. The product and the Karatsuba scratch
 * held secrets and are wiped; the recursion's frames are left to the
 * public call's scrub. */
static inline void product_reduce(crisp_limb *r, const crisp_limb *a, const crisp_limb *b,
                                  const crisp_limb *m, size_t n, crisp_limb minv, int square,
                                  crisp_limb *product, crisp_limb *scratch) {
  if (square ? CRISP_SQR_SCHOOLBOOK(n) : n < CRISP_KARATSUBA_MUL_MIN) {
    schoolbook_product(product, a, b, n, square);
  } else {
    crisp_bn_mul_equal(product, a, b, n, scratch, square);
    crisp_wipe(scratch, crisp_karatsuba_scratch_used(n, square) * sizeof *scratch);
  }
  reduce_wipe(r, product, m, n, minv);
}

/* One frame per size class, so that a call takes the stack its size needs
 * rather than the largest size's: the class a modulus falls in is public.
 * A square below the Karatsuba sizes needs no scratch. */
enum { MONT_SCHOOLBOOK_LIMBS = CRISP_KARATSUBA_MUL_MIN - 1, MONT_SMALL_LIMBS = 64, MONT_MEDIUM_LIMBS = 128 };
_Static_assert(CRISP_KARATSUBA_SQR_MIN >= CRISP_KARATSUBA_MUL_MIN,
               "the schoolbook frame squares below Karatsuba");

static __attribute__((noinline)) void mont_rows_schoolbook(crisp_limb *r, const crisp_limb *a,
                                                           const crisp_limb *b, const crisp_limb *m, size_t n,
                                                           crisp_limb minv, int square) {
  crisp_limb product[2 * MONT_SCHOOLBOOK_LIMBS];
  schoolbook_product(product, a, b, n, square);
  reduce_wipe(r, product, m, n, minv);
}

static __attribute__((noinline)) void mont_rows_small(crisp_limb *r, const crisp_limb *a, const crisp_limb *b,
                                                      const crisp_limb *m, size_t n, crisp_limb minv,
                                                      int square) {
  crisp_limb product[2 * MONT_SMALL_LIMBS], scratch[CRISP_KARATSUBA_MUL_SCRATCH(MONT_SMALL_LIMBS)];
  product_reduce(r, a, b, m, n, minv, square, product, scratch);
}

static __attribute__((noinline)) void mont_rows_medium(crisp_limb *r, const crisp_limb *a,
                                                       const crisp_limb *b, const crisp_limb *m, size_t n,
                                                       crisp_limb minv, int square) {
  crisp_limb product[2 * MONT_MEDIUM_LIMBS], scratch[CRISP_KARATSUBA_MUL_SCRATCH(MONT_MEDIUM_LIMBS)];
  product_reduce(r, a, b, m, n, minv, square, product, scratch);
}

static __attribute__((noinline)) void mont_rows_large(crisp_limb *r, const crisp_limb *a, const crisp_limb *b,
                                                      const crisp_limb *m, size_t n, crisp_limb minv,
                                                      int square) {
  crisp_limb product[2 * CRISP_BN_MONT_MAX_LIMBS],
      scratch[CRISP_KARATSUBA_MUL_SCRATCH(CRISP_BN_MONT_MAX_LIMBS)];
  product_reduce(r, a, b, m, n, minv, square, product, scratch);
}

static inline void mont_rows(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                             size_t n, crisp_limb minv, int square) {
  if (n <= MONT_SCHOOLBOOK_LIMBS)
    mont_rows_schoolbook(r, a, b, m, n, minv, square);
  else if (n <= MONT_SMALL_LIMBS)
    mont_rows_small(r, a, b, m, n, minv, square);
  else if (n <= MONT_MEDIUM_LIMBS)
    mont_rows_medium(r, a, b, m, n, minv, square);
  else
    mont_rows_large(r, a, b, m, n, minv, square);
}

static inline void mont_mul_rows(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                                 size_t n, crisp_limb minv) {
  mont_rows(r, a, b, m, n, minv, 0);
}

static inline void mont_sqr_rows(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                                 crisp_limb minv) {
  mont_rows(r, a, a, m, n, minv, 1);
}

#endif
