/* bench/cases.c - inputs for each benchmark case: messages and keys for the
 * hashes, and big-integer operands that satisfy each function's contract
 * (odd modulus with its top bit set, operands below it; for the RSA rows
 * a fixed key from rsa_keys.c). */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "rsa_keys.h"

/* Deterministic inputs so runs compare; the values never steer timing. */
static uint64_t next_random(uint64_t *state) {
  uint64_t x = *state;
  x ^= x << 13, x ^= x >> 7, x ^= x << 17;
  return *state = x;
}

static void fill(uint64_t *random, crisp_limb *limbs, size_t n) {
  for (size_t i = 0; i < n; i++) limbs[i] = next_random(random);
}

static int bignum_init(bench_case *c, uint64_t *random) {
  const size_t n = c->size / 64;
  c->limbs = n;
  crisp_limb *all = calloc(6 * n + 1, sizeof *all);
  if (!all) return -1;
  c->x = all, c->y = all + n, c->modulus = all + 2 * n, c->exponent = all + 3 * n, c->out = all + 4 * n;
  fill(random, c->x, 4 * n);
  c->modulus[0] |= 1;
  c->modulus[n - 1] |= (crisp_limb)1 << 63;
  c->exponent[n - 1] |= (crisp_limb)1 << 63;
  /* Below the modulus: a smaller top limb suffices. */
  c->x[n - 1] %= c->modulus[n - 1];
  c->y[n - 1] %= c->modulus[n - 1];
  /* rsa_private and rsa_private_once: n of a fixed key, the input c below it */
  if (!strcmp(c->kernel, "rsa_private") || !strcmp(c->kernel, "rsa_private_once")) {
    c->rsa = bench_rsa_key_for(c->size);
    if (!c->rsa || 2 * c->rsa->half != n) return -1;
    memcpy(c->modulus, c->rsa->n, n * sizeof *c->modulus);
    c->x[n - 1] %= c->modulus[n - 1];
  }
  c->minv = crisp_bn_mont_inv(c->modulus[0]);
  return 0;
}

int bench_case_init(bench_case *c, const bench_spec *spec, size_t size) {
  uint64_t random = 0x9e3779b97f4a7c15u ^ size;
  memset(c, 0, sizeof *c);
  c->spec = spec, c->kernel = spec->label, c->size = size, c->messages = spec->messages ? spec->messages : 1;
  c->is_bignum = spec->is_bignum;
  if (c->is_bignum) return bignum_init(c, &random);
  c->bytes_per_op = (double)size * (double)c->messages;
  const size_t total = size * c->messages;
  c->data = aligned_alloc(64, (total + 63) / 64 * 64 + 64);
  c->message_pointers = calloc(c->messages, sizeof *c->message_pointers);
  c->message_lengths = calloc(c->messages, sizeof *c->message_lengths);
  if (!c->data || !c->message_pointers || !c->message_lengths) return -1;
  for (size_t i = 0; i < total; i++) c->data[i] = (uint8_t)next_random(&random);
  for (size_t i = 0; i < c->messages; i++) {
    c->message_pointers[i] = c->data + i * size;
    c->message_lengths[i] = size;
  }
  for (size_t i = 0; i < sizeof c->key; i++) c->key[i] = (uint8_t)next_random(&random);
  return 0;
}

void bench_case_free(bench_case *c) {
  free(c->data);
  free(c->message_pointers);
  free(c->message_lengths);
  free(c->x);
  memset(c, 0, sizeof *c);
}
