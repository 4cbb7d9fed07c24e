/* bench/kernel_cases.c - the one place that says how each crisp kernel is
 * benchmarked: crisp's routine (a public one-shot call run `iterations`
 * times on the case's inputs), the kernels it runs and the sizes measured.
 * A new kernel gets its routine and a line in bench_specs here; peers for it
 * go in the peers_*.c files under the same label. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "rsa_keys.h"

static void run_md5(void *state, const bench_case *c, size_t iterations) {
  uint8_t digest[CRISP_MD5_DIGEST_SIZE];
  (void)state;
  for (size_t i = 0; i < iterations; i++) crisp_md5(c->data, c->size, digest);
}

static void run_md5_many(void *state, const bench_case *c, size_t iterations) {
  uint8_t digests[64][CRISP_MD5_DIGEST_SIZE];
  (void)state;
  for (size_t i = 0; i < iterations; i++) {
    for (size_t done = 0; done < c->messages; done += 64) {
      const size_t n = c->messages - done < 64 ? c->messages - done : 64;
      crisp_md5_many(c->message_pointers + done, c->message_lengths + done, n, digests);
    }
  }
}

static void run_poly1305(void *state, const bench_case *c, size_t iterations) {
  uint8_t tag[CRISP_POLY1305_TAG_SIZE];
  (void)state;
  if (!c->chunk) {
    for (size_t i = 0; i < iterations; i++) crisp_poly1305(tag, c->data, c->size, c->key);
    return;
  }
  crisp_poly1305_ctx ctx;
  for (size_t i = 0; i < iterations; i++) {
    crisp_poly1305_init(&ctx, c->key);
    for (size_t done = 0; done < c->size; done += c->chunk)
      crisp_poly1305_update(&ctx, c->data + done, c->size - done < c->chunk ? c->size - done : c->chunk);
    crisp_poly1305_final(&ctx, tag);
  }
}

static void run_bn_mul(void *state, const bench_case *c, size_t iterations) {
  (void)state;
  for (size_t i = 0; i < iterations; i++) crisp_bn_mul(c->out, c->x, c->limbs, c->y, c->limbs);
}

static void run_bn_sqr(void *state, const bench_case *c, size_t iterations) {
  (void)state;
  for (size_t i = 0; i < iterations; i++) crisp_bn_sqr(c->out, c->x, c->limbs);
}

static void run_bn_mul_add(void *state, const bench_case *c, size_t iterations) {
  (void)state;
  crisp_limb carry;
  for (size_t i = 0; i < iterations; i++) {
    crisp_bn_mul_add(c->out, c->x, c->limbs, c->y[0], &carry);
    c->out[c->limbs] += carry;
  }
}

static void run_bn_mont_mul(void *state, const bench_case *c, size_t iterations) {
  (void)state;
  for (size_t i = 0; i < iterations; i++)
    crisp_bn_mont_mul(c->out, c->x, c->y, c->modulus, c->limbs, c->minv);
}

static void run_bn_mont_sqr(void *state, const bench_case *c, size_t iterations) {
  (void)state;
  for (size_t i = 0; i < iterations; i++) crisp_bn_mont_sqr(c->out, c->x, c->modulus, c->limbs, c->minv);
}

static void run_mod_exp(void *state, const bench_case *c, size_t iterations) {
  (void)state;
  for (size_t i = 0; i < iterations; i++)
    crisp_bn_mod_exp(c->out, c->x, c->exponent, c->limbs, c->modulus, c->limbs);
}

/* Two exponentiations at once: x and y to the same exponent, both mod the
 * case's modulus (the time depends on the sizes only). */
static void run_mod_exp2(void *state, const bench_case *c, size_t iterations) {
  (void)state;
  for (size_t i = 0; i < iterations; i++)
    crisp_bn_mod_exp2(c->out, c->out + c->limbs, c->x, c->y, c->exponent, c->exponent, c->limbs, c->modulus,
                      c->modulus, c->limbs);
}

