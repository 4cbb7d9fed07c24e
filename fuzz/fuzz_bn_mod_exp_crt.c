/* fuzz/fuzz_bn_mod_exp_crt.c - crisp_bn_mod_exp_crt: half size, an odd
 * "prime" p whose top two bits are set, a q, dp, dq, qinv below p, c below
 * p q and a one-limb e from the input (the primes need not be prime). The
 * key takes one of four shapes: q = p with dp = dq = e = 1, where the check
 * mod p and mod q would pass, and which must be refused (CRISP_E_INVALID,
 * r untouched); q = p - 2, coprime to p with qinv = (p - 1) / 2 its inverse,
 * with the input's dp, dq and e (the check almost never passes) or with
 * dp = dq = e = 1 (it always does); or the input's own q and qinv, a key
 * only when qinv q = 1 mod p (GMP says whether; without it generic's
 * verdict stands). Without the fault check (e == NULL), every bn_mod_exp2
 * implementation must give what generic gives, and generic, for a key,
 * what GMP gives for the same formula: m1 = c^dp mod p, m2 = c^dq mod q,
 * r = m2 + q (qinv (m1 - m2) mod p). With e, every implementation must
 * accept a key exactly when r^e = c mod p and mod q (GMP says which), and
 * otherwise return CRISP_E_MISMATCH with r zero. */
#include "fuzz_common.h"
#include "fuzz_oracle.h"

enum { MAX_HALF = 32 };

#ifdef FUZZ_WITH_GMP
static int oracle_crt(crisp_limb *r, const crisp_limb *c, const crisp_limb *p, const crisp_limb *q,
                      const crisp_limb *dp, const crisp_limb *dq, const crisp_limb *qinv, size_t h) {
  mpz_t zc, zp, zq, zdp, zdq, zqinv, m1, m2, t;
  mpz_inits(zc, zp, zq, zdp, zdq, zqinv, m1, m2, t, NULL);
  oracle_import(zc, c, 2 * h), oracle_import(zp, p, h), oracle_import(zq, q, h);
  oracle_import(zdp, dp, h), oracle_import(zdq, dq, h), oracle_import(zqinv, qinv, h);
  mpz_mod(m1, zc, zp);
  mpz_powm(m1, m1, zdp, zp);
  mpz_mod(m2, zc, zq);
  mpz_powm(m2, m2, zdq, zq);
  mpz_sub(t, m1, m2);
  mpz_mul(t, t, zqinv);
  mpz_mod(t, t, zp);
  mpz_mul(t, t, zq);
  mpz_add(t, t, m2);
  oracle_export(r, 2 * h, t);
  mpz_clears(zc, zp, zq, zdp, zdq, zqinv, m1, m2, t, NULL);
  return 1;
}

/* 1 when r^e = c mod p and mod q. */
static int oracle_check(const crisp_limb *r, const crisp_limb *c, const crisp_limb *p, const crisp_limb *q,
                        crisp_limb e, size_t h) {
  mpz_t zr, zc, zp, zq, ze, x, y;
  mpz_inits(zr, zc, zp, zq, ze, x, y, NULL);
  oracle_import(zr, r, 2 * h), oracle_import(zc, c, 2 * h), oracle_import(zp, p, h), oracle_import(zq, q, h);
  oracle_import(ze, &e, 1);
  int pass = 1;
  for (int half = 0; half < 2; half++) {
    const mpz_ptr m = half ? zq : zp;
    mpz_powm(x, zr, ze, m);
    mpz_mod(y, zc, m);
    pass &= mpz_cmp(x, y) == 0;
  }
  mpz_clears(zr, zc, zp, zq, ze, x, y, NULL);
  return pass;
}
/* 1 when qinv q = 1 mod p: p and q coprime, qinv the inverse. */
static int oracle_key(const crisp_limb *p, const crisp_limb *q, const crisp_limb *qinv, size_t h) {
  mpz_t zp, zq, zqinv;
  mpz_inits(zp, zq, zqinv, NULL);
  oracle_import(zp, p, h), oracle_import(zq, q, h), oracle_import(zqinv, qinv, h);
  mpz_mul(zq, zq, zqinv);
  mpz_mod(zq, zq, zp);
  const int key = mpz_cmp_ui(zq, 1) == 0;
  mpz_clears(zp, zq, zqinv, NULL);
  return key;
}
#endif

enum key_shape { EQUAL_HALVES, PARTNER, PARTNER_ONES, INPUT_KEY, KEY_SHAPES };

/* q = p - 2 and qinv = (p - 1) / 2 = q^-1 mod p (q = -2 mod p). */
static void partner(crisp_limb *q, crisp_limb *qinv, const crisp_limb *p, size_t h) {
  crisp_limb borrow = 2;
  for (size_t i = 0; i < h; i++) {
    q[i] = p[i] - borrow;
    borrow = p[i] < borrow;
  }
  for (size_t i = 0; i < h; i++) qinv[i] = (p[i] >> 1) | (i + 1 < h ? p[i + 1] << 63 : 0);
}

