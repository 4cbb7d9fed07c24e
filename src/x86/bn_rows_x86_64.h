/* src/x86/bn_rows_x86_64.h - one-row big-integer primitives in x86-64 inline
 * assembly, in two flavours: MULQ (baseline x86-64) and MULX with the two
 * carry chains ADCX / ADOX (BMI2 + ADX). Every other x86-64 bignum kernel is
 * built from these rows. Loops are unrolled CRISP_ROW_UNROLL times by macros
 * and entered part-way through the first block when n is not a multiple of
 * the unroll (a jump chosen by n alone). Nothing here branches on limb
 * values or addresses memory by them. */
#ifndef CRISP_SRC_X86_BN_ROWS_X86_64_H
#define CRISP_SRC_X86_BN_ROWS_X86_64_H

#include <stddef.h>
#include <stdint.h>

#include "crisp/bn.h"

#define CRISP_ROW_UNROLL 8

typedef unsigned __int128 crisp_dlimb;

/* Assembly text helpers: CRISP_ROW_REPEAT8(M) expands M(0) .. M(7), one per
 * limb of an unrolled block; each M(i) addresses limb i as 8*i(%[x]) and
 * starts with the label the entry jump may land on. */
#define CRISP_ROW_STR(s) #s
#define CRISP_ROW_XSTR(s) CRISP_ROW_STR(s)
#define CRISP_ROW_REPEAT8(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
#define CRISP_ROW_OFFSET(i) CRISP_ROW_XSTR(8 * i)
#define CRISP_ROW_LABEL(i) ".Lcrisp_limb%=_" #i ":\n\t"

/* A row of n limbs runs ceil(n/8) unrolled blocks; the first block starts
 * at limb skip = -n mod 8 (the pointers are moved back by skip limbs, the
 * skipped limbs are never touched). CRISP_ROW_ENTER jumps to that limb
 * through a table of offsets: the target depends on n only, so the rows
 * handle every length in assembly without a slower head loop.
 * CRISP_ROW_TABLE is the table, kept in .rodata. */
#define CRISP_ROW_ENTER_NO_JUMP(t1, t2)                      \
  "lea .Lcrisp_table%=(%%rip), " t1 "\n\t"                   \
  "movslq (" t1 ",%[skip],4), " t2 "\n\t"                    \
  "lea (" t1 ",%[skip],4), " t1 "\n\t"                       \
  "lea (" t1 "," t2 "), " t1 "\n\t"
#define CRISP_ROW_ENTER(t1, t2) CRISP_ROW_ENTER_NO_JUMP(t1, t2) "jmp *" t1 "\n\t"
#define CRISP_ROW_TABLE_ENTRY(i) ".long .Lcrisp_limb%=_" #i " - .\n\t"
#define CRISP_ROW_TABLE                                      \
  ".pushsection .rodata\n\t"                                 \
  ".balign 4\n"                                              \
  ".Lcrisp_table%=:\n\t" CRISP_ROW_REPEAT8(CRISP_ROW_TABLE_ENTRY) ".popsection\n\t"

/* Limbs to skip in the first block and the number of blocks of a row. */
#define CRISP_ROW_SKIP(n) ((size_t)0 - (n)) % CRISP_ROW_UNROLL
#define CRISP_ROW_BLOCKS(n) (((n) + CRISP_ROW_UNROLL - 1) / CRISP_ROW_UNROLL)
#define CRISP_ROW_BACK(p, skip) ((uintptr_t)(p) - 8 * (skip))

/* ---- MULX / ADCX / ADOX flavour ---------------------------------------- */

/* Limb i of z += x * k: the product's low half meets the running high half
 * on the CF chain (ADCX) and z on the OF chain (ADOX), so the two additions
 * do not wait on each other. %[carry] holds the pending high half. */
#define CRISP_ADX_ADDMUL_LIMB(i)                                    \
  CRISP_ROW_LABEL(i)                                                \
  "mulx " CRISP_ROW_OFFSET(i) "(%[x]), %[lo], %[hi]\n\t"              \
  "adcx %[carry], %[lo]\n\t"                                        \
  "adox " CRISP_ROW_OFFSET(i) "(%[z]), %[lo]\n\t"                     \
  "mov %[lo], " CRISP_ROW_OFFSET(i) "(%[z])\n\t"                      \
  "mov %[hi], %[carry]\n\t"

