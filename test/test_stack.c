/* test/test_stack.c - every public entry runs on a thread with a 32 KiB
 * stack, at every size class it accepts (the largest included), at every
 * level this CPU has and with each implementation of its kernels, and uses
 * no more stack than its header comment states.
 *
 * How: each entry's calls run in a forked child, on a thread created with
 * a 32 KiB stack (where the C library's minimum is larger, as on arm64, a
 * thread with that minimum whose pages beyond the top 32 KiB are made
 * inaccessible). Before each call the free stack below the caller is
 * painted with a pattern; after it, the deepest word that is no longer the
 * pattern gives the call's stack use. A call that overflows the stack dies
 * of SIGSEGV in the child; the parent then names the call that was running
 * (the child writes it to shared memory before each call) and fails. The
 * measured worst case of every entry is printed, with the bound its header
 * states, and must not exceed it. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "util.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

/* The stack every entry must run in: what pthread_attr_setstacksize(32768)
 * gives, the C library's thread descriptor and TLS at its top included. */
enum { THREAD_STACK_BYTES = 32 * 1024 };
static const uint64_t paint_word = 0x5a17ed5a17ed5a17ull;

/* ---- the operands, static so that the small stack holds none ------------ */

enum { MAX_LIMBS = CRISP_BN_MONT_MAX_LIMBS, PRODUCT_LIMBS = 640, MESSAGE_BYTES = 70000, LANES = 70 };
static crisp_limb operand_x[PRODUCT_LIMBS], operand_y[PRODUCT_LIMBS], product[2 * PRODUCT_LIMBS];
static crisp_limb modulus[MAX_LIMBS], modulus2[MAX_LIMBS], base[MAX_LIMBS], base2[MAX_LIMBS];
static crisp_limb exponent[MAX_LIMBS], result[MAX_LIMBS], result2[MAX_LIMBS];
static crisp_limb prime_p[MAX_LIMBS / 2], prime_q[MAX_LIMBS / 2], exponent_p[MAX_LIMBS / 2],
    exponent_q[MAX_LIMBS / 2], inverse_q[MAX_LIMBS / 2], ciphertext[MAX_LIMBS], public_exponent[1] = {65537};
static uint8_t message[MESSAGE_BYTES], output[MESSAGE_BYTES + 64], key[32], nonce[24], tag[16];
/* Associated data apart from every message buffer: the AEAD refuses an ad
 * that shares a byte with pt, ct or tag. */
static uint8_t associated_data[13];
static const void *lane_data[LANES];
static size_t lane_len[LANES];
static uint8_t lane_digest[LANES][16];
static crisp_md5_ctx md5_contexts[LANES];
static crisp_md5_ctx *md5_context_pointers[LANES];
static crisp_poly1305_ctx poly1305_context;
static crisp_chacha20_poly1305_ctx aead_context;

static void random_odd_top(crisp_limb *m, size_t n) {
  test_fill_random(m, n * sizeof *m);
  m[0] |= 1, m[n - 1] |= 1ull << 63;
}

static void prepare_operands(void) {
  test_fill_random(operand_x, sizeof operand_x);
  test_fill_random(operand_y, sizeof operand_y);
  random_odd_top(modulus, MAX_LIMBS);
  random_odd_top(modulus2, MAX_LIMBS);
  test_fill_random(exponent, sizeof exponent);
  random_odd_top(prime_p, MAX_LIMBS / 2);
  random_odd_top(prime_q, MAX_LIMBS / 2);
  test_fill_random(exponent_p, sizeof exponent_p);
  test_fill_random(exponent_q, sizeof exponent_q);
  test_fill_random(message, sizeof message);
  test_fill_random(key, sizeof key);
  test_fill_random(nonce, sizeof nonce);
  for (size_t i = 0; i < LANES; i++) md5_context_pointers[i] = &md5_contexts[i];
}

/* Operands below the first n limbs of m (whose top limb has its top bit set). */
static void below(crisp_limb *x, const crisp_limb *m, size_t n) {
  memcpy(x, operand_x, n * sizeof *x);
  x[n - 1] = m[n - 1] >> 1;
}

/* ---- the calls ---------------------------------------------------------- */

/* The bignum entries state their stack use by class of size (limbs, or
 * the CRT's half): up to 31, up to 64, up to 128, larger; the others have
 * one bound, repeated. */
enum { CLASSES = 4 };
static size_t size_class(size_t limbs) {
  return limbs <= 31 ? 0 : limbs <= 64 ? 1 : limbs <= 128 ? 2 : 3;
}

/* One call of an entry at a size; returns the entry's status (CRISP_OK for
 * the void entries). Operands are set up before the call, outside the
 * measured stack, by the entry's prepare function. */
