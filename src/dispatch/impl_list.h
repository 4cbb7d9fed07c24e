/* src/dispatch/impl_list.h - every implementation built into crisp, one line
 * each: CRISP_IMPL(descriptor type, descriptor symbol). Within a kernel the
 * best comes first; selection takes the first one the CPU and the level cap
 * allow, so the generic entry, always allowed, comes last. */

#if defined(CRISP_ARCH_X86_64)
#endif

#if defined(CRISP_ARCH_ARM64)
#endif

CRISP_IMPL(crisp_md5_impl, crisp_md5_generic_impl)
CRISP_IMPL(crisp_md5_many_impl, crisp_md5_many_generic_impl)
CRISP_IMPL(crisp_poly1305_impl, crisp_poly1305_generic_impl)
CRISP_IMPL(crisp_bn_mul_impl, crisp_bn_mul_generic_impl)
CRISP_IMPL(crisp_bn_sqr_impl, crisp_bn_sqr_generic_impl)
CRISP_IMPL(crisp_bn_mul_add_impl, crisp_bn_mul_add_generic_impl)
CRISP_IMPL(crisp_bn_mont_mul_impl, crisp_bn_mont_mul_generic_impl)
CRISP_IMPL(crisp_bn_mont_sqr_impl, crisp_bn_mont_sqr_generic_impl)
