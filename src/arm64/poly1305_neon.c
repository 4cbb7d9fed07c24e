/* src/arm64/poly1305_neon.c - Poly1305 for AArch64 with NEON, four blocks per step.
 *
 * Layout: radix 2^26, five limbs in 32-bit lanes of uint32x2_t. Lane 0
 * accumulates blocks 0, 2, 4, ..., lane 1 blocks 1, 3, 5, ...; a step of four
 * blocks is A = A * r^4 + (m0, m1) * r^2 + (m2, m3), products by UMULL/UMLAL
 * (32x32->64), one lazy carry pass per step. At the end of a run the lanes
 * are multiplied by (r^2, r) and summed. r, r^2, r^4 and their multiples
 * by 5 are computed on the first long update and cached in the state.
 * Between calls h is kept in the scalar radix 2^64 form of
 * poly1305_arm64.h; a vector run converts it in and out with every carry
 * kept, so short and long updates mix freely in one stream.
 * Length awareness: a call with fewer than CROSSOVER_BLOCKS blocks stays
 * scalar (radix 2^64, MUL/UMULH), as does the odd block a run leaves.
 * CROSSOVER_BLOCKS = 16 (256 bytes) is the gate the JDK put in front of its
 * vector Poly1305, a conservative value rather than a measured crossover
 * (docs/performance.md says where arm64 figures come from).
 * ISA: ARMv8-A ASIMD. Lengths: long messages (>= 256 bytes per update). */
#include "arm64/poly1305_arm64.h"

#if defined(CRISP_ARCH_ARM64)

#include <arm_neon.h>
#include <stddef.h>

#define CROSSOVER_BLOCKS 16
#define MASK26 0x3ffffffu

void crisp_poly1305_init_neon(void *state, const uint8_t key[32]);
void crisp_poly1305_blocks_neon(void *state, const uint8_t *data, size_t nblocks, unsigned hibit);
void crisp_poly1305_finish_neon(void *state, uint8_t tag[16]);

/* The scalar state first, so the scalar core works on it in place. Powers
 * are stored lane-ready: power[k][i] for limb i of r^(k) as one 32-bit word
 * and times5[k][i] = 5 * power[k][i]; final holds (r^2, r) pairs per limb. */
typedef struct poly1305_neon_state {
  poly1305_arm64_state scalar;
  uint64_t powers_ready; /* a length-driven flag, not secret */
  uint32_t r2[5], r2_times5[5];
  uint32_t r4[5], r4_times5[5];
  uint32_t final[5][2], final_times5[5][2];
} poly1305_neon_state;

_Static_assert(sizeof(poly1305_neon_state) <= CRISP_POLY1305_STATE_SIZE, "state fits the context");
_Static_assert(offsetof(poly1305_neon_state, r2) <= CRISP_POLY1305_SHORT_STATE_SIZE,
               "a short message keeps to the head");

/* a = a * b mod p in radix 2^26 with a one-pass carry, for the powers: limbs
 * of the result below 2^26 except limb 1, below 2^26 + 2^13. */
static void mul26(uint32_t a[5], const uint32_t b[5]) {
  const uint64_t b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3], b4 = b[4];
  const uint64_t s1 = 5 * b1, s2 = 5 * b2, s3 = 5 * b3, s4 = 5 * b4;
  const uint64_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4];
  uint64_t d0 = a0 * b0 + a1 * s4 + a2 * s3 + a3 * s2 + a4 * s1;
  uint64_t d1 = a0 * b1 + a1 * b0 + a2 * s4 + a3 * s3 + a4 * s2;
  uint64_t d2 = a0 * b2 + a1 * b1 + a2 * b0 + a3 * s4 + a4 * s3;
  uint64_t d3 = a0 * b3 + a1 * b2 + a2 * b1 + a3 * b0 + a4 * s4;
  uint64_t d4 = a0 * b4 + a1 * b3 + a2 * b2 + a3 * b1 + a4 * b0;
  d1 += d0 >> 26, d0 &= MASK26;
  d2 += d1 >> 26, d1 &= MASK26;
  d3 += d2 >> 26, d2 &= MASK26;
  d4 += d3 >> 26, d3 &= MASK26;
  d0 += (d4 >> 26) * 5, d4 &= MASK26;
  d1 += d0 >> 26, d0 &= MASK26;
  a[0] = (uint32_t)d0, a[1] = (uint32_t)d1, a[2] = (uint32_t)d2, a[3] = (uint32_t)d3, a[4] = (uint32_t)d4;
}

