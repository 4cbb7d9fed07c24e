/* test/test_bn_structured.c - every bignum entry point on structured
 * operands, against GMP, at every implementation this CPU supports: limbs
 * all zero, all ones, alternating, a single bit at a limb boundary, only the
 * top or the low limb set; moduli 2^k - 1, 2^(k-1) + 1 and their kin;
 * operands m - 1, m - 2, (m +- 1) / 2; at every size where a kernel changes
 * (small sizes, the Karatsuba thresholds, the IFMA kernels' 1024 to 4096
 * bits) and their neighbours. A sum whose limb is all ones passes the carry
 * coming into it on to the next limb; random operands make such a limb once
 * in 2^64, these make it in every limb. Then the edge exponents (0, 1, all
 * ones, the top bit only, zero limbs on top) of mod_exp, mod_exp2 and
 * mod_exp_crt, and RSA-CRT keys and inputs whose Garner recombination
 * carries across whole halves (c mod p = p - 1 and c mod q = 0, a halves'
 * difference of -1, q = 2^(64h) - 1), with the results or the error codes
 * include/crisp/bn.h promises. */
#include "common.h"

#include <gmp.h>

#define ONES (~(crisp_limb)0)
#define TOP_BIT ((crisp_limb)1 << 63)
#define ALTERNATE_BITS ((crisp_limb)0xaaaaaaaaaaaaaaaaull)
#define GUARD ((crisp_limb)0x5a5a5a5a5a5a5a5aull)
#define MAX_PRODUCT_LIMBS 257
#define MAX_LIMBS CRISP_BN_MONT_MAX_LIMBS

/* Emulated runs (CRISP_TEST_SCALE below 1) take every other case of the
 * slow loops, in turn, so that each case still runs with some partner. */
static size_t slow_step(void) {
  return test_scale() < 1 ? 2 : 1;
}

/* 1 for the cases an emulated run leaves out: every other turn. */
static int thinned(int turn) {
  return slow_step() > 1 && turn % 2;
}

/* ---- GMP -------------------------------------------------------------- */

static void to_mpz(mpz_t z, const crisp_limb *x, size_t n) {
  if (!n) {
    mpz_set_ui(z, 0);
    return;
  }
  mpz_import(z, n, -1, sizeof *x, 0, 0, x);
}

static void from_mpz(crisp_limb *x, size_t n, const mpz_t z) {
  size_t count = 0;
  assert_true(mpz_sgn(z) >= 0 && mpz_sizeinbase(z, 2) <= 64 * n);
  memset(x, 0, n * sizeof *x);
  mpz_export(x, &count, -1, sizeof *x, 0, 0, z);
}

/* ---- shapes ----------------------------------------------------------- */

/* Operand patterns of n limbs. */
enum {
  PATTERN_ZERO,
  PATTERN_ONE,
  PATTERN_ONES,
  PATTERN_ALTERNATE_LIMBS, /* all ones, zero, all ones, ... from the low limb */
  PATTERN_ALTERNATE_BITS,  /* 0xaaaa... in every limb */
  PATTERN_TOP_LIMB,        /* only the top limb, all ones */
  PATTERN_LOW_LIMB,        /* only the low limb, all ones */
  PATTERN_TOP_BIT,         /* 2^(64n - 1) */
  PATTERN_ONES_BUT_LOW,    /* all ones but a zero low limb */
  PATTERN_LOW_HALF,        /* the low half of the limbs all ones */
  PATTERN_HIGH_HALF,       /* the high half of the limbs all ones */
  PATTERN_COUNT
};

static void fill_pattern(crisp_limb *x, size_t n, int pattern) {
  for (size_t i = 0; i < n; i++) {
    crisp_limb v = 0;
    switch (pattern) {
      case PATTERN_ONE:
        v = i == 0;
        break;
      case PATTERN_ONES:
        v = ONES;
        break;
      case PATTERN_ALTERNATE_LIMBS:
        v = i % 2 ? 0 : ONES;
        break;
      case PATTERN_ALTERNATE_BITS:
        v = ALTERNATE_BITS;
        break;
      case PATTERN_TOP_LIMB:
        v = i == n - 1 ? ONES : 0;
        break;
      case PATTERN_LOW_LIMB:
        v = i == 0 ? ONES : 0;
        break;
      case PATTERN_TOP_BIT:
        v = i == n - 1 ? TOP_BIT : 0;
        break;
      case PATTERN_ONES_BUT_LOW:
        v = i ? ONES : 0;
        break;
      case PATTERN_LOW_HALF:
        v = i < (n + 1) / 2 ? ONES : 0;
        break;
      case PATTERN_HIGH_HALF:
        v = i >= n / 2 ? ONES : 0;
        break;
      default:
        v = 0;
    }
    x[i] = v;
  }
}

/* x = 2^bit, n limbs. */
static void single_bit(crisp_limb *x, size_t n, size_t bit) {
  memset(x, 0, n * sizeof *x);
  x[bit / 64] = (crisp_limb)1 << (bit % 64);
}

/* Sizes where the product kernels change: the smallest, the schoolbook
 * rows' unrolled lengths, the Karatsuba thresholds (32 and 48 limbs) and
 * levels, the IFMA sizes (16, 24, 32, 48, 64 limbs) and the largest
 * Karatsuba size, each with its neighbours. */
static const size_t product_sizes[] = {1,  2,  3,  4,  5,  7,  8,  9,  15, 16, 17,  23,  24,  25,  31,  32,
                                       33, 47, 48, 49, 63, 64, 65, 95, 96, 97, 127, 128, 129, 255, 256, 257};
enum { PRODUCT_SIZE_COUNT = sizeof product_sizes / sizeof product_sizes[0] };

#define assert_limbs_equal(a, b, n, ...) \
  assert_bytes_equal((const uint8_t *)(a), (const uint8_t *)(b), (n) * sizeof(crisp_limb), __VA_ARGS__)

/* ---- products --------------------------------------------------------- */

