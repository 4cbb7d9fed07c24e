/* src/x86/bn_sqr_scalar.c - z = x^2 on 64-bit limbs, MULQ (baseline x86-64).
 * Radix 2^64. Its own routine, not a product: every cross product
 * x[i] x[j] (i < j) once in mulq rows, the sum doubled by shifting, the
 * squares x[i]^2 added on the diagonal; Karatsuba squaring (three half-size
 * squares) from CRISP_KARATSUBA_SQR_MIN to CRISP_KARATSUBA_MAX limbs.
 * Meant for 512- to 16384-bit operands. */
#include "x86/bn_flavour_mulq.h"

void crisp_bn_sqr_x86_64(crisp_limb *z, const crisp_limb *x, size_t n) {
  crisp_bn_sqr_any(z, x, n);
}

const crisp_bn_sqr_impl crisp_bn_sqr_x86_64_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_sqr_x86_64_impl),
    crisp_bn_sqr_x86_64,
};
