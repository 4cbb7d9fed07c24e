/* provider/rsa_key.h - the RSA key the provider's key manager holds and
 * its signature operation reads: every component as crisp limbs (64-bit,
 * little-endian order), sized for crisp_bn_mod_exp_crt, and the byte
 * conversions between limbs and the big-endian strings of PKCS#1. */
#ifndef CRISP_PROVIDER_RSA_KEY_H
#define CRISP_PROVIDER_RSA_KEY_H

#include <stddef.h>

#include <openssl/bn.h>

#include <crisp/bn.h>

#include "provider.h"

/* The moduli the provider accepts: OpenSSL's own floor, and the largest
 * modulus crisp's Montgomery functions take. */
enum { CRISP_RSA_MIN_BITS = 512, CRISP_RSA_MAX_BITS = 64 * CRISP_BN_MONT_MAX_LIMBS };

typedef struct crisp_rsa_key {
  const crisp_provider *provider;
  size_t limbs;   /* of n; 0 while the key is empty */
  size_t half;    /* (limbs + 1) / 2: the size of p, q, dP, dQ and qInv */
  size_t bits;    /* of n */
  size_t e_limbs; /* of e without its leading zero limbs */
  int has_private;
  int has_crt;          /* p, q, dP, dQ, qInv were imported, each fitting half */
  int crt_makes_n;      /* with has_crt: p * q is n (checked at import) */
  unsigned crt_present; /* bit i: CRT component i (crisp_rsa_crt_names) was imported */
  crisp_limb minv;      /* crisp_bn_mont_inv(n[0]) */
  /* With has_crt, crt_makes_n and n of 2 * half limbs: the CRT components
   * prepared by crisp_bn_crt_key_new at import, which signing uses; NULL
   * when they were refused (a bad key, kept so that signing reports it
   * as before) or memory ran out; either way signing takes the one-call
   * form. */
  crisp_bn_crt_key *crt_key;
  /* One allocation, wiped on free: n, e, d, R^2 mod n, then p, q, dP, dQ,
   * qInv, `limbs` limbs each (crisp_bn_mod_exp_crt reads the CRT
   * components' first `half`). */
  crisp_limb *storage;
  size_t storage_limbs;
  crisp_limb *n, *e, *d, *r2, *p, *q, *dp, *dq, *qinv;
} crisp_rsa_key;

/* The CRT components in their order in the key: p, q, dP, dQ, qInv. */
enum { CRISP_RSA_CRT_COMPONENTS = 5 };
static inline crisp_limb *crisp_rsa_crt_component(const crisp_rsa_key *key, size_t i) {
  return key->p + i * key->limbs;
}

/* limbs[0..count) = the big-endian string bytes[0..length), which must fit;
 * returns 0 when it does not. */
int crisp_rsa_bytes_to_limbs(crisp_limb *limbs, size_t count, const unsigned char *bytes, size_t length);

/* bytes[0..length) = limbs[0..count) big-endian, left-padded with zeros;
 * returns 0 when the value does not fit in length bytes. */
int crisp_rsa_limbs_to_bytes(unsigned char *bytes, size_t length, const crisp_limb *limbs, size_t count);

/* result = base^e mod n for base < n (rsa_public.c): a crisp status,
 * CRISP_E_RANGE when base >= n. result must not overlap base. */
int crisp_rsa_public_operation(const crisp_rsa_key *key, crisp_limb *result, const crisp_limb *base);

/* The modulus size in bytes (the size of a signature). */
size_t crisp_rsa_key_size(const crisp_rsa_key *key);

#endif
