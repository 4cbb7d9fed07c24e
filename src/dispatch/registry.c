/* src/dispatch/registry.c - the table of every implementation built in,
 * expanded from src/implementations.def, and lookups over it. */
#include "registry.h"

#include <strings.h>

/* Declaring each descriptor with its kernel's type makes a line that names
 * the wrong kernel a compile error. */
#define CRISP_IMPL(kernel, symbol, name, LEVEL, features) extern const crisp_kernel_impl_##kernel symbol;
#include "implementations.def"

/* The names descriptors point to (CRISP_IMPL_INFO). */
const char crisp_impl_names[CRISP_IMPL_TOTAL][CRISP_IMPL_NAME_SIZE] = {
#define CRISP_IMPL(kernel, symbol, name, LEVEL, features) [crisp_impl_index_##symbol] = name,
#include "implementations.def"
};
#define CRISP_IMPL(kernel, symbol, name, LEVEL, features) \
  _Static_assert(sizeof(name) <= CRISP_IMPL_NAME_SIZE, "a name fits crisp_impl_names");
#include "implementations.def"

/* An implementation's features include what its level adds to the levels
 * below: a level never asks for a feature its implementations do not use. */
enum {
#define CRISP_LEVEL(ID, name, features) crisp_level_adds_##ID = (features),
#include "implementations.def"
};
#define CRISP_IMPL(kernel, symbol, name, LEVEL, features) \
  _Static_assert((crisp_level_adds_##LEVEL & ~(features)) == 0, #symbol " has its level's features");
#include "implementations.def"

typedef struct registry_entry {
  crisp_kernel kernel;
  const crisp_impl_info *info;
} registry_entry;

static const registry_entry all_impls[] = {
#define CRISP_IMPL(kernel, symbol, name, LEVEL, features) \
  {(crisp_kernel)crisp_kernel_position_##kernel, &symbol.info},
#include "implementations.def"
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
