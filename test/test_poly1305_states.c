/* test/test_poly1305_states.c - Poly1305's final reduction at its rare
 * states, for every implementation, against a big-number model in this file
 * (and libsodium when found), never against another crisp implementation.
 *
 * The final step sees an accumulator H, partly reduced (a little above
 * 2^130 at most), and must output (H mod p + s) mod 2^128 with p = 2^130 - 5.
 * Its carry chains go wrong only for H next to a limb boundary of the
 * implementation's radix (2^26, 2^44, 2^64), next to p, or just above 2^130,
 * where the fold of the bits above 2^130 (times 5) carries again. Random
 * inputs almost never land there, so the inputs are solved for: with
 * r = r0 < 2^26 (one limb in every radix), a block's product is exact, and
 * the accumulator after the last block is
 *     H = f(r0 * (H_before + block + 2^128)),  f(x) = x mod 2^130 + 5 (x >> 130),
 * the value every radix's block step computes. For a target T the last
 * block is found by choosing q = x >> 130 so that x = q 2^130 + T - 5q is a
 * multiple of r0 (a linear congruence in q) with x / r0 in the block's range;
 * several r0 are tried. Long messages put the solved block after random
 * ones, so the vector kernels (which run many blocks at once and then
 * combine their lanes) end on the same values. */
#include "common.h"

#ifdef CRISP_TEST_WITH_SODIUM
#include <sodium.h>
#endif

typedef unsigned __int128 u128;

/* Unsigned integers of three 64-bit limbs, least significant first. */
typedef struct big {
  uint64_t w[3];
} big;

static big big_from(uint64_t low) {
  return (big){{low, 0, 0}};
}

static big big_power(unsigned bit) {
  big x = {{0, 0, 0}};
  x.w[bit / 64] = (uint64_t)1 << (bit % 64);
  return x;
}

static big big_add(big a, big b) {
  u128 carry = 0;
  for (int i = 0; i < 3; i++) {
    carry += (u128)a.w[i] + b.w[i];
    a.w[i] = (uint64_t)carry;
    carry >>= 64;
  }
  return a;
}

/* a - b, for a >= b. */
static big big_sub(big a, big b) {
  uint64_t borrow = 0;
  for (int i = 0; i < 3; i++) {
    const u128 d = (u128)a.w[i] - b.w[i] - borrow;
    a.w[i] = (uint64_t)d;
    borrow = (uint64_t)(d >> 64) & 1;
  }
  return a;
}

static int big_less(big a, big b) {
  for (int i = 2; i >= 0; i--)
    if (a.w[i] != b.w[i]) return a.w[i] < b.w[i];
  return 0;
}

static int big_equal(big a, big b) {
  return !big_less(a, b) && !big_less(b, a);
}

static big big_mul_small(big a, uint64_t k) {
  u128 carry = 0;
  for (int i = 0; i < 3; i++) {
    carry += (u128)a.w[i] * k;
    a.w[i] = (uint64_t)carry;
    carry >>= 64;
  }
  return a;
}

/* a / k and a % k for a small k. */
static big big_div_small(big a, uint64_t k, uint64_t *remainder) {
  u128 rest = 0;
  for (int i = 2; i >= 0; i--) {
    rest = rest << 64 | a.w[i];
    a.w[i] = (uint64_t)(rest / k);
    rest %= k;
  }
  *remainder = (uint64_t)rest;
  return a;
}

static big big_shift_right(big a, unsigned bits) {
  big r = {{0, 0, 0}};
  for (int i = 0; i < 3; i++) {
    const unsigned from = (unsigned)i * 64 + bits;
    if (from / 64 < 3) r.w[i] = a.w[from / 64] >> (from % 64);
    if (from % 64 && from / 64 + 1 < 3) r.w[i] |= a.w[from / 64 + 1] << (64 - from % 64);
  }
  return r;
}

static big big_low_bits(big a, unsigned bits) {
  for (int i = 0; i < 3; i++) {
    if ((unsigned)i * 64 >= bits)
      a.w[i] = 0;
    else if ((unsigned)i * 64 + 64 > bits)
      a.w[i] &= ((uint64_t)1 << (bits - (unsigned)i * 64)) - 1;
  }
  return a;
}

/* f(x) = x mod 2^130 + 5 (x >> 130): the partial reduction of a block step. */
static big fold(big x) {
  return big_add(big_low_bits(x, 130), big_mul_small(big_shift_right(x, 130), 5));
}

