/* test/test_bn.c - the bignum API against the slow reference in
 * bn_reference.h, for every implementation of every BN kernel this CPU
 * supports: products, squares and mul_add for 1..130 limbs, Montgomery
 * multiply / square / R^2 for many modulus sizes and shapes, modular
 * exponentiation, aliasing, every error path, and (with GMP) cross-checks
 * against mpz_powm and mpn_mul. */
#include "common.h"

#include "bn_reference.h"

#ifdef CRISP_TEST_GMP
#include <gmp.h>
#endif

#define MAX_PRODUCT_LIMBS 130
#define ONES (~(crisp_limb)0)
#define TOP_BIT ((crisp_limb)1 << 63)
/* Written after an output to see that a function stays inside it. */
#define GUARD ((crisp_limb)0x5a5a5a5a5a5a5a5aull)

/* Operand shapes: random, all-ones limbs (longest carry chains), 0x8000...
 * limbs, and a random mix of 0, 1, all-ones, top-bit and random limbs. */
enum { SHAPE_RANDOM, SHAPE_ONES, SHAPE_TOP_BITS, SHAPE_MIXED, SHAPE_COUNT };

static void fill_shape(crisp_limb *x, size_t n, int shape) {
  static const crisp_limb specials[] = {0, 1, ONES, TOP_BIT};
  for (size_t i = 0; i < n; i++) {
    switch (shape) {
      case SHAPE_ONES:
        x[i] = ONES;
        break;
      case SHAPE_TOP_BITS:
        x[i] = TOP_BIT;
        break;
      case SHAPE_MIXED: {
        const size_t pick = test_rand_below(5);
        x[i] = pick < 4 ? specials[pick] : test_rand64();
        break;
      }
      default:
        x[i] = test_rand64();
    }
  }
}

/* Fails with a context line when a and b (n limbs) differ. */
#define assert_limbs_equal(a, b, n, ...) \
  assert_bytes_equal((const uint8_t *)(a), (const uint8_t *)(b), (n)*8, __VA_ARGS__)

/* ---- the reference checks itself -------------------------------------- */

static void test_reference(void **state) {
  (void)state;
  /* Division against the bit-by-bit remainder, with divisors whose top
   * digit is small (normalisation shifts) and large. */
  for (int round = 0; round < 300; round++) {
    crisp_limb a[24], m[12], r1[12], r2[12];
    const size_t an = 1 + test_rand_below(24), n = 1 + test_rand_below(12);
    fill_shape(a, an, (int)test_rand_below(SHAPE_COUNT));
    fill_shape(m, n, (int)test_rand_below(SHAPE_COUNT));
    if (round % 3 == 0) m[n - 1] = test_rand64() >> test_rand_below(64);
    if (round % 5 == 0) m[n - 1] &= 0xffffffffu;
    if (m[n - 1] == 0) m[n - 1] = 1;
    ref_mod(r1, a, an, m, n);
    ref_mod_bitwise(r2, a, an, m, n);
    assert_limbs_equal(r1, r2, n, "reference remainder, round %d an=%zu n=%zu\n", round, an, n);
    assert_true(ref_compare(r1, m, n) < 0);
  }
  /* One-limb products against 128-bit arithmetic where the compiler has it. */
#ifdef __SIZEOF_INT128__
  for (int round = 0; round < 1000; round++) {
    crisp_limb x = test_rand64(), y = test_rand64(), z[2];
    if (round < 4) x = round & 1 ? ONES : TOP_BIT, y = round & 2 ? ONES : TOP_BIT;
    ref_mul(z, &x, 1, &y, 1);
    const unsigned __int128 p = (unsigned __int128)x * y;
    assert_true(z[0] == (crisp_limb)p && z[1] == (crisp_limb)(p >> 64));
  }
#endif
}

/* ---- products, squares, mul_add --------------------------------------- */

static void check_mul(const char *name, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn) {
  crisp_limb z[2 * MAX_PRODUCT_LIMBS + 1], expected[2 * MAX_PRODUCT_LIMBS];
  ref_mul(expected, x, xn, y, yn);
  for (size_t i = 0; i <= xn + yn; i++) z[i] = GUARD;
  assert_int_equal(crisp_bn_mul(z, x, xn, y, yn), CRISP_OK);
  assert_limbs_equal(z, expected, xn + yn, "bn_mul %s: %zu x %zu limbs\n", name, xn, yn);
  assert_true(z[xn + yn] == GUARD);
}

static void test_mul(void **state) {
  (void)state;
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MUL, name) {
    crisp_limb x[MAX_PRODUCT_LIMBS], y[MAX_PRODUCT_LIMBS];
    for (size_t n = 1; n <= MAX_PRODUCT_LIMBS; n++) {
      for (int shape = 0; shape < SHAPE_COUNT; shape++) {
        fill_shape(x, n, shape);
        fill_shape(y, n, shape);
        check_mul(name, x, n, y, n);
      }
      /* Unbalanced, both ways round. */
      const size_t other = 1 + (n * 37) % MAX_PRODUCT_LIMBS;
      fill_shape(x, n, (int)test_rand_below(SHAPE_COUNT));
      fill_shape(y, other, (int)test_rand_below(SHAPE_COUNT));
      check_mul(name, x, n, y, other);
      check_mul(name, y, other, x, n);
      check_mul(name, x, n, x, n); /* x == y is allowed */
    }
    /* Lengths in multiples of 8 run the register-window product (ADX):
     * one pass and several, one group of rows and several, both ways round,
     * alone and as the schoolbook rest after Karatsuba blocks. */
    static const size_t eights[] = {8, 16, 24, 32, 40, 48, 56, 64, 96};
    for (size_t i = 0; i < sizeof eights / sizeof eights[0]; i++)
      for (size_t j = 0; j < sizeof eights / sizeof eights[0]; j++)
        for (int shape = 0; shape < SHAPE_COUNT; shape++) {
          fill_shape(x, eights[i], shape);
          fill_shape(y, eights[j], shape);
          check_mul(name, x, eights[i], y, eights[j]);
        }
  }
}

