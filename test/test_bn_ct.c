/* test/test_bn_ct.c - constant-time check of crisp_bn_mod_exp,
 * crisp_bn_mod_exp2, crisp_bn_mod_exp_crt, the prepared CRT key
 * (crisp_bn_crt_key_new, crisp_bn_crt_key_exp) and
 * crisp_bn_mont_mul / crisp_bn_mont_sqr for every implementation this CPU
 * supports. Secret inputs (base, exponent, Montgomery operands) are marked
 * undefined for valgrind memcheck, which then reports any branch or memory
 * address computed from them; meson runs this binary under
 * `valgrind --error-exitcode=1`. Results are marked defined again before
 * they are compared with the generic implementation's, so the test also
 * fails on a wrong answer when run without valgrind. valgrind 3.19 does
 * not emulate AVX-512, so under valgrind avx512* implementations are skipped
 * (and said so); natively they are still compared. Its virtual CPU also
 * hides ADX, so the kernels are additionally called directly through their
 * descriptors (the static library's registry), which checks x86_64-adx. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <valgrind/memcheck.h>

#include "common.h"
#include "crisp/crisp.h"
#include "dispatch/registry.h"

#define MAX_LIMBS 64

typedef struct ct_case {
  size_t n;  /* modulus limbs */
  size_t en; /* exponent limbs */
} ct_case;

/* Kernel-special sizes (16, 24, 32, 48, 64 limbs), a general one, tiny ones;
 * long exponents only where valgrind stays fast. */
static const ct_case cases[] = {{1, 1},  {3, 2},   {8, 8},  {16, 16}, {17, 4},
                                {24, 6}, {32, 32}, {48, 2}, {64, 2}};

static int skipped_under_valgrind(const char *name) {
  if (RUNNING_ON_VALGRIND && strncmp(name, "avx512", 6) == 0) {
    printf("# %s skipped: valgrind does not emulate AVX-512\n", name);
    return 1;
  }
  return 0;
}

/* An odd modulus with its top limb set, and a value below it. */
static void make_modulus(crisp_limb *m, size_t n) {
  memset(m, 0, MAX_LIMBS * sizeof(crisp_limb));
  test_fill_random(m, n * sizeof(crisp_limb));
  m[0] |= 1;
  m[n - 1] |= (crisp_limb)1 << 63;
}

/* Below m, with the top bit clear (m's is set), so the front-ends' range
 * check is decided by that bit alone: see mark_secret. */
static void make_below(crisp_limb *a, const crisp_limb *m, size_t n) {
  test_fill_random(a, n * sizeof(crisp_limb));
  a[n - 1] %= m[n - 1];
  a[n - 1] &= ~((crisp_limb)1 << 63);
}

/* Marks an operand secret for memcheck, all but its most significant byte.
 * That byte (top bit 0 against the modulus's 1) is the one public fact that
 * makes "a < m" public, so the front-ends' range check, the only branch
 * they take on an operand, needs no suppression; every other branch or
 * address derived from the operand is reported. */
static void mark_secret(crisp_limb *a, size_t n) {
  VALGRIND_MAKE_MEM_UNDEFINED(a, n * sizeof(crisp_limb) - 1);
}

static void test_mod_exp_ct(void **state) {
  (void)state;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const size_t n = cases[c].n, en = cases[c].en;
    crisp_limb m[MAX_LIMBS], base[MAX_LIMBS], exp[MAX_LIMBS], expected[MAX_LIMBS], r[MAX_LIMBS];
    make_modulus(m, n);
    make_below(base, m, n);
    test_fill_random(exp, en * sizeof(crisp_limb));
    exp[en - 1] |= (crisp_limb)1 << 63;

    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_MUL, "generic"), CRISP_OK);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, "generic"), CRISP_OK);
    assert_int_equal(crisp_bn_mod_exp(expected, base, exp, en, m, n), CRISP_OK);

    const char *name;
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MONT_MUL, name) {
      if (skipped_under_valgrind(name)) continue;
      /* the ladder squares with the same family when there is one */
      if (crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, name) != CRISP_OK)
        assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, "generic"), CRISP_OK);
      crisp_limb secret_base[MAX_LIMBS], secret_exp[MAX_LIMBS];
      memcpy(secret_base, base, sizeof secret_base);
      memcpy(secret_exp, exp, sizeof secret_exp);
      mark_secret(secret_base, n);
      VALGRIND_MAKE_MEM_UNDEFINED(secret_exp, en * sizeof(crisp_limb));
      int status = crisp_bn_mod_exp(r, secret_base, secret_exp, en, m, n);
      VALGRIND_MAKE_MEM_DEFINED(r, n * sizeof(crisp_limb));
      assert_int_equal(status, CRISP_OK);
      if (memcmp(r, expected, n * sizeof(crisp_limb)) != 0)
        fail_msg("bn_mod_exp %s: n=%zu en=%zu differs from generic", name, n, en);
    }
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, NULL), CRISP_OK);
  }
}

