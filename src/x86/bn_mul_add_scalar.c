/* src/x86/bn_mul_add_scalar.c - z += x * k, returning the carry limb, MULQ (baseline x86-64).
 * Radix 2^64, one mulq row, 8 limbs per unrolled block. Any length. */
#include "x86/bn_rows_x86.h"
#include "x86/bn_kernels_x86.h"

crisp_limb crisp_bn_mul_add_x86_64(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k) {
  return crisp_bn_mul_add_row_x86_64(z, x, n, k, 0);
}

const crisp_bn_mul_add_impl crisp_bn_mul_add_x86_64_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mul_add_x86_64_impl),
    crisp_bn_mul_add_x86_64,
    /* every length: bn_rows_scalar.S, whose rows touch no stack */
    .clean_below = SIZE_MAX,
};
