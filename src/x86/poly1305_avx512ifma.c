/* src/x86/poly1305_avx512ifma.c - Poly1305 with AVX-512 IFMA, radix 2^44.
 *
 * Layout: three limbs of 44, 44 and 42 bits, one 64-bit lane per block; two
 * zmm accumulators of eight lanes each (A takes blocks 0-7 and B blocks 8-15
 * of every 16-block chunk), so one step absorbs 16 blocks. Each lane is
 * multiplied by r^16 per step; at the end lane i of A by r^(16-i) and lane i
 * of B by r^(8-i), then the lanes are summed. A remainder of 8 or more blocks
 * takes one more 8-lane step (lanes times r^8..r^1); the last 0-7 blocks go
 * through the scalar code. Products use vpmadd52luq / vpmadd52huq (low and
 * high 52 bits of a 52x52-bit product): limbs stay below 2^52 throughout,
 * and 2^132 = 20 mod p folds the wrapped products, so the table keeps 20 r1
 * and 20 r2 of every power.
 * ISA: AVX-512F + AVX-512IFMA (zmm only; the flag set also allows VL/BW/DQ,
 * which the compiler may use, so they are listed in the features).
 * Powers r^1..r^16 are computed on the first long call for a key and kept in
 * the state; calls below the crossover stay in the scalar radix 2^64 code
 * (poly1305_x86_64.c) on the same accumulator.
 * Meant for: inputs from the crossover (IFMA_COLD_BLOCKS) up. */
#include <immintrin.h>

#include "util.h"
#include "tuning.h"
#include "x86/poly1305_x86_64.h"

#define LANES 8
#define STEP_BLOCKS (2 * LANES)
#define MASK44 ((1ull << 44) - 1)
#define MASK42 ((1ull << 42) - 1)

/* Crossovers, in 16-byte blocks: a blocks call below them stays scalar.
 * Cold, the key's first long call, also computes r^1..r^16, which costs
 * about as much as 13 scalar blocks, so the vector path pays from about 32
 * blocks; warm, with the powers cached, from its first 8-block step. The
 * README's crossover table gives the measurements and the command; these are
 * the defaults of src/tuning.h, which also keeps each at least one step. */
#define IFMA_COLD_BLOCKS crisp_tuning(CRISP_TUNING_POLY1305_AVX512IFMA_COLD)
#define IFMA_WARM_BLOCKS crisp_tuning(CRISP_TUNING_POLY1305_AVX512IFMA_WARM)

/* power[limb][k] holds limb `limb` of r^(16-k) (limbs 3 and 4: 20 r1, 20 r2). */
typedef struct ifma_state {
  crisp_poly1305_x86_64_state scalar;
  uint64_t power[5][STEP_BLOCKS];
} ifma_state;

_Static_assert(sizeof(ifma_state) <= CRISP_POLY1305_STATE_SIZE, "state fits the context");
/* Unaligned table loads: the state is only as aligned as the caller's
 * context (see poly1305_radix26.h). */
_Static_assert(offsetof(ifma_state, power) % 64 == 0, "table rows start cache lines in an aligned context");

typedef struct limbs44 {
  __m512i l0, l1, l2;
} limbs44;

typedef struct multiplier44 {
  __m512i r0, r1, r2, s1, s2; /* s = 20 r: limb products at 2^132 and up */
} multiplier44;

static inline multiplier44 broadcast_power(const ifma_state *st, int k) {
  multiplier44 m = {
      _mm512_set1_epi64((long long)st->power[0][k]), _mm512_set1_epi64((long long)st->power[1][k]),
      _mm512_set1_epi64((long long)st->power[2][k]), _mm512_set1_epi64((long long)st->power[3][k]),
      _mm512_set1_epi64((long long)st->power[4][k])};
  return m;
}

static inline multiplier44 lane_powers(const ifma_state *st, int first) {
  multiplier44 m = {_mm512_loadu_si512(&st->power[0][first]), _mm512_loadu_si512(&st->power[1][first]),
                    _mm512_loadu_si512(&st->power[2][first]), _mm512_loadu_si512(&st->power[3][first]),
                    _mm512_loadu_si512(&st->power[4][first])};
  return m;
}

