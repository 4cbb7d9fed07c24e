/* src/kernel_list.h - every kernel crisp has, one line each: the single list
 * that kernel names, descriptor types, typed accessors, the registry and the
 * CRYPTO_OPTIONS switches are generated from.
 *
 *   CRISP_KERNEL(name, ENUM, descriptor type, JDK switch)
 *
 * name is what users see ("md5"); ENUM completes CRISP_KERNEL_ENUM in
 * crisp/dispatch.h, whose order this list follows (checked at compile time);
 * the JDK switch is the CRYPTO_OPTIONS name that sends the kernel to generic
 * (kernels may share one). Adding a kernel: its enum value in
 * crisp/dispatch.h, its descriptor type in src/impl.h, one line here. */

#define CRISP_KERNEL_LIST(CRISP_KERNEL)                                                            \
  CRISP_KERNEL(md5, MD5, crisp_md5_impl, "UseMD5Intrinsics")                                       \
  CRISP_KERNEL(md5_many, MD5_MANY, crisp_md5_many_impl, "UseMD5Intrinsics")                        \
  CRISP_KERNEL(poly1305, POLY1305, crisp_poly1305_impl, "UsePoly1305Intrinsics")                   \
  CRISP_KERNEL(bn_mul, BN_MUL, crisp_bn_mul_impl, "UseMultiplyToLenIntrinsic")                     \
  CRISP_KERNEL(bn_sqr, BN_SQR, crisp_bn_sqr_impl, "UseSquareToLenIntrinsic")                       \
  CRISP_KERNEL(bn_mul_add, BN_MUL_ADD, crisp_bn_mul_add_impl, "UseMulAddIntrinsic")                \
  CRISP_KERNEL(bn_mont_mul, BN_MONT_MUL, crisp_bn_mont_mul_impl, "UseMontgomeryMultiplyIntrinsic") \
  CRISP_KERNEL(bn_mont_sqr, BN_MONT_SQR, crisp_bn_mont_sqr_impl, "UseMontgomerySquareIntrinsic")   \
  CRISP_KERNEL(bn_mod_exp2, BN_MOD_EXP2, crisp_bn_mod_exp2_impl, "UseMontgomeryMultiplyIntrinsic") \
  CRISP_KERNEL(chacha20, CHACHA20, crisp_chacha20_impl, "UseChaCha20Intrinsics")