typedef struct entry {
  const char *name;
  size_t bound[CLASSES];        /* the worst case its header states, in bytes, by size class */
  crisp_kernel kernels[2];      /* each implementation of these is run; CRISP_KERNEL_COUNT: none */
  const size_t *sizes;          /* ends with END */
  void (*prepare)(size_t size); /* may be NULL */
  int (*call)(size_t size);
  int accepted; /* the status every call must give; -1: CRISP_OK or CRISP_E_MISMATCH */
} entry;

#define END SIZE_MAX
static const size_t limb_sizes[] = {1,  2,  3,  4,  7,  8,  15, 16,  17,  20,  24,  31,  32,  33,
                                    40, 47, 48, 63, 64, 65, 96, 127, 128, 129, 192, 255, 256, END};
static const size_t product_sizes[] = {1,   7,   8,   16,  31,  32,  33,  47,  48,  64,  65,  100, 127,
                                       128, 129, 200, 255, 256, 257, 300, 511, 512, 513, 640, END};
/* The CRT's halves at the class edges only: a call at 128 runs two
 * 8192-bit exponentiations. */
static const size_t half_sizes[] = {1, 2, 8, 16, 31, 32, 33, 64, 65, 128, END};
/* The prepared key's operation runs the one-call form's code after the
 * key's checks, whose stack (the scrub's) is one per class: the halves at
 * each class's lower edge, 16 (the two-lane kernels' size) and 31, not 64
 * or 128, whose exponentiations would cost as much again as the rest. */
static const size_t key_half_sizes[] = {1, 2, 16, 31, 32, 33, 65, END};
static const size_t byte_sizes[] = {
    0,   1,   15,  16,   17,   55,   56,   63,   64,   65,   127,  128,   129,   255,           256, 257,
    511, 512, 513, 1023, 1024, 1025, 2047, 2048, 3105, 4095, 4096, 16383, 65536, MESSAGE_BYTES, END};
static const size_t lane_counts[] = {1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, LANES, END};
static const size_t one_size[] = {1, END};

static void prepare_lanes(size_t n) {
  for (size_t i = 0; i < n; i++) {
    lane_data[i] = message + 13 * i;
    lane_len[i] = (i * 389) % 2100;
  }
  for (size_t i = 0; i < n; i++) crisp_md5_init(&md5_contexts[i]);
}

static int call_md5(size_t len) {
  crisp_md5(message, len, tag);
  return CRISP_OK;
}
static int call_md5_stream(size_t len) {
  crisp_md5_ctx *ctx = &md5_contexts[0];
  crisp_md5_init(ctx);
  crisp_md5_update(ctx, message, len / 3);
  crisp_md5_update(ctx, message + len / 3, len - len / 3);
  crisp_md5_final(ctx, tag);
  return CRISP_OK;
}
static int call_md5_many(size_t n) {
  crisp_md5_many(lane_data, lane_len, n, lane_digest);
  return CRISP_OK;
}
static int call_md5_update_many(size_t n) {
  crisp_md5_update_many(md5_context_pointers, lane_data, lane_len, n);
  return CRISP_OK;
}

static int call_poly1305(size_t len) {
  crisp_poly1305(tag, message, len, key);
  return CRISP_OK;
}
static int call_poly1305_stream(size_t len) {
  crisp_poly1305_init(&poly1305_context, key);
  crisp_poly1305_update(&poly1305_context, message, len / 3);
  crisp_poly1305_update(&poly1305_context, message + len / 3, len - len / 3);
  crisp_poly1305_final(&poly1305_context, tag);
  return CRISP_OK;
}
static int call_poly1305_verify(size_t len) {
  const int status = crisp_poly1305_verify(tag, message, len, key);
  return status == CRISP_E_MISMATCH ? CRISP_OK : status;
}

