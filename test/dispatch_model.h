/* test/dispatch_model.h - crisp's dispatch as its docs describe it, for
 * test_dispatch_table.c: feature names and levels, every kernel's
 * implementations best first with the features each executes and its
 * CRYPTO_OPTIONS switch (crisp(3), Dispatch), the microarchitecture
 * table's rows, and a CPUID (or auxv) probe of the CPU's features that
 * does not go through the library (test_cpu_mask.c uses the features,
 * levels and probe too). Written from the docs, never from src/: a
 * difference between the two is what the tests are for. */
#ifndef CRISP_TEST_DISPATCH_MODEL_H
#define CRISP_TEST_DISPATCH_MODEL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__)
#include <sys/auxv.h>
#endif

typedef uint32_t feature_set; /* bit i: feature_names[i] */

#if defined(__x86_64__)
static const char *const feature_names[] = {"sse2",     "bmi1",     "bmi2",      "adx",
                                            "avx",      "avx2",     "avx512f",   "avx512vl",
                                            "avx512bw", "avx512dq", "avx512ifma"};
static const struct {
  const char *name, *needs; /* on top of the levels below */
} levels[] = {{"generic", ""},
              {"x86_64", ""},
              {"avx2", "avx avx2"},
              {"avx512", "avx512f avx512vl avx512bw"},
              {"avx512ifma", "avx512ifma"}};
#elif defined(__aarch64__)
static const char *const feature_names[] = {"asimd"};
static const struct {
  const char *name, *needs;
} levels[] = {{"generic", ""}, {"arm64", ""}, {"neon", "asimd"}};
#else
static const char *const feature_names[] = {""};
static const struct { const char *name, *needs; } levels[] = {{"generic", ""}};
#endif
enum {
  FEATURE_COUNT = sizeof feature_names / sizeof feature_names[0],
  LEVEL_COUNT = sizeof levels / sizeof levels[0],
  KERNELS = 10,
  IMPLS_MAX = 6
};

/* Every kernel, its CRYPTO_OPTIONS switch, and its implementations best
 * first with every feature each one executes (crisp(3), Dispatch);
 * a build option may leave some out. */
#define AVX512_ALL "avx avx2 avx512f avx512vl avx512bw avx512dq"
#if defined(CRISP_NO_ASM)
#define ASM_BUILT 0
#else
#define ASM_BUILT 1
#endif
#if defined(CRISP_NO_AVX512)
#define AVX512_BUILT 0
#else
#define AVX512_BUILT 1
#endif
#if defined(CRISP_NO_AVX512IFMA)
#define IFMA_BUILT 0
#else
#define IFMA_BUILT 1
#endif

typedef struct impl_row {
  const char *name, *needs;
  int built;
} impl_row;

