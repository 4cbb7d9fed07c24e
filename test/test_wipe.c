/* test/test_wipe.c - no secret-derived value is left in the stack a call
 * used. Before each call the stack below the caller is filled with a
 * canary; after it returns, that stack is copied out. Two calls with the
 * same public inputs (modulus, sizes, lengths) and different secrets must
 * leave identical copies: a word that differs was written from a secret and
 * not wiped. Runs every implementation of the products (crisp_bn_mul,
 * crisp_bn_sqr), the Montgomery kernels,
 * crisp_bn_mod_exp, crisp_bn_mod_exp2 and crisp_bn_mod_exp_crt, Poly1305
 * and ChaCha20 (under the AEADs) at the sizes that take each code path.
 * One such word fails, and is printed with what it is where the test can
 * tell (a secret word, a radix 2^52 or 2^26 digit of one). Blind spots: a
 * word that happens to be equal in both runs (a carry bit, one time in
 * two), and a kernel that spills nothing cannot show a missing wipe. */
#include "common.h"

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#ifndef VALGRIND_MAKE_MEM_DEFINED
#define VALGRIND_MAKE_MEM_DEFINED(address, length) ((void)(address), (void)(length))
#endif

/* More than any kernel's frames: the Karatsuba scratch, the product and
 * the radix 2^52 buffers together stay below 40 KiB. */
enum { STACK_WORDS = 12 * 1024 };
static const uint64_t canary = 0xc5a1a5c5a1a5c5a1ull;
/* Where stack_below copies to: one address for every run, since the
 * pointer itself may be saved on the stack by the code under test. */
static uint64_t snapshot[STACK_WORDS];

/* Fills (copy 0) or copies out (copy 1) the stack below the caller's frame: one
 * function for both, so both see the same addresses. */
static __attribute__((noinline)) void stack_below(int copy) {
  volatile uint64_t area[STACK_WORDS];
  if (!copy) {
    for (size_t i = 0; i < STACK_WORDS; i++) area[i] = canary;
  } else {
    /* the kernels' frames are dead now: say so to memcheck, which tracks it */
    VALGRIND_MAKE_MEM_DEFINED((void *)area, sizeof area);
    for (size_t i = 0; i < STACK_WORDS; i++) snapshot[i] = area[i];
  }
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

/* Addresses differ between calls without being secret (a heap block the
 * call allocated may land elsewhere): a word within 4 GiB of the heap or
 * the stack in both copies is taken for a pointer. A random secret word
 * lands there with probability about 2^-31. */
static uintptr_t heap_address, stack_address;

static int near(uint64_t value, uintptr_t address) {
  return value - (uint64_t)address + (1ull << 32) < (1ull << 33);
}

static int pointers(uint64_t a, uint64_t b) {
  return (near(a, heap_address) && near(b, heap_address)) || (near(a, stack_address) && near(b, stack_address));
}

/* The secrets of a run, as little-endian pieces (a and b; a Poly1305 key
 * and its clamped r), kept for the run behind the first snapshot so that a
 * word left behind can be named: a copy of a secret word, a radix 2^52
 * digit (the IFMA kernels' form), a radix 2^26 digit or five times one
 * (Poly1305's limbs), or a value computed from them. */
enum { SECRET_BYTES = 2 * 64 * 8, PIECES = 3 };
typedef struct secrets {
  uint8_t bytes[PIECES][SECRET_BYTES];
  size_t len[PIECES];
} secrets;
static secrets planted, planted_first;

static __attribute__((noinline)) void plant(size_t piece, const void *secret, size_t len) {
  memcpy(planted.bytes[piece], secret, len);
  planted.len[piece] = len;
}

/* Bits [first, first + width) of a piece, width <= 64. */
static uint64_t piece_bits(const uint8_t *piece, size_t len, size_t first, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width && first + i < 8 * len; i++)
    v |= (uint64_t)(piece[(first + i) / 8] >> ((first + i) % 8) & 1) << i;
  return v;
}