static void test_mont_ct(void **state) {
  (void)state;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const size_t n = cases[c].n;
    crisp_limb m[MAX_LIMBS], a[MAX_LIMBS], b[MAX_LIMBS], expected_mul[MAX_LIMBS], expected_sqr[MAX_LIMBS];
    crisp_limb r[MAX_LIMBS];
    make_modulus(m, n);
    make_below(a, m, n);
    make_below(b, m, n);
    const crisp_limb minv = crisp_bn_mont_inv(m[0]);

    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_MUL, "generic"), CRISP_OK);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, "generic"), CRISP_OK);
    assert_int_equal(crisp_bn_mont_mul(expected_mul, a, b, m, n, minv), CRISP_OK);
    assert_int_equal(crisp_bn_mont_sqr(expected_sqr, a, m, n, minv), CRISP_OK);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, NULL), CRISP_OK);

    const char *name;
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MONT_MUL, name) {
      if (skipped_under_valgrind(name)) continue;
      crisp_limb secret_a[MAX_LIMBS], secret_b[MAX_LIMBS];
      memcpy(secret_a, a, sizeof secret_a);
      memcpy(secret_b, b, sizeof secret_b);
      mark_secret(secret_a, n);
      mark_secret(secret_b, n);
      int status = crisp_bn_mont_mul(r, secret_a, secret_b, m, n, minv);
      VALGRIND_MAKE_MEM_DEFINED(r, n * sizeof(crisp_limb));
      assert_int_equal(status, CRISP_OK);
      if (memcmp(r, expected_mul, n * sizeof(crisp_limb)) != 0)
        fail_msg("bn_mont_mul %s: n=%zu differs from generic", name, n);
    }
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MONT_SQR, name) {
      if (skipped_under_valgrind(name)) continue;
      crisp_limb secret_a[MAX_LIMBS];
      memcpy(secret_a, a, sizeof secret_a);
      mark_secret(secret_a, n);
      int status = crisp_bn_mont_sqr(r, secret_a, m, n, minv);
      VALGRIND_MAKE_MEM_DEFINED(r, n * sizeof(crisp_limb));
      assert_int_equal(status, CRISP_OK);
      if (memcmp(r, expected_sqr, n * sizeof(crisp_limb)) != 0)
        fail_msg("bn_mont_sqr %s: n=%zu differs from generic", name, n);
    }
  }
}

/* 1 when this kernel may run here: the CPU has it, or valgrind (which
 * executes BMI2 / ADX whatever its virtual CPUID says) runs a non-AVX-512
 * one. */
static int runnable(crisp_kernel kernel, const char *name) {
  for (size_t i = 0; i < crisp_impl_count(kernel); i++)
    if (strcmp(crisp_impl_name_at(kernel, i), name) == 0 && crisp_impl_supported_at(kernel, i)) return 1;
  return RUNNING_ON_VALGRIND && strncmp(name, "avx512", 6) != 0;
}

