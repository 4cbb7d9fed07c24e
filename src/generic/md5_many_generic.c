/* src/generic/md5_many_generic.c - many messages, one after another: the
 * reference for the SIMD lane kernels and the choice where there are none. */
#include "generic.h"

void crisp_md5_many_generic(uint32_t *const state[], const uint8_t *const data[], const size_t nblocks[],
                            size_t n) {
  for (size_t i = 0; i < n; i++)
    if (nblocks[i]) crisp_md5_generic(state[i], data[i], nblocks[i]);
}

const crisp_md5_many_impl crisp_md5_many_generic_impl = {
    .info = CRISP_IMPL_INFO(crisp_md5_many_generic_impl),
    .blocks_many = crisp_md5_many_generic,
};
