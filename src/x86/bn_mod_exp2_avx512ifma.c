/* src/x86/bn_mod_exp2_avx512ifma.c - two constant-time exponentiations
 * advancing together in radix 2^52 with AVX-512 IFMA, on the two-lane
 * product and square of bn52_dual_avx512ifma.c, for 1024-, 1536- and
 * 2048-bit moduli (the halves of RSA-2048, -3072 and -4096; 20, 30 and 40
 * digits). Other sizes return CRISP_E_UNSUPPORTED.
 * Both lanes use the same fixed windows (the exponents have one length);
 * each window's table entry is read by a scan of the whole table under a
 * mask, so no address depends on an exponent. Conversions in and out and
 * the final subtraction are the shared ones (bn52_avx512ifma.c). R'^2 is
 * two two-lane products from R^2 (the caller's, else r2_pair's: both
 * moduli's doublings in one pass, then two-lane squares). The CRT's fault
 * check's powers run after the exponentiations on their setup of the
 * moduli, which would otherwise be made twice.
 * ISA: AVX-512F/VL/IFMA, and BMI2 / ADX through the shared conversion. */
#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

#include "arithmetic/bn_window.h"
#include "util.h"
#include "x86/bn52_avx512ifma.h"

#define LIMB_BITS 64
#define LANES 8       /* 64-bit lanes in a 512-bit vector */
#define MAX_VECTORS 5 /* k = 40 */

/* out[l] = table[l][index[l]] for both lanes, by scans of entries [from,
 * to), multiples of 8 (windows of 3 bits or more): a scan from 0 starts out
 * at zero, a later one adds its entries to it, and out holds the choice
 * once the scans have covered the table. Every entry of both tables is
 * read in full, the wanted one kept by an AND with an all-ones vector made
 * by arithmetic (a masked load could skip the memory of the entries it
 * drops; MemorySanitizer checks mask-to-vector moves strictly). Both lanes'
 * output vectors are built in one pass over the entries. Per group of 8
 * entries j and lane: d = index - j in the 8 64-bit lanes of one vector,
 * keep = all ones exactly where d = 0 (the sign of ~(d | -d), spread by an
 * arithmetic shift); each entry's keep is its lane of that vector
 * broadcast by a permutation. (Ternary logic would merge the AND and the
 * OR, but MemorySanitizer checks its operands strictly.) */
static inline __attribute__((always_inline)) void gather2_body(uint64_t *const out[2],
                                                               const uint64_t *const table[2], size_t from,
                                                               size_t to, const crisp_limb index[2],
                                                               const int vectors) {
  __m512i acc[2][MAX_VECTORS], lane_of[LANES];
  const __m512i zero = _mm512_setzero_si512(), ones = _mm512_set1_epi64(-1), eight = _mm512_set1_epi64(LANES);
  const __m512i first =
      _mm512_add_epi64(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64((long long)from));
  __m512i distance[2] = {_mm512_sub_epi64(_mm512_set1_epi64((long long)index[0]), first),
                         _mm512_sub_epi64(_mm512_set1_epi64((long long)index[1]), first)};
  CRISP_BN52_UNROLL(8)
  for (int t = 0; t < LANES; t++) lane_of[t] = _mm512_set1_epi64(t);
  CRISP_BN52_UNROLL(2)
  for (int l = 0; l < 2; l++) {
    CRISP_BN52_UNROLL(5)
    for (int v = 0; v < vectors; v++)
      acc[l][v] = from ? _mm512_load_si512((const __m512i *)out[l] + v) : zero;
  }
  for (size_t group = from; group < to; group += LANES) {
    __m512i keeps[2];
    CRISP_BN52_UNROLL(2)
    for (int l = 0; l < 2; l++) {
      /* ~(d | -d) has its sign bit set only where d = 0 */
      const __m512i d = distance[l];
      keeps[l] =
          _mm512_srai_epi64(_mm512_andnot_si512(_mm512_or_si512(d, _mm512_sub_epi64(zero, d)), ones), 63);
      distance[l] = _mm512_sub_epi64(d, eight);
    }
    CRISP_BN52_UNROLL(8)
    for (int t = 0; t < LANES; t++) {
      CRISP_BN52_UNROLL(2)
      for (int l = 0; l < 2; l++) {
        const __m512i keep = _mm512_permutexvar_epi64(lane_of[t], keeps[l]);
        const __m512i *entry = (const __m512i *)table[l] + (group + (size_t)t) * (size_t)vectors;
        CRISP_BN52_UNROLL(5)
        for (int v = 0; v < vectors; v++)
          acc[l][v] = _mm512_or_si512(acc[l][v], _mm512_and_si512(keep, _mm512_load_si512(entry + v)));
      }
    }
  }
  CRISP_BN52_UNROLL(2)
  for (int l = 0; l < 2; l++) {
    CRISP_BN52_UNROLL(5)
    for (int v = 0; v < vectors; v++) _mm512_store_si512((__m512i *)out[l] + v, acc[l][v]);
  }
}

