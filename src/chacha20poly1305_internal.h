/* src/chacha20poly1305_internal.h - what tests may reach of the streaming
 * AEAD beyond its public API: setting a stream's count of message bytes,
 * so that the limit on a message's length is checked in microseconds. */
#ifndef CRISP_SRC_CHACHA20POLY1305_INTERNAL_H
#define CRISP_SRC_CHACHA20POLY1305_INTERNAL_H

#include <stdint.h>

#include "crisp/chacha20poly1305.h"

/* Makes an initialised stream count bytes of message so far, its keystream
 * position and MAC kept: later updates are refused or accepted as after
 * that many bytes, and the tag's length block carries the count. Does
 * nothing on a NULL or unusable context or past
 * CRISP_CHACHA20_POLY1305_MAX_LEN. Internal: not exported from the shared
 * library; tests link the static one. */
void crisp_chacha20_poly1305_stream_set_length(crisp_chacha20_poly1305_ctx *ctx, uint64_t bytes);

#endif
