/* src/x86/chacha20_avx512.c - ChaCha20 with AVX-512, 16 blocks at a time.
 *
 * Layout: chacha20_lanes.h, sixteen 32-bit lanes of a zmm register per
 * state word; 128-bit lane k holds blocks 4k..4k+3, so the transpose is a
 * 4x4 word transpose within lanes, then a 4x4 transpose of 128-bit lanes
 * (vshufi32x4). ISA: AVX-512F (every rotate is one vprold). Meant for:
 * AVX-512 CPUs. A message of two to four blocks runs in the row layout
 * instead (rows_body), and so does the keyed entry's message of up to four
 * blocks. The rounds are latency-bound, so whole input runs two groups
 * interleaved (32 blocks, all 32 zmm registers); a tail of at least
 * AVX512_TAIL_MIN_BLOCKS runs one group under byte masks; a single block
 * after whole groups is computed on the general-purpose registers beside
 * the last of them, a message of one block by the generic code directly
 * (the AVX2 kernel would hand it there too, one call later).
 * The keyed entry, the AEAD's, takes the Poly1305 key block beside the
 * rows or beside up to two groups the same way (chacha20_lanes_keyed); the
 * fused open takes the rows up to four blocks and one group above, with
 * the key block in the first half of their rounds and the scalar Poly1305
 * (x86/poly1305_scalar.h) over ad, the ciphertext and the lengths in the
 * second (chacha20_lanes_open_mac). */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "generic/generic.h"
#include "poly1305_radix64.h"
#include "util.h"
#include "x86/chacha20_x86.h"
#include "x86/poly1305_scalar.h"

#define VECTOR __m512i
#define LANES 16
#define V_SET1(x) _mm512_set1_epi32((int)(x))
#define V_ADD _mm512_add_epi32
#define V_XOR _mm512_xor_si512
#define V_ROTL16(x) _mm512_rol_epi32((x), 16)
#define V_ROTL12(x) _mm512_rol_epi32((x), 12)
#define V_ROTL8(x) _mm512_rol_epi32((x), 8)
#define V_ROTL7(x) _mm512_rol_epi32((x), 7)
#define V_LANE_INDEX _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define V_XOR_STORE xor_store_avx512
#define CHACHA20_TWO_GROUPS 1
#define CHACHA20_KEYED 1
#define CHACHA20_OPEN_MAC 1
#define CHACHA20_MAC_STEP(h, block, r0, r1, r1_fold) crisp_poly1305_x86_64_step(h, block, 1, r0, r1, r1_fold)

static inline void transpose4(__m512i *a, __m512i *b, __m512i *c, __m512i *d) {
  const __m512i t0 = _mm512_unpacklo_epi32(*a, *b), t1 = _mm512_unpackhi_epi32(*a, *b);
  const __m512i t2 = _mm512_unpacklo_epi32(*c, *d), t3 = _mm512_unpackhi_epi32(*c, *d);
  *a = _mm512_unpacklo_epi64(t0, t2), *b = _mm512_unpackhi_epi64(t0, t2);
  *c = _mm512_unpacklo_epi64(t1, t3), *d = _mm512_unpackhi_epi64(t1, t3);
}

static inline void xor_block(uint8_t *out, const uint8_t *in, __m512i keystream) {
  const __m512i data = _mm512_loadu_si512((const void *)in);
  _mm512_storeu_si512((void *)out, _mm512_xor_si512(data, keystream));
}

static inline __attribute__((always_inline)) void xor_store_avx512(uint8_t *out, const uint8_t *in,
                                                                   __m512i x[16]) {
#pragma GCC unroll 4
  for (int quarter = 0; quarter < 4; quarter++) {
    transpose4(&x[4 * quarter], &x[4 * quarter + 1], &x[4 * quarter + 2], &x[4 * quarter + 3]);
  }
  /* x[4 * quarter + m], 128-bit lane k: row `quarter` of block 4k + m. */
#pragma GCC unroll 4
  for (int m = 0; m < 4; m++) {
    const __m512i t0 = _mm512_shuffle_i32x4(x[m], x[4 + m], 0x44),
                  t1 = _mm512_shuffle_i32x4(x[m], x[4 + m], 0xee);
    const __m512i t2 = _mm512_shuffle_i32x4(x[8 + m], x[12 + m], 0x44),
                  t3 = _mm512_shuffle_i32x4(x[8 + m], x[12 + m], 0xee);
    xor_block(out + 64 * m, in + 64 * m, _mm512_shuffle_i32x4(t0, t2, 0x88));
    xor_block(out + 64 * (4 + m), in + 64 * (4 + m), _mm512_shuffle_i32x4(t0, t2, 0xdd));
    xor_block(out + 64 * (8 + m), in + 64 * (8 + m), _mm512_shuffle_i32x4(t1, t3, 0x88));
    xor_block(out + 64 * (12 + m), in + 64 * (12 + m), _mm512_shuffle_i32x4(t1, t3, 0xdd));
  }
}

