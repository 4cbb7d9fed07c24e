/* src/arm64/md5_many_neon.c - MD5 of up to four messages at once in NEON lanes.
 *
 * Layout: one message per 32-bit lane of a 128-bit register, so A, B, C, D
 * and each of the sixteen message words are one uint32x4_t holding lanes
 * 0..3. A block of every lane is loaded as four 16-byte rows per lane and
 * transposed with TRN1/TRN2 (no gathers). F is one BSL, G one BSL with the
 * operands swapped, I an ORN and EOR; rotates are SHL + SRI (REV32 on
 * halfwords for the rotate by 16).
 * Scheduling: four slots take messages in order; each run goes as many
 * blocks as the shortest busy slot has left, then a finished slot is
 * refilled with the next message. An idle slot hashes a dummy block into a
 * dummy state. Once the queue is empty and at most FEW_LANES slots are
 * busy, the rest goes through the scalar arm64 kernel, which beats a
 * half-empty vector.
 * ISA: ARMv8-A ASIMD. Lengths: many messages of a few blocks or more each.
 * FEW_LANES comes from the cycle model, not a measurement: a NEON step has about twice
 * the latency of a scalar one (2-cycle vector ALUs), so a 4-lane block costs
 * about two scalar blocks and two busy lanes break even. */
#include "arm64/arm64.h"
#include "md5_schedule.h"

#if defined(CRISP_ARCH_ARM64)

#include <arm_neon.h>
#include <string.h>

#define LANES 4
#define BLOCK 64
/* Busy slots at or below which the scalar kernel finishes the work. */
#define FEW_LANES 1

void crisp_md5_many_neon(uint32_t *const state[], const uint8_t *const data[], const size_t nblocks[],
                         size_t n);

/* Shift counts are literals at every call, so both intrinsic forms get
 * constant immediates (the unused one a dummy 1). */
#define ROTL(v, s)                                                          \
  ((s) == 16 ? vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(v))) \
             : vsriq_n_u32(vshlq_n_u32((v), (s) == 16 ? 1 : (s)), (v), (s) == 16 ? 1 : 32 - (s)))

#define FUNC_F(b, c, d) vbslq_u32((b), (c), (d))
#define FUNC_G(b, c, d) vbslq_u32((d), (b), (c))
#define FUNC_H(b, c, d) veorq_u32(veorq_u32((b), (c)), (d))
#define FUNC_I(b, c, d) veorq_u32((c), vornq_u32((b), (d)))

/* The word plus constant sum depends on nothing in the chain. */
#define STEP(fn, a, b, c, d, word, constant, shift)                           \
  (a) = vaddq_u32((a), vaddq_u32((word), vdupq_n_u32((uint32_t)(constant)))); \
  (a) = vaddq_u32((a), fn((b), (c), (d)));                                    \
  (a) = vaddq_u32(ROTL((a), (shift)), (b))

