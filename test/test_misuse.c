/* test/test_misuse.c - API misuse beyond test_api.c and test_bn.c: every
 * output is written exactly where documented (guard bytes on both sides,
 * every implementation), oversized sizes are refused before any pointer is
 * read, garbage names leave the selection alone, and zero-filled contexts
 * that were never initialised stay inert. Run under ASan and valgrind by
 * the test command, so a stray read or write fails there too. */
#include <limits.h>

#include "common.h"

#define GUARD 0xa5
#define GUARD_LIMB 0xa5a5a5a5a5a5a5a5ull

/* An output of len bytes with `GUARD` bytes on both sides. */
typedef struct guarded {
  uint8_t bytes[16 + 4096 + 16];
} guarded;

static uint8_t *guarded_start(guarded *g) {
  memset(g->bytes, GUARD, sizeof g->bytes);
  return g->bytes + 16;
}

/* Fails when a byte outside [16, 16 + len) changed. */
static void check_guards(const guarded *g, size_t len, const char *what, const char *name) {
  for (size_t i = 0; i < sizeof g->bytes; i++) {
    if (i >= 16 && i < 16 + len) continue;
    if (g->bytes[i] != GUARD)
      fail_msg("%s (%s) wrote byte %zd outside its output", what, name, (ptrdiff_t)i - 16);
  }
}

static void test_md5_output_extent(void **state) {
  (void)state;
  uint8_t message[300];
  test_fill_random(message, sizeof message);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5, name) {
    guarded g;
    crisp_md5(message, sizeof message, guarded_start(&g));
    check_guards(&g, 16, "crisp_md5", name);
    crisp_md5_ctx ctx;
    crisp_md5_init(&ctx);
    crisp_md5_update(&ctx, message, 77);
    crisp_md5_final(&ctx, guarded_start(&g));
    check_guards(&g, 16, "crisp_md5_final", name);
  }
  FOR_EACH_IMPL(CRISP_KERNEL_MD5_MANY, name) {
    enum { N = 19 };
    const void *data[N];
    size_t len[N];
    for (size_t i = 0; i < N; i++) data[i] = message + i, len[i] = 13 * i;
    guarded g;
    crisp_md5_many(data, len, N, (uint8_t(*)[16])guarded_start(&g));
    check_guards(&g, N * 16, "crisp_md5_many", name);
  }
}

static void test_poly1305_output_extent(void **state) {
  (void)state;
  uint8_t key[32], message[300];
  test_fill_random(key, sizeof key);
  test_fill_random(message, sizeof message);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    guarded g;
    crisp_poly1305(guarded_start(&g), message, sizeof message, key);
    check_guards(&g, 16, "crisp_poly1305", name);
    /* The context itself is the other output: nothing past it changes. */
    struct {
      crisp_poly1305_ctx ctx;
      uint8_t after[64];
    } s;
    memset(s.after, GUARD, sizeof s.after);
    crisp_poly1305_init(&s.ctx, key);
    crisp_poly1305_update(&s.ctx, message, 299);
    crisp_poly1305_final(&s.ctx, guarded_start(&g));
    check_guards(&g, 16, "crisp_poly1305_final", name);
    for (size_t i = 0; i < sizeof s.after; i++) assert_int_equal(s.after[i], GUARD);
  }
}

/* ChaCha20 and the AEADs write exactly len bytes (and the tag's 16) at
 * every length around the block and group boundaries; a failed open writes
 * nothing. */
