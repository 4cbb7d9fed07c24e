/* src/md5.c - the MD5 front-end: buffering, padding, and calls through the
 * implementation tables. A stream keeps the implementation of its init. */
#include "crisp/md5.h"

#include <assert.h>

#include "dispatch/select.h"
#include "md5_internal.h"
#include "util.h"

/* RFC 1321, 3.3: the initial chaining values A, B, C, D. */
static const uint32_t md5_iv[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};

/* Messages hashed per call of the many-lanes kernel: enough for 16 lanes of
 * AVX-512 several times over, small enough for the stack. */
#define MANY_CHUNK 64

/* The layout behind crisp_md5_ctx. A zero impl marks an inert context. */
typedef struct md5_stream {
  const crisp_md5_impl *impl; /* chosen at init */
  uint64_t bytes;             /* message length so far */
  uint32_t state[4];
  uint8_t buffer[CRISP_MD5_BLOCK_SIZE];
} md5_stream;

static_assert(sizeof(md5_stream) <= CRISP_MD5_CTX_SIZE, "a stream fits the public context");
static_assert(_Alignof(md5_stream) <= 8, "the public context promises 8-byte alignment is enough");

static md5_stream *stream_of(crisp_md5_ctx *ctx) {
  return (md5_stream *)(void *)ctx->opaque;
}

void crisp_md5_init(crisp_md5_ctx *context) {
  if (!context) return;
  md5_stream *ctx = stream_of(context);
  memcpy(ctx->state, md5_iv, sizeof md5_iv);
  ctx->bytes = 0;
  ctx->impl = crisp_active_md5();
}

void crisp_md5_update(crisp_md5_ctx *context, const void *data, size_t len) {
  if (!context || !data || !len) return;
  md5_stream *ctx = stream_of(context);
  if (!ctx->impl) return;
  const crisp_md5_impl *impl = ctx->impl;
  const uint8_t *in = data;
  size_t used = (size_t)(ctx->bytes % CRISP_MD5_BLOCK_SIZE);
  ctx->bytes += len;
  if (used) {
    size_t take = CRISP_MD5_BLOCK_SIZE - used;
    if (take > len) take = len;
    memcpy(ctx->buffer + used, in, take);
    in += take, len -= take, used += take;
    if (used < CRISP_MD5_BLOCK_SIZE) return;
    impl->blocks(ctx->state, ctx->buffer, 1);
  }
  if (len >= CRISP_MD5_BLOCK_SIZE) {
    impl->blocks(ctx->state, in, len / CRISP_MD5_BLOCK_SIZE);
    in += len / CRISP_MD5_BLOCK_SIZE * CRISP_MD5_BLOCK_SIZE;
    len %= CRISP_MD5_BLOCK_SIZE;
  }
  if (len) memcpy(ctx->buffer, in, len);
}

void crisp_md5_set_length(crisp_md5_ctx *context, uint64_t bytes) {
  if (!context) return;
  md5_stream *ctx = stream_of(context);
  if (!ctx->impl || bytes % CRISP_MD5_BLOCK_SIZE != ctx->bytes % CRISP_MD5_BLOCK_SIZE) return;
  ctx->bytes = bytes;
}

/* Writes the padded tail of a message of total length bytes, whose last
 * bytes % 64 bytes are tail, into out; returns its block count (1 or 2). */
static size_t md5_pad(uint8_t out[2 * CRISP_MD5_BLOCK_SIZE], const uint8_t *tail, uint64_t bytes) {
  const size_t used = (size_t)(bytes % CRISP_MD5_BLOCK_SIZE);
  const size_t blocks = used < CRISP_MD5_BLOCK_SIZE - 8 ? 1 : 2;
  if (used) memcpy(out, tail, used);
  out[used] = 0x80;
  memset(out + used + 1, 0, blocks * CRISP_MD5_BLOCK_SIZE - used - 9);
  crisp_store64_le(out + blocks * CRISP_MD5_BLOCK_SIZE - 8, bytes << 3);
  return blocks;
}

static void md5_digest(uint8_t digest[16], const uint32_t state[4]) {
  for (int i = 0; i < 4; i++) crisp_store32_le(digest + 4 * i, state[i]);
}

void crisp_md5_final(crisp_md5_ctx *context, uint8_t digest[CRISP_MD5_DIGEST_SIZE]) {
  if (!context || !digest) return;
  md5_stream *ctx = stream_of(context);
  if (!ctx->impl) return;
  const crisp_md5_impl *impl = ctx->impl;
  uint8_t pad[2 * CRISP_MD5_BLOCK_SIZE];
  impl->blocks(ctx->state, pad, md5_pad(pad, ctx->buffer, ctx->bytes));
  md5_digest(digest, ctx->state);
  crisp_wipe(context, sizeof *context);
}

/* One message: whole blocks straight from the caller's buffer, then the
 * padded tail from the stack, without a context. */
