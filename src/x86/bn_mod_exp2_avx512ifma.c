/* src/x86/bn_mod_exp2_avx512ifma.c - two constant-time exponentiations
 * advancing together in radix 2^52 with AVX-512 IFMA, for 1024-, 1536- and
 * 2048-bit moduli (the halves of RSA-2048, -3072 and -4096; k = 20, 32, 40
 * digits, padded with zero digits to 24, 32, 40: three to five 512-bit
 * vectors), and at the same sizes one exponentiation whose square and
 * multiply share the two lanes (crisp_bn52_mod_exp_binary, the single
 * mod_exp's kernel there). Other sizes return CRISP_E_UNSUPPORTED.
 * Why two at once: one almost-Montgomery product is a chain of k steps,
 * each waiting for its quotient digit y, which depends on the previous
 * step's result; a single chain leaves the multipliers idle most of the
 * time. Each step here works on both lanes, whose chains are independent,
 * so one lane's vector work fills the other's wait.
 * Why y is found in scalar: the next step's lowest digit is the vector
 * accumulator's second lane plus a few products of the lowest two digits
 * of a and m; the products are computed in scalar from y at once, and the
 * accumulator's second lane is read one step before it is needed, so the
 * chain from one y to the next never crosses between vector and general
 * registers (which costs several cycles each way).
 * Both lanes use the same fixed windows (the exponents have one length);
 * each window's table entry is read by a scan of the whole table under a
 * mask, so no address depends on an exponent. At 20 digits the ladder's
 * squares use a dedicated square (ams2_body). Conversions in and out, R'^2
 * (from the caller's R^2 when it has one) and the final subtraction are
 * those of the single kernel
 * (bn_mont_avx512ifma.c, bn_mod_exp_avx512ifma.c). The CRT's R^2 mod p
 * and mod q come from r2_pair: both moduli's doublings in one pass, then
 * two-lane squares; its fault check's powers run in mod_exp2_checked on the
 * exponentiations' setup of the moduli, which would otherwise be made
 * twice.
 * ISA: AVX-512F/VL/IFMA, and BMI2 / ADX through the shared conversion. */
#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

#include "generic/bn_window.h"
#include "scrub_depths.h"
#include "util.h"
#include "x86/bn_avx512ifma.h"

#define LIMB_BITS 64
#define LANES 8       /* 64-bit lanes in a 512-bit vector */
#define MAX_VECTORS 5 /* k = 40 */

/* Digits in a padded value: k rounded up to whole vectors. */
static size_t padded_digits(size_t k) { return (k + LANES - 1) / LANES * LANES; }

/* The 8-bit masks of `vectors` vectors (3 to 5) as one mask, vector v at
 * bits 8v. */
static inline __attribute__((always_inline)) __mmask64 join_masks(const __mmask8 m[MAX_VECTORS], const int vectors) {
  const __mmask16 low = _mm512_kunpackb(m[1], m[0]);
  const __mmask32 four = _mm512_kunpackw(_mm512_kunpackb(vectors > 3 ? m[3] : 0, m[2]), low);
  return vectors > 4 ? _mm512_kunpackd(m[4], four) : (__mmask64)four;
}

/* The end of normalize_lane and normalize_lane_down2 (below, which says
 * how it works): from the digits after one pass (below 2^52 + 2^12) and
 * their generate and propagate masks, the carries still passed on are
 * added and the digits stored. */
static inline __attribute__((always_inline)) void carry_digits(uint64_t *r, const __m512i digit[MAX_VECTORS],
                                                               const __mmask8 generate[MAX_VECTORS],
                                                               const __mmask8 propagate[MAX_VECTORS],
                                                               const int vectors) {
  const __m512i mask = _mm512_set1_epi64((long long)CRISP_BN52_MASK);
  const __mmask64 g = join_masks(generate, vectors), p = join_masks(propagate, vectors);
  const __mmask64 plus_one = _kxor_mask64(_kadd_mask64(_kshiftli_mask64(g, 1), p), p);
  const __m512i one = _mm512_set1_epi64(1);
#pragma GCC unroll 5
  for (int v = 0; v < vectors; v++) {
    const __mmask8 lanes = (__mmask8)(v == 0   ? plus_one
                                      : v == 1 ? _kshiftri_mask64(plus_one, 8)
                                      : v == 2 ? _kshiftri_mask64(plus_one, 16)
                                      : v == 3 ? _kshiftri_mask64(plus_one, 24)
                                               : _kshiftri_mask64(plus_one, 32));
    const __m512i sum = _mm512_mask_add_epi64(digit[v], lanes, digit[v], one);
    _mm512_store_si512((__m512i *)r + v, _mm512_and_si512(sum, mask));
  }
}

/* r = acc + carry (at position 0) with every digit below 2^52, for a
 * value below 2^(52 * 8 * vectors) whose digits are below 2^63, written
 * with whole-vector stores (which the next product's aligned loads of r
 * can take straight from the store queue). One pass moves each digit's bits above
 * 52 into the next digit; what can still carry is a digit at 2^52 or a
 * little above (it generates a carry) and a run of digits of all ones
 * (each passes one on): the digits that gain one are found at once by an
 * integer addition over one bit per digit, as in a carry-lookahead adder
 * (in mask registers, without a round trip through general registers).
 * No branch and no address depends on the digits. */
static inline __attribute__((always_inline)) void normalize_lane(uint64_t *r, const __m512i acc[MAX_VECTORS],
                                                                  uint64_t carry, const int vectors) {
  const __m512i mask = _mm512_set1_epi64((long long)CRISP_BN52_MASK), zero = _mm512_setzero_si512();
  __m512i digit[MAX_VECTORS], high_before = _mm512_maskz_set1_epi64(1, (long long)carry);
  __mmask8 generate[MAX_VECTORS], propagate[MAX_VECTORS];
#pragma GCC unroll 5
  for (int v = 0; v < vectors; v++) {
    /* high_before lane 0 starts as the carry into position 0, then holds
     * the previous vector's top digit's high bits */
    const __m512i high = _mm512_srli_epi64(acc[v], CRISP_BN52_BITS);
    const __m512i in = v ? _mm512_alignr_epi64(high, high_before, 7)
                         : _mm512_add_epi64(_mm512_alignr_epi64(high, zero, 7), high_before);
    digit[v] = _mm512_add_epi64(_mm512_and_si512(acc[v], mask), in);
    high_before = high;
    generate[v] = _mm512_cmpgt_epu64_mask(digit[v], mask);
    propagate[v] = _mm512_cmpeq_epu64_mask(digit[v], mask);
  }
  carry_digits(r, digit, generate, propagate, vectors);
}