static void test_chacha20_output_extent(void **state) {
  (void)state;
  uint8_t key[32], nonce[24], message[1100], ad[20], tag[16];
  test_fill_random(key, sizeof key), test_fill_random(nonce, sizeof nonce);
  test_fill_random(message, sizeof message), test_fill_random(ad, sizeof ad);
  static const size_t lengths[] = {0,   1,   15,  16,  63,  64,  65,  127,  128,  129,  255,
                                   256, 511, 512, 513, 959, 960, 961, 1023, 1024, 1025, 1088};
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, name) {
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
      const size_t len = lengths[i];
      guarded g, t;
      assert_int_equal(crisp_chacha20(guarded_start(&g), message, len, key, nonce, 5), CRISP_OK);
      check_guards(&g, len, "crisp_chacha20", name);
      uint8_t *ct = guarded_start(&g);
      assert_int_equal(
          crisp_chacha20_poly1305_seal(ct, guarded_start(&t), message, len, ad, sizeof ad, nonce, key),
          CRISP_OK);
      check_guards(&g, len, "crisp_chacha20_poly1305_seal", name);
      check_guards(&t, 16, "crisp_chacha20_poly1305_seal tag", name);
      memcpy(tag, t.bytes + 16, 16);
      guarded p;
      assert_int_equal(
          crisp_chacha20_poly1305_open(guarded_start(&p), ct, len, tag, ad, sizeof ad, nonce, key), CRISP_OK);
      check_guards(&p, len, "crisp_chacha20_poly1305_open", name);
      tag[3] ^= 0x10;
      assert_int_equal(
          crisp_chacha20_poly1305_open(guarded_start(&p), ct, len, tag, ad, sizeof ad, nonce, key),
          CRISP_E_MISMATCH);
      check_guards(&p, len, "crisp_chacha20_poly1305_open, forged", name);
      for (size_t j = 0; j < len; j++) assert_int_equal(p.bytes[16 + j], GUARD);
      assert_int_equal(crisp_xchacha20_poly1305_seal(guarded_start(&g), guarded_start(&t), message, len, ad,
                                                     3, nonce, key),
                       CRISP_OK);
      check_guards(&g, len, "crisp_xchacha20_poly1305_seal", name);
      check_guards(&t, 16, "crisp_xchacha20_poly1305_seal tag", name);
      /* Streaming in two pieces, and the context itself. */
      struct {
        crisp_chacha20_poly1305_ctx ctx;
        uint8_t after[64];
      } s;
      memset(s.after, GUARD, sizeof s.after);
      assert_int_equal(crisp_chacha20_poly1305_stream_init(&s.ctx, CRISP_AEAD_SEAL, nonce, key, ad, 7),
                       CRISP_OK);
      ct = guarded_start(&g);
      assert_int_equal(crisp_chacha20_poly1305_stream_update(&s.ctx, ct, message, len / 3), CRISP_OK);
      assert_int_equal(
          crisp_chacha20_poly1305_stream_update(&s.ctx, ct + len / 3, message + len / 3, len - len / 3),
          CRISP_OK);
      assert_int_equal(crisp_chacha20_poly1305_stream_seal_final(&s.ctx, guarded_start(&t)), CRISP_OK);
      check_guards(&g, len, "crisp_chacha20_poly1305_stream_update", name);
      check_guards(&t, 16, "crisp_chacha20_poly1305_stream_seal_final", name);
      for (size_t j = 0; j < sizeof s.after; j++) assert_int_equal(s.after[j], GUARD);
    }
  }
}

/* ---- bignum: exact extents, every implementation ----------------------- */

enum { BN_MAX = 80 };

/* n limbs at limbs + 2, GUARD_LIMB in the two limbs either side. */
static crisp_limb *guarded_limbs(crisp_limb *limbs, size_t n) {
  for (size_t i = 0; i < n + 4; i++) limbs[i] = GUARD_LIMB;
  return limbs + 2;
}

static void check_limb_guards(const crisp_limb *limbs, size_t n, const char *what, const char *name) {
  if (limbs[0] != GUARD_LIMB || limbs[1] != GUARD_LIMB || limbs[n + 2] != GUARD_LIMB ||
      limbs[n + 3] != GUARD_LIMB)
    fail_msg("%s (%s) wrote outside its %zu-limb output", what, name, n);
}

static void make_modulus(crisp_limb *m, size_t n) {
  test_fill_random(m, n * sizeof *m);
  m[0] |= 1;
  m[n - 1] |= (crisp_limb)1 << 63;
}

