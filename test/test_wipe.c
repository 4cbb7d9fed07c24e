/* test/test_wipe.c - no secret-derived value is left in the stack a call
 * used. Before each call the stack below the caller is filled with a
 * canary; after it returns, that stack is copied out. Two calls with the
 * same public inputs (modulus, sizes, lengths) and different secrets must
 * leave identical copies: a word that differs was written from a secret and
 * not wiped. Runs every public entry that takes a secret (the bignum calls,
 * ChaCha20 and HChaCha20, both AEADs one-shot and streamed, Poly1305) at
 * every implementation and the sizes that take each code path, and again
 * as the first call of a fresh process at each level, where the CPU probe
 * and, under lazy binding, the dynamic resolver run inside the call. One
 * such word fails, and is printed with what it is where the test can tell
 * (a secret word, a radix 2^52 or 2^26 digit of one). Blind spots: a word
 * that happens to be equal in both runs (a carry bit, one time in two),
 * and a kernel that spills nothing cannot show a missing wipe. */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#include "memcheck_optional.h"

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
  return (near(a, heap_address) && near(b, heap_address)) ||
         (near(a, stack_address) && near(b, stack_address));
}

/* The secrets of a run, as little-endian pieces (a and b; a Poly1305 key
 * and its clamped r; the CRT's dp and dq), kept for the run behind the
 * first snapshot so that a word left behind can be named: a copy of a
 * secret word, a radix 2^52 digit (the IFMA kernels' form), a radix 2^26
 * digit or five times one (Poly1305's limbs), or a value computed from
 * them. */
enum { SECRET_BYTES = 256 * 8, PIECES = 5 };
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
      if (w == piece_bits(s->bytes[p], len, 64 * j, 64))
        return snprintf(text, cap, "word %zu of secret %zu", j, p), text;
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
 * crisp_wipe_lines, crisp_scrub_below). The first 8 words of a call are
 * printed, every one with CRISP_TEST_VERBOSE set. */