static const char *secret_form(uint64_t w, const secrets *s, char *text, size_t cap) {
  for (size_t p = 0; p < PIECES; p++) {
    const size_t len = s->len[p];
    for (size_t j = 0; 64 * j < 8 * len; j++)
      if (w == piece_bits(s->bytes[p], len, 64 * j, 64)) return snprintf(text, cap, "word %zu of secret %zu", j, p), text;
    for (size_t j = 0; 32 * j < 8 * len; j++)
      if (w && w == piece_bits(s->bytes[p], len, 32 * j, 32))
        return snprintf(text, cap, "32-bit word %zu of secret %zu", j, p), text;
    for (size_t j = 0; 26 * j < 8 * len; j++) {
      const uint64_t d = piece_bits(s->bytes[p], len, 26 * j, 26);
      if (d && (w == d || w == 5 * d))
        return snprintf(text, cap, "%sradix 2^26 digit %zu of secret %zu", w == d ? "" : "5 x ", j, p), text;
    }
    for (size_t j = 0; 52 * j < 8 * len; j++)
      if (w && w == piece_bits(s->bytes[p], len, 52 * j, 52))
        return snprintf(text, cap, "radix 2^52 digit %zu of secret %zu", j, p), text;
  }
  return "computed from the secrets";
}

/* Words where two copies differ, each printed with where it lies (words
 * below the caller's frame) and what it is. No word may differ: return
 * addresses, saved registers, canaries and pointers to public buffers are
 * the same in both runs, and a pointer into memory the call allocated is
 * recognised above; the kernels and front-ends overwrite every frame that
 * held a secret-derived value, C-visible or not (crisp_wipe,
 * crisp_scrub_stack, crisp_scrub_stack_deep, crisp_bn52_wipe_frames,
 * chacha20_lanes_scrub). The first 8 words of a call are printed, every
 * one with CRISP_TEST_VERBOSE set. */
static size_t secret_words(const uint64_t *first, const uint64_t *second, const char *what, const char *name,
                           size_t size) {
  const int verbose = getenv("CRISP_TEST_VERBOSE") != NULL;
  size_t count = 0;
  char text[64];
  for (size_t i = 0; i < STACK_WORDS; i++) {
    if (first[i] == second[i] || pointers(first[i], second[i])) continue;
    if (count++ < 8 || verbose)
      print_error("%s %s (size %zu): word %zu below the caller left behind: %016llx / %016llx, %s\n", what, name,
                  size, STACK_WORDS - i, (unsigned long long)first[i], (unsigned long long)second[i],
                  secret_form(first[i], &planted_first, text, sizeof text));
  }
  if (count) print_error("%s %s (size %zu): %zu secret-derived words left in the stack\n", what, name, size, count);
  return count;
}

/* The test's own values that differ from run to run (the random
 * generator's state, counters) may sit in callee-saved registers of the
 * calling code, and a library function that saves such a register leaves
 * the value in its frame, which is not the library's leak. Right before
 * the call under test they are zeroed; the compiler saves them in the
 * caller's frame, above the stack that is read, and then puts in them only
 * that function's own values, which are the same in both runs. The frame
 * pointer register is left alone (an asm may not clobber it where it is
 * one); the secrets are planted out of line so that no key byte is still
 * in a register by then. */
#if defined(__x86_64__)
#define CLEAR_CALLEE_SAVED()                                             \
  __asm__ __volatile__(                                                  \
      "xor %%ebx, %%ebx\n\txor %%r12d, %%r12d\n\txor %%r13d, %%r13d\n\t" \
      "xor %%r14d, %%r14d\n\txor %%r15d, %%r15d"                         \
      :                                                                  \
      :                                                                  \
      : "rbx", "r12", "r13", "r14", "r15")
#elif defined(__aarch64__)
#define CLEAR_CALLEE_SAVED()                                                             \
  __asm__ __volatile__(                                                                  \
      "mov x19, xzr\n\tmov x20, xzr\n\tmov x21, xzr\n\tmov x22, xzr\n\tmov x23, xzr\n\t" \
      "mov x24, xzr\n\tmov x25, xzr\n\tmov x26, xzr\n\tmov x27, xzr\n\tmov x28, xzr"     \
      :                                                                                  \
      :                                                                                  \
      : "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28")
#else
#define CLEAR_CALLEE_SAVED() ((void)0)
#endif

/* The longest operands: 64 limbs, one more for the plain products (see
 * sizes below). */
enum { MAX_LIMBS = 64, PRODUCT_MAX_LIMBS = MAX_LIMBS + 1 };

typedef enum operation { MUL, MUL_UNEVEN, SQR, MONT_MUL, MONT_SQR, MOD_EXP, MOD_EXP2, MOD_EXP_CRT } operation;

/* Public parts of the CRT call: dp = dq = e = 1, so the fault check passes
 * (r = c) and c and the key (p = m, q = m - 2, qinv) are the secrets. */
static const crisp_limb crt_one[64] = {1};

