/* src/x86/poly1305_ifma44.h - radix 2^44 Poly1305 arithmetic on eight
 * 64-bit lanes with AVX-512 IFMA, apart from the IFMA kernel's state and
 * stream logic (x86/poly1305_avx512ifma.c).
 *
 * A value is three limbs of 44, 44 and 42 bits in one lane of three
 * vectors. Products use vpmadd52luq / vpmadd52huq (low and high 52 bits of
 * a 52x52-bit product): limbs stay below 2^52 throughout, and 2^132 = 20
 * mod p folds the wrapped products. Nothing here branches on or indexes by
 * key, accumulator or message. The including file is compiled for
 * AVX-512F and AVX-512IFMA. */
#ifndef CRISP_SRC_X86_POLY1305_IFMA44_H
#define CRISP_SRC_X86_POLY1305_IFMA44_H

#include <immintrin.h>
#include <stdint.h>

#include "poly1305_radix64.h"

#define IFMA44_MASK44 ((1ull << 44) - 1)
#define IFMA44_MASK42 ((1ull << 42) - 1)

typedef struct limbs44 {
  __m512i l0, l1, l2;
} limbs44;

typedef struct multiplier44 {
  __m512i r0, r1, r2, s1, s2; /* s = 20 r: limb products at 2^132 and up */
} multiplier44;

/* 20 x: the s limbs (2^130 = 5 mod p, and 2^132 = 20). */
static inline __m512i ifma44_times20(__m512i x) {
  return _mm512_add_epi64(_mm512_slli_epi64(x, 4), _mm512_slli_epi64(x, 2));
}

static inline multiplier44 ifma44_multiplier(limbs44 p) {
  multiplier44 m = {p.l0, p.l1, p.l2, ifma44_times20(p.l1), ifma44_times20(p.l2)};
  return m;
}

/* Eight blocks into 44-bit limbs, block i in lane i, each with its 2^128
 * (bit 40 of limb 2). */
static inline limbs44 ifma44_load_blocks(const uint8_t *data) {
  const __m512i a = _mm512_loadu_si512(data), b = _mm512_loadu_si512(data + 64);
  const __m512i even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0),
                odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
  const __m512i lo = _mm512_permutex2var_epi64(a, even, b), hi = _mm512_permutex2var_epi64(a, odd, b);
  const __m512i mask = _mm512_set1_epi64(IFMA44_MASK44), top = _mm512_set1_epi64(1ll << 40);
  limbs44 m = {_mm512_and_si512(lo, mask),
               _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 44), _mm512_slli_epi64(hi, 20)), mask),
               _mm512_or_si512(_mm512_srli_epi64(hi, 24), top)};
  return m;
}

static inline limbs44 ifma44_add(limbs44 a, limbs44 b) {
  limbs44 s = {_mm512_add_epi64(a.l0, b.l0), _mm512_add_epi64(a.l1, b.l1), _mm512_add_epi64(a.l2, b.l2)};
  return s;
}

#define IFMA44_LO(acc, x, y) _mm512_madd52lo_epu64((acc), (x), (y))
#define IFMA44_HI(acc, x, y) _mm512_madd52hi_epu64((acc), (x), (y))

/* The six column sums of h * m, each column's 2^132 and up already folded
 * by the s limbs: d the low halves, e the high halves (weighing 2^52 more),
 * added to what `columns` holds. */
typedef struct columns44 {
  __m512i d0, d1, d2, e0, e1, e2;
} columns44;

