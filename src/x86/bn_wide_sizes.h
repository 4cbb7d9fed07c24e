/* src/x86/bn_wide_sizes.h - which products the radix 2^52 columns take. */
#ifndef CRISP_SRC_X86_BN_WIDE_SIZES_H
#define CRISP_SRC_X86_BN_WIDE_SIZES_H
#include <stddef.h>

#include "tuning.h"
#include "x86/bn52_avx512ifma.h"

/* From how many limbs of the shorter operand the columns run
 * (src/tuning.h). Where the vector unit retires two 512-bit IFMAs a cycle
 * they beat the MULX/ADX kernels, conversions included, from about 19
 * limbs (products) and 25 (squares, since the MULX/ADX square already does
 * each cross product once); they never run below 32 (the header's stack
 * bound), which the microarchitecture table sets there
 * (src/dispatch/uarch_table.c). The defaults, 48 and 64, are for cores
 * that retire one a cycle (512-bit operations in two halves): a planted
 * model of those, every IFMA issued twice, still wins from there
 * (docs/performance.md). */
#define CRISP_BN52_WIDE_MUL_MIN_LIMBS crisp_tuning(CRISP_TUNING_BN_MUL_AVX512IFMA_MIN)
#define CRISP_BN52_WIDE_SQR_MIN_LIMBS crisp_tuning(CRISP_TUNING_BN_SQR_AVX512IFMA_MIN)

/* The columns' size classes (48, 64, 128, 256 limbs): src/scrub_depths.h
 * sizes the public call's scrub by the shorter operand, and a product
 * whose longer operand lies in a larger class than its shorter one goes
 * to the MULX/ADX kernel's blocks. */
static inline size_t crisp_bn52_wide_class_top(size_t shorter) {
  return shorter <= 48 ? 48 : shorter <= 64 ? 64 : shorter <= 128 ? 128 : CRISP_BN52_WIDE_MAX_LIMBS;
}

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
