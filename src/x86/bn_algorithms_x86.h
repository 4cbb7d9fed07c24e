/* src/x86/bn_algorithms_x86.h - products, squares and Montgomery
 * reduction built from one flavour of the x86-64 assembly rows
 * (bn_rows_x86.h). The including file first binds CRISP_ROW_MUL,
 * CRISP_ROW_MUL_BASECASE, CRISP_ROW_SQR_TRIANGLE and CRISP_ROW_REDC to one
 * flavour's rows (crisp_bn_*_x86_64 or crisp_bn_*_x86_64_adx), and
 * optionally CRISP_ROW_MUL_WINDOW, CRISP_ROW_SQR_TRIANGLE_WINDOW,
 * CRISP_ROW_SQR_DIAGONAL, CRISP_ROW_NEGATE_IF, CRISP_ROW_SQR8,
 * CRISP_ROW_SQR_TRIANGLE16, CRISP_ROW_ADD3 with CRISP_ROW_ADD2_NOT,
 * CRISP_ROW_KARATSUBA_FOLD with CRISP_ROW_KARATSUBA_FOLD_SQUARE, so
 * each kernel file gets its own copy of these routines bound to its own
 * rows. Every routine here runs the same instructions and touches the same
 * addresses for all operand values (the Karatsuba step picks its signs with
 * masks), so the Montgomery kernels may use the fast products. */
#ifndef CRISP_SRC_X86_BN_ALGORITHMS_X86_H
#define CRISP_SRC_X86_BN_ALGORITHMS_X86_H

#include <emmintrin.h>
#include <x86intrin.h>

#include "scrub_depths.h"
#include "util.h"
#include "x86/bn_rows_x86.h"

#if !defined(CRISP_ROW_MUL) || !defined(CRISP_ROW_MUL_BASECASE) || !defined(CRISP_ROW_SQR_TRIANGLE) || \
    !defined(CRISP_ROW_REDC)
#error "bind the rows of one flavour before including bn_algorithms_x86.h"
#endif

typedef unsigned __int128 crisp_dlimb;

/* Sizes (limbs) from which one Karatsuba level beats the schoolbook rows
 * of the ADX flavour, as `crisp bench --impl all` shows them (the MULQ files
 * set their own square threshold). Above CRISP_KARATSUBA_MAX the schoolbook runs, so
 * the scratch space stays a fixed stack array. */
#ifndef CRISP_KARATSUBA_MUL_MIN
#define CRISP_KARATSUBA_MUL_MIN 32
#endif
#ifndef CRISP_KARATSUBA_SQR_MIN
#define CRISP_KARATSUBA_SQR_MIN 48
#endif
#define CRISP_KARATSUBA_MAX 256
/* Squares from this many limbs (multiples of 8) run the register-window
 * triangle where the flavour has one. */
#ifndef CRISP_SQR_WINDOW_MIN
#define CRISP_SQR_WINDOW_MIN 24
#endif
/* Squares below the threshold run the schoolbook. */
#define CRISP_SQR_SCHOOLBOOK(n) ((n) < CRISP_KARATSUBA_SQR_MIN)
/* The scratch the Karatsuba calls under crisp_bn_mul_equal(n) write for
 * operands up to n limbs (crisp_karatsuba_scratch_used, below, counts
 * it exactly for one n): each level's (crisp_karatsuba_level_scratch
 * without the fold, which needs less) down to the threshold where the
 * schoolbook takes over, CRISP_KARATSUBA_MUL_MIN for a product and
 * CRISP_KARATSUBA_SQR_MIN for a square, which recurses into squares only.
 * It grows with n, so a class's frame takes it for the class's largest
 * operand. Every frame that holds a scratch is sized by it; a product's
 * bound covers a square's, whose threshold is not lower. Four levels
 * reach below both thresholds from CRISP_KARATSUBA_MAX. */