/* normalize_lane of the accumulator moved down two digits, from the
 * vectors before that move (pre): the low and high parts are split first
 * and each moved on its own, two and one digits, so the move and the pass
 * run side by side instead of one after the other. Digit 0's incoming
 * high part would be that of the last reduced position, which the scalar
 * chain has already carried: the carry takes its place. The two reduced
 * positions' low parts and the first one's high part are dropped. */
static inline __attribute__((always_inline)) void normalize_lane_down2(uint64_t *r,
                                                                       const __m512i pre[MAX_VECTORS],
                                                                       uint64_t carry, const int vectors) {
  const __m512i mask = _mm512_set1_epi64((long long)CRISP_BN52_MASK), zero = _mm512_setzero_si512();
  __m512i low[MAX_VECTORS + 1], high[MAX_VECTORS + 1], digit[MAX_VECTORS];
  __mmask8 generate[MAX_VECTORS], propagate[MAX_VECTORS];
#pragma GCC unroll 5
  for (int v = 0; v < vectors; v++) {
    low[v] = _mm512_and_si512(pre[v], mask);
    high[v] = _mm512_srli_epi64(pre[v], CRISP_BN52_BITS);
  }
  low[vectors] = high[vectors] = zero;
#pragma GCC unroll 5
  for (int v = 0; v < vectors; v++) {
    __m512i in = _mm512_alignr_epi64(high[v + 1], high[v], 1);
    if (v == 0) in = _mm512_mask_set1_epi64(in, 1, (long long)carry);
    digit[v] = _mm512_add_epi64(_mm512_alignr_epi64(low[v + 1], low[v], 2), in);
    generate[v] = _mm512_cmpgt_epu64_mask(digit[v], mask);
    propagate[v] = _mm512_cmpeq_epu64_mask(digit[v], mask);
  }
  carry_digits(r, digit, generate, propagate, vectors);
}

/* (high:low) moved down `lanes` 64-bit lanes (0 to 7): valignq with the
 * count as the immediate it must be. */
static inline __attribute__((always_inline)) __m512i lanes_down(__m512i high, __m512i low, const int lanes) {
  switch (lanes) {
    case 1:
      return _mm512_alignr_epi64(high, low, 1);
    case 2:
      return _mm512_alignr_epi64(high, low, 2);
    case 3:
      return _mm512_alignr_epi64(high, low, 3);
    case 4:
      return _mm512_alignr_epi64(high, low, 4);
    case 5:
      return _mm512_alignr_epi64(high, low, 5);
    case 6:
      return _mm512_alignr_epi64(high, low, 6);
    case 7:
      return _mm512_alignr_epi64(high, low, 7);
    default:
      return low;
  }
}

/* The two-lane almost-Montgomery product r[l] = a[l] b[l] 2^(-52 digits) mod
 * m[l] (below 2 m[l]), as crisp_bn52_amm for each lane; arrays are
 * 64-byte aligned, padded with zero digits to vectors * 8; r may alias a or
 * b. Unlike the single kernel, each lane shifts one accumulator per step:
 * one shift per vector and step instead of two leaves the vector pipes
 * more room for the multiplies, which bound this loop. At 20 digits the
 * step's high halves are summed apart and added after the shift, so the
 * accumulator's chain from step to step is two multiply-adds, the shift
 * and an addition instead of four multiply-adds and the shift; at 32 and
 * 40 digits the extra additions and registers cost more than that saves
 * (docs/performance.md). */
static inline __attribute__((always_inline)) void amm2_body(uint64_t *const r[2], const uint64_t *const a[2],
                                                             const uint64_t *const b[2], const uint64_t *const m[2],
                                                             const uint64_t k0[2], const int vectors,
                                                             const int digits) {
  __m512i acc[2][MAX_VECTORS];
  const __m512i zero = _mm512_setzero_si512();
  uint64_t lane0[2] = {0, 0}, carry[2] = {0, 0};
  uint64_t a0[2], a1[2], m0[2], m1[2];
  for (int l = 0; l < 2; l++) {
#pragma GCC unroll 5
    for (int v = 0; v < vectors; v++) acc[l][v] = zero;
    a0[l] = a[l][0], a1[l] = a[l][1], m0[l] = m[l][0], m1[l] = m[l][1];
  }
  for (int i = 0; i < digits; i++) {
#pragma GCC unroll 2
    for (int l = 0; l < 2; l++) {
      const uint64_t bi = b[l][i];
      /* the quotient digit, from the lowest digit in scalar */
      const unsigned __int128 ab = (unsigned __int128)a0[l] * bi;
      const uint64_t t = lane0[l] + ((uint64_t)ab & CRISP_BN52_MASK);
      const uint64_t y = (t * k0[l]) & CRISP_BN52_MASK;
      const unsigned __int128 my = (unsigned __int128)m0[l] * y;
      const uint64_t dropped = (t + ((uint64_t)my & CRISP_BN52_MASK)) >> CRISP_BN52_BITS;
      /* the second lane before this step becomes the lowest after it */
      const uint64_t second = (uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(acc[l][0]), 1);
      lane0[l] = second + ((a1[l] * bi) & CRISP_BN52_MASK) + ((m1[l] * y) & CRISP_BN52_MASK) +
                 (uint64_t)(ab >> CRISP_BN52_BITS) + (uint64_t)(my >> CRISP_BN52_BITS) + dropped;
      carry[l] = dropped;

      const __m512i bv = _mm512_set1_epi64((long long)bi), yv = _mm512_set1_epi64((long long)y);
      const __m512i *av = (const __m512i *)a[l], *mv = (const __m512i *)m[l];
      const int apart = vectors == 3; /* the high halves summed apart */
      __m512i high[MAX_VECTORS];
#pragma GCC unroll 5
      for (int v = 0; v < vectors; v++) {
        acc[l][v] = _mm512_madd52lo_epu64(acc[l][v], _mm512_load_si512(av + v), bv);
        acc[l][v] = _mm512_madd52lo_epu64(acc[l][v], _mm512_load_si512(mv + v), yv);
        if (apart)
          high[v] = _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(zero, _mm512_load_si512(av + v), bv),
                                          _mm512_load_si512(mv + v), yv);
      }
#pragma GCC unroll 5
      for (int v = 0; v < vectors - 1; v++) acc[l][v] = _mm512_alignr_epi64(acc[l][v + 1], acc[l][v], 1);
      acc[l][vectors - 1] = _mm512_alignr_epi64(zero, acc[l][vectors - 1], 1);
#pragma GCC unroll 5
      for (int v = 0; v < vectors; v++) {
        if (apart) {
          acc[l][v] = _mm512_add_epi64(acc[l][v], high[v]);
        } else {
          acc[l][v] = _mm512_madd52hi_epu64(acc[l][v], _mm512_load_si512(av + v), bv);
          acc[l][v] = _mm512_madd52hi_epu64(acc[l][v], _mm512_load_si512(mv + v), yv);
        }
      }
    }
  }
  for (int l = 0; l < 2; l++) normalize_lane(r[l], acc[l], carry[l], vectors);
}

