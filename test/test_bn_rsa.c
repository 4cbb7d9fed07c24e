/* test/test_bn_rsa.c - crisp_bn_mod_exp2 against GMP's mpz_powm (unrelated
 * moduli, exponent edges) and crisp_bn_mod_exp, and crisp_bn_mod_exp_crt
 * against OpenSSL's raw RSA private operation (RSA_NO_PADDING) on freshly
 * generated keys, p > q and p < q, for every bn_mod_exp2 implementation
 * this CPU supports; the fault check through the internal hook, and the
 * implementations' mod_exp2 with that check's powers against GMP and their
 * r2_pair against crisp_bn_mont_r2; every error code. The prepared key
 * (crisp_bn_crt_key_new, crisp_bn_crt_key_exp) beside each CRT check: the
 * same results, refusals and fault check. Links the static library for
 * crisp_bn_mod_exp_crt_hooked and crisp_bn_crt_key_exp_hooked. */
#include "common.h"

#include "bn_internal.h"
#include "dispatch/select.h"

#ifdef CRISP_TEST_GMP
#include <gmp.h>
#endif
#ifdef CRISP_TEST_OPENSSL
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#endif

#define MAX_LIMBS 64

static void fill_modulus(crisp_limb *m, size_t n) {
  test_fill_random(m, n * sizeof *m);
  m[0] |= 1;
  if (!m[n - 1]) m[n - 1] = 1;
}

/* Below m: random, then the top limb forced under m's. */
static void fill_below(crisp_limb *x, const crisp_limb *m, size_t n) {
  test_fill_random(x, n * sizeof *x);
  x[n - 1] = m[n - 1] > 1 ? x[n - 1] % m[n - 1] : 0;
}

/* Exponent edge cases by number: 0 zero, 1 one, 2 all ones, else random. */
static void fill_exponent(crisp_limb *e, size_t en, int kind) {
  memset(e, 0, MAX_LIMBS * sizeof *e);
  if (kind == 1 && en) e[0] = 1;
  if (kind == 2) memset(e, 0xff, en * sizeof *e);
  if (kind >= 3) test_fill_random(e, en * sizeof *e);
}

#ifdef CRISP_TEST_GMP
static void gmp_power(crisp_limb *r, const crisp_limb *b, const crisp_limb *e, size_t en, const crisp_limb *m,
                      size_t n) {
  mpz_t zb, ze, zm, zr;
  mpz_inits(zb, ze, zm, zr, NULL);
  mpz_import(zb, n, -1, sizeof *b, 0, 0, b);
  mpz_import(ze, en ? en : 1, -1, sizeof *e, 0, 0, e);
  if (!en) mpz_set_ui(ze, 0);
  mpz_import(zm, n, -1, sizeof *m, 0, 0, m);
  mpz_powm(zr, zb, ze, zm);
  memset(r, 0, n * sizeof *r);
  size_t count = 0;
  mpz_export(r, &count, -1, sizeof *r, 0, 0, zr);
  mpz_clears(zb, ze, zm, zr, NULL);
}
#else
/* r = b^e mod m through crisp_bn_mod_exp on the generic kernels: the
 * reference for mod_exp2 when GMP is missing. */
static void single_reference(crisp_limb *r, const crisp_limb *b, const crisp_limb *e, size_t en,
                             const crisp_limb *m, size_t n) {
  assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_MUL, "generic"), CRISP_OK);
  assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, "generic"), CRISP_OK);
  assert_int_equal(crisp_bn_mod_exp(r, b, e, en, m, n), CRISP_OK);
  assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_MUL, NULL), CRISP_OK);
  assert_int_equal(crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, NULL), CRISP_OK);
}
#endif

static void reference_power(crisp_limb *r, const crisp_limb *b, const crisp_limb *e, size_t en,
                            const crisp_limb *m, size_t n) {
#ifdef CRISP_TEST_GMP
  gmp_power(r, b, e, en, m, n);
#else
  single_reference(r, b, e, en, m, n);
#endif
}

/* Every bn_mod_exp2 implementation on (b0, e0, m0) and (b1, e1, m1), n
 * limbs each with en-limb exponents, against want0 and want1, into
 * poisoned outputs and in place (r0 == b0 and r1 == b1 are allowed); what
 * names the case in a failure. */
static void check_mod_exp2_impls(const crisp_limb *want0, const crisp_limb *want1, const crisp_limb *b0,
                                 const crisp_limb *b1, const crisp_limb *e0, const crisp_limb *e1, size_t en,
                                 const crisp_limb *m0, const crisp_limb *m1, size_t n, const char *what) {
  crisp_limb r0[MAX_LIMBS], r1[MAX_LIMBS];
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MOD_EXP2, name) {
    memset(r0, 0xa5, sizeof r0);
    memset(r1, 0x5a, sizeof r1);
    assert_int_equal(crisp_bn_mod_exp2(r0, r1, b0, b1, e0, e1, en, m0, m1, n), CRISP_OK);
    if (memcmp(r0, want0, n * sizeof *r0) || memcmp(r1, want1, n * sizeof *r1))
      fail_msg("bn_mod_exp2 %s: %s differs from the reference", name, what);
    memcpy(r0, b0, n * sizeof *r0);
    memcpy(r1, b1, n * sizeof *r1);
    assert_int_equal(crisp_bn_mod_exp2(r0, r1, r0, r1, e0, e1, en, m0, m1, n), CRISP_OK);
    if (memcmp(r0, want0, n * sizeof *r0) || memcmp(r1, want1, n * sizeof *r1))
      fail_msg("bn_mod_exp2 %s in place: %s differs from the reference", name, what);
  }
}

static void test_mod_exp2(void **state) {
  (void)state;
  static const size_t sizes[] = {1, 2, 3, 8, 15, 16, 17, 24, 32, 33, 48};
  const size_t rounds = test_scaled(2);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    const size_t n = sizes[s];
    for (size_t round = 0; round < rounds; round++) {
      for (int kind = 0; kind < 6; kind++) {
        /* exponents: zero length, then 1 limb, then up to n limbs */
        const size_t en = kind == 0 ? 0 : kind == 4 ? 1 : (n < 16 ? n : 16);
        crisp_limb m0[MAX_LIMBS], m1[MAX_LIMBS], b0[MAX_LIMBS], b1[MAX_LIMBS], e0[MAX_LIMBS], e1[MAX_LIMBS];
        crisp_limb want0[MAX_LIMBS], want1[MAX_LIMBS];
        fill_modulus(m0, n);
        fill_modulus(m1, n);
        if (round == 1) m1[n - 1] |= (crisp_limb)1 << 63; /* full top limb against a short one */
        fill_below(b0, m0, n);
        fill_below(b1, m1, n);
        if (kind == 5) b0[0] = 0, memset(b0, 0, n * sizeof *b0); /* base 0 */
        fill_exponent(e0, en, kind);
        fill_exponent(e1, en, kind == 2 ? 3 : kind); /* all ones against random */
        reference_power(want0, b0, e0, en, m0, n);
        reference_power(want1, b1, e1, en, m1, n);
        char what[64];
        snprintf(what, sizeof what, "n=%zu en=%zu kind=%d round=%zu", n, en, kind, round);
        check_mod_exp2_impls(want0, want1, b0, b1, e0, e1, en, m0, m1, n, what);
      }
    }
  }
}