/* Never inlined, as absorb_vector: the short calls' frames stay small. */
static __attribute__((noinline)) void compute_powers(poly1305_neon_state *st) {
  const uint64_t r0 = st->scalar.r[0], r1 = st->scalar.r[1];
  uint32_t r[5] = {(uint32_t)r0 & MASK26, (uint32_t)(r0 >> 26) & MASK26,
                   (uint32_t)(r0 >> 52 | r1 << 12) & MASK26, (uint32_t)(r1 >> 14) & MASK26,
                   (uint32_t)(r1 >> 40)};
  uint32_t power[5];
  for (int i = 0; i < 5; i++) power[i] = r[i];
  mul26(power, r);
  for (int i = 0; i < 5; i++) st->r2[i] = power[i], st->r2_times5[i] = 5 * power[i];
  mul26(power, power);
  for (int i = 0; i < 5; i++) st->r4[i] = power[i], st->r4_times5[i] = 5 * power[i];
  for (int i = 0; i < 5; i++) {
    st->final[i][0] = st->r2[i], st->final[i][1] = r[i];
    st->final_times5[i][0] = st->r2_times5[i], st->final_times5[i][1] = 5 * r[i];
  }
  st->powers_ready = 1;
}

typedef struct limbs26 {
  uint32x2_t v[5];
} limbs26;

typedef struct wide26 {
  uint64x2_t v[5];
} wide26;

/* d += a * b mod p, b given as limbs b[] and 5 * limbs s[] (2^130 = 5). */
static inline void mul_acc(wide26 *d, const limbs26 *a, const uint32x2_t b[5], const uint32x2_t s[5]) {
#define ROW(k, t0, t1, t2, t3, t4)           \
  d->v[k] = vmlal_u32(d->v[k], a->v[0], t0); \
  d->v[k] = vmlal_u32(d->v[k], a->v[1], t1); \
  d->v[k] = vmlal_u32(d->v[k], a->v[2], t2); \
  d->v[k] = vmlal_u32(d->v[k], a->v[3], t3); \
  d->v[k] = vmlal_u32(d->v[k], a->v[4], t4)
  ROW(0, b[0], s[4], s[3], s[2], s[1]);
  ROW(1, b[1], b[0], s[4], s[3], s[2]);
  ROW(2, b[2], b[1], b[0], s[4], s[3]);
  ROW(3, b[3], b[2], b[1], b[0], s[4]);
  ROW(4, b[4], b[3], b[2], b[1], b[0]);
#undef ROW
}

/* One carry pass: every sum below 2^59 comes back to limbs below 2^26,
 * limb 1 below 2^26 + 2^11. */
static inline limbs26 carry26(wide26 d) {
  const uint64x2_t mask = vdupq_n_u64(MASK26);
  d.v[1] = vaddq_u64(d.v[1], vshrq_n_u64(d.v[0], 26)), d.v[0] = vandq_u64(d.v[0], mask);
  d.v[2] = vaddq_u64(d.v[2], vshrq_n_u64(d.v[1], 26)), d.v[1] = vandq_u64(d.v[1], mask);
  d.v[3] = vaddq_u64(d.v[3], vshrq_n_u64(d.v[2], 26)), d.v[2] = vandq_u64(d.v[2], mask);
  d.v[4] = vaddq_u64(d.v[4], vshrq_n_u64(d.v[3], 26)), d.v[3] = vandq_u64(d.v[3], mask);
  const uint64x2_t over = vshrq_n_u64(d.v[4], 26);
  d.v[4] = vandq_u64(d.v[4], mask);
  d.v[0] = vaddq_u64(d.v[0], vaddq_u64(over, vshlq_n_u64(over, 2)));
  d.v[1] = vaddq_u64(d.v[1], vshrq_n_u64(d.v[0], 26)), d.v[0] = vandq_u64(d.v[0], mask);
  limbs26 out;
  for (int i = 0; i < 5; i++) out.v[i] = vmovn_u64(d.v[i]);
  return out;
}

/* Two consecutive blocks as limbs: lane 0 the first, lane 1 the second,
 * each plus 2^128 (hibit is 1 on every vector path). */
static inline limbs26 load_pair(const uint8_t *data) {
  const uint64x2x2_t words = vld2q_u64((const uint64_t *)(const void *)data); /* lo halves, hi halves */
  const uint64x2_t lo = words.val[0], hi = words.val[1], mask = vdupq_n_u64(MASK26);
  limbs26 m;
  m.v[0] = vmovn_u64(vandq_u64(lo, mask));
  m.v[1] = vmovn_u64(vandq_u64(vshrq_n_u64(lo, 26), mask));
  m.v[2] = vmovn_u64(vandq_u64(vorrq_u64(vshrq_n_u64(lo, 52), vshlq_n_u64(hi, 12)), mask));
  m.v[3] = vmovn_u64(vandq_u64(vshrq_n_u64(hi, 14), mask));
  m.v[4] = vmovn_u64(vorrq_u64(vshrq_n_u64(hi, 40), vdupq_n_u64(1u << 24)));
  return m;
}

static inline wide26 wide_zero(void) {
  wide26 d;
  for (int i = 0; i < 5; i++) d.v[i] = vdupq_n_u64(0);
  return d;
}

/* Absorbs an even number (>= 2) of full blocks into the scalar h. Never
 * inlined: its vectors' spills stay out of the frame the short calls use. */