static size_t secret_words(const uint64_t *first, const uint64_t *second, const char *what, const char *name,
                           size_t size) {
  const int verbose = getenv("CRISP_TEST_VERBOSE") != NULL;
  size_t count = 0;
  char text[64];
  for (size_t i = 0; i < STACK_WORDS; i++) {
    if (first[i] == second[i] || pointers(first[i], second[i])) continue;
    if (count++ < 8 || verbose)
      print_error("%s %s (size %zu): word %zu below the caller left behind: %016llx / %016llx, %s\n", what,
                  name, size, STACK_WORDS - i, (unsigned long long)first[i], (unsigned long long)second[i],
                  secret_form(first[i], &planted_first, text, sizeof text));
  }
  if (count)
    print_error("%s %s (size %zu): %zu secret-derived words left in the stack\n", what, name, size, count);
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

/* ---- the calls under test ------------------------------------------------ */

/* Every buffer a call reads or writes is static: an output derived from a
 * secret in a frame between the measuring one and the library would be the
 * test's own word, not a leak. */
enum { MAX_LIMBS = 64, PRODUCT_MAX_LIMBS = 256, MESSAGE_MAX = 20000, AD_LEN = 13 };
static crisp_limb bn_m[PRODUCT_MAX_LIMBS], bn_a[PRODUCT_MAX_LIMBS], bn_b[PRODUCT_MAX_LIMBS];
static crisp_limb bn_r[2 * PRODUCT_MAX_LIMBS], bn_r1[MAX_LIMBS], bn_c[2 * MAX_LIMBS], bn_carry, bn_minv;
static uint8_t key[32], nonce[24], ad[AD_LEN], tag[16], forged_tag[16];
static uint8_t message[MESSAGE_MAX], sealed[MESSAGE_MAX], opened[MESSAGE_MAX], in_place[MESSAGE_MAX];
static crisp_poly1305_ctx mac_ctx;
static crisp_chacha20_poly1305_ctx aead_ctx;
/* The status each call gave, checked outside the measured frames. */
static int status_seen, status_expected;

static void status_is(int status, int expected) {
  if (status != expected && status_seen == status_expected) status_seen = status, status_expected = expected;
}

static void random_modulus(crisp_limb *m, size_t n) {
  test_fill_random(m, n * sizeof *m);
  m[0] |= 1, m[n - 1] |= 1ull << 63;
}

static void random_below(crisp_limb *x, const crisp_limb *m, size_t n) {
  test_fill_random(x, n * sizeof *x);
  x[n - 1] = m[n - 1] >> 1;
}

/* Public inputs: a modulus (its inverse computed here, out of the measured
 * frames), a message, a nonce, associated data. */
static void public_inputs(size_t size) {
  const size_t n = size < PRODUCT_MAX_LIMBS ? size : PRODUCT_MAX_LIMBS;
  memset(&planted, 0, sizeof planted); /* pieces a case does not plant name nothing */
  random_modulus(bn_m, n);
  bn_minv = crisp_bn_mont_inv(bn_m[0]);
  test_fill_random(message, sizeof message);
  test_fill_random(nonce, sizeof nonce);
  test_fill_random(ad, sizeof ad);
}

/* Secrets: operands below the modulus (for the plain products and mul_add
 * too: any value is theirs). */
static void bn_operands(size_t n) {
  random_below(bn_a, bn_m, n), random_below(bn_b, bn_m, n);
  plant(0, bn_a, n * sizeof *bn_a), plant(1, bn_b, n * sizeof *bn_b);
}

/* The moduli are the secrets too: the CRT's primes, the modulus of
 * crisp_bn_mont_r2 (R^2 mod p in an RSA key), the Montgomery products'
 * (a caller's own CRT), and with them minv. */
static void bn_operands_and_modulus(size_t n) {
  random_modulus(bn_m, n);
  bn_minv = crisp_bn_mont_inv(bn_m[0]);
  bn_operands(n);
  plant(2, bn_m, n * sizeof *bn_m);
}

static void call_mul(size_t n) {
  status_is(crisp_bn_mul(bn_r, bn_a, n, bn_b, n), CRISP_OK);
}
/* a longer than b: Karatsuba's blocks of b's length and a schoolbook rest */
static void call_mul_uneven(size_t n) {
  status_is(crisp_bn_mul(bn_r, bn_a, n, bn_b, n / 2 + n / 8), CRISP_OK);
}
static void call_sqr(size_t n) {
  status_is(crisp_bn_sqr(bn_r, bn_a, n), CRISP_OK);
}
/* bn_r starts as b: z += x k with z, x and k secret */
static void call_mul_add(size_t n) {
  memcpy(bn_r, bn_b, n * sizeof *bn_r);
  status_is(crisp_bn_mul_add(bn_r, bn_a, n, bn_b[0], &bn_carry), CRISP_OK);
}
static void call_mont_r2(size_t n) {
  status_is(crisp_bn_mont_r2(bn_r, bn_m, n), CRISP_OK);
}
static void call_mont_mul(size_t n) {
  status_is(crisp_bn_mont_mul(bn_r, bn_a, bn_b, bn_m, n, bn_minv), CRISP_OK);
}
/* r == a: the front-end's copy of the operand */
static void call_mont_mul_aliased(size_t n) {
  memcpy(bn_r, bn_a, n * sizeof *bn_r);
  status_is(crisp_bn_mont_mul(bn_r, bn_r, bn_b, bn_m, n, bn_minv), CRISP_OK);
}
static void call_mont_sqr_aliased(size_t n) {
  memcpy(bn_r, bn_a, n * sizeof *bn_r);
  status_is(crisp_bn_mont_sqr(bn_r, bn_r, bn_m, n, bn_minv), CRISP_OK);
}
static void call_mont_sqr(size_t n) {
  status_is(crisp_bn_mont_sqr(bn_r, bn_a, bn_m, n, bn_minv), CRISP_OK);
}
static void call_mod_exp(size_t n) {
  status_is(crisp_bn_mod_exp(bn_r, bn_a, bn_b, n, bn_m, n), CRISP_OK);
}
/* bases a and b, exponents b and a */
static void call_mod_exp2(size_t n) {
  status_is(crisp_bn_mod_exp2(bn_r, bn_r1, bn_a, bn_b, bn_b, bn_a, n, bn_m, bn_m, n), CRISP_OK);
}
/* p = m, q = m - 2 with qinv = (m - 1) / 2 (test_crt_partner: coprime,
 * qinv the inverse), random dp and dq of half limbs and e = 65537: the
 * fault check fails (r^e is not c), so every call gives CRISP_E_MISMATCH
 * after the whole computation, which takes no branch on the verdict. c,
 * qinv, the primes and the exponents are the secrets: each differs from
 * run to run, so a word derived from any one of them alone shows. The
 * implementation's mod_exp2 runs exponentiations and check together where
 * it can (half > 1). */
static const crisp_limb crt_e[1] = {65537};
static crisp_limb crt_q[MAX_LIMBS], crt_qinv[MAX_LIMBS], crt_dp[MAX_LIMBS], crt_dq[MAX_LIMBS];
static void crt_key(size_t n) {
  bn_operands_and_modulus(n);
  test_crt_partner(crt_q, crt_qinv, bn_m, n);
  test_fill_random(crt_dp, n * sizeof *crt_dp);
  test_fill_random(crt_dq, n * sizeof *crt_dq);
  plant(1, crt_qinv, n * sizeof *crt_qinv);
  plant(3, crt_dp, n * sizeof *crt_dp), plant(4, crt_dq, n * sizeof *crt_dq);
}
static void call_mod_exp_crt(size_t n) {
  memcpy(bn_c, bn_a, n * sizeof *bn_c);
  memset(bn_c + n, 0, n * sizeof *bn_c);
  status_is(crisp_bn_mod_exp_crt(bn_r, bn_c, bn_m, crt_q, crt_dp, crt_dq, crt_qinv, n, crt_e, 1),
            CRISP_E_MISMATCH);
}
/* The same key prepared (its checks, p q and the R^2s), then used. The
 * key is freed before the next run's secrets are drawn, outside the
 * measured frames: the C library's free leaves words of its own there,
 * derived from where the blocks lie (and in a child of test_first_calls
 * there is none to free, so no library call comes before the first). */
static crisp_bn_crt_key *crt_prepared;
static void crt_key_again(size_t n) {
  if (crt_prepared) crisp_bn_crt_key_free(crt_prepared), crt_prepared = NULL;
  crt_key(n);
}
static void call_crt_key_new(size_t n) {
  status_is(crisp_bn_crt_key_new(&crt_prepared, bn_m, crt_q, crt_dp, crt_dq, crt_qinv, n, crt_e, 1),
            CRISP_OK);
}
static void call_crt_key_exp(size_t n) {
  memcpy(bn_c, bn_a, n * sizeof *bn_c);
  memset(bn_c + n, 0, n * sizeof *bn_c);
  call_crt_key_new(n);
  status_is(crisp_bn_crt_key_exp(bn_r, bn_c, crt_prepared), CRISP_E_MISMATCH);
}

/* The key and its clamped r (RFC 8439 2.5). */
static void poly1305_key(size_t len) {
  (void)len;
  test_fill_random(key, sizeof key);
  uint8_t r[16];
  memcpy(r, key, 16);
  for (int i = 3; i < 16; i += 4) r[i] &= 15;
  for (int i = 4; i < 16; i += 4) r[i] &= 252;
  plant(0, key, 32), plant(1, r, 16);
}

static void call_poly1305(size_t len) {
  crisp_poly1305(tag, message, len, key);
}
/* 64-byte updates, whose vector steps run one call at a time */
static void call_poly1305_stream(size_t len) {
  crisp_poly1305_init(&mac_ctx, key);
  for (size_t done = 0; done < len; done += 64)
    crisp_poly1305_update(&mac_ctx, message + done, len - done < 64 ? len - done : 64);
  crisp_poly1305_final(&mac_ctx, tag);
}
static void call_poly1305_verify(size_t len) {
  status_is(crisp_poly1305_verify(forged_tag, message, len, key), CRISP_E_MISMATCH);
}

/* A ChaCha20 or AEAD key (and what HChaCha20 makes of it is derived). */
static void chacha20_key(size_t len) {
  (void)len;
  test_fill_random(key, sizeof key);
  plant(0, key, 32);
}

static void call_chacha20(size_t len) {
  status_is(crisp_chacha20(sealed, message, len, key, nonce, 1), CRISP_OK);
}
static void call_hchacha20(size_t len) {
  (void)len;
  status_is(crisp_hchacha20(sealed, key, nonce), CRISP_OK);
}

/* Seal, then open apart and in place: genuine, then forged (the tag of
 * another message). */
static void call_aead(size_t len) {
  status_is(crisp_chacha20_poly1305_seal(sealed, tag, message, len, ad, AD_LEN, nonce, key), CRISP_OK);
  status_is(crisp_chacha20_poly1305_open(opened, sealed, len, tag, ad, AD_LEN, nonce, key), CRISP_OK);
  memcpy(in_place, sealed, len);
  status_is(crisp_chacha20_poly1305_open(in_place, in_place, len, tag, ad, AD_LEN, nonce, key), CRISP_OK);
  status_is(crisp_chacha20_poly1305_open(opened, sealed, len, forged_tag, ad, AD_LEN, nonce, key),
            CRISP_E_MISMATCH);
  memcpy(in_place, sealed, len);
  status_is(crisp_chacha20_poly1305_open(in_place, in_place, len, forged_tag, ad, AD_LEN, nonce, key),
            CRISP_E_MISMATCH);
}
static void call_xaead(size_t len) {
  status_is(crisp_xchacha20_poly1305_seal(sealed, tag, message, len, ad, AD_LEN, nonce, key), CRISP_OK);
  status_is(crisp_xchacha20_poly1305_open(opened, sealed, len, tag, ad, AD_LEN, nonce, key), CRISP_OK);
  memcpy(in_place, sealed, len);
  status_is(crisp_xchacha20_poly1305_open(in_place, in_place, len, tag, ad, AD_LEN, nonce, key), CRISP_OK);
  status_is(crisp_xchacha20_poly1305_open(opened, sealed, len, forged_tag, ad, AD_LEN, nonce, key),
            CRISP_E_MISMATCH);
  memcpy(in_place, sealed, len);
  status_is(crisp_xchacha20_poly1305_open(in_place, in_place, len, forged_tag, ad, AD_LEN, nonce, key),
            CRISP_E_MISMATCH);
}
/* The message in pieces of 1, 63 and 64 bytes, then the rest. */
static void stream_pieces(uint8_t *out, const uint8_t *in, size_t len) {
  static const size_t pieces[] = {1, 63, 64};
  size_t done = 0;
  for (size_t i = 0; i < sizeof pieces / sizeof pieces[0] && done + pieces[i] <= len; i++) {
    status_is(crisp_chacha20_poly1305_stream_update(&aead_ctx, out + done, in + done, pieces[i]), CRISP_OK);
    done += pieces[i];
  }
  status_is(crisp_chacha20_poly1305_stream_update(&aead_ctx, out + done, in + done, len - done), CRISP_OK);
}
/* Seal (ChaCha20), then open genuine (XChaCha20, over its own seal) and
 * forged. */
static void call_stream(size_t len) {
  status_is(crisp_chacha20_poly1305_stream_init(&aead_ctx, CRISP_AEAD_SEAL, nonce, key, ad, AD_LEN),
            CRISP_OK);
  stream_pieces(sealed, message, len);
  status_is(crisp_chacha20_poly1305_stream_seal_final(&aead_ctx, tag), CRISP_OK);
  status_is(crisp_xchacha20_poly1305_stream_init(&aead_ctx, CRISP_AEAD_SEAL, nonce, key, ad, AD_LEN),
            CRISP_OK);
  stream_pieces(sealed, message, len);
  status_is(crisp_chacha20_poly1305_stream_seal_final(&aead_ctx, tag), CRISP_OK);
  status_is(crisp_xchacha20_poly1305_stream_init(&aead_ctx, CRISP_AEAD_OPEN, nonce, key, ad, AD_LEN),
            CRISP_OK);
  stream_pieces(opened, sealed, len);
  status_is(crisp_chacha20_poly1305_stream_open_final(&aead_ctx, tag), CRISP_OK);
  status_is(crisp_xchacha20_poly1305_stream_init(&aead_ctx, CRISP_AEAD_OPEN, nonce, key, ad, AD_LEN),
            CRISP_OK);
  stream_pieces(opened, sealed, len);
  status_is(crisp_chacha20_poly1305_stream_open_final(&aead_ctx, forged_tag), CRISP_E_MISMATCH);
  /* Whole in one update, seal and open apart: the first update takes the
   * key block beside its blocks (a first piece of 1 byte cannot). */
  status_is(crisp_chacha20_poly1305_stream_init(&aead_ctx, CRISP_AEAD_SEAL, nonce, key, ad, AD_LEN),
            CRISP_OK);
  status_is(crisp_chacha20_poly1305_stream_update(&aead_ctx, sealed, message, len), CRISP_OK);
  status_is(crisp_chacha20_poly1305_stream_seal_final(&aead_ctx, tag), CRISP_OK);
  status_is(crisp_chacha20_poly1305_stream_init(&aead_ctx, CRISP_AEAD_OPEN, nonce, key, ad, AD_LEN),
            CRISP_OK);
  status_is(crisp_chacha20_poly1305_stream_update(&aead_ctx, opened, sealed, len), CRISP_OK);
  status_is(crisp_chacha20_poly1305_stream_open_final(&aead_ctx, tag), CRISP_OK);
}

/* ---- the cases ----------------------------------------------------------- */

/* Sizes: schoolbook, the 8- and 16-limb unrolled squares, the IFMA sizes
 * (per-call conversion from 24 limbs), Karatsuba products (32 up) and
 * squares (48 up), two levels of it (64), and for the plain products 65,
 * whose 32-limb lower half recurses in a square where its 33-limb upper
 * half does not; 128, 129 and 256, the Karatsuba classes above, whose
 * frames clean up after themselves. The exponentiations at those sizes and
 * 48 and 64 limbs, where the IFMA exponentiation leaves its two-lane binary
 * ladder for a fixed-window one. */
static const size_t product_sizes[] = {3, 8, 16, 24, 32, 48, 64, 65, 128, 129, 256};
static const size_t montgomery_sizes[] = {3, 8, 16, 24, 32, 48, 64};
static const size_t exponent_sizes[] = {3, 8, 16, 24, 32, 48, 64};
/* The prepared key's operation runs the one-call CRT's code past its
 * checks, which bn_mod_exp_crt measures at every size: three sizes here. */
static const size_t prepared_exp_sizes[] = {3, 16, 32};
/* 2^k - 1 bytes, and each side of the vector kernels' default crossovers
 * (8, 24, 48 and 72 blocks), where the scrub's depth changes. */
static const size_t poly1305_lengths[] = {15,  31,  63,  127,  128,  255,  383, 384,
                                          511, 767, 768, 1023, 1151, 1152, 2047};
/* Every ChaCha20 path: a lone partial block, one block, the scalar tails
 * beside a group, one and two groups of every width, past them. */
static const size_t chacha20_lengths[] = {1,   7,   16,  33,   63,   64,   65,   127,  128,
                                          191, 256, 511, 1023, 1024, 1025, 2047, 2048, 4095};
static const size_t hchacha20_lengths[] = {16};
/* 2^k - 1 bytes, 3105 (after the key block's first blocks the rest ends in
 * a lone block beside the last group), and past the AEAD's 16 KiB chunk. */
/* Also each side of where the MAC's bytes (ad, message, their pads and the
 * lengths block) pass the IFMA Poly1305's default crossover, 384 bytes,
 * and of 1024 bytes, past which ChaCha20 takes its widest path. */
static const size_t aead_lengths[] = {0,   15,  31,   63,   127,  255,  319,  320,  336,
                                      337, 511, 1023, 1024, 1025, 2047, 3105, 4095, MESSAGE_MAX};

typedef struct wipe_case {
  const char *what;
  crisp_kernel kernel;     /* whose implementations to run */
  crisp_kernel kernel_too; /* pinned to the same name where it has one (mod_exp's squares) */
  const size_t *sizes;
  size_t size_count;
  void (*secrets)(size_t size); /* draws a run's secrets and plants them */
  void (*call)(size_t size);
} wipe_case;

#define SIZES(list) list, sizeof list / sizeof list[0]
static const wipe_case cases[] = {
    {"bn_mul", CRISP_KERNEL_BN_MUL, CRISP_KERNEL_COUNT, SIZES(product_sizes), bn_operands, call_mul},
    {"bn_mul uneven", CRISP_KERNEL_BN_MUL, CRISP_KERNEL_COUNT, SIZES(product_sizes), bn_operands,
     call_mul_uneven},
    {"bn_sqr", CRISP_KERNEL_BN_SQR, CRISP_KERNEL_COUNT, SIZES(product_sizes), bn_operands, call_sqr},
    {"bn_mul_add", CRISP_KERNEL_BN_MUL_ADD, CRISP_KERNEL_COUNT, SIZES(product_sizes), bn_operands,
     call_mul_add},
    {"bn_mont_r2", CRISP_KERNEL_BN_MONT_SQR, CRISP_KERNEL_COUNT, SIZES(montgomery_sizes),
     bn_operands_and_modulus, call_mont_r2},
    {"bn_mont_mul", CRISP_KERNEL_BN_MONT_MUL, CRISP_KERNEL_COUNT, SIZES(montgomery_sizes),
     bn_operands_and_modulus, call_mont_mul},
    {"bn_mont_sqr", CRISP_KERNEL_BN_MONT_SQR, CRISP_KERNEL_COUNT, SIZES(montgomery_sizes),
     bn_operands_and_modulus, call_mont_sqr},
    {"bn_mont_mul aliased", CRISP_KERNEL_BN_MONT_MUL, CRISP_KERNEL_COUNT, SIZES(montgomery_sizes),
     bn_operands_and_modulus, call_mont_mul_aliased},
    {"bn_mont_sqr aliased", CRISP_KERNEL_BN_MONT_SQR, CRISP_KERNEL_COUNT, SIZES(montgomery_sizes),
     bn_operands_and_modulus, call_mont_sqr_aliased},
    /* the mont_mul implementation's own exponentiation or the front-end's
     * ladder over mont_mul and mont_sqr */
    {"bn_mod_exp", CRISP_KERNEL_BN_MONT_MUL, CRISP_KERNEL_BN_MONT_SQR, SIZES(exponent_sizes), bn_operands,
     call_mod_exp},
    {"bn_mod_exp2", CRISP_KERNEL_BN_MOD_EXP2, CRISP_KERNEL_COUNT, SIZES(exponent_sizes), bn_operands,
     call_mod_exp2},
    /* the CRT around it: reductions, recombination and the fault check */
    {"bn_mod_exp_crt", CRISP_KERNEL_BN_MOD_EXP2, CRISP_KERNEL_COUNT, SIZES(montgomery_sizes), crt_key,
     call_mod_exp_crt},
    /* the prepared key: crisp_bn_crt_key_new alone, then with key_exp */
    {"bn_crt_key_new", CRISP_KERNEL_BN_MOD_EXP2, CRISP_KERNEL_COUNT, SIZES(montgomery_sizes), crt_key_again,
     call_crt_key_new},
    {"bn_crt_key_exp", CRISP_KERNEL_BN_MOD_EXP2, CRISP_KERNEL_COUNT, SIZES(prepared_exp_sizes), crt_key_again,
     call_crt_key_exp},
    {"poly1305", CRISP_KERNEL_POLY1305, CRISP_KERNEL_COUNT, SIZES(poly1305_lengths), poly1305_key,
     call_poly1305},
    {"poly1305 streamed", CRISP_KERNEL_POLY1305, CRISP_KERNEL_COUNT, SIZES(poly1305_lengths), poly1305_key,
     call_poly1305_stream},
    {"poly1305_verify", CRISP_KERNEL_POLY1305, CRISP_KERNEL_COUNT, SIZES(poly1305_lengths), poly1305_key,
     call_poly1305_verify},
    {"chacha20", CRISP_KERNEL_CHACHA20, CRISP_KERNEL_COUNT, SIZES(chacha20_lengths), chacha20_key,
     call_chacha20},
    {"hchacha20", CRISP_KERNEL_CHACHA20, CRISP_KERNEL_COUNT, SIZES(hchacha20_lengths), chacha20_key,
     call_hchacha20},
    {"chacha20poly1305", CRISP_KERNEL_CHACHA20, CRISP_KERNEL_COUNT, SIZES(aead_lengths), chacha20_key,
     call_aead},
    {"xchacha20poly1305", CRISP_KERNEL_CHACHA20, CRISP_KERNEL_COUNT, SIZES(aead_lengths), chacha20_key,
     call_xaead},
    {"chacha20poly1305 stream", CRISP_KERNEL_CHACHA20, CRISP_KERNEL_COUNT, SIZES(aead_lengths), chacha20_key,
     call_stream},
};

/* ---- running them -------------------------------------------------------- */

/* One call under test: the stack below filled, the callee-saved registers
 * cleared, the call, the stack copied out. The same frame for every run,
 * so every run's stack lies at the same addresses. */
static __attribute__((noinline)) void measured(void (*call)(size_t), size_t size) {
  stack_below(0);
  CLEAR_CALLEE_SAVED();
  call(size);
  stack_below(1);
  /* not a tail call: stack_below(1) must read from where stack_below(0)
   * wrote, not from a frame moved up over this one */
  __asm__ __volatile__("");
}

/* Bytes of stack a run wrote below the measuring frame, the test's own
 * frames and the library's, for CRISP_TEST_VERBOSE. */
static size_t stack_used(const uint64_t *words) {
  size_t i = 0;
  while (i < STACK_WORDS && words[i] == canary) i++;
  return (STACK_WORDS - i) * sizeof *words;
}

static uint64_t first_copy[STACK_WORDS], second_copy[STACK_WORDS];

/* Two runs of a case with different secrets after one that resolves what
 * a first call resolves (first calls have test_first_calls below): the
 * number of words that differ. */
static size_t check_warm(const wipe_case *c, const char *name, size_t size, size_t *deepest) {
  public_inputs(size);
  test_fill_random(forged_tag, sizeof forged_tag);
  status_seen = status_expected = 0;
  /* No loop: a counter could reach the stack through a saved register
   * (the frame pointer register, which CLEAR_CALLEE_SAVED leaves alone). */
  c->secrets(size);
  measured(c->call, size);
  c->secrets(size);
  measured(c->call, size);
  memcpy(first_copy, snapshot, sizeof snapshot), planted_first = planted;
  c->secrets(size);
  measured(c->call, size);
  memcpy(second_copy, snapshot, sizeof snapshot);
  if (status_seen != status_expected)
    print_error("%s %s (size %zu): status %d, expected %d\n", c->what, name, size, status_seen,
                status_expected);
  assert_int_equal(status_seen, status_expected);
  const size_t used = stack_used(second_copy);
  if (used > *deepest) *deepest = used;
  return secret_words(first_copy, second_copy, c->what, name, size);
}

/* Every case, every implementation of its kernel, every size. */
static void test_warm_calls(void **state) {
  (void)state;
  const int verbose = getenv("CRISP_TEST_VERBOSE") != NULL;
  size_t failures = 0; /* calls that left a secret-derived word */
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const wipe_case *c = &cases[i];
    const char *name;
    FOR_EACH_IMPL(c->kernel, name) {
      if (c->kernel_too != CRISP_KERNEL_COUNT && crisp_use_impl(c->kernel_too, name) != CRISP_OK)
        crisp_use_impl(c->kernel_too, NULL);
      for (size_t s = 0; s < c->size_count; s++) {
        size_t deepest = 0;
        failures += check_warm(c, name, c->sizes[s], &deepest) != 0;
        if (verbose)
          printf("# %s %s (size %zu): %zu bytes of stack used\n", c->what, name, c->sizes[s], deepest);
      }
    }
    if (c->kernel_too != CRISP_KERNEL_COUNT) crisp_use_impl(c->kernel_too, NULL);
  }
  if (failures) {
    print_error("%zu calls left secret-derived values in the stack\n", failures);
    fail();
  }
}