/* Operands at the edges of the dual kernel's arithmetic, at the sizes it
 * takes: moduli of all ones (every radix 2^52 digit at its maximum, and the
 * almost-reduced values below 2m near 2^(64n + 1)), a full top limb with
 * the rest zero but the lowest bit, a top limb of 1; bases m - 1, m - 2,
 * all ones below m, a single top bit; exponents all ones (every window's
 * squarings of the largest values) and random. Against GMP, or the
 * generic single exponentiation without it. */
static void fill_edge_modulus(crisp_limb *m, size_t n, int shape) {
  switch (shape) {
    case 0: /* all ones */
      memset(m, 0xff, n * sizeof *m);
      break;
    case 1: /* 2^(64n - 1) + 1 */
      memset(m, 0, n * sizeof *m);
      m[n - 1] = (crisp_limb)1 << 63;
      m[0] = 1;
      break;
    case 2: /* a top limb of 1, all ones below */
      memset(m, 0xff, n * sizeof *m);
      m[n - 1] = 1;
      break;
    default: /* random with the top bit set */
      fill_modulus(m, n);
      m[n - 1] |= (crisp_limb)1 << 63;
  }
}

/* x -= small, borrowing across limbs (x >= small). */
static void subtract_small(crisp_limb *x, size_t n, crisp_limb small) {
  crisp_limb borrow = small;
  for (size_t i = 0; i < n; i++) {
    const crisp_limb before = x[i];
    x[i] -= borrow;
    borrow = x[i] > before;
  }
}

static void fill_edge_base(crisp_limb *b, const crisp_limb *m, size_t n, int shape) {
  switch (shape) {
    case 0: /* m - 1 */
    case 1: /* m - 2 */
      memcpy(b, m, n * sizeof *b);
      subtract_small(b, n, shape == 0 ? 1 : 2);
      break;
    case 2: /* all ones below m's top limb */
      memset(b, 0xff, n * sizeof *b);
      b[n - 1] = m[n - 1] - 1;
      break;
    default: /* one bit: the top one, or 2^(64(n-1)) when m's top limb is at most 2^63 */
      memset(b, 0, n * sizeof *b);
      b[n - 1] = m[n - 1] > (crisp_limb)1 << 63 ? (crisp_limb)1 << 63 : 1;
  }
}

static void test_mod_exp2_edges(void **state) {
  (void)state;
  static const size_t sizes[] = {16, 24, 32};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    const size_t n = sizes[s];
    for (int modulus = 0; modulus < 4; modulus++) {
      for (int base = 0; base < 4; base++) {
        for (int exponent = 2; exponent < 4; exponent++) {
          const size_t en = n;
          crisp_limb m0[MAX_LIMBS], m1[MAX_LIMBS], b0[MAX_LIMBS], b1[MAX_LIMBS], e0[MAX_LIMBS], e1[MAX_LIMBS];
          crisp_limb want0[MAX_LIMBS], want1[MAX_LIMBS];
          fill_edge_modulus(m0, n, modulus);
          fill_edge_modulus(m1, n, (modulus + 1) % 4);
          fill_edge_base(b0, m0, n, base);
          fill_edge_base(b1, m1, n, (base + 2) % 4);
          assert_true(bn_less_than(b0, m0, n) && bn_less_than(b1, m1, n));
          fill_exponent(e0, en, exponent);
          fill_exponent(e1, en, exponent == 2 ? 3 : 2);
          reference_power(want0, b0, e0, en, m0, n);
          reference_power(want1, b1, e1, en, m1, n);
          char what[64];
          snprintf(what, sizeof what, "n=%zu modulus=%d base=%d exponent=%d", n, modulus, base, exponent);
          check_mod_exp2_impls(want0, want1, b0, b1, e0, e1, en, m0, m1, n, what);
        }
      }
    }
  }
}

/* Long exponents at the sizes the dual kernel takes, against GMP, or the
 * single exponentiation on the generic kernels without it. */
static void test_mod_exp2_long(void **state) {
  (void)state;
  static const size_t sizes[] = {16, 24, 32};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    const size_t n = sizes[s], en = n;
    /* zeroed only to quiet gcc 12's -Wmaybe-uninitialized: the fills
     * write every limb the test reads */
    crisp_limb m0[MAX_LIMBS] = {0}, m1[MAX_LIMBS] = {0}, b0[MAX_LIMBS], b1[MAX_LIMBS], e0[MAX_LIMBS],
               e1[MAX_LIMBS];
    crisp_limb want0[MAX_LIMBS], want1[MAX_LIMBS];
    fill_modulus(m0, n);
    fill_modulus(m1, n);
    m0[n - 1] |= (crisp_limb)1 << 63;
    m1[n - 1] |= (crisp_limb)1 << 63;
    fill_below(b0, m0, n);
    fill_below(b1, m1, n);
    /* m - 1 as a base: (-1)^e */
    memcpy(b1, m1, n * sizeof *b1);
    b1[0] -= 1;
    fill_exponent(e0, en, 3);
    fill_exponent(e1, en, 3);
    reference_power(want0, b0, e0, en, m0, n);
    reference_power(want1, b1, e1, en, m1, n);
    char what[32];
    snprintf(what, sizeof what, "n=%zu en=%zu", n, en);
    check_mod_exp2_impls(want0, want1, b0, b1, e0, e1, en, m0, m1, n, what);
  }
}

