/* provider/rsa_keymgmt.c - the RSA key manager: imports the keys other
 * providers make (n, e, d and the two-prime CRT components), exports them
 * back, and answers the size questions EVP asks. Key generation is
 * delegated to the other providers loaded (crisp does not generate
 * primes) and the result imported. Multi-prime keys are rejected:
 * crisp_bn_mod_exp_crt takes two primes. */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/param_build.h>
#include <openssl/params.h>

#include "rsa_key.h"

/* The CRT components' parameter names, in the key's order. */
static const char *const crisp_rsa_crt_names[CRISP_RSA_CRT_COMPONENTS] = {
    OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2, OSSL_PKEY_PARAM_RSA_EXPONENT1,
    OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1};

static void *rsa_new(void *provctx) {
  crisp_rsa_key *key = OPENSSL_zalloc(sizeof *key);
  if (!key) {
    CRISP_PROV_RAISE(provctx, CRISP_PROV_R_NO_MEMORY, NULL);
    return NULL;
  }
  key->provider = provctx;
  return key;
}

static void rsa_clear(crisp_rsa_key *key) {
  crisp_bn_crt_key_free(key->crt_key);
  if (key->storage) OPENSSL_clear_free(key->storage, key->storage_limbs * sizeof *key->storage);
  const crisp_provider *provider = key->provider;
  memset(key, 0, sizeof *key);
  key->provider = provider;
}

static void rsa_free(void *keydata) {
  crisp_rsa_key *key = keydata;
  if (!key) return;
  rsa_clear(key);
  OPENSSL_clear_free(key, sizeof *key);
}

static int rsa_has(const void *keydata, int selection) {
  const crisp_rsa_key *key = keydata;
  if (!key) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return 1;
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) && key->limbs == 0) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && !key->has_private) return 0;
  return 1;
}

/* RSA keys have no domain parameters: a selection without the key pair
 * finds any two keys equal, as OpenSSL's own key manager does. */
static int rsa_match(const void *keydata1, const void *keydata2, int selection) {
  const crisp_rsa_key *a = keydata1, *b = keydata2;
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return 1;
  if (a->limbs != b->limbs || a->limbs == 0) return 0;
  const size_t bytes = a->limbs * sizeof(crisp_limb);
  if (CRYPTO_memcmp(a->n, b->n, bytes) != 0 || CRYPTO_memcmp(a->e, b->e, bytes) != 0) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) == 0)
    return a->has_private && b->has_private && CRYPTO_memcmp(a->d, b->d, bytes) == 0;
  return 1;
}

/* Copies the BIGNUM parameter `name` into limbs[0..count); 0 when it is
 * absent (*present = 0) or does not fit (raised). */
static int import_component(const crisp_rsa_key *key, const OSSL_PARAM params[], const char *name,
                            crisp_limb *limbs, size_t count, int *present) {
  const OSSL_PARAM *param = OSSL_PARAM_locate_const(params, name);
  *present = param != NULL;
  if (!param) return 0;
  BIGNUM *value = NULL;
  unsigned char *bytes = OPENSSL_malloc(8 * count);
  int ok = bytes && OSSL_PARAM_get_BN(param, &value) && !BN_is_negative(value) &&
           BN_bn2binpad(value, bytes, (int)(8 * count)) >= 0 &&
           crisp_rsa_bytes_to_limbs(limbs, count, bytes, 8 * count);
  if (!ok)
    CRISP_PROV_RAISE(key->provider, bytes ? CRISP_PROV_R_BAD_KEY : CRISP_PROV_R_NO_MEMORY,
                     "RSA component %s does not fit the key size", name);
  BN_clear_free(value);
  OPENSSL_clear_free(bytes, 8 * count);
  return ok;
}

static int allocate(crisp_rsa_key *key, const BIGNUM *n) {
  int bits = BN_num_bits(n);
  if (bits < CRISP_RSA_MIN_BITS || bits > CRISP_RSA_MAX_BITS || !BN_is_odd(n)) {
    CRISP_PROV_RAISE(key->provider, CRISP_PROV_R_BAD_KEY,
                     "RSA modulus of %d bits: crisp takes odd moduli of %d to %d bits", bits,
                     CRISP_RSA_MIN_BITS, CRISP_RSA_MAX_BITS);
    return 0;
  }
  key->bits = (size_t)bits;
  key->limbs = (key->bits + 63) / 64;
  key->half = (key->limbs + 1) / 2;
  key->storage_limbs = 9 * key->limbs;
  key->storage = OPENSSL_zalloc(key->storage_limbs * sizeof *key->storage);
  if (!key->storage) {
    CRISP_PROV_RAISE(key->provider, CRISP_PROV_R_NO_MEMORY, NULL);
    return 0;
  }
  key->n = key->storage;
  key->e = key->n + key->limbs;
  key->d = key->e + key->limbs;
  key->r2 = key->d + key->limbs;
  key->p = key->r2 + key->limbs;
  key->q = key->p + key->limbs;
  key->dp = key->q + key->limbs;
  key->dq = key->dp + key->limbs;
  key->qinv = key->dq + key->limbs;
  return 1;
}

