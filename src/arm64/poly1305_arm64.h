/* src/arm64/poly1305_arm64.h - the radix 2^64 Poly1305 core both arm64
 * implementations share: the scalar one runs only this, the NEON one runs it
 * for short updates and for the odd block a vector run leaves over. */
#ifndef CRISP_SRC_ARM64_POLY1305_ARM64_H
#define CRISP_SRC_ARM64_POLY1305_ARM64_H

#include "impl.h"
#include "poly1305_radix64.h"
#include "util.h"

typedef unsigned __int128 poly1305_u128;

/* h is h0 + h1 2^64 + h2 2^128, partly reduced: h2 <= 4 between blocks, so
 * h < 2^130 + 2^66 < 2p. r is clamped, so r0, r1 < 2^60 and 4 divides r1. */
typedef struct poly1305_arm64_state {
  uint64_t h[3];
  uint64_t r[2];
  uint64_t pad[2]; /* s, the second half of the key */
} poly1305_arm64_state;

static inline void poly1305_arm64_init_state(poly1305_arm64_state *st, const uint8_t key[32]) {
  poly1305_radix64_key(st->r, st->pad, key);
  st->h[0] = st->h[1] = st->h[2] = 0;
}

/* Absorbs nblocks 16-byte blocks, each plus hibit * 2^128, into h; MUL and
 * UMULH for the products, ADDS/ADC chains for the sums, no data-dependent
 * branch or address. */
static inline void poly1305_arm64_absorb(poly1305_arm64_state *st, const uint8_t *data, size_t nblocks,
                                         uint64_t hibit) {
  const uint64_t r0 = st->r[0], r1 = st->r[1];
  /* r1 2^128 = (r1 / 4) 2^130 = 5 (r1 / 4) mod p: s1 folds the limbs past 2^128. */
  const uint64_t s1 = r1 + (r1 >> 2);
  uint64_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2];
  for (; nblocks; nblocks--, data += 16) {
    poly1305_u128 t = (poly1305_u128)h0 + crisp_load64_le(data);
    h0 = (uint64_t)t;
    t = (poly1305_u128)h1 + crisp_load64_le(data + 8) + (uint64_t)(t >> 64);
    h1 = (uint64_t)t;
    h2 += (uint64_t)(t >> 64) + hibit; /* h2 <= 6 */

    /* Each sum stays below 2^126: products of a 64-bit limb and a 61-bit
     * r0, r1 or s1, and h2 (<= 6) times one of them. */
    const poly1305_u128 d0 = (poly1305_u128)h0 * r0 + (poly1305_u128)h1 * s1;
    const poly1305_u128 d1 =
        (poly1305_u128)h0 * r1 + (poly1305_u128)h1 * r0 + (poly1305_u128)(h2 * s1) + (uint64_t)(d0 >> 64);
    uint64_t h[3] = {(uint64_t)d0, (uint64_t)d1, h2 * r0 + (uint64_t)(d1 >> 64)};
    poly1305_radix64_fold(h);
    h0 = h[0], h1 = h[1], h2 = h[2];
  }
  st->h[0] = h0, st->h[1] = h1, st->h[2] = h2;
}

void crisp_poly1305_init_arm64(void *state, const uint8_t key[32]);
void crisp_poly1305_blocks_arm64(void *state, const uint8_t *data, size_t nblocks, unsigned hibit);
void crisp_poly1305_finish_arm64(void *state, uint8_t tag[16]);
void crisp_poly1305_tag_pieces_arm64(uint8_t tag[16], const uint8_t key[32],
                                     const crisp_poly1305_pieces *pieces);

#endif
