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
#include "util.h"

#if defined(CRISP_ARCH_ARM64)

/* ROTL by s is ROR by 32 - s; AArch64 has only the right rotate. */
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

/* Four steps of one round, the registers rotating a, d, c, b. */
#define QUAD(step, w0, k0, s0, w1, k1, s1, w2, k2, s2, w3, k3, s3) \
  step(a, b, c, d, w0, k0, s0);                                    \
  step(d, a, b, c, w1, k1, s1);                                    \
  step(c, d, a, b, w2, k2, s2);                                    \
  step(b, c, d, a, w3, k3, s3)

void crisp_md5_arm64(uint32_t state[4], const uint8_t *data, size_t nblocks) {
  uint32_t a0 = state[0], b0 = state[1], c0 = state[2], d0 = state[3];
  for (; nblocks; nblocks--, data += 64) {
    /* Little-endian loads; AArch64 Linux is little-endian, so these are LDRs. */
#define LOAD(i) const uint32_t x##i = crisp_load32_le(data + 4 * (i))
    LOAD(0); LOAD(1); LOAD(2); LOAD(3); LOAD(4); LOAD(5); LOAD(6); LOAD(7);
    LOAD(8); LOAD(9); LOAD(10); LOAD(11); LOAD(12); LOAD(13); LOAD(14); LOAD(15);
#undef LOAD
    uint32_t a = a0, b = b0, c = c0, d = d0;

    /* The constants are floor(2^32 * abs(sin(i))), i = 1..64 (RFC 1321 3.4). */
    QUAD(STEP_F, x0, 0xd76aa478, 7, x1, 0xe8c7b756, 12, x2, 0x242070db, 17, x3, 0xc1bdceee, 22);
    QUAD(STEP_F, x4, 0xf57c0faf, 7, x5, 0x4787c62a, 12, x6, 0xa8304613, 17, x7, 0xfd469501, 22);
    QUAD(STEP_F, x8, 0x698098d8, 7, x9, 0x8b44f7af, 12, x10, 0xffff5bb1, 17, x11, 0x895cd7be, 22);
    QUAD(STEP_F, x12, 0x6b901122, 7, x13, 0xfd987193, 12, x14, 0xa679438e, 17, x15, 0x49b40821, 22);

    QUAD(STEP_G, x1, 0xf61e2562, 5, x6, 0xc040b340, 9, x11, 0x265e5a51, 14, x0, 0xe9b6c7aa, 20);
    QUAD(STEP_G, x5, 0xd62f105d, 5, x10, 0x02441453, 9, x15, 0xd8a1e681, 14, x4, 0xe7d3fbc8, 20);
    QUAD(STEP_G, x9, 0x21e1cde6, 5, x14, 0xc33707d6, 9, x3, 0xf4d50d87, 14, x8, 0x455a14ed, 20);
    QUAD(STEP_G, x13, 0xa9e3e905, 5, x2, 0xfcefa3f8, 9, x7, 0x676f02d9, 14, x12, 0x8d2a4c8a, 20);

    QUAD(STEP_H, x5, 0xfffa3942, 4, x8, 0x8771f681, 11, x11, 0x6d9d6122, 16, x14, 0xfde5380c, 23);
    QUAD(STEP_H, x1, 0xa4beea44, 4, x4, 0x4bdecfa9, 11, x7, 0xf6bb4b60, 16, x10, 0xbebfbc70, 23);
    QUAD(STEP_H, x13, 0x289b7ec6, 4, x0, 0xeaa127fa, 11, x3, 0xd4ef3085, 16, x6, 0x04881d05, 23);
    QUAD(STEP_H, x9, 0xd9d4d039, 4, x12, 0xe6db99e5, 11, x15, 0x1fa27cf8, 16, x2, 0xc4ac5665, 23);

    QUAD(STEP_I, x0, 0xf4292244, 6, x7, 0x432aff97, 10, x14, 0xab9423a7, 15, x5, 0xfc93a039, 21);
    QUAD(STEP_I, x12, 0x655b59c3, 6, x3, 0x8f0ccc92, 10, x10, 0xffeff47d, 15, x1, 0x85845dd1, 21);
    QUAD(STEP_I, x8, 0x6fa87e4f, 6, x15, 0xfe2ce6e0, 10, x6, 0xa3014314, 15, x13, 0x4e0811a1, 21);
    QUAD(STEP_I, x4, 0xf7537e82, 6, x11, 0xbd3af235, 10, x2, 0x2ad7d2bb, 15, x9, 0xeb86d391, 21);

    a0 += a, b0 += b, c0 += c, d0 += d;
  }
  state[0] = a0, state[1] = b0, state[2] = c0, state[3] = d0;
}

const crisp_md5_impl crisp_md5_arm64_impl = {
    .info = {"arm64", CRISP_LEVEL_ARM64, 0},
    .blocks = crisp_md5_arm64,
};

#endif
