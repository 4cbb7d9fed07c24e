/* src/x86/bn_mont_x86_64_adx.c - Montgomery multiply and square on the
 * MULX + ADCX/ADOX rows (BMI2, ADX); the algorithm is bn_mont_flavoured.h's.
 * The test-only plants below (meson -Dplant_leak, -Dplant_fault) are what
 * the constant-time and hardening stages must be seen to catch; a normal
 * build defines none of them. */
#include "x86/bn_flavour_adx.h"
#include "x86/bn_mont_flavoured.h"
#if defined(CRISP_PLANT_FAULT_MEMORY_LEAK)
#include <stdlib.h>
#endif

void crisp_bn_mont_mul_x86_64_adx(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                                  size_t n, crisp_limb minv) {
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
  mont_mul_rows(r, a, b, m, n, minv);
}

void crisp_bn_mont_sqr_x86_64_adx(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                                  crisp_limb minv) {
  mont_sqr_rows(r, a, m, n, minv);
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
