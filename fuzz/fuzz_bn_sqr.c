/* fuzz/fuzz_bn_sqr.c - crisp_bn_sqr: size (past the Karatsuba range) and
 * limbs from the input; every implementation must give generic's square,
 * equal to generic's x * x, and write nothing past it. */
#include "fuzz_common.h"
#include "fuzz_oracle.h"

enum { MAX_LIMBS = 320 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  const size_t n = 1 + fuzz_below(&in, MAX_LIMBS);
  static crisp_limb x[MAX_LIMBS], expected[2 * MAX_LIMBS], product[2 * MAX_LIMBS], z[2 * MAX_LIMBS + 1];
  fuzz_limbs(&in, x, n);

  fuzz_pin(CRISP_KERNEL_BN_SQR, "generic");
  fuzz_pin(CRISP_KERNEL_BN_MUL, "generic");
  fuzz_check(crisp_bn_sqr(expected, x, n) == CRISP_OK, "generic bn_sqr %zu", n);
  static crisp_limb outside[2 * MAX_LIMBS];
  fuzz_check(!oracle_bn_mul(outside, x, n, x, n) || !memcmp(outside, expected, 2 * n * sizeof(crisp_limb)),
             "generic bn_sqr differs from GMP, n %zu", n);
  fuzz_check(crisp_bn_mul(product, x, n, x, n) == CRISP_OK, "generic bn_mul %zu", n);
  fuzz_check(!memcmp(product, expected, 2 * n * sizeof(crisp_limb)),
             "generic bn_sqr differs from bn_mul, n %zu", n);
  fuzz_pin(CRISP_KERNEL_BN_MUL, NULL);
  const char *impls[FUZZ_MAX_IMPLS];
  const size_t count = fuzz_impls(CRISP_KERNEL_BN_SQR, impls, FUZZ_MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    fuzz_pin(CRISP_KERNEL_BN_SQR, impls[i]);
    z[2 * n] = 0x5a5a5a5a5a5a5a5aull;
    fuzz_check(crisp_bn_sqr(z, x, n) == CRISP_OK, "bn_sqr status");
    fuzz_check(!memcmp(z, expected, 2 * n * sizeof(crisp_limb)), "bn_sqr %s: n %zu differs from generic",
               crisp_impl_name(CRISP_KERNEL_BN_SQR), n);
    fuzz_check(z[2 * n] == 0x5a5a5a5a5a5a5a5aull, "bn_sqr %s wrote past z",
               crisp_impl_name(CRISP_KERNEL_BN_SQR));
  }
  fuzz_pin(CRISP_KERNEL_BN_SQR, NULL);
  return 0;
}
