/* src/x86/poly1305_radix26.h - the radix 2^26 vector Poly1305 loop, written
 * once over a few vector operations that poly1305_avx2.c (4 lanes, ymm) and
 * poly1305_avx512.c (8 lanes, zmm) define before including it.
 *
 * Layout: five 26-bit limbs of one block per 64-bit lane, one vector per
 * limb; vpmuludq multiplies the low 32 bits of each lane. One step absorbs
 * LANES blocks: every lane times r^LANES, then the next blocks added. At the
 * end the lane holding block j of the last chunk is multiplied by
 * r^(LANES - j) and the lanes are summed into the scalar radix 2^64
 * accumulator of poly1305_scalar.c, which the first step took in lane 0.
 *
 * The including file defines: VECTOR (the type), LANES,
 * V_SET1(u64), V_LANE0(u64) (the value in lane 0, zeros elsewhere),
 * V_ADD, V_MUL (32x32->64 per lane), V_AND, V_OR, V_SRL(v, n), V_SLL(v, n),
 * V_LOAD (any 8-byte alignment: see below), V_SUM(v) (the lanes' sum as uint64_t), LANE_BLOCK (an
 * array: the block of a chunk each lane takes), and
 * load_words(data, &low, &high): the low and high 64-bit halves of LANES
 * blocks, lane k holding block LANE_BLOCK[k]. */
#ifndef CRISP_SRC_X86_POLY1305_RADIX26_H
#define CRISP_SRC_X86_POLY1305_RADIX26_H

#include "util.h"
#include "x86/poly1305_scalar.h"

#define MASK26 ((1ull << 26) - 1)
#define POWER_LIMBS 9 /* r0..r4, then 5 r1..5 r4 */

/* step[limb]: r^LANES broadcast per step; lane[limb][k]: the power of r that
 * lane k is multiplied by at the end, r^(LANES - LANE_BLOCK[k]). */
typedef struct radix26_state {
  crisp_poly1305_x86_64_state scalar;
  uint64_t lane[POWER_LIMBS][LANES];
  uint64_t step[POWER_LIMBS];
} radix26_state;

_Static_assert(sizeof(radix26_state) <= CRISP_POLY1305_STATE_SIZE, "state fits the context");
/* The state is only as aligned as the caller's context (8 bytes or more),
 * so the table loads are unaligned ones; they cost the same as aligned ones
 * when the context is on a 64-byte boundary, which puts each row in one
 * cache line. */
_Static_assert(offsetof(radix26_state, lane) % 64 == 0, "table rows start cache lines in an aligned context");

/* Named fields, not arrays: gcc 12 keeps vector arrays in memory. */
typedef struct limbs26 {
  VECTOR l0, l1, l2, l3, l4;
} limbs26;

typedef struct multiplier26 {
  VECTOR r0, r1, r2, r3, r4, s1, s2, s3, s4; /* s = 5 r: limb products at 2^130 and up */
} multiplier26;

static void store_power(uint64_t *column, size_t stride, const uint64_t x[3]) {
  const uint64_t limb[5] = {x[0] & MASK26, (x[0] >> 26) & MASK26, (x[0] >> 52 | x[1] << 12) & MASK26,
                            (x[1] >> 14) & MASK26, x[1] >> 40 | x[2] << 24};
  for (int i = 0; i < 5; i++) column[i * stride] = limb[i];
  for (int i = 1; i < 5; i++) column[(4 + i) * stride] = 5 * limb[i];
}

static void compute_powers(radix26_state *st) {
  uint64_t power[LANES + 1][3] = {{st->scalar.r[0], st->scalar.r[1], 0}};
  for (int e = 1; e < LANES; e++) {
    for (int i = 0; i < 3; i++) power[e][i] = power[e - 1][i];
    crisp_poly1305_mul_x86_64(power[e], st->scalar.r); /* power[e] = r^(e + 1) */
  }
  for (int k = 0; k < LANES; k++) store_power(&st->lane[0][k], LANES, power[LANES - LANE_BLOCK[k] - 1]);
  store_power(st->step, 1, power[LANES - 1]);
  st->scalar.powers_ready = 1;
  crisp_wipe(power, sizeof power);
}

static inline multiplier26 step_multiplier(const radix26_state *st) {
  const uint64_t *p = st->step;
  multiplier26 m = {V_SET1(p[0]), V_SET1(p[1]), V_SET1(p[2]), V_SET1(p[3]), V_SET1(p[4]),
                    V_SET1(p[5]), V_SET1(p[6]), V_SET1(p[7]), V_SET1(p[8])};
  return m;
}

static inline multiplier26 lane_multiplier(const radix26_state *st) {
  multiplier26 m = {V_LOAD(st->lane[0]), V_LOAD(st->lane[1]), V_LOAD(st->lane[2]),
                    V_LOAD(st->lane[3]), V_LOAD(st->lane[4]), V_LOAD(st->lane[5]),
                    V_LOAD(st->lane[6]), V_LOAD(st->lane[7]), V_LOAD(st->lane[8])};
  return m;
}

/* LANES blocks as limbs; top is 2^128 at bit 24 of limb 4, or 0. */
static inline limbs26 load_blocks(const uint8_t *data, VECTOR top) {
  VECTOR low, high;
  load_words(data, &low, &high);
  const VECTOR mask = V_SET1(MASK26);
  limbs26 m = {V_AND(low, mask), V_AND(V_SRL(low, 26), mask),
               V_AND(V_OR(V_SRL(low, 52), V_SLL(high, 12)), mask), V_AND(V_SRL(high, 14), mask),
               V_OR(V_SRL(high, 40), top)};
  return m;
}

