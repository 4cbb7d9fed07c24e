/* test/test_null_args.c - every public function with NULL in each pointer
 * argument and zero in each length, one table row per function: each call
 * must give the status its header documents, write no output it refused,
 * and leave a context it was handed usable, so the stream then goes on to
 * the same digest, tag or bytes as an undisturbed one. The headers are read
 * at run time (their directories are the arguments) and every function
 * they declare must have a row, so a new function without one fails here. */
#include <dirent.h>

#include "common.h"

#define GUARD 0xa5

/* One message and key for every row; the references come from one-shot
 * calls on them. */
enum { MESSAGE_LEN = 200, SPLIT = 77, AD_LEN = 21 };
static uint8_t message[MESSAGE_LEN], key[32], nonce[24], ad[AD_LEN];

static void expect(int got, int want, const char *call) {
  if (got != want) fail_msg("%s: status %d, documented %d", call, got, want);
}

static void expect_guarded(const uint8_t *bytes, size_t len, const char *call) {
  for (size_t i = 0; i < len; i++)
    if (bytes[i] != GUARD) fail_msg("%s: wrote byte %zu of an output it refused", call, i);
}

static void expect_bytes(const uint8_t *got, const uint8_t *want, size_t len, const char *call) {
  if (memcmp(got, want, len)) fail_msg("%s: result differs from the undisturbed one", call);
}

/* ---- MD5 --------------------------------------------------------------- */

static void md5_reference(uint8_t digest[16]) {
  crisp_md5(message, MESSAGE_LEN, digest);
}

/* The rest of the message after SPLIT bytes, then the digest. */
static void md5_finish(crisp_md5_ctx *ctx, const char *call) {
  uint8_t digest[16], want[16];
  crisp_md5_update(ctx, message + SPLIT, MESSAGE_LEN - SPLIT);
  crisp_md5_final(ctx, digest);
  md5_reference(want);
  expect_bytes(digest, want, 16, call);
}

static void row_md5_init(void) {
  crisp_md5_init(NULL);
}

static void row_md5_update(void) {
  crisp_md5_ctx ctx;
  crisp_md5_init(&ctx);
  crisp_md5_update(&ctx, message, SPLIT);
  crisp_md5_update(NULL, message, 5);
  crisp_md5_update(&ctx, NULL, 5);
  crisp_md5_update(&ctx, NULL, 0);
  crisp_md5_update(&ctx, message + SPLIT, 0);
  md5_finish(&ctx, "crisp_md5_update with NULL ctx or data, or len 0");
}

static void row_md5_final(void) {
  crisp_md5_ctx ctx;
  uint8_t digest[16];
  crisp_md5_init(&ctx);
  crisp_md5_update(&ctx, message, SPLIT);
  memset(digest, GUARD, sizeof digest);
  crisp_md5_final(NULL, digest);
  expect_guarded(digest, sizeof digest, "crisp_md5_final(NULL, digest)");
  crisp_md5_final(&ctx, NULL);
  md5_finish(&ctx, "crisp_md5_final(ctx, NULL), then the stream");
}

static void row_md5(void) {
  uint8_t digest[16], want[16];
  memset(digest, GUARD, sizeof digest);
  crisp_md5(NULL, 5, digest);
  expect_guarded(digest, sizeof digest, "crisp_md5(NULL, 5, digest)");
  crisp_md5(message, MESSAGE_LEN, NULL);
  crisp_md5(NULL, 0, digest);
  crisp_md5(message, 0, want);
  expect_bytes(digest, want, 16, "crisp_md5(NULL, 0, digest)");
}

static void row_md5_update_many(void) {
  crisp_md5_ctx contexts[2];
  crisp_md5_ctx *ctx[2] = {&contexts[0], &contexts[1]}, *with_null[2] = {&contexts[0], NULL};
  for (size_t i = 0; i < 2; i++) crisp_md5_init(ctx[i]), crisp_md5_update(ctx[i], message, SPLIT);
  const void *data[2] = {message + SPLIT, message + SPLIT}, *null_data[2] = {message + SPLIT, NULL};
  const size_t len[2] = {MESSAGE_LEN - SPLIT, MESSAGE_LEN - SPLIT}, zero_len[2] = {MESSAGE_LEN - SPLIT, 0};
  /* each refused whole: nothing hashed, not even the good lane */
  crisp_md5_update_many(NULL, data, len, 2);
  crisp_md5_update_many(ctx, NULL, len, 2);
  crisp_md5_update_many(ctx, data, NULL, 2);
  crisp_md5_update_many(with_null, data, len, 2);
  crisp_md5_update_many(ctx, null_data, len, 2);
  crisp_md5_update_many(NULL, NULL, NULL, 0);
  /* NULL data with length 0 is allowed: that lane stays where it was */
  crisp_md5_update_many(ctx, null_data, zero_len, 2);
  uint8_t digest[16], want[16];
  md5_reference(want);
  crisp_md5_final(ctx[0], digest);
  expect_bytes(digest, want, 16, "crisp_md5_update_many after refused calls, lane 0");
  md5_finish(ctx[1], "crisp_md5_update_many after refused calls, lane 1");
}

static void row_md5_many(void) {
  uint8_t digests[2][16], want[16], empty[16];
  const void *data[2] = {message, message}, *null_data[2] = {message, NULL};
  const size_t len[2] = {MESSAGE_LEN, MESSAGE_LEN}, zero_len[2] = {MESSAGE_LEN, 0};
  memset(digests, GUARD, sizeof digests);
  crisp_md5_many(NULL, len, 2, digests);
  crisp_md5_many(data, NULL, 2, digests);
  crisp_md5_many(null_data, len, 2, digests);
  expect_guarded(digests[0], sizeof digests, "crisp_md5_many with a NULL array or message");
  crisp_md5_many(data, len, 2, NULL);
  crisp_md5_many(NULL, NULL, 0, NULL);
  crisp_md5_many(null_data, zero_len, 2, digests);
  md5_reference(want);
  crisp_md5(message, 0, empty);
  expect_bytes(digests[0], want, 16, "crisp_md5_many, lane 0");
  expect_bytes(digests[1], empty, 16, "crisp_md5_many with NULL data of length 0");
}

/* ---- Poly1305 ------------------------------------------------------------ */

static void poly1305_finish(crisp_poly1305_ctx *ctx, const char *call) {
  uint8_t tag[16], want[16];
  crisp_poly1305_update(ctx, message + SPLIT, MESSAGE_LEN - SPLIT);
  crisp_poly1305_final(ctx, tag);
  crisp_poly1305(want, message, MESSAGE_LEN, key);
  expect_bytes(tag, want, 16, call);
}

