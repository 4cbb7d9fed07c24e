/* src/x86/bn52_avx512ifma.c - the radix 2^52 pieces every AVX-512 IFMA
 * bignum kernel shares: which sizes have kernels (crisp_bn52_limbs), the
 * almost-Montgomery product of one value (crisp_bn52_amm) and the
 * conversions from radix 2^64 and back (the latter with the final
 * subtraction). Layout of the product: the accumulator is k lanes of 64
 * bits held in registers (as two halves, see amm_body); each step adds the
 * low halves of a * b[i] and m * y, shifts one lane down (the low lane is
 * then a multiple of 2^52, its carry goes to the next lane), and adds the
 * high halves. Lanes are normalised once, at the end. Conversions run
 * eight digits (or limbs) per 512-bit vector with permutes and variable
 * shifts. ISA: AVX-512F/VL/DQ/IFMA, and BMI2 / ADX through the final
 * subtraction's row. */
#include <immintrin.h>
#include <string.h>

#include "util.h"
#include "x86/bn52_avx512ifma.h"
#include "x86/bn52_pack_avx512ifma.h"
#include "x86/bn_rows_x86.h"

#define LANES 4

size_t crisp_bn52_limbs(size_t n) {
  switch (n) {
    case 16:
      return 20;
    case 24:
      return 32;
    case 32:
      return 40;
    case 48:
      return 60;
    case 64:
      return 80;
    default:
      return 0;
  }
}

/* The body, instantiated once per vector count so the accumulators live in
 * registers. The accumulator is split in two, low halves (low) and high
 * halves (high), so each register takes two dependent multiply-adds per
 * step instead of four; lane 0 (the quotient digit y and its carry) is
 * worked out in scalar from both, off the vector dependency chains. */
static inline __attribute__((always_inline)) void amm_body(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                                           const uint64_t *m, uint64_t k0,
                                                           const int vectors) {
  __m256i low[20], high[20];
  const __m256i zero = _mm256_setzero_si256();
  const __m256i *av = (const __m256i *)a, *mv = (const __m256i *)m;
  CRISP_BN52_UNROLL(20)
  for (int v = 0; v < vectors; v++) low[v] = high[v] = zero;
  const uint64_t a0 = a[0], m0 = m[0];
  uint64_t carry = 0; /* lane 0's carry, kept in scalar until the end */
  for (int i = 0; i < vectors * LANES; i++) {
    CRISP_BN52_HIDE(av);
    CRISP_BN52_HIDE(mv);
    const __m256i bi = _mm256_set1_epi64x((long long)b[i]);
    const uint64_t lane0 = (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(low[0])) +
                           (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(high[0])) + carry;
    const uint64_t t = lane0 + ((a0 * b[i]) & CRISP_BN52_MASK);
    const uint64_t digit = (t * k0) & CRISP_BN52_MASK;
    carry = (t + ((m0 * digit) & CRISP_BN52_MASK)) >> CRISP_BN52_BITS;
    const __m256i y = _mm256_set1_epi64x((long long)digit);
    /* low halves at lane j, then everything shifts one lane down (lane 0,
     * now a multiple of 2^52, is dropped: its carry is in `carry`) */
    CRISP_BN52_UNROLL(20)
    for (int v = 0; v < vectors; v++) {
      low[v] = _mm256_madd52lo_epu64(low[v], _mm256_load_si256(av + v), bi);
      low[v] = _mm256_madd52lo_epu64(low[v], _mm256_load_si256(mv + v), y);
    }
    CRISP_BN52_UNROLL(20)
    for (int v = 0; v < vectors - 1; v++) {
      low[v] = _mm256_alignr_epi64(low[v + 1], low[v], 1);
      high[v] = _mm256_alignr_epi64(high[v + 1], high[v], 1);
    }
    low[vectors - 1] = _mm256_alignr_epi64(zero, low[vectors - 1], 1);
    high[vectors - 1] = _mm256_alignr_epi64(zero, high[vectors - 1], 1);
    /* high halves belong one lane up, i.e. at lane j after the shift */
    CRISP_BN52_UNROLL(20)
    for (int v = 0; v < vectors; v++) {
      high[v] = _mm256_madd52hi_epu64(high[v], _mm256_load_si256(av + v), bi);
      high[v] = _mm256_madd52hi_epu64(high[v], _mm256_load_si256(mv + v), y);
    }
  }
  /* Normalise: one carry pass in scalar, every lane in turn (no early exit),
   * in r itself (a and b are no longer read), so no stack copy of the
   * result is left to wipe. */
  CRISP_BN52_UNROLL(20)
  for (int v = 0; v < vectors; v++) _mm256_store_si256((__m256i *)r + v, _mm256_add_epi64(low[v], high[v]));
  for (int j = 0; j < vectors * LANES; j++) {
    const uint64_t sum = r[j] + carry;
    r[j] = sum & CRISP_BN52_MASK;
    carry = sum >> CRISP_BN52_BITS;
    /* test only (meson -Dplant_fault): a dropped carry for the fuzzers */
#if defined(CRISP_PLANT_FAULT_CARRY)
    if (j == vectors * LANES - 2) carry &= ~(uint64_t)1;
#endif
  }
}