static void test_sqr(void **state) {
  (void)state;
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_SQR, name) {
    crisp_limb x[MAX_PRODUCT_LIMBS], z[2 * MAX_PRODUCT_LIMBS + 1], expected[2 * MAX_PRODUCT_LIMBS];
    for (size_t n = 1; n <= MAX_PRODUCT_LIMBS; n++) {
      for (int shape = 0; shape <= SHAPE_COUNT; shape++) {
        fill_shape(x, n, shape % SHAPE_COUNT);
        if (shape == SHAPE_COUNT) x[n - 1] = ONES, x[0] = 1; /* carries through the doubling */
        ref_mul(expected, x, n, x, n);
        for (size_t i = 0; i <= 2 * n; i++) z[i] = GUARD;
        assert_int_equal(crisp_bn_sqr(z, x, n), CRISP_OK);
        assert_limbs_equal(z, expected, 2 * n, "bn_sqr %s: %zu limbs shape %d\n", name, n, shape);
        assert_true(z[2 * n] == GUARD);
      }
    }
  }
}

/* expected[0..n] = z0 + x * k (n + 1 limbs). */
static void expected_mul_add(crisp_limb *expected, const crisp_limb *z0, const crisp_limb *x, size_t n,
                             crisp_limb k) {
  ref_mul(expected, x, n, &k, 1);
  crisp_limb carry = 0;
  for (size_t i = 0; i < n; i++) {
    const crisp_limb s = expected[i] + z0[i];
    const crisp_limb c = s < z0[i];
    expected[i] = s + carry;
    carry = c + (expected[i] < carry);
  }
  expected[n] += carry;
}

static void test_mul_add(void **state) {
  (void)state;
  static const crisp_limb special_k[] = {0, 1, ONES, TOP_BIT};
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MUL_ADD, name) {
    crisp_limb x[MAX_PRODUCT_LIMBS], z[MAX_PRODUCT_LIMBS + 1], z0[MAX_PRODUCT_LIMBS],
        expected[MAX_PRODUCT_LIMBS + 1];
    for (size_t n = 1; n <= MAX_PRODUCT_LIMBS; n++) {
      for (int round = 0; round < 8; round++) {
        const int shape = round % SHAPE_COUNT;
        const crisp_limb k = round < 4 ? special_k[round] : round == 4 ? ONES : test_rand64();
        fill_shape(x, n, shape);
        fill_shape(z0, n, round < 4 ? SHAPE_ONES : shape);
        expected_mul_add(expected, z0, x, n, k);
        memcpy(z, z0, n * sizeof *z);
        z[n] = GUARD;
        crisp_limb top = GUARD;
        assert_int_equal(crisp_bn_mul_add(z, x, n, k, &top), CRISP_OK);
        assert_limbs_equal(z, expected, n, "bn_mul_add %s: %zu limbs round %d\n", name, n, round);
        assert_true(top == expected[n]);
        assert_true(z[n] == GUARD);
        /* z == x */
        expected_mul_add(expected, x, x, n, k);
        memcpy(z, x, n * sizeof *z);
        crisp_limb top_alias = GUARD;
        assert_int_equal(crisp_bn_mul_add(z, z, n, k, &top_alias), CRISP_OK);
        assert_limbs_equal(z, expected, n, "bn_mul_add %s: z == x, %zu limbs round %d\n", name, n, round);
        assert_true(top_alias == expected[n]);
        /* The carry is written last, so it may point into z or x:
         * z[0], z[n - 1], and x[0] of a copy of x. */
        expected_mul_add(expected, z0, x, n, k);
        for (int into = 0; into < 3; into++) {
          crisp_limb xc[MAX_PRODUCT_LIMBS];
          memcpy(xc, x, n * sizeof *xc);
          memcpy(z, z0, n * sizeof *z);
          crisp_limb *const carry = into == 0 ? &z[0] : into == 1 ? &z[n - 1] : &xc[0];
          assert_int_equal(crisp_bn_mul_add(z, xc, n, k, carry), CRISP_OK);
          const crisp_limb written = *carry;
          if (into < 2) *carry = expected[into == 0 ? 0 : n - 1]; /* the limb the carry replaced */
          assert_limbs_equal(z, expected, n, "bn_mul_add %s: carry into %s, %zu limbs round %d\n", name,
                             into == 2 ? "x" : "z", n, round);
          assert_true(written == expected[n]);
        }
      }
    }
  }
}

/* ---- Montgomery arithmetic -------------------------------------------- */

static const size_t mont_sizes[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  12, 15, 16, 17, 20,  23,
                                    24, 25, 31, 32, 33, 40, 47, 48, 49, 63, 64, 65, 96, 128, 256};
enum { MONT_SIZE_COUNT = sizeof mont_sizes / sizeof mont_sizes[0] };

/* Modulus shapes: 2^(64n)-1, 2^(64n-5)-1, 2^(64n-1)+1, just above 2^(64n-1)
 * with random lower limbs, random with the top bit set, random with a small
 * top limb. All odd, top limb nonzero. */
enum { MODULUS_SHAPE_COUNT = 6 };

