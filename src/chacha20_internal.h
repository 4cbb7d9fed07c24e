/* src/chacha20_internal.h - what the ChaCha20 and AEAD front-ends share. */
#ifndef CRISP_SRC_CHACHA20_INTERNAL_H
#define CRISP_SRC_CHACHA20_INTERNAL_H

#include <stdint.h>

/* The RFC 8439 2.3 input block: constants, key, counter, 96-bit nonce. */
void crisp_chacha20_setup(uint32_t state[16], const uint8_t key[32], const uint8_t nonce[12],
                          uint32_t counter);

/* HChaCha20 (draft-irtf-cfrg-xchacha 2.2) without argument checks. */
void crisp_hchacha20_subkey(uint8_t subkey[32], const uint8_t key[32], const uint8_t input[16]);

#endif
