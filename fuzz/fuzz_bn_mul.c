/* fuzz/fuzz_bn_mul.c - crisp_bn_mul: operand sizes (past the Karatsuba
 * range) and limbs from the input; every implementation must give
 * generic's product and write nothing past it. */
#include "fuzz_common.h"
#include "fuzz_oracle.h"

enum { MAX_LIMBS = 320 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  const size_t xn = 1 + fuzz_below(&in, MAX_LIMBS), yn = 1 + fuzz_below(&in, MAX_LIMBS);
  static crisp_limb x[MAX_LIMBS], y[MAX_LIMBS], expected[2 * MAX_LIMBS], z[2 * MAX_LIMBS + 1];
  fuzz_limbs(&in, x, xn);
  fuzz_limbs(&in, y, yn);

  fuzz_pin(CRISP_KERNEL_BN_MUL, "generic");
  fuzz_check(crisp_bn_mul(expected, x, xn, y, yn) == CRISP_OK, "generic bn_mul %zu x %zu", xn, yn);
  static crisp_limb outside[2 * MAX_LIMBS];
  fuzz_check(
      !oracle_bn_mul(outside, x, xn, y, yn) || !memcmp(outside, expected, (xn + yn) * sizeof(crisp_limb)),
      "generic bn_mul differs from GMP, %zu x %zu", xn, yn);
  const char *impls[FUZZ_MAX_IMPLS];
  const size_t count = fuzz_impls(CRISP_KERNEL_BN_MUL, impls, FUZZ_MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    fuzz_pin(CRISP_KERNEL_BN_MUL, impls[i]);
    z[xn + yn] = 0x5a5a5a5a5a5a5a5aull;
    fuzz_check(crisp_bn_mul(z, x, xn, y, yn) == CRISP_OK, "bn_mul status");
    fuzz_check(!memcmp(z, expected, (xn + yn) * sizeof(crisp_limb)),
               "bn_mul %s: %zu x %zu differs from generic", crisp_impl_name(CRISP_KERNEL_BN_MUL), xn, yn);
    fuzz_check(z[xn + yn] == 0x5a5a5a5a5a5a5a5aull, "bn_mul %s wrote past z",
               crisp_impl_name(CRISP_KERNEL_BN_MUL));
  }
  fuzz_pin(CRISP_KERNEL_BN_MUL, NULL);
  return 0;
}
