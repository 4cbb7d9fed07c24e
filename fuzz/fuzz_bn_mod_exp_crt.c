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
 * otherwise return CRISP_E_MISMATCH with r zero. A flaw byte may then spoil
 * the key (an even p or q, p q short of 2 half limbs, qinv >= p): the
 * status is the documented refusal, r untouched.
 * The prepared key (crisp_bn_crt_key_new, crisp_bn_crt_key_exp) follows
 * the one-call form on every implementation, with and without e: key_new
 * refuses with the one-call status whenever that is a refusal (c < p q
 * here, so every refusal is about the key) and accepts otherwise; key_exp
 * gives the one-call status and r byte for byte, with a key prepared under
 * the implementation and with one prepared under generic; and c >= p q
 * (p q plus an amount from the input, c = p q included) gives
 * CRISP_E_RANGE with r untouched, as the one-call form does unless the key
 * itself is malformed (CRISP_E_INVALID comes first). */
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

/* What spoils a key after its shape: a malformed key (even p or q, p q
 * short of 2 half limbs: CRISP_E_INVALID) or qinv >= p (CRISP_E_RANGE). A
 * flaw byte past the last names none, so most inputs keep their key. */
enum key_flaw { NO_FLAW, EVEN_P, EVEN_Q, SHORT_PRODUCT, QINV_IS_P, QINV_ONES, KEY_FLAWS };

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

static const crisp_limb pattern = 0x5a5a5a5a5a5a5a5aull;

/* The CRT's inputs, what the harness knows of the key, and c >= p q. */
typedef struct crt_case {
  const crisp_limb *c, *p, *q, *dp, *dq, *qinv;
  size_t h;
  int malformed; /* an even p or q, p q short of 2h limbs or p == q */
  crisp_limb above[2 * MAX_HALF];
} crt_case;

/* key_exp into r filled with the pattern first; returns its status. */
static int run_key(crisp_limb *r, const crisp_limb *c, const crisp_bn_crt_key *key, size_t h) {
  for (size_t i = 0; i <= 2 * h; i++) r[i] = pattern;
  return crisp_bn_crt_key_exp(r, c, key);
}

/* key_exp on c and on c >= p q, against the one-call form's status and r. */
static void check_key_exp(const char *name, const char *how, const crt_case *k, const crisp_bn_crt_key *key,
                          int one_call, const crisp_limb *one_call_r) {
  crisp_limb r[2 * MAX_HALF + 1];
  const size_t h = k->h;
  const int status = run_key(r, k->c, key, h);
  fuzz_check(status == one_call, "crt key %s (%s): key_exp status %d, one call %d", name, how, status,
             one_call);
  fuzz_check(!memcmp(r, one_call_r, 2 * h * sizeof(crisp_limb)),
             "crt key %s (%s): key_exp r differs from the one call's, half %zu, status %d", name, how, h,
             status);
  fuzz_check(r[2 * h] == pattern, "crt key %s (%s): key_exp wrote past r", name, how);
  const int range = run_key(r, k->above, key, h);
  int untouched = 1;
  for (size_t i = 0; i <= 2 * h; i++) untouched &= r[i] == pattern;
  fuzz_check(range == CRISP_E_RANGE && untouched, "crt key %s (%s): key_exp with c >= p q: status %d, r %s",
             name, how, range, untouched ? "untouched" : "written");
}

/* The prepared key under the active implementations, against the one-call
 * form's status and r there (one_call, one_call_r), e NULL or one limb;
 * from_generic is the same key prepared under generic (NULL when refused). */
static void check_prepared(const char *name, const crt_case *k, const crisp_limb *e, int one_call,
                           const crisp_limb *one_call_r, const crisp_bn_crt_key *from_generic) {
  const size_t h = k->h;
  crisp_bn_crt_key *key = (crisp_bn_crt_key *)&pattern;
  const int made = crisp_bn_crt_key_new(&key, k->p, k->q, k->dp, k->dq, k->qinv, h, e, e ? 1 : 0);
  const int refusal = one_call != CRISP_OK && one_call != CRISP_E_MISMATCH;
  fuzz_check(refusal ? made == one_call : made == CRISP_OK, "crt key %s%s: key_new status %d, one call %d",
             name, e ? " with e" : "", made, one_call);
  fuzz_check((made == CRISP_OK) == (key != NULL), "crt key %s: key_new status %d with key %p", name, made,
             (void *)key);
  fuzz_check((made == CRISP_OK) == (from_generic != NULL), "crt key %s: key_new status %d, under generic %s",
             name, made, from_generic ? "accepted" : "refused");
  fuzz_check(!k->malformed || made == CRISP_E_INVALID, "crt key %s: malformed key, key_new status %d", name,
             made);
  /* the one-call form with c >= p q: the range verdict unless the key is malformed */
  crisp_limb r[2 * MAX_HALF + 1];
  const int above = run(r, k->above, k->p, k->q, k->dp, k->dq, k->qinv, h, e);
  int untouched = 1;
  for (size_t i = 0; i <= 2 * h; i++) untouched &= r[i] == pattern;
  fuzz_check(above == (k->malformed ? CRISP_E_INVALID : CRISP_E_RANGE) && untouched,
             "crt %s%s with c >= p q: status %d, r %s", name, e ? " with e" : "", above,
             untouched ? "untouched" : "written");
  if (key) check_key_exp(name, e ? "prepared here, with e" : "prepared here", k, key, one_call, one_call_r);
  if (from_generic)
    check_key_exp(name, e ? "prepared under generic, with e" : "prepared under generic", k, from_generic,
                  one_call, one_call_r);
  crisp_bn_crt_key_free(key);
}

