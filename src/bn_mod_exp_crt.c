/* src/bn_mod_exp_crt.c - crisp_bn_mod_exp_crt and the prepared key
 * (crisp_bn_crt_key_new, _exp, _free): the RSA private-key operation by the
 * Chinese remainder theorem, in one call or with the key's checks and setup
 * (crt_prepare) made once and the rest (crt_apply) per call; the one-call
 * form runs both back to back. c is reduced mod p and mod q
 * by Montgomery reductions (no division), both exponentiations run in one
 * crisp_bn_mod_exp2 call, Garner's formula recombines them, and, when the
 * public exponent is given, r^e = c mod p*q is checked before r is released
 * (a fault in one half would otherwise hand out a value whose gcd with p*q
 * is a factor: the Bellcore attack), as r^e = c mod p and mod q, each at
 * half the size, both together where the bn_mod_exp2 implementation can.
 * The check is made mod p and mod q, which is mod p*q only for coprime p
 * and q: qinv q = 1 mod p, checked first, proves them so (p == q and
 * halves sharing a factor are refused).
 * p, q and everything derived from them are secret, so after the public
 * checks (pointers, sizes, overlaps) nothing branches: the key and range
 * checks become masks, every step always runs, and the status and what is
 * written to r are chosen by those masks at the end. The only branches on
 * secret-derived bits are p's and q's lowest bit (odd, as every prime but
 * 2), which crisp_bn_mont_inv tests, for one-limb halves only whether p or
 * q is 1 (the single exponentiation's special case), and the prepared
 * key's status, public as the return value, on which release_prepared
 * frees a refused key. */
#include <stdlib.h>

#include "bn_internal.h"
#include "crisp/bn.h"
#include "dispatch/select.h"
#include "util.h"

#define LIMB_BYTES sizeof(crisp_limb)
#define LIMB_BITS 64

/* Scratch, in half-size (h) units: eight h-limb values, then four 2h-limb
 * values. */
enum { SCRATCH_HALVES = 8 + 2 * 4 };

typedef struct crt_scratch {
  crisp_limb *cp, *cq, *m1, *m2, *r2p, *r2q, *base, *acc; /* h limbs each */
  crisp_limb *wide, *n, *result, *x;                      /* 2h limbs each (x: h used) */
} crt_scratch;

/* -m0^-1 mod 2^64 by Newton's iteration, without crisp_bn_mont_inv's
 * parity branch (an even m0 gives garbage, which the masks discard). */
static crisp_limb mont_inv(crisp_limb m0) {
  crisp_limb x = m0;
  for (int i = 0; i < 5; i++) x *= 2 - m0 * x;
  return 0 - x;
}

/* All ones when x is nonzero, else 0; the mask hidden too, as in
 * bn_equal_mask. */
static crisp_limb nonzero_mask(crisp_limb x) {
  x = crisp_value_barrier(x);
  return crisp_value_barrier(0 - ((x | (0 - x)) >> 63));
}

/* out = x mod m for x of 2h limbs below m R (R = 2^(64h)), held in wide
 * (destroyed): a Montgomery reduction (its rows by the active bn_mul_add
 * kernel) gives x R^-1, a product with R^2 puts R back. tmp is h limbs of
 * scratch. */
static void reduce_wide(crisp_limb *out, crisp_limb *wide, const crisp_limb *m, const crisp_limb *r2,
                        size_t h, crisp_limb minv, crisp_limb *tmp) {
  bn_mont_reduce(tmp, wide, m, h, minv, crisp_active_bn_mul_add()->mul_add);
  crisp_active_bn_mont_mul()->mont_mul(out, tmp, r2, m, h, minv);
}

/* All ones when x^e mod m differs from want, for the public exponent e:
 * left-to-right square and multiply over the Montgomery kernels, branching
 * on e's bits only. x (2h limbs) is destroyed; r2 = R^2 mod m; base, acc,
 * out and tmp are h limbs of scratch each. */
