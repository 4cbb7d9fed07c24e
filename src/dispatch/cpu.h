/* src/dispatch/cpu.h - the one CPU probe in crisp (Google cpu_features). */
#ifndef CRISP_SRC_DISPATCH_CPU_H
#define CRISP_SRC_DISPATCH_CPU_H

#include <stddef.h>
#include <stdint.h>

typedef struct crisp_cpu {
  uint32_t features; /* CRISP_CPU_* bits */
  char brand[64];
} crisp_cpu;

/* Runs CPUID (or reads the auxiliary vector) once, less the features
 * CRISP_CPU_DISABLE names; the caller caches it. */
crisp_cpu crisp_cpu_probe(void);

/* Writes the names of the bits set in features, space-separated. */
void crisp_cpu_feature_names(uint32_t features, char *out, size_t size);

#endif
