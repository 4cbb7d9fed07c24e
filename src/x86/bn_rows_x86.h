/* src/x86/bn_rows_x86.h - the big-integer rows written in assembly, as
 * C sees them: bn_rows_scalar.S (baseline x86-64: ADC/SBB additions, MULQ
 * rows) and bn_rows_adx.S (MULX with ADCX/ADOX; the caller checks
 * BMI2 and ADX). Every other x86-64 bignum kernel is built from these.
 * Limbs are least significant first; a length n may be 0 unless a contract
 * says otherwise. None of them branches on limb values or addresses memory
 * by them. */
#ifndef CRISP_SRC_X86_BN_ROWS_X86_H
#define CRISP_SRC_X86_BN_ROWS_X86_H

#include <stddef.h>

#include "crisp/bn.h"

/* ---- bn_rows_scalar.S ---- */

/* z[0..n) = x + y + carry (x - y - borrow); returns the carry (borrow) out.
 * carry is 0 or 1; z may equal x or y exactly. */
unsigned char crisp_bn_add_n_x86_64(crisp_limb *z, const crisp_limb *x, const crisp_limb *y, size_t n,
                                    unsigned char carry);
unsigned char crisp_bn_sub_n_x86_64(crisp_limb *z, const crisp_limb *x, const crisp_limb *y, size_t n,
                                    unsigned char borrow);
/* z[0..n) += carry (0 or 1), through every limb; returns the carry out. */
unsigned char crisp_bn_add_carry_x86_64(crisp_limb *z, size_t n, unsigned char carry);

/* z[0..n) = x * k + carry (z += x * k + carry); returns the carry limb. */
crisp_limb crisp_bn_mul_row_x86_64(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k,
                                   crisp_limb carry);
crisp_limb crisp_bn_mul_add_row_x86_64(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k,
                                       crisp_limb carry);
/* z[0..xn+yn) = x * y, schoolbook; xn, yn >= 1, z apart from x and y. */
void crisp_bn_mul_basecase_x86_64(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y,
                                  size_t yn);
/* The rows i = 1 .. n-2 of a square's cross products: z[2i+1 ..) +=
 * x[i+1 .. n) * x[i], the carry stored at z[n+i]. Nothing for n < 3. */
void crisp_bn_sqr_triangle_x86_64(crisp_limb *z, const crisp_limb *x, size_t n);
/* The n rows of a Montgomery reduction of t[0..2n) (minv = -m^-1 mod 2^64):
 * row i adds m * (t[i] minv mod 2^64) at t + i, which clears t[i], and parks
 * its carry in t[i]; t[n..2n) then still lacks the sum of those carries. */
void crisp_bn_redc_rows_x86_64(crisp_limb *t, const crisp_limb *m, size_t n, crisp_limb minv);

/* ---- bn_rows_adx.S (BMI2 + ADX) ---- */

crisp_limb crisp_bn_mul_row_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k,
                                       crisp_limb carry);
crisp_limb crisp_bn_mul_add_row_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k,
                                           crisp_limb carry);
/* z[0..8) += x * k (z[0..16) += x * k); returns the carry limb. Straight
 * line, for the lengths where a row's entry jump and block loop cost more
 * than the products; x == z is fine. */
crisp_limb crisp_bn_mul_add8_x86_64_adx(crisp_limb *z, const crisp_limb *x, crisp_limb k);
crisp_limb crisp_bn_mul_add16_x86_64_adx(crisp_limb *z, const crisp_limb *x, crisp_limb k);
void crisp_bn_mul_basecase_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y,
                                      size_t yn);
void crisp_bn_sqr_triangle_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t n);
void crisp_bn_redc_rows_x86_64_adx(crisp_limb *t, const crisp_limb *m, size_t n, crisp_limb minv);
/* z[0..31) = the cross products of x[0..16) (z[0] = 0); the top limb
 * z[31] is left alone. */