static void check_mul(const char *name, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn,
                      const char *what) {
  static crisp_limb z[2 * MAX_PRODUCT_LIMBS + 1], want[2 * MAX_PRODUCT_LIMBS];
  if (xn >= yn)
    mpn_mul((mp_limb_t *)want, (const mp_limb_t *)x, (mp_size_t)xn, (const mp_limb_t *)y, (mp_size_t)yn);
  else
    mpn_mul((mp_limb_t *)want, (const mp_limb_t *)y, (mp_size_t)yn, (const mp_limb_t *)x, (mp_size_t)xn);
  for (size_t i = 0; i <= xn + yn; i++) z[i] = GUARD;
  assert_int_equal(crisp_bn_mul(z, x, xn, y, yn), CRISP_OK);
  assert_limbs_equal(z, want, xn + yn, "bn_mul %s: %zu x %zu limbs, %s\n", name, xn, yn, what);
  assert_true(z[xn + yn] == GUARD);
}

static void test_mul_structured(void **state) {
  (void)state;
  static crisp_limb x[MAX_PRODUCT_LIMBS], y[MAX_PRODUCT_LIMBS];
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MUL, name) {
    for (size_t s = 0; s < PRODUCT_SIZE_COUNT; s++) {
      const size_t n = product_sizes[s];
      /* every pair of patterns, equal lengths */
      for (int px = 0; px < PATTERN_COUNT; px++) {
        fill_pattern(x, n, px);
        for (int py = px % (int)slow_step(); py < PATTERN_COUNT; py += (int)slow_step()) {
          fill_pattern(y, n, py);
          check_mul(name, x, n, y, n, "pattern pair");
        }
      }
      /* a single bit just below and at each limb boundary, times all ones
       * (a shifted run of ones) and times the top bit */
      for (size_t k = 0; k < n; k += slow_step()) {
        for (size_t below = 0; below < 2; below++) {
          if (below && !k) continue;
          single_bit(x, n, 64 * k - below);
          fill_pattern(y, n, PATTERN_ONES);
          check_mul(name, x, n, y, n, "boundary bit x all ones");
          fill_pattern(y, n, PATTERN_TOP_BIT);
          check_mul(name, y, n, x, n, "top bit x boundary bit");
        }
      }
      /* unbalanced lengths: one limb, one less, half, twice and one */
      const size_t others[] = {1, n > 1 ? n - 1 : 1, n / 2 ? n / 2 : 1,
                               2 * n + 1 <= MAX_PRODUCT_LIMBS ? 2 * n + 1 : 1};
      for (size_t o = 0; o < sizeof others / sizeof others[0]; o++) {
        const size_t m = others[o];
        for (int p = 0; p < PATTERN_COUNT; p++) {
          fill_pattern(x, n, p);
          fill_pattern(y, m, p == PATTERN_ONES ? PATTERN_TOP_BIT : PATTERN_ONES);
          check_mul(name, x, n, y, m, "unbalanced");
          check_mul(name, y, m, x, n, "unbalanced, swapped");
        }
      }
    }
  }
}

static void check_sqr(const char *name, const crisp_limb *x, size_t n, const char *what) {
  static crisp_limb z[2 * MAX_PRODUCT_LIMBS + 1], want[2 * MAX_PRODUCT_LIMBS];
  mpn_sqr((mp_limb_t *)want, (const mp_limb_t *)x, (mp_size_t)n);
  for (size_t i = 0; i <= 2 * n; i++) z[i] = GUARD;
  assert_int_equal(crisp_bn_sqr(z, x, n), CRISP_OK);
  assert_limbs_equal(z, want, 2 * n, "bn_sqr %s: %zu limbs, %s\n", name, n, what);
  assert_true(z[2 * n] == GUARD);
}

static void test_sqr_structured(void **state) {
  (void)state;
  static crisp_limb x[MAX_PRODUCT_LIMBS];
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_SQR, name) {
    for (size_t s = 0; s < PRODUCT_SIZE_COUNT; s++) {
      const size_t n = product_sizes[s];
      for (int p = 0; p < PATTERN_COUNT; p++) {
        fill_pattern(x, n, p);
        check_sqr(name, x, n, "pattern");
        /* the same with the lowest bit flipped: the doubled cross products
         * then meet a square of the low limb */
        x[0] ^= 1;
        check_sqr(name, x, n, "pattern, low bit flipped");
      }
      for (size_t bit = 0; bit < 64 * n; bit += bit % 64 ? 1 : 64 * slow_step() - 1) {
        single_bit(x, n, bit);
        check_sqr(name, x, n, "boundary bit");
        /* all ones up to and including the bit */
        for (size_t i = 0; i < n; i++) x[i] = i < bit / 64 ? ONES : i == bit / 64 ? x[i] | (x[i] - 1) : 0;
        check_sqr(name, x, n, "ones up to a boundary bit");
      }
    }
  }
}

static void test_mul_add_structured(void **state) {
  (void)state;
  static const crisp_limb multipliers[] = {0, 1, 2, ONES, ONES - 1, TOP_BIT, TOP_BIT + 1, ALTERNATE_BITS};
  static crisp_limb x[MAX_PRODUCT_LIMBS], z0[MAX_PRODUCT_LIMBS], z[MAX_PRODUCT_LIMBS + 1],
      want[MAX_PRODUCT_LIMBS];
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MUL_ADD, name) {
    for (size_t s = 0; s < PRODUCT_SIZE_COUNT; s++) {
      const size_t n = product_sizes[s];
      for (int pz = 0; pz < PATTERN_COUNT; pz++) {
        fill_pattern(z0, n, pz);
        for (int px = 0; px < PATTERN_COUNT; px++) {
          fill_pattern(x, n, px);
          for (size_t k = 0; k < sizeof multipliers / sizeof multipliers[0]; k++) {
            memcpy(want, z0, n * sizeof *want);
            const crisp_limb want_carry =
                mpn_addmul_1((mp_limb_t *)want, (const mp_limb_t *)x, (mp_size_t)n, multipliers[k]);
            memcpy(z, z0, n * sizeof *z);
            z[n] = GUARD;
            crisp_limb carry = GUARD;
            assert_int_equal(crisp_bn_mul_add(z, x, n, multipliers[k], &carry), CRISP_OK);
            assert_limbs_equal(z, want, n, "bn_mul_add %s: %zu limbs, z pattern %d, x pattern %d, k %zu\n",
                               name, n, pz, px, k);
            if (carry != want_carry)
              fail_msg("bn_mul_add %s: carry, %zu limbs, z pattern %d, x pattern %d, k %zu", name, n, pz, px,
                       k);
            assert_true(z[n] == GUARD);
          }
        }
      }
    }
  }
}

