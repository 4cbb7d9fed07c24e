/* src/x86/bn_mont_avx512ifma.c - Montgomery multiply and square in radix
 * 2^52 with AVX-512 IFMA (vpmadd52luq / vpmadd52huq on 256-bit vectors,
 * AVX-512VL), for 1024-, 1536-, 2048-, 3072- and 4096-bit moduli (n = 16,
 * 24, 32, 48, 64 limbs; k = 20, 32, 40, 60, 80 radix 2^52 limbs, four per
 * vector). Other sizes, and the standalone calls where converting per call
 * loses to the scalar kernel, use the MULX/ADX kernel (hence BMI2 | ADX in
 * the features).
 * Layout: the accumulator is k lanes of 64 bits held in registers (as two
 * halves, see amm_body); each step adds the low halves of a * b[i] and
 * m * y, shifts one lane down (the low lane is then a multiple of 2^52, its
 * carry goes to the next lane), and adds the high halves. Lanes are
 * normalised once, at the end.
 * The standalone calls honour crisp's R = 2^(64n) by shifting b left by
 * 52k - 64n bits while converting it, so a b 2^(-52k) becomes
 * a b 2^(-64n); crisp_bn_mod_exp_avx512ifma stays in radix 2^52 throughout.
 * Measured on AMD Zen 4 (EPYC): mont_mul per call (conversions included)
 * 2048-bit 1650, 3072-bit 2900, 4096-bit 4500-5200 TSC ticks against 2116-2700,
 * 4313-5555, 10300-11150 for the MULX/ADX kernel; at 1024 and 1536 bits the
 * standalone calls go to the MULX/ADX kernel (750 vs 577, 1171 vs 1180). */
#include <immintrin.h>
#include <string.h>

#include "x86/bn_avx512ifma.h"
#include "x86/bn_x86_64.h"

#define LANES 4

size_t crisp_bn52_limbs(size_t n) {
  switch (n) {
    case 16: return 20;
    case 24: return 32;
    case 32: return 40;
    case 48: return 60;
    case 64: return 80;
    default: return 0;
  }
}

/* The body, instantiated once per vector count so the accumulators live in
 * registers. The accumulator is split in two, low halves (low) and high
 * halves (high), so each register takes two dependent multiply-adds per
 * step instead of four; lane 0 (the quotient digit y and its carry) is
 * worked out in scalar from both, off the vector dependency chains. */
static inline __attribute__((always_inline)) void amm_body(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                                            const uint64_t *m, uint64_t k0, const int vectors) {
  __m256i low[20], high[20];
  const __m256i zero = _mm256_setzero_si256();
  const __m256i *av = (const __m256i *)a, *mv = (const __m256i *)m;
#pragma GCC unroll 20
  for (int v = 0; v < vectors; v++) low[v] = high[v] = zero;
  const uint64_t a0 = a[0], m0 = m[0];
  uint64_t carry = 0; /* lane 0's carry, kept in scalar until the end */
  for (int i = 0; i < vectors * LANES; i++) {
    const __m256i bi = _mm256_set1_epi64x((long long)b[i]);
    const uint64_t lane0 = (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(low[0])) +
                           (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(high[0])) + carry;
    const uint64_t t = lane0 + ((a0 * b[i]) & CRISP_BN52_MASK);
    const uint64_t digit = (t * k0) & CRISP_BN52_MASK;
    carry = (t + ((m0 * digit) & CRISP_BN52_MASK)) >> CRISP_BN52_BITS;
    const __m256i y = _mm256_set1_epi64x((long long)digit);
    /* low halves at lane j, then everything shifts one lane down (lane 0,
     * now a multiple of 2^52, is dropped: its carry is in `carry`) */
#pragma GCC unroll 20
    for (int v = 0; v < vectors; v++) {
      low[v] = _mm256_madd52lo_epu64(low[v], _mm256_load_si256(av + v), bi);
      low[v] = _mm256_madd52lo_epu64(low[v], _mm256_load_si256(mv + v), y);
    }
#pragma GCC unroll 20
    for (int v = 0; v < vectors - 1; v++) {
      low[v] = _mm256_alignr_epi64(low[v + 1], low[v], 1);
      high[v] = _mm256_alignr_epi64(high[v + 1], high[v], 1);
    }
    low[vectors - 1] = _mm256_alignr_epi64(zero, low[vectors - 1], 1);
    high[vectors - 1] = _mm256_alignr_epi64(zero, high[vectors - 1], 1);
    /* high halves belong one lane up, i.e. at lane j after the shift */
#pragma GCC unroll 20
    for (int v = 0; v < vectors; v++) {
      high[v] = _mm256_madd52hi_epu64(high[v], _mm256_load_si256(av + v), bi);
      high[v] = _mm256_madd52hi_epu64(high[v], _mm256_load_si256(mv + v), y);
    }
  }
  /* Normalise: one carry pass in scalar, every lane in turn (no early exit). */
  uint64_t lanes[20 * LANES] __attribute__((aligned(32)));
#pragma GCC unroll 20
  for (int v = 0; v < vectors; v++) _mm256_store_si256((__m256i *)lanes + v, _mm256_add_epi64(low[v], high[v]));
  for (int j = 0; j < vectors * LANES; j++) {
    const uint64_t sum = lanes[j] + carry;
    r[j] = sum & CRISP_BN52_MASK;
    carry = sum >> CRISP_BN52_BITS;
  }
}

