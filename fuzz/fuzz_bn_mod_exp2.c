/* fuzz/fuzz_bn_mod_exp2.c - crisp_bn_mod_exp2: modulus size, two moduli,
 * two bases below them, one exponent length (0 included) and two exponents
 * from the input; every bn_mod_exp2 implementation (the dual IFMA kernel at
 * 16, 24 and 32 limbs) must give what generic gives, and generic what GMP
 * gives for each half. Bases may be their results' buffers. */
#include "fuzz_common.h"
#include "fuzz_oracle.h"

enum { MAX_LIMBS = 40, MAX_EXP_LIMBS = 4 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  const size_t n = 1 + fuzz_below(&in, MAX_LIMBS);
  const size_t en = fuzz_byte(&in) % (MAX_EXP_LIMBS + 1);
  const int in_place = fuzz_byte(&in) & 1;
  crisp_limb m0[MAX_LIMBS], m1[MAX_LIMBS], b0[MAX_LIMBS], b1[MAX_LIMBS], e0[MAX_EXP_LIMBS + 1],
      e1[MAX_EXP_LIMBS + 1];
  crisp_limb want0[MAX_LIMBS], want1[MAX_LIMBS], r0[MAX_LIMBS + 1], r1[MAX_LIMBS + 1];
  fuzz_modulus(&in, m0, n);
  fuzz_modulus(&in, m1, n);
  fuzz_below_modulus(&in, b0, m0, n);
  fuzz_below_modulus(&in, b1, m1, n);
  if (en) fuzz_limbs(&in, e0, en), fuzz_limbs(&in, e1, en);

  fuzz_pin(CRISP_KERNEL_BN_MOD_EXP2, "generic");
  fuzz_check(
      crisp_bn_mod_exp2(want0, want1, b0, b1, en ? e0 : NULL, en ? e1 : NULL, en, m0, m1, n) == CRISP_OK,
      "generic mod_exp2 n %zu en %zu", n, en);
  crisp_limb outside[MAX_LIMBS];
  fuzz_check(
      !oracle_bn_mod_exp(outside, b0, e0, en, m0, n) || !memcmp(outside, want0, n * sizeof(crisp_limb)),
      "generic mod_exp2 first half differs from GMP, n %zu en %zu", n, en);
  fuzz_check(
      !oracle_bn_mod_exp(outside, b1, e1, en, m1, n) || !memcmp(outside, want1, n * sizeof(crisp_limb)),
      "generic mod_exp2 second half differs from GMP, n %zu en %zu", n, en);
  const char *impls[FUZZ_MAX_IMPLS];
  const size_t count = fuzz_impls(CRISP_KERNEL_BN_MOD_EXP2, impls, FUZZ_MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    fuzz_pin(CRISP_KERNEL_BN_MOD_EXP2, impls[i]);
    const char *name = crisp_impl_name(CRISP_KERNEL_BN_MOD_EXP2);
    r0[n] = r1[n] = 0x5a5a5a5a5a5a5a5aull;
    memcpy(r0, b0, n * sizeof(crisp_limb));
    memcpy(r1, b1, n * sizeof(crisp_limb));
    const int status = crisp_bn_mod_exp2(r0, r1, in_place ? r0 : b0, in_place ? r1 : b1, en ? e0 : NULL,
                                         en ? e1 : NULL, en, m0, m1, n);
    fuzz_check(status == CRISP_OK, "bn_mod_exp2 %s status %d", name, status);
    fuzz_check(!memcmp(r0, want0, n * sizeof(crisp_limb)) && !memcmp(r1, want1, n * sizeof(crisp_limb)),
               "bn_mod_exp2 %s: n %zu en %zu differs from generic", name, n, en);
    fuzz_check(r0[n] == 0x5a5a5a5a5a5a5a5aull && r1[n] == 0x5a5a5a5a5a5a5a5aull,
               "bn_mod_exp2 %s wrote past r", name);
  }
  fuzz_pin(CRISP_KERNEL_BN_MOD_EXP2, NULL);
  return 0;
}