/* The kernels called directly, below the front-ends' range checks. */
static void test_kernels_ct(void **state) {
  (void)state;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const size_t n = cases[c].n;
    crisp_limb m[MAX_LIMBS], a[MAX_LIMBS], b[MAX_LIMBS], expected_mul[MAX_LIMBS], expected_sqr[MAX_LIMBS];
    crisp_limb r[MAX_LIMBS], secret_a[MAX_LIMBS], secret_b[MAX_LIMBS];
    make_modulus(m, n);
    make_below(a, m, n);
    make_below(b, m, n);
    const crisp_limb minv = crisp_bn_mont_inv(m[0]);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_MUL, "generic"), CRISP_OK);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, "generic"), CRISP_OK);
    assert_int_equal(crisp_bn_mont_mul(expected_mul, a, b, m, n, minv), CRISP_OK);
    assert_int_equal(crisp_bn_mont_sqr(expected_sqr, a, m, n, minv), CRISP_OK);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_MUL, NULL), CRISP_OK);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, NULL), CRISP_OK);
    for (size_t k = 0; k < crisp_registry_count(CRISP_KERNEL_BN_MONT_MUL); k++) {
      const crisp_bn_mont_mul_impl *impl = crisp_registry_bn_mont_mul_at(k);
      if (!runnable(CRISP_KERNEL_BN_MONT_MUL, impl->info.name)) continue;
      memcpy(secret_a, a, sizeof secret_a);
      memcpy(secret_b, b, sizeof secret_b);
      VALGRIND_MAKE_MEM_UNDEFINED(secret_a, n * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_UNDEFINED(secret_b, n * sizeof(crisp_limb));
      impl->mont_mul(r, secret_a, secret_b, m, n, minv);
      VALGRIND_MAKE_MEM_DEFINED(r, n * sizeof(crisp_limb));
      if (memcmp(r, expected_mul, n * sizeof(crisp_limb)) != 0)
        fail_msg("mont_mul kernel %s: n=%zu differs from generic", impl->info.name, n);
    }
    for (size_t k = 0; k < crisp_registry_count(CRISP_KERNEL_BN_MONT_SQR); k++) {
      const crisp_bn_mont_sqr_impl *impl = crisp_registry_bn_mont_sqr_at(k);
      if (!runnable(CRISP_KERNEL_BN_MONT_SQR, impl->info.name)) continue;
      memcpy(secret_a, a, sizeof secret_a);
      VALGRIND_MAKE_MEM_UNDEFINED(secret_a, n * sizeof(crisp_limb));
      impl->mont_sqr(r, secret_a, m, n, minv);
      VALGRIND_MAKE_MEM_DEFINED(r, n * sizeof(crisp_limb));
      if (memcmp(r, expected_sqr, n * sizeof(crisp_limb)) != 0)
        fail_msg("mont_sqr kernel %s: n=%zu differs from generic", impl->info.name, n);
    }
  }
}

/* Two exponentiations at once, bases (all but their top byte) and
 * exponents secret, against two generic single ones. */
