/* src/x86/poly1305_avx2.c - Poly1305 with AVX2, radix 2^26, 4 blocks per step.
 *
 * Layout: see poly1305_radix26.h; four 64-bit lanes of a ymm register, one
 * register per limb. vpunpck{l,h}qdq splits 64 bytes into the low and high
 * halves of blocks 0, 2, 1, 3 (lane order follows the unpack; the lane
 * powers are stored in that order), so no cross-lane shuffle is needed.
 * ISA: AVX2 (the flag set also allows BMI1/BMI2, which the compiler may use
 * in the scalar tail, so they are listed in the features).
 * Powers r^1..r^4 are computed on the first long call for a key and kept in
 * the state; calls below the crossover (AVX2_COLD_BLOCKS,
 * AVX2_WARM_BLOCKS) stay in the scalar radix 2^64 code (poly1305_scalar.c)
 * on the same accumulator.
 * Meant for: AVX2 CPUs without AVX-512, inputs from the crossover up. */
#include <immintrin.h>
#include <stdint.h>

#define VECTOR __m256i
#define LANES 4
#define V_SET1(x) _mm256_set1_epi64x((long long)(x))
#define V_LANE0(x) _mm256_set_epi64x(0, 0, 0, (long long)(x))
#define V_ADD _mm256_add_epi64
#define V_MUL _mm256_mul_epu32
#define V_AND _mm256_and_si256
#define V_OR _mm256_or_si256
#define V_SRL _mm256_srli_epi64
#define V_SLL _mm256_slli_epi64
#define V_LOAD(p) _mm256_loadu_si256((const __m256i *)(p))

static const int LANE_BLOCK[LANES] = {0, 2, 1, 3};

static inline uint64_t V_SUM(__m256i v) {
  const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  return (uint64_t)_mm_cvtsi128_si64(s) + (uint64_t)_mm_extract_epi64(s, 1);
}

static inline void load_words(const uint8_t *data, __m256i *low, __m256i *high) {
  const __m256i a = _mm256_loadu_si256((const __m256i *)data),
                b = _mm256_loadu_si256((const __m256i *)(data + 32));
  *low = _mm256_unpacklo_epi64(a, b);
  *high = _mm256_unpackhi_epi64(a, b);
}

#include "tuning.h"
#include "x86/poly1305_radix26.h"

/* Crossovers, in 16-byte blocks: a blocks call below them stays scalar.
 * Cold, the key's first long call, also computes r^1..r^4; four 32x32-bit
 * vector multiplies do little better than the scalar 64x64-bit ones on a
 * core with fast scalar multiplies, so the vector path pays only from about
 * 72 blocks; warm, from two steps. docs/performance.md's crossover table gives the
 * measurements and the command; these are the defaults of src/tuning.h,
 * which also keeps each at least one step. */
#define AVX2_COLD_BLOCKS crisp_tuning(CRISP_TUNING_POLY1305_AVX2_COLD)
#define AVX2_WARM_BLOCKS crisp_tuning(CRISP_TUNING_POLY1305_AVX2_WARM)

void crisp_poly1305_blocks_avx2(void *state, const uint8_t *data, size_t nblocks, unsigned hibit) {
  crisp_poly1305_blocks_crossover(state, data, nblocks, hibit, AVX2_COLD_BLOCKS, AVX2_WARM_BLOCKS,
                                  blocks_vector);
}

/* A state counts as warm only once it has taken cold_blocks (or run the
 * vector loop, which a cold call of that many starts): no state reaches the
 * vector loop before cold_blocks in all. */
static size_t vector_from_avx2(void) {
  return 16 * (size_t)AVX2_COLD_BLOCKS;
}

const crisp_poly1305_impl crisp_poly1305_avx2_impl = {
    .info = CRISP_IMPL_INFO(crisp_poly1305_avx2_impl),
    .init = crisp_poly1305_init_x86_64,
    .blocks = crisp_poly1305_blocks_avx2,
    .finish = crisp_poly1305_finish_x86_64,
    .tag_pieces = crisp_poly1305_tag_pieces_x86_64,
    .vector_from = vector_from_avx2,
};