#define CRISP_BN52_AMM(vectors)                                                                             \
  static void amm_##vectors(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t k0) { \
    amm_body(r, a, b, m, k0, vectors);                                                                        \
  }
CRISP_BN52_AMM(5)
CRISP_BN52_AMM(8)
CRISP_BN52_AMM(10)
CRISP_BN52_AMM(15)
CRISP_BN52_AMM(20)

void crisp_bn52_amm(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, size_t k, uint64_t k0) {
  switch (k) {
    case 20: amm_5(r, a, b, m, k0); break;
    case 32: amm_8(r, a, b, m, k0); break;
    case 40: amm_10(r, a, b, m, k0); break;
    case 60: amm_15(r, a, b, m, k0); break;
    case 80: amm_20(r, a, b, m, k0); break;
    default: break;
  }
}

void crisp_bn52_from64(uint64_t *out, size_t k, const crisp_limb *x, size_t n, unsigned shift) {
  for (size_t j = 0; j < k; j++) {
    /* digit j holds bits [52j - shift, 52j - shift + 52) of x */
    const long first = (long)(CRISP_BN52_BITS * j) - (long)shift;
    uint64_t digit = 0;
    for (long bit = first < 0 ? 0 : first; bit < first + CRISP_BN52_BITS && bit < (long)(64 * n);) {
      const size_t limb = (size_t)bit / 64;
      const unsigned offset = (unsigned)bit % 64;
      const unsigned taken = 64 - offset;
      digit |= (x[limb] >> offset) << (bit - first);
      bit += taken;
    }
    out[j] = digit & CRISP_BN52_MASK;
  }
}

void crisp_bn52_to64_reduced(crisp_limb *r, const uint64_t *t, size_t k, const crisp_limb *m, size_t n) {
  crisp_limb value[CRISP_BN_MONT_MAX_LIMBS + 1];
  memset(value, 0, (n + 1) * sizeof(crisp_limb));
  for (size_t j = 0; j < k; j++) {
    const size_t bit = CRISP_BN52_BITS * j, limb = bit / 64;
    const unsigned offset = bit % 64;
    if (limb <= n) value[limb] |= t[j] << offset;
    if (offset > 64 - CRISP_BN52_BITS && limb + 1 <= n) value[limb + 1] |= t[j] >> (64 - offset);
  }
  /* t < 2m: subtract m when value[n] (the bit above 64n) is set or no borrow */
  crisp_limb difference[CRISP_BN_MONT_MAX_LIMBS];
  unsigned char borrow = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned long long s;
    borrow = _subborrow_u64(borrow, value[i], m[i], &s);
    difference[i] = s;
  }
  const crisp_limb keep_difference = (crisp_limb)0 - ((value[n] & 1) | (crisp_limb)(borrow ^ 1));
  for (size_t i = 0; i < n; i++) r[i] = (difference[i] & keep_difference) | (value[i] & ~keep_difference);
}

/* Per-call conversion: a, b shifted by 52k - 64n, m; one AMM; back. */
static void mont_mul_converted(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                               size_t n, size_t k, crisp_limb minv) {
  uint64_t a52[CRISP_BN52_MAX_LIMBS] __attribute__((aligned(32)));
  uint64_t b52[CRISP_BN52_MAX_LIMBS] __attribute__((aligned(32)));
  uint64_t m52[CRISP_BN52_MAX_LIMBS] __attribute__((aligned(32)));
  crisp_bn52_from64(a52, k, a, n, 0);
  crisp_bn52_from64(b52, k, b, n, (unsigned)(CRISP_BN52_BITS * k - 64 * n));
  crisp_bn52_from64(m52, k, m, n, 0);
  crisp_bn52_amm(a52, a52, b52, m52, k, minv & CRISP_BN52_MASK);
  crisp_bn52_to64_reduced(r, a52, k, m, n);
}

/* Sizes where one converted IFMA call beats the MULX/ADX kernel (measured:
 * at 1024 bits the conversions cost more than the vectors save, at 1536
 * bits they tie, from 2048 bits up IFMA wins). mod_exp converts only once,
 * so it uses every size crisp_bn52_limbs knows. */
static int ifma_wins_per_call(size_t n) { return n >= 32 && crisp_bn52_limbs(n) != 0; }

void crisp_bn_mont_mul_avx512ifma(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                                  size_t n, crisp_limb minv) {
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

#define IFMA_FEATURES                                                                                    \
  (CRISP_CPU_AVX | CRISP_CPU_AVX2 | CRISP_CPU_AVX512F | CRISP_CPU_AVX512VL | CRISP_CPU_AVX512IFMA |      \
   CRISP_CPU_BMI2 | CRISP_CPU_ADX)

const crisp_bn_mont_mul_impl crisp_bn_mont_mul_avx512ifma_impl = {
    {CRISP_KERNEL_BN_MONT_MUL, "avx512ifma", CRISP_LEVEL_AVX512IFMA, IFMA_FEATURES},
    crisp_bn_mont_mul_avx512ifma,
    crisp_bn_mod_exp_avx512ifma,
};

const crisp_bn_mont_sqr_impl crisp_bn_mont_sqr_avx512ifma_impl = {
    {CRISP_KERNEL_BN_MONT_SQR, "avx512ifma", CRISP_LEVEL_AVX512IFMA, IFMA_FEATURES},
    crisp_bn_mont_sqr_avx512ifma,
};