static crisp_limb power_differs(crisp_limb *x, const crisp_limb *e, size_t en, const crisp_limb *m,
                                const crisp_limb *r2, crisp_limb minv, const crisp_limb *want, size_t h,
                                crisp_limb *base, crisp_limb *acc, crisp_limb *out, crisp_limb *tmp) {
  const crisp_bn_mont_mul_impl *mul = crisp_active_bn_mont_mul();
  const crisp_bn_mont_sqr_impl *sqr = crisp_active_bn_mont_sqr();
  bn_mont_reduce(tmp, x, m, h, minv, crisp_active_bn_mul_add()->mul_add); /* x R^-1 mod m */
  mul->mont_mul(base, tmp, r2, m, h, minv);                               /* x mod m */
  mul->mont_mul(tmp, base, r2, m, h, minv);                               /* x R mod m */
  memcpy(base, tmp, h * LIMB_BYTES);
  int started = 0;
  for (size_t bit = en * LIMB_BITS; bit-- > 0;) {
    if (started) {
      sqr->mont_sqr(out, acc, m, h, minv);
      memcpy(acc, out, h * LIMB_BYTES);
    }
    if ((e[bit / LIMB_BITS] >> (bit % LIMB_BITS)) & 1) {
      if (started)
        mul->mont_mul(out, acc, base, m, h, minv);
      else
        memcpy(out, base, h * LIMB_BYTES);
      memcpy(acc, out, h * LIMB_BYTES);
      started = 1;
    }
  }
  memset(tmp, 0, h * LIMB_BYTES); /* the constant 1 */
  tmp[0] = 1;
  if (started)
    mul->mont_mul(out, acc, tmp, m, h, minv); /* out of Montgomery form */
  else
    memcpy(out, tmp, h * LIMB_BYTES); /* x^0 */
  crisp_limb differ = 0;
  for (size_t i = 0; i < h; i++) differ |= out[i] ^ want[i];
  return nonzero_mask(differ);
}

/* z[0..n) += x[0..xn) for xn <= n, carry dropped (the caller knows the sum
 * fits); comparisons, not branches, carry. */
static void add_into(crisp_limb *z, size_t n, const crisp_limb *x, size_t xn) {
  crisp_limb carry = 0;
  for (size_t i = 0; i < n; i++) {
    const crisp_limb sum = z[i] + (i < xn ? x[i] : 0);
    const crisp_limb carry_out = sum < z[i];
    z[i] = sum + carry;
    carry = carry_out | (z[i] < carry);
  }
}

/* Garner: h = qinv (m1 - m2) mod p, with m2 reduced mod p first (q may
 * exceed p); result = m2 + h q < p q. Uses acc, base, wide and x. */
static void garner(const crt_scratch *s, const crisp_limb *p, const crisp_limb *q, const crisp_limb *qinv,
                   size_t h, crisp_limb pinv) {
  const crisp_bn_mont_mul_impl *mul = crisp_active_bn_mont_mul();
  crisp_limb *const m2p = s->acc, *const diff = s->base, *const tmp = s->x;
  memcpy(s->wide, s->m2, h * LIMB_BYTES);
  memset(s->wide + h, 0, h * LIMB_BYTES);
  reduce_wide(m2p, s->wide, p, s->r2p, h, pinv, tmp);
  const crisp_limb borrow = bn_sub_row(diff, s->m1, m2p, h);
  const crisp_limb add_p = 0 - crisp_value_barrier(borrow);
  for (size_t i = 0; i < h; i++) tmp[i] = p[i] & add_p;
  add_into(diff, h, tmp, h);                    /* + p when it borrowed */
  mul->mont_mul(tmp, qinv, s->r2p, p, h, pinv); /* qinv R mod p */
  mul->mont_mul(s->acc, tmp, diff, p, h, pinv); /* qinv (m1 - m2) mod p */
  crisp_active_bn_mul()->mul(s->result, s->acc, h, q, h);
  add_into(s->result, 2 * h, s->m2, h);
}

/* The check's bases: base = r mod p, acc = r mod q (r = s->result). */
static void reduce_result(const crt_scratch *s, const crisp_limb *p, const crisp_limb *q, size_t h,
                          crisp_limb pinv, crisp_limb qinvm) {
  memcpy(s->wide, s->result, 2 * h * LIMB_BYTES);
  reduce_wide(s->base, s->wide, p, s->r2p, h, pinv, s->x);
  memcpy(s->wide, s->result, 2 * h * LIMB_BYTES);
  reduce_wide(s->acc, s->wide, q, s->r2q, h, qinvm, s->x);
}

