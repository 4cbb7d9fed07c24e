/* src/x86/bn52_avx512ifma.h - radix 2^52 Montgomery arithmetic shared by the
 * AVX-512 IFMA mont_mul / mont_sqr kernels, their mod_exp and the dual
 * mod_exp2. */
#ifndef CRISP_SRC_X86_BN_AVX512IFMA_H
#define CRISP_SRC_X86_BN_AVX512IFMA_H

#include "impl.h"

/* CRISP_BN52_UNROLL(n): the next loop, whose trip count (at most n) is a
 * constant once its function is inlined, runs fully unrolled, so that
 * arrays of vectors indexed by its counter stay in registers. gcc takes
 * the count; clang is asked for a full unroll, since its reading of
 * "GCC unroll n" unrolls by n while the count is still unknown and keeps
 * those arrays in memory. Under AddressSanitizer (the fuzz build) clang
 * keeps its own reading: instrumented, the full unrolls are slow to
 * compile, for speed no sanitized build is run for. */
#define CRISP_BN52_PRAGMA(text) _Pragma(#text)
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CRISP_BN52_ADDRESS_SANITIZER 1
#endif
#if __has_feature(memory_sanitizer)
#define CRISP_BN52_MEMORY_SANITIZER 1
#endif
#endif
#if defined(__clang__) && !defined(CRISP_BN52_ADDRESS_SANITIZER)
#define CRISP_BN52_UNROLL(n) CRISP_BN52_PRAGMA(clang loop unroll(full))
#else
#define CRISP_BN52_UNROLL(n) CRISP_BN52_PRAGMA(GCC unroll n)
#endif

/* CRISP_BN52_HIDE(p): for clang, an empty asm that makes pointer p look
 * changed, so that the vectors read through it after this point are loaded
 * there rather than taken from registers loaded before. clang hoists a
 * loop's invariant loads (a and m in every step) out of the loop and,
 * with 32 vector registers short of them and the accumulators, spills
 * and reloads them: twice the work of loading them as operands, which is
 * what gcc does unasked (nothing is emitted for gcc). Also used on a
 * scalar to keep clang from packing the two lanes' quotient chains into
 * one vector register, which puts a vector multiply and two moves between
 * general and vector registers on each step's chain. Not under
 * MemorySanitizer (the ct-msan build), which checks every input of an
 * asm statement and would report the secret digit it hides; that build
 * is not run for speed. */
#if defined(__clang__) && !defined(CRISP_BN52_MEMORY_SANITIZER)
#define CRISP_BN52_HIDE(p) __asm__("" : "+r"(p))
#else
#define CRISP_BN52_HIDE(p) ((void)0)
#endif

#define CRISP_BN52_BITS 52
#define CRISP_BN52_MASK ((((uint64_t)1) << CRISP_BN52_BITS) - 1)
/* Largest radix 2^52 length handled (4096-bit moduli), and the same modulus
 * in 64-bit limbs. */
#define CRISP_BN52_MAX_LIMBS 80
#define CRISP_BN52_MAX_N 64

/* Radix 2^52 limbs k for a modulus of n 64-bit limbs, or 0 when the IFMA
 * code has no kernel for that size. 52k >= 64n + 2 always, so R' = 2^(52k)
 * exceeds 4m and almost-Montgomery results stay below 2m. */
size_t crisp_bn52_limbs(size_t n);

/* Almost Montgomery multiplication: r = a b 2^(-52k) mod m, r < 2m for
 * a, b < 2m (a b < 2m R' in general), limbs of r normalised below 2^52.
 * All arrays k limbs, 32-byte aligned; k0 = -m^-1 mod 2^52. r may alias a
 * or b. */
void crisp_bn52_amm(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, size_t k,
                    uint64_t k0);

/* out[0..k) = the radix 2^52 digits of x[0..n) * 2^shift (shift < 52 + 52k
 * - 64n, so the value fits). */
void crisp_bn52_from64(uint64_t *out, size_t k, const crisp_limb *x, size_t n, unsigned shift);

/* r[0..n) = t mod m for t < 2m in radix 2^52 (k limbs): converted back to
 * radix 2^64 and m subtracted once when t >= m, selected by mask. */
void crisp_bn52_to64_reduced(crisp_limb *r, const uint64_t *t, size_t k, const crisp_limb *m, size_t n);

/* square = R'^2 mod m (R' = 2^(52k)) in radix 2^52, k digits below 2m, for
 * m of n limbs and m52 its k digits; constant time in m. square is 32-byte
 * aligned. */
void crisp_bn52_r2(uint64_t *square, const crisp_limb *m, size_t n, const uint64_t *m52, size_t k,
                   uint64_t k0);

/* x0 = x0 2^doublings mod m0 and x1 = x1 2^doublings mod m1 (radix 2^64,
 * n limbs, x0 < m0, x1 < m1), both in one pass; constant time in x and m.
 * Returns CRISP_OK, or CRISP_E_UNSUPPORTED for n other than 16, 24, 32
 * (both lanes' values held in vector registers through the pass: four
 * vectors each at most). */