static void test_mod_exp2_errors(void **state) {
  (void)state;
  const size_t n = 4;
  crisp_limb m[8] = {0}, b[8] = {0}, e[8] = {0}, r0[16], r1[16], even[8] = {0}, low_top[8] = {0};
  fill_modulus(m, n);
  fill_below(b, m, n);
  e[0] = 3;
  memcpy(even, m, sizeof even);
  even[0] &= ~(crisp_limb)1;
  memcpy(low_top, m, sizeof low_top);
  low_top[n - 1] = 0;
  memset(r0, 0x77, sizeof r0);
  memset(r1, 0x77, sizeof r1);
  crisp_limb untouched[16];
  memset(untouched, 0x77, sizeof untouched);
  assert_int_equal(crisp_bn_mod_exp2(NULL, r1, b, b, e, e, 1, m, m, n), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp2(r0, NULL, b, b, e, e, 1, m, m, n), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, NULL, b, e, e, 1, m, m, n), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, NULL, e, e, 1, m, m, n), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, b, NULL, e, 1, m, m, n), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, b, e, NULL, 1, m, m, n), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, b, e, e, 1, NULL, m, n), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, b, e, e, 1, m, NULL, n), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, b, e, e, 1, m, m, 0), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, b, e, e, 1, even, m, n), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, b, e, e, 1, m, even, n), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, b, e, e, 1, low_top, m, n), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp2(r0, r0 + 2, b, b, e, e, 1, m, m, n),
                   CRISP_E_INVALID);                                                     /* r0, r1 overlap */
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, r0, e, e, 1, m, m, n), CRISP_E_INVALID); /* r0 = b1 */
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, b, r1, e, 1, m, m, n), CRISP_E_INVALID); /* r1 = e0 */
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, b, e, e, 1, m, r0, n), CRISP_E_INVALID); /* r0 = m1 */
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, m, b, e, e, 1, m, m, n), CRISP_E_RANGE);    /* b0 = m0 */
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, m, e, e, 1, m, m, n), CRISP_E_RANGE);    /* b1 = m1 */
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, b, e, e, 1, m, m, CRISP_BN_MONT_MAX_LIMBS + 1),
                   CRISP_E_RANGE);
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, b, e, e, SIZE_MAX, m, m, n), CRISP_E_RANGE);
  assert_memory_equal(r0, untouched, sizeof r0);
  assert_memory_equal(r1, untouched, sizeof r1);
  /* en == 0 needs no exponent pointers */
  assert_int_equal(crisp_bn_mod_exp2(r0, r1, b, b, NULL, NULL, 0, m, m, n), CRISP_OK);
  assert_int_equal(r0[0], 1);
  assert_int_equal(r1[0], 1);
}

/* ---- RSA by CRT --------------------------------------------------------- */

/* Every implementation's r2_pair (the CRT's R^2 mod p and mod q) against
 * crisp_bn_mont_r2, at the sizes the IFMA kernel takes and around them:
 * moduli random, of a full top limb, of a top limb of 1, all ones, and
 * 2^(64(n-1)) + 1 (the doublings' start just below m); a size may be
 * refused, but each implementation must take one. */
static void test_r2_pair(void **state) {
  (void)state;
  static const size_t sizes[] = {2, 15, 16, 17, 24, 32, 48};
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MOD_EXP2, name) {
    const crisp_bn_mod_exp2_impl *impl = crisp_active_bn_mod_exp2();
    if (!impl->r2_pair) continue;
    size_t checked = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      const size_t n = sizes[s];
      for (int kind = 0; kind < 5; kind++) {
        crisp_limb m0[MAX_LIMBS], m1[MAX_LIMBS], r0[MAX_LIMBS], r1[MAX_LIMBS], want0[MAX_LIMBS],
            want1[MAX_LIMBS];
        fill_modulus(m0, n), fill_modulus(m1, n);
        if (kind == 1) m0[n - 1] |= (crisp_limb)1 << 63;
        if (kind == 2) m0[n - 1] = 1, m1[n - 1] |= (crisp_limb)1 << 63;
        if (kind == 3) memset(m0, 0xff, n * sizeof *m0);
        if (kind == 4) memset(m1, 0, n * sizeof *m1), m1[0] = 1, m1[n - 1] = 1;
        assert_int_equal(crisp_bn_mont_r2(want0, m0, n), CRISP_OK);
        assert_int_equal(crisp_bn_mont_r2(want1, m1, n), CRISP_OK);
        crisp_limb *const r2[2] = {r0, r1};
        const crisp_limb *const modulus[2] = {m0, m1};
        const crisp_limb minv[2] = {crisp_bn_mont_inv(m0[0]), crisp_bn_mont_inv(m1[0])};
        const int status = impl->r2_pair(r2, modulus, minv, n);
        if (status == CRISP_E_UNSUPPORTED) continue;
        assert_int_equal(status, CRISP_OK);
        if (memcmp(r0, want0, n * sizeof *r0) || memcmp(r1, want1, n * sizeof *r1))
          fail_msg("r2_pair %s: n=%zu modulus case %d differs", name, n, kind);
        checked++;
      }
    }
    if (!checked) fail_msg("r2_pair %s takes no size", name);
  }
}

/* The check's bases, written when mod_exp2 asks for them (as the CRT
 * writes Garner's result reduced mod p and mod q there). */
typedef struct check_bases {
  crisp_limb *base[2];
  const crisp_limb *value[2];
  size_t n;
  int calls;
} check_bases;

static void write_check_bases(void *context) {
  check_bases *bases = context;
  for (int l = 0; l < 2; l++) memcpy(bases->base[l], bases->value[l], bases->n * sizeof(crisp_limb));
  bases->calls++;
}

/* Every implementation's mod_exp2 with the CRT's fault check (two powers
 * by one public exponent after the pair, on its setup) against GMP at the
 * sizes the IFMA kernel takes, check exponents 1, 3, 65537, all ones and
 * random over two limbs, bases random, zero and m - 1; the pair's results
 * too. A zero check exponent is left to the caller, and so may be a size
 * (each implementation with a mod_exp2 must take at least one). */
static void test_mod_exp2_check(void **state) {
  (void)state;
  static const size_t sizes[] = {16, 24, 32};
  size_t checked = 0;
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MOD_EXP2, name) {
    const crisp_bn_mod_exp2_impl *impl = crisp_active_bn_mod_exp2();
    if (!impl->mod_exp2) continue;
    const size_t checked_before = checked;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      const size_t n = sizes[s];
      for (int kind = 0; kind < 6; kind++) {
        crisp_limb m0[MAX_LIMBS], m1[MAX_LIMBS], b0[MAX_LIMBS], b1[MAX_LIMBS], r2_0[MAX_LIMBS],
            r2_1[MAX_LIMBS], x0[MAX_LIMBS], x1[MAX_LIMBS], d0[MAX_LIMBS], d1[MAX_LIMBS];
        crisp_limb r0[MAX_LIMBS], r1[MAX_LIMBS], y0[MAX_LIMBS], y1[MAX_LIMBS], want0[MAX_LIMBS],
            want1[MAX_LIMBS], e[2] = {0, 0};
        const size_t en = kind >= 4 ? 2 : 1;
        static const crisp_limb small[4] = {0, 1, 3, 65537};
        if (kind < 4) e[0] = small[kind];
        if (kind == 4) e[0] = e[1] = ~(crisp_limb)0;
        if (kind == 5) test_fill_random(e, sizeof e);
        fill_modulus(m0, n), fill_modulus(m1, n);
        fill_below(b0, m0, n), fill_below(b1, m1, n);
        fill_below(x0, m0, n), fill_below(x1, m1, n);
        test_fill_random(d0, n * sizeof *d0), test_fill_random(d1, n * sizeof *d1);
        if (kind == 2) memset(b1, 0, n * sizeof *b1);
        if (kind == 3) memcpy(b0, m0, n * sizeof *b0), b0[0] -= 1; /* m0 is odd: no borrow */
        assert_int_equal(crisp_bn_mont_r2(r2_0, m0, n), CRISP_OK);
        assert_int_equal(crisp_bn_mont_r2(r2_1, m1, n), CRISP_OK);
        const crisp_bn_exp_lane lane[2] = {{r0, x0, d0, m0, crisp_bn_mont_inv(m0[0]), r2_0},
                                           {r1, x1, d1, m1, crisp_bn_mont_inv(m1[0]), r2_1}};
        crisp_limb base0[MAX_LIMBS], base1[MAX_LIMBS];
        check_bases bases = {{base0, base1}, {b0, b1}, n, 0};
        const crisp_bn_exp2_check check = {write_check_bases, &bases, {base0, base1}, {y0, y1}, e, en};
        const int status = impl->mod_exp2(lane, n, n, &check);
        if (kind == 0 || status == CRISP_E_UNSUPPORTED) {
          assert_int_equal(status, CRISP_E_UNSUPPORTED);
          assert_int_equal(bases.calls, 0);
          continue;
        }
        assert_int_equal(status, CRISP_OK);
        assert_int_equal(bases.calls, 1);
        reference_power(want0, x0, d0, n, m0, n);
        reference_power(want1, x1, d1, n, m1, n);
        if (memcmp(r0, want0, n * sizeof *r0) || memcmp(r1, want1, n * sizeof *r1))
          fail_msg("mod_exp2 %s with check: n=%zu case %d, the pair differs", name, n, kind);
        reference_power(want0, b0, e, en, m0, n);
        reference_power(want1, b1, e, en, m1, n);
        if (memcmp(y0, want0, n * sizeof *y0) || memcmp(y1, want1, n * sizeof *y1))
          fail_msg("mod_exp2 %s check: n=%zu exponent case %d differs", name, n, kind);
        checked++;
      }
    }
    if (checked == checked_before) fail_msg("mod_exp2 %s took no check", name);
  }
  printf("# %zu mod_exp2 check cases checked\n", checked);
}