/* One call of the operation on the given secrets (a, b or base, exponent)
 * with modulus m, the stack filled before and copied after. The calls stay
 * in this one function so that the stack depth is the same for both runs. */
static __attribute__((noinline)) void run_once(operation op, const crisp_limb *a, const crisp_limb *b,
                                               const crisp_limb *m, size_t n) {
  crisp_limb r[2 * PRODUCT_MAX_LIMBS], r1[CRISP_BN_MONT_MAX_LIMBS], c[2 * 64] = {0}, q[64], qinv[64];
  const crisp_limb minv = crisp_bn_mont_inv(m[0]);
  if (op == MOD_EXP_CRT) memcpy(c, a, n * sizeof *c), test_crt_partner(q, qinv, m, n);
  plant(0, a, n * sizeof *a), plant(1, op == MOD_EXP_CRT ? qinv : b, n * sizeof *b);
  if (op == MOD_EXP_CRT) plant(2, m, n * sizeof *m); /* p */
  stack_below(0);
  CLEAR_CALLEE_SAVED();
  int status = CRISP_OK;
  if (op == MUL) status = crisp_bn_mul(r, a, n, b, n);
  /* a longer than b: Karatsuba's blocks of b's length and a schoolbook rest */
  if (op == MUL_UNEVEN) status = crisp_bn_mul(r, a, n, b, n / 2 + n / 8);
  if (op == SQR) status = crisp_bn_sqr(r, a, n);
  if (op == MONT_MUL) status = crisp_bn_mont_mul(r, a, b, m, n, minv);
  if (op == MONT_SQR) status = crisp_bn_mont_sqr(r, a, m, n, minv);
  if (op == MOD_EXP) status = crisp_bn_mod_exp(r, a, b, n, m, n);
  /* bases a and b, exponents b and a */
  if (op == MOD_EXP2) status = crisp_bn_mod_exp2(r, r1, a, b, b, a, n, m, m, n);
  if (op == MOD_EXP_CRT) status = crisp_bn_mod_exp_crt(c, c, m, q, crt_one, crt_one, qinv, n, crt_one, 1);
  stack_below(1);
  assert_int_equal(status, CRISP_OK);
}

static void random_modulus(crisp_limb *m, size_t n) {
  test_fill_random(m, n * sizeof *m);
  m[0] |= 1, m[n - 1] |= 1ull << 63;
}

static void random_below(crisp_limb *x, const crisp_limb *m, size_t n) {
  test_fill_random(x, n * sizeof *x);
  x[n - 1] = m[n - 1] >> 1;
}

/* Sizes: schoolbook, the 8- and 16-limb unrolled squares, the IFMA sizes
 * (per-call conversion from 24 limbs), Karatsuba products (32 up) and
 * squares (48 up), two levels of it (64), and for the plain products 65,
 * whose 32-limb lower half recurses in a square where its 33-limb upper
 * half does not. */
static const size_t sizes[] = {3, 8, 16, 24, 32, 48, 64, 65};

static void check_operation(operation op, crisp_kernel kernel, const char *what) {
  uint64_t *first = malloc(STACK_WORDS * sizeof(uint64_t)), *second = malloc(STACK_WORDS * sizeof(uint64_t));
  assert_non_null(first), assert_non_null(second);
  /* the same buffers for both runs: their addresses may reach the stack */
  crisp_limb m[PRODUCT_MAX_LIMBS], a[PRODUCT_MAX_LIMBS], b[PRODUCT_MAX_LIMBS];
  size_t failures = 0; /* calls that left a secret-derived word */
  const char *name;
  FOR_EACH_IMPL(kernel, name) {
    /* mod_exp's ladder squares with mont_sqr: the same implementation */
    if (op == MOD_EXP && crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, name) != CRISP_OK)
      crisp_use_impl(CRISP_KERNEL_BN_MONT_SQR, NULL);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      const size_t n = sizes[s];
      /* the exponentiations are slow past 32 limbs and take no new path;
       * the CRT's (exponents 1) is quick, and its depth grows with size */
      if ((op == MOD_EXP || op == MOD_EXP2) && n > 32) continue;
      if (op != MUL && op != MUL_UNEVEN && op != SQR && n > MAX_LIMBS) continue;
      /* A first call resolves lazy bindings, whose stack use differs. No
       * loop: a counter could reach the stack through a saved register.
       * The modulus is public but for the CRT, whose primes it stands
       * for: there it changes from run to run too. */
      random_modulus(m, n);
      random_below(a, m, n), random_below(b, m, n);
      run_once(op, a, b, m, n);
      if (op == MOD_EXP_CRT) random_modulus(m, n);
      random_below(a, m, n), random_below(b, m, n);
      run_once(op, a, b, m, n);
      memcpy(first, snapshot, sizeof snapshot);
      planted_first = planted;
      if (op == MOD_EXP_CRT) random_modulus(m, n);
      random_below(a, m, n), random_below(b, m, n);
      run_once(op, a, b, m, n);
      memcpy(second, snapshot, sizeof snapshot);
      failures += secret_words(first, second, what, name, n) != 0;
    }
  }
  free(first), free(second);
  if (failures) {
    print_error("%s: %zu calls left secret-derived values in the stack\n", what, failures);
    fail();
  }
}

