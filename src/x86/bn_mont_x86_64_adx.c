/* src/x86/bn_mont_x86_64_adx.c - Montgomery multiply and square, MULX + ADCX/ADOX (BMI2, ADX).
 * Radix 2^64, R = 2^(64n). Separated operand scanning: the full product
 * (or the square, with each cross product once) from the bn_mul / bn_sqr
 * routines of this flavour, Karatsuba included, then n reduction rows
 * (adx) whose carries are added in one pass, then one subtraction of m
 * selected by mask. Constant time in the operand values; any n up to
 * CRISP_BN_MONT_MAX_LIMBS, meant for 1024- to 4096-bit moduli.
 * Measured on AMD Zen 5 (Turin, virtualised): mont_mul 1024-bit 563,
 * 2048-bit 1946, 4096-bit 6816 TSC ticks (OpenSSL 3.0
 * BN_mod_mul_montgomery: 515, 2043, 7967). */
#include "util.h"
#include "x86/bn_flavour_adx.h"
#if defined(CRISP_PLANT_FAULT_MEMORY_LEAK)
#include <stdlib.h>
#endif

/* The product, wiping the Karatsuba scratch it used (which
 * crisp_bn_mul_any would keep in a frame no one wipes). The scratch lives
 * in this frame only, so the schoolbook sizes keep a small one. */
static __attribute__((noinline)) void karatsuba_product(crisp_limb *product, const crisp_limb *a, const crisp_limb *b,
                                                        size_t n, int square) {
  crisp_limb scratch[CRISP_KARATSUBA_SCRATCH(CRISP_BN_MONT_MAX_LIMBS)];
  crisp_bn_mul_equal(product, a, b, n, scratch, square);
  crisp_wipe(scratch, CRISP_KARATSUBA_SCRATCH(n) * sizeof *scratch);
}

void crisp_bn_mont_mul_x86_64_adx(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                               size_t n, crisp_limb minv) {
  crisp_limb product[2 * CRISP_BN_MONT_MAX_LIMBS];
  if (n < CRISP_KARATSUBA_MUL_MIN)
    CRISP_ROW_MUL_BASECASE(product, a, n, b, n);
  else
    karatsuba_product(product, a, b, n, 0);
  /* test only (meson -Dplant_leak): leaks the constant-time checks must catch */
#if defined(CRISP_PLANT_LEAK_BRANCH)
  if (a[0] & 1)
    for (volatile unsigned spin = 0; spin < 256; spin++) {
    }
#elif defined(CRISP_PLANT_LEAK_TABLE)
  static const volatile crisp_limb plant_table[256];
  (void)plant_table[a[0] & 255];
#endif
  /* test only (meson -Dplant_fault): a race for TSan, a leak for the leak checks */
#if defined(CRISP_PLANT_FAULT_RACE)
  static unsigned long plant_calls;
  plant_calls++;
#elif defined(CRISP_PLANT_FAULT_MEMORY_LEAK)
  __asm__ volatile("" : : "r"(malloc(64)) : "memory");
#endif
  crisp_bn_redc(r, product, m, n, minv);
  crisp_wipe(product, 2 * n * sizeof *product);
}

void crisp_bn_mont_sqr_x86_64_adx(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                               crisp_limb minv) {
  crisp_limb product[2 * CRISP_BN_MONT_MAX_LIMBS];
  if (CRISP_SQR_SCHOOLBOOK(n))
    crisp_bn_sqr_basecase(product, a, n);
  else
    karatsuba_product(product, a, a, n, 1);
  crisp_bn_redc(r, product, m, n, minv);
  crisp_wipe(product, 2 * n * sizeof *product);
}

const crisp_bn_mont_mul_impl crisp_bn_mont_mul_x86_64_adx_impl = {
    {"x86_64-adx", CRISP_LEVEL_X86_64, CRISP_CPU_BMI2 | CRISP_CPU_ADX},
    crisp_bn_mont_mul_x86_64_adx,
    NULL,
};

const crisp_bn_mont_sqr_impl crisp_bn_mont_sqr_x86_64_adx_impl = {
    {"x86_64-adx", CRISP_LEVEL_X86_64, CRISP_CPU_BMI2 | CRISP_CPU_ADX},
    crisp_bn_mont_sqr_x86_64_adx,
};