static void row_poly1305_init(void) {
  crisp_poly1305_ctx ctx;
  uint8_t tag[16];
  crisp_poly1305_init(NULL, key);
  /* documented: a NULL key leaves a context that ignores updates and whose
   * final writes no tag */
  crisp_poly1305_init(&ctx, NULL);
  crisp_poly1305_update(&ctx, message, SPLIT);
  memset(tag, GUARD, sizeof tag);
  crisp_poly1305_final(&ctx, tag);
  expect_guarded(tag, sizeof tag, "crisp_poly1305_final after crisp_poly1305_init(ctx, NULL)");
  crisp_poly1305_init(&ctx, key);
  crisp_poly1305_update(&ctx, message, SPLIT);
  poly1305_finish(&ctx, "crisp_poly1305_init after a NULL key");
}

static void row_poly1305_update(void) {
  crisp_poly1305_ctx ctx;
  crisp_poly1305_init(&ctx, key);
  crisp_poly1305_update(&ctx, message, SPLIT);
  crisp_poly1305_update(NULL, message, 5);
  crisp_poly1305_update(&ctx, NULL, 5);
  crisp_poly1305_update(&ctx, NULL, 0);
  crisp_poly1305_update(&ctx, message + SPLIT, 0);
  poly1305_finish(&ctx, "crisp_poly1305_update with NULL ctx or data, or len 0");
}

static void row_poly1305_final(void) {
  crisp_poly1305_ctx ctx;
  uint8_t tag[16];
  crisp_poly1305_init(&ctx, key);
  crisp_poly1305_update(&ctx, message, SPLIT);
  memset(tag, GUARD, sizeof tag);
  crisp_poly1305_final(NULL, tag);
  expect_guarded(tag, sizeof tag, "crisp_poly1305_final(NULL, tag)");
  crisp_poly1305_final(&ctx, NULL);
  poly1305_finish(&ctx, "crisp_poly1305_final(ctx, NULL), then the stream");
}

static void row_poly1305(void) {
  uint8_t tag[16], want[16];
  memset(tag, GUARD, sizeof tag);
  crisp_poly1305(tag, NULL, 5, key);
  crisp_poly1305(tag, message, MESSAGE_LEN, NULL);
  expect_guarded(tag, sizeof tag, "crisp_poly1305 with NULL data or key");
  crisp_poly1305(NULL, message, MESSAGE_LEN, key);
  crisp_poly1305(tag, NULL, 0, key);
  crisp_poly1305(want, message, 0, key);
  expect_bytes(tag, want, 16, "crisp_poly1305(tag, NULL, 0, key)");
}

static void row_poly1305_verify(void) {
  uint8_t tag[16], empty[16];
  crisp_poly1305(tag, message, MESSAGE_LEN, key);
  crisp_poly1305(empty, message, 0, key);
  expect(crisp_poly1305_verify(NULL, message, MESSAGE_LEN, key), CRISP_E_INVALID,
         "crisp_poly1305_verify(NULL tag)");
  expect(crisp_poly1305_verify(tag, NULL, MESSAGE_LEN, key), CRISP_E_INVALID,
         "crisp_poly1305_verify(NULL data)");
  expect(crisp_poly1305_verify(tag, message, MESSAGE_LEN, NULL), CRISP_E_INVALID,
         "crisp_poly1305_verify(NULL key)");
  expect(crisp_poly1305_verify(empty, NULL, 0, key), CRISP_OK, "crisp_poly1305_verify(NULL data, 0)");
  expect(crisp_poly1305_verify(tag, message, MESSAGE_LEN, key), CRISP_OK, "crisp_poly1305_verify");
}

/* ---- ChaCha20 and the AEADs --------------------------------------------- */

static void row_chacha20(void) {
  uint8_t out[MESSAGE_LEN];
  memset(out, GUARD, sizeof out);
  expect(crisp_chacha20(NULL, message, 5, key, nonce, 1), CRISP_E_INVALID, "crisp_chacha20(NULL out)");
  expect(crisp_chacha20(out, NULL, 5, key, nonce, 1), CRISP_E_INVALID, "crisp_chacha20(NULL in)");
  expect(crisp_chacha20(out, message, 5, NULL, nonce, 1), CRISP_E_INVALID, "crisp_chacha20(NULL key)");
  expect(crisp_chacha20(out, message, 5, key, NULL, 1), CRISP_E_INVALID, "crisp_chacha20(NULL nonce)");
  expect_guarded(out, sizeof out, "crisp_chacha20 refused");
  expect(crisp_chacha20(NULL, NULL, 0, key, nonce, 1), CRISP_OK, "crisp_chacha20(NULL, NULL, 0)");
}

static void row_hchacha20(void) {
  uint8_t subkey[32];
  memset(subkey, GUARD, sizeof subkey);
  expect(crisp_hchacha20(NULL, key, nonce), CRISP_E_INVALID, "crisp_hchacha20(NULL subkey)");
  expect(crisp_hchacha20(subkey, NULL, nonce), CRISP_E_INVALID, "crisp_hchacha20(NULL key)");
  expect(crisp_hchacha20(subkey, key, NULL), CRISP_E_INVALID, "crisp_hchacha20(NULL input)");
  expect_guarded(subkey, sizeof subkey, "crisp_hchacha20 refused");
}

typedef int (*seal_function)(uint8_t *, uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                             const uint8_t *, const uint8_t *);
typedef int (*open_function)(uint8_t *, const uint8_t *, size_t, const uint8_t *, const uint8_t *, size_t,
                             const uint8_t *, const uint8_t *);

static void check_seal(seal_function seal, const char *name) {
  uint8_t ct[MESSAGE_LEN], tag[16], want_tag[16], ct_want[MESSAGE_LEN];
  char call[96];
  const struct {
    int ct, tag, pt, ad, nonce, key;
  } nulls[] = {{1, 0, 0, 0, 0, 0}, {0, 1, 0, 0, 0, 0}, {0, 0, 1, 0, 0, 0},
               {0, 0, 0, 1, 0, 0}, {0, 0, 0, 0, 1, 0}, {0, 0, 0, 0, 0, 1}};
  static const char *const which[] = {"ct", "tag", "pt", "ad", "nonce", "key"};
  for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++) {
    memset(ct, GUARD, sizeof ct), memset(tag, GUARD, sizeof tag);
    snprintf(call, sizeof call, "%s with NULL %s", name, which[i]);
    expect(seal(nulls[i].ct ? NULL : ct, nulls[i].tag ? NULL : tag, nulls[i].pt ? NULL : message, MESSAGE_LEN,
                nulls[i].ad ? NULL : ad, AD_LEN, nulls[i].nonce ? NULL : nonce, nulls[i].key ? NULL : key),
           CRISP_E_INVALID, call);
    expect_guarded(ct, sizeof ct, call);
    expect_guarded(tag, sizeof tag, call);
  }
  /* NULL message buffers and ad are allowed with length 0 */
  expect(seal(ct_want, want_tag, message, 0, ad, 0, nonce, key), CRISP_OK, name);
  snprintf(call, sizeof call, "%s with NULL ct, pt and ad of length 0", name);
  expect(seal(NULL, tag, NULL, 0, NULL, 0, nonce, key), CRISP_OK, call);
  expect_bytes(tag, want_tag, 16, call);
}

