/* src/generic/bn_mont_generic.c - Montgomery multiply and square of 64-bit
 * limb arrays in portable C (JDK montgomeryMultiply / montgomerySquare):
 * the full 2n-limb product or square, then a word-by-word Montgomery
 * reduction (SOS) and one masked final subtraction. Constant time in the
 * operand values; n <= CRISP_BN_MONT_MAX_LIMBS, scratch on the stack. */
#include "arithmetic/bn_word.h"
#include "generic.h"
#include "util.h"

void crisp_bn_mont_mul_generic(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                               size_t n, crisp_limb minv) {
  crisp_limb t[2 * CRISP_BN_MONT_MAX_LIMBS];
  crisp_bn_mul_generic(t, a, n, b, n);
  bn_mont_reduce(r, t, m, n, minv, bn_addmul_row);
  crisp_wipe(t, 2 * n * sizeof *t);
}

void crisp_bn_mont_sqr_generic(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                               crisp_limb minv) {
  crisp_limb t[2 * CRISP_BN_MONT_MAX_LIMBS];
  crisp_bn_sqr_generic(t, a, n);
  bn_mont_reduce(r, t, m, n, minv, bn_addmul_row);
  crisp_wipe(t, 2 * n * sizeof *t);
}

const crisp_bn_mont_mul_impl crisp_bn_mont_mul_generic_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mont_mul_generic_impl),
    .mont_mul = crisp_bn_mont_mul_generic,
    .mod_exp = NULL,
};

const crisp_bn_mont_sqr_impl crisp_bn_mont_sqr_generic_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mont_sqr_generic_impl),
    .mont_sqr = crisp_bn_mont_sqr_generic,
};
