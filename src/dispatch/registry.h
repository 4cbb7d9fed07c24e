/* src/dispatch/registry.h - lookups over the implementations built in. */
#ifndef CRISP_SRC_DISPATCH_REGISTRY_H
#define CRISP_SRC_DISPATCH_REGISTRY_H

#include "impl.h"

size_t crisp_registry_count(crisp_kernel kernel);
/* The index-th implementation of kernel, best first; NULL past the end. */
const crisp_impl_info *crisp_registry_at(crisp_kernel kernel, size_t index);
/* The implementation of kernel called name (case-insensitive), or NULL. */
const crisp_impl_info *crisp_registry_find(crisp_kernel kernel, const char *name);
/* The first implementation of kernel at or below cap whose features are all
 * in cpu_features; the generic entry guarantees one is found. */
const crisp_impl_info *crisp_registry_best(crisp_kernel kernel, crisp_level_id cap, uint32_t cpu_features);

/* crisp_registry_NAME_at(index): the typed descriptor of kernel NAME's
 * index-th implementation, best first; NULL past the end. */
#define CRISP_KERNEL(name, ENUM, type, jdk_switch)                               \
  static inline const type *crisp_registry_##name##_at(size_t index) {           \
    const crisp_impl_info *info = crisp_registry_at(CRISP_KERNEL_##ENUM, index); \
    return info ? crisp_impl_as_##name(info) : NULL;                             \
  }
CRISP_KERNEL_LIST(CRISP_KERNEL)
#undef CRISP_KERNEL

#endif
