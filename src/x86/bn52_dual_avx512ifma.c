/* src/x86/bn52_dual_avx512ifma.c - the two-lane almost-Montgomery product
 * and square in radix 2^52 with AVX-512 IFMA: two independent values (two
 * moduli, or one modulus twice) advance together, for 1024-, 1536- and
 * 2048-bit moduli (k = 20, 30 or 32, 40 digits, padded with zero digits to
 * 24, 32, 40: three to five 512-bit vectors); the ladders of
 * bn_mod_exp_avx512ifma.c and bn_mod_exp2_avx512ifma.c are built on them.
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
 * registers (which costs several cycles each way). At 20 and 30 digits squares
 * have a kernel of their own (dual_square_body).
 * ISA: AVX-512F/VL/IFMA. */
#include <immintrin.h>
#include <string.h>

#include "x86/bn52_avx512ifma.h"

#define LIMB_BITS 64
#define LANES 8       /* 64-bit lanes in a 512-bit vector */
#define MAX_VECTORS 5 /* k = 40 */

/* The 8-bit masks of `vectors` vectors (3 to 5) as one mask, vector v at
 * bits 8v. */
static inline __attribute__((always_inline)) __mmask64 join_masks(const __mmask8 m[MAX_VECTORS],
                                                                  const int vectors) {
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
  CRISP_BN52_UNROLL(5)
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
  CRISP_BN52_UNROLL(5)
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
  CRISP_BN52_UNROLL(5)
  for (int v = 0; v < vectors; v++) {
    low[v] = _mm512_and_si512(pre[v], mask);
    high[v] = _mm512_srli_epi64(pre[v], CRISP_BN52_BITS);
  }
  low[vectors] = high[vectors] = zero;
  CRISP_BN52_UNROLL(5)
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

/* The bits a reduction step carries out of the lowest digit t: y is chosen
 * so that t + m0 y is 0 mod 2^52, so the low 52 bits of t and of m0 y sum
 * to 0 (both zero) or to 2^52; the carry is t's bits above 52 plus one
 * exactly when t's low 52 bits are not zero, found by an addition. */
static inline uint64_t reduction_carry(uint64_t t) {
  return (t >> CRISP_BN52_BITS) + (((t & CRISP_BN52_MASK) + CRISP_BN52_MASK) >> CRISP_BN52_BITS);
}

/* The two-lane almost-Montgomery product r[l] = a[l] b[l] 2^(-52 digits) mod
 * m[l] (below 2 m[l]), as crisp_bn52_amm for each lane; arrays are
 * 64-byte aligned, padded with zero digits to vectors * 8; r may alias a or
 * b. Unlike the single kernel, each lane shifts one accumulator per step:
 * one shift per vector and step instead of two leaves the vector pipes
 * more room for the multiplies, which bound this loop. At 20 to 32 digits
 * the step's high halves are summed apart and added after the shift, so
 * the accumulator's chain from step to step is two multiply-adds, the
 * shift and an addition instead of four multiply-adds and the shift; at
 * 40 digits the extra additions and registers cost more than that saves
 * (docs/performance.md). At four vectors the registers that takes come
 * from lane 1's a and m, read through pointers the compiler cannot see
 * through (an empty asm, every step) so that they are loaded as operands
 * instead of hoisted: both lanes' 16 vectors of a and m beside the
 * accumulators and the high halves would spill. */
static inline __attribute__((always_inline)) void dual_product_body(
    uint64_t *const r[2], const uint64_t *const a[2], const uint64_t *const b[2], const uint64_t *const m[2],
    const uint64_t k0[2], const int vectors, const int digits) {
  __m512i acc[2][MAX_VECTORS];
  const __m512i zero = _mm512_setzero_si512();
  uint64_t lane0[2] = {0, 0}, carry[2] = {0, 0};
  uint64_t a0[2], a1[2], m0[2], m0_up[2], m1[2];
  /* Up to four vectors the scalar chain's a b terms of every step are
   * found before the steps by IFMA: low[i] = lo(a0 b_i), next[i] =
   * lo(a1 b_i) + hi(a0 b_i). The steps' scalar work is then three
   * multiplies a lane (y, m0 y's high half, m1 y's low half) instead of
   * five; the two lanes' steps share one scalar multiplier, which bounds
   * them there. At five vectors the vector pipes bound the steps: there
   * the ten multiply-adds this takes, and the carry found from t alone,
   * cost more than they save. */
  const int precomputed = vectors <= 4;
  uint64_t low[2][MAX_VECTORS * LANES] __attribute__((aligned(64)));
  uint64_t next[2][MAX_VECTORS * LANES] __attribute__((aligned(64)));
  for (int l = 0; l < 2; l++) {
    a0[l] = a[l][0], a1[l] = a[l][1];
    const __m512i a0v = _mm512_set1_epi64((long long)a0[l]), a1v = _mm512_set1_epi64((long long)a1[l]);
    CRISP_BN52_UNROLL(5)
    for (int v = 0; v < vectors; v++) {
      acc[l][v] = zero;
      if (!precomputed) continue;
      const __m512i bv = _mm512_load_si512((const __m512i *)b[l] + v);
      _mm512_store_si512((__m512i *)low[l] + v, _mm512_madd52lo_epu64(zero, a0v, bv));
      _mm512_store_si512((__m512i *)next[l] + v,
                         _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(zero, a1v, bv), a0v, bv));
    }
    /* m0 moved up 12 bits: the high 64 bits of (m0 2^12) y are m0 y's
     * high half, its bits from 2^52 up */
    m0[l] = m[l][0], m0_up[l] = m0[l] << (LIMB_BITS - CRISP_BN52_BITS), m1[l] = m[l][1];
  }
  for (int i = 0; i < digits; i++) {
    CRISP_BN52_UNROLL(2)
    for (int l = 0; l < 2; l++) {
      const uint64_t bi = b[l][i];
      /* the quotient digit y, from the lowest digit in scalar, and the
       * rest of the next lowest digit but the accumulator's second lane */
      uint64_t y, dropped, rest;
      if (precomputed) {
        const uint64_t t = lane0[l] + low[l][i];
        y = (t * k0[l]) & CRISP_BN52_MASK;
        dropped = reduction_carry(t); /* needs no product */
        rest = next[l][i] + ((m1[l] * y) & CRISP_BN52_MASK) +
               (uint64_t)(((unsigned __int128)m0_up[l] * y) >> LIMB_BITS) + dropped;
      } else {
        const unsigned __int128 ab = (unsigned __int128)a0[l] * bi;
        const uint64_t t = lane0[l] + ((uint64_t)ab & CRISP_BN52_MASK);
        y = (t * k0[l]) & CRISP_BN52_MASK;
        const unsigned __int128 my = (unsigned __int128)m0[l] * y;
        dropped = (t + ((uint64_t)my & CRISP_BN52_MASK)) >> CRISP_BN52_BITS;
        rest = ((a1[l] * bi) & CRISP_BN52_MASK) + ((m1[l] * y) & CRISP_BN52_MASK) +
               (uint64_t)(ab >> CRISP_BN52_BITS) + (uint64_t)(my >> CRISP_BN52_BITS) + dropped;
      }
      /* the second lane before this step becomes the lowest after it */
      const uint64_t second = (uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(acc[l][0]), 1);
      lane0[l] = second + rest;
      carry[l] = dropped;

      const __m512i bv = _mm512_set1_epi64((long long)bi), yv = _mm512_set1_epi64((long long)y);
      const __m512i *av = (const __m512i *)a[l], *mv = (const __m512i *)m[l];
      if (vectors == 4 && l == 1) __asm__("" : "+r"(av), "+r"(mv)); /* lane 1's a and m loaded */
      const int apart = vectors <= 4;                               /* the high halves summed apart */
      __m512i high[MAX_VECTORS];
      CRISP_BN52_UNROLL(5)
      for (int v = 0; v < vectors; v++) {
        acc[l][v] = _mm512_madd52lo_epu64(acc[l][v], _mm512_load_si512(av + v), bv);
        acc[l][v] = _mm512_madd52lo_epu64(acc[l][v], _mm512_load_si512(mv + v), yv);
        if (apart)
          high[v] = _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(zero, _mm512_load_si512(av + v), bv),
                                          _mm512_load_si512(mv + v), yv);
      }
      CRISP_BN52_UNROLL(5)
      for (int v = 0; v < vectors - 1; v++) acc[l][v] = _mm512_alignr_epi64(acc[l][v + 1], acc[l][v], 1);
      acc[l][vectors - 1] = _mm512_alignr_epi64(zero, acc[l][vectors - 1], 1);
      CRISP_BN52_UNROLL(5)
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

#define DUAL_PRODUCT(vectors, digits)                                                       \
  static void dual_product_##digits(uint64_t *const r[2], const uint64_t *const a[2],       \
                                    const uint64_t *const b[2], const uint64_t *const m[2], \
                                    const uint64_t k0[2]) {                                 \
    dual_product_body(r, a, b, m, k0, vectors, digits);                                     \
  }
DUAL_PRODUCT(3, 20)
DUAL_PRODUCT(4, 30)
DUAL_PRODUCT(4, 32)
DUAL_PRODUCT(5, 40)

/* One output vector c of the square t = a^2 for one lane (positions
 * 8c .. 8c+7): the cross products a_x a_y (x < y) once, doubled, plus the
 * diagonal a_x^2. Row x needs the digits a[8c - x ..] under a lane mask
 * (x < y < k), read unaligned; masked lanes are not read, so only digits
 * of a are. The high halves belong one position up: high_before carries
 * the previous vector's into this one. Two sums per half (even and odd
 * rows) keep the chains short. */
static inline __attribute__((always_inline)) __m512i dual_square_column(const uint64_t *a,
                                                                        __m512i *high_before, const int c,
                                                                        const int k) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i low[2] = {zero, zero}, high[2] = {zero, zero};
  CRISP_BN52_HIDE(a);
  CRISP_BN52_UNROLL(40)
  for (int x = 0; x < k; x++) {
    /* lane p holds y = 8c + p - x */
    const int first = 2 * x - 8 * c + 1 > 0 ? 2 * x - 8 * c + 1 : 0;
    const int end = k + x - 8 * c < LANES ? k + x - 8 * c : LANES;
    if (first >= end) continue;
    const __mmask8 lanes = (__mmask8)(((1u << end) - 1) & ~((1u << first) - 1));
    const __m512i ax = _mm512_set1_epi64((long long)a[x]);
    /* below a (vector 0, rows 1-3): a's first vector moved up x lanes */
    const __m512i up =
        _mm512_sub_epi64(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64(x - 8 * c));
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
  const __m512i pick =
      c % 2 ? _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4) : _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
  const __m512i diagonal = _mm512_permutex2var_epi64(square_low, pick, square_high);
  const __m512i high_sum = _mm512_add_epi64(high[0], high[1]);
  const __m512i cross =
      _mm512_add_epi64(_mm512_add_epi64(low[0], low[1]), _mm512_alignr_epi64(high_sum, *high_before, 7));
  *high_before = high_sum;
  return _mm512_add_epi64(_mm512_add_epi64(cross, cross), diagonal);
}