/* Whether the 64 bytes at p reach a page that the first `used` of them do
 * not: a masked access there has its masked-off bytes on a page the
 * buffer need not own (unmapped, read-only, or not yet faulted in), and
 * the CPU suppresses that fault by a microcode assist, on every call, that
 * costs more than the whole block. Addresses and lengths are public. */
static inline int masked_off_page(const uint8_t *p, size_t used) {
  return (((uintptr_t)p + used - 1) ^ ((uintptr_t)p + 63)) >> 12 != 0;
}

/* used (< 64) bytes of in XORed with the keystream through a stack copy;
 * out of line, as the partial group's 16 inlined blocks would each carry
 * it. */
static __attribute__((noinline)) void xor_block_through_stack(uint8_t *out, const uint8_t *in,
                                                              __m512i keystream, size_t used) {
  uint8_t stream[64];
  _mm512_storeu_si512((void *)stream, keystream);
  for (size_t i = 0; i < used; i++) out[i] = in[i] ^ stream[i];
  crisp_wipe(stream, sizeof stream);
}

/* The partial last group: blocks past len are skipped, the one len ends in
 * is loaded and stored under a byte mask (AVX-512BW), so nothing outside
 * the buffers is touched and no stack copy is needed; where the mask's
 * unused bytes would fall on another page, the block goes through the
 * stack instead (masked_off_page). */
static inline __attribute__((always_inline)) void xor_block_partial(uint8_t *out, const uint8_t *in,
                                                                    __m512i keystream, size_t block,
                                                                    size_t len) {
  if (len >= 64 * (block + 1)) {
    xor_block(out + 64 * block, in + 64 * block, keystream);
  } else if (len > 64 * block) {
    const size_t used = len - 64 * block;
    out += 64 * block, in += 64 * block;
    if (masked_off_page(in, used) || masked_off_page(out, used)) {
      xor_block_through_stack(out, in, keystream, used);
      return;
    }
    const __mmask64 mask = (__mmask64)(~0ull >> (64 - used));
    const __m512i data = _mm512_maskz_loadu_epi8(mask, in);
    _mm512_mask_storeu_epi8(out, mask, _mm512_xor_si512(data, keystream));
  }
}

static inline __attribute__((always_inline)) void xor_store_avx512_partial(uint8_t *out, const uint8_t *in,
                                                                           __m512i x[16], size_t len) {
#pragma GCC unroll 4
  for (int quarter = 0; quarter < 4; quarter++)
    transpose4(&x[4 * quarter], &x[4 * quarter + 1], &x[4 * quarter + 2], &x[4 * quarter + 3]);
#pragma GCC unroll 4
  for (size_t m = 0; m < 4; m++) {
    const __m512i t0 = _mm512_shuffle_i32x4(x[m], x[4 + m], 0x44),
                  t1 = _mm512_shuffle_i32x4(x[m], x[4 + m], 0xee);
    const __m512i t2 = _mm512_shuffle_i32x4(x[8 + m], x[12 + m], 0x44),
                  t3 = _mm512_shuffle_i32x4(x[8 + m], x[12 + m], 0xee);
    xor_block_partial(out, in, _mm512_shuffle_i32x4(t0, t2, 0x88), m, len);
    xor_block_partial(out, in, _mm512_shuffle_i32x4(t0, t2, 0xdd), 4 + m, len);
    xor_block_partial(out, in, _mm512_shuffle_i32x4(t1, t3, 0x88), 8 + m, len);
    xor_block_partial(out, in, _mm512_shuffle_i32x4(t1, t3, 0xdd), 12 + m, len);
  }
}
#define V_XOR_STORE_PARTIAL xor_store_avx512_partial

#include "chacha20_lanes.h"

/* Up to ROWS_MAX_BYTES in the row layout: a vector per row of the state
 * (words 0-3, 4-7, 8-11, 12-15), block j of four in 128-bit lane j, the
 * diagonal rounds reached by rotating rows a, c and d within their lanes.
 * The rounds' chain is as long as the group's, but the group issues
 * sixteen operations per step of it and the rows four: up to four blocks
 * take less time in the row layout, with most of the vector pipes free,
 * and a transposition of 8 shuffles instead of 64. */