/* Eight blocks into 44-bit limbs, block i in lane i; top is 2^128 at bit 40 of limb 2, or 0. */
static inline limbs44 load_blocks(const uint8_t *data, __m512i top) {
  const __m512i a = _mm512_loadu_si512(data), b = _mm512_loadu_si512(data + 64);
  const __m512i even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0),
                odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
  const __m512i lo = _mm512_permutex2var_epi64(a, even, b), hi = _mm512_permutex2var_epi64(a, odd, b);
  const __m512i mask = _mm512_set1_epi64(MASK44);
  limbs44 m = {_mm512_and_si512(lo, mask),
               _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 44), _mm512_slli_epi64(hi, 20)), mask),
               _mm512_or_si512(_mm512_srli_epi64(hi, 24), top)};
  return m;
}

static inline limbs44 add(limbs44 a, limbs44 b) {
  limbs44 s = {_mm512_add_epi64(a.l0, b.l0), _mm512_add_epi64(a.l1, b.l1), _mm512_add_epi64(a.l2, b.l2)};
  return s;
}

#define LO(acc, x, y) _mm512_madd52lo_epu64((acc), (x), (y))
#define HI(acc, x, y) _mm512_madd52hi_epu64((acc), (x), (y))

/* h * m mod p, limbs below 2^46 on entry, below 2^44 + 2^9 on return.
 * Bounds: each 52x52 product of a limb (< 2^46) and a table entry (< 2^49)
 * is below 2^95, so a high half is below 2^43 and three sum below 2^45;
 * the low halves sum below 2^54. The high halves weigh 2^52 = 2^44 2^8
 * relative to their low halves, hence the shifts by 8; the high half of the
 * top limb weighs 2^140 = 2^130 2^10 and joins the carry out of 2^130. */
static inline limbs44 multiply(limbs44 h, const multiplier44 *m) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i d0 = LO(LO(LO(zero, h.l0, m->r0), h.l1, m->s2), h.l2, m->s1);
  __m512i d1 = LO(LO(LO(zero, h.l0, m->r1), h.l1, m->r0), h.l2, m->s2);
  __m512i d2 = LO(LO(LO(zero, h.l0, m->r2), h.l1, m->r1), h.l2, m->r0);
  const __m512i e0 = HI(HI(HI(zero, h.l0, m->r0), h.l1, m->s2), h.l2, m->s1);
  const __m512i e1 = HI(HI(HI(zero, h.l0, m->r1), h.l1, m->r0), h.l2, m->s2);
  const __m512i e2 = HI(HI(HI(zero, h.l0, m->r2), h.l1, m->r1), h.l2, m->r0);
  const __m512i mask44 = _mm512_set1_epi64(MASK44), mask42 = _mm512_set1_epi64(MASK42);
  d1 = _mm512_add_epi64(d1, _mm512_slli_epi64(e0, 8));
  d2 = _mm512_add_epi64(d2, _mm512_slli_epi64(e1, 8));
  d1 = _mm512_add_epi64(d1, _mm512_srli_epi64(d0, 44));
  d0 = _mm512_and_si512(d0, mask44);
  d2 = _mm512_add_epi64(d2, _mm512_srli_epi64(d1, 44));
  d1 = _mm512_and_si512(d1, mask44);
  /* the carry out of 2^130 is below 2^13 + 2^55, so five times it plus d0 fits 64 bits */
  __m512i carry = _mm512_add_epi64(_mm512_srli_epi64(d2, 42), _mm512_slli_epi64(e2, 10));
  d2 = _mm512_and_si512(d2, mask42);
  d0 = _mm512_add_epi64(d0, _mm512_add_epi64(carry, _mm512_slli_epi64(carry, 2)));
  d1 = _mm512_add_epi64(d1, _mm512_srli_epi64(d0, 44));
  d0 = _mm512_and_si512(d0, mask44);
  limbs44 r = {d0, d1, d2};
  return r;
}

/* 20 x: the table's s limbs (2^130 = 5 mod p, and 2^132 = 20). */
static inline __m512i times20(__m512i x) {
  return _mm512_add_epi64(_mm512_slli_epi64(x, 4), _mm512_slli_epi64(x, 2));
}