#define AMM2(vectors, digits)                                                                                  \
  static void amm2_##digits(uint64_t *const r[2], const uint64_t *const a[2], const uint64_t *const b[2],    \
                            const uint64_t *const m[2], const uint64_t k0[2]) {                              \
    amm2_body(r, a, b, m, k0, vectors, digits);                                                              \
  }
AMM2(3, 20)
AMM2(4, 32)
AMM2(5, 40)

/* One output vector c of the square t = a^2 for one lane (positions
 * 8c .. 8c+7): the cross products a_x a_y (x < y) once, doubled, plus the
 * diagonal a_x^2. Row x needs the digits a[8c - x ..] under a lane mask
 * (x < y < k), read unaligned; masked lanes are not read, so only digits
 * of a are. The high halves belong one position up: high_before carries
 * the previous vector's into this one. Two sums per half (even and odd
 * rows) keep the chains short. */
static inline __attribute__((always_inline)) __m512i ams2_column_lane(const uint64_t *a, __m512i *high_before,
                                                                      const int c, const int k) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i low[2] = {zero, zero}, high[2] = {zero, zero};
#pragma GCC unroll 40
  for (int x = 0; x < k; x++) {
    /* lane p holds y = 8c + p - x */
    const int first = 2 * x - 8 * c + 1 > 0 ? 2 * x - 8 * c + 1 : 0;
    const int end = k + x - 8 * c < LANES ? k + x - 8 * c : LANES;
    if (first >= end) continue;
    const __mmask8 lanes = (__mmask8)(((1u << end) - 1) & ~((1u << first) - 1));
    const __m512i ax = _mm512_set1_epi64((long long)a[x]);
    /* below a (vector 0, rows 1-3): a's first vector moved up x lanes */
    const __m512i up = _mm512_sub_epi64(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64(x - 8 * c));
    const __m512i ay = 8 * c - x >= 0
                           ? _mm512_maskz_loadu_epi64(lanes, a + (8 * c - x))
                           : _mm512_maskz_permutexvar_epi64(lanes, up, _mm512_load_si512((const __m512i *)a));
    low[x & 1] = _mm512_madd52lo_epu64(low[x & 1], ax, ay);
    high[x & 1] = _mm512_madd52hi_epu64(high[x & 1], ax, ay);
  }
  /* the diagonal: a_x^2 at positions 2x (low half) and 2x + 1 (high half) */
  const __m512i av = _mm512_load_si512((const __m512i *)a + c / 2);
  const __m512i square_low = _mm512_madd52lo_epu64(zero, av, av);
  const __m512i square_high = _mm512_madd52hi_epu64(zero, av, av);
  const __m512i pick = c % 2 ? _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4) : _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
  const __m512i diagonal = _mm512_permutex2var_epi64(square_low, pick, square_high);
  const __m512i high_sum = _mm512_add_epi64(high[0], high[1]);
  const __m512i cross =
      _mm512_add_epi64(_mm512_add_epi64(low[0], low[1]), _mm512_alignr_epi64(high_sum, *high_before, 7));
  *high_before = high_sum;
  return _mm512_add_epi64(_mm512_add_epi64(cross, cross), diagonal);
}

/* The bits a reduction step carries out of the lowest digit t: y is chosen
 * so that t + m0 y is 0 mod 2^52, so the low 52 bits of t and of m0 y sum
 * to 0 (both zero) or to 2^52; the carry is t's bits above 52 plus one
 * exactly when t's low 52 bits are not zero, found by an addition. */
static inline uint64_t ams2_dropped(uint64_t t) {
  return (t >> CRISP_BN52_BITS) + (((t & CRISP_BN52_MASK) + CRISP_BN52_MASK) >> CRISP_BN52_BITS);
}

/* Reduction steps i (even) and i + 1 for one lane, with one shift of two
 * digits after both: step i adds y m at lanes j and its high halves at
 * j + 1 (m moved up one lane), step i + 1 adds its low halves at j + 1 and
 * high halves at j + 2 (m moved up two lanes). shifted holds m moved up
 * one lane, then two lanes, `vectors` vectors each. */
static inline __attribute__((always_inline)) void ams2_reduce_first(__m512i acc[MAX_VECTORS], uint64_t *lane0,
                                                                    uint64_t *carry, const uint64_t *m,
                                                                    const uint64_t *shifted, const uint64_t m0_up,
                                                                    const uint64_t m1, const uint64_t k0,
                                                                    const int vectors) {
  const uint64_t y = (*lane0 * k0) & CRISP_BN52_MASK;
  const uint64_t dropped = ams2_dropped(*lane0);
  const uint64_t second = (uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(acc[0]), 1);
  *lane0 = second + dropped + ((m1 * y) & CRISP_BN52_MASK) + (uint64_t)(((unsigned __int128)m0_up * y) >> LIMB_BITS);
  *carry = dropped;
  const __m512i yv = _mm512_set1_epi64((long long)y);
  const __m512i *mv = (const __m512i *)m, *up1 = (const __m512i *)shifted;
#pragma GCC unroll 5
  for (int v = 0; v < vectors; v++) {
    acc[v] = _mm512_madd52lo_epu64(acc[v], _mm512_load_si512(mv + v), yv);
    acc[v] = _mm512_madd52hi_epu64(acc[v], _mm512_load_si512(up1 + v), yv);
  }
}

static inline __attribute__((always_inline)) void ams2_reduce_second(
    __m512i acc[MAX_VECTORS], uint64_t *lane0, uint64_t *carry, const uint64_t *shifted, const uint64_t m0_up,
    const uint64_t m1, const uint64_t k0, const int vectors, const int move) {
  const __m512i zero = _mm512_setzero_si512();
  const uint64_t y = (*lane0 * k0) & CRISP_BN52_MASK;
  const uint64_t dropped = ams2_dropped(*lane0);
  /* position i + 2 is lane 2 until the shift */
  const uint64_t second = (uint64_t)_mm_cvtsi128_si64(_mm512_extracti32x4_epi32(acc[0], 1));
  *lane0 = second + dropped + ((m1 * y) & CRISP_BN52_MASK) + (uint64_t)(((unsigned __int128)m0_up * y) >> LIMB_BITS);
  *carry = dropped;
  const __m512i yv = _mm512_set1_epi64((long long)y);
  const __m512i *up1 = (const __m512i *)shifted, *up2 = up1 + vectors;
#pragma GCC unroll 5
  for (int v = 0; v < vectors; v++) {
    acc[v] = _mm512_madd52lo_epu64(acc[v], _mm512_load_si512(up1 + v), yv);
    acc[v] = _mm512_madd52hi_epu64(acc[v], _mm512_load_si512(up2 + v), yv);
  }
  if (!move) return;
#pragma GCC unroll 5
  for (int v = 0; v < vectors - 1; v++) acc[v] = _mm512_alignr_epi64(acc[v + 1], acc[v], 2);
  acc[vectors - 1] = _mm512_alignr_epi64(zero, acc[vectors - 1], 2);
}

