/* src/x86/bn_rows_x86_64.h - one-row big-integer primitives in x86-64 inline
 * assembly, in two flavours: MULQ (baseline x86-64) and MULX with the two
 * carry chains ADCX / ADOX (BMI2 + ADX). Every other x86-64 bignum kernel is
 * built from these rows. Loops are unrolled CRISP_ROW_UNROLL times by macros;
 * the n mod CRISP_ROW_UNROLL low limbs are done first in C and handed to the
 * assembly as its carry-in. Nothing here branches on limb values. */
#ifndef CRISP_SRC_X86_BN_ROWS_X86_64_H
#define CRISP_SRC_X86_BN_ROWS_X86_64_H

#include <stddef.h>
#include <stdint.h>

#include "crisp/bn.h"

#define CRISP_ROW_UNROLL 8

typedef unsigned __int128 crisp_dlimb;

/* The portable step for the few limbs below a multiple of the unroll. */
static inline crisp_limb crisp_row_addmul_c(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k,
                                            crisp_limb carry) {
  for (size_t i = 0; i < n; i++) {
    crisp_dlimb t = (crisp_dlimb)x[i] * k + z[i] + carry;
    z[i] = (crisp_limb)t;
    carry = (crisp_limb)(t >> 64);
  }
  return carry;
}

static inline crisp_limb crisp_row_mul_c(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k,
                                         crisp_limb carry) {
  for (size_t i = 0; i < n; i++) {
    crisp_dlimb t = (crisp_dlimb)x[i] * k + carry;
    z[i] = (crisp_limb)t;
    carry = (crisp_limb)(t >> 64);
  }
  return carry;
}

/* Assembly text helpers: CRISP_ROW_REPEAT8(M) expands M(0) .. M(7), one per
 * limb of an unrolled block; each M(i) addresses limb i as 8*i(%[x]). */
#define CRISP_ROW_STR(s) #s
#define CRISP_ROW_XSTR(s) CRISP_ROW_STR(s)
#define CRISP_ROW_REPEAT8(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
#define CRISP_ROW_OFFSET(i) CRISP_ROW_XSTR(8 * i)

/* ---- MULX / ADCX / ADOX flavour ---------------------------------------- */

/* Limb i of z += x * k: the product's low half meets the running high half
 * on the CF chain (ADCX) and z on the OF chain (ADOX), so the two additions
 * do not wait on each other. %[carry] holds the pending high half. */
#define CRISP_ADX_ADDMUL_LIMB(i)                                    \
  "mulx " CRISP_ROW_OFFSET(i) "(%[x]), %[lo], %[hi]\n\t"              \
  "adcx %[carry], %[lo]\n\t"                                        \
  "adox " CRISP_ROW_OFFSET(i) "(%[z]), %[lo]\n\t"                     \
  "mov %[lo], " CRISP_ROW_OFFSET(i) "(%[z])\n\t"                      \
  "mov %[hi], %[carry]\n\t"

#define CRISP_ADX_MUL_LIMB(i)                                       \
  "mulx " CRISP_ROW_OFFSET(i) "(%[x]), %[lo], %[hi]\n\t"              \
  "adcx %[carry], %[lo]\n\t"                                        \
  "mov %[lo], " CRISP_ROW_OFFSET(i) "(%[z])\n\t"                      \
  "mov %[hi], %[carry]\n\t"

/* z[0..n) += x[0..n) * k + carry; returns the carry out. */
static inline crisp_limb crisp_row_addmul_adx(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k,
                                              crisp_limb carry) {
  size_t head = n % CRISP_ROW_UNROLL, blocks = n / CRISP_ROW_UNROLL;
  carry = crisp_row_addmul_c(z, x, head, k, carry);
  if (blocks == 0) return carry;
  z += head, x += head;
  crisp_limb lo, hi, zero;
  __asm__ volatile(
      "xor %k[zero], %k[zero]\n\t" /* clears CF and OF */
      "1:\n\t" CRISP_ROW_REPEAT8(CRISP_ADX_ADDMUL_LIMB)
      "lea 64(%[x]), %[x]\n\t"
      "lea 64(%[z]), %[z]\n\t"
      "lea -1(%[blocks]), %[blocks]\n\t"
      "jrcxz 2f\n\t"
      "jmp 1b\n\t"
      "2:\n\t"
      "adcx %[zero], %[carry]\n\t"
      "adox %[zero], %[carry]\n\t"
      : [z] "+r"(z), [x] "+r"(x), [blocks] "+c"(blocks), [carry] "+r"(carry), [lo] "=&r"(lo),
        [hi] "=&r"(hi), [zero] "=&r"(zero)
      : "d"(k)
      : "cc", "memory");
  return carry;
}

