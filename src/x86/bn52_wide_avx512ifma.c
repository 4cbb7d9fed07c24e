/* src/x86/bn52_wide_avx512ifma.c - z = x * y and z = x^2 on 64-bit limbs
 * through radix 2^52 with AVX-512 IFMA: the operands are cut into 52-bit
 * digits, every column of the product is summed in a 64-bit lane by
 * vpmadd52luq / vpmadd52huq (schoolbook, no recursion), and the columns are
 * carried and packed back into 64-bit limbs.
 * Why schoolbook in vectors beats Karatsuba in scalar here: a MULX row
 * does one 64x64-bit product per cycle at best, bound by its two carry
 * chains; two IFMAs a cycle do sixteen 52x52-bit half products with no
 * carries at all, since a lane holds 2^12 of them before it could
 * overflow. That is about four times the multiplier work per cycle,
 * which pays for the 1.5 times as many digit products as limb products
 * and for the conversions at the sizes it takes (bn_wide_sizes.h).
 * The columns, eight positions to a vector: output vector c sums rows x
 * (digit a[x] broadcast) times b[8c - x ..], an unaligned load. Four output
 * vectors c0..c0+3 share each load: the load at 8c0 - x is row x of
 * vector c0 and row x + 8g of vector c0 + g, so one load feeds eight IFMAs
 * (low and high half for four vectors), eight independent sums, enough to
 * cover the IFMA latency at two a cycle. High halves belong one position
 * up: each vector's are added into the next one's lanes by a lane shift.
 * A square sums each cross product once (rows x below the output
 * positions' half), doubles, and adds the diagonal a_x^2.
 * Every loop bound and mask depends on the lengths only; the buffers are
 * zero-padded so that rows and lanes outside the operands read zeros. */
#include <immintrin.h>
#include <string.h>

#include "util.h"
#include "x86/bn52_avx512ifma.h"
#include "x86/bn52_pack_avx512ifma.h"

#define LANES 8
#define GROUP 4 /* output vectors sharing one load */
/* Zero digits around an operand's digits: before, for loads that start up
 * to 7 digits below the first; after, for loads up to 15 digits past the
 * last and broadcasts up to 8 (GROUP - 1) + 7 past it. */
#define PAD_BEFORE LANES
#define PAD_AFTER (LANES * GROUP)

/* Digits of an operand of n limbs, and the buffer sizes for operands of up
 * to `limbs` limbs: the digits with their padding, and the columns (both
 * operands' digits, rounded up to whole groups of vectors, and 16 digits of
 * padding for the packing's window). */
#define WIDE_DIGITS(n) ((64 * (n) + CRISP_BN52_BITS - 1) / CRISP_BN52_BITS)
#define WIDE_OPERAND_WORDS(limbs) (PAD_BEFORE + (WIDE_DIGITS(limbs) + LANES - 1) / LANES * LANES + PAD_AFTER)
#define WIDE_COLUMN_WORDS(limbs) \
  ((2 * WIDE_DIGITS(limbs) + LANES * GROUP - 1) / (LANES * GROUP) * LANES * GROUP + 2 * LANES)

/* out[0..d) = the 52-bit digits of x[0..n), d = WIDE_DIGITS(n), rounded up
 * to whole vectors with zero digits: eight at a time from the 16 limbs
 * where they start, read with a lane mask (limbs past n are not read). */
static inline __attribute__((always_inline)) void to_digits(uint64_t *out, const crisp_limb *x, size_t n) {
  const size_t d = WIDE_DIGITS(n);
  for (size_t g = 0; g < d; g += LANES) {
    const size_t start = CRISP_BN52_BITS * g, base = start / 64;
    const size_t left = n - base; /* limbs from base on; base < n since digit g exists */
    const __mmask8 first_lanes = (__mmask8)(left >= 8 ? 0xff : (1u << left) - 1);
    const __mmask8 second_lanes = (__mmask8)(left >= 16 ? 0xff : left > 8 ? (1u << (left - 8)) - 1 : 0);
    const __m512i digits =
        crisp_bn52_digits_at(_mm512_maskz_loadu_epi64(first_lanes, x + base),
                             _mm512_maskz_loadu_epi64(second_lanes, x + base + 8), (unsigned)(start % 64));
    _mm512_store_si512((__m512i *)(out + g), digits);
  }
}

/* An empty asm that makes the compiler keep a loaded vector in a register
 * for the IFMAs that share it, rather than fold the load into each. Not
 * under MemorySanitizer (the ct-msan build), which checks an asm's inputs
 * and would report the secret digits; that build is not run for speed. */
