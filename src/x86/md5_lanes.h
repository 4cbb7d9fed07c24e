/* src/x86/md5_lanes.h - the lane scheduler of the x86 SIMD many-message MD5
 * kernels: one message per 32-bit lane, a finished lane refilled with the
 * next pending message, the last few busy lanes finished by the scalar code.
 *
 * Included by each kernel file, which passes its own lane runner; the
 * scheduler is static inline so it is compiled with that file's flags. */
#ifndef CRISP_SRC_X86_MD5_LANES_H
#define CRISP_SRC_X86_MD5_LANES_H

#include "x86/md5_scalar.h"
#include "generic/generic.h"

/* The single-stream code the last few busy lanes finish with: the assembly,
 * or the portable C in a build that leaves assembly out (-Dasm=false). */
static inline void md5_lanes_finish(uint32_t state[4], const uint8_t *data, size_t nblocks) {
#if defined(CRISP_NO_ASM)
  crisp_md5_generic(state, data, nblocks);
#else
  crisp_md5_x86_64(state, data, nblocks);
#endif
}

/* Lanes of the widest runner: two groups of 16 (AVX-512). */
#define MD5_LANES 32

/* What a runner works on: the chaining values word-major (state[w][lane]),
 * so that state[w] loads as one vector, and each lane's next block. */
typedef struct md5_lanes {
  uint32_t state[4][MD5_LANES] __attribute__((aligned(64)));
  const uint8_t *data[MD5_LANES];
} md5_lanes;

/* Compresses nblocks (>= 1) consecutive blocks in lanes 0..active-1 (it may
 * do all of its lanes); it neither reads past data[lane] + 64 * nblocks nor
 * moves the pointers. */
typedef void md5_lanes_runner(md5_lanes *lanes, size_t nblocks, size_t active);

/* Hashes what the blocks_many contract of src/impl.h asks, in lane_count
 * (<= MD5_LANES) lanes, filled lowest first. A lane that has
 * no message reads the data of a busy lane, whose remaining block count is
 * at least as large, and its result is dropped. Once fewer than min_busy
 * lanes are busy and no message waits, the scalar code finishes them: the
 * runner costs the same for one lane as for all of them. */
static inline void md5_lanes_schedule(uint32_t *const state[], const uint8_t *const data[],
                                      const size_t nblocks[], size_t n, size_t lane_count, size_t min_busy,
                                      md5_lanes_runner *run) {
  md5_lanes lanes = {0};
  size_t owner[MD5_LANES], left[MD5_LANES] = {0};
  size_t next = 0, busy = 0;
  for (;;) {
    for (size_t lane = 0; lane < lane_count && next < n; lane++) {
      if (left[lane]) continue;
      while (next < n && nblocks[next] == 0) next++;
      if (next == n) break;
      owner[lane] = next, left[lane] = nblocks[next], lanes.data[lane] = data[next];
      for (int w = 0; w < 4; w++) lanes.state[w][lane] = state[next][w];
      next++, busy++;
    }
    if (busy < min_busy || busy == 0) break;
    size_t blocks = SIZE_MAX, active = 0;
    const uint8_t *filler = NULL;
    for (size_t lane = 0; lane < lane_count; lane++)
      if (left[lane] && left[lane] < blocks) blocks = left[lane], filler = lanes.data[lane];
    for (size_t lane = 0; lane < lane_count; lane++)
      if (!left[lane])
        lanes.data[lane] = filler;
      else
        active = lane + 1;
    run(&lanes, blocks, active);
    for (size_t lane = 0; lane < lane_count; lane++) {
      if (!left[lane]) continue;
      lanes.data[lane] += 64 * blocks, left[lane] -= blocks;
      if (left[lane]) continue;
      for (int w = 0; w < 4; w++) state[owner[lane]][w] = lanes.state[w][lane];
      busy--;
    }
  }
  for (size_t lane = 0; lane < lane_count; lane++) {
    if (!left[lane]) continue;
    uint32_t *out = state[owner[lane]];
    for (int w = 0; w < 4; w++) out[w] = lanes.state[w][lane];
    md5_lanes_finish(out, lanes.data[lane], left[lane]);
  }
}

#endif