/* Runs the CRT into r filled with a pattern first; returns its status. */
static int run(crisp_limb *r, const crisp_limb *c, const crisp_limb *p, const crisp_limb *q,
               const crisp_limb *dp, const crisp_limb *dq, const crisp_limb *qinv, size_t h,
               const crisp_limb *e) {
  for (size_t i = 0; i <= 2 * h; i++) r[i] = 0x5a5a5a5a5a5a5a5aull;
  return crisp_bn_mod_exp_crt(r, c, p, q, dp, dq, qinv, h, e, e ? 1 : 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  const size_t h = 1 + fuzz_below(&in, MAX_HALF);
  crisp_limb p[MAX_HALF], q[MAX_HALF], dp[MAX_HALF], dq[MAX_HALF], qinv[MAX_HALF], c[2 * MAX_HALF];
  crisp_limb want[2 * MAX_HALF + 1], r[2 * MAX_HALF + 1];
  fuzz_modulus(&in, p, h);
  fuzz_modulus(&in, q, h);
  p[h - 1] |= (crisp_limb)3 << 62; /* so that p - 2 keeps its top bit */
  q[h - 1] |= (crisp_limb)1 << 63;
  fuzz_limbs(&in, dp, h);
  fuzz_limbs(&in, dq, h);
  fuzz_below_modulus(&in, qinv, p, h);
  fuzz_limbs(&in, c, 2 * h);
  c[2 * h - 1] >>= 2; /* p q >= 2^(128h - 2) */
  crisp_limb e[1];
  fuzz_limbs(&in, e, 1);
  const size_t shape = fuzz_below(&in, KEY_SHAPES);
  if (shape == EQUAL_HALVES) memcpy(q, p, h * sizeof(crisp_limb));
  if (shape == PARTNER || shape == PARTNER_ONES) partner(q, qinv, p, h);
  if (shape == EQUAL_HALVES || shape == PARTNER_ONES) {
    memset(dp, 0, h * sizeof(crisp_limb)), memset(dq, 0, h * sizeof(crisp_limb));
    dp[0] = dq[0] = e[0] = 1;
  }
  int key = shape == PARTNER || shape == PARTNER_ONES ? 1 : shape == EQUAL_HALVES ? 0 : -1;
#ifdef FUZZ_WITH_GMP
  if (key < 0) key = oracle_key(p, q, qinv, h);
#endif
  crisp_limb untouched[2 * MAX_HALF];
  for (size_t i = 0; i < 2 * h; i++) untouched[i] = 0x5a5a5a5a5a5a5a5aull;

  fuzz_pin(CRISP_KERNEL_BN_MOD_EXP2, "generic");
  const int accepted = run(want, c, p, q, dp, dq, qinv, h, NULL);
  fuzz_check(key < 0 ? accepted == CRISP_OK || accepted == CRISP_E_INVALID
                     : accepted == (key ? CRISP_OK : CRISP_E_INVALID),
             "generic crt half %zu, key shape %zu: status %d", h, shape, accepted);
  fuzz_check(accepted == CRISP_OK || !memcmp(want, untouched, 2 * h * sizeof(crisp_limb)),
             "generic crt: r written on a refusal, status %d", accepted);
#ifdef FUZZ_WITH_GMP
  crisp_limb outside[2 * MAX_HALF];
  fuzz_check(accepted != CRISP_OK || (oracle_crt(outside, c, p, q, dp, dq, qinv, h) &&
                                      !memcmp(outside, want, 2 * h * sizeof(crisp_limb))),
             "generic crt differs from GMP, half %zu", h);
#endif
  const char *impls[FUZZ_MAX_IMPLS];
  const size_t count = fuzz_impls(CRISP_KERNEL_BN_MOD_EXP2, impls, FUZZ_MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    fuzz_pin(CRISP_KERNEL_BN_MOD_EXP2, impls[i]);
    const char *name = crisp_impl_name(CRISP_KERNEL_BN_MOD_EXP2);
    const int status = run(r, c, p, q, dp, dq, qinv, h, NULL);
    fuzz_check(status == accepted, "crt %s status %d, generic %d", name, status, accepted);
    fuzz_check(!memcmp(r, want, 2 * h * sizeof(crisp_limb)), "crt %s: half %zu differs from generic", name,
               h);
    fuzz_check(r[2 * h] == 0x5a5a5a5a5a5a5a5aull, "crt %s wrote past r", name);
  }

  /* with the fault check: generic's verdict, then every implementation's */
  crisp_limb checked[2 * MAX_HALF + 1];
  fuzz_pin(CRISP_KERNEL_BN_MOD_EXP2, "generic");
  const int verdict = run(checked, c, p, q, dp, dq, qinv, h, e);
  fuzz_check(accepted == CRISP_OK ? verdict == CRISP_OK || verdict == CRISP_E_MISMATCH : verdict == accepted,
             "generic crt with e: status %d, without e %d", verdict, accepted);
  int zero = 1;
  for (size_t i = 0; i < 2 * h; i++) zero &= checked[i] == 0;
  fuzz_check(verdict == CRISP_OK           ? !memcmp(checked, want, 2 * h * sizeof(crisp_limb))
             : verdict == CRISP_E_MISMATCH ? zero
                                           : !memcmp(checked, untouched, 2 * h * sizeof(crisp_limb)),
             "generic crt with e: r is neither the result, nor wiped, nor untouched (status %d)", verdict);
#ifdef FUZZ_WITH_GMP
  fuzz_check(accepted != CRISP_OK || (verdict == CRISP_OK) == oracle_check(want, c, p, q, e[0], h),
             "generic crt with e: status %d, GMP disagrees, half %zu", verdict, h);
#endif
  for (size_t i = 0; i < count; i++) {
    fuzz_pin(CRISP_KERNEL_BN_MOD_EXP2, impls[i]);
    const char *name = crisp_impl_name(CRISP_KERNEL_BN_MOD_EXP2);
    const int status = run(r, c, p, q, dp, dq, qinv, h, e);
    fuzz_check(status == verdict, "crt %s with e: status %d, generic %d", name, status, verdict);
    fuzz_check(!memcmp(r, checked, 2 * h * sizeof(crisp_limb)),
               "crt %s with e: half %zu differs from generic", name, h);
    fuzz_check(r[2 * h] == 0x5a5a5a5a5a5a5a5aull, "crt %s wrote past r", name);
  }
  fuzz_pin(CRISP_KERNEL_BN_MOD_EXP2, NULL);
  return 0;
}
