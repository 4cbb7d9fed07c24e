/* src/chacha20poly1305_internal.h - what tests may reach of the AEADs
 * beyond their public API: setting a stream's count of message bytes, so
 * that the limit on a message's length is checked in microseconds, and
 * which path a one-shot open takes, which no output shows. */
#ifndef CRISP_SRC_CHACHA20POLY1305_INTERNAL_H
#define CRISP_SRC_CHACHA20POLY1305_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "crisp/chacha20poly1305.h"

/* Makes an initialised stream count bytes of message so far, its keystream
 * position and MAC kept: later updates are refused or accepted as after
 * that many bytes, and the tag's length block carries the count. Does
 * nothing on a NULL or unusable context or past
 * CRISP_CHACHA20_POLY1305_MAX_LEN. Internal: not exported from the shared
 * library; tests link the static one. */
void crisp_chacha20_poly1305_stream_set_length(crisp_chacha20_poly1305_ctx *ctx, uint64_t bytes);

/* 1 when a one-shot open of len bytes with ad_len bytes of ad runs the
 * ChaCha20 kernel's fused open (open_mac) under the implementations active
 * now, else 0. Internal, as above. */
int crisp_chacha20_poly1305_open_runs_fused(size_t len, size_t ad_len);

#endif
