/* src/dispatch/select.h - how front-ends find the implementation in use:
 * one acquire load on the hot path, the CPU probe only on first use. */
#ifndef CRISP_SRC_DISPATCH_SELECT_H
#define CRISP_SRC_DISPATCH_SELECT_H

#include <stdatomic.h>

#include "impl.h"

extern _Atomic(const crisp_impl_info *) crisp_active_impl[CRISP_KERNEL_COUNT];

/* Probes the CPU and reads the environment once (thread-safe), then returns
 * the implementation selected for kernel. */
const crisp_impl_info *crisp_dispatch_first_use(crisp_kernel kernel);

/* The implementation chosen for kernel, or NULL before its first use. A
 * front-end that must make no call before its kernel's takes the first
 * use, which probes the CPU, apart (src/bn.c). */
static inline const crisp_impl_info *crisp_chosen(crisp_kernel kernel) {
  return atomic_load_explicit(&crisp_active_impl[kernel], memory_order_acquire);
}

static inline const crisp_impl_info *crisp_active(crisp_kernel kernel) {
  const crisp_impl_info *impl = crisp_chosen(kernel);
  return impl ? impl : crisp_dispatch_first_use(kernel);
}

/* crisp_active_NAME(): the typed descriptor in use for kernel NAME, e.g.
 * crisp_active_md5() returns a const crisp_md5_impl *. */
#define CRISP_KERNEL(name, ENUM, type, jdk_switch)                  \
  static inline const type *crisp_active_##name(void) {             \
    return crisp_impl_as_##name(crisp_active(CRISP_KERNEL_##ENUM)); \
  }
CRISP_KERNEL_LIST(CRISP_KERNEL)
#undef CRISP_KERNEL

#endif
