/* src/dispatch/levels.c - level names and the features each level needs. */
#include "levels.h"

#include <strings.h>

typedef struct level_desc {
  const char *name;
  uint32_t features; /* needed on top of the level below */
} level_desc;

static const level_desc levels[CRISP_LEVEL_COUNT] = {
    [CRISP_LEVEL_GENERIC] = {"generic", 0},
#if defined(CRISP_ARCH_X86_64)
    /* SSE2 is part of the x86-64 baseline, so this level is always there. */
    [CRISP_LEVEL_X86_64] = {"x86_64", 0},
    [CRISP_LEVEL_AVX2] = {"avx2", CRISP_CPU_AVX | CRISP_CPU_AVX2},
    [CRISP_LEVEL_AVX512] = {"avx512", CRISP_CPU_AVX512F | CRISP_CPU_AVX512VL | CRISP_CPU_AVX512BW},
    [CRISP_LEVEL_AVX512IFMA] = {"avx512ifma", CRISP_CPU_AVX512IFMA},
#elif defined(CRISP_ARCH_ARM64)
    [CRISP_LEVEL_ARM64] = {"arm64", 0},
    /* ASIMD is mandatory in ARMv8-A, but a probe that says so costs nothing. */
    [CRISP_LEVEL_NEON] = {"neon", CRISP_CPU_ASIMD},
#endif
};

const char *crisp_level_name(crisp_level_id level) {
  return (unsigned)level < CRISP_LEVEL_COUNT ? levels[level].name : "unknown";
}

int crisp_level_parse(const char *name) {
  for (int i = 0; i < CRISP_LEVEL_COUNT; i++)
    if (strcasecmp(name, levels[i].name) == 0) return i;
  return -1;
}

uint32_t crisp_level_features(crisp_level_id level) {
  uint32_t features = 0;
  for (int i = 0; i <= (int)level && i < CRISP_LEVEL_COUNT; i++) features |= levels[i].features;
  return features;
}

crisp_level_id crisp_level_best(uint32_t cpu_features) {
  crisp_level_id best = CRISP_LEVEL_GENERIC;
  for (int i = 1; i < CRISP_LEVEL_COUNT; i++) {
    if ((crisp_level_features((crisp_level_id)i) & ~cpu_features) != 0) break;
    best = (crisp_level_id)i;
  }
  return best;
}

const char *crisp_level_list(void) {
#if defined(CRISP_ARCH_X86_64)
  return "generic x86_64 avx2 avx512 avx512ifma";
#elif defined(CRISP_ARCH_ARM64)
  return "generic arm64 neon";
#else
  return "generic";
#endif
}