/* ---- moduli and operands below them ----------------------------------- */

/* Modulus shapes of n limbs, all odd with a nonzero top limb. */
enum {
  MODULUS_ONES,          /* 2^(64n) - 1 */
  MODULUS_ONES_SHORT,    /* 2^(64n - 1) - 1 */
  MODULUS_ONES_HALF_TOP, /* 2^(64n - 32) - 1 */
  MODULUS_TOP_BIT_ONE,   /* 2^(64n - 1) + 1 */
  MODULUS_TOP_LIMB_ONE,  /* 2^(64(n - 1)) + 1 (3 for one limb) */
  MODULUS_ONES_LOW_ONE,  /* 2^(64n) - 2^64 + 1: all ones above a low limb of 1 */
  MODULUS_TWO_ONES,      /* 2^(64(n - 1) + 1) - 1: a top limb of 1, all ones below */
  MODULUS_ALTERNATE,     /* limbs all ones and zero in turn, top and low limbs all ones */
  MODULUS_COUNT
};

static void make_modulus(crisp_limb *m, size_t n, int shape) {
  switch (shape) {
    case MODULUS_ONES:
      fill_pattern(m, n, PATTERN_ONES);
      break;
    case MODULUS_ONES_SHORT:
      fill_pattern(m, n, PATTERN_ONES);
      m[n - 1] >>= 1;
      break;
    case MODULUS_ONES_HALF_TOP:
      fill_pattern(m, n, PATTERN_ONES);
      m[n - 1] >>= 32;
      break;
    case MODULUS_TOP_BIT_ONE:
      fill_pattern(m, n, PATTERN_TOP_BIT);
      m[0] |= 1;
      break;
    case MODULUS_TOP_LIMB_ONE:
      memset(m, 0, n * sizeof *m);
      m[n - 1] = 1;
      m[0] |= n == 1 ? 3 : 1;
      break;
    case MODULUS_ONES_LOW_ONE:
      fill_pattern(m, n, PATTERN_ONES);
      m[0] = 1;
      if (n == 1) m[0] = ONES - 2;
      break;
    case MODULUS_TWO_ONES:
      fill_pattern(m, n, PATTERN_ONES);
      m[n - 1] = n == 1 ? ONES >> 1 : 1;
      break;
    default:
      fill_pattern(m, n, PATTERN_ALTERNATE_LIMBS);
      m[n - 1] = ONES;
  }
  assert_true((m[0] & 1) && m[n - 1]);
}

/* Operands below m: 0, 1, 2, m - 1, m - 2, (m - 1) / 2, (m + 1) / 2, R mod m
 * (the Montgomery form of 1), then the patterns reduced mod m. */
enum { OPERAND_FIXED = 8, OPERAND_COUNT = OPERAND_FIXED + PATTERN_COUNT - 2 };

static void make_operand(crisp_limb *a, const crisp_limb *m, size_t n, int kind, mpz_t scratch, mpz_t zm) {
  to_mpz(zm, m, n);
  switch (kind) {
    case 0:
      mpz_set_ui(scratch, 0);
      break;
    case 1:
      mpz_set_ui(scratch, 1);
      break;
    case 2:
      mpz_set_ui(scratch, 2);
      break;
    case 3:
      mpz_sub_ui(scratch, zm, 1);
      break;
    case 4:
      mpz_sub_ui(scratch, zm, 2);
      break;
    case 5:
      mpz_fdiv_q_2exp(scratch, zm, 1);
      break;
    case 6:
      mpz_add_ui(scratch, zm, 1);
      mpz_fdiv_q_2exp(scratch, scratch, 1);
      break;
    case 7:
      mpz_set_ui(scratch, 1);
      mpz_mul_2exp(scratch, scratch, 64 * n);
      break;
    default: {
      crisp_limb t[MAX_LIMBS];
      fill_pattern(t, n, kind - OPERAND_FIXED + 2); /* ONES onwards: zero and one are above */
      to_mpz(scratch, t, n);
    }
  }
  mpz_mod(scratch, scratch, zm);
  from_mpz(a, n, scratch);
}

/* Montgomery sizes: small ones, the IFMA kernels' and the Karatsuba
 * thresholds' with their neighbours, the largest. */
static const size_t mont_sizes[] = {1,  2,  3,  4,  7,  8,  9,  15, 16, 17,  23,  24, 25,
                                    31, 32, 33, 47, 48, 49, 63, 64, 65, 128, 255, 256};
enum { MONT_SIZE_COUNT = sizeof mont_sizes / sizeof mont_sizes[0] };

typedef struct mont_oracle {
  mpz_t m, rinv, a, b, r;
} mont_oracle;

/* want = a b R^-1 mod m. */
static void mont_expected(mont_oracle *o, crisp_limb *want, const crisp_limb *a, const crisp_limb *b,
                          size_t n) {
  to_mpz(o->a, a, n), to_mpz(o->b, b, n);
  mpz_mul(o->r, o->a, o->b);
  mpz_mul(o->r, o->r, o->rinv);
  mpz_mod(o->r, o->r, o->m);
  from_mpz(want, n, o->r);
}