/* The two-lane almost-Montgomery square r[l] = a[l]^2 2^(-52 digits) mod
 * m[l] (below 2 m[l]), with amm2_body's contract for b = a. It computes
 * the square t = a^2 and reduces it, instead of amm2_body's interleaving:
 * - a square needs each cross product once: about 30% fewer multiply-adds
 *   than a general product, and none of them waits for a quotient digit;
 * - the reduction is amm2_body's loop without the a b terms, its steps
 *   in pairs that share one shift of two digits (the multiply-adds and
 *   the shifts go to the same two vector pipes, so a shift saved is a
 *   multiply-add's slot); waiting on the quotient digit's scalar chain,
 *   its steps leave those pipes partly idle, and t's output vectors are
 *   computed in the idle slots, a block of 8 steps ahead of their use.
 * sh[l] is m[l] moved up one digit, then two digits (k + 2 <= 8 vectors).
 * t's output vector c (positions 8c ..) enters the accumulator at step
 * 8(c - 1), when it lines up with the accumulator's second vector, one
 * step before the scalar lowest digit reads its first position; vectors
 * past the last step are added at the end, before the last pair's move
 * down two digits (which normalize_lane_down2 makes), where lane p of
 * the accumulator stands for position k - 2 + p. */
/* Two reduction steps of both lanes, each lane's first step before either
 * lane's second, so that one lane's quotient chain runs beside the other's. */
#define AMS2_REDUCE_PAIR(move)                                                                       \
  do {                                                                                               \
    _Pragma("GCC unroll 2") for (int l = 0; l < 2; l++)                                              \
        ams2_reduce_first(acc[l], &lane0[l], &carry[l], m[l], sh[l], m0[l], m1[l], k0[l], vectors);  \
    _Pragma("GCC unroll 2") for (int l = 0; l < 2; l++)                                              \
        ams2_reduce_second(acc[l], &lane0[l], &carry[l], sh[l], m0[l], m1[l], k0[l], vectors, move); \
  } while (0)

static inline __attribute__((always_inline)) void ams2_body(uint64_t *const r[2], const uint64_t *const a[2],
                                                             const uint64_t *const m[2], const uint64_t *const sh[2],
                                                             const uint64_t k0[2], const int vectors, const int k) {
  const __m512i zero = _mm512_setzero_si512();
  const int blocks = (k + LANES - 1) / LANES, columns = 2 * vectors;
  __m512i high_before[2] = {zero, zero}, t[2][2 * MAX_VECTORS], acc[2][MAX_VECTORS];
  uint64_t lane0[2], carry[2] = {0, 0}, m0[2], m1[2];
  #pragma GCC unroll 2
  for (int l = 0; l < 2; l++) {
    t[l][0] = ams2_column_lane(a[l], &high_before[l], 0, k);
    t[l][1] = ams2_column_lane(a[l], &high_before[l], 1, k);
    acc[l][0] = t[l][0];
    acc[l][1] = t[l][1];
#pragma GCC unroll 5
    for (int v = 2; v < vectors; v++) acc[l][v] = zero;
    lane0[l] = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(t[l][0]));
    m0[l] = m[l][0] << (LIMB_BITS - CRISP_BN52_BITS), m1[l] = m[l][1];
  }
  /* blocks of 8 steps; before each, the vector the next block adds */
#pragma GCC unroll 5
  for (int q = 0; q + 1 < blocks; q++) {
#pragma GCC unroll 2
    for (int l = 0; l < 2; l++) {
      if (q > 0) acc[l][1] = _mm512_add_epi64(acc[l][1], t[l][q + 1]);
      t[l][q + 2] = ams2_column_lane(a[l], &high_before[l], q + 2, k);
    }
    for (int i = 8 * q; i < 8 * q + 8; i += 2) AMS2_REDUCE_PAIR(1);
  }
  /* the last block, and before it the vectors that remain */
#pragma GCC unroll 2
  for (int l = 0; l < 2; l++) {
    if (blocks > 1) acc[l][1] = _mm512_add_epi64(acc[l][1], t[l][blocks]);
#pragma GCC unroll 10
    for (int c = blocks + 1; c < columns; c++) t[l][c] = ams2_column_lane(a[l], &high_before[l], c, k);
  }
  for (int i = 8 * (blocks - 1); i + 2 < k; i += 2) AMS2_REDUCE_PAIR(1);
  AMS2_REDUCE_PAIR(0); /* its move down two digits is normalize_lane_down2's */
  /* the vectors not added yet (c > blocks), lined up with the accumulator
   * before that move: its lane p stands for position k - 2 + p */
#pragma GCC unroll 2
  for (int l = 0; l < 2; l++) {
    __m512i late[2 * MAX_VECTORS + 1], sum[MAX_VECTORS];
#pragma GCC unroll 11
    for (int c = 0; c <= columns; c++) late[c] = c > blocks && c < columns ? t[l][c] : zero;
#pragma GCC unroll 5
    for (int v = 0; v < vectors; v++) {
      const int base = (k - 2) / LANES + v;
      const __m512i upper = lanes_down(late[base + 1], late[base], (k - 2) % LANES);
      sum[v] = _mm512_add_epi64(acc[l][v], upper);
    }
    normalize_lane_down2(r[l], sum, carry[l], vectors);
  }
}
#undef AMS2_REDUCE_PAIR

#define AMS2(vectors, k)                                                                                 \
  static void ams2_##k(uint64_t *const r[2], const uint64_t *const a[2], const uint64_t *const m[2],            \
                       const uint64_t *const sh[2], const uint64_t k0[2]) {                                                                  \
    ams2_body(r, a, m, sh, k0, vectors, k);                                                                         \
  }
AMS2(3, 20)

typedef void amm2_fn(uint64_t *const r[2], const uint64_t *const a[2], const uint64_t *const b[2],
                     const uint64_t *const m[2], const uint64_t k0[2]);

