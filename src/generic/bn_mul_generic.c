/* src/generic/bn_mul_generic.c - schoolbook product of 64-bit limb arrays
 * in portable C (JDK multiplyToLen): one multiply row, then one
 * multiply-accumulate row per limb of the shorter operand. O(xn * yn). */
#include "arithmetic/bn_word.h"
#include "generic.h"

void crisp_bn_mul_generic(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn) {
  /* Longer rows amortise the per-row overhead: iterate over the shorter. */
  if (yn > xn) {
    const crisp_limb *t = x;
    x = y, y = t;
    const size_t tn = xn;
    xn = yn, yn = tn;
  }
  z[xn] = bn_mul_row(z, x, xn, y[0]);
  for (size_t j = 1; j < yn; j++) z[xn + j] = bn_addmul_row(z + j, x, xn, y[j]);
}

const crisp_bn_mul_impl crisp_bn_mul_generic_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mul_generic_impl),
    .mul = crisp_bn_mul_generic,
};
