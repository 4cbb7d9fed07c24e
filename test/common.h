/* test/common.h - helpers every crisp test shares: a seeded PRNG, hex
 * helpers, a size scale for emulated runs, and a loop over every
 * implementation of a kernel that this CPU can run. Include after cmocka.h. */
#ifndef CRISP_TEST_COMMON_H
#define CRISP_TEST_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "crisp/crisp.h"

#include "random.h"

/* ---- sizes ------------------------------------------------------------ */

/* CRISP_TEST_SCALE multiplies the number of random trials (default 1);
 * emulated runs may lower it with a fraction such as 0.25. */
static inline double test_scale(void) {
  const char *env = getenv("CRISP_TEST_SCALE");
  double scale = env && *env ? strtod(env, NULL) : 1.0;
  return scale > 0 ? scale : 1.0;
}

static inline size_t test_scaled(size_t n) {
  size_t scaled = (size_t)((double)n * test_scale());
  return scaled ? scaled : 1;
}

/* ---- hex -------------------------------------------------------------- */

static inline int test_hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Decodes hex digits (spaces and colons skipped) into out; returns the
 * number of bytes, failing the test on a malformed string or overflow. */
static inline size_t test_unhex(const char *hex, uint8_t *out, size_t cap) {
  size_t n = 0;
  while (*hex) {
    if (*hex == ' ' || *hex == ':' || *hex == '\n') {
      hex++;
      continue;
    }
    const int hi = test_hex_value(hex[0]);
    const int lo = hex[1] ? test_hex_value(hex[1]) : -1;
    assert_true(hi >= 0 && lo >= 0);
    assert_true(n < cap);
    out[n++] = (uint8_t)(hi << 4 | lo);
    hex += 2;
  }
  return n;
}

/* Lower-case hex of len bytes into out (2 * len + 1 chars). */
static inline char *test_hex(const uint8_t *bytes, size_t len, char *out) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < len; i++) out[2 * i] = digits[bytes[i] >> 4], out[2 * i + 1] = digits[bytes[i] & 15];
  out[2 * len] = '\0';
  return out;
}

/* Compares two byte strings; on a difference prints both in hex with a
 * context line so the failure names the implementation and the case. */
#define assert_bytes_equal(actual, expected, len, ...)                                           \
  do {                                                                                           \
    if (memcmp((actual), (expected), (len)) != 0) {                                              \
      char actual_hex_[2 * 64 + 1], expected_hex_[2 * 64 + 1];                                   \
      size_t shown_ = (len) < 64 ? (len) : 64;                                                   \
      print_error(__VA_ARGS__);                                                                  \
      print_error("\n   got      %s\n   expected %s\n", test_hex((actual), shown_, actual_hex_), \
                  test_hex((expected), shown_, expected_hex_));                                  \
      fail();                                                                                    \
    }                                                                                            \
  } while (0)

/* ---- keys ------------------------------------------------------------- */

/* A partner for an odd p > 2 of n limbs in a CRT key without primes:
 * q = p - 2, coprime to p, and qinv = (p - 1) / 2, which is q^-1 mod p
 * since q = -2 mod p. */
static inline void test_crt_partner(crisp_limb *q, crisp_limb *qinv, const crisp_limb *p, size_t n) {
  crisp_limb borrow = 2;
  for (size_t i = 0; i < n; i++) {
    q[i] = p[i] - borrow;
    borrow = p[i] < borrow;
  }
  for (size_t i = 0; i < n; i++) qinv[i] = (p[i] >> 1) | (i + 1 < n ? p[i + 1] << 63 : 0);
}

/* ---- implementations -------------------------------------------------- */

static inline void test_unpin_all(void) {
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) crisp_use_impl((crisp_kernel)k, NULL);
}

/* cmocka teardown: a failed assertion leaves the loop below early, so every
 * test unpins here too and the next test starts from the default. */
static inline int test_teardown_unpin(void **state) {
  (void)state;
  test_unpin_all();
  crisp_force(NULL);
  return 0;
}

/* Pins kernel to name and checks the pin took. */
static inline void test_pin(crisp_kernel kernel, const char *name) {
  const int rc = crisp_use_impl(kernel, name);
  if (rc != CRISP_OK) print_error("crisp_use_impl(%s, %s) = %d\n", crisp_kernel_name(kernel), name, rc);
  assert_int_equal(rc, CRISP_OK);
  assert_string_equal(crisp_impl_name(kernel), name);
}

/* CRISP_TEST_MAX_LEVEL=LEVEL (a name from crisp_levels()) skips every
 * implementation whose level is above it, e.g. avx2 under valgrind, which
 * cannot execute AVX-512. Unset or unknown: no limit. */
static inline int test_impl_allowed(const char *name) {
  const char *max = getenv("CRISP_TEST_MAX_LEVEL");
  if (!max || !*max) return 1;
  const size_t name_len = strcspn(name, "-");
  int rank = 0, name_rank = -1, max_rank = -1;
  for (const char *level = crisp_levels(); *level; rank++) {
    level += strspn(level, " ");
    const size_t len = strcspn(level, " ");
    if (!len) break;
    if (len == name_len && !strncmp(level, name, len)) name_rank = rank;
    if (len == strlen(max) && !strncmp(level, max, len)) max_rank = rank;
    level += len;
  }
  return max_rank < 0 || name_rank <= max_rank;
}

typedef struct test_impl_iter {
  crisp_kernel kernel;
  size_t next;  /* table index to look at next */
  size_t count; /* implementations run so far */
} test_impl_iter;

static inline test_impl_iter test_impl_begin(crisp_kernel kernel) {
  test_impl_iter it = {kernel, 0, 0};
  assert_true(crisp_impl_count(kernel) >= 1);
  return it;
}

/* Pins the next implementation this CPU supports and sets *name; at the end
 * unpins, checks that at least one ran, and returns 0. */
static inline int test_impl_next(test_impl_iter *it, const char **name) {
  const size_t total = crisp_impl_count(it->kernel);
  for (; it->next < total; it->next++) {
    if (!crisp_impl_supported_at(it->kernel, it->next)) continue;
    if (!test_impl_allowed(crisp_impl_name_at(it->kernel, it->next))) continue;
    *name = crisp_impl_name_at(it->kernel, it->next++);
    assert_non_null(*name);
    test_pin(it->kernel, *name);
    it->count++;
    return 1;
  }
  assert_int_equal(crisp_use_impl(it->kernel, NULL), CRISP_OK);
  assert_true(it->count >= 1);
  return 0;
}

/* for each supported implementation of kernel, pinned, with name set:
 *   const char *name; FOR_EACH_IMPL(CRISP_KERNEL_MD5, name) { ... } */
#define FOR_EACH_IMPL(kernel, name) \
  for (test_impl_iter name##_iter_ = test_impl_begin(kernel); test_impl_next(&name##_iter_, &(name));)

/* Supported implementation names of kernel, best first; returns the count. */
static inline size_t test_supported_impls(crisp_kernel kernel, const char **names, size_t cap) {
  size_t n = 0;
  for (size_t i = 0; i < crisp_impl_count(kernel) && n < cap; i++)
    if (crisp_impl_supported_at(kernel, i) && test_impl_allowed(crisp_impl_name_at(kernel, i)))
      names[n++] = crisp_impl_name_at(kernel, i);
  return n;
}

/* Buffer with room for an offset of up to 63 bytes plus a guard after. */
static inline uint8_t *test_alloc(size_t len) {
  uint8_t *p = malloc(len + 128);
  assert_non_null(p);
  return p;
}

#endif