#if defined(CRISP_BN52_MEMORY_SANITIZER)
#define KEEP_IN_REGISTER(v) ((void)0)
#else
#define KEEP_IN_REGISTER(v) __asm__("" : "+v"(v))
#endif

#define MADD(low, high, b, y) \
  (low = _mm512_madd52lo_epu64(low, b, y), high = _mm512_madd52hi_epu64(high, b, y))

/* Output vector c = its low halves plus the high halves one position down:
 * the previous vector's last lane, then this one's lanes 0-6. */
static inline __attribute__((always_inline)) __m512i join_halves(__m512i low, __m512i high,
                                                                 __m512i *high_before) {
  const __m512i column = _mm512_add_epi64(low, _mm512_alignr_epi64(high, *high_before, 7));
  *high_before = high;
  return column;
}

/* One row for one output vector: digit a[x] times b[8c - x ..]. */
static inline __attribute__((always_inline)) void one_row(__m512i *low, __m512i *high, const uint64_t *a,
                                                          const uint64_t *b, long c, long x) {
  const __m512i y = _mm512_loadu_si512(b + LANES * c - x);
  const __m512i digit = _mm512_set1_epi64((long long)a[x]);
  MADD(*low, *high, digit, y);
}

/* The rows four output vectors c0 .. c0 + 3 share, x from first to end:
 * one load of b at 8c0 - x is row x of vector c0 and row x + 8g of vector
 * c0 + g. */
static inline __attribute__((always_inline)) void shared_rows(__m512i low[GROUP], __m512i high[GROUP],
                                                              const uint64_t *a, const uint64_t *b, long c0,
                                                              long first, long end) {
  for (long x = first; x < end; x++) {
    __m512i y = _mm512_loadu_si512(b + LANES * c0 - x);
    KEEP_IN_REGISTER(y);
    CRISP_BN52_UNROLL(4)
    for (int g = 0; g < GROUP; g++) {
      const __m512i digit = _mm512_set1_epi64((long long)a[x + LANES * g]);
      MADD(low[g], high[g], digit, y);
    }
  }
}

/* The rest of a product's output vector c (its g-th in the group), after
 * the shared rows: the rows below them (x + 8g < 8g), from the first that
 * reaches b; then the high halves joined. */
static inline __attribute__((always_inline)) __m512i product_column_rest(__m512i low, __m512i high,
                                                                         __m512i *high_before,
                                                                         const uint64_t *a, long da,
                                                                         const uint64_t *b, long c, long g,
                                                                         long first) {
  const long end = LANES * g < da ? LANES * g : da;
  for (long x = first; x < end; x++) one_row(&low, &high, a, b, c, x);
  return join_halves(low, high, high_before);
}

/* The rest of a square's output vector c (its g-th in the group): rows x
 * < 4c are whole, and those the shared ones (shared_first .. shared_end
 * for the group's first vector) leave below and above run here; rows 4c
 * .. 4c + 3 count only in lanes p > 2(x - 4c), where the other factor's
 * index 8c + p - x exceeds x; then the cross products are doubled and the
 * diagonal a_x^2 for x in 4c .. 4c + 3 added, at positions 2x (low half)
 * and 2x + 1 (high half). */
static inline __attribute__((always_inline)) __m512i square_column_rest(__m512i low, __m512i high,
                                                                        __m512i *high_before,
                                                                        const uint64_t *a, long d, long c,
                                                                        long g, long first, long shared_first,
                                                                        long shared_end) {
  const __m512i zero = _mm512_setzero_si512();
  const long whole_end = 4 * c < d ? 4 * c : d;
  const long below_end = shared_end > shared_first ? LANES * g + shared_first : whole_end;
  const long above_first = shared_end > shared_first ? LANES * g + shared_end : whole_end;
  for (long x = first; x < whole_end && x < below_end; x++) one_row(&low, &high, a, a, c, x);
  for (long x = above_first > first ? above_first : first; x < whole_end; x++)
    one_row(&low, &high, a, a, c, x);
  CRISP_BN52_UNROLL(4)
  for (int r = 0; r < 4; r++) {
    const long x = 4 * c + r;
    if (x >= d) break;
    const __m512i y = _mm512_maskz_loadu_epi64((__mmask8)(0xff << (2 * r + 1)), a + LANES * c - x);
    const __m512i digit = _mm512_set1_epi64((long long)a[x]);
    MADD(low, high, digit, y);
  }
  const __m512i cross = join_halves(low, high, high_before);
  const __m512i diagonal_digits = _mm512_load_si512((const __m512i *)(a + LANES * (c / 2)));
  const __m512i square_low = _mm512_madd52lo_epu64(zero, diagonal_digits, diagonal_digits);
  const __m512i square_high = _mm512_madd52hi_epu64(zero, diagonal_digits, diagonal_digits);
  const __m512i pick =
      c % 2 ? _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4) : _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
  const __m512i diagonal = _mm512_permutex2var_epi64(square_low, pick, square_high);
  return _mm512_add_epi64(_mm512_add_epi64(cross, cross), diagonal);
}

