/* src/arm64/arm64.h - the arm64 kernels other arm64 kernels fall back to
 * (the NEON lanes' single-stream tail, the NEON Poly1305's scalar part). */
#ifndef CRISP_SRC_ARM64_ARM64_H
#define CRISP_SRC_ARM64_ARM64_H

#include "impl.h"

void crisp_md5_arm64(uint32_t state[4], const uint8_t *data, size_t nblocks);

#endif