int crisp_bn52_double_mod2(crisp_limb *x0, crisp_limb *x1, const crisp_limb *m0, const crisp_limb *m1,
                           size_t n, size_t doublings);

/* z[0..xn+yn) = x * y and z[0..2n) = x^2 through radix 2^52 columns
 * (bn52_wide_avx512ifma.c), for operands of up to CRISP_BN52_WIDE_MAX_LIMBS
 * limbs, both within one size class (crisp_bn52_wide_class_top); z apart
 * from x and y. */
#define CRISP_BN52_WIDE_MAX_LIMBS 256
/* The columns' size classes, each with frames for its largest operand:
 * those of src/scrub_depths.h, which sizes a public call's scrub by the
 * shorter operand. The largest operand of the class n limbs is in. */
#define CRISP_BN52_WIDE_LEAST 48
#define CRISP_BN52_WIDE_SMALL 64
#define CRISP_BN52_WIDE_MEDIUM 128
static inline size_t crisp_bn52_wide_class_top(size_t n) {
  return n <= CRISP_BN52_WIDE_LEAST    ? CRISP_BN52_WIDE_LEAST
         : n <= CRISP_BN52_WIDE_SMALL  ? CRISP_BN52_WIDE_SMALL
         : n <= CRISP_BN52_WIDE_MEDIUM ? CRISP_BN52_WIDE_MEDIUM
                                       : CRISP_BN52_WIDE_MAX_LIMBS;
}
void crisp_bn52_wide_mul(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn);
void crisp_bn52_wide_sqr(crisp_limb *z, const crisp_limb *x, size_t n);
/* Digits a value of k digits takes in the two-lane kernels: k rounded up
 * to whole 512-bit vectors (the padding digits stay zero). */
static inline size_t crisp_bn52_padded_digits(size_t k) {
  return (k + 7) / 8 * 8;
}

/* The two-lane almost-Montgomery product r[l] = a[l] b[l] 2^(-52k) mod m[l]
 * (below 2 m[l]) for l = 0, 1, as crisp_bn52_amm for each lane; arrays are
 * 64-byte aligned and padded with zero digits to
 * crisp_bn52_padded_digits(k); r may alias a or b; k0[l] = -m[l]^-1 mod
 * 2^52. The lanes may share a modulus or not. */
typedef void crisp_bn52_dual_product_fn(uint64_t *const r[2], const uint64_t *const a[2],
                                        const uint64_t *const b[2], const uint64_t *const m[2],
                                        const uint64_t k0[2]);
/* The two-lane square r[l] = a[l]^2 2^(-52k) mod m[l], the dual product's
 * contract for b = a; moved_up[l] is m[l] moved up one digit, then two
 * digits (crisp_bn52_lane_setup writes it). */
typedef void crisp_bn52_dual_square_fn(uint64_t *const r[2], const uint64_t *const a[2],
                                       const uint64_t *const m[2], const uint64_t *const moved_up[2],
                                       const uint64_t k0[2]);

/* Digits the two-lane ladders use for a modulus of n limbs: 20, 30, 40
 * for 1024-, 1536- and 2048-bit moduli (the fewest with 52k >= 64n + 2),
 * else 0. */
size_t crisp_bn52_dual_digits(size_t n);
/* The dual product for k digits, or NULL where there is none (k other than
 * 20, 30, 32, 40). */
crisp_bn52_dual_product_fn *crisp_bn52_dual_product_for(size_t k);
/* The dedicated dual square for k digits where it beats the dual product
 * (k = 20, 30), else NULL (square with the dual product). */
crisp_bn52_dual_square_fn *crisp_bn52_dual_square_for(size_t k);

/* One lane's values for a two-lane ladder: m in radix 2^52 (m52) and, when
 * m_moved_up is not NULL, its copies moved up one and two digits (2 *
 * stride digits, for the dual square), the base in radix 2^52 (base52) and
 * the constant 1; the buffers are zero beforehand, stride digits each. */
void crisp_bn52_lane_setup(uint64_t *m52, uint64_t *m_moved_up, uint64_t *base52, uint64_t *one,
                           const crisp_limb *mod, const crisp_limb *base, size_t n, size_t k, size_t stride);

void crisp_bn_mont_mul_avx512ifma(crisp_limb *r, const crisp_limb *a, const crisp_limb *b,
                                  const crisp_limb *m, size_t n, crisp_limb minv);
void crisp_bn_mont_sqr_avx512ifma(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                                  crisp_limb minv);
/* The mont_mul descriptor's mod_exp (bn_mod_exp_avx512ifma.c). */
int crisp_bn_mod_exp_avx512ifma(crisp_limb *r, const crisp_limb *base, const crisp_limb *exp, size_t en,
                                const crisp_limb *m, size_t n, crisp_limb minv);

#endif