static int call_chacha20(size_t len) {
  return crisp_chacha20(output, message, len, key, nonce, 1);
}
static int call_hchacha20(size_t size) {
  (void)size;
  return crisp_hchacha20(output, key, nonce);
}
static int call_seal(size_t len) {
  return crisp_chacha20_poly1305_seal(output, tag, message, len, associated_data, sizeof associated_data,
                                      nonce, key);
}
/* Forged: the tag of the previous seal does not fit this nonce's. */
static int call_open(size_t len) {
  const int status = crisp_chacha20_poly1305_open(output, message, len, tag, NULL, 0, nonce, key);
  return status == CRISP_E_MISMATCH ? CRISP_OK : status;
}
static int call_seal_open(size_t len) {
  int status = crisp_chacha20_poly1305_seal(output, tag, message, len, NULL, 0, nonce, key);
  if (status == CRISP_OK)
    status = crisp_chacha20_poly1305_open(output, output, len, tag, NULL, 0, nonce, key);
  return status;
}
static int call_xseal(size_t len) {
  return crisp_xchacha20_poly1305_seal(output, tag, message, len, associated_data, sizeof associated_data,
                                       nonce, key);
}
static int call_xopen(size_t len) {
  const int status = crisp_xchacha20_poly1305_open(output, message, len, tag, NULL, 0, nonce, key);
  return status == CRISP_E_MISMATCH ? CRISP_OK : status;
}
static int call_stream(size_t len) {
  int status = crisp_chacha20_poly1305_stream_init(&aead_context, CRISP_AEAD_SEAL, nonce, key, message, 13);
  if (status == CRISP_OK)
    status = crisp_chacha20_poly1305_stream_update(&aead_context, output, message, len / 3);
  if (status == CRISP_OK)
    status = crisp_chacha20_poly1305_stream_update(&aead_context, output + len / 3, message + len / 3,
                                                   len - len / 3);
  if (status == CRISP_OK) status = crisp_chacha20_poly1305_stream_seal_final(&aead_context, tag);
  if (status == CRISP_OK)
    status = crisp_xchacha20_poly1305_stream_init(&aead_context, CRISP_AEAD_OPEN, nonce, key, message, 13);
  if (status == CRISP_OK) status = crisp_chacha20_poly1305_stream_update(&aead_context, output, output, len);
  if (status == CRISP_OK) status = crisp_chacha20_poly1305_stream_open_final(&aead_context, tag);
  return status == CRISP_E_MISMATCH ? CRISP_OK : status;
}

/* The AEADs by AD length (the size): a long AD can move a short message
 * into a deeper scrub class (src/scrub_depths.h). Messages of 0, 100 and
 * 2000 bytes; the one-shot seal, a forged open and a sealing stream. */
static uint8_t long_ad[MESSAGE_BYTES]; /* apart from the message: the AEADs refuse a shared byte */
static int call_aead_by_ad(size_t ad_len) {
  static const size_t lengths[] = {0, 100, 2000};
  int status = CRISP_OK;
  for (size_t i = 0; status == CRISP_OK && i < sizeof lengths / sizeof lengths[0]; i++) {
    const size_t len = lengths[i];
    status = crisp_chacha20_poly1305_seal(output, tag, message, len, long_ad, ad_len, nonce, key);
    if (status == CRISP_OK) {
      tag[0] ^= 1;
      status = crisp_chacha20_poly1305_open(output + len, output, len, tag, long_ad, ad_len, nonce, key);
      if (status == CRISP_E_MISMATCH) status = CRISP_OK;
    }
    if (status == CRISP_OK)
      status =
          crisp_chacha20_poly1305_stream_init(&aead_context, CRISP_AEAD_SEAL, nonce, key, message, ad_len);
    if (status == CRISP_OK)
      status = crisp_chacha20_poly1305_stream_update(&aead_context, output, message, len);
    if (status == CRISP_OK) status = crisp_chacha20_poly1305_stream_seal_final(&aead_context, tag);
  }
  return status;
}

static int call_mul(size_t n) {
  return crisp_bn_mul(product, operand_x, n, operand_y, n);
}
/* Operands of unequal lengths, measured against the class of the shorter
 * one, n, as bn.h states the bound: the longer in blocks of the shorter
 * and a schoolbook rest, about 1.6 times as long, then as long as the
 * buffers allow, each either way round. */
static size_t longer_than(size_t n) {
  const size_t longer = n + n / 2 + n / 8 + 1;
  return longer < PRODUCT_LIMBS ? longer : PRODUCT_LIMBS;
}
static int call_mul_uneven(size_t n) {
  const int status = crisp_bn_mul(product, operand_x, longer_than(n), operand_y, n);
  return status == CRISP_OK ? crisp_bn_mul(product, operand_y, n, operand_x, longer_than(n)) : status;
}
static int call_mul_longest(size_t n) {
  const int status = crisp_bn_mul(product, operand_x, PRODUCT_LIMBS, operand_y, n);
  return status == CRISP_OK ? crisp_bn_mul(product, operand_y, n, operand_x, PRODUCT_LIMBS) : status;
}
static int call_sqr(size_t n) {
  return crisp_bn_sqr(product, operand_x, n);
}
static int call_mul_add(size_t n) {
  crisp_limb carry;
  memcpy(product, operand_y, n * sizeof *product);
  return crisp_bn_mul_add(product, operand_x, n, operand_x[0], &carry);
}

static int call_mont_inv(size_t size) {
  (void)size;
  return crisp_bn_mont_inv(modulus[0]) * modulus[0] == ~(crisp_limb)0 ? CRISP_OK : -1;
}

static void prepare_mont(size_t n) {
  below(base, modulus, n);
  below(base2, modulus, n);
  base2[0] ^= 1;
}
static int call_mont_r2(size_t n) {
  return crisp_bn_mont_r2(result, modulus, n);
}
static int call_mont_mul(size_t n) {
  return crisp_bn_mont_mul(result, base, base2, modulus, n, crisp_bn_mont_inv(modulus[0]));
}
static int call_mont_sqr(size_t n) {
  return crisp_bn_mont_sqr(result, base, modulus, n, crisp_bn_mont_inv(modulus[0]));
}
/* r = a and r = b: the front-end copies the operands into a frame of its
 * own, and its scrub reaches that much deeper. */
