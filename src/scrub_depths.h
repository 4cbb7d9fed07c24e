/* src/scrub_depths.h - how much stack each public entry that handles a
 * secret overwrites below itself once its work has returned: the depths
 * of every crisp_scrub_below. */
#ifndef CRISP_SRC_SCRUB_DEPTHS_H
#define CRISP_SRC_SCRUB_DEPTHS_H

#include <stddef.h>

#include "crisp/bn.h"

/* Each entry runs its checks and its work as a call of its own (noinline)
 * and then calls crisp_scrub_below with its depth: every frame below the
 * entry that held a secret (the work's own, the kernels', their spills
 * and saved registers, whatever the compiler inlined) lies in the bytes
 * overwritten, so no kernel scrubs below its callees or sizes a wipe to
 * its compiler's layout: a kernel wipes only the arrays it names.
 * The scrub costs a store per 16 to 64 bytes, so each depth is sized to
 * its class of length or limbs, and where it differs much, to the
 * implementation that ran and the frames the entry took, rather than to
 * the deepest call.
 *
 * Each depth is the deepest stack its entry reaches in its class, at every
 * implementation, lazily bound, times 1.0625 plus 512 bytes, rounded up to
 * 256: under gcc and clang at -O2 and -O3 for the first of the pair
 * CRISP_SCRUB_BUILD gives, at -Os (whose frames are deeper: fewer
 * registers kept, more spilled) for the second. To measure it again,
 * build with -DCRISP_SCRUB_MEASURE (crisp_scrub_below then does nothing,
 * the kernels' scrubs too) and run CRISP_TEST_VERBOSE=1 test_stack, which
 * prints the stack each call used, and test_wipe, which prints it per
 * case; test_wipe on each of those builds (stage wipe-builds) fails when
 * a secret-derived word lies below a depth, and test_stack fails when a
 * depth passes the bound the entry's header states. Fixed-size arrays set
 * most of them: Karatsuba's scratch and the Montgomery products are sized
 * by class of limbs, the AEAD's short buffer and MAC state by class of
 * message. A bignum implementation whose products, squares or
 * multiply-adds leave nothing of their values on the stack says up to
 * which size (clean_below, src/impl.h: registers only, or the x86-64
 * Karatsuba classes, which scrub below their own frames to their class's
 * depth less those frames' arrays), and a Montgomery implementation
 * whose kernels wipe what they store says at which sizes (clean_sizes);
 * there its public calls skip the scrub, but for the call that runs the
 * CPU probe (src/bn.c). */
#if defined(__OPTIMIZE_SIZE__)
#define CRISP_SCRUB_BUILD(optimized_for_speed, optimized_for_size) ((size_t)(optimized_for_size))
#else
#define CRISP_SCRUB_BUILD(optimized_for_speed, optimized_for_size) ((size_t)(optimized_for_speed))
#endif

#define CRISP_SCRUB_HCHACHA20_BYTES ((size_t)1024)
#define CRISP_SCRUB_CHACHA20_BYTES(len) \
  ((len) <= 64 ? (size_t)1536 : (len) <= 1024 ? CRISP_SCRUB_BUILD(3072, 3584) : CRISP_SCRUB_BUILD(4864, 6912))
/* The one-shot AEADs by the frame the message took: a short one's sized
 * for up to 256, 1024 or 2048 bytes of message, with the MAC's state
 * whole where the MAC may take Poly1305's vector path (full) or its head
 * alone; or the long path. Apart from those when ChaCha20 runs the AVX-512
 * kernel (avx512: its frames are the default's); the column for the other
 * kernels is the deepest of all, so other targets, whose kernels were
 * measured only on gcc -O2, take it. A short message under 256 bytes whose
 * ad makes the MAC long takes the 1024-byte class. */
#define CRISP_SCRUB_AEAD_SMALL_BYTES(avx512) \
  ((avx512) ? CRISP_SCRUB_BUILD(2304, 3584) : CRISP_SCRUB_BUILD(3584, 3584))