static void test_bn_output_extent(void **state) {
  (void)state;
  static const size_t sizes[] = {1, 2, 7, 16, 24, 31, 32, 48, 64, 65, BN_MAX};
  crisp_limb x[BN_MAX], y[BN_MAX], m[BN_MAX], out[2 * BN_MAX + 4];
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    const size_t n = sizes[s], yn = 1 + test_rand_below(n);
    test_fill_random(x, sizeof x);
    test_fill_random(y, sizeof y);
    make_modulus(m, n);
    x[n - 1] >>= 1, y[n - 1] >>= 1; /* below m */
    const crisp_limb minv = crisp_bn_mont_inv(m[0]);
    const char *name;
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MUL, name) {
      assert_int_equal(crisp_bn_mul(guarded_limbs(out, n + yn), x, n, y, yn), CRISP_OK);
      check_limb_guards(out, n + yn, "crisp_bn_mul", name);
    }
    FOR_EACH_IMPL(CRISP_KERNEL_BN_SQR, name) {
      assert_int_equal(crisp_bn_sqr(guarded_limbs(out, 2 * n), x, n), CRISP_OK);
      check_limb_guards(out, 2 * n, "crisp_bn_sqr", name);
    }
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MUL_ADD, name) {
      memcpy(guarded_limbs(out, n), y, n * sizeof *y);
      crisp_limb carry;
      assert_int_equal(crisp_bn_mul_add(out + 2, x, n, ~(crisp_limb)0, &carry), CRISP_OK);
      check_limb_guards(out, n, "crisp_bn_mul_add", name);
    }
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MONT_MUL, name) {
      assert_int_equal(crisp_bn_mont_mul(guarded_limbs(out, n), x, y, m, n, minv), CRISP_OK);
      check_limb_guards(out, n, "crisp_bn_mont_mul", name);
      const crisp_limb exp[2] = {test_rand64(), test_rand64()};
      assert_int_equal(crisp_bn_mod_exp(guarded_limbs(out, n), x, exp, 2, m, n), CRISP_OK);
      check_limb_guards(out, n, "crisp_bn_mod_exp", name);
    }
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MONT_SQR, name) {
      assert_int_equal(crisp_bn_mont_sqr(guarded_limbs(out, n), x, m, n, minv), CRISP_OK);
      check_limb_guards(out, n, "crisp_bn_mont_sqr", name);
      assert_int_equal(crisp_bn_mont_r2(guarded_limbs(out, n), m, n), CRISP_OK);
      check_limb_guards(out, n, "crisp_bn_mont_r2", name);
    }
  }
}

/* Sizes far past what the arrays hold are refused before any limb past
 * the real ones is read (ASan and valgrind would see the read). */
