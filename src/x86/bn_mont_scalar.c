/* src/x86/bn_mont_scalar.c - Montgomery multiply and square on the MULQ rows
 * (baseline x86-64); the algorithm is bn_mont_flavoured.h's. */
#include "x86/bn_flavour_mulq.h"
#include "x86/bn_mont_flavoured.h"

void crisp_bn_mont_mul_x86_64(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                              size_t n, crisp_limb minv) {
  mont_mul_rows(r, a, b, m, n, minv);
}

void crisp_bn_mont_sqr_x86_64(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                              crisp_limb minv) {
  mont_sqr_rows(r, a, m, n, minv);
}

const crisp_bn_mont_mul_impl crisp_bn_mont_mul_x86_64_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mont_mul_x86_64_impl),
    crisp_bn_mont_mul_x86_64,
    NULL,
};

const crisp_bn_mont_sqr_impl crisp_bn_mont_sqr_x86_64_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mont_sqr_x86_64_impl),
    crisp_bn_mont_sqr_x86_64,
};