static void test_mont_structured(void **state) {
  (void)state;
  static crisp_limb m[MAX_LIMBS], operands[OPERAND_COUNT][MAX_LIMBS], r[MAX_LIMBS + 1], want[MAX_LIMBS];
  mont_oracle o;
  mpz_inits(o.m, o.rinv, o.a, o.b, o.r, NULL);
  for (int square = 0; square < 2; square++) {
    const char *name;
    FOR_EACH_IMPL(square ? CRISP_KERNEL_BN_MONT_SQR : CRISP_KERNEL_BN_MONT_MUL, name) {
      for (size_t s = 0; s < MONT_SIZE_COUNT; s++) {
        const size_t n = mont_sizes[s];
        /* every pair up to 65 limbs; above, each operand with three others */
        const int all_pairs = n <= (slow_step() > 1 ? 33 : 65);
        for (int shape = 0; shape < MODULUS_COUNT; shape += (int)(n > 65 ? slow_step() : 1)) {
          make_modulus(m, n, shape);
          const crisp_limb minv = crisp_bn_mont_inv(m[0]);
          for (int k = 0; k < OPERAND_COUNT; k++) make_operand(operands[k], m, n, k, o.a, o.m);
          to_mpz(o.m, m, n);
          mpz_set_ui(o.rinv, 1);
          mpz_mul_2exp(o.rinv, o.rinv, 64 * n);
          assert_true(mpz_invert(o.rinv, o.rinv, o.m) != 0);
          for (int ka = 0; ka < OPERAND_COUNT; ka++) {
            const crisp_limb *a = operands[ka];
            if (square) {
              mont_expected(&o, want, a, a, n);
              r[n] = GUARD;
              assert_int_equal(crisp_bn_mont_sqr(r, a, m, n, minv), CRISP_OK);
              assert_limbs_equal(r, want, n, "bn_mont_sqr %s: n=%zu modulus %d operand %d\n", name, n, shape,
                                 ka);
              assert_true(r[n] == GUARD);
              continue;
            }
            const int step = all_pairs ? (int)slow_step() : 1;
            for (int j = all_pairs ? ka % step : 0; j < (all_pairs ? OPERAND_COUNT : 3); j += step) {
              const int kb = all_pairs ? j : j == 0 ? ka : j == 1 ? 3 : (ka + shape + 1) % OPERAND_COUNT;
              const crisp_limb *b = operands[kb];
              mont_expected(&o, want, a, b, n);
              r[n] = GUARD;
              assert_int_equal(crisp_bn_mont_mul(r, a, b, m, n, minv), CRISP_OK);
              assert_limbs_equal(r, want, n, "bn_mont_mul %s: n=%zu modulus %d operands %d, %d\n", name, n,
                                 shape, ka, kb);
              assert_true(r[n] == GUARD);
            }
          }
          if (square) { /* R^2 mod m runs on the mont_sqr kernel */
            mpz_set_ui(o.r, 1);
            mpz_mul_2exp(o.r, o.r, 128 * n);
            mpz_mod(o.r, o.r, o.m);
            from_mpz(want, n, o.r);
            r[n] = GUARD;
            assert_int_equal(crisp_bn_mont_r2(r, m, n), CRISP_OK);
            assert_limbs_equal(r, want, n, "bn_mont_r2 %s: n=%zu modulus %d\n", name, n, shape);
            assert_true(r[n] == GUARD);
          }
        }
      }
    }
  }
  mpz_clears(o.m, o.rinv, o.a, o.b, o.r, NULL);
}

/* ---- exponents -------------------------------------------------------- */

/* Exponent fills of en limbs. */
enum {
  EXPONENT_ZERO,
  EXPONENT_ONE,
  EXPONENT_TWO,
  EXPONENT_ONES,
  EXPONENT_TOP_BIT,     /* 2^(64en - 1) */
  EXPONENT_TOP_BIT_ONE, /* 2^(64en - 1) + 1 */
  EXPONENT_TOP_LIMB,    /* the top limb all ones, the rest zero */
  EXPONENT_ALTERNATE,   /* limbs all ones and zero in turn */
  EXPONENT_COUNT
};

static void fill_exponent(crisp_limb *e, size_t en, int kind) {
  memset(e, 0, en * sizeof *e);
  if (!en) return;
  switch (kind) {
    case EXPONENT_ONE:
      e[0] = 1;
      break;
    case EXPONENT_TWO:
      e[0] = 2;
      break;
    case EXPONENT_ONES:
      fill_pattern(e, en, PATTERN_ONES);
      break;
    case EXPONENT_TOP_BIT:
      e[en - 1] = TOP_BIT;
      break;
    case EXPONENT_TOP_BIT_ONE:
      e[en - 1] |= TOP_BIT;
      e[0] |= 1;
      break;
    case EXPONENT_TOP_LIMB:
      e[en - 1] = ONES;
      break;
    case EXPONENT_ALTERNATE:
      fill_pattern(e, en, PATTERN_ALTERNATE_LIMBS);
      break;
    default:
      break;
  }
}

/* want = b^e mod m (1 mod m for en == 0, 0^0 = 1 as the header says). */
static void power_expected(crisp_limb *want, const crisp_limb *b, const crisp_limb *e, size_t en,
                           const crisp_limb *m, size_t n) {
  mpz_t zb, ze, zm, zr;
  mpz_inits(zb, ze, zm, zr, NULL);
  to_mpz(zb, b, n), to_mpz(ze, e, en), to_mpz(zm, m, n);
  mpz_powm(zr, zb, ze, zm);
  from_mpz(want, n, zr);
  mpz_clears(zb, ze, zm, zr, NULL);
}

/* Pins every bignum kernel to the implementation called name where it has
 * one and to the default where not, bn_mod_exp2 to generic where not: one
 * family at a time, so the exponentiations and the CRT run each
 * implementation's kernels together. */
static const crisp_kernel bn_kernels[] = {CRISP_KERNEL_BN_MUL,      CRISP_KERNEL_BN_SQR,
                                          CRISP_KERNEL_BN_MUL_ADD,  CRISP_KERNEL_BN_MONT_MUL,
                                          CRISP_KERNEL_BN_MONT_SQR, CRISP_KERNEL_BN_MOD_EXP2};

static int supports(crisp_kernel kernel, const char *name) {
  const char *names[32];
  const size_t count = test_supported_impls(kernel, names, 32);
  for (size_t i = 0; i < count; i++)
    if (!strcmp(names[i], name)) return 1;
  return 0;
}

static void pin_family(const char *name) {
  for (size_t k = 0; k < sizeof bn_kernels / sizeof bn_kernels[0]; k++) {
    if (supports(bn_kernels[k], name))
      test_pin(bn_kernels[k], name);
    else if (bn_kernels[k] == CRISP_KERNEL_BN_MOD_EXP2)
      test_pin(bn_kernels[k], "generic");
    else
      assert_int_equal(crisp_use_impl(bn_kernels[k], NULL), CRISP_OK);
  }
}

