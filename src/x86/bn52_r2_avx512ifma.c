/* src/x86/bn52_r2_avx512ifma.c - R'^2 mod m (R' = 2^(52k)) for the AVX-512
 * IFMA exponentiation, and the modular doublings of one modulus or two at
 * once that it and the two-lane R^2 (bn_mod_exp2_avx512ifma.c) start from:
 * in radix 2^64, the values held in 512-bit registers, the borrows
 * resolved at once as in a carry-lookahead adder; then almost-Montgomery
 * squares. Every count depends on the sizes only; no branch and no address
 * on m.
 * ISA: AVX-512F/VL/DQ/IFMA. */
#include <immintrin.h>
#include <string.h>

#include "util.h"
#include "x86/bn52_avx512ifma.h"

#define LIMB_BITS 64

#define DOUBLE_MAX_VECTORS 8 /* n = 64 limbs */

/* The doublings of x[l] mod m[l] for `lanes` (1 or 2) independent values,
 * with x and m in `vectors` 512-bit registers each (n = 8 vectors limbs):
 * 2x by shifts (each limb takes the top bit of the one below), 2x - m by
 * lane-wise subtractions whose borrows are resolved at once by an integer
 * addition over one bit per limb, as in a carry-lookahead adder (a limb
 * generates a borrow when below m's limb and passes one on when equal to
 * it); then 2x - m is kept when 2x overflowed or the subtraction did not
 * borrow, by a blend under a mask of all ones or none. Two lanes' chains
 * are independent and fill each other's waits. No branch and no address
 * depends on x or m. */
static inline __attribute__((always_inline)) void double_mod_vectors(crisp_limb *const x[2],
                                                                     const crisp_limb *const m[2],
                                                                     size_t doublings, const int vectors,
                                                                     const int lanes) {
  const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1);
  __m512i xv[2][DOUBLE_MAX_VECTORS], mv[2][DOUBLE_MAX_VECTORS];
  const unsigned top = 8 * (unsigned)vectors - 1; /* the highest limb's bit in the masks */
  CRISP_BN52_UNROLL(2)
  for (int l = 0; l < lanes; l++) {
    CRISP_BN52_UNROLL(8)
    for (int v = 0; v < vectors; v++) {
      xv[l][v] = _mm512_loadu_si512((const __m512i *)x[l] + v);
      mv[l][v] = _mm512_loadu_si512((const __m512i *)m[l] + v);
    }
  }
  for (size_t d = 0; d < doublings; d++) {
    CRISP_BN52_UNROLL(2)
    for (int l = 0; l < lanes; l++) {
      const uint64_t overflow = ((uint64_t)_mm512_movepi64_mask(xv[l][vectors - 1]) >> 7) & 1;
      __m512i twice[DOUBLE_MAX_VECTORS], difference[DOUBLE_MAX_VECTORS];
      uint64_t generate = 0, propagate = 0;
      CRISP_BN52_UNROLL(8)
      for (int v = 0; v < vectors; v++) {
        const __m512i below = _mm512_alignr_epi64(xv[l][v], v ? xv[l][v - 1] : zero, 7);
        twice[v] = _mm512_or_si512(_mm512_slli_epi64(xv[l][v], 1), _mm512_srli_epi64(below, 63));
        difference[v] = _mm512_sub_epi64(twice[v], mv[l][v]);
        generate |= (uint64_t)_mm512_cmplt_epu64_mask(twice[v], mv[l][v]) << (8 * v);
        propagate |= (uint64_t)_mm512_cmpeq_epu64_mask(twice[v], mv[l][v]) << (8 * v);
      }
      const uint64_t borrow_in = ((generate << 1) + propagate) ^ propagate;
      const uint64_t borrow_out = ((generate | (propagate & borrow_in)) >> top) & 1;
      const __mmask8 take_difference = (__mmask8)(0 - (overflow | (borrow_out ^ 1)));
      CRISP_BN52_UNROLL(8)
      for (int v = 0; v < vectors; v++) {
        difference[v] =
            _mm512_mask_sub_epi64(difference[v], (__mmask8)(borrow_in >> (8 * v)), difference[v], one);
        xv[l][v] = _mm512_mask_blend_epi64(take_difference, twice[v], difference[v]);
      }
    }
  }
  CRISP_BN52_UNROLL(2)
  for (int l = 0; l < lanes; l++) {
    CRISP_BN52_UNROLL(8)
    for (int v = 0; v < vectors; v++) _mm512_storeu_si512((__m512i *)x[l] + v, xv[l][v]);
  }
}

/* x = x 2^doublings mod m for x < m, by doublings each followed by a
 * subtraction of m kept by mask (m may be secret: an RSA prime); n is a
 * size crisp_bn52_limbs takes (a multiple of 8 limbs, at most 64). */
static void double_mod_times(crisp_limb *x, const crisp_limb *m, size_t n, size_t doublings) {
  crisp_limb *const xs[2] = {x, NULL};
  const crisp_limb *const ms[2] = {m, NULL};
  switch (n / 8) {
    case 2:
      double_mod_vectors(xs, ms, doublings, 2, 1);
      break;
    case 3:
      double_mod_vectors(xs, ms, doublings, 3, 1);
      break;
    case 4:
      double_mod_vectors(xs, ms, doublings, 4, 1);
      break;
    case 6:
      double_mod_vectors(xs, ms, doublings, 6, 1);
      break;
    case 8:
      double_mod_vectors(xs, ms, doublings, 8, 1);
      break;
    default:
      break; /* not reached: every caller's n passed crisp_bn52_limbs */
  }
}

int crisp_bn52_double_mod2(crisp_limb *x0, crisp_limb *x1, const crisp_limb *m0, const crisp_limb *m1,
                           size_t n, size_t doublings) {
  crisp_limb *const xs[2] = {x0, x1};
  const crisp_limb *const ms[2] = {m0, m1};
  switch (n) {
    case 16:
      double_mod_vectors(xs, ms, doublings, 2, 2);
      return CRISP_OK;
    case 24:
      double_mod_vectors(xs, ms, doublings, 3, 2);
      return CRISP_OK;
    case 32:
      double_mod_vectors(xs, ms, doublings, 4, 2);
      return CRISP_OK;
    default:
      return CRISP_E_UNSUPPORTED;
  }
}

/* With 52k = odd * 2^s, start from R' 2^odd (doublings of 2^(64(n-1)),
 * which is below m) and square s times, each almost-Montgomery square
 * doubling the power above R'. The count depends on the sizes only. */
static size_t fresh_doublings(size_t n, size_t k, unsigned *squares) {
  const size_t exponent = CRISP_BN52_BITS * k;
  unsigned s = 0;
  while (!((exponent >> s) & 1)) s++;
  *squares = s;
  return exponent + (exponent >> s) - LIMB_BITS * (n - 1);
}

void crisp_bn52_r2(uint64_t *square, const crisp_limb *m, size_t n, const uint64_t *m52, size_t k,
                   uint64_t k0) {
  unsigned s;
  const size_t fresh = fresh_doublings(n, k, &s);
  crisp_limb power[CRISP_BN52_MAX_N];
  memset(power, 0, n * sizeof(crisp_limb));
  power[n - 1] = 1; /* 2^(64(n-1)) < m since m[n-1] != 0 */
  double_mod_times(power, m, n, fresh);
  crisp_bn52_from64(square, k, power, n, 0);
  crisp_wipe(power, n * sizeof(crisp_limb));
  for (unsigned i = 0; i < s; i++) crisp_bn52_amm(square, square, square, m52, k, k0);
}
