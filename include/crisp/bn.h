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

/* Stack: every function here runs on a thread with a 32 KiB stack. Each
 * states its worst-case stack use below the caller's frame, measured by
 * test/test_stack.c at every implementation level and size (it fails when
 * a call uses more), by size class where it depends on n: up to 31 limbs,
 * up to 64 (RSA-4096), up to 128, up to 256. The figures are x86-64's;
 * on other architectures the exponentiations take 11 KiB at every size
 * and the rest no more than stated. */

/* z[0..xn+yn) = x * y. z must not overlap x or y; xn, yn >= 1.
 * CRISP_E_INVALID on NULL, zero length or overlap; CRISP_E_RANGE when xn
 * or yn is above SIZE_MAX / 16 (the product's limbs would not fit in
 * memory); z untouched then.
 * Stack, by the shorter length: 2 / 7 / 12 / 20 KiB. */
CRISP_API int crisp_bn_mul(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn);

/* z[0..2n) = x * x. z must not overlap x; n >= 1. Errors as for
 * crisp_bn_mul. Stack: 2 / 6 / 9 / 16 KiB. */
CRISP_API int crisp_bn_sqr(crisp_limb *z, const crisp_limb *x, size_t n);

/* z[0..n) += x[0..n) * k, then *carry = the limb carried out (written
 * last, so it may point anywhere, even into z). x may equal z exactly but
 * not overlap it otherwise. n >= 1.
 * CRISP_E_INVALID on NULL, n == 0 or such an overlap; CRISP_E_RANGE when n
 * limbs do not fit in memory; z and *carry untouched then. Stack: 1 KiB. */
CRISP_API int crisp_bn_mul_add(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k, crisp_limb *carry);

/* -m0^-1 mod 2^64 for odd m0; 0 for even m0 (no inverse exists).
 * Stack: 1 KiB. */
CRISP_API crisp_limb crisp_bn_mont_inv(crisp_limb m0);

/* r2 = R^2 mod m with R = 2^(64n); m odd, m[n-1] != 0. r2 must not overlap m.
 * CRISP_E_INVALID for NULL, n == 0, an even m, m[n-1] == 0 or an overlap;
 * CRISP_E_RANGE when n > CRISP_BN_MONT_MAX_LIMBS; r2 untouched then.
 * Stack: 13 / 13 / 16 / 25 KiB. */
CRISP_API int crisp_bn_mont_r2(crisp_limb *r2, const crisp_limb *m, size_t n);

/* r = a * b * R^-1 mod m, fully reduced, for a, b < m, m odd, m[n-1] != 0,
 * minv = crisp_bn_mont_inv(m[0]). r may overlap a or b, not m. Time and
 * memory accesses depend only on n. CRISP_E_INVALID for NULL, n == 0, an even
 * m, m[n-1] == 0, a wrong minv or r overlapping m; CRISP_E_RANGE when a or
 * b >= m or n > CRISP_BN_MONT_MAX_LIMBS. r is untouched on error.
 * Stack (each, r overlapping a or b included): 13 / 13 / 16 / 25 KiB. */
CRISP_API int crisp_bn_mont_mul(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                                size_t n, crisp_limb minv);
CRISP_API int crisp_bn_mont_sqr(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                                crisp_limb minv);

/* r[0..n) = base^exp mod m for odd m (m[n-1] != 0) and base < m; exp has en
 * limbs (en may be 0: the result is then 1 mod m, and exp may be NULL). Time and memory accesses
 * depend only on n and en, never on the values of base or exp. r may equal
 * base; any other overlap of r with base, exp or m is CRISP_E_INVALID.
 * Errors as for crisp_bn_mont_mul, plus CRISP_E_NOMEM if its scratch table
 * cannot be allocated; r is untouched on error.
 * Stack: 11 / 13 / 17 / 23 KiB, most of it the wipe of the stack the
 * exponentiation used. */
CRISP_API int crisp_bn_mod_exp(crisp_limb *r, const crisp_limb *base, const crisp_limb *exp, size_t en,
                               const crisp_limb *m, size_t n);

/* Two independent exponentiations computed together: r0 = b0^e0 mod m0 and
 * r1 = b1^e1 mod m1, where an implementation can interleave them (two
 * lanes filling each other's latency) and otherwise one after the other.
 * Each half has the contract of crisp_bn_mod_exp: moduli of n limbs, odd,
 * top limb nonzero, b0 < m0 and b1 < m1; exponents of en limbs each (en may
 * be 0: both results are then 1 mod their modulus, and e0 and e1 may be
 * NULL). Time and memory
 * accesses depend only on n and en. r0 may equal b0 and r1 may equal b1;
 * r0 and r1 must not overlap each other, and no other overlap of an output
 * with an input is allowed.
 * CRISP_E_INVALID for a NULL pointer, n == 0, an even modulus, a modulus
 * whose top limb is 0 or such an overlap; CRISP_E_RANGE when b0 >= m0,
 * b1 >= m1, n > CRISP_BN_MONT_MAX_LIMBS or en is too long to count its
 * bits; CRISP_E_NOMEM when scratch memory cannot be allocated. r0 and r1
 * are untouched on error. Stack: 11 / 13 / 17 / 23 KiB. */
