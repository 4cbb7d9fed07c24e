/* src/generic/poly1305_generic.c - Poly1305 in portable C: radix 2^26, five
 * 26-bit limbs, 32x32->64-bit products only (no __int128 needed), constant
 * time in key and data. The reference the vector kernels are tested against. */
#include "generic.h"
#include "util.h"

#define MASK26 0x3ffffffu

typedef struct poly1305_generic_state {
  uint32_t r[5];   /* clamped r, radix 2^26 */
  uint32_t s5[4];  /* 5 * r[1..4]: folds the limbs above 2^130 back, as 2^130 = 5 mod p */
  uint32_t h[5];   /* accumulator, partly reduced: each limb below 2^27 between blocks */
  uint32_t pad[4]; /* s, the second half of the key */
} poly1305_generic_state;

_Static_assert(sizeof(poly1305_generic_state) <= CRISP_POLY1305_STATE_SIZE, "state fits the context");
_Static_assert(sizeof(poly1305_generic_state) <= CRISP_POLY1305_SHORT_STATE_SIZE,
               "a short message keeps to the head");

void crisp_poly1305_init_generic(void *state, const uint8_t key[32]) {
  poly1305_generic_state *st = state;
  /* RFC 8439 2.5: clamp r (top 4 bits of bytes 3, 7, 11, 15 and low 2 bits of
   * bytes 4, 8, 12 cleared), applied here limb by limb. */
  st->r[0] = crisp_load32_le(key + 0) & 0x3ffffff;
  st->r[1] = (crisp_load32_le(key + 3) >> 2) & 0x3ffff03;
  st->r[2] = (crisp_load32_le(key + 6) >> 4) & 0x3ffc0ff;
  st->r[3] = (crisp_load32_le(key + 9) >> 6) & 0x3f03fff;
  st->r[4] = (crisp_load32_le(key + 12) >> 8) & 0x00fffff;
  for (int i = 0; i < 4; i++) st->s5[i] = st->r[i + 1] * 5;
  for (int i = 0; i < 5; i++) st->h[i] = 0;
  for (int i = 0; i < 4; i++) st->pad[i] = crisp_load32_le(key + 16 + 4 * i);
}

/* Out of line: it spills r, 5r and h, which crisp_poly1305_blocks_generic
 * overwrites after it returns. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void
blocks(poly1305_generic_state *st, const uint8_t *data, size_t nblocks, unsigned hibit) {
  const uint32_t top = hibit ? 1u << 24 : 0; /* 2^128 sits at bit 24 of limb 4 */
  const uint32_t r0 = st->r[0], r1 = st->r[1], r2 = st->r[2], r3 = st->r[3], r4 = st->r[4];
  const uint32_t s1 = st->s5[0], s2 = st->s5[1], s3 = st->s5[2], s4 = st->s5[3];
  uint32_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2], h3 = st->h[3], h4 = st->h[4];

  for (; nblocks; nblocks--, data += 16) {
    h0 += crisp_load32_le(data + 0) & MASK26;
    h1 += (crisp_load32_le(data + 3) >> 2) & MASK26;
    h2 += (crisp_load32_le(data + 6) >> 4) & MASK26;
    h3 += (crisp_load32_le(data + 9) >> 6) & MASK26;
    h4 += (crisp_load32_le(data + 12) >> 8) | top;

    /* h *= r mod p: each product below 2^27 * 5 * 2^26, five of them fit 64 bits. */
    uint64_t d0 =
        (uint64_t)h0 * r0 + (uint64_t)h1 * s4 + (uint64_t)h2 * s3 + (uint64_t)h3 * s2 + (uint64_t)h4 * s1;
    uint64_t d1 =
        (uint64_t)h0 * r1 + (uint64_t)h1 * r0 + (uint64_t)h2 * s4 + (uint64_t)h3 * s3 + (uint64_t)h4 * s2;
    uint64_t d2 =
        (uint64_t)h0 * r2 + (uint64_t)h1 * r1 + (uint64_t)h2 * r0 + (uint64_t)h3 * s4 + (uint64_t)h4 * s3;
    uint64_t d3 =
        (uint64_t)h0 * r3 + (uint64_t)h1 * r2 + (uint64_t)h2 * r1 + (uint64_t)h3 * r0 + (uint64_t)h4 * s4;
    uint64_t d4 =
        (uint64_t)h0 * r4 + (uint64_t)h1 * r3 + (uint64_t)h2 * r2 + (uint64_t)h3 * r1 + (uint64_t)h4 * r0;

    /* One carry pass brings every limb back below 2^27. */
    d1 += d0 >> 26, h0 = (uint32_t)d0 & MASK26;
    d2 += d1 >> 26, h1 = (uint32_t)d1 & MASK26;
    d3 += d2 >> 26, h2 = (uint32_t)d2 & MASK26;
    d4 += d3 >> 26, h3 = (uint32_t)d3 & MASK26;
    h4 = (uint32_t)d4 & MASK26;
    h0 += (uint32_t)(d4 >> 26) * 5;
    h1 += h0 >> 26, h0 &= MASK26;
  }
  st->h[0] = h0, st->h[1] = h1, st->h[2] = h2, st->h[3] = h3, st->h[4] = h4;
}