/* The families: every implementation name of bn_mont_mul or bn_mod_exp2. */
enum { FAMILY_CAP = 32 };
static const char *family_names[FAMILY_CAP];
static size_t family_count;

static void load_families(void) {
  family_count = test_supported_impls(CRISP_KERNEL_BN_MONT_MUL, family_names, FAMILY_CAP);
  const char *more[FAMILY_CAP];
  const size_t extra = test_supported_impls(CRISP_KERNEL_BN_MOD_EXP2, more, FAMILY_CAP);
  for (size_t i = 0; i < extra && family_count < FAMILY_CAP; i++)
    if (!supports(CRISP_KERNEL_BN_MONT_MUL, more[i])) family_names[family_count++] = more[i];
  assert_true(family_count >= 1);
}

static const size_t exp_sizes[] = {1, 2, 3, 8, 15, 16, 17, 24, 31, 32, 33, 48, 64};
enum { EXP_SIZE_COUNT = sizeof exp_sizes / sizeof exp_sizes[0] };

/* Exponent lengths: none, one limb, two, and as long as the modulus (up
 * to 4 limbs above 32); the last, slow one only for the exponents whose
 * top bit is set (the top window full) and only where the IFMA kernels
 * take the size, each window's width being that of a long exponent. */
enum { EXPONENT_LENGTHS = 4 };

static size_t exponent_length(size_t which, size_t n) {
  switch (which) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
      return 2;
    default:
      return n <= 32 ? n : 4;
  }
}

static int exponent_wanted(size_t which, size_t n, int kind) {
  if (which < EXPONENT_LENGTHS - 1) return 1;
  return (n == 16 || n == 24 || n == 32 || n == 48 || n == 64) &&
         (kind == EXPONENT_ONES || kind == EXPONENT_TOP_BIT_ONE);
}

/* b^e mod m at every family against GMP. */
static void check_mod_exp(const crisp_limb *b, const crisp_limb *e, size_t en, const crisp_limb *m, size_t n,
                          const char *what, int shape, int kind) {
  crisp_limb want[MAX_LIMBS], r[MAX_LIMBS + 1];
  power_expected(want, b, e, en, m, n);
  for (size_t f = 0; f < family_count; f++) {
    pin_family(family_names[f]);
    r[n] = GUARD;
    assert_int_equal(crisp_bn_mod_exp(r, b, e, en, m, n), CRISP_OK);
    assert_limbs_equal(r, want, n, "bn_mod_exp %s: n=%zu en=%zu modulus %d %s %d\n", family_names[f], n, en,
                       shape, what, kind);
    assert_true(r[n] == GUARD);
  }
}

static void test_mod_exp_structured(void **state) {
  (void)state;
  crisp_limb m[MAX_LIMBS], b[MAX_LIMBS], e[MAX_LIMBS];
  mpz_t scratch, zm;
  mpz_inits(scratch, zm, NULL);
  load_families();
  for (size_t s = 0; s < EXP_SIZE_COUNT; s++) {
    const size_t n = exp_sizes[s];
    for (int shape = 0; shape < MODULUS_COUNT; shape += (int)slow_step()) {
      make_modulus(m, n, shape);
      /* every exponent at every length, bases in turn */
      for (size_t which = 0; which < EXPONENT_LENGTHS; which++) {
        const size_t en = exponent_length(which, n);
        for (int kind = 0; kind < EXPONENT_COUNT; kind++) {
          if ((!en && kind) || !exponent_wanted(which, n, kind) || thinned(kind + (int)which + shape / 2))
            continue;
          fill_exponent(e, en, kind);
          make_operand(b, m, n, (int)((kind + which + (size_t)shape) % OPERAND_COUNT), scratch, zm);
          check_mod_exp(b, e, en, m, n, "exponent", shape, kind);
        }
      }
      /* every base with an all-ones exponent of one limb, for every other
       * modulus shape */
      fill_exponent(e, 1, EXPONENT_ONES);
      for (int kind = 0; kind < OPERAND_COUNT && shape % (2 * (int)slow_step()) == 0; kind++) {
        make_operand(b, m, n, kind, scratch, zm);
        check_mod_exp(b, e, 1, m, n, "base", shape, kind);
      }
    }
  }
  mpz_clears(scratch, zm, NULL);
}

/* Both powers at every bn_mod_exp2 implementation (the Montgomery kernels'
 * own are test_mod_exp_structured's) against GMP, into fresh outputs and in
 * place. */
static void check_mod_exp2(const crisp_limb *b0, const crisp_limb *b1, const crisp_limb *e0,
                           const crisp_limb *e1, size_t en, const crisp_limb *m0, const crisp_limb *m1,
                           size_t n, int in_place, const char *what) {
  crisp_limb want0[MAX_LIMBS], want1[MAX_LIMBS], r0[MAX_LIMBS + 1], r1[MAX_LIMBS + 1];
  power_expected(want0, b0, e0, en, m0, n);
  power_expected(want1, b1, e1, en, m1, n);
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_BN_MOD_EXP2, name) {
    r0[n] = r1[n] = GUARD;
    assert_int_equal(crisp_bn_mod_exp2(r0, r1, b0, b1, e0, e1, en, m0, m1, n), CRISP_OK);
    assert_limbs_equal(r0, want0, n, "bn_mod_exp2 %s: first, n=%zu en=%zu, %s\n", name, n, en, what);
    assert_limbs_equal(r1, want1, n, "bn_mod_exp2 %s: second, n=%zu en=%zu, %s\n", name, n, en, what);
    assert_true(r0[n] == GUARD && r1[n] == GUARD);
    if (!in_place) continue;
    memcpy(r0, b0, n * sizeof *r0);
    memcpy(r1, b1, n * sizeof *r1);
    assert_int_equal(crisp_bn_mod_exp2(r0, r1, r0, r1, e0, e1, en, m0, m1, n), CRISP_OK);
    assert_limbs_equal(r0, want0, n, "bn_mod_exp2 %s in place: n=%zu en=%zu, %s\n", name, n, en, what);
    assert_limbs_equal(r1, want1, n, "bn_mod_exp2 %s in place: n=%zu en=%zu, %s\n", name, n, en, what);
  }
}

