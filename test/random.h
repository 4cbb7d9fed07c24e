/* test/random.h - the deterministic random numbers (splitmix64) every test
 * program draws its inputs from, cmocka or not. */
#ifndef CRISP_TEST_RANDOM_H
#define CRISP_TEST_RANDOM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* CRISP_TEST_SEED overrides the fixed seed, so a failure found with a
 * random seed can be replayed; the seed in use is printed once. */
static uint64_t test_rng_state;

static inline void test_seed(uint64_t fixed) {
  const char *env = getenv("CRISP_TEST_SEED");
  test_rng_state = env && *env ? strtoull(env, NULL, 0) : fixed;
  printf("# seed 0x%llx (set CRISP_TEST_SEED to replay)\n", (unsigned long long)test_rng_state);
}

static inline uint64_t test_rand64(void) {
  uint64_t z = (test_rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform enough in [0, bound) for test purposes; 0 when bound is 0. */
static inline size_t test_rand_below(size_t bound) {
  return bound ? (size_t)(test_rand64() % bound) : 0;
}

static inline void test_fill_random(void *out, size_t len) {
  uint8_t *p = out;
  while (len) {
    uint64_t v = test_rand64();
    for (int i = 0; i < 8 && len; i++, len--) *p++ = (uint8_t)(v >> (8 * i));
  }
}

#endif