static const struct {
  const char *name, *option;
  impl_row impls[IMPLS_MAX];
} kernels[KERNELS] = {
#if defined(__x86_64__)
    {"md5",
     "UseMD5Intrinsics",
     {{"x86_64-bmi1", "bmi1", ASM_BUILT}, {"x86_64", "", ASM_BUILT}, {"avx512", AVX512_ALL, AVX512_BUILT}}},
    {"md5_many",
     "UseMD5Intrinsics",
     {{"avx512", AVX512_ALL, AVX512_BUILT}, {"avx2", "avx avx2 bmi1 bmi2", 1}}},
    {"poly1305",
     "UsePoly1305Intrinsics",
     {{"avx512ifma", AVX512_ALL " avx512ifma", IFMA_BUILT},
      {"avx512", AVX512_ALL, AVX512_BUILT},
      {"avx2", "avx avx2 bmi1 bmi2", 1},
      {"x86_64", "sse2", 1}}},
    {"bn_mul",
     "UseMultiplyToLenIntrinsic",
     {{"x86_64-adx", "bmi2 adx", ASM_BUILT}, {"x86_64", "", ASM_BUILT}}},
    {"bn_sqr", "UseSquareToLenIntrinsic", {{"x86_64-adx", "bmi2 adx", ASM_BUILT}, {"x86_64", "", ASM_BUILT}}},
    {"bn_mul_add", "UseMulAddIntrinsic", {{"x86_64-adx", "bmi2 adx", ASM_BUILT}, {"x86_64", "", ASM_BUILT}}},
    {"bn_mont_mul",
     "UseMontgomeryMultiplyIntrinsic",
     {{"avx512ifma", AVX512_ALL " avx512ifma bmi2 adx", ASM_BUILT &&IFMA_BUILT},
      {"x86_64-adx", "bmi2 adx", ASM_BUILT},
      {"x86_64", "", ASM_BUILT}}},
    {"bn_mont_sqr",
     "UseMontgomerySquareIntrinsic",
     {{"avx512ifma", AVX512_ALL " avx512ifma bmi2 adx", ASM_BUILT &&IFMA_BUILT},
      {"x86_64-adx", "bmi2 adx", ASM_BUILT},
      {"x86_64", "", ASM_BUILT}}},
    {"bn_mod_exp2",
     "UseMontgomeryMultiplyIntrinsic",
     {{"avx512ifma", AVX512_ALL " avx512ifma bmi2 adx", ASM_BUILT &&IFMA_BUILT}}},
    {"chacha20",
     "UseChaCha20Intrinsics",
     {{"avx512", AVX512_ALL, AVX512_BUILT}, {"avx2", "avx avx2 bmi1 bmi2", 1}, {"x86_64", "sse2", 1}}},
#elif defined(__aarch64__)
    {"md5", "UseMD5Intrinsics", {{"arm64", "", 1}}},
    {"md5_many", "UseMD5Intrinsics", {{"neon", "asimd", 1}}},
    {"poly1305", "UsePoly1305Intrinsics", {{"neon", "asimd", 1}, {"arm64", "", 1}}},
    {"bn_mul", "UseMultiplyToLenIntrinsic", {{"arm64", "", 1}}},
    {"bn_sqr", "UseSquareToLenIntrinsic", {{"arm64", "", 1}}},
    {"bn_mul_add", "UseMulAddIntrinsic", {{"arm64", "", 1}}},
    {"bn_mont_mul", "UseMontgomeryMultiplyIntrinsic", {{"arm64", "", 1}}},
    {"bn_mont_sqr", "UseMontgomerySquareIntrinsic", {{"arm64", "", 1}}},
    {"bn_mod_exp2", "UseMontgomeryMultiplyIntrinsic", {{NULL, NULL, 0}}},
    {"chacha20", "UseChaCha20Intrinsics", {{"neon", "asimd", 1}}},
#else
    {"md5", "UseMD5Intrinsics", {{NULL, NULL, 0}}},
    {"md5_many", "UseMD5Intrinsics", {{NULL, NULL, 0}}},
    {"poly1305", "UsePoly1305Intrinsics", {{NULL, NULL, 0}}},
    {"bn_mul", "UseMultiplyToLenIntrinsic", {{NULL, NULL, 0}}},
    {"bn_sqr", "UseSquareToLenIntrinsic", {{NULL, NULL, 0}}},
    {"bn_mul_add", "UseMulAddIntrinsic", {{NULL, NULL, 0}}},
    {"bn_mont_mul", "UseMontgomeryMultiplyIntrinsic", {{NULL, NULL, 0}}},
    {"bn_mont_sqr", "UseMontgomerySquareIntrinsic", {{NULL, NULL, 0}}},
    {"bn_mod_exp2", "UseMontgomeryMultiplyIntrinsic", {{NULL, NULL, 0}}},
    {"chacha20", "UseChaCha20Intrinsics", {{NULL, NULL, 0}}},
#endif
};

/* The microarchitecture names CRISP_CPU_UARCH takes, and the table's rules
 * (docs/dispatch.md, "By microarchitecture"): a preferred implementation is chosen
 * first when the cap and the CPU allow it; feature order skips a vetoed one. */
static const char *const uarch_names[] = {"unknown",     "zen3",        "zen4",           "zen5",
                                          "skylake-x",   "icelake",     "sapphirerapids", "neoverse-n1",
                                          "neoverse-v1", "neoverse-v2", "apple"};
enum { UARCH_COUNT = sizeof uarch_names / sizeof uarch_names[0] };
static const struct {
  const char *uarch, *kernel, *impl;
  int prefer;
} rules[] = {
#if defined(__x86_64__)
    {"zen4", "md5", "avx512", 0},
    {"zen5", "md5", "avx512", 0},
    {"icelake", "md5", "avx512", 1},
    {"sapphirerapids", "md5", "avx512", 1},
#endif
    {"", "", "", 0},
};

static inline feature_set parse_features(const char *list) {
  feature_set set = 0;
  while (*list) {
    list += strspn(list, " ");
    const size_t len = strcspn(list, " ");
    for (int i = 0; i < FEATURE_COUNT; i++)
      if (len && strlen(feature_names[i]) == len && strncmp(list, feature_names[i], len) == 0) set |= 1u << i;
    list += len;
  }
  return set;
}