static void test_mod_exp2_structured(void **state) {
  (void)state;
  static const size_t sizes[] = {1, 2, 3, 8, 15, 16, 17, 24, 32, 33, 48};
  crisp_limb m0[MAX_LIMBS], m1[MAX_LIMBS], b0[MAX_LIMBS], b1[MAX_LIMBS], e0[MAX_LIMBS], e1[MAX_LIMBS];
  mpz_t scratch, zm;
  mpz_inits(scratch, zm, NULL);
  load_families();
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    const size_t n = sizes[s];
    for (int shape = 0; shape < MODULUS_COUNT; shape += (int)slow_step()) {
      make_modulus(m0, n, shape);
      make_modulus(m1, n, (shape + 1) % MODULUS_COUNT);
      for (size_t which = 0; which < EXPONENT_LENGTHS; which++) {
        const size_t en = exponent_length(which, n);
        for (int kind = 0; kind < EXPONENT_COUNT; kind++) {
          if ((!en && kind) || !exponent_wanted(which, n, kind) || thinned(kind + (int)which + shape / 2))
            continue;
          fill_exponent(e0, en, kind);
          fill_exponent(e1, en, (kind + 3) % EXPONENT_COUNT);
          make_operand(b0, m0, n, (int)((kind + which) % OPERAND_COUNT), scratch, zm);
          make_operand(b1, m1, n, (int)((kind + which + 5) % OPERAND_COUNT), scratch, zm);
          char what[64];
          snprintf(what, sizeof what, "moduli %d and %d, exponents %d and %d", shape,
                   (shape + 1) % MODULUS_COUNT, kind, (kind + 3) % EXPONENT_COUNT);
          check_mod_exp2(b0, b1, e0, e1, en, m0, m1, n, kind == EXPONENT_ONES, what);
        }
      }
    }
  }
  mpz_clears(scratch, zm, NULL);
}

/* ---- RSA by CRT --------------------------------------------------------- */

/* Primes next to powers of two, by half size h: 2^(64h) - below (limbs all
 * ones but the lowest) and 2^(64h - 1) + above (a top bit, zero limbs, a
 * small low limb). Checked prime below. */
typedef struct structured_primes {
  size_t half;
  unsigned below, above;
} structured_primes;

static const structured_primes prime_table[] = {
    {1, 59, 29}, {2, 159, 29}, {8, 569, 111}, {16, 105, 1155}, {24, 3453, 699}, {32, 1557, 1919},
};
enum { PRIME_TABLE_COUNT = sizeof prime_table / sizeof prime_table[0] };

/* A CRT key and GMP's view of it. The expected result is the value mod
 * p q that is c^dp mod p and c^dq mod q (Garner's formula, the header's
 * definition; c^d mod p q for primes and dp = d mod (p - 1)), so p and q
 * need only be coprime and dp, dq any value below p - 1 and q - 1. */
typedef struct crt_key {
  size_t half;
  crisp_limb p[MAX_LIMBS / 2], q[MAX_LIMBS / 2], dp[MAX_LIMBS / 2], dq[MAX_LIMBS / 2], qinv[MAX_LIMBS / 2];
  crisp_limb e[MAX_LIMBS / 2];
  size_t en;
  mpz_t zp, zq, zn;
  const char *what;
} crt_key;

static void key_init(crt_key *key, size_t h, const mpz_t p, const mpz_t q, const char *what) {
  key->half = h;
  key->what = what;
  mpz_inits(key->zp, key->zq, key->zn, NULL);
  mpz_set(key->zp, p), mpz_set(key->zq, q);
  mpz_mul(key->zn, p, q);
  assert_true(mpz_sizeinbase(key->zn, 2) > 128 * h - 64); /* p q fills 2h limbs */
  from_mpz(key->p, h, p), from_mpz(key->q, h, q);
  mpz_t t;
  mpz_init(t);
  assert_true(mpz_invert(t, q, p) != 0);
  from_mpz(key->qinv, h, t);
  mpz_clear(t);
  key->en = 0;
}

static void key_clear(crt_key *key) {
  mpz_clears(key->zp, key->zq, key->zn, NULL);
}

/* A real key on the structured primes. p > q: the public exponent is the
 * first 2^63 + odd with an inverse mod p - 1 and q - 1 (bit 63 set, which
 * the fault check's power must reach); p < q: 65537, or the first odd
 * number from 3 on with inverses. */
static void prime_key(crt_key *key, const structured_primes *primes, int swap) {
  const size_t h = primes->half;
  mpz_t p, q, t, phi;
  mpz_inits(p, q, t, phi, NULL);
  mpz_ui_pow_ui(p, 2, 64 * h);
  mpz_sub_ui(p, p, primes->below);
  mpz_ui_pow_ui(q, 2, 64 * h - 1);
  mpz_add_ui(q, q, primes->above);
  assert_true(mpz_probab_prime_p(p, 2) && mpz_probab_prime_p(q, 2));
  if (swap) mpz_swap(p, q);
  key_init(key, h, p, q, swap ? "primes, p < q" : "primes, p > q");
  for (crisp_limb i = 0; i < 1000 && !key->en; i++) {
    const crisp_limb candidate = swap ? (i ? 2 * i + 1 : 65537) : TOP_BIT + 2 * i + 1;
    mpz_set_ui(t, 0);
    mpz_import(t, 1, -1, sizeof candidate, 0, 0, &candidate);
    mpz_sub_ui(phi, p, 1);
    if (!mpz_invert(phi, t, phi)) continue;
    from_mpz(key->dp, h, phi);
    mpz_sub_ui(phi, q, 1);
    if (!mpz_invert(phi, t, phi)) continue;
    from_mpz(key->dq, h, phi);
    key->e[0] = candidate;
    key->en = 1;
  }
  assert_true(key->en == 1);
  mpz_clears(p, q, t, phi, NULL);
}

/* q = 2^(64h) - 1 (not prime) against a prime p, dp = dq = 1 and e = 1, so
 * r = c: c = X 2^(64h) makes Garner's h q + m2 = X (2^(64h) - 1) + X, a
 * carry through every limb of the low half. swap: the other way round. */