#define CRISP_BN52_AMM(vectors)                                                                   \
  static void amm_##vectors(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, \
                            uint64_t k0) {                                                        \
    amm_body(r, a, b, m, k0, vectors);                                                            \
  }
CRISP_BN52_AMM(5)
CRISP_BN52_AMM(8)
CRISP_BN52_AMM(10)
CRISP_BN52_AMM(15)
CRISP_BN52_AMM(20)

void crisp_bn52_amm(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, size_t k,
                    uint64_t k0) {
  /* test only (meson -Dplant_leak): leaks the constant-time checks must catch */
#if defined(CRISP_PLANT_LEAK_BRANCH)
  if (a[0] & 1)
    for (volatile unsigned spin = 0; spin < 256; spin++) {
    }
#elif defined(CRISP_PLANT_LEAK_TABLE)
  static const volatile uint64_t plant_table[256];
  (void)plant_table[a[0] & 255];
#endif
  switch (k) {
    case 20:
      amm_5(r, a, b, m, k0);
      break;
    case 32:
      amm_8(r, a, b, m, k0);
      break;
    case 40:
      amm_10(r, a, b, m, k0);
      break;
    case 60:
      amm_15(r, a, b, m, k0);
      break;
    case 80:
      amm_20(r, a, b, m, k0);
      break;
    default:
      break;
  }
}

static void from64_scalar(uint64_t *out, size_t k, const crisp_limb *x, size_t n, unsigned shift) {
  /* digit j holds bits [52j - shift, 52j - shift + 52) of x: two limbs
   * read as one 128-bit word and shifted; positions depend on j, shift and
   * n only */
  for (size_t j = 0; j < k; j++) {
    const long first = (long)(CRISP_BN52_BITS * j) - (long)shift;
    uint64_t digit;
    if (first < 0) {
      digit = first > -64 ? x[0] << (unsigned)-first : 0; /* 4096 bits: shift 64 */
    } else {
      const size_t limb = (size_t)first / 64;
      const unsigned offset = (unsigned)first % 64;
      const uint64_t low = limb < n ? x[limb] : 0, high = limb + 1 < n ? x[limb + 1] : 0;
      digit = (uint64_t)((((unsigned __int128)high << 64) | low) >> offset);
    }
    out[j] = digit & CRISP_BN52_MASK;
  }
}

/* Zero limbs in front of x in from64's buffer: shifts up to 64 * PAD bits
 * (the sizes crisp_bn52_limbs knows need at most 128) start at bit >= 0. */
