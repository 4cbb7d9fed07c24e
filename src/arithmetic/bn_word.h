/* src/arithmetic/bn_word.h - 64x64->128-bit limb arithmetic and the limb-row
 * loops the portable bignum kernels are built from, which the bignum
 * front-ends and the arm64 kernels use too (src/arithmetic/ holds the
 * arithmetic every layer shares, and includes nothing of any layer). Uses unsigned __int128
 * where the compiler has it and 32-bit halves elsewhere (define
 * CRISP_BN_NO_INT128 to force the halves, which the tests do). Every loop
 * runs a count fixed by the lengths and never branches on limb values. */
#ifndef CRISP_SRC_ARITHMETIC_BN_WORD_H
#define CRISP_SRC_ARITHMETIC_BN_WORD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crisp/bn.h"
#include "util.h"

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

/* All ones when x == y, else 0, without a branch. The mask goes through
 * the barrier too: a compiler that can tell it is 0 or all ones may turn
 * `value & mask` into a branch on it (clang does, in a table gather). */
static inline crisp_limb bn_equal_mask(crisp_limb x, crisp_limb y) {
  const crisp_limb d = crisp_value_barrier(x ^ y);
  return crisp_value_barrier(((d | (0 - d)) >> 63) - 1);
}

/* The borrow out (0 or 1) of the limb difference d = x - y - borrow in,
 * from the top bits alone: where x and y differ there, y's (x - y borrows
 * exactly when y's top bit is the set one); where they agree, d's (the
 * borrow in reached the top bit). Bit operations only, so memcheck sees
 * the result decided whenever the top bits of x and y are and differ. */
static inline crisp_limb bn_borrow_out(crisp_limb x, crisp_limb y, crisp_limb d) {
  return (x ^ ((x ^ y) | (x ^ d))) >> 63;
}

/* The borrow out (0 or 1) of a[0..n) - b[0..n), for the limbs below a
 * comparison's top one. x86-64 runs it as an SBB chain in inline assembly,
 * whose differences stay in one register: through the _subborrow_u64
 * intrinsic gcc stores each difference, of secret limbs, to the stack,
 * and through unsigned __int128 it spills the limbs. Elsewhere as
 * generate-or-propagate, 1 when x < y, the borrow in when x == y, two
 * operations on the chain from limb to limb. Neither branches on values
 * (the loop counts n, which is public); memcheck cannot see the result
 * decided, so the top limb goes through bn_borrow_out. */
static inline crisp_limb bn_borrow_chain(const crisp_limb *a, const crisp_limb *b, size_t n) {
  crisp_limb borrow = 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  crisp_limb difference;
  if (n)
    __asm__(
        "xor %k[borrow], %k[borrow]\n\t" /* and CF = 0 */
        "1:\n\t"
        "mov (%[a]), %[difference]\n\t"
        "sbb (%[b]), %[difference]\n\t"
        "lea 8(%[a]), %[a]\n\t" /* lea and dec leave CF alone */
        "lea 8(%[b]), %[b]\n\t"
        "dec %[n]\n\t"
        "jnz 1b\n\t"
        "adc $0, %[borrow]"
        : [borrow] "=&r"(borrow), [difference] "=&r"(difference), [a] "+r"(a), [b] "+r"(b), [n] "+r"(n)
        :
        : "cc", "memory");
#else
  for (size_t i = 0; i < n; i++) borrow = (crisp_limb)(a[i] < b[i]) | ((crisp_limb)(a[i] == b[i]) & borrow);
#endif
  return borrow;
}

/* 1 when a < b (n limbs each, n >= 1), else 0: the borrow out of a - b,
 * over every limb, no early exit. It stays apart from bn_sub_row because
 * the front-ends run it on callers' operands of up to
 * CRISP_BN_MONT_MAX_LIMBS limbs and need no difference. */
static inline crisp_limb bn_less_than(const crisp_limb *a, const crisp_limb *b, size_t n) {
  const crisp_limb borrow = bn_borrow_chain(a, b, n - 1);
  const crisp_limb x = a[n - 1], y = b[n - 1];
  return crisp_value_barrier(bn_borrow_out(x, y, x - y - borrow));
}

/* 1 when a < m and b < m (n limbs each, n >= 1), else 0: both borrows
 * always computed, so the time does not tell which operand failed. */
static inline crisp_limb bn_both_less_than(const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                                           size_t n) {
  const crisp_limb borrow_a = bn_borrow_chain(a, m, n - 1), borrow_b = bn_borrow_chain(b, m, n - 1);
  const crisp_limb x = a[n - 1], y = b[n - 1], z = m[n - 1];
  return crisp_value_barrier(bn_borrow_out(x, z, x - z - borrow_a) & bn_borrow_out(y, z, y - z - borrow_b));
}