static void ones_key(crt_key *key, const structured_primes *primes, int swap) {
  const size_t h = primes->half;
  mpz_t p, q, g;
  mpz_inits(p, q, g, NULL);
  mpz_ui_pow_ui(q, 2, 64 * h);
  mpz_sub_ui(q, q, 1);
  mpz_ui_pow_ui(p, 2, 64 * h - 1);
  mpz_add_ui(p, p, primes->above);
  mpz_gcd(g, p, q);
  assert_true(mpz_cmp_ui(g, 1) == 0);
  if (swap) mpz_swap(p, q);
  key_init(key, h, p, q, swap ? "p = 2^(64h) - 1, dp = dq = e = 1" : "q = 2^(64h) - 1, dp = dq = e = 1");
  memset(key->dp, 0, sizeof key->dp), memset(key->dq, 0, sizeof key->dq);
  key->dp[0] = key->dq[0] = 1;
  key->e[0] = 1;
  key->en = 1;
  mpz_clears(p, q, g, NULL);
}

/* c with c = xp mod p and xq mod q. */
static void crt_combine(mpz_t c, const crt_key *key, const mpz_t xp, const mpz_t xq) {
  mpz_t t;
  mpz_init(t);
  mpz_sub(t, xp, xq);
  mpz_invert(c, key->zq, key->zp);
  mpz_mul(t, t, c);
  mpz_mod(t, t, key->zp);
  mpz_mul(c, t, key->zq);
  mpz_add(c, c, xq);
  mpz_mod(c, c, key->zn);
  mpz_clear(t);
}

/* Inputs whose recombination meets all-ones and all-zero limbs. */
enum { CRT_INPUT_COUNT = 16 };

static void crt_input(crisp_limb *c, const crt_key *key, int kind) {
  const size_t h = key->half;
  mpz_t z, xp, xq;
  mpz_inits(z, xp, xq, NULL);
  switch (kind) {
    case 0:
      mpz_set_ui(z, 0);
      break;
    case 1:
      mpz_set_ui(z, 1);
      break;
    case 2:
      mpz_sub_ui(z, key->zn, 1);
      break; /* n - 1 */
    case 3:
      mpz_sub_ui(z, key->zp, 1);
      break; /* p - 1 */
    case 4:
      mpz_sub_ui(z, key->zq, 1);
      break; /* q - 1 */
    case 5:  /* p - 1 mod p, 0 mod q */
      mpz_sub_ui(xp, key->zp, 1);
      crt_combine(z, key, xp, xq);
      break;
    case 6: /* 0 mod p, q - 1 mod q */
      mpz_sub_ui(xq, key->zq, 1);
      crt_combine(z, key, xp, xq);
      break;
    case 7: /* x mod p, x + 1 mod q: m1 - m2 = -1, all ones before + p */
    case 8: /* x + 1 mod p, x mod q */
      mpz_set_ui(xp, 0x1234567);
      mpz_mul_2exp(xp, xp, 64 * h / 2);
      mpz_add_ui(xq, xp, 1);
      if (kind == 8) mpz_swap(xp, xq);
      crt_combine(z, key, xp, xq);
      break;
    case 9: /* 2^(64h) - 1: the low half all ones */
      mpz_ui_pow_ui(z, 2, 64 * h);
      mpz_sub_ui(z, z, 1);
      break;
    case 10: /* 2^(64h): a single bit at the halves' boundary */
      mpz_ui_pow_ui(z, 2, 64 * h);
      break;
    case 11: /* X 2^(64h), X a single bit */
    case 12: /* the same with another bit at a limb boundary */
      mpz_ui_pow_ui(z, 2, 64 * h);
      mpz_ui_pow_ui(xp, 2, 64 * h - 3);
      if (kind == 12 && h > 1) mpz_setbit(xp, 64); /* X - 1 has an all-ones low limb */
      mpz_mul(z, z, xp);
      break;
    default: { /* patterns reduced mod n */
      crisp_limb t[MAX_LIMBS];
      static const int patterns[] = {PATTERN_ONES, PATTERN_ALTERNATE_LIMBS, PATTERN_TOP_LIMB};
      fill_pattern(t, 2 * h, patterns[(kind - 13) % 3]);
      to_mpz(z, t, 2 * h);
    }
  }
  mpz_mod(z, z, key->zn);
  from_mpz(c, 2 * h, z);
  mpz_clears(z, xp, xq, NULL);
}

/* What the header promises for c, dp, dq and e (en limbs, NULL for none):
 * r = the value mod p q with r = c^dp mod p and r = c^dq mod q, and with e
 * given, CRISP_E_MISMATCH and r zero unless r^e = c mod p q. */
static int crt_expected(crisp_limb *want, const crt_key *key, const crisp_limb *c, const crisp_limb *dp,
                        const crisp_limb *dq, const crisp_limb *e, size_t en) {
  const size_t h = key->half;
  mpz_t zc, xp, xq, d, r;
  mpz_inits(zc, xp, xq, d, r, NULL);
  to_mpz(zc, c, 2 * h);
  to_mpz(d, dp, h);
  mpz_powm(xp, zc, d, key->zp);
  to_mpz(d, dq, h);
  mpz_powm(xq, zc, d, key->zq);
  crt_combine(r, key, xp, xq);
  int status = CRISP_OK;
  if (e) {
    to_mpz(d, e, en);
    mpz_powm(xp, r, d, key->zn);
    if (mpz_cmp(xp, zc) != 0) status = CRISP_E_MISMATCH, mpz_set_ui(r, 0);
  }
  from_mpz(want, 2 * h, r);
  mpz_clears(zc, xp, xq, d, r, NULL);
  return status;
}

static void check_crt(const crt_key *key, const crisp_limb *c, const crisp_limb *dp, const crisp_limb *dq,
                      const crisp_limb *e, size_t en, const char *what, int kind) {
  const size_t h = key->half;
  crisp_limb want[MAX_LIMBS], r[MAX_LIMBS + 1];
  const int want_status = crt_expected(want, key, c, dp, dq, e, en);
  for (size_t f = 0; f < family_count; f++) {
    pin_family(family_names[f]);
    for (size_t i = 0; i <= 2 * h; i++) r[i] = GUARD;
    const int status = crisp_bn_mod_exp_crt(r, c, key->p, key->q, dp, dq, key->qinv, h, e, en);
    if (status != want_status)
      fail_msg("crt %s: %s, half=%zu, %s %d: status %d, want %d", family_names[f], key->what, h, what, kind,
               status, want_status);
    assert_limbs_equal(r, want, 2 * h, "crt %s: %s, half=%zu, %s %d\n", family_names[f], key->what, h, what,
                       kind);
    assert_true(r[2 * h] == GUARD);
  }
}