static inline __attribute__((always_inline)) void gather2_part(uint64_t *const out[2],
                                                               const uint64_t *const table[2], size_t from,
                                                               size_t to, const crisp_limb index[2],
                                                               size_t stride) {
  if (from == to) return;
  switch (stride / LANES) {
    case 3:
      gather2_body(out, table, from, to, index, 3);
      break;
    case 4:
      gather2_body(out, table, from, to, index, 4);
      break;
    default:
      gather2_body(out, table, from, to, index, MAX_VECTORS);
      break;
  }
}

static void gather2(uint64_t *const out[2], const uint64_t *const table[2], size_t entries,
                    const crisp_limb index[2], size_t stride) {
  gather2_part(out, table, 0, entries, index, stride);
}

/* The bits of a public exponent up to its highest set bit (0 for zero). */
static size_t public_bits(const crisp_limb *e, size_t en) {
  size_t top = en * LIMB_BITS;
  while (top > 0 && !((e[(top - 1) / LIMB_BITS] >> ((top - 1) % LIMB_BITS)) & 1)) top--;
  return top;
}

/* Both lanes' values on one setup of the moduli, in radix 2^52: what the
 * pair's ladder and the check's powers share. */
typedef struct pair_setup {
  crisp_bn52_dual_product_fn *product;
  crisp_bn52_dual_square_fn *square;                     /* NULL: squares by product */
  const uint64_t *m[2], *m_moved_up[2], *r2[2], *one[2]; /* r2: R'^2 mod m */
  uint64_t k0[2];
  const crisp_limb *modulus[2];
  size_t n, k, stride;
} pair_setup;

/* result[l] = b[l]^e mod m[l] for the public exponent e of `top` bits
 * (top >= 1), the bases already in radix 2^52 in acc: left-to-right square
 * and multiply, branching on e's bits and nothing else. power is a value
 * of scratch per lane. */
static void public_ladder(const pair_setup *setup, crisp_limb *const result[2], uint64_t *const acc[2],
                          uint64_t *const power[2], const crisp_limb *e, size_t top) {
  const uint64_t *const acc_in[2] = {acc[0], acc[1]}, *const power_in[2] = {power[0], power[1]};
  const uint64_t *const *m = setup->m;
  setup->product(power, acc_in, setup->r2, m, setup->k0); /* b R' */
  memcpy(acc[0], power[0], setup->stride * sizeof(uint64_t));
  memcpy(acc[1], power[1], setup->stride * sizeof(uint64_t));
  for (size_t bit = top - 1; bit-- > 0;) {
    if (setup->square)
      setup->square(acc, acc_in, m, setup->m_moved_up, setup->k0);
    else
      setup->product(acc, acc_in, acc_in, m, setup->k0);
    if ((e[bit / LIMB_BITS] >> (bit % LIMB_BITS)) & 1) setup->product(acc, acc_in, power_in, m, setup->k0);
  }
  setup->product(acc, acc_in, setup->one, m, setup->k0);
  for (int l = 0; l < 2; l++)
    crisp_bn52_to64_reduced(result[l], acc[l], setup->k, setup->modulus[l], setup->n);
}

static int r2_pair_avx512ifma(crisp_limb *const r2[2], const crisp_limb *const modulus[2],
                              const crisp_limb minv[2], size_t n);

