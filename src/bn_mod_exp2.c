/* src/bn_mod_exp2.c - crisp_bn_mod_exp2: two independent constant-time
 * exponentiations in one call, for the active bn_mod_exp2 implementation to
 * interleave. Checks both halves as crisp_bn_mod_exp does, copies a base
 * its result aliases (kernels write outputs that overlap no input), and
 * runs two single exponentiations when the implementation has no dual
 * kernel or does not take the size. */
#include <stdlib.h>

#include "bn_internal.h"
#include "crisp/bn.h"
#include "dispatch/select.h"
#include "util.h"

#define LIMB_BYTES sizeof(crisp_limb)
#define LIMB_BITS 64

static int overlap(const crisp_limb *a, size_t an, const crisp_limb *b, size_t bn) {
  return bn && crisp_overlaps(a, an * LIMB_BYTES, b, bn * LIMB_BYTES);
}

/* One half's modulus: CRISP_OK or the error code for it. */
static int check_modulus(const crisp_limb *m, size_t n) {
  if (!(m[0] & 1) || !m[n - 1]) return CRISP_E_INVALID;
  return CRISP_OK;
}

/* r may equal its own base; any other overlap of r with an input, or of
 * the two results, is refused. */
static int outputs_overlap(const crisp_limb *r, const crisp_limb *own_base, const crisp_limb *const inputs[5],
                           const size_t lengths[5], size_t n) {
  if (r != own_base && overlap(r, n, own_base, n)) return 1;
  for (int i = 0; i < 5; i++)
    if (overlap(r, n, inputs[i], lengths[i])) return 1;
  return 0;
}

int crisp_bn_mod_exp2_unchecked(const crisp_bn_exp_lane lane[2], size_t exponent_limbs, size_t n) {
  /* The special cases (a modulus of 1, an empty exponent) and tiny moduli
   * go the single way, where they are handled once. */
  const crisp_bn_mod_exp2_impl *impl = crisp_active_bn_mod_exp2();
  if (exponent_limbs && n > 1 && impl->mod_exp2) {
    const int status = impl->mod_exp2(lane, exponent_limbs, n, NULL);
    if (status != CRISP_E_UNSUPPORTED) return status;
  }
  int status = CRISP_OK;
  for (int l = 0; l < 2 && status == CRISP_OK; l++)
    status = crisp_bn_mod_exp_unchecked(lane[l].result, lane[l].base, lane[l].exponent, exponent_limbs,
                                        lane[l].modulus, n);
  return status;
}

/* The checks and both exponentiations, as a call of their own: every
 * frame that held a secret lies below crisp_bn_mod_exp2's, where its scrub
 * reaches. */
static __attribute__((noinline)) int mod_exp2(crisp_limb *r0, crisp_limb *r1, const crisp_limb *b0,
                                              const crisp_limb *b1, const crisp_limb *e0,
                                              const crisp_limb *e1, size_t en, const crisp_limb *m0,
                                              const crisp_limb *m1, size_t n) {
  if (!r0 || !r1 || !b0 || !b1 || !m0 || !m1 || !n || (en && (!e0 || !e1))) return CRISP_E_INVALID;
  if (n > CRISP_BN_MONT_MAX_LIMBS || en > SIZE_MAX / LIMB_BITS / 2) return CRISP_E_RANGE;
  if (check_modulus(m0, n) != CRISP_OK || check_modulus(m1, n) != CRISP_OK) return CRISP_E_INVALID;
  const crisp_limb *const inputs0[5] = {b1, e0, e1, m0, m1}, *const inputs1[5] = {b0, e0, e1, m0, m1};
  const size_t lengths[5] = {n, en, en, n, n};
  if (outputs_overlap(r0, b0, inputs0, lengths, n) || outputs_overlap(r1, b1, inputs1, lengths, n) ||
      overlap(r0, n, r1, n))
    return CRISP_E_INVALID;
  /* Both comparisons always run, so the time does not tell which failed. */
  const crisp_limb in_range = bn_less_than(b0, m0, n) & bn_less_than(b1, m1, n);
  if (!in_range) return CRISP_E_RANGE;

  /* Kernels want outputs apart from inputs: the results go to memory of
   * their own (a base may alias its result: r0 == b0 or r1 == b1), and r
   * stays untouched until the end. On the heap, not the stack: the
   * exponentiation below needs the stack's room. */
  crisp_limb *const out0 = malloc(2 * n * LIMB_BYTES), *const out1 = out0 ? out0 + n : NULL;
  if (!out0) return CRISP_E_NOMEM;
  const crisp_bn_exp_lane lane[2] = {{out0, b0, e0, m0, crisp_bn_mont_inv(m0[0]), NULL},
                                     {out1, b1, e1, m1, crisp_bn_mont_inv(m1[0]), NULL}};
  const int status = crisp_bn_mod_exp2_unchecked(lane, en, n);
  if (status == CRISP_OK) {
    memcpy(r0, out0, n * LIMB_BYTES);
    memcpy(r1, out1, n * LIMB_BYTES);
  }
  crisp_wipe(out0, 2 * n * LIMB_BYTES);
  free(out0);
  return status;
}

int crisp_bn_mod_exp2(crisp_limb *r0, crisp_limb *r1, const crisp_limb *b0, const crisp_limb *b1,
                      const crisp_limb *e0, const crisp_limb *e1, size_t en, const crisp_limb *m0,
                      const crisp_limb *m1, size_t n) {
  const int status = mod_exp2(r0, r1, b0, b1, e0, e1, en, m0, m1, n);
  crisp_scrub_below(CRISP_SCRUB_EXP_BYTES(n));
  return status;
}
