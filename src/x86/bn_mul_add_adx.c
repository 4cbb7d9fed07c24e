/* src/x86/bn_mul_add_adx.c - z += x * k, returning the carry limb, MULX + ADCX/ADOX (BMI2, ADX).
 * Radix 2^64, one adx row, 8 limbs per unrolled block, any length; 8 and
 * 16 limbs run straight-line rows without the entry jump and loop. */
#include "x86/bn_rows_x86.h"
#include "x86/bn_kernels_x86.h"

crisp_limb crisp_bn_mul_add_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k) {
  if (n == 8) return crisp_bn_mul_add8_x86_64_adx(z, x, k);
  if (n == 16) return crisp_bn_mul_add16_x86_64_adx(z, x, k);
  return crisp_bn_mul_add_row_x86_64_adx(z, x, n, k, 0);
}

const crisp_bn_mul_add_impl crisp_bn_mul_add_x86_64_adx_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mul_add_x86_64_adx_impl),
    crisp_bn_mul_add_x86_64_adx,
    /* every length: bn_rows_adx.S, whose rows touch no stack */
    .clean_below = SIZE_MAX,
};