/* The RSA private operation by CRT, with the fault check (e given), as
 * OpenSSL checks its CRT result: rsa_private on a key prepared once, as
 * OpenSSL's keys keep their Montgomery contexts and crisp's provider
 * prepares a key at import; rsa_private_once by the one-call form, which
 * checks and sets up the key at every call. */
static void *setup_rsa_prepared(const bench_case *c) {
  const bench_rsa_key *key = c->rsa;
  const crisp_limb e[1] = {BENCH_RSA_E};
  crisp_bn_crt_key *prepared = NULL;
  crisp_bn_crt_key_new(&prepared, key->p, key->q, key->dp, key->dq, key->qinv, key->half, e, 1);
  return prepared;
}

static void run_rsa_prepared(void *state, const bench_case *c, size_t iterations) {
  for (size_t i = 0; i < iterations; i++) crisp_bn_crt_key_exp(c->out, c->x, state);
}

static void teardown_rsa_prepared(void *state) {
  crisp_bn_crt_key_free(state);
}

static void run_rsa_once(void *state, const bench_case *c, size_t iterations) {
  (void)state;
  const bench_rsa_key *key = c->rsa;
  const crisp_limb e[1] = {BENCH_RSA_E};
  for (size_t i = 0; i < iterations; i++)
    crisp_bn_mod_exp_crt(c->out, c->x, key->p, key->q, key->dp, key->dq, key->qinv, key->half, e, 1);
}

/* ChaCha20 and the AEAD write to a buffer of their own; open reads a
 * ciphertext and tag sealed once in setup (no AD, zero nonce, the case's
 * key), so every call verifies and decrypts as a real receiver does. */
typedef struct aead_buffers {
  uint8_t *ct, *out;
  uint8_t tag[CRISP_CHACHA20_POLY1305_TAG_SIZE];
} aead_buffers;

static const uint8_t zero_nonce[CRISP_CHACHA20_NONCE_SIZE];

void *bench_aead_setup(const bench_case *c) {
  aead_buffers *b = calloc(1, sizeof *b);
  if (!b) return NULL;
  b->ct = aligned_alloc(64, (c->size + 63) / 64 * 64 + 64);
  b->out = aligned_alloc(64, (c->size + 63) / 64 * 64 + 64);
  if (!b->ct || !b->out ||
      crisp_chacha20_poly1305_seal(b->ct, b->tag, c->data, c->size, NULL, 0, zero_nonce, c->key) !=
          CRISP_OK) {
    bench_aead_teardown(b);
    return NULL;
  }
  return b;
}

void bench_aead_teardown(void *state) {
  aead_buffers *b = state;
  if (!b) return;
  free(b->ct);
  free(b->out);
  free(b);
}

uint8_t *bench_aead_ct(void *state) {
  return ((aead_buffers *)state)->ct;
}
uint8_t *bench_aead_out(void *state) {
  return ((aead_buffers *)state)->out;
}
const uint8_t *bench_aead_tag(void *state) {
  return ((aead_buffers *)state)->tag;
}

static void run_chacha20(void *state, const bench_case *c, size_t iterations) {
  aead_buffers *b = state;
  for (size_t i = 0; i < iterations; i++) crisp_chacha20(b->out, c->data, c->size, c->key, zero_nonce, 1);
}

static void run_aead_seal(void *state, const bench_case *c, size_t iterations) {
  aead_buffers *b = state;
  uint8_t tag[CRISP_CHACHA20_POLY1305_TAG_SIZE];
  for (size_t i = 0; i < iterations; i++)
    crisp_chacha20_poly1305_seal(b->out, tag, c->data, c->size, NULL, 0, zero_nonce, c->key);
}

static void run_aead_open(void *state, const bench_case *c, size_t iterations) {
  aead_buffers *b = state;
  for (size_t i = 0; i < iterations; i++)
    if (crisp_chacha20_poly1305_open(b->out, b->ct, c->size, b->tag, NULL, 0, zero_nonce, c->key) != CRISP_OK)
      abort();
}

/* Open in place, as TLS and QUIC stacks decrypt a record in its receive
 * buffer: every call first copies the sealed ciphertext back over the
 * previous call's plaintext (the peers' routines do the same copy). */
