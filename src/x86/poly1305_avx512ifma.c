/* src/x86/poly1305_avx512ifma.c - Poly1305 with AVX-512 IFMA, radix 2^44.
 *
 * Layout: three limbs of 44, 44 and 42 bits, one 64-bit lane per block; two
 * zmm accumulators of eight lanes each, the older and the newer. While they
 * hold the message, its hash is the older's lanes times r^16..r^9 plus the
 * newer's times r^8..r^1. A step of eight blocks multiplies the older by
 * r^16, adds the blocks, and makes it the newer; two steps (16 blocks) keep
 * the roles, which is the loop of long calls.
 * Products use vpmadd52luq / vpmadd52huq (low and high 52 bits of a
 * 52x52-bit product): limbs stay below 2^52 throughout, and 2^132 = 20 mod p
 * folds the wrapped products.
 * ISA: AVX-512F + AVX-512IFMA (zmm only; the flag set also allows VL/BW/DQ,
 * which the compiler may use, so they are listed in the features).
 * Streams: the accumulators stay in the state between calls, unreduced, and
 * blocks short of a step wait in the state (at most seven), so a stream of
 * short updates runs the same steps as one long call; the lanes are summed
 * into the scalar accumulator only by the final padded block or finish.
 * Powers r^1..r^16 are computed by the first step for a key and kept in the
 * state. Before the lanes start, calls stay in the scalar radix 2^64 code
 * (poly1305_scalar.c) on the scalar accumulator, which the first step takes
 * into lane 0.
 * Meant for: calls from the cold crossover up, and streams from the warm one. */
#include <immintrin.h>

#include "util.h"
#include "tuning.h"
#include "x86/poly1305_scalar.h"

#define LANES 8
#define STEP_BLOCKS (2 * LANES)
#define BLOCK 16
#define MASK44 ((1ull << 44) - 1)
#define MASK42 ((1ull << 42) - 1)

/* Crossovers, in 16-byte blocks. Cold: a call of at least this many starts
 * the lanes; it also computes r^1..r^16, a chain of four vector multiplies.
 * Warm: a stream of shorter calls starts the lanes once it has absorbed this
 * many blocks in the scalar code; from then on its blocks pay the powers
 * once and the fold once. docs/performance.md's crossover table gives the
 * measurements and the command; these are the defaults of src/tuning.h. */
#define IFMA_COLD_BLOCKS crisp_tuning(CRISP_TUNING_POLY1305_AVX512IFMA_COLD)
#define IFMA_WARM_BLOCKS crisp_tuning(CRISP_TUNING_POLY1305_AVX512IFMA_WARM)

/* power[limb][k] holds limb `limb` of r^(16-k); the 20 r1, 20 r2 a product
 * needs are made when a multiplier is loaded. lanes[0] is the older
 * accumulator and lanes[1] the newer, limb by limb; pending holds whole
 * blocks short of a step (scalar.pending_blocks of them, always fewer than
 * LANES between calls). The flags and counts in the scalar head follow
 * lengths only. */
typedef struct ifma_state {
  crisp_poly1305_x86_64_state scalar;
  uint64_t power[3][STEP_BLOCKS];
  uint64_t lanes[2][3][LANES];
  uint8_t pending[LANES * BLOCK];
} ifma_state;

_Static_assert(sizeof(ifma_state) <= CRISP_POLY1305_STATE_SIZE, "state fits the context");
/* Unaligned loads and stores: the state is only as aligned as the caller's
 * context (see poly1305_radix26.h). */
_Static_assert(offsetof(ifma_state, power) % 64 == 0, "table rows start cache lines in an aligned context");
_Static_assert(offsetof(ifma_state, lanes) % 64 == 0, "accumulators start cache lines in an aligned context");

typedef struct limbs44 {
  __m512i l0, l1, l2;
} limbs44;

typedef struct multiplier44 {
  __m512i r0, r1, r2, s1, s2; /* s = 20 r: limb products at 2^132 and up */
} multiplier44;

/* 20 x: the s limbs (2^130 = 5 mod p, and 2^132 = 20). */
static inline __m512i times20(__m512i x) {
  return _mm512_add_epi64(_mm512_slli_epi64(x, 4), _mm512_slli_epi64(x, 2));
}

static inline multiplier44 make_multiplier(__m512i l0, __m512i l1, __m512i l2) {
  multiplier44 m = {l0, l1, l2, times20(l1), times20(l2)};
  return m;
}

