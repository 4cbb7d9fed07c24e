/* src/scrub_depths.h - how much stack each public entry that handles a
 * secret overwrites below itself once its work has returned. */
#ifndef CRISP_SRC_SCRUB_DEPTHS_H
#define CRISP_SRC_SCRUB_DEPTHS_H

#include <stddef.h>

#include "crisp/bn.h"

/* Each entry runs its checks and its work as a call of its own (noinline)
 * and then calls crisp_scrub_stack_deep with its depth: every frame below
 * the entry that held a secret (the work's own, the kernels', their spills
 * and saved registers, whatever the compiler inlined) lies in the bytes
 * overwritten, so no kernel has to size a wipe to its compiler's layout.
 *
 * Each depth is the deepest stack its entry reaches at that size, at every
 * implementation, under gcc and clang at -O2, -O3 and -Os, times 1.25 plus
 * 512 bytes, rounded up to 512. To measure it again, build with
 * crisp_scrub_stack_deep defined away and run CRISP_TEST_VERBOSE=1
 * test_wipe, which prints the stack each call wrote; test_wipe on each of
 * those builds (stage wipe-builds) fails when a secret-derived word lies
 * below a depth. Fixed-size arrays set most of them: Karatsuba's scratch
 * and the Montgomery products are sized for CRISP_BN_MONT_MAX_LIMBS, the
 * AEAD's open buffer for its longest short message. */
#define CRISP_SCRUB_HCHACHA20_BYTES ((size_t)1024)
#define CRISP_SCRUB_CHACHA20_BYTES(len) \
  ((len) <= 64 ? (size_t)2560 : (len) <= 1024 ? (size_t)4608 : (size_t)8704)
#define CRISP_SCRUB_AEAD_BYTES(len) ((len) < 256 ? (size_t)8704 : (size_t)12800)
/* The streaming AEAD: init (a block and a Poly1305 key), and an update or
 * a final of any length, since the IFMA Poly1305 gathers short updates
 * into one vector pass, which may come at any later call. */
#define CRISP_SCRUB_STREAM_INIT_BYTES ((size_t)2560)
#define CRISP_SCRUB_STREAM_BYTES ((size_t)8704)
#define CRISP_SCRUB_POLY1305_BYTES(len) ((len) < 256 ? (size_t)3072 : (size_t)9216)
/* The Poly1305 context calls: init, and an update or final (as above). */
#define CRISP_SCRUB_POLY1305_INIT_BYTES ((size_t)1536)
#define CRISP_SCRUB_POLY1305_CONTEXT_BYTES ((size_t)7680)
/* The bignum calls by their operands' or modulus's limbs (n of the
 * shorter operand for crisp_bn_mul): the IFMA conversions from 24,
 * Karatsuba from 32. */
#define CRISP_SCRUB_BN_MUL_BYTES(n) ((n) < 32 ? (size_t)1536 : (size_t)25600)
#define CRISP_SCRUB_BN_SQR_BYTES(n) ((n) < 32 ? (size_t)1536 : (size_t)20480)
#define CRISP_SCRUB_BN_MUL_ADD_BYTES ((size_t)1024)
#define CRISP_SCRUB_BN_MONT_BYTES(n) ((n) < 24 ? (size_t)7168 : (n) < 32 ? (size_t)9728 : (size_t)25600)
#define CRISP_SCRUB_BN_R2_BYTES(n) ((n) < 24 ? (size_t)12288 : (n) < 32 ? (size_t)15360 : (size_t)30720)
/* More where a Montgomery call copies an operand that r overlaps. */
#define CRISP_SCRUB_BN_ALIAS_BYTES ((size_t)(2 * CRISP_BN_MONT_MAX_LIMBS * 8 + 1024))

/* Below the first use of a kernel: the CPU probe, the environment's
 * parsing and its one stderr line, and under lazy binding the dynamic
 * resolver's frames. */
#define CRISP_SCRUB_PROBE_BYTES ((size_t)16384)

#endif