static int call_mont_aliased(size_t n) {
  const crisp_limb minv = crisp_bn_mont_inv(modulus[0]);
  int status = crisp_bn_mont_mul(base, base, base2, modulus, n, minv);
  if (status == CRISP_OK) status = crisp_bn_mont_sqr(base2, base2, modulus, n, minv);
  return status;
}
/* Stack use depends on n, not on the exponent's length: one limb keeps the
 * largest moduli quick. */
static int call_mod_exp(size_t n) {
  return crisp_bn_mod_exp(result, base, exponent, 1, modulus, n);
}
static void prepare_mod_exp2(size_t n) {
  below(base, modulus, n);
  below(base2, modulus2, n);
}
static int call_mod_exp2(size_t n) {
  return crisp_bn_mod_exp2(result, result2, base, base2, exponent, exponent + 1, 1, modulus, modulus2, n);
}

/* p and q need not be prime for the call to run its whole course, only
 * coprime with qinv q's inverse (q = p - 2, as test_crt_partner makes
 * them): the fault check (e given: the path without it and more) runs
 * and, for numbers that are not an RSA key, answers CRISP_E_MISMATCH. */
static void prepare_crt(size_t half) {
  random_odd_top(prime_p, half);
  test_crt_partner(prime_q, inverse_q, prime_p, half);
  assert_int_equal(crisp_bn_mul(product, prime_p, half, prime_q, half), CRISP_OK);
  memcpy(ciphertext, operand_x, 2 * half * sizeof *ciphertext);
  ciphertext[2 * half - 1] = product[2 * half - 1] >> 1;
}
static int call_crt_with_check(size_t half) {
  return crisp_bn_mod_exp_crt(result, ciphertext, prime_p, prime_q, exponent_p, exponent_q, inverse_q, half,
                              public_exponent, 1);
}

/* The same key prepared: crisp_bn_crt_key_new measured, then
 * crisp_bn_crt_key_exp on a key prepared outside the measured call (the
 * previous size's key freed first). */
static crisp_bn_crt_key *prepared_key;
static void prepare_crt_key_new(size_t half) {
  crisp_bn_crt_key_free(prepared_key);
  prepared_key = NULL;
  prepare_crt(half);
}
static int call_crt_key_new(size_t half) {
  return crisp_bn_crt_key_new(&prepared_key, prime_p, prime_q, exponent_p, exponent_q, inverse_q, half,
                              public_exponent, 1);
}
static void prepare_crt_key_exp(size_t half) {
  prepare_crt_key_new(half);
  (void)call_crt_key_new(half); /* no key: key_exp's CRISP_E_INVALID fails the entry */
}
static int call_crt_key_exp(size_t half) {
  (void)half;
  return crisp_bn_crt_key_exp(result, ciphertext, prepared_key);
}

/* The bound dispatch.h states for a process's first call; the first
 * entries below are such calls. */
enum { FIRST_CALL_KIB = 8, FIRST_CALLS = 2 };

/* Every entry of include/crisp/dispatch.h, crisp_strerror and
 * crisp_version, in one call. */
static int call_dispatch(size_t size) {
  (void)size;
  int status = CRISP_OK;
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    const crisp_kernel kernel = (crisp_kernel)k;
    if (!crisp_kernel_name(kernel) || !crisp_impl_name(kernel) || !crisp_impl_reason(kernel)) status = -100;
    for (size_t i = 0; i < crisp_impl_count(kernel); i++)
      if (!crisp_impl_name_at(kernel, i) || crisp_impl_supported_at(kernel, i) < 0) status = -101;
  }
  if (!crisp_level() || !crisp_cpu_features() || !crisp_cpu_brand() || !crisp_cpu_uarch() ||
      !crisp_levels() || !crisp_dispatch_reason() || !crisp_strerror(CRISP_E_INVALID) || !crisp_version())
    status = -102;
  (void)crisp_env_status();
  if (crisp_force("generic") != CRISP_OK || crisp_force(NULL) != CRISP_OK) status = -103;
  if (crisp_use_impl(CRISP_KERNEL_MD5, "generic") != CRISP_OK ||
      crisp_use_impl(CRISP_KERNEL_MD5, NULL) != CRISP_OK)
    status = -104;
  return status;
}

#define NONE CRISP_KERNEL_COUNT
#define KIB 1024
/* Where the stack scrub is the portable C one (targets other than x86-64
 * and arm64, and CRISP_SCRUB_PORTABLE builds), it may reach a piece deeper
 * than the headers' figures, as crisp/common.h says. */
