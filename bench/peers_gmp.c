/* bench/peers_gmp.c - GMP as a benchmark peer: mpn_mul_n, mpn_sqr,
 * mpn_addmul_1 on the same limb arrays (GMP's limbs are 64-bit here too),
 * and mpz_powm_sec. */
#include <gmp.h>
#include <stdlib.h>

#include "bench.h"

_Static_assert(sizeof(mp_limb_t) == sizeof(crisp_limb), "GMP limbs must be 64-bit");

static void run_mul(void *state, const bench_case *c, size_t iterations) {
  (void)state;
  for (size_t i = 0; i < iterations; i++)
    mpn_mul_n((mp_limb_t *)c->out, (const mp_limb_t *)c->x, (const mp_limb_t *)c->y, (mp_size_t)c->limbs);
}

static void run_sqr(void *state, const bench_case *c, size_t iterations) {
  (void)state;
  for (size_t i = 0; i < iterations; i++)
    mpn_sqr((mp_limb_t *)c->out, (const mp_limb_t *)c->x, (mp_size_t)c->limbs);
}

static void run_mul_add(void *state, const bench_case *c, size_t iterations) {
  (void)state;
  for (size_t i = 0; i < iterations; i++)
    c->out[c->limbs] += mpn_addmul_1((mp_limb_t *)c->out, (const mp_limb_t *)c->x, (mp_size_t)c->limbs, c->y[0]);
}

struct powm {
  mpz_t base, exponent, modulus, result;
};

static void import(mpz_t z, const crisp_limb *limbs, size_t n) {
  mpz_init(z);
  mpz_import(z, n, -1, sizeof *limbs, 0, 0, limbs);
}

static void *setup_powm(const bench_case *c) {
  struct powm *state = malloc(sizeof *state);
  if (!state) return NULL;
  import(state->base, c->x, c->limbs);
  import(state->exponent, c->exponent, c->limbs);
  import(state->modulus, c->modulus, c->limbs);
  mpz_init(state->result);
  return state;
}

static void run_powm(void *opaque, const bench_case *c, size_t iterations) {
  struct powm *state = opaque;
  (void)c;
  for (size_t i = 0; i < iterations; i++) mpz_powm_sec(state->result, state->base, state->exponent, state->modulus);
}

static void teardown_powm(void *opaque) {
  struct powm *state = opaque;
  mpz_clears(state->base, state->exponent, state->modulus, state->result, NULL);
  free(state);
}

const bench_routine bench_gmp_routines[] = {
    {"bn_mul", "gmp", "mpn_mul_n", NULL, run_mul, NULL},
    {"bn_sqr", "gmp", "mpn_sqr", NULL, run_sqr, NULL},
    {"bn_mul_add", "gmp", "mpn_addmul_1", NULL, run_mul_add, NULL},
    {"mod_exp", "gmp", "mpz_powm_sec", setup_powm, run_powm, teardown_powm},
};
const size_t bench_gmp_routine_count = sizeof bench_gmp_routines / sizeof bench_gmp_routines[0];
