/* src/x86/bn52_pack_avx512ifma.h - radix 2^52 digits from 64-bit limbs
 * and back, eight at a time; for the files built with the IFMA flag set. */
#ifndef CRISP_SRC_X86_BN52_PACK_AVX512IFMA_H
#define CRISP_SRC_X86_BN52_PACK_AVX512IFMA_H
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "x86/bn52_avx512ifma.h"

/* Eight 52-bit digits of the 16 limbs first:second (limbs 0-7, then
 * 8-15), the first starting at bit `bit` (below 64) of limb 0: each digit
 * is two neighbouring limbs picked by permutes and joined by variable
 * shifts (VPSLLVQ by 64 gives 0); everything depends on bit only. */
static inline __attribute__((always_inline)) __m512i crisp_bn52_digits_at(__m512i first, __m512i second,
                                                                          unsigned bit) {
  const __m512i step = _mm512_setr_epi64(0, 52, 104, 156, 208, 260, 312, 364);
  const __m512i low_bits = _mm512_set1_epi64(63), one = _mm512_set1_epi64(1),
                limb_bits = _mm512_set1_epi64(64);
  const __m512i position = _mm512_add_epi64(_mm512_set1_epi64((long long)bit), step);
  const __m512i index = _mm512_srli_epi64(position, 6), offset = _mm512_and_si512(position, low_bits);
  const __m512i low = _mm512_permutex2var_epi64(first, index, second);
  const __m512i high = _mm512_permutex2var_epi64(first, _mm512_add_epi64(index, one), second);
  return _mm512_and_si512(_mm512_or_si512(_mm512_srlv_epi64(low, offset),
                                          _mm512_sllv_epi64(high, _mm512_sub_epi64(limb_bits, offset))),
                          _mm512_set1_epi64((long long)CRISP_BN52_MASK));
}

/* Limbs i .. i + 7 of the value whose digits, each below 2^52, digits
 * holds, with zero digits after the value up to 16 past the digit where
 * limb i starts. Limb i starts at bit 64i, inside digit j = 64i / 52 at
 * offset 64i - 52j, and takes bits from digits j, j + 1 and j + 2 (OR is
 * exact, the digits being below 2^52); the permutes and shifts depend on
 * i only. */
static inline __attribute__((always_inline)) __m512i crisp_bn52_limbs_at(const uint64_t *digits, size_t i) {
  const __m512i step = _mm512_setr_epi64(0, 64, 128, 192, 256, 320, 384, 448);
  const __m512i digit_bits = _mm512_set1_epi64(CRISP_BN52_BITS), one = _mm512_set1_epi64(1),
                two = _mm512_set1_epi64(2);
  const __m512i reciprocal = _mm512_set1_epi64(1261); /* p / 52 = (p * 1261) >> 16 for p < 500 */
  const size_t start = 64 * i, base = start / CRISP_BN52_BITS;
  const __m512i position =
      _mm512_add_epi64(_mm512_set1_epi64((long long)(start - CRISP_BN52_BITS * base)), step);
  const __m512i index = _mm512_srli_epi64(_mm512_mul_epu32(position, reciprocal), 16);
  const __m512i offset = _mm512_sub_epi64(position, _mm512_mul_epu32(index, digit_bits));
  const __m512i first = _mm512_loadu_si512(digits + base), second = _mm512_loadu_si512(digits + base + 8);
  const __m512i d0 = _mm512_permutex2var_epi64(first, index, second);
  const __m512i d1 = _mm512_permutex2var_epi64(first, _mm512_add_epi64(index, one), second);
  const __m512i d2 = _mm512_permutex2var_epi64(first, _mm512_add_epi64(index, two), second);
  return _mm512_or_si512(
      _mm512_srlv_epi64(d0, offset),
      _mm512_or_si512(
          _mm512_sllv_epi64(d1, _mm512_sub_epi64(digit_bits, offset)),
          _mm512_sllv_epi64(d2, _mm512_sub_epi64(_mm512_add_epi64(digit_bits, digit_bits), offset))));
}
#endif