/* square[l] = R'^2 mod m[l] (R' = 2^(52k), below 2 m[l]) from R^2 = 2^(128n)
 * mod m[l] (the caller's, else r2_pair's): the almost-Montgomery square of
 * R^2 is 2^(256n - 52k), and its product with 2^a, a = 208k - 256n (64,
 * 96 and 128 bits at the three sizes, below m), is 2^(104k). Two two-lane
 * products instead of modular doublings; power is a value of scratch. */
static int pair_r2(uint64_t *const square[2], const pair_setup *setup, const crisp_bn_exp_lane lane[2],
                   uint64_t *const power[2]) {
  crisp_limb computed[2][CRISP_BN52_MAX_N / 2];
  const crisp_limb *r2[2] = {lane[0].r2, lane[1].r2};
  const size_t n = setup->n, k = setup->k, a = 4 * CRISP_BN52_BITS * k - 4 * LIMB_BITS * n;
  int status = CRISP_OK;
  if (!r2[0] || !r2[1]) {
    crisp_limb *const out[2] = {computed[0], computed[1]};
    const crisp_limb minv[2] = {lane[0].minv, lane[1].minv};
    status = r2_pair_avx512ifma(out, setup->modulus, minv, n);
    r2[0] = computed[0], r2[1] = computed[1];
  }
  if (status == CRISP_OK) {
    const uint64_t *const in[2] = {square[0], square[1]}, *const power_in[2] = {power[0], power[1]};
    for (int l = 0; l < 2; l++) {
      crisp_bn52_from64(square[l], k, r2[l], n, 0);
      memset(power[l], 0, setup->stride * sizeof(uint64_t));
      power[l][a / CRISP_BN52_BITS] = (uint64_t)1 << (a % CRISP_BN52_BITS);
    }
    setup->product(square, in, in, setup->m, setup->k0);
    setup->product(square, in, power_in, setup->m, setup->k0);
  }
  crisp_wipe(computed, sizeof computed);
  return status;
}

/* Per lane: table (entries values), then m, m moved up one digit and two
 * digits (for the dual square, whose 20 and 30 digits leave room in
 * strides of 24 and 32), R'^2, accumulator, selected entry, the constant 1; each value
 * `stride` digits. */
enum { SLOTS_AFTER_TABLE = 7 };

/* The pair exponentiation on the dual product (k digits, which has one),
 * then, when check is not NULL, the CRT's fault check on the same setup
 * (impl.h, BN_MOD_EXP2); top is the check exponent's bit length. */