static const big prime = {{0xfffffffffffffffbull, 0xffffffffffffffffull, 3}};

/* ---- solving for the last block ----------------------------------------- */

static uint64_t mod_inverse(uint64_t a, uint64_t m) {
  int64_t t = 0, new_t = 1;
  uint64_t r = m, new_r = a % m;
  while (new_r) {
    const uint64_t q = r / new_r;
    const int64_t t2 = t - (int64_t)q * new_t;
    t = new_t, new_t = t2;
    const uint64_t r2 = r - q * new_r;
    r = new_r, new_r = r2;
  }
  if (r != 1) return 0;
  return (uint64_t)(t < 0 ? t + (int64_t)m : t);
}

/* Finds a block (16 bytes, full, so 2^128 is added) that takes the
 * accumulator from before to exactly target under r0. Returns 0 if this r0
 * cannot. */
static int solve_block(uint64_t r0, big before, big target, uint8_t block[16]) {
  uint64_t a;
  big_div_small(big_power(130), r0, &a);
  uint64_t t_mod;
  big_div_small(target, r0, &t_mod);
  const uint64_t coefficient = (a + r0 - 5 % r0) % r0, inverse = mod_inverse(coefficient, r0);
  if (!inverse) return 0;
  const uint64_t q0 = (uint64_t)((u128)(r0 - t_mod) % r0 * inverse % r0);
  /* the block's range: before + 2^128 <= x / r0 < before + 2^129 */
  const big low = big_add(before, big_power(128)), high = big_add(before, big_power(129));
  for (uint64_t q = q0; q < ((uint64_t)1 << 40); q += r0) {
    const big five_q = big_from(q * 5);
    if (big_less(target, five_q)) return 0; /* x mod 2^130 would be negative */
    const big rest = big_sub(target, five_q);
    if (!big_less(rest, big_power(130))) continue;
    const big x = big_add(big_mul_small(big_power(130), q), rest);
    uint64_t remainder;
    const big input = big_div_small(x, r0, &remainder);
    if (remainder) return 0; /* cannot happen: the congruence says so */
    if (big_less(input, low)) continue;
    if (!big_less(input, high)) return 0;
    if (!big_equal(fold(big_mul_small(input, r0)), target)) return 0;
    const big m = big_sub(input, low);
    for (int i = 0; i < 16; i++) block[i] = (uint8_t)(m.w[i / 8] >> (8 * (i % 8)));
    return 1;
  }
  return 0;
}

/* H after each full block under r = r0 (every radix computes this value). */
static big absorb(big h, uint64_t r0, const uint8_t block[16]) {
  big m = {{0, 0, 1}};
  for (int i = 0; i < 16; i++) m.w[i / 8] |= (uint64_t)block[i] << (8 * (i % 8));
  return fold(big_mul_small(big_add(h, m), r0));
}

/* (T mod p + s) mod 2^128, little-endian. */
static void model_tag(big t, const uint8_t s[16], uint8_t tag[16]) {
  while (!big_less(t, prime)) t = big_sub(t, prime);
  big sum = {{0, 0, 0}};
  for (int i = 0; i < 16; i++) sum.w[i / 8] |= (uint64_t)s[i] << (8 * (i % 8));
  sum = big_add(sum, t);
  for (int i = 0; i < 16; i++) tag[i] = (uint8_t)(sum.w[i / 8] >> (8 * (i % 8)));
}

/* ---- targets ------------------------------------------------------------ */

enum { MAX_TARGETS = 1024 };

/* Accumulators next to every boundary a final reduction has: p, 2^130,
 * just above 2^130 plus a limb boundary of radix 2^26 (where the 5x fold
 * carries into the next limb again), and below 2^130 at the limb boundaries
 * of radix 2^26, 2^44 and 2^64 (where h + 5 carries through all-ones limbs). */
