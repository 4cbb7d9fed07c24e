/* src/generic/bn_mod_exp2_generic.c - two exponentiations one after the
 * other, each through crisp_bn_mod_exp's own path (the active Montgomery
 * kernels, or their mod_exp): portable C when those are generic (as under
 * CRYPTO_FORCE=generic, or -UseMontgomeryMultiplyIntrinsic, which sends
 * this kernel and bn_mont_mul to generic together), and the fastest single
 * exponentiation the CPU has otherwise. Scalar Montgomery code gains
 * nothing from interleaving two of them: its multiply chains already keep
 * the multiplier busy. */
#include "bn_internal.h"
#include "generic.h"

static int mod_exp2_generic(crisp_limb *r0, crisp_limb *r1, const crisp_limb *b0, const crisp_limb *b1,
                            const crisp_limb *e0, const crisp_limb *e1, size_t en, const crisp_limb *m0,
                            const crisp_limb *m1, size_t n, crisp_limb minv0, crisp_limb minv1,
                            const crisp_limb *r2_0, const crisp_limb *r2_1) {
  (void)minv0, (void)minv1, (void)r2_0, (void)r2_1;
  const int status = crisp_bn_mod_exp_checked(r0, b0, e0, en, m0, n);
  if (status != CRISP_OK) return status;
  return crisp_bn_mod_exp_checked(r1, b1, e1, en, m1, n);
}

const crisp_bn_mod_exp2_impl crisp_bn_mod_exp2_generic_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mod_exp2_generic_impl),
    .mod_exp2 = mod_exp2_generic,
};