/* All ones when y0 differs from cp or y1 from cq. */
static crisp_limb halves_differ(const crt_scratch *s, const crisp_limb *y0, const crisp_limb *y1, size_t h) {
  crisp_limb bits = 0;
  for (size_t i = 0; i < h; i++) bits |= (y0[i] ^ s->cp[i]) | (y1[i] ^ s->cq[i]);
  return nonzero_mask(bits);
}

/* r2 = R^2 mod m for the half-size modulus. */
static void half_r2(crisp_limb *r2, const crisp_limb *m, size_t h) {
  crisp_limb work[CRISP_BN_MONT_MAX_LIMBS]; /* 2h limbs; in the frames the CRT's scrub covers */
  crisp_bn_mont_r2_unchecked(r2, m, h, mont_inv(m[0]), crisp_active_bn_mont_sqr(), work);
}

/* R^2 mod p and mod q, both together where the bn_mod_exp2
 * implementation can. */
static void half_r2_pair(crisp_limb *r2p, crisp_limb *r2q, const crisp_limb *p, const crisp_limb *q, size_t h,
                         crisp_limb pinv, crisp_limb qinvm) {
  const crisp_bn_mod_exp2_impl *impl = crisp_active_bn_mod_exp2();
  crisp_limb *const r2[2] = {r2p, r2q};
  const crisp_limb *const modulus[2] = {p, q};
  const crisp_limb minv[2] = {pinv, qinvm};
  if (impl->r2_pair && impl->r2_pair(r2, modulus, minv, h) == CRISP_OK) return;
  half_r2(r2p, p, h);
  half_r2(r2q, q, h);
}

/* What the CRT does between the exponentiations and the check's powers
 * when the bn_mod_exp2 implementation runs both (crisp_bn_exp2_check): the
 * fault hook, Garner, and the check's bases r mod p and mod q. */
typedef struct crt_after {
  const crt_scratch *s;
  const crisp_limb *p, *q, *qinv;
  size_t h;
  crisp_limb pinv, qinvm;
  void (*fault)(crisp_limb *, size_t);
} crt_after;

static void write_check_bases(void *ctx) {
  const crt_after *a = ctx;
  if (a->fault) a->fault(a->s->m1, a->h);
  garner(a->s, a->p, a->q, a->qinv, a->h, a->pinv);
  reduce_result(a->s, a->p, a->q, a->h, a->pinv, a->qinvm);
}

/* All ones when p == q. */
static crisp_limb halves_equal(const crisp_limb *p, const crisp_limb *q, size_t h) {
  crisp_limb bits = 0;
  for (size_t i = 0; i < h; i++) bits |= p[i] ^ q[i];
  return ~nonzero_mask(bits);
}

/* All ones unless qinv q = 1 mod p. Some qinv passes only when p and q are
 * coprime, and then r^e = c mod p and mod q is r^e = c mod p*q: the
 * promise the fault check makes. p = 1 (one-limb halves only) passes, as
 * every number is an inverse mod 1. qinv < p (the range check's verdict
 * covers the rest). Uses base, acc, m1, wide and x. */
static crisp_limb not_inverse(const crt_scratch *s, const crisp_limb *p, const crisp_limb *q,
                              const crisp_limb *qinv, size_t h, crisp_limb pinv) {
  const crisp_bn_mont_mul_impl *mul = crisp_active_bn_mont_mul();
  memcpy(s->wide, q, h * LIMB_BYTES);
  memset(s->wide + h, 0, h * LIMB_BYTES);
  reduce_wide(s->base, s->wide, p, s->r2p, h, pinv, s->x); /* q mod p */
  mul->mont_mul(s->acc, qinv, s->r2p, p, h, pinv);         /* qinv R mod p */
  mul->mont_mul(s->m1, s->acc, s->base, p, h, pinv);       /* qinv q mod p */
  crisp_limb product_bits = s->m1[0] ^ 1, modulus_bits = p[0] ^ 1;
  for (size_t i = 1; i < h; i++) product_bits |= s->m1[i], modulus_bits |= p[i];
  return nonzero_mask(product_bits) & nonzero_mask(modulus_bits);
}

