/* src/x86/md5_scalar.h - what md5_scalar.S offers the other x86 MD5 files:
 * the single-stream compressions the SIMD lane kernels finish their last few
 * busy lanes with. */
#ifndef CRISP_SRC_X86_MD5_SCALAR_H
#define CRISP_SRC_X86_MD5_SCALAR_H

#include "impl.h"

void crisp_md5_x86_64(uint32_t state[4], const uint8_t *data, size_t nblocks);
void crisp_md5_x86_64_bmi1(uint32_t state[4], const uint8_t *data, size_t nblocks);

#endif