#define CRISP_SCRUB_AEAD_MEDIUM_BYTES(full, avx512)                                        \
  ((full)     ? ((avx512) ? CRISP_SCRUB_BUILD(4608, 9472) : CRISP_SCRUB_BUILD(5888, 9472)) \
   : (avx512) ? CRISP_SCRUB_BUILD(3072, 4352)                                              \
              : CRISP_SCRUB_BUILD(4864, 5120))
#define CRISP_SCRUB_AEAD_LARGE_BYTES(full, avx512) \
  ((full) ? CRISP_SCRUB_BUILD(7424, 10496) : CRISP_SCRUB_BUILD(6400, 8448))
#define CRISP_SCRUB_AEAD_LONG_BYTES CRISP_SCRUB_BUILD(6400, 8448)
/* A short open that ran the fused kernel (ChaCha20's open_mac), in the
 * frame for up to 256 or 1024 bytes of message: its frame holds the
 * vector rows' or group's and the scalar chains' spills at once. */
#define CRISP_SCRUB_AEAD_FUSED_OPEN_BYTES(medium) \
  ((medium) ? CRISP_SCRUB_BUILD(3584, 5632) : CRISP_SCRUB_BUILD(2304, 3072))
/* The streaming AEAD: init (a block and a Poly1305 key), and an update or
 * a final of any length, since the IFMA Poly1305 gathers short updates
 * into one vector pass, which may come at any later call. */
#define CRISP_SCRUB_STREAM_INIT_BYTES ((size_t)2560)
#define CRISP_SCRUB_STREAM_BYTES CRISP_SCRUB_BUILD(4864, 6912)
/* Poly1305 by whether the active implementation may take its vector path
 * at this length (crisp_poly1305_vector_from: a tuning crossover); below
 * it the message keeps to the state's head. */
#define CRISP_SCRUB_POLY1305_BYTES(vector) ((vector) ? CRISP_SCRUB_BUILD(3072, 7936) : (size_t)1280)
/* The Poly1305 context calls: init, and an update or final (as above). */
#define CRISP_SCRUB_POLY1305_INIT_BYTES ((size_t)1536)
#define CRISP_SCRUB_POLY1305_CONTEXT_BYTES CRISP_SCRUB_BUILD(2048, 6656)
/* The bignum calls by their operands' or modulus's limbs (n of the
 * shorter operand for crisp_bn_mul), in the classes of the frames: the
 * IFMA conversions from 24, Karatsuba from 32 (on x86-64 the products'
 * least frame up to 48, one level deep), then up to 64, up to 128 and
 * larger. Below 32 limbs a
 * product is the schoolbook, whose x86-64 frames are the C wrappers' and
 * the assembly rows' saved registers, apart from the portable C kernel's
 * (generic), which are sized for the largest n; the arm64 ones were
 * measured only as part of the deepest. */
#if defined(__x86_64__)
#define CRISP_SCRUB_BN_SCHOOLBOOK(generic) ((generic) ? (size_t)1280 : (size_t)768)
#else
#define CRISP_SCRUB_BN_SCHOOLBOOK(generic) ((size_t)1280 + 0 * (generic))
#endif
#define CRISP_SCRUB_BN_MUL_BYTES(n, generic)         \
  ((n) < 32     ? CRISP_SCRUB_BN_SCHOOLBOOK(generic) \
   : (n) <= 48  ? CRISP_SCRUB_BN_MUL_LEAST_BYTES     \
   : (n) <= 64  ? CRISP_SCRUB_BN_MUL_SMALL_BYTES     \
   : (n) <= 128 ? CRISP_SCRUB_BN_MUL_MEDIUM_BYTES    \
                : CRISP_SCRUB_BN_MUL_LARGE_BYTES)
#define CRISP_SCRUB_BN_SQR_BYTES(n, generic)         \
  ((n) < 32     ? CRISP_SCRUB_BN_SCHOOLBOOK(generic) \
   : (n) <= 48  ? CRISP_SCRUB_BN_SQR_LEAST_BYTES     \
   : (n) <= 64  ? CRISP_SCRUB_BN_SQR_SMALL_BYTES     \
   : (n) <= 128 ? CRISP_SCRUB_BN_SQR_MEDIUM_BYTES    \
                : CRISP_SCRUB_BN_SQR_LARGE_BYTES)