/* r^(16-k) in every lane. */
static inline multiplier44 broadcast_power(const ifma_state *st, int k) {
  return make_multiplier(_mm512_set1_epi64((long long)st->power[0][k]),
                         _mm512_set1_epi64((long long)st->power[1][k]),
                         _mm512_set1_epi64((long long)st->power[2][k]));
}

/* r^(16-first-i) in lane i. */
static inline multiplier44 lane_powers(const ifma_state *st, int first) {
  return make_multiplier(_mm512_loadu_si512(&st->power[0][first]), _mm512_loadu_si512(&st->power[1][first]),
                         _mm512_loadu_si512(&st->power[2][first]));
}

static inline limbs44 load_lanes(const ifma_state *st, int which) {
  limbs44 x = {_mm512_loadu_si512(st->lanes[which][0]), _mm512_loadu_si512(st->lanes[which][1]),
               _mm512_loadu_si512(st->lanes[which][2])};
  return x;
}

static inline void store_lanes(ifma_state *st, int which, limbs44 x) {
  _mm512_storeu_si512(st->lanes[which][0], x.l0);
  _mm512_storeu_si512(st->lanes[which][1], x.l1);
  _mm512_storeu_si512(st->lanes[which][2], x.l2);
}

/* Eight blocks into 44-bit limbs, block i in lane i, each with its 2^128
 * (bit 40 of limb 2): the lanes take only whole blocks. */
static inline limbs44 load_blocks(const uint8_t *data) {
  const __m512i a = _mm512_loadu_si512(data), b = _mm512_loadu_si512(data + 64);
  const __m512i even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0),
                odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
  const __m512i lo = _mm512_permutex2var_epi64(a, even, b), hi = _mm512_permutex2var_epi64(a, odd, b);
  const __m512i mask = _mm512_set1_epi64(MASK44), top = _mm512_set1_epi64(1ll << 40);
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
 * Bounds: each 52x52 product of a limb (< 2^46) and a multiplier limb
 * (< 2^49) is below 2^95, so a high half is below 2^43 and three sum below
 * 2^45; the low halves sum below 2^54. The high halves weigh 2^52 = 2^44 2^8
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

static inline void store_powers(ifma_state *st, int first, limbs44 p) {
  _mm512_storeu_si512(&st->power[0][first], p.l0);
  _mm512_storeu_si512(&st->power[1][first], p.l1);
  _mm512_storeu_si512(&st->power[2][first], p.l2);
}

/* Lane 0 of p as a multiplier in every lane. */
static inline multiplier44 broadcast_lane0(limbs44 p) {
  return make_multiplier(_mm512_broadcastq_epi64(_mm512_castsi512_si128(p.l0)),
                         _mm512_broadcastq_epi64(_mm512_castsi512_si128(p.l1)),
                         _mm512_broadcastq_epi64(_mm512_castsi512_si128(p.l2)));
}

static inline limbs44 blend(__mmask8 take_b, limbs44 a, limbs44 b) {
  limbs44 x = {_mm512_mask_blend_epi64(take_b, a.l0, b.l0), _mm512_mask_blend_epi64(take_b, a.l1, b.l1),
               _mm512_mask_blend_epi64(take_b, a.l2, b.l2)};
  return x;
}

/* r^1..r^16 for the table, in four vector multiplies, each on the one
 * before: r times r; the lanes (r^2, r, r^2, r, ...) times r^2, which gives
 * r^4 and r^3; the lanes (r^4, r^3, r^2, r, ...) times r^4, which gives
 * r^8..r^5; the lanes (r^8, ..., r) times r^8, which gives r^16..r^9. Built
 * in vector registers from r, so nothing waits for scalar results to reach
 * memory and come back as vectors; the first long call of a key pays this
 * chain before its first multiply. The products are partly reduced (limbs
 * below 2^44 + 2^9, so s limbs below 2^49), within the bounds multiply()
 * assumes of multipliers; r's own limbs are below 2^44. */
