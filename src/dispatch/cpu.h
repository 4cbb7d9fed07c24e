/* src/dispatch/cpu.h - the one CPU probe in crisp (Google cpu_features). */
#ifndef CRISP_SRC_DISPATCH_CPU_H
#define CRISP_SRC_DISPATCH_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "uarch.h"

typedef struct crisp_cpu {
  uint32_t features; /* CRISP_CPU_* bits */
  crisp_uarch_id uarch;
  int uarch_pretended; /* uarch came from CRISP_CPU_UARCH */
  char brand[64];
  char identity[64]; /* "AuthenticAMD family 0x1a model 0x02", what uarch was read from */
} crisp_cpu;

/* Runs CPUID (or reads the auxiliary vector) once, less the features
 * CRISP_CPU_DISABLE names and with the microarchitecture CRISP_CPU_UARCH
 * names, if any (tests play other cores with it); the caller caches it. */
crisp_cpu crisp_cpu_probe(void);

/* Writes the names of the bits set in features, space-separated. */
void crisp_cpu_feature_names(uint32_t features, char *out, size_t size);

#endif
