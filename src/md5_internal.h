/* src/md5_internal.h - what tests may reach of the MD5 front-end beyond its
 * public API: setting a stream's length counter, so that lengths past what
 * a test can hash are checked in microseconds. */
#ifndef CRISP_SRC_MD5_INTERNAL_H
#define CRISP_SRC_MD5_INTERNAL_H

#include <stdint.h>

#include "crisp/md5.h"

/* Makes an initialised stream count bytes of message so far, its chaining
 * state and buffered bytes kept, as if earlier blocks had compressed to
 * that state: the digest then equals that of any MD5 whose counter is set
 * the same way (OpenSSL's MD5_CTX Nl and Nh). bytes must keep the buffered
 * length (bytes % 64 equal to what the stream holds); otherwise, or on an
 * inert or NULL context, nothing changes. Internal: not exported from the
 * shared library; tests link the static one. */
void crisp_md5_set_length(crisp_md5_ctx *ctx, uint64_t bytes);

#endif
