/* fuzz/fuzz_bn_mul_add.c - crisp_bn_mul_add: size, multiplier, z and x from
 * the input, x separate from z or the same array; every implementation
 * must give generic's sum and carry and write nothing past z. */
#include "fuzz_common.h"
#include "fuzz_oracle.h"

enum { MAX_LIMBS = 320 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  const size_t n = 1 + fuzz_below(&in, MAX_LIMBS);
  const int in_place = fuzz_byte(&in) & 1;
  crisp_limb k;
  fuzz_fill(&in, &k, sizeof k, 0xff);
  static crisp_limb x[MAX_LIMBS], z0[MAX_LIMBS], expected[MAX_LIMBS], z[MAX_LIMBS + 1];
  fuzz_limbs(&in, z0, n);
  fuzz_limbs(&in, x, n);

  fuzz_pin(CRISP_KERNEL_BN_MUL_ADD, "generic");
  memcpy(expected, z0, n * sizeof(crisp_limb));
  crisp_limb expected_carry = 0;
  fuzz_check(crisp_bn_mul_add(expected, in_place ? expected : x, n, k, &expected_carry) == CRISP_OK,
             "bn_mul_add generic: refused n %zu", n);
  static crisp_limb outside[MAX_LIMBS];
  crisp_limb outside_carry = 0;
  fuzz_check(!oracle_bn_mul_add(outside, &outside_carry, z0, in_place ? z0 : x, n, k) ||
                 (outside_carry == expected_carry && !memcmp(outside, expected, n * sizeof(crisp_limb))),
             "generic bn_mul_add differs from GMP, n %zu", n);
  const char *impls[FUZZ_MAX_IMPLS];
  const size_t count = fuzz_impls(CRISP_KERNEL_BN_MUL_ADD, impls, FUZZ_MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    fuzz_pin(CRISP_KERNEL_BN_MUL_ADD, impls[i]);
    const char *name = crisp_impl_name(CRISP_KERNEL_BN_MUL_ADD);
    memcpy(z, z0, n * sizeof(crisp_limb));
    z[n] = 0x5a5a5a5a5a5a5a5aull;
    crisp_limb carry = ~expected_carry;
    fuzz_check(crisp_bn_mul_add(z, in_place ? z : x, n, k, &carry) == CRISP_OK,
               "bn_mul_add %s: refused n %zu", name, n);
    fuzz_check(carry == expected_carry && !memcmp(z, expected, n * sizeof(crisp_limb)),
               "bn_mul_add %s: n %zu%s differs from generic", name, n, in_place ? " in place" : "");
    fuzz_check(z[n] == 0x5a5a5a5a5a5a5a5aull, "bn_mul_add %s wrote past z", name);
  }
  fuzz_pin(CRISP_KERNEL_BN_MUL_ADD, NULL);
  return 0;
}
