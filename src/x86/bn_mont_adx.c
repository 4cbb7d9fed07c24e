/* src/x86/bn_mont_adx.c - Montgomery multiply and square with MULX
 * + ADCX/ADOX (BMI2, ADX): the fused kernels of bn_mont_fused_adx.S
 * at 8 and 16 limbs, bn_mont_flavoured.h's rows at every other size.
 * The test-only plants below (meson -Dplant_leak, -Dplant_fault) are what
 * the constant-time and hardening stages must be seen to catch; a normal
 * build defines none of them. */
#include "x86/bn_flavour_adx.h"
#include "x86/bn_kernels_x86.h"
#include "x86/bn_mont_flavoured.h"
#if defined(CRISP_PLANT_FAULT_MEMORY_LEAK)
#include <stdlib.h>
#endif

/* The fused kernels of bn_mont_fused_adx.S where they exist. */
static inline void mont_mul_adx(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                                size_t n, crisp_limb minv) {
  if (n == 8)
    crisp_bn_mont_mul8_x86_64_adx(r, a, b, m, minv);
  else if (n == 16)
    crisp_bn_mont_mul16_x86_64_adx(r, a, b, m, minv);
  else
    mont_mul_rows(r, a, b, m, n, minv);
}

void crisp_bn_mont_mul_x86_64_adx(crisp_limb *r, const crisp_limb *a, const crisp_limb *b,
                                  const crisp_limb *m, size_t n, crisp_limb minv) {
#if defined(CRISP_PLANT_LEAK_BRANCH)
  if (a[0] & 1)
    for (volatile unsigned spin = 0; spin < 256; spin++) {
    }
#elif defined(CRISP_PLANT_LEAK_TABLE)
  static const volatile crisp_limb plant_table[256];
  (void)plant_table[a[0] & 255];
#endif
#if defined(CRISP_PLANT_FAULT_RACE)
  static unsigned long plant_calls;
  plant_calls++;
#elif defined(CRISP_PLANT_FAULT_MEMORY_LEAK)
  __asm__ volatile("" : : "r"(malloc(64)) : "memory");
#endif
  mont_mul_adx(r, a, b, m, n, minv);
}

/* The square's unrolled triangle and the register-window reduction of
 * bn_mont_fused_adx.S, which wipes the product. Not inlined, so
 * that the wrapper below sets up no frame for the other sizes. minv, which
 * comes from a modulus that may be secret, waits in the frame beside the
 * product instead of in a register: kept in one across the square, it
 * would sit in a callee-saved register, which the square's callees save
 * in their frames; the square may write that frame, so it is read back,
 * and its slot is wiped after. */
static __attribute__((noinline)) void mont_sqr16_adx(crisp_limb *r, const crisp_limb *a, const crisp_limb *m,
                                                     crisp_limb minv) {
  crisp_limb product[2 * 16 + 1];
  product[2 * 16] = minv;
  crisp_bn_sqr_basecase(product, a, 16);
  crisp_bn_redc16_x86_64_adx(r, product, m, product[2 * 16]);
  crisp_wipe(&product[2 * 16], sizeof product[0]);
}

void crisp_bn_mont_sqr_x86_64_adx(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                                  crisp_limb minv) {
  /* At 8 limbs the fused multiplication beats the square's saved cross
   * products, which go through memory before the reduction. */
  if (n == 8)
    crisp_bn_mont_mul8_x86_64_adx(r, a, a, m, minv);
  else if (n == 16)
    mont_sqr16_adx(r, a, m, minv);
  else
    mont_sqr_rows(r, a, m, n, minv);
}

const crisp_bn_mont_mul_impl crisp_bn_mont_mul_x86_64_adx_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mont_mul_x86_64_adx_impl),
    crisp_bn_mont_mul_x86_64_adx,
    NULL,
    CRISP_BN_MONT_ADX_CLEAN_SIZES,
};

const crisp_bn_mont_sqr_impl crisp_bn_mont_sqr_x86_64_adx_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mont_sqr_x86_64_adx_impl),
    crisp_bn_mont_sqr_x86_64_adx,
    CRISP_BN_MONT_ADX_CLEAN_SIZES,
};