/* z[0..n) = x[0..n) - y[0..n), returns the borrow (0 or 1). */
static inline crisp_limb bn_sub_row(crisp_limb *z, const crisp_limb *x, const crisp_limb *y, size_t n) {
  crisp_limb borrow = 0;
  for (size_t i = 0; i < n; i++) {
#ifdef CRISP_BN_HAVE_INT128
    /* A 128-bit difference lets the compiler use its subtract-with-borrow. */
    const unsigned __int128 d = (unsigned __int128)x[i] - y[i] - borrow;
    z[i] = (crisp_limb)d;
    borrow = (crisp_limb)(d >> 64) & 1;
#else
    const crisp_limb xi = x[i], yi = y[i];
    const crisp_limb d = xi - yi;
    const crisp_limb out = (xi < yi) | (d < borrow);
    z[i] = d - borrow;
    borrow = out;
#endif
  }
  return borrow;
}

/* x = 2x mod m for x < m (n limbs, m odd), the choice made by mask;
 * difference is n limbs of scratch. One pass shifts x and subtracts m
 * (setup code doubles a hundred times or more per modulus, so the passes
 * over memory count), a second keeps 2x or 2x - m. */
static inline void bn_double_mod(crisp_limb *x, const crisp_limb *m, size_t n, crisp_limb *difference) {
  crisp_limb borrow = 0, shifted_out = 0;
  for (size_t i = 0; i < n; i++) {
    const crisp_limb doubled = x[i] << 1 | shifted_out;
    shifted_out = x[i] >> 63;
    x[i] = doubled;
#ifdef CRISP_BN_HAVE_INT128
    /* a 128-bit difference: the compiler's subtract-with-borrow, and plain
     * arithmetic to MemorySanitizer (which checks carry intrinsics' inputs
     * strictly) */
    const unsigned __int128 d = (unsigned __int128)doubled - m[i] - borrow;
    difference[i] = (crisp_limb)d;
    borrow = (crisp_limb)(d >> 64) & 1;
#else
    const crisp_limb d = doubled - m[i];
    const crisp_limb out = (doubled < m[i]) | (d < borrow);
    difference[i] = d - borrow;
    borrow = out;
#endif
  }
  /* 2x < 2m: keep 2x only when it did not carry out and is below m. */
  const crisp_limb keep_mask = 0 - crisp_value_barrier(borrow & (shifted_out ^ 1));
  for (size_t i = 0; i < n; i++) x[i] = (x[i] & keep_mask) | (difference[i] & ~keep_mask);
}

/* A row of the Montgomery reduction: z[0..n) += x[0..n) * k, returning the
 * carry limb (bn_addmul_row, or a kernel's faster row). */
typedef crisp_limb (*bn_addmul_row_fn)(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k);

/* r = t * R^-1 mod m for t < m * R (t has 2n limbs and is destroyed): the
 * word-by-word reduction (SOS) over the given row, then one subtraction of
 * m chosen by mask. Kernels pass their own row; the rest is the same. */
static inline void bn_mont_reduce(crisp_limb *r, crisp_limb *t, const crisp_limb *m, size_t n,
                                  crisp_limb minv, bn_addmul_row_fn addmul_row) {
  /* Step i makes limb i zero by adding a multiple of m at limb i; the row
   * carry and the running top carry go into limb i+n (their sum with it
   * is below 2^65, so one carry bit moves on). */
  crisp_limb top = 0;
  for (size_t i = 0; i < n; i++) {
    const crisp_limb q = t[i] * minv;
    const crisp_limb row_carry = addmul_row(t + i, m, n, q);
    crisp_limb sum = t[i + n] + row_carry;
    crisp_limb next = sum < row_carry;
    sum += top;
    next += sum < top;
    t[i + n] = sum;
    top = next;
  }
  /* top:t[n..2n) < 2m. Keep it when it is below m (no top bit and the
   * subtraction borrows), else keep the difference; chosen by mask. */
  crisp_limb *const high = t + n;
  crisp_limb *const difference = t; /* the low half is spent: reuse it */
  const crisp_limb borrow = bn_sub_row(difference, high, m, n);
  const crisp_limb keep_mask = 0 - crisp_value_barrier(borrow & (top ^ 1));
  for (size_t i = 0; i < n; i++) r[i] = (high[i] & keep_mask) | (difference[i] & ~keep_mask);
}

#endif