/* What the key alone decides, as masks (all ones = bad): an even p or q,
 * p q not filling 2h limbs or p == q (bad_key); qinv >= p (bad_qinv); qinv
 * not q's inverse mod p (bad_inverse, clear when either of the others is
 * set). */
typedef struct crt_verdict {
  crisp_limb bad_key, bad_qinv, bad_inverse;
} crt_verdict;

/* The key's part, before any c: n = p q, R^2 mod p and mod q into the
 * scratch, and the key's verdict. */
static crt_verdict crt_prepare(const crt_scratch *s, const crisp_limb *p, const crisp_limb *q,
                               const crisp_limb *qinv, size_t h) {
  const size_t nn = 2 * h;
  const crisp_limb pinv = mont_inv(p[0]), qinvm = mont_inv(q[0]);
  crt_verdict v;
  crisp_active_bn_mul()->mul(s->n, p, h, q, h);
  v.bad_key = ~(0 - (p[0] & q[0] & 1)) | ~nonzero_mask(s->n[nn - 1]) | halves_equal(p, q, h);
  v.bad_qinv = ~v.bad_key & ~(0 - bn_less_than(qinv, p, h));
  half_r2_pair(s->r2p, s->r2q, p, q, h, pinv, qinvm);
  v.bad_inverse = ~v.bad_key & ~v.bad_qinv & not_inverse(s, p, q, qinv, h, pinv);
  return v;
}

/* The status the masks give, in the documented order. The callers build
 * them exclusive (each clear where an earlier one is set), so at most one
 * code is taken: ORed codes of two set masks would be no code at all. */
static int verdict_status(crisp_limb invalid, crisp_limb range, crisp_limb mismatch) {
  const crisp_limb code = (invalid & (crisp_limb)(0 - CRISP_E_INVALID)) |
                          (range & (crisp_limb)(0 - CRISP_E_RANGE)) |
                          (mismatch & (crisp_limb)(0 - CRISP_E_MISMATCH));
  return -(int)code;
}

/* The key's values crt_apply reads beside the scratch's n and R^2s. */
typedef struct crt_key_view {
  const crisp_limb *p, *q, *dp, *dq, *qinv, *e;
  size_t h, en;
} crt_key_view;

/* The computation for c, with n, R^2 mod p and mod q in the scratch and the
 * key's verdict v; returns the masks' verdict as a status. */
