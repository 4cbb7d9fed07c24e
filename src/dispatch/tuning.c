/* src/dispatch/tuning.c - the parameter values kernels read (src/tuning.h),
 * starting at their defaults. */
#include "tuning.h"

_Atomic uint32_t crisp_tuning_values[CRISP_TUNING_COUNT] = {
#define CRISP_TUNING(ID, name, default_value, minimum) [CRISP_TUNING_##ID] = default_value,
    CRISP_TUNING_LIST(CRISP_TUNING)
#undef CRISP_TUNING
};

static const struct {
  const char *name;
  uint32_t default_value, minimum;
} parameters[CRISP_TUNING_COUNT] = {
#define CRISP_TUNING(ID, name, default_value, minimum) [CRISP_TUNING_##ID] = {name, default_value, minimum},
    CRISP_TUNING_LIST(CRISP_TUNING)
#undef CRISP_TUNING
};

const char *crisp_tuning_name(crisp_tuning_id id) {
  return (unsigned)id < CRISP_TUNING_COUNT ? parameters[id].name : "unknown";
}

uint32_t crisp_tuning_default(crisp_tuning_id id) {
  return (unsigned)id < CRISP_TUNING_COUNT ? parameters[id].default_value : 0;
}

void crisp_tuning_set(crisp_tuning_id id, uint32_t value) {
  if ((unsigned)id >= CRISP_TUNING_COUNT) return;
  if (value < parameters[id].minimum) value = parameters[id].minimum;
  atomic_store_explicit(&crisp_tuning_values[id], value, memory_order_relaxed);
}