/* The next lowest digit after a reduction step: the accumulator's lane
 * `second`, the carry, and the step's products at that position (m1 y's
 * low half, m0 y's high half). m1 y mod 2^52 is t (m1 k0 mod 2^52) mod
 * 2^52: a product of t, beside y's instead of after it. The sums keep
 * this order (empty asm statements, across which the compiler cannot
 * reassociate them): the terms from t, then the vector lane, then m0 y's
 * high half, the last to arrive. Not under MemorySanitizer, which checks
 * an asm's inputs and would report the secret digits (as for
 * CRISP_BN52_HIDE). */
#if defined(CRISP_BN52_MEMORY_SANITIZER)
#define CRISP_BN52_ORDER(x) ((void)0)
#else
#define CRISP_BN52_ORDER(x) __asm__("" : "+r"(x))
#endif
static inline __attribute__((always_inline)) uint64_t reduction_next(const uint64_t second, const uint64_t t,
                                                                     const uint64_t y, const uint64_t m0_up,
                                                                     const uint64_t m1k0,
                                                                     const uint64_t dropped) {
  uint64_t early = dropped + ((t * m1k0) & CRISP_BN52_MASK);
  CRISP_BN52_ORDER(early);
  uint64_t sum = second + early;
  CRISP_BN52_ORDER(sum);
  return sum + (uint64_t)(((unsigned __int128)m0_up * y) >> LIMB_BITS);
}

