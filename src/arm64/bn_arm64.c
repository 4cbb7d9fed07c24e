/* src/arm64/bn_arm64.c - bignum kernels for AArch64: product, square,
 * multiply-add row and Montgomery multiply / square on 64-bit limbs.
 *
 * Layout: little-endian 64-bit limbs. The inner rows take four limbs per
 * step in inline asm: four MUL and four UMULH, then two ADDS/ADCS chains,
 * one folding the high halves into the next low halves, one adding the
 * result into z (the carry flag never leaves the asm block mid-chain).
 * bn_sqr computes each cross product x[i]x[j], i < j, once, doubles the sum
 * and adds the diagonal; Montgomery is the full product or square followed
 * by a word-by-word reduction (SOS) and a masked final subtraction. Nothing
 * branches on or indexes by limb values; loops depend on lengths only.
 * ISA: ARMv8-A base. Lengths: any; rows of 4+ limbs run the asm steps. */
#include "arithmetic/bn_word.h"
#include "impl.h"
#include "util.h"

#if defined(CRISP_ARCH_ARM64)

typedef unsigned __int128 limb_pair;

void crisp_bn_mul_arm64(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn);
void crisp_bn_sqr_arm64(crisp_limb *z, const crisp_limb *x, size_t n);
crisp_limb crisp_bn_mul_add_arm64(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k);
void crisp_bn_mont_mul_arm64(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                             size_t n, crisp_limb minv);
void crisp_bn_mont_sqr_arm64(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                             crisp_limb minv);

/* The four low and four high product halves of x[0..4) * k. */
#define PRODUCTS4                                                                                  \
  "ldp %[p0], %[p1], [%[x]]\n\t"                                                                   \
  "ldp %[p2], %[p3], [%[x], #16]\n\t"                                                              \
  "mul %[l0], %[p0], %[k]\n\t"                                                                     \
  "umulh %[h0], %[p0], %[k]\n\t"                                                                   \
  "mul %[l1], %[p1], %[k]\n\t"                                                                     \
  "umulh %[h1], %[p1], %[k]\n\t"                                                                   \
  "mul %[l2], %[p2], %[k]\n\t"                                                                     \
  "umulh %[h2], %[p2], %[k]\n\t"                                                                   \
  "mul %[l3], %[p3], %[k]\n\t"                                                                     \
  "umulh %[h3], %[p3], %[k]\n\t" /* x * k + carry as five limbs l0..l3, h3; cannot overflow h3. */ \
  "adds %[l0], %[l0], %[carry]\n\t"                                                                \
  "adcs %[l1], %[l1], %[h0]\n\t"                                                                   \
  "adcs %[l2], %[l2], %[h1]\n\t"                                                                   \
  "adcs %[l3], %[l3], %[h2]\n\t"                                                                   \
  "adc %[h3], %[h3], xzr\n\t"

#define ROW_OPERANDS                                                                                    \
  [carry] "+&r"(carry), [p0] "=&r"(p0), [p1] "=&r"(p1), [p2] "=&r"(p2), [p3] "=&r"(p3), [l0] "=&r"(l0), \
      [l1] "=&r"(l1), [l2] "=&r"(l2), [l3] "=&r"(l3), [h0] "=&r"(h0), [h1] "=&r"(h1), [h2] "=&r"(h2),   \
      [h3] "=&r"(h3) : [x] "r"(x), [z] "r"(z), [k] "r"(k) : "cc", "memory"

/* z[0..n) = x[0..n) * k, returns the carry limb. */
static crisp_limb mul_row(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k) {
  crisp_limb carry = 0;
  for (; n >= 4; n -= 4, x += 4, z += 4) {
    crisp_limb p0, p1, p2, p3, l0, l1, l2, l3, h0, h1, h2, h3;
    __asm__(PRODUCTS4
            "stp %[l0], %[l1], [%[z]]\n\t"
            "stp %[l2], %[l3], [%[z], #16]\n\t"
            "mov %[carry], %[h3]"
            : ROW_OPERANDS);
  }
  for (; n; n--, x++, z++) {
    const limb_pair t = (limb_pair)*x * k + carry;
    *z = (crisp_limb)t, carry = (crisp_limb)(t >> 64);
  }
  return carry;
}

/* z[0..n) += x[0..n) * k, returns the carry limb; x == z is fine (each step
 * loads its four x limbs before it stores the four z limbs). */
