/* test/test_bn_wide.c - the IFMA columns (src/x86/bn52_wide_avx512ifma.c)
 * at every size they take, 32 limbs to past their largest class: squares and
 * products, balanced and unbalanced across the size classes, random
 * operands and ones that make every column carry, against GMP's mpn_mul
 * and mpn_sqr (the slow reference without GMP). The dispatch hands sizes
 * below the crossovers (src/tuning.h) to the MULX/ADX kernel; here the
 * crossovers are lowered to their least, 32 limbs (an internal call, so
 * the static library is linked), so that every size from there runs the
 * columns, then restored.
 * Skipped where the CPU has no IFMA. */
#include "common.h"

#include "bn_reference.h"
#include "tuning.h"
#ifdef CRISP_TEST_GMP
#include <gmp.h>
#endif

#define WIDE_FIRST 32  /* the crossovers' least value */
#define WIDE_LIMBS 257 /* one past the largest class */
#define ONES (~(crisp_limb)0)
#define GUARD ((crisp_limb)0x5a5a5a5a5a5a5a5aull)

/* Operands: random limbs; all ones (every column's sum at its largest,
 * runs of all-ones digits for carries to ripple through); a random mix
 * of 0, 1 and all-ones limbs. */
enum { SHAPE_RANDOM, SHAPE_ONES, SHAPE_MIXED, SHAPE_COUNT };

static void fill(crisp_limb *x, size_t n, int shape) {
  static const crisp_limb specials[] = {0, 1, ONES};
  for (size_t i = 0; i < n; i++) {
    const size_t pick = test_rand_below(4);
    x[i] = shape == SHAPE_ONES ? ONES : shape == SHAPE_MIXED && pick < 3 ? specials[pick] : test_rand64();
  }
}

static void expected_product(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn) {
#ifdef CRISP_TEST_GMP
  if (xn >= yn)
    mpn_mul((mp_limb_t *)z, (const mp_limb_t *)x, (mp_size_t)xn, (const mp_limb_t *)y, (mp_size_t)yn);
  else
    mpn_mul((mp_limb_t *)z, (const mp_limb_t *)y, (mp_size_t)yn, (const mp_limb_t *)x, (mp_size_t)xn);
#else
  ref_mul(z, x, xn, y, yn);
#endif
}

static crisp_limb z[2 * WIDE_LIMBS + 1], expected[2 * WIDE_LIMBS];

static void check_mul(const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn) {
  expected_product(expected, x, xn, y, yn);
  for (size_t i = 0; i <= xn + yn; i++) z[i] = GUARD;
  assert_int_equal(crisp_bn_mul(z, x, xn, y, yn), CRISP_OK);
  assert_bytes_equal((const uint8_t *)z, (const uint8_t *)expected, 8 * (xn + yn),
                     "bn_mul avx512ifma columns: %zu x %zu limbs\n", xn, yn);
  assert_true(z[xn + yn] == GUARD);
}

static void check_sqr(const crisp_limb *x, size_t n) {
#ifdef CRISP_TEST_GMP
  mpn_sqr((mp_limb_t *)expected, (const mp_limb_t *)x, (mp_size_t)n);
#else
  ref_mul(expected, x, n, x, n);
#endif
  for (size_t i = 0; i <= 2 * n; i++) z[i] = GUARD;
  assert_int_equal(crisp_bn_sqr(z, x, n), CRISP_OK);
  assert_bytes_equal((const uint8_t *)z, (const uint8_t *)expected, 16 * n,
                     "bn_sqr avx512ifma columns: %zu limbs\n", n);
  assert_true(z[2 * n] == GUARD);
}

static void test_columns(void **state) {
  (void)state;
  if (crisp_use_impl(CRISP_KERNEL_BN_MUL, "avx512ifma") != CRISP_OK ||
      crisp_use_impl(CRISP_KERNEL_BN_SQR, "avx512ifma") != CRISP_OK) {
    skip();
    return;
  }
  const uint32_t mul_min = crisp_tuning(CRISP_TUNING_BN_MUL_AVX512IFMA_MIN),
                 sqr_min = crisp_tuning(CRISP_TUNING_BN_SQR_AVX512IFMA_MIN);
  crisp_tuning_set(CRISP_TUNING_BN_MUL_AVX512IFMA_MIN, 0); /* raised to its least */
  crisp_tuning_set(CRISP_TUNING_BN_SQR_AVX512IFMA_MIN, 0);
  assert_int_equal(crisp_tuning(CRISP_TUNING_BN_MUL_AVX512IFMA_MIN), WIDE_FIRST);
  assert_int_equal(crisp_tuning(CRISP_TUNING_BN_SQR_AVX512IFMA_MIN), WIDE_FIRST);
  static crisp_limb x[WIDE_LIMBS], y[WIDE_LIMBS];
  for (size_t n = WIDE_FIRST; n <= WIDE_LIMBS; n++) {
    for (int shape = 0; shape < SHAPE_COUNT; shape++) {
      fill(x, n, shape);
      check_sqr(x, n);
      fill(y, n, (shape + 1) % SHAPE_COUNT);
      check_mul(x, n, y, n);
    }
    x[0] = 1, x[n - 1] = ONES; /* a square whose doubling carries out of the top */
    check_sqr(x, n);
    /* the longer operand up to twice the shorter, in its class or past it */
    const size_t other = n + 1 + (n * 29) % (n + 1);
    if (other <= WIDE_LIMBS) {
      fill(x, n, SHAPE_RANDOM);
      fill(y, other, SHAPE_MIXED);
      check_mul(x, n, y, other);
      check_mul(y, other, x, n);
    }
  }
  crisp_tuning_set(CRISP_TUNING_BN_MUL_AVX512IFMA_MIN, mul_min);
  crisp_tuning_set(CRISP_TUNING_BN_SQR_AVX512IFMA_MIN, sqr_min);
}

static int unpin(void **state) {
  (void)state;
  crisp_use_impl(CRISP_KERNEL_BN_MUL, NULL);
  crisp_use_impl(CRISP_KERNEL_BN_SQR, NULL);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_columns, unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
