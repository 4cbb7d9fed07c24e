/* src/x86/bn_mod_exp_avx512ifma.c - one constant-time modular
 * exponentiation entirely in radix 2^52 with AVX-512 IFMA, for 1024- to
 * 4096-bit moduli (the sizes crisp_bn52_limbs knows; others return
 * CRISP_E_UNSUPPORTED and the front-end's ladder runs). 1024-, 1536- and
 * 2048-bit moduli go to mod_exp_binary (below), on the two-lane product
 * of bn52_dual_avx512ifma.c: one two-lane product per exponent bit, squaring in one lane and multiplying in
 * the other, against about 1.2 single products per bit here. A single product's every step waits on its
 * quotient digit; in a two-lane one each lane's vector work fills the other's wait, so where that wait is
 * long (2-cycle vector latency) a two-lane product costs no more than a single one, and the binary ladder
 * wins at every exponent length (the window table costs 2^w products more): the choice depends on the
 * modulus's size alone. Where simple vector operations take one cycle and 512-bit multiply-adds issue at half
 * rate, the cycle count puts the two ladders about level (docs/performance.md). 3072 and 4096 bits, which
 * have no two-lane product, run the fixed-window ladder here: converts in once, almost-Montgomery products
 * (R' = 2^(52k), values kept below 2m), converts out once and subtracts m once, selected by mask. The window
 * table is read in full for every window and the entry kept by masks; the exponent is only ever data. ISA:
 * AVX-512F/VL/DQ/IFMA (+ AVX2 compares). */
#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

#include "arithmetic/bn_window.h"
#include "util.h"
#include "x86/bn52_avx512ifma.h"

#define LIMB_BITS 64
#define LANES 8 /* 64-bit lanes in a 512-bit vector */

/* out = table[index]: every entry read, the one wanted kept by a lane mask. */
static void gather(uint64_t *out, const uint64_t *table, size_t entries, crisp_limb index, size_t k) {
  const __m256i wanted = _mm256_set1_epi64x((long long)index);
  for (size_t v = 0; v < k / 4; v++) _mm256_store_si256((__m256i *)out + v, _mm256_setzero_si256());
  for (size_t j = 0; j < entries; j++) {
    const __m256i mask = _mm256_cmpeq_epi64(wanted, _mm256_set1_epi64x((long long)j));
    const __m256i *entry = (const __m256i *)(table + j * k);
    for (size_t v = 0; v < k / 4; v++) {
      __m256i *o = (__m256i *)out + v;
      _mm256_store_si256(
          o, _mm256_or_si256(_mm256_load_si256(o), _mm256_and_si256(_mm256_load_si256(entry + v), mask)));
    }
  }
}

/* out = bit ? power : one over `stride` digits, through an all-ones or
 * all-zero vector made from the bit by arithmetic (0 - bit): no branch and
 * no address depends on the bit. */
static void select_by_bit(uint64_t *out, const uint64_t *power, const uint64_t *one, uint64_t bit,
                          size_t stride) {
  const __m512i keep = _mm512_set1_epi64((long long)(0 - bit));
  for (size_t v = 0; v < stride / LANES; v++) {
    const __m512i p = _mm512_load_si512((const __m512i *)power + v),
                  o = _mm512_load_si512((const __m512i *)one + v);
    _mm512_store_si512((__m512i *)out + v,
                       _mm512_xor_si512(o, _mm512_and_si512(keep, _mm512_xor_si512(p, o))));
  }
}

/* The values of mod_exp_binary: m, R'^2, the power A (first the base in
 * radix 2^52), the result X, the factor S, R' (Montgomery one) and the
 * constant 1; each `stride` digits. */
enum { BINARY_SLOTS = 7 };

/* r = base^exp mod m (en limbs of exponent, m of n limbs, base < m) by the
 * right-to-left binary method on the two lanes of the dual product: every
 * one of the en * 64 exponent bits costs one two-lane product, whatever
 * its value. CRISP_E_UNSUPPORTED at sizes without a dual product (moduli
 * other than 1024, 1536 and 2048 bits). */
