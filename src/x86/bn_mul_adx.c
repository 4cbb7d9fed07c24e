/* src/x86/bn_mul_adx.c - z = x * y on 64-bit limbs, MULX + ADCX/ADOX (BMI2, ADX).
 * Radix 2^64. Schoolbook below CRISP_KARATSUBA_MUL_MIN limbs, Karatsuba
 * (masked signs) from there up to CRISP_KARATSUBA_MAX limbs for the shorter
 * operand. Any sizes; meant for 512- to 16384-bit operands.
 * The schoolbook keeps its running columns in a window of registers when
 * both lengths are multiples of 8 (bn_window_adx.S: every piece the
 * Karatsuba recursion of a 512- to 16384-bit operand reaches), else it
 * runs adx rows (8 limbs per unrolled block) with the loop over the limbs
 * of y in assembly too, so a row never pays a call. */
#include "x86/bn_flavour_adx.h"

void crisp_bn_mul_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn) {
  crisp_bn_mul_any(z, x, xn, y, yn);
}

const crisp_bn_mul_impl crisp_bn_mul_x86_64_adx_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mul_x86_64_adx_impl),
    crisp_bn_mul_x86_64_adx,
    /* the schoolbook: bn_window_adx.S and bn_rows_adx.S, whose frames
     * hold saved registers and the loops' pointers and counts; the
     * Karatsuba classes clean up after themselves */
    .clean_below = CRISP_KARATSUBA_MAX + 1,
};
