/* src/dispatch/dispatch.c - the selection state: probed once on first use,
 * then one atomic pointer per kernel that front-ends load without a lock.
 * crisp_force() and crisp_use_impl() take a lock and store new pointers;
 * contexts keep the pointer they started with. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "crisp/dispatch.h"
#include "env.h"
#include "levels.h"
#include "registry.h"
#include "select.h"

_Atomic(const crisp_impl_info *) crisp_active_impl[CRISP_KERNEL_COUNT];

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t change_lock = PTHREAD_MUTEX_INITIALIZER;

/* Written once under probe_once, read-only afterwards. */
static crisp_cpu cpu;
static crisp_env_choice env;
static char feature_list[256];
static char force_reasons[CRISP_LEVEL_COUNT][48];

/* Changed only under change_lock; read through atomics. */
static _Atomic crisp_level_id cap;
static _Atomic(const char *) reason;
static const crisp_impl_info *pinned[CRISP_KERNEL_COUNT];

static const char *const kernel_names[CRISP_KERNEL_COUNT] = {
#define CRISP_KERNEL(name, ENUM, type, jdk_switch) [CRISP_KERNEL_##ENUM] = #name,
    CRISP_KERNEL_LIST(CRISP_KERNEL)
#undef CRISP_KERNEL
};

static int valid_kernel(crisp_kernel kernel) { return (unsigned)kernel < CRISP_KERNEL_COUNT; }

/* Recomputes every kernel's pointer from cap, CRYPTO_OPTIONS and pins.
 * Called with change_lock held (or from the one-time probe). */
static void reselect(void) {
  const crisp_level_id level_cap = atomic_load(&cap);
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    const crisp_level_id kernel_cap = (env.generic_kernels >> k & 1) ? CRISP_LEVEL_GENERIC : level_cap;
    const crisp_impl_info *impl = pinned[k] ? pinned[k] : crisp_registry_best((crisp_kernel)k, kernel_cap, cpu.features);
    atomic_store_explicit(&crisp_active_impl[k], impl, memory_order_release);
  }
}

static void probe(void) {
  cpu = crisp_cpu_probe();
  crisp_cpu_feature_names(cpu.features, feature_list, sizeof feature_list);
  for (int i = 0; i < CRISP_LEVEL_COUNT; i++)
    snprintf(force_reasons[i], sizeof force_reasons[i], "crisp_force(%s)", crisp_level_name((crisp_level_id)i));
  env = crisp_env_read(cpu.features);
  atomic_store(&cap, env.cap);
  atomic_store(&reason, (const char *)env.reason);
  reselect();
}

static void ensure_probed(void) { pthread_once(&probe_once, probe); }

const crisp_impl_info *crisp_dispatch_first_use(crisp_kernel kernel) {
  ensure_probed();
  return atomic_load_explicit(&crisp_active_impl[kernel], memory_order_acquire);
}

const char *crisp_kernel_name(crisp_kernel kernel) { return valid_kernel(kernel) ? kernel_names[kernel] : NULL; }

const char *crisp_impl_name(crisp_kernel kernel) { return valid_kernel(kernel) ? crisp_active(kernel)->name : NULL; }

const char *crisp_level(void) {
  ensure_probed();
  return crisp_level_name(atomic_load(&cap));
}

const char *crisp_cpu_features(void) {
  ensure_probed();
  return feature_list;
}

const char *crisp_cpu_brand(void) {
  ensure_probed();
  return cpu.brand;
}

const char *crisp_levels(void) { return crisp_level_list(); }

const char *crisp_dispatch_reason(void) {
  ensure_probed();
  return atomic_load(&reason);
}

int crisp_env_status(void) {
  ensure_probed();
  return env.status;
}

int crisp_force(const char *level_name) {
  ensure_probed();
  crisp_level_id level = env.cap;
  const char *why = env.reason;
  if (level_name) {
    const int parsed = crisp_level_parse(level_name);
    if (parsed < 0) return CRISP_E_INVALID;
    if (crisp_level_features((crisp_level_id)parsed) & ~cpu.features) return CRISP_E_UNSUPPORTED;
    level = (crisp_level_id)parsed;
    why = force_reasons[parsed];
  }
  pthread_mutex_lock(&change_lock);
  atomic_store(&cap, level);
  atomic_store(&reason, why);
  reselect();
  pthread_mutex_unlock(&change_lock);
  return CRISP_OK;
}

size_t crisp_impl_count(crisp_kernel kernel) { return valid_kernel(kernel) ? crisp_registry_count(kernel) : 0; }

const char *crisp_impl_name_at(crisp_kernel kernel, size_t i) {
  const crisp_impl_info *impl = valid_kernel(kernel) ? crisp_registry_at(kernel, i) : NULL;
  return impl ? impl->name : NULL;
}

int crisp_impl_supported_at(crisp_kernel kernel, size_t i) {
  ensure_probed();
  const crisp_impl_info *impl = valid_kernel(kernel) ? crisp_registry_at(kernel, i) : NULL;
  return impl && (impl->features & ~cpu.features) == 0;
}

int crisp_use_impl(crisp_kernel kernel, const char *name) {
  if (!valid_kernel(kernel)) return CRISP_E_INVALID;
  ensure_probed();
  const crisp_impl_info *impl = NULL;
  if (name) {
    impl = crisp_registry_find(kernel, name);
    if (!impl) return CRISP_E_INVALID;
    if (impl->features & ~cpu.features) return CRISP_E_UNSUPPORTED;
  }
  pthread_mutex_lock(&change_lock);
  pinned[kernel] = impl;
  reselect();
  pthread_mutex_unlock(&change_lock);
  return CRISP_OK;
}
