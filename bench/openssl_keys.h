/* bench/openssl_keys.h - crisp-bench's numbers as OpenSSL objects
 * (bench/openssl_keys.c): limbs as a BIGNUM, and the fixed keys of
 * bench/rsa_keys.c as an EVP_PKEY of the provider a library context and
 * its properties pick. */
#ifndef CRISP_BENCH_OPENSSL_KEYS_H
#define CRISP_BENCH_OPENSSL_KEYS_H

#include <stddef.h>

#include <openssl/bn.h>
#include <openssl/evp.h>

#include "rsa_keys.h"

/* n little-endian limbs (at most CRISP_BN_MONT_MAX_LIMBS) as a new BIGNUM,
 * or NULL. */
BIGNUM *bench_bn_from_limbs(const crisp_limb *limbs, size_t n);

/* The key pair with its CRT parameters, imported by the key manager
 * EVP_PKEY_CTX_new_from_name(libctx, "RSA", properties) fetches; NULL with
 * OpenSSL's error queued when it cannot be. */
EVP_PKEY *bench_rsa_pkey(OSSL_LIB_CTX *libctx, const char *properties, const bench_rsa_key *key);

#endif
