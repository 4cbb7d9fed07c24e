/* crisp/chacha20.h - the ChaCha20 stream cipher (RFC 8439) and HChaCha20
 * (draft-irtf-cfrg-xchacha), the subkey step of XChaCha20. */
#ifndef CRISP_CHACHA20_H
#define CRISP_CHACHA20_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CRISP_CHACHA20_KEY_SIZE 32
#define CRISP_CHACHA20_NONCE_SIZE 12
#define CRISP_CHACHA20_BLOCK_SIZE 64

/* Stack (measured by test/test_stack.c, every level and length): at most
 * 8 KiB for crisp_chacha20 and 2 KiB for crisp_hchacha20. */

/* RFC 8439 ChaCha20: out = in XOR the keystream of (key, nonce) starting at
 * block `counter`; encryption and decryption are the same call. out == in
 * (in place) is allowed, any other overlap is not.
 * Returns CRISP_OK; CRISP_E_INVALID for a NULL key or nonce, a NULL out or in
 * with len > 0, or out and in overlapping other than exactly; CRISP_E_RANGE
 * when the last block would need a counter past 2^32 - 1 (the counter never
 * wraps). On an error out is untouched. */
CRISP_API int crisp_chacha20(uint8_t *out, const uint8_t *in, size_t len,
                             const uint8_t key[CRISP_CHACHA20_KEY_SIZE],
                             const uint8_t nonce[CRISP_CHACHA20_NONCE_SIZE], uint32_t counter);

/* HChaCha20 (draft-irtf-cfrg-xchacha 2.2): a 32-byte subkey from a key and a
 * 16-byte input. CRISP_OK, or CRISP_E_INVALID for a NULL pointer. */
CRISP_API int crisp_hchacha20(uint8_t subkey[32], const uint8_t key[CRISP_CHACHA20_KEY_SIZE],
                              const uint8_t input[16]);

#ifdef __cplusplus
}
#endif

#endif