CRISP_API int crisp_bn_mod_exp2(crisp_limb *r0, crisp_limb *r1, const crisp_limb *b0, const crisp_limb *b1,
                                const crisp_limb *e0, const crisp_limb *e1, size_t en, const crisp_limb *m0,
                                const crisp_limb *m1, size_t n);

/* The RSA private-key operation by the Chinese remainder theorem:
 * r = c^d mod p*q, from c and r of 2*half limbs and p, q, dp = d mod (p-1),
 * dq = d mod (q-1) and qinv = q^-1 mod p of half limbs each (p > q and
 * p < q both work). Both exponentiations run together (crisp_bn_mod_exp2),
 * then Garner's recombination r = m2 + q * (qinv (m1 - m2) mod p).
 * Constant time in every secret: c, p, q, dp, dq, qinv and r steer no
 * branch and no memory address; time depends only on half, en and e (the
 * one fact about p and q a branch tests is that they are odd, and with
 * half == 1 that neither is 1).
 * When e is not NULL it is the public exponent (en limbs) and the result is
 * checked before it is returned: r^e must equal c mod p*q, otherwise (a
 * fault during the computation, which would leak a factor of p*q) r is
 * wiped to zero and CRISP_E_MISMATCH returned. e == NULL skips the check.
 * r may equal c; no other overlap of r with an input is allowed.
 * The first failing check gives the status, in this order:
 * CRISP_E_INVALID for a NULL pointer (e aside), half == 0 or e given with
 * en == 0; CRISP_E_RANGE when half > CRISP_BN_MONT_MAX_LIMBS / 2 or en is
 * too long; CRISP_E_INVALID for an overlap; CRISP_E_NOMEM when scratch
 * memory cannot be allocated (the key's values are checked in it, so a bad
 * key meets this first); CRISP_E_INVALID for an even p or q, p*q not
 * filling 2*half limbs, or p == q; CRISP_E_RANGE when c >= p*q or
 * qinv >= p; CRISP_E_INVALID when qinv*q mod p is not 1 (qinv is not q's
 * inverse mod p, and no qinv is when p and q share a factor);
 * CRISP_E_MISMATCH as above. So p and
 * q are coprime whenever a result is returned, and the check, made mod p
 * and mod q, holds mod p*q. r is untouched on every error but
 * CRISP_E_MISMATCH. The checks on secret values run without branches: a
 * bad key or c costs as long as a good one.
 * Stack, by half: 11 / 13 / 17 KiB (half up to 31 / 64 / 128). */
CRISP_API int crisp_bn_mod_exp_crt(crisp_limb *r, const crisp_limb *c, const crisp_limb *p,
                                   const crisp_limb *q, const crisp_limb *dp, const crisp_limb *dq,
                                   const crisp_limb *qinv, size_t half, const crisp_limb *e, size_t en);

/* A private key prepared once for many crisp_bn_crt_key_exp calls: the
 * same operation as crisp_bn_mod_exp_crt, with the key's checks and its
 * precomputation (p q, R^2 mod p and mod q) made once, as OpenSSL keeps a
 * key's Montgomery contexts. The key holds copies of p, q, dp, dq, qinv and
 * e (the caller may wipe its own at once) and is read-only after
 * crisp_bn_crt_key_new: threads may share one. Each call uses the
 * implementations active when it runs. */
typedef struct crisp_bn_crt_key crisp_bn_crt_key;

/* *key = a new prepared key from the arguments of crisp_bn_mod_exp_crt
 * (without r and c), with the same checks and errors in the same order,
 * less those on r and c: CRISP_E_INVALID for a NULL pointer (e aside; key
 * included), half == 0 or e given with en == 0; CRISP_E_RANGE for half or
 * en too large; CRISP_E_NOMEM; CRISP_E_INVALID for an even p or q, p*q not
 * filling 2*half limbs or p == q; CRISP_E_RANGE when qinv >= p;
 * CRISP_E_INVALID when qinv is not q's inverse mod p. *key is NULL on
 * every error (when key is not NULL). The checks on the key's values run
 * without branches, as crisp_bn_mod_exp_crt's. Free with
 * crisp_bn_crt_key_free. Stack: as crisp_bn_mod_exp_crt's. */
CRISP_API int crisp_bn_crt_key_new(crisp_bn_crt_key **key, const crisp_limb *p, const crisp_limb *q,
                                   const crisp_limb *dp, const crisp_limb *dq, const crisp_limb *qinv,
                                   size_t half, const crisp_limb *e, size_t en);

/* r = c^d mod p*q for the prepared key: crisp_bn_mod_exp_crt's result,
 * fault check (when the key has e), constant time and overlap rule (r may
 * equal c, no other overlap). CRISP_E_INVALID for a NULL pointer or r
 * overlapping c otherwise; CRISP_E_NOMEM when scratch memory cannot be
 * allocated; CRISP_E_RANGE when c >= p*q; CRISP_E_MISMATCH as
 * crisp_bn_mod_exp_crt's (r wiped to zero). r is untouched on every other
 * error. Stack: as crisp_bn_mod_exp_crt's. */
CRISP_API int crisp_bn_crt_key_exp(crisp_limb *r, const crisp_limb *c, const crisp_bn_crt_key *key);

/* Wipes and frees a key from crisp_bn_crt_key_new; NULL is allowed. */
CRISP_API void crisp_bn_crt_key_free(crisp_bn_crt_key *key);

#ifdef __cplusplus
}
#endif

#endif