static inline columns44 ifma44_columns(columns44 c, limbs44 h, const multiplier44 *m) {
  c.d0 = IFMA44_LO(IFMA44_LO(IFMA44_LO(c.d0, h.l0, m->r0), h.l1, m->s2), h.l2, m->s1);
  c.d1 = IFMA44_LO(IFMA44_LO(IFMA44_LO(c.d1, h.l0, m->r1), h.l1, m->r0), h.l2, m->s2);
  c.d2 = IFMA44_LO(IFMA44_LO(IFMA44_LO(c.d2, h.l0, m->r2), h.l1, m->r1), h.l2, m->r0);
  c.e0 = IFMA44_HI(IFMA44_HI(IFMA44_HI(c.e0, h.l0, m->r0), h.l1, m->s2), h.l2, m->s1);
  c.e1 = IFMA44_HI(IFMA44_HI(IFMA44_HI(c.e1, h.l0, m->r1), h.l1, m->r0), h.l2, m->s2);
  c.e2 = IFMA44_HI(IFMA44_HI(IFMA44_HI(c.e2, h.l0, m->r2), h.l1, m->r1), h.l2, m->r0);
  return c;
}

static inline columns44 ifma44_no_columns(void) {
  const __m512i zero = _mm512_setzero_si512();
  columns44 c = {zero, zero, zero, zero, zero, zero};
  return c;
}

/* h * m mod p, limbs below 2^46 on entry, below 2^44 + 2^9 on return.
 * Bounds: each 52x52 product of a limb (< 2^46) and a multiplier limb
 * (< 2^49) is below 2^95, so a high half is below 2^43 and three sum below
 * 2^45; the low halves sum below 2^54. The high halves weigh 2^52 = 2^44 2^8
 * relative to their low halves, hence the shifts by 8; the high half of the
 * top limb weighs 2^140 = 2^130 2^10 and joins the carry out of 2^130. */
static inline limbs44 ifma44_multiply(limbs44 h, const multiplier44 *m) {
  const columns44 c = ifma44_columns(ifma44_no_columns(), h, m);
  const __m512i mask44 = _mm512_set1_epi64(IFMA44_MASK44), mask42 = _mm512_set1_epi64(IFMA44_MASK42);
  __m512i d0 = c.d0, d1 = c.d1, d2 = c.d2;
  d1 = _mm512_add_epi64(d1, _mm512_slli_epi64(c.e0, 8));
  d2 = _mm512_add_epi64(d2, _mm512_slli_epi64(c.e1, 8));
  d1 = _mm512_add_epi64(d1, _mm512_srli_epi64(d0, 44));
  d0 = _mm512_and_si512(d0, mask44);
  d2 = _mm512_add_epi64(d2, _mm512_srli_epi64(d1, 44));
  d1 = _mm512_and_si512(d1, mask44);
  /* the carry out of 2^130 is below 2^13 + 2^55, so five times it plus d0 fits 64 bits */
  __m512i carry = _mm512_add_epi64(_mm512_srli_epi64(d2, 42), _mm512_slli_epi64(c.e2, 10));
  d2 = _mm512_and_si512(d2, mask42);
  d0 = _mm512_add_epi64(d0, _mm512_add_epi64(carry, _mm512_slli_epi64(carry, 2)));
  d1 = _mm512_add_epi64(d1, _mm512_srli_epi64(d0, 44));
  d0 = _mm512_and_si512(d0, mask44);
  limbs44 r = {d0, d1, d2};
  return r;
}

/* The columns summed over the lanes, as a radix 2^64 accumulator with h[2]
 * at most 4. Per lane and product a column's low halves sum below 2^54 and
 * its high halves below 2^45 (ifma44_multiply's bounds, limbs below 2^46),
 * so with at most two products a lane the sums over eight lanes stay below
 * 2^58 and 2^49: c1 and c2 below 2^59, five times the bits from 2^130 up
 * below 2^63. */
