/* src/generic/bn_mod_exp2_generic.c - the bn_mod_exp2 implementation
 * without a dual kernel: its mod_exp2 is NULL, so crisp_bn_mod_exp2 and the
 * CRT run the two exponentiations one after the other, each through
 * crisp_bn_mod_exp's own path (the active Montgomery kernels, or their
 * mod_exp): portable C when those are generic (as under
 * CRYPTO_FORCE=generic, or -UseMontgomeryMultiplyIntrinsic, which sends
 * this kernel and bn_mont_mul to generic together), and the fastest single
 * exponentiation the CPU has otherwise. Scalar Montgomery code gains
 * nothing from interleaving two of them: its multiply chains already keep
 * the multiplier busy. */
#include "impl.h"

const crisp_bn_mod_exp2_impl crisp_bn_mod_exp2_generic_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mod_exp2_generic_impl),
};