static __attribute__((noinline)) int crt_apply(crisp_limb *r, const crisp_limb *c, const crt_key_view *key,
                                               crt_verdict v, void (*fault)(crisp_limb *, size_t),
                                               const crt_scratch *s) {
  const crisp_limb *const p = key->p, *const q = key->q, *const dp = key->dp, *const dq = key->dq;
  const crisp_limb *const qinv = key->qinv, *const e = key->e;
  const size_t h = key->h, en = key->en, nn = 2 * h;
  const crisp_limb pinv = mont_inv(p[0]), qinvm = mont_inv(q[0]);
  const crisp_limb bad_key = v.bad_key;
  const crisp_limb bad_range = v.bad_qinv | (~bad_key & ~(0 - bn_less_than(c, s->n, nn)));
  const crisp_limb bad_inverse = v.bad_inverse & ~bad_range;

  /* c mod p, c mod q */
  memcpy(s->wide, c, nn * LIMB_BYTES);
  reduce_wide(s->cp, s->wide, p, s->r2p, h, pinv, s->x);
  memcpy(s->wide, c, nn * LIMB_BYTES);
  reduce_wide(s->cq, s->wide, q, s->r2q, h, qinvm, s->x);

  /* test only (meson -Dplant_leak=key): a branch on a bit of the key, which
   * the timing test's key target must catch; behind it an exponentiation
   * pair with a quarter of the exponents' limbs, so the leak is about the
   * same share of the work on every implementation */
#if defined(CRISP_PLANT_LEAK_KEY)
  if ((p[0] >> 8) & 1) {
    const crisp_bn_exp_lane planted[2] = {{s->base, s->cp, dp, p, crisp_bn_mont_inv(p[0]), s->r2p},
                                          {s->acc, s->cq, dq, q, crisp_bn_mont_inv(q[0]), s->r2q}};
    (void)crisp_bn_mod_exp2_unchecked(planted, h / 4 ? h / 4 : 1, h);
  }
#endif

  /* m1 = cp^dp mod p, m2 = cq^dq mod q, together; with e given, the
   * implementation's mod_exp2 runs the check too where it takes the size
   * and exponent, with Garner and the check's reductions (after) between
   * the exponentiations and the check's powers. */
  crt_after after = {s, p, q, qinv, h, pinv, qinvm, fault};
  crisp_bn_exp_lane lane[2] = {{s->m1, s->cp, dp, p, pinv, s->r2p}, {s->m2, s->cq, dq, q, qinvm, s->r2q}};
  const crisp_bn_exp2_check check = {write_check_bases, &after, {s->base, s->acc}, {s->n, s->x}, e, en};
  crisp_limb mismatch = 0, differ = 0;
  int paired_with_check = CRISP_E_UNSUPPORTED;
  const crisp_bn_mod_exp2_impl *impl = crisp_active_bn_mod_exp2();
  if (e && impl->mod_exp2 && h > 1) paired_with_check = impl->mod_exp2(lane, h, h, &check);
  if (paired_with_check == CRISP_E_NOMEM) return paired_with_check; /* public; r untouched */
  if (paired_with_check == CRISP_OK) {
    differ = halves_differ(s, s->n, s->x, h);
  } else {
    lane[0].minv = crisp_bn_mont_inv(p[0]);
    lane[1].minv = crisp_bn_mont_inv(q[0]);
    const int status = crisp_bn_mod_exp2_unchecked(lane, h, h);
    if (status != CRISP_OK) return status; /* CRISP_E_NOMEM: public */
    if (fault) fault(s->m1, h);
    garner(s, p, q, qinv, h, pinv);
    /* The fault check, r^e = c mod p q, as r^e = c mod p and mod q (the
     * same thing, since p and q are coprime when bad_inverse is clear, at
     * half the size): against the reductions of c the exponentiations
     * started from. */
    if (e) {
      memcpy(s->wide, s->result, nn * LIMB_BYTES);
      differ = power_differs(s->wide, e, en, p, s->r2p, pinv, s->cp, h, s->base, s->acc, s->m1, s->x);
      memcpy(s->wide, s->result, nn * LIMB_BYTES);
      differ |= power_differs(s->wide, e, en, q, s->r2q, qinvm, s->cq, h, s->base, s->acc, s->m1, s->x);
    }
  }
  if (e) mismatch = ~bad_key & ~bad_range & ~bad_inverse & differ;

  /* r: untouched on a bad key or range, zero on a mismatch, else result. */
  const crisp_limb keep = bad_key | bad_range | bad_inverse, take = ~keep & ~mismatch;
  for (size_t i = 0; i < nn; i++) r[i] = (r[i] & keep) | (s->result[i] & take);
  return verdict_status(bad_key | bad_inverse, bad_range, mismatch);
}

/* The whole computation for the one-call form; not inlined, so that its
 * frame lies below the caller's scrub. */
static __attribute__((noinline)) int crt(crisp_limb *r, const crisp_limb *c, const crt_key_view *key,
                                         void (*fault)(crisp_limb *, size_t), const crt_scratch *s) {
  const crt_verdict v = crt_prepare(s, key->p, key->q, key->qinv, key->h);
  return crt_apply(r, c, key, v, fault, s);
}

/* The scratch: one block of SCRATCH_HALVES * h limbs, NULL when it cannot
 * be allocated. */
static crisp_limb *scratch_new(crt_scratch *s, size_t h) {
  crisp_limb *block = malloc(SCRATCH_HALVES * h * LIMB_BYTES);
  if (!block) return NULL;
  const size_t nn = 2 * h;
  crisp_limb **const halves[] = {&s->cp, &s->cq, &s->m1, &s->m2, &s->r2p, &s->r2q, &s->base, &s->acc};
  crisp_limb **const wides[] = {&s->wide, &s->n, &s->result, &s->x};
  for (size_t i = 0; i < 8; i++) *halves[i] = block + i * h;
  for (size_t i = 0; i < 4; i++) *wides[i] = block + 8 * h + i * nn;
  return block;
}