#define CRISP_KARATSUBA_HALF(n) (((n) + 1) / 2)
#define CRISP_KARATSUBA_LEVEL(n, min) ((n) < (min) ? 0 : 6 * CRISP_KARATSUBA_HALF(n) + 1)
#define CRISP_KARATSUBA_LEVELS(n, min)                                                   \
  (CRISP_KARATSUBA_LEVEL(n, min) + CRISP_KARATSUBA_LEVEL(CRISP_KARATSUBA_HALF(n), min) + \
   CRISP_KARATSUBA_LEVEL(CRISP_KARATSUBA_HALF(CRISP_KARATSUBA_HALF(n)), min) +           \
   CRISP_KARATSUBA_LEVEL(CRISP_KARATSUBA_HALF(CRISP_KARATSUBA_HALF(CRISP_KARATSUBA_HALF(n))), min))
#define CRISP_KARATSUBA_MUL_SCRATCH(n) CRISP_KARATSUBA_LEVELS(n, CRISP_KARATSUBA_MUL_MIN)
#define CRISP_KARATSUBA_SQR_SCRATCH(n) CRISP_KARATSUBA_LEVELS(n, CRISP_KARATSUBA_SQR_MIN)
_Static_assert(CRISP_KARATSUBA_HALF(CRISP_KARATSUBA_HALF(CRISP_KARATSUBA_HALF(
                   CRISP_KARATSUBA_HALF(CRISP_KARATSUBA_MAX)))) < CRISP_KARATSUBA_MUL_MIN &&
                   CRISP_KARATSUBA_MUL_MIN <= CRISP_KARATSUBA_SQR_MIN,
               "CRISP_KARATSUBA_LEVELS counts four levels");

/* The schoolbook product: the flavour's register-window product
 * (CRISP_ROW_MUL_WINDOW, lengths that are multiples of 8) where it applies,
 * else its looped rows. The choice depends on the lengths alone. */
static inline void crisp_bn_mul_schoolbook(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y,
                                           size_t yn) {
#ifdef CRISP_ROW_MUL_WINDOW
  if (xn % 8 == 0 && yn % 8 == 0 && xn && yn) {
    CRISP_ROW_MUL_WINDOW(z, x, xn, y, yn);
    return;
  }
#endif
  CRISP_ROW_MUL_BASECASE(z, x, xn, y, yn);
}

/* z[0..2n) = 2 z + sum x[i]^2 B^2i with one carry chain, for the MULQ
 * flavour (the ADX rows have their own). */
static inline void crisp_row_sqr_diagonal_c(crisp_limb *z, const crisp_limb *x, size_t n) {
  crisp_limb shifted_out = 0;
  unsigned char carry = 0;
  unsigned long long s; /* a sum of the secret square: wiped after, wherever it was kept */
  for (size_t i = 0; i < n; i++) {
    crisp_dlimb square = (crisp_dlimb)x[i] * x[i];
    crisp_limb low = z[2 * i], high = z[2 * i + 1];
    crisp_limb doubled_low = low << 1 | shifted_out, doubled_high = high << 1 | low >> 63;
    shifted_out = high >> 63;
    carry = _addcarry_u64(carry, doubled_low, (crisp_limb)square, &s);
    z[2 * i] = s;
    carry = _addcarry_u64(carry, doubled_high, (crisp_limb)(square >> 64), &s);
    z[2 * i + 1] = s;
  }
  crisp_wipe(&s, sizeof s);
}
#ifndef CRISP_ROW_SQR_DIAGONAL
#define CRISP_ROW_SQR_DIAGONAL crisp_row_sqr_diagonal_c
#endif

/* Cross products x[i] * x[j], i < j, each once, then all of them doubled
 * and the squares x[i]^2 added on the diagonal. */
