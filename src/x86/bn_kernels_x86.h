/* src/x86/bn_kernels_x86.h - the x86-64 bignum kernels other x86 kernels fall
 * back to (the AVX-512 IFMA Montgomery code for sizes it does not handle). */
#ifndef CRISP_SRC_X86_BN_KERNELS_X86_H
#define CRISP_SRC_X86_BN_KERNELS_X86_H

#include "impl.h"

void crisp_bn_mul_x86_64(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn);
void crisp_bn_mul_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn);
void crisp_bn_sqr_x86_64(crisp_limb *z, const crisp_limb *x, size_t n);
void crisp_bn_sqr_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t n);
crisp_limb crisp_bn_mul_add_x86_64(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k);
crisp_limb crisp_bn_mul_add_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k);
void crisp_bn_mont_mul_x86_64(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                              size_t n, crisp_limb minv);
void crisp_bn_mont_mul_x86_64_adx(crisp_limb *r, const crisp_limb *a, const crisp_limb *b,
                                  const crisp_limb *m, size_t n, crisp_limb minv);
void crisp_bn_mont_sqr_x86_64(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                              crisp_limb minv);
void crisp_bn_mont_sqr_x86_64_adx(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                                  crisp_limb minv);
/* The sizes at which the MULX/ADX Montgomery kernels leave the stack clean
 * (clean_sizes, src/impl.h): the fused 8- and 16-limb kernels of
 * bn_mont_fused_adx.S wipe what they store, and the 16-limb square's
 * product, in its C frame, is wiped by its reduction there. */
#define CRISP_BN_MONT_ADX_CLEAN_SIZES (CRISP_BN_SIZE_BIT(8) | CRISP_BN_SIZE_BIT(16))

#endif
