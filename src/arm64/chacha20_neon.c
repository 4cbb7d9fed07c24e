/* src/arm64/chacha20_neon.c - ChaCha20 for AArch64 with NEON, 4 blocks at a time.
 *
 * Layout: chacha20_lanes.h, four 32-bit lanes of a uint32x4_t per state
 * word; TRN1/TRN2 and 64-bit recombination transpose each 4x4 group of
 * words back to blocks. ISA: ARMv8-A ASIMD (rotate by 16 is one REV32,
 * the others a shift and a shift-insert). Meant for: inputs of three
 * blocks or more; shorter tails take the scalar code. */
#include "impl.h"

#if defined(CRISP_ARCH_ARM64)

#include <arm_neon.h>
#include <string.h>

#include "generic/generic.h"
#include "util.h"

#define VECTOR uint32x4_t
#define LANES 4
#define V_SET1(x) vdupq_n_u32(x)
#define V_ADD vaddq_u32
#define V_XOR veorq_u32
#define V_ROTL(x, n) vsliq_n_u32(vshrq_n_u32((x), 32 - (n)), (x), (n))
#define V_ROTL16(x) vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(x)))
#define V_ROTL12(x) V_ROTL((x), 12)
#define V_ROTL8(x) V_ROTL((x), 8)
#define V_ROTL7(x) V_ROTL((x), 7)
static const uint32_t lane_index[4] = {0, 1, 2, 3};
#define V_LANE_INDEX vld1q_u32(lane_index)
#define V_XOR_STORE xor_store_neon

static inline void xor_row(uint8_t *out, const uint8_t *in, uint32x4_t keystream) {
  vst1q_u8(out, veorq_u8(vld1q_u8(in), vreinterpretq_u8_u32(keystream)));
}

static inline void xor_store_neon(uint8_t *out, const uint8_t *in, uint32x4_t x[16]) {
  for (int quarter = 0; quarter < 4; quarter++) {
    const uint32x4_t *q = x + 4 * quarter;
    const uint32x4x2_t ab = vtrnq_u32(q[0], q[1]), cd = vtrnq_u32(q[2], q[3]);
    const uint8_t *src = in + 16 * quarter;
    uint8_t *dst = out + 16 * quarter;
    xor_row(dst, src, vcombine_u32(vget_low_u32(ab.val[0]), vget_low_u32(cd.val[0])));
    xor_row(dst + 64, src + 64, vcombine_u32(vget_low_u32(ab.val[1]), vget_low_u32(cd.val[1])));
    xor_row(dst + 128, src + 128, vcombine_u32(vget_high_u32(ab.val[0]), vget_high_u32(cd.val[0])));
    xor_row(dst + 192, src + 192, vcombine_u32(vget_high_u32(ab.val[1]), vget_high_u32(cd.val[1])));
  }
}

#include "chacha20_lanes.h"

#ifndef NEON_TAIL_MIN_BLOCKS
#define NEON_TAIL_MIN_BLOCKS 3
#endif

void crisp_chacha20_xor_neon(uint8_t *out, const uint8_t *in, size_t len, const uint32_t state[16]);

void crisp_chacha20_xor_neon(uint8_t *out, const uint8_t *in, size_t len, const uint32_t state[16]) {
  chacha20_lanes_xor(out, in, len, state, NEON_TAIL_MIN_BLOCKS, crisp_chacha20_xor_generic);
}

const crisp_chacha20_impl crisp_chacha20_neon_impl = {
    .info = CRISP_IMPL_INFO(crisp_chacha20_neon_impl),
    .xor_stream = crisp_chacha20_xor_neon,
    .group_blocks = LANES,
};

#endif
