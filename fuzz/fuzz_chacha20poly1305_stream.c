/* fuzz/fuzz_chacha20poly1305_stream.c - the streaming AEAD: key, nonce,
 * AD, split points and message come from the input; every implementation,
 * streamed in those pieces, must seal as OpenSSL's one-shot does (crisp's
 * generic one-shot when OpenSSL is absent), open back to the message, and
 * report a flipped tag bit at its final.
 * Input: 32-byte key, 12-byte nonce, AD length byte, AD, split count byte,
 * 2-byte split points, message. */
#include "fuzz_common.h"
#include "fuzz_oracle.h"

enum { MAX_MESSAGE = 1 << 16, MAX_SPLITS = 8 };

static void run(crisp_chacha20_poly1305_ctx *ctx, uint8_t *out, const uint8_t *in, size_t len,
                const size_t *points, size_t splits, const char *name) {
  size_t done = 0;
  for (size_t s = 0; s < splits; s++) {
    const size_t piece = points[s] % (len - done + 1);
    fuzz_check(crisp_chacha20_poly1305_stream_update(ctx, out + done, in + done, piece) == CRISP_OK,
               "update %s", name);
    done += piece;
  }
  fuzz_check(crisp_chacha20_poly1305_stream_update(ctx, out + done, in + done, len - done) == CRISP_OK,
             "update %s", name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  uint8_t key[32], nonce[12], ad[255];
  fuzz_fill(&in, key, sizeof key, 0xff);
  fuzz_fill(&in, nonce, sizeof nonce, 0);
  const size_t ad_len = fuzz_byte(&in);
  fuzz_fill(&in, ad, ad_len, 0xad);
  const size_t splits = fuzz_byte(&in) % (MAX_SPLITS + 1);
  size_t points[MAX_SPLITS];
  for (size_t i = 0; i < splits; i++) points[i] = fuzz_below(&in, 65536);
  const size_t len = in.size < MAX_MESSAGE ? in.size : MAX_MESSAGE;
  const uint8_t *message = in.data;

  static uint8_t expected[MAX_MESSAGE + 16], ct[MAX_MESSAGE], pt[MAX_MESSAGE];
  uint8_t expected_tag[16], tag[16];
  fuzz_pin(CRISP_KERNEL_CHACHA20, "generic");
  fuzz_check(
      crisp_chacha20_poly1305_seal(expected, expected_tag, message, len, ad, ad_len, nonce, key) == CRISP_OK,
      "seal generic");
  fuzz_check(!oracle_chacha20_poly1305_seal(ct, tag, message, len, ad, ad_len, nonce, key) ||
                 (!memcmp(ct, expected, len) && !memcmp(tag, expected_tag, 16)),
             "seal generic differs from OpenSSL, ad %zu, len %zu", ad_len, len);
  const char *impls[FUZZ_MAX_IMPLS];
  const size_t count = fuzz_impls(CRISP_KERNEL_CHACHA20, impls, FUZZ_MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    fuzz_pin(CRISP_KERNEL_CHACHA20, impls[i]);
    const char *name = crisp_impl_name(CRISP_KERNEL_CHACHA20);
    crisp_chacha20_poly1305_ctx ctx;
    fuzz_check(crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_SEAL, nonce, key, ad, ad_len) == CRISP_OK,
               "init");
    run(&ctx, ct, message, len, points, splits, name);
    fuzz_check(crisp_chacha20_poly1305_stream_seal_final(&ctx, tag) == CRISP_OK, "seal_final %s", name);
    fuzz_check(!memcmp(ct, expected, len) && !memcmp(tag, expected_tag, 16),
               "stream seal %s, %zu splits, len %zu", name, splits, len);
    for (int bad = 0; bad < 2; bad++) {
      tag[len % 16] ^= (uint8_t)bad;
      fuzz_check(
          crisp_chacha20_poly1305_stream_init(&ctx, CRISP_AEAD_OPEN, nonce, key, ad, ad_len) == CRISP_OK,
          "init");
      run(&ctx, pt, ct, len, points, splits, name);
      fuzz_check(crisp_chacha20_poly1305_stream_open_final(&ctx, tag) == (bad ? CRISP_E_MISMATCH : CRISP_OK),
                 "open_final %s, bad %d, len %zu", name, bad, len);
      fuzz_check(!memcmp(pt, message, len), "stream open %s, %zu splits, len %zu", name, splits, len);
    }
  }
  fuzz_pin(CRISP_KERNEL_CHACHA20, NULL);
  return 0;
}