typedef struct rsa_key {
  size_t half;
  crisp_limb n[2 * MAX_LIMBS / 2], p[MAX_LIMBS / 2], q[MAX_LIMBS / 2], dp[MAX_LIMBS / 2], dq[MAX_LIMBS / 2],
      qinv[MAX_LIMBS / 2], e[1];
} rsa_key;

/* Flips bit 5 of m1: one faulty half, as in the Bellcore attack. */
static void flip_bit(crisp_limb *m1, size_t half) {
  (void)half;
  m1[0] ^= (crisp_limb)1 << 5;
}

/* A prepared key from copies of key's values, the copies wiped at once
 * (bn.h: the key holds its own); with or without e. */
static crisp_bn_crt_key *prepared_key(const rsa_key *key, int with_e) {
  rsa_key copy = *key;
  crisp_bn_crt_key *prepared = NULL;
  assert_int_equal(crisp_bn_crt_key_new(&prepared, copy.p, copy.q, copy.dp, copy.dq, copy.qinv, key->half,
                                        with_e ? copy.e : NULL, with_e ? 1 : 0),
                   CRISP_OK);
  assert_non_null(prepared);
  memset(&copy, 0, sizeof copy);
  __asm__ __volatile__("" : : "r"(&copy) : "memory"); /* the wipe is not dead */
  return prepared;
}

/* Checks one c against an expected r on every implementation; also the
 * fault hook, e == NULL, and r == c. The same through prepared (made once
 * by the caller, with e, and used for every c and implementation) and a
 * key without e made here under each implementation: exactly the one-call
 * result. */
static void check_crt(const rsa_key *key, const crisp_bn_crt_key *prepared, const crisp_limb *c,
                      const crisp_limb *want, const char *what) {
  const size_t h = key->half, nn = 2 * h;
  crisp_limb r[MAX_LIMBS + 1], one_call[MAX_LIMBS + 1]; /* a limb past the largest r */
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MOD_EXP2, name) {
    memset(r, 0xa5, sizeof r);
    assert_int_equal(crisp_bn_mod_exp_crt(r, c, key->p, key->q, key->dp, key->dq, key->qinv, h, key->e, 1),
                     CRISP_OK);
    if (memcmp(r, want, nn * sizeof *r)) fail_msg("crt %s: %s, %zu-bit key differs", name, what, 128 * h);
    memcpy(one_call, r, sizeof r);
    memset(r, 0xa5, sizeof r);
    assert_int_equal(crisp_bn_mod_exp_crt(r, c, key->p, key->q, key->dp, key->dq, key->qinv, h, NULL, 0),
                     CRISP_OK);
    if (memcmp(r, want, nn * sizeof *r)) fail_msg("crt %s without e: %s differs", name, what);
    memcpy(r, c, nn * sizeof *r);
    assert_int_equal(crisp_bn_mod_exp_crt(r, r, key->p, key->q, key->dp, key->dq, key->qinv, h, key->e, 1),
                     CRISP_OK);
    if (memcmp(r, want, nn * sizeof *r)) fail_msg("crt %s in place: %s differs", name, what);
    /* a fault: detected, r wiped */
    memset(r, 0xa5, sizeof r);
    assert_int_equal(crisp_bn_mod_exp_crt_hooked(r, c, key->p, key->q, key->dp, key->dq, key->qinv, h, key->e,
                                                 1, flip_bit),
                     CRISP_E_MISMATCH);
    for (size_t i = 0; i < nn; i++)
      if (r[i]) fail_msg("crt %s: r not wiped after a fault (%s)", name, what);

    /* the prepared key, in place (apart: without e below, and
     * test_bounds): the one-call result, the limb past r untouched */
    memset(r, 0xa5, sizeof r);
    memcpy(r, c, nn * sizeof *r);
    assert_int_equal(crisp_bn_crt_key_exp(r, r, prepared), CRISP_OK);
    if (memcmp(r, one_call, nn * sizeof *r) || r[nn] != 0xa5a5a5a5a5a5a5a5ull)
      fail_msg("crt key %s: %s, %zu-bit key differs from the one-call form", name, what, 128 * h);
    memset(r, 0xa5, sizeof r);
    assert_int_equal(crisp_bn_crt_key_exp_hooked(r, c, prepared, flip_bit), CRISP_E_MISMATCH);
    for (size_t i = 0; i < nn; i++)
      if (r[i]) fail_msg("crt key %s: r not wiped after a fault (%s)", name, what);
    crisp_bn_crt_key *unchecked = prepared_key(key, 0);
    memset(r, 0xa5, sizeof r);
    assert_int_equal(crisp_bn_crt_key_exp(r, c, unchecked), CRISP_OK);
    if (memcmp(r, want, nn * sizeof *r)) fail_msg("crt key %s without e: %s differs", name, what);
    /* without e a fault goes unseen: the hook did fault (one-limb halves
     * only, where it costs nothing) */
    if (h == 1) {
      assert_int_equal(crisp_bn_crt_key_exp_hooked(r, c, unchecked, flip_bit), CRISP_OK);
      if (!memcmp(r, want, nn * sizeof *r))
        fail_msg("crt key %s: the fault hook changed nothing (%s)", name, what);
    }
    crisp_bn_crt_key_free(unchecked);
  }
}

/* crisp_bn_crt_key_new refuses a key with status, as crisp_bn_mod_exp_crt
 * does, and leaves *key NULL. */