typedef void ams2_fn(uint64_t *const r[2], const uint64_t *const a[2], const uint64_t *const m[2],
                     const uint64_t *const sh[2], const uint64_t k0[2]);

static amm2_fn *amm2_for(size_t k) {
  switch (k) {
    case 20: return amm2_20;
    case 32: return amm2_32;
    case 40: return amm2_40;
    default: return NULL;
  }
}

/* The dedicated square where it beats amm2_body: at 32 and 40 digits the
 * cross products' partly masked vectors and the longer reduction (its
 * multiply-adds then fill the idle slots by themselves) leave it behind
 * (docs/performance.md); there the ladder squares with amm2. */
static ams2_fn *ams2_for(size_t k) { return k == 20 ? ams2_20 : NULL; }

/* out[l] = table[l][index[l]] for both lanes, entries a multiple of 8
 * (windows of 3 bits or more): every entry of both tables is read in full, the wanted one kept by an AND with an all-ones vector made
 * by arithmetic (a masked load could skip the memory of the entries it
 * drops; MemorySanitizer checks mask-to-vector moves strictly). Both
 * lanes' output vectors are built in one pass over the entries. Per group
 * of 8 entries j and lane: d = index - j in the 8 64-bit lanes of one
 * vector, keep = all ones exactly where d = 0 (the sign of ~(d | -d),
 * spread by an arithmetic shift); each entry's keep is its lane of that
 * vector broadcast by a permutation. (Ternary logic would merge the AND
 * and the OR, but MemorySanitizer checks its operands strictly.) */
static inline __attribute__((always_inline)) void gather2_body(uint64_t *const out[2], const uint64_t *const table[2],
                                                                size_t entries, const crisp_limb index[2],
                                                                const int vectors) {
  __m512i acc[2][MAX_VECTORS], lane_of[LANES];
  const __m512i zero = _mm512_setzero_si512(), ones = _mm512_set1_epi64(-1), eight = _mm512_set1_epi64(LANES);
  const __m512i first = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  __m512i distance[2] = {_mm512_sub_epi64(_mm512_set1_epi64((long long)index[0]), first),
                         _mm512_sub_epi64(_mm512_set1_epi64((long long)index[1]), first)};
#pragma GCC unroll 8
  for (int t = 0; t < LANES; t++) lane_of[t] = _mm512_set1_epi64(t);
#pragma GCC unroll 2
  for (int l = 0; l < 2; l++)
#pragma GCC unroll 5
    for (int v = 0; v < vectors; v++) acc[l][v] = zero;
  for (size_t group = 0; group < entries; group += LANES) {
    __m512i keeps[2];
#pragma GCC unroll 2
    for (int l = 0; l < 2; l++) {
      /* ~(d | -d) has its sign bit set only where d = 0 */
      const __m512i d = distance[l];
      keeps[l] = _mm512_srai_epi64(_mm512_andnot_si512(_mm512_or_si512(d, _mm512_sub_epi64(zero, d)), ones), 63);
      distance[l] = _mm512_sub_epi64(d, eight);
    }
#pragma GCC unroll 8
    for (int t = 0; t < LANES; t++) {
#pragma GCC unroll 2
      for (int l = 0; l < 2; l++) {
        const __m512i keep = _mm512_permutexvar_epi64(lane_of[t], keeps[l]);
        const __m512i *entry = (const __m512i *)table[l] + (group + (size_t)t) * (size_t)vectors;
#pragma GCC unroll 5
        for (int v = 0; v < vectors; v++)
          acc[l][v] = _mm512_or_si512(acc[l][v], _mm512_and_si512(keep, _mm512_load_si512(entry + v)));
      }
    }
  }
#pragma GCC unroll 2
  for (int l = 0; l < 2; l++)
#pragma GCC unroll 5
    for (int v = 0; v < vectors; v++) _mm512_store_si512((__m512i *)out[l] + v, acc[l][v]);
}

static void gather2(uint64_t *const out[2], const uint64_t *const table[2], size_t entries, const crisp_limb index[2],
                    size_t stride) {
  switch (stride / LANES) {
    case 3: gather2_body(out, table, entries, index, 3); break;
    case 4: gather2_body(out, table, entries, index, 4); break;
    default: gather2_body(out, table, entries, index, MAX_VECTORS); break;
  }
}

/* One lane's values for a ladder: m in radix 2^52 and, when m_up is not
 * NULL, its copies moved up one and two digits (m_up, 2 * stride digits,
 * for the square), the base in radix 2^52 and the constant 1. */
static void lane_setup(uint64_t *m52, uint64_t *m_up, uint64_t *base52, uint64_t *one, const crisp_limb *mod,
                       const crisp_limb *base, size_t n, size_t k, size_t stride) {
  one[0] = 1;
  crisp_bn52_from64(m52, k, mod, n, 0);
  if (m_up) {
    for (size_t j = 0; j + 1 < stride; j++) m_up[j + 1] = m52[j];
    for (size_t j = 0; j + 2 < stride; j++) m_up[stride + j + 2] = m52[j];
  }
  crisp_bn52_from64(base52, k, base, n, 0);
}

/* Per lane: table (entries values), then m, m moved up one digit and two
 * digits (for ams2, whose 20 digits leave room in a stride of 24), R'^2,
 * accumulator, selected entry, the constant 1; each value `stride`
 * digits. */
enum { SLOTS_AFTER_TABLE = 7 };

/* The bits of a public exponent up to its highest set bit (0 for zero). */
static size_t public_bits(const crisp_limb *e, size_t en) {
  size_t top = en * LIMB_BITS;
  while (top > 0 && !((e[(top - 1) / LIMB_BITS] >> ((top - 1) % LIMB_BITS)) & 1)) top--;
  return top;
}

/* result[l] = b[l]^e mod m[l] for the public exponent e of `top` bits
 * (top >= 1), the bases already in radix 2^52 in acc: left-to-right square
 * and multiply, branching on e's bits and nothing else. square holds R'^2,
 * power is a value of scratch per lane. */