/* Private exponents at the edges, below prime - 1: 0, 1, prime - 2 (limbs
 * all ones for the larger prime), the prime's top bit only. */
static void edge_private(crisp_limb *d, const mpz_t prime, size_t h, int kind) {
  mpz_t t;
  mpz_init(t);
  switch (kind) {
    case 0:
      mpz_set_ui(t, 0);
      break;
    case 1:
      mpz_set_ui(t, 1);
      break;
    case 2:
      mpz_sub_ui(t, prime, 2);
      break;
    default:
      mpz_ui_pow_ui(t, 2, mpz_sizeinbase(prime, 2) - 1);
      break;
  }
  from_mpz(d, h, t);
  mpz_clear(t);
}

/* Every CRT call exponentiates with private exponents of the halves' full
 * length, whatever their value, so the cases are chosen, not crossed.
 * Key kinds: 0 and 1 the primes (p > q, p < q), 2 and 3 the keys with a
 * modulus 2^(64h) - 1. thin: at the largest halves, the fewest cases that
 * still reach every carry. */
static int crt_input_wanted(int key_kind, int kind, int thin, int without_e) {
  static const int primes[] = {1, 2, 3, 5, 6, 7, 8, 12}, swapped[] = {2, 5, 6, 7, 8},
                   ones[] = {2, 5, 9, 10, 11, 12, 13};
  static const int primes_thin[] = {2, 5, 6, 7}, swapped_thin[] = {7, 8}, ones_thin[] = {11, 12};
  if (without_e) return kind == (key_kind < 2 ? 7 : 11);
  const int *list = key_kind == 0   ? (thin ? primes_thin : primes)
                    : key_kind == 1 ? (thin ? swapped_thin : swapped)
                                    : (thin ? ones_thin : ones);
  const size_t count = key_kind == 0 ? (thin ? 4 : 8) : key_kind == 1 ? (thin ? 2 : 5) : (thin ? 2 : 7);
  for (size_t i = 0; i < count; i++)
    if (list[i] == kind) return 1;
  return 0;
}

static void run_crt_cases(const crt_key *key, int key_kind, int thin) {
  const size_t h = key->half;
  crisp_limb c[MAX_LIMBS], dp[MAX_LIMBS / 2], dq[MAX_LIMBS / 2], e[MAX_LIMBS / 2];
  /* the key as it is, with its public exponent and without */
  for (int kind = 0; kind < CRT_INPUT_COUNT; kind++) {
    const int with_e = crt_input_wanted(key_kind, kind, thin, 0),
              without_e = crt_input_wanted(key_kind, kind, thin, 1);
    if (!with_e && !without_e) continue;
    crt_input(c, key, kind);
    if (with_e) check_crt(key, c, key->dp, key->dq, key->e, key->en, "input", kind);
    if (without_e) check_crt(key, c, key->dp, key->dq, NULL, 0, "input without e", kind);
  }
  if (key_kind == 1) return;
  /* edge private exponents: 0 and 0 against the key's e (a mismatch but
   * for the fixed points) and not, the top bits only, and (primes, not
   * thin) prime - 2 */
  for (int kind = 0; kind < 16; kind += 5) {
    if (kind == 5 || (kind == 10 && (key_kind != 0 || thin))) continue;
    crt_input(c, key, kind ? 7 : 2);
    edge_private(dp, key->zp, h, kind % 4);
    edge_private(dq, key->zq, h, kind / 4);
    check_crt(key, c, dp, dq, key->e, key->en, "private exponents", kind);
    if (!kind) check_crt(key, c, dp, dq, NULL, 0, "private exponents without e", kind);
  }
  /* edge public exponents: 0 (one and two limbs) with inputs 0, 1, n - 1
   * (fixed points) and one that is none; then (primes) 1, all ones, the
   * top bit only, the top bit and 1, a long all-ones one */
  for (int kind = 0; kind < 7; kind++) {
    if (key_kind != 0 && kind > 1) break;
    size_t en = kind == 1 ? 2 : 1;
    if (kind == 6) en = h < 4 ? h : 4;
    memset(e, 0, sizeof e);
    if (kind == 2) e[0] = 1;
    if (kind == 3) e[0] = ONES;
    if (kind == 4) e[0] = TOP_BIT;
    if (kind == 5) e[0] = TOP_BIT | 1;
    if (kind == 6) fill_pattern(e, en, PATTERN_ONES);
    static const int inputs[] = {0, 1, 2, 7};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
      if ((kind >= 2 || thin || key_kind != 0) && i != (kind % 2 ? 3 : 1)) continue;
      crt_input(c, key, inputs[i]);
      check_crt(key, c, key->dp, key->dq, e, en, "public exponent", kind * 10 + (int)i);
    }
  }
}

static void test_crt_structured(void **state) {
  (void)state;
  load_families();
  for (size_t t = 0; t < PRIME_TABLE_COUNT; t += slow_step()) {
    crt_key keys[4];
    for (int swap = 0; swap < 2; swap++) {
      prime_key(&keys[swap], &prime_table[t], swap);
      ones_key(&keys[2 + swap], &prime_table[t], swap);
    }
    for (int k = 0; k < 4; k++) run_crt_cases(&keys[k], k, prime_table[t].half >= 24);
    for (int k = 0; k < 4; k++) key_clear(&keys[k]);
  }
}

int main(int argc, char **argv) {
  test_seed(0x5374);
  if (argc > 1) cmocka_set_test_filter(argv[1]);
  if (sizeof(mp_limb_t) != sizeof(crisp_limb)) {
    printf("# GMP's limbs are not 64 bits: skipped\n");
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_mul_structured, test_teardown_unpin),
      cmocka_unit_test_teardown(test_sqr_structured, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mul_add_structured, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mont_structured, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mod_exp_structured, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mod_exp2_structured, test_teardown_unpin),
      cmocka_unit_test_teardown(test_crt_structured, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
