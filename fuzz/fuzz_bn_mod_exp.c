/* fuzz/fuzz_bn_mod_exp.c - crisp_bn_mod_exp: modulus size and limbs, base
 * below it, exponent length (0 included) and limbs from the input; with
 * each Montgomery implementation pinned (its own mod_exp or the front-end's
 * ladder) the result must equal generic's. Sizes stay small enough for
 * thousands of runs a second. */
#include "fuzz_common.h"
#include "fuzz_oracle.h"

enum { MAX_LIMBS = 64, MAX_EXP_LIMBS = 4 };

static void pin_montgomery(const char *name) {
  fuzz_pin(CRISP_KERNEL_BN_MONT_MUL, name);
  /* the ladder squares with the same family when there is one */
  if (!name || crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, name) != CRISP_OK)
    fuzz_pin(CRISP_KERNEL_BN_MONT_SQR, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  const size_t n = 1 + fuzz_below(&in, MAX_LIMBS);
  const size_t en = fuzz_byte(&in) % (MAX_EXP_LIMBS + 1);
  const int in_place = fuzz_byte(&in) & 1;
  crisp_limb m[MAX_LIMBS], base[MAX_LIMBS], exp[MAX_EXP_LIMBS + 1], expected[MAX_LIMBS], r[MAX_LIMBS + 1];
  fuzz_modulus(&in, m, n);
  fuzz_below_modulus(&in, base, m, n);
  if (en) fuzz_limbs(&in, exp, en);

  pin_montgomery("generic");
  fuzz_check(crisp_bn_mod_exp(expected, base, en ? exp : NULL, en, m, n) == CRISP_OK,
             "generic mod_exp n %zu en %zu", n, en);
  crisp_limb outside[MAX_LIMBS];
  fuzz_check(
      !oracle_bn_mod_exp(outside, base, exp, en, m, n) || !memcmp(outside, expected, n * sizeof(crisp_limb)),
      "generic mod_exp differs from GMP, n %zu en %zu", n, en);
  const char *impls[FUZZ_MAX_IMPLS];
  const size_t count = fuzz_impls(CRISP_KERNEL_BN_MONT_MUL, impls, FUZZ_MAX_IMPLS);
  for (size_t i = 0; i < count; i++) {
    pin_montgomery(impls[i]);
    const char *name = crisp_impl_name(CRISP_KERNEL_BN_MONT_MUL);
    r[n] = 0x5a5a5a5a5a5a5a5aull;
    memcpy(r, base, n * sizeof(crisp_limb));
    const int status = crisp_bn_mod_exp(r, in_place ? r : base, en ? exp : NULL, en, m, n);
    fuzz_check(status == CRISP_OK, "bn_mod_exp %s status %d", name, status);
    fuzz_check(!memcmp(r, expected, n * sizeof(crisp_limb)),
               "bn_mod_exp %s: n %zu en %zu differs from generic", name, n, en);
    fuzz_check(r[n] == 0x5a5a5a5a5a5a5a5aull, "bn_mod_exp %s wrote past r", name);
  }
  pin_montgomery(NULL);
  return 0;
}
