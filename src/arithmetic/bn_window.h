/* src/arithmetic/bn_window.h - the fixed exponent windows every modexp ladder in crisp
 * uses (the front-end's over any Montgomery kernel, and the IFMA one). */
#ifndef CRISP_SRC_ARITHMETIC_BN_WINDOW_H
#define CRISP_SRC_ARITHMETIC_BN_WINDOW_H

#include "crisp/bn.h"

#define CRISP_BN_MAX_WINDOW_BITS 5

/* Window width from the exponent's length alone (public): the table costs
 * 2^w multiplies to build and 2^w * n limb reads per window, a window saves
 * about bits/w multiplies; these are the widths where that balances. */
static inline unsigned crisp_bn_window_bits(size_t exponent_bits) {
  if (exponent_bits <= 64) return 3;
  if (exponent_bits <= 512) return 4;
  return CRISP_BN_MAX_WINDOW_BITS;
}

/* The w-bit window of exp starting at bit position: the position is public,
 * the value is secret and only ever used as data. */
static inline crisp_limb crisp_bn_window_at(const crisp_limb *exp, size_t en, size_t position, unsigned w) {
  const size_t limb = position / 64;
  const unsigned shift = (unsigned)(position % 64);
  crisp_limb value = exp[limb] >> shift;
  if (shift + w > 64 && limb + 1 < en) value |= exp[limb + 1] << (64 - shift);
  return value & (((crisp_limb)1 << w) - 1);
}

#endif
