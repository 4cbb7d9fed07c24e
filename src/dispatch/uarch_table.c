/* src/dispatch/uarch_table.c - the per-microarchitecture table (see
 * uarch_table.h) and how it is applied. An entry's evidence names the CPU a
 * figure was measured on, or the published latencies a cycle argument rests
 * on; a core without entries keeps feature order and the defaults. */
#include "uarch_table.h"

#include <strings.h>

#include "registry.h"

const crisp_uarch_rule crisp_uarch_rules[] = {
#if defined(CRISP_ARCH_X86_64)
    /* Single-stream MD5 in vector registers: four dependent operations a
     * step (ternlog, add, rotate, add) against the scalar code's 4.5 cycles
     * a step, so it wins only where all four take one cycle; one 2-cycle
     * operation makes it 5 cycles a step and loses. */
    {CRISP_UARCH_ZEN4, CRISP_KERNEL_MD5, "avx512", CRISP_RULE_VETO,
     "cycle model: llvm-mca 16 -mcpu=znver4 (vprold 2-cycle latency): 5 cycles a step, 323 a block against "
     "292 for "
     "x86_64-bmi1; measured (issue 13): 0.89x OpenSSL pinned, x86_64-bmi1 1.06x, on AMD family 0x19 model "
     "0x11"},
    {CRISP_UARCH_ICE_LAKE, CRISP_KERNEL_MD5, "avx512", CRISP_RULE_PREFER,
     "cycle model: vpaddd/vpternlogd/vprold 1-cycle latency on Sunny Cove (uops.info): 4 cycles a step, 256 "
     "a block, "
     "against 288 for x86_64-bmi1"},
    {CRISP_UARCH_SAPPHIRE_RAPIDS, CRISP_KERNEL_MD5, "avx512", CRISP_RULE_PREFER,
     "cycle model: vpaddd/vpternlogd/vprold 1-cycle latency on Golden Cove (uops.info): 4 cycles a step, 256 "
     "a block, "
     "against 288 for x86_64-bmi1"},
    {CRISP_UARCH_ZEN5, CRISP_KERNEL_MD5, "avx512", CRISP_RULE_VETO,
     "measured: 0.56x x86_64-bmi1 at 16 KiB and 1 MiB on AMD EPYC family 0x1a model 0x02 (Zen 5): 2-cycle "
     "vector "
     "latency makes its 4-operation chain 8 cycles a step"},
#endif
    /* No arm64 core has an entry: no arm64 hardware has been measured. */
    {CRISP_UARCH_COUNT, CRISP_KERNEL_COUNT, "", CRISP_RULE_VETO,
     ""}, /* matches no core: C has no empty arrays */
};
const size_t crisp_uarch_rule_count = sizeof crisp_uarch_rules / sizeof crisp_uarch_rules[0];
_Static_assert(sizeof crisp_uarch_rules / sizeof crisp_uarch_rules[0] <= CRISP_UARCH_RULES_MAX,
               "dispatch.c has a reason string for every rule");

/* Parameters other than the defaults (src/tuning.h), each with its
 * evidence. */
const crisp_uarch_setting crisp_uarch_settings[] = {
#if defined(CRISP_ARCH_X86_64)
    {CRISP_UARCH_ZEN5, CRISP_TUNING_BN_MUL_AVX512IFMA_MIN, 32,
     "measured: IFMA columns 466-473 against 634-657 TSC ticks (x86_64-adx) at 32 limbs, 301 against 323 at "
     "19, "
     "on AMD EPYC family 0x1a model 0x02"},
    {CRISP_UARCH_ZEN5, CRISP_TUNING_BN_SQR_AVX512IFMA_MIN, 32,
     "measured: IFMA columns 376 against 387 TSC ticks (x86_64-adx) at 32 limbs, 389 against 570 at 33, on "
     "AMD EPYC family 0x1a model 0x02"},
#endif
    {CRISP_UARCH_COUNT, CRISP_TUNING_COUNT, 0, NULL}, /* matches no core: C has no empty arrays */
};
const size_t crisp_uarch_setting_count = sizeof crisp_uarch_settings / sizeof crisp_uarch_settings[0];

static int allowed(const crisp_impl_info *impl, crisp_level_id cap, uint32_t cpu_features) {
  return impl && impl->level <= cap && (impl->features & ~cpu_features) == 0;
}

static const crisp_uarch_rule *find_rule(const crisp_uarch_rule *rules, size_t count, crisp_kernel kernel,
                                         crisp_uarch_id uarch, const char *impl, crisp_rule_action action) {
  for (size_t i = 0; i < count; i++) {
    const crisp_uarch_rule *rule = &rules[i];
    if (rule->uarch == uarch && rule->kernel == kernel && rule->action == action &&
        strcasecmp(rule->impl, impl) == 0)
      return rule;
  }
  return NULL;
}

const crisp_impl_info *crisp_uarch_choose_from(const crisp_uarch_rule *rules, size_t count,
                                               crisp_kernel kernel, crisp_uarch_id uarch, crisp_level_id cap,
                                               uint32_t cpu_features, const crisp_uarch_rule **decided) {
  *decided = NULL;
  for (size_t i = 0; i < count; i++) {
    const crisp_uarch_rule *rule = &rules[i];
    if (rule->uarch != uarch || rule->kernel != kernel || rule->action != CRISP_RULE_PREFER) continue;
    const crisp_impl_info *impl = crisp_registry_find(kernel, rule->impl);
    if (allowed(impl, cap, cpu_features)) {
      *decided = rule;
      return impl;
    }
  }
  const crisp_uarch_rule *veto = NULL;
  for (size_t i = 0;; i++) {
    const crisp_impl_info *impl = crisp_registry_at(kernel, i);
    if (!impl) break;
    if (!allowed(impl, cap, cpu_features)) continue;
    const crisp_uarch_rule *rule = find_rule(rules, count, kernel, uarch, impl->name, CRISP_RULE_VETO);
    if (!rule) {
      *decided = veto;
      return impl;
    }
    if (!veto) veto = rule;
  }
  *decided = NULL;
  return crisp_registry_best(kernel, cap, cpu_features);
}

const crisp_impl_info *crisp_uarch_choose(crisp_kernel kernel, crisp_uarch_id uarch, crisp_level_id cap,
                                          uint32_t cpu_features, const crisp_uarch_rule **decided) {
  return crisp_uarch_choose_from(crisp_uarch_rules, crisp_uarch_rule_count, kernel, uarch, cap, cpu_features,
                                 decided);
}

void crisp_uarch_apply_settings(crisp_uarch_id uarch) {
  for (size_t i = 0; i < crisp_uarch_setting_count; i++)
    if (crisp_uarch_settings[i].uarch == uarch)
      crisp_tuning_set(crisp_uarch_settings[i].parameter, crisp_uarch_settings[i].value);
}