static void check_open(seal_function seal, open_function open, const char *name) {
  uint8_t ct[MESSAGE_LEN], tag[16], pt[MESSAGE_LEN], empty_tag[16], scratch[1];
  char call[96];
  expect(seal(ct, tag, message, MESSAGE_LEN, ad, AD_LEN, nonce, key), CRISP_OK, name);
  const struct {
    int pt, ct, tag, ad, nonce, key;
  } nulls[] = {{1, 0, 0, 0, 0, 0}, {0, 1, 0, 0, 0, 0}, {0, 0, 1, 0, 0, 0},
               {0, 0, 0, 1, 0, 0}, {0, 0, 0, 0, 1, 0}, {0, 0, 0, 0, 0, 1}};
  static const char *const which[] = {"pt", "ct", "tag", "ad", "nonce", "key"};
  for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++) {
    memset(pt, GUARD, sizeof pt);
    snprintf(call, sizeof call, "%s with NULL %s", name, which[i]);
    expect(open(nulls[i].pt ? NULL : pt, nulls[i].ct ? NULL : ct, MESSAGE_LEN, nulls[i].tag ? NULL : tag,
                nulls[i].ad ? NULL : ad, AD_LEN, nulls[i].nonce ? NULL : nonce, nulls[i].key ? NULL : key),
           CRISP_E_INVALID, call);
    expect_guarded(pt, sizeof pt, call);
  }
  expect(seal(scratch, empty_tag, message, 0, ad, 0, nonce, key), CRISP_OK, name);
  snprintf(call, sizeof call, "%s with NULL pt, ct and ad of length 0", name);
  expect(open(NULL, NULL, 0, empty_tag, NULL, 0, nonce, key), CRISP_OK, call);
  expect(open(pt, ct, MESSAGE_LEN, tag, ad, AD_LEN, nonce, key), CRISP_OK, name);
  expect_bytes(pt, message, MESSAGE_LEN, name);
}

static void row_chacha20_poly1305_seal(void) {
  check_seal(crisp_chacha20_poly1305_seal, "crisp_chacha20_poly1305_seal");
}
static void row_chacha20_poly1305_open(void) {
  check_open(crisp_chacha20_poly1305_seal, crisp_chacha20_poly1305_open, "crisp_chacha20_poly1305_open");
}
static void row_xchacha20_poly1305_seal(void) {
  check_seal(crisp_xchacha20_poly1305_seal, "crisp_xchacha20_poly1305_seal");
}
static void row_xchacha20_poly1305_open(void) {
  check_open(crisp_xchacha20_poly1305_seal, crisp_xchacha20_poly1305_open, "crisp_xchacha20_poly1305_open");
}

typedef int (*stream_init_function)(crisp_chacha20_poly1305_ctx *, crisp_aead_direction, const uint8_t *,
                                    const uint8_t *, const uint8_t *, size_t);

/* A sealing stream of the message split at SPLIT: its bytes and tag must
 * be the one-shot seal's. */
static void stream_seal_rest(crisp_chacha20_poly1305_ctx *ctx, uint8_t *ct, seal_function seal,
                             const char *call) {
  uint8_t tag[16], want_ct[MESSAGE_LEN], want_tag[16];
  expect(crisp_chacha20_poly1305_stream_update(ctx, ct + SPLIT, message + SPLIT, MESSAGE_LEN - SPLIT),
         CRISP_OK, call);
  expect(crisp_chacha20_poly1305_stream_seal_final(ctx, tag), CRISP_OK, call);
  expect(seal(want_ct, want_tag, message, MESSAGE_LEN, ad, AD_LEN, nonce, key), CRISP_OK, call);
  expect_bytes(ct, want_ct, MESSAGE_LEN, call);
  expect_bytes(tag, want_tag, 16, call);
}

static void check_stream_init(stream_init_function init, seal_function seal, const char *name) {
  crisp_chacha20_poly1305_ctx ctx;
  uint8_t ct[MESSAGE_LEN];
  char call[96];
  expect(init(NULL, CRISP_AEAD_SEAL, nonce, key, ad, AD_LEN), CRISP_E_INVALID, name);
  static const char *const which[] = {"nonce", "key", "ad"};
  for (int i = 0; i < 3; i++) {
    snprintf(call, sizeof call, "%s with NULL %s", name, which[i]);
    expect(init(&ctx, CRISP_AEAD_SEAL, nonce, key, ad, AD_LEN), CRISP_OK, call);
    expect(
        init(&ctx, CRISP_AEAD_SEAL, i == 0 ? NULL : nonce, i == 1 ? NULL : key, i == 2 ? NULL : ad, AD_LEN),
        CRISP_E_INVALID, call);
    /* documented: the context is then unusable */
    expect(crisp_chacha20_poly1305_stream_update(&ctx, ct, message, 5), CRISP_E_INVALID, call);
  }
  expect(init(&ctx, CRISP_AEAD_SEAL, nonce, key, NULL, 0), CRISP_OK, name);
  expect(init(&ctx, CRISP_AEAD_SEAL, nonce, key, ad, AD_LEN), CRISP_OK, name);
  expect(crisp_chacha20_poly1305_stream_update(&ctx, ct, message, SPLIT), CRISP_OK, name);
  stream_seal_rest(&ctx, ct, seal, name);
}

static void row_chacha20_poly1305_stream_init(void) {
  check_stream_init(crisp_chacha20_poly1305_stream_init, crisp_chacha20_poly1305_seal,
                    "crisp_chacha20_poly1305_stream_init");
}
static void row_xchacha20_poly1305_stream_init(void) {
  check_stream_init(crisp_xchacha20_poly1305_stream_init, crisp_xchacha20_poly1305_seal,
                    "crisp_xchacha20_poly1305_stream_init");
}