static inline void store_powers(ifma_state *st, int first, limbs44 p) {
  _mm512_storeu_si512(&st->power[0][first], p.l0);
  _mm512_storeu_si512(&st->power[1][first], p.l1);
  _mm512_storeu_si512(&st->power[2][first], p.l2);
  _mm512_storeu_si512(&st->power[3][first], times20(p.l1));
  _mm512_storeu_si512(&st->power[4][first], times20(p.l2));
}

/* Lane 0 of p as a multiplier in every lane. */
static inline multiplier44 broadcast_lane0(limbs44 p) {
  const __m512i l0 = _mm512_broadcastq_epi64(_mm512_castsi512_si128(p.l0));
  const __m512i l1 = _mm512_broadcastq_epi64(_mm512_castsi512_si128(p.l1));
  const __m512i l2 = _mm512_broadcastq_epi64(_mm512_castsi512_si128(p.l2));
  multiplier44 m = {l0, l1, l2, times20(l1), times20(l2)};
  return m;
}

/* r^1..r^16 for the table. The scalar code makes r^2, r^3, r^4; one vector
 * multiply of the lanes (r^4, r^3, r^2, r, ...) by r^4 makes r^8..r^5, and
 * one of (r^8, ..., r) by r^8 makes r^16..r^9: two multiplies where a
 * scalar chain needs twelve more, which is most of what a cold call of a
 * few hundred bytes costs on top of its blocks. The products are partly
 * reduced (limbs below 2^44 + 2^9, so s limbs below 2^49), within the bounds
 * multiply() assumes of table entries; the scalar powers are below 2^131. */
static void compute_powers(ifma_state *st) {
  uint64_t x[4][3] = {{st->scalar.r[0], st->scalar.r[1], 0}};
  for (int i = 1; i < 4; i++) {
    x[i][0] = x[i - 1][0], x[i][1] = x[i - 1][1], x[i][2] = x[i - 1][2];
    crisp_poly1305_mul_x86_64(x[i], st->scalar.r);
  }
  uint64_t limb[3][LANES] __attribute__((aligned(64)));
  for (int lane = 0; lane < LANES; lane++) {
    const uint64_t *p = x[3 - lane % 4]; /* lane i holds r^(4 - i mod 4) */
    limb[0][lane] = p[0] & MASK44;
    limb[1][lane] = (p[0] >> 44 | p[1] << 20) & MASK44;
    limb[2][lane] = p[1] >> 24 | p[2] << 40;
  }
  const limbs44 small = {_mm512_load_si512(limb[0]), _mm512_load_si512(limb[1]), _mm512_load_si512(limb[2])};
  const multiplier44 r4 = broadcast_lane0(small);
  const limbs44 product = multiply(small, &r4);
  const __mmask8 upper = 0xf0; /* lanes 4-7 keep r^4..r^1 */
  const limbs44 low = {_mm512_mask_blend_epi64(upper, product.l0, small.l0),
                       _mm512_mask_blend_epi64(upper, product.l1, small.l1),
                       _mm512_mask_blend_epi64(upper, product.l2, small.l2)};
  const multiplier44 r8 = broadcast_lane0(low);
  store_powers(st, LANES, low);
  store_powers(st, 0, multiply(low, &r8));
  st->scalar.powers_ready = 1;
  crisp_wipe(x, sizeof x);
  crisp_wipe(limb, sizeof limb);
}

/* Sums the lanes into the scalar accumulator, which the vector path took
 * into lane 0 of its first step. */
static inline void fold_lanes(crisp_poly1305_x86_64_state *scalar, limbs44 a) {
  typedef unsigned __int128 u128;
  const uint64_t l0 = (uint64_t)_mm512_reduce_add_epi64(a.l0);
  const uint64_t l1 = (uint64_t)_mm512_reduce_add_epi64(a.l1);
  const uint64_t l2 = (uint64_t)_mm512_reduce_add_epi64(a.l2);
  /* each sum below 2^49: l0 + l1 2^44 + l2 2^88 is below 2^138 */
  u128 t = (u128)l0 + ((u128)l1 << 44);
  scalar->h[0] = (uint64_t)t;
  t = (t >> 64) + ((u128)l2 << 24);
  scalar->h[1] = (uint64_t)t;
  scalar->h[2] = (uint64_t)(t >> 64);
  poly1305_radix64_fold(scalar->h);
}

