/* fuzz/fuzz_md5_many.c - many messages at once: their count, lengths and
 * bytes (slices of the input, which may overlap) come from the input;
 * crisp_md5_many and a two-step crisp_md5_update_many with every MD5_MANY
 * implementation must give generic MD5's digest of each message.
 * Input: count byte, per message a 2-byte offset, a 2-byte length and a
 * 2-byte split point; the rest is the pool the messages are cut from. */
#include "fuzz_common.h"
#include "fuzz_oracle.h"

enum { MAX_MESSAGES = 40 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  const size_t n = fuzz_byte(&in) % (MAX_MESSAGES + 1);
  size_t offset[MAX_MESSAGES], len[MAX_MESSAGES], split[MAX_MESSAGES];
  for (size_t i = 0; i < n; i++) {
    offset[i] = fuzz_below(&in, 65536);
    len[i] = fuzz_below(&in, 65536);
    split[i] = fuzz_below(&in, 65536);
  }
  const uint8_t *pool = in.data;
  const void *messages[MAX_MESSAGES], *rests[MAX_MESSAGES];
  size_t firsts[MAX_MESSAGES], rest_lens[MAX_MESSAGES];
  for (size_t i = 0; i < n; i++) {
    offset[i] = in.size ? offset[i] % (in.size + 1) : 0;
    len[i] %= in.size - offset[i] + 1;
    firsts[i] = split[i] % (len[i] + 1);
    messages[i] = pool + offset[i];
    rests[i] = pool + offset[i] + firsts[i];
    rest_lens[i] = len[i] - firsts[i];
  }

  uint8_t expected[MAX_MESSAGES][16], digests[MAX_MESSAGES][16];
  fuzz_pin(CRISP_KERNEL_MD5, "generic");
  for (size_t i = 0; i < n; i++) crisp_md5(messages[i], len[i], expected[i]);
  for (size_t i = 0; i < n; i++) {
    uint8_t outside[16];
    fuzz_check(!oracle_md5(messages[i], len[i], outside) || !memcmp(outside, expected[i], 16),
               "md5 generic differs from OpenSSL, len %zu", len[i]);
  }
  fuzz_pin(CRISP_KERNEL_MD5, NULL);

  const char *impls[FUZZ_MAX_IMPLS];
  const size_t count = fuzz_impls(CRISP_KERNEL_MD5_MANY, impls, FUZZ_MAX_IMPLS);
  for (size_t k = 0; k < count; k++) {
    fuzz_pin(CRISP_KERNEL_MD5_MANY, impls[k]);
    const char *name = crisp_impl_name(CRISP_KERNEL_MD5_MANY);
    memset(digests, 0, sizeof digests);
    crisp_md5_many(messages, len, n, digests);
    for (size_t i = 0; i < n; i++)
      fuzz_check(!memcmp(digests[i], expected[i], 16), "md5_many %s: message %zu of %zu, len %zu", name, i, n,
                 len[i]);

    crisp_md5_ctx contexts[MAX_MESSAGES], *ctx[MAX_MESSAGES];
    for (size_t i = 0; i < n; i++) ctx[i] = &contexts[i], crisp_md5_init(ctx[i]);
    crisp_md5_update_many(ctx, messages, firsts, n);
    crisp_md5_update_many(ctx, rests, rest_lens, n);
    for (size_t i = 0; i < n; i++) {
      crisp_md5_final(ctx[i], digests[i]);
      fuzz_check(!memcmp(digests[i], expected[i], 16),
                 "md5_update_many %s: message %zu of %zu, len %zu split %zu", name, i, n, len[i], firsts[i]);
    }
  }
  fuzz_pin(CRISP_KERNEL_MD5_MANY, NULL);
  return 0;
}