#define CRISP_ADX_MUL_LIMB(i)                                       \
  CRISP_ROW_LABEL(i)                                                \
  "mulx " CRISP_ROW_OFFSET(i) "(%[x]), %[lo], %[hi]\n\t"              \
  "adcx %[carry], %[lo]\n\t"                                        \
  "mov %[lo], " CRISP_ROW_OFFSET(i) "(%[z])\n\t"                      \
  "mov %[hi], %[carry]\n\t"

/* The block loop of the ADX rows: LEA and JRCXZ leave CF and OF alone. */
#define CRISP_ADX_ROW_LOOP(LIMB)                                    \
  "xor %k[zero], %k[zero]\n\t" /* clears CF and OF */              \
  CRISP_ROW_ENTER("%[lo]", "%[hi]")                                 \
  "1:\n\t" CRISP_ROW_REPEAT8(LIMB)                                  \
  "lea 64(%[x]), %[x]\n\t"                                          \
  "lea 64(%[z]), %[z]\n\t"                                          \
  "lea -1(%[blocks]), %[blocks]\n\t"                                \
  "jrcxz 2f\n\t"                                                    \
  "jmp 1b\n\t"                                                      \
  "2:\n\t"

/* z[0..n) += x[0..n) * k + carry; returns the carry out. */
static inline crisp_limb crisp_row_addmul_adx(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k,
                                              crisp_limb carry) {
  if (n == 0) return carry;
  size_t skip = CRISP_ROW_SKIP(n), blocks = CRISP_ROW_BLOCKS(n);
  uintptr_t zp = CRISP_ROW_BACK(z, skip), xp = CRISP_ROW_BACK(x, skip);
  crisp_limb lo, hi, zero;
  __asm__ volatile(CRISP_ADX_ROW_LOOP(CRISP_ADX_ADDMUL_LIMB)
                   "adcx %[zero], %[carry]\n\t"
                   "adox %[zero], %[carry]\n\t" CRISP_ROW_TABLE
                   : [z] "+r"(zp), [x] "+r"(xp), [blocks] "+c"(blocks), [carry] "+r"(carry), [lo] "=&r"(lo),
                     [hi] "=&r"(hi), [zero] "=&r"(zero)
                   : "d"(k), [skip] "r"(skip)
                   : "cc", "memory");
  return carry;
}

/* z[0..n) = x[0..n) * k + carry; returns the carry out. */
static inline crisp_limb crisp_row_mul_adx(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k,
                                           crisp_limb carry) {
  if (n == 0) return carry;
  size_t skip = CRISP_ROW_SKIP(n), blocks = CRISP_ROW_BLOCKS(n);
  uintptr_t zp = CRISP_ROW_BACK(z, skip), xp = CRISP_ROW_BACK(x, skip);
  crisp_limb lo, hi, zero;
  __asm__ volatile(CRISP_ADX_ROW_LOOP(CRISP_ADX_MUL_LIMB)
                   "adcx %[zero], %[carry]\n\t" CRISP_ROW_TABLE
                   : [z] "+r"(zp), [x] "+r"(xp), [blocks] "+c"(blocks), [carry] "+r"(carry), [lo] "=&r"(lo),
                     [hi] "=&r"(hi), [zero] "=&r"(zero)
                   : "d"(k), [skip] "r"(skip)
                   : "cc", "memory");
  return carry;
}

/* Limb i of the last squaring step, z = 2 z + x[i]^2 at limbs 2i, 2i + 1:
 * the doubling runs on the CF chain (ADCX of a limb with itself), the
 * square on the OF chain (ADOX). */
#define CRISP_ADX_DIAGONAL_LIMB(i)                                  \
  CRISP_ROW_LABEL(i)                                                \
  "mov " CRISP_ROW_OFFSET(i) "(%[x]), %%rdx\n\t"                      \
  "mulx %%rdx, %[lo], %[hi]\n\t"                                    \
  "mov " CRISP_ROW_XSTR(16 * i) "(%[z]), %[a]\n\t"                    \
  "mov " CRISP_ROW_XSTR(16 * i + 8) "(%[z]), %[b]\n\t"                \
  "adcx %[a], %[a]\n\t"                                             \
  "adcx %[b], %[b]\n\t"                                             \
  "adox %[lo], %[a]\n\t"                                            \
  "adox %[hi], %[b]\n\t"                                            \
  "mov %[a], " CRISP_ROW_XSTR(16 * i) "(%[z])\n\t"                    \
  "mov %[b], " CRISP_ROW_XSTR(16 * i + 8) "(%[z])\n\t"