/* One step of the schedule (md5_schedule.h) on the word vectors w[]. */
#define SCHEDULE_STEP(round, a, b, c, d, k, constant, shift) \
  STEP(FUNC_##round, a, b, c, d, w[k], constant, shift)

/* Words 4*row .. 4*row+3 of the four lanes' blocks, one vector per word. */
static inline void load_row(uint32x4_t w[16], const uint8_t *const lane[LANES], int row) {
  const uint32x4_t r0 = vreinterpretq_u32_u8(vld1q_u8(lane[0] + 16 * row));
  const uint32x4_t r1 = vreinterpretq_u32_u8(vld1q_u8(lane[1] + 16 * row));
  const uint32x4_t r2 = vreinterpretq_u32_u8(vld1q_u8(lane[2] + 16 * row));
  const uint32x4_t r3 = vreinterpretq_u32_u8(vld1q_u8(lane[3] + 16 * row));
  const uint64x2_t t0 = vreinterpretq_u64_u32(vtrn1q_u32(r0, r1)); /* r0[0] r1[0] r0[2] r1[2] */
  const uint64x2_t t1 = vreinterpretq_u64_u32(vtrn2q_u32(r0, r1)); /* r0[1] r1[1] r0[3] r1[3] */
  const uint64x2_t t2 = vreinterpretq_u64_u32(vtrn1q_u32(r2, r3));
  const uint64x2_t t3 = vreinterpretq_u64_u32(vtrn2q_u32(r2, r3));
  w[4 * row + 0] = vreinterpretq_u32_u64(vtrn1q_u64(t0, t2));
  w[4 * row + 1] = vreinterpretq_u32_u64(vtrn1q_u64(t1, t3));
  w[4 * row + 2] = vreinterpretq_u32_u64(vtrn2q_u64(t0, t2));
  w[4 * row + 3] = vreinterpretq_u32_u64(vtrn2q_u64(t1, t3));
}

/* count blocks of each lane; lane i's pointer advances by stride[i] per
 * block (0 for an idle lane on its dummy block); states in and out. */
static void md5_x4(uint32_t *const lane_state[LANES], const uint8_t *lane[LANES], const size_t stride[LANES],
                   size_t count) {
  uint32x4_t sa, sb, sc, sd;
  {
    const uint32x4_t s0 = vld1q_u32(lane_state[0]), s1 = vld1q_u32(lane_state[1]);
    const uint32x4_t s2 = vld1q_u32(lane_state[2]), s3 = vld1q_u32(lane_state[3]);
    const uint64x2_t t0 = vreinterpretq_u64_u32(vtrn1q_u32(s0, s1)),
                     t1 = vreinterpretq_u64_u32(vtrn2q_u32(s0, s1));
    const uint64x2_t t2 = vreinterpretq_u64_u32(vtrn1q_u32(s2, s3)),
                     t3 = vreinterpretq_u64_u32(vtrn2q_u32(s2, s3));
    sa = vreinterpretq_u32_u64(vtrn1q_u64(t0, t2));
    sb = vreinterpretq_u32_u64(vtrn1q_u64(t1, t3));
    sc = vreinterpretq_u32_u64(vtrn2q_u64(t0, t2));
    sd = vreinterpretq_u32_u64(vtrn2q_u64(t1, t3));
  }
  for (; count; count--) {
    uint32x4_t w[16];
    for (int row = 0; row < 4; row++) load_row(w, lane, row);
    for (int i = 0; i < LANES; i++) lane[i] += stride[i];
    uint32x4_t a = sa, b = sb, c = sc, d = sd;

    MD5_BLOCK_STEPS(SCHEDULE_STEP);

    sa = vaddq_u32(sa, a), sb = vaddq_u32(sb, b), sc = vaddq_u32(sc, c), sd = vaddq_u32(sd, d);
  }
  /* The transpose is its own inverse. */
  const uint64x2_t t0 = vreinterpretq_u64_u32(vtrn1q_u32(sa, sb)),
                   t1 = vreinterpretq_u64_u32(vtrn2q_u32(sa, sb));
  const uint64x2_t t2 = vreinterpretq_u64_u32(vtrn1q_u32(sc, sd)),
                   t3 = vreinterpretq_u64_u32(vtrn2q_u32(sc, sd));
  vst1q_u32(lane_state[0], vreinterpretq_u32_u64(vtrn1q_u64(t0, t2)));
  vst1q_u32(lane_state[1], vreinterpretq_u32_u64(vtrn1q_u64(t1, t3)));
  vst1q_u32(lane_state[2], vreinterpretq_u32_u64(vtrn2q_u64(t0, t2)));
  vst1q_u32(lane_state[3], vreinterpretq_u32_u64(vtrn2q_u64(t1, t3)));
}

void crisp_md5_many_neon(uint32_t *const state[], const uint8_t *const data[], const size_t nblocks[],
                         size_t n) {
  /* An idle slot reads this block and writes this state; both are thrown away. */
  static const uint8_t idle_block[BLOCK];
  uint32_t idle_state[4] = {0, 0, 0, 0};
  uint32_t *slot_state[LANES];
  const uint8_t *slot_data[LANES];
  size_t slot_left[LANES], slot_stride[LANES];
  size_t next = 0, busy = 0;

  for (int i = 0; i < LANES; i++) slot_left[i] = 0;
  for (;;) {
    /* Refill every free slot from the queue, skipping empty messages. */
    for (int i = 0; i < LANES; i++) {
      if (slot_left[i]) continue;
      while (next < n && nblocks[next] == 0) next++;
      if (next < n) {
        slot_state[i] = state[next], slot_data[i] = data[next], slot_left[i] = nblocks[next];
        slot_stride[i] = BLOCK;
        next++, busy++;
      } else {
        slot_state[i] = idle_state, slot_data[i] = idle_block, slot_stride[i] = 0;
      }
    }
    if (busy == 0) return;
    if (busy <= FEW_LANES) break;
    /* Every busy slot runs the shortest remaining count. */
    size_t count = SIZE_MAX;
    for (int i = 0; i < LANES; i++)
      if (slot_left[i] && slot_left[i] < count) count = slot_left[i];
    md5_x4(slot_state, slot_data, slot_stride, count);
    for (int i = 0; i < LANES; i++) {
      if (!slot_left[i]) continue;
      slot_left[i] -= count;
      if (!slot_left[i]) busy--;
    }
  }
  /* The queue is empty and few slots are left: finish them one by one. */
  for (int i = 0; i < LANES; i++)
    if (slot_left[i]) crisp_md5_arm64(slot_state[i], slot_data[i], slot_left[i]);
}

const crisp_md5_many_impl crisp_md5_many_neon_impl = {
    .info = CRISP_IMPL_INFO(crisp_md5_many_neon_impl),
    .blocks_many = crisp_md5_many_neon,
};

#endif