static void make_modulus(crisp_limb *m, size_t n, int shape) {
  switch (shape) {
    case 0:
      fill_shape(m, n, SHAPE_ONES);
      break;
    case 1:
      fill_shape(m, n, SHAPE_ONES);
      m[n - 1] >>= 5;
      break;
    case 2:
      memset(m, 0, n * sizeof *m);
      m[n - 1] |= TOP_BIT;
      m[0] |= 1;
      break;
    case 3:
      fill_shape(m, n, SHAPE_RANDOM);
      m[n - 1] = TOP_BIT | (n > 1 ? 0 : m[0]);
      break;
    case 4:
      fill_shape(m, n, SHAPE_RANDOM);
      m[n - 1] |= TOP_BIT;
      break;
    default:
      fill_shape(m, n, SHAPE_RANDOM);
      m[n - 1] = 1 + test_rand_below(1000);
  }
  m[0] |= 1;
}

/* A random value below m. */
static void random_below(crisp_limb *a, const crisp_limb *m, size_t n) {
  crisp_limb t[CRISP_BN_MONT_MAX_LIMBS];
  fill_shape(t, n, (int)test_rand_below(SHAPE_COUNT));
  ref_mod(a, t, n, m, n);
}

static void minus_one(crisp_limb *a, const crisp_limb *m, size_t n) {
  memcpy(a, m, n * sizeof *a);
  a[0] -= 1; /* m is odd: no borrow */
}

/* Checks r < m and r * R == a * b (mod m). */
static void check_mont_result(const char *what, const char *name, const crisp_limb *r, const crisp_limb *a,
                              const crisp_limb *b, const crisp_limb *m, size_t n, int shape) {
  crisp_limb shifted[2 * CRISP_BN_MONT_MAX_LIMBS], lhs[CRISP_BN_MONT_MAX_LIMBS], rhs[CRISP_BN_MONT_MAX_LIMBS];
  if (ref_compare(r, m, n) >= 0) {
    print_error("%s %s: result not reduced, n=%zu modulus shape %d\n", what, name, n, shape);
    fail();
  }
  memset(shifted, 0, n * sizeof *shifted);
  memcpy(shifted + n, r, n * sizeof *r);
  ref_mod(lhs, shifted, 2 * n, m, n);
  ref_mul_mod(rhs, a, b, m, n);
  assert_limbs_equal(lhs, rhs, n, "%s %s: n=%zu modulus shape %d\n", what, name, n, shape);
}

/* Operand pairs: random, a = b = m-1, 0 and random, 1 and m-1. */
static void mont_operands(crisp_limb *a, crisp_limb *b, const crisp_limb *m, size_t n, int pair) {
  switch (pair) {
    case 1:
      minus_one(a, m, n), minus_one(b, m, n);
      break;
    case 2:
      memset(a, 0, n * sizeof *a);
      random_below(b, m, n);
      break;
    case 3:
      memset(a, 0, n * sizeof *a);
      a[0] = 1;
      minus_one(b, m, n);
      break;
    default:
      random_below(a, m, n), random_below(b, m, n);
  }
}
enum { MONT_PAIR_COUNT = 5 };

/* The slow reference dominates at the largest sizes: there, every other
 * modulus shape and operand pair. */
static int mont_step(size_t n) {
  return n >= 96 ? 2 : 1;
}

static void test_mont_mul(void **state) {
  (void)state;
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MONT_MUL, name) {
    crisp_limb m[CRISP_BN_MONT_MAX_LIMBS], a[CRISP_BN_MONT_MAX_LIMBS], b[CRISP_BN_MONT_MAX_LIMBS],
        r[CRISP_BN_MONT_MAX_LIMBS + 1], alias[CRISP_BN_MONT_MAX_LIMBS];
    for (size_t s = 0; s < MONT_SIZE_COUNT; s++) {
      const size_t n = mont_sizes[s];
      for (int shape = 0; shape < MODULUS_SHAPE_COUNT; shape += mont_step(n)) {
        make_modulus(m, n, shape);
        const crisp_limb minv = crisp_bn_mont_inv(m[0]);
        for (int pair = 0; pair < MONT_PAIR_COUNT; pair += mont_step(n)) {
          mont_operands(a, b, m, n, pair);
          r[n] = GUARD;
          assert_int_equal(crisp_bn_mont_mul(r, a, b, m, n, minv), CRISP_OK);
          check_mont_result("bn_mont_mul", name, r, a, b, m, n, shape);
          assert_true(r[n] == GUARD);
          /* r == a, r == b, r == a == b give the same as separate buffers. */
          memcpy(alias, a, n * sizeof *a);
          assert_int_equal(crisp_bn_mont_mul(alias, alias, b, m, n, minv), CRISP_OK);
          assert_limbs_equal(alias, r, n, "bn_mont_mul %s: r == a, n=%zu\n", name, n);
          memcpy(alias, b, n * sizeof *b);
          assert_int_equal(crisp_bn_mont_mul(alias, a, alias, m, n, minv), CRISP_OK);
          assert_limbs_equal(alias, r, n, "bn_mont_mul %s: r == b, n=%zu\n", name, n);
          memcpy(alias, a, n * sizeof *a);
          assert_int_equal(crisp_bn_mont_mul(alias, alias, alias, m, n, minv), CRISP_OK);
          check_mont_result("bn_mont_mul r == a == b", name, alias, a, a, m, n, shape);
        }
      }
    }
    /* The modulus 1 (n = 1): everything is 0. */
    const crisp_limb one = 1, zero = 0;
    crisp_limb out = GUARD;
    assert_int_equal(crisp_bn_mont_mul(&out, &zero, &zero, &one, 1, crisp_bn_mont_inv(1)), CRISP_OK);
    assert_true(out == 0);
  }
}