/* Whether p * q is n: 1 or 0, -1 when memory ran out. */
static int product_is_n(const crisp_rsa_key *key) {
  crisp_limb *product = OPENSSL_zalloc(2 * key->half * sizeof *product);
  if (!product) return -1;
  const int equal = crisp_bn_mul(product, key->p, key->half, key->q, key->half) == CRISP_OK &&
                    CRYPTO_memcmp(product, key->n, key->limbs * sizeof *product) == 0 &&
                    (2 * key->half == key->limbs || product[2 * key->half - 1] == 0);
  OPENSSL_clear_free(product, 2 * key->half * sizeof *product);
  return equal;
}

static int import_private(crisp_rsa_key *key, const OSSL_PARAM params[]) {
  int present;
  if (OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_FACTOR3)) {
    CRISP_PROV_RAISE(key->provider, CRISP_PROV_R_BAD_KEY, "multi-prime RSA keys are not supported");
    return 0;
  }
  if (!import_component(key, params, OSSL_PKEY_PARAM_RSA_D, key->d, key->limbs, &present)) {
    if (!present) CRISP_PROV_RAISE(key->provider, CRISP_PROV_R_BAD_KEY, "RSA private key without d");
    return 0;
  }
  key->has_private = 1;
  /* Every CRT component given is kept, so that export gives the key back
   * whole; components longer than half the modulus (an unbalanced key)
   * have no place in crisp_bn_mod_exp_crt, and such a key, or one without
   * all five, signs with d (rsa_signature.c). */
  int fits_half = 1;
  for (size_t i = 0; i < CRISP_RSA_CRT_COMPONENTS; i++) {
    crisp_limb *const limbs = crisp_rsa_crt_component(key, i);
    if (!import_component(key, params, crisp_rsa_crt_names[i], limbs, key->limbs, &present)) {
      if (present) return 0;
      continue;
    }
    key->crt_present |= 1u << i;
    for (size_t j = key->half; j < key->limbs; j++) fits_half &= limbs[j] == 0;
  }
  /* The CRT's own check is mod p * q, which crisp_bn_mod_exp_crt cannot
   * compare with n: a key whose factors are not n's is refused when it
   * signs. */
  key->has_crt = key->crt_present == (1u << CRISP_RSA_CRT_COMPONENTS) - 1 && fits_half;
  if (key->has_crt) {
    const int makes_n = product_is_n(key);
    if (makes_n < 0) {
      CRISP_PROV_RAISE(key->provider, CRISP_PROV_R_NO_MEMORY, NULL);
      return 0;
    }
    key->crt_makes_n = makes_n;
    /* Checked and set up once here rather than at every signature; a
     * refusal or a failed allocation leaves crt_key NULL and signing to
     * the one-call form: it reports a refused key, and a failed
     * allocation here costs only the setup at each signature. */
    if (makes_n && 2 * key->half == key->limbs)
      (void)crisp_bn_crt_key_new(&key->crt_key, key->p, key->q, key->dp, key->dq, key->qinv, key->half,
                                 key->e, key->e_limbs);
  }
  return 1;
}