static int mod_exp_binary(crisp_limb *r, const crisp_limb *base, const crisp_limb *exp, size_t en,
                          const crisp_limb *m, size_t n, crisp_limb minv) {
  const size_t k = crisp_bn52_limbs(n);
  crisp_bn52_dual_product_fn *dual_product = crisp_bn52_dual_product_for(k);
  if (!dual_product) return CRISP_E_UNSUPPORTED;
  const size_t stride = crisp_bn52_padded_digits(k), bytes = BINARY_SLOTS * stride * sizeof(uint64_t);
  uint64_t *scratch = aligned_alloc(64, bytes);
  if (!scratch) return CRISP_E_NOMEM;
  memset(scratch, 0, bytes); /* padding digits stay zero throughout */
  uint64_t *m52 = scratch, *square = m52 + stride, *power = square + stride, *result = power + stride,
           *factor = result + stride, *montgomery_one = factor + stride, *one = montgomery_one + stride;
  const uint64_t k0 = minv & CRISP_BN52_MASK;
  crisp_bn52_lane_setup(m52, NULL, power, one, m, base, n, k, stride);
  crisp_bn52_r2(square, m, n, m52, k, k0);
  const uint64_t *const mods[2] = {m52, m52}, k0s[2] = {k0, k0};
  {
    /* A = b R' and R', one in each lane */
    uint64_t *const out[2] = {power, montgomery_one};
    const uint64_t *const x[2] = {power, square}, *const y[2] = {square, one};
    dual_product(out, x, y, mods, k0s);
  }
  memcpy(result, montgomery_one, stride * sizeof(uint64_t));
  /* Bit i, lowest first: lane 0 squares A = b^(2^i) R', lane 1 multiplies
   * X by S = A or R', both reading the A from before the step. No product
   * is a dummy: X R' / R' is the new X as much as X A / R', so a fault in
   * the multiplying lane shows in the result whatever the bit (not a
   * safe-error target). A fault in the square at bit i shows when a higher
   * bit is set, which tells no more than the exponent's length. */
  uint64_t *const out[2] = {power, result};
  const uint64_t *const x[2] = {power, result}, *const y[2] = {power, factor};
  for (size_t bit = 0; bit < en * LIMB_BITS; bit++) {
    select_by_bit(factor, power, montgomery_one, (exp[bit / LIMB_BITS] >> (bit % LIMB_BITS)) & 1, stride);
    dual_product(out, x, y, mods, k0s);
  }
  {
    /* out of Montgomery form: X * 1 / R' <= m (lane 0 repeats it into A,
     * which is not needed any more), then one masked subtraction */
    const uint64_t *const x_in[2] = {result, result}, *const ones[2] = {one, one};
    dual_product(out, x_in, ones, mods, k0s);
  }
  crisp_bn52_to64_reduced(r, result, k, m, n);
  crisp_wipe(scratch, bytes);
  free(scratch);
  return CRISP_OK;
}

int crisp_bn_mod_exp_avx512ifma(crisp_limb *r, const crisp_limb *base, const crisp_limb *exp, size_t en,
                                const crisp_limb *m, size_t n, crisp_limb minv) {
  const size_t k = crisp_bn52_limbs(n);
  if (!k) return CRISP_E_UNSUPPORTED;
  const int status = mod_exp_binary(r, base, exp, en, m, n, minv);
  if (status != CRISP_E_UNSUPPORTED) return status;
  const unsigned w = crisp_bn_window_bits(en * LIMB_BITS);
  const size_t entries = (size_t)1 << w;
  /* table, then m, R'^2, accumulator, selected entry, spare */
  const size_t limbs = (entries + 5) * k;
  uint64_t *scratch = aligned_alloc(32, limbs * sizeof(uint64_t));
  if (!scratch) return CRISP_E_NOMEM;
  uint64_t *table = scratch, *m52 = table + entries * k, *square = m52 + k, *acc = square + k,
           *selected = acc + k, *spare = selected + k;
  const uint64_t k0 = minv & CRISP_BN52_MASK;
  crisp_bn52_from64(m52, k, m, n, 0);

  crisp_bn52_r2(square, m, n, m52, k, k0);

  /* table[0] = R' (Montgomery one), table[1] = base R', table[i] = base^i R' */
  memset(spare, 0, k * sizeof(uint64_t));
  spare[0] = 1;
  crisp_bn52_amm(table, square, spare, m52, k, k0);
  crisp_bn52_from64(acc, k, base, n, 0);
  crisp_bn52_amm(table + k, acc, square, m52, k, k0);
  for (size_t i = 2; i < entries; i++)
    crisp_bn52_amm(table + i * k, table + (i / 2) * k, table + (i - i / 2) * k, m52, k, k0);

  const size_t windows = (en * LIMB_BITS + w - 1) / w;
  gather(acc, table, entries, crisp_bn_window_at(exp, en, (windows - 1) * w, w), k);
  for (size_t window = windows - 1; window-- > 0;) {
    for (unsigned i = 0; i < w; i++) crisp_bn52_amm(acc, acc, acc, m52, k, k0);
    gather(selected, table, entries, crisp_bn_window_at(exp, en, window * w, w), k);
    crisp_bn52_amm(acc, acc, selected, m52, k, k0);
  }
  /* out of Montgomery form: acc * 1 / R' <= m, then one masked subtraction */
  crisp_bn52_amm(acc, acc, spare, m52, k, k0);
  crisp_bn52_to64_reduced(r, acc, k, m, n);
  crisp_wipe(scratch, limbs * sizeof(uint64_t));
  free(scratch);
  return CRISP_OK;
}
