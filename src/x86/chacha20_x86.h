/* src/x86/chacha20_x86.h - the x86 ChaCha20 kernels a wider one hands its
 * tail to; contracts as crisp_chacha20_impl in src/impl.h. */
#ifndef CRISP_SRC_X86_CHACHA20_X86_H
#define CRISP_SRC_X86_CHACHA20_X86_H

#include "impl.h"

void crisp_chacha20_xor_x86_64(uint8_t *out, const uint8_t *in, size_t len, const uint32_t state[16]);
void crisp_chacha20_xor_avx2(uint8_t *out, const uint8_t *in, size_t len, const uint32_t state[16]);

void crisp_chacha20_xor_avx512(uint8_t *out, const uint8_t *in, size_t len, const uint32_t state[16]);

#endif
