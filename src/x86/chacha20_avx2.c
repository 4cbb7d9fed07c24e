/* src/x86/chacha20_avx2.c - ChaCha20 with AVX2, 8 blocks at a time.
 *
 * Layout: chacha20_lanes.h, eight 32-bit lanes of a ymm register per state
 * word; the 128-bit halves hold blocks 0-3 and 4-7, so the transpose is a
 * 4x4 word transpose within each half, then vperm2i128 joins the halves of
 * one block. ISA: AVX2 (rotates by 16 and 8 are one vpshufb, by 12 and 7
 * two shifts and an or), and BMI1/BMI2 because the file is built with
 * them: the compiler's scalar code uses rorx. Meant for: AVX2 CPUs without AVX-512; a tail of at
 * least AVX2_TAIL_MIN_BLOCKS runs one 8-block group (the rounds are
 * latency-bound, so 3 blocks cost little less than 8), shorter ones the
 * scalar code, but for a single block after whole groups, computed on the
 * general-purpose registers beside the last of them. The keyed entry, the
 * AEAD's, takes up to one group with the Poly1305 key block beside it the
 * same way (chacha20_lanes_keyed). */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "generic/generic.h"
#include "util.h"
#include "x86/chacha20_x86.h"

#define VECTOR __m256i
#define LANES 8
#define V_SET1(x) _mm256_set1_epi32((int)(x))
#define V_ADD _mm256_add_epi32
#define V_XOR _mm256_xor_si256
#define V_ROTL(x, n) _mm256_or_si256(_mm256_slli_epi32((x), (n)), _mm256_srli_epi32((x), 32 - (n)))
/* Byte permutations that rotate every 32-bit word left by 16 and by 8. */
#define V_ROTL16(x)                                                                                          \
  _mm256_shuffle_epi8((x), _mm256_set_epi8(13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2, 13, 12, 15, \
                                           14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2))
#define V_ROTL8(x)                                                                                           \
  _mm256_shuffle_epi8((x), _mm256_set_epi8(14, 13, 12, 15, 10, 9, 8, 11, 6, 5, 4, 7, 2, 1, 0, 3, 14, 13, 12, \
                                           15, 10, 9, 8, 11, 6, 5, 4, 7, 2, 1, 0, 3))
#define V_ROTL12(x) V_ROTL((x), 12)
#define V_ROTL7(x) V_ROTL((x), 7)
#define V_LANE_INDEX _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0)
#define V_XOR_STORE xor_store_avx2
#define CHACHA20_KEYED 1

static inline void transpose4(__m256i *a, __m256i *b, __m256i *c, __m256i *d) {
  const __m256i t0 = _mm256_unpacklo_epi32(*a, *b), t1 = _mm256_unpackhi_epi32(*a, *b);
  const __m256i t2 = _mm256_unpacklo_epi32(*c, *d), t3 = _mm256_unpackhi_epi32(*c, *d);
  *a = _mm256_unpacklo_epi64(t0, t2), *b = _mm256_unpackhi_epi64(t0, t2);
  *c = _mm256_unpacklo_epi64(t1, t3), *d = _mm256_unpackhi_epi64(t1, t3);
}

static inline void xor_half(uint8_t *out, const uint8_t *in, __m256i keystream) {
  const __m256i data = _mm256_loadu_si256((const __m256i *)in);
  _mm256_storeu_si256((__m256i *)out, _mm256_xor_si256(data, keystream));
}

static inline void xor_store_avx2(uint8_t *out, const uint8_t *in, __m256i x[16]) {
  for (int quarter = 0; quarter < 4; quarter++)
    transpose4(&x[4 * quarter], &x[4 * quarter + 1], &x[4 * quarter + 2], &x[4 * quarter + 3]);
  /* x[4 * quarter + j]: row `quarter` of block j (low half) and of block
   * 4 + j (high half). */
  for (int j = 0; j < 4; j++) {
    const __m256i r0 = x[j], r1 = x[4 + j], r2 = x[8 + j], r3 = x[12 + j];
    xor_half(out + 64 * j, in + 64 * j, _mm256_permute2x128_si256(r0, r1, 0x20));
    xor_half(out + 64 * j + 32, in + 64 * j + 32, _mm256_permute2x128_si256(r2, r3, 0x20));
    xor_half(out + 64 * (4 + j), in + 64 * (4 + j), _mm256_permute2x128_si256(r0, r1, 0x31));
    xor_half(out + 64 * (4 + j) + 32, in + 64 * (4 + j) + 32, _mm256_permute2x128_si256(r2, r3, 0x31));
  }
}

#include "chacha20_lanes.h"

#ifndef AVX2_TAIL_MIN_BLOCKS
#define AVX2_TAIL_MIN_BLOCKS 3
#endif

void crisp_chacha20_xor_avx2(uint8_t *out, const uint8_t *in, size_t len, const uint32_t state[16]) {
  chacha20_lanes_xor(out, in, len, state, AVX2_TAIL_MIN_BLOCKS, crisp_chacha20_xor_generic);
}

static void crisp_chacha20_keyed_xor_avx2(uint8_t key_block[64], uint8_t *out, const uint8_t *in, size_t len,
                                          const uint32_t state[16]) {
  chacha20_lanes_keyed(key_block, out, in, len, state);
}

const crisp_chacha20_impl crisp_chacha20_avx2_impl = {
    .info = CRISP_IMPL_INFO(crisp_chacha20_avx2_impl),
    .xor_stream = crisp_chacha20_xor_avx2,
    .group_blocks = LANES,
    .keyed_stream = crisp_chacha20_keyed_xor_avx2,
    .keyed_max = CHACHA20_KEYED_MAX,
};