/* Reduction steps i (even) and i + 1 for one lane, with one shift of two
 * digits after both: step i adds y m at lanes j and its high halves at
 * j + 1 (m moved up one lane), step i + 1 adds its low halves at j + 1 and
 * high halves at j + 2 (m moved up two lanes). shifted holds m moved up
 * one lane, then two lanes, `vectors` vectors each. */
static inline __attribute__((always_inline)) void dual_square_reduce_first(
    __m512i acc[MAX_VECTORS], uint64_t *lane0, uint64_t *carry, const uint64_t *m, const uint64_t *shifted,
    const uint64_t m0_up, const uint64_t m1k0, const uint64_t k0, const int vectors) {
  uint64_t t = *lane0;
  CRISP_BN52_HIDE(t);
  const uint64_t y = (t * k0) & CRISP_BN52_MASK;
  const uint64_t dropped = reduction_carry(t);
  const uint64_t second = (uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(acc[0]), 1);
  *lane0 = reduction_next(second, t, y, m0_up, m1k0, dropped);
  *carry = dropped;
  const __m512i yv = _mm512_set1_epi64((long long)y);
  const __m512i *mv = (const __m512i *)m, *up1 = (const __m512i *)shifted;
  CRISP_BN52_UNROLL(5)
  for (int v = 0; v < vectors; v++) {
    acc[v] = _mm512_madd52lo_epu64(acc[v], _mm512_load_si512(mv + v), yv);
    acc[v] = _mm512_madd52hi_epu64(acc[v], _mm512_load_si512(up1 + v), yv);
  }
}