#if defined(CRISP_SCRUB_ASSEMBLY) || defined(CRISP_SCRUB_MEASURE)
#define SLACK 0
#else
#define SLACK (CRISP_SCRUB_PIECE / KIB)
#endif
/* Bounds in KiB: one for every size, or one per size class. */
#define ONE(kib) \
  { ((kib) + SLACK) * KIB, ((kib) + SLACK) * KIB, ((kib) + SLACK) * KIB, ((kib) + SLACK) * KIB }
#define CLASSED(a, b, c, d) \
  { ((a) + SLACK) * KIB, ((b) + SLACK) * KIB, ((c) + SLACK) * KIB, ((d) + SLACK) * KIB }
/* The exponentiations: their scrub's depth and 1 KiB (src/util.h). */
#if defined(__x86_64__)
#define EXPONENTIATION CLASSED(11, 13, 17, 23)
#else
#define EXPONENTIATION ONE(11)
#endif

/* The bounds are the header comments' figures. */
static const entry entries[] = {
    /* First, while the process has made no crisp call: the CPU probe, the
     * environment and the dynamic linker's first resolutions run on the
     * small stack too (once, at the default level: see run_entry). */
    {"first call (crisp_md5)", ONE(FIRST_CALL_KIB), {NONE, NONE}, byte_sizes, NULL, call_md5, CRISP_OK},
    /* the same with CRYPTO_FORCE, CRYPTO_OPTIONS and CRYPTO_IMPL malformed:
     * the library prints its stderr lines */
    {"first call, malformed CRYPTO_*", ONE(FIRST_CALL_KIB), {NONE, NONE}, one_size, NULL, call_md5, CRISP_OK},
    {"crisp_md5", ONE(2), {CRISP_KERNEL_MD5, NONE}, byte_sizes, NULL, call_md5, CRISP_OK},
    {"crisp_md5_init/update/final",
     ONE(2),
     {CRISP_KERNEL_MD5, NONE},
     byte_sizes,
     NULL,
     call_md5_stream,
     CRISP_OK},
    {"crisp_md5_many",
     ONE(20),
     {CRISP_KERNEL_MD5_MANY, NONE},
     lane_counts,
     prepare_lanes,
     call_md5_many,
     CRISP_OK},
    {"crisp_md5_update_many",
     ONE(12),
     {CRISP_KERNEL_MD5_MANY, NONE},
     lane_counts,
     prepare_lanes,
     call_md5_update_many,
     CRISP_OK},
    {"crisp_poly1305", ONE(8), {CRISP_KERNEL_POLY1305, NONE}, byte_sizes, NULL, call_poly1305, CRISP_OK},
    {"crisp_poly1305_init/update/final",
     ONE(8),
     {CRISP_KERNEL_POLY1305, NONE},
     byte_sizes,
     NULL,
     call_poly1305_stream,
     CRISP_OK},
    {"crisp_poly1305_verify",
     ONE(8),
     {CRISP_KERNEL_POLY1305, NONE},
     byte_sizes,
     NULL,
     call_poly1305_verify,
     CRISP_OK},
    {"crisp_chacha20", ONE(8), {CRISP_KERNEL_CHACHA20, NONE}, byte_sizes, NULL, call_chacha20, CRISP_OK},
    {"crisp_hchacha20", ONE(2), {CRISP_KERNEL_CHACHA20, NONE}, one_size, NULL, call_hchacha20, CRISP_OK},
    {"crisp_chacha20_poly1305_seal",
     ONE(12),
     {CRISP_KERNEL_CHACHA20, CRISP_KERNEL_POLY1305},
     byte_sizes,
     NULL,
     call_seal,
     CRISP_OK},
    {"crisp_chacha20_poly1305_open",
     ONE(12),
     {CRISP_KERNEL_CHACHA20, CRISP_KERNEL_POLY1305},
     byte_sizes,
     NULL,
     call_open,
     CRISP_OK},
    {"crisp_chacha20_poly1305_seal+open",
     ONE(12),
     {CRISP_KERNEL_CHACHA20, CRISP_KERNEL_POLY1305},
     byte_sizes,
     NULL,
     call_seal_open,
     CRISP_OK},
    {"crisp_chacha20_poly1305 seal, open and stream by AD length",
     ONE(12),
     {CRISP_KERNEL_CHACHA20, CRISP_KERNEL_POLY1305},
     byte_sizes,
     NULL,
     call_aead_by_ad,
     CRISP_OK},
    {"crisp_xchacha20_poly1305_seal",
     ONE(12),
     {CRISP_KERNEL_CHACHA20, CRISP_KERNEL_POLY1305},
     byte_sizes,
     NULL,
     call_xseal,
     CRISP_OK},
    {"crisp_xchacha20_poly1305_open",
     ONE(12),
     {CRISP_KERNEL_CHACHA20, CRISP_KERNEL_POLY1305},
     byte_sizes,
     NULL,
     call_xopen,
     CRISP_OK},
    {"crisp_(x)chacha20_poly1305_stream_*",
     ONE(12),
     {CRISP_KERNEL_CHACHA20, CRISP_KERNEL_POLY1305},
     byte_sizes,
     NULL,
     call_stream,
     CRISP_OK},
    {"crisp_bn_mul",
     CLASSED(2, 7, 12, 20),
     {CRISP_KERNEL_BN_MUL, NONE},
     product_sizes,
     NULL,
     call_mul,
     CRISP_OK},
    {"crisp_bn_mul (uneven, classed by the shorter)",
     CLASSED(2, 7, 12, 20),
     {CRISP_KERNEL_BN_MUL, NONE},
     product_sizes,
     NULL,
     call_mul_uneven,
     CRISP_OK},
    {"crisp_bn_mul (the longest by each length, classed by the shorter)",
     CLASSED(2, 7, 12, 20),
     {CRISP_KERNEL_BN_MUL, NONE},
     product_sizes,
     NULL,
     call_mul_longest,
     CRISP_OK},
    {"crisp_bn_sqr",
     CLASSED(2, 6, 9, 16),
     {CRISP_KERNEL_BN_SQR, NONE},
     product_sizes,
     NULL,
     call_sqr,
     CRISP_OK},
    {"crisp_bn_mont_inv", ONE(1), {NONE, NONE}, one_size, NULL, call_mont_inv, CRISP_OK},
    {"crisp_bn_mul_add",
     ONE(1),
     {CRISP_KERNEL_BN_MUL_ADD, NONE},
     product_sizes,
     NULL,
     call_mul_add,
     CRISP_OK},
    {"crisp_bn_mont_r2",
     CLASSED(13, 13, 16, 25),
     {CRISP_KERNEL_BN_MONT_SQR, NONE},
     limb_sizes,
     NULL,
     call_mont_r2,
     CRISP_OK},
    {"crisp_bn_mont_mul",
     CLASSED(13, 13, 16, 25),
     {CRISP_KERNEL_BN_MONT_MUL, NONE},
     limb_sizes,
     prepare_mont,
     call_mont_mul,
     CRISP_OK},
    {"crisp_bn_mont_sqr",
     CLASSED(13, 13, 16, 25),
     {CRISP_KERNEL_BN_MONT_SQR, NONE},
     limb_sizes,
     prepare_mont,
     call_mont_sqr,
     CRISP_OK},
    {"crisp_bn_mont_mul/sqr (r = a)",
     CLASSED(13, 13, 16, 25),
     {CRISP_KERNEL_BN_MONT_MUL, CRISP_KERNEL_BN_MONT_SQR},
     limb_sizes,
     prepare_mont,
     call_mont_aliased,
     CRISP_OK},
    {"crisp_bn_mod_exp",
     EXPONENTIATION,
     {CRISP_KERNEL_BN_MONT_MUL, CRISP_KERNEL_BN_MONT_SQR},
     limb_sizes,
     prepare_mont,
     call_mod_exp,
     CRISP_OK},
    {"crisp_bn_mod_exp2",
     EXPONENTIATION,
     {CRISP_KERNEL_BN_MOD_EXP2, CRISP_KERNEL_BN_MONT_MUL},
     limb_sizes,
     prepare_mod_exp2,
     call_mod_exp2,
     CRISP_OK},
    {"crisp_bn_mod_exp_crt",
     EXPONENTIATION,
     {CRISP_KERNEL_BN_MOD_EXP2, CRISP_KERNEL_BN_MONT_MUL},
     half_sizes,
     prepare_crt,
     call_crt_with_check,
     -1},
    /* bn.h: "Stack: as crisp_bn_mod_exp_crt's" */
    {"crisp_bn_crt_key_new",
     EXPONENTIATION,
     {CRISP_KERNEL_BN_MOD_EXP2, CRISP_KERNEL_BN_MONT_MUL},
     half_sizes,
     prepare_crt_key_new,
     call_crt_key_new,
     CRISP_OK},
    {"crisp_bn_crt_key_exp",
     EXPONENTIATION,
     {CRISP_KERNEL_BN_MOD_EXP2, NONE}, /* the levels pick the rest */
     key_half_sizes,
     prepare_crt_key_exp,
     call_crt_key_exp,
     -1},
    {"dispatch.h, crisp_strerror, crisp_version",
     ONE(2),
     {NONE, NONE},
     one_size,
     NULL,
     call_dispatch,
     CRISP_OK},
};