static void row_chacha20_poly1305_stream_update(void) {
  crisp_chacha20_poly1305_ctx ctx;
  uint8_t ct[MESSAGE_LEN], out[8];
  const char *name = "crisp_chacha20_poly1305_stream_update";
  expect(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce, key, ad, AD_LEN), CRISP_OK, name);
  expect(crisp_chacha20_poly1305_stream_update(&ctx, ct, message, SPLIT), CRISP_OK, name);
  memset(out, GUARD, sizeof out);
  expect(crisp_chacha20_poly1305_stream_update(NULL, out, message, 5), CRISP_E_INVALID,
         "stream_update(NULL ctx)");
  expect(crisp_chacha20_poly1305_stream_update(&ctx, NULL, message, 5), CRISP_E_INVALID,
         "stream_update(NULL out)");
  expect(crisp_chacha20_poly1305_stream_update(&ctx, out, NULL, 5), CRISP_E_INVALID,
         "stream_update(NULL in)");
  expect_guarded(out, sizeof out, "stream_update refused");
  expect(crisp_chacha20_poly1305_stream_update(&ctx, NULL, NULL, 0), CRISP_OK,
         "stream_update(NULL, NULL, 0)");
  stream_seal_rest(&ctx, ct, crisp_chacha20_poly1305_seal, "stream_update after refused calls");
}

static void row_chacha20_poly1305_stream_seal_final(void) {
  crisp_chacha20_poly1305_ctx ctx;
  uint8_t ct[MESSAGE_LEN];
  const char *name = "crisp_chacha20_poly1305_stream_seal_final(ctx, NULL), then the stream";
  expect(crisp_chacha20_poly1305_stream_seal_final(NULL, ct), CRISP_E_INVALID, "stream_seal_final(NULL ctx)");
  expect(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce, key, ad, AD_LEN), CRISP_OK, name);
  expect(crisp_chacha20_poly1305_stream_update(&ctx, ct, message, SPLIT), CRISP_OK, name);
  expect(crisp_chacha20_poly1305_stream_seal_final(&ctx, NULL), CRISP_E_INVALID, name);
  stream_seal_rest(&ctx, ct, crisp_chacha20_poly1305_seal, name);
}

static void row_chacha20_poly1305_stream_open_final(void) {
  crisp_chacha20_poly1305_ctx ctx;
  uint8_t ct[MESSAGE_LEN], tag[16], pt[MESSAGE_LEN];
  const char *name = "crisp_chacha20_poly1305_stream_open_final(ctx, NULL), then the stream";
  expect(crisp_chacha20_poly1305_seal(ct, tag, message, MESSAGE_LEN, ad, AD_LEN, nonce, key), CRISP_OK, name);
  expect(crisp_chacha20_poly1305_stream_open_final(NULL, tag), CRISP_E_INVALID,
         "stream_open_final(NULL ctx)");
  expect(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_OPEN, nonce, key, ad, AD_LEN), CRISP_OK, name);
  expect(crisp_chacha20_poly1305_stream_update(&ctx, pt, ct, SPLIT), CRISP_OK, name);
  expect(crisp_chacha20_poly1305_stream_open_final(&ctx, NULL), CRISP_E_INVALID, name);
  expect(crisp_chacha20_poly1305_stream_update(&ctx, pt + SPLIT, ct + SPLIT, MESSAGE_LEN - SPLIT), CRISP_OK,
         name);
  expect(crisp_chacha20_poly1305_stream_open_final(&ctx, tag), CRISP_OK, name);
  expect_bytes(pt, message, MESSAGE_LEN, name);
}

/* ---- big integers ------------------------------------------------------- */

enum { N = 4 };
static const crisp_limb modulus[N] = {0xfffffffffffffc2full, 0x1234567890abcdefull, 3, 0x8000000000000001ull};
static const crisp_limb operand[N] = {5, 6, 7, 8}, one[N] = {1};

static void fill_limbs(crisp_limb *x, size_t n) {
  memset(x, GUARD, n * sizeof *x);
}

static void expect_limbs_guarded(const crisp_limb *x, size_t n, const char *call) {
  expect_guarded((const uint8_t *)x, n * sizeof *x, call);
}

static void row_bn_mul(void) {
  crisp_limb z[2 * N];
  fill_limbs(z, 2 * N);
  expect(crisp_bn_mul(NULL, operand, N, operand, N), CRISP_E_INVALID, "crisp_bn_mul(NULL z)");
  expect(crisp_bn_mul(z, NULL, N, operand, N), CRISP_E_INVALID, "crisp_bn_mul(NULL x)");
  expect(crisp_bn_mul(z, operand, N, NULL, N), CRISP_E_INVALID, "crisp_bn_mul(NULL y)");
  expect(crisp_bn_mul(z, operand, 0, operand, N), CRISP_E_INVALID, "crisp_bn_mul(xn 0)");
  expect(crisp_bn_mul(z, operand, N, operand, 0), CRISP_E_INVALID, "crisp_bn_mul(yn 0)");
  expect_limbs_guarded(z, 2 * N, "crisp_bn_mul refused");
}

static void row_bn_sqr(void) {
  crisp_limb z[2 * N];
  fill_limbs(z, 2 * N);
  expect(crisp_bn_sqr(NULL, operand, N), CRISP_E_INVALID, "crisp_bn_sqr(NULL z)");
  expect(crisp_bn_sqr(z, NULL, N), CRISP_E_INVALID, "crisp_bn_sqr(NULL x)");
  expect(crisp_bn_sqr(z, operand, 0), CRISP_E_INVALID, "crisp_bn_sqr(n 0)");
  expect_limbs_guarded(z, 2 * N, "crisp_bn_sqr refused");
}

static void row_bn_mul_add(void) {
  crisp_limb z[N], carry[1];
  fill_limbs(z, N), fill_limbs(carry, 1);
  expect(crisp_bn_mul_add(NULL, operand, N, 3, carry), CRISP_E_INVALID, "crisp_bn_mul_add(NULL z)");
  expect(crisp_bn_mul_add(z, NULL, N, 3, carry), CRISP_E_INVALID, "crisp_bn_mul_add(NULL x)");
  expect(crisp_bn_mul_add(z, operand, N, 3, NULL), CRISP_E_INVALID, "crisp_bn_mul_add(NULL carry)");
  expect(crisp_bn_mul_add(z, operand, 0, 3, carry), CRISP_E_INVALID, "crisp_bn_mul_add(n 0)");
  expect_limbs_guarded(z, N, "crisp_bn_mul_add refused");
  expect_limbs_guarded(carry, 1, "crisp_bn_mul_add refused, carry");
}

/* No pointer: the one input it refuses is an even m0, answered with 0. */
static void row_bn_mont_inv(void) {
  assert_int_equal(crisp_bn_mont_inv(2), 0);
  assert_int_equal(crisp_bn_mont_inv(modulus[0]) * modulus[0], ~(crisp_limb)0);
}