static inline __attribute__((always_inline)) void dual_square_reduce_second(
    __m512i acc[MAX_VECTORS], uint64_t *lane0, uint64_t *carry, const uint64_t *shifted, const uint64_t m0_up,
    const uint64_t m1k0, const uint64_t k0, const int vectors, const int move) {
  const __m512i zero = _mm512_setzero_si512();
  uint64_t t = *lane0;
  CRISP_BN52_HIDE(t);
  const uint64_t y = (t * k0) & CRISP_BN52_MASK;
  const uint64_t dropped = reduction_carry(t);
  /* position i + 2 is lane 2 until the shift */
  const uint64_t second = (uint64_t)_mm_cvtsi128_si64(_mm512_extracti32x4_epi32(acc[0], 1));
  *lane0 = reduction_next(second, t, y, m0_up, m1k0, dropped);
  *carry = dropped;
  const __m512i yv = _mm512_set1_epi64((long long)y);
  const __m512i *up1 = (const __m512i *)shifted, *up2 = up1 + vectors;
  CRISP_BN52_UNROLL(5)
  for (int v = 0; v < vectors; v++) {
    acc[v] = _mm512_madd52lo_epu64(acc[v], _mm512_load_si512(up1 + v), yv);
    acc[v] = _mm512_madd52hi_epu64(acc[v], _mm512_load_si512(up2 + v), yv);
  }
  if (!move) return;
  CRISP_BN52_UNROLL(5)
  for (int v = 0; v < vectors - 1; v++) acc[v] = _mm512_alignr_epi64(acc[v + 1], acc[v], 2);
  acc[vectors - 1] = _mm512_alignr_epi64(zero, acc[vectors - 1], 2);
}

/* The two-lane almost-Montgomery square r[l] = a[l]^2 2^(-52 digits) mod
 * m[l] (below 2 m[l]), with dual_product_body's contract for b = a. It computes
 * the square t = a^2 and reduces it, instead of dual_product_body's interleaving:
 * - a square needs each cross product once: about 30% fewer multiply-adds
 *   than a general product, and none of them waits for a quotient digit;
 * - the reduction is dual_product_body's loop without the a b terms, its steps
 *   in pairs that share one shift of two digits (the multiply-adds and
 *   the shifts go to the same two vector pipes, so a shift saved is a
 *   multiply-add's slot); waiting on the quotient digit's scalar chain,
 *   its steps leave those pipes partly idle, and t's output vectors are
 *   computed in the idle slots, inside the block of 8 steps before their
 *   use.
 * moved_up[l] is m[l] moved up one digit, then two digits (k + 2 <= 8 vectors).
 * t's output vector c (positions 8c ..) enters the accumulator at step
 * 8(c - 1), when it lines up with the accumulator's second vector, one
 * step before the scalar lowest digit reads its first position; vectors
 * past the last step are added at the end, before the last pair's move
 * down two digits (which normalize_lane_down2 makes), where lane p of
 * the accumulator stands for position k - 2 + p. */
/* The pair of a block (0 to 3) after which the next block's vector of t
 * is computed (dual_square_body). */
#define COLUMN_AFTER_PAIR 2
/* The pairs' loop in a block: rolled for gcc (code size); unrolled for
 * clang, which cannot unroll the blocks' loop fully around a rolled one. */
#if defined(__clang__) && !defined(CRISP_BN52_ADDRESS_SANITIZER)
#define DUAL_SQUARE_PAIRS_UNROLL CRISP_BN52_PRAGMA(clang loop unroll(full))
#else
#define DUAL_SQUARE_PAIRS_UNROLL CRISP_BN52_PRAGMA(GCC unroll 1)
#endif