#define ROWS_MAX_BYTES (4 * 64)

/* Rows a, c and d turned within their lanes by minus one, one and two
 * words, so that the diagonals stand in columns, and back. Row b stays:
 * it is the last a quarter round finishes, so turning it would put a
 * shuffle on the rounds' chain, where a, c and d are ready early enough
 * for theirs to overlap it. */
#define ROWS_TO_DIAGONALS(a, c, d)                       \
  (a = _mm512_shuffle_epi32(a, _MM_SHUFFLE(2, 1, 0, 3)), \
   c = _mm512_shuffle_epi32(c, _MM_SHUFFLE(0, 3, 2, 1)), \
   d = _mm512_shuffle_epi32(d, _MM_SHUFFLE(1, 0, 3, 2)))
#define ROWS_TO_COLUMNS(a, c, d)                         \
  (a = _mm512_shuffle_epi32(a, _MM_SHUFFLE(0, 3, 2, 1)), \
   c = _mm512_shuffle_epi32(c, _MM_SHUFFLE(2, 1, 0, 3)), \
   d = _mm512_shuffle_epi32(d, _MM_SHUFFLE(1, 0, 3, 2)))

static inline __m512i row_of(const uint32_t state[16], int row) {
  return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)(state + 4 * row)));
}

/* What the rows run beside them on the general-purpose registers: nothing,
 * the block at state[12] (the AEAD's Poly1305 key block, to key_block), or
 * that block and then the fused open's Poly1305 (chacha20_lanes_open_mac
 * says how; the rows' latency is the group's, with a quarter of its vector
 * work). */
enum rows_beside { ROWS_ALONE, ROWS_KEYED, ROWS_OPEN_MAC };

/* len bytes (at most ROWS_MAX_BYTES) of in XORed with the keystream from
 * the counter in state[12], or from the block after it beside the key
 * block. */
static inline __attribute__((always_inline)) void rows_body(uint8_t *key_block, uint8_t *out,
                                                            const uint8_t *in, size_t len,
                                                            const uint32_t state[16],
                                                            const enum rows_beside beside, uint8_t *tag,
                                                            const crisp_poly1305_pieces *mac) {
  const int with_key = beside == ROWS_KEYED;
  const __m512i a0 = row_of(state, 0), b0 = row_of(state, 1), c0 = row_of(state, 2);
  const int first = beside != ROWS_ALONE; /* the rows' first block after the key block */
  const __m512i d0 = _mm512_add_epi32(
      row_of(state, 3),
      _mm512_set_epi32(0, 0, 0, first + 3, 0, 0, 0, first + 2, 0, 0, 0, first + 1, 0, 0, 0, first));
  __m512i a = a0, b = b0, c = c0, d = d0;
  CHACHA20_KEY_START(k, state[12]);
  if (beside != ROWS_OPEN_MAC) {
    for (int i = 0; i < 10; i++) {
      CHACHA20_QUARTER_ROUND(a, b, c, d); /* every block's column round */
      ROWS_TO_DIAGONALS(a, c, d);
      CHACHA20_KEY_COLUMNS(with_key);
      CHACHA20_QUARTER_ROUND(a, b, c, d);
      ROWS_TO_COLUMNS(a, c, d);
      CHACHA20_KEY_DIAGONALS(with_key);
    }
    CHACHA20_KEY_STORE(with_key, key_block, k, state[12]);
  } else {
    /* the key block's twenty rounds beside the rows' first ten, then the
     * MAC in ten parts, one beside each of the rows' last ten rounds */
    for (int i = 0; i < 5; i++) {
      CHACHA20_QUARTER_ROUND(a, b, c, d);
      ROWS_TO_DIAGONALS(a, c, d);
      CHACHA20_KEY_DOUBLE_ROUND();
      CHACHA20_QUARTER_ROUND(a, b, c, d);
      ROWS_TO_COLUMNS(a, c, d);
      CHACHA20_KEY_DOUBLE_ROUND();
    }
    const uint32_t key_words[8] = {k0, k1, k2, k3, k4, k5, k6, k7};
    chacha20_mac_pass pass;
    chacha20_mac_begin(&pass, key_words, state, mac, 10);
    for (int i = 0; i < 5; i++) {
      CHACHA20_QUARTER_ROUND(a, b, c, d);
      ROWS_TO_DIAGONALS(a, c, d);
      chacha20_mac_part(&pass, 2 * (size_t)i);
      CHACHA20_QUARTER_ROUND(a, b, c, d);
      ROWS_TO_COLUMNS(a, c, d);
      chacha20_mac_part(&pass, 2 * (size_t)i + 1);
    }
    poly1305_radix64_tag(pass.h, pass.s, tag);
  }
  if (len == 0) return; /* a keyed call with only its key block; in and out may be NULL */
  a = _mm512_add_epi32(a, a0), b = _mm512_add_epi32(b, b0);
  c = _mm512_add_epi32(c, c0), d = _mm512_add_epi32(d, d0);
  /* block j is 128-bit lane j of a, b, c and d */
  const __m512i ab_low = _mm512_shuffle_i32x4(a, b, 0x44), ab_high = _mm512_shuffle_i32x4(a, b, 0xee);
  const __m512i cd_low = _mm512_shuffle_i32x4(c, d, 0x44), cd_high = _mm512_shuffle_i32x4(c, d, 0xee);
  xor_block_partial(out, in, _mm512_shuffle_i32x4(ab_low, cd_low, 0x88), 0, len);
  xor_block_partial(out, in, _mm512_shuffle_i32x4(ab_low, cd_low, 0xdd), 1, len);
  xor_block_partial(out, in, _mm512_shuffle_i32x4(ab_high, cd_high, 0x88), 2, len);
  xor_block_partial(out, in, _mm512_shuffle_i32x4(ab_high, cd_high, 0xdd), 3, len);
}