static int rsa_import(void *keydata, int selection, const OSSL_PARAM params[]) {
  crisp_rsa_key *key = keydata;
  if (!key) return 0;
  /* RSA has no domain parameters: a selection without the key pair has
   * nothing to import. */
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return 1;
  rsa_clear(key);
  const OSSL_PARAM *n_param = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_N);
  BIGNUM *n = NULL;
  if (!n_param || !OSSL_PARAM_get_BN(n_param, &n)) {
    CRISP_PROV_RAISE(key->provider, CRISP_PROV_R_BAD_KEY, "RSA key without a modulus");
    return 0;
  }
  int ok = allocate(key, n);
  BN_free(n);
  int present;
  ok = ok && import_component(key, params, OSSL_PKEY_PARAM_RSA_N, key->n, key->limbs, &present) &&
       import_component(key, params, OSSL_PKEY_PARAM_RSA_E, key->e, key->limbs, &present);
  ok = ok && crisp_bn_mont_r2(key->r2, key->n, key->limbs) == CRISP_OK;
  if (ok) {
    key->minv = crisp_bn_mont_inv(key->n[0]);
    key->e_limbs = key->limbs;
    while (key->e_limbs > 0 && key->e[key->e_limbs - 1] == 0) key->e_limbs--;
    if (key->e_limbs == 0 || (key->e[0] & 1) == 0 || (key->e_limbs == 1 && key->e[0] == 1)) {
      CRISP_PROV_RAISE(key->provider, CRISP_PROV_R_BAD_KEY, "RSA public exponent must be odd and above 1");
      ok = 0;
    }
  } else if (key->storage && !present) {
    CRISP_PROV_RAISE(key->provider, CRISP_PROV_R_BAD_KEY, "RSA key without a public exponent");
  }
  if (ok && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) &&
      OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_D))
    ok = import_private(key, params);
  if (!ok) rsa_clear(key);
  return ok;
}

static int push_component(OSSL_PARAM_BLD *builder, const char *name, const crisp_limb *limbs, size_t count,
                          BIGNUM **keep) {
  unsigned char *bytes = OPENSSL_malloc(8 * count);
  if (!bytes) return 0;
  crisp_rsa_limbs_to_bytes(bytes, 8 * count, limbs, count);
  /* Everything but n and e is secret: a BIGNUM flagged secure makes the
   * builder put it where OSSL_PARAM_free clears it. */
  int secret = strcmp(name, OSSL_PKEY_PARAM_RSA_N) != 0 && strcmp(name, OSSL_PKEY_PARAM_RSA_E) != 0;
  BIGNUM *value = secret ? BN_secure_new() : BN_new();
  *keep = value ? BN_bin2bn(bytes, (int)(8 * count), value) : NULL;
  if (!*keep) BN_free(value);
  OPENSSL_clear_free(bytes, 8 * count);
  return *keep && OSSL_PARAM_BLD_push_BN(builder, name, *keep);
}

/* Whether export gives CRT component i: as OpenSSL's own key manager
 * does, p and q when both were imported, the exponents and the
 * coefficient only with all five. */
static int exported_component(const crisp_rsa_key *key, size_t i) {
  const unsigned all = (1u << CRISP_RSA_CRT_COMPONENTS) - 1, factors = 3;
  return i < 2 ? (key->crt_present & factors) == factors : key->crt_present == all;
}

static int rsa_export(void *keydata, int selection, OSSL_CALLBACK *callback, void *callback_arg) {
  crisp_rsa_key *key = keydata;
  if (!key) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) { /* no domain parameters: nothing to give */
    OSSL_PARAM none[] = {OSSL_PARAM_END};
    return callback(none, callback_arg);
  }
  if (key->limbs == 0) return 0;
  OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
  BIGNUM *values[8] = {NULL};
  OSSL_PARAM *params = NULL;
  int ok = builder && push_component(builder, OSSL_PKEY_PARAM_RSA_N, key->n, key->limbs, &values[0]) &&
           push_component(builder, OSSL_PKEY_PARAM_RSA_E, key->e, key->limbs, &values[1]);
  if (ok && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && key->has_private) {
    ok = push_component(builder, OSSL_PKEY_PARAM_RSA_D, key->d, key->limbs, &values[2]);
    for (size_t i = 0; ok && i < CRISP_RSA_CRT_COMPONENTS; i++)
      if (exported_component(key, i))
        ok = push_component(builder, crisp_rsa_crt_names[i], crisp_rsa_crt_component(key, i), key->limbs,
                            &values[3 + i]);
  }
  ok = ok && (params = OSSL_PARAM_BLD_to_param(builder)) != NULL && callback(params, callback_arg);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(builder);
  for (size_t i = 0; i < 8; i++) BN_clear_free(values[i]);
  return ok;
}

/* The components, as import and export take them and get_params answers
 * them. */
#define RSA_COMPONENT_PARAMS                                                                              \
  OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_N, NULL, 0), OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),           \
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_D, NULL, 0), OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR1, NULL, 0), \
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR2, NULL, 0),                                                \
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT1, NULL, 0),                                              \
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT2, NULL, 0),                                              \
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_COEFFICIENT1, NULL, 0)