static void test_bn_oversized(void **state) {
  (void)state;
  crisp_limb x[4] = {3, 5, 7, 9}, m[4] = {0xffffffffffffffc5ull, 1, 2, 3}, r[4 + 4];
  const crisp_limb minv = crisp_bn_mont_inv(m[0]);
  crisp_limb *out = guarded_limbs(r, 4);
  const size_t huge[] = {SIZE_MAX, SIZE_MAX / 2, SIZE_MAX / 8 + 1, (size_t)CRISP_BN_MONT_MAX_LIMBS + 1};
  for (size_t h = 0; h < sizeof huge / sizeof huge[0]; h++) {
    const size_t n = huge[h];
    if (n > SIZE_MAX / 16) {
      assert_int_equal(crisp_bn_mul(out, x, n, x, 1), CRISP_E_RANGE);
      assert_int_equal(crisp_bn_mul(out, x, 1, x, n), CRISP_E_RANGE);
      assert_int_equal(crisp_bn_sqr(out, x, n), CRISP_E_RANGE);
      crisp_limb carry = 0;
      assert_int_equal(crisp_bn_mul_add(out, x, n, 3, &carry), CRISP_E_RANGE);
      assert_int_equal(crisp_bn_mod_exp(out, x, x, n, m, 4), CRISP_E_RANGE);
    }
    assert_int_equal(crisp_bn_mont_r2(out, m, n), CRISP_E_RANGE);
    assert_int_equal(crisp_bn_mont_mul(out, x, x, m, n, minv), CRISP_E_RANGE);
    assert_int_equal(crisp_bn_mont_sqr(out, x, m, n, minv), CRISP_E_RANGE);
    assert_int_equal(crisp_bn_mod_exp(out, x, x, 1, m, n), CRISP_E_RANGE);
  }
  check_limb_guards(r, 4, "an oversized call", "any");
  assert_true(crisp_bn_mont_inv(0) == 0);
  assert_true(crisp_bn_mont_inv(2) == 0);
  assert_true(crisp_bn_mont_inv(~(crisp_limb)0 - 1) == 0);
  assert_true(crisp_bn_mont_inv(1) * 1 == ~(crisp_limb)0);
  /* m = 1: everything is 0 mod 1, whatever the exponent. */
  const crisp_limb one = 1, zero = 0, exp = 12345;
  crisp_limb result = 77;
  assert_int_equal(crisp_bn_mod_exp(&result, &zero, &exp, 1, &one, 1), CRISP_OK);
  assert_true(result == 0);
  result = 77;
  assert_int_equal(crisp_bn_mod_exp(&result, &zero, &exp, 0, &one, 1), CRISP_OK);
  assert_true(result == 0);
}

/* ---- dispatch names ----------------------------------------------------- */

static void test_garbage_names(void **state) {
  (void)state;
  static char very_long[10001];
  memset(very_long, 'a', sizeof very_long - 1);
  memcpy(very_long, "generic", 7);
  const char *const garbage[] = {"",
                                 " ",
                                 "generic ",
                                 " generic",
                                 "generic\n",
                                 "gen",
                                 "generic-",
                                 "x86_64-",
                                 "avx512ifma-x",
                                 "\xff\xfe\xfd",
                                 "g\xc3\xa9n\xc3\xa9ric",
                                 "\x1b[2J",
                                 very_long};
  const char *level = crisp_level();
  const char *before[CRISP_KERNEL_COUNT];
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) before[k] = crisp_impl_name((crisp_kernel)k);
  for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
    assert_int_equal(crisp_force(garbage[i]), CRISP_E_INVALID);
    for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
      assert_int_equal(crisp_use_impl((crisp_kernel)k, garbage[i]), CRISP_E_INVALID);
  }
  assert_string_equal(crisp_level(), level);
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
    assert_string_equal(crisp_impl_name((crisp_kernel)k), before[k]);
  /* Kernel numbers far outside the enum. */
  const int bad[] = {INT_MIN, -2, CRISP_KERNEL_COUNT + 1, INT_MAX};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_null(crisp_kernel_name((crisp_kernel)bad[i]));
    assert_null(crisp_impl_name((crisp_kernel)bad[i]));
    assert_int_equal(crisp_impl_count((crisp_kernel)bad[i]), 0);
    assert_null(crisp_impl_name_at((crisp_kernel)bad[i], 0));
    assert_int_equal(crisp_use_impl((crisp_kernel)bad[i], NULL), CRISP_E_INVALID);
  }
}

/* ---- contexts never initialised (zero-filled) --------------------------- */

