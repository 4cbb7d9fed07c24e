/* src/x86/poly1305_scalar.h - the scalar radix 2^64 Poly1305 state and
 * functions, shared by the x86-64 vector kernels: they keep this state at the
 * head of theirs and run these functions for short inputs and tails. */
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

void crisp_poly1305_init_x86_64(void *state, const uint8_t key[32]);
void crisp_poly1305_blocks_x86_64(void *state, const uint8_t *data, size_t nblocks, unsigned hibit);
void crisp_poly1305_finish_x86_64(void *state, uint8_t tag[16]);

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
