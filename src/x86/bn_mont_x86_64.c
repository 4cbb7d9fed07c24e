/* src/x86/bn_mont_x86_64.c - Montgomery multiply and square, MULQ (baseline x86-64).
 * Radix 2^64, R = 2^(64n). Separated operand scanning: the full product
 * (or the square, with each cross product once) from the bn_mul / bn_sqr
 * routines of this flavour, Karatsuba included, then n reduction rows
 * (mulq) whose carries are added in one pass, then one subtraction of m
 * selected by mask. Constant time in the operand values; any n up to
 * CRISP_BN_MONT_MAX_LIMBS, meant for 1024- to 4096-bit moduli.
 * Measured on the project's AMD Zen 5 (Turin, virtualised) before the rows
 * moved into assembly, and not since: mont_mul 1024-bit 814, 2048-bit 3250,
 * 4096-bit 13100 TSC ticks. */
#include "util.h"
#include "x86/bn_flavour_mulq.h"

/* The product, wiping the Karatsuba scratch it used (which
 * crisp_bn_mul_any would keep in a frame no one wipes). The scratch lives
 * in this frame only, so the schoolbook sizes keep a small one. */
static __attribute__((noinline)) void karatsuba_product(crisp_limb *product, const crisp_limb *a, const crisp_limb *b,
                                                        size_t n, int square) {
  crisp_limb scratch[CRISP_KARATSUBA_SCRATCH(CRISP_BN_MONT_MAX_LIMBS)];
  crisp_bn_mul_equal(product, a, b, n, scratch, square);
  crisp_wipe(scratch, CRISP_KARATSUBA_SCRATCH(n) * sizeof *scratch);
}

void crisp_bn_mont_mul_x86_64(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                               size_t n, crisp_limb minv) {
  crisp_limb product[2 * CRISP_BN_MONT_MAX_LIMBS];
  if (n < CRISP_KARATSUBA_MUL_MIN)
    CRISP_ROW_MUL_BASECASE(product, a, n, b, n);
  else
    karatsuba_product(product, a, b, n, 0);
  crisp_bn_redc(r, product, m, n, minv);
  crisp_wipe(product, 2 * n * sizeof *product);
}

void crisp_bn_mont_sqr_x86_64(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                               crisp_limb minv) {
  crisp_limb product[2 * CRISP_BN_MONT_MAX_LIMBS];
  if (CRISP_SQR_SCHOOLBOOK(n))
    crisp_bn_sqr_basecase(product, a, n);
  else
    karatsuba_product(product, a, a, n, 1);
  crisp_bn_redc(r, product, m, n, minv);
  crisp_wipe(product, 2 * n * sizeof *product);
}

const crisp_bn_mont_mul_impl crisp_bn_mont_mul_x86_64_impl = {
    {"x86_64", CRISP_LEVEL_X86_64, 0u},
    crisp_bn_mont_mul_x86_64,
    NULL,
};

const crisp_bn_mont_sqr_impl crisp_bn_mont_sqr_x86_64_impl = {
    {"x86_64", CRISP_LEVEL_X86_64, 0u},
    crisp_bn_mont_sqr_x86_64,
};
