/* test/test_bn_portable.c - the generic bignum kernels compiled without
 * unsigned __int128 (their 32-bit-halves path, the one compilers without it
 * take), checked against the reference in bn_reference.h. The kernels are
 * built into this program under other names, beside the library. */
#include "common.h"

#include "bn_reference.h"

#define CRISP_BN_NO_INT128 1
#define crisp_bn_mul_generic portable_bn_mul
#define crisp_bn_sqr_generic portable_bn_sqr
#define crisp_bn_mul_add_generic portable_bn_mul_add
#define crisp_bn_mont_mul_generic portable_bn_mont_mul
#define crisp_bn_mont_sqr_generic portable_bn_mont_sqr
#define crisp_bn_mul_generic_impl portable_bn_mul_impl
#define crisp_bn_sqr_generic_impl portable_bn_sqr_impl
#define crisp_bn_mul_add_generic_impl portable_bn_mul_add_impl
#define crisp_bn_mont_mul_generic_impl portable_bn_mont_mul_impl
#define crisp_bn_mont_sqr_generic_impl portable_bn_mont_sqr_impl
#include "generic/bn_mont_generic.c"
#include "generic/bn_mul_add_generic.c"
#include "generic/bn_mul_generic.c"
#include "generic/bn_sqr_generic.c"
#include "scrub_stack.c" /* the library keeps its own hidden */
/* The descriptors' names (CRISP_IMPL_INFO), hidden in the library too;
 * this test does not read them. */
const char crisp_impl_names[CRISP_IMPL_TOTAL][CRISP_IMPL_NAME_SIZE];

#ifdef CRISP_BN_HAVE_INT128
#error "the 32-bit-halves path was not selected"
#endif

#define MAX_LIMBS 70

static void fill(crisp_limb *x, size_t n, int shape) {
  for (size_t i = 0; i < n; i++)
    x[i] = shape == 1 ? ~(crisp_limb)0 : shape == 2 ? (crisp_limb)1 << 63 : test_rand64();
}

#define assert_limbs_equal(a, b, n, ...) \
  assert_bytes_equal((const uint8_t *)(a), (const uint8_t *)(b), (n)*8, __VA_ARGS__)

static void test_products(void **state) {
  (void)state;
  crisp_limb x[MAX_LIMBS], y[MAX_LIMBS], z[2 * MAX_LIMBS], expected[2 * MAX_LIMBS + 1];
  for (size_t n = 1; n <= MAX_LIMBS; n++) {
    for (int shape = 0; shape < 3; shape++) {
      const size_t yn = 1 + (n * 13 + (size_t)shape) % MAX_LIMBS;
      fill(x, n, shape);
      fill(y, yn, shape);
      ref_mul(expected, x, n, y, yn);
      portable_bn_mul(z, x, n, y, yn);
      assert_limbs_equal(z, expected, n + yn, "portable mul %zu x %zu shape %d\n", n, yn, shape);
      ref_mul(expected, x, n, x, n);
      portable_bn_sqr(z, x, n);
      assert_limbs_equal(z, expected, 2 * n, "portable sqr %zu shape %d\n", n, shape);
      /* z + x * k */
      const crisp_limb k = shape == 0 ? test_rand64() : ~(crisp_limb)0;
      fill(z, n, 1);
      ref_mul(expected, x, n, &k, 1);
      crisp_limb carry = 0;
      for (size_t i = 0; i < n; i++) {
        const crisp_limb s = expected[i] + z[i];
        const crisp_limb c = s < z[i];
        expected[i] = s + carry;
        carry = c + (expected[i] < carry);
      }
      expected[n] += carry;
      const crisp_limb top = portable_bn_mul_add(z, x, n, k);
      assert_limbs_equal(z, expected, n, "portable mul_add %zu shape %d\n", n, shape);
      assert_true(top == expected[n]);
    }
  }
}

static void test_montgomery(void **state) {
  (void)state;
  static const size_t sizes[] = {1, 2, 3, 8, 16, 17, 32, 64};
  crisp_limb m[64], a[64], b[64], r[64], shifted[128], lhs[64], rhs[64];
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    const size_t n = sizes[s];
    for (int shape = 0; shape < 3; shape++) {
      fill(m, n, shape);
      m[0] |= 1;
      m[n - 1] |= (crisp_limb)1 << 63;
      const crisp_limb minv = crisp_bn_mont_inv(m[0]);
      for (int pair = 0; pair < 2; pair++) {
        if (pair == 0) {
          fill(shifted, n, 0), ref_mod(a, shifted, n, m, n);
          fill(shifted, n, 0), ref_mod(b, shifted, n, m, n);
        } else {
          memcpy(a, m, n * sizeof *m), a[0]--;
          memcpy(b, a, n * sizeof *a);
        }
        ref_mul_mod(rhs, a, b, m, n);
        portable_bn_mont_mul(r, a, b, m, n, minv);
        assert_true(ref_compare(r, m, n) < 0);
        memset(shifted, 0, n * sizeof *shifted);
        memcpy(shifted + n, r, n * sizeof *r);
        ref_mod(lhs, shifted, 2 * n, m, n);
        assert_limbs_equal(lhs, rhs, n, "portable mont_mul n=%zu shape %d\n", n, shape);
        ref_mul_mod(rhs, a, a, m, n);
        portable_bn_mont_sqr(r, a, m, n, minv);
        assert_true(ref_compare(r, m, n) < 0);
        memcpy(shifted + n, r, n * sizeof *r);
        ref_mod(lhs, shifted, 2 * n, m, n);
        assert_limbs_equal(lhs, rhs, n, "portable mont_sqr n=%zu shape %d\n", n, shape);
      }
    }
  }
}

int main(void) {
  test_seed(0x706f7274);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_products),
      cmocka_unit_test(test_montgomery),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