void crisp_poly1305_blocks_generic(void *state, const uint8_t *data, size_t nblocks, unsigned hibit) {
  blocks(state, data, nblocks, hibit);
}

void crisp_poly1305_finish_generic(void *state, uint8_t tag[16]) {
  poly1305_generic_state *st = state;
  uint32_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2], h3 = st->h[3], h4 = st->h[4];

  /* Full carry, so h < 2^130 + small, then h mod p by a masked subtraction. */
  h2 += h1 >> 26, h1 &= MASK26;
  h3 += h2 >> 26, h2 &= MASK26;
  h4 += h3 >> 26, h3 &= MASK26;
  h0 += (h4 >> 26) * 5, h4 &= MASK26;
  h1 += h0 >> 26, h0 &= MASK26;

  /* g = h + 5 - 2^130; keep g when it did not borrow, i.e. when h >= p. */
  uint32_t g0 = h0 + 5, g1 = h1 + (g0 >> 26), g2, g3, g4;
  g0 &= MASK26;
  g2 = h2 + (g1 >> 26), g1 &= MASK26;
  g3 = h3 + (g2 >> 26), g2 &= MASK26;
  g4 = h4 + (g3 >> 26) - (1u << 26), g3 &= MASK26;
  /* all ones when g4 did not go negative */
  const uint32_t keep_g = (uint32_t)crisp_value_barrier((g4 >> 31) - 1u);
  h0 = (h0 & ~keep_g) | (g0 & keep_g);
  h1 = (h1 & ~keep_g) | (g1 & keep_g);
  h2 = (h2 & ~keep_g) | (g2 & keep_g);
  h3 = (h3 & ~keep_g) | (g3 & keep_g);
  h4 = (h4 & ~keep_g) | (g4 & keep_g);

  /* Repack to four 32-bit words and add s modulo 2^128. */
  const uint32_t w0 = h0 | h1 << 26, w1 = h1 >> 6 | h2 << 20, w2 = h2 >> 12 | h3 << 14,
                 w3 = h3 >> 18 | h4 << 8;
  uint64_t f = (uint64_t)w0 + st->pad[0];
  crisp_store32_le(tag + 0, (uint32_t)f);
  f = (uint64_t)w1 + st->pad[1] + (f >> 32);
  crisp_store32_le(tag + 4, (uint32_t)f);
  f = (uint64_t)w2 + st->pad[2] + (f >> 32);
  crisp_store32_le(tag + 8, (uint32_t)f);
  f = (uint64_t)w3 + st->pad[3] + (f >> 32);
  crisp_store32_le(tag + 12, (uint32_t)f);
  crisp_wipe(st, sizeof *st);
}

/* init, blocks and finish in one, on a state of its own frame (which
 * finish wipes): the AEAD's MAC of a short message in one call through
 * the table instead of one per piece. */
void crisp_poly1305_tag_pieces_generic(uint8_t tag[16], const uint8_t key[32],
                                       const crisp_poly1305_pieces *pieces) {
  poly1305_generic_state st;
  crisp_poly1305_init_generic(&st, key);
  for (int piece = 0; piece < 4; piece++) blocks(&st, pieces->data[piece], pieces->blocks[piece], 1);
  crisp_poly1305_finish_generic(&st, tag);
}

/* Scalar only: no call takes a deeper path. */
static size_t vector_never(void) {
  return SIZE_MAX;
}

const crisp_poly1305_impl crisp_poly1305_generic_impl = {
    .info = CRISP_IMPL_INFO(crisp_poly1305_generic_impl),
    .init = crisp_poly1305_init_generic,
    .blocks = crisp_poly1305_blocks_generic,
    .finish = crisp_poly1305_finish_generic,
    .tag_pieces = crisp_poly1305_tag_pieces_generic,
    .vector_from = vector_never,
};