static void test_mont_sqr(void **state) {
  (void)state;
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MONT_SQR, name) {
    crisp_limb m[CRISP_BN_MONT_MAX_LIMBS], a[CRISP_BN_MONT_MAX_LIMBS], b[CRISP_BN_MONT_MAX_LIMBS],
        r[CRISP_BN_MONT_MAX_LIMBS + 1], alias[CRISP_BN_MONT_MAX_LIMBS];
    for (size_t s = 0; s < MONT_SIZE_COUNT; s++) {
      const size_t n = mont_sizes[s];
      for (int shape = 0; shape < MODULUS_SHAPE_COUNT; shape += mont_step(n)) {
        make_modulus(m, n, shape);
        const crisp_limb minv = crisp_bn_mont_inv(m[0]);
        for (int pair = 0; pair < MONT_PAIR_COUNT; pair += mont_step(n)) {
          mont_operands(b, a, m, n, pair); /* a takes the second: random, m-1, m-1 */
          r[n] = GUARD;
          assert_int_equal(crisp_bn_mont_sqr(r, a, m, n, minv), CRISP_OK);
          check_mont_result("bn_mont_sqr", name, r, a, a, m, n, shape);
          assert_true(r[n] == GUARD);
          memcpy(alias, a, n * sizeof *a);
          assert_int_equal(crisp_bn_mont_sqr(alias, alias, m, n, minv), CRISP_OK);
          assert_limbs_equal(alias, r, n, "bn_mont_sqr %s: r == a, n=%zu\n", name, n);
        }
      }
    }
  }
}

/* R^2 mod m uses the active mont_sqr kernel. */
static void test_mont_r2(void **state) {
  (void)state;
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MONT_SQR, name) {
    crisp_limb m[CRISP_BN_MONT_MAX_LIMBS], r2[CRISP_BN_MONT_MAX_LIMBS + 1], expected[CRISP_BN_MONT_MAX_LIMBS],
        power[2 * CRISP_BN_MONT_MAX_LIMBS + 1];
    for (size_t s = 0; s < MONT_SIZE_COUNT; s++) {
      const size_t n = mont_sizes[s];
      for (int shape = 0; shape < MODULUS_SHAPE_COUNT; shape++) {
        make_modulus(m, n, shape);
        memset(power, 0, 2 * n * sizeof *power);
        power[2 * n] = 1;
        ref_mod(expected, power, 2 * n + 1, m, n);
        r2[n] = GUARD;
        assert_int_equal(crisp_bn_mont_r2(r2, m, n), CRISP_OK);
        assert_limbs_equal(r2, expected, n, "bn_mont_r2 %s: n=%zu modulus shape %d\n", name, n, shape);
        assert_true(r2[n] == GUARD);
      }
    }
    const crisp_limb one = 1;
    crisp_limb out = GUARD;
    assert_int_equal(crisp_bn_mont_r2(&out, &one, 1), CRISP_OK);
    assert_true(out == 0);
  }
}

static void test_mont_inv(void **state) {
  (void)state;
  assert_true(crisp_bn_mont_inv(1) == ONES);
  assert_true(crisp_bn_mont_inv(ONES) == 1);
  for (int i = 0; i < 1000; i++) {
    const crisp_limb m0 = test_rand64() | 1;
    assert_true(m0 * crisp_bn_mont_inv(m0) == ONES);
    assert_true(crisp_bn_mont_inv(m0 & ~(crisp_limb)1) == 0);
  }
  assert_true(crisp_bn_mont_inv(0) == 0);
}

/* ---- modular exponentiation ------------------------------------------- */

/* Runs crisp_bn_mod_exp under every mont_mul implementation (with the
 * mont_sqr implementation of the same name where there is one) and
 * compares with expected; also with r == base. */
static void check_mod_exp_all(const crisp_limb *base, const crisp_limb *exp, size_t en, const crisp_limb *m,
                              size_t n, const crisp_limb *expected, const char *what) {
  crisp_limb r[CRISP_BN_MONT_MAX_LIMBS + 1], alias[CRISP_BN_MONT_MAX_LIMBS];
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MONT_MUL, name) {
    const char *sqr_names[16];
    const size_t sqr_count = test_supported_impls(CRISP_KERNEL_BN_MONT_SQR, sqr_names, 16);
    crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, NULL);
    for (size_t i = 0; i < sqr_count; i++)
      if (!strcmp(sqr_names[i], name)) test_pin(CRISP_KERNEL_BN_MONT_SQR, name);
    r[n] = GUARD;
    assert_int_equal(crisp_bn_mod_exp(r, base, exp, en, m, n), CRISP_OK);
    assert_limbs_equal(r, expected, n, "bn_mod_exp %s/%s: %s, n=%zu en=%zu\n", name,
                       crisp_impl_name(CRISP_KERNEL_BN_MONT_SQR), what, n, en);
    assert_true(r[n] == GUARD);
    memcpy(alias, base, n * sizeof *base);
    assert_int_equal(crisp_bn_mod_exp(alias, alias, exp, en, m, n), CRISP_OK);
    assert_limbs_equal(alias, expected, n, "bn_mod_exp %s: r == base, %s, n=%zu\n", name, what, n);
  }
  crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, NULL);
}

static void check_mod_exp(const crisp_limb *base, const crisp_limb *exp, size_t en, const crisp_limb *m,
                          size_t n, const char *what) {
  crisp_limb expected[CRISP_BN_MONT_MAX_LIMBS];
  ref_mod_exp(expected, base, exp, en, m, n);
  check_mod_exp_all(base, exp, en, m, n, expected, what);
}

static void test_mod_exp_small(void **state) {
  (void)state;
  crisp_limb m[8], base[8], exp[10];
  for (size_t n = 1; n <= 8; n++) {
    for (int shape = 0; shape < MODULUS_SHAPE_COUNT; shape++) {
      make_modulus(m, n, shape);
      for (size_t en = 0; en <= 10; en += 1 + (en >= 3) * 2) {
        random_below(base, m, n);
        fill_shape(exp, en, (int)test_rand_below(SHAPE_COUNT));
        check_mod_exp(base, exp, en, m, n, "small");
      }
    }
  }
  /* m = 1: every power is 0, even x^0. */
  const crisp_limb one = 1, zero = 0, e = 5;
  check_mod_exp_all(&zero, &e, 1, &one, 1, &zero, "m = 1");
  check_mod_exp_all(&zero, NULL, 0, &one, 1, &zero, "m = 1, en = 0");
  /* 0^0 = 1 by convention, with exp NULL when en is 0. */
  const crisp_limb three = 3;
  check_mod_exp_all(&zero, NULL, 0, &three, 1, &one, "0^0");
}

