/* src/x86/bn_sqr_adx.c - z = x^2 on 64-bit limbs, MULX + ADCX/ADOX (BMI2, ADX).
 * Radix 2^64. Its own routine, not a product: every cross product
 * x[i] x[j] (i < j) once in adx rows, the sum doubled by shifting, the
 * squares x[i]^2 added on the diagonal; Karatsuba squaring (three half-size
 * squares) at 32 limbs and from CRISP_KARATSUBA_SQR_MIN to
 * CRISP_KARATSUBA_MAX limbs. Meant for 512- to 16384-bit operands.
 * 8 and 16 limbs have fully unrolled triangles with the columns in
 * registers; other sizes run the rows of the triangle in one assembly loop.
 * The doubling and the diagonal run in one pass with two carry chains.
 * Unrolled triangles keep every column in a register, which the looped
 * rows cannot: that is where the 8- and 16-limb (512- and 1024-bit) squares
 * gain most. */
#include "x86/bn_flavour_adx.h"

void crisp_bn_sqr_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t n) {
  crisp_bn_sqr_any(z, x, n);
}

const crisp_bn_sqr_impl crisp_bn_sqr_x86_64_adx_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_sqr_x86_64_adx_impl),
    crisp_bn_sqr_x86_64_adx,
};
