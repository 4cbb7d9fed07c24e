/* src/generic/generic.h - the portable kernels, for other implementations
 * that fall back to them (a short input, an unsupported size). */
#ifndef CRISP_SRC_GENERIC_GENERIC_H
#define CRISP_SRC_GENERIC_GENERIC_H

#include "impl.h"

void crisp_md5_generic(uint32_t state[4], const uint8_t *data, size_t nblocks);
void crisp_md5_many_generic(uint32_t *const state[], const uint8_t *const data[], const size_t nblocks[],
                            size_t n);

/* Bignum kernels; contracts as in src/impl.h. */
void crisp_bn_mul_generic(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn);
void crisp_bn_sqr_generic(crisp_limb *z, const crisp_limb *x, size_t n);
crisp_limb crisp_bn_mul_add_generic(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k);
void crisp_bn_mont_mul_generic(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                               size_t n, crisp_limb minv);
void crisp_bn_mont_sqr_generic(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                               crisp_limb minv);
void crisp_poly1305_init_generic(void *state, const uint8_t key[32]);
void crisp_poly1305_blocks_generic(void *state, const uint8_t *data, size_t nblocks, unsigned hibit);
void crisp_poly1305_finish_generic(void *state, uint8_t tag[16]);
void crisp_poly1305_tag_pieces_generic(uint8_t tag[16], const uint8_t key[32],
                                       const crisp_poly1305_pieces *pieces);

/* ChaCha20: the 20 rounds in place (no final addition, as HChaCha20 needs),
 * and the keystream XOR with the contract of crisp_chacha20_impl. */
void crisp_chacha20_rounds_generic(uint32_t x[16]);
void crisp_chacha20_xor_generic(uint8_t *out, const uint8_t *in, size_t len, const uint32_t state[16]);

#endif
