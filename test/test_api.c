/* test/test_api.c - API misuse: every public MD5, Poly1305 and dispatch
 * function with NULL, zero and out-of-range arguments returns its documented
 * error (or does nothing), never crashes and never writes outside its output;
 * crisp_strerror for every code. */
#include <limits.h>

#include "common.h"

static const uint8_t empty_md5[16] = {0xd4, 0x1d, 0x8c, 0xd9, 0x8f, 0x00, 0xb2, 0x04,
                                      0xe9, 0x80, 0x09, 0x98, 0xec, 0xf8, 0x42, 0x7e};
static const uint8_t abc_md5[16] = {0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0,
                                    0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1, 0x7f, 0x72};

static void test_strerror(void **state) {
  (void)state;
  const int codes[] = {CRISP_OK,         CRISP_E_INVALID, CRISP_E_RANGE, CRISP_E_UNSUPPORTED,
                       CRISP_E_MISMATCH, CRISP_E_NOMEM};
  const int unknown[] = {1, -6, -100, 12345, INT_MIN, INT_MAX};
  const char *unknown_text = crisp_strerror(-100);
  assert_non_null(unknown_text);
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    if (i > 0) assert_true(codes[i] < 0); /* every failure is negative */
    const char *text = crisp_strerror(codes[i]);
    assert_non_null(text);
    assert_true(text[0] != '\0');
    assert_string_not_equal(text, unknown_text);
    for (size_t j = 0; j < i; j++) {
      assert_int_not_equal(codes[i], codes[j]);
      assert_string_not_equal(text, crisp_strerror(codes[j]));
    }
  }
  for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
    assert_non_null(crisp_strerror(unknown[i]));
    assert_true(crisp_strerror(unknown[i])[0] != '\0');
  }
}

static void test_md5_null_and_zero(void **state) {
  (void)state;
  uint8_t digest[16];
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5, name) {
    /* NULL with length 0 is the empty message. */
    memset(digest, 0, 16);
    crisp_md5(NULL, 0, digest);
    assert_memory_equal(digest, empty_md5, 16);
    crisp_md5_ctx ctx;
    crisp_md5_init(&ctx);
    crisp_md5_update(&ctx, NULL, 0);
    crisp_md5_update(&ctx, "abc", 0);
    crisp_md5_update(&ctx, "abc", 3);
    crisp_md5_update(&ctx, NULL, 0);
    crisp_md5_final(&ctx, digest);
    assert_memory_equal(digest, abc_md5, 16);
    /* NULL contexts and outputs: nothing happens. */
    crisp_md5_init(NULL);
    crisp_md5_update(NULL, "abc", 3);
    crisp_md5_update(NULL, NULL, 0);
    crisp_md5_final(NULL, digest);
    crisp_md5_init(&ctx);
    crisp_md5_final(&ctx, NULL);
    crisp_md5(NULL, 0, NULL);
    crisp_md5("abc", 3, NULL);
    /* NULL data with a length: no crash, no digest of something else. */
    memset(digest, 0x5a, 16);
    crisp_md5(NULL, 3, digest);
    crisp_md5(NULL, SIZE_MAX, digest);
    for (int i = 0; i < 16; i++) assert_true(digest[i] == 0x5a);
    crisp_md5_init(&ctx);
    crisp_md5_update(&ctx, NULL, 5);
    crisp_md5_update(&ctx, NULL, SIZE_MAX);
    crisp_md5_update(&ctx, "abc", 3);
    crisp_md5_final(&ctx, digest);
    assert_memory_equal(digest, abc_md5, 16);
  }
}