/* z[0..2n) = 2 z + sum x[i]^2 B^2i, where z holds the cross products of a
 * square (so the result fits in 2n limbs and no carry leaves). */
static inline void crisp_row_sqr_diagonal_adx(crisp_limb *z, const crisp_limb *x, size_t n) {
  if (n == 0) return;
  size_t skip = CRISP_ROW_SKIP(n), blocks = CRISP_ROW_BLOCKS(n);
  uintptr_t zp = CRISP_ROW_BACK(z, 2 * skip), xp = CRISP_ROW_BACK(x, skip);
  crisp_limb lo, hi, a, b;
  __asm__ volatile("xor %k[a], %k[a]\n\t" /* clears CF and OF */
                   CRISP_ROW_ENTER("%[lo]", "%[hi]")
                   "1:\n\t" CRISP_ROW_REPEAT8(CRISP_ADX_DIAGONAL_LIMB)
                   "lea 64(%[x]), %[x]\n\t"
                   "lea 128(%[z]), %[z]\n\t"
                   "lea -1(%[blocks]), %[blocks]\n\t"
                   "jrcxz 2f\n\t"
                   "jmp 1b\n\t"
                   "2:\n\t" CRISP_ROW_TABLE
                   : [z] "+r"(zp), [x] "+r"(xp), [blocks] "+c"(blocks), [lo] "=&r"(lo), [hi] "=&r"(hi),
                     [a] "=&r"(a), [b] "=&r"(b)
                   : [skip] "r"(skip)
                   : "rdx", "cc", "memory");
}

/* z[0..xn+yn) = x * y, schoolbook, rows of the ADX flavour with the loop
 * over the limbs of y in assembly too: the entry into the unrolled block
 * (it depends on xn only) is found once, not once per row. */
static inline void crisp_row_mul_basecase_adx(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y,
                                              size_t yn) {
  z[xn] = crisp_row_mul_adx(z, x, xn, y[0], 0);
  if (yn == 1) return;
  size_t skip = CRISP_ROW_SKIP(xn), blocks = CRISP_ROW_BLOCKS(xn), rows = yn - 1;
  uintptr_t zrow = CRISP_ROW_BACK(z + 1, skip), xstart = CRISP_ROW_BACK(x, skip), xp, zp, target;
  const crisp_limb *next = y + 1;
  crisp_limb lo, hi, carry, count;
  __asm__ volatile("lea .Lcrisp_table%=(%%rip), %[lo]\n\t"
                   "movslq (%[lo],%[skip],4), %[hi]\n\t"
                   "lea (%[lo],%[skip],4), %[lo]\n\t"
                   "lea (%[lo],%[hi]), %[target]\n\t"
                   "3:\n\t"
                   "mov (%[y]), %%rdx\n\t"
                   "lea 8(%[y]), %[y]\n\t"
                   "mov %[xstart], %[x]\n\t"
                   "mov %[zrow], %[z]\n\t"
                   "mov %[blocks], %[count]\n\t"
                   "xor %k[carry], %k[carry]\n\t" /* clears CF and OF */
                   "jmp *%[target]\n\t"
                   "1:\n\t" CRISP_ROW_REPEAT8(CRISP_ADX_ADDMUL_LIMB)
                   "lea 64(%[x]), %[x]\n\t"
                   "lea 64(%[z]), %[z]\n\t"
                   "lea -1(%[count]), %[count]\n\t"
                   "jrcxz 2f\n\t"
                   "jmp 1b\n\t"
                   "2:\n\t"
                   "adcx %[count], %[carry]\n\t" /* count is 0 here */
                   "adox %[count], %[carry]\n\t"
                   "mov %[carry], (%[z])\n\t" /* z[j + xn] */
                   "lea 8(%[zrow]), %[zrow]\n\t"
                   "dec %[rows]\n\t"
                   "jnz 3b\n\t" CRISP_ROW_TABLE
                   : [zrow] "+r"(zrow), [y] "+r"(next), [rows] "+r"(rows), [x] "=&r"(xp), [z] "=&r"(zp),
                     [count] "=&c"(count), [carry] "=&r"(carry), [lo] "=&r"(lo), [hi] "=&r"(hi),
                     [target] "=&r"(target)
                   : [skip] "r"(skip), [xstart] "rm"(xstart), [blocks] "rm"(blocks)
                   : "rdx", "cc", "memory");
}

