/* src/impl.h - what an implementation is: its descriptor (name, level, CPU
 * features) and the function pointers of each kernel. Kernel files define
 * one descriptor each; src/implementations.def lists them, best first,
 * with the name, level and features each descriptor takes from there.
 * Layers only point down: the front-ends (the .c files of src/) check
 * arguments and call through src/dispatch/ into the kernels (src/generic/,
 * src/x86/, src/arm64/); a kernel calls only other kernels and what every
 * layer shares (this header, src/arithmetic/, util.h), never a front-end
 * or the dispatcher. Where a kernel cannot take a case, it says so
 * (CRISP_E_UNSUPPORTED, or a NULL entry) and the front-end runs the
 * fallback itself (scripts/check_layers.py checks this). */
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

/* The level model comes from src/implementations.def: the features as
 * CRISP_CPU_* bits (one each, filled by src/dispatch/cpu.c), the levels as
 * crisp_level_id, lowest first. A level is a cap: an implementation runs only
 * when its level is at or below the cap and the CPU has all of its features. */
#define CRISP_USES(ID) CRISP_CPU_##ID
enum {
#define CRISP_FEATURE(ID, name) crisp_feature_position_##ID,
#include "implementations.def"
  CRISP_FEATURE_COUNT
};
enum {
  CRISP_CPU_NONE = 0,
#define CRISP_FEATURE(ID, name) CRISP_CPU_##ID = 1 << crisp_feature_position_##ID,
#include "implementations.def"
};
_Static_assert(CRISP_FEATURE_COUNT <= 31, "the features fit the uint32_t masks");

typedef enum crisp_level_id {
#define CRISP_LEVEL(ID, name, features) CRISP_LEVEL_##ID,
#include "implementations.def"
  CRISP_LEVEL_COUNT
} crisp_level_id;

/* The head of every implementation descriptor. Which kernel it implements is
 * not stored: src/implementations.def says it, and the descriptor's type
 * must match. */
typedef struct crisp_impl_info {
  const char *name; /* level, then optionally '-' and a qualifier: "x86_64-adx" */
  crisp_level_id level;
  uint32_t features; /* every CRISP_CPU_* bit the code executes */
} crisp_impl_info;

/* Per implementation in src/implementations.def: its place, level and
 * features as constants, and its name in crisp_impl_names (defined in
 * src/dispatch/registry.c), so that a descriptor takes all three from there:
 *   .info = CRISP_IMPL_INFO(crisp_md5_generic_impl),
 * A descriptor whose symbol has no line there does not compile. */