static void check_key_refused(int status, const crisp_limb *p, const crisp_limb *q, const crisp_limb *dp,
                              const crisp_limb *dq, const crisp_limb *qinv, size_t h, const crisp_limb *e,
                              size_t en, const char *what) {
  crisp_bn_crt_key *key = (crisp_bn_crt_key *)&key; /* not NULL before */
  const int got = crisp_bn_crt_key_new(&key, p, q, dp, dq, qinv, h, e, en);
  if (got != status) fail_msg("crt_key_new: %s, half=%zu: status %d, not %d", what, h, got, status);
  if (key) fail_msg("crt_key_new: %s, half=%zu: *key not NULL after a refusal", what, h);
}

/* Runs the CRT on a "key" whose p and q are not coprime, with e and
 * without, on every implementation: each must refuse it with
 * CRISP_E_INVALID and leave r as it was (the check mod p and mod q would
 * otherwise vouch for a result that is wrong mod p*q); so must
 * crisp_bn_crt_key_new. */
static void check_crt_refused(const crisp_limb *c, const crisp_limb *p, const crisp_limb *q,
                              const crisp_limb *dp, const crisp_limb *dq, const crisp_limb *qinv, size_t h,
                              const crisp_limb *e, const char *what) {
  crisp_limb r[MAX_LIMBS], untouched[MAX_LIMBS];
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MOD_EXP2, name) {
    for (int with_e = 1; with_e >= 0; with_e--) {
      test_fill_random(untouched, sizeof untouched);
      memcpy(r, untouched, sizeof r);
      const int status = crisp_bn_mod_exp_crt(r, c, p, q, dp, dq, qinv, h, with_e ? e : NULL, with_e ? 1 : 0);
      if (status != CRISP_E_INVALID)
        fail_msg("crt %s: %s, half=%zu, %s e: status %d, not CRISP_E_INVALID", name, what, h,
                 with_e ? "with" : "without", status);
      if (memcmp(r, untouched, sizeof r))
        fail_msg("crt %s: %s, half=%zu: r written on a refusal", name, what, h);
      check_key_refused(CRISP_E_INVALID, p, q, dp, dq, qinv, h, with_e ? e : NULL, with_e ? 1 : 0, what);
    }
  }
}

#ifdef CRISP_TEST_OPENSSL
static void bn_to_limbs(crisp_limb *x, size_t n, const BIGNUM *b) {
  unsigned char bytes[MAX_LIMBS * 8];
  assert_true(BN_num_bytes(b) <= (int)(n * 8));
  assert_int_equal(BN_bn2lebinpad(b, bytes, (int)(n * 8)), (int)(n * 8));
  memcpy(x, bytes, n * 8); /* little-endian host */
}

static BIGNUM *param(EVP_PKEY *pkey, const char *name) {
  BIGNUM *b = NULL;
  assert_int_equal(EVP_PKEY_get_bn_param(pkey, name, &b), 1);
  return b;
}

/* OpenSSL's raw private operation: out = c^d mod n. */
static void openssl_private(EVP_PKEY *pkey, const crisp_limb *c, crisp_limb *out, size_t nn) {
  unsigned char in[MAX_LIMBS * 8], result[MAX_LIMBS * 8];
  const size_t bytes = nn * 8;
  for (size_t i = 0; i < bytes; i++)
    in[i] = (unsigned char)(c[(bytes - 1 - i) / 8] >> (8 * ((bytes - 1 - i) % 8)));
  EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pkey, NULL);
  assert_non_null(ctx);
  assert_int_equal(EVP_PKEY_decrypt_init(ctx), 1);
  assert_int_equal(EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING), 1);
  size_t outlen = sizeof result;
  assert_int_equal(EVP_PKEY_decrypt(ctx, result, &outlen, in, bytes), 1);
  assert_int_equal(outlen, bytes);
  EVP_PKEY_CTX_free(ctx);
  memset(out, 0, nn * 8);
  for (size_t i = 0; i < bytes; i++)
    out[(bytes - 1 - i) / 8] |= (crisp_limb)result[i] << (8 * ((bytes - 1 - i) % 8));
}

static void test_crt_openssl(void **state) {
  (void)state;
  /* Key generation is OpenSSL's work, and under memcheck or emulation (a
   * reduced scale) a 2048-bit key would cost more than the crisp calls the
   * test makes with it. Those runs take one 1024-bit key: there the CRT
   * code and the kernels it reaches (no IFMA under memcheck or an emulator)
   * run the same code at every size; native runs take all four. */
  const unsigned bits_list[] = {1024, 2048, 3072, 4096};
  const size_t keys = test_scale() >= 1 ? 4 : 1;
  for (size_t kb = 0; kb < keys; kb++) {
    const unsigned bits = bits_list[kb];
    EVP_PKEY *pkey = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)bits);
    assert_non_null(pkey);
    BIGNUM *bn_n = param(pkey, OSSL_PKEY_PARAM_RSA_N), *bn_p = param(pkey, OSSL_PKEY_PARAM_RSA_FACTOR1),
           *bn_q = param(pkey, OSSL_PKEY_PARAM_RSA_FACTOR2),
           *bn_dp = param(pkey, OSSL_PKEY_PARAM_RSA_EXPONENT1),
           *bn_dq = param(pkey, OSSL_PKEY_PARAM_RSA_EXPONENT2),
           *bn_qinv = param(pkey, OSSL_PKEY_PARAM_RSA_COEFFICIENT1),
           *bn_e = param(pkey, OSSL_PKEY_PARAM_RSA_E);
    rsa_key key, swapped;
    const size_t h = bits / 128, nn = 2 * h;
    key.half = swapped.half = h;
    bn_to_limbs(key.n, nn, bn_n);
    bn_to_limbs(key.p, h, bn_p);
    bn_to_limbs(key.q, h, bn_q);
    bn_to_limbs(key.dp, h, bn_dp);
    bn_to_limbs(key.dq, h, bn_dq);
    bn_to_limbs(key.qinv, h, bn_qinv);
    bn_to_limbs(key.e, 1, bn_e);
    /* the same key with p and q exchanged: qinv' = p^-1 mod q */
    BN_CTX *bctx = BN_CTX_new();
    BIGNUM *pinv = BN_mod_inverse(NULL, bn_p, bn_q, bctx);
    assert_non_null(pinv);
    memcpy(swapped.n, key.n, sizeof key.n);
    memcpy(swapped.p, key.q, sizeof key.q);
    memcpy(swapped.q, key.p, sizeof key.p);
    memcpy(swapped.dp, key.dq, sizeof key.dq);
    memcpy(swapped.dq, key.dp, sizeof key.dp);
    bn_to_limbs(swapped.qinv, h, pinv);
    swapped.e[0] = key.e[0];

    /* one prepared key each, for every c */
    crisp_bn_crt_key *prepared = prepared_key(&key, 1), *prepared_swapped = prepared_key(&swapped, 1);
    crisp_limb c[MAX_LIMBS], want[MAX_LIMBS];
    const size_t randoms = test_scaled(3);
    for (size_t t = 0; t < 3 + randoms; t++) {
      memset(c, 0, sizeof c);
      if (t == 1) c[0] = 1;
      if (t == 2) memcpy(c, key.n, nn * sizeof *c), c[0] -= 1; /* n - 1 (n odd) */
      if (t >= 3) {
        test_fill_random(c, nn * sizeof *c);
        c[nn - 1] %= key.n[nn - 1];
      }
      openssl_private(pkey, c, want, nn);
      char what[64];
      snprintf(what, sizeof what, "c case %zu", t);
      check_crt(&key, prepared, c, want, what);
      check_crt(&swapped, prepared_swapped, c, want, what);
    }
    crisp_bn_crt_key_free(prepared);
    crisp_bn_crt_key_free(prepared_swapped);
    /* p == q from the real prime with its own dp: the check mod p and mod
     * q is then one check, and r^e = c mod p alone */
    memset(c, 0, sizeof c);
    c[0] = 855;
    check_crt_refused(c, key.p, key.p, key.dp, key.dp, key.qinv, h, key.e, "p == q, OpenSSL's p");
    BN_free(pinv);
    BN_CTX_free(bctx);
    BN_free(bn_n), BN_free(bn_p), BN_free(bn_q), BN_free(bn_dp), BN_free(bn_dq), BN_free(bn_qinv),
        BN_free(bn_e);
    EVP_PKEY_free(pkey);
  }
}
#endif

