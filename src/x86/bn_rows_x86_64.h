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

/* The 8-limb block loop every ADX routine runs, from label 1 to label 2:
 * LIMB per limb, ADVANCE moves the pointers on, COUNT (in rcx) counts the
 * blocks down. LEA and JRCXZ leave CF and OF alone, so both carry chains
 * run through the whole row. */
#define CRISP_ADX_BLOCKS(LIMB, ADVANCE, COUNT)                      \
  "1:\n\t" CRISP_ROW_REPEAT8(LIMB) ADVANCE                          \
  "lea -1(" COUNT "), " COUNT "\n\t"                                  \
  "jrcxz 2f\n\t"                                                    \
  "jmp 1b\n\t"                                                      \
  "2:\n\t"

#define CRISP_ADX_ADVANCE_XZ "lea 64(%[x]), %[x]\n\t" "lea 64(%[z]), %[z]\n\t"

/* The row loop of addmul and mul: clear both flags, enter the block. */
#define CRISP_ADX_ROW_LOOP(LIMB)                                    \
  "xor %k[zero], %k[zero]\n\t" /* clears CF and OF */              \
  CRISP_ROW_ENTER("%[lo]", "%[hi]")                                 \
  CRISP_ADX_BLOCKS(LIMB, CRISP_ADX_ADVANCE_XZ, "%[blocks]")

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
                   CRISP_ADX_BLOCKS(CRISP_ADX_DIAGONAL_LIMB, "lea 64(%[x]), %[x]\n\t" "lea 128(%[z]), %[z]\n\t",
                                    "%[blocks]") CRISP_ROW_TABLE
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
                   CRISP_ADX_BLOCKS(CRISP_ADX_ADDMUL_LIMB, CRISP_ADX_ADVANCE_XZ, "%[count]")
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
                   CRISP_ADX_BLOCKS(CRISP_ADX_ADDMUL_LIMB, CRISP_ADX_ADVANCE_XZ, "%[count]")
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

/* ---- Fully unrolled triangles for 8 and 16 limbs (ADX) --------------------
 * The cross products x[i] x[j] (i < j) of an 8- or 16-limb square with the
 * running columns in eight registers instead of memory, so no row waits on
 * the previous row's stores. The multiplicand is a block of eight limbs
 * a = x[b..b+8); the window W0..W7 holds columns i+b .. i+b+7 while row i
 * adds x[i] * a[m0..8) to W[m0..8) (low halves on the CF chain, high halves
 * on the OF chain), then W0 is final: it is stored and its register takes
 * the new top column. The window moves one column per row by renaming the
 * registers (CRISP_SQR_WINDOWk is the window rotated by k), not by moves.
 * Pass 1 (b = 0) does the triangle of x[0..8), rows 0..6 with m0 = i + 1;
 * pass 2 (b = 8) does x[0..16) times x[8..16) above the diagonal, rows
 * 0..14 with m0 = max(0, i - 7). Sizes are fixed; no value steers anything. */
#define CRISP_SQR_WINDOW0 "%[r0]", "%[r1]", "%[r2]", "%[r3]", "%[r4]", "%[r5]", "%[r6]", "%[r7]"
#define CRISP_SQR_WINDOW1 "%[r1]", "%[r2]", "%[r3]", "%[r4]", "%[r5]", "%[r6]", "%[r7]", "%[r0]"
#define CRISP_SQR_WINDOW2 "%[r2]", "%[r3]", "%[r4]", "%[r5]", "%[r6]", "%[r7]", "%[r0]", "%[r1]"
#define CRISP_SQR_WINDOW3 "%[r3]", "%[r4]", "%[r5]", "%[r6]", "%[r7]", "%[r0]", "%[r1]", "%[r2]"
#define CRISP_SQR_WINDOW4 "%[r4]", "%[r5]", "%[r6]", "%[r7]", "%[r0]", "%[r1]", "%[r2]", "%[r3]"
#define CRISP_SQR_WINDOW5 "%[r5]", "%[r6]", "%[r7]", "%[r0]", "%[r1]", "%[r2]", "%[r3]", "%[r4]"
#define CRISP_SQR_WINDOW6 "%[r6]", "%[r7]", "%[r0]", "%[r1]", "%[r2]", "%[r3]", "%[r4]", "%[r5]"
#define CRISP_SQR_WINDOW7 "%[r7]", "%[r0]", "%[r1]", "%[r2]", "%[r3]", "%[r4]", "%[r5]", "%[r6]"

