/* src/arm64/md5_arm64.c - MD5 compression for AArch64, one stream.
 *
 * Layout: the four chaining words and all sixteen message words of a block
 * live in general-purpose registers for the whole block (31 are enough, so
 * nothing spills). Each step is one inline-asm sequence whose order puts
 * the work that does not depend on the newest word b first:
 *   a += word + constant       (the C sum, ready long before b)
 *   a += the part of F/G/I that needs only c and d
 *   a += the part that needs b, then ror, then + b.
 * G(b,c,d) = (b & d) | (c & ~d) is taken as two adds, BIC off the critical
 * path and AND on it, since the two terms never share a set bit; F likewise
 * as (b & c) + (d & ~b). Critical path per step: G and H 4 instructions,
 * F and I 5.
 * ISA: ARMv8-A base (A64 integer only). Lengths: every length; it is the
 * arm64 single-stream default, the tail of the NEON many-lanes kernel too. */
#include "arm64/arm64.h"
#include "md5_schedule.h"
#include "util.h"

#if defined(CRISP_ARCH_ARM64)

/* clang-format off */
/* ROTL by s is ROR by 32 - s; AArch64 has only the right rotate. The asm
 * strings keep one instruction per line, which clang-format would break. */
#define STEP_F(a, b, c, d, word, constant, shift)                                                \
  do {                                                                                           \
    uint32_t t0, t1;                                                                             \
    __asm__("add %w[va], %w[va], %w[wk]\n\t"                                                     \
            "and %w[t0], %w[vb], %w[vc]\n\t"                                                     \
            "bic %w[t1], %w[vd], %w[vb]\n\t"                                                     \
            "add %w[va], %w[va], %w[t0]\n\t"                                                     \
            "add %w[va], %w[va], %w[t1]\n\t"                                                     \
            "ror %w[va], %w[va], #(32 - " #shift ")\n\t"                                         \
            "add %w[va], %w[va], %w[vb]"                                                         \
            : [va] "+&r"(a), [t0] "=&r"(t0), [t1] "=&r"(t1)                                     \
            : [vb] "r"(b), [vc] "r"(c), [vd] "r"(d), [wk] "r"((uint32_t)((word) + (constant)))); \
  } while (0)

#define STEP_G(a, b, c, d, word, constant, shift)                                                \
  do {                                                                                           \
    uint32_t t0;                                                                                 \
    __asm__("add %w[va], %w[va], %w[wk]\n\t"                                                     \
            "bic %w[t0], %w[vc], %w[vd]\n\t"                                                     \
            "add %w[va], %w[va], %w[t0]\n\t"                                                     \
            "and %w[t0], %w[vb], %w[vd]\n\t"                                                     \
            "add %w[va], %w[va], %w[t0]\n\t"                                                     \
            "ror %w[va], %w[va], #(32 - " #shift ")\n\t"                                         \
            "add %w[va], %w[va], %w[vb]"                                                         \
            : [va] "+&r"(a), [t0] "=&r"(t0)                                                      \
            : [vb] "r"(b), [vc] "r"(c), [vd] "r"(d), [wk] "r"((uint32_t)((word) + (constant)))); \
  } while (0)

#define STEP_H(a, b, c, d, word, constant, shift)                                                \
  do {                                                                                           \
    uint32_t t0;                                                                                 \
    __asm__("add %w[va], %w[va], %w[wk]\n\t"                                                     \
            "eor %w[t0], %w[vc], %w[vd]\n\t"                                                     \
            "eor %w[t0], %w[t0], %w[vb]\n\t"                                                     \
            "add %w[va], %w[va], %w[t0]\n\t"                                                     \
            "ror %w[va], %w[va], #(32 - " #shift ")\n\t"                                         \
            "add %w[va], %w[va], %w[vb]"                                                         \
            : [va] "+&r"(a), [t0] "=&r"(t0)                                                      \
            : [vb] "r"(b), [vc] "r"(c), [vd] "r"(d), [wk] "r"((uint32_t)((word) + (constant)))); \
  } while (0)

/* I(b,c,d) = c ^ (b | ~d): ORN gives b | ~d in one instruction. */
#define STEP_I(a, b, c, d, word, constant, shift)                                                \
  do {                                                                                           \
    uint32_t t0;                                                                                 \
    __asm__("add %w[va], %w[va], %w[wk]\n\t"                                                     \
            "orn %w[t0], %w[vb], %w[vd]\n\t"                                                     \
            "eor %w[t0], %w[t0], %w[vc]\n\t"                                                     \
            "add %w[va], %w[va], %w[t0]\n\t"                                                     \
            "ror %w[va], %w[va], #(32 - " #shift ")\n\t"                                         \
            "add %w[va], %w[va], %w[vb]"                                                         \
            : [va] "+&r"(a), [t0] "=&r"(t0)                                                      \
            : [vb] "r"(b), [vc] "r"(c), [vd] "r"(d), [wk] "r"((uint32_t)((word) + (constant)))); \
  } while (0)
/* clang-format on */

/* One step of the schedule (md5_schedule.h) on the word registers x0..x15. */
#define STEP(round, a, b, c, d, k, constant, shift) STEP_##round(a, b, c, d, x##k, constant, shift)

void crisp_md5_arm64(uint32_t state[4], const uint8_t *data, size_t nblocks) {
  uint32_t a0 = state[0], b0 = state[1], c0 = state[2], d0 = state[3];
  for (; nblocks; nblocks--, data += 64) {
    /* Little-endian loads; AArch64 Linux is little-endian, so these are LDRs. */
#define LOAD(i) const uint32_t x##i = crisp_load32_le(data + 4 * (i))
    /* clang-format off */
    LOAD(0); LOAD(1); LOAD(2); LOAD(3); LOAD(4); LOAD(5); LOAD(6); LOAD(7);
    LOAD(8); LOAD(9); LOAD(10); LOAD(11); LOAD(12); LOAD(13); LOAD(14); LOAD(15);
    /* clang-format on */
#undef LOAD
    uint32_t a = a0, b = b0, c = c0, d = d0;

    MD5_BLOCK_STEPS(STEP);

    a0 += a, b0 += b, c0 += c, d0 += d;
  }
  state[0] = a0, state[1] = b0, state[2] = c0, state[3] = d0;
}

const crisp_md5_impl crisp_md5_arm64_impl = {
    .info = CRISP_IMPL_INFO(crisp_md5_arm64_impl),
    .blocks = crisp_md5_arm64,
};

#endif
