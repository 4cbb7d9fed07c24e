/* src/dispatch/impl_list.h - every implementation built into crisp, one line
 * each: CRISP_IMPL(kernel name from src/kernel_list.h, descriptor symbol).
 * The descriptor must have that kernel's type, or the build fails. Within a
 * kernel the best comes first; selection takes the first one the CPU and the
 * level cap allow, so the generic entry, always allowed, comes last.
 * A line whose file a build option can leave out (meson_options.txt: avx512,
 * avx512ifma, asm) sits inside the #if of the define that option sets. */

#if defined(CRISP_ARCH_X86_64)
#if !defined(CRISP_NO_ASM)
CRISP_IMPL(md5, crisp_md5_x86_64_bmi1_impl)
CRISP_IMPL(md5, crisp_md5_x86_64_impl)
#endif
/* After the scalar code: feature order never picks it; the
 * microarchitecture table does, on cores with 1-cycle vector latency. */
#if !defined(CRISP_NO_AVX512)
CRISP_IMPL(md5, crisp_md5_avx512_impl)
#endif
#if !defined(CRISP_NO_AVX512)
CRISP_IMPL(md5_many, crisp_md5_many_avx512_impl)
#endif
CRISP_IMPL(md5_many, crisp_md5_many_avx2_impl)
#if !defined(CRISP_NO_AVX512IFMA)
CRISP_IMPL(poly1305, crisp_poly1305_avx512ifma_impl)
#endif
#if !defined(CRISP_NO_AVX512)
CRISP_IMPL(poly1305, crisp_poly1305_avx512_impl)
#endif
CRISP_IMPL(poly1305, crisp_poly1305_avx2_impl)
CRISP_IMPL(poly1305, crisp_poly1305_x86_64_impl)
#if !defined(CRISP_NO_ASM)
CRISP_IMPL(bn_mul, crisp_bn_mul_x86_64_adx_impl)
CRISP_IMPL(bn_mul, crisp_bn_mul_x86_64_impl)
CRISP_IMPL(bn_sqr, crisp_bn_sqr_x86_64_adx_impl)
CRISP_IMPL(bn_sqr, crisp_bn_sqr_x86_64_impl)
CRISP_IMPL(bn_mul_add, crisp_bn_mul_add_x86_64_adx_impl)
CRISP_IMPL(bn_mul_add, crisp_bn_mul_add_x86_64_impl)
#if !defined(CRISP_NO_AVX512IFMA)
CRISP_IMPL(bn_mont_mul, crisp_bn_mont_mul_avx512ifma_impl)
#endif
CRISP_IMPL(bn_mont_mul, crisp_bn_mont_mul_x86_64_adx_impl)
CRISP_IMPL(bn_mont_mul, crisp_bn_mont_mul_x86_64_impl)
#if !defined(CRISP_NO_AVX512IFMA)
CRISP_IMPL(bn_mont_sqr, crisp_bn_mont_sqr_avx512ifma_impl)
#endif
CRISP_IMPL(bn_mont_sqr, crisp_bn_mont_sqr_x86_64_adx_impl)
CRISP_IMPL(bn_mont_sqr, crisp_bn_mont_sqr_x86_64_impl)
#if !defined(CRISP_NO_AVX512IFMA)
CRISP_IMPL(bn_mod_exp2, crisp_bn_mod_exp2_avx512ifma_impl)
#endif
#endif
#if !defined(CRISP_NO_AVX512)
CRISP_IMPL(chacha20, crisp_chacha20_avx512_impl)
#endif
CRISP_IMPL(chacha20, crisp_chacha20_avx2_impl)
CRISP_IMPL(chacha20, crisp_chacha20_x86_64_impl)
#endif

#if defined(CRISP_ARCH_ARM64)
CRISP_IMPL(md5, crisp_md5_arm64_impl)
CRISP_IMPL(md5_many, crisp_md5_many_neon_impl)
CRISP_IMPL(poly1305, crisp_poly1305_neon_impl)
CRISP_IMPL(poly1305, crisp_poly1305_arm64_impl)
CRISP_IMPL(bn_mul, crisp_bn_mul_arm64_impl)
CRISP_IMPL(bn_sqr, crisp_bn_sqr_arm64_impl)
CRISP_IMPL(bn_mul_add, crisp_bn_mul_add_arm64_impl)
CRISP_IMPL(bn_mont_mul, crisp_bn_mont_mul_arm64_impl)
CRISP_IMPL(bn_mont_sqr, crisp_bn_mont_sqr_arm64_impl)
CRISP_IMPL(chacha20, crisp_chacha20_neon_impl)
#endif

CRISP_IMPL(md5, crisp_md5_generic_impl)
CRISP_IMPL(md5_many, crisp_md5_many_generic_impl)
CRISP_IMPL(poly1305, crisp_poly1305_generic_impl)
CRISP_IMPL(bn_mul, crisp_bn_mul_generic_impl)
CRISP_IMPL(bn_sqr, crisp_bn_sqr_generic_impl)
CRISP_IMPL(bn_mul_add, crisp_bn_mul_add_generic_impl)
CRISP_IMPL(bn_mont_mul, crisp_bn_mont_mul_generic_impl)
CRISP_IMPL(bn_mont_sqr, crisp_bn_mont_sqr_generic_impl)
CRISP_IMPL(bn_mod_exp2, crisp_bn_mod_exp2_generic_impl)
CRISP_IMPL(chacha20, crisp_chacha20_generic_impl)