enum {
#define CRISP_IMPL(kernel, symbol, name, LEVEL, features) crisp_impl_index_##symbol,
#include "implementations.def"
  CRISP_IMPL_TOTAL
};
#define CRISP_IMPL(kernel, symbol, name, LEVEL, features) \
  enum { crisp_impl_level_##symbol = CRISP_LEVEL_##LEVEL, crisp_impl_features_##symbol = (features) };
#include "implementations.def"
enum { CRISP_IMPL_NAME_SIZE = 24 };
extern const char crisp_impl_names[CRISP_IMPL_TOTAL][CRISP_IMPL_NAME_SIZE];

/* The CPU features the compiler may use in this file (its -m flags), which
 * an implementation's features must include: a feature missing from its
 * line in src/implementations.def fails the build. SSE2 and ASIMD are the
 * baselines and listed or not as the line likes. */
#if defined(CRISP_ARCH_X86_64)
#if defined(__BMI__)
#define CRISP_TARGET_BMI1 CRISP_CPU_BMI1
#else
#define CRISP_TARGET_BMI1 0
#endif
#if defined(__BMI2__)
#define CRISP_TARGET_BMI2 CRISP_CPU_BMI2
#else
#define CRISP_TARGET_BMI2 0
#endif
#if defined(__ADX__)
#define CRISP_TARGET_ADX CRISP_CPU_ADX
#else
#define CRISP_TARGET_ADX 0
#endif
#if defined(__AVX__)
#define CRISP_TARGET_AVX CRISP_CPU_AVX
#else
#define CRISP_TARGET_AVX 0
#endif
#if defined(__AVX2__)
#define CRISP_TARGET_AVX2 CRISP_CPU_AVX2
#else
#define CRISP_TARGET_AVX2 0
#endif
#if defined(__AVX512F__)
#define CRISP_TARGET_AVX512F CRISP_CPU_AVX512F
#else
#define CRISP_TARGET_AVX512F 0
#endif
#if defined(__AVX512VL__)
#define CRISP_TARGET_AVX512VL CRISP_CPU_AVX512VL
#else
#define CRISP_TARGET_AVX512VL 0
#endif
#if defined(__AVX512BW__)
#define CRISP_TARGET_AVX512BW CRISP_CPU_AVX512BW
#else
#define CRISP_TARGET_AVX512BW 0
#endif
#if defined(__AVX512DQ__)
#define CRISP_TARGET_AVX512DQ CRISP_CPU_AVX512DQ
#else
#define CRISP_TARGET_AVX512DQ 0
#endif
#if defined(__AVX512IFMA__)
#define CRISP_TARGET_AVX512IFMA CRISP_CPU_AVX512IFMA
#else
#define CRISP_TARGET_AVX512IFMA 0
#endif
#define CRISP_TARGET_FEATURES                                                                        \
  (CRISP_TARGET_BMI1 | CRISP_TARGET_BMI2 | CRISP_TARGET_ADX | CRISP_TARGET_AVX | CRISP_TARGET_AVX2 | \
   CRISP_TARGET_AVX512F | CRISP_TARGET_AVX512VL | CRISP_TARGET_AVX512BW | CRISP_TARGET_AVX512DQ |    \
   CRISP_TARGET_AVX512IFMA)
#else
#define CRISP_TARGET_FEATURES 0
#endif

/* 0, or a negative bit-field width (a compile error naming the problem) when
 * features lack one of CRISP_TARGET_FEATURES. */
#define CRISP_TARGET_CHECK(features)                                     \
  (0u * sizeof(struct {                                                  \
     unsigned implementations_def_lacks_a_feature_this_file_is_built_for \
         : (CRISP_TARGET_FEATURES & ~(unsigned)(features))               \
           ? -1                                                          \
           : 1;                                                          \
   }))
#define CRISP_IMPL_INFO(symbol)                                                                   \
  {                                                                                               \
    crisp_impl_names[crisp_impl_index_##symbol], (crisp_level_id)crisp_impl_level_##symbol,       \
        (uint32_t)crisp_impl_features_##symbol | CRISP_TARGET_CHECK(crisp_impl_features_##symbol) \
  }

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
  void (*blocks_many)(uint32_t *const state[], const uint8_t *const data[], const size_t nblocks[], size_t n);
} crisp_md5_many_impl;

/* Room an implementation has for its Poly1305 state inside a context
 * (CRISP_POLY1305_CTX_SIZE less the front-end's 64-byte header). */
#define CRISP_POLY1305_STATE_SIZE 960
/* The head of the state a short message keeps to: from init to finish, a
 * state that takes fewer bytes than the implementation's vector_from (in
 * one blocks call or several) is read and written only in its first
 * CRISP_POLY1305_SHORT_STATE_SIZE bytes. The one-shot calls give such a
 * message a state of that size, which keeps their frames, and the stack
 * their scrub overwrites, small (test_poly1305 runs every implementation
 * on a head that ends at a guard page). */
#define CRISP_POLY1305_SHORT_STATE_SIZE 128

/* The AEAD's MAC input as four runs of whole 16-byte blocks, read in
 * order (a run may be empty): the ad, its last partial block padded with
 * zeros, the ciphertext, then its padded partial block and the lengths. */
typedef struct crisp_poly1305_pieces {
  const uint8_t *data[4]; /* ad, its padded tail, ct, its padded tail and the lengths */
  size_t blocks[4];       /* whole 16-byte blocks in each */
} crisp_poly1305_pieces;

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
  /* tag_pieces, optional (NULL where absent): the tag under key of the
   * pieces' blocks in order, each with 2^128 added (the AEAD's MAC), in one
   * call and without a state in memory: what init, blocks (hibit 1) and
   * finish give. The AEAD takes it for an input below vector_from, where
   * those would run the same scalar code. */
  void (*tag_pieces)(uint8_t tag[16], const uint8_t key[32], const crisp_poly1305_pieces *pieces);
  /* The fewest message bytes, in one call or several after init, from
   * which blocks may take a vector path with its deeper frames and the
   * state past its head (its tuning's crossover): what the front-ends size
   * their state and stack scrub by. SIZE_MAX for a scalar kernel; NULL for
   * one that does not say (taken as 256). */
  size_t (*vector_from)(void);
} crisp_poly1305_impl;