/* W[m] += low(x[i] a[m]), W[m+1] += high(x[i] a[m]). */
#define CRISP_SQR_STEP(m, b, Wm, Wm1)                                       \
  "mulx " CRISP_ROW_XSTR(8 * b + 8 * m) "(%[x]), %[lo], %[hi]\n\t"            \
  "adcx %[lo], " Wm "\n\t"                                                  \
  "adox %[hi], " Wm1 "\n\t"
/* The last product: column i+b (W0) is final and stored; its register
 * becomes the new top column, the high half plus both chains' carries. */
#define CRISP_SQR_LAST(column, b, W0, W7)                                   \
  "mov " W0 ", " column "(%[z])\n\t"                                        \
  "mulx " CRISP_ROW_XSTR(8 * b + 56) "(%[x]), %[lo], " W0 "\n\t"              \
  "adcx %[lo], " W7 "\n\t"                                                  \
  "mov $0, %k[lo]\n\t" /* MOV keeps the flags */                            \
  "adox %[lo], " W0 "\n\t"                                                  \
  "adcx %[lo], " W0 "\n\t"
/* Steps m0 .. 7 of a row, each macro the step m0 and then the rest. */
#define CRISP_SQR_STEPS7(c, b, W0, W1, W2, W3, W4, W5, W6, W7) CRISP_SQR_LAST(c, b, W0, W7)
#define CRISP_SQR_STEPS6(c, b, W0, W1, W2, W3, W4, W5, W6, W7) \
  CRISP_SQR_STEP(6, b, W6, W7) CRISP_SQR_STEPS7(c, b, W0, W1, W2, W3, W4, W5, W6, W7)
#define CRISP_SQR_STEPS5(c, b, W0, W1, W2, W3, W4, W5, W6, W7) \
  CRISP_SQR_STEP(5, b, W5, W6) CRISP_SQR_STEPS6(c, b, W0, W1, W2, W3, W4, W5, W6, W7)
#define CRISP_SQR_STEPS4(c, b, W0, W1, W2, W3, W4, W5, W6, W7) \
  CRISP_SQR_STEP(4, b, W4, W5) CRISP_SQR_STEPS5(c, b, W0, W1, W2, W3, W4, W5, W6, W7)
#define CRISP_SQR_STEPS3(c, b, W0, W1, W2, W3, W4, W5, W6, W7) \
  CRISP_SQR_STEP(3, b, W3, W4) CRISP_SQR_STEPS4(c, b, W0, W1, W2, W3, W4, W5, W6, W7)
#define CRISP_SQR_STEPS2(c, b, W0, W1, W2, W3, W4, W5, W6, W7) \
  CRISP_SQR_STEP(2, b, W2, W3) CRISP_SQR_STEPS3(c, b, W0, W1, W2, W3, W4, W5, W6, W7)
#define CRISP_SQR_STEPS1(c, b, W0, W1, W2, W3, W4, W5, W6, W7) \
  CRISP_SQR_STEP(1, b, W1, W2) CRISP_SQR_STEPS2(c, b, W0, W1, W2, W3, W4, W5, W6, W7)
#define CRISP_SQR_STEPS0(c, b, W0, W1, W2, W3, W4, W5, W6, W7) \
  CRISP_SQR_STEP(0, b, W0, W1) CRISP_SQR_STEPS1(c, b, W0, W1, W2, W3, W4, W5, W6, W7)
/* Row i of the pass with block b, products from m0 on, window rotated by k. */
#define CRISP_SQR_ROW_(i, m0, b, ...)                                       \
  "mov " CRISP_ROW_XSTR(8 * i) "(%[x]), %%rdx\n\t"                            \
  "xor %k[lo], %k[lo]\n\t" /* clears CF and OF */                           \
  CRISP_SQR_STEPS##m0(CRISP_ROW_XSTR(8 * i + 8 * b), b, __VA_ARGS__)
#define CRISP_SQR_ROW(i, m0, b, k) CRISP_SQR_ROW_(i, m0, b, CRISP_SQR_WINDOW##k)

#define CRISP_SQR_PASS_LOW                                                  \
  CRISP_SQR_ROW(0, 1, 0, 0) CRISP_SQR_ROW(1, 2, 0, 1) CRISP_SQR_ROW(2, 3, 0, 2) \
  CRISP_SQR_ROW(3, 4, 0, 3) CRISP_SQR_ROW(4, 5, 0, 4) CRISP_SQR_ROW(5, 6, 0, 5) \
  CRISP_SQR_ROW(6, 7, 0, 6)