static const OSSL_PARAM key_types[] = {
    RSA_COMPONENT_PARAMS,
    OSSL_PARAM_END,
};

static const OSSL_PARAM *rsa_key_types(int selection) {
  /* n and e alone when only the public part is asked for. */
  static const OSSL_PARAM public_types[] = {
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_N, NULL, 0),
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),
      OSSL_PARAM_END,
  };
  if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) return key_types;
  if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) return public_types;
  return NULL;
}

/* The parameter `name` in params, when asked for, set to limbs[0..count). */
static int answer_component(OSSL_PARAM params[], const char *name, const crisp_limb *limbs, size_t count) {
  OSSL_PARAM *p = OSSL_PARAM_locate(params, name);
  if (!p) return 1;
  unsigned char *bytes = OPENSSL_malloc(8 * count);
  BIGNUM *value = bytes ? BN_secure_new() : NULL;
  int ok = value != NULL;
  if (ok) {
    crisp_rsa_limbs_to_bytes(bytes, 8 * count, limbs, count);
    ok = BN_bin2bn(bytes, (int)(8 * count), value) && OSSL_PARAM_set_BN(p, value);
  }
  BN_clear_free(value);
  OPENSSL_clear_free(bytes, 8 * count);
  return ok;
}

static int rsa_get_params(void *keydata, OSSL_PARAM params[]) {
  const crisp_rsa_key *key = keydata;
  OSSL_PARAM *p;
  if (!key || key->limbs == 0) return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) && !OSSL_PARAM_set_int(p, (int)key->bits))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) &&
      !OSSL_PARAM_set_int(p, BN_security_bits((int)key->bits, -1)))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) &&
      !OSSL_PARAM_set_int(p, (int)crisp_rsa_key_size(key)))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_DEFAULT_DIGEST)) &&
      !OSSL_PARAM_set_utf8_string(p, "SHA256"))
    return 0;
  /* the components, as the default provider answers them: n and e, and
   * those of the private key it holds */
  if (!answer_component(params, OSSL_PKEY_PARAM_RSA_N, key->n, key->limbs) ||
      !answer_component(params, OSSL_PKEY_PARAM_RSA_E, key->e, key->limbs))
    return 0;
  if (!key->has_private) return 1;
  if (!answer_component(params, OSSL_PKEY_PARAM_RSA_D, key->d, key->limbs)) return 0;
  for (size_t i = 0; i < CRISP_RSA_CRT_COMPONENTS; i++)
    if (exported_component(key, i) &&
        !answer_component(params, crisp_rsa_crt_names[i], crisp_rsa_crt_component(key, i), key->limbs))
      return 0;
  return 1;
}

static const OSSL_PARAM *rsa_gettable_params(void *provctx) {
  (void)provctx;
  static const OSSL_PARAM gettable[] = {
      OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
      OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
      OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
      OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
      RSA_COMPONENT_PARAMS,
      OSSL_PARAM_END,
  };
  return gettable;
}

/* The key's export as parameters into *peer: a key of the other providers
 * in the child library context (crisp excluded). */
static int build_peer(const OSSL_PARAM params[], void *arg) {
  struct delegated {
    const crisp_rsa_key *key;
    EVP_PKEY *peer;
  } *delegated = arg;
  EVP_PKEY_CTX *context =
      EVP_PKEY_CTX_new_from_name(delegated->key->provider->libctx, "RSA", "provider!=crisp");
  const int selection = delegated->key->has_private ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;
  /* fromdata only reads params; OpenSSL 3.0 declares them without const */
  const int ok = context && EVP_PKEY_fromdata_init(context) > 0 &&
                 EVP_PKEY_fromdata(context, &delegated->peer, selection, (OSSL_PARAM *)params) > 0;
  EVP_PKEY_CTX_free(context);
  return ok;
}

/* EVP_PKEY_check and its kin on a crisp key. crisp checks that p * q is
 * n itself (import did), and the rest as OpenSSL's own key manager checks
 * it is done by the other providers loaded, on a copy of the key in the
 * child library context: the whole key pair's consistency (d, the CRT
 * exponents and coefficient, e) for the key pair, the public key's (n not
 * a prime or a prime power, no small factor, e in range) for the public
 * part. Without another provider, only the key's shape and p * q = n. */