/* 1024-, 1536- and 2048-bit moduli (the IFMA two-lane binary ladder's
 * sizes) with exponents 0, 1, all ones, random, one random limb and twice
 * the modulus's length; bases random, 0, 1, m-1. */
static void test_mod_exp_large(void **state) {
  (void)state;
  static const size_t sizes[] = {16, 24, 32};
  crisp_limb m[32], base[32], exp[64], expected[32];
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    const size_t n = sizes[s];
    make_modulus(m, n, 4);
    random_below(base, m, n);
    /* exponent 0 as en = 0 and as a zero limb: 1 */
    memset(expected, 0, sizeof expected);
    expected[0] = 1;
    exp[0] = 0;
    check_mod_exp_all(base, exp, 0, m, n, expected, "exponent en = 0");
    check_mod_exp_all(base, exp, 1, m, n, expected, "exponent 0");
    exp[0] = 1;
    check_mod_exp_all(base, exp, 1, m, n, base, "exponent 1");
    /* exponent 1 with leading zero limbs */
    memset(exp + 1, 0, (n - 1) * sizeof *exp);
    check_mod_exp_all(base, exp, n, m, n, base, "exponent 1, n limbs");
    fill_shape(exp, n, SHAPE_ONES);
    check_mod_exp(base, exp, n, m, n, "exponent all ones");
    fill_shape(exp, n, SHAPE_RANDOM);
    check_mod_exp(base, exp, n, m, n, "exponent random");
    check_mod_exp(base, exp, 1, m, n, "exponent one limb");
    fill_shape(exp, 2 * n, SHAPE_RANDOM);
    check_mod_exp(base, exp, 2 * n, m, n, "exponent of 2n limbs");
    /* (m-1)^e = (-1)^e */
    minus_one(base, m, n);
    fill_shape(exp, n, SHAPE_RANDOM);
    exp[0] |= 1;
    check_mod_exp_all(base, exp, n, m, n, base, "(m-1)^odd");
    memset(base, 0, n * sizeof *base);
    check_mod_exp_all(base, exp, n, m, n, base, "0^e");
    base[0] = 1;
    check_mod_exp_all(base, exp, n, m, n, base, "1^e");
    /* the other modulus shapes (all ones, a small top limb, sparse, top
     * limb a single bit), with short exponents to stay quick */
    for (int shape = 0; shape < MODULUS_SHAPE_COUNT; shape++) {
      if (shape == 4) continue;
      make_modulus(m, n, shape);
      random_below(base, m, n);
      fill_shape(exp, 2, SHAPE_ONES);
      check_mod_exp(base, exp, 2, m, n, "exponent all ones, every modulus shape");
      minus_one(base, m, n);
      check_mod_exp_all(base, exp, 2, m, n, base, "(m-1)^odd, every modulus shape");
    }
  }
}

/* ---- bad arguments ---------------------------------------------------- */

/* buffer holds GUARD everywhere: the call left it untouched. */
static void assert_untouched(const crisp_limb *buffer, size_t n) {
  for (size_t i = 0; i < n; i++) assert_true(buffer[i] == GUARD);
}

static void guard_fill(crisp_limb *buffer, size_t n) {
  for (size_t i = 0; i < n; i++) buffer[i] = GUARD;
}

static void test_errors_products(void **state) {
  (void)state;
  crisp_limb x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8}, z[16];
  guard_fill(z, 16);
  assert_int_equal(crisp_bn_mul(NULL, x, 4, y, 4), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mul(z, NULL, 4, y, 4), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mul(z, x, 4, NULL, 4), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mul(z, x, 0, y, 4), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mul(z, x, 4, y, 0), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mul(z, x, (size_t)-1 / 4, y, 4), CRISP_E_RANGE);
  assert_untouched(z, 16);
  /* overlap: z over x, z over y, z ending inside x */
  crisp_limb big[24];
  guard_fill(big, 24);
  assert_int_equal(crisp_bn_mul(big, big, 2, y, 2), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mul(big, x, 2, big + 3, 2), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mul(big + 2, big + 5, 2, y, 4), CRISP_E_INVALID);
  assert_untouched(big, 24);
  /* adjacent is fine */
  assert_int_equal(crisp_bn_mul(big + 4, x, 2, y, 2), CRISP_OK);

  guard_fill(z, 16);
  assert_int_equal(crisp_bn_sqr(NULL, x, 4), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_sqr(z, NULL, 4), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_sqr(z, x, 0), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_sqr(z, x, (size_t)-1 / 4), CRISP_E_RANGE);
  assert_untouched(z, 16);
  guard_fill(big, 24);
  assert_int_equal(crisp_bn_sqr(big, big, 4), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_sqr(big, big + 7, 4), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_sqr(big + 3, big, 4), CRISP_E_INVALID);
  assert_untouched(big, 24);

  /* mul_add: n == 0, NULL or a shifted overlap is CRISP_E_INVALID and
   * writes neither z nor the carry. */
  guard_fill(z, 16);
  crisp_limb carry = GUARD;
  assert_int_equal(crisp_bn_mul_add(z, x, 0, 7, &carry), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mul_add(NULL, x, 0, 7, &carry), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mul_add(z, NULL, 0, 7, &carry), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mul_add(NULL, NULL, 0, 7, &carry), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mul_add(NULL, x, 4, 7, &carry), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mul_add(z, NULL, 4, 7, &carry), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mul_add(z, x, 4, 7, NULL), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mul_add(z, z + 1, 4, ONES, &carry), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mul_add(z + 1, z, 4, ONES, &carry), CRISP_E_INVALID);
  assert_untouched(z, 16);
  assert_true(carry == GUARD);
}