/* ---- running on the small stack ----------------------------------------- */

/* What the child reports, in memory shared with the parent: the call it is
 * running (so that a crash can be named), the worst use and where. */
typedef struct report {
  char running[160];
  char worst_at[160];
  size_t worst;
  size_t worst_by_class[CLASSES];
  size_t over; /* calls that used more than their bound */
  char first_over[256];
  size_t room; /* the least stack any call had below its caller's frame */
  size_t calls;
  size_t failures; /* calls that gave a status other than the accepted one */
  char failure[200];
} report;
static report *shared;
static int verbose; /* CRISP_TEST_VERBOSE set: every call's use is printed */

typedef struct job {
  const entry *entry;
  const char *setting; /* the level or pins the calls run under */
  uint64_t *low;       /* the lowest word of the usable stack */
  int setup_error;
} job;

/* Paints the stack from low up to a little below this function's frame,
 * which lies below its caller's. */
static __attribute__((noinline)) void paint(uint64_t *low) {
  volatile uint64_t *word = low;
  volatile uint64_t *const end = (uint64_t *)((uintptr_t)__builtin_frame_address(0) - 256);
  while (word < end) *word++ = paint_word;
}

/* One call: the use is the distance from this function's frame down to the
 * deepest word changed. */
static __attribute__((noinline)) void measured_call(const job *job, size_t size) {
  const entry *e = job->entry;
  char *const top = __builtin_frame_address(0);
  snprintf(shared->running, sizeof shared->running, "%s, size %zu, %s", e->name, size, job->setting);
  paint(job->low);
  const int status = e->call(size);
  const volatile uint64_t *word = job->low;
  while (*word == paint_word) word++;
  const size_t used = (size_t)(top - (const char *)word);
  const size_t room = (size_t)(top - (const char *)job->low);
  if (verbose) printf("#   %6zu bytes: %s\n", used, shared->running);
  shared->calls++;
  if (room < shared->room) shared->room = room;
  const size_t class = size_class(size);
  if (used > shared->worst_by_class[class]) shared->worst_by_class[class] = used;
  if (used > e->bound[class] && !shared->over++)
    snprintf(shared->first_over, sizeof shared->first_over, "%zu bytes, more than its bound %zu, at %s", used,
             e->bound[class], shared->running);
  if (used > shared->worst) {
    shared->worst = used;
    memcpy(shared->worst_at, shared->running, sizeof shared->worst_at);
  }
  if (status != e->accepted && !(e->accepted == -1 && (status == CRISP_OK || status == CRISP_E_MISMATCH))) {
    if (!shared->failures++)
      snprintf(shared->failure, sizeof shared->failure, "%s returned %d", shared->running, status);
  }
}

