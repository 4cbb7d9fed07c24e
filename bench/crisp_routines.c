/* bench/crisp_routines.c - crisp's side of every benchmark case: the public
 * one-shot calls, each run `iterations` times on the case's inputs. */
#include "bench.h"

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
  for (size_t i = 0; i < iterations; i++) crisp_poly1305(tag, c->data, c->size, c->key);
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
  for (size_t i = 0; i < iterations; i++) crisp_bn_mont_mul(c->out, c->x, c->y, c->modulus, c->limbs, c->minv);
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

const bench_routine bench_crisp_routines[] = {
    {"md5", "crisp", "crisp_md5", NULL, run_md5, NULL},
    {"md5_many", "crisp", "crisp_md5_many", NULL, run_md5_many, NULL},
    {"poly1305", "crisp", "crisp_poly1305", NULL, run_poly1305, NULL},
    {"bn_mul", "crisp", "crisp_bn_mul", NULL, run_bn_mul, NULL},
    {"bn_sqr", "crisp", "crisp_bn_sqr", NULL, run_bn_sqr, NULL},
    {"bn_mul_add", "crisp", "crisp_bn_mul_add", NULL, run_bn_mul_add, NULL},
    {"bn_mont_mul", "crisp", "crisp_bn_mont_mul", NULL, run_bn_mont_mul, NULL},
    {"bn_mont_sqr", "crisp", "crisp_bn_mont_sqr", NULL, run_bn_mont_sqr, NULL},
    {"mod_exp", "crisp", "crisp_bn_mod_exp", NULL, run_mod_exp, NULL},
};
const size_t bench_crisp_routine_count = sizeof bench_crisp_routines / sizeof bench_crisp_routines[0];