static int pair_ladder(const crisp_bn_exp_lane lane[2], size_t en, size_t n, size_t k,
                       const crisp_bn_exp2_check *check, size_t top) {
  pair_setup setup = {.product = crisp_bn52_dual_product_for(k),
                      .square = crisp_bn52_dual_square_for(k),
                      .n = n,
                      .k = k,
                      .stride = crisp_bn52_padded_digits(k)};
  const size_t stride = setup.stride;
  const unsigned w = crisp_bn_window_bits(en * LIMB_BITS);
  const size_t entries = (size_t)1 << w;
  const size_t lane_digits = (entries + SLOTS_AFTER_TABLE) * stride;
  const size_t bytes = 2 * lane_digits * sizeof(uint64_t);
  uint64_t *scratch = aligned_alloc(64, bytes);
  if (!scratch) return CRISP_E_NOMEM;
  memset(scratch, 0, bytes); /* padding digits stay zero throughout */

  uint64_t *table[2], *m52[2], *m_moved_up[2], *square[2], *acc[2], *selected[2], *one[2];
  for (int l = 0; l < 2; l++) {
    table[l] = scratch + l * lane_digits;
    m52[l] = table[l] + entries * stride;
    m_moved_up[l] = m52[l] + stride;
    square[l] = m_moved_up[l] + 2 * stride;
    acc[l] = square[l] + stride;
    selected[l] = acc[l] + stride;
    one[l] = selected[l] + stride;
    crisp_bn52_lane_setup(m52[l], m_moved_up[l], acc[l], one[l], lane[l].modulus, lane[l].base, n, k, stride);
    setup.m[l] = m52[l], setup.m_moved_up[l] = m_moved_up[l], setup.r2[l] = square[l], setup.one[l] = one[l];
    setup.k0[l] = lane[l].minv & CRISP_BN52_MASK;
    setup.modulus[l] = lane[l].modulus;
  }
  if (pair_r2(square, &setup, lane, selected) != CRISP_OK) {
    crisp_wipe(scratch, bytes);
    free(scratch);
    return CRISP_E_UNSUPPORTED; /* not reached: r2_pair takes every size k has */
  }
  const uint64_t *const *m = setup.m;
  crisp_bn52_dual_product_fn *const dual_product = setup.product;
  crisp_bn52_dual_square_fn *const dual_square = setup.square;

  /* table[0] = R' (Montgomery one), table[1] = base R', table[i] = base^i R' */
  {
    uint64_t *const t0[2] = {table[0], table[1]}, *const t1[2] = {table[0] + stride, table[1] + stride};
    const uint64_t *const ac[2] = {acc[0], acc[1]};
    dual_product(t0, setup.r2, setup.one, m, setup.k0);
    dual_product(t1, ac, setup.r2, m, setup.k0);
  }
  /* even entries as squares of entry i / 2, with the dedicated square
   * where there is one */
  for (size_t i = 2; i < entries; i++) {
    uint64_t *const out[2] = {table[0] + i * stride, table[1] + i * stride};
    const uint64_t *const x[2] = {table[0] + i / 2 * stride, table[1] + i / 2 * stride};
    const uint64_t *const y[2] = {table[0] + (i - i / 2) * stride, table[1] + (i - i / 2) * stride};
    if (dual_square && i % 2 == 0)
      dual_square(out, x, m, setup.m_moved_up, setup.k0);
    else
      dual_product(out, x, y, m, setup.k0);
  }

  const uint64_t *const tables[2] = {table[0], table[1]};
  uint64_t *const accumulator[2] = {acc[0], acc[1]}, *const chosen[2] = {selected[0], selected[1]};
  const uint64_t *const accumulator_in[2] = {acc[0], acc[1]}, *const chosen_in[2] = {selected[0],
                                                                                     selected[1]};
  const size_t windows = (en * LIMB_BITS + w - 1) / w;
  /* At 20 digits each window's scan of the table runs in pieces of whole
   * groups of 8 entries, one before each of the window's squares, whose
   * quotient chains leave vector pipes idle for it; at 30 and 40 digits,
   * whose squares and products keep the pipes busy, it runs whole after
   * them. */
  const int spread_scan = k <= 20;
  const size_t groups = entries / LANES;
  crisp_limb index[2];
  for (int l = 0; l < 2; l++) index[l] = crisp_bn_window_at(lane[l].exponent, en, (windows - 1) * w, w);
  gather2(accumulator, tables, entries, index, stride);
  for (size_t window = windows - 1; window-- > 0;) {
    for (int l = 0; l < 2; l++) index[l] = crisp_bn_window_at(lane[l].exponent, en, window * w, w);
    for (unsigned i = 0; i < w; i++) {
      if (spread_scan)
        gather2_part(chosen, tables, LANES * (groups * i / w), LANES * (groups * (i + 1) / w), index, stride);
      if (dual_square)
        dual_square(accumulator, accumulator_in, m, setup.m_moved_up, setup.k0);
      else
        dual_product(accumulator, accumulator_in, accumulator_in, m, setup.k0);
    }
    if (!spread_scan) gather2(chosen, tables, entries, index, stride);
    dual_product(accumulator, accumulator_in, chosen_in, m, setup.k0);
  }
  /* out of Montgomery form: acc * 1 / R' <= m, then one masked subtraction */
  dual_product(accumulator, accumulator_in, setup.one, m, setup.k0);
  for (int l = 0; l < 2; l++) crisp_bn52_to64_reduced(lane[l].result, acc[l], k, lane[l].modulus, n);
  index[0] = index[1] = 0;
  if (check) {
    /* the check's bases into acc, its powers in the selected entries' place */
    check->write_bases(check->context);
    for (int l = 0; l < 2; l++) crisp_bn52_from64(acc[l], k, check->base[l], n, 0);
    public_ladder(&setup, check->power, accumulator, chosen, check->exponent, top);
  }
  crisp_wipe(scratch, bytes);
  free(scratch);
  return CRISP_OK;
}