/* CRISP_CPU_DISABLE's names: commas or white space, any case. */
static inline feature_set parse_disabled(const char *list) {
  feature_set set = 0;
  while (list && *list) {
    list += strspn(list, ", \t\n");
    const size_t len = strcspn(list, ", \t\n");
    for (int i = 0; i < FEATURE_COUNT; i++)
      if (len && strlen(feature_names[i]) == len && strncasecmp(list, feature_names[i], len) == 0)
        set |= 1u << i;
    list += len;
  }
  return set;
}

static inline void feature_list(feature_set set, char *out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (int i = 0; i < FEATURE_COUNT && used < size; i++)
    if (set >> i & 1)
      used += (size_t)snprintf(out + used, size - used, "%s%s", used ? " " : "", feature_names[i]);
}

/* What this CPU has, asked directly: AVX and AVX-512 count only when the OS
 * saves their registers (XCR0). */
static inline feature_set probe_independently(void) {
  feature_set set = 0;
#if defined(__x86_64__)
  unsigned a, b, c, d, b7 = 0, max = __get_cpuid_max(0, NULL);
  __cpuid(1, a, b, c, d);
  const int sse2 = d >> 26 & 1, osxsave = c >> 27 & 1, avx = c >> 28 & 1;
  unsigned long long xcr0 = 0;
  if (osxsave) {
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = (unsigned long long)hi << 32 | lo;
  }
  const int os_avx = (xcr0 & 6) == 6, os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0;
  if (max >= 7) __cpuid_count(7, 0, a, b7, c, d);
  const int bits[FEATURE_COUNT] = {sse2,
                                   b7 >> 3 & 1,
                                   b7 >> 8 & 1,
                                   b7 >> 19 & 1,
                                   avx && os_avx,
                                   (b7 >> 5 & 1) && os_avx,
                                   (b7 >> 16 & 1) && os_avx512,
                                   (b7 >> 31 & 1) && os_avx512,
                                   (b7 >> 30 & 1) && os_avx512,
                                   (b7 >> 17 & 1) && os_avx512,
                                   (b7 >> 21 & 1) && os_avx512};
  for (int i = 0; i < FEATURE_COUNT; i++) set |= (feature_set)(bits[i] ? 1u : 0u) << i;
#elif defined(__aarch64__)
  if (getauxval(AT_HWCAP) & HWCAP_ASIMD) set |= 1;
#endif
  return set;
}

/* "AuthenticAMD family 0x1a model 0x02": vendor, display family and model. */
static inline void probe_identity(char *out, size_t size) {
#if defined(__x86_64__)
  unsigned a, b, c, d;
  char vendor[13] = "";
  __cpuid(0, a, b, c, d);
  memcpy(vendor, &b, 4), memcpy(vendor + 4, &d, 4), memcpy(vendor + 8, &c, 4);
  __cpuid(1, a, b, c, d);
  unsigned family = a >> 8 & 0xf, model = a >> 4 & 0xf;
  if (family == 0xf) family += a >> 20 & 0xff;
  if (family == 0x6 || family >= 0xf) model |= (a >> 16 & 0xf) << 4;
  snprintf(out, size, "%s family 0x%x model 0x%02x", vendor[0] ? vendor : "unknown", family, model);
#else
  snprintf(out, size, "?");
#endif
}

static inline feature_set level_needs(int level) {
  feature_set set = 0;
  for (int i = 0; i <= level; i++) set |= parse_features(levels[i].needs);
  return set;
}

static inline int level_of(const char *name, int ignore_case) {
  for (int i = 0; i < LEVEL_COUNT; i++)
    if ((ignore_case ? strcasecmp : strcmp)(levels[i].name, name) == 0) return i;
  return -1;
}

static inline int impl_level(const char *impl) {
  char level[32];
  snprintf(level, sizeof level, "%.*s", (int)strcspn(impl, "-"), impl);
  return level_of(level, 0);
}

/* Implementation i of kernel k as built, counting the generic one last;
 * NULL past the end. */
static const impl_row generic_row = {"generic", "", 1};
static const impl_row *impl_at(int k, int i) {
  for (int j = 0; j < IMPLS_MAX && kernels[k].impls[j].name; j++)
    if (kernels[k].impls[j].built && i-- == 0) return &kernels[k].impls[j];
  return i == 0 ? &generic_row : NULL;
}

static inline int find_kernel(const char *name, size_t len) {
  for (int k = 0; k < KERNELS; k++)
    if (strlen(kernels[k].name) == len && strncasecmp(kernels[k].name, name, len) == 0) return k;
  return -1;
}

static inline const impl_row *find_impl(int k, const char *name) {
  for (int i = 0; impl_at(k, i); i++)
    if (strcasecmp(impl_at(k, i)->name, name) == 0) return impl_at(k, i);
  return NULL;
}

#endif
