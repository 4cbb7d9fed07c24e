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

/* Stack-allocatable stream state. The fields are private; the context keeps
 * the implementation it was initialised with. */
typedef struct crisp_md5_ctx {
  uint32_t state[4];
  uint64_t bytes;      /* message length so far */
  const void *impl;    /* implementation chosen at init */
  uint8_t buffer[CRISP_MD5_BLOCK_SIZE];
} crisp_md5_ctx;

/* Preconditions: ctx and digest are not NULL, data is not NULL when len > 0,
 * and a context is initialised before use; a call that breaks one does
 * nothing. */
CRISP_API void crisp_md5_init(crisp_md5_ctx *ctx);
CRISP_API void crisp_md5_update(crisp_md5_ctx *ctx, const void *data, size_t len);
CRISP_API void crisp_md5_final(crisp_md5_ctx *ctx, uint8_t digest[CRISP_MD5_DIGEST_SIZE]);
CRISP_API void crisp_md5(const void *data, size_t len, uint8_t digest[CRISP_MD5_DIGEST_SIZE]);

/* Same effect as crisp_md5_update(ctx[i], data[i], len[i]) for every i < n,
 * with the messages hashed side by side in SIMD lanes where the CPU has them.
 * The contexts must be distinct; lengths may differ and need not be multiples
 * of the block size. */
CRISP_API void crisp_md5_update_many(crisp_md5_ctx *const ctx[], const void *const data[],
                                     const size_t len[], size_t n);
/* digests[i] = MD5(data[i][0..len[i])) for every i < n. */
CRISP_API void crisp_md5_many(const void *const data[], const size_t len[], size_t n,
                              uint8_t digests[][CRISP_MD5_DIGEST_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
