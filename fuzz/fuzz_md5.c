/* fuzz/fuzz_md5.c - MD5 streaming: the message and its split points come
 * from the input; every implementation, one-shot and streamed, must give
 * generic's one-shot digest. Input: split count byte, 2-byte split points,
 * then the message. */
#include "fuzz_common.h"
#include "fuzz_oracle.h"

enum { MAX_SPLITS = 8 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  const size_t splits = fuzz_byte(&in) % (MAX_SPLITS + 1);
  size_t points[MAX_SPLITS];
  for (size_t i = 0; i < splits; i++) points[i] = (size_t)fuzz_byte(&in) << 8 | fuzz_byte(&in);
  const uint8_t *message = in.data;
  const size_t len = in.size;

  uint8_t expected[16], digest[16];
  fuzz_pin(CRISP_KERNEL_MD5, "generic");
  crisp_md5(message, len, expected);
  uint8_t outside[16];
  fuzz_check(!oracle_md5(message, len, outside) || !memcmp(outside, expected, 16),
             "md5 generic differs from OpenSSL, len %zu", len);

  const char *impls[FUZZ_MAX_IMPLS];
  const size_t count = fuzz_impls(CRISP_KERNEL_MD5, impls, FUZZ_MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    fuzz_pin(CRISP_KERNEL_MD5, impls[i]);
    const char *name = crisp_impl_name(CRISP_KERNEL_MD5);
    crisp_md5(message, len, digest);
    fuzz_check(!memcmp(digest, expected, 16), "md5 %s one-shot, len %zu", name, len);
    crisp_md5_ctx ctx;
    crisp_md5_init(&ctx);
    size_t done = 0;
    for (size_t s = 0; s < splits; s++) {
      const size_t piece = len - done ? points[s] % (len - done + 1) : 0;
      crisp_md5_update(&ctx, message + done, piece);
      done += piece;
    }
    crisp_md5_update(&ctx, message + done, len - done);
    crisp_md5_final(&ctx, digest);
    fuzz_check(!memcmp(digest, expected, 16), "md5 %s streamed in %zu splits, len %zu", name, splits, len);
  }
  fuzz_pin(CRISP_KERNEL_MD5, NULL);
  return 0;
}