static inline void crisp_bn_sqr_basecase(crisp_limb *z, const crisp_limb *x, size_t n) {
#ifdef CRISP_ROW_SQR8
  if (n == 8) { /* the triangle and the diagonal in one call */
    CRISP_ROW_SQR8(z, x);
    return;
  }
#endif
  z[0] = 0;
  z[2 * n - 1] = 0;
#ifdef CRISP_ROW_SQR_TRIANGLE16
  /* a fully unrolled triangle kept in registers */
  if (n == 16) {
    CRISP_ROW_SQR_TRIANGLE16(z, x);
    CRISP_ROW_SQR_DIAGONAL(z, x, n);
    return;
  }
#endif
#ifdef CRISP_ROW_SQR_TRIANGLE_WINDOW
  /* other multiples of 8: the triangle with its columns in registers */
  if (n % 8 == 0 && n >= CRISP_SQR_WINDOW_MIN) {
    CRISP_ROW_SQR_TRIANGLE_WINDOW(z, x, n);
    CRISP_ROW_SQR_DIAGONAL(z, x, n);
    return;
  }
#endif
  if (n > 1) {
    z[n] = CRISP_ROW_MUL(z + 1, x + 1, n - 1, x[0], 0);
    CRISP_ROW_SQR_TRIANGLE(z, x, n);
  }
  CRISP_ROW_SQR_DIAGONAL(z, x, n);
}

/* d[0..n) ^= mask, two limbs per SSE2 store (baseline x86-64), so the
 * pass costs half the read-modify-write limbs it would. */
static inline void crisp_bn_xor_mask(crisp_limb *d, size_t n, crisp_limb mask) {
  const __m128i m = _mm_set1_epi64x((long long)mask);
  size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    __m128i *p = (__m128i *)(void *)(d + i);
    _mm_storeu_si128(p, _mm_xor_si128(_mm_loadu_si128(p), m));
  }
  if (i < n) d[i] ^= mask;
}

/* d[0..hn) = |a[0..hn) - b[0..ln)| (ln <= hn); returns 1 when a < b. The
 * negation is a masked complement plus the borrow: no branch on values. */
static inline crisp_limb crisp_bn_abs_diff(crisp_limb *d, const crisp_limb *a, size_t hn, const crisp_limb *b,
                                           size_t ln) {
  unsigned char borrow = crisp_bn_sub_n_x86_64(d, a, b, ln, 0);
#ifdef CRISP_ROW_NEGATE_IF
  if (ln == hn) {
    CRISP_ROW_NEGATE_IF(d, hn, borrow);
    return borrow;
  }
#endif
  for (size_t i = ln; i < hn; i++) {
    unsigned long long s;
    borrow = _subborrow_u64(borrow, a[i], 0, &s);
    d[i] = s;
  }
  const crisp_limb mask = crisp_value_barrier((crisp_limb)0 - borrow);
  crisp_bn_xor_mask(d, hn, mask);
  crisp_bn_add_carry_x86_64(d, hn, (unsigned char)borrow);
  return borrow;
}

static void crisp_bn_karatsuba(crisp_limb *z, const crisp_limb *x, const crisp_limb *y, size_t n,
                               crisp_limb *scratch, int square);

/* z[0..2n) = x * y (or x^2 when square), Karatsuba from the threshold up. */
static inline void crisp_bn_mul_equal(crisp_limb *z, const crisp_limb *x, const crisp_limb *y, size_t n,
                                      crisp_limb *scratch, int square) {
  if (square ? CRISP_SQR_SCHOOLBOOK(n) : n < CRISP_KARATSUBA_MUL_MIN) {
    if (square)
      crisp_bn_sqr_basecase(z, x, n);
    else
      crisp_bn_mul_schoolbook(z, x, n, y, n);
  } else {
    crisp_bn_karatsuba(z, x, y, n, scratch, square);
  }
}

/* Whether a Karatsuba level of n limbs combines its products in place
 * (CRISP_ROW_KARATSUBA_FOLD: equal halves, a multiple of 8 limbs each),
 * so that it needs no middle term in its scratch: for halves a multiple
 * of 32 limbs. Below 32-limb halves the fold's fixed cost (its frame, the
 * carries' tail) outweighs the passes it saves, and at 48-limb halves
 * whole products showed no gain (docs/performance.md), so those levels
 * keep the three-way addition. */
