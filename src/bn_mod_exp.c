/* src/bn_mod_exp.c - crisp_bn_mod_exp: constant-time modular exponentiation
 * by fixed windows over Montgomery form, on the active mont_mul / mont_sqr
 * kernels (or the mont_mul implementation's own mod_exp when it has one).
 * Exponent bits are only ever data: every window squares w times and
 * multiplies once, and its table entry is gathered by reading every entry
 * under a mask, so neither branches nor addresses depend on base or exp. */
#include <stdlib.h>

#include "bn_internal.h"
#include "arithmetic/bn_window.h"
#include "crisp/bn.h"
#include "dispatch/select.h"
#include "util.h"

#define LIMB_BYTES sizeof(crisp_limb)
#define LIMB_BITS 64

/* out = table[index] for a secret index: reads all entries, keeps one by mask. */
static void gather(crisp_limb *out, const crisp_limb *table, size_t entries, crisp_limb index, size_t n) {
  memset(out, 0, n * LIMB_BYTES);
  for (size_t j = 0; j < entries; j++) {
    const crisp_limb mask = bn_equal_mask((crisp_limb)j, index);
    const crisp_limb *entry = table + j * n;
    for (size_t i = 0; i < n; i++) out[i] |= entry[i] & mask;
  }
}

/* The ladder itself; scratch holds (2^w + 4) * n limbs. */
static void fixed_window(crisp_limb *r, const crisp_limb *base, const crisp_limb *exp, size_t en,
                         const crisp_limb *m, size_t n, crisp_limb minv, unsigned w, crisp_limb *scratch) {
  const crisp_bn_mont_mul_impl *mul = crisp_active_bn_mont_mul();
  const crisp_bn_mont_sqr_impl *sqr = crisp_active_bn_mont_sqr();
  const size_t entries = (size_t)1 << w;
  crisp_limb *table = scratch, *acc = table + entries * n, *tmp = acc + n, *selected = tmp + n,
             *one = selected + n;

  /* table[0] = R mod m (Montgomery 1), table[1] = base * R mod m, then
   * table[i] = base^i * R mod m; m > 1 here, so 1 < m is a valid operand. */
  crisp_bn_mont_r2_unchecked(tmp, m, n, minv, sqr, table); /* table: 2^w >= 8 entries, not yet filled */
  memset(one, 0, n * LIMB_BYTES);
  one[0] = 1;
  mul->mont_mul(table, tmp, one, m, n, minv);
  mul->mont_mul(table + n, base, tmp, m, n, minv);
  for (size_t i = 2; i < entries; i++) {
    if (i % 2 == 0)
      sqr->mont_sqr(table + i * n, table + i / 2 * n, m, n, minv);
    else
      mul->mont_mul(table + i * n, table + (i - 1) * n, table + n, m, n, minv);
  }

  /* Windows aligned at bit 0, the top one possibly short (its high bits
   * are zero). */
  const size_t windows = (en * LIMB_BITS + w - 1) / w;
  gather(acc, table, entries, crisp_bn_window_at(exp, en, (windows - 1) * w, w), n);
  for (size_t k = windows - 1; k-- > 0;) {
    for (unsigned s = 0; s < w; s++) {
      sqr->mont_sqr(tmp, acc, m, n, minv);
      crisp_limb *swap = acc;
      acc = tmp, tmp = swap;
    }
    gather(selected, table, entries, crisp_bn_window_at(exp, en, k * w, w), n);
    mul->mont_mul(tmp, acc, selected, m, n, minv);
    crisp_limb *swap = acc;
    acc = tmp, tmp = swap;
  }
  /* Out of Montgomery form: acc * 1 * R^-1, fully reduced by the kernel. */
  mul->mont_mul(tmp, acc, one, m, n, minv);
  memcpy(r, tmp, n * LIMB_BYTES);
}

/* The checks and the exponentiation, as a call of their own: every frame
 * that held a secret lies below crisp_bn_mod_exp's, where its scrub
 * reaches. */
static __attribute__((noinline)) int mod_exp(crisp_limb *r, const crisp_limb *base, const crisp_limb *exp,
                                             size_t en, const crisp_limb *m, size_t n) {
  if (!r || !base || !m || !n || (en && !exp)) return CRISP_E_INVALID;
  if (n > CRISP_BN_MONT_MAX_LIMBS || en > SIZE_MAX / LIMB_BITS / 2) return CRISP_E_RANGE;
  if (!(m[0] & 1) || !m[n - 1]) return CRISP_E_INVALID;
  const size_t bytes = n * LIMB_BYTES;
  if (crisp_overlaps(r, bytes, m, bytes) || (en && crisp_overlaps(r, bytes, exp, en * LIMB_BYTES)) ||
      (r != base && crisp_overlaps(r, bytes, base, bytes)))
    return CRISP_E_INVALID;
  if (!bn_less_than(base, m, n)) return CRISP_E_RANGE;

  return crisp_bn_mod_exp_unchecked(r, base, exp, en, m, n);
}

int crisp_bn_mod_exp(crisp_limb *r, const crisp_limb *base, const crisp_limb *exp, size_t en,
                     const crisp_limb *m, size_t n) {
  const int status = mod_exp(r, base, exp, en, m, n);
  crisp_scrub_below(CRISP_SCRUB_EXP_BYTES(n));
  return status;
}

int crisp_bn_mod_exp_unchecked(crisp_limb *r, const crisp_limb *base, const crisp_limb *exp, size_t en,
                               const crisp_limb *m, size_t n) {
  const size_t bytes = n * LIMB_BYTES;
  /* m == 1 (only possible with n == 1) maps everything to 0; x^0 is 1. */
  if (n == 1 && m[0] == 1) {
    r[0] = 0;
    return CRISP_OK;
  }
  if (!en) {
    memset(r, 0, bytes);
    r[0] = 1;
    return CRISP_OK;
  }

  const crisp_limb minv = crisp_bn_mont_inv(m[0]);
  const crisp_bn_mont_mul_impl *mul = crisp_active_bn_mont_mul();
  if (mul->mod_exp) {
    const int status = mul->mod_exp(r, base, exp, en, m, n, minv);
    if (status != CRISP_E_UNSUPPORTED) return status;
  }

  const unsigned w = crisp_bn_window_bits(en * LIMB_BITS);
  const size_t scratch_limbs = (((size_t)1 << w) + 4) * n;
  crisp_limb *scratch = malloc(scratch_limbs * LIMB_BYTES);
  if (!scratch) return CRISP_E_NOMEM;
  fixed_window(r, base, exp, en, m, n, minv, w, scratch);
  crisp_wipe(scratch, scratch_limbs * LIMB_BYTES);
  free(scratch);
  return CRISP_OK;
}
