/* fuzz/fuzz_bn_mont_mul.c - crisp_bn_mont_mul: modulus size and limbs,
 * operands below it (including m minus a little) and aliasing from the
 * input; every implementation must give generic's fully reduced result. */
#include "fuzz_common.h"
#include "fuzz_oracle.h"

#define MAX_LIMBS CRISP_BN_MONT_MAX_LIMBS

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  const size_t n = 1 + fuzz_below(&in, MAX_LIMBS);
  const uint8_t alias = fuzz_byte(&in) % 3; /* 0: none, 1: r = a, 2: b = a */
  static crisp_limb m[MAX_LIMBS], a[MAX_LIMBS], b[MAX_LIMBS], expected[MAX_LIMBS], r[MAX_LIMBS + 1];
  fuzz_modulus(&in, m, n);
  fuzz_below_modulus(&in, a, m, n);
  if (alias == 2)
    memcpy(b, a, n * sizeof(crisp_limb));
  else
    fuzz_below_modulus(&in, b, m, n);
  const crisp_limb minv = crisp_bn_mont_inv(m[0]);

  fuzz_pin(CRISP_KERNEL_BN_MONT_MUL, "generic");
  fuzz_check(crisp_bn_mont_mul(expected, a, b, m, n, minv) == CRISP_OK, "generic bn_mont_mul n %zu", n);
  static crisp_limb outside[MAX_LIMBS];
  fuzz_check(!oracle_bn_mont_mul(outside, a, b, m, n) || !memcmp(outside, expected, n * sizeof(crisp_limb)),
             "generic bn_mont_mul differs from GMP, n %zu", n);
  const char *impls[FUZZ_MAX_IMPLS];
  const size_t count = fuzz_impls(CRISP_KERNEL_BN_MONT_MUL, impls, FUZZ_MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    fuzz_pin(CRISP_KERNEL_BN_MONT_MUL, impls[i]);
    const char *name = crisp_impl_name(CRISP_KERNEL_BN_MONT_MUL);
    r[n] = 0x5a5a5a5a5a5a5a5aull;
    int status;
    if (alias == 1) {
      memcpy(r, a, n * sizeof(crisp_limb));
      status = crisp_bn_mont_mul(r, r, b, m, n, minv);
    } else {
      status = crisp_bn_mont_mul(r, a, alias == 2 ? a : b, m, n, minv);
    }
    fuzz_check(status == CRISP_OK, "bn_mont_mul %s status %d", name, status);
    fuzz_check(!memcmp(r, expected, n * sizeof(crisp_limb)),
               "bn_mont_mul %s: n %zu alias %d differs from generic", name, n, alias);
    fuzz_check(r[n] == 0x5a5a5a5a5a5a5a5aull, "bn_mont_mul %s wrote past r", name);
  }
  fuzz_pin(CRISP_KERNEL_BN_MONT_MUL, NULL);
  return 0;
}
