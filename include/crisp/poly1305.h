/* crisp/poly1305.h - the Poly1305 one-time authenticator (RFC 8439). */
#ifndef CRISP_POLY1305_H
#define CRISP_POLY1305_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CRISP_POLY1305_KEY_SIZE 32
#define CRISP_POLY1305_TAG_SIZE 16
/* Part of the ABI: room for every implementation's cached powers of r. */
#define CRISP_POLY1305_CTX_SIZE 1024

/* Opaque. The context keeps the implementation it was initialised with, so
 * a later crisp_force() never mixes representations.
 * Placement: any address aligned for a uint64_t (8 bytes), which the type's
 * own alignment gives on the stack, from malloc, from C++ new and as a
 * struct member; a context may be copied byte-wise between calls (a growing
 * C++ container moves it). A 64-byte boundary keeps the vector kernels'
 * tables in whole cache lines, nothing more. The type asks for no more than
 * 8 bytes because a larger alignment would not be honoured by malloc or
 * pre-C++17 new, and would change the layout of every struct holding one. */
typedef struct crisp_poly1305_ctx {
  union {
    unsigned char opaque[CRISP_POLY1305_CTX_SIZE];
    uint64_t alignment; /* never used: gives the type the alignment of its fields */
  };
} crisp_poly1305_ctx;

/* A key must be used for one message only. Preconditions of the void
 * functions: ctx, key and tag are not NULL, and data is not NULL when len > 0;
 * a call that breaks one does nothing (init with a NULL key leaves a context
 * that ignores updates and final writes no tag). */
/* Stack (measured by test/test_stack.c, every level and length): at most
 * 8 KiB for each function here. */
CRISP_API void crisp_poly1305_init(crisp_poly1305_ctx *ctx, const uint8_t key[CRISP_POLY1305_KEY_SIZE]);
/* data may be NULL when len is 0. Any split of a message gives the same tag. */
CRISP_API void crisp_poly1305_update(crisp_poly1305_ctx *ctx, const void *data, size_t len);
/* Writes the tag and wipes the context; with a NULL tag it does nothing and
 * the message may go on. */
CRISP_API void crisp_poly1305_final(crisp_poly1305_ctx *ctx, uint8_t tag[CRISP_POLY1305_TAG_SIZE]);
CRISP_API void crisp_poly1305(uint8_t tag[CRISP_POLY1305_TAG_SIZE], const void *data, size_t len,
                              const uint8_t key[CRISP_POLY1305_KEY_SIZE]);
/* CRISP_OK when tag is right, CRISP_E_MISMATCH when not (compared in constant
 * time), CRISP_E_INVALID for a NULL tag or key, or NULL data with len > 0. */
CRISP_API int crisp_poly1305_verify(const uint8_t tag[CRISP_POLY1305_TAG_SIZE], const void *data, size_t len,
                                    const uint8_t key[CRISP_POLY1305_KEY_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