/* The stack below the caller's frame and the scratch wiped, the scratch
 * freed; inlined, so that the scrub starts below the caller's frame. */
static inline __attribute__((always_inline)) void scratch_free(crisp_limb *block, size_t h) {
  crisp_scrub_below(CRISP_SCRUB_EXP_BYTES(h));
  crisp_wipe(block, SCRATCH_HALVES * h * LIMB_BYTES);
  free(block);
}

/* The checks on pointers, sizes and overlaps both forms make, in the
 * documented order; r and c are NULL for crisp_bn_crt_key_new. */
static int public_checks(const crisp_limb *r, const crisp_limb *c, const crisp_limb *p, const crisp_limb *q,
                         const crisp_limb *dp, const crisp_limb *dq, const crisp_limb *qinv, size_t half,
                         const crisp_limb *e, size_t en) {
  if (!p || !q || !dp || !dq || !qinv || !half || (e && !en)) return CRISP_E_INVALID;
  if (half > CRISP_BN_MONT_MAX_LIMBS / 2 || (e && en > SIZE_MAX / LIMB_BITS / 2)) return CRISP_E_RANGE;
  if (!r) return CRISP_OK;
  const size_t nn = 2 * half, wide = nn * LIMB_BYTES, narrow = half * LIMB_BYTES;
  if (crisp_overlaps(r, wide, p, narrow) || crisp_overlaps(r, wide, q, narrow) ||
      crisp_overlaps(r, wide, dp, narrow) || crisp_overlaps(r, wide, dq, narrow) ||
      crisp_overlaps(r, wide, qinv, narrow) || (e && crisp_overlaps(r, wide, e, en * LIMB_BYTES)) ||
      (r != c && crisp_overlaps(r, wide, c, wide)))
    return CRISP_E_INVALID;
  return CRISP_OK;
}

int crisp_bn_mod_exp_crt_hooked(crisp_limb *r, const crisp_limb *c, const crisp_limb *p, const crisp_limb *q,
                                const crisp_limb *dp, const crisp_limb *dq, const crisp_limb *qinv,
                                size_t half, const crisp_limb *e, size_t en,
                                void (*fault)(crisp_limb *m1, size_t half)) {
  if (!r || !c) return CRISP_E_INVALID;
  const int checked = public_checks(r, c, p, q, dp, dq, qinv, half, e, en);
  if (checked != CRISP_OK) return checked;
  crt_scratch s;
  crisp_limb *block = scratch_new(&s, half);
  if (!block) return CRISP_E_NOMEM;
  /* r is written last, after the check has read c: r == c is safe. */
  const crt_key_view key = {p, q, dp, dq, qinv, e, half, en};
  const int status = crt(r, c, &key, fault, &s);
  scratch_free(block, half);
  return status;
}

int crisp_bn_mod_exp_crt(crisp_limb *r, const crisp_limb *c, const crisp_limb *p, const crisp_limb *q,
                         const crisp_limb *dp, const crisp_limb *dq, const crisp_limb *qinv, size_t half,
                         const crisp_limb *e, size_t en) {
  return crisp_bn_mod_exp_crt_hooked(r, c, p, q, dp, dq, qinv, half, e, en, NULL);
}

/* A prepared key: the caller's values copied, and what crt_prepare found
 * (n, R^2 mod p and mod q), all in limbs[]. */
struct crisp_bn_crt_key {
  size_t half, en, limbs_count;
  crisp_limb *p, *q, *dp, *dq, *qinv, *e, *n, *r2p, *r2q;
  crisp_limb limbs[];
};

/* The key's verdict on its own values, with n and the R^2s copied into
 * key (a refused key is wiped and freed after); not inlined, so that its
 * frame lies below the caller's scrub. */
