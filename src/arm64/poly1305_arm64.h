/* src/arm64/poly1305_arm64.h - the radix 2^64 Poly1305 core both arm64
 * implementations share: the scalar one runs only this, the NEON one runs it
 * for short updates and for the odd block a vector run leaves over. */
#ifndef CRISP_SRC_ARM64_POLY1305_ARM64_H
#define CRISP_SRC_ARM64_POLY1305_ARM64_H

#include "impl.h"
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
  /* RFC 8439 2.5: clear the top 4 bits of bytes 3, 7, 11, 15 and the low 2
   * bits of bytes 4, 8, 12. */
  st->r[0] = crisp_load64_le(key + 0) & 0x0ffffffc0fffffffull;
  st->r[1] = crisp_load64_le(key + 8) & 0x0ffffffc0ffffffcull;
  st->h[0] = st->h[1] = st->h[2] = 0;
  st->pad[0] = crisp_load64_le(key + 16);
  st->pad[1] = crisp_load64_le(key + 24);
}

/* h = h mod 2^130 + 5 * (h >> 130): the bits at 2^130 and up come back times
 * 5 since 2^130 = 5 mod p. Leaves h2 <= 4 for any h2 below 2^63. */
static inline void poly1305_arm64_fold(uint64_t *h0, uint64_t *h1, uint64_t *h2) {
  const uint64_t over = (*h2 & ~(uint64_t)3) + (*h2 >> 2);
  *h2 &= 3;
  poly1305_u128 t = (poly1305_u128)*h0 + over;
  *h0 = (uint64_t)t;
  t = (poly1305_u128)*h1 + (uint64_t)(t >> 64);
  *h1 = (uint64_t)t;
  *h2 += (uint64_t)(t >> 64);
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
    uint64_t d2 = h2 * r0 + (uint64_t)(d1 >> 64);
    h0 = (uint64_t)d0, h1 = (uint64_t)d1;
    poly1305_arm64_fold(&h0, &h1, &d2);
    h2 = d2;
  }
  st->h[0] = h0, st->h[1] = h1, st->h[2] = h2;
}

/* tag = (h mod p + s) mod 2^128; h < 2p, so one masked subtraction of p. */
static inline void poly1305_arm64_tag(const poly1305_arm64_state *st, uint8_t tag[16]) {
  const uint64_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2];
  /* g = h + 5: its bit 130 is set exactly when h >= p, then g - 2^130 = h - p. */
  poly1305_u128 t = (poly1305_u128)h0 + 5;
  const uint64_t g0 = (uint64_t)t;
  t = (poly1305_u128)h1 + (uint64_t)(t >> 64);
  const uint64_t g1 = (uint64_t)t;
  const uint64_t g2 = h2 + (uint64_t)(t >> 64);
  const uint64_t take_g = 0 - (g2 >> 2);
  const uint64_t f0 = (h0 & ~take_g) | (g0 & take_g);
  const uint64_t f1 = (h1 & ~take_g) | (g1 & take_g);
  t = (poly1305_u128)f0 + st->pad[0];
  crisp_store64_le(tag, (uint64_t)t);
  crisp_store64_le(tag + 8, f1 + st->pad[1] + (uint64_t)(t >> 64));
}

void crisp_poly1305_init_arm64(void *state, const uint8_t key[32]);
void crisp_poly1305_blocks_arm64(void *state, const uint8_t *data, size_t nblocks, unsigned hibit);
void crisp_poly1305_finish_arm64(void *state, uint8_t tag[16]);

#endif