/* The rows i = 1 .. n-2 of a square's cross products: z[2i+1 ..) +=
 * x[i+1..n) * x[i], the carry out stored at z[n+i]. One asm loop over the
 * rows; each row's entry into the unrolled block depends on its length
 * n-1-i only. */
static inline void crisp_row_sqr_triangle_adx(crisp_limb *z, const crisp_limb *x, size_t n) {
  if (n < 3) return;
  uintptr_t source = (uintptr_t)(x + 2), destination = (uintptr_t)(z + 3), xp, zp;
  size_t length = n - 2;
  crisp_limb lo, hi, carry, count, skip;
  __asm__ volatile("3:\n\t"
                   "mov -8(%[source]), %%rdx\n\t" /* the multiplier x[i] */
                   "mov %[length], %[skip]\n\t"
                   "neg %[skip]\n\t"
                   "and $7, %[skip]\n\t"
                   "lea 7(%[length]), %[count]\n\t"
                   "shr $3, %[count]\n\t"
                   "lea (,%[skip],8), %[lo]\n\t"
                   "mov %[source], %[x]\n\t"
                   "sub %[lo], %[x]\n\t"
                   "mov %[destination], %[z]\n\t"
                   "sub %[lo], %[z]\n\t"
                   CRISP_ROW_ENTER_NO_JUMP("%[lo]", "%[hi]")
                   "xor %k[carry], %k[carry]\n\t" /* clears CF and OF */
                   "jmp *%[lo]\n\t"
                   "1:\n\t" CRISP_ROW_REPEAT8(CRISP_ADX_ADDMUL_LIMB)
                   "lea 64(%[x]), %[x]\n\t"
                   "lea 64(%[z]), %[z]\n\t"
                   "lea -1(%[count]), %[count]\n\t"
                   "jrcxz 2f\n\t"
                   "jmp 1b\n\t"
                   "2:\n\t"
                   "adcx %[count], %[carry]\n\t" /* count is 0 here */
                   "adox %[count], %[carry]\n\t"
                   "mov %[carry], (%[z])\n\t" /* z[n + i] */
                   "lea 8(%[source]), %[source]\n\t"
                   "lea 16(%[destination]), %[destination]\n\t"
                   "dec %[length]\n\t"
                   "jnz 3b\n\t" CRISP_ROW_TABLE
                   : [source] "+r"(source), [destination] "+r"(destination), [length] "+r"(length),
                     [x] "=&r"(xp), [z] "=&r"(zp), [count] "=&c"(count), [carry] "=&r"(carry), [lo] "=&r"(lo),
                     [hi] "=&r"(hi), [skip] "=&r"(skip)
                   :
                   : "rdx", "cc", "memory");
}

/* Limb i of z = x + y + w: x + y on the CF chain, + w on the OF chain. */
#define CRISP_ADX_ADD3_LIMB(i)                                      \
  CRISP_ROW_LABEL(i)                                                \
  "mov " CRISP_ROW_OFFSET(i) "(%[x]), %[t1]\n\t"                      \
  "adcx " CRISP_ROW_OFFSET(i) "(%[y]), %[t1]\n\t"                     \
  "adox " CRISP_ROW_OFFSET(i) "(%[w]), %[t1]\n\t"                     \
  "mov %[t1], " CRISP_ROW_OFFSET(i) "(%[z])\n\t"

/* z[0..n) = x + y + w + carry (carry 0 or 1) in one pass; returns the sum
 * of the two carries out (0, 1 or 2). Karatsuba's middle term. */
static inline crisp_limb crisp_row_add3_adx(crisp_limb *z, const crisp_limb *x, const crisp_limb *y,
                                            const crisp_limb *w, size_t n, crisp_limb carry) {
  if (n == 0) return carry;
  size_t skip = CRISP_ROW_SKIP(n), blocks = CRISP_ROW_BLOCKS(n);
  uintptr_t zp = CRISP_ROW_BACK(z, skip), xp = CRISP_ROW_BACK(x, skip), yp = CRISP_ROW_BACK(y, skip),
            wp = CRISP_ROW_BACK(w, skip);
  crisp_limb t1, t2;
  __asm__ volatile("neg %[carry]\n\t" /* CF = carry, OF = 0 */
                   CRISP_ROW_ENTER("%[t1]", "%[t2]")
                   "1:\n\t" CRISP_ROW_REPEAT8(CRISP_ADX_ADD3_LIMB)
                   "lea 64(%[x]), %[x]\n\t"
                   "lea 64(%[y]), %[y]\n\t"
                   "lea 64(%[w]), %[w]\n\t"
                   "lea 64(%[z]), %[z]\n\t"
                   "lea -1(%[blocks]), %[blocks]\n\t"
                   "jrcxz 2f\n\t"
                   "jmp 1b\n\t"
                   "2:\n\t"
                   "mov $0, %k[carry]\n\t"
                   "adcx %[blocks], %[carry]\n\t" /* blocks is 0 here */
                   "adox %[blocks], %[carry]\n\t" CRISP_ROW_TABLE
                   : [z] "+r"(zp), [x] "+r"(xp), [y] "+r"(yp), [w] "+r"(wp), [blocks] "+c"(blocks),
                     [carry] "+r"(carry), [t1] "=&r"(t1), [t2] "=&r"(t2)
                   : [skip] "r"(skip)
                   : "cc", "memory");
  return carry;
}