/* columns[0 .. 8 vectors) = the column sums of a[0..da) * b[0..db), or of
 * a^2 when square (b = a, db = da); digit buffers with their padding,
 * vectors a multiple of GROUP. Per group of four output vectors, the rows
 * they share: those whose load lies inside b's digits or padding, up to
 * the product's last row or, for a square, the last row whole in all
 * four (x + 8g < 4(c0 + g) for g <= 3). */
static inline __attribute__((always_inline)) void all_columns(uint64_t *columns, const uint64_t *a, long da,
                                                              const uint64_t *b, long db, long vectors,
                                                              const int square) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i high_before = zero;
  for (long c0 = 0; c0 < vectors; c0 += GROUP) {
    __m512i low[GROUP], high[GROUP];
    CRISP_BN52_UNROLL(4)
    for (int g = 0; g < GROUP; g++) low[g] = high[g] = zero;
    const long shared_first = LANES * c0 - db - 7 > 0 ? LANES * c0 - db - 7 : 0;
    const long shared_end = square ? (4 * c0 - 12 > shared_first ? 4 * c0 - 12 : shared_first)
                                   : (da < LANES * c0 + LANES ? da : LANES * c0 + LANES);
    shared_rows(low, high, a, b, c0, shared_first, shared_end);
    CRISP_BN52_UNROLL(4)
    for (int g = 0; g < GROUP; g++) {
      const long c = c0 + g, first = LANES * c - db - 7 > 0 ? LANES * c - db - 7 : 0;
      const __m512i column = square
                                 ? square_column_rest(low[g], high[g], &high_before, a, da, c, g, first,
                                                      shared_first, shared_end)
                                 : product_column_rest(low[g], high[g], &high_before, a, da, b, c, g, first);
      _mm512_store_si512((__m512i *)(columns + LANES * c), column);
    }
  }
}

/* z[0..zn) = sum columns[j] 2^(52j), j < 8 vectors (the value fits in zn
 * limbs). First every column keeps its low 52 bits plus the bits above 52
 * of the column below (below 2^52 + 2^12); that leaves a carry of 0 or 1
 * per digit, which can ripple through digits that are all ones: the
 * ripple is found for all digits at once by the carry-lookahead identity
 * carries = ((generate << 1) + propagate) ^ propagate on bit masks (bit j:
 * digit j carries out, digit j is all ones), added word by word. Then
 * 64-bit limbs are packed from three neighbouring digits each. The digits
 * overwrite the columns. */
static inline __attribute__((always_inline)) void columns_to_limbs(crisp_limb *z, size_t zn,
                                                                   uint64_t *columns, long vectors,
                                                                   uint64_t *generate, uint64_t *propagate) {
  const __m512i digit_mask = _mm512_set1_epi64((long long)CRISP_BN52_MASK), one = _mm512_set1_epi64(1);
  const long words = (vectors + LANES - 1) / LANES;
  memset(generate, 0, (size_t)words * sizeof *generate);
  memset(propagate, 0, (size_t)words * sizeof *propagate);
  __m512i below = _mm512_setzero_si512();
  for (long v = 0; v < vectors; v++) {
    const __m512i column = _mm512_load_si512((const __m512i *)(columns + LANES * v));
    const __m512i spill = _mm512_srli_epi64(column, CRISP_BN52_BITS);
    const __m512i digit =
        _mm512_add_epi64(_mm512_and_si512(column, digit_mask), _mm512_alignr_epi64(spill, below, 7));
    below = spill;
    const __m512i low = _mm512_and_si512(digit, digit_mask);
    ((uint8_t *)generate)[v] =
        (uint8_t)_mm512_test_epi64_mask(digit, _mm512_set1_epi64((long long)1 << CRISP_BN52_BITS));
    ((uint8_t *)propagate)[v] = (uint8_t)_mm512_cmpeq_epi64_mask(low, digit_mask);
    _mm512_store_si512((__m512i *)(columns + LANES * v), low);
  }
  /* generate becomes the carries into each digit; the sum in 128 bits
   * rather than _addcarry_u64, which MemorySanitizer checks strictly */
  uint64_t add_carry = 0, shifted_out = 0;
  for (long w = 0; w < words; w++) {
    const uint64_t shifted = generate[w] << 1 | shifted_out;
    shifted_out = generate[w] >> 63;
    const unsigned __int128 sum = (unsigned __int128)shifted + propagate[w] + add_carry;
    add_carry = (uint64_t)(sum >> 64);
    generate[w] = (uint64_t)sum ^ propagate[w];
  }
  for (long v = 0; v < vectors; v++) {
    const __m512i digit = _mm512_load_si512((const __m512i *)(columns + LANES * v));
    const __m512i carried = _mm512_mask_add_epi64(digit, (__mmask8)((uint8_t *)generate)[v], digit, one);
    _mm512_store_si512((__m512i *)(columns + LANES * v), _mm512_and_si512(carried, digit_mask));
  }
  for (size_t i = 0; i < zn; i += LANES) {
    const __m512i limbs = crisp_bn52_limbs_at(columns, i);
    const size_t count = zn - i < LANES ? zn - i : LANES;
    _mm512_mask_storeu_epi64(z + i, (__mmask8)((1u << count) - 1), limbs);
  }
}