void crisp_bn_sqr_triangle16_x86_64_adx(crisp_limb *z, const crisp_limb *x);
/* z[0..16) = x[0..8)^2, the cross products, their doubling and the
 * diagonal in one call; z apart from x. */
void crisp_bn_sqr8_x86_64_adx(crisp_limb *z, const crisp_limb *x);
/* z[0..2n) = 2 z + sum x[i]^2 B^2i, where z holds the cross products of the
 * square of x (so the result fits in 2n limbs). */
void crisp_bn_sqr_diagonal_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t n);
/* z[0..n) = -z (two's complement, mod 2^64n) when negative is 1, z when it
 * is 0; the same instructions and addresses either way. */
void crisp_bn_negate_if_x86_64_adx(crisp_limb *z, size_t n, crisp_limb negative);
/* z[0..n) = x + y + (w xor mask) + (mask & 1), mask 0 or all ones: x + y
 * +- w, Karatsuba's middle term in one pass; returns the sum of the two
 * carries out (0, 1 or 2). */
crisp_limb crisp_bn_add3_x86_64_adx(crisp_limb *z, const crisp_limb *x, const crisp_limb *y,
                                    const crisp_limb *w, size_t n, crisp_limb mask);
/* z[0..n) = x + y + ~w + carry (carry 0 or 1), likewise: with carry 1,
 * x + y - w (mod 2^64n), the middle term of a Karatsuba square. */
crisp_limb crisp_bn_add2_not_x86_64_adx(crisp_limb *z, const crisp_limb *x, const crisp_limb *y,
                                        const crisp_limb *w, size_t n, crisp_limb carry);
/* Karatsuba's combination in place for equal halves of h limbs, h a
 * positive multiple of 8: z[0..4h) holds z0 = x0 y0 below z2 = x1 y1 and
 * becomes z + 2^64h (z0 + z2 + w) for mask 0, z + 2^64h (z0 + z2 - w)
 * for mask all ones, w[0..2h); the square form always subtracts. The
 * result must fit in 4h limbs (it is x y). */
void crisp_bn_karatsuba_fold_x86_64_adx(crisp_limb *z, const crisp_limb *w, size_t h, crisp_limb mask);
void crisp_bn_karatsuba_fold_square_x86_64_adx(crisp_limb *z, const crisp_limb *w, size_t h);

/* ---- bn_mont_fused_adx.S (BMI2 + ADX) ---- */

/* r = a b R^-1 mod m for exactly 8 (16) limbs, R = 2^(64n): a, b < m, m
 * odd, minv = -m^-1 mod 2^64; r apart from a, b and m (a may equal b). */
void crisp_bn_mont_mul8_x86_64_adx(crisp_limb *r, const crisp_limb *a, const crisp_limb *b,
                                   const crisp_limb *m, crisp_limb minv);
void crisp_bn_mont_mul16_x86_64_adx(crisp_limb *r, const crisp_limb *a, const crisp_limb *b,
                                    const crisp_limb *m, crisp_limb minv);
/* r = t R^-1 mod m for t[0..32) below m R, fully reduced (n = 16); m odd,
 * minv = -m^-1 mod 2^64. t is wiped (zeroes); r apart from t and m. */
void crisp_bn_redc16_x86_64_adx(crisp_limb *r, crisp_limb *t, const crisp_limb *m, crisp_limb minv);

/* ---- bn_window_adx.S (BMI2 + ADX) ---- */

/* z[0..xn+yn) = x * y, schoolbook with the columns in registers; xn and yn
 * positive multiples of 8, z apart from x and y. */
void crisp_bn_mul_window_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y,
                                    size_t yn);

/* z[0..2n) = the cross products x[i] x[j] (i < j) of x[0..n), with z[0]
 * and z[2n-1] zero; n a positive multiple of 8, z apart from x. */
void crisp_bn_sqr_triangle_window_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t n);

#endif
