/* src/x86/bn_sqr_adx.c - z = x^2 on 64-bit limbs, MULX + ADCX/ADOX (BMI2, ADX).
 * Radix 2^64. Its own routine, not a product: every cross product
 * x[i] x[j] (i < j) once, the sum doubled by shifting, the squares x[i]^2
 * added on the diagonal; Karatsuba squaring (three half-size squares) from
 * CRISP_KARATSUBA_SQR_MIN to CRISP_KARATSUBA_MAX limbs. Meant for 512- to
 * 16384-bit operands.
 * The cross products keep their running columns in registers: 8 and 16
 * limbs in fully unrolled triangles, other multiples of 8 in the looped
 * register-window triangle (bn_window_adx.S); other sizes run the rows of
 * the triangle in one assembly loop, which loads and stores a column per
 * limb product. The doubling and the diagonal run in one pass with two
 * carry chains. */
#include "x86/bn_flavour_adx.h"

/* Every size but 8 limbs, out of line: their paths make calls and save
 * registers, and inlined here they would make the 8-limb square save them
 * too. */
static __attribute__((noinline)) void sqr_other(crisp_limb *z, const crisp_limb *x, size_t n) {
  crisp_bn_sqr_any(z, x, n);
}

void crisp_bn_sqr_x86_64_adx(crisp_limb *z, const crisp_limb *x, size_t n) {
  if (n == 8) {
    CRISP_ROW_SQR8(z, x);
    return;
  }
  sqr_other(z, x, n);
}

const crisp_bn_sqr_impl crisp_bn_sqr_x86_64_adx_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_sqr_x86_64_adx_impl),
    crisp_bn_sqr_x86_64_adx,
    /* the unrolled, window and row triangles and the diagonal, all
     * assembly whose frames hold saved registers and the loops' pointers
     * and counts; the Karatsuba classes clean up after themselves */
    .clean_below = CRISP_KARATSUBA_MAX + 1,
};