static void test_errors_montgomery(void **state) {
  (void)state;
  enum { N = 4 };
  const crisp_limb m[N] = {0xfffffffffffffc2full, 5, 6, 0x8000000000000001ull};
  const crisp_limb even[N] = {0xfffffffffffffc2eull, 5, 6, 7}, top_zero[N] = {3, 5, 6, 0};
  const crisp_limb minv = crisp_bn_mont_inv(m[0]);
  crisp_limb a[N] = {1, 2, 3, 4}, b[N] = {9, 8, 7, 6}, at_m[N], above_m[N], r[N + 8];
  memcpy(at_m, m, sizeof m);
  memcpy(above_m, m, sizeof m);
  above_m[0] += 2;
  static crisp_limb huge[CRISP_BN_MONT_MAX_LIMBS + 1];
  for (size_t i = 0; i <= CRISP_BN_MONT_MAX_LIMBS; i++) huge[i] = ONES;

  guard_fill(r, N + 8);
  /* mont_r2 */
  assert_int_equal(crisp_bn_mont_r2(NULL, m, N), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_r2(r, NULL, N), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_r2(r, m, 0), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_r2(r, even, N), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_r2(r, top_zero, N), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_r2(r, huge, CRISP_BN_MONT_MAX_LIMBS + 1), CRISP_E_RANGE);
  /* mont_mul */
  assert_int_equal(crisp_bn_mont_mul(NULL, a, b, m, N, minv), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_mul(r, NULL, b, m, N, minv), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_mul(r, a, NULL, m, N, minv), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_mul(r, a, b, NULL, N, minv), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_mul(r, a, b, m, 0, minv), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_mul(r, a, b, even, N, crisp_bn_mont_inv(even[0] | 1)), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_mul(r, a, b, top_zero, N, crisp_bn_mont_inv(3)), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_mul(r, a, b, m, N, minv + 2), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_mul(r, huge, huge, huge, CRISP_BN_MONT_MAX_LIMBS + 1, 1), CRISP_E_RANGE);
  assert_int_equal(crisp_bn_mont_mul(r, at_m, b, m, N, minv), CRISP_E_RANGE);
  assert_int_equal(crisp_bn_mont_mul(r, a, at_m, m, N, minv), CRISP_E_RANGE);
  assert_int_equal(crisp_bn_mont_mul(r, above_m, b, m, N, minv), CRISP_E_RANGE);
  assert_int_equal(crisp_bn_mont_mul(r, a, huge, m, N, minv), CRISP_E_RANGE);
  /* mont_sqr */
  assert_int_equal(crisp_bn_mont_sqr(NULL, a, m, N, minv), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_sqr(r, NULL, m, N, minv), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_sqr(r, a, NULL, N, minv), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_sqr(r, a, m, 0, minv), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_sqr(r, a, even, N, minv), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_sqr(r, a, top_zero, N, crisp_bn_mont_inv(3)), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_sqr(r, a, m, N, minv ^ 4), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_sqr(r, huge, huge, CRISP_BN_MONT_MAX_LIMBS + 1, 1), CRISP_E_RANGE);
  assert_int_equal(crisp_bn_mont_sqr(r, at_m, m, N, minv), CRISP_E_RANGE);
  assert_int_equal(crisp_bn_mont_sqr(r, above_m, m, N, minv), CRISP_E_RANGE);
  /* mod_exp */
  const crisp_limb exp[2] = {65537, 3};
  assert_int_equal(crisp_bn_mod_exp(NULL, a, exp, 2, m, N), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp(r, NULL, exp, 2, m, N), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp(r, a, NULL, 2, m, N), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp(r, a, exp, 2, NULL, N), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp(r, a, exp, 2, m, 0), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp(r, a, exp, 2, even, N), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp(r, a, exp, 2, top_zero, N), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp(r, huge, exp, 2, huge, CRISP_BN_MONT_MAX_LIMBS + 1), CRISP_E_RANGE);
  assert_int_equal(crisp_bn_mod_exp(r, a, exp, (size_t)-1 / 8, m, N), CRISP_E_RANGE);
  assert_int_equal(crisp_bn_mod_exp(r, at_m, exp, 2, m, N), CRISP_E_RANGE);
  assert_int_equal(crisp_bn_mod_exp(r, above_m, exp, 2, m, N), CRISP_E_RANGE);
  assert_int_equal(crisp_bn_mod_exp(r, above_m, NULL, 0, m, N), CRISP_E_RANGE);
  assert_untouched(r, N + 8);

  /* Overlaps: r over m is refused everywhere; partial r over a, b is fine
   * for mont_mul (copied); r over exp or partly over base for mod_exp is not. */
  crisp_limb area[3 * N];
  memcpy(area, m, sizeof m);
  guard_fill(area + N, 2 * N);
  assert_int_equal(crisp_bn_mont_r2(area + 1, area, N), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_r2(area, area, N), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_mul(area + 3, a, b, area, N, minv), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mont_sqr(area, a, area, N, minv), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp(area + 2, a, exp, 2, area, N), CRISP_E_INVALID);
  assert_true(!memcmp(area, m, sizeof m));
  assert_untouched(area + N, 2 * N);
  crisp_limb work[3 * N];
  memcpy(work, exp, sizeof exp);
  guard_fill(work + 2, 3 * N - 2);
  assert_int_equal(crisp_bn_mod_exp(work + 1, a, work, 2, m, N), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp(work, a, work, 2, m, N), CRISP_E_INVALID);
  assert_true(work[0] == exp[0] && work[1] == exp[1]);
  assert_untouched(work + 2, 3 * N - 2);
  memcpy(work, a, sizeof a);
  guard_fill(work + N, 2 * N);
  assert_int_equal(crisp_bn_mod_exp(work + 1, work, exp, 2, m, N), CRISP_E_INVALID);
  assert_true(!memcmp(work, a, sizeof a));
  assert_untouched(work + N, 2 * N);

  /* Partial overlap of r with a for mont_mul is served through a copy. */
  crisp_limb expected[N];
  memcpy(work, a, sizeof a);
  memcpy(work + N, b, sizeof b);
  assert_int_equal(crisp_bn_mont_mul(expected, a, b, m, N, minv), CRISP_OK);
  assert_int_equal(crisp_bn_mont_mul(work + 2, work, work + N, m, N, minv), CRISP_OK);
  assert_limbs_equal(work + 2, expected, N, "bn_mont_mul with r partly over a and b\n");
}

