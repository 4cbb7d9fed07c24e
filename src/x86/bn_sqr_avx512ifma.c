/* src/x86/bn_sqr_avx512ifma.c - z = x^2 on 64-bit limbs: radix 2^52
 * columns with AVX-512 IFMA (bn52_wide_avx512ifma.c) where they beat the
 * MULX/ADX square, the MULX/ADX kernel elsewhere (hence BMI2 | ADX in the
 * features). */
#include "x86/bn52_avx512ifma.h"
#include "x86/bn_kernels_x86.h"
#include "x86/bn_wide_sizes.h"

void crisp_bn_sqr_avx512ifma(crisp_limb *z, const crisp_limb *x, size_t n) {
  if (crisp_bn52_wide_sqr_wins(n))
    crisp_bn52_wide_sqr(z, x, n);
  else
    crisp_bn_sqr_x86_64_adx(z, x, n);
}

const crisp_bn_sqr_impl crisp_bn_sqr_avx512ifma_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_sqr_avx512ifma_impl),
    crisp_bn_sqr_avx512ifma,
    .clean_below = CRISP_BN52_WIDE_CLEAN_BELOW,
};