static inline limbs26 add_limbs(limbs26 a, limbs26 b) {
  limbs26 sum = {V_ADD(a.l0, b.l0), V_ADD(a.l1, b.l1), V_ADD(a.l2, b.l2), V_ADD(a.l3, b.l3),
                 V_ADD(a.l4, b.l4)};
  return sum;
}

/* Five products summed as a tree, so the additions do not form one chain. */
#define SUM5(a0, b0, a1, b1, a2, b2, a3, b3, a4, b4) \
  V_ADD(V_ADD(V_MUL(a0, b0), V_MUL(a1, b1)), V_ADD(V_ADD(V_MUL(a2, b2), V_MUL(a3, b3)), V_MUL(a4, b4)))

/* h * m mod p. Limbs below 2^28 on entry; table entries below 2^30 (the
 * powers are only partly reduced, so the top limb may reach 2^27 and 5 times
 * it 2^30); products below 2^58, five of them below 2^61. Limbs below
 * 2^26 + 2^12 on return (one carry pass). */
static inline limbs26 multiply(limbs26 h, const multiplier26 *m) {
  VECTOR d0 = SUM5(h.l0, m->r0, h.l1, m->s4, h.l2, m->s3, h.l3, m->s2, h.l4, m->s1);
  VECTOR d1 = SUM5(h.l0, m->r1, h.l1, m->r0, h.l2, m->s4, h.l3, m->s3, h.l4, m->s2);
  VECTOR d2 = SUM5(h.l0, m->r2, h.l1, m->r1, h.l2, m->r0, h.l3, m->s4, h.l4, m->s3);
  VECTOR d3 = SUM5(h.l0, m->r3, h.l1, m->r2, h.l2, m->r1, h.l3, m->r0, h.l4, m->s4);
  VECTOR d4 = SUM5(h.l0, m->r4, h.l1, m->r3, h.l2, m->r2, h.l3, m->r1, h.l4, m->r0);
  const VECTOR mask = V_SET1(MASK26);
  /* two carry chains, d0 -> d1 -> d2 -> d3 and d3 -> d4 -> (times 5) d0 -> d1, interleaved */
  d1 = V_ADD(d1, V_SRL(d0, 26)), d0 = V_AND(d0, mask);
  d4 = V_ADD(d4, V_SRL(d3, 26)), d3 = V_AND(d3, mask);
  d2 = V_ADD(d2, V_SRL(d1, 26)), d1 = V_AND(d1, mask);
  VECTOR carry = V_SRL(d4, 26);
  d4 = V_AND(d4, mask);
  d0 = V_ADD(d0, V_ADD(carry, V_SLL(carry, 2)));
  d3 = V_ADD(d3, V_SRL(d2, 26)), d2 = V_AND(d2, mask);
  d1 = V_ADD(d1, V_SRL(d0, 26)), d0 = V_AND(d0, mask);
  d4 = V_ADD(d4, V_SRL(d3, 26)), d3 = V_AND(d3, mask);
  limbs26 out = {d0, d1, d2, d3, d4};
  return out;
}

/* Absorbs nblocks (at least LANES) blocks; returns how many it left for the
 * scalar code (fewer than LANES). A call of its own (the crossover's vector
 * loop): its spills stay out of the frame the short calls use. */
static __attribute__((noinline)) size_t blocks_vector(void *state, const uint8_t *data, size_t nblocks,
                                                      unsigned hibit) {
  radix26_state *st = state;
  if (!st->scalar.powers_ready) compute_powers(st);
  crisp_poly1305_x86_64_state *scalar = &st->scalar;
  const VECTOR top = V_SET1(hibit ? 1ull << 24 : 0);
  const uint64_t h0 = scalar->h[0], h1 = scalar->h[1], h2 = scalar->h[2];
  const limbs26 h = {V_LANE0(h0 & MASK26), V_LANE0((h0 >> 26) & MASK26),
                     V_LANE0((h0 >> 52 | h1 << 12) & MASK26), V_LANE0((h1 >> 14) & MASK26),
                     V_LANE0(h1 >> 40 | h2 << 24)};
  limbs26 acc = add_limbs(h, load_blocks(data, top));
  data += 16 * LANES, nblocks -= LANES;
  if (nblocks >= LANES) {
    const multiplier26 step = step_multiplier(st);
    for (; nblocks >= LANES; data += 16 * LANES, nblocks -= LANES)
      acc = add_limbs(multiply(acc, &step), load_blocks(data, top));
  }
  const multiplier26 lanes = lane_multiplier(st);
  acc = multiply(acc, &lanes);
  /* each lane sum below LANES 2^27: l0 + l1 2^26 + ... + l4 2^104 */
  typedef unsigned __int128 u128;
  const uint64_t l[5] = {V_SUM(acc.l0), V_SUM(acc.l1), V_SUM(acc.l2), V_SUM(acc.l3), V_SUM(acc.l4)};
  u128 t = (u128)l[0] + ((u128)l[1] << 26) + ((u128)l[2] << 52);
  scalar->h[0] = (uint64_t)t;
  t = (t >> 64) + ((u128)l[3] << 14) + ((u128)l[4] << 40);
  scalar->h[1] = (uint64_t)t;
  scalar->h[2] = (uint64_t)(t >> 64);
  poly1305_radix64_fold(scalar->h);
  return nblocks;
}

#endif