/* The plain products: their operands are secrets in a caller's RSA. */
static void test_mul_wipes(void **state) {
  (void)state;
  check_operation(MUL, CRISP_KERNEL_BN_MUL, "bn_mul");
  check_operation(MUL_UNEVEN, CRISP_KERNEL_BN_MUL, "bn_mul uneven");
}

static void test_sqr_wipes(void **state) {
  (void)state;
  check_operation(SQR, CRISP_KERNEL_BN_SQR, "bn_sqr");
}

static void test_mont_mul_wipes(void **state) {
  (void)state;
  check_operation(MONT_MUL, CRISP_KERNEL_BN_MONT_MUL, "bn_mont_mul");
}

static void test_mont_sqr_wipes(void **state) {
  (void)state;
  check_operation(MONT_SQR, CRISP_KERNEL_BN_MONT_SQR, "bn_mont_sqr");
}

/* crisp_bn_mod_exp runs the mont_mul implementation's own exponentiation
 * or the front-end's ladder over mont_mul and mont_sqr. */
static void test_mod_exp_wipes(void **state) {
  (void)state;
  check_operation(MOD_EXP, CRISP_KERNEL_BN_MONT_MUL, "bn_mod_exp");
}

/* The dual exponentiation, each implementation with the default
 * Montgomery kernels. */
static void test_mod_exp2_wipes(void **state) {
  (void)state;
  check_operation(MOD_EXP2, CRISP_KERNEL_BN_MOD_EXP2, "bn_mod_exp2");
}

/* The CRT around it: reductions, recombination and the fault check. */
static void test_mod_exp_crt_wipes(void **state) {
  (void)state;
  check_operation(MOD_EXP_CRT, CRISP_KERNEL_BN_MOD_EXP2, "bn_mod_exp_crt");
}

/* The key and its clamped r (RFC 8439 2.5). */
static __attribute__((noinline)) void plant_poly1305_key(const uint8_t key[32]) {
  uint8_t r[16];
  memcpy(r, key, 16);
  for (int i = 3; i < 16; i += 4) r[i] &= 15;
  for (int i = 4; i < 16; i += 4) r[i] &= 252;
  plant(0, key, 32), plant(1, r, 16);
}

static __attribute__((noinline)) void poly1305_once(const uint8_t *data, size_t len, const uint8_t key[32]) {
  uint8_t tag[16];
  plant_poly1305_key(key);
  stack_below(0);
  CLEAR_CALLEE_SAVED();
  crisp_poly1305(tag, data, len, key);
  stack_below(1);
}

/* A stream in 64-byte updates, whose vector steps run one call at a time;
 * the context lies outside the stack that is read. */
static crisp_poly1305_ctx stream_ctx;
static __attribute__((noinline)) void poly1305_stream_once(const uint8_t *data, size_t len, const uint8_t key[32]) {
  uint8_t tag[16];
  plant_poly1305_key(key);
  stack_below(0);
  CLEAR_CALLEE_SAVED();
  crisp_poly1305_init(&stream_ctx, key);
  for (size_t done = 0; done < len; done += 64)
    crisp_poly1305_update(&stream_ctx, data + done, len - done < 64 ? len - done : 64);
  crisp_poly1305_final(&stream_ctx, tag);
  stack_below(1);
}

/* Poly1305 one-shot (its state is on the library's stack) and streamed in
 * 64-byte updates: same message and length, two keys. */
