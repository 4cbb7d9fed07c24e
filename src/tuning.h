/* src/tuning.h - the parameters of implementations that the
 * microarchitecture table (src/dispatch/uarch_table.c) may set: one list,
 * each with its default (the value for CPUs the table does not name) and the
 * least value the kernel's code accepts. Set once, when the CPU is probed,
 * before any implementation is published; kernels read them with one relaxed
 * load (a plain load on x86 and arm64).
 *
 *   CRISP_TUNING(ID, "kernel impl parameter", default, minimum)
 *
 * Poly1305 crossovers are in 16-byte blocks: a call shorter than the cold
 * one (the key's first long call, which also computes the powers of r) or
 * the warm one (powers cached) stays in the scalar code; the minimum is one
 * vector step. The IFMA kernel keeps a stream in its lanes between calls,
 * so its warm value is instead how many blocks a stream of shorter calls
 * absorbs in the scalar code before its lanes start. The IFMA products'
 * crossovers are in limbs of the shorter operand: below them the MULX/ADX
 * kernel runs; at least 32, since below that the header promises 2 KiB
 * of stack, less than the columns' buffers take. The defaults' reasons
 * are in each kernel's file. */
#ifndef CRISP_SRC_TUNING_H
#define CRISP_SRC_TUNING_H

#include <stdatomic.h>
#include <stdint.h>

#define CRISP_TUNING_LIST(CRISP_TUNING)                                            \
  CRISP_TUNING(POLY1305_AVX512IFMA_COLD, "poly1305 avx512ifma cold_blocks", 24, 8) \
  CRISP_TUNING(POLY1305_AVX512IFMA_WARM, "poly1305 avx512ifma warm_blocks", 32, 8) \
  CRISP_TUNING(POLY1305_AVX512_COLD, "poly1305 avx512 cold_blocks", 48, 8)         \
  CRISP_TUNING(POLY1305_AVX512_WARM, "poly1305 avx512 warm_blocks", 8, 8)          \
  CRISP_TUNING(POLY1305_AVX2_COLD, "poly1305 avx2 cold_blocks", 72, 4)             \
  CRISP_TUNING(POLY1305_AVX2_WARM, "poly1305 avx2 warm_blocks", 8, 4)              \
  CRISP_TUNING(BN_MUL_AVX512IFMA_MIN, "bn_mul avx512ifma min_limbs", 48, 32)       \
  CRISP_TUNING(BN_SQR_AVX512IFMA_MIN, "bn_sqr avx512ifma min_limbs", 64, 32)

typedef enum crisp_tuning_id {
#define CRISP_TUNING(ID, name, default_value, minimum) CRISP_TUNING_##ID,
  CRISP_TUNING_LIST(CRISP_TUNING)
#undef CRISP_TUNING
      CRISP_TUNING_COUNT
} crisp_tuning_id;

extern _Atomic uint32_t crisp_tuning_values[CRISP_TUNING_COUNT];

static inline uint32_t crisp_tuning(crisp_tuning_id id) {
  return atomic_load_explicit(&crisp_tuning_values[id], memory_order_relaxed);
}

/* "poly1305 avx512ifma cold_blocks" */
const char *crisp_tuning_name(crisp_tuning_id id);
uint32_t crisp_tuning_default(crisp_tuning_id id);
/* Sets a parameter, raised to its minimum; only while probing. */
void crisp_tuning_set(crisp_tuning_id id, uint32_t value);

#endif