static crisp_limb add_mul_row(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k) {
  crisp_limb carry = 0;
  for (; n >= 4; n -= 4, x += 4, z += 4) {
    crisp_limb p0, p1, p2, p3, l0, l1, l2, l3, h0, h1, h2, h3;
    /* z + x * k + carry < 2^320, so the last ADC cannot overflow either. */
    __asm__(PRODUCTS4
            "ldp %[p0], %[p1], [%[z]]\n\t"
            "ldp %[p2], %[p3], [%[z], #16]\n\t"
            "adds %[p0], %[p0], %[l0]\n\t"
            "adcs %[p1], %[p1], %[l1]\n\t"
            "adcs %[p2], %[p2], %[l2]\n\t"
            "adcs %[p3], %[p3], %[l3]\n\t"
            "adc %[carry], %[h3], xzr\n\t"
            "stp %[p0], %[p1], [%[z]]\n\t"
            "stp %[p2], %[p3], [%[z], #16]"
            : ROW_OPERANDS);
  }
  for (; n; n--, x++, z++) {
    const limb_pair t = (limb_pair)*x * k + *z + carry;
    *z = (crisp_limb)t, carry = (crisp_limb)(t >> 64);
  }
  return carry;
}

crisp_limb crisp_bn_mul_add_arm64(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb k) {
  return add_mul_row(z, x, n, k);
}

void crisp_bn_mul_arm64(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn) {
  /* Rows as long as possible: the asm steps cover 4 limbs, the C tail 1. */
  if (xn < yn) {
    const crisp_limb *const swap = x;
    x = y, y = swap;
    const size_t swap_n = xn;
    xn = yn, yn = swap_n;
  }
  z[xn] = mul_row(z, x, xn, y[0]);
  for (size_t j = 1; j < yn; j++) z[j + xn] = add_mul_row(z + j, x, xn, y[j]);
}

void crisp_bn_sqr_arm64(crisp_limb *z, const crisp_limb *x, size_t n) {
  /* Cross products: row i adds x[i] * x[i+1..n) at limb 2i+1; its carry
   * lands on limb i+n, which no earlier row has written. */
  z[0] = 0;
  z[2 * n - 1] = 0;
  if (n > 1) z[n] = mul_row(z + 1, x + 1, n - 1, x[0]);
  for (size_t i = 1; i + 1 < n; i++) z[i + n] = add_mul_row(z + 2 * i + 1, x + i + 1, n - i - 1, x[i]);
  /* z = 2 z + the diagonal squares, one limb pair at a time. */
  crisp_limb shifted_out = 0, carry = 0;
  for (size_t i = 0; i < n; i++) {
    const limb_pair square = (limb_pair)x[i] * x[i];
    const crisp_limb low = z[2 * i], high = z[2 * i + 1];
    const limb_pair sum_low = (limb_pair)(low << 1 | shifted_out) + (crisp_limb)square + carry;
    const limb_pair sum_high =
        (limb_pair)(high << 1 | low >> 63) + (crisp_limb)(square >> 64) + (crisp_limb)(sum_low >> 64);
    shifted_out = high >> 63;
    z[2 * i] = (crisp_limb)sum_low, z[2 * i + 1] = (crisp_limb)sum_high;
    carry = (crisp_limb)(sum_high >> 64);
  }
}

void crisp_bn_mont_mul_arm64(crisp_limb *r, const crisp_limb *a, const crisp_limb *b, const crisp_limb *m,
                             size_t n, crisp_limb minv) {
  crisp_limb t[2 * CRISP_BN_MONT_MAX_LIMBS];
  crisp_bn_mul_arm64(t, a, n, b, n);
  bn_mont_reduce(r, t, m, n, minv, add_mul_row);
  crisp_wipe(t, 2 * n * sizeof *t);
}

void crisp_bn_mont_sqr_arm64(crisp_limb *r, const crisp_limb *a, const crisp_limb *m, size_t n,
                             crisp_limb minv) {
  crisp_limb t[2 * CRISP_BN_MONT_MAX_LIMBS];
  crisp_bn_sqr_arm64(t, a, n);
  bn_mont_reduce(r, t, m, n, minv, add_mul_row);
  crisp_wipe(t, 2 * n * sizeof *t);
}

const crisp_bn_mul_impl crisp_bn_mul_arm64_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mul_arm64_impl),
    .mul = crisp_bn_mul_arm64,
};

const crisp_bn_sqr_impl crisp_bn_sqr_arm64_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_sqr_arm64_impl),
    .sqr = crisp_bn_sqr_arm64,
};

const crisp_bn_mul_add_impl crisp_bn_mul_add_arm64_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mul_add_arm64_impl),
    .mul_add = crisp_bn_mul_add_arm64,
};

const crisp_bn_mont_mul_impl crisp_bn_mont_mul_arm64_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mont_mul_arm64_impl),
    .mont_mul = crisp_bn_mont_mul_arm64,
    .mod_exp = NULL,
};

const crisp_bn_mont_sqr_impl crisp_bn_mont_sqr_arm64_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mont_sqr_arm64_impl),
    .mont_sqr = crisp_bn_mont_sqr_arm64,
};

#endif