static __attribute__((noinline)) void rows(uint8_t *out, const uint8_t *in, size_t len,
                                           const uint32_t state[16]) {
  rows_body(NULL, out, in, len, state, ROWS_ALONE, NULL, NULL);
}

static __attribute__((noinline)) void rows_and_key(uint8_t key_block[64], uint8_t *out, const uint8_t *in,
                                                   size_t len, const uint32_t state[16]) {
  rows_body(key_block, out, in, len, state, ROWS_KEYED, NULL, NULL);
}

static __attribute__((noinline)) void rows_open_mac(uint8_t tag[16], uint8_t *out, const uint8_t *in,
                                                    size_t len, const uint32_t state[16],
                                                    const crisp_poly1305_pieces *mac) {
  rows_body(NULL, out, in, len, state, ROWS_OPEN_MAC, tag, mac);
}

/* The rounds are latency-bound, so a 16-block group costs about what an
 * 8-block one does: from two blocks on a tail takes the full group. */
#ifndef AVX512_TAIL_MIN_BLOCKS
#define AVX512_TAIL_MIN_BLOCKS 2
#endif

void crisp_chacha20_xor_avx512(uint8_t *out, const uint8_t *in, size_t len, const uint32_t state[16]) {
  if (len > 64 && len <= ROWS_MAX_BYTES) {
    rows(out, in, len, state);
    return;
  }
  chacha20_lanes_xor(out, in, len, state, AVX512_TAIL_MIN_BLOCKS, crisp_chacha20_xor_generic);
}

static void crisp_chacha20_keyed_xor_avx512(uint8_t key_block[64], uint8_t *out, const uint8_t *in,
                                            size_t len, const uint32_t state[16]) {
  if (len <= ROWS_MAX_BYTES) {
    rows_and_key(key_block, out, in, len, state);
    return;
  }
  chacha20_lanes_keyed(key_block, out, in, len, state);
}

/* A function of its own, as rows_open_mac is: inlined here, the group's
 * frame would be set up before the rows' call too, and the rows' frame
 * would lie below it. */
static __attribute__((noinline)) void group_open_mac(uint8_t tag[16], uint8_t *out, const uint8_t *in,
                                                     size_t len, const uint32_t state[16],
                                                     const crisp_poly1305_pieces *mac) {
  chacha20_lanes_open_mac(tag, out, in, len, state, mac);
}

static void crisp_chacha20_open_mac_avx512(uint8_t tag[16], uint8_t *out, const uint8_t *in, size_t len,
                                           const uint32_t state[16], const crisp_poly1305_pieces *mac) {
  if (len <= ROWS_MAX_BYTES)
    rows_open_mac(tag, out, in, len, state, mac);
  else
    group_open_mac(tag, out, in, len, state, mac);
}

const crisp_chacha20_impl crisp_chacha20_avx512_impl = {
    .info = CRISP_IMPL_INFO(crisp_chacha20_avx512_impl),
    .xor_stream = crisp_chacha20_xor_avx512,
    .group_blocks = LANES,
    .keyed_stream = crisp_chacha20_keyed_xor_avx512,
    .keyed_max = CHACHA20_KEYED_MAX,
    .open_mac = crisp_chacha20_open_mac_avx512,
    .open_mac_max = LANES * 64,
};