static void row_bn_mont_r2(void) {
  crisp_limb r2[N];
  fill_limbs(r2, N);
  expect(crisp_bn_mont_r2(NULL, modulus, N), CRISP_E_INVALID, "crisp_bn_mont_r2(NULL r2)");
  expect(crisp_bn_mont_r2(r2, NULL, N), CRISP_E_INVALID, "crisp_bn_mont_r2(NULL m)");
  expect(crisp_bn_mont_r2(r2, modulus, 0), CRISP_E_INVALID, "crisp_bn_mont_r2(n 0)");
  expect_limbs_guarded(r2, N, "crisp_bn_mont_r2 refused");
}

static void row_bn_mont_mul(void) {
  crisp_limb r[N];
  const crisp_limb minv = crisp_bn_mont_inv(modulus[0]);
  fill_limbs(r, N);
  expect(crisp_bn_mont_mul(NULL, operand, operand, modulus, N, minv), CRISP_E_INVALID, "mont_mul(NULL r)");
  expect(crisp_bn_mont_mul(r, NULL, operand, modulus, N, minv), CRISP_E_INVALID, "mont_mul(NULL a)");
  expect(crisp_bn_mont_mul(r, operand, NULL, modulus, N, minv), CRISP_E_INVALID, "mont_mul(NULL b)");
  expect(crisp_bn_mont_mul(r, operand, operand, NULL, N, minv), CRISP_E_INVALID, "mont_mul(NULL m)");
  expect(crisp_bn_mont_mul(r, operand, operand, modulus, 0, minv), CRISP_E_INVALID, "mont_mul(n 0)");
  expect_limbs_guarded(r, N, "crisp_bn_mont_mul refused");
}

static void row_bn_mont_sqr(void) {
  crisp_limb r[N];
  const crisp_limb minv = crisp_bn_mont_inv(modulus[0]);
  fill_limbs(r, N);
  expect(crisp_bn_mont_sqr(NULL, operand, modulus, N, minv), CRISP_E_INVALID, "mont_sqr(NULL r)");
  expect(crisp_bn_mont_sqr(r, NULL, modulus, N, minv), CRISP_E_INVALID, "mont_sqr(NULL a)");
  expect(crisp_bn_mont_sqr(r, operand, NULL, N, minv), CRISP_E_INVALID, "mont_sqr(NULL m)");
  expect(crisp_bn_mont_sqr(r, operand, modulus, 0, minv), CRISP_E_INVALID, "mont_sqr(n 0)");
  expect_limbs_guarded(r, N, "crisp_bn_mont_sqr refused");
}

static void row_bn_mod_exp(void) {
  crisp_limb r[N];
  fill_limbs(r, N);
  expect(crisp_bn_mod_exp(NULL, operand, one, 1, modulus, N), CRISP_E_INVALID, "mod_exp(NULL r)");
  expect(crisp_bn_mod_exp(r, NULL, one, 1, modulus, N), CRISP_E_INVALID, "mod_exp(NULL base)");
  expect(crisp_bn_mod_exp(r, operand, NULL, 1, modulus, N), CRISP_E_INVALID, "mod_exp(NULL exp)");
  expect(crisp_bn_mod_exp(r, operand, one, 1, NULL, N), CRISP_E_INVALID, "mod_exp(NULL m)");
  expect(crisp_bn_mod_exp(r, operand, one, 1, modulus, 0), CRISP_E_INVALID, "mod_exp(n 0)");
  expect_limbs_guarded(r, N, "crisp_bn_mod_exp refused");
  /* documented: en may be 0 (then exp may be NULL), the result is 1 */
  expect(crisp_bn_mod_exp(r, operand, NULL, 0, modulus, N), CRISP_OK, "mod_exp(NULL exp, en 0)");
  if (memcmp(r, one, sizeof r)) fail_msg("crisp_bn_mod_exp with en 0 is not 1");
}

static void row_bn_mod_exp2(void) {
  crisp_limb r0[N], r1[N];
  fill_limbs(r0, N), fill_limbs(r1, N);
  const crisp_limb *b = operand, *e = one, *m = modulus;
  expect(crisp_bn_mod_exp2(NULL, r1, b, b, e, e, 1, m, m, N), CRISP_E_INVALID, "mod_exp2(NULL r0)");
  expect(crisp_bn_mod_exp2(r0, NULL, b, b, e, e, 1, m, m, N), CRISP_E_INVALID, "mod_exp2(NULL r1)");
  expect(crisp_bn_mod_exp2(r0, r1, NULL, b, e, e, 1, m, m, N), CRISP_E_INVALID, "mod_exp2(NULL b0)");
  expect(crisp_bn_mod_exp2(r0, r1, b, NULL, e, e, 1, m, m, N), CRISP_E_INVALID, "mod_exp2(NULL b1)");
  expect(crisp_bn_mod_exp2(r0, r1, b, b, NULL, e, 1, m, m, N), CRISP_E_INVALID, "mod_exp2(NULL e0)");
  expect(crisp_bn_mod_exp2(r0, r1, b, b, e, NULL, 1, m, m, N), CRISP_E_INVALID, "mod_exp2(NULL e1)");
  expect(crisp_bn_mod_exp2(r0, r1, b, b, e, e, 1, NULL, m, N), CRISP_E_INVALID, "mod_exp2(NULL m0)");
  expect(crisp_bn_mod_exp2(r0, r1, b, b, e, e, 1, m, NULL, N), CRISP_E_INVALID, "mod_exp2(NULL m1)");
  expect(crisp_bn_mod_exp2(r0, r1, b, b, e, e, 1, m, m, 0), CRISP_E_INVALID, "mod_exp2(n 0)");
  expect_limbs_guarded(r0, N, "crisp_bn_mod_exp2 refused, r0");
  expect_limbs_guarded(r1, N, "crisp_bn_mod_exp2 refused, r1");
  expect(crisp_bn_mod_exp2(r0, r1, b, b, NULL, NULL, 0, m, m, N), CRISP_OK, "mod_exp2(NULL exponents, en 0)");
  if (memcmp(r0, one, sizeof r0) || memcmp(r1, one, sizeof r1))
    fail_msg("crisp_bn_mod_exp2 with en 0 is not 1");
}

