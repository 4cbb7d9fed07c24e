/* src/dispatch/levels.h - the levels of this architecture, their names and
 * the CPU features each one needs. */
#ifndef CRISP_SRC_DISPATCH_LEVELS_H
#define CRISP_SRC_DISPATCH_LEVELS_H

#include "impl.h"

const char *crisp_level_name(crisp_level_id level);
/* The level whose name is name (case-insensitive), or -1. */
int crisp_level_parse(const char *name);
/* Features a CPU needs for level (cumulative: a level needs those below it). */
uint32_t crisp_level_features(crisp_level_id level);
/* The highest level whose features are all in cpu_features. */
crisp_level_id crisp_level_best(uint32_t cpu_features);
/* "generic x86_64 avx2 ..." */
const char *crisp_level_list(void);

#endif