/* Two reduction steps of both lanes, each lane's first step before either
 * lane's second, so that one lane's quotient chain runs beside the other's.
 * From four vectors on, lane 1's m and its moved copies are read through
 * pointers the compiler cannot see through (an empty asm, once per pair):
 * both lanes' 24 vectors of m do not fit in registers beside the
 * accumulators and t, and the compiler, left to hoist them all, spills
 * and reloads them in the pairs, and the loads of lane 1's as operands
 * cost less than that (lane 0's stay in registers). clang hoists them at
 * three vectors too, so for clang both lanes' are hidden at every size. */
#define DUAL_SQUARE_REDUCE_PAIR(move)                                                                     \
  do {                                                                                                    \
    const uint64_t *pair_m[2] = {m[0], m[1]}, *pair_moved_up[2] = {moved_up[0], moved_up[1]};             \
    if (vectors > 3) __asm__("" : "+r"(pair_m[1]), "+r"(pair_moved_up[1]));                               \
    CRISP_BN52_HIDE(pair_m[0]);                                                                           \
    CRISP_BN52_HIDE(pair_m[1]);                                                                           \
    CRISP_BN52_HIDE(pair_moved_up[0]);                                                                    \
    CRISP_BN52_HIDE(pair_moved_up[1]);                                                                    \
    CRISP_BN52_UNROLL(2)                                                                                  \
    for (int l = 0; l < 2; l++)                                                                           \
      dual_square_reduce_first(acc[l], &lane0[l], &carry[l], pair_m[l], pair_moved_up[l], m0[l], m1k0[l], \
                               k0[l], vectors);                                                           \
    CRISP_BN52_UNROLL(2)                                                                                  \
    for (int l = 0; l < 2; l++)                                                                           \
      dual_square_reduce_second(acc[l], &lane0[l], &carry[l], pair_moved_up[l], m0[l], m1k0[l], k0[l],    \
                                vectors, move);                                                           \
  } while (0)

static inline __attribute__((always_inline)) void dual_square_body(
    uint64_t *const r[2], const uint64_t *const a[2], const uint64_t *const m[2],
    const uint64_t *const moved_up[2], const uint64_t k0[2], const int vectors, const int k) {
  const __m512i zero = _mm512_setzero_si512();
  const int blocks = (k + LANES - 1) / LANES, columns = 2 * vectors;
  __m512i high_before[2] = {zero, zero}, t[2][2 * MAX_VECTORS], acc[2][MAX_VECTORS];
  uint64_t lane0[2], carry[2] = {0, 0}, m0[2], m1k0[2];
  CRISP_BN52_UNROLL(2)
  for (int l = 0; l < 2; l++) {
    CRISP_BN52_UNROLL(10)
    for (int c = 2; c < columns; c++) t[l][c] = zero; /* written inside the blocks' loops */
    t[l][0] = dual_square_column(a[l], &high_before[l], 0, k);
    t[l][1] = dual_square_column(a[l], &high_before[l], 1, k);
    acc[l][0] = t[l][0];
    acc[l][1] = t[l][1];
    CRISP_BN52_UNROLL(5)
    for (int v = 2; v < vectors; v++) acc[l][v] = zero;
    lane0[l] = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(t[l][0]));
    m0[l] = m[l][0] << (LIMB_BITS - CRISP_BN52_BITS), m1k0[l] = (m[l][1] * k0[l]) & CRISP_BN52_MASK;
  }
  /* blocks of 8 steps; inside each, the vector the next block adds. It
   * comes after the block's third pair in program order: placed before the
   * pairs, its multiply-adds are older than theirs and take the vector
   * pipes first (the scheduler picks the oldest ready work), delaying the
   * quotient chains the pairs wait on; after the third pair it still has
   * the last pair's slots to finish in. The blocks' loop is unrolled, so
   * that t's vectors have constant indices and stay in registers. */
  CRISP_BN52_UNROLL(5)
  for (int q = 0; q + 1 < blocks; q++) {
    CRISP_BN52_UNROLL(2)
    for (int l = 0; l < 2; l++)
      if (q > 0) acc[l][1] = _mm512_add_epi64(acc[l][1], t[l][q + 1]);
    DUAL_SQUARE_PAIRS_UNROLL
    for (int i = 8 * q; i < 8 * q + 8; i += 2) {
      DUAL_SQUARE_REDUCE_PAIR(1);
      if (i == 8 * q + 2 * COLUMN_AFTER_PAIR) {
        CRISP_BN52_UNROLL(2)
        for (int l = 0; l < 2; l++) t[l][q + 2] = dual_square_column(a[l], &high_before[l], q + 2, k);
      }
    }
  }
  /* the last block, and before it the vectors that remain */
  CRISP_BN52_UNROLL(2)
  for (int l = 0; l < 2; l++) {
    if (blocks > 1) acc[l][1] = _mm512_add_epi64(acc[l][1], t[l][blocks]);
    CRISP_BN52_UNROLL(10)
    for (int c = blocks + 1; c < columns; c++) t[l][c] = dual_square_column(a[l], &high_before[l], c, k);
  }
  for (int i = 8 * (blocks - 1); i + 2 < k; i += 2) DUAL_SQUARE_REDUCE_PAIR(1);
  DUAL_SQUARE_REDUCE_PAIR(0); /* its move down two digits is normalize_lane_down2's */
  /* the vectors not added yet (c > blocks), lined up with the accumulator
   * before that move: its lane p stands for position k - 2 + p */
  CRISP_BN52_UNROLL(2)
  for (int l = 0; l < 2; l++) {
    __m512i late[2 * MAX_VECTORS + 1], sum[MAX_VECTORS];
    CRISP_BN52_UNROLL(11)
    for (int c = 0; c <= columns; c++) late[c] = c > blocks && c < columns ? t[l][c] : zero;
    CRISP_BN52_UNROLL(5)
    for (int v = 0; v < vectors; v++) {
      const int base = (k - 2) / LANES + v;
      const __m512i upper = lanes_down(late[base + 1], late[base], (k - 2) % LANES);
      sum[v] = _mm512_add_epi64(acc[l][v], upper);
    }
    normalize_lane_down2(r[l], sum, carry[l], vectors);
  }
}
#undef DUAL_SQUARE_REDUCE_PAIR
#undef DUAL_SQUARE_PAIRS_UNROLL
#undef COLUMN_AFTER_PAIR