void bench_aead_refill(void *state, size_t size) {
  aead_buffers *b = state;
  memcpy(b->out, b->ct, size);
}

static void run_aead_open_inplace(void *state, const bench_case *c, size_t iterations) {
  aead_buffers *b = state;
  for (size_t i = 0; i < iterations; i++) {
    bench_aead_refill(b, c->size);
    if (crisp_chacha20_poly1305_open(b->out, b->out, c->size, b->tag, NULL, 0, zero_nonce, c->key) !=
        CRISP_OK)
      abort();
  }
}

static const bench_routine md5_routine = {"md5", "crisp", "crisp_md5", NULL, run_md5, NULL};
static const bench_routine md5_many_routine = {"md5_many", "crisp",      "crisp_md5_many",
                                               NULL,       run_md5_many, NULL};
static const bench_routine poly1305_routine = {"poly1305", "crisp",      "crisp_poly1305",
                                               NULL,       run_poly1305, NULL};
static const bench_routine bn_mul_routine = {"bn_mul", "crisp", "crisp_bn_mul", NULL, run_bn_mul, NULL};
static const bench_routine bn_sqr_routine = {"bn_sqr", "crisp", "crisp_bn_sqr", NULL, run_bn_sqr, NULL};
static const bench_routine bn_mul_add_routine = {"bn_mul_add", "crisp",        "crisp_bn_mul_add",
                                                 NULL,         run_bn_mul_add, NULL};
static const bench_routine bn_mont_mul_routine = {"bn_mont_mul", "crisp",         "crisp_bn_mont_mul",
                                                  NULL,          run_bn_mont_mul, NULL};
static const bench_routine bn_mont_sqr_routine = {"bn_mont_sqr", "crisp",         "crisp_bn_mont_sqr",
                                                  NULL,          run_bn_mont_sqr, NULL};
static const bench_routine chacha20_routine = {"chacha20",       "crisp",      "crisp_chacha20",
                                               bench_aead_setup, run_chacha20, bench_aead_teardown};
static const bench_routine aead_seal_routine = {
    "chacha20poly1305_seal", "crisp",       "crisp_chacha20_poly1305_seal",
    bench_aead_setup,        run_aead_seal, bench_aead_teardown};
static const bench_routine aead_open_routine = {
    "chacha20poly1305_open", "crisp",       "crisp_chacha20_poly1305_open",
    bench_aead_setup,        run_aead_open, bench_aead_teardown};
static const bench_routine aead_open_inplace_routine = {"chacha20poly1305_open_inplace",
                                                        "crisp",
                                                        "crisp_chacha20_poly1305_open in place",
                                                        bench_aead_setup,
                                                        run_aead_open_inplace,
                                                        bench_aead_teardown};
static const bench_routine mod_exp_routine = {"mod_exp", "crisp",     "crisp_bn_mod_exp",
                                              NULL,      run_mod_exp, NULL};
static const bench_routine mod_exp2_routine = {"bn_mod_exp2", "crisp",      "crisp_bn_mod_exp2",
                                               NULL,          run_mod_exp2, NULL};
static const bench_routine rsa_private_routine = {"rsa_private",          "crisp",
                                                  "crisp_bn_crt_key_exp", setup_rsa_prepared,
                                                  run_rsa_prepared,       teardown_rsa_prepared};
static const bench_routine rsa_once_routine = {"rsa_private_once", "crisp", "crisp_bn_mod_exp_crt", NULL,
                                               run_rsa_once,       NULL};

#define BYTES 0
#define BITS 1
#define BIGNUM_SIZES \
  { 512, 1024, 2048, 4096 }
/* The products up to 8192 bits: Karatsuba's levels and frames change with
 * the size, so every class of them gets a row. */
#define PRODUCT_SIZES \
  { 512, 1024, 2048, 3072, 4096, 6144, 8192 }
#define PACKET_SIZES \
  { 16, 64, 256, 1024, 1536, 16384, 1048576 }

