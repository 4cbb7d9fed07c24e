/* fuzz/fuzz_bn_mont_sqr.c - crisp_bn_mont_sqr: modulus size and limbs and
 * an operand below it from the input, r separate or in place; every
 * implementation must give generic's result, which equals generic
 * mont_mul(a, a). */
#include "fuzz_common.h"
#include "fuzz_oracle.h"

#define MAX_LIMBS CRISP_BN_MONT_MAX_LIMBS

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  const size_t n = 1 + fuzz_below(&in, MAX_LIMBS);
  const int in_place = fuzz_byte(&in) & 1;
  static crisp_limb m[MAX_LIMBS], a[MAX_LIMBS], expected[MAX_LIMBS], product[MAX_LIMBS], r[MAX_LIMBS + 1];
  fuzz_modulus(&in, m, n);
  fuzz_below_modulus(&in, a, m, n);
  const crisp_limb minv = crisp_bn_mont_inv(m[0]);

  fuzz_pin(CRISP_KERNEL_BN_MONT_SQR, "generic");
  fuzz_pin(CRISP_KERNEL_BN_MONT_MUL, "generic");
  fuzz_check(crisp_bn_mont_sqr(expected, a, m, n, minv) == CRISP_OK, "generic bn_mont_sqr n %zu", n);
  static crisp_limb outside[MAX_LIMBS];
  fuzz_check(!oracle_bn_mont_mul(outside, a, a, m, n) || !memcmp(outside, expected, n * sizeof(crisp_limb)),
             "generic bn_mont_sqr differs from GMP, n %zu", n);
  fuzz_check(crisp_bn_mont_mul(product, a, a, m, n, minv) == CRISP_OK, "generic bn_mont_mul n %zu", n);
  fuzz_check(!memcmp(product, expected, n * sizeof(crisp_limb)),
             "generic mont_sqr differs from mont_mul, n %zu", n);
  fuzz_pin(CRISP_KERNEL_BN_MONT_MUL, NULL);
  const char *impls[FUZZ_MAX_IMPLS];
  const size_t count = fuzz_impls(CRISP_KERNEL_BN_MONT_SQR, impls, FUZZ_MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    fuzz_pin(CRISP_KERNEL_BN_MONT_SQR, impls[i]);
    const char *name = crisp_impl_name(CRISP_KERNEL_BN_MONT_SQR);
    r[n] = 0x5a5a5a5a5a5a5a5aull;
    memcpy(r, a, n * sizeof(crisp_limb));
    const int status = crisp_bn_mont_sqr(r, in_place ? r : a, m, n, minv);
    fuzz_check(status == CRISP_OK, "bn_mont_sqr %s status %d", name, status);
    fuzz_check(!memcmp(r, expected, n * sizeof(crisp_limb)), "bn_mont_sqr %s: n %zu differs from generic",
               name, n);
    fuzz_check(r[n] == 0x5a5a5a5a5a5a5a5aull, "bn_mont_sqr %s wrote past r", name);
  }
  fuzz_pin(CRISP_KERNEL_BN_MONT_SQR, NULL);
  return 0;
}
