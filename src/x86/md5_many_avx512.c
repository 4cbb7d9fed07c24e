/* src/x86/md5_many_avx512.c - MD5 of many messages at once, one message per
 * 32-bit lane of a zmm register, VPTERNLOGD for the round functions and
 * VPROLD for the rotates; a second group of 16 lanes steps alongside the
 * first when more than 16 messages are in flight, hiding its latency.
 *
 * Layout: group g (lanes 16g..16g+15) keeps a, b, c, d in four zmm
 * registers; each block of a group is loaded as 16 rows and transposed in
 * registers (unpack and 128-bit shuffles, no gathers) into x<g>[0..15], one
 * vector per message word.
 * Uneven block counts: the lane scheduler of md5_lanes.h refills a lane when
 * its message ends and leaves the last lanes to the scalar code.
 * ISA: AVX-512F + AVX-512VL (built with the avx512 flag set, so BW/DQ/AVX2
 * encodings may appear: the descriptor lists them).
 * Cycle model: a step is four dependent vector operations, so one group
 * runs at four vector latencies a step whatever its lane count; the second
 * group fills that latency, which is why more than 16 messages gain most.
 * Meant for: 2 or more messages of a few blocks or more each. */
#include <immintrin.h>

#include "md5_schedule.h"
#include "x86/md5_lanes.h"

/* Below this many busy lanes the scalar code is faster: a lane step costs
 * as much for one lane as for sixteen, and one vector step is about twice a
 * scalar one where vector latency is two cycles. */
#define MIN_BUSY_LANES 2

/* VPTERNLOGD truth tables of the round functions of (b, c, d):
 * F = b ? c : d, G = d ? b : c, H = b ^ c ^ d, I = c ^ (b | ~d). */
#define FUNCTION_F 0xca
#define FUNCTION_G 0xe4
#define FUNCTION_H 0x96
#define FUNCTION_I 0x39

/* Keeps the compiler from reassociating x + K into the path through b. */
#define PIN(v) __asm__("" : "+v"(v))

