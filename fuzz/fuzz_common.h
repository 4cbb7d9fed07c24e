/* fuzz/fuzz_common.h - what every libFuzzer harness shares: reading sizes,
 * split points and bytes from the fuzzer's input, pinning each
 * implementation in turn against generic, and failing loudly (abort, which
 * libFuzzer records as a crash with the input saved). */
#ifndef CRISP_FUZZ_COMMON_H
#define CRISP_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crisp/crisp.h"

/* ---- reading the input ------------------------------------------------ */

typedef struct fuzz_input {
  const uint8_t *data;
  size_t size;
} fuzz_input;

/* The next byte, or 0 once the input is used up. */
static inline uint8_t fuzz_byte(fuzz_input *in) {
  if (!in->size) return 0;
  in->size--;
  return *in->data++;
}

/* A value in [0, bound) from two bytes; 0 when bound is 0. */
static inline size_t fuzz_below(fuzz_input *in, size_t bound) {
  const size_t value = (size_t)fuzz_byte(in) << 8 | fuzz_byte(in);
  return bound ? value % bound : 0;
}

/* len bytes from the input; once it runs out, the rest is filler (0x00 or
 * 0xff, so short inputs still reach all-ones carry chains). */
static inline void fuzz_fill(fuzz_input *in, void *out, size_t len, uint8_t filler) {
  const size_t take = len < in->size ? len : in->size;
  memcpy(out, in->data, take);
  memset((uint8_t *)out + take, filler, len - take);
  in->data += take, in->size -= take;
}

/* ---- failing ---------------------------------------------------------- */

#define fuzz_check(condition, ...)                            \
  do {                                                        \
    if (!(condition)) {                                       \
      fprintf(stderr, "fuzz check failed: %s: ", #condition); \
      fprintf(stderr, __VA_ARGS__);                           \
      fputc('\n', stderr);                                    \
      abort();                                                \
    }                                                         \
  } while (0)

/* ---- implementations -------------------------------------------------- */

/* Pins kernel to name (NULL: unpins, i.e. the dispatched choice). */
static inline void fuzz_pin(crisp_kernel kernel, const char *name) {
  fuzz_check(crisp_use_impl(kernel, name) == CRISP_OK, "crisp_use_impl(%s, %s)", crisp_kernel_name(kernel),
             name ? name : "NULL");
}

/* The implementations to compare with generic: NULL first (unpinned, the
 * dispatched choice), then every one this CPU supports; returns the count. */
static inline size_t fuzz_impls(crisp_kernel kernel, const char **names, size_t cap) {
  size_t n = 0;
  names[n++] = NULL;
  for (size_t i = 0; i < crisp_impl_count(kernel) && n < cap; i++)
    if (crisp_impl_supported_at(kernel, i)) names[n++] = crisp_impl_name_at(kernel, i);
  return n;
}

enum { FUZZ_MAX_IMPLS = 16 };

/* ---- bignum operands -------------------------------------------------- */

/* x[0..n) from the input, shaped by one byte: as read, all ones, or with
 * its top limb cleared or set (edges of the carry and reduction logic). */
static inline void fuzz_limbs(fuzz_input *in, crisp_limb *x, size_t n) {
  const uint8_t shape = fuzz_byte(in);
  fuzz_fill(in, x, n * sizeof(crisp_limb), shape & 1 ? 0xff : 0x00);
  switch (shape >> 1 & 7) {
    case 1:
      memset(x, 0xff, n * sizeof(crisp_limb));
      break;
    case 2:
      x[n - 1] = 0;
      break;
    case 3:
      x[n - 1] |= (crisp_limb)1 << 63;
      break;
    case 4:
      x[0] = ~(crisp_limb)0;
      break;
    default:
      break;
  }
}

/* An odd modulus with a nonzero top limb. */
static inline void fuzz_modulus(fuzz_input *in, crisp_limb *m, size_t n) {
  fuzz_limbs(in, m, n);
  m[0] |= 1;
  if (!m[n - 1]) m[n - 1] = 1;
}

/* A value below m: either x with its top limb reduced below m's, or m minus
 * a small amount (the largest operands, where a final subtraction matters). */
static inline void fuzz_below_modulus(fuzz_input *in, crisp_limb *x, const crisp_limb *m, size_t n) {
  const uint8_t how = fuzz_byte(in);
  if (how & 1) {
    crisp_limb borrow = 1 + (how >> 1);
    memcpy(x, m, n * sizeof(crisp_limb));
    for (size_t i = 0; i < n && borrow; i++) {
      const crisp_limb before = x[i];
      x[i] -= borrow;
      borrow = x[i] > before;
    }
    if (borrow) memset(x, 0, n * sizeof(crisp_limb));
    return;
  }
  fuzz_limbs(in, x, n);
  x[n - 1] %= m[n - 1];
}

#endif
