/* src/arm64/poly1305_arm64.c - Poly1305 for AArch64, scalar.
 *
 * Radix 2^64: h in three limbs (the third holds the bits at 2^128 and up,
 * at most 4 between blocks), r in two; 64x64->128-bit products via MUL and
 * UMULH (unsigned __int128 in C), four per block plus two small ones, and
 * the 2^130 = 5 fold done with shifts and adds. Constant time in key and data.
 * ISA: ARMv8-A base. Lengths: every length; the arm64 default for short
 * messages and the scalar part of the NEON implementation.
 * The core is in poly1305_arm64.h, shared with poly1305_neon.c. */
#include "arm64/poly1305_arm64.h"

#if defined(CRISP_ARCH_ARM64)

_Static_assert(sizeof(poly1305_arm64_state) <= CRISP_POLY1305_STATE_SIZE, "state fits the context");
_Static_assert(sizeof(poly1305_arm64_state) <= CRISP_POLY1305_SHORT_STATE_SIZE,
               "a short message keeps to the head");

void crisp_poly1305_init_arm64(void *state, const uint8_t key[32]) {
  poly1305_arm64_init_state(state, key);
}

void crisp_poly1305_blocks_arm64(void *state, const uint8_t *data, size_t nblocks, unsigned hibit) {
  poly1305_arm64_absorb(state, data, nblocks, hibit ? 1 : 0);
}

void crisp_poly1305_finish_arm64(void *state, uint8_t tag[16]) {
  const poly1305_arm64_state *st = state;
  poly1305_radix64_tag(st->h, st->pad, tag);
  crisp_wipe(state, sizeof(poly1305_arm64_state));
}

/* init, blocks and finish in one, on a state of its own frame: the
 * AEAD's MAC of a short message in one call through the table. Both arm64
 * implementations take it, as the NEON one runs this core below its
 * vector crossover. */
void crisp_poly1305_tag_pieces_arm64(uint8_t tag[16], const uint8_t key[32],
                                     const crisp_poly1305_pieces *pieces) {
  poly1305_arm64_state st;
  poly1305_arm64_init_state(&st, key);
  for (int piece = 0; piece < 4; piece++)
    poly1305_arm64_absorb(&st, pieces->data[piece], pieces->blocks[piece], 1);
  poly1305_radix64_tag(st.h, st.pad, tag);
  crisp_wipe(&st, sizeof st);
}

const crisp_poly1305_impl crisp_poly1305_arm64_impl = {
    .info = CRISP_IMPL_INFO(crisp_poly1305_arm64_impl),
    .init = crisp_poly1305_init_arm64,
    .blocks = crisp_poly1305_blocks_arm64,
    .finish = crisp_poly1305_finish_arm64,
    .tag_pieces = crisp_poly1305_tag_pieces_arm64,
};

#endif