static void test_md5_many_null_and_zero(void **state) {
  (void)state;
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5_MANY, name) {
    uint8_t digests[4][16];
    const void *data[4] = {"abc", NULL, "", "abc"};
    const size_t len[4] = {3, 0, 0, 3};
    /* n == 0 and NULL arrays: nothing is read or written. */
    memset(digests, 0x5a, sizeof digests);
    crisp_md5_many(data, len, 0, digests);
    crisp_md5_many(NULL, NULL, 0, NULL);
    crisp_md5_many(NULL, len, 4, digests);
    crisp_md5_many(data, NULL, 4, digests);
    crisp_md5_many(data, len, 4, NULL);
    for (size_t i = 0; i < sizeof digests; i++) assert_true(((uint8_t *)digests)[i] == 0x5a);
    /* A NULL message of length 0 is the empty message. */
    crisp_md5_many(data, len, 4, digests);
    assert_memory_equal(digests[0], abc_md5, 16);
    assert_memory_equal(digests[1], empty_md5, 16);
    assert_memory_equal(digests[2], empty_md5, 16);
    assert_memory_equal(digests[3], abc_md5, 16);
    /* A NULL message with a length: no crash. */
    const void *bad_data[2] = {"abc", NULL};
    const size_t bad_len[2] = {3, 7};
    crisp_md5_many(bad_data, bad_len, 2, digests);

    crisp_md5_ctx contexts[3];
    crisp_md5_ctx *ctx[3] = {&contexts[0], &contexts[1], &contexts[2]};
    for (int i = 0; i < 3; i++) crisp_md5_init(ctx[i]);
    crisp_md5_update_many(ctx, data, len, 0);
    crisp_md5_update_many(NULL, data, len, 3);
    crisp_md5_update_many(ctx, NULL, len, 3);
    crisp_md5_update_many(ctx, data, NULL, 3);
    crisp_md5_update_many(NULL, NULL, NULL, 0);
    crisp_md5_ctx *with_null[2] = {&contexts[0], NULL};
    crisp_md5_update_many(with_null, data, len, 2);
    crisp_md5_update_many(ctx, bad_data, bad_len, 2);
    /* None of the calls above may have hashed anything... */
    crisp_md5_update_many(ctx, data, len, 3);
    uint8_t digest[16];
    crisp_md5_final(ctx[0], digest);
    assert_memory_equal(digest, abc_md5, 16);
    crisp_md5_final(ctx[1], digest);
    assert_memory_equal(digest, empty_md5, 16);
    crisp_md5_final(ctx[2], digest);
    assert_memory_equal(digest, empty_md5, 16);
  }
}

static void test_poly1305_null_and_zero(void **state) {
  (void)state;
  uint8_t key[32], tag[16], other[16];
  test_fill_random(key, 32);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    /* The tag of the empty message is s, the key's second half. */
    memset(tag, 0, 16);
    crisp_poly1305(tag, NULL, 0, key);
    assert_memory_equal(tag, key + 16, 16);
    assert_int_equal(crisp_poly1305_verify(key + 16, NULL, 0, key), CRISP_OK);
    crisp_poly1305_ctx ctx;
    crisp_poly1305_init(&ctx, key);
    crisp_poly1305_update(&ctx, NULL, 0);
    crisp_poly1305_update(&ctx, "x", 0);
    crisp_poly1305_update(&ctx, NULL, 99); /* ignored */
    crisp_poly1305_final(&ctx, other);
    assert_memory_equal(other, key + 16, 16);

    /* NULL everywhere: nothing happens, verify says INVALID. */
    crisp_poly1305_init(NULL, key);
    crisp_poly1305_update(NULL, "abc", 3);
    crisp_poly1305_final(NULL, tag);
    crisp_poly1305(NULL, "abc", 3, key);
    memset(tag, 0x5a, 16);
    crisp_poly1305(tag, "abc", 3, NULL);
    crisp_poly1305(tag, NULL, 3, key);
    crisp_poly1305(tag, NULL, SIZE_MAX, key);
    for (int i = 0; i < 16; i++) assert_true(tag[i] == 0x5a);
    assert_int_equal(crisp_poly1305_verify(NULL, "abc", 3, key), CRISP_E_INVALID);
    assert_int_equal(crisp_poly1305_verify(tag, NULL, 3, key), CRISP_E_INVALID);
    assert_int_equal(crisp_poly1305_verify(tag, "abc", 3, NULL), CRISP_E_INVALID);
    assert_int_equal(crisp_poly1305_verify(NULL, NULL, 0, NULL), CRISP_E_INVALID);

    /* A context initialised without a key stays inert. */
    crisp_poly1305_init(&ctx, NULL);
    crisp_poly1305_update(&ctx, "abc", 3);
    crisp_poly1305_final(&ctx, tag);
    for (int i = 0; i < 16; i++) assert_true(tag[i] == 0x5a);

    /* final without a tag does nothing (test_null_args.c goes on with the
     * stream); a wiped context stays inert. */
    crisp_poly1305_init(&ctx, key);
    crisp_poly1305_update(&ctx, "abcdefghijklmnopq", 17);
    crisp_poly1305_ctx before;
    memcpy(&before, &ctx, sizeof ctx);
    crisp_poly1305_final(&ctx, NULL);
    assert_memory_equal(&ctx, &before, sizeof ctx);
    memset(&ctx, 0, sizeof ctx);
    crisp_poly1305_update(&ctx, "abc", 3);
    crisp_poly1305_final(&ctx, tag);
    for (int i = 0; i < 16; i++) assert_true(tag[i] == 0x5a);
  }
}