/* ---- GMP cross-checks ------------------------------------------------- */

#ifdef CRISP_TEST_GMP
static void to_mpz(mpz_t z, const crisp_limb *x, size_t n) {
  mpz_import(z, n, -1, sizeof *x, 0, 0, x);
}

static void from_mpz(crisp_limb *x, size_t n, const mpz_t z) {
  size_t count = 0;
  memset(x, 0, n * sizeof *x);
  assert_true(mpz_sizeinbase(z, 2) <= 64 * n);
  mpz_export(x, &count, -1, sizeof *x, 0, 0, z);
}

/* Montgomery multiply and square against GMP around the sizes with their
 * own kernels (8 and 16 limbs) and their neighbours, many trials each:
 * moduli all ones, top limb 1, top limb all ones, 2^(64n-1) + 1 and
 * random; operands random, mixed limbs, all-ones limbs reduced, 0, 1 and
 * m - 1, squares included. Expected a b R^-1 mod m from mpz_invert. */
enum { GMP_MODULUS_KINDS = 5, GMP_OPERAND_KINDS = 6 };

static void gmp_modulus(crisp_limb *m, size_t n, int kind) {
  fill_shape(m, n, SHAPE_RANDOM);
  switch (kind) {
    case 0:
      fill_shape(m, n, SHAPE_ONES);
      break;
    case 1:
      m[n - 1] = 1;
      break;
    case 2:
      m[n - 1] = ONES;
      break;
    case 3:
      memset(m, 0, n * sizeof *m);
      m[n - 1] |= TOP_BIT;
      break;
    default:
      m[n - 1] |= 1;
  }
  m[0] |= 1;
}

static void gmp_operand(crisp_limb *x, const crisp_limb *m, size_t n, int kind) {
  crisp_limb t[CRISP_BN_MONT_MAX_LIMBS];
  switch (kind) {
    case 0:
      random_below(x, m, n);
      break;
    case 1:
      fill_shape(t, n, SHAPE_MIXED);
      ref_mod(x, t, n, m, n);
      break;
    case 2:
      fill_shape(t, n, SHAPE_ONES);
      ref_mod(x, t, n, m, n);
      break;
    case 3:
      memset(x, 0, n * sizeof *x);
      break;
    case 4:
      memset(x, 0, n * sizeof *x);
      x[0] = 1;
      break;
    default:
      minus_one(x, m, n);
  }
}

static void test_gmp_mont(void **state) {
  (void)state;
  static const size_t sizes[] = {7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33};
  const size_t trials = test_scaled(40);
  crisp_limb m[CRISP_BN_MONT_MAX_LIMBS], a[CRISP_BN_MONT_MAX_LIMBS], b[CRISP_BN_MONT_MAX_LIMBS],
      expected[CRISP_BN_MONT_MAX_LIMBS], r[CRISP_BN_MONT_MAX_LIMBS + 1];
  mpz_t zm, za, zb, zr, zinv;
  mpz_inits(zm, za, zb, zr, zinv, NULL);
  for (int square = 0; square < 2; square++) {
    const char *name;
    FOR_EACH_IMPL(square ? CRISP_KERNEL_BN_MONT_SQR : CRISP_KERNEL_BN_MONT_MUL, name) {
      for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const size_t n = sizes[s];
        for (int kind = 0; kind < GMP_MODULUS_KINDS; kind++) {
          for (size_t trial = 0; trial < trials; trial++) {
            gmp_modulus(m, n, kind);
            const crisp_limb minv = crisp_bn_mont_inv(m[0]);
            to_mpz(zm, m, n);
            mpz_set_ui(zinv, 1);
            mpz_mul_2exp(zinv, zinv, 64 * n);
            assert_true(mpz_invert(zinv, zinv, zm) != 0);
            for (int ka = 0; ka < GMP_OPERAND_KINDS; ka++) {
              gmp_operand(a, m, n, ka);
              gmp_operand(b, m, n, (int)((ka + trial) % GMP_OPERAND_KINDS));
              if (square) memcpy(b, a, n * sizeof *a);
              to_mpz(za, a, n), to_mpz(zb, b, n);
              mpz_mul(zr, za, zb);
              mpz_mul(zr, zr, zinv);
              mpz_mod(zr, zr, zm);
              from_mpz(expected, n, zr);
              r[n] = GUARD;
              if (square)
                assert_int_equal(crisp_bn_mont_sqr(r, a, m, n, minv), CRISP_OK);
              else
                assert_int_equal(crisp_bn_mont_mul(r, a, b, m, n, minv), CRISP_OK);
              assert_limbs_equal(r, expected, n,
                                 "bn_mont_%s %s vs GMP: n=%zu modulus kind %d operand kind %d\n",
                                 square ? "sqr" : "mul", name, n, kind, ka);
              assert_true(r[n] == GUARD);
            }
          }
        }
      }
    }
  }
  mpz_clears(zm, za, zb, zr, zinv, NULL);
}