/* A one-limb-halves key: p = 2^64 - 59, q = 2^64 - 83 (both prime),
 * e = 65537, dp, dq and both inverses precomputed; swap gives p < q. */
static void small_key(rsa_key *key, int swap) {
  const crisp_limb big = 0xffffffffffffffc5ull, small = 0xffffffffffffffadull;
  const crisp_limb d_big = 1563288166766602825ull, d_small = 17335497821928034077ull;
  const crisp_limb small_inv_mod_big = 3843071682022823241ull, big_inv_mod_small = 14603672391686728297ull;
  memset(key, 0, sizeof *key);
  key->half = 1;
  key->p[0] = swap ? small : big;
  key->q[0] = swap ? big : small;
  key->dp[0] = swap ? d_small : d_big;
  key->dq[0] = swap ? d_big : d_small;
  key->qinv[0] = swap ? big_inv_mod_small : small_inv_mod_big;
  key->e[0] = 65537;
  crisp_bn_mul(key->n, key->p, 1, key->q, 1);
}

/* Without peers: c = x^e mod n by crisp_bn_mod_exp, so the CRT must give x
 * back; x = 0, 1, n - 1 and random. */
static void test_crt_small(void **state) {
  (void)state;
  for (int swap = 0; swap < 2; swap++) {
    rsa_key key;
    small_key(&key, swap);
    crisp_bn_crt_key *prepared = prepared_key(&key, 1);
    for (size_t t = 0; t < 3 + test_scaled(8); t++) {
      crisp_limb x[2] = {0, 0}, c[2];
      if (t == 1) x[0] = 1;
      if (t == 2) x[0] = key.n[0] - 1, x[1] = key.n[1];
      if (t >= 3) test_fill_random(x, sizeof x), x[1] %= key.n[1];
      assert_int_equal(crisp_bn_mod_exp(c, x, key.e, 1, key.n, 2), CRISP_OK);
      check_crt(&key, prepared, c, x, "one-limb key");
    }
    crisp_bn_crt_key_free(prepared);
  }
}

/* x mod 3: 2^64 = 1 mod 3, so the limbs' residues add up. */
static crisp_limb mod_three(const crisp_limb *x, size_t n) {
  crisp_limb sum = 0;
  for (size_t i = 0; i < n; i++) sum += x[i] % 3;
  return sum % 3;
}

/* An odd multiple of 3 of n limbs with its top bit set. */
static void fill_multiple_of_three(crisp_limb *x, size_t n) {
  test_fill_random(x, n * sizeof *x);
  x[n - 1] |= (crisp_limb)1 << 63;
  subtract_small(x, n, mod_three(x, n));
  if (!(x[0] & 1)) subtract_small(x, n, 3);
}

/* Keys whose p and q share a factor are refused whatever qinv comes with
 * them: p == q (a prime with its own dp, where the check mod p and mod q
 * passes, and random halves) and p, q both multiples of 3, at one-limb
 * halves and at the sizes the IFMA kernels take. */
static void test_crt_shared_factor(void **state) {
  (void)state;
  rsa_key key;
  small_key(&key, 0);
  crisp_limb c[MAX_LIMBS] = {855, 7};
  const crisp_limb zero[1] = {0}, one[1] = {1}, below[1] = {key.p[0] - 2};
  const crisp_limb *const small_qinvs[] = {key.qinv, zero, one, below, key.p};
  for (size_t i = 0; i < sizeof small_qinvs / sizeof small_qinvs[0]; i++)
    check_crt_refused(c, key.p, key.p, key.dp, key.dp, small_qinvs[i], 1, key.e, "p == q prime");
  static const size_t halves[] = {1, 2, 16, 24, 32};
  for (size_t k = 0; k < sizeof halves / sizeof halves[0]; k++) {
    const size_t h = halves[k];
    crisp_limb p[MAX_LIMBS / 2], q[MAX_LIMBS / 2], dp[MAX_LIMBS / 2], dq[MAX_LIMBS / 2], qinv[MAX_LIMBS / 2];
    crisp_limb small_qinv[MAX_LIMBS / 2] = {1};
    test_fill_random(p, sizeof p);
    p[0] |= 1;
    p[h - 1] |= (crisp_limb)1 << 63;
    test_fill_random(dp, sizeof dp);
    test_fill_random(dq, sizeof dq);
    fill_below(qinv, p, h);
    test_fill_random(c, sizeof c);
    c[2 * h - 1] >>= 2; /* below p * q: both top bits are set */
    check_crt_refused(c, p, p, dp, dq, qinv, h, key.e, "p == q, qinv below p");
    check_crt_refused(c, p, p, dp, dq, small_qinv, h, key.e, "p == q, qinv = 1");
    check_crt_refused(c, p, p, dp, dq, p, h, key.e, "p == q, qinv = p");
    fill_multiple_of_three(p, h);
    fill_multiple_of_three(q, h);
    fill_below(qinv, p, h);
    check_crt_refused(c, p, q, dp, dq, qinv, h, key.e, "p, q multiples of 3, qinv below p");
    check_crt_refused(c, p, q, dp, dq, small_qinv, h, key.e, "p, q multiples of 3, qinv = 1");
  }
}