static void test_poly1305_wipes(void **state) {
  (void)state;
  uint64_t *first = malloc(STACK_WORDS * sizeof(uint64_t)), *second = malloc(STACK_WORDS * sizeof(uint64_t));
  assert_non_null(first), assert_non_null(second);
  uint8_t data[2048], key[32];
  test_fill_random(data, sizeof data);
  size_t failures = 0; /* calls that left a secret-derived word */
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_POLY1305, name) {
    for (int streamed = 0; streamed < 2; streamed++) {
      void (*run)(const uint8_t *, size_t, const uint8_t *) = streamed ? poly1305_stream_once : poly1305_once;
      for (size_t len = 15; len <= sizeof data; len = 2 * len + 1) {
        test_fill_random(key, sizeof key);
        run(data, len, key);
        test_fill_random(key, sizeof key);
        run(data, len, key);
        memcpy(first, snapshot, sizeof snapshot);
        planted_first = planted;
        test_fill_random(key, sizeof key);
        run(data, len, key);
        memcpy(second, snapshot, sizeof snapshot);
        failures += secret_words(first, second, streamed ? "poly1305 streamed" : "poly1305", name, len) != 0;
      }
    }
  }
  free(first), free(second);
  if (failures) {
    print_error("poly1305: %zu calls left secret-derived values in the stack\n", failures);
    fail();
  }
}

static __attribute__((noinline)) void aead_once(uint8_t *ct, const uint8_t *data, size_t len, const uint8_t key[32]) {
  static const uint8_t nonce[24] = {1};
  uint8_t tag[16];
  plant(0, key, 32), plant(1, key, 0);
  stack_below(0);
  CLEAR_CALLEE_SAVED();
  crisp_chacha20_poly1305_seal(ct, tag, data, len, NULL, 0, nonce, key);
  /* Forgeries (the tag is the other AEAD's), apart and in place: the two
   * take different one-shot paths. */
  static uint8_t opened[4200];
  crisp_xchacha20_poly1305_open(opened, ct, len, tag, NULL, 0, nonce, key);
  crisp_xchacha20_poly1305_open(ct, ct, len, tag, NULL, 0, nonce, key);
  stack_below(1);
}

/* ChaCha20-Poly1305 seal, then failed XChaCha20 opens (the keystream, the
 * subkey and the buffered plaintext all pass through the library's stack):
 * same message and length, two keys. */
static void test_chacha20_poly1305_wipes(void **state) {
  (void)state;
  uint64_t *first = malloc(STACK_WORDS * sizeof(uint64_t)), *second = malloc(STACK_WORDS * sizeof(uint64_t));
  assert_non_null(first), assert_non_null(second);
  static uint8_t data[4200], ct[4200];
  uint8_t key[32];
  test_fill_random(data, sizeof data);
  size_t failures = 0; /* calls that left a secret-derived word */
  /* 2^k - 1 bytes, and 3105: after the key block's first blocks the rest
   * ends in a lone block beside the last group (avx512 and avx2). */
  static const size_t lengths[] = {15, 31, 63, 127, 255, 511, 1023, 2047, 3105, 4095};
  const char *name;
  FOR_EACH_IMPL(CRISP_KERNEL_CHACHA20, name) {
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
      const size_t len = lengths[l];
      test_fill_random(key, sizeof key);
      aead_once(ct, data, len, key);
      test_fill_random(key, sizeof key);
      aead_once(ct, data, len, key);
      memcpy(first, snapshot, sizeof snapshot);
      planted_first = planted;
      test_fill_random(key, sizeof key);
      aead_once(ct, data, len, key);
      memcpy(second, snapshot, sizeof snapshot);
      failures += secret_words(first, second, "chacha20poly1305", name, len) != 0;
    }
  }
  free(first), free(second);
  if (failures) {
    print_error("chacha20poly1305: %zu calls left secret-derived values in the stack\n", failures);
    fail();
  }
}

int main(void) {
  test_seed(0x77697065ull);
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  /* Sanitizers lay out and use the stack their own way; the check is about
   * the code as it ships. */
  printf("# skipped: sanitizer build\n");
  return 0;
#endif
  heap_address = (uintptr_t)snapshot;
  void *probe = malloc(64);
  heap_address = (uintptr_t)probe;
  free(probe);
  stack_address = (uintptr_t)&probe;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_mul_wipes, test_teardown_unpin),
      cmocka_unit_test_teardown(test_sqr_wipes, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mont_mul_wipes, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mont_sqr_wipes, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mod_exp_wipes, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mod_exp2_wipes, test_teardown_unpin),
      cmocka_unit_test_teardown(test_mod_exp_crt_wipes, test_teardown_unpin),
      cmocka_unit_test_teardown(test_poly1305_wipes, test_teardown_unpin),
      cmocka_unit_test_teardown(test_chacha20_poly1305_wipes, test_teardown_unpin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