#define FROM64_PAD 3
#define FROM64_BUFFER (FROM64_PAD + CRISP_BN52_MAX_LIMBS + 32)

void crisp_bn52_from64(uint64_t *out, size_t k, const crisp_limb *x, size_t n, unsigned shift) {
  if (k > CRISP_BN52_MAX_LIMBS || n > CRISP_BN52_MAX_LIMBS || shift > 64 * FROM64_PAD) {
    from64_scalar(out, k, x, n, shift);
    return;
  }
  /* Eight digits per 512-bit vector (crisp_bn52_digits_at): digit j is
   * bits [52j - shift, +52) of x, in a zero-padded copy. */
  uint64_t buffer[FROM64_BUFFER] __attribute__((aligned(64)));
  memset(buffer, 0, sizeof buffer);
  memcpy(buffer + FROM64_PAD, x, n * sizeof(crisp_limb));
  for (size_t g = 0; g < k; g += 8) {
    const uint64_t start = CRISP_BN52_BITS * g + 64 * FROM64_PAD - shift; /* bit of buffer */
    const size_t base = (size_t)(start / 64);
    const __m512i digits = crisp_bn52_digits_at(
        _mm512_loadu_si512(buffer + base), _mm512_loadu_si512(buffer + base + 8), (unsigned)(start % 64));
    const size_t count = k - g < 8 ? k - g : 8;
    _mm512_mask_storeu_epi64(out + g, (__mmask8)((1u << count) - 1), digits);
  }
  crisp_wipe_lines(buffer + FROM64_PAD, n * sizeof(crisp_limb)); /* n <= 80: room up to limb 83 */
}

void crisp_bn52_to64_reduced(crisp_limb *r, const uint64_t *t, size_t k, const crisp_limb *m, size_t n) {
  crisp_limb value[CRISP_BN_MONT_MAX_LIMBS + 8] __attribute__((aligned(64)));
  if (k <= CRISP_BN52_MAX_LIMBS && n <= CRISP_BN52_MAX_LIMBS) {
    /* Eight 64-bit limbs per vector (crisp_bn52_limbs_at), from a
     * zero-padded copy of the digits. */
    uint64_t digits[CRISP_BN52_MAX_LIMBS + 48] __attribute__((aligned(64))); /* base + 16 <= 114 */
    memset(digits, 0, sizeof digits);
    memcpy(digits, t, k * sizeof(uint64_t));
    for (size_t i = 0; i <= n; i += 8) _mm512_store_si512(value + i, crisp_bn52_limbs_at(digits, i));
    crisp_wipe_lines(digits, k * sizeof(uint64_t));
  } else {
    /* gather the 52-bit digits into a 128-bit window, emitting 64 bits at a
     * time (the window's fill level depends on j only) */
    unsigned __int128 window = 0;
    unsigned filled = 0;
    size_t limb = 0;
    for (size_t j = 0; j < k && limb <= n; j++) {
      window |= (unsigned __int128)t[j] << filled;
      filled += CRISP_BN52_BITS;
      if (filled >= 64) {
        value[limb++] = (crisp_limb)window;
        window >>= 64;
        filled -= 64;
      }
    }
    for (; limb <= n; limb++) {
      value[limb] = (crisp_limb)window;
      window >>= 64;
    }
  }
  /* t < 2m: subtract m when value[n] (the bit above 64n) is set or no borrow */
  /* the difference goes straight to r, so no stack copy of it needs wiping */
  const unsigned char borrow = crisp_bn_sub_n_x86_64(r, value, m, n, 0);
  const crisp_limb keep_difference = (crisp_limb)0 - ((value[n] & 1) | (crisp_limb)(borrow ^ 1));
  for (size_t i = 0; i < n; i++) r[i] = (r[i] & keep_difference) | (value[i] & ~keep_difference);
  crisp_wipe_lines(value, (n + 8) * sizeof(crisp_limb)); /* the vector path stores up to limb n + 7 */
}
