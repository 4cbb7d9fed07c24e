/* src/poly1305.c - the Poly1305 front-end: buffers partial blocks, pads the
 * last one, and calls the implementation the context was initialised with,
 * so a crisp_force() mid-stream never mixes two representations of r. */
#include "crisp/poly1305.h"

#include <assert.h>

#include "dispatch/select.h"
#include "poly1305_internal.h"
#include "scrub_depths.h"
#include "util.h"

#define BLOCK 16

/* The layout behind crisp_poly1305_ctx: a 64-byte header, then the
 * implementation's own state (accumulator, r, s, cached powers of r), the
 * CRISP_POLY1305_STATE_SIZE bytes from offset 64 to the end. The context
 * may sit at any 8-byte boundary, so nothing here asks for more alignment
 * (the compiler would emit aligned vector moves for it); the header is 64
 * bytes so that a caller's 64-byte-aligned context gives the kernels
 * cache-line-aligned tables. */
#define HEADER_SIZE 64
typedef struct poly1305_frontend {
  const crisp_poly1305_impl *impl;
  size_t buffered;
  uint8_t buffer[BLOCK];
  uint8_t unused[HEADER_SIZE - sizeof(const void *) - sizeof(size_t) - BLOCK];
  unsigned char state[CRISP_POLY1305_STATE_SIZE];
} poly1305_frontend;

static_assert(sizeof(poly1305_frontend) == CRISP_POLY1305_CTX_SIZE, "context layout is part of the ABI");
static_assert(offsetof(poly1305_frontend, state) == HEADER_SIZE,
              "the state starts a cache line when the context does");
static_assert(_Alignof(poly1305_frontend) <= _Alignof(crisp_poly1305_ctx),
              "the public type is aligned for the fields");

__attribute__((noinline)) void crisp_poly1305_init_unscrubbed(crisp_poly1305_ctx *ctx,
                                                              const crisp_poly1305_impl *impl,
                                                              const uint8_t key[32]) {
  if (!ctx) return;
  poly1305_frontend *f = (poly1305_frontend *)ctx->opaque;
  if (!key) {
    crisp_wipe(f, sizeof *f);
    return;
  }
  f->impl = impl;
  f->buffered = 0;
  f->impl->init(f->state, key);
}

__attribute__((noinline)) void crisp_poly1305_update_unscrubbed(crisp_poly1305_ctx *ctx, const void *data,
                                                                size_t len) {
  if (!ctx || !data || !len) return;
  poly1305_frontend *f = (poly1305_frontend *)ctx->opaque;
  if (!f->impl) return;
  const uint8_t *in = data;
  if (f->buffered) {
    size_t take = BLOCK - f->buffered;
    if (take > len) take = len;
    memcpy(f->buffer + f->buffered, in, take);
    f->buffered += take, in += take, len -= take;
    if (f->buffered < BLOCK) return;
    f->impl->blocks(f->state, f->buffer, 1, 1);
    f->buffered = 0;
  }
  if (len >= BLOCK) {
    f->impl->blocks(f->state, in, len / BLOCK, 1);
    in += len / BLOCK * BLOCK;
    len %= BLOCK;
  }
  if (len) {
    memcpy(f->buffer, in, len);
    f->buffered = len;
  }
}

__attribute__((noinline)) void crisp_poly1305_final_unscrubbed(crisp_poly1305_ctx *ctx, uint8_t tag[16]) {
  /* A NULL tag breaks a precondition: nothing happens, the stream goes on. */
  if (!ctx || !tag) return;
  poly1305_frontend *f = (poly1305_frontend *)ctx->opaque;
  if (!f->impl) {
    crisp_wipe(f, sizeof *f);
    return;
  }
  if (f->buffered) {
    /* RFC 8439 2.5.1: a short last block gets a 1 byte, then zeros, and no 2^128. */
    f->buffer[f->buffered] = 1;
    memset(f->buffer + f->buffered + 1, 0, BLOCK - f->buffered - 1);
    f->impl->blocks(f->state, f->buffer, 1, 0);
  }
  f->impl->finish(f->state, tag); /* wipes the implementation's state */
  crisp_wipe(f, HEADER_SIZE);
}

void crisp_poly1305_init(crisp_poly1305_ctx *ctx, const uint8_t key[CRISP_POLY1305_KEY_SIZE]) {
  crisp_poly1305_init_unscrubbed(ctx, crisp_active_poly1305(), key);
  crisp_scrub_below(CRISP_SCRUB_POLY1305_INIT_BYTES);
}

void crisp_poly1305_update(crisp_poly1305_ctx *ctx, const void *data, size_t len) {
  crisp_poly1305_update_unscrubbed(ctx, data, len);
  crisp_scrub_below(CRISP_SCRUB_POLY1305_CONTEXT_BYTES);
}

