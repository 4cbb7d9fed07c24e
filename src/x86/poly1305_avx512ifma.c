/* src/x86/poly1305_avx512ifma.c - Poly1305 with AVX-512 IFMA, radix 2^44.
 *
 * Layout: three limbs of 44, 44 and 42 bits, one 64-bit lane per block; two
 * zmm accumulators of eight lanes each, the older and the newer. While they
 * hold the message, its hash is the older's lanes times r^16..r^9 plus the
 * newer's times r^8..r^1. A step of eight blocks multiplies the older by
 * r^16, adds the blocks, and makes it the newer; two steps (16 blocks) keep
 * the roles, which is the loop of long calls.
 * The arithmetic (products with vpmadd52luq / vpmadd52huq, the powers, the
 * sum over lanes) is x86/poly1305_ifma44.h's.
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
#include "x86/poly1305_ifma44.h"
#include "x86/poly1305_scalar.h"

#define LANES 8
#define STEP_BLOCKS (2 * LANES)
#define BLOCK 16

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

/* r^(16-k) in every lane. */
static inline multiplier44 broadcast_power(const ifma_state *st, int k) {
  const limbs44 p = {_mm512_set1_epi64((long long)st->power[0][k]),
                     _mm512_set1_epi64((long long)st->power[1][k]),
                     _mm512_set1_epi64((long long)st->power[2][k])};
  return ifma44_multiplier(p);
}

/* r^(16-first-i) in lane i. */
static inline multiplier44 lane_powers(const ifma_state *st, int first) {
  const limbs44 p = {_mm512_loadu_si512(&st->power[0][first]), _mm512_loadu_si512(&st->power[1][first]),
                     _mm512_loadu_si512(&st->power[2][first])};
  return ifma44_multiplier(p);
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

static inline void store_powers(ifma_state *st, int first, limbs44 p) {
  _mm512_storeu_si512(&st->power[0][first], p.l0);
  _mm512_storeu_si512(&st->power[1][first], p.l1);
  _mm512_storeu_si512(&st->power[2][first], p.l2);
}

/* r^1..r^16 for the table (ifma44_powers_step), built in vector registers
 * from r, so nothing waits for scalar results to reach memory and come back
 * as vectors; the first long call of a key pays this chain before its first
 * multiply. */
static void compute_powers(ifma_state *st) {
  limbs44 high, low;
  ifma44_powers(st->scalar.r[0], st->scalar.r[1], &high, &low);
  store_powers(st, LANES, low);
  store_powers(st, 0, high);
  st->scalar.powers_ready = 1;
}

/* The scalar accumulator as limbs in lane 0, zero elsewhere; h2 below 8. */
static inline limbs44 take_accumulator(const crisp_poly1305_x86_64_state *scalar) {
  return ifma44_from_radix64(1, scalar->h[0], scalar->h[1], scalar->h[2]);
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
    older = ifma44_add(take_accumulator(&st->scalar), ifma44_load_blocks(data));
    newer = ifma44_load_blocks(data + BLOCK * LANES);
    data += BLOCK * STEP_BLOCKS, nblocks -= STEP_BLOCKS;
  } else {
    const __m512i zero = _mm512_setzero_si512();
    older = (limbs44){zero, zero, zero};
    newer = ifma44_add(take_accumulator(&st->scalar), ifma44_load_blocks(data));
    data += BLOCK * LANES, nblocks -= LANES;
  }
  st->scalar.lanes_started = 1;
  for (; nblocks >= STEP_BLOCKS; data += BLOCK * STEP_BLOCKS, nblocks -= STEP_BLOCKS) {
    older = ifma44_add(ifma44_multiply(older, &r16), ifma44_load_blocks(data));
    newer = ifma44_add(ifma44_multiply(newer, &r16), ifma44_load_blocks(data + BLOCK * LANES));
  }
  if (nblocks >= LANES) {
    const limbs44 stepped = ifma44_add(ifma44_multiply(older, &r16), ifma44_load_blocks(data));
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
  const multiplier44 high = lane_powers(st, 0), low = lane_powers(st, LANES);
  const columns44 older = ifma44_columns(ifma44_no_columns(), load_lanes(st, 0), &high);
  ifma44_sum_columns(ifma44_columns(older, load_lanes(st, 1), &low), st->scalar.h);
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
  const limbs44 stepped = ifma44_add(ifma44_multiply(load_lanes(st, 0), &r16), ifma44_load_blocks(data));
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
    .tag_pieces = crisp_poly1305_tag_pieces_x86_64,
    .vector_from = vector_from_avx512ifma,
};