void crisp_md5(const void *data, size_t len, uint8_t digest[CRISP_MD5_DIGEST_SIZE]) {
  if (!digest || (!data && len)) return;
  const crisp_md5_impl *impl = crisp_active_md5();
  uint32_t state[4] = {md5_iv[0], md5_iv[1], md5_iv[2], md5_iv[3]};
  const size_t whole = len / CRISP_MD5_BLOCK_SIZE;
  if (whole) impl->blocks(state, data, whole);
  uint8_t pad[2 * CRISP_MD5_BLOCK_SIZE];
  const uint8_t *tail = len ? (const uint8_t *)data + whole * CRISP_MD5_BLOCK_SIZE : NULL;
  impl->blocks(state, pad, md5_pad(pad, tail, len));
  md5_digest(digest, state);
  crisp_wipe_lines(pad, sizeof pad);
}

/* Up to MANY_CHUNK streams: first the lanes whose buffered partial block the
 * new data completes, then every lane's whole blocks, then the tails. */
static void update_chunk(const crisp_md5_many_impl *many, crisp_md5_ctx *const context[],
                         const void *const data[], const size_t len[], size_t n) {
  md5_stream *ctx[MANY_CHUNK];
  for (size_t i = 0; i < n; i++) ctx[i] = stream_of(context[i]);
  uint32_t *states[MANY_CHUNK];
  const uint8_t *blocks[MANY_CHUNK];
  size_t counts[MANY_CHUNK];
  const uint8_t *in[MANY_CHUNK];
  size_t left[MANY_CHUNK];
  size_t filled = 0;
  for (size_t i = 0; i < n; i++) {
    in[i] = data[i], left[i] = len[i];
    states[i] = ctx[i]->state;
    const size_t used = (size_t)(ctx[i]->bytes % CRISP_MD5_BLOCK_SIZE);
    ctx[i]->bytes += len[i];
    counts[i] = 0;
    blocks[i] = ctx[i]->buffer;
    if (!used) continue;
    const size_t take = left[i] < CRISP_MD5_BLOCK_SIZE - used ? left[i] : CRISP_MD5_BLOCK_SIZE - used;
    if (!take) continue;
    memcpy(ctx[i]->buffer + used, in[i], take);
    in[i] += take, left[i] -= take;
    if (used + take == CRISP_MD5_BLOCK_SIZE) counts[i] = 1, filled++;
  }
  if (filled) many->blocks_many(states, blocks, counts, n);
  for (size_t i = 0; i < n; i++) {
    blocks[i] = in[i];
    counts[i] = left[i] / CRISP_MD5_BLOCK_SIZE;
  }
  many->blocks_many(states, blocks, counts, n);
  for (size_t i = 0; i < n; i++) {
    const size_t whole = counts[i] * CRISP_MD5_BLOCK_SIZE;
    if (left[i] > whole) memcpy(ctx[i]->buffer, in[i] + whole, left[i] - whole);
  }
}

void crisp_md5_update_many(crisp_md5_ctx *const ctx[], const void *const data[], const size_t len[],
                           size_t n) {
  if (!ctx || !data || !len) return;
  for (size_t i = 0; i < n; i++)
    if (!ctx[i] || !stream_of(ctx[i])->impl || (!data[i] && len[i])) return;
  const crisp_md5_many_impl *many = crisp_active_md5_many();
  for (size_t done = 0; done < n; done += MANY_CHUNK) {
    const size_t count = n - done < MANY_CHUNK ? n - done : MANY_CHUNK;
    update_chunk(many, ctx + done, data + done, len + done, count);
  }
}

/* Whole blocks of every message in lanes, then the padded tails in lanes. */
static void many_chunk(const crisp_md5_many_impl *many, const void *const data[], const size_t len[],
                       size_t n, uint8_t digests[][CRISP_MD5_DIGEST_SIZE]) {
  uint32_t state_storage[MANY_CHUNK][4];
  uint8_t tails[MANY_CHUNK][2 * CRISP_MD5_BLOCK_SIZE];
  uint32_t *states[MANY_CHUNK];
  const uint8_t *blocks[MANY_CHUNK];
  size_t counts[MANY_CHUNK];
  for (size_t i = 0; i < n; i++) {
    memcpy(state_storage[i], md5_iv, sizeof md5_iv);
    states[i] = state_storage[i];
    blocks[i] = data[i];
    counts[i] = len[i] / CRISP_MD5_BLOCK_SIZE;
  }
  many->blocks_many(states, blocks, counts, n);
  for (size_t i = 0; i < n; i++) {
    const size_t whole = counts[i] * CRISP_MD5_BLOCK_SIZE;
    const uint8_t *tail = len[i] ? (const uint8_t *)data[i] + whole : NULL;
    counts[i] = md5_pad(tails[i], tail, len[i]);
    blocks[i] = tails[i];
  }
  many->blocks_many(states, blocks, counts, n);
  for (size_t i = 0; i < n; i++) md5_digest(digests[i], state_storage[i]);
}

void crisp_md5_many(const void *const data[], const size_t len[], size_t n,
                    uint8_t digests[][CRISP_MD5_DIGEST_SIZE]) {
  if (!data || !len || !digests) return;
  for (size_t i = 0; i < n; i++)
    if (!data[i] && len[i]) return;
  const crisp_md5_many_impl *many = crisp_active_md5_many();
  for (size_t done = 0; done < n; done += MANY_CHUNK) {
    const size_t count = n - done < MANY_CHUNK ? n - done : MANY_CHUNK;
    many_chunk(many, data + done, len + done, count, digests + done);
  }
}