static __attribute__((noinline)) int key_prepare(crisp_bn_crt_key *key, const crt_scratch *s) {
  const size_t h = key->half;
  const crt_verdict v = crt_prepare(s, key->p, key->q, key->qinv, h);
  const int status = verdict_status(v.bad_key | v.bad_inverse, v.bad_qinv, 0);
  memcpy(key->n, s->n, 2 * h * LIMB_BYTES);
  memcpy(key->r2p, s->r2p, h * LIMB_BYTES);
  memcpy(key->r2q, s->r2q, h * LIMB_BYTES);
  return status;
}

void crisp_bn_crt_key_free(crisp_bn_crt_key *key) {
  if (!key) return;
  crisp_wipe(key, sizeof *key + key->limbs_count * LIMB_BYTES);
  free(key);
}

/* *out = key for a good verdict, else the key freed: the one branch on
 * the verdict, which is public (the status returned). Not inlined, so that
 * the constant-time checks' exceptions name this site alone. */
static __attribute__((noinline)) int release_prepared(crisp_bn_crt_key **out, crisp_bn_crt_key *key,
                                                      int status) {
  if (status != CRISP_OK) {
    crisp_bn_crt_key_free(key);
    return status;
  }
  *out = key;
  return CRISP_OK;
}

int crisp_bn_crt_key_new(crisp_bn_crt_key **out, const crisp_limb *p, const crisp_limb *q,
                         const crisp_limb *dp, const crisp_limb *dq, const crisp_limb *qinv, size_t half,
                         const crisp_limb *e, size_t en) {
  if (!out) return CRISP_E_INVALID;
  *out = NULL;
  const int checked = public_checks(NULL, NULL, p, q, dp, dq, qinv, half, e, en);
  if (checked != CRISP_OK) return checked;
  const size_t h = half, e_limbs = e ? en : 0, count = 9 * h + e_limbs;
  crisp_bn_crt_key *key = malloc(sizeof *key + count * LIMB_BYTES);
  if (!key) return CRISP_E_NOMEM;
  crt_scratch s;
  crisp_limb *block = scratch_new(&s, h);
  if (!block) {
    free(key);
    return CRISP_E_NOMEM;
  }
  key->half = h, key->en = e_limbs, key->limbs_count = count;
  crisp_limb **const parts[] = {&key->p, &key->q, &key->dp, &key->dq, &key->qinv, &key->r2p, &key->r2q};
  const crisp_limb *const from[] = {p, q, dp, dq, qinv};
  for (size_t i = 0; i < 7; i++) *parts[i] = key->limbs + i * h;
  for (size_t i = 0; i < 5; i++) memcpy(*parts[i], from[i], h * LIMB_BYTES);
  key->n = key->limbs + 7 * h;
  key->e = e ? key->n + 2 * h : NULL;
  if (e) memcpy(key->e, e, en * LIMB_BYTES);
  const int status = key_prepare(key, &s);
  scratch_free(block, h);
  return release_prepared(out, key, status);
}

int crisp_bn_crt_key_exp_hooked(crisp_limb *r, const crisp_limb *c, const crisp_bn_crt_key *key,
                                void (*fault)(crisp_limb *m1, size_t half)) {
  if (!r || !c || !key) return CRISP_E_INVALID;
  const size_t h = key->half, wide = 2 * h * LIMB_BYTES;
  if (r != c && crisp_overlaps(r, wide, c, wide)) return CRISP_E_INVALID;
  crt_scratch s;
  crisp_limb *block = scratch_new(&s, h);
  if (!block) return CRISP_E_NOMEM;
  memcpy(s.n, key->n, wide);
  memcpy(s.r2p, key->r2p, h * LIMB_BYTES);
  memcpy(s.r2q, key->r2q, h * LIMB_BYTES);
  const crt_key_view view = {key->p, key->q, key->dp, key->dq, key->qinv, key->e, h, key->en};
  const crt_verdict good = {0, 0, 0};
  const int status = crt_apply(r, c, &view, good, fault, &s);
  scratch_free(block, h);
  return status;
}

int crisp_bn_crt_key_exp(crisp_limb *r, const crisp_limb *c, const crisp_bn_crt_key *key) {
  return crisp_bn_crt_key_exp_hooked(r, c, key, NULL);
}
