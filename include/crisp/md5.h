/* crisp/md5.h - MD5 (RFC 1321): one stream, and many independent messages at once. */
#ifndef CRISP_MD5_H
#define CRISP_MD5_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CRISP_MD5_DIGEST_SIZE 16
#define CRISP_MD5_BLOCK_SIZE 64

/* Part of the ABI: the size of a stream context. */
#define CRISP_MD5_CTX_SIZE 128

/* Opaque, stack-allocatable, any 8-byte-aligned placement (malloc, a struct
 * member). crisp_md5_update and crisp_md5_final keep the implementation the
 * context was initialised with, so a later crisp_force() never changes it
 * mid-stream. */
typedef struct crisp_md5_ctx {
  CRISP_ALIGNED(8) unsigned char opaque[CRISP_MD5_CTX_SIZE];
} crisp_md5_ctx;

/* A message may have any length, in any number of updates: its length is
 * counted in 64 bits and enters the padding in bits modulo 2^64 (RFC 1321,
 * 3.2), so messages past 2^32 bits (512 MiB) and even past 2^64 bits hash
 * as RFC 1321 says, at every implementation. */
/* Preconditions of these void functions: ctx and digest are not NULL, data
 * is not NULL when len > 0; a call that breaks one does nothing. A context
 * must be initialised before use: an all-zero context (static storage,
 * memset, or one crisp_md5_final has wiped) is inert and ignores update and
 * final, but a never-initialised stack context is undefined behaviour. */
/* Stack (measured by test/test_stack.c, every level and length, gcc and
 * clang at -O2, -O3 and -Os): 2 KiB for each of these four;
 * crisp_md5_update_many 12 KiB and crisp_md5_many 20 KiB, whatever n. */
CRISP_API void crisp_md5_init(crisp_md5_ctx *ctx);
CRISP_API void crisp_md5_update(crisp_md5_ctx *ctx, const void *data, size_t len);
CRISP_API void crisp_md5_final(crisp_md5_ctx *ctx, uint8_t digest[CRISP_MD5_DIGEST_SIZE]);
CRISP_API void crisp_md5(const void *data, size_t len, uint8_t digest[CRISP_MD5_DIGEST_SIZE]);

/* Same effect as crisp_md5_update(ctx[i], data[i], len[i]) for every i < n,
 * with the messages hashed side by side in SIMD lanes where the CPU has them.
 * The lanes run the md5_many implementation in force at the call, whatever
 * the contexts were initialised with; every MD5 implementation keeps the
 * same plain chaining state, so the digest is the same either way. The
 * contexts must be distinct; lengths may differ and need not be multiples of
 * the block size; data[i] may be NULL when len[i] is 0. When a pointer
 * breaks a precondition (a NULL array, context or data[i] with len[i] > 0)
 * or a context is inert, nothing is hashed at all. */
CRISP_API void crisp_md5_update_many(crisp_md5_ctx *const ctx[], const void *const data[], const size_t len[],
                                     size_t n);
/* digests[i] = MD5(data[i][0..len[i])) for every i < n; data[i] may be NULL
 * when len[i] is 0. A NULL array, or a NULL data[i] with len[i] > 0, breaks
 * a precondition: nothing is written. */
CRISP_API void crisp_md5_many(const void *const data[], const size_t len[], size_t n,
                              uint8_t digests[][CRISP_MD5_DIGEST_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