static void compute_powers(ifma_state *st) {
  const uint64_t key0 = st->scalar.r[0], key1 = st->scalar.r[1];
  const limbs44 r = {_mm512_set1_epi64((long long)(key0 & MASK44)),
                     _mm512_set1_epi64((long long)((key0 >> 44 | key1 << 20) & MASK44)),
                     _mm512_set1_epi64((long long)(key1 >> 24))};
  const multiplier44 by_r = make_multiplier(r.l0, r.l1, r.l2);
  const limbs44 square = multiply(r, &by_r);
  const multiplier44 by_square = make_multiplier(square.l0, square.l1, square.l2);
  const limbs44 two_one = blend(0xaa, square, r); /* odd lanes r, even lanes r^2 */
  const limbs44 four_three = multiply(two_one, &by_square);
  const limbs44 small = blend(0xcc, four_three, two_one); /* lane i holds r^(4 - i mod 4) */
  const multiplier44 r4 = broadcast_lane0(small);
  const limbs44 low = blend(0xf0, multiply(small, &r4), small); /* lanes 4-7 keep r^4..r^1 */
  const multiplier44 r8 = broadcast_lane0(low);
  store_powers(st, LANES, low);
  store_powers(st, 0, multiply(low, &r8));
  st->scalar.powers_ready = 1;
}

/* The scalar accumulator as limbs in lane 0, zero elsewhere; h2 below 8. */
static inline limbs44 take_accumulator(const crisp_poly1305_x86_64_state *scalar) {
  const uint64_t h0 = scalar->h[0], h1 = scalar->h[1], h2 = scalar->h[2];
  limbs44 h = {_mm512_maskz_set1_epi64(1, (long long)(h0 & MASK44)),
               _mm512_maskz_set1_epi64(1, (long long)((h0 >> 44 | h1 << 20) & MASK44)),
               _mm512_maskz_set1_epi64(1, (long long)(h1 >> 24 | h2 << 40))};
  return h;
}

/* Runs nblocks (at least LANES) blocks through the lanes, a step of eight
 * at a time; returns how many are left (fewer than LANES). The first step of
 * a stream takes the scalar accumulator into lane 0 of its first block. */
static __attribute__((noinline)) size_t lanes_steps(ifma_state *st, const uint8_t *data, size_t nblocks) {
  if (!st->scalar.powers_ready) compute_powers(st);
  const multiplier44 r16 = broadcast_power(st, 0);
  limbs44 older, newer;
  if (st->scalar.lanes_started) {
    older = load_lanes(st, 0), newer = load_lanes(st, 1);
  } else if (nblocks >= STEP_BLOCKS) {
    older = add(take_accumulator(&st->scalar), load_blocks(data));
    newer = load_blocks(data + BLOCK * LANES);
    data += BLOCK * STEP_BLOCKS, nblocks -= STEP_BLOCKS;
  } else {
    const __m512i zero = _mm512_setzero_si512();
    older = (limbs44){zero, zero, zero};
    newer = add(take_accumulator(&st->scalar), load_blocks(data));
    data += BLOCK * LANES, nblocks -= LANES;
  }
  st->scalar.lanes_started = 1;
  for (; nblocks >= STEP_BLOCKS; data += BLOCK * STEP_BLOCKS, nblocks -= STEP_BLOCKS) {
    older = add(multiply(older, &r16), load_blocks(data));
    newer = add(multiply(newer, &r16), load_blocks(data + BLOCK * LANES));
  }
  if (nblocks >= LANES) {
    const limbs44 stepped = add(multiply(older, &r16), load_blocks(data));
    older = newer, newer = stepped;
    nblocks -= LANES;
  }
  store_lanes(st, 0, older);
  store_lanes(st, 1, newer);
  return nblocks;
}

/* h = the lanes times their powers, summed: the older lane i times
 * r^(16-i), the newer lane i times r^(8-i). */
static __attribute__((noinline)) void lanes_fold(ifma_state *st) {
  typedef unsigned __int128 u128;
  const multiplier44 high = lane_powers(st, 0), low = lane_powers(st, LANES);
  const limbs44 sum = add(multiply(load_lanes(st, 0), &high), multiply(load_lanes(st, 1), &low));
  const uint64_t l0 = (uint64_t)_mm512_reduce_add_epi64(sum.l0);
  const uint64_t l1 = (uint64_t)_mm512_reduce_add_epi64(sum.l1);
  const uint64_t l2 = (uint64_t)_mm512_reduce_add_epi64(sum.l2);
  /* each sum below 2^49: l0 + l1 2^44 + l2 2^88 is below 2^138 */
  u128 t = (u128)l0 + ((u128)l1 << 44);
  st->scalar.h[0] = (uint64_t)t;
  t = (t >> 64) + ((u128)l2 << 24);
  st->scalar.h[1] = (uint64_t)t;
  st->scalar.h[2] = (uint64_t)(t >> 64);
  poly1305_radix64_fold(st->scalar.h);
  st->scalar.lanes_started = 0;
}

