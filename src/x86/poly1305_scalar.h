/* src/x86/poly1305_scalar.h - the scalar radix 2^64 Poly1305 state and
 * functions, shared by the x86-64 vector kernels: they keep this state at the
 * head of theirs and run these functions for short inputs and tails. Its
 * block step is inline here too, for the AVX-512 ChaCha20 kernel's fused
 * open, which runs it beside its rounds. */
#ifndef CRISP_SRC_X86_POLY1305_SCALAR_H
#define CRISP_SRC_X86_POLY1305_SCALAR_H

#include "impl.h"
#include "poly1305_radix64.h"

/* The accumulator h = h[0] + h[1] 2^64 + h[2] 2^128, partly reduced (h[2]
 * stays below 8 between calls), the clamped r = r[0] + r[1] 2^64, s from the
 * key, then fields the vector kernels own: how many blocks the scalar code
 * absorbed before a vector kernel ran (so a stream of short updates also
 * pays for the powers once), whether the powers of r are cached, and the
 * IFMA kernel's stream of lanes (poly1305_avx512ifma.c). Lengths, not
 * secrets, decide them all. init zeroes them. */
typedef struct crisp_poly1305_x86_64_state {
  uint64_t h[3];
  uint64_t r[2];
  uint64_t s[2];
  uint32_t scalar_blocks; /* stops counting at a crossover */
  uint8_t powers_ready;
  uint8_t lanes_streaming; /* the stream's whole blocks go to the lanes */
  uint8_t lanes_started;   /* the lanes hold the accumulator; h is stale */
  uint8_t pending_blocks;  /* whole blocks waiting for a step of the lanes */
} crisp_poly1305_x86_64_state;

_Static_assert(sizeof(crisp_poly1305_x86_64_state) == 64, "vector kernels put their tables at offset 64");

/* h = (h + block + top 2^128) * r, partly reduced: h2 ends at most 4; h2
 * must be below 7 on entry, so that h2 (r1 + r1/4) < 2^3 2^61 fits a word.
 * d0 = h0 r0 + h1 r1_fold, d1 = h0 r1 + h1 r0 + h2 r1_fold + d0 / 2^64, and
 * the bits from 2^128 up, d1 / 2^64 + h2 r0, fold back above 2^130 times 5.
 * Inline assembly because gcc 12 spills every __int128 and _addcarry_u64
 * form of this to the stack (about 1.5x slower per block). r0, r1 and
 * r1_fold are register operands: given "rm", clang passes them from stack
 * slots, which would leave the key's r in the frame. */
static inline void crisp_poly1305_x86_64_step(uint64_t h[3], const uint8_t *block, uint64_t top, uint64_t r0,
                                              uint64_t r1, uint64_t r1_fold) {
  uint64_t h0 = h[0], h1 = h[1], h2 = h[2], d0_low, d0_high, d1_high;
  __asm__(
      "addq 0(%[block]), %[h0]\n\t"
      "adcq 8(%[block]), %[h1]\n\t"
      "adcq %[top], %[h2]\n\t"
      "movq %[h0], %%rax\n\t"
      "mulq %[r0]\n\t"
      "movq %%rax, %[d0_low]\n\t"
      "movq %%rdx, %[d0_high]\n\t"
      "movq %[h1], %%rax\n\t"
      "mulq %[r1_fold]\n\t"
      "addq %%rax, %[d0_low]\n\t"
      "adcq %%rdx, %[d0_high]\n\t"
      "movq %[h0], %%rax\n\t"
      "mulq %[r1]\n\t"
      "movq %%rax, %[h0]\n\t" /* h0 now holds the low word of d1 */
      "movq %%rdx, %[d1_high]\n\t"
      "movq %[h1], %%rax\n\t"
      "mulq %[r0]\n\t"
      "addq %%rax, %[h0]\n\t"
      "adcq %%rdx, %[d1_high]\n\t"
      "movq %[h2], %[h1]\n\t"
      "imulq %[r1_fold], %[h1]\n\t"
      "addq %[h1], %[h0]\n\t"
      "adcq $0, %[d1_high]\n\t"
      "addq %[d0_high], %[h0]\n\t"
      "adcq $0, %[d1_high]\n\t"
      "imulq %[r0], %[h2]\n\t"
      "addq %[d1_high], %[h2]\n\t" /* h2: the bits from 2^128 up */
      "movq %[h2], %[h1]\n\t"
      "andq $-4, %[h1]\n\t"
      "movq %[h2], %[d1_high]\n\t"
      "shrq $2, %[d1_high]\n\t"
      "addq %[d1_high], %[h1]\n\t" /* h1: 5 (h2 / 4) */
      "andq $3, %[h2]\n\t"
      "addq %[h1], %[d0_low]\n\t"
      "adcq $0, %[h0]\n\t"
      "adcq $0, %[h2]"
      : [h0] "+&r"(h0), [h1] "+&r"(h1), [h2] "+&r"(h2), [d0_low] "=&r"(d0_low), [d0_high] "=&r"(d0_high),
        [d1_high] "=&r"(d1_high)
      : [block] "r"(block),
        "m"(*(const uint8_t(*)[16])block), [top] "rm"(top), [r0] "r"(r0), [r1] "r"(r1), [r1_fold] "r"(r1_fold)
      : "rax", "rdx", "cc");
  h[0] = d0_low, h[1] = h0, h[2] = h2;
}

