/* src/x86/md5_many_avx2.c - MD5 of many messages at once, one message per
 * 32-bit lane: two groups of 8 lanes in ymm registers, stepped together so
 * that one group's latency hides behind the other's work.
 *
 * Layout: group g (lanes 8g..8g+7) keeps a, b, c, d in four ymm registers;
 * each block is loaded as 8 rows of 32 bytes per half and transposed with
 * unpacks and 128-bit permutes (no gathers) into x[g][0..15], one vector per
 * message word. Rotates are two shifts and an OR (AVX2 has no rotate); G is
 * (d & b) + (~d & c), two ADDs, so only d & b waits for b.
 * Uneven block counts: the lane scheduler of md5_lanes.h refills a lane when
 * its message ends and leaves the last lanes to the scalar code.
 * ISA: AVX2 (built with the avx2 flag set, which also allows BMI1/BMI2 in the
 * scalar glue: the descriptor lists them).
 * Meant for: 3 or more messages of a few blocks or more each. */
#include <immintrin.h>

#include "md5_schedule.h"
#include "x86/md5_lanes.h"

/* Below this many busy lanes the scalar code is faster: a two-group step
 * costs about as much as three scalar steps (crisp bench --impl all). */
#define MIN_BUSY_LANES 3

/* Makes v a value of its own, so the compiler cannot reassociate a term
 * computed early into the path through b. */
#define PIN(v) __asm__("" : "+x"(v))

/* Round functions, each adding f(b, c, d) into a with only the last
 * operation waiting for b where the function allows it. */
#define ADD_F(a, b, c, d)                                                 \
  do {                                                                    \
    __m256i t = _mm256_xor_si256(c, d);                                   \
    PIN(t);                                                               \
    a = _mm256_add_epi32(a, _mm256_xor_si256(_mm256_and_si256(t, b), d)); \
  } while (0)
#define ADD_G(a, b, c, d)                               \
  do {                                                  \
    a = _mm256_add_epi32(a, _mm256_andnot_si256(d, c)); \
    PIN(a);                                             \
    a = _mm256_add_epi32(a, _mm256_and_si256(d, b));    \
  } while (0)
#define ADD_H(a, b, c, d)                            \
  do {                                               \
    __m256i t = _mm256_xor_si256(c, d);              \
    PIN(t);                                          \
    a = _mm256_add_epi32(a, _mm256_xor_si256(t, b)); \
  } while (0)
#define ADD_I(a, b, c, d)                                                \
  do {                                                                   \
    __m256i t = _mm256_xor_si256(d, _mm256_set1_epi32(-1));              \
    PIN(t);                                                              \
    a = _mm256_add_epi32(a, _mm256_xor_si256(_mm256_or_si256(t, b), c)); \
  } while (0)

