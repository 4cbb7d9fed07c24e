/* bench/rsa_keys.h - the fixed RSA keys the rsa_private rows use
 * (bench/rsa_keys.c, written by bench/make_rsa_keys.py). */
#ifndef CRISP_BENCH_RSA_KEYS_H
#define CRISP_BENCH_RSA_KEYS_H

#include <stddef.h>

#include <crisp/bn.h>

typedef struct bench_rsa_key {
  size_t bits; /* of n */
  size_t half; /* limbs of p, q, dp, dq, qinv; n and d have twice as many */
  const crisp_limb *n, *d, *p, *q, *dp, *dq, *qinv;
} bench_rsa_key;

#define BENCH_RSA_E 65537

extern const bench_rsa_key bench_rsa_keys[];
extern const size_t bench_rsa_key_count;

/* The key of n's size in bits, or NULL. */
const bench_rsa_key *bench_rsa_key_for(size_t bits);

#endif
