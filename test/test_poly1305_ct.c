/* test/test_poly1305_ct.c - constant-time check of Poly1305 for every
 * implementation this CPU supports: the key and the message are marked
 * undefined for valgrind memcheck, which then reports any branch or memory
 * address computed from them (meson runs this binary under
 * `valgrind --error-exitcode=1`). Tags are marked defined again before they
 * are compared with the generic implementation's, so a wrong tag fails too,
 * with or without valgrind. valgrind 3.19 cannot execute AVX-512 (its
 * virtual CPU does not report it), so avx512* implementations are skipped
 * under valgrind and said so; natively they are still compared. */
#include <valgrind/memcheck.h>

#include "common.h"

#define MAX_MESSAGE 1100

/* Block boundaries, the 4- and 8-block widths of the SIMD kernels, a
 * partial final block, a long message. */
static const size_t lengths[] = {0,  1,   15,  16,  17,  31,  32,  33,   63,  64,
                                 65, 127, 128, 129, 255, 256, 257, 1000, 1031};

static int skipped_under_valgrind(const char *name) {
  if (RUNNING_ON_VALGRIND && strncmp(name, "avx512", 6) == 0) {
    printf("# %s skipped: valgrind does not emulate AVX-512\n", name);
    return 1;
  }
  return 0;
}

/* A key and message for case c: random, or all ones (longest carries). */
static void make_case(size_t c, uint8_t key[32], uint8_t *message, size_t len) {
  if (c % 4 == 3) {
    memset(key, 0xff, 32);
    memset(message, 0xff, len);
  } else {
    test_fill_random(key, 32);
    test_fill_random(message, len);
  }
}

static void expected_tag(uint8_t tag[16], const uint8_t *message, size_t len, const uint8_t key[32]) {
  assert_int_equal(crisp_use_impl(CRISP_KERNEL_POLY1305, "generic"), CRISP_OK);
  crisp_poly1305(tag, message, len, key);
  assert_int_equal(crisp_use_impl(CRISP_KERNEL_POLY1305, NULL), CRISP_OK);
}

static void check_tag(const uint8_t *tag, const uint8_t *expected, const char *how, const char *name,
                      size_t len) {
  if (memcmp(tag, expected, 16) != 0)
    fail_msg("poly1305 %s %s: len=%zu differs from generic", how, name, len);
}

static void test_one_shot_ct(void **state) {
  (void)state;
  static uint8_t message[MAX_MESSAGE], secret_message[MAX_MESSAGE];
  for (size_t c = 0; c < sizeof lengths / sizeof lengths[0]; c++) {
    const size_t len = lengths[c];
    uint8_t key[32], secret_key[32], expected[16], tag[16];
    make_case(c, key, message, len);
    expected_tag(expected, message, len, key);
    const char *name;
    FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
      if (skipped_under_valgrind(name)) continue;
      memcpy(secret_key, key, 32);
      memcpy(secret_message, message, len);
      VALGRIND_MAKE_MEM_UNDEFINED(secret_key, 32);
      VALGRIND_MAKE_MEM_UNDEFINED(secret_message, len);
      crisp_poly1305(tag, secret_message, len, secret_key);
      VALGRIND_MAKE_MEM_DEFINED(tag, 16);
      check_tag(tag, expected, "one-shot", name, len);
      if (c == 0) printf("# poly1305 %s: key and message secret\n", name);
    }
  }
}

/* Streaming with public split points: the front-end's buffering moves
 * secret bytes around but must not branch on them. */
static void test_stream_ct(void **state) {
  (void)state;
  static uint8_t message[MAX_MESSAGE], secret_message[MAX_MESSAGE];
  for (size_t c = 0; c < sizeof lengths / sizeof lengths[0]; c++) {
    const size_t len = lengths[c];
    uint8_t key[32], secret_key[32], expected[16], tag[16];
    make_case(c, key, message, len);
    expected_tag(expected, message, len, key);
    const char *name;
    FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
      if (skipped_under_valgrind(name)) continue;
      memcpy(secret_key, key, 32);
      memcpy(secret_message, message, len);
      VALGRIND_MAKE_MEM_UNDEFINED(secret_key, 32);
      VALGRIND_MAKE_MEM_UNDEFINED(secret_message, len);
      crisp_poly1305_ctx ctx;
      crisp_poly1305_init(&ctx, secret_key);
      for (size_t done = 0; done < len;) {
        size_t piece = 1 + test_rand_below(len < 80 ? len : 80);
        if (piece > len - done) piece = len - done;
        crisp_poly1305_update(&ctx, secret_message + done, piece);
        done += piece;
      }
      crisp_poly1305_final(&ctx, tag);
      VALGRIND_MAKE_MEM_DEFINED(tag, 16);
      check_tag(tag, expected, "stream", name, len);
    }
  }
}

/* verify compares in constant time: only its public result is defined
 * after it (the test marks it so before looking). */
static void test_verify_ct(void **state) {
  (void)state;
  static uint8_t message[MAX_MESSAGE], secret_message[MAX_MESSAGE];
  for (size_t c = 0; c < sizeof lengths / sizeof lengths[0]; c += 3) {
    const size_t len = lengths[c];
    uint8_t key[32], secret_key[32], expected[16], wrong[16];
    make_case(c, key, message, len);
    expected_tag(expected, message, len, key);
    memcpy(wrong, expected, 16);
    wrong[15] ^= 0x80;
    const char *name;
    FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
      if (skipped_under_valgrind(name)) continue;
      for (int bad = 0; bad < 2; bad++) {
        memcpy(secret_key, key, 32);
        memcpy(secret_message, message, len);
        VALGRIND_MAKE_MEM_UNDEFINED(secret_key, 32);
        VALGRIND_MAKE_MEM_UNDEFINED(secret_message, len);
        int status = crisp_poly1305_verify(bad ? wrong : expected, secret_message, len, secret_key);
        VALGRIND_MAKE_MEM_DEFINED(&status, sizeof status);
        if (status != (bad ? CRISP_E_MISMATCH : CRISP_OK))
          fail_msg("poly1305_verify %s: len=%zu %s tag gave %d", name, len, bad ? "wrong" : "right", status);
      }
    }
  }
}

int main(void) {
  test_seed(0x7031333035ull);
  if (RUNNING_ON_VALGRIND) printf("# running under valgrind: secrets are marked undefined\n");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_one_shot_ct, test_teardown_unpin),
      cmocka_unit_test_teardown(test_stream_ct, test_teardown_unpin),
      cmocka_unit_test_teardown(test_verify_ct, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