/* BN_MUL: z[0..xn+yn) = x * y; xn, yn >= 1; z overlaps neither.
 * clean_below: below this many limbs of the shorter operand the kernel
 * leaves none of the values on the stack when it returns: its assembly
 * keeps them in registers and stores none of them to the stack, or its C
 * wipes what it stored and scrubs the frames below its own (the x86-64
 * Karatsuba classes), so the public call needs no scrub after it
 * (src/scrub_depths.h; test_wipe checks the claim); 0 where that does not
 * hold. */
typedef struct crisp_bn_mul_impl {
  crisp_impl_info info;
  void (*mul)(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn);
  size_t clean_below;
} crisp_bn_mul_impl;

/* BN_SQR: z[0..2n) = x^2; n >= 1; z does not overlap x.
 * clean_below: as for BN_MUL, in limbs of x. */
typedef struct crisp_bn_sqr_impl {
  crisp_impl_info info;
  void (*sqr)(crisp_limb *z, const crisp_limb *x, size_t n);
  size_t clean_below;
} crisp_bn_sqr_impl;

/* BN_MUL_ADD: z[0..n) += x * k, returns the carry; n >= 1; x == z allowed.
 * clean_below: as for BN_MUL, in limbs of x. */
typedef struct crisp_bn_mul_add_impl {
  crisp_impl_info info;
  crisp_limb (*mul_add)(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k);
  size_t clean_below;
} crisp_bn_mul_add_impl;

/* BN_MONT_MUL: r = a * b * R^-1 mod m, fully reduced, constant time in the
 * values; 1 <= n <= CRISP_BN_MONT_MAX_LIMBS, a, b < m, m odd; r overlaps
 * none of a, b, m (the front-end copies when the caller aliases).
 * mod_exp, optional (NULL: the front-end's fixed-window ladder over
 * mont_mul / mont_sqr), computes r = base^exp mod m with the contract of
 * crisp_bn_mod_exp, or returns CRISP_E_UNSUPPORTED for a size it does not
 * handle so that the front-end's ladder runs instead.
 * clean_sizes: bit n (CRISP_BN_SIZE_BIT(n), n < 64) set where the kernel at
 * n limbs leaves no secret-derived word in the stack (operands, modulus,
 * minv or what comes of them): its work is assembly that wipes what it
 * stores, and the C between the entry and it holds pointers and sizes, so
 * the public call needs no scrub after it (src/scrub_depths.h; test_wipe
 * checks the claim, with secret moduli); 0 where no size is. */
#define CRISP_BN_SIZE_BIT(n) ((uint64_t)1 << (n))
typedef struct crisp_bn_mont_mul_impl {
  crisp_impl_info info;
  void (*mont_mul)(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m, size_t n,
                   crisp_limb minv);
  int (*mod_exp)(crisp_limb *r, const crisp_limb *base, const crisp_limb *exp, size_t en, const crisp_limb *m,
                 size_t n, crisp_limb minv);
  uint64_t clean_sizes;
} crisp_bn_mont_mul_impl;