static inline int crisp_karatsuba_folds(size_t n) {
#ifdef CRISP_ROW_KARATSUBA_FOLD
  return n % 64 == 0;
#else
  (void)n;
  return 0;
#endif
}

/* The scratch one Karatsuba level of n limbs keeps for itself: the two
 * differences and their product (4 ceil(n/2) limbs), and the middle term
 * (2 ceil(n/2) + 1) unless it folds in place. */
static inline size_t crisp_karatsuba_level_scratch(size_t n) {
  const size_t high = n - n / 2;
  return crisp_karatsuba_folds(n) ? 4 * high : 6 * high + 1;
}

/* How much of the scratch crisp_bn_mul_equal(n, square) writes, which a
 * wipe after it must cover and need not pass: the level's own scratch,
 * then the most either half's products write after it. */
static inline size_t crisp_karatsuba_scratch_used(size_t n, int square) {
  if (square ? CRISP_SQR_SCHOOLBOOK(n) : n < CRISP_KARATSUBA_MUL_MIN) return 0;
  const size_t low = n / 2, high = n - low;
  const size_t deeper_low = crisp_karatsuba_scratch_used(low, square);
  const size_t deeper_high = crisp_karatsuba_scratch_used(high, square);
  return crisp_karatsuba_level_scratch(n) + (deeper_low > deeper_high ? deeper_low : deeper_high);
}

/* x = x1 B^h + x0: x0 y1 + x1 y0 = x0 y0 + x1 y1 - (x1 - x0)(y1 - y0).
 * The signs of the two differences are masks; the middle term is then
 * x0 y0 + x1 y1 + (|dx||dy| xor M) + (M & 1) with M all ones exactly when the
 * product of differences is positive (subtract) and zero when negative. */
static void crisp_bn_karatsuba(crisp_limb *z, const crisp_limb *x, const crisp_limb *y, size_t n,
                               crisp_limb *scratch, int square) {
  const size_t low = n / 2, high = n - low;
  crisp_limb *dx = scratch, *dy = dx + high, *product = dy + high, *middle = product + 2 * high;
  crisp_limb *deeper = scratch + crisp_karatsuba_level_scratch(n);

  /* a square's difference product is never negative */
  crisp_limb negative = crisp_bn_abs_diff(dx, x + low, high, x, low);
  negative = square ? 0 : negative ^ crisp_bn_abs_diff(dy, y + low, high, y, low);

  crisp_bn_mul_equal(z, x, y, low, deeper, square);
  crisp_bn_mul_equal(z + 2 * low, x + low, y + low, high, deeper, square);
  crisp_bn_mul_equal(product, dx, square ? dx : dy, high, deeper, square);

  const crisp_limb subtract = crisp_value_barrier((crisp_limb)0 - (negative ^ 1));
#ifdef CRISP_ROW_KARATSUBA_FOLD
  if (crisp_karatsuba_folds(n)) { /* z0 + z2 +- product straight into z + low */
    if (square)
      CRISP_ROW_KARATSUBA_FOLD_SQUARE(z, product, high);
    else
      CRISP_ROW_KARATSUBA_FOLD(z, product, high, subtract);
    return;
  }
#endif
  unsigned char carry;
#if defined(CRISP_ROW_ADD3) && defined(CRISP_ROW_ADD2_NOT)
  if (low == high) { /* middle = z0 + z2 +- product in one pass, 2*high + 1 limbs */
    if (square)      /* a square always subtracts: the complement in the pass */
      middle[2 * high] = CRISP_ROW_ADD2_NOT(middle, z, z + 2 * low, product, 2 * high, 1) + subtract;
    else
      middle[2 * high] = CRISP_ROW_ADD3(middle, z, z + 2 * low, product, 2 * high, subtract) + subtract;
  } else
#endif
  {
    crisp_bn_xor_mask(product, 2 * high, subtract);
    /* middle = z0 + z2, 2*high + 1 limbs, then +- product */
    carry = crisp_bn_add_n_x86_64(middle, z + 2 * low, z, 2 * low, 0);
    for (size_t i = 2 * low; i < 2 * high; i++) {
      unsigned long long s;
      carry = _addcarry_u64(carry, z[2 * low + i], 0, &s);
      middle[i] = s;
    }
    middle[2 * high] = carry;
    carry = crisp_bn_add_n_x86_64(middle, middle, product, 2 * high, (unsigned char)(subtract & 1));
    middle[2 * high] += subtract + carry;
  }

  carry = crisp_bn_add_n_x86_64(z + low, z + low, middle, 2 * high + 1, 0);
  crisp_bn_add_carry_x86_64(z + low + 2 * high + 1, 2 * n - (low + 2 * high + 1), carry);
}