static void test_mod_exp2_ct(void **state) {
  (void)state;
  static const ct_case pairs[] = {{2, 2}, {16, 4}, {17, 2}, {24, 2}, {32, 2}};
  for (size_t c = 0; c < sizeof pairs / sizeof pairs[0]; c++) {
    const size_t n = pairs[c].n, en = pairs[c].en;
    crisp_limb m0[MAX_LIMBS], m1[MAX_LIMBS], b0[MAX_LIMBS], b1[MAX_LIMBS], e0[MAX_LIMBS], e1[MAX_LIMBS];
    crisp_limb want0[MAX_LIMBS], want1[MAX_LIMBS], r0[MAX_LIMBS], r1[MAX_LIMBS];
    make_modulus(m0, n);
    make_modulus(m1, n);
    make_below(b0, m0, n);
    make_below(b1, m1, n);
    test_fill_random(e0, en * sizeof(crisp_limb));
    test_fill_random(e1, en * sizeof(crisp_limb));
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_MUL, "generic"), CRISP_OK);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, "generic"), CRISP_OK);
    assert_int_equal(crisp_bn_mod_exp(want0, b0, e0, en, m0, n), CRISP_OK);
    assert_int_equal(crisp_bn_mod_exp(want1, b1, e1, en, m1, n), CRISP_OK);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_MUL, NULL), CRISP_OK);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, NULL), CRISP_OK);
    const char *name;
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MOD_EXP2, name) {
      if (skipped_under_valgrind(name)) continue;
      mark_secret(b0, n);
      mark_secret(b1, n);
      VALGRIND_MAKE_MEM_UNDEFINED(e0, en * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_UNDEFINED(e1, en * sizeof(crisp_limb));
      int status = crisp_bn_mod_exp2(r0, r1, b0, b1, e0, e1, en, m0, m1, n);
      VALGRIND_MAKE_MEM_DEFINED(r0, n * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_DEFINED(r1, n * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_DEFINED(b0, n * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_DEFINED(b1, n * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_DEFINED(e0, en * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_DEFINED(e1, en * sizeof(crisp_limb));
      assert_int_equal(status, CRISP_OK);
      if (memcmp(r0, want0, n * sizeof(crisp_limb)) || memcmp(r1, want1, n * sizeof(crisp_limb)))
        fail_msg("bn_mod_exp2 %s: n=%zu en=%zu differs from generic", name, n, en);
    }
  }
}

/* The RSA private operation with everything secret but the lowest byte of
 * p and q (their parity: crisp_bn_mont_inv branches on it, and every prime
 * but 2 is odd). Nothing else needs to be public: the key and range checks
 * are masks. The key is random (odd "primes" with their top bit set), so
 * the answer is CRISP_E_INVALID (qinv is not q^-1 mod p) with r untouched,
 * after the same work as a match; the status is compared with the generic
 * run's. */
static void test_crt_ct(void **state) {
  (void)state;
  static const size_t halves[] = {2, 8, 16};
  for (size_t c = 0; c < sizeof halves / sizeof halves[0]; c++) {
    const size_t h = halves[c];
    crisp_limb p[MAX_LIMBS], q[MAX_LIMBS], dp[MAX_LIMBS], dq[MAX_LIMBS], qinv[MAX_LIMBS];
    crisp_limb cipher[2 * MAX_LIMBS], want[2 * MAX_LIMBS], r[2 * MAX_LIMBS];
    const crisp_limb e[1] = {65537};
    make_modulus(p, h);
    make_modulus(q, h);
    test_fill_random(dp, h * sizeof(crisp_limb));
    test_fill_random(dq, h * sizeof(crisp_limb));
    make_below(qinv, p, h);
    test_fill_random(cipher, 2 * h * sizeof(crisp_limb));
    cipher[2 * h - 1] >>= 2;
    memset(want, 0, sizeof want);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_MUL, "generic"), CRISP_OK);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, "generic"), CRISP_OK);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MOD_EXP2, "generic"), CRISP_OK);
    const int want_status = crisp_bn_mod_exp_crt(want, cipher, p, q, dp, dq, qinv, h, e, 1);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_MUL, NULL), CRISP_OK);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, NULL), CRISP_OK);
    const char *name;
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MOD_EXP2, name) {
      if (skipped_under_valgrind(name)) continue;
      memset(r, 0, sizeof r);
      VALGRIND_MAKE_MEM_UNDEFINED(cipher, 2 * h * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_UNDEFINED(p + 0, h * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_UNDEFINED(q + 0, h * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_DEFINED(p, 1);
      VALGRIND_MAKE_MEM_DEFINED(q, 1);
      VALGRIND_MAKE_MEM_UNDEFINED(dp, h * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_UNDEFINED(dq, h * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_UNDEFINED(qinv, h * sizeof(crisp_limb));
      int status = crisp_bn_mod_exp_crt(r, cipher, p, q, dp, dq, qinv, h, e, 1);
      VALGRIND_MAKE_MEM_DEFINED(&status, sizeof status);
      VALGRIND_MAKE_MEM_DEFINED(r, 2 * h * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_DEFINED(cipher, 2 * h * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_DEFINED(p, h * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_DEFINED(q, h * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_DEFINED(dp, h * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_DEFINED(dq, h * sizeof(crisp_limb));
      VALGRIND_MAKE_MEM_DEFINED(qinv, h * sizeof(crisp_limb));
      assert_int_equal(status, want_status);
      if (memcmp(r, want, 2 * h * sizeof(crisp_limb)))
        fail_msg("crisp_bn_mod_exp_crt %s: half=%zu differs from generic", name, h);
    }
  }
}

/* Marks a CRT key's values secret but for the lowest byte of p and q (their
 * parity), as test_crt_ct does. */
static void mark_key_secret(crisp_limb *p, crisp_limb *q, crisp_limb *dp, crisp_limb *dq, crisp_limb *qinv,
                            size_t h) {
  VALGRIND_MAKE_MEM_UNDEFINED(p, h * sizeof(crisp_limb));
  VALGRIND_MAKE_MEM_UNDEFINED(q, h * sizeof(crisp_limb));
  VALGRIND_MAKE_MEM_DEFINED(p, 1);
  VALGRIND_MAKE_MEM_DEFINED(q, 1);
  VALGRIND_MAKE_MEM_UNDEFINED(dp, h * sizeof(crisp_limb));
  VALGRIND_MAKE_MEM_UNDEFINED(dq, h * sizeof(crisp_limb));
  VALGRIND_MAKE_MEM_UNDEFINED(qinv, h * sizeof(crisp_limb));
}

static void mark_key_public(crisp_limb *p, crisp_limb *q, crisp_limb *dp, crisp_limb *dq, crisp_limb *qinv,
                            size_t h) {
  VALGRIND_MAKE_MEM_DEFINED(p, h * sizeof(crisp_limb));
  VALGRIND_MAKE_MEM_DEFINED(q, h * sizeof(crisp_limb));
  VALGRIND_MAKE_MEM_DEFINED(dp, h * sizeof(crisp_limb));
  VALGRIND_MAKE_MEM_DEFINED(dq, h * sizeof(crisp_limb));
  VALGRIND_MAKE_MEM_DEFINED(qinv, h * sizeof(crisp_limb));
}

/* The prepared key: crisp_bn_crt_key_new with p, q, dp, dq and qinv secret
 * (all but p's and q's lowest byte), then crisp_bn_crt_key_exp with c
 * secret on that key, whose copies of the values, n = p q and R^2 mod p and
 * mod q are secret in turn (memcheck follows definedness through the copies
 * and the arithmetic). The key is p with its partner q = p - 2 and
 * qinv = (p - 1) / 2 = q^-1 mod p (no prime search under valgrind), dp and
 * dq random: prepared with e, key_exp fails the fault check
 * (CRISP_E_MISMATCH, r zero), and without e it returns the result, each
 * compared with the generic one-call form's after the same work. A random
 * qinv must be refused by key_new with the one-call form's status, and
 * c = 2^(128 half) - 1, above p q, must give CRISP_E_RANGE with r
 * untouched. The verdicts are secret until key_new returns: its one branch
 * on its own status (to free a refused key) is test/bn_ct.supp's one
 * entry. */
static void test_crt_key_ct(void **state) {
  (void)state;
  static const size_t halves[] = {2, 8, 16};
  for (size_t c = 0; c < sizeof halves / sizeof halves[0]; c++) {
    const size_t h = halves[c], wide = 2 * h * sizeof(crisp_limb);
    crisp_limb p[MAX_LIMBS], q[MAX_LIMBS], dp[MAX_LIMBS], dq[MAX_LIMBS], qinv[MAX_LIMBS], bad_qinv[MAX_LIMBS];
    crisp_limb cipher[2 * MAX_LIMBS], above[2 * MAX_LIMBS], r[2 * MAX_LIMBS], untouched[2 * MAX_LIMBS];
    crisp_limb want[2][2 * MAX_LIMBS];
    const crisp_limb e[1] = {65537};
    make_modulus(p, h);
    crisp_limb borrow = 2;
    for (size_t i = 0; i < h; i++) {
      q[i] = p[i] - borrow;
      borrow = p[i] < borrow;
      qinv[i] = (p[i] >> 1) | (i + 1 < h ? p[i + 1] << 63 : 0);
    }
    test_fill_random(dp, h * sizeof(crisp_limb));
    test_fill_random(dq, h * sizeof(crisp_limb));
    make_below(bad_qinv, p, h);
    test_fill_random(cipher, wide);
    cipher[2 * h - 1] >>= 2;
    memset(above, 0xff, wide);
    memset(untouched, 0xa5, sizeof untouched);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_MUL, "generic"), CRISP_OK);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, "generic"), CRISP_OK);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MOD_EXP2, "generic"), CRISP_OK);
    int want_status[2];
    for (int with_e = 0; with_e < 2; with_e++)
      want_status[with_e] = crisp_bn_mod_exp_crt(want[with_e], cipher, p, q, dp, dq, qinv, h,
                                                 with_e ? e : NULL, (size_t)with_e);
    assert_int_equal(want_status[0], CRISP_OK);
    assert_int_equal(want_status[1], CRISP_E_MISMATCH);
    crisp_limb refused[2 * MAX_LIMBS];
    const int refused_status = crisp_bn_mod_exp_crt(refused, cipher, p, q, dp, dq, bad_qinv, h, e, 1);
    assert_int_equal(refused_status, CRISP_E_INVALID);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_MUL, NULL), CRISP_OK);
    assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, NULL), CRISP_OK);
    const char *name;
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MOD_EXP2, name) {
      if (skipped_under_valgrind(name)) continue;
      crisp_bn_crt_key *prepared = NULL;
      /* refused: qinv is not q^-1 mod p */
      mark_key_secret(p, q, dp, dq, bad_qinv, h);
      int status = crisp_bn_crt_key_new(&prepared, p, q, dp, dq, bad_qinv, h, e, 1);
      VALGRIND_MAKE_MEM_DEFINED(&status, sizeof status);
      mark_key_public(p, q, dp, dq, bad_qinv, h);
      assert_int_equal(status, refused_status);
      assert_null(prepared);
      for (int with_e = 0; with_e < 2; with_e++) {
        mark_key_secret(p, q, dp, dq, qinv, h);
        status = crisp_bn_crt_key_new(&prepared, p, q, dp, dq, qinv, h, with_e ? e : NULL, (size_t)with_e);
        VALGRIND_MAKE_MEM_DEFINED(&status, sizeof status);
        mark_key_public(p, q, dp, dq, qinv, h);
        assert_int_equal(status, CRISP_OK);
        assert_non_null(prepared);
        memset(r, 0xa5, sizeof r);
        VALGRIND_MAKE_MEM_UNDEFINED(cipher, wide);
        status = crisp_bn_crt_key_exp(r, cipher, prepared);
        VALGRIND_MAKE_MEM_DEFINED(&status, sizeof status);
        VALGRIND_MAKE_MEM_DEFINED(r, wide);
        VALGRIND_MAKE_MEM_DEFINED(cipher, wide);
        assert_int_equal(status, want_status[with_e]);
        if (memcmp(r, want[with_e], wide))
          fail_msg("crisp_bn_crt_key_exp %s: half=%zu%s differs from generic", name, h,
                   with_e ? " with e" : "");
        /* c above p q (secret too) */
        memcpy(r, untouched, wide);
        VALGRIND_MAKE_MEM_UNDEFINED(above, wide);
        status = crisp_bn_crt_key_exp(r, above, prepared);
        VALGRIND_MAKE_MEM_DEFINED(&status, sizeof status);
        VALGRIND_MAKE_MEM_DEFINED(r, wide);
        VALGRIND_MAKE_MEM_DEFINED(above, wide);
        assert_int_equal(status, CRISP_E_RANGE);
        if (memcmp(r, untouched, wide))
          fail_msg("crisp_bn_crt_key_exp %s: half=%zu wrote r for c >= p q", name, h);
        crisp_bn_crt_key_free(prepared);
      }
    }
  }
}

int main(void) {
  test_seed(0x6374696d65ull);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mont_ct),    cmocka_unit_test(test_mod_exp_ct),
      cmocka_unit_test(test_kernels_ct), cmocka_unit_test(test_mod_exp2_ct),
      cmocka_unit_test(test_crt_ct),     cmocka_unit_test(test_crt_key_ct),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