/* The accumulator as limbs in lane 0, zero elsewhere; h2 below 8. */
static inline limbs44 take_accumulator(crisp_poly1305_x86_64_state *scalar) {
  const uint64_t h0 = scalar->h[0], h1 = scalar->h[1], h2 = scalar->h[2];
  limbs44 h = {_mm512_maskz_set1_epi64(1, (long long)(h0 & MASK44)),
               _mm512_maskz_set1_epi64(1, (long long)((h0 >> 44 | h1 << 20) & MASK44)),
               _mm512_maskz_set1_epi64(1, (long long)(h1 >> 24 | h2 << 40))};
  return h;
}

/* Absorbs nblocks (at least LANES) blocks with the vector path; returns how
 * many blocks it left for the scalar code (fewer than LANES). */
static __attribute__((noinline)) size_t blocks_vector(void *state, const uint8_t *data, size_t nblocks,
                                                      unsigned hibit) {
  ifma_state *st = state;
  if (!st->scalar.powers_ready) compute_powers(st);
  const __m512i top = _mm512_set1_epi64(hibit ? 1ll << 40 : 0);
  limbs44 h = take_accumulator(&st->scalar);
  limbs44 sum;
  if (nblocks >= STEP_BLOCKS) {
    const multiplier44 r16 = broadcast_power(st, 0);
    limbs44 a = add(h, load_blocks(data, top)), b = load_blocks(data + 16 * LANES, top);
    data += 16 * STEP_BLOCKS, nblocks -= STEP_BLOCKS;
    for (; nblocks >= STEP_BLOCKS; data += 16 * STEP_BLOCKS, nblocks -= STEP_BLOCKS) {
      a = add(multiply(a, &r16), load_blocks(data, top));
      b = add(multiply(b, &r16), load_blocks(data + 16 * LANES, top));
    }
    if (nblocks >= LANES) {
      /* one more 8-block step: everything so far times r^8, the new lanes r^8..r^1 */
      const multiplier44 r8 = broadcast_power(st, LANES), lanes = lane_powers(st, LANES);
      a = multiply(a, &r8), b = multiply(b, &r8);
      const limbs44 c = multiply(load_blocks(data, top), &lanes);
      data += 16 * LANES, nblocks -= LANES;
      const multiplier44 high = lane_powers(st, 0), low = lanes;
      sum = add(add(multiply(a, &high), multiply(b, &low)), c);
    } else {
      const multiplier44 high = lane_powers(st, 0), low = lane_powers(st, LANES);
      sum = add(multiply(a, &high), multiply(b, &low));
    }
  } else {
    const multiplier44 lanes = lane_powers(st, LANES);
    sum = multiply(add(h, load_blocks(data, top)), &lanes);
    nblocks -= LANES;
  }
  fold_lanes(&st->scalar, sum);
  return nblocks;
}

/* The vector loop as the crossover calls it, with its frame wiped after. */
static size_t blocks_vector_wiped(void *state, const uint8_t *data, size_t nblocks, unsigned hibit) {
  const size_t left = blocks_vector(state, data, nblocks, hibit);
  crisp_poly1305_wipe_vector_frame();
  return left;
}

void crisp_poly1305_blocks_avx512ifma(void *state, const uint8_t *data, size_t nblocks, unsigned hibit) {
  crisp_poly1305_blocks_crossover(state, data, nblocks, hibit, IFMA_COLD_BLOCKS, IFMA_WARM_BLOCKS,
                                  blocks_vector_wiped);
}

const crisp_poly1305_impl crisp_poly1305_avx512ifma_impl = {
    .info = {"avx512ifma", CRISP_LEVEL_AVX512IFMA,
             CRISP_CPU_AVX | CRISP_CPU_AVX2 | CRISP_CPU_AVX512F | CRISP_CPU_AVX512VL | CRISP_CPU_AVX512BW |
                 CRISP_CPU_AVX512DQ | CRISP_CPU_AVX512IFMA},
    .init = crisp_poly1305_init_x86_64,
    .blocks = crisp_poly1305_blocks_avx512ifma,
    .finish = crisp_poly1305_finish_x86_64,
};