static void row_bn_mod_exp_crt(void) {
  /* a key without primes: q = p - 2 and its inverse, dp = dq = e = 1, so
   * that r = c passes the check */
  crisp_limb q[N], qinv[N], c[2 * N] = {12345, 678}, r[2 * N];
  const crisp_limb *p = modulus, *d = one, *e = one;
  test_crt_partner(q, qinv, p, N);
  fill_limbs(r, 2 * N);
  expect(crisp_bn_mod_exp_crt(NULL, c, p, q, d, d, qinv, N, e, 1), CRISP_E_INVALID, "crt(NULL r)");
  expect(crisp_bn_mod_exp_crt(r, NULL, p, q, d, d, qinv, N, e, 1), CRISP_E_INVALID, "crt(NULL c)");
  expect(crisp_bn_mod_exp_crt(r, c, NULL, q, d, d, qinv, N, e, 1), CRISP_E_INVALID, "crt(NULL p)");
  expect(crisp_bn_mod_exp_crt(r, c, p, NULL, d, d, qinv, N, e, 1), CRISP_E_INVALID, "crt(NULL q)");
  expect(crisp_bn_mod_exp_crt(r, c, p, q, NULL, d, qinv, N, e, 1), CRISP_E_INVALID, "crt(NULL dp)");
  expect(crisp_bn_mod_exp_crt(r, c, p, q, d, NULL, qinv, N, e, 1), CRISP_E_INVALID, "crt(NULL dq)");
  expect(crisp_bn_mod_exp_crt(r, c, p, q, d, d, NULL, N, e, 1), CRISP_E_INVALID, "crt(NULL qinv)");
  expect(crisp_bn_mod_exp_crt(r, c, p, q, d, d, qinv, 0, e, 1), CRISP_E_INVALID, "crt(half 0)");
  expect(crisp_bn_mod_exp_crt(r, c, p, q, d, d, qinv, N, e, 0), CRISP_E_INVALID, "crt(e with en 0)");
  /* the documented order: a half too long for any scratch comes before
   * the overlaps, whose byte ranges it would overflow */
  expect(crisp_bn_mod_exp_crt(c, c + 1, p, q, d, d, qinv, CRISP_BN_MONT_MAX_LIMBS / 2 + 1, e, 1),
         CRISP_E_RANGE, "crt(half too long, r overlapping c)");
  expect(crisp_bn_mod_exp_crt(r, c, p, q, d, d, qinv, SIZE_MAX, e, 1), CRISP_E_RANGE, "crt(half SIZE_MAX)");
  expect_limbs_guarded(r, 2 * N, "crisp_bn_mod_exp_crt refused");
  /* documented: e == NULL skips the check */
  expect(crisp_bn_mod_exp_crt(r, c, p, q, d, d, qinv, N, NULL, 0), CRISP_OK, "crt(NULL e)");
  if (memcmp(r, c, sizeof r)) fail_msg("crisp_bn_mod_exp_crt without e: r is not c");
  expect(crisp_bn_mod_exp_crt(r, c, p, q, d, d, qinv, N, e, 1), CRISP_OK, "crt");
}

/* The prepared key: every NULL and size refusal of crisp_bn_mod_exp_crt's
 * key arguments, with *key set to NULL on each, then the operation's own. */
static void row_bn_crt_key_new(void) {
  crisp_limb q[N], qinv[N];
  const crisp_limb *p = modulus, *d = one, *e = one;
  test_crt_partner(q, qinv, p, N);
  crisp_bn_crt_key *key = (crisp_bn_crt_key *)&key;
  expect(crisp_bn_crt_key_new(NULL, p, q, d, d, qinv, N, e, 1), CRISP_E_INVALID, "crt_key_new(NULL key)");
#define EXPECT_NO_KEY(call, status, what)                            \
  do {                                                               \
    key = (crisp_bn_crt_key *)&key;                                  \
    expect(call, status, what);                                      \
    if (key) fail_msg("%s: *key is not NULL after the error", what); \
  } while (0)
  EXPECT_NO_KEY(crisp_bn_crt_key_new(&key, NULL, q, d, d, qinv, N, e, 1), CRISP_E_INVALID,
                "crt_key_new(NULL p)");
  EXPECT_NO_KEY(crisp_bn_crt_key_new(&key, p, NULL, d, d, qinv, N, e, 1), CRISP_E_INVALID,
                "crt_key_new(NULL q)");
  EXPECT_NO_KEY(crisp_bn_crt_key_new(&key, p, q, NULL, d, qinv, N, e, 1), CRISP_E_INVALID,
                "crt_key_new(NULL dp)");
  EXPECT_NO_KEY(crisp_bn_crt_key_new(&key, p, q, d, NULL, qinv, N, e, 1), CRISP_E_INVALID,
                "crt_key_new(NULL dq)");
  EXPECT_NO_KEY(crisp_bn_crt_key_new(&key, p, q, d, d, NULL, N, e, 1), CRISP_E_INVALID,
                "crt_key_new(NULL qinv)");
  EXPECT_NO_KEY(crisp_bn_crt_key_new(&key, p, q, d, d, qinv, 0, e, 1), CRISP_E_INVALID,
                "crt_key_new(half 0)");
  EXPECT_NO_KEY(crisp_bn_crt_key_new(&key, p, q, d, d, qinv, N, e, 0), CRISP_E_INVALID,
                "crt_key_new(e, en 0)");
  EXPECT_NO_KEY(crisp_bn_crt_key_new(&key, p, q, d, d, qinv, CRISP_BN_MONT_MAX_LIMBS / 2 + 1, e, 1),
                CRISP_E_RANGE, "crt_key_new(half too long)");
  EXPECT_NO_KEY(crisp_bn_crt_key_new(&key, p, q, d, d, qinv, SIZE_MAX, e, 1), CRISP_E_RANGE,
                "crt_key_new(half SIZE_MAX)");
  EXPECT_NO_KEY(crisp_bn_crt_key_new(&key, p, q, d, d, qinv, N, e, SIZE_MAX), CRISP_E_RANGE,
                "crt_key_new(en SIZE_MAX)");
#undef EXPECT_NO_KEY
  expect(crisp_bn_crt_key_new(&key, p, q, d, d, qinv, N, NULL, 0), CRISP_OK, "crt_key_new(NULL e)");
  crisp_bn_crt_key_free(key);
  expect(crisp_bn_crt_key_new(&key, p, q, d, d, qinv, N, e, 1), CRISP_OK, "crt_key_new");
  crisp_bn_crt_key_free(key);
}