/* Ends what the lanes hold: their sum into the scalar accumulator, then the
 * pending blocks through the scalar code. Blocks after it start the lanes
 * again. */
static void lanes_end(ifma_state *st) {
  if (st->scalar.lanes_started) lanes_fold(st);
  crisp_poly1305_blocks_x86_64(st, st->pending, st->scalar.pending_blocks, 1);
  st->scalar.pending_blocks = 0;
}

/* One step of a stream that the lanes already hold: eight blocks into the
 * older accumulator, which becomes the newer. */
static __attribute__((noinline)) void lanes_step(ifma_state *st, const uint8_t *data) {
  const multiplier44 r16 = broadcast_power(st, 0);
  const limbs44 stepped = add(multiply(load_lanes(st, 0), &r16), load_blocks(data));
  store_lanes(st, 0, load_lanes(st, 1));
  store_lanes(st, 1, stepped);
}

/* Eight blocks or more through the lanes; returns how many are left (fewer
 * than LANES). A single step of a started stream runs lanes_step, anything
 * else (the powers, the start, the loop) lanes_steps. */
static size_t lanes_absorb(ifma_state *st, const uint8_t *data, size_t nblocks) {
  if (nblocks < STEP_BLOCKS && st->scalar.lanes_started) {
    lanes_step(st, data);
    return nblocks - LANES;
  }
  return lanes_steps(st, data, nblocks);
}

void crisp_poly1305_blocks_avx512ifma(void *state, const uint8_t *data, size_t nblocks, unsigned hibit) {
  ifma_state *st = state;
  if (!hibit) {
    /* the final padded block: it comes after everything the lanes hold */
    if (st->scalar.lanes_streaming) lanes_end(st);
    crisp_poly1305_blocks_x86_64(state, data, nblocks, 0);
    return;
  }
  if (!st->scalar.lanes_streaming) {
    if (nblocks < IFMA_COLD_BLOCKS && st->scalar.scalar_blocks < IFMA_WARM_BLOCKS) {
      st->scalar.scalar_blocks += (uint32_t)nblocks; /* both below a tuning value: no overflow */
      crisp_poly1305_blocks_x86_64(state, data, nblocks, 1);
      return;
    }
    st->scalar.lanes_streaming = 1;
  }
  size_t pending = st->scalar.pending_blocks;
  if (pending) {
    size_t take = LANES - pending;
    if (take > nblocks) take = nblocks;
    memcpy(st->pending + BLOCK * pending, data, BLOCK * take);
    pending += take, data += BLOCK * take, nblocks -= take;
    if (pending == LANES) pending = lanes_absorb(st, st->pending, LANES);
  }
  if (nblocks >= LANES) {
    const size_t left = lanes_absorb(st, data, nblocks);
    data += BLOCK * (nblocks - left), nblocks = left;
  }
  if (nblocks) {
    memcpy(st->pending + BLOCK * pending, data, BLOCK * nblocks);
    pending += nblocks;
  }
  st->scalar.pending_blocks = (uint8_t)pending;
}

void crisp_poly1305_finish_avx512ifma(void *state, uint8_t tag[16]) {
  ifma_state *st = state;
  const int wrote_tables = st->scalar.powers_ready | st->scalar.lanes_streaming;
  if (st->scalar.lanes_streaming) lanes_end(st);
  poly1305_radix64_tag(st->scalar.h, st->scalar.s, tag);
  /* lengths, not secrets, decide how much was written */
  if (wrote_tables)
    crisp_wipe_lines(st, CRISP_POLY1305_STATE_SIZE);
  else
    crisp_wipe(st, sizeof st->scalar);
}

/* A state leaves the scalar code at the cold crossover, or at the warm
 * one once it has taken that many blocks. */
static size_t vector_from_avx512ifma(void) {
  const size_t cold = IFMA_COLD_BLOCKS, warm = IFMA_WARM_BLOCKS;
  return 16 * (cold < warm ? cold : warm);
}

const crisp_poly1305_impl crisp_poly1305_avx512ifma_impl = {
    .info = CRISP_IMPL_INFO(crisp_poly1305_avx512ifma_impl),
    .init = crisp_poly1305_init_x86_64,
    .blocks = crisp_poly1305_blocks_avx512ifma,
    .finish = crisp_poly1305_finish_avx512ifma,
    .vector_from = vector_from_avx512ifma,
};
