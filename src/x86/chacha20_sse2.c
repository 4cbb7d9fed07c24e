/* src/x86/chacha20_sse2.c - ChaCha20 with SSE2, 4 blocks at a time.
 *
 * Layout: chacha20_lanes.h, four 32-bit lanes of an xmm register per state
 * word. ISA: SSE2 only (the x86-64 baseline): rotates are two shifts and an
 * or, the 16-bit one two word shuffles. Meant for: x86-64 CPUs without
 * AVX2; 1-2 block tails go to the scalar code, whose rotates are single
 * instructions. */
#include <emmintrin.h>
#include <stdint.h>
#include <string.h>

#include "generic/generic.h"
#include "util.h"
#include "x86/chacha20_x86.h"

#define VECTOR __m128i
#define LANES 4
#define V_SET1(x) _mm_set1_epi32((int)(x))
#define V_ADD _mm_add_epi32
#define V_XOR _mm_xor_si128
#define V_ROTL(x, n) _mm_or_si128(_mm_slli_epi32((x), (n)), _mm_srli_epi32((x), 32 - (n)))
#define V_ROTL16(x) _mm_shufflehi_epi16(_mm_shufflelo_epi16((x), 0xb1), 0xb1)
#define V_ROTL12(x) V_ROTL((x), 12)
#define V_ROTL8(x) V_ROTL((x), 8)
#define V_ROTL7(x) V_ROTL((x), 7)
#define V_LANE_INDEX _mm_set_epi32(3, 2, 1, 0)
#define V_XOR_STORE xor_store_sse2

/* Transposes words a..d of four blocks (vector i holds word i of blocks
 * 0..3) into one 16-byte row per block. */
static inline void transpose4(__m128i *a, __m128i *b, __m128i *c, __m128i *d) {
  const __m128i t0 = _mm_unpacklo_epi32(*a, *b), t1 = _mm_unpackhi_epi32(*a, *b);
  const __m128i t2 = _mm_unpacklo_epi32(*c, *d), t3 = _mm_unpackhi_epi32(*c, *d);
  *a = _mm_unpacklo_epi64(t0, t2), *b = _mm_unpackhi_epi64(t0, t2);
  *c = _mm_unpacklo_epi64(t1, t3), *d = _mm_unpackhi_epi64(t1, t3);
}

static inline void xor_row(uint8_t *out, const uint8_t *in, __m128i keystream) {
  const __m128i data = _mm_loadu_si128((const __m128i *)in);
  _mm_storeu_si128((__m128i *)out, _mm_xor_si128(data, keystream));
}

static inline void xor_store_sse2(uint8_t *out, const uint8_t *in, __m128i x[16]) {
  for (int quarter = 0; quarter < 4; quarter++) {
    __m128i *q = x + 4 * quarter;
    transpose4(&q[0], &q[1], &q[2], &q[3]);
    /* q[j] is bytes 16 * quarter .. + 16 of block j. */
    for (int block = 0; block < 4; block++)
      xor_row(out + 64 * block + 16 * quarter, in + 64 * block + 16 * quarter, q[block]);
  }
}

#include "chacha20_lanes.h"

/* From this many blocks a partial group takes the 4-block path. */
#ifndef X86_64_TAIL_MIN_BLOCKS
#define X86_64_TAIL_MIN_BLOCKS 3
#endif

void crisp_chacha20_xor_x86_64(uint8_t *out, const uint8_t *in, size_t len, const uint32_t state[16]) {
  chacha20_lanes_xor(out, in, len, state, X86_64_TAIL_MIN_BLOCKS, crisp_chacha20_xor_generic);
}

const crisp_chacha20_impl crisp_chacha20_x86_64_impl = {
    .info = CRISP_IMPL_INFO(crisp_chacha20_x86_64_impl),
    .xor_stream = crisp_chacha20_xor_x86_64,
    .group_blocks = LANES,
};
