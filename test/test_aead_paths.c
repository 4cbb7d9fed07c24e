/* test/test_aead_paths.c - which path a one-shot ChaCha20-Poly1305 open
 * takes, which no output shows (every path gives the same bytes): the
 * fused open, the AVX-512 ChaCha20 kernel's open_mac with the scalar
 * Poly1305 beside its rounds, runs where docs/dispatch.md says and nowhere
 * else. At every ChaCha20 x Poly1305 pair this CPU has:
 *  - only ChaCha20 avx512 with a Poly1305 other than generic fuses, so a
 *    pin or option that moves either kernel off those turns it off;
 *  - with the IFMA Poly1305 only while the MAC stays below its vector
 *    crossover (its tuning: cold and warm blocks);
 *  - with the x86-64 Poly1305, which has no vector path, up to the
 *    kernel's 1024 bytes whatever the ad.
 * Asked through the internal crisp_chacha20_poly1305_open_runs_fused, so
 * the static library is linked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "chacha20poly1305_internal.h"
#include "common.h"
#include "tuning.h"

static void expect_path(size_t len, size_t ad_len, int fused, const char *chacha, const char *poly) {
  const int got = crisp_chacha20_poly1305_open_runs_fused(len, ad_len);
  if (got != fused) {
    print_error("open of %zu bytes, ad %zu, on %s with %s: %s, expected %s\n", len, ad_len, chacha, poly,
                got ? "fused" : "not fused", fused ? "fused" : "not fused");
    fail();
  }
}

static void test_every_pair(void **state) {
  (void)state;
  const char *chacha, *poly;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, chacha) {
    FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, poly) {
      const int pair = !strcmp(chacha, "avx512") && strcmp(poly, "generic") != 0;
      expect_path(0, 0, pair, chacha, poly);
      expect_path(64, 0, pair, chacha, poly);
      expect_path(64, 13, pair, chacha, poly);
      expect_path(256, 13, pair, chacha, poly);
      expect_path(1025, 0, 0, chacha, poly);
      expect_path(4096, 0, 0, chacha, poly);
      if (!strcmp(poly, "avx512ifma")) {
        /* Poly1305's vector path may run from this many bytes of input;
         * the AEAD keeps a MAC short only more than 48 bytes below it. */
        const size_t cold = crisp_tuning(CRISP_TUNING_POLY1305_AVX512IFMA_COLD);
        const size_t warm = crisp_tuning(CRISP_TUNING_POLY1305_AVX512IFMA_WARM);
        const size_t vector_from = 16 * (cold < warm ? cold : warm);
        if (vector_from - 64 <= 1024) expect_path(vector_from - 64, 0, pair, chacha, poly);
        expect_path(vector_from - 48, 0, 0, chacha, poly);
        expect_path(64, vector_from, 0, chacha, poly); /* the ad alone reaches it */
      }
      if (!strcmp(poly, "x86_64")) {
        expect_path(1024, 0, pair, chacha, poly);
        expect_path(1024, 5000, pair, chacha, poly);
      }
    }
  }
}

/* CRYPTO_FORCE=avx2 moves ChaCha20 to avx2, and the fused open with it.
 * Run where the defaults fuse (not under an environment that already
 * moved either kernel). */
static void test_level_cap(void **state) {
  (void)state;
  const char *chacha = crisp_impl_name(CRISP_KERNEL_CHACHA20), *poly = crisp_impl_name(CRISP_KERNEL_POLY1305);
  if (strcmp(chacha, "avx512") != 0 || strcmp(poly, "generic") == 0) skip();
  expect_path(64, 0, 1, chacha, poly);
  assert_int_equal(crisp_force("avx2"), CRISP_OK);
  expect_path(64, 0, 0, crisp_impl_name(CRISP_KERNEL_CHACHA20), crisp_impl_name(CRISP_KERNEL_POLY1305));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_every_pair, test_teardown_unpin),
      cmocka_unit_test_teardown(test_level_cap, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
