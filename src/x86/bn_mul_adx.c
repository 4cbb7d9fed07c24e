/* src/x86/bn_mul_adx.c - z = x * y on 64-bit limbs, MULX + ADCX/ADOX (BMI2, ADX).
 * Radix 2^64. Schoolbook rows (adx rows, 8 limbs per unrolled block) below
 * CRISP_KARATSUBA_MUL_MIN limbs, Karatsuba (masked signs) from there up to
 * CRISP_KARATSUBA_MAX limbs for the shorter operand. Any sizes; meant for
 * 512- to 16384-bit operands.
 * The schoolbook's loop over the limbs of y is in assembly too, so a row
 * never pays a call. */
#include "x86/bn_flavour_adx.h"

void crisp_bn_mul_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn) {
  crisp_bn_mul_any(z, x, xn, y, yn);
}

const crisp_bn_mul_impl crisp_bn_mul_x86_64_adx_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mul_x86_64_adx_impl),
    crisp_bn_mul_x86_64_adx,
};