/* On x86-64 the Karatsuba frames are sized to what products and squares
 * write (CRISP_KARATSUBA_MUL_SCRATCH, CRISP_KARATSUBA_SQR_SCRATCH). */
#if defined(__x86_64__)
#define CRISP_SCRUB_BN_MUL_LEAST_BYTES ((size_t)3328)
#define CRISP_SCRUB_BN_MUL_SMALL_BYTES ((size_t)5120)
#define CRISP_SCRUB_BN_MUL_MEDIUM_BYTES ((size_t)9472)
#define CRISP_SCRUB_BN_MUL_LARGE_BYTES ((size_t)18432)
#define CRISP_SCRUB_BN_SQR_LEAST_BYTES ((size_t)2304)
#define CRISP_SCRUB_BN_SQR_SMALL_BYTES ((size_t)3840)
#define CRISP_SCRUB_BN_SQR_MEDIUM_BYTES ((size_t)7168)
#define CRISP_SCRUB_BN_SQR_LARGE_BYTES ((size_t)13824)
#else
#define CRISP_SCRUB_BN_MUL_LEAST_BYTES ((size_t)6400)
#define CRISP_SCRUB_BN_MUL_SMALL_BYTES ((size_t)6400)
#define CRISP_SCRUB_BN_MUL_MEDIUM_BYTES ((size_t)11008)
#define CRISP_SCRUB_BN_MUL_LARGE_BYTES ((size_t)19712)
#define CRISP_SCRUB_BN_SQR_LEAST_BYTES ((size_t)5376)
#define CRISP_SCRUB_BN_SQR_SMALL_BYTES ((size_t)5376)
#define CRISP_SCRUB_BN_SQR_MEDIUM_BYTES ((size_t)8448)
#define CRISP_SCRUB_BN_SQR_LARGE_BYTES ((size_t)15360)
#endif
#define CRISP_SCRUB_BN_MUL_ADD_BYTES ((size_t)768)
/* Montgomery products by n and by whether the kernel is the portable C
 * one, whose frames are sized for CRISP_BN_MONT_MAX_LIMBS at every n; the
 * x86-64 kernels' frames below 24 limbs are small. On x86-64 each depth
 * also covers, with CRISP_SCRUB_BN_ALIAS_BYTES, the calls whose r overlaps
 * an operand by the same rule. The arm64 kernels were measured only as
 * part of the deepest, so other targets take deeper figures that cover
 * larger frames than x86-64's. */
#if defined(__x86_64__)
#define CRISP_SCRUB_BN_MONT_SMALL(generic) ((generic) ? (size_t)5888 : (size_t)1536)
#define CRISP_SCRUB_BN_MONT_LARGER(n) ((n) <= 64 ? (size_t)6912 : (n) <= 128 ? (size_t)9984 : (size_t)18944)
#else
#define CRISP_SCRUB_BN_MONT_SMALL(generic) ((size_t)6144 + 0 * (generic))
#define CRISP_SCRUB_BN_MONT_LARGER(n) ((n) <= 64 ? (size_t)8448 : (n) <= 128 ? (size_t)11264 : (size_t)20224)
#endif
#define CRISP_SCRUB_BN_MONT_BYTES(n, generic) \
  ((n) < 24 ? CRISP_SCRUB_BN_MONT_SMALL(generic) : CRISP_SCRUB_BN_MONT_LARGER(n))
#define CRISP_SCRUB_BN_R2_BYTES(n) \
  ((n) < 24 ? (size_t)10752 : (n) <= 64 ? (size_t)12800 : (n) <= 128 ? (size_t)15616 : (size_t)24576)
/* More where a Montgomery call copies an operand that r overlaps: the
 * copies' frame, two operands of the largest size. */
#define CRISP_SCRUB_BN_ALIAS_BYTES ((size_t)(2 * CRISP_BN_MONT_MAX_LIMBS * 8 + 256))

/* Below the first use of a kernel: the CPU probe, the environment's
 * parsing and its one stderr line, and under lazy binding the dynamic
 * resolver's frames. */
#define CRISP_SCRUB_PROBE_BYTES ((size_t)6656)

#endif