/* ---- MULQ flavour (any x86-64) ------------------------------------------ */

/* Limb i of z += x * k with one carry chain: each limb's carries are folded
 * into rdx at once, so the loop counter may touch the flags. */
#define CRISP_MULQ_ADDMUL_LIMB(i)                                   \
  CRISP_ROW_LABEL(i)                                                \
  "mov " CRISP_ROW_OFFSET(i) "(%[x]), %%rax\n\t"                      \
  "mul %[k]\n\t"                                                    \
  "add %[carry], %%rax\n\t"                                         \
  "adc $0, %%rdx\n\t"                                               \
  "add %%rax, " CRISP_ROW_OFFSET(i) "(%[z])\n\t"                      \
  "adc $0, %%rdx\n\t"                                               \
  "mov %%rdx, %[carry]\n\t"

#define CRISP_MULQ_MUL_LIMB(i)                                      \
  CRISP_ROW_LABEL(i)                                                \
  "mov " CRISP_ROW_OFFSET(i) "(%[x]), %%rax\n\t"                      \
  "mul %[k]\n\t"                                                    \
  "add %[carry], %%rax\n\t"                                         \
  "adc $0, %%rdx\n\t"                                               \
  "mov %%rax, " CRISP_ROW_OFFSET(i) "(%[z])\n\t"                      \
  "mov %%rdx, %[carry]\n\t"

#define CRISP_MULQ_ROW_LOOP(LIMB)                                   \
  CRISP_ROW_ENTER("%%rax", "%%rdx")                                 \
  "1:\n\t" CRISP_ROW_REPEAT8(LIMB)                                  \
  "lea 64(%[x]), %[x]\n\t"                                          \
  "lea 64(%[z]), %[z]\n\t"                                          \
  "dec %[blocks]\n\t"                                               \
  "jnz 1b\n\t"

static inline crisp_limb crisp_row_addmul_mulq(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k,
                                               crisp_limb carry) {
  if (n == 0) return carry;
  size_t skip = CRISP_ROW_SKIP(n), blocks = CRISP_ROW_BLOCKS(n);
  uintptr_t zp = CRISP_ROW_BACK(z, skip), xp = CRISP_ROW_BACK(x, skip);
  __asm__ volatile(CRISP_MULQ_ROW_LOOP(CRISP_MULQ_ADDMUL_LIMB) CRISP_ROW_TABLE
                   : [z] "+r"(zp), [x] "+r"(xp), [blocks] "+r"(blocks), [carry] "+r"(carry)
                   : [k] "r"(k), [skip] "r"(skip)
                   : "rax", "rdx", "cc", "memory");
  return carry;
}

static inline crisp_limb crisp_row_mul_mulq(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k,
                                            crisp_limb carry) {
  if (n == 0) return carry;
  size_t skip = CRISP_ROW_SKIP(n), blocks = CRISP_ROW_BLOCKS(n);
  uintptr_t zp = CRISP_ROW_BACK(z, skip), xp = CRISP_ROW_BACK(x, skip);
  __asm__ volatile(CRISP_MULQ_ROW_LOOP(CRISP_MULQ_MUL_LIMB) CRISP_ROW_TABLE
                   : [z] "+r"(zp), [x] "+r"(xp), [blocks] "+r"(blocks), [carry] "+r"(carry)
                   : [k] "r"(k), [skip] "r"(skip)
                   : "rax", "rdx", "cc", "memory");
  return carry;
}

/* ---- Additions (any x86-64) ------------------------------------------- */

/* Limb i of z = x + y + CF (or x - y - CF): DEC and LEA keep CF for the
 * next block. */
