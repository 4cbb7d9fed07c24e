/* crisp/bn.h - big-integer kernels on little-endian arrays of 64-bit limbs
 * (the layout of GMP's mpn layer): products, squares, Montgomery arithmetic
 * and a constant-time modular exponentiation. */
#ifndef CRISP_BN_H
#define CRISP_BN_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t crisp_limb;

/* Largest modulus, in limbs, the Montgomery functions and crisp_bn_mod_exp
 * accept (16384 bits); larger ones return CRISP_E_RANGE. */
#define CRISP_BN_MONT_MAX_LIMBS 256

/* z[0..xn+yn) = x * y. z must not overlap x or y; xn, yn >= 1.
 * CRISP_E_INVALID on NULL, zero length or overlap; z untouched then. */
CRISP_API int crisp_bn_mul(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn);

/* z[0..2n) = x * x. z must not overlap x; n >= 1. */
CRISP_API int crisp_bn_sqr(crisp_limb *z, const crisp_limb *x, size_t n);

/* z[0..n) += x[0..n) * k, then *carry = the limb carried out (written
 * last, so it may point anywhere, even into z). x may equal z exactly but
 * not overlap it otherwise. n >= 1.
 * CRISP_E_INVALID on NULL, n == 0 or such an overlap; CRISP_E_RANGE when n
 * limbs do not fit in memory; z and *carry untouched then. */
CRISP_API int crisp_bn_mul_add(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k, crisp_limb *carry);

/* -m0^-1 mod 2^64 for odd m0; 0 for even m0 (no inverse exists). */
CRISP_API crisp_limb crisp_bn_mont_inv(crisp_limb m0);

/* r2 = R^2 mod m with R = 2^(64n); m odd, m[n-1] != 0. r2 must not overlap m. */
CRISP_API int crisp_bn_mont_r2(crisp_limb *r2, const crisp_limb *m, size_t n);

/* r = a * b * R^-1 mod m, fully reduced, for a, b < m, m odd, m[n-1] != 0,
 * minv = crisp_bn_mont_inv(m[0]). r may overlap a or b, not m. Time and
 * memory accesses depend only on n. CRISP_E_INVALID for NULL, n == 0, an even
 * m, m[n-1] == 0, a wrong minv or r overlapping m; CRISP_E_RANGE when a or
 * b >= m or n > CRISP_BN_MONT_MAX_LIMBS. r is untouched on error. */
CRISP_API int crisp_bn_mont_mul(crisp_limb *r, const crisp_limb *a, const crisp_limb *b,
                                const crisp_limb *m, size_t n, crisp_limb minv);
CRISP_API int crisp_bn_mont_sqr(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                                crisp_limb minv);

/* r[0..n) = base^exp mod m for odd m (m[n-1] != 0) and base < m; exp has en
 * limbs (en may be 0: the result is then 1 mod m). Time and memory accesses
 * depend only on n and en, never on the values of base or exp. r may equal
 * base; any other overlap of r with base, exp or m is CRISP_E_INVALID.
 * Errors as for crisp_bn_mont_mul, plus CRISP_E_NOMEM if its scratch table
 * cannot be allocated; r is untouched on error. */
CRISP_API int crisp_bn_mod_exp(crisp_limb *r, const crisp_limb *base, const crisp_limb *exp, size_t en,
                               const crisp_limb *m, size_t n);

#ifdef __cplusplus
}
#endif

#endif
