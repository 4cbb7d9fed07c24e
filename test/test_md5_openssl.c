/* test/test_md5_openssl.c - every MD5 and MD5_MANY implementation against
 * OpenSSL's MD5 (an outside reference, so generic is not its own oracle):
 * random contents at every length 0..1100, long messages, and many messages
 * of uneven lengths at once. Built only when libcrypto is found. */
#include <openssl/evp.h>

#include "common.h"

static void openssl_md5(const void *data, size_t len, uint8_t digest[16]) {
  unsigned size = 0;
  assert_int_equal(EVP_Digest(data, len, digest, &size, EVP_md5(), NULL), 1);
  assert_int_equal(size, 16);
}

enum { MAX_LEN = 70000 };

static size_t length_at(size_t i) {
  static const size_t long_lengths[] = {4095, 4096, 4097, 65535, 65536, 65537, MAX_LEN};
  return i <= 1100 ? i : long_lengths[i - 1101];
}
enum { LENGTHS = 1101 + 7 };

static void test_md5_vs_openssl(void **state) {
  (void)state;
  uint8_t *data = test_alloc(MAX_LEN);
  uint8_t(*expected)[16] = malloc(LENGTHS * 16);
  assert_non_null(expected);
  test_fill_random(data, MAX_LEN);
  for (size_t i = 0; i < LENGTHS; i++) openssl_md5(data, length_at(i), expected[i]);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5, name) {
    for (size_t i = 0; i < LENGTHS; i++) {
      uint8_t digest[16];
      crisp_md5(data, length_at(i), digest);
      assert_bytes_equal(digest, expected[i], 16, "md5 %s vs OpenSSL: len %zu\n", name, length_at(i));
    }
  }
  free(expected);
  free(data);
}

static void test_md5_many_vs_openssl(void **state) {
  (void)state;
  enum { MESSAGES = 37, MAX_MESSAGE = 3000 };
  uint8_t *data = test_alloc(MESSAGES * MAX_MESSAGE);
  test_fill_random(data, MESSAGES * MAX_MESSAGE);
  const size_t trials = test_scaled(30);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5_MANY, name) {
    for (size_t t = 0; t < trials; t++) {
      const size_t count = 1 + test_rand_below(MESSAGES);
      const void *messages[MESSAGES];
      size_t lengths[MESSAGES];
      uint8_t digests[MESSAGES][16], expected[16];
      for (size_t i = 0; i < count; i++) {
        lengths[i] = t % 2 ? test_rand_below(MAX_MESSAGE + 1) : test_rand_below(130);
        messages[i] = data + i * MAX_MESSAGE;
      }
      crisp_md5_many(messages, lengths, count, digests);
      for (size_t i = 0; i < count; i++) {
        openssl_md5(messages[i], lengths[i], expected);
        assert_bytes_equal(digests[i], expected, 16, "md5_many %s vs OpenSSL: message %zu of %zu, len %zu\n",
                           name, i, count, lengths[i]);
      }
    }
  }
  free(data);
}

int main(void) {
  test_seed(0x6f70656e73736cull);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_md5_vs_openssl, test_teardown_unpin),
      cmocka_unit_test_teardown(test_md5_many_vs_openssl, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