/* The size is the ABI; the alignment is a uint64_t's, so that malloc, new
 * and struct members all place it correctly (test_placement.c runs it there). */
static void test_poly1305_ctx_layout(void **state) {
  (void)state;
  assert_int_equal(sizeof(crisp_poly1305_ctx), CRISP_POLY1305_CTX_SIZE);
  assert_int_equal(_Alignof(crisp_poly1305_ctx), _Alignof(uint64_t));
}

static void test_chacha20_poly1305_ctx_layout(void **state) {
  (void)state;
  assert_int_equal(sizeof(crisp_chacha20_poly1305_ctx), CRISP_CHACHA20_POLY1305_CTX_SIZE);
  assert_int_equal(_Alignof(crisp_chacha20_poly1305_ctx), _Alignof(uint64_t));
}

static void test_dispatch_bad_arguments(void **state) {
  (void)state;
  const crisp_kernel bad[] = {CRISP_KERNEL_COUNT, (crisp_kernel)-1, (crisp_kernel)1000};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_null(crisp_kernel_name(bad[i]));
    assert_null(crisp_impl_name(bad[i]));
    assert_int_equal(crisp_impl_count(bad[i]), 0);
    assert_null(crisp_impl_name_at(bad[i], 0));
    assert_int_equal(crisp_impl_supported_at(bad[i], 0), 0);
    assert_int_equal(crisp_use_impl(bad[i], "generic"), CRISP_E_INVALID);
    assert_int_equal(crisp_use_impl(bad[i], NULL), CRISP_E_INVALID);
  }
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    const crisp_kernel kernel = (crisp_kernel)k;
    assert_null(crisp_impl_name_at(kernel, SIZE_MAX));
    assert_int_equal(crisp_impl_supported_at(kernel, SIZE_MAX), 0);
    const char *before = crisp_impl_name(kernel);
    assert_int_equal(crisp_use_impl(kernel, ""), CRISP_E_INVALID);
    assert_int_equal(crisp_use_impl(kernel, "generi"), CRISP_E_INVALID);
    assert_int_equal(crisp_use_impl(kernel, "generic "), CRISP_E_INVALID);
    assert_int_equal(crisp_use_impl(kernel, "genericx"), CRISP_E_INVALID);
    assert_string_equal(crisp_impl_name(kernel), before);
    /* Implementation names, like level names, are case-insensitive. */
    assert_int_equal(crisp_use_impl(kernel, "GENERIC"), CRISP_OK);
    assert_string_equal(crisp_impl_name(kernel), "generic");
    assert_int_equal(crisp_use_impl(kernel, NULL), CRISP_OK);
    assert_string_equal(crisp_impl_name(kernel), before);
  }
  const char *level = crisp_level();
  assert_int_equal(crisp_force(""), CRISP_E_INVALID);
  assert_int_equal(crisp_force("no-such-level"), CRISP_E_INVALID);
  assert_string_equal(crisp_level(), level);
  assert_int_equal(crisp_force(NULL), CRISP_OK);
  assert_non_null(crisp_levels());
  assert_non_null(crisp_cpu_features());
  assert_non_null(crisp_cpu_brand());
  assert_non_null(crisp_dispatch_reason());
}

int main(void) {
  test_seed(0x617069);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_strerror),
      cmocka_unit_test_teardown(test_md5_null_and_zero, test_teardown_unpin),
      cmocka_unit_test_teardown(test_md5_many_null_and_zero, test_teardown_unpin),
      cmocka_unit_test_teardown(test_poly1305_null_and_zero, test_teardown_unpin),
      cmocka_unit_test(test_poly1305_ctx_layout),
      cmocka_unit_test(test_chacha20_poly1305_ctx_layout),
      cmocka_unit_test_teardown(test_dispatch_bad_arguments, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
