/* src/x86/bn_mont_avx512ifma.c - Montgomery multiply and square in radix
 * 2^52 with AVX-512 IFMA (vpmadd52luq / vpmadd52huq on 256-bit vectors,
 * AVX-512VL), for 1024-, 1536-, 2048-, 3072- and 4096-bit moduli (n = 16,
 * 24, 32, 48, 64 limbs; k = 20, 32, 40, 60, 80 radix 2^52 limbs, four per
 * vector), and the descriptors whose mod_exp is bn_mod_exp_avx512ifma.c's.
 * Other sizes, and the standalone calls where converting per call loses to
 * the scalar kernel, use the MULX/ADX kernel (hence BMI2 | ADX in the
 * features). The product and the conversions are bn52_avx512ifma.c's.
 * The standalone calls honour crisp's R = 2^(64n) by shifting b left by
 * 52k - 64n bits while converting it, so a b 2^(-52k) becomes
 * a b 2^(-64n); crisp_bn_mod_exp_avx512ifma stays in radix 2^52 throughout.
 * The per-call figures against the MULX/ADX kernel and OpenSSL are in the
 * docs/performance.md (`crisp bench --kernel bn_mont_mul`). */
#include <immintrin.h>
#include <string.h>

#include "util.h"
#include "x86/bn52_avx512ifma.h"
#include "x86/bn_rows_x86.h"
#include "x86/bn_kernels_x86.h"

/* Per-call conversion: a, b shifted by 52k - 64n, m; one AMM; back. */
static void mont_mul_converted(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                               size_t n, size_t k, crisp_limb minv) {
  /* a and b side by side (k * 8 bytes is a multiple of 32), wiped at once */
  uint64_t operands[2 * CRISP_BN52_MAX_LIMBS] __attribute__((aligned(32)));
  uint64_t *a52 = operands, *b52 = operands + k;
  uint64_t m52[CRISP_BN52_MAX_LIMBS] __attribute__((aligned(32)));
  crisp_bn52_from64(a52, k, a, n, 0);
  crisp_bn52_from64(b52, k, b, n, (unsigned)(CRISP_BN52_BITS * k - 64 * n));
  crisp_bn52_from64(m52, k, m, n, 0);
  crisp_bn52_amm(a52, a52, b52, m52, k, minv & CRISP_BN52_MASK);
  crisp_bn52_to64_reduced(r, a52, k, m, n);
  crisp_wipe_lines(operands, 2 * k * sizeof(uint64_t));
}

/* Sizes where one converted IFMA call beats the MULX/ADX kernel: at 1024
 * bits converting both ways per call costs more than the vectors save; from
 * 1536 bits up the vectors win (docs/performance.md). mod_exp
 * converts only once, so it uses every size crisp_bn52_limbs knows. */
static int ifma_wins_per_call(size_t n) {
  return n >= 24 && crisp_bn52_limbs(n) != 0;
}

void crisp_bn_mont_mul_avx512ifma(crisp_limb *r, const crisp_limb *a, const crisp_limb *b,
                                  const crisp_limb *m, size_t n, crisp_limb minv) {
  if (ifma_wins_per_call(n))
    mont_mul_converted(r, a, b, m, n, crisp_bn52_limbs(n), minv);
  else
    crisp_bn_mont_mul_x86_64_adx(r, a, b, m, n, minv);
}

void crisp_bn_mont_sqr_avx512ifma(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                                  crisp_limb minv) {
  if (ifma_wins_per_call(n))
    mont_mul_converted(r, a, a, m, n, crisp_bn52_limbs(n), minv);
  else
    crisp_bn_mont_sqr_x86_64_adx(r, a, m, n, minv);
}

const crisp_bn_mont_mul_impl crisp_bn_mont_mul_avx512ifma_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mont_mul_avx512ifma_impl),
    crisp_bn_mont_mul_avx512ifma,
    crisp_bn_mod_exp_avx512ifma,
    CRISP_BN_MONT_ADX_CLEAN_SIZES, /* below 24 limbs the calls are the MULX/ADX kernel's */
};

const crisp_bn_mont_sqr_impl crisp_bn_mont_sqr_avx512ifma_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mont_sqr_avx512ifma_impl),
    crisp_bn_mont_sqr_avx512ifma,
    CRISP_BN_MONT_ADX_CLEAN_SIZES,
};