/* What a child process reports of its one call. */
typedef struct child_report {
  uint64_t words[STACK_WORDS];
  secrets planted;
  char level[32];
  int finished;
  int status, expected;
} child_report;

/* A process's first call into the library probes the CPU and, where
 * libcrisp is bound lazily, enters the dynamic resolver at each function's
 * first call; neither may leave a secret behind. This runs in a child
 * forked from a process that has not called into the library yet, at the
 * level given through CRYPTO_FORCE, which the probe reads. */
static void first_call_child(const wipe_case *c, const char *level, size_t size, child_report *report) {
  setenv("CRYPTO_FORCE", level, 1);
  const int null = open("/dev/null", O_WRONLY); /* the line for a level this CPU lacks */
  if (null >= 0) dup2(null, 2);
  status_seen = status_expected = 0;
  measured(c->call, size);
  memcpy(report->words, snapshot, sizeof snapshot);
  report->planted = planted;
  snprintf(report->level, sizeof report->level, "%s", crisp_level());
  report->status = status_seen, report->expected = status_expected;
  report->finished = 1;
  _exit(0);
}

static child_report first_reports[2];
static size_t first_calls_compared; /* at levels this CPU has */

/* One child: fresh secrets, the call, its report in shared. */
static void fork_first_call(const wipe_case *c, const char *level, size_t size, child_report *shared) {
  memset(shared, 0, sizeof *shared);
  c->secrets(size);
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) first_call_child(c, level, size, shared);
  int wait_status;
  assert_int_equal(waitpid(pid, &wait_status, 0), pid);
  if (!WIFEXITED(wait_status) || WEXITSTATUS(wait_status) != 0 || !shared->finished)
    print_error("%s first call at %s (size %zu): the child died (status %d)\n", c->what, level, size,
                wait_status);
  assert_true(shared->finished);
  if (shared->status != shared->expected)
    print_error("%s first call at %s (size %zu): status %d, expected %d\n", c->what, level, size,
                shared->status, shared->expected);
  assert_int_equal(shared->status, shared->expected);
}

