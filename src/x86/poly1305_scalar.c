/* src/x86/poly1305_scalar.c - Poly1305 in scalar x86-64 C, radix 2^64.
 *
 * Layout: h = h0 + h1 2^64 + h2 2^128 (h2 a few bits), r = r0 + r1 2^64.
 * Each block costs four 64x64->128-bit products plus two small ones
 * (unsigned __int128, so mul/adc; no extension beyond baseline x86-64).
 * Because clamping clears the low two bits of r1, h1 r1 2^128 folds back as
 * h1 (5 r1 / 4) = h1 (r1 + r1 / 4): one precomputed factor does the
 * reduction, no separate carry-out word is needed.
 * Constant time: no branch or address depends on key, accumulator or data.
 * Meant for: every length on CPUs without a vector kernel, and, through the
 * functions in poly1305_scalar.h, the short inputs and tails of the vector
 * kernels. Key clamping, the fold above 2^130 and the tag are the portable
 * ones of poly1305_radix64.h. */
#include "x86/poly1305_scalar.h"

#include "poly1305_radix64.h"
#include "util.h"

_Static_assert(sizeof(crisp_poly1305_x86_64_state) <= CRISP_POLY1305_STATE_SIZE, "state fits the context");
_Static_assert(sizeof(crisp_poly1305_x86_64_state) <= CRISP_POLY1305_SHORT_STATE_SIZE,
               "the vector kernels' short messages keep to it");

void crisp_poly1305_init_x86_64(void *state, const uint8_t key[32]) {
  crisp_poly1305_x86_64_state *st = state;
  st->h[0] = st->h[1] = st->h[2] = 0;
  poly1305_radix64_key(st->r, st->s, key);
  st->scalar_blocks = 0;
  st->powers_ready = 0;
  st->lanes_streaming = 0;
  st->lanes_started = 0;
  st->pending_blocks = 0;
}

void crisp_poly1305_blocks_x86_64(void *state, const uint8_t *data, size_t nblocks, unsigned hibit) {
  crisp_poly1305_x86_64_state *st = state;
  const uint64_t r0 = st->r[0], r1 = st->r[1], r1_fold = r1 + (r1 >> 2);
  const uint64_t top = hibit ? 1 : 0;
  uint64_t h[3] = {st->h[0], st->h[1], st->h[2]};
  for (; nblocks; nblocks--, data += 16) crisp_poly1305_x86_64_step(h, data, top, r0, r1, r1_fold);
  st->h[0] = h[0], st->h[1] = h[1], st->h[2] = h[2];
  /* rax and rdx end with halves of products: a caller may next push a dead
   * register to align its stack (clang's push %rax), and so leave one of
   * them in its frame. */
  __asm__ __volatile__("xorl %%eax, %%eax\n\txorl %%edx, %%edx" : : : "rax", "rdx");
}

void crisp_poly1305_mul_x86_64(uint64_t x[3], const uint64_t r[2]) {
  static const uint8_t zero_block[16];
  crisp_poly1305_x86_64_step(x, zero_block, 0, r[0], r[1], r[1] + (r[1] >> 2));
}

void crisp_poly1305_finish_x86_64(void *state, uint8_t tag[16]) {
  crisp_poly1305_x86_64_state *st = state;
  poly1305_radix64_tag(st->h, st->s, tag);
  /* A short message never touched the vector kernels' tables, so the 64-byte
   * head is all there is to wipe; powers_ready follows lengths, not secrets. */
  if (st->powers_ready)
    crisp_wipe(st, CRISP_POLY1305_STATE_SIZE);
  else
    crisp_wipe(st, sizeof *st); /* a constant size, so the stores are inlined */
}

/* init, blocks and finish in one, with r, s and h in registers: a short
 * AEAD message's MAC is about five blocks, and those three calls through
 * the table, with the state they keep in memory and the wipe of it, cost
 * about as much as the blocks. */
void crisp_poly1305_tag_pieces_x86_64(uint8_t tag[16], const uint8_t key[32],
                                      const crisp_poly1305_pieces *pieces) {
  uint64_t r[2], s[2], h[3] = {0, 0, 0};
  poly1305_radix64_key(r, s, key);
  const uint64_t r1_fold = r[1] + (r[1] >> 2);
  for (int piece = 0; piece < 4; piece++) {
    const uint8_t *block = pieces->data[piece];
    for (size_t n = pieces->blocks[piece]; n; n--, block += 16)
      crisp_poly1305_x86_64_step(h, block, 1, r[0], r[1], r1_fold);
  }
  poly1305_radix64_tag(h, s, tag);
  /* as in crisp_poly1305_blocks_x86_64 */
  __asm__ __volatile__("xorl %%eax, %%eax\n\txorl %%edx, %%edx" : : : "rax", "rdx");
}

/* Scalar only: no call takes a deeper path. */
static size_t vector_never(void) {
  return SIZE_MAX;
}

const crisp_poly1305_impl crisp_poly1305_x86_64_impl = {
    .info = CRISP_IMPL_INFO(crisp_poly1305_x86_64_impl),
    .init = crisp_poly1305_init_x86_64,
    .blocks = crisp_poly1305_blocks_x86_64,
    .finish = crisp_poly1305_finish_x86_64,
    .tag_pieces = crisp_poly1305_tag_pieces_x86_64,
    .vector_from = vector_never,
};