static void row_bn_crt_key_exp(void) {
  crisp_limb q[N], qinv[N], c[2 * N] = {12345, 678}, r[2 * N], want[2 * N];
  const crisp_limb *p = modulus, *d = one, *e = one;
  test_crt_partner(q, qinv, p, N);
  crisp_bn_crt_key *key = NULL;
  expect(crisp_bn_crt_key_new(&key, p, q, d, d, qinv, N, e, 1), CRISP_OK, "crt_key_new");
  fill_limbs(r, 2 * N);
  expect(crisp_bn_crt_key_exp(NULL, c, key), CRISP_E_INVALID, "crt_key_exp(NULL r)");
  expect(crisp_bn_crt_key_exp(r, NULL, key), CRISP_E_INVALID, "crt_key_exp(NULL c)");
  expect(crisp_bn_crt_key_exp(r, c, NULL), CRISP_E_INVALID, "crt_key_exp(NULL key)");
  expect(crisp_bn_crt_key_exp(c + 1, c, key), CRISP_E_INVALID, "crt_key_exp(r overlapping c)");
  expect_limbs_guarded(r, 2 * N, "crisp_bn_crt_key_exp refused");
  /* dp = dq = 1: r = c, as the one-call form's */
  expect(crisp_bn_crt_key_exp(r, c, key), CRISP_OK, "crt_key_exp");
  expect(crisp_bn_mod_exp_crt(want, c, p, q, d, d, qinv, N, e, 1), CRISP_OK, "crt");
  if (memcmp(r, want, sizeof r) || memcmp(r, c, sizeof r)) fail_msg("crisp_bn_crt_key_exp: r is not c");
  memcpy(r, c, sizeof r);
  expect(crisp_bn_crt_key_exp(r, r, key), CRISP_OK, "crt_key_exp(r == c)");
  if (memcmp(r, want, sizeof r)) fail_msg("crisp_bn_crt_key_exp in place: r is not c");
  crisp_bn_crt_key_free(key);
}

static void row_bn_crt_key_free(void) {
  crisp_bn_crt_key_free(NULL); /* documented: NULL is allowed */
}

/* ---- dispatch, errors, version ----------------------------------------- */

/* The string functions take no pointer and never return NULL. */
static void expect_text(const char *text, const char *call) {
  if (!text || !*text) fail_msg("%s: NULL or empty", call);
}

static void row_kernel_name(void) {
  assert_null(crisp_kernel_name(CRISP_KERNEL_COUNT));
  expect_text(crisp_kernel_name(CRISP_KERNEL_MD5), "crisp_kernel_name");
}
static void row_impl_name(void) {
  assert_null(crisp_impl_name(CRISP_KERNEL_COUNT));
  expect_text(crisp_impl_name(CRISP_KERNEL_MD5), "crisp_impl_name");
}
static void row_impl_reason(void) {
  assert_null(crisp_impl_reason(CRISP_KERNEL_COUNT));
  expect_text(crisp_impl_reason(CRISP_KERNEL_MD5), "crisp_impl_reason");
}
static void row_level(void) {
  expect_text(crisp_level(), "crisp_level");
}
static void row_levels(void) {
  expect_text(crisp_levels(), "crisp_levels");
}
static void row_cpu_features(void) {
  assert_non_null(crisp_cpu_features());
}
static void row_cpu_brand(void) {
  expect_text(crisp_cpu_brand(), "crisp_cpu_brand");
}
static void row_cpu_uarch(void) {
  expect_text(crisp_cpu_uarch(), "crisp_cpu_uarch");
}
static void row_dispatch_reason(void) {
  expect_text(crisp_dispatch_reason(), "crisp_dispatch_reason");
}
static void row_env_status(void) {
  const int status = crisp_env_status();
  assert_true(status == CRISP_OK || status == CRISP_E_INVALID || status == CRISP_E_UNSUPPORTED);
}
static void row_impl_count(void) {
  assert_int_equal(crisp_impl_count(CRISP_KERNEL_COUNT), 0);
  assert_true(crisp_impl_count(CRISP_KERNEL_MD5) >= 1);
}
static void row_impl_name_at(void) {
  assert_null(crisp_impl_name_at(CRISP_KERNEL_MD5, crisp_impl_count(CRISP_KERNEL_MD5)));
  assert_null(crisp_impl_name_at(CRISP_KERNEL_COUNT, 0));
}
static void row_impl_supported_at(void) {
  assert_int_equal(crisp_impl_supported_at(CRISP_KERNEL_MD5, crisp_impl_count(CRISP_KERNEL_MD5)), 0);
  assert_int_equal(crisp_impl_supported_at(CRISP_KERNEL_COUNT, 0), 0);
}
/* NULL is documented for both: the default again. */
static void row_force(void) {
  const char *before = crisp_level();
  expect(crisp_force(NULL), CRISP_OK, "crisp_force(NULL)");
  assert_string_equal(crisp_level(), before);
}
static void row_use_impl(void) {
  const char *before = crisp_impl_name(CRISP_KERNEL_MD5);
  expect(crisp_use_impl(CRISP_KERNEL_MD5, NULL), CRISP_OK, "crisp_use_impl(kernel, NULL)");
  expect(crisp_use_impl(CRISP_KERNEL_COUNT, NULL), CRISP_E_INVALID, "crisp_use_impl(unknown kernel, NULL)");
  assert_string_equal(crisp_impl_name(CRISP_KERNEL_MD5), before);
}
static void row_strerror(void) {
  for (int code = -100; code <= 100; code++) expect_text(crisp_strerror(code), "crisp_strerror");
}
static void row_version(void) {
  expect_text(crisp_version(), "crisp_version");
}

/* ---- the table ------------------------------------------------------------ */

/* ROW names the function itself, so a row for a function that no longer
 * exists does not compile. */