/* k->above = p q + delta (2h limbs; all ones if that overflows), and
 * whether the key is malformed. */
static void set_above(crt_case *k, crisp_limb delta) {
  const size_t h = k->h;
  crisp_limb *const n = k->above;
  fuzz_check(crisp_bn_mul(n, k->p, h, k->q, h) == CRISP_OK, "crisp_bn_mul p q");
  k->malformed =
      !(k->p[0] & 1) || !(k->q[0] & 1) || !n[2 * h - 1] || !memcmp(k->p, k->q, h * sizeof(crisp_limb));
  for (size_t i = 0; i < 2 * h; i++) {
    n[i] += delta;
    delta = n[i] < delta;
  }
  if (delta) memset(n, 0xff, 2 * h * sizeof(crisp_limb));
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
  const uint8_t flaw_byte = fuzz_byte(&in);
  const size_t flaw = flaw_byte < KEY_FLAWS ? flaw_byte : NO_FLAW;
  if (flaw == EVEN_P) p[0] &= ~(crisp_limb)1;
  if (flaw == EVEN_Q) q[0] &= ~(crisp_limb)1;
  if (flaw == SHORT_PRODUCT) q[h - 1] = 0, q[0] |= 1;
  if (flaw == QINV_IS_P) memcpy(qinv, p, h * sizeof(crisp_limb));
  if (flaw == QINV_ONES) memset(qinv, 0xff, h * sizeof(crisp_limb));
  crt_case k = {c, p, q, dp, dq, qinv, h, 0, {0}};
  crisp_limb delta;
  fuzz_fill(&in, &delta, sizeof delta, 0);
  set_above(&k, delta);
  int key = shape == PARTNER || shape == PARTNER_ONES ? 1 : shape == EQUAL_HALVES ? 0 : -1;
  /* a refused key's status: CRISP_E_RANGE for qinv >= p unless the key is malformed */
  const int refusal = flaw == QINV_IS_P || flaw == QINV_ONES ? (k.malformed ? CRISP_E_INVALID : CRISP_E_RANGE)
                                                             : CRISP_E_INVALID;
  if (flaw != NO_FLAW) key = 0;
#ifdef FUZZ_WITH_GMP
  if (key < 0) key = oracle_key(p, q, qinv, h);
#endif
  crisp_limb untouched[2 * MAX_HALF];
  for (size_t i = 0; i < 2 * h; i++) untouched[i] = 0x5a5a5a5a5a5a5a5aull;

  fuzz_pin(CRISP_KERNEL_BN_MOD_EXP2, "generic");
  const int accepted = run(want, c, p, q, dp, dq, qinv, h, NULL);
  fuzz_check(key < 0 ? accepted == CRISP_OK || accepted == refusal : accepted == (key ? CRISP_OK : refusal),
             "generic crt half %zu, key shape %zu: status %d", h, shape, accepted);
  fuzz_check(accepted == CRISP_OK || !memcmp(want, untouched, 2 * h * sizeof(crisp_limb)),
             "generic crt: r written on a refusal, status %d", accepted);
#ifdef FUZZ_WITH_GMP
  crisp_limb outside[2 * MAX_HALF];
  fuzz_check(accepted != CRISP_OK || (oracle_crt(outside, c, p, q, dp, dq, qinv, h) &&
                                      !memcmp(outside, want, 2 * h * sizeof(crisp_limb))),
             "generic crt differs from GMP, half %zu", h);
#endif
  /* the prepared keys under generic, with and without e */
  crisp_bn_crt_key *generic_key = NULL, *generic_key_e = NULL;
  (void)crisp_bn_crt_key_new(&generic_key, p, q, dp, dq, qinv, h, NULL, 0);
  (void)crisp_bn_crt_key_new(&generic_key_e, p, q, dp, dq, qinv, h, e, 1);
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
    check_prepared(name, &k, NULL, status, r, generic_key);
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
    check_prepared(name, &k, e, status, r, generic_key_e);
  }
  crisp_bn_crt_key_free(generic_key);
  crisp_bn_crt_key_free(generic_key_e);
  fuzz_pin(CRISP_KERNEL_BN_MOD_EXP2, NULL);
  return 0;
}
