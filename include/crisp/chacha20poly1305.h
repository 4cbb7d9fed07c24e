/* crisp/chacha20poly1305.h - the ChaCha20-Poly1305 and XChaCha20-Poly1305
 * AEADs (RFC 8439, draft-irtf-cfrg-xchacha). It includes crisp/chacha20.h,
 * the stream cipher they are built on, so ChaCha20 and HChaCha20 may be
 * taken from either header. */
#ifndef CRISP_CHACHA20POLY1305_H
#define CRISP_CHACHA20POLY1305_H

#include <stddef.h>
#include <stdint.h>

#include "chacha20.h"
#include "common.h"
#include "poly1305.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CRISP_XCHACHA20_NONCE_SIZE 24
#define CRISP_CHACHA20_POLY1305_TAG_SIZE 16
/* The longest message one (nonce, key) pair can carry: ChaCha20's 32-bit
 * block counter starts at 1 for the AEADs, so 2^32 - 1 blocks. */
#define CRISP_CHACHA20_POLY1305_MAX_LEN ((uint64_t)0xffffffffu * 64u)
/* Part of the ABI: a header, then a Poly1305 context. */
#define CRISP_CHACHA20_POLY1305_CTX_SIZE (256 + CRISP_POLY1305_CTX_SIZE)

/* Stack (measured by test/test_stack.c, every level and length): at most
 * 12 KiB for each function here, one-shot, X and streaming. */

/* RFC 8439 2.8 AEAD. seal writes len bytes of ciphertext to ct and the tag to
 * tag. open verifies the tag (in constant time) over ad and all of ct
 * before it writes any byte of pt; only a tag that verifies lets it write
 * the len bytes of plaintext. On a wrong tag pt is not written at all (in
 * place, the ciphertext stays as it was), so nothing that shares pt, such
 * as another process mapping it, ever sees a forged message's plaintext.
 * A (key, nonce) pair must never seal two different messages.
 * Overlaps: ct == pt (in place) is the one allowed. Any other shared byte
 * between ct and pt, between the tag and ct or pt, or between ad and ct,
 * pt or the tag is refused (an empty ad or message shares none). key and
 * nonce are read before anything is written.
 * Returns CRISP_OK; CRISP_E_INVALID for a NULL key, nonce or tag, a NULL
 * message buffer with len > 0, NULL ad with ad_len > 0, or a refused
 * overlap (outputs untouched); CRISP_E_RANGE when len exceeds
 * CRISP_CHACHA20_POLY1305_MAX_LEN (outputs untouched); open only:
 * CRISP_E_MISMATCH when the tag is wrong (pt untouched). */
CRISP_API int crisp_chacha20_poly1305_seal(uint8_t *ct, uint8_t tag[CRISP_CHACHA20_POLY1305_TAG_SIZE],
                                           const uint8_t *pt, size_t len, const uint8_t *ad, size_t ad_len,
                                           const uint8_t nonce[CRISP_CHACHA20_NONCE_SIZE],
                                           const uint8_t key[CRISP_CHACHA20_KEY_SIZE]);
CRISP_API int crisp_chacha20_poly1305_open(uint8_t *pt, const uint8_t *ct, size_t len,
                                           const uint8_t tag[CRISP_CHACHA20_POLY1305_TAG_SIZE],
                                           const uint8_t *ad, size_t ad_len,
                                           const uint8_t nonce[CRISP_CHACHA20_NONCE_SIZE],
                                           const uint8_t key[CRISP_CHACHA20_KEY_SIZE]);

/* XChaCha20-Poly1305: the same AEAD under the subkey HChaCha20(key, nonce[0..16))
 * with the nonce 0^4 || nonce[16..24), as libsodium's
 * crypto_aead_xchacha20poly1305_ietf_*. 24-byte nonces are long enough to
 * be drawn at random for every message. Arguments and errors as above. */
CRISP_API int crisp_xchacha20_poly1305_seal(uint8_t *ct, uint8_t tag[CRISP_CHACHA20_POLY1305_TAG_SIZE],
                                            const uint8_t *pt, size_t len, const uint8_t *ad, size_t ad_len,
                                            const uint8_t nonce[CRISP_XCHACHA20_NONCE_SIZE],
                                            const uint8_t key[CRISP_CHACHA20_KEY_SIZE]);
