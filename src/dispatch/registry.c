/* src/dispatch/registry.c - the table of every implementation built in,
 * expanded from impl_list.h, and lookups over it. */
#include "registry.h"

#include <strings.h>

/* Declaring each descriptor with its kernel's type makes a line that names
 * the wrong kernel a compile error. */
#define CRISP_IMPL(kernel, symbol) extern const crisp_kernel_impl_##kernel symbol;
#include "impl_list.h"
#undef CRISP_IMPL

typedef struct registry_entry {
  crisp_kernel kernel;
  const crisp_impl_info *info;
} registry_entry;

static const registry_entry all_impls[] = {
#define CRISP_IMPL(kernel, symbol) {(crisp_kernel)crisp_kernel_position_##kernel, &symbol.info},
#include "impl_list.h"
#undef CRISP_IMPL
};

enum { IMPL_TOTAL = sizeof all_impls / sizeof all_impls[0] };

size_t crisp_registry_count(crisp_kernel kernel) {
  size_t count = 0;
  for (size_t i = 0; i < IMPL_TOTAL; i++) count += all_impls[i].kernel == kernel;
  return count;
}

const crisp_impl_info *crisp_registry_at(crisp_kernel kernel, size_t index) {
  for (size_t i = 0; i < IMPL_TOTAL; i++) {
    if (all_impls[i].kernel != kernel) continue;
    if (index-- == 0) return all_impls[i].info;
  }
  return NULL;
}

const crisp_impl_info *crisp_registry_find(crisp_kernel kernel, const char *name) {
  for (size_t i = 0; i < IMPL_TOTAL; i++)
    if (all_impls[i].kernel == kernel && strcasecmp(all_impls[i].info->name, name) == 0)
      return all_impls[i].info;
  return NULL;
}

const crisp_impl_info *crisp_registry_best(crisp_kernel kernel, crisp_level_id cap, uint32_t cpu_features) {
  for (size_t i = 0; i < IMPL_TOTAL; i++) {
    const crisp_impl_info *impl = all_impls[i].info;
    if (all_impls[i].kernel == kernel && impl->level <= cap && (impl->features & ~cpu_features) == 0)
      return impl;
  }
  return NULL;
}
