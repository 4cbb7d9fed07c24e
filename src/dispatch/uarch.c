/* src/dispatch/uarch.c - names the microarchitecture from the CPU's
 * identification. Model numbers come from the vendors' published lists
 * (Intel SDM vol. 4 table 2-1, AMD's Processor Programming References, Arm
 * Technical Reference Manuals for the MIDR part numbers); a model not listed
 * is unknown, so a new core keeps feature order until someone measures it. */
#include "uarch.h"

#include <string.h>
#include <strings.h>

static const char *const names[CRISP_UARCH_COUNT] = {
    [CRISP_UARCH_UNKNOWN] = "unknown",
    [CRISP_UARCH_ZEN3] = "zen3",
    [CRISP_UARCH_ZEN4] = "zen4",
    [CRISP_UARCH_ZEN5] = "zen5",
    [CRISP_UARCH_SKYLAKE_X] = "skylake-x",
    [CRISP_UARCH_ICE_LAKE] = "icelake",
    [CRISP_UARCH_SAPPHIRE_RAPIDS] = "sapphirerapids",
    [CRISP_UARCH_NEOVERSE_N1] = "neoverse-n1",
    [CRISP_UARCH_NEOVERSE_V1] = "neoverse-v1",
    [CRISP_UARCH_NEOVERSE_V2] = "neoverse-v2",
    [CRISP_UARCH_APPLE] = "apple",
};

const char *crisp_uarch_name(crisp_uarch_id uarch) {
  return (unsigned)uarch < CRISP_UARCH_COUNT ? names[uarch] : names[CRISP_UARCH_UNKNOWN];
}

int crisp_uarch_parse(const char *name) {
  for (int i = 0; i < CRISP_UARCH_COUNT; i++)
    if (strcasecmp(name, names[i]) == 0) return i;
  return -1;
}

/* A model range of one family. */
typedef struct model_range {
  int family, first, last;
  crisp_uarch_id uarch;
} model_range;

static const model_range amd_models[] = {
    {0x19, 0x00, 0x0f, CRISP_UARCH_ZEN3}, /* Milan */
    {0x19, 0x10, 0x1f, CRISP_UARCH_ZEN4}, /* Genoa */
    {0x19, 0x20, 0x2f, CRISP_UARCH_ZEN3}, /* Vermeer */
    {0x19, 0x40, 0x5f, CRISP_UARCH_ZEN3}, /* Rembrandt, Cezanne */
    {0x19, 0x60, 0x7f, CRISP_UARCH_ZEN4}, /* Raphael, Phoenix */
    {0x19, 0xa0, 0xaf, CRISP_UARCH_ZEN4}, /* Bergamo, Siena */
    {0x1a, 0x00, 0x7f, CRISP_UARCH_ZEN5}, /* Turin, Strix, Granite Ridge, Krackan */
};

static const model_range intel_models[] = {
    {6, 0x55, 0x55, CRISP_UARCH_SKYLAKE_X},       /* Skylake-SP, Cascade Lake, Cooper Lake */
    {6, 0x6a, 0x6a, CRISP_UARCH_ICE_LAKE},        /* Ice Lake-SP */
    {6, 0x6c, 0x6c, CRISP_UARCH_ICE_LAKE},        /* Ice Lake-D */
    {6, 0x7d, 0x7e, CRISP_UARCH_ICE_LAKE},        /* Ice Lake client */
    {6, 0x8c, 0x8d, CRISP_UARCH_ICE_LAKE},        /* Tiger Lake */
    {6, 0xa7, 0xa7, CRISP_UARCH_ICE_LAKE},        /* Rocket Lake */
    {6, 0x8f, 0x8f, CRISP_UARCH_SAPPHIRE_RAPIDS}, /* Sapphire Rapids */
    {6, 0xcf, 0xcf, CRISP_UARCH_SAPPHIRE_RAPIDS}, /* Emerald Rapids */
    {6, 0xad, 0xae, CRISP_UARCH_SAPPHIRE_RAPIDS}, /* Granite Rapids */
};

static crisp_uarch_id find_model(const model_range *ranges, size_t count, int family, int model) {
  for (size_t i = 0; i < count; i++)
    if (ranges[i].family == family && model >= ranges[i].first && model <= ranges[i].last)
      return ranges[i].uarch;
  return CRISP_UARCH_UNKNOWN;
}

crisp_uarch_id crisp_uarch_x86(const char *vendor, int family, int model) {
  if (!vendor) return CRISP_UARCH_UNKNOWN;
  if (strcmp(vendor, "AuthenticAMD") == 0)
    return find_model(amd_models, sizeof amd_models / sizeof amd_models[0], family, model);
  if (strcmp(vendor, "GenuineIntel") == 0)
    return find_model(intel_models, sizeof intel_models / sizeof intel_models[0], family, model);
  return CRISP_UARCH_UNKNOWN;
}

/* MIDR implementer codes. */
enum { IMPLEMENTER_ARM = 0x41, IMPLEMENTER_APPLE = 0x61 };

crisp_uarch_id crisp_uarch_arm64(int implementer, int part) {
  if (implementer == IMPLEMENTER_APPLE) return CRISP_UARCH_APPLE;
  if (implementer != IMPLEMENTER_ARM) return CRISP_UARCH_UNKNOWN;
  switch (part) {
    case 0xd0c:
      return CRISP_UARCH_NEOVERSE_N1;
    case 0xd40:
      return CRISP_UARCH_NEOVERSE_V1;
    case 0xd4f:
      return CRISP_UARCH_NEOVERSE_V2;
    default:
      return CRISP_UARCH_UNKNOWN;
  }
}
