/* src/generic/bn_sqr_generic.c - square of a 64-bit limb array in portable C
 * (JDK squareToLen): each cross product x[i]*x[j], i < j, computed once,
 * the sum doubled by a one-bit shift, then the diagonal x[i]^2 added.
 * About n^2/2 limb multiplies against n^2 for a general product. */
#include "arithmetic/bn_word.h"
#include "generic.h"

void crisp_bn_sqr_generic(crisp_limb *z, const crisp_limb *x, size_t n) {
  /* Cross products: row i adds x[i] * x[i+1..n) at limb 2i+1; its carry
   * lands on limb i+n, which no earlier row has reached. */
  z[0] = 0;
  z[2 * n - 1] = 0;
  if (n > 1) z[n] = bn_mul_row(z + 1, x + 1, n - 1, x[0]);
  for (size_t i = 1; i + 1 < n; i++) z[i + n] = bn_addmul_row(z + 2 * i + 1, x + i + 1, n - i - 1, x[i]);
  /* Double and add the diagonal in one pass over limb pairs. */
  crisp_limb shifted_out = 0, carry = 0;
  for (size_t i = 0; i < n; i++) {
    crisp_limb square_hi;
    const crisp_limb square_lo = bn_mul_add2(&square_hi, x[i], x[i], 0, 0);
    const crisp_limb low = z[2 * i], high = z[2 * i + 1];
    const crisp_limb low2 = low << 1 | shifted_out;
    const crisp_limb high2 = high << 1 | low >> 63;
    shifted_out = high >> 63;
    /* low2 + square_lo + carry, then high2 + square_hi + that carry. */
    crisp_limb sum = low2 + square_lo;
    crisp_limb next = sum < square_lo;
    sum += carry;
    next += sum < carry;
    z[2 * i] = sum;
    sum = high2 + square_hi;
    carry = sum < square_hi;
    sum += next;
    carry += sum < next;
    z[2 * i + 1] = sum;
  }
}

const crisp_bn_sqr_impl crisp_bn_sqr_generic_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_sqr_generic_impl),
    .sqr = crisp_bn_sqr_generic,
};