static void *run_sizes(void *argument) {
  job *job = argument;
  pthread_attr_t attributes;
  void *address;
  size_t size;
  if (pthread_getattr_np(pthread_self(), &attributes) ||
      pthread_attr_getstack(&attributes, &address, &size)) {
    job->setup_error = 1;
    return NULL;
  }
  pthread_attr_destroy(&attributes);
  /* A larger stack than asked for (the C library's minimum): the pages
   * below its top 32 KiB become a guard. */
  char *const low = (char *)address + size - THREAD_STACK_BYTES;
  if (low != (char *)address && mprotect(address, (size_t)(low - (char *)address), PROT_NONE)) {
    job->setup_error = 2;
    return NULL;
  }
  job->low = (uint64_t *)low;
  for (const size_t *s = job->entry->sizes; *s != END; s++) {
    if (job->entry->prepare) job->entry->prepare(*s);
    measured_call(job, *s);
  }
  if (low != (char *)address) mprotect(address, (size_t)(low - (char *)address), PROT_READ | PROT_WRITE);
  return NULL;
}

/* Runs the entry's sizes on a fresh small-stack thread; 0 on success. */
static int run_on_small_stack(const entry *e, const char *setting) {
  job job = {e, setting, NULL, 0};
  pthread_attr_t attributes;
  pthread_t thread;
  long minimum = sysconf(_SC_THREAD_STACK_MIN);
  size_t stack = minimum > THREAD_STACK_BYTES ? (size_t)minimum : THREAD_STACK_BYTES;
  if (pthread_attr_init(&attributes) || pthread_attr_setstacksize(&attributes, stack)) return 3;
  if (pthread_create(&thread, &attributes, run_sizes, &job)) return 4;
  pthread_join(thread, NULL);
  pthread_attr_destroy(&attributes);
  return job.setup_error;
}

/* In the child: every level this CPU runs, then each implementation of the
 * entry's kernels pinned at the default level (under emulation, the
 * levels' own choices only). */