/* a = b + ((a + round(b, c, d) + x[k] + constant) <<< s) in group g. */
#define STEP_GROUP(round, g, a, b, c, d, k, constant, s)                                        \
  a##g = _mm256_add_epi32(a##g, _mm256_add_epi32(x[g][k], _mm256_set1_epi32((int)(constant)))); \
  PIN(a##g);                                                                                    \
  ADD_##round(a##g, b##g, c##g, d##g);                                                          \
  a##g =                                                                                        \
      _mm256_add_epi32(_mm256_or_si256(_mm256_slli_epi32(a##g, s), _mm256_srli_epi32(a##g, 32 - (s))), b##g)

/* One step of the schedule (md5_schedule.h) in both groups. */
#define STEP(round, a, b, c, d, k, constant, s)     \
  STEP_GROUP(round, 0, a, b, c, d, k, constant, s); \
  STEP_GROUP(round, 1, a, b, c, d, k, constant, s)

/* x[j] lane l = word j of the 32-byte row at data[l] + offset, for the 8
 * rows given. Unpacking 32- then 64-bit elements of rows 4h..4h+3 gives, in
 * 128-bit lane q of mixed[h][m], word 4q + m of those rows; a 128-bit
 * permute of mixed[0][m] and mixed[1][m] then makes x[4q + m]. */
static inline void load_transposed8(__m256i x[8], const uint8_t *const data[8], size_t offset) {
  __m256i mixed[2][4];
  for (int h = 0; h < 2; h++) {
    const __m256i r0 = _mm256_loadu_si256((const __m256i *)(data[4 * h] + offset));
    const __m256i r1 = _mm256_loadu_si256((const __m256i *)(data[4 * h + 1] + offset));
    const __m256i r2 = _mm256_loadu_si256((const __m256i *)(data[4 * h + 2] + offset));
    const __m256i r3 = _mm256_loadu_si256((const __m256i *)(data[4 * h + 3] + offset));
    const __m256i low01 = _mm256_unpacklo_epi32(r0, r1), high01 = _mm256_unpackhi_epi32(r0, r1);
    const __m256i low23 = _mm256_unpacklo_epi32(r2, r3), high23 = _mm256_unpackhi_epi32(r2, r3);
    mixed[h][0] = _mm256_unpacklo_epi64(low01, low23);
    mixed[h][1] = _mm256_unpackhi_epi64(low01, low23);
    mixed[h][2] = _mm256_unpacklo_epi64(high01, high23);
    mixed[h][3] = _mm256_unpackhi_epi64(high01, high23);
  }
  for (int m = 0; m < 4; m++) {
    x[m] = _mm256_permute2x128_si256(mixed[0][m], mixed[1][m], 0x20);     /* low halves */
    x[4 + m] = _mm256_permute2x128_si256(mixed[0][m], mixed[1][m], 0x31); /* high halves */
  }
}

static void run_lanes_avx2(md5_lanes *lanes, size_t nblocks, size_t active) {
  (void)active; /* one group alone takes as long as both: latency-bound */
  __m256i a0 = _mm256_load_si256((const __m256i *)lanes->state[0]);
  __m256i b0 = _mm256_load_si256((const __m256i *)lanes->state[1]);
  __m256i c0 = _mm256_load_si256((const __m256i *)lanes->state[2]);
  __m256i d0 = _mm256_load_si256((const __m256i *)lanes->state[3]);
  __m256i a1 = _mm256_load_si256((const __m256i *)(lanes->state[0] + 8));
  __m256i b1 = _mm256_load_si256((const __m256i *)(lanes->state[1] + 8));
  __m256i c1 = _mm256_load_si256((const __m256i *)(lanes->state[2] + 8));
  __m256i d1 = _mm256_load_si256((const __m256i *)(lanes->state[3] + 8));
  for (size_t block = 0; block < nblocks; block++) {
    __m256i x[2][16];
    for (int g = 0; g < 2; g++) {
      load_transposed8(x[g], lanes->data + 8 * g, 64 * block);
      load_transposed8(x[g] + 8, lanes->data + 8 * g, 64 * block + 32);
    }
    const __m256i saved[8] = {a0, b0, c0, d0, a1, b1, c1, d1};
    /* Shifts per round from RFC 1321 3.4. */
    MD5_BLOCK_STEPS(STEP);
    a0 = _mm256_add_epi32(a0, saved[0]), b0 = _mm256_add_epi32(b0, saved[1]);
    c0 = _mm256_add_epi32(c0, saved[2]), d0 = _mm256_add_epi32(d0, saved[3]);
    a1 = _mm256_add_epi32(a1, saved[4]), b1 = _mm256_add_epi32(b1, saved[5]);
    c1 = _mm256_add_epi32(c1, saved[6]), d1 = _mm256_add_epi32(d1, saved[7]);
  }
  _mm256_store_si256((__m256i *)lanes->state[0], a0), _mm256_store_si256((__m256i *)lanes->state[1], b0);
  _mm256_store_si256((__m256i *)lanes->state[2], c0), _mm256_store_si256((__m256i *)lanes->state[3], d0);
  _mm256_store_si256((__m256i *)(lanes->state[0] + 8), a1),
      _mm256_store_si256((__m256i *)(lanes->state[1] + 8), b1);
  _mm256_store_si256((__m256i *)(lanes->state[2] + 8), c1),
      _mm256_store_si256((__m256i *)(lanes->state[3] + 8), d1);
}

void crisp_md5_many_avx2(uint32_t *const state[], const uint8_t *const data[], const size_t nblocks[],
                         size_t n) {
  md5_lanes_schedule(state, data, nblocks, n, 16, MIN_BUSY_LANES, run_lanes_avx2);
}

const crisp_md5_many_impl crisp_md5_many_avx2_impl = {
    .info = CRISP_IMPL_INFO(crisp_md5_many_avx2_impl),
    .blocks_many = crisp_md5_many_avx2,
};