static int rsa_validate(const void *keydata, int selection, int checktype) {
  const crisp_rsa_key *key = keydata;
  if (!rsa_has(keydata, selection)) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return 1;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && key->has_crt && !key->crt_makes_n) {
    CRISP_PROV_RAISE(key->provider, CRISP_PROV_R_BAD_KEY, "RSA key: p * q is not n");
    return 0;
  }
  struct {
    const crisp_rsa_key *key;
    EVP_PKEY *peer;
  } delegated = {key, NULL};
  EVP_PKEY_CTX *probe = EVP_PKEY_CTX_new_from_name(key->provider->libctx, "RSA", "provider!=crisp");
  const int other_provider = probe != NULL;
  EVP_PKEY_CTX_free(probe);
  if (!other_provider) return 1;
  const int exported = rsa_export((void *)key, OSSL_KEYMGMT_SELECT_KEYPAIR, build_peer, &delegated);
  EVP_PKEY_CTX *context =
      exported ? EVP_PKEY_CTX_new_from_pkey(key->provider->libctx, delegated.peer, "provider!=crisp") : NULL;
  int ok = 0;
  if (context) {
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == OSSL_KEYMGMT_SELECT_KEYPAIR)
      ok = EVP_PKEY_pairwise_check(context) > 0;
    else if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY)
      ok = EVP_PKEY_private_check(context) > 0;
    else
      ok = (checktype == OSSL_KEYMGMT_VALIDATE_QUICK_CHECK ? EVP_PKEY_public_check_quick(context)
                                                           : EVP_PKEY_public_check(context)) > 0;
  }
  EVP_PKEY_CTX_free(context);
  EVP_PKEY_free(delegated.peer);
  if (!ok) CRISP_PROV_RAISE(key->provider, CRISP_PROV_R_BAD_KEY, "RSA key failed the other providers' check");
  return ok;
}

/* ---- key generation, delegated ------------------------------------------- */

/* What a generation was asked for; e NULL means the usual 65537. */
typedef struct rsa_generation {
  crisp_provider *provider;
  size_t bits;
  BIGNUM *e;
  OSSL_CALLBACK *callback; /* the caller's progress callback, or NULL */
  void *callback_arg;
} rsa_generation;

static int rsa_gen_set_params(void *generation_data, const OSSL_PARAM params[]) {
  rsa_generation *generation = generation_data;
  const OSSL_PARAM *p;
  if (!generation) return 0;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_BITS))) {
    size_t bits;
    if (!OSSL_PARAM_get_size_t(p, &bits) || bits < CRISP_RSA_MIN_BITS || bits > CRISP_RSA_MAX_BITS) {
      CRISP_PROV_RAISE(generation->provider, CRISP_PROV_R_BAD_PARAMETER,
                       "RSA key generation: crisp takes moduli of %d to %d bits", CRISP_RSA_MIN_BITS,
                       CRISP_RSA_MAX_BITS);
      generation->bits = 0; /* refused: a generation that goes on anyway fails, as with OpenSSL's own */
      return 0;
    }
    generation->bits = bits;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_PRIMES))) {
    size_t primes;
    if (!OSSL_PARAM_get_size_t(p, &primes) || primes != 2) {
      CRISP_PROV_RAISE(generation->provider, CRISP_PROV_R_BAD_PARAMETER,
                       "multi-prime RSA key generation is not supported: crisp signs with two primes");
      return 0;
    }
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_E))) {
    BIGNUM *e = NULL;
    if (!OSSL_PARAM_get_BN(p, &e)) {
      CRISP_PROV_RAISE(generation->provider, CRISP_PROV_R_BAD_PARAMETER, "RSA public exponent unreadable");
      return 0;
    }
    BN_free(generation->e);
    generation->e = e;
  }
  return 1;
}

static const OSSL_PARAM *rsa_gen_settable_params(void *generation_data, void *provctx) {
  (void)generation_data;
  (void)provctx;
  static const OSSL_PARAM settable[] = {
      OSSL_PARAM_size_t(OSSL_PKEY_PARAM_RSA_BITS, NULL),
      OSSL_PARAM_size_t(OSSL_PKEY_PARAM_RSA_PRIMES, NULL),
      OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),
      OSSL_PARAM_END,
  };
  return settable;
}

static void rsa_gen_cleanup(void *generation_data) {
  rsa_generation *generation = generation_data;
  if (!generation) return;
  BN_free(generation->e);
  OPENSSL_clear_free(generation, sizeof *generation);
}