static void test_gmp(void **state) {
  (void)state;
  static const size_t sizes[] = {1, 3, 16, 24, 32, 48, 64, 100, CRISP_BN_MONT_MAX_LIMBS};
  crisp_limb m[CRISP_BN_MONT_MAX_LIMBS], base[CRISP_BN_MONT_MAX_LIMBS], exp[64],
      expected[CRISP_BN_MONT_MAX_LIMBS], r[CRISP_BN_MONT_MAX_LIMBS];
  mpz_t zm, zb, ze, zr;
  mpz_inits(zm, zb, ze, zr, NULL);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    /* short exponents keep this quick, one limb for the largest moduli */
    const size_t n = sizes[s], en = n > 64 ? 1 : n > 8 ? 8 : n;
    /* every modulus shape at the IFMA kernels' sizes (16-64 limbs), whose
     * vector doublings and borrows the shapes' runs of equal limbs reach */
    const int first_shape = n >= 16 && n <= 64 ? 0 : 4,
              last_shape = n >= 16 && n <= 64 ? MODULUS_SHAPE_COUNT - 1 : 4;
    for (int shape = first_shape; shape <= last_shape; shape++) {
      make_modulus(m, n, shape);
      random_below(base, m, n);
      fill_shape(exp, en, SHAPE_RANDOM);
      to_mpz(zm, m, n), to_mpz(zb, base, n), to_mpz(ze, exp, en);
      mpz_powm(zr, zb, ze, zm);
      from_mpz(expected, n, zr);
      if (n <= 16) { /* the reference agrees with GMP */
        ref_mod_exp(r, base, exp, en, m, n);
        assert_limbs_equal(r, expected, n, "reference vs mpz_powm, n=%zu shape %d\n", n, shape);
      }
      check_mod_exp_all(base, exp, en, m, n, expected, "vs mpz_powm");
      /* base 1: the result is 1 whatever the exponent, so a slip in R'^2
       * or the conversions shows alone */
      memset(base, 0, n * sizeof *base);
      base[0] = 1;
      check_mod_exp_all(base, exp, 1, m, n, base, "1^e vs every modulus shape");
    }
  }
  /* Full-length 2048-bit exponent once. */
  make_modulus(m, 32, 4);
  random_below(base, m, 32);
  fill_shape(exp, 32, SHAPE_RANDOM);
  to_mpz(zm, m, 32), to_mpz(zb, base, 32), to_mpz(ze, exp, 32);
  mpz_powm(zr, zb, ze, zm);
  from_mpz(expected, 32, zr);
  check_mod_exp_all(base, exp, 32, m, 32, expected, "2048-bit vs mpz_powm");
  mpz_clears(zm, zb, ze, zr, NULL);

  /* Products against mpn_mul / mpn_sqr (GMP limbs are 64 bits here). */
  if (sizeof(mp_limb_t) == sizeof(crisp_limb)) {
    const char *name;
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MUL, name) {
      crisp_limb x[MAX_PRODUCT_LIMBS], y[MAX_PRODUCT_LIMBS], z[2 * MAX_PRODUCT_LIMBS],
          g[2 * MAX_PRODUCT_LIMBS];
      for (int round = 0; round < 60; round++) {
        size_t xn = 1 + test_rand_below(MAX_PRODUCT_LIMBS), yn = 1 + test_rand_below(MAX_PRODUCT_LIMBS);
        if (yn > xn) yn = xn; /* mpn_mul wants xn >= yn */
        fill_shape(x, xn, (int)test_rand_below(SHAPE_COUNT));
        fill_shape(y, yn, (int)test_rand_below(SHAPE_COUNT));
        mpn_mul((mp_limb_t *)g, (const mp_limb_t *)x, (mp_size_t)xn, (const mp_limb_t *)y, (mp_size_t)yn);
        assert_int_equal(crisp_bn_mul(z, x, xn, y, yn), CRISP_OK);
        assert_limbs_equal(z, g, xn + yn, "bn_mul %s vs mpn_mul: %zu x %zu\n", name, xn, yn);
      }
    }
    FOR_EACH_IMPL(CRISP_KERNEL_BN_SQR, name) {
      crisp_limb x[MAX_PRODUCT_LIMBS], z[2 * MAX_PRODUCT_LIMBS], g[2 * MAX_PRODUCT_LIMBS];
      for (int round = 0; round < 60; round++) {
        const size_t n = 1 + test_rand_below(MAX_PRODUCT_LIMBS);
        fill_shape(x, n, (int)test_rand_below(SHAPE_COUNT));
        mpn_sqr((mp_limb_t *)g, (const mp_limb_t *)x, (mp_size_t)n);
        assert_int_equal(crisp_bn_sqr(z, x, n), CRISP_OK);
        assert_limbs_equal(z, g, 2 * n, "bn_sqr %s vs mpn_sqr: %zu\n", name, n);
      }
    }
  }
}
#endif

int main(void) {
  test_seed(0x626e);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_reference, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mul, test_teardown_unpin),
      cmocka_unit_test_teardown(test_sqr, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mul_add, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mont_inv, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mont_mul, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mont_sqr, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mont_r2, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mod_exp_small, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mod_exp_large, test_teardown_unpin),
      cmocka_unit_test_teardown(test_errors_products, test_teardown_unpin),
      cmocka_unit_test_teardown(test_errors_montgomery, test_teardown_unpin),
#ifdef CRISP_TEST_GMP
      cmocka_unit_test_teardown(test_gmp, test_teardown_unpin),
      cmocka_unit_test_teardown(test_gmp_mont, test_teardown_unpin),
#endif
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