/* a = b + ((a + round(b, c, d) + x[k] + constant) <<< shift). */
#define STEP_GROUP(round, g, a, b, c, d, k, constant, shift)                                    \
  a##g = _mm512_add_epi32(a##g, _mm512_add_epi32(x##g[k], _mm512_set1_epi32((int)(constant)))); \
  PIN(a##g);                                                                                    \
  a##g = _mm512_add_epi32(a##g, _mm512_ternarylogic_epi32(b##g, c##g, d##g, FUNCTION_##round)); \
  a##g = _mm512_add_epi32(_mm512_rol_epi32(a##g, shift), b##g)

/* One step of the schedule (md5_schedule.h) in group 0, and in group 1 when
 * two groups run. */
#define STEP(round, a, b, c, d, k, constant, shift)       \
  STEP_GROUP(round, 0, a, b, c, d, k, constant, shift);   \
  if (groups > 1) {                                       \
    STEP_GROUP(round, 1, a, b, c, d, k, constant, shift); \
  }

/* x[k] lane l = word k of the 64-byte row at data[l] + offset. Unpacking
 * 32- then 64-bit elements of rows 4g..4g+3 gives, in 128-bit lane q of
 * mixed[g][m], word 4q + m of those four rows; two rounds of 128-bit
 * shuffles then gather lane q of mixed[0..3][m] into x[4q + m]. */
static inline void load_transposed(__m512i x[16], const uint8_t *const data[16], size_t offset) {
  __m512i mixed[4][4];
  for (int g = 0; g < 4; g++) {
    const __m512i r0 = _mm512_loadu_si512(data[4 * g] + offset);
    const __m512i r1 = _mm512_loadu_si512(data[4 * g + 1] + offset);
    const __m512i r2 = _mm512_loadu_si512(data[4 * g + 2] + offset);
    const __m512i r3 = _mm512_loadu_si512(data[4 * g + 3] + offset);
    const __m512i low01 = _mm512_unpacklo_epi32(r0, r1), high01 = _mm512_unpackhi_epi32(r0, r1);
    const __m512i low23 = _mm512_unpacklo_epi32(r2, r3), high23 = _mm512_unpackhi_epi32(r2, r3);
    mixed[g][0] = _mm512_unpacklo_epi64(low01, low23);
    mixed[g][1] = _mm512_unpackhi_epi64(low01, low23);
    mixed[g][2] = _mm512_unpacklo_epi64(high01, high23);
    mixed[g][3] = _mm512_unpackhi_epi64(high01, high23);
  }
  for (int m = 0; m < 4; m++) {
    /* 0x88 takes 128-bit lanes 0, 2 of each source; 0xdd lanes 1, 3. */
    const __m512i even01 = _mm512_shuffle_i32x4(mixed[0][m], mixed[1][m], 0x88);
    const __m512i odd01 = _mm512_shuffle_i32x4(mixed[0][m], mixed[1][m], 0xdd);
    const __m512i even23 = _mm512_shuffle_i32x4(mixed[2][m], mixed[3][m], 0x88);
    const __m512i odd23 = _mm512_shuffle_i32x4(mixed[2][m], mixed[3][m], 0xdd);
    x[m] = _mm512_shuffle_i32x4(even01, even23, 0x88);
    x[4 + m] = _mm512_shuffle_i32x4(odd01, odd23, 0x88);
    x[8 + m] = _mm512_shuffle_i32x4(even01, even23, 0xdd);
    x[12 + m] = _mm512_shuffle_i32x4(odd01, odd23, 0xdd);
  }
}

/* groups (1 or 2) is a constant where this is inlined, so each caller is
 * compiled for its own number of groups. */
static inline __attribute__((always_inline)) void run_groups(md5_lanes *lanes, size_t nblocks, int groups) {
  __m512i a0 = _mm512_load_si512(lanes->state[0]), b0 = _mm512_load_si512(lanes->state[1]);
  __m512i c0 = _mm512_load_si512(lanes->state[2]), d0 = _mm512_load_si512(lanes->state[3]);
  __m512i a1 = _mm512_load_si512(lanes->state[0] + 16), b1 = _mm512_load_si512(lanes->state[1] + 16);
  __m512i c1 = _mm512_load_si512(lanes->state[2] + 16), d1 = _mm512_load_si512(lanes->state[3] + 16);
  for (size_t block = 0; block < nblocks; block++) {
    __m512i x0[16], x1[16];
    load_transposed(x0, lanes->data, 64 * block);
    if (groups > 1) load_transposed(x1, lanes->data + 16, 64 * block);
    const __m512i saved[8] = {a0, b0, c0, d0, a1, b1, c1, d1};
    MD5_BLOCK_STEPS(STEP);
    a0 = _mm512_add_epi32(a0, saved[0]), b0 = _mm512_add_epi32(b0, saved[1]);
    c0 = _mm512_add_epi32(c0, saved[2]), d0 = _mm512_add_epi32(d0, saved[3]);
    a1 = _mm512_add_epi32(a1, saved[4]), b1 = _mm512_add_epi32(b1, saved[5]);
    c1 = _mm512_add_epi32(c1, saved[6]), d1 = _mm512_add_epi32(d1, saved[7]);
  }
  _mm512_store_si512(lanes->state[0], a0), _mm512_store_si512(lanes->state[1], b0);
  _mm512_store_si512(lanes->state[2], c0), _mm512_store_si512(lanes->state[3], d0);
  if (groups > 1) {
    _mm512_store_si512(lanes->state[0] + 16, a1), _mm512_store_si512(lanes->state[1] + 16, b1);
    _mm512_store_si512(lanes->state[2] + 16, c1), _mm512_store_si512(lanes->state[3] + 16, d1);
  }
}

static void run_lanes_avx512(md5_lanes *lanes, size_t nblocks, size_t active) {
  if (active <= 16)
    run_groups(lanes, nblocks, 1);
  else
    run_groups(lanes, nblocks, 2);
}

void crisp_md5_many_avx512(uint32_t *const state[], const uint8_t *const data[], const size_t nblocks[],
                           size_t n) {
  md5_lanes_schedule(state, data, nblocks, n, MD5_LANES, MIN_BUSY_LANES, run_lanes_avx512);
}

const crisp_md5_many_impl crisp_md5_many_avx512_impl = {
    .info = CRISP_IMPL_INFO(crisp_md5_many_avx512_impl),
    .blocks_many = crisp_md5_many_avx512,
};