CRISP_API int crisp_xchacha20_poly1305_open(uint8_t *pt, const uint8_t *ct, size_t len,
                                            const uint8_t tag[CRISP_CHACHA20_POLY1305_TAG_SIZE],
                                            const uint8_t *ad, size_t ad_len,
                                            const uint8_t nonce[CRISP_XCHACHA20_NONCE_SIZE],
                                            const uint8_t key[CRISP_CHACHA20_KEY_SIZE]);

/* Streaming AEAD, for messages too large to hold at once.
 *
 * WARNING: a streaming open hands out plaintext from every update, before
 * crisp_chacha20_poly1305_stream_open_final has checked the tag; a caller
 * must not act on it until that returns CRISP_OK. The one-shot open is the
 * safe default.
 *
 * Opaque, CRISP_CHACHA20_POLY1305_CTX_SIZE bytes; placement as for
 * crisp_poly1305_ctx (8-byte alignment suffices; may be copied byte-wise
 * between calls). The context keeps the implementations it was initialised
 * with. */
typedef struct crisp_chacha20_poly1305_ctx {
  union {
    unsigned char opaque[CRISP_CHACHA20_POLY1305_CTX_SIZE];
    uint64_t alignment; /* never used: gives the type the alignment of its fields */
  };
} crisp_chacha20_poly1305_ctx;

typedef enum crisp_aead_direction { CRISP_AEAD_SEAL = 1, CRISP_AEAD_OPEN = 2 } crisp_aead_direction;

/* Starts a message: direction, nonce, key and all of the associated data.
 * CRISP_OK; CRISP_E_INVALID for a NULL ctx, key or nonce, NULL ad with
 * ad_len > 0, ad sharing a byte with ctx, or an unknown direction. On an
 * error a non-NULL ctx is wiped, whatever stream it held: updates and
 * finals then refuse it with CRISP_E_INVALID until it is initialised again.
 * ad may be NULL when ad_len is 0. */
CRISP_API int crisp_chacha20_poly1305_stream_init(crisp_chacha20_poly1305_ctx *ctx,
                                                  crisp_aead_direction direction,
                                                  const uint8_t nonce[CRISP_CHACHA20_NONCE_SIZE],
                                                  const uint8_t key[CRISP_CHACHA20_KEY_SIZE],
                                                  const uint8_t *ad, size_t ad_len);
CRISP_API int crisp_xchacha20_poly1305_stream_init(crisp_chacha20_poly1305_ctx *ctx,
                                                   crisp_aead_direction direction,
                                                   const uint8_t nonce[CRISP_XCHACHA20_NONCE_SIZE],
                                                   const uint8_t key[CRISP_CHACHA20_KEY_SIZE],
                                                   const uint8_t *ad, size_t ad_len);
/* Encrypts (seal) or decrypts (open) the next len bytes of the message; any
 * split gives the same bytes and tag. out == in allowed (in place); any
 * other shared byte between them, or between either and ctx, is not.
 * CRISP_OK; CRISP_E_INVALID for a NULL or uninitialised ctx, NULL out or in
 * with len > 0, or a refused overlap; CRISP_E_RANGE when the message would
 * exceed CRISP_CHACHA20_POLY1305_MAX_LEN. Nothing is written on an error and
 * the stream may go on. */
CRISP_API int crisp_chacha20_poly1305_stream_update(crisp_chacha20_poly1305_ctx *ctx, uint8_t *out,
                                                    const uint8_t *in, size_t len);
/* Ends a sealed message: writes the tag and wipes the context. CRISP_OK;
 * CRISP_E_INVALID for a NULL ctx or tag (nothing happens: the stream may go
 * on), or for a tag sharing a byte with ctx or a context that is not
 * sealing (the context is then wiped). */
CRISP_API int crisp_chacha20_poly1305_stream_seal_final(crisp_chacha20_poly1305_ctx *ctx,
                                                        uint8_t tag[CRISP_CHACHA20_POLY1305_TAG_SIZE]);
/* Ends an opened message: CRISP_OK when tag is right (compared in constant
 * time), CRISP_E_MISMATCH when not; both wipe the context. CRISP_E_INVALID
 * for a NULL ctx or tag (nothing happens: the stream may go on), or for a
 * tag sharing a byte with ctx or a context that is not opening (the context
 * is then wiped). The plaintext already handed out is the caller's to
 * discard on a mismatch. */
CRISP_API int crisp_chacha20_poly1305_stream_open_final(crisp_chacha20_poly1305_ctx *ctx,
                                                        const uint8_t tag[CRISP_CHACHA20_POLY1305_TAG_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