/* Two first calls with different secrets, each in a child of its own
 * that reports into the one shared page (so that no value the test holds
 * differs between the two but the secrets): the words that differ, or 0
 * when the level is not this CPU's. */
static size_t check_first(const wipe_case *c, const char *level, size_t size, child_report *shared) {
  public_inputs(size);
  test_fill_random(forged_tag, sizeof forged_tag);
  fflush(stdout);
  /* No loop, as in check_warm: the two children differ in their secrets only. */
  fork_first_call(c, level, size, shared);
  first_reports[0] = *shared;
  fork_first_call(c, level, size, shared);
  first_reports[1] = *shared;
  if (strcmp(first_reports[0].level, level) != 0) return 0;
  first_calls_compared++;
  if (getenv("CRISP_TEST_VERBOSE"))
    printf("# %s first call at %s (size %zu): %zu bytes of stack used\n", c->what, level, size,
           stack_used(first_reports[1].words));
  planted_first = first_reports[0].planted;
  char what[64];
  snprintf(what, sizeof what, "%s first call", c->what);
  return secret_words(first_reports[0].words, first_reports[1].words, what, level, size);
}

/* Every case at every level, at its smallest and largest size, as the
 * first call of a process. Runs before any other test calls into the
 * library: the children inherit this process's state. */
