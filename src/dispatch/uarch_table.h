/* src/dispatch/uarch_table.h - what crisp knows about particular
 * microarchitectures: rules that prefer or veto an implementation of a
 * kernel, and settings of implementation parameters (src/tuning.h). Each
 * entry carries the one line of evidence it rests on. The table only
 * reorders among implementations the CPU runs and the level cap allows;
 * CRYPTO_IMPL, CRYPTO_OPTIONS, crisp_use_impl and the cap come first. */
#ifndef CRISP_SRC_DISPATCH_UARCH_TABLE_H
#define CRISP_SRC_DISPATCH_UARCH_TABLE_H

#include "impl.h"
#include "tuning.h"
#include "uarch.h"

typedef enum crisp_rule_action {
  CRISP_RULE_PREFER, /* chosen before feature order, when allowed */
  CRISP_RULE_VETO    /* never chosen by feature order on this core */
} crisp_rule_action;

typedef struct crisp_uarch_rule {
  crisp_uarch_id uarch;
  crisp_kernel kernel;
  const char *impl; /* an implementation name; a build may leave it out */
  crisp_rule_action action;
  const char *evidence;
} crisp_uarch_rule;

typedef struct crisp_uarch_setting {
  crisp_uarch_id uarch;
  crisp_tuning_id parameter;
  uint32_t value;
  const char *evidence;
} crisp_uarch_setting;

/* Room dispatch.c keeps for one reason string per rule. */
#define CRISP_UARCH_RULES_MAX 32

/* Each table ends with a placeholder for no core (uarch CRISP_UARCH_COUNT). */
extern const crisp_uarch_rule crisp_uarch_rules[];
extern const size_t crisp_uarch_rule_count;
extern const crisp_uarch_setting crisp_uarch_settings[];
extern const size_t crisp_uarch_setting_count;

/* The implementation of kernel for a core: the first preferred one that
 * the cap and features allow, else the first in feature order not vetoed
 * (generic is never vetoed away: with every better one vetoed, feature order
 * stands). *decided is the rule that changed the outcome, or NULL when
 * feature order alone gives it. */
const crisp_impl_info *crisp_uarch_choose(crisp_kernel kernel, crisp_uarch_id uarch, crisp_level_id cap,
                                          uint32_t cpu_features, const crisp_uarch_rule **decided);

/* The same over another table (tests). */
const crisp_impl_info *crisp_uarch_choose_from(const crisp_uarch_rule *rules, size_t count,
                                               crisp_kernel kernel, crisp_uarch_id uarch, crisp_level_id cap,
                                               uint32_t cpu_features, const crisp_uarch_rule **decided);

/* Applies the settings for uarch to the tuning parameters. */
void crisp_uarch_apply_settings(crisp_uarch_id uarch);

#endif