typedef struct api_row {
  const char *name;
  void (*function)(void);
  void (*check)(void);
} api_row;
#define ROW(function, check) \
  { #function, (void (*)(void))function, check }

static const api_row rows[] = {
    ROW(crisp_md5_init, row_md5_init),
    ROW(crisp_md5_update, row_md5_update),
    ROW(crisp_md5_final, row_md5_final),
    ROW(crisp_md5, row_md5),
    ROW(crisp_md5_update_many, row_md5_update_many),
    ROW(crisp_md5_many, row_md5_many),
    ROW(crisp_poly1305_init, row_poly1305_init),
    ROW(crisp_poly1305_update, row_poly1305_update),
    ROW(crisp_poly1305_final, row_poly1305_final),
    ROW(crisp_poly1305, row_poly1305),
    ROW(crisp_poly1305_verify, row_poly1305_verify),
    ROW(crisp_chacha20, row_chacha20),
    ROW(crisp_hchacha20, row_hchacha20),
    ROW(crisp_chacha20_poly1305_seal, row_chacha20_poly1305_seal),
    ROW(crisp_chacha20_poly1305_open, row_chacha20_poly1305_open),
    ROW(crisp_xchacha20_poly1305_seal, row_xchacha20_poly1305_seal),
    ROW(crisp_xchacha20_poly1305_open, row_xchacha20_poly1305_open),
    ROW(crisp_chacha20_poly1305_stream_init, row_chacha20_poly1305_stream_init),
    ROW(crisp_xchacha20_poly1305_stream_init, row_xchacha20_poly1305_stream_init),
    ROW(crisp_chacha20_poly1305_stream_update, row_chacha20_poly1305_stream_update),
    ROW(crisp_chacha20_poly1305_stream_seal_final, row_chacha20_poly1305_stream_seal_final),
    ROW(crisp_chacha20_poly1305_stream_open_final, row_chacha20_poly1305_stream_open_final),
    ROW(crisp_bn_mul, row_bn_mul),
    ROW(crisp_bn_sqr, row_bn_sqr),
    ROW(crisp_bn_mul_add, row_bn_mul_add),
    ROW(crisp_bn_mont_inv, row_bn_mont_inv),
    ROW(crisp_bn_mont_r2, row_bn_mont_r2),
    ROW(crisp_bn_mont_mul, row_bn_mont_mul),
    ROW(crisp_bn_mont_sqr, row_bn_mont_sqr),
    ROW(crisp_bn_mod_exp, row_bn_mod_exp),
    ROW(crisp_bn_mod_exp2, row_bn_mod_exp2),
    ROW(crisp_bn_mod_exp_crt, row_bn_mod_exp_crt),
    ROW(crisp_bn_crt_key_new, row_bn_crt_key_new),
    ROW(crisp_bn_crt_key_exp, row_bn_crt_key_exp),
    ROW(crisp_bn_crt_key_free, row_bn_crt_key_free),
    ROW(crisp_kernel_name, row_kernel_name),
    ROW(crisp_impl_name, row_impl_name),
    ROW(crisp_impl_reason, row_impl_reason),
    ROW(crisp_level, row_level),
    ROW(crisp_levels, row_levels),
    ROW(crisp_cpu_features, row_cpu_features),
    ROW(crisp_cpu_brand, row_cpu_brand),
    ROW(crisp_cpu_uarch, row_cpu_uarch),
    ROW(crisp_dispatch_reason, row_dispatch_reason),
    ROW(crisp_env_status, row_env_status),
    ROW(crisp_impl_count, row_impl_count),
    ROW(crisp_impl_name_at, row_impl_name_at),
    ROW(crisp_impl_supported_at, row_impl_supported_at),
    ROW(crisp_force, row_force),
    ROW(crisp_use_impl, row_use_impl),
    ROW(crisp_strerror, row_strerror),
    ROW(crisp_version, row_version),
};
enum { ROWS = sizeof rows / sizeof rows[0] };

/* Which kernel's implementations a row runs over (contexts keep theirs, so
 * the front-ends' checks run on each); CRISP_KERNEL_COUNT: once. */
static crisp_kernel row_kernel(const char *name) {
  if (!strncmp(name, "crisp_md5_", 10) && strstr(name, "many")) return CRISP_KERNEL_MD5_MANY;
  if (!strncmp(name, "crisp_md5", 9)) return CRISP_KERNEL_MD5;
  if (!strncmp(name, "crisp_poly1305", 14)) return CRISP_KERNEL_POLY1305;
  if (strstr(name, "chacha20")) return CRISP_KERNEL_CHACHA20;
  return CRISP_KERNEL_COUNT;
}

/* One row, a cmocka test of its own (its state is the row). */
static void test_row(void **state) {
  const api_row *row = *state;
  const crisp_kernel kernel = row_kernel(row->name);
  if (kernel == CRISP_KERNEL_COUNT) {
    row->check();
    return;
  }
  const char *name;
  FOR_EACH_IMPL(kernel, name) row->check();
}

static int header_count;
static char **header_dirs;

/* Adds to *missing every function a header declares (a line starting with
 * CRISP_API: the name is the identifier before its first parenthesis)
 * that has no row; returns how many it saw. */
static size_t check_header(const char *path, size_t *missing) {
  FILE *file = fopen(path, "r");
  if (!file) fail_msg("cannot read %s", path);
  char line[512];
  size_t declared = 0;
  while (fgets(line, sizeof line, file)) {
    const char *text = line + strspn(line, " \t");
    if (strncmp(text, "CRISP_API ", 10)) continue;
    const char *paren = strchr(text, '(');
    if (!paren) fail_msg("%s: a CRISP_API line without its parameter list: %s", path, line);
    const char *end = paren, *start = paren;
    while (start > text && (start[-1] == '_' || (start[-1] >= 'a' && start[-1] <= 'z') ||
                            (start[-1] >= '0' && start[-1] <= '9')))
      start--;
    const size_t length = (size_t)(end - start);
    declared++;
    size_t i = 0;
    while (i < ROWS && (strlen(rows[i].name) != length || strncmp(rows[i].name, start, length))) i++;
    if (i == ROWS) {
      print_error("%s declares %.*s, which has no row in test_null_args.c\n", path, (int)length, start);
      (*missing)++;
    }
  }
  fclose(file);
  return declared;
}

static void test_every_function_has_a_row(void **state) {
  (void)state;
  if (header_count == 0) skip(); /* run by hand without the header directories */
  size_t declared = 0, missing = 0;
  for (int d = 0; d < header_count; d++) {
    DIR *dir = opendir(header_dirs[d]);
    if (!dir) fail_msg("cannot list %s", header_dirs[d]);
    for (struct dirent *entry; (entry = readdir(dir));) {
      const size_t len = strlen(entry->d_name);
      if (len < 3 || strcmp(entry->d_name + len - 2, ".h")) continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", header_dirs[d], entry->d_name);
      declared += check_header(path, &missing);
    }
    closedir(dir);
  }
  printf("# %zu public functions declared, %d rows\n", declared, (int)ROWS);
  if (missing) fail_msg("public functions without a row: %zu", missing);
  /* and no row for a function the headers do not declare */
  assert_int_equal(declared, ROWS);
}

int main(int argc, char **argv) {
  header_dirs = argv + 1;
  header_count = argc - 1;
  test_seed(0);
  test_fill_random(message, sizeof message);
  test_fill_random(key, sizeof key);
  test_fill_random(nonce, sizeof nonce);
  test_fill_random(ad, sizeof ad);
  struct CMUnitTest tests[1 + ROWS] = {
      cmocka_unit_test_teardown(test_every_function_has_a_row, test_teardown_unpin),
  };
  for (size_t i = 0; i < ROWS; i++) {
    const struct CMUnitTest row = {rows[i].name, test_row, NULL, test_teardown_unpin, (void *)&rows[i]};
    tests[1 + i] = row;
  }
  return cmocka_run_group_tests(tests, NULL, NULL);
}