#define DUAL_SQUARE(vectors, k)                                                                             \
  static void dual_square_##k(uint64_t *const r[2], const uint64_t *const a[2], const uint64_t *const m[2], \
                              const uint64_t *const moved_up[2], const uint64_t k0[2]) {                    \
    dual_square_body(r, a, m, moved_up, k0, vectors, k);                                                    \
  }
DUAL_SQUARE(3, 20)
DUAL_SQUARE(4, 30)

crisp_bn52_dual_product_fn *crisp_bn52_dual_product_for(size_t k) {
  switch (k) {
    case 20:
      return dual_product_20;
    case 30:
      return dual_product_30;
    case 32:
      return dual_product_32;
    case 40:
      return dual_product_40;
    default:
      return NULL;
  }
}

/* 1536-bit moduli need 30 digits (52 * 30 >= 1536 + 2), which the
 * two-lane kernels take padded to four vectors: two steps fewer a product
 * than the 32 digits the single kernels use. */
size_t crisp_bn52_dual_digits(size_t n) {
  switch (n) {
    case 16:
      return 20;
    case 24:
      return 30;
    case 32:
      return 40;
    default:
      return 0;
  }
}

/* The dedicated square at 20 and 30 digits (1024- and 1536-bit moduli),
 * where it beats dual_product_body. At 40 digits m moved up two digits
 * does not fit the stride, and the ladders square with the dual product;
 * at 32 digits (the 1536-bit size of the single kernels) the cross
 * products' partly masked vectors and the longer reduction leave it
 * behind (docs/performance.md). */
crisp_bn52_dual_square_fn *crisp_bn52_dual_square_for(size_t k) {
  return k == 20 ? dual_square_20 : k == 30 ? dual_square_30 : NULL;
}

/* One lane's values for a ladder: m in radix 2^52 and, when m_moved_up is
 * not NULL, its copies moved up one and two digits (2 * stride digits, for
 * the dual square), the base in radix 2^52 and the constant 1. */
void crisp_bn52_lane_setup(uint64_t *m52, uint64_t *m_moved_up, uint64_t *base52, uint64_t *one,
                           const crisp_limb *mod, const crisp_limb *base, size_t n, size_t k, size_t stride) {
  one[0] = 1;
  crisp_bn52_from64(m52, k, mod, n, 0);
  if (m_moved_up) {
    for (size_t j = 0; j + 1 < stride; j++) m_moved_up[j + 1] = m52[j];
    for (size_t j = 0; j + 2 < stride; j++) m_moved_up[stride + j + 2] = m52[j];
  }
  crisp_bn52_from64(base52, k, base, n, 0);
}