static void test_first_calls(void **state) {
  (void)state;
  child_report *shared =
      mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  assert_true(shared != MAP_FAILED);
  size_t failures = 0;
  const char *levels = crisp_levels(); /* a constant string: nothing is probed or bound */
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const wipe_case *c = &cases[i];
    for (const char *at = levels; *at;) {
      char level[32];
      const size_t len = strcspn(at, " ");
      snprintf(level, sizeof level, "%.*s", (int)len, at);
      at += len + strspn(at + len, " ");
      if (!test_impl_allowed(level)) continue;
      const size_t sizes[2] = {c->sizes[0], c->sizes[c->size_count - 1]};
      for (size_t s = 0; s < 2; s++) failures += check_first(c, level, sizes[s], shared) != 0;
    }
  }
  munmap(shared, sizeof *shared);
  printf("# %zu first calls compared\n", first_calls_compared);
  if (failures) {
    print_error("%zu first calls left secret-derived values in the stack\n", failures);
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
  void *probe = malloc(64);
  heap_address = (uintptr_t)probe;
  free(probe);
  stack_address = (uintptr_t)&probe;
  /* first calls first: no call into the library may come before them */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_first_calls),
      cmocka_unit_test_teardown(test_warm_calls, test_teardown_unpin),
  };
  const int failed = cmocka_run_group_tests(tests, NULL, NULL);
  crisp_bn_crt_key_free(crt_prepared);
  return failed;
}
