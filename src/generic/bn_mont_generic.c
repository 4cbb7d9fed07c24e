/* src/generic/bn_mont_generic.c - Montgomery multiply and square of 64-bit
 * limb arrays in portable C (JDK montgomeryMultiply / montgomerySquare):
 * the full 2n-limb product or square, then a word-by-word Montgomery
 * reduction (SOS) and one masked final subtraction. Constant time in the
 * operand values; n <= CRISP_BN_MONT_MAX_LIMBS, scratch on the stack. */
#include "bn_word.h"
#include "generic.h"
#include "util.h"

/* r = t * R^-1 mod m for t < m * R (t has 2n limbs and is destroyed). */
static void mont_reduce(crisp_limb *r, crisp_limb *t, const crisp_limb *m, size_t n, crisp_limb minv) {
  /* Step i makes limb i zero by adding a multiple of m at limb i; the row
   * carry and the running top carry go into limb i+n (their sum with it
   * is below 2^65, so one carry bit moves on). */
  crisp_limb top = 0;
  for (size_t i = 0; i < n; i++) {
    const crisp_limb q = t[i] * minv;
    const crisp_limb row_carry = bn_addmul_row(t + i, m, n, q);
    crisp_limb sum = t[i + n] + row_carry;
    crisp_limb next = sum < row_carry;
    sum += top;
    next += sum < top;
    t[i + n] = sum;
    top = next;
  }
  /* top:t[n..2n) < 2m. Keep it when it is below m (no top bit and the
   * subtraction borrows), else keep the difference; chosen by mask. */
  crisp_limb *const high = t + n;
  crisp_limb *const difference = t;  /* the low half is spent: reuse it */
  const crisp_limb borrow = bn_sub_row(difference, high, m, n);
  const crisp_limb keep_mask = 0 - (borrow & (top ^ 1));
  for (size_t i = 0; i < n; i++) r[i] = (high[i] & keep_mask) | (difference[i] & ~keep_mask);
}

void crisp_bn_mont_mul_generic(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                               size_t n, crisp_limb minv) {
  crisp_limb t[2 * CRISP_BN_MONT_MAX_LIMBS];
  crisp_bn_mul_generic(t, a, n, b, n);
  mont_reduce(r, t, m, n, minv);
  crisp_wipe(t, 2 * n * sizeof *t);
}

void crisp_bn_mont_sqr_generic(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n, crisp_limb minv) {
  crisp_limb t[2 * CRISP_BN_MONT_MAX_LIMBS];
  crisp_bn_sqr_generic(t, a, n);
  mont_reduce(r, t, m, n, minv);
  crisp_wipe(t, 2 * n * sizeof *t);
}

const crisp_bn_mont_mul_impl crisp_bn_mont_mul_generic_impl = {
    .info = {"generic", CRISP_LEVEL_GENERIC, 0},
    .mont_mul = crisp_bn_mont_mul_generic,
    .mod_exp = NULL,
};

const crisp_bn_mont_sqr_impl crisp_bn_mont_sqr_generic_impl = {
    .info = {"generic", CRISP_LEVEL_GENERIC, 0},
    .mont_sqr = crisp_bn_mont_sqr_generic,
};
