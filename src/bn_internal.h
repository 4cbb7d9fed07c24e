/* src/bn_internal.h - what the bignum front-ends (bn.c, bn_mod_exp.c) share
 * beyond the limb helpers of generic/bn_word.h: R^2 mod m. */
#ifndef CRISP_SRC_BN_INTERNAL_H
#define CRISP_SRC_BN_INTERNAL_H

#include <stddef.h>

#include "generic/bn_word.h"
#include "impl.h"

/* r2 = R^2 mod m, R = 2^(64n), for a modulus the caller has checked (odd,
 * m[n-1] != 0, 1 <= n <= CRISP_BN_MONT_MAX_LIMBS), using sqr. r2 must not
 * overlap m. */
void crisp_bn_mont_r2_checked(crisp_limb *r2, const crisp_limb *m, size_t n, crisp_limb minv,
                              const crisp_bn_mont_sqr_impl *sqr);

#endif