static size_t make_targets(big *targets) {
  size_t count = 0;
  static const unsigned limb_bits[] = {26, 44, 52, 64, 78, 88, 104, 128};
  for (int d = -8; d <= 8; d++) {
    const big delta = big_from((uint64_t)(d < 0 ? -d : d));
    const big p_plus = d < 0 ? big_sub(prime, delta) : big_add(prime, delta);
    targets[count++] = p_plus;
    if (d >= 0) targets[count++] = big_add(big_power(130), delta);
    for (unsigned k = 0; k <= 27; k++) {
      const big above = big_add(big_power(130), big_power(k));
      targets[count++] = d < 0 ? big_sub(above, delta) : big_add(above, delta);
    }
    for (size_t i = 0; i < sizeof limb_bits / sizeof limb_bits[0]; i++) {
      const big below = big_sub(big_power(130), big_power(limb_bits[i]));
      targets[count++] = d < 0 ? big_sub(below, delta) : big_add(below, delta);
      if (limb_bits[i] < 44) continue; /* small accumulators reduce trivially */
      const big at = big_power(limb_bits[i]);
      targets[count++] = d < 0 ? big_sub(at, delta) : big_add(at, delta);
    }
  }
  return count;
}

/* ---- the test ----------------------------------------------------------- */

/* Block counts: one (the scalar code everywhere) and runs long enough for
 * every vector kernel's many-block loop. */
static const size_t block_counts[] = {1, 2, 17, 64, 130, 300};
enum { MAX_BLOCKS = 300 };

static void test_final_reduction_states(void **state) {
  (void)state;
  static big targets[MAX_TARGETS];
  const size_t target_count = make_targets(targets);
  uint8_t *message = test_alloc(16 * MAX_BLOCKS);
  size_t solved = 0, unsolved = 0;
  for (size_t t = 0; t < target_count; t++) {
    size_t solved_here = 0;
    for (size_t c = 0; c < sizeof block_counts / sizeof block_counts[0]; c++) {
      const size_t nblocks = block_counts[c];
      /* r0 from the top of the 26-bit range down: big r0 reach high targets */
      int found = 0;
      uint64_t r0 = 0;
      big before = {{0, 0, 0}};
      for (int attempt = 0; attempt < 64 && !found; attempt++) {
        r0 = ((uint64_t)1 << 26) - 1 - 2 * test_rand_below((uint64_t)1 << 23);
        test_fill_random(message, 16 * (nblocks - 1));
        before = big_from(0);
        for (size_t b = 0; b + 1 < nblocks; b++) before = absorb(before, r0, message + 16 * b);
        found = solve_block(r0, before, targets[t], message + 16 * (nblocks - 1));
      }
      if (!found) {
        unsolved++;
        continue;
      }
      solved++, solved_here++;
      assert_true(big_equal(absorb(before, r0, message + 16 * (nblocks - 1)), targets[t]));
      uint8_t key[32] = {0}, expected[16], tag[16];
      for (int i = 0; i < 4; i++) key[i] = (uint8_t)(r0 >> (8 * i));
      if (t % 2)
        memset(key + 16, 0xff, 16);
      else
        test_fill_random(key + 16, 16);
      model_tag(targets[t], key + 16, expected);
#ifdef CRISP_TEST_WITH_SODIUM
      uint8_t sodium_tag[16];
      crypto_onetimeauth_poly1305(sodium_tag, message, 16 * nblocks, key);
      assert_bytes_equal(sodium_tag, expected, 16,
                         "the model disagrees with libsodium: target %zu, %zu blocks\n", t, nblocks);
#endif
      const char *name;
      FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
        crisp_poly1305(tag, message, 16 * nblocks, key);
        assert_bytes_equal(tag, expected, 16,
                           "poly1305 %s: target %zu (%016llx %016llx %016llx), %zu blocks\n", name, t,
                           (unsigned long long)targets[t].w[2], (unsigned long long)targets[t].w[1],
                           (unsigned long long)targets[t].w[0], nblocks);
        /* streamed: the first block alone, then the rest */
        crisp_poly1305_ctx ctx;
        crisp_poly1305_init(&ctx, key);
        crisp_poly1305_update(&ctx, message, 16);
        crisp_poly1305_update(&ctx, message + 16, 16 * (nblocks - 1));
        crisp_poly1305_final(&ctx, tag);
        assert_bytes_equal(tag, expected, 16, "poly1305 %s: target %zu, %zu blocks, streamed\n", name, t,
                           nblocks);
      }
    }
    if (!solved_here)
      fail_msg("no message found for target %zu (%016llx %016llx %016llx)", t,
               (unsigned long long)targets[t].w[2], (unsigned long long)targets[t].w[1],
               (unsigned long long)targets[t].w[0]);
  }
  printf("# %zu accumulator targets x block counts solved, %zu out of reach\n", solved, unsolved);
  free(message);
}

int main(void) {
  test_seed(0x7374617465ull);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_final_reduction_states, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