/* Output vectors for a product of da + db digits, in whole groups. */
static inline long column_vectors(size_t digits) {
  return (long)((digits + LANES * GROUP - 1) / (LANES * GROUP) * GROUP);
}

/* The class's buffers, which the worker fills. */
struct wide_buffers {
  uint64_t *a, *b, *columns, *generate, *propagate;
};

/* The words of the buffers a product of these digits writes, which the
 * class wipes (the operands' are WIDE_OPERAND_WORDS): the columns with
 * their padding, and the masks, a word per 8 vectors. */
static inline size_t column_words(size_t digits) {
  return LANES * (size_t)column_vectors(digits) + 2 * LANES;
}
static inline size_t mask_words(size_t digits) {
  return ((size_t)column_vectors(digits) + LANES - 1) / LANES;
}

static __attribute__((noinline)) void wide_product(crisp_limb *z, const crisp_limb *x, size_t xn,
                                                   const crisp_limb *y, size_t yn,
                                                   const struct wide_buffers *in) {
  uint64_t *a = in->a, *b = in->b, *columns = in->columns;
  const size_t da = WIDE_DIGITS(xn), db = WIDE_DIGITS(yn);
  const long vectors = column_vectors(da + db);
  memset(a, 0, WIDE_OPERAND_WORDS(xn) * sizeof *a);
  memset(b, 0, WIDE_OPERAND_WORDS(yn) * sizeof *b);
  memset(columns + LANES * vectors, 0, 2 * LANES * sizeof *columns);
  to_digits(a + PAD_BEFORE, x, xn);
  to_digits(b + PAD_BEFORE, y, yn);
  all_columns(columns, a + PAD_BEFORE, (long)da, b + PAD_BEFORE, (long)db, vectors, 0);
  columns_to_limbs(z, xn + yn, columns, vectors, in->generate, in->propagate);
}

static __attribute__((noinline)) void wide_square(crisp_limb *z, const crisp_limb *x, size_t n,
                                                  const struct wide_buffers *in) {
  uint64_t *a = in->a, *columns = in->columns;
  const size_t d = WIDE_DIGITS(n);
  const long vectors = column_vectors(2 * d);
  memset(a, 0, WIDE_OPERAND_WORDS(n) * sizeof *a);
  memset(columns + LANES * vectors, 0, 2 * LANES * sizeof *columns);
  to_digits(a + PAD_BEFORE, x, n);
  all_columns(columns, a + PAD_BEFORE, (long)d, a + PAD_BEFORE, (long)d, vectors, 1);
  columns_to_limbs(z, 2 * n, columns, vectors, in->generate, in->propagate);
}

/* One function per size class, so that a product takes the stack its
 * size needs (the public call's scrub depth is by class,
 * src/scrub_depths.h). Each cleans up after itself: it holds the buffers,
 * wipes them by name, and scrubs WORKER_FRAME bytes below its own frame,
 * past the worker's (saved registers and spills; a margin where the
 * compiler spills nothing secret, docs/hardening.md); the barrier keeps
 * the scrub a call rather than a tail call. */