static void test_crt_errors(void **state) {
  (void)state;
  rsa_key key;
  small_key(&key, 0);
  crisp_limb c[2] = {855, 7}, r[4], untouched[4];
  memset(r, 0x77, sizeof r);
  memcpy(untouched, r, sizeof r);
  const crisp_limb *p = key.p, *q = key.q, *dp = key.dp, *dq = key.dq, *qi = key.qinv, *e = key.e;
  assert_int_equal(crisp_bn_mod_exp_crt(NULL, c, p, q, dp, dq, qi, 1, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(r, NULL, p, q, dp, dq, qi, 1, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(r, c, NULL, q, dp, dq, qi, 1, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(r, c, p, NULL, dp, dq, qi, 1, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(r, c, p, q, NULL, dq, qi, 1, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(r, c, p, q, dp, NULL, qi, 1, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(r, c, p, q, dp, dq, NULL, 1, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(r, c, p, q, dp, dq, qi, 0, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(r, c, p, q, dp, dq, qi, 1, e, 0), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(r, c, p, q, dp, dq, qi, CRISP_BN_MONT_MAX_LIMBS / 2 + 1, e, 1),
                   CRISP_E_RANGE);
  assert_int_equal(crisp_bn_mod_exp_crt(r, c, p, q, dp, dq, qi, 1, e, SIZE_MAX), CRISP_E_RANGE);
  /* overlaps of r (two limbs) with an input other than c */
  crisp_limb inputs[8];
  memcpy(inputs, (crisp_limb[6]){p[0], q[0], dp[0], dq[0], qi[0], e[0]}, 6 * sizeof *inputs);
  assert_int_equal(crisp_bn_mod_exp_crt(inputs, c, inputs, q, dp, dq, qi, 1, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(inputs, c, p, inputs + 1, dp, dq, qi, 1, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(inputs + 1, c, p, q, inputs + 2, dq, qi, 1, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(inputs + 2, c, p, q, dp, inputs + 3, qi, 1, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(inputs + 3, c, p, q, dp, dq, inputs + 4, 1, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(inputs + 4, c, p, q, dp, dq, qi, 1, inputs + 5, 1), CRISP_E_INVALID);
  crisp_limb shifted[3] = {855, 7, 0};
  assert_int_equal(crisp_bn_mod_exp_crt(shifted + 1, shifted, p, q, dp, dq, qi, 1, e, 1), CRISP_E_INVALID);
  assert_memory_equal(r, untouched, sizeof r);
  /* checks on secret values, decided by masks */
  crisp_limb even[1] = {p[0] - 1}, big_qinv[1] = {p[0]}, big_c[2] = {key.n[0], key.n[1]};
  assert_int_equal(crisp_bn_mod_exp_crt(r, c, even, q, dp, dq, qi, 1, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(r, c, p, even, dp, dq, qi, 1, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(r, c, p, q, dp, dq, big_qinv, 1, e, 1), CRISP_E_RANGE);
  assert_int_equal(crisp_bn_mod_exp_crt(r, big_c, p, q, dp, dq, qi, 1, e, 1), CRISP_E_RANGE);
  assert_int_equal(crisp_bn_mod_exp_crt(r, big_c, p, q, dp, dq, qi, 1, NULL, 0), CRISP_E_RANGE);
  /* p * q not filling 2 * half limbs */
  const crisp_limb p2[2] = {p[0], 0}, q2[2] = {q[0], 0}, d2[2] = {1, 0}, qi2[2] = {qi[0], 0};
  crisp_limb c4[4] = {855, 0, 0, 0};
  assert_int_equal(crisp_bn_mod_exp_crt(r, c4, p2, q2, d2, d2, qi2, 2, e, 1), CRISP_E_INVALID);
  /* a qinv below p that is not q^-1 mod p: refused, with e or without */
  const crisp_limb wrong_qinv[1] = {qi[0] + 1};
  assert_int_equal(crisp_bn_mod_exp_crt(r, c, p, q, dp, dq, wrong_qinv, 1, e, 1), CRISP_E_INVALID);
  assert_int_equal(crisp_bn_mod_exp_crt(r, c, p, q, dp, dq, wrong_qinv, 1, NULL, 0), CRISP_E_INVALID);
  assert_memory_equal(r, untouched, sizeof r);
  /* a wrong public exponent is a mismatch, r wiped */
  const crisp_limb wrong_e[1] = {3};
  assert_int_equal(crisp_bn_mod_exp_crt(r, c, p, q, dp, dq, qi, 1, wrong_e, 1), CRISP_E_MISMATCH);
  assert_int_equal(r[0], 0);
  assert_int_equal(r[1], 0);
  assert_int_equal(r[2], untouched[2]);

  /* the prepared key: each refusal of the key above, with the same status */
  check_key_refused(CRISP_E_INVALID, p, q, dp, dq, qi, 0, e, 1, "half 0");
  check_key_refused(CRISP_E_INVALID, p, q, dp, dq, qi, 1, e, 0, "e with en 0");
  check_key_refused(CRISP_E_RANGE, p, q, dp, dq, qi, CRISP_BN_MONT_MAX_LIMBS / 2 + 1, e, 1, "half too long");
  check_key_refused(CRISP_E_RANGE, p, q, dp, dq, qi, 1, e, SIZE_MAX, "en too long");
  check_key_refused(CRISP_E_INVALID, even, q, dp, dq, qi, 1, e, 1, "even p");
  check_key_refused(CRISP_E_INVALID, p, even, dp, dq, qi, 1, e, 1, "even q");
  check_key_refused(CRISP_E_RANGE, p, q, dp, dq, big_qinv, 1, e, 1, "qinv = p");
  check_key_refused(CRISP_E_INVALID, p2, q2, d2, d2, qi2, 2, e, 1, "p q short of 2 half limbs");
  check_key_refused(CRISP_E_INVALID, p, q, dp, dq, wrong_qinv, 1, e, 1, "qinv not the inverse");
  check_key_refused(CRISP_E_INVALID, p, q, dp, dq, wrong_qinv, 1, NULL, 0, "qinv not the inverse, no e");
  /* and the operation's refusals: c >= n with e and without, r overlapping
   * c (r untouched), a wrong e (r wiped) */
  crisp_bn_crt_key *with_e = NULL, *without_e = NULL, *wrong = NULL;
  assert_int_equal(crisp_bn_crt_key_new(&with_e, p, q, dp, dq, qi, 1, e, 1), CRISP_OK);
  assert_int_equal(crisp_bn_crt_key_new(&without_e, p, q, dp, dq, qi, 1, NULL, 0), CRISP_OK);
  assert_int_equal(crisp_bn_crt_key_new(&wrong, p, q, dp, dq, qi, 1, wrong_e, 1), CRISP_OK);
  memcpy(r, untouched, sizeof r);
  assert_int_equal(crisp_bn_crt_key_exp(r, big_c, with_e), CRISP_E_RANGE);
  assert_int_equal(crisp_bn_crt_key_exp(r, big_c, without_e), CRISP_E_RANGE);
  assert_int_equal(crisp_bn_crt_key_exp(shifted + 1, shifted, with_e), CRISP_E_INVALID);
  assert_memory_equal(r, untouched, sizeof r);
  assert_int_equal(crisp_bn_crt_key_exp(r, c, wrong), CRISP_E_MISMATCH);
  assert_int_equal(r[0], 0);
  assert_int_equal(r[1], 0);
  assert_int_equal(r[2], untouched[2]);
  crisp_bn_crt_key_free(with_e);
  crisp_bn_crt_key_free(without_e);
  crisp_bn_crt_key_free(wrong);
}

/* The range checks and "r untouched" at every size class the
 * implementations take (test_crt_errors has half = 1 only), on every
 * bn_mod_exp2 implementation, with e and without: p = m, q = m - 2 and
 * qinv = (m - 1) / 2 (test_crt_partner), dp = dq = e = 1, so that r = c
 * and the exponentiations cost nothing under valgrind. c = n, c = 2^(128
 * half) - 1, qinv = p and qinv = p + 1 give CRISP_E_RANGE with r as it
 * was; c = n - 1 gives CRISP_OK with r = c. The prepared key the same:
 * qinv's refusals from crisp_bn_crt_key_new (once per half), c's from
 * crisp_bn_crt_key_exp on keys made once per half. At reduced scale (the valgrind stage, where a 64-limb half
 * costs seconds) the halves up to 32 only, each with and without e taking one of the five cases in turn. */
enum { RANGE_MAX_HALF = 64 };
static void test_crt_range_sizes(void **state) {
  (void)state;
  static const size_t halves[] = {2, 16, 24, 32, 48, 64};
  static crisp_limb p[RANGE_MAX_HALF], q[RANGE_MAX_HALF], qinv[RANGE_MAX_HALF], p_plus_one[RANGE_MAX_HALF],
      one[RANGE_MAX_HALF], n[2 * RANGE_MAX_HALF], n_minus_one[2 * RANGE_MAX_HALF],
      all_ones[2 * RANGE_MAX_HALF], r[2 * RANGE_MAX_HALF], untouched[2 * RANGE_MAX_HALF];
  const int every_case = test_scale() >= 1;
  size_t checked = 0;
  for (size_t k = 0; k < sizeof halves / sizeof halves[0]; k++) {
    const size_t h = halves[k], nn = 2 * h;
    if (!every_case && h > 32) break;
    test_fill_random(p, h * sizeof *p);
    p[0] |= 1;
    p[h - 1] |= (crisp_limb)1 << 63;
    test_crt_partner(q, qinv, p, h);
    memset(one, 0, sizeof one);
    one[0] = 1;
    crisp_limb carry = 1; /* p + 1, which fits: p is odd */
    for (size_t i = 0; i < h; i++) p_plus_one[i] = p[i] + carry, carry = p_plus_one[i] < carry;
    assert_int_equal(crisp_bn_mul(n, p, h, q, h), CRISP_OK);
    memcpy(n_minus_one, n, nn * sizeof *n);
    n_minus_one[0] -= 1; /* n is odd */
    memset(all_ones, 0xff, nn * sizeof *all_ones);
    const struct {
      const crisp_limb *c, *qinv;
      int status;
      const char *what;
    } cases[] = {{n, qinv, CRISP_E_RANGE, "c = n"},
                 {all_ones, qinv, CRISP_E_RANGE, "c = 2^(128 half) - 1"},
                 {n_minus_one, p, CRISP_E_RANGE, "qinv = p"},
                 {n_minus_one, p_plus_one, CRISP_E_RANGE, "qinv = p + 1"},
                 {n_minus_one, qinv, CRISP_OK, "c = n - 1"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
      if (cases[i].qinv != qinv) {
        check_key_refused(cases[i].status, p, q, one, one, cases[i].qinv, h, one, 1, cases[i].what);
        check_key_refused(cases[i].status, p, q, one, one, cases[i].qinv, h, NULL, 0, cases[i].what);
      }
    crisp_bn_crt_key *key_e = NULL, *key_no_e = NULL;
    assert_int_equal(crisp_bn_crt_key_new(&key_e, p, q, one, one, qinv, h, one, 1), CRISP_OK);
    assert_int_equal(crisp_bn_crt_key_new(&key_no_e, p, q, one, one, qinv, h, NULL, 0), CRISP_OK);
    const char *name;
    FOR_EACH_IMPL(CRISP_KERNEL_BN_MOD_EXP2, name) {
      for (int with_e = 1; with_e >= 0; with_e--) {
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
          if (!every_case && (i + 2 * k + (size_t)with_e) % (sizeof cases / sizeof cases[0])) continue;
          test_fill_random(untouched, sizeof untouched);
          memcpy(r, untouched, sizeof r);
          const int status = crisp_bn_mod_exp_crt(r, cases[i].c, p, q, one, one, cases[i].qinv, h,
                                                  with_e ? one : NULL, with_e ? 1 : 0);
          if (status != cases[i].status)
            fail_msg("crt %s: %s, half=%zu, %s e: status %d, not %d", name, cases[i].what, h,
                     with_e ? "with" : "without", status, cases[i].status);
          const crisp_limb *want = status == CRISP_OK ? cases[i].c : untouched;
          if (memcmp(r, want, nn * sizeof *r) || memcmp(r + nn, untouched + nn, sizeof r - nn * sizeof *r))
            fail_msg("crt %s: %s, half=%zu, %s e: r %s", name, cases[i].what, h, with_e ? "with" : "without",
                     status == CRISP_OK ? "is not c" : "written on a refusal");
          checked++;
          /* the prepared key: c's range at crisp_bn_crt_key_exp, with the
           * same status and r (qinv's: above, once per half) */
          if (cases[i].qinv != qinv) continue;
          memcpy(r, untouched, sizeof r);
          const int key_status = crisp_bn_crt_key_exp(r, cases[i].c, with_e ? key_e : key_no_e);
          if (key_status != status)
            fail_msg("crt key %s: %s, half=%zu, %s e: status %d, not %d", name, cases[i].what, h,
                     with_e ? "with" : "without", key_status, status);
          if (memcmp(r, want, nn * sizeof *r) || memcmp(r + nn, untouched + nn, sizeof r - nn * sizeof *r))
            fail_msg("crt key %s: %s, half=%zu, %s e: r %s", name, cases[i].what, h,
                     with_e ? "with" : "without", status == CRISP_OK ? "is not c" : "written on a refusal");
        }
      }
    }
    crisp_bn_crt_key_free(key_e);
    crisp_bn_crt_key_free(key_no_e);
  }
  printf("# %zu range cases checked\n", checked);
}

int main(void) {
  test_seed(0);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_mod_exp2, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mod_exp2_long, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mod_exp2_edges, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mod_exp2_errors, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mod_exp2_check, test_teardown_unpin),
      cmocka_unit_test_teardown(test_r2_pair, test_teardown_unpin),
      cmocka_unit_test_teardown(test_crt_small, test_teardown_unpin),
      cmocka_unit_test_teardown(test_crt_errors, test_teardown_unpin),
      cmocka_unit_test_teardown(test_crt_range_sizes, test_teardown_unpin),
      cmocka_unit_test_teardown(test_crt_shared_factor, test_teardown_unpin),
#ifdef CRISP_TEST_OPENSSL
      cmocka_unit_test_teardown(test_crt_openssl, test_teardown_unpin),
#endif
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