#define CRISP_ADD_LIMB(i)                                           \
  CRISP_ROW_LABEL(i)                                                \
  "mov " CRISP_ROW_OFFSET(i) "(%[x]), %[t1]\n\t"                      \
  "adc " CRISP_ROW_OFFSET(i) "(%[y]), %[t1]\n\t"                      \
  "mov %[t1], " CRISP_ROW_OFFSET(i) "(%[z])\n\t"
#define CRISP_SUB_LIMB(i)                                           \
  CRISP_ROW_LABEL(i)                                                \
  "mov " CRISP_ROW_OFFSET(i) "(%[x]), %[t1]\n\t"                      \
  "sbb " CRISP_ROW_OFFSET(i) "(%[y]), %[t1]\n\t"                      \
  "mov %[t1], " CRISP_ROW_OFFSET(i) "(%[z])\n\t"
#define CRISP_ADD_CARRY_LIMB(i)                                     \
  CRISP_ROW_LABEL(i)                                                \
  "adcq $0, " CRISP_ROW_OFFSET(i) "(%[z])\n\t"

/* The carry (0 or 1) enters as CF through BT and leaves through SETC. */
#define CRISP_ADD_ROW_LOOP(LIMB, ADVANCE)                           \
  "bt $0, %k[carry]\n\t"                                            \
  CRISP_ROW_ENTER("%[t1]", "%[t2]")                                 \
  "1:\n\t" CRISP_ROW_REPEAT8(LIMB) ADVANCE                          \
  "lea 64(%[z]), %[z]\n\t"                                          \
  "dec %[blocks]\n\t"                                               \
  "jnz 1b\n\t"                                                      \
  "setc %b[carry]\n\t"

#define CRISP_ADD_ADVANCE_XY "lea 64(%[x]), %[x]\n\t" "lea 64(%[y]), %[y]\n\t"

/* z[0..n) = x + y + carry (or x - y - borrow); returns the carry (borrow)
 * out. z may equal x or y exactly. */
#define CRISP_ADD_ROW_FUNCTION(name, LIMB)                                                           \
  static inline unsigned char name(crisp_limb *z, const crisp_limb *x, const crisp_limb *y, size_t n,  \
                                   unsigned char carry) {                                            \
    if (n == 0) return carry;                                                                        \
    size_t skip = CRISP_ROW_SKIP(n), blocks = CRISP_ROW_BLOCKS(n);                                   \
    uintptr_t zp = CRISP_ROW_BACK(z, skip), xp = CRISP_ROW_BACK(x, skip), yp = CRISP_ROW_BACK(y, skip); \
    crisp_limb t1, t2, wide_carry = carry;                                                           \
    __asm__ volatile(CRISP_ADD_ROW_LOOP(LIMB, CRISP_ADD_ADVANCE_XY) CRISP_ROW_TABLE                  \
                     : [z] "+r"(zp), [x] "+r"(xp), [y] "+r"(yp), [blocks] "+r"(blocks),               \
                       [carry] "+r"(wide_carry), [t1] "=&r"(t1), [t2] "=&r"(t2)                       \
                     : [skip] "r"(skip)                                                              \
                     : "cc", "memory");                                                              \
    return (unsigned char)wide_carry;                                                                \
  }
CRISP_ADD_ROW_FUNCTION(crisp_bn_add_n, CRISP_ADD_LIMB)
CRISP_ADD_ROW_FUNCTION(crisp_bn_sub_n, CRISP_SUB_LIMB)

/* z[0..n) += carry, carried through every limb (no early exit). */
static inline unsigned char crisp_bn_add_carry(crisp_limb *z, size_t n, unsigned char carry) {
  if (n == 0) return carry;
  size_t skip = CRISP_ROW_SKIP(n), blocks = CRISP_ROW_BLOCKS(n);
  uintptr_t zp = CRISP_ROW_BACK(z, skip);
  crisp_limb t1, t2, wide_carry = carry;
  __asm__ volatile(CRISP_ADD_ROW_LOOP(CRISP_ADD_CARRY_LIMB, "")
                   CRISP_ROW_TABLE
                   : [z] "+r"(zp), [blocks] "+r"(blocks), [carry] "+r"(wide_carry), [t1] "=&r"(t1),
                     [t2] "=&r"(t2)
                   : [skip] "r"(skip)
                   : "cc", "memory");
  return (unsigned char)wide_carry;
}

#endif