void crisp_poly1305_init_x86_64(void *state, const uint8_t key[32]);
void crisp_poly1305_blocks_x86_64(void *state, const uint8_t *data, size_t nblocks, unsigned hibit);
void crisp_poly1305_finish_x86_64(void *state, uint8_t tag[16]);
/* The descriptors' tag_pieces (src/impl.h), for every x86-64 Poly1305:
 * below their crossovers all of them run the block step above. */
void crisp_poly1305_tag_pieces_x86_64(uint8_t tag[16], const uint8_t key[32],
                                      const crisp_poly1305_pieces *pieces);

/* A vector kernel's loop: absorbs whole steps of blocks from data, returns
 * how many blocks it left for the scalar code. */
typedef size_t (*crisp_poly1305_vector_loop)(void *state, const uint8_t *data, size_t nblocks,
                                             unsigned hibit);

/* The crossover of the radix 2^26 kernels (avx2, avx512; the IFMA kernel
 * keeps a stream in its lanes and has its own): a call of at least cold_blocks
 * (warm_blocks once the powers of r are cached: the cold call also computes
 * them) runs the vector loop, and the scalar code takes what is left, or
 * the whole call below the crossover. A stream whose calls were all short
 * counts as warm once it has absorbed cold_blocks: its next call of
 * warm_blocks computes the powers, whose cost the rest of a stream that
 * long amortises. The counts are lengths, not secrets. */
static inline void crisp_poly1305_blocks_crossover(void *state, const uint8_t *data, size_t nblocks,
                                                   unsigned hibit, size_t cold_blocks, size_t warm_blocks,
                                                   crisp_poly1305_vector_loop vector_loop) {
  crisp_poly1305_x86_64_state *scalar = state;
  const int warm = scalar->powers_ready || scalar->scalar_blocks >= cold_blocks;
  if (nblocks >= (warm ? warm_blocks : cold_blocks)) {
    const size_t left = vector_loop(state, data, nblocks, hibit);
    data += 16 * (nblocks - left), nblocks = left;
  } else if (!warm) {
    scalar->scalar_blocks += (uint32_t)nblocks; /* below cold_blocks, so no overflow */
  }
  /* it also takes zero blocks, so this is a plain tail jump */
  crisp_poly1305_blocks_x86_64(state, data, nblocks, hibit);
}

/* x = x * r mod p, partly reduced: x[2] below 7 on entry, at most 4 on
 * return (x below 2^131, not always below p): the radix 2^26 kernels build
 * their powers of r with it; their limb bounds allow the extra bit. */
void crisp_poly1305_mul_x86_64(uint64_t x[3], const uint64_t r[2]);

#endif
