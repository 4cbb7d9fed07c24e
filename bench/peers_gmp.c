/* bench/peers_gmp.c - GMP as a benchmark peer: mpn_mul_n, mpn_sqr,
 * mpn_addmul_1 on the same limb arrays (GMP's limbs are 64-bit here too),
 * and mpz_powm_sec (twice for bn_mod_exp2, and in a CRT for rsa_private). */
#include <gmp.h>
#include <stdlib.h>

#include "bench.h"
#include "rsa_keys.h"

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
    c->out[c->limbs] +=
        mpn_addmul_1((mp_limb_t *)c->out, (const mp_limb_t *)c->x, (mp_size_t)c->limbs, c->y[0]);
}

struct powm {
  mpz_t base, exponent, modulus, result, other;
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
  import(state->other, c->y, c->limbs);
  return state;
}

static void run_powm(void *opaque, const bench_case *c, size_t iterations) {
  struct powm *state = opaque;
  (void)c;
  for (size_t i = 0; i < iterations; i++)
    mpz_powm_sec(state->result, state->base, state->exponent, state->modulus);
}

static void run_powm_twice(void *opaque, const bench_case *c, size_t iterations) {
  struct powm *state = opaque;
  (void)c;
  for (size_t i = 0; i < iterations; i++) {
    mpz_powm_sec(state->result, state->base, state->exponent, state->modulus);
    mpz_powm_sec(state->result, state->other, state->exponent, state->modulus);
  }
}

static void teardown_powm(void *opaque) {
  struct powm *state = opaque;
  mpz_clears(state->base, state->exponent, state->modulus, state->result, state->other, NULL);
  free(state);
}

struct crt {
  mpz_t c, p, q, dp, dq, qinv, m1, m2, h, r;
};

static void *setup_crt(const bench_case *c) {
  struct crt *s = malloc(sizeof *s);
  if (!s) return NULL;
  const bench_rsa_key *k = c->rsa;
  import(s->c, c->x, c->limbs);
  import(s->p, k->p, k->half);
  import(s->q, k->q, k->half);
  import(s->dp, k->dp, k->half);
  import(s->dq, k->dq, k->half);
  import(s->qinv, k->qinv, k->half);
  mpz_inits(s->m1, s->m2, s->h, s->r, NULL);
  return s;
}

/* m1 = c^dp mod p, m2 = c^dq mod q (mpz_powm_sec), Garner with mpz
 * arithmetic: the CRT a GMP user would write. */
static void run_crt(void *opaque, const bench_case *c, size_t iterations) {
  struct crt *s = opaque;
  (void)c;
  for (size_t i = 0; i < iterations; i++) {
    mpz_mod(s->m1, s->c, s->p);
    mpz_powm_sec(s->m1, s->m1, s->dp, s->p);
    mpz_mod(s->m2, s->c, s->q);
    mpz_powm_sec(s->m2, s->m2, s->dq, s->q);
    mpz_sub(s->h, s->m1, s->m2);
    mpz_mul(s->h, s->h, s->qinv);
    mpz_mod(s->h, s->h, s->p);
    mpz_mul(s->r, s->h, s->q);
    mpz_add(s->r, s->r, s->m2);
  }
}

static void teardown_crt(void *opaque) {
  struct crt *s = opaque;
  mpz_clears(s->c, s->p, s->q, s->dp, s->dq, s->qinv, s->m1, s->m2, s->h, s->r, NULL);
  free(s);
}

const bench_routine bench_gmp_routines[] = {
    {"bn_mul", "gmp", "mpn_mul_n", NULL, run_mul, NULL},
    {"bn_sqr", "gmp", "mpn_sqr", NULL, run_sqr, NULL},
    {"bn_mul_add", "gmp", "mpn_addmul_1", NULL, run_mul_add, NULL},
    {"mod_exp", "gmp", "mpz_powm_sec", setup_powm, run_powm, teardown_powm},
    {"bn_mod_exp2", "gmp", "mpz_powm_sec x2", setup_powm, run_powm_twice, teardown_powm},
    {"rsa_private", "gmp", "mpz_powm_sec CRT", setup_crt, run_crt, teardown_crt},
};
const size_t bench_gmp_routine_count = sizeof bench_gmp_routines / sizeof bench_gmp_routines[0];