/* z[0..xn+yn) = x * y for xn >= yn >= CRISP_KARATSUBA_MUL_MIN: equal-size
 * Karatsuba blocks of the longer operand, then a schoolbook rest; scratch
 * and block come from the caller's frame, sized for yn. The operands may be
 * secrets (a caller's RSA): the scratch and the block are wiped; the
 * recursion's frames are left to the public call's scrub. */
static inline void crisp_bn_mul_blocks(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y,
                                       size_t yn, crisp_limb *scratch, crisp_limb *block) {
  crisp_bn_mul_equal(z, x, y, yn, scratch, 0);
  size_t done = yn;
  for (; done + yn <= xn; done += yn) {
    for (size_t i = done + yn; i < done + 2 * yn && i < xn + yn; i++) z[i] = 0;
    crisp_bn_mul_equal(block, x + done, y, yn, scratch, 0);
    unsigned char carry = crisp_bn_add_n_x86_64(z + done, z + done, block, 2 * yn, 0);
    (void)carry; /* the partial sum x[0..done+yn) * y fits in done + 2 yn limbs */
  }
  if (done < xn) {
    const size_t rest = xn - done;
    crisp_bn_mul_schoolbook(block, x + done, rest, y, yn);
    unsigned char carry = crisp_bn_add_n_x86_64(z + done, z + done, block, yn, 0);
    unsigned long long s; /* a sum of the secret product: wiped after, wherever it was kept */
    for (size_t i = yn; i < rest + yn; i++) {
      carry = _addcarry_u64(carry, block[i], 0, &s);
      z[done + i] = s;
    }
    crisp_wipe(&s, sizeof s);
  }
  crisp_wipe(scratch, crisp_karatsuba_scratch_used(yn, 0) * sizeof *scratch);
  if (xn > yn) crisp_wipe(block, 2 * yn * sizeof *block); /* equal lengths never write the block */
}

/* z = x^2 for CRISP_SQR_SCHOOLBOOK(n) false, the scratch from the caller. */
static inline void crisp_bn_sqr_karatsuba(crisp_limb *z, const crisp_limb *x, size_t n, crisp_limb *scratch) {
  crisp_bn_karatsuba(z, x, x, n, scratch, 1);
  crisp_wipe(scratch, crisp_karatsuba_scratch_used(n, 1) * sizeof *scratch);
}

/* One frame per size class of the Karatsuba operand, so that a product
 * takes the stack its size needs rather than the largest size's: the
 * least class holds 2048- and 3072-bit operands, whose one level of
 * recursion needs less than half the 64-limb frame. Each class cleans up
 * after itself, so the public call needs no scrub (clean_below): its
 * scratch is wiped by name, and the frames below its own (the recursion's
 * spills, the assembly's saved registers) are scrubbed before it returns,
 * to the class's public depth less the arrays its own frame holds
 * (src/scrub_depths.h), which reaches at least as deep as a scrub of the
 * class's depth from the public call would, while the scratch, already
 * wiped, is not written twice. The barrier keeps the scrub a call rather
 * than a tail call, whose area would start above this frame. */
#define CRISP_KARATSUBA_CLEAN_BELOW(class_bytes, frame)                                  \
  do {                                                                                   \
    _Static_assert((class_bytes) > sizeof(frame), "the class's depth covers its frame"); \
    crisp_scrub_below((class_bytes) - sizeof(frame));                                    \
    __asm__ __volatile__("" ::: "memory");                                               \
  } while (0)
