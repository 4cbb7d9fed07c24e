/* src/generic/generic.h - the portable kernels, for other implementations
 * that fall back to them (a short input, an unsupported size). */
#ifndef CRISP_SRC_GENERIC_GENERIC_H
#define CRISP_SRC_GENERIC_GENERIC_H

#include "impl.h"

void crisp_md5_generic(uint32_t state[4], const uint8_t *data, size_t nblocks);
void crisp_md5_many_generic(uint32_t *const state[], const uint8_t *const data[], const size_t nblocks[], size_t n);
void crisp_poly1305_init_generic(void *state, const uint8_t key[32]);
void crisp_poly1305_blocks_generic(void *state, const uint8_t *data, size_t nblocks, unsigned hibit);
void crisp_poly1305_finish_generic(void *state, uint8_t tag[16]);

#endif