#define WORKER_FRAME 1024
#define WIDE_CLASS(name, limbs)                                                                         \
  static __attribute__((noinline)) void wide_mul_##name(crisp_limb *z, const crisp_limb *x, size_t xn,  \
                                                        const crisp_limb *y, size_t yn) {               \
    uint64_t a[WIDE_OPERAND_WORDS(limbs)] __attribute__((aligned(64)));                                 \
    uint64_t b[WIDE_OPERAND_WORDS(limbs)] __attribute__((aligned(64)));                                 \
    uint64_t columns[WIDE_COLUMN_WORDS(limbs)] __attribute__((aligned(64)));                            \
    uint64_t generate[WIDE_COLUMN_WORDS(limbs) / 64 + 1], propagate[WIDE_COLUMN_WORDS(limbs) / 64 + 1]; \
    const struct wide_buffers buffers = {a, b, columns, generate, propagate};                           \
    const size_t digits = WIDE_DIGITS(xn) + WIDE_DIGITS(yn);                                            \
    wide_product(z, x, xn, y, yn, &buffers);                                                            \
    crisp_wipe_lines(a, WIDE_OPERAND_WORDS(xn) * sizeof *a);                                            \
    crisp_wipe_lines(b, WIDE_OPERAND_WORDS(yn) * sizeof *b);                                            \
    crisp_wipe_lines(columns, column_words(digits) * sizeof *columns);                                  \
    crisp_wipe(generate, mask_words(digits) * sizeof *generate);                                        \
    crisp_wipe(propagate, mask_words(digits) * sizeof *propagate);                                      \
    crisp_scrub_below(WORKER_FRAME);                                                                    \
    __asm__ __volatile__("" ::: "memory");                                                              \
  }                                                                                                     \
  static __attribute__((noinline)) void wide_sqr_##name(crisp_limb *z, const crisp_limb *x, size_t n) { \
    uint64_t a[WIDE_OPERAND_WORDS(limbs)] __attribute__((aligned(64)));                                 \
    uint64_t columns[WIDE_COLUMN_WORDS(limbs)] __attribute__((aligned(64)));                            \
    uint64_t generate[WIDE_COLUMN_WORDS(limbs) / 64 + 1], propagate[WIDE_COLUMN_WORDS(limbs) / 64 + 1]; \
    const struct wide_buffers buffers = {a, NULL, columns, generate, propagate};                        \
    const size_t digits = 2 * WIDE_DIGITS(n);                                                           \
    wide_square(z, x, n, &buffers);                                                                     \
    crisp_wipe_lines(a, WIDE_OPERAND_WORDS(n) * sizeof *a);                                             \
    crisp_wipe_lines(columns, column_words(digits) * sizeof *columns);                                  \
    crisp_wipe(generate, mask_words(digits) * sizeof *generate);                                        \
    crisp_wipe(propagate, mask_words(digits) * sizeof *propagate);                                      \
    crisp_scrub_below(WORKER_FRAME);                                                                    \
    __asm__ __volatile__("" ::: "memory");                                                              \
  }

WIDE_CLASS(least, CRISP_BN52_WIDE_LEAST)
WIDE_CLASS(small, CRISP_BN52_WIDE_SMALL)
WIDE_CLASS(medium, CRISP_BN52_WIDE_MEDIUM)
WIDE_CLASS(large, CRISP_BN52_WIDE_MAX_LIMBS)

void crisp_bn52_wide_mul(crisp_limb *z, const crisp_limb *x, size_t xn, const crisp_limb *y, size_t yn) {
  switch (crisp_bn52_wide_class_top(xn > yn ? xn : yn)) {
    case CRISP_BN52_WIDE_LEAST:
      wide_mul_least(z, x, xn, y, yn);
      break;
    case CRISP_BN52_WIDE_SMALL:
      wide_mul_small(z, x, xn, y, yn);
      break;
    case CRISP_BN52_WIDE_MEDIUM:
      wide_mul_medium(z, x, xn, y, yn);
      break;
    default:
      wide_mul_large(z, x, xn, y, yn);
  }
}

void crisp_bn52_wide_sqr(crisp_limb *z, const crisp_limb *x, size_t n) {
  switch (crisp_bn52_wide_class_top(n)) {
    case CRISP_BN52_WIDE_LEAST:
      wide_sqr_least(z, x, n);
      break;
    case CRISP_BN52_WIDE_SMALL:
      wide_sqr_small(z, x, n);
      break;
    case CRISP_BN52_WIDE_MEDIUM:
      wide_sqr_medium(z, x, n);
      break;
    default:
      wide_sqr_large(z, x, n);
  }
}
