/* test/dispatch_model.h - crisp's dispatch as its docs describe it, for
 * test_dispatch_table.c: the level model's data (features, levels, every
 * kernel's implementations best first with the features each executes),
 * read from src/implementations.def like the library; each kernel's
 * CRYPTO_OPTIONS switch (crisp(3), Dispatch), the microarchitecture
 * table's rows, and a CPUID (or auxv) probe of the CPU's features that
 * does not go through the library (test_cpu_mask.c uses the features,
 * levels and probe too). Apart from that data, written from the docs,
 * never from src/: a difference between the two is what the tests are
 * for. */
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

/* The data: the features, the levels with the features each adds, and every
 * implementation built in with its level and the features its code
 * executes, from src/implementations.def, the file the library is built
 * from. Only the data is shared: what crisp does with it is written here
 * and in the tests from the docs. */
#define CRISP_USES(ID) (1u << FEATURE_##ID)
enum {
#define CRISP_FEATURE(ID, name) FEATURE_##ID,
#include "../src/implementations.def"
  FEATURE_COUNT
};
static const char *const feature_names[FEATURE_COUNT + 1] = {
#define CRISP_FEATURE(ID, name) name,
#include "../src/implementations.def"
    NULL,
};
enum {
#define CRISP_LEVEL(ID, name, features) MODEL_LEVEL_##ID,
#include "../src/implementations.def"
  LEVEL_COUNT
};
static const struct {
  const char *name;
  feature_set needs; /* on top of the levels below */
} levels[LEVEL_COUNT] = {
#define CRISP_LEVEL(ID, name, features) {name, features},
#include "../src/implementations.def"
};

typedef struct impl_row {
  const char *kernel, *name;
  int level;
  feature_set needs; /* every feature the code executes */
} impl_row;
/* Best first within each kernel, the generic one last. */
static const impl_row impl_rows[] = {
#define CRISP_IMPL(kernel, symbol, name, LEVEL, features) {#kernel, name, MODEL_LEVEL_##LEVEL, features},
#include "../src/implementations.def"
};
/* IMPLS_MAX + 1: the most implementations a kernel may have (room in the
 * test's reports; test_dispatch_table checks the data keeps to it). */
enum { IMPL_ROWS = sizeof impl_rows / sizeof impl_rows[0], KERNELS = 10, IMPLS_MAX = 6 };

/* Every kernel and its CRYPTO_OPTIONS switch (crisp(3), Dispatch). */
static const struct {
  const char *name, *option;
} kernels[KERNELS] = {
    {"md5", "UseMD5Intrinsics"},
    {"md5_many", "UseMD5Intrinsics"},
    {"poly1305", "UsePoly1305Intrinsics"},
    {"bn_mul", "UseMultiplyToLenIntrinsic"},
    {"bn_sqr", "UseSquareToLenIntrinsic"},
    {"bn_mul_add", "UseMulAddIntrinsic"},
    {"bn_mont_mul", "UseMontgomeryMultiplyIntrinsic"},
    {"bn_mont_sqr", "UseMontgomerySquareIntrinsic"},
    {"bn_mod_exp2", "UseMontgomeryMultiplyIntrinsic"},
    {"chacha20", "UseChaCha20Intrinsics"},
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
  const int bits[FEATURE_COUNT] = {[FEATURE_SSE2] = sse2,
                                   [FEATURE_BMI1] = b7 >> 3 & 1,
                                   [FEATURE_BMI2] = b7 >> 8 & 1,
                                   [FEATURE_ADX] = b7 >> 19 & 1,
                                   [FEATURE_AVX] = avx && os_avx,
                                   [FEATURE_AVX2] = (b7 >> 5 & 1) && os_avx,
                                   [FEATURE_AVX512F] = (b7 >> 16 & 1) && os_avx512,
                                   [FEATURE_AVX512VL] = (b7 >> 31 & 1) && os_avx512,
                                   [FEATURE_AVX512BW] = (b7 >> 30 & 1) && os_avx512,
                                   [FEATURE_AVX512DQ] = (b7 >> 17 & 1) && os_avx512,
                                   [FEATURE_AVX512IFMA] = (b7 >> 21 & 1) && os_avx512};
  for (int i = 0; i < FEATURE_COUNT; i++) set |= (feature_set)(bits[i] ? 1u : 0u) << i;
#elif defined(__aarch64__)
  if (getauxval(AT_HWCAP) & HWCAP_ASIMD) set |= CRISP_USES(ASIMD);
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
  for (int i = 0; i <= level; i++) set |= levels[i].needs;
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

/* Implementation i of kernel k, best first, the generic one last; NULL
 * past the end. */
static const impl_row *impl_at(int k, int i) {
  for (int j = 0; j < IMPL_ROWS; j++)
    if (strcmp(impl_rows[j].kernel, kernels[k].name) == 0 && i-- == 0) return &impl_rows[j];
  return NULL;
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
