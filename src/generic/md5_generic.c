/* src/generic/md5_generic.c - MD5 compression in portable C (RFC 1321 3.4),
 * the reference every other MD5 implementation is tested against. */
#include "generic.h"
#include "md5_schedule.h"
#include "util.h"

#define F(x, y, z) (((x) & (y)) | (~(x) & (z)))
#define G(x, y, z) (((x) & (z)) | ((y) & ~(z)))
#define H(x, y, z) ((x) ^ (y) ^ (z))
#define I(x, y, z) ((y) ^ ((x) | ~(z)))
#define ROTL(v, s) (((v) << (s)) | ((v) >> (32 - (s))))

/* One step: a = b + ((a + round(b, c, d) + x[k] + constant) <<< shift). */
#define STEP(round, a, b, c, d, k, constant, shift)          \
  (a) += round((b), (c), (d)) + x[k] + (uint32_t)(constant); \
  (a) = ROTL((a), (shift)) + (b)

static void md5_block(uint32_t state[4], const uint8_t *block) {
  uint32_t x[16];
  for (int i = 0; i < 16; i++) x[i] = crisp_load32_le(block + 4 * i);
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  MD5_BLOCK_STEPS(STEP);
  state[0] += a, state[1] += b, state[2] += c, state[3] += d;
}

void crisp_md5_generic(uint32_t state[4], const uint8_t *data, size_t nblocks) {
  for (; nblocks; nblocks--, data += 64) md5_block(state, data);
}

const crisp_md5_impl crisp_md5_generic_impl = {
    .info = CRISP_IMPL_INFO(crisp_md5_generic_impl),
    .blocks = crisp_md5_generic,
};