static int run_entry(const entry *e) {
  char setting[120];
  if (e == &entries[1]) {
    static char garbage[5001];
    memset(garbage, 'x', sizeof garbage - 1);
    setenv("CRYPTO_FORCE", garbage, 1), setenv("CRYPTO_OPTIONS", garbage, 1),
        setenv("CRYPTO_IMPL", garbage, 1);
    if (!freopen("/dev/null", "w", stderr)) return 6;
  }
  if (e < &entries[FIRST_CALLS]) return run_on_small_stack(e, "first call of the process");
  const char *levels = crisp_levels();
  int error = 0;
  for (const char *level = levels; *level && !error;) {
    level += strspn(level, " ");
    const size_t len = strcspn(level, " ");
    if (!len) break;
    char name[32];
    snprintf(name, sizeof name, "%.*s", (int)len, level);
    level += len;
    if (!test_impl_allowed(name) || crisp_force(name) != CRISP_OK) continue;
    snprintf(setting, sizeof setting, "level %s", name);
    error = run_on_small_stack(e, setting);
  }
  crisp_force(NULL);
  /* an emulated run (CRISP_TEST_SCALE below 1) keeps to the levels */
  for (size_t k = 0; k < 2 && !error && test_scale() >= 1; k++) {
    const crisp_kernel kernel = e->kernels[k];
    if (kernel == NONE) continue;
    for (size_t i = 0; i < crisp_impl_count(kernel) && !error; i++) {
      const char *name = crisp_impl_name_at(kernel, i);
      if (!crisp_impl_supported_at(kernel, i) || !test_impl_allowed(name)) continue;
      if (crisp_use_impl(kernel, name) != CRISP_OK) return 5;
      snprintf(setting, sizeof setting, "%s %s", crisp_kernel_name(kernel), name);
      error = run_on_small_stack(e, setting);
    }
    crisp_use_impl(kernel, NULL);
  }
  return error;
}

static void check_entry(const entry *e) {
  memset(shared, 0, sizeof *shared);
  shared->room = SIZE_MAX;
  fflush(NULL);
  const pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    /* cmocka's handlers would carry on in the child: a crash must end it */
    signal(SIGSEGV, SIG_DFL), signal(SIGBUS, SIG_DFL), signal(SIGILL, SIG_DFL), signal(SIGFPE, SIG_DFL);
    const int error = run_entry(e);
    fflush(stdout);
    _exit(error);
  }
  int wait_status;
  while (waitpid(child, &wait_status, 0) < 0) assert_int_equal(errno, EINTR);
  if (WIFSIGNALED(wait_status)) {
    print_error("%s: died of signal %d (%s) in a %d KiB thread stack, running %s\n", e->name,
                WTERMSIG(wait_status), strsignal(WTERMSIG(wait_status)), THREAD_STACK_BYTES / KIB,
                shared->running);
    fail();
  }
  assert_true(WIFEXITED(wait_status));
  if (WEXITSTATUS(wait_status)) {
    print_error("%s: could not set up the small-stack thread (%d)\n", e->name, WEXITSTATUS(wait_status));
    fail();
  }
  /* the measured worst case of each size class, then the bounds */
  char classes[96] = "", bounds[96] = "";
  for (size_t c = 0, at = 0, bound_at = 0; c < CLASSES; c++) {
    at += (size_t)snprintf(classes + at, sizeof classes - at, " %6zu", shared->worst_by_class[c]);
    bound_at += (size_t)snprintf(bounds + bound_at, sizeof bounds - bound_at, " %6zu", e->bound[c]);
  }
  print_message("%-42s used%s  bound%s  (%zu calls, room %zu)\n", e->name, classes, bounds, shared->calls,
                shared->room);
  if (verbose) print_message("%-42s worst at %s\n", "", shared->worst_at);
  if (shared->failures) {
    print_error("%s: %zu calls failed, first: %s\n", e->name, shared->failures, shared->failure);
    fail();
  }
  if (shared->over) {
    print_error("%s: %zu calls used more stack than its header states; first: %s\n", e->name, shared->over,
                shared->first_over);
    fail();
  }
}

static void test_entry(void **state) {
  check_entry(*state);
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#endif

int main(void) {
  test_seed(0x737461636bull);
#ifdef SANITIZED
  /* Sanitizers lay out and use the stack their own way (redzones, shadow
   * frames); the bounds are about the code as it ships. */
  printf("# skipped: sanitizer build\n");
  return 0;
#endif
  /* valgrind runs the program's threads on stacks of its own making */
  if (RUNNING_ON_VALGRIND) {
    printf("# skipped: under valgrind\n");
    return 0;
  }
  prepare_operands();
  verbose = getenv("CRISP_TEST_VERBOSE") != NULL;
  shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) return 1;
  enum { COUNT = sizeof entries / sizeof entries[0] };
  struct CMUnitTest tests[COUNT];
  for (size_t i = 0; i < COUNT; i++) /* no teardown for the first calls: it would make crisp calls here */
    tests[i] = (struct CMUnitTest){entries[i].name, test_entry, NULL,
                                   i < FIRST_CALLS ? NULL : test_teardown_unpin, (void *)&entries[i]};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
