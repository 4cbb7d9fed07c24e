/* src/impl.h - what an implementation is: its descriptor (name, level, CPU
 * features) and the function pointers of each kernel. Kernel files define
 * one descriptor each; src/dispatch/impl_list.h lists them, best first. */
#ifndef CRISP_SRC_IMPL_H
#define CRISP_SRC_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "crisp/bn.h"
#include "crisp/dispatch.h"

#if defined(__x86_64__) || defined(_M_X64)
#define CRISP_ARCH_X86_64 1
#elif defined(__aarch64__)
#define CRISP_ARCH_ARM64 1
#endif

/* Levels, lowest first. A level is a cap: an implementation runs only when
 * its level is at or below the cap and the CPU has all of its features. */
typedef enum crisp_level_id {
  CRISP_LEVEL_GENERIC = 0,
#if defined(CRISP_ARCH_X86_64)
  CRISP_LEVEL_X86_64,
  CRISP_LEVEL_AVX2,
  CRISP_LEVEL_AVX512,
  CRISP_LEVEL_AVX512IFMA,
#elif defined(CRISP_ARCH_ARM64)
  CRISP_LEVEL_ARM64,
  CRISP_LEVEL_NEON,
#endif
  CRISP_LEVEL_COUNT
} crisp_level_id;

/* CPU features, one bit each, filled by src/dispatch/cpu.c. */
enum {
  CRISP_CPU_SSE2 = 1u << 0,
  CRISP_CPU_BMI1 = 1u << 1,
  CRISP_CPU_BMI2 = 1u << 2,
  CRISP_CPU_ADX = 1u << 3,
  CRISP_CPU_AVX = 1u << 4,
  CRISP_CPU_AVX2 = 1u << 5,
  CRISP_CPU_AVX512F = 1u << 6,
  CRISP_CPU_AVX512VL = 1u << 7,
  CRISP_CPU_AVX512BW = 1u << 8,
  CRISP_CPU_AVX512DQ = 1u << 9,
  CRISP_CPU_AVX512IFMA = 1u << 10,
  CRISP_CPU_ASIMD = 1u << 16,
  CRISP_CPU_PMULL = 1u << 17,
  CRISP_CPU_SHA2 = 1u << 18,
  CRISP_CPU_SVE = 1u << 19
};

/* The head of every implementation descriptor. */
typedef struct crisp_impl_info {
  crisp_kernel kernel;
  const char *name;     /* level, then optionally '-' and a qualifier: "x86_64-adx" */
  crisp_level_id level;
  uint32_t features;    /* every CRISP_CPU_* bit the code executes */
} crisp_impl_info;

/* MD5: compress nblocks consecutive 64-byte blocks into state. */
typedef struct crisp_md5_impl {
  crisp_impl_info info;
  void (*blocks)(uint32_t state[4], const uint8_t *data, size_t nblocks);
} crisp_md5_impl;

/* MD5_MANY: for every lane i < n, compress nblocks[i] blocks of data[i] into
 * state[i]. Lanes are independent, block counts may differ (and be 0), n is
 * any size; the states are distinct. */
typedef struct crisp_md5_many_impl {
  crisp_impl_info info;
  void (*blocks_many)(uint32_t *const state[], const uint8_t *const data[], const size_t nblocks[],
                      size_t n);
} crisp_md5_many_impl;

/* Room an implementation has for its Poly1305 state inside a context
 * (CRISP_POLY1305_CTX_SIZE less the front-end's 64-byte header). */
#define CRISP_POLY1305_STATE_SIZE 960

/* POLY1305: init sets up r (clamped), s and any cached powers of r from the
 * key; blocks absorbs nblocks 16-byte blocks, adding 2^128 to each when
 * hibit is 1 (full blocks) and not when 0 (the final padded block, whose 0x01
 * byte the front-end has appended); finish writes (h + s) mod 2^128 and wipes
 * every byte of the state that init and blocks wrote (the front-end wipes
 * only its own header: wiping a whole context would cost more than hashing a
 * short message). The state is CRISP_POLY1305_STATE_SIZE bytes long and
 * aligned only to 8 bytes (a caller's context may sit at any 8-byte
 * boundary): no aligned vector access to it. */
typedef struct crisp_poly1305_impl {
  crisp_impl_info info;
  void (*init)(void *state, const uint8_t key[32]);
  void (*blocks)(void *state, const uint8_t *data, size_t nblocks, unsigned hibit);
  void (*finish)(void *state, uint8_t tag[16]);
} crisp_poly1305_impl;

/* BN_MUL: z[0..xn+yn) = x * y; xn, yn >= 1; z overlaps neither. */
typedef struct crisp_bn_mul_impl {
  crisp_impl_info info;
  void (*mul)(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn);
} crisp_bn_mul_impl;

/* BN_SQR: z[0..2n) = x^2; n >= 1; z does not overlap x. */
typedef struct crisp_bn_sqr_impl {
  crisp_impl_info info;
  void (*sqr)(crisp_limb *z, const crisp_limb *x, size_t n);
} crisp_bn_sqr_impl;

/* BN_MUL_ADD: z[0..n) += x * k, returns the carry; n >= 1; x == z allowed. */
typedef struct crisp_bn_mul_add_impl {
  crisp_impl_info info;
  crisp_limb (*mul_add)(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k);
} crisp_bn_mul_add_impl;

/* BN_MONT_MUL: r = a * b * R^-1 mod m, fully reduced, constant time in the
 * values; 1 <= n <= CRISP_BN_MONT_MAX_LIMBS, a, b < m, m odd; r overlaps
 * none of a, b, m (the front-end copies when the caller aliases).
 * mod_exp, optional (NULL: the front-end's fixed-window ladder over
 * mont_mul / mont_sqr), computes r = base^exp mod m with the contract of
 * crisp_bn_mod_exp, or returns CRISP_E_UNSUPPORTED for a size it does not
 * handle so that the front-end's ladder runs instead. */
typedef struct crisp_bn_mont_mul_impl {
  crisp_impl_info info;
  void (*mont_mul)(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                   size_t n, crisp_limb minv);
  int (*mod_exp)(crisp_limb *r, const crisp_limb *base, const crisp_limb *exp, size_t en,
                 const crisp_limb *m, size_t n, crisp_limb minv);
} crisp_bn_mont_mul_impl;

/* BN_MONT_SQR: r = a * a * R^-1 mod m, same contract as mont_mul. */
typedef struct crisp_bn_mont_sqr_impl {
  crisp_impl_info info;
  void (*mont_sqr)(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n, crisp_limb minv);
} crisp_bn_mont_sqr_impl;

#endif