static void public_ladder(crisp_limb *const result[2], uint64_t *const acc[2], uint64_t *const power[2],
                          const uint64_t *const square[2], const uint64_t *const m[2],
                          const uint64_t *const m_shifted[2], const uint64_t *const one[2], const uint64_t k0[2],
                          const crisp_limb *e, size_t top, amm2_fn *amm2, ams2_fn *ams2,
                          const crisp_limb *const mod[2], size_t n, size_t k, size_t stride) {
  const uint64_t *const acc_in[2] = {acc[0], acc[1]}, *const power_in[2] = {power[0], power[1]};
  amm2(power, acc_in, square, m, k0); /* b R' */
  memcpy(acc[0], power[0], stride * sizeof(uint64_t));
  memcpy(acc[1], power[1], stride * sizeof(uint64_t));
  for (size_t bit = top - 1; bit-- > 0;) {
    if (ams2)
      ams2(acc, acc_in, m, m_shifted, k0);
    else
      amm2(acc, acc_in, acc_in, m, k0);
    if ((e[bit / LIMB_BITS] >> (bit % LIMB_BITS)) & 1) amm2(acc, acc_in, power_in, m, k0);
  }
  amm2(acc, acc_in, one, m, k0);
  for (int l = 0; l < 2; l++) crisp_bn52_to64_reduced(result[l], acc[l], k, mod[l], n);
}

/* The pair exponentiation; when `check` is not NULL, then the CRT's fault
 * check on the same setup: check->between runs, then check->y[l] =
 * check->x[l]^e mod m[l] as pow2_public_avx512ifma. */
typedef struct exp2_check {
  void (*between)(void *ctx);
  void *ctx;
  const crisp_limb *x[2];
  crisp_limb *y[2];
  const crisp_limb *e;
  size_t top;
} exp2_check;

static int exp2_run(crisp_limb *r0, crisp_limb *r1, const crisp_limb *b0, const crisp_limb *b1,
                    const crisp_limb *e0, const crisp_limb *e1, size_t en, const crisp_limb *m0,
                    const crisp_limb *m1, size_t n, crisp_limb minv0, crisp_limb minv1, const crisp_limb *r2_0,
                    const crisp_limb *r2_1, const exp2_check *check) {
  const size_t k = crisp_bn52_limbs(n);
  amm2_fn *amm2 = amm2_for(k);
  ams2_fn *ams2 = ams2_for(k);
  if (!amm2) return CRISP_E_UNSUPPORTED;
  const size_t stride = padded_digits(k);
  const unsigned w = crisp_bn_window_bits(en * LIMB_BITS);
  const size_t entries = (size_t)1 << w;
  const size_t lane_digits = (entries + SLOTS_AFTER_TABLE) * stride;
  const size_t bytes = 2 * lane_digits * sizeof(uint64_t);
  uint64_t *scratch = aligned_alloc(64, bytes);
  if (!scratch) return CRISP_E_NOMEM;
  memset(scratch, 0, bytes); /* padding digits stay zero throughout */

  crisp_limb *const result[2] = {r0, r1};
  const crisp_limb *const base[2] = {b0, b1}, *const exp[2] = {e0, e1}, *const mod[2] = {m0, m1};
  const crisp_limb *const r2[2] = {r2_0, r2_1};
  const uint64_t k0[2] = {minv0 & CRISP_BN52_MASK, minv1 & CRISP_BN52_MASK};
  uint64_t *table[2], *m52[2], *m_up[2], *square[2], *acc[2], *selected[2], *one[2];
  for (int l = 0; l < 2; l++) {
    table[l] = scratch + l * lane_digits;
    m52[l] = table[l] + entries * stride;
    m_up[l] = m52[l] + stride;
    square[l] = m_up[l] + 2 * stride;
    acc[l] = square[l] + stride;
    selected[l] = acc[l] + stride;
    one[l] = selected[l] + stride;
    lane_setup(m52[l], m_up[l], acc[l], one[l], mod[l], base[l], n, k, stride);
  }
  {
    const uint64_t *const m52_in[2] = {m52[0], m52[1]};
    crisp_bn52_r2_pair(square, mod, n, m52_in, k, k0, r2); /* R'^2 from the caller's R^2 where it has one */
  }
  const uint64_t *const m[2] = {m52[0], m52[1]}, *const m_shifted[2] = {m_up[0], m_up[1]};

  /* table[0] = R' (Montgomery one), table[1] = base R', table[i] = base^i R' */
  {
    uint64_t *const t0[2] = {table[0], table[1]}, *const t1[2] = {table[0] + stride, table[1] + stride};
    const uint64_t *const sq[2] = {square[0], square[1]}, *const o[2] = {one[0], one[1]};
    const uint64_t *const ac[2] = {acc[0], acc[1]};
    amm2(t0, sq, o, m, k0);
    amm2(t1, ac, sq, m, k0);
  }
  /* even entries as squares of entry i / 2, with the dedicated square
   * where there is one */
  for (size_t i = 2; i < entries; i++) {
    uint64_t *const out[2] = {table[0] + i * stride, table[1] + i * stride};
    const uint64_t *const x[2] = {table[0] + i / 2 * stride, table[1] + i / 2 * stride};
    const uint64_t *const y[2] = {table[0] + (i - i / 2) * stride, table[1] + (i - i / 2) * stride};
    if (ams2 && i % 2 == 0)
      ams2(out, x, m, m_shifted, k0);
    else
      amm2(out, x, y, m, k0);
  }

  const uint64_t *const tables[2] = {table[0], table[1]};
  uint64_t *const accumulator[2] = {acc[0], acc[1]}, *const chosen[2] = {selected[0], selected[1]};
  const uint64_t *const accumulator_in[2] = {acc[0], acc[1]}, *const chosen_in[2] = {selected[0], selected[1]};
  const size_t windows = (en * LIMB_BITS + w - 1) / w;
  crisp_limb index[2];
  for (int l = 0; l < 2; l++) index[l] = crisp_bn_window_at(exp[l], en, (windows - 1) * w, w);
  gather2(accumulator, tables, entries, index, stride);
  for (size_t window = windows - 1; window-- > 0;) {
    for (unsigned i = 0; i < w; i++) {
      if (ams2)
        ams2(accumulator, accumulator_in, m, m_shifted, k0);
      else
        amm2(accumulator, accumulator_in, accumulator_in, m, k0);
    }
    for (int l = 0; l < 2; l++) index[l] = crisp_bn_window_at(exp[l], en, window * w, w);
    gather2(chosen, tables, entries, index, stride);
    amm2(accumulator, accumulator_in, chosen_in, m, k0);
  }
  /* out of Montgomery form: acc * 1 / R' <= m, then one masked subtraction */
  const uint64_t *const ones[2] = {one[0], one[1]};
  amm2(accumulator, accumulator_in, ones, m, k0);
  for (int l = 0; l < 2; l++) crisp_bn52_to64_reduced(result[l], acc[l], k, mod[l], n);
  index[0] = index[1] = 0;
  if (check) {
    /* the check's bases into acc, its powers in the selected entries' place */
    check->between(check->ctx);
    for (int l = 0; l < 2; l++) crisp_bn52_from64(acc[l], k, check->x[l], n, 0);
    const uint64_t *const sq[2] = {square[0], square[1]};
    public_ladder(check->y, accumulator, chosen, sq, m, m_shifted, ones, k0, check->e, check->top, amm2, ams2, mod,
                  n, k, stride);
  }
  crisp_scrub_below(CRISP_SCRUB_IFMA_BYTES);
  crisp_wipe(scratch, bytes);
  free(scratch);
  return CRISP_OK;
}