/* The pair; with check, the check's powers too, on the same setup (m in
 * radix 2^52 and moved up, R'^2, the scratch). A zero check exponent is
 * left to the caller: CRISP_E_UNSUPPORTED before anything runs. */
static int mod_exp2_avx512ifma(const crisp_bn_exp_lane lane[2], size_t exponent_limbs, size_t n,
                               const crisp_bn_exp2_check *check) {
  const size_t k = crisp_bn52_dual_digits(n);
  if (!k || !crisp_bn52_dual_product_for(k)) return CRISP_E_UNSUPPORTED;
  const size_t top = check ? public_bits(check->exponent, check->exponent_limbs) : 0;
  if (check && !top) return CRISP_E_UNSUPPORTED;
  return pair_ladder(lane, exponent_limbs, n, k, check, top);
}

/* r2[l] = R^2 mod modulus[l] (R = 2^(64n)), both lanes together. R^2 =
 * 2^(128n) is the almost-Montgomery form (R' = 2^(52k)) of 2^E, E = 128n -
 * 52k = odd 2^s: 2^(64(n-1)) (below m: its top limb is nonzero) doubled
 * odd + 52k - 64(n-1) times is the form of 2^odd, and s squares, each
 * doubling the exponent the form stands for, make 2^E. The counts depend
 * on the sizes only. */
static int r2_pair_avx512ifma(crisp_limb *const r2[2], const crisp_limb *const modulus[2],
                              const crisp_limb minv[2], size_t n) {
  enum { MAX_PAIR_LIMBS = 32, MAX_PAIR_DIGITS = 40 };
  const size_t k = crisp_bn52_limbs(n);
  crisp_bn52_dual_product_fn *dual_product = crisp_bn52_dual_product_for(k);
  if (!dual_product || n > MAX_PAIR_LIMBS) return CRISP_E_UNSUPPORTED;
  const size_t exponent = 2 * LIMB_BITS * n - CRISP_BN52_BITS * k;
  unsigned squares = 0;
  while (!((exponent >> squares) & 1)) squares++;
  const size_t doublings = (exponent >> squares) + CRISP_BN52_BITS * k - LIMB_BITS * (n - 1);

  crisp_limb power[2][MAX_PAIR_LIMBS];
  /* per lane: m, then the power, each crisp_bn52_padded_digits(k) digits (zero padding) */
  uint64_t digits[4 * MAX_PAIR_DIGITS] __attribute__((aligned(64)));
  const size_t stride = crisp_bn52_padded_digits(k);
  memset(power, 0, sizeof power);
  memset(digits, 0, sizeof digits);
  power[0][n - 1] = power[1][n - 1] = 1;
  const int status = crisp_bn52_double_mod2(power[0], power[1], modulus[0], modulus[1], n, doublings);
  if (status == CRISP_OK) {
    const uint64_t k0[2] = {minv[0] & CRISP_BN52_MASK, minv[1] & CRISP_BN52_MASK};
    uint64_t *const x[2] = {digits + 2 * stride, digits + 3 * stride};
    const uint64_t *const x_in[2] = {x[0], x[1]}, *const m[2] = {digits, digits + stride};
    for (int l = 0; l < 2; l++) {
      crisp_bn52_from64(digits + l * stride, k, modulus[l], n, 0);
      crisp_bn52_from64(x[l], k, power[l], n, 0);
    }
    for (unsigned i = 0; i < squares; i++) dual_product(x, x_in, x_in, m, k0);
    for (int l = 0; l < 2; l++) crisp_bn52_to64_reduced(r2[l], x[l], k, modulus[l], n);
  }
  crisp_wipe(power, sizeof power);
  crisp_wipe(digits, sizeof digits);
  return status;
}

const crisp_bn_mod_exp2_impl crisp_bn_mod_exp2_avx512ifma_impl = {
    .info = CRISP_IMPL_INFO(crisp_bn_mod_exp2_avx512ifma_impl),
    .mod_exp2 = mod_exp2_avx512ifma,
    .r2_pair = r2_pair_avx512ifma,
};
