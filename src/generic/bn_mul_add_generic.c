/* src/generic/bn_mul_add_generic.c - z += x * k on 64-bit limbs in portable
 * C (JDK mulAdd); one row of the schoolbook product, unrolled 4x. */
#include "arithmetic/bn_word.h"
#include "generic.h"

crisp_limb crisp_bn_mul_add_generic(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k) {
  return bn_addmul_row(z, x, n, k);
}

const crisp_bn_mul_add_impl crisp_bn_mul_add_generic_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mul_add_generic_impl),
    .mul_add = crisp_bn_mul_add_generic,
};