static inline void ifma44_sum_columns(columns44 c, uint64_t h[3]) {
  typedef unsigned __int128 u128;
  const uint64_t c0 = (uint64_t)_mm512_reduce_add_epi64(c.d0);
  const uint64_t c1 = (uint64_t)_mm512_reduce_add_epi64(_mm512_add_epi64(c.d1, _mm512_slli_epi64(c.e0, 8)));
  const uint64_t c2 = (uint64_t)_mm512_reduce_add_epi64(_mm512_add_epi64(c.d2, _mm512_slli_epi64(c.e1, 8)));
  const uint64_t c3 = (uint64_t)_mm512_reduce_add_epi64(c.e2);
  /* bits from 2^130 up: c2's above its 42 bits and c3 (weight 2^140) */
  const uint64_t over = (c2 >> 42) + (c3 << 10);
  u128 t = (u128)c0 + ((u128)c1 << 44) + (u128)over * 5;
  h[0] = (uint64_t)t;
  t = (t >> 64) + ((u128)(c2 & IFMA44_MASK42) << 24);
  h[1] = (uint64_t)t;
  h[2] = (uint64_t)(t >> 64);
}

/* Lane 0 of p as a multiplier in every lane. */
static inline multiplier44 ifma44_broadcast_lane0(limbs44 p) {
  const limbs44 b = {_mm512_broadcastq_epi64(_mm512_castsi512_si128(p.l0)),
                     _mm512_broadcastq_epi64(_mm512_castsi512_si128(p.l1)),
                     _mm512_broadcastq_epi64(_mm512_castsi512_si128(p.l2))};
  return ifma44_multiplier(b);
}

static inline limbs44 ifma44_blend(__mmask8 take_b, limbs44 a, limbs44 b) {
  limbs44 x = {_mm512_mask_blend_epi64(take_b, a.l0, b.l0), _mm512_mask_blend_epi64(take_b, a.l1, b.l1),
               _mm512_mask_blend_epi64(take_b, a.l2, b.l2)};
  return x;
}

/* A radix 2^64 value with h2 below 2^20 as limbs, in the lanes of `lanes`
 * and zero elsewhere. */
static inline limbs44 ifma44_from_radix64(__mmask8 lanes, uint64_t h0, uint64_t h1, uint64_t h2) {
  limbs44 h = {_mm512_maskz_set1_epi64(lanes, (long long)(h0 & IFMA44_MASK44)),
               _mm512_maskz_set1_epi64(lanes, (long long)((h0 >> 44 | h1 << 20) & IFMA44_MASK44)),
               _mm512_maskz_set1_epi64(lanes, (long long)(h1 >> 24 | h2 << 40))};
  return h;
}

/* r^1..r^16 in four vector multiplies, each on the one before: r times r;
 * the lanes (r^2, r, r^2, r, ...) times r^2, which gives r^4 and r^3; the
 * lanes (r^4, r^3, r^2, r, ...) times r^4, which gives r^8..r^5; the lanes
 * (r^8, ..., r) times r^8, which gives r^16..r^9. Lane i of *high holds
 * r^(16-i), of *low r^(8-i). The products are partly reduced (limbs below
 * 2^44 + 2^9, so s limbs below 2^49), within the bounds ifma44_multiply
 * assumes of multipliers; r's own limbs are below 2^44. */
static inline void ifma44_powers(uint64_t key0, uint64_t key1, limbs44 *high, limbs44 *low) {
  const limbs44 r = ifma44_from_radix64(0xff, key0, key1, 0);
  const multiplier44 by_r = ifma44_multiplier(r);
  const limbs44 square = ifma44_multiply(r, &by_r);
  const multiplier44 by_square = ifma44_multiplier(square);
  const limbs44 two_one = ifma44_blend(0xaa, square, r); /* odd lanes r, even lanes r^2 */
  const limbs44 four_three = ifma44_multiply(two_one, &by_square);
  const limbs44 small = ifma44_blend(0xcc, four_three, two_one); /* lane i holds r^(4 - i mod 4) */
  const multiplier44 r4 = ifma44_broadcast_lane0(small);
  *low = ifma44_blend(0xf0, ifma44_multiply(small, &r4), small); /* lanes 4-7 keep r^4..r^1 */
  const multiplier44 r8 = ifma44_broadcast_lane0(*low);
  *high = ifma44_multiply(*low, &r8);
}

#endif
