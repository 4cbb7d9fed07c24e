/* src/dispatch/uarch.h - which microarchitecture this CPU is, from its
 * vendor, family and model (x86) or MIDR implementer and part (arm64), for
 * the per-microarchitecture table (uarch_table.h). */
#ifndef CRISP_SRC_DISPATCH_UARCH_H
#define CRISP_SRC_DISPATCH_UARCH_H

/* Cores grouped by what the table needs to know about them: vector integer
 * latency and width. A group is named after its first member. */
typedef enum crisp_uarch_id {
  CRISP_UARCH_UNKNOWN,
  CRISP_UARCH_ZEN3,
  CRISP_UARCH_ZEN4,
  CRISP_UARCH_ZEN5,
  CRISP_UARCH_SKYLAKE_X,       /* Skylake-SP, Cascade Lake, Cooper Lake */
  CRISP_UARCH_ICE_LAKE,        /* Sunny Cove class: Ice Lake, Tiger Lake, Rocket Lake */
  CRISP_UARCH_SAPPHIRE_RAPIDS, /* Golden Cove class servers and later: Emerald, Granite Rapids */
  CRISP_UARCH_NEOVERSE_N1,
  CRISP_UARCH_NEOVERSE_V1,
  CRISP_UARCH_NEOVERSE_V2,
  CRISP_UARCH_APPLE, /* Apple's own cores (implementer 0x61) */
  CRISP_UARCH_COUNT
} crisp_uarch_id;

/* "zen4", "icelake", ...; "unknown" for CRISP_UARCH_UNKNOWN. */
const char *crisp_uarch_name(crisp_uarch_id uarch);

/* The microarchitecture called name (case-insensitive), or -1. */
int crisp_uarch_parse(const char *name);

/* An x86 CPU by CPUID vendor string and display family and model. */
crisp_uarch_id crisp_uarch_x86(const char *vendor, int family, int model);

/* An arm64 CPU by MIDR_EL1 implementer and part number. */
crisp_uarch_id crisp_uarch_arm64(int implementer, int part);

#endif