void crisp_poly1305_final(crisp_poly1305_ctx *ctx, uint8_t tag[CRISP_POLY1305_TAG_SIZE]) {
  crisp_poly1305_final_unscrubbed(ctx, tag);
  crisp_scrub_below(CRISP_SCRUB_POLY1305_CONTEXT_BYTES);
}

/* One message: no context, no buffering; the short tail is padded on the
 * stack. Short TLS and QUIC records take this path, so every call saved
 * counts. */
static inline __attribute__((always_inline)) void poly1305_message_in(unsigned char *state,
                                                                      const crisp_poly1305_impl *impl,
                                                                      uint8_t tag[16], const void *data,
                                                                      size_t len, const uint8_t key[32]) {
  impl->init(state, key);
  const size_t whole = len / BLOCK;
  if (whole) impl->blocks(state, data, whole, 1);
  const size_t tail = len % BLOCK;
  if (tail) {
    uint8_t last[BLOCK] = {0};
    memcpy(last, (const uint8_t *)data + whole * BLOCK, tail);
    last[tail] = 1;
    impl->blocks(state, last, 1, 0);
    crisp_wipe(last, sizeof last);
  }
  impl->finish(state, tag); /* wipes the state */
}

/* Out of line, so that the state and the kernels' frames lie below the
 * public entry's, where its scrub reaches; one frame per size of state,
 * so that a message below the vector path keeps to a state's head
 * (CRISP_POLY1305_SHORT_STATE_SIZE) and a shallow scrub. */
static __attribute__((noinline)) void poly1305_message_short(const crisp_poly1305_impl *impl, uint8_t tag[16],
                                                             const void *data, size_t len,
                                                             const uint8_t key[32]) {
  CRISP_ALIGNED(64) unsigned char state[CRISP_POLY1305_SHORT_STATE_SIZE];
  poly1305_message_in(state, impl, tag, data, len, key);
}

static __attribute__((noinline)) void poly1305_message_long(const crisp_poly1305_impl *impl, uint8_t tag[16],
                                                            const void *data, size_t len,
                                                            const uint8_t key[32]) {
  CRISP_ALIGNED(64) unsigned char state[CRISP_POLY1305_STATE_SIZE];
  poly1305_message_in(state, impl, tag, data, len, key);
}

/* Whether the message's blocks, the padded tail included, may reach the
 * vector path: the deeper frames and the whole state. */
static int message_may_vector(const crisp_poly1305_impl *impl, size_t len) {
  const size_t padded = len > SIZE_MAX - BLOCK ? SIZE_MAX : (len + BLOCK - 1) / BLOCK * BLOCK;
  return crisp_poly1305_may_vector(impl, padded);
}

static void poly1305_message(const crisp_poly1305_impl *impl, uint8_t tag[16], const void *data, size_t len,
                             const uint8_t key[32]) {
  if (message_may_vector(impl, len))
    poly1305_message_long(impl, tag, data, len, key);
  else
    poly1305_message_short(impl, tag, data, len, key);
}

void crisp_poly1305(uint8_t tag[CRISP_POLY1305_TAG_SIZE], const void *data, size_t len,
                    const uint8_t key[CRISP_POLY1305_KEY_SIZE]) {
  if (!tag || !key || (!data && len)) return;
  const crisp_poly1305_impl *impl = crisp_active_poly1305();
  poly1305_message(impl, tag, data, len, key);
  crisp_scrub_below(CRISP_SCRUB_POLY1305_BYTES(message_may_vector(impl, len)));
}

/* The expected tag and the comparison of every byte, whatever the earlier
 * ones were: only the verdict leaves this call. Compared as two words, the
 * halves the implementations store the tag as: a 16-byte load of two
 * 8-byte stores in flight waits for both to reach the cache. */
static __attribute__((noinline)) int poly1305_check(const crisp_poly1305_impl *impl, const uint8_t tag[16],
                                                    const void *data, size_t len, const uint8_t key[32]) {
  uint8_t expected[CRISP_POLY1305_TAG_SIZE];
  poly1305_message(impl, expected, data, len, key);
  const uint64_t diff = (crisp_load64_le(expected) ^ crisp_load64_le(tag)) |
                        (crisp_load64_le(expected + 8) ^ crisp_load64_le(tag + 8));
  crisp_wipe(expected, sizeof expected);
  return diff == 0 ? CRISP_OK : CRISP_E_MISMATCH;
}

int crisp_poly1305_verify(const uint8_t tag[CRISP_POLY1305_TAG_SIZE], const void *data, size_t len,
                          const uint8_t key[CRISP_POLY1305_KEY_SIZE]) {
  if (!tag || !key || (!data && len)) return CRISP_E_INVALID;
  const crisp_poly1305_impl *impl = crisp_active_poly1305();
  const int status = poly1305_check(impl, tag, data, len, key);
  crisp_scrub_below(CRISP_SCRUB_POLY1305_BYTES(message_may_vector(impl, len)));
  return status;
}