#define CRISP_KARATSUBA_LEAST 48
#define CRISP_KARATSUBA_SMALL 64
#define CRISP_KARATSUBA_MEDIUM 128

static __attribute__((noinline, unused)) void crisp_bn_mul_least(crisp_limb *z, const crisp_limb *x,
                                                                 size_t xn, const crisp_limb *y, size_t yn) {
  struct {
    crisp_limb scratch[CRISP_KARATSUBA_MUL_SCRATCH(CRISP_KARATSUBA_LEAST)], block[2 * CRISP_KARATSUBA_LEAST];
  } frame;
  crisp_bn_mul_blocks(z, x, xn, y, yn, frame.scratch, frame.block);
  CRISP_KARATSUBA_CLEAN_BELOW(CRISP_SCRUB_BN_MUL_LEAST_BYTES, frame);
}

static __attribute__((noinline, unused)) void crisp_bn_mul_small(crisp_limb *z, const crisp_limb *x,
                                                                 size_t xn, const crisp_limb *y, size_t yn) {
  struct {
    crisp_limb scratch[CRISP_KARATSUBA_MUL_SCRATCH(CRISP_KARATSUBA_SMALL)], block[2 * CRISP_KARATSUBA_SMALL];
  } frame;
  crisp_bn_mul_blocks(z, x, xn, y, yn, frame.scratch, frame.block);
  CRISP_KARATSUBA_CLEAN_BELOW(CRISP_SCRUB_BN_MUL_SMALL_BYTES, frame);
}

static __attribute__((noinline, unused)) void crisp_bn_mul_medium(crisp_limb *z, const crisp_limb *x,
                                                                  size_t xn, const crisp_limb *y, size_t yn) {
  struct {
    crisp_limb scratch[CRISP_KARATSUBA_MUL_SCRATCH(CRISP_KARATSUBA_MEDIUM)],
        block[2 * CRISP_KARATSUBA_MEDIUM];
  } frame;
  crisp_bn_mul_blocks(z, x, xn, y, yn, frame.scratch, frame.block);
  CRISP_KARATSUBA_CLEAN_BELOW(CRISP_SCRUB_BN_MUL_MEDIUM_BYTES, frame);
}

static __attribute__((noinline, unused)) void crisp_bn_mul_large(crisp_limb *z, const crisp_limb *x,
                                                                 size_t xn, const crisp_limb *y, size_t yn) {
  struct {
    crisp_limb scratch[CRISP_KARATSUBA_MUL_SCRATCH(CRISP_KARATSUBA_MAX)], block[2 * CRISP_KARATSUBA_MAX];
  } frame;
  crisp_bn_mul_blocks(z, x, xn, y, yn, frame.scratch, frame.block);
  CRISP_KARATSUBA_CLEAN_BELOW(CRISP_SCRUB_BN_MUL_LARGE_BYTES, frame);
}

/* z[0..xn+yn) = x * y for any sizes: Karatsuba blocks when the shorter
 * operand is large enough, else schoolbook. */
static inline void crisp_bn_mul_any(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y,
                                    size_t yn) {
  if (xn < yn) {
    const crisp_limb *t = x;
    x = y, y = t;
    size_t tn = xn;
    xn = yn, yn = tn;
  }
  if (yn < CRISP_KARATSUBA_MUL_MIN || yn > CRISP_KARATSUBA_MAX)
    crisp_bn_mul_schoolbook(z, x, xn, y, yn);
  else if (yn <= CRISP_KARATSUBA_LEAST)
    crisp_bn_mul_least(z, x, xn, y, yn);
  else if (yn <= CRISP_KARATSUBA_SMALL)
    crisp_bn_mul_small(z, x, xn, y, yn);
  else if (yn <= CRISP_KARATSUBA_MEDIUM)
    crisp_bn_mul_medium(z, x, xn, y, yn);
  else
    crisp_bn_mul_large(z, x, xn, y, yn);
}