static void *rsa_gen_init(void *provctx, int selection, const OSSL_PARAM params[]) {
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) { /* EVP_PKEY_paramgen: RSA has no parameters */
    CRISP_PROV_RAISE(provctx, CRISP_PROV_R_BAD_PARAMETER, "RSA has no parameters to generate");
    return NULL;
  }
  rsa_generation *generation = OPENSSL_zalloc(sizeof *generation);
  if (!generation) {
    CRISP_PROV_RAISE(provctx, CRISP_PROV_R_NO_MEMORY, NULL);
    return NULL;
  }
  generation->provider = provctx;
  generation->bits = 2048;
  if (!rsa_gen_set_params(generation, params)) {
    rsa_gen_cleanup(generation);
    return NULL;
  }
  return generation;
}

/* EVP_PKEY_export's callback: the generated components go through the
 * same import as any other provider's key. The exporter owns and wipes
 * the parameters. */
static int import_generated(const OSSL_PARAM params[], void *keydata) {
  return rsa_import(keydata, OSSL_KEYMGMT_SELECT_KEYPAIR, params);
}

/* Passes the generating provider's progress on to the caller's callback,
 * whose 0 stops the generation. */
static int relay_progress(EVP_PKEY_CTX *context) {
  rsa_generation *generation = EVP_PKEY_CTX_get_app_data(context);
  if (!generation->callback) return 1;
  int potential = EVP_PKEY_CTX_get_keygen_info(context, 0),
      iteration = EVP_PKEY_CTX_get_keygen_info(context, 1);
  OSSL_PARAM progress[] = {
      OSSL_PARAM_int(OSSL_GEN_PARAM_POTENTIAL, &potential),
      OSSL_PARAM_int(OSSL_GEN_PARAM_ITERATION, &iteration),
      OSSL_PARAM_END,
  };
  return generation->callback(progress, generation->callback_arg);
}

/* Generates in the child library context with crisp excluded (crisp does
 * not generate primes, and fetching itself would recurse), then imports
 * the key; the intermediate key is freed, which wipes it. */
static void *rsa_gen(void *generation_data, OSSL_CALLBACK *callback, void *callback_arg) {
  rsa_generation *generation = generation_data;
  if (!generation) return NULL;
  generation->callback = callback;
  generation->callback_arg = callback_arg;
  crisp_provider *provider = generation->provider;
  if (generation->bits == 0) {
    CRISP_PROV_RAISE(provider, CRISP_PROV_R_BAD_PARAMETER,
                     "RSA key generation: crisp takes moduli of %d to %d bits", CRISP_RSA_MIN_BITS,
                     CRISP_RSA_MAX_BITS);
    return NULL;
  }
  EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(provider->libctx, "RSA", "provider!=crisp");
  if (!context) {
    CRISP_PROV_RAISE(provider, CRISP_PROV_R_BAD_PARAMETER,
                     "RSA key generation needs another provider (default or fips) loaded beside crisp");
    return NULL;
  }
  EVP_PKEY *generated = NULL;
  EVP_PKEY_CTX_set_app_data(context, generation);
  EVP_PKEY_CTX_set_cb(context, relay_progress);
  int ok = EVP_PKEY_keygen_init(context) > 0 &&
           EVP_PKEY_CTX_set_rsa_keygen_bits(context, (int)generation->bits) > 0 &&
           (!generation->e || EVP_PKEY_CTX_set1_rsa_keygen_pubexp(context, generation->e) > 0) &&
           EVP_PKEY_generate(context, &generated) > 0;
  EVP_PKEY_CTX_free(context);
  if (!ok) {
    CRISP_PROV_RAISE(provider, CRISP_PROV_R_BAD_PARAMETER,
                     "RSA key generation by the other providers failed");
    EVP_PKEY_free(generated);
    return NULL;
  }
  crisp_rsa_key *key = rsa_new(provider);
  if (key && EVP_PKEY_export(generated, EVP_PKEY_KEYPAIR, import_generated, key) <= 0) {
    rsa_free(key);
    key = NULL;
  }
  EVP_PKEY_free(generated);
  return key;
}

const OSSL_DISPATCH crisp_rsa_keymgmt_functions[] = {
    {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))rsa_new},
    {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))rsa_free},
    {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))rsa_has},
    {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))rsa_match},
    {OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))rsa_validate},
    {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))rsa_import},
    {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))rsa_key_types},
    {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))rsa_export},
    {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))rsa_key_types},
    {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))rsa_get_params},
    {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))rsa_gettable_params},
    {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))rsa_gen_init},
    {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))rsa_gen_set_params},
    {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))rsa_gen_settable_params},
    {OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))rsa_gen},
    {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))rsa_gen_cleanup},
    {0, NULL},
};