/* BN_MONT_SQR: r = a * a * R^-1 mod m, same contract as mont_mul, and
 * clean_sizes as there. */
typedef struct crisp_bn_mont_sqr_impl {
  crisp_impl_info info;
  void (*mont_sqr)(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n, crisp_limb minv);
  uint64_t clean_sizes;
} crisp_bn_mont_sqr_impl;

/* One lane of BN_MOD_EXP2: result = base^exponent mod modulus, with the
 * contract of crisp_bn_mod_exp, which the front-end has checked: a modulus
 * of n limbs, odd, top limb nonzero; the base below it; the lane's
 * exponent of the pair's exponent_limbs (>= 1) limbs; minv =
 * crisp_bn_mont_inv(modulus[0]); result overlaps no input of either lane
 * and not the other lane's result (the front-end copies). r2 is R^2 mod
 * modulus (R = 2^(64n), n limbs, fully reduced) when the caller has it
 * (the CRT does), else NULL: an implementation may start from it instead
 * of computing its own constants. */
typedef struct crisp_bn_exp_lane {
  crisp_limb *result;
  const crisp_limb *base;
  const crisp_limb *exponent;
  const crisp_limb *modulus;
  crisp_limb minv;
  const crisp_limb *r2;
} crisp_bn_exp_lane;

/* The RSA-CRT fault check that mod_exp2 may run after the exponentiations,
 * on its own setup of the moduli (which would otherwise be made twice):
 * write_bases(context), in which the caller writes base[0] and base[1]
 * (below the lanes' moduli; the CRT recombines its halves there), then
 * power[l] = base[l]^exponent mod lane[l].modulus for one PUBLIC exponent
 * of exponent_limbs >= 1 limbs. power[l] overlaps no input but may be a
 * lane's result. */
typedef struct crisp_bn_exp2_check {
  void (*write_bases)(void *context);
  void *context;
  const crisp_limb *base[2];
  crisp_limb *power[2];
  const crisp_limb *exponent;
  size_t exponent_limbs;
} crisp_bn_exp2_check;

/* BN_MOD_EXP2: two exponentiations that advance together.
 * mod_exp2 computes both lanes, constant time in bases, exponents and
 * moduli. With check (not NULL; the lanes' r2 are then never NULL), it
 * then runs the check as crisp_bn_exp2_check says, constant time in its
 * bases and moduli (the time may depend on its exponent). Returns
 * CRISP_OK, CRISP_E_NOMEM, or CRISP_E_UNSUPPORTED, before anything is
 * written, for a size the implementation does not take, or with check, a
 * size or exponent it leaves to the caller: the front-end then runs the
 * pair itself (two single exponentiations through crisp_bn_mod_exp's path,
 * or mod_exp2 without the check, then its own check). NULL for an
 * implementation without a dual kernel (generic): the front-end runs the
 * two single exponentiations at every size.
 * r2_pair, optional (NULL: the caller computes each on its own), writes
 * r2[l] = R^2 mod modulus[l] (R = 2^(64n), n limbs, fully reduced) for
 * moduli with a lane's contract and minv[l] their crisp_bn_mont_inv, as
 * the CRT needs for its halves; constant time in the moduli. Returns
 * CRISP_OK or CRISP_E_UNSUPPORTED for a size it does not take. */
