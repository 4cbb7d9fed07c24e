/* src/dispatch/cpu.c - turns cpu_features' report into crisp's feature bits.
 * cpu_features checks XCR0, so AVX and AVX-512 bits mean the OS saves those
 * registers too. Its bitfields are signed: a present feature reads -1.
 * CRISP_CPU_DISABLE (feature names) hides features the CPU has, so tests can
 * play a smaller CPU natively; it can only remove features, never add one.
 * CRISP_CPU_UARCH (a microarchitecture name) replaces the one identified, so
 * tests can exercise every row of the table on any machine; it changes only
 * the order among implementations the CPU runs, never the features. */
#include "cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "impl.h"

#if defined(CRISP_ARCH_X86_64)
#include <cpu_features/cpuinfo_x86.h>
#elif defined(CRISP_ARCH_ARM64)
#include <cpu_features/cpuinfo_aarch64.h>
#endif

/* From src/implementations.def; the empty entry keeps the array non-empty
 * on a target without features. */
static const struct {
  uint32_t bit;
  const char *name;
} feature_names[] = {
#define CRISP_FEATURE(ID, name) {CRISP_CPU_##ID, name},
#include "implementations.def"
    {0, ""},
};

void crisp_cpu_feature_names(uint32_t features, char *out, size_t size) {
  size_t used = 0;
  if (size == 0) return;
  out[0] = '\0';
  for (size_t i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++) {
    if (!(features & feature_names[i].bit)) continue;
    int n = snprintf(out + used, size - used, "%s%s", used ? " " : "", feature_names[i].name);
    if (n < 0 || (size_t)n >= size - used) break;
    used += (size_t)n;
  }
}

/* The feature bits named in a CRISP_CPU_DISABLE value: names separated by
 * commas or white space, case-insensitive; unknown names are ignored. */
static uint32_t disabled_features(const char *value) {
  static const char separators[] = ", \t\n";
  uint32_t bits = 0;
  while (value && *value) {
    value += strspn(value, separators);
    const size_t len = strcspn(value, separators);
    for (size_t i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++)
      if (strlen(feature_names[i].name) == len && strncasecmp(value, feature_names[i].name, len) == 0)
        bits |= feature_names[i].bit;
    value += len;
  }
  return bits;
}

static crisp_cpu probe_hardware(void);

crisp_cpu crisp_cpu_probe(void) {
  crisp_cpu cpu = probe_hardware();
  cpu.features &= ~disabled_features(getenv("CRISP_CPU_DISABLE"));
  const char *pretend = getenv("CRISP_CPU_UARCH");
  const int uarch = pretend ? crisp_uarch_parse(pretend) : -1;
  if (uarch >= 0) cpu.uarch = (crisp_uarch_id)uarch, cpu.uarch_pretended = 1;
  return cpu;
}

#if defined(CRISP_ARCH_X86_64)
static crisp_cpu probe_hardware(void) {
  const X86Info info = GetX86Info();
  const X86Features f = info.features;
  crisp_cpu cpu = {0};
  cpu.features |= f.sse2 ? CRISP_CPU_SSE2 : 0;
  cpu.features |= f.bmi1 ? CRISP_CPU_BMI1 : 0;
  cpu.features |= f.bmi2 ? CRISP_CPU_BMI2 : 0;
  cpu.features |= f.adx ? CRISP_CPU_ADX : 0;
  cpu.features |= f.avx ? CRISP_CPU_AVX : 0;
  cpu.features |= f.avx2 ? CRISP_CPU_AVX2 : 0;
  cpu.features |= f.avx512f ? CRISP_CPU_AVX512F : 0;
  cpu.features |= f.avx512vl ? CRISP_CPU_AVX512VL : 0;
  cpu.features |= f.avx512bw ? CRISP_CPU_AVX512BW : 0;
  cpu.features |= f.avx512dq ? CRISP_CPU_AVX512DQ : 0;
  cpu.features |= f.avx512ifma ? CRISP_CPU_AVX512IFMA : 0;
  cpu.uarch = crisp_uarch_x86(info.vendor, info.family, info.model);
  snprintf(cpu.identity, sizeof cpu.identity, "%s family 0x%x model 0x%02x",
           info.vendor[0] ? info.vendor : "unknown", (unsigned)info.family, (unsigned)info.model);
  snprintf(cpu.brand, sizeof cpu.brand, "%s", info.brand_string[0] ? info.brand_string : "unknown");
  /* Trim the padding spaces some vendors put around the brand string. */
  size_t len = strlen(cpu.brand);
  while (len > 0 && cpu.brand[len - 1] == ' ') cpu.brand[--len] = '\0';
  return cpu;
}
#elif defined(CRISP_ARCH_ARM64)
static crisp_cpu probe_hardware(void) {
  const Aarch64Info info = GetAarch64Info();
  const Aarch64Features f = info.features;
  crisp_cpu cpu = {0};
  cpu.features |= f.asimd ? CRISP_CPU_ASIMD : 0;
  cpu.uarch = crisp_uarch_arm64(info.implementer, info.part);
  snprintf(cpu.identity, sizeof cpu.identity, "implementer 0x%02x part 0x%03x", (unsigned)info.implementer,
           (unsigned)info.part);
  snprintf(cpu.brand, sizeof cpu.brand, "arm64 (implementer 0x%02x, part 0x%03x)", (unsigned)info.implementer,
           (unsigned)info.part);
  return cpu;
}
#else
static crisp_cpu probe_hardware(void) {
  crisp_cpu cpu = {0};
  snprintf(cpu.brand, sizeof cpu.brand, "unknown");
  snprintf(cpu.identity, sizeof cpu.identity, "unknown");
  return cpu;
}
#endif
