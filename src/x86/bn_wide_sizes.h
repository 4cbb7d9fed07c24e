/* src/x86/bn_wide_sizes.h - which products the radix 2^52 columns take. */
#ifndef CRISP_SRC_X86_BN_WIDE_SIZES_H
#define CRISP_SRC_X86_BN_WIDE_SIZES_H
#include <stddef.h>

#include "tuning.h"
#include "x86/bn52_avx512ifma.h"

/* From how many limbs of the shorter operand the columns run
 * (src/tuning.h): never below 32, the header's stack bound; where the
 * microarchitecture table (src/dispatch/uarch_table.c) has no measured
 * value, the defaults suit cores that retire one 512-bit IFMA a cycle
 * (docs/performance.md gives the figures behind both). */
#define CRISP_BN52_WIDE_MUL_MIN_LIMBS crisp_tuning(CRISP_TUNING_BN_MUL_AVX512IFMA_MIN)
#define CRISP_BN52_WIDE_SQR_MIN_LIMBS crisp_tuning(CRISP_TUNING_BN_SQR_AVX512IFMA_MIN)

/* A product whose longer operand lies in a larger size class than its
 * shorter one goes to the MULX/ADX kernel's blocks. */
static inline int crisp_bn52_wide_mul_wins(size_t shorter, size_t longer) {
  return shorter >= CRISP_BN52_WIDE_MUL_MIN_LIMBS && longer <= crisp_bn52_wide_class_top(shorter);
}

static inline int crisp_bn52_wide_sqr_wins(size_t n) {
  return n >= CRISP_BN52_WIDE_SQR_MIN_LIMBS && n <= CRISP_BN52_WIDE_MAX_LIMBS;
}

/* The columns' classes clean up after themselves (they wipe their buffers
 * by name and scrub the frame below their own), as the MULX/ADX kernels
 * they hand the other sizes to do up to the same 256 limbs. */
#define CRISP_BN52_WIDE_CLEAN_BELOW (CRISP_BN52_WIDE_MAX_LIMBS + 1)
#endif
