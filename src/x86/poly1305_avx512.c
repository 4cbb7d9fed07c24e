/* src/x86/poly1305_avx512.c - Poly1305 with AVX-512F, radix 2^26, 8 blocks per step.
 *
 * Layout: see poly1305_radix26.h; eight 64-bit lanes of a zmm register, one
 * register per limb, block i of a chunk in lane i (vpermt2q gathers the low
 * and high halves of eight blocks from two loads).
 * ISA: AVX-512F (the flag set also allows VL/BW/DQ, which the compiler may
 * use, so they are listed in the features).
 * Powers r^1..r^8 are computed on the first long call for a key and kept in
 * the state; calls below the crossover (AVX512_COLD_BLOCKS,
 * AVX512_WARM_BLOCKS) stay in the scalar radix 2^64 code (poly1305_scalar.c)
 * on the same accumulator.
 * Meant for: AVX-512 CPUs without IFMA, inputs from the crossover up. */
#include <immintrin.h>
#include <stdint.h>

#define VECTOR __m512i
#define LANES 8
#define V_SET1(x) _mm512_set1_epi64((long long)(x))
#define V_LANE0(x) _mm512_maskz_set1_epi64(1, (long long)(x))
#define V_ADD _mm512_add_epi64
#define V_MUL _mm512_mul_epu32
#define V_AND _mm512_and_si512
#define V_OR _mm512_or_si512
#define V_SRL _mm512_srli_epi64
#define V_SLL _mm512_slli_epi64
#define V_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define V_SUM(v) ((uint64_t)_mm512_reduce_add_epi64(v))

static const int LANE_BLOCK[LANES] = {0, 1, 2, 3, 4, 5, 6, 7};

static inline void load_words(const uint8_t *data, __m512i *low, __m512i *high) {
  const __m512i a = _mm512_loadu_si512(data), b = _mm512_loadu_si512(data + 64);
  *low = _mm512_permutex2var_epi64(a, _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0), b);
  *high = _mm512_permutex2var_epi64(a, _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1), b);
}

#include "tuning.h"
#include "x86/poly1305_radix26.h"

/* Crossovers, in 16-byte blocks: a blocks call below them stays scalar.
 * Cold, the key's first long call, also computes r^1..r^8, so the vector
 * path pays from about 48 blocks; warm, from its first step.
 * docs/performance.md's crossover table gives the measurements and the command; these are the
 * defaults of src/tuning.h, which also keeps each at least one step. */
#define AVX512_COLD_BLOCKS crisp_tuning(CRISP_TUNING_POLY1305_AVX512_COLD)
#define AVX512_WARM_BLOCKS crisp_tuning(CRISP_TUNING_POLY1305_AVX512_WARM)

void crisp_poly1305_blocks_avx512(void *state, const uint8_t *data, size_t nblocks, unsigned hibit) {
  crisp_poly1305_blocks_crossover(state, data, nblocks, hibit, AVX512_COLD_BLOCKS, AVX512_WARM_BLOCKS,
                                  blocks_vector);
}

/* A state counts as warm only once it has taken cold_blocks (or run the
 * vector loop, which a cold call of that many starts): no state reaches the
 * vector loop before cold_blocks in all. */
static size_t vector_from_avx512(void) {
  return 16 * (size_t)AVX512_COLD_BLOCKS;
}

const crisp_poly1305_impl crisp_poly1305_avx512_impl = {
    .info = CRISP_IMPL_INFO(crisp_poly1305_avx512_impl),
    .init = crisp_poly1305_init_x86_64,
    .blocks = crisp_poly1305_blocks_avx512,
    .finish = crisp_poly1305_finish_x86_64,
    .tag_pieces = crisp_poly1305_tag_pieces_x86_64,
    .vector_from = vector_from_avx512,
};
