/* src/bn_internal.h - what the bignum code shares beyond the limb helpers
 * of arithmetic/bn_word.h, each defined in one front-end: R^2 mod m (bn.c; also
 * used by bn_mod_exp.c and bn_mod_exp_crt.c), the single exponentiation
 * without its argument checks (bn_mod_exp.c; used by bn_mod_exp2.c), the
 * pair without them (bn_mod_exp2.c; used by bn_mod_exp_crt.c) and the CRT
 * with its test hook (bn_mod_exp_crt.c; used by test/test_bn_rsa.c). */
#ifndef CRISP_SRC_BN_INTERNAL_H
#define CRISP_SRC_BN_INTERNAL_H

#include <stddef.h>

#include "arithmetic/bn_word.h"
#include "crisp/bn.h"
#include "impl.h"

/* r2 = R^2 mod m, R = 2^(64n), for a modulus the caller has checked (odd,
 * m[n-1] != 0, 1 <= n <= CRISP_BN_MONT_MAX_LIMBS), using sqr and 2n limbs
 * of work space from the caller (left holding values derived from m). r2
 * must not overlap m or work. */
void crisp_bn_mont_r2_unchecked(crisp_limb *r2, const crisp_limb *m, size_t n, crisp_limb minv,
                                const crisp_bn_mont_sqr_impl *sqr, crisp_limb *work);

/* crisp_bn_mod_exp after its argument checks: r = base^exp mod m for a
 * modulus, base and exponent that crisp_bn_mod_exp would accept, through
 * the active Montgomery kernels. r may equal base, nothing else. Returns
 * CRISP_OK or CRISP_E_NOMEM (r untouched then). */
int crisp_bn_mod_exp_unchecked(crisp_limb *r, const crisp_limb *base, const crisp_limb *exp, size_t en,
                               const crisp_limb *m, size_t n);

/* crisp_bn_mod_exp2 after its checks: both lanes (impl.h, crisp_bn_exp_lane;
 * results apart from every input and each other) through the active
 * bn_mod_exp2 implementation, or two crisp_bn_mod_exp_unchecked when it has
 * no dual kernel or does not take the size. Returns CRISP_OK or
 * CRISP_E_NOMEM. */
int crisp_bn_mod_exp2_unchecked(const crisp_bn_exp_lane lane[2], size_t exponent_limbs, size_t n);

/* crisp_bn_mod_exp_crt with a test hook: fault, when not NULL, is called
 * on m1 = c^dp mod p (half limbs) between the exponentiations and the
 * recombination, to model a fault there (test_bn_rsa.c flips one bit).
 * Internal: not exported from the shared library; the public function
 * passes NULL. */
int crisp_bn_mod_exp_crt_hooked(crisp_limb *r, const crisp_limb *c, const crisp_limb *p, const crisp_limb *q,
                                const crisp_limb *dp, const crisp_limb *dq, const crisp_limb *qinv,
                                size_t half, const crisp_limb *e, size_t en,
                                void (*fault)(crisp_limb *m1, size_t half));

/* crisp_bn_crt_key_exp with the same test hook. */
int crisp_bn_crt_key_exp_hooked(crisp_limb *r, const crisp_limb *c, const crisp_bn_crt_key *key,
                                void (*fault)(crisp_limb *m1, size_t half));

#endif
