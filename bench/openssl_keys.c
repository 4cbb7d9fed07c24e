/* bench/openssl_keys.c - crisp-bench's limbs and fixed RSA keys turned into
 * OpenSSL's BIGNUM and EVP_PKEY, for the OpenSSL peer rows and the EVP rows
 * through a provider (bench/openssl_keys.h). */
#include <openssl/core_names.h>
#include <openssl/param_build.h>

#include "openssl_keys.h"

BIGNUM *bench_bn_from_limbs(const crisp_limb *limbs, size_t n) {
  unsigned char bytes[CRISP_BN_MONT_MAX_LIMBS * 8];
  if (n > CRISP_BN_MONT_MAX_LIMBS) return NULL;
  for (size_t i = 0; i < n; i++)
    for (int b = 0; b < 8; b++) bytes[8 * i + b] = (unsigned char)(limbs[i] >> (8 * b));
  return BN_lebin2bn(bytes, (int)(8 * n), NULL);
}

static int push(OSSL_PARAM_BLD *build, const char *name, const crisp_limb *limbs, size_t n, BIGNUM **keep) {
  *keep = bench_bn_from_limbs(limbs, n);
  return *keep && OSSL_PARAM_BLD_push_BN(build, name, *keep);
}

EVP_PKEY *bench_rsa_pkey(OSSL_LIB_CTX *libctx, const char *properties, const bench_rsa_key *key) {
  const crisp_limb e[1] = {BENCH_RSA_E};
  BIGNUM *numbers[8] = {NULL};
  OSSL_PARAM_BLD *build = OSSL_PARAM_BLD_new();
  OSSL_PARAM *params = NULL;
  EVP_PKEY_CTX *from = EVP_PKEY_CTX_new_from_name(libctx, "RSA", properties);
  EVP_PKEY *pkey = NULL;
  const int ok = build && from && push(build, OSSL_PKEY_PARAM_RSA_N, key->n, 2 * key->half, &numbers[0]) &&
                 push(build, OSSL_PKEY_PARAM_RSA_E, e, 1, &numbers[1]) &&
                 push(build, OSSL_PKEY_PARAM_RSA_D, key->d, 2 * key->half, &numbers[2]) &&
                 push(build, OSSL_PKEY_PARAM_RSA_FACTOR1, key->p, key->half, &numbers[3]) &&
                 push(build, OSSL_PKEY_PARAM_RSA_FACTOR2, key->q, key->half, &numbers[4]) &&
                 push(build, OSSL_PKEY_PARAM_RSA_EXPONENT1, key->dp, key->half, &numbers[5]) &&
                 push(build, OSSL_PKEY_PARAM_RSA_EXPONENT2, key->dq, key->half, &numbers[6]) &&
                 push(build, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, key->qinv, key->half, &numbers[7]) &&
                 (params = OSSL_PARAM_BLD_to_param(build)) != NULL && EVP_PKEY_fromdata_init(from) == 1 &&
                 EVP_PKEY_fromdata(from, &pkey, EVP_PKEY_KEYPAIR, params) == 1;
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(build);
  EVP_PKEY_CTX_free(from);
  for (int i = 0; i < 8; i++) BN_clear_free(numbers[i]);
  if (ok) return pkey;
  EVP_PKEY_free(pkey);
  return NULL;
}
