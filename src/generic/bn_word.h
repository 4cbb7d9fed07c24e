/* src/generic/bn_word.h - 64x64->128-bit limb arithmetic and the limb-row
 * loops the portable bignum kernels are built from. Uses unsigned __int128
 * where the compiler has it and 32-bit halves elsewhere (define
 * CRISP_BN_NO_INT128 to force the halves, which the tests do). Every loop
 * runs a count fixed by the lengths and never branches on limb values. */
#ifndef CRISP_SRC_GENERIC_BN_WORD_H
#define CRISP_SRC_GENERIC_BN_WORD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crisp/bn.h"

#if defined(__SIZEOF_INT128__) && !defined(CRISP_BN_NO_INT128)
#define CRISP_BN_HAVE_INT128 1
#endif

/* hi:lo = a * b + c + d; cannot overflow since (2^64-1)^2 + 2(2^64-1) = 2^128-1. */
static inline crisp_limb bn_mul_add2(crisp_limb *hi, crisp_limb a, crisp_limb b, crisp_limb c, crisp_limb d) {
#ifdef CRISP_BN_HAVE_INT128
  const unsigned __int128 t = (unsigned __int128)a * b + c + d;
  *hi = (crisp_limb)(t >> 64);
  return (crisp_limb)t;
#else
  const uint64_t low_mask = 0xffffffffu;
  const uint64_t a0 = a & low_mask, a1 = a >> 32, b0 = b & low_mask, b1 = b >> 32;
  const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  /* The three 32-bit pieces of weight 2^32 sum to less than 3 * 2^32. */
  const uint64_t middle = (p00 >> 32) + (p01 & low_mask) + (p10 & low_mask);
  crisp_limb lo = (p00 & low_mask) | (middle << 32);
  crisp_limb high = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
  lo += c;
  high += lo < c;
  lo += d;
  high += lo < d;
  *hi = high;
  return lo;
#endif
}

/* One step of a row: *z = x * k + *z + carry, carry = the high limb. */
#define BN_ADDMUL_STEP(i) z[i] = bn_mul_add2(&carry, x[i], k, z[i], carry)
#define BN_MUL_STEP(i) z[i] = bn_mul_add2(&carry, x[i], k, carry, 0)

/* z[0..n) += x[0..n) * k, returns the carry limb; x == z is fine. */
static inline crisp_limb bn_addmul_row(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k) {
  crisp_limb carry = 0;
  size_t i = 0;
  for (; i + 4 <= n; i += 4, z += 4, x += 4) {
    BN_ADDMUL_STEP(0);
    BN_ADDMUL_STEP(1);
    BN_ADDMUL_STEP(2);
    BN_ADDMUL_STEP(3);
  }
  for (; i < n; i++, z++, x++) BN_ADDMUL_STEP(0);
  return carry;
}

/* z[0..n) = x[0..n) * k, returns the carry limb. */
static inline crisp_limb bn_mul_row(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k) {
  crisp_limb carry = 0;
  size_t i = 0;
  for (; i + 4 <= n; i += 4, z += 4, x += 4) {
    BN_MUL_STEP(0);
    BN_MUL_STEP(1);
    BN_MUL_STEP(2);
    BN_MUL_STEP(3);
  }
  for (; i < n; i++, z++, x++) BN_MUL_STEP(0);
  return carry;
}

/* z[0..n) = x[0..n) - y[0..n), returns the borrow (0 or 1). */
static inline crisp_limb bn_sub_row(crisp_limb *z, const crisp_limb *x, const crisp_limb *y, size_t n) {
  crisp_limb borrow = 0;
  for (size_t i = 0; i < n; i++) {
    const crisp_limb xi = x[i], yi = y[i];
    const crisp_limb d = xi - yi;
    const crisp_limb out = (xi < yi) | (d < borrow);
    z[i] = d - borrow;
    borrow = out;
  }
  return borrow;
}

/* Zeroes n limbs of scratch that held secrets, as one memset the compiler
 * must keep (the empty asm claims to read the memory). */
static inline void bn_wipe(crisp_limb *p, size_t n) {
#if defined(__GNUC__) || defined(__clang__)
  memset(p, 0, n * sizeof *p);
  __asm__ __volatile__("" : : "r"(p) : "memory");
#else
  volatile crisp_limb *v = p;
  while (n--) *v++ = 0;
#endif
}

#endif