#define CRISP_SQR_PASS_HIGH                                                 \
  CRISP_SQR_ROW(0, 0, 8, 0) CRISP_SQR_ROW(1, 0, 8, 1) CRISP_SQR_ROW(2, 0, 8, 2) \
  CRISP_SQR_ROW(3, 0, 8, 3) CRISP_SQR_ROW(4, 0, 8, 4) CRISP_SQR_ROW(5, 0, 8, 5) \
  CRISP_SQR_ROW(6, 0, 8, 6) CRISP_SQR_ROW(7, 0, 8, 7) CRISP_SQR_ROW(8, 1, 8, 0) \
  CRISP_SQR_ROW(9, 2, 8, 1) CRISP_SQR_ROW(10, 3, 8, 2) CRISP_SQR_ROW(11, 4, 8, 3) \
  CRISP_SQR_ROW(12, 5, 8, 4) CRISP_SQR_ROW(13, 6, 8, 5) CRISP_SQR_ROW(14, 7, 8, 6)
/* Stores the window rotated by 7 (r7, r0 .. r6) at limb `first`. */
#define CRISP_SQR_STORE_WINDOW7(first)                                      \
  "mov %[r7], " CRISP_ROW_XSTR(8 * first) "(%[z])\n\t"                        \
  "mov %[r0], " CRISP_ROW_XSTR(8 * first + 8) "(%[z])\n\t"                    \
  "mov %[r1], " CRISP_ROW_XSTR(8 * first + 16) "(%[z])\n\t"                   \
  "mov %[r2], " CRISP_ROW_XSTR(8 * first + 24) "(%[z])\n\t"                   \
  "mov %[r3], " CRISP_ROW_XSTR(8 * first + 32) "(%[z])\n\t"                   \
  "mov %[r4], " CRISP_ROW_XSTR(8 * first + 40) "(%[z])\n\t"                   \
  "mov %[r5], " CRISP_ROW_XSTR(8 * first + 48) "(%[z])\n\t"                   \
  "mov %[r6], " CRISP_ROW_XSTR(8 * first + 56) "(%[z])\n\t"
#define CRISP_SQR_CLEAR_WINDOW                                              \
  "xor %k[r0], %k[r0]\n\t" "xor %k[r1], %k[r1]\n\t" "xor %k[r2], %k[r2]\n\t"    \
  "xor %k[r3], %k[r3]\n\t" "xor %k[r4], %k[r4]\n\t" "xor %k[r5], %k[r5]\n\t"    \
  "xor %k[r6], %k[r6]\n\t" "xor %k[r7], %k[r7]\n\t"
#define CRISP_SQR_OPERANDS                                                  \
  : [lo] "=&r"(lo), [hi] "=&r"(hi), [r0] "=&r"(r[0]), [r1] "=&r"(r[1]), [r2] "=&r"(r[2]), \
    [r3] "=&r"(r[3]), [r4] "=&r"(r[4]), [r5] "=&r"(r[5]), [r6] "=&r"(r[6]), [r7] "=&r"(r[7]) \
  : [z] "r"(z), [x] "r"(x)                                                  \
  : "rdx", "cc", "memory"

/* z[0..15) = the cross products of x[0..8) (z[0] = 0); z[15] is left alone. */
static inline void crisp_row_sqr_triangle8_adx(crisp_limb *z, const crisp_limb *x) {
  crisp_limb lo, hi, r[8];
  __asm__ volatile(CRISP_SQR_CLEAR_WINDOW CRISP_SQR_PASS_LOW CRISP_SQR_STORE_WINDOW7(7) CRISP_SQR_OPERANDS);
}

/* z[0..31) = the cross products of x[0..16) (z[0] = 0); z[31] is left
 * alone. Between the passes column 7 is stored and its register, cleared,
 * becomes column 15 (the low triangle ends at column 14). */
static inline void crisp_row_sqr_triangle16_adx(crisp_limb *z, const crisp_limb *x) {
  crisp_limb lo, hi, r[8];
  __asm__ volatile(CRISP_SQR_CLEAR_WINDOW CRISP_SQR_PASS_LOW
                   "mov %[r7], 56(%[z])\n\t"
                   "xor %k[r7], %k[r7]\n\t" CRISP_SQR_PASS_HIGH CRISP_SQR_STORE_WINDOW7(23) CRISP_SQR_OPERANDS);
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
                   CRISP_ADX_BLOCKS(CRISP_ADX_ADD3_LIMB,
                                    "lea 64(%[x]), %[x]\n\t" "lea 64(%[y]), %[y]\n\t"
                                    "lea 64(%[w]), %[w]\n\t" "lea 64(%[z]), %[z]\n\t",
                                    "%[blocks]")
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