static int mod_exp2_avx512ifma(crisp_limb *r0, crisp_limb *r1, const crisp_limb *b0, const crisp_limb *b1,
                               const crisp_limb *e0, const crisp_limb *e1, size_t en, const crisp_limb *m0,
                               const crisp_limb *m1, size_t n, crisp_limb minv0, crisp_limb minv1,
                               const crisp_limb *r2_0, const crisp_limb *r2_1) {
  return exp2_run(r0, r1, b0, b1, e0, e1, en, m0, m1, n, minv0, minv1, r2_0, r2_1, NULL);
}

/* mod_exp2, between, then pow2_public on the same setup (m in radix 2^52
 * and moved up, R'^2, the scratch); the sizes and exponents pow2_public
 * leaves to the caller return CRISP_E_UNSUPPORTED before anything runs. */
static int mod_exp2_checked_avx512ifma(crisp_limb *r0, crisp_limb *r1, const crisp_limb *b0,
                                       const crisp_limb *b1, const crisp_limb *e0, const crisp_limb *e1, size_t en,
                                       const crisp_limb *m0, const crisp_limb *m1, size_t n, crisp_limb minv0,
                                       crisp_limb minv1, const crisp_limb *r2_0, const crisp_limb *r2_1,
                                       void (*between)(void *ctx), void *ctx, crisp_limb *y0, crisp_limb *y1,
                                       const crisp_limb *x0, const crisp_limb *x1, const crisp_limb *e,
                                       size_t een) {
  const size_t k = crisp_bn52_limbs(n), top = public_bits(e, een);
  if (!amm2_for(k) || !top || !crisp_bn52_r2_uses_r2(n, k)) return CRISP_E_UNSUPPORTED;
  const exp2_check check = {between, ctx, {x0, x1}, {y0, y1}, e, top};
  return exp2_run(r0, r1, b0, b1, e0, e1, en, m0, m1, n, minv0, minv1, r2_0, r2_1, &check);
}

/* r2_0 = R^2 mod m0 and r2_1 = R^2 mod m1 (R = 2^(64n)), both lanes
 * together. R^2 = 2^(128n) is the almost-Montgomery form (R' = 2^(52k))
 * of 2^E, E = 128n - 52k = odd 2^s: 2^(64(n-1)) (below m: its top limb
 * is nonzero) doubled odd + 52k - 64(n-1) times is the form of 2^odd,
 * and s squares, each doubling the exponent the form stands for, make
 * 2^E. The counts depend on the sizes only. */
static int r2_pair_avx512ifma(crisp_limb *r2_0, crisp_limb *r2_1, const crisp_limb *m0, const crisp_limb *m1,
                              size_t n, crisp_limb minv0, crisp_limb minv1) {
  enum { MAX_PAIR_LIMBS = 32, MAX_PAIR_DIGITS = 40 };
  const size_t k = crisp_bn52_limbs(n);
  amm2_fn *amm2 = amm2_for(k);
  if (!amm2 || n > MAX_PAIR_LIMBS) return CRISP_E_UNSUPPORTED;
  const size_t exponent = 2 * LIMB_BITS * n - CRISP_BN52_BITS * k;
  unsigned squares = 0;
  while (!((exponent >> squares) & 1)) squares++;
  const size_t doublings = (exponent >> squares) + CRISP_BN52_BITS * k - LIMB_BITS * (n - 1);

  crisp_limb power[2][MAX_PAIR_LIMBS];
  /* per lane: m, then the power, each padded_digits(k) digits (zero padding) */
  uint64_t digits[4 * MAX_PAIR_DIGITS] __attribute__((aligned(64)));
  const size_t stride = padded_digits(k);
  memset(power, 0, sizeof power);
  memset(digits, 0, sizeof digits);
  power[0][n - 1] = power[1][n - 1] = 1;
  const int status = crisp_bn52_double_mod2(power[0], power[1], m0, m1, n, doublings);
  if (status == CRISP_OK) {
    crisp_limb *const result[2] = {r2_0, r2_1};
    const crisp_limb *const mod[2] = {m0, m1};
    const uint64_t k0[2] = {minv0 & CRISP_BN52_MASK, minv1 & CRISP_BN52_MASK};
    uint64_t *const x[2] = {digits + 2 * stride, digits + 3 * stride};
    const uint64_t *const x_in[2] = {x[0], x[1]}, *const m[2] = {digits, digits + stride};
    for (int l = 0; l < 2; l++) {
      crisp_bn52_from64(digits + l * stride, k, mod[l], n, 0);
      crisp_bn52_from64(x[l], k, power[l], n, 0);
    }
    for (unsigned i = 0; i < squares; i++) amm2(x, x_in, x_in, m, k0);
    for (int l = 0; l < 2; l++) crisp_bn52_to64_reduced(result[l], x[l], k, mod[l], n);
    crisp_scrub_below(CRISP_SCRUB_IFMA_BYTES);
  }
  crisp_wipe(power, sizeof power);
  crisp_wipe(digits, sizeof digits);
  return status;
}

/* Per lane for pow2_public: m, m moved up one and two digits, R'^2, the
 * base b R', accumulator, the constant 1; each value `stride` digits. */
enum { PUBLIC_SLOTS = 7 };

/* r[l] = b[l]^e mod m[l] for one public exponent e (the CRT's check that
 * r^e = c): left-to-right square and multiply, branching on e's bits and
 * nothing else, both lanes in each product. R'^2 comes from the caller's
 * R^2; at sizes where that takes more doublings than from scratch (k = 32
 * for 24 limbs: 256 against 205, about as long as the caller's own
 * radix-2^64 check), and for a zero exponent, the caller checks on its own
 * (CRISP_E_UNSUPPORTED). */