const bench_spec bench_specs[] = {
    {"md5", {CRISP_KERNEL_MD5}, 1, &md5_routine, BYTES, 1, {64, 256, 1024, 16384, 1048576}},
    {"md5_many", {CRISP_KERNEL_MD5_MANY}, 1, &md5_many_routine, BYTES, 16, {256, 1024, 16384, 65536}},
    {"poly1305", {CRISP_KERNEL_POLY1305}, 1, &poly1305_routine, BYTES, 1, {64, 256, 1024, 16384, 1048576}},
    {"bn_mul", {CRISP_KERNEL_BN_MUL}, 1, &bn_mul_routine, BITS, 1, PRODUCT_SIZES},
    {"bn_sqr", {CRISP_KERNEL_BN_SQR}, 1, &bn_sqr_routine, BITS, 1, PRODUCT_SIZES},
    {"bn_mul_add", {CRISP_KERNEL_BN_MUL_ADD}, 1, &bn_mul_add_routine, BITS, 1, BIGNUM_SIZES},
    {"bn_mont_mul", {CRISP_KERNEL_BN_MONT_MUL}, 1, &bn_mont_mul_routine, BITS, 1, BIGNUM_SIZES},
    {"bn_mont_sqr", {CRISP_KERNEL_BN_MONT_SQR}, 1, &bn_mont_sqr_routine, BITS, 1, BIGNUM_SIZES},
    {"chacha20", {CRISP_KERNEL_CHACHA20}, 1, &chacha20_routine, BYTES, 1, PACKET_SIZES},
    /* Not kernels: the AEAD built on ChaCha20 and Poly1305. */
    {"chacha20poly1305_seal",
     {CRISP_KERNEL_CHACHA20, CRISP_KERNEL_POLY1305},
     2,
     &aead_seal_routine,
     BYTES,
     1,
     PACKET_SIZES},
    {"chacha20poly1305_open",
     {CRISP_KERNEL_CHACHA20, CRISP_KERNEL_POLY1305},
     2,
     &aead_open_routine,
     BYTES,
     1,
     PACKET_SIZES},
    {"chacha20poly1305_open_inplace",
     {CRISP_KERNEL_CHACHA20, CRISP_KERNEL_POLY1305},
     2,
     &aead_open_inplace_routine,
     BYTES,
     1,
     PACKET_SIZES},
    /* Not a kernel: the exponentiation built on the two Montgomery kernels. */
    {"mod_exp",
     {CRISP_KERNEL_BN_MONT_MUL, CRISP_KERNEL_BN_MONT_SQR},
     2,
     &mod_exp_routine,
     BITS,
     1,
     {1024, 2048, 3072, 4096}},
    /* Sizes are bits per modulus; two exponentiations per operation. */
    {"bn_mod_exp2", {CRISP_KERNEL_BN_MOD_EXP2}, 1, &mod_exp2_routine, BITS, 1, {1024, 1536, 2048}},
    /* Not a kernel: the RSA private operation by CRT (sizes: bits of n). */
    {"rsa_private",
     {CRISP_KERNEL_BN_MOD_EXP2, CRISP_KERNEL_BN_MONT_MUL},
     2,
     &rsa_private_routine,
     BITS,
     1,
     {2048, 3072, 4096}},
    {"rsa_private_once",
     {CRISP_KERNEL_BN_MOD_EXP2, CRISP_KERNEL_BN_MONT_MUL},
     2,
     &rsa_once_routine,
     BITS,
     1,
     {2048, 3072, 4096}},
};
const size_t bench_spec_count = sizeof bench_specs / sizeof bench_specs[0];

const bench_spec *bench_find_spec(const char *label) {
  for (size_t i = 0; i < bench_spec_count; i++)
    if (!strcmp(bench_specs[i].label, label)) return &bench_specs[i];
  return NULL;
}

const bench_spec *bench_kernel_spec(crisp_kernel kernel) {
  const char *name = crisp_kernel_name(kernel);
  const bench_spec *spec = name ? bench_find_spec(name) : NULL;
  return spec && spec->kernel_count > 0 && spec->kernels[0] == kernel ? spec : NULL;
}