static __attribute__((noinline, unused)) void crisp_bn_sqr_least(crisp_limb *z, const crisp_limb *x,
                                                                 size_t n) {
  crisp_limb scratch[CRISP_KARATSUBA_SQR_SCRATCH(CRISP_KARATSUBA_LEAST)];
  crisp_bn_sqr_karatsuba(z, x, n, scratch);
  CRISP_KARATSUBA_CLEAN_BELOW(CRISP_SCRUB_BN_SQR_LEAST_BYTES, scratch);
}

static __attribute__((noinline, unused)) void crisp_bn_sqr_small(crisp_limb *z, const crisp_limb *x,
                                                                 size_t n) {
  crisp_limb scratch[CRISP_KARATSUBA_SQR_SCRATCH(CRISP_KARATSUBA_SMALL)];
  crisp_bn_sqr_karatsuba(z, x, n, scratch);
  CRISP_KARATSUBA_CLEAN_BELOW(CRISP_SCRUB_BN_SQR_SMALL_BYTES, scratch);
}

static __attribute__((noinline, unused)) void crisp_bn_sqr_medium(crisp_limb *z, const crisp_limb *x,
                                                                  size_t n) {
  crisp_limb scratch[CRISP_KARATSUBA_SQR_SCRATCH(CRISP_KARATSUBA_MEDIUM)];
  crisp_bn_sqr_karatsuba(z, x, n, scratch);
  CRISP_KARATSUBA_CLEAN_BELOW(CRISP_SCRUB_BN_SQR_MEDIUM_BYTES, scratch);
}

static __attribute__((noinline, unused)) void crisp_bn_sqr_large(crisp_limb *z, const crisp_limb *x,
                                                                 size_t n) {
  crisp_limb scratch[CRISP_KARATSUBA_SQR_SCRATCH(CRISP_KARATSUBA_MAX)];
  crisp_bn_sqr_karatsuba(z, x, n, scratch);
  CRISP_KARATSUBA_CLEAN_BELOW(CRISP_SCRUB_BN_SQR_LARGE_BYTES, scratch);
}

static inline void crisp_bn_sqr_any(crisp_limb *z, const crisp_limb *x, size_t n) {
  if (CRISP_SQR_SCHOOLBOOK(n) || n > CRISP_KARATSUBA_MAX)
    crisp_bn_sqr_basecase(z, x, n);
  else if (n <= CRISP_KARATSUBA_LEAST)
    crisp_bn_sqr_least(z, x, n);
  else if (n <= CRISP_KARATSUBA_SMALL)
    crisp_bn_sqr_small(z, x, n);
  else if (n <= CRISP_KARATSUBA_MEDIUM)
    crisp_bn_sqr_medium(z, x, n);
  else
    crisp_bn_sqr_large(z, x, n);
}

/* Montgomery reduction of t[0..2n) (t < m R): r = t R^-1 mod m, fully
 * reduced. Row i clears limb i; its carry is parked in that cleared limb
 * and all carries are added in one pass at the end, since no later
 * quotient digit reads limbs n and above. The final subtraction is chosen by
 * mask. t is overwritten. */
static inline void crisp_bn_redc(crisp_limb *r, crisp_limb *t, const crisp_limb *m, size_t n,
                                 crisp_limb minv) {
  CRISP_ROW_REDC(t, m, n, minv);
  crisp_limb top = crisp_bn_add_n_x86_64(t + n, t + n, t, n, 0);
  crisp_limb borrow = crisp_bn_sub_n_x86_64(t, t + n, m, n, 0);
  /* keep the difference when top:t[n..2n) >= m, i.e. a carry out or no borrow */
  const crisp_limb keep_difference = crisp_value_barrier((crisp_limb)0 - (top | (borrow ^ 1)));
  for (size_t i = 0; i < n; i++) r[i] = (t[i] & keep_difference) | (t[n + i] & ~keep_difference);
}

#endif
