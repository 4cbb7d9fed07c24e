/* src/poly1305_internal.h - the Poly1305 context calls without the stack
 * scrub their public forms end with, for a caller that scrubs once after a
 * larger operation (the streaming AEAD). */
#ifndef CRISP_SRC_POLY1305_INTERNAL_H
#define CRISP_SRC_POLY1305_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "crisp/poly1305.h"
#include "impl.h"

/* The context keyed for impl, which its updates and final keep. */
void crisp_poly1305_init_unscrubbed(crisp_poly1305_ctx *ctx, const crisp_poly1305_impl *impl,
                                    const uint8_t key[32]);
void crisp_poly1305_update_unscrubbed(crisp_poly1305_ctx *ctx, const void *data, size_t len);
void crisp_poly1305_final_unscrubbed(crisp_poly1305_ctx *ctx, uint8_t tag[16]);

/* The fewest message bytes from which impl may take its vector path (see
 * crisp_poly1305_impl): what the one-shot calls size their scrub by. */
static inline size_t crisp_poly1305_vector_from(const crisp_poly1305_impl *impl) {
  return impl->vector_from ? impl->vector_from() : 256;
}

/* Whether impl may take its vector path for a message of this many bytes.
 * Below 64 none does (no Poly1305 crossover can be tuned under 4 blocks:
 * tuning.h's minima), which spares the short calls the indirect call. */
static inline int crisp_poly1305_may_vector(const crisp_poly1305_impl *impl, size_t bytes) {
  return bytes >= 64 && bytes >= crisp_poly1305_vector_from(impl);
}

#endif