/* z[0..n) = x[0..n) * k + carry; returns the carry out. */
static inline crisp_limb crisp_row_mul_adx(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k,
                                           crisp_limb carry) {
  size_t head = n % CRISP_ROW_UNROLL, blocks = n / CRISP_ROW_UNROLL;
  carry = crisp_row_mul_c(z, x, head, k, carry);
  if (blocks == 0) return carry;
  z += head, x += head;
  crisp_limb lo, hi, zero;
  __asm__ volatile(
      "xor %k[zero], %k[zero]\n\t"
      "1:\n\t" CRISP_ROW_REPEAT8(CRISP_ADX_MUL_LIMB)
      "lea 64(%[x]), %[x]\n\t"
      "lea 64(%[z]), %[z]\n\t"
      "lea -1(%[blocks]), %[blocks]\n\t"
      "jrcxz 2f\n\t"
      "jmp 1b\n\t"
      "2:\n\t"
      "adcx %[zero], %[carry]\n\t"
      : [z] "+r"(z), [x] "+r"(x), [blocks] "+c"(blocks), [carry] "+r"(carry), [lo] "=&r"(lo),
        [hi] "=&r"(hi), [zero] "=&r"(zero)
      : "d"(k)
      : "cc", "memory");
  return carry;
}

/* ---- MULQ flavour (any x86-64) ------------------------------------------ */

/* Limb i of z += x * k with one carry chain: each limb's carries are folded
 * into rdx at once, so the loop counter may touch the flags. */
#define CRISP_MULQ_ADDMUL_LIMB(i)                                   \
  "mov " CRISP_ROW_OFFSET(i) "(%[x]), %%rax\n\t"                      \
  "mul %[k]\n\t"                                                    \
  "add %[carry], %%rax\n\t"                                         \
  "adc $0, %%rdx\n\t"                                               \
  "add %%rax, " CRISP_ROW_OFFSET(i) "(%[z])\n\t"                      \
  "adc $0, %%rdx\n\t"                                               \
  "mov %%rdx, %[carry]\n\t"

#define CRISP_MULQ_MUL_LIMB(i)                                      \
  "mov " CRISP_ROW_OFFSET(i) "(%[x]), %%rax\n\t"                      \
  "mul %[k]\n\t"                                                    \
  "add %[carry], %%rax\n\t"                                         \
  "adc $0, %%rdx\n\t"                                               \
  "mov %%rax, " CRISP_ROW_OFFSET(i) "(%[z])\n\t"                      \
  "mov %%rdx, %[carry]\n\t"

static inline crisp_limb crisp_row_addmul_mulq(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k,
                                               crisp_limb carry) {
  size_t head = n % CRISP_ROW_UNROLL, blocks = n / CRISP_ROW_UNROLL;
  carry = crisp_row_addmul_c(z, x, head, k, carry);
  if (blocks == 0) return carry;
  z += head, x += head;
  __asm__ volatile(
      "1:\n\t" CRISP_ROW_REPEAT8(CRISP_MULQ_ADDMUL_LIMB)
      "lea 64(%[x]), %[x]\n\t"
      "lea 64(%[z]), %[z]\n\t"
      "dec %[blocks]\n\t"
      "jnz 1b\n\t"
      : [z] "+r"(z), [x] "+r"(x), [blocks] "+r"(blocks), [carry] "+r"(carry)
      : [k] "r"(k)
      : "rax", "rdx", "cc", "memory");
  return carry;
}

static inline crisp_limb crisp_row_mul_mulq(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k,
                                            crisp_limb carry) {
  size_t head = n % CRISP_ROW_UNROLL, blocks = n / CRISP_ROW_UNROLL;
  carry = crisp_row_mul_c(z, x, head, k, carry);
  if (blocks == 0) return carry;
  z += head, x += head;
  __asm__ volatile(
      "1:\n\t" CRISP_ROW_REPEAT8(CRISP_MULQ_MUL_LIMB)
      "lea 64(%[x]), %[x]\n\t"
      "lea 64(%[z]), %[z]\n\t"
      "dec %[blocks]\n\t"
      "jnz 1b\n\t"
      : [z] "+r"(z), [x] "+r"(x), [blocks] "+r"(blocks), [carry] "+r"(carry)
      : [k] "r"(k)
      : "rax", "rdx", "cc", "memory");
  return carry;
}

#endif
