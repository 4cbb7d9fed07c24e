/* src/dispatch/dispatch.c - the selection state: probed once on first use,
 * then one atomic pointer per kernel that front-ends load without a lock.
 * crisp_force() and crisp_use_impl() take a lock and store new pointers;
 * contexts keep the pointer they started with. Per kernel, the first that
 * applies decides: a crisp_use_impl() pin, CRYPTO_IMPL, a CRYPTO_OPTIONS
 * switch, then the microarchitecture table within the level cap, then
 * feature order. Every reason is a string made once, so readers never see
 * one being written. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "crisp/dispatch.h"
#include "env.h"
#include "levels.h"
#include "registry.h"
#include "scrub_depths.h"
#include "select.h"
#include "uarch_table.h"
#include "util.h"

_Atomic(const crisp_impl_info *) crisp_active_impl[CRISP_KERNEL_COUNT];

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t change_lock = PTHREAD_MUTEX_INITIALIZER;

/* Written once under probe_once, read-only afterwards. */
static crisp_cpu cpu;
static crisp_env_choice env;
static char feature_list[256];
static char force_reasons[CRISP_LEVEL_COUNT][48];
static char uarch_text[160];
static char feature_reasons[CRISP_LEVEL_COUNT][80];
static char env_pin_reasons[CRISP_KERNEL_COUNT][80];
static char rule_reasons[CRISP_UARCH_RULES_MAX][320];
static const char pin_reason[] = "crisp_use_impl() pins it";
static const char *const option_reasons[CRISP_KERNEL_COUNT] = {
#define CRISP_KERNEL(name, ENUM, type, jdk_switch) [CRISP_KERNEL_##ENUM] = "CRYPTO_OPTIONS=-" jdk_switch,
    CRISP_KERNEL_LIST(CRISP_KERNEL)
#undef CRISP_KERNEL
};

/* Changed only under change_lock; read through atomics. */
static _Atomic crisp_level_id cap;
static _Atomic(const char *) reason;
static const crisp_impl_info *pinned[CRISP_KERNEL_COUNT];
static _Atomic(const char *) kernel_reasons[CRISP_KERNEL_COUNT];

static const char *const kernel_names[CRISP_KERNEL_COUNT] = {
#define CRISP_KERNEL(name, ENUM, type, jdk_switch) [CRISP_KERNEL_##ENUM] = #name,
    CRISP_KERNEL_LIST(CRISP_KERNEL)
#undef CRISP_KERNEL
};

static int valid_kernel(crisp_kernel kernel) {
  return (unsigned)kernel < CRISP_KERNEL_COUNT;
}

/* One kernel's implementation and why (see the top of this file). */
static const crisp_impl_info *choose(crisp_kernel k, crisp_level_id level_cap, const char **why) {
  if (pinned[k]) {
    *why = pin_reason;
    return pinned[k];
  }
  if (env.impls[k]) {
    *why = env_pin_reasons[k];
    return env.impls[k];
  }
  if (env.generic_kernels >> k & 1) {
    *why = option_reasons[k];
    return crisp_registry_best(k, CRISP_LEVEL_GENERIC, cpu.features);
  }
  const crisp_uarch_rule *rule;
  const crisp_impl_info *impl = crisp_uarch_choose(k, cpu.uarch, level_cap, cpu.features, &rule);
  *why = rule ? rule_reasons[rule - crisp_uarch_rules] : feature_reasons[level_cap];
  return impl;
}

/* Recomputes every kernel's pointer and reason. Called with change_lock
 * held (or from the one-time probe). */
/* The scrub's store width at a level: what the level's kernels may use
 * anyway, so that a cap (CRYPTO_FORCE, crisp_force) keeps wide vectors out
 * of the scrub too. */
static int scrub_width(crisp_level_id level) {
#if defined(CRISP_ARCH_X86_64)
  if (level >= CRISP_LEVEL_AVX512) return CRISP_SCRUB_WIDTH_AVX512;
  if (level >= CRISP_LEVEL_AVX2) return CRISP_SCRUB_WIDTH_AVX2;
#endif
  (void)level;
  return CRISP_SCRUB_WIDTH_SSE2;
}