static void test_zeroed_contexts(void **state) {
  (void)state;
  uint8_t out[16];
  crisp_md5_ctx md5;
  memset(&md5, 0, sizeof md5);
  memset(out, GUARD, sizeof out);
  crisp_md5_update(&md5, "abc", 3);
  crisp_md5_final(&md5, out);
  for (int i = 0; i < 16; i++) assert_int_equal(out[i], GUARD);
  crisp_md5_ctx *contexts[1] = {&md5};
  const void *data[1] = {"abc"};
  const size_t len[1] = {3};
  crisp_md5_update_many(contexts, data, len, 1);
  crisp_md5_final(&md5, out);
  for (int i = 0; i < 16; i++) assert_int_equal(out[i], GUARD);

  crisp_poly1305_ctx poly;
  memset(&poly, 0, sizeof poly);
  crisp_poly1305_update(&poly, "abc", 3);
  crisp_poly1305_final(&poly, out);
  for (int i = 0; i < 16; i++) assert_int_equal(out[i], GUARD);

  /* Lengths near SIZE_MAX with NULL data are refused, never summed. */
  const uint8_t key[32] = {1};
  assert_int_equal(crisp_poly1305_verify(out, NULL, SIZE_MAX, key), CRISP_E_INVALID);
  crisp_md5_init(&md5);
  crisp_md5_update(&md5, "abc", 3);
  crisp_md5_update(&md5, NULL, SIZE_MAX - 2);
  crisp_md5_final(&md5, out);
  static const uint8_t abc_md5[16] = {0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0,
                                      0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1, 0x7f, 0x72};
  assert_memory_equal(out, abc_md5, 16);
}

/* crisp_md5_update_many hashes nothing at all when one context is inert
 * or one lane breaks a precondition, wherever that lane lies: the first of
 * two, or in the second chunk of lanes the front-end hands the kernel. The
 * live contexts then still hold their prefix alone. At every md5_many
 * implementation. */
static void test_md5_many_refused_whole(void **state) {
  (void)state;
  enum { LANES = 70 };
  static crisp_md5_ctx contexts[LANES];
  crisp_md5_ctx *ctx[LANES];
  const void *data[LANES];
  size_t len[LANES];
  static uint8_t message[LANES][200];
  uint8_t prefix[10], want[16], got[16];
  test_fill_random(prefix, sizeof prefix);
  test_fill_random(message, sizeof message);
  crisp_md5(prefix, sizeof prefix, want);
  static const size_t counts[] = {2, LANES};
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_MD5_MANY, name) {
    for (size_t c = 0; c < 2; c++)
      for (int broken = 0; broken < 2; broken++) {
        const size_t n = counts[c], odd_one = n - 2; /* lane 0 of 2, lane 68 of 70 */
        for (size_t i = 0; i < n; i++) {
          crisp_md5_init(&contexts[i]);
          crisp_md5_update(&contexts[i], prefix, sizeof prefix);
          ctx[i] = &contexts[i], data[i] = message[i], len[i] = 1 + i % 200;
        }
        if (broken)
          data[odd_one] = NULL; /* a NULL message of length > 0 */
        else
          memset(&contexts[odd_one], 0, sizeof contexts[odd_one]); /* inert */
        crisp_md5_update_many(ctx, data, len, n);
        for (size_t i = 0; i < n; i++) {
          if (i == odd_one && !broken) continue;
          crisp_md5_final(&contexts[i], got);
          if (memcmp(got, want, sizeof want) != 0) {
            print_error("md5_many %s: lane %zu of %zu hashed although lane %zu %s\n", name, i, n, odd_one,
                        broken ? "has a NULL message" : "is inert");
            fail();
          }
        }
      }
  }
}

int main(void) {
  test_seed(0x6d6973757365ull);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_md5_output_extent, test_teardown_unpin),
      cmocka_unit_test_teardown(test_poly1305_output_extent, test_teardown_unpin),
      cmocka_unit_test_teardown(test_chacha20_output_extent, test_teardown_unpin),
      cmocka_unit_test_teardown(test_bn_output_extent, test_teardown_unpin),
      cmocka_unit_test_teardown(test_bn_oversized, test_teardown_unpin),
      cmocka_unit_test_teardown(test_garbage_names, test_teardown_unpin),
      cmocka_unit_test_teardown(test_zeroed_contexts, test_teardown_unpin),
      cmocka_unit_test_teardown(test_md5_many_refused_whole, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