static int pow2_public_avx512ifma(crisp_limb *r0, crisp_limb *r1, const crisp_limb *b0, const crisp_limb *b1,
                                  const crisp_limb *e, size_t en, const crisp_limb *m0, const crisp_limb *m1,
                                  size_t n, crisp_limb minv0, crisp_limb minv1, const crisp_limb *r2_0,
                                  const crisp_limb *r2_1) {
  const size_t k = crisp_bn52_limbs(n);
  amm2_fn *amm2 = amm2_for(k);
  ams2_fn *ams2 = ams2_for(k);
  const size_t top = public_bits(e, en);
  if (!amm2 || !top || !crisp_bn52_r2_uses_r2(n, k)) return CRISP_E_UNSUPPORTED;
  const size_t stride = padded_digits(k), lane_digits = PUBLIC_SLOTS * stride;
  const size_t bytes = 2 * lane_digits * sizeof(uint64_t);
  uint64_t *scratch = aligned_alloc(64, bytes);
  if (!scratch) return CRISP_E_NOMEM;
  memset(scratch, 0, bytes); /* padding digits stay zero throughout */

  crisp_limb *const result[2] = {r0, r1};
  const crisp_limb *const base[2] = {b0, b1}, *const mod[2] = {m0, m1}, *const r2[2] = {r2_0, r2_1};
  const uint64_t k0[2] = {minv0 & CRISP_BN52_MASK, minv1 & CRISP_BN52_MASK};
  uint64_t *m52[2], *m_up[2], *square[2], *power[2], *acc[2], *one[2];
  for (int l = 0; l < 2; l++) {
    m52[l] = scratch + l * lane_digits;
    m_up[l] = m52[l] + stride;
    square[l] = m_up[l] + 2 * stride;
    power[l] = square[l] + stride;
    acc[l] = power[l] + stride;
    one[l] = acc[l] + stride;
    lane_setup(m52[l], m_up[l], acc[l], one[l], mod[l], base[l], n, k, stride);
  }
  {
    const uint64_t *const m52_in[2] = {m52[0], m52[1]};
    crisp_bn52_r2_pair(square, mod, n, m52_in, k, k0, r2); /* R'^2 from the caller's R^2 */
  }
  const uint64_t *const m[2] = {m52[0], m52[1]}, *const m_shifted[2] = {m_up[0], m_up[1]};
  uint64_t *const accumulator[2] = {acc[0], acc[1]}, *const powers[2] = {power[0], power[1]};
  const uint64_t *const sq[2] = {square[0], square[1]}, *const ones[2] = {one[0], one[1]};
  public_ladder(result, accumulator, powers, sq, m, m_shifted, ones, k0, e, top, amm2, ams2, mod, n, k, stride);
  crisp_scrub_below(CRISP_SCRUB_IFMA_BYTES);
  crisp_wipe(scratch, bytes);
  free(scratch);
  return CRISP_OK;
}

/* out = bit ? power : one over `stride` digits, through an all-ones or
 * all-zero vector made from the bit by arithmetic (0 - bit): no branch and
 * no address depends on the bit. */
static void select_by_bit(uint64_t *out, const uint64_t *power, const uint64_t *one, uint64_t bit, size_t stride) {
  const __m512i keep = _mm512_set1_epi64((long long)(0 - bit));
  for (size_t v = 0; v < stride / LANES; v++) {
    const __m512i p = _mm512_load_si512((const __m512i *)power + v), o = _mm512_load_si512((const __m512i *)one + v);
    _mm512_store_si512((__m512i *)out + v, _mm512_xor_si512(o, _mm512_and_si512(keep, _mm512_xor_si512(p, o))));
  }
}

/* The values of crisp_bn52_mod_exp_binary: m, R'^2, the power A (first the base in
 * radix 2^52), the result X, the factor S, R' (Montgomery one) and the
 * constant 1; each `stride` digits. */
enum { BINARY_SLOTS = 7 };

int crisp_bn52_mod_exp_binary(crisp_limb *r, const crisp_limb *base, const crisp_limb *exp, size_t en,
                              const crisp_limb *m, size_t n, crisp_limb minv) {
  const size_t k = crisp_bn52_limbs(n);
  amm2_fn *amm2 = amm2_for(k);
  if (!amm2) return CRISP_E_UNSUPPORTED;
  const size_t stride = padded_digits(k), bytes = BINARY_SLOTS * stride * sizeof(uint64_t);
  uint64_t *scratch = aligned_alloc(64, bytes);
  if (!scratch) return CRISP_E_NOMEM;
  memset(scratch, 0, bytes); /* padding digits stay zero throughout */
  uint64_t *m52 = scratch, *square = m52 + stride, *power = square + stride, *result = power + stride,
           *factor = result + stride, *montgomery_one = factor + stride, *one = montgomery_one + stride;
  const uint64_t k0 = minv & CRISP_BN52_MASK;
  lane_setup(m52, NULL, power, one, m, base, n, k, stride);
  crisp_bn52_r2(square, m, n, m52, k, k0, NULL);
  const uint64_t *const mods[2] = {m52, m52}, k0s[2] = {k0, k0};
  {
    /* A = b R' and R', one in each lane */
    uint64_t *const out[2] = {power, montgomery_one};
    const uint64_t *const x[2] = {power, square}, *const y[2] = {square, one};
    amm2(out, x, y, mods, k0s);
  }
  memcpy(result, montgomery_one, stride * sizeof(uint64_t));
  /* Bit i, lowest first: lane 0 squares A = b^(2^i) R', lane 1 multiplies
   * X by S = A or R', both reading the A from before the step. No product
   * is a dummy: X R' / R' is the new X as much as X A / R', so a fault in
   * the multiplying lane shows in the result whatever the bit (not a
   * safe-error target). A fault in the square at bit i shows when a higher
   * bit is set, which tells no more than the exponent's length. */
  uint64_t *const out[2] = {power, result};
  const uint64_t *const x[2] = {power, result}, *const y[2] = {power, factor};
  for (size_t bit = 0; bit < en * LIMB_BITS; bit++) {
    select_by_bit(factor, power, montgomery_one, (exp[bit / LIMB_BITS] >> (bit % LIMB_BITS)) & 1, stride);
    amm2(out, x, y, mods, k0s);
  }
  {
    /* out of Montgomery form: X * 1 / R' <= m (lane 0 repeats it into A,
     * which is not needed any more), then one masked subtraction */
    const uint64_t *const x_in[2] = {result, result}, *const ones[2] = {one, one};
    amm2(out, x_in, ones, mods, k0s);
  }
  crisp_bn52_to64_reduced(r, result, k, m, n);
  crisp_scrub_below(CRISP_SCRUB_IFMA_BYTES);
  crisp_wipe(scratch, bytes);
  free(scratch);
  return CRISP_OK;
}

const crisp_bn_mod_exp2_impl crisp_bn_mod_exp2_avx512ifma_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mod_exp2_avx512ifma_impl),
    mod_exp2_avx512ifma,
    pow2_public_avx512ifma,
    r2_pair_avx512ifma,
    mod_exp2_checked_avx512ifma,
};
