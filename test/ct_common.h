/* test/ct_common.h - what the constant-time programs (ct_msan.c,
 * ct_timing.c) share without cmocka, which is not built with the sanitizer
 * they may run under: a seeded PRNG, test moduli, the supported
 * implementations of a kernel, and failing with a message. */
#ifndef CRISP_TEST_CT_COMMON_H
#define CRISP_TEST_CT_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crisp/crisp.h"
#include "random.h"

/* Largest Montgomery size the programs try (4096-bit moduli). */
#define CT_MAX_LIMBS 64

/* An odd modulus of n limbs with its top bit set. */
static inline void ct_make_modulus(crisp_limb *m, size_t n) {
  test_fill_random(m, n * sizeof(crisp_limb));
  m[0] |= 1;
  m[n - 1] |= (crisp_limb)1 << 63;
}

/* A random value below m (n limbs). */
static inline void ct_make_below(crisp_limb *a, const crisp_limb *m, size_t n) {
  test_fill_random(a, n * sizeof(crisp_limb));
  a[n - 1] %= m[n - 1];
}

static inline void ct_fail(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "FAIL: ");
  vfprintf(stderr, format, args);
  fprintf(stderr, "\n");
  va_end(args);
  exit(1);
}

/* Pins kernel to name (a supported implementation) or fails. */
static inline void ct_pin(crisp_kernel kernel, const char *name) {
  const int status = crisp_use_impl(kernel, name);
  if (status != CRISP_OK) ct_fail("crisp_use_impl(%s, %s) = %d", crisp_kernel_name(kernel), name, status);
}

/* The supported implementations of kernel, best first; returns the count.
 * CRISP_CT_IMPLS=name[,name...] keeps only those. */
static inline size_t ct_supported(crisp_kernel kernel, const char **names, size_t cap) {
  const char *only = getenv("CRISP_CT_IMPLS");
  size_t count = 0;
  for (size_t i = 0; i < crisp_impl_count(kernel) && count < cap; i++) {
    const char *name = crisp_impl_name_at(kernel, i);
    if (!crisp_impl_supported_at(kernel, i)) continue;
    if (only && *only) {
      const size_t len = strlen(name);
      int listed = 0;
      for (const char *p = only; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        if (strcspn(p, ",") == len && !strncmp(p, name, len)) listed = 1;
      }
      if (!listed) continue;
    }
    names[count++] = name;
  }
  return count;
}

/* CRISP_CT_MIN_LIMBS=N skips bignum sizes below N limbs (e.g. 24, where the
 * IFMA Montgomery kernel stops handing calls to the ADX one). */
static inline size_t ct_min_limbs(void) {
  const char *env = getenv("CRISP_CT_MIN_LIMBS");
  return env && *env ? (size_t)strtoul(env, NULL, 0) : 0;
}

/* Pins mont_mul to name and mont_sqr to the same name when it has one (else
 * generic), as crisp_bn_mod_exp's ladder then runs that family. */
static inline void ct_pin_montgomery(const char *name) {
  ct_pin(CRISP_KERNEL_BN_MONT_MUL, name);
  if (crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, name) != CRISP_OK) ct_pin(CRISP_KERNEL_BN_MONT_SQR, "generic");
}

#endif
