/* src/x86/bn_mul_scalar.c - z = x * y on 64-bit limbs, MULQ (baseline x86-64).
 * Radix 2^64. Schoolbook rows (mulq rows, 8 limbs per unrolled block) below
 * CRISP_KARATSUBA_MUL_MIN limbs, Karatsuba (masked signs) from there up to
 * CRISP_KARATSUBA_MAX limbs for the shorter operand. Any sizes; meant for
 * 512- to 16384-bit operands. */
#include "x86/bn_flavour_mulq.h"

void crisp_bn_mul_x86_64(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn) {
  crisp_bn_mul_any(z, x, xn, y, yn);
}

const crisp_bn_mul_impl crisp_bn_mul_x86_64_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mul_x86_64_impl),
    crisp_bn_mul_x86_64,
    /* the schoolbook: bn_rows_scalar.S, whose frames hold saved
     * registers; the Karatsuba classes clean up after themselves */
    .clean_below = CRISP_KARATSUBA_MAX + 1,
};