typedef struct crisp_bn_mod_exp2_impl {
  crisp_impl_info info;
  int (*mod_exp2)(const crisp_bn_exp_lane lane[2], size_t exponent_limbs, size_t n,
                  const crisp_bn_exp2_check *check);
  int (*r2_pair)(crisp_limb *const r2[2], const crisp_limb *const modulus[2], const crisp_limb minv[2],
                 size_t n);
} crisp_bn_mod_exp2_impl;
/* CHACHA20: out = in XOR the keystream from the 16-word input block `state`
 * (constants, key, block counter in word 12, nonce), len bytes, any length;
 * a partial last block uses the start of its keystream block. The
 * front-end has checked that the counter does not pass 2^32 - 1 within len
 * (word 12 is incremented without carry); out == in allowed, no other
 * overlap. Implementations take whole groups of their width and hand the
 * rest to a narrower path, so every length runs the best code for it.
 * group_blocks is that width (1 for one block at a time): without a keyed
 * entry, the AEAD gives a short message's Poly1305 key block its own call
 * when the message fills whole groups, and otherwise computes it in the
 * message's last partial group.
 * keyed_stream, optional (NULL where absent): the keystream block at
 * state[12] written to key_block, and len bytes (at most keyed_max, a
 * whole number of blocks) of in XORed with the keystream from the next
 * block on, in one pass; out == in allowed, key_block overlaps neither.
 * Where present, the AEAD takes its Poly1305 key block from it, with a
 * short message whole (an open into a stack buffer) or a long seal's first
 * keyed_max bytes (a long open's key block comes alone: it decrypts only
 * after the tag).
 * open_mac, optional: a short open in one pass, where the kernel can run
 * Poly1305 beside its rounds: the keystream block at state[12] keys
 * Poly1305 (radix 2^64, the x86-64 scalar code) over the blocks of mac's
 * pieces, written as the tag; len bytes (at most open_mac_max) of in XORed
 * with the keystream from the next block on, to out. The AEAD takes it
 * where the active Poly1305 would run that scalar code for this input
 * anyway (its head path). */
typedef struct crisp_chacha20_impl {
  crisp_impl_info info;
  void (*xor_stream)(uint8_t *out, const uint8_t *in, size_t len, const uint32_t state[16]);
  size_t group_blocks;
  void (*keyed_stream)(uint8_t key_block[64], uint8_t *out, const uint8_t *in, size_t len,
                       const uint32_t state[16]);
  size_t keyed_max;
  void (*open_mac)(uint8_t tag[16], uint8_t *out, const uint8_t *in, size_t len, const uint32_t state[16],
                   const crisp_poly1305_pieces *mac);
  size_t open_mac_max;
} crisp_chacha20_impl;

#include "kernel_list.h"

/* Generated from the kernel list, per kernel NAME: crisp_kernel_impl_NAME,
 * its descriptor type (src/dispatch/registry.c declares descriptors with it);
 * crisp_kernel_position_NAME, its place in the list, checked against the
 * public enum; and crisp_impl_as_NAME(), the one place where a pointer to a
 * descriptor's crisp_impl_info becomes the typed descriptor around it. */
#define CRISP_KERNEL(name, ENUM, type, jdk_switch) typedef type crisp_kernel_impl_##name;
CRISP_KERNEL_LIST(CRISP_KERNEL)
#undef CRISP_KERNEL

enum {
#define CRISP_KERNEL(name, ENUM, type, jdk_switch) crisp_kernel_position_##name,
  CRISP_KERNEL_LIST(CRISP_KERNEL)
#undef CRISP_KERNEL
      crisp_kernel_listed
};
_Static_assert((int)crisp_kernel_listed == (int)CRISP_KERNEL_COUNT,
               "src/kernel_list.h names every crisp_kernel");
#define CRISP_KERNEL(name, ENUM, type, jdk_switch)                              \
  _Static_assert((int)crisp_kernel_position_##name == (int)CRISP_KERNEL_##ENUM, \
                 "src/kernel_list.h follows the order of crisp_kernel");
CRISP_KERNEL_LIST(CRISP_KERNEL)
#undef CRISP_KERNEL

#define CRISP_KERNEL(name, ENUM, type, jdk_switch)                                  \
  static inline const type *crisp_impl_as_##name(const crisp_impl_info *info) {     \
    return (const type *)(const void *)((const char *)info - offsetof(type, info)); \
  }
CRISP_KERNEL_LIST(CRISP_KERNEL)
#undef CRISP_KERNEL

#endif