static void reselect(void) {
  const crisp_level_id level_cap = atomic_load(&cap);
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    const char *why;
    const crisp_impl_info *impl = choose((crisp_kernel)k, level_cap, &why);
    atomic_store_explicit(&kernel_reasons[k], why, memory_order_release);
    atomic_store_explicit(&crisp_active_impl[k], impl, memory_order_release);
  }
  crisp_scrub_set_width(scrub_width(level_cap));
}

/* The reasons the table can give, and the microarchitecture line. */
static void describe_choices(void) {
  for (int i = 0; i < CRISP_LEVEL_COUNT; i++)
    snprintf(feature_reasons[i], sizeof feature_reasons[i],
             "feature order: the first this CPU runs at or below %s", crisp_level_name((crisp_level_id)i));
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
    if (env.impls[k])
      snprintf(env_pin_reasons[k], sizeof env_pin_reasons[k], "CRYPTO_IMPL=%s:%s", kernel_names[k],
               env.impls[k]->name);
  for (size_t i = 0; i < crisp_uarch_rule_count; i++) {
    const crisp_uarch_rule *rule = &crisp_uarch_rules[i];
    if (rule->uarch == CRISP_UARCH_COUNT) continue; /* the placeholder */
    snprintf(rule_reasons[i], sizeof rule_reasons[i], "table, %s %s %s: %s", crisp_uarch_name(rule->uarch),
             rule->action == CRISP_RULE_PREFER ? "prefers" : "vetoes, so feature order skips", rule->impl,
             rule->evidence);
  }
  if (cpu.uarch_pretended)
    snprintf(uarch_text, sizeof uarch_text, "%s (CRISP_CPU_UARCH; the CPU is %s)",
             crisp_uarch_name(cpu.uarch), cpu.identity);
  else
    snprintf(uarch_text, sizeof uarch_text, "%s (%s)", crisp_uarch_name(cpu.uarch), cpu.identity);
}

static void probe(void) {
  cpu = crisp_cpu_probe();
  crisp_cpu_feature_names(cpu.features, feature_list, sizeof feature_list);
  for (int i = 0; i < CRISP_LEVEL_COUNT; i++)
    snprintf(force_reasons[i], sizeof force_reasons[i], "crisp_force(%s)",
             crisp_level_name((crisp_level_id)i));
  env = crisp_env_read(cpu.features);
  crisp_uarch_apply_settings(cpu.uarch);
  describe_choices();
  atomic_store(&cap, env.cap);
  atomic_store(&reason, (const char *)env.reason);
  reselect();
}

static void ensure_probed(void) {
  pthread_once(&probe_once, probe);
}

/* A kernel's first use comes from inside a call that may already hold a
 * secret in registers (a key word, a limb passed by value): the probe's
 * callees save such registers in their frames, and under lazy binding so
 * does the dynamic resolver at each C library function's first call. The
 * probe runs below this frame and its frames are then overwritten, so
 * what is left of the secret lies no deeper than this frame, where the
 * public entry's own scrub reaches. Once per thread that gets here: the
 * atomic pointers spare every later call. */
static __attribute__((noinline)) void probe_from_below(void) {
  ensure_probed();
}

const crisp_impl_info *crisp_dispatch_first_use(crisp_kernel kernel) {
  probe_from_below();
  crisp_scrub_below(CRISP_SCRUB_PROBE_BYTES);
  return atomic_load_explicit(&crisp_active_impl[kernel], memory_order_acquire);
}

const char *crisp_kernel_name(crisp_kernel kernel) {
  return valid_kernel(kernel) ? kernel_names[kernel] : NULL;
}

const char *crisp_impl_name(crisp_kernel kernel) {
  return valid_kernel(kernel) ? crisp_active(kernel)->name : NULL;
}

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

const char *crisp_cpu_uarch(void) {
  ensure_probed();
  return uarch_text;
}

const char *crisp_impl_reason(crisp_kernel kernel) {
  if (!valid_kernel(kernel)) return NULL;
  ensure_probed();
  return atomic_load_explicit(&kernel_reasons[kernel], memory_order_acquire);
}

const char *crisp_levels(void) {
  return crisp_level_list();
}

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

size_t crisp_impl_count(crisp_kernel kernel) {
  return valid_kernel(kernel) ? crisp_registry_count(kernel) : 0;
}

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