static __attribute__((noinline)) void absorb_vector(poly1305_neon_state *st, const uint8_t *data,
                                                    size_t nblocks) {
  uint32x2_t r2[5], r2s[5], r4[5], r4s[5], fin[5], fins[5];
  for (int i = 0; i < 5; i++) {
    r2[i] = vdup_n_u32(st->r2[i]), r2s[i] = vdup_n_u32(st->r2_times5[i]);
    r4[i] = vdup_n_u32(st->r4[i]), r4s[i] = vdup_n_u32(st->r4_times5[i]);
    fin[i] = vld1_u32(st->final[i]), fins[i] = vld1_u32(st->final_times5[i]);
  }

  /* h (h2 <= 4) into radix 2^26 in lane 0; limb 4 stays below 2^27. */
  const uint64_t h0 = st->scalar.h[0], h1 = st->scalar.h[1], h2 = st->scalar.h[2];
  const uint32_t h_limbs[5][2] = {{(uint32_t)h0 & MASK26, 0},
                                  {(uint32_t)(h0 >> 26) & MASK26, 0},
                                  {(uint32_t)(h0 >> 52 | h1 << 12) & MASK26, 0},
                                  {(uint32_t)(h1 >> 14) & MASK26, 0},
                                  {(uint32_t)(h1 >> 40 | h2 << 24), 0}};
  limbs26 acc = load_pair(data);
  for (int i = 0; i < 5; i++) acc.v[i] = vadd_u32(acc.v[i], vld1_u32(h_limbs[i]));
  data += 32, nblocks -= 2;

  for (; nblocks >= 4; nblocks -= 4, data += 64) {
    const limbs26 first = load_pair(data), second = load_pair(data + 32);
    wide26 d = wide_zero();
    mul_acc(&d, &acc, r4, r4s);
    mul_acc(&d, &first, r2, r2s);
    for (int i = 0; i < 5; i++) d.v[i] = vaddw_u32(d.v[i], second.v[i]);
    acc = carry26(d);
  }
  if (nblocks) { /* two left */
    const limbs26 next = load_pair(data);
    wide26 d = wide_zero();
    mul_acc(&d, &acc, r2, r2s);
    for (int i = 0; i < 5; i++) d.v[i] = vaddw_u32(d.v[i], next.v[i]);
    acc = carry26(d);
  }

  /* Lane 0 times r^2 plus lane 1 times r, then back to radix 2^64. */
  wide26 d = wide_zero();
  mul_acc(&d, &acc, fin, fins);
  uint64_t s[5];
  for (int i = 0; i < 5; i++) s[i] = vaddvq_u64(d.v[i]);
  s[1] += s[0] >> 26, s[0] &= MASK26;
  s[2] += s[1] >> 26, s[1] &= MASK26;
  s[3] += s[2] >> 26, s[2] &= MASK26;
  s[4] += s[3] >> 26, s[3] &= MASK26;
  s[0] += (s[4] >> 26) * 5, s[4] &= MASK26;
  s[1] += s[0] >> 26, s[0] &= MASK26;
  /* Sums, not ORs: limb 1 may be a little over 26 bits. */
  const poly1305_u128 low = s[0] + ((poly1305_u128)s[1] << 26) + ((poly1305_u128)s[2] << 52);
  const poly1305_u128 high = (low >> 64) + ((poly1305_u128)s[3] << 14) + ((poly1305_u128)s[4] << 40);
  st->scalar.h[0] = (uint64_t)low, st->scalar.h[1] = (uint64_t)high, st->scalar.h[2] = (uint64_t)(high >> 64);
  poly1305_radix64_fold(st->scalar.h);
}

void crisp_poly1305_init_neon(void *state, const uint8_t key[32]) {
  poly1305_neon_state *st = state;
  poly1305_arm64_init_state(&st->scalar, key);
  st->powers_ready = 0; /* computed on the first update long enough to use them */
}

void crisp_poly1305_blocks_neon(void *state, const uint8_t *data, size_t nblocks, unsigned hibit) {
  poly1305_neon_state *st = state;
  if (nblocks >= CROSSOVER_BLOCKS && hibit) {
    if (!st->powers_ready) compute_powers(st);
    const size_t even = nblocks & ~(size_t)1;
    absorb_vector(st, data, even);
    data += 16 * even, nblocks -= even;
  }
  if (nblocks) poly1305_arm64_absorb(&st->scalar, data, nblocks, hibit ? 1 : 0);
}

void crisp_poly1305_finish_neon(void *state, uint8_t tag[16]) {
  poly1305_neon_state *st = state;
  poly1305_radix64_tag(st->scalar.h, st->scalar.pad, tag);
  /* a state that never computed the powers wrote only its head; lengths,
   * not secrets, decide which */
  crisp_wipe(st, st->powers_ready ? sizeof *st : offsetof(poly1305_neon_state, r2));
}

const crisp_poly1305_impl crisp_poly1305_neon_impl = {
    .info = CRISP_IMPL_INFO(crisp_poly1305_neon_impl),
    .init = crisp_poly1305_init_neon,
    .blocks = crisp_poly1305_blocks_neon,
    .finish = crisp_poly1305_finish_neon,
    .tag_pieces = crisp_poly1305_tag_pieces_arm64,
};

#endif
