/* provider/rsa_signature.c - RSA signatures, PKCS#1 v1.5 and PSS, on
 * pre-hashed input (EVP_PKEY_sign / EVP_PKEY_verify) and on messages
 * (EVP_DigestSign / EVP_DigestVerify, hashed by a digest fetched from the
 * child library context). The private operation is crisp_bn_crt_key_exp on
 * the key prepared at import (crisp_bn_mod_exp_crt when it could not be),
 * given the public exponent, so its result is checked before release;
 * verification is the public exponentiation on crisp's Montgomery
 * multiplication (rsa_public.c). */
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rsa.h>

#include <crisp/common.h>

#include "rsa_key.h"
#include "rsa_padding.h"

#ifndef RSA_PSS_SALTLEN_AUTO_DIGEST_MAX
#define RSA_PSS_SALTLEN_AUTO_DIGEST_MAX -4
#endif

typedef struct rsa_signature {
  crisp_provider *provider;
  const crisp_rsa_key *key; /* owned by the EVP_PKEY, which outlives this */
  int padding;              /* RSA_PKCS1_PADDING or RSA_PKCS1_PSS_PADDING */
  EVP_MD *md;               /* NULL: PKCS#1 signs the input as it is, PSS uses SHA-1 */
  EVP_MD *mgf1;             /* NULL: the same as md */
  int salt_length;          /* bytes, or one of the RSA_PSS_SALTLEN_* values */
  EVP_MD_CTX *md_context;   /* while a DigestSign or DigestVerify runs */
} rsa_signature;

static void *signature_new(void *provctx, const char *propq) {
  (void)propq;
  rsa_signature *context = OPENSSL_zalloc(sizeof *context);
  if (!context) {
    CRISP_PROV_RAISE(provctx, CRISP_PROV_R_NO_MEMORY, NULL);
    return NULL;
  }
  context->provider = provctx;
  return context;
}

static void signature_free(void *ctx) {
  rsa_signature *context = ctx;
  if (!context) return;
  EVP_MD_CTX_free(context->md_context);
  EVP_MD_free(context->md);
  EVP_MD_free(context->mgf1);
  OPENSSL_clear_free(context, sizeof *context);
}

static void *signature_dup(void *ctx) {
  const rsa_signature *source = ctx;
  rsa_signature *copy = OPENSSL_memdup(source, sizeof *source);
  if (!copy) {
    CRISP_PROV_RAISE(source->provider, CRISP_PROV_R_NO_MEMORY, NULL);
    return NULL;
  }
  copy->md_context = NULL;
  if (copy->md) EVP_MD_up_ref(copy->md);
  if (copy->mgf1) EVP_MD_up_ref(copy->mgf1);
  if (source->md_context &&
      (!(copy->md_context = EVP_MD_CTX_new()) || !EVP_MD_CTX_copy_ex(copy->md_context, source->md_context))) {
    signature_free(copy);
    CRISP_PROV_RAISE(source->provider, CRISP_PROV_R_NO_MEMORY, NULL);
    return NULL;
  }
  return copy;
}

/* The digest PSS hashes with: the one set, else SHA-1 (RFC 8017's
 * default), fetched on demand. */
static int pss_digests(rsa_signature *context, const EVP_MD **md, const EVP_MD **mgf1) {
  if (!context->md && !(context->md = EVP_MD_fetch(context->provider->libctx, "SHA1", NULL))) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "no SHA-1 for PSS's default digest");
    return 0;
  }
  *md = context->md;
  *mgf1 = context->mgf1 ? context->mgf1 : context->md;
  return 1;
}

static int set_digest(rsa_signature *context, EVP_MD **slot, const char *name, const char *properties) {
  EVP_MD *md = EVP_MD_fetch(context->provider->libctx, name, properties);
  if (!md) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "digest %s not available", name);
    return 0;
  }
  if (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "no RSA signature with an XOF (%s)",
                     name);
    EVP_MD_free(md);
    return 0;
  }
  if (slot == &context->md && context->padding == RSA_PKCS1_PADDING && !crisp_rsa_pkcs1_digest_known(md)) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "no PKCS#1 DigestInfo for digest %s",
                     name);
    EVP_MD_free(md);
    return 0;
  }
  EVP_MD_free(*slot);
  *slot = md;
  return 1;
}

static int parse_padding(const OSSL_PARAM *param, int *padding) {
  static const struct {
    const char *name;
    int id;
  } modes[] = {{OSSL_PKEY_RSA_PAD_MODE_NONE, RSA_NO_PADDING},
               {OSSL_PKEY_RSA_PAD_MODE_PKCSV15, RSA_PKCS1_PADDING},
               {OSSL_PKEY_RSA_PAD_MODE_OAEP, RSA_PKCS1_OAEP_PADDING},
               {OSSL_PKEY_RSA_PAD_MODE_X931, RSA_X931_PADDING},
               {OSSL_PKEY_RSA_PAD_MODE_PSS, RSA_PKCS1_PSS_PADDING}};
  if (param->data_type != OSSL_PARAM_UTF8_STRING) return OSSL_PARAM_get_int(param, padding);
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
    if (strcmp(param->data, modes[i].name) == 0) {
      *padding = modes[i].id;
      return 1;
    }
  return 0;
}

/* The salt lengths that are names as well as numbers. */
static const struct {
  const char *name;
  int value;
} salt_names[] = {{OSSL_PKEY_RSA_PSS_SALT_LEN_DIGEST, RSA_PSS_SALTLEN_DIGEST},
                  {OSSL_PKEY_RSA_PSS_SALT_LEN_MAX, RSA_PSS_SALTLEN_MAX},
                  {OSSL_PKEY_RSA_PSS_SALT_LEN_AUTO, RSA_PSS_SALTLEN_AUTO},
                  {"auto-digestmax", RSA_PSS_SALTLEN_AUTO_DIGEST_MAX}};
enum { SALT_NAMES = sizeof salt_names / sizeof salt_names[0] };

/* A salt length as a name, or as a number: bytes, or -1 to -4 for the
 * named ones (RSA_PSS_SALTLEN_*), as OpenSSL's own provider reads it. */
static int parse_salt_length(const OSSL_PARAM *param, int *salt_length) {
  if (param->data_type != OSSL_PARAM_UTF8_STRING) return OSSL_PARAM_get_int(param, salt_length);
  const char *text = param->data;
  for (size_t i = 0; i < SALT_NAMES; i++)
    if (strcmp(text, salt_names[i].name) == 0) {
      *salt_length = salt_names[i].value;
      return 1;
    }
  char *end;
  long value = strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value < RSA_PSS_SALTLEN_AUTO_DIGEST_MAX || value > 65536) return 0;
  *salt_length = (int)value;
  return 1;
}

/* The salt length into param: an integer, or a string, which libcrypto's
 * EVP_PKEY_CTX_get_rsa_pss_saltlen asks for and reads back as a name or
 * else a number. libcrypto before 3.2 knows no "auto-digestmax" (it would
 * read 0), so that one goes as its number, -4, which every version reads. */
static int write_salt_length(OSSL_PARAM *param, int salt_length) {
  if (param->data_type == OSSL_PARAM_INTEGER) return OSSL_PARAM_set_int(param, salt_length);
  if (param->data_type != OSSL_PARAM_UTF8_STRING) return 0;
  for (size_t i = 0; i < SALT_NAMES; i++)
    if (salt_length == salt_names[i].value && salt_length != RSA_PSS_SALTLEN_AUTO_DIGEST_MAX)
      return OSSL_PARAM_set_utf8_string(param, salt_names[i].name);
  char number[16];
  snprintf(number, sizeof number, "%d", salt_length);
  return OSSL_PARAM_set_utf8_string(param, number);
}

static int signature_set_params(void *ctx, const OSSL_PARAM params[]) {
  rsa_signature *context = ctx;
  const OSSL_PARAM *p;
  if (!context) return 0;
  if (!params) return 1;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PAD_MODE))) {
    int padding;
    if (!parse_padding(p, &padding) || (padding != RSA_PKCS1_PADDING && padding != RSA_PKCS1_PSS_PADDING)) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER,
                       "padding mode not offered by crisp (PKCS#1 v1.5 and PSS only)");
      return 0;
    }
    if (padding == RSA_PKCS1_PADDING && context->md && !crisp_rsa_pkcs1_digest_known(context->md)) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "no PKCS#1 DigestInfo for the digest");
      return 0;
    }
    context->padding = padding;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_DIGEST))) {
    const char *name = NULL, *properties = NULL;
    const OSSL_PARAM *q = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PROPERTIES);
    if (!OSSL_PARAM_get_utf8_string_ptr(p, &name) || (q && !OSSL_PARAM_get_utf8_string_ptr(q, &properties)))
      return 0;
    if (context->md_context) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER,
                       "digest fixed while a digest-sign runs");
      return 0;
    }
    if (!set_digest(context, &context->md, name, properties)) return 0;
  }
  if (context->padding != RSA_PKCS1_PSS_PADDING &&
      (OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST) ||
       OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN))) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER,
                     "MGF1 digest and salt length need PSS padding");
    return 0;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST))) {
    const char *name = NULL, *properties = NULL;
    const OSSL_PARAM *q = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES);
    if (!OSSL_PARAM_get_utf8_string_ptr(p, &name) || (q && !OSSL_PARAM_get_utf8_string_ptr(q, &properties)))
      return 0;
    if (!set_digest(context, &context->mgf1, name, properties)) return 0;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN))) {
    int salt_length;
    if (!parse_salt_length(p, &salt_length) || salt_length < RSA_PSS_SALTLEN_AUTO_DIGEST_MAX) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "bad PSS salt length");
      return 0;
    }
    context->salt_length = salt_length;
  }
  return 1;
}

static const OSSL_PARAM *signature_settable_params(void *ctx, void *provctx) {
  (void)ctx;
  (void)provctx;
  static const OSSL_PARAM settable[] = {
      OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),
      OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
      OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PROPERTIES, NULL, 0),
      OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, NULL, 0),
      OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES, NULL, 0),
      OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL, 0),
      OSSL_PARAM_END,
  };
  return settable;
}

static long signing_salt(const rsa_signature *context, size_t hash_length);

_Static_assert((int)CRISP_RSA_PSS_ALGORITHM_ID_SIZE >= (int)CRISP_RSA_ALGORITHM_ID_SIZE,
               "one buffer holds either algorithm identifier");

/* The PSS AlgorithmIdentifier of what this context signs with: the salt
 * length resolved from the setting ("digest", "max", "auto") to the number
 * the signature will use, as X.509 needs; 0 when there is none. */
static size_t pss_algorithm_id(rsa_signature *context, unsigned char *out) {
  const EVP_MD *md, *mgf1;
  if (!context->key || !pss_digests(context, &md, &mgf1)) return 0;
  long salt = signing_salt(context, (size_t)EVP_MD_get_size(md));
  return salt < 0 ? 0 : crisp_rsa_pss_algorithm_id(md, mgf1, (size_t)salt, out);
}

static int signature_get_params(void *ctx, OSSL_PARAM params[]) {
  rsa_signature *context = ctx;
  OSSL_PARAM *p;
  if (!context) return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_PAD_MODE))) {
    int ok = p->data_type == OSSL_PARAM_INTEGER
                 ? OSSL_PARAM_set_int(p, context->padding)
                 : OSSL_PARAM_set_utf8_string(p, context->padding == RSA_PKCS1_PSS_PADDING
                                                     ? OSSL_PKEY_RSA_PAD_MODE_PSS
                                                     : OSSL_PKEY_RSA_PAD_MODE_PKCSV15);
    if (!ok) return 0;
  }
  /* without a digest set, PSS hashes with SHA-1 (pss_digests) and PKCS#1
   * v1.5 signs its input as it is */
  const char *unset = context->padding == RSA_PKCS1_PSS_PADDING ? "SHA1" : "";
  if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_DIGEST)) &&
      !OSSL_PARAM_set_utf8_string(p, context->md ? EVP_MD_get0_name(context->md) : unset))
    return 0;
  const EVP_MD *mgf1 = context->mgf1 ? context->mgf1 : context->md;
  if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST)) &&
      !OSSL_PARAM_set_utf8_string(p, mgf1 ? EVP_MD_get0_name(mgf1) : unset))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN)) &&
      !write_salt_length(p, context->salt_length))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_ALGORITHM_ID))) {
    unsigned char algorithm_id[CRISP_RSA_PSS_ALGORITHM_ID_SIZE];
    size_t length = context->padding == RSA_PKCS1_PADDING
                        ? crisp_rsa_pkcs1_algorithm_id(context->md, algorithm_id)
                        : pss_algorithm_id(context, algorithm_id);
    if (length == 0) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER,
                       "no algorithm identifier for this padding and digest");
      return 0;
    }
    if (!OSSL_PARAM_set_octet_string(p, algorithm_id, length)) return 0;
  }
  return 1;
}

static const OSSL_PARAM *signature_gettable_params(void *ctx, void *provctx) {
  (void)ctx;
  (void)provctx;
  static const OSSL_PARAM gettable[] = {
      OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),
      OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
      OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, NULL, 0),
      OSSL_PARAM_int(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL),
      OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, NULL, 0),
      OSSL_PARAM_END,
  };
  return gettable;
}

static int init(rsa_signature *context, void *keydata, const OSSL_PARAM params[], int private_needed) {
  const crisp_rsa_key *key = keydata;
  if (!context) return 0;
  if (key) {
    if (key->limbs == 0 || (private_needed && !key->has_private)) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_KEY,
                       private_needed ? "signing needs an RSA private key" : "RSA key without a public part");
      return 0;
    }
    context->key = key;
  } else if (!context->key) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NOT_INITIALIZED, NULL);
    return 0;
  }
  EVP_MD_CTX_free(context->md_context);
  context->md_context = NULL;
  EVP_MD_free(context->md);
  EVP_MD_free(context->mgf1);
  context->md = context->mgf1 = NULL;
  context->padding = RSA_PKCS1_PADDING;
  context->salt_length = RSA_PSS_SALTLEN_AUTO_DIGEST_MAX;
  return signature_set_params(context, params);
}

static int sign_init(void *ctx, void *keydata, const OSSL_PARAM params[]) {
  return init(ctx, keydata, params, 1);
}

static int verify_init(void *ctx, void *keydata, const OSSL_PARAM params[]) {
  return init(ctx, keydata, params, 0);
}

/* signature[0..k) = em^d mod n. With the CRT components crisp checks the
 * result against e itself, mod p * q, which import checked is n; with d
 * alone the check is made here. A key whose CRT components disagree (p * q
 * is not n, p = q, qInv is not q^-1 mod p: the kernel's key checks, as em
 * < n) is refused as a bad key. */
static int private_operation(const rsa_signature *context, unsigned char *signature,
                             const unsigned char *em) {
  const crisp_rsa_key *key = context->key;
  crisp_provider_count(context->provider, CRISP_PROV_CALLS_RSA_SIGN);
  size_t limbs = key->limbs;
  crisp_limb *scratch = OPENSSL_zalloc(3 * limbs * sizeof *scratch);
  if (!scratch) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NO_MEMORY, NULL);
    return 0;
  }
  crisp_limb *message = scratch, *result = scratch + limbs, *check = scratch + 2 * limbs;
  crisp_rsa_bytes_to_limbs(message, limbs, em, crisp_rsa_key_size(key));
  int status, bad_crt = 0;
  if (key->has_crt && 2 * key->half == limbs) {
    status = !key->crt_makes_n ? CRISP_E_INVALID
             : key->crt_key    ? crisp_bn_crt_key_exp(result, message, key->crt_key)
                               : crisp_bn_mod_exp_crt(result, message, key->p, key->q, key->dp, key->dq,
                                                      key->qinv, key->half, key->e, key->e_limbs);
    bad_crt = status == CRISP_E_INVALID || status == CRISP_E_RANGE;
    if (key->crt_makes_n && key->crt_key)
      crisp_provider_count(context->provider, CRISP_PROV_CALLS_RSA_SIGN_PREPARED);
  } else {
    status = crisp_bn_mod_exp(result, message, key->d, limbs, key->n, limbs);
    if (status == CRISP_OK) status = crisp_rsa_public_operation(key, check, result);
    if (status == CRISP_OK && CRYPTO_memcmp(check, message, limbs * sizeof *check) != 0)
      status = CRISP_E_MISMATCH;
  }
  if (status == CRISP_OK) {
    crisp_rsa_limbs_to_bytes(signature, crisp_rsa_key_size(key), result, limbs);
  } else if (status == CRISP_E_MISMATCH) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_FAULT_DETECTED, NULL);
  } else if (bad_crt) {
    CRISP_PROV_RAISE(
        context->provider, CRISP_PROV_R_BAD_KEY,
        "RSA key: its CRT components disagree (p * q is not n, p = q, or qInv is not q^-1 mod p)");
  } else {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_KERNEL_FAILED, "RSA private operation: %s",
                     crisp_strerror(status));
  }
  OPENSSL_clear_free(scratch, 3 * limbs * sizeof *scratch);
  return status == CRISP_OK;
}

/* em[0..k) = signature^e mod n; 0 when the signature is not below n. */
static int public_operation(const rsa_signature *context, unsigned char *em, const unsigned char *signature) {
  const crisp_rsa_key *key = context->key;
  crisp_provider_count(context->provider, CRISP_PROV_CALLS_RSA_VERIFY);
  size_t limbs = key->limbs;
  crisp_limb *scratch = OPENSSL_zalloc(2 * limbs * sizeof *scratch);
  if (!scratch) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NO_MEMORY, NULL);
    return 0;
  }
  crisp_limb *value = scratch, *result = scratch + limbs;
  crisp_rsa_bytes_to_limbs(value, limbs, signature, crisp_rsa_key_size(key));
  int status = crisp_rsa_public_operation(key, result, value);
  if (status == CRISP_OK) crisp_rsa_limbs_to_bytes(em, crisp_rsa_key_size(key), result, limbs);
  OPENSSL_clear_free(scratch, 2 * limbs * sizeof *scratch);
  if (status == CRISP_E_RANGE)
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_SIGNATURE, "signature >= n");
  else if (status != CRISP_OK)
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_KERNEL_FAILED, "RSA public operation: %s",
                     crisp_strerror(status));
  return status == CRISP_OK;
}

/* The salt length to sign with, from the setting and the digest. */
static long signing_salt(const rsa_signature *context, size_t hash_length) {
  long max = crisp_rsa_pss_max_salt(context->key->bits, hash_length);
  switch (context->salt_length) {
    case RSA_PSS_SALTLEN_DIGEST:
      return (long)hash_length;
    case RSA_PSS_SALTLEN_AUTO:
    case RSA_PSS_SALTLEN_MAX:
      return max;
    case RSA_PSS_SALTLEN_AUTO_DIGEST_MAX:
      return max < (long)hash_length ? max : (long)hash_length;
    default:
      return context->salt_length;
  }
}

/* The salt length a signature must have; negative accepts any. */
static long verifying_salt(const rsa_signature *context, size_t hash_length) {
  switch (context->salt_length) {
    case RSA_PSS_SALTLEN_DIGEST:
      return (long)hash_length;
    case RSA_PSS_SALTLEN_MAX:
      return crisp_rsa_pss_max_salt(context->key->bits, hash_length);
    case RSA_PSS_SALTLEN_AUTO:
    case RSA_PSS_SALTLEN_AUTO_DIGEST_MAX:
      return -1;
    default:
      return context->salt_length;
  }
}

/* em[0..k) = the encoding of hash under the context's padding. */
static int encode(rsa_signature *context, unsigned char *em, const unsigned char *hash, size_t hash_length) {
  size_t k = crisp_rsa_key_size(context->key);
  int reason;
  if (context->padding == RSA_PKCS1_PSS_PADDING) {
    const EVP_MD *md, *mgf1;
    if (!pss_digests(context, &md, &mgf1)) return 0;
    long salt = signing_salt(context, (size_t)EVP_MD_get_size(md));
    if (hash_length != (size_t)EVP_MD_get_size(md))
      reason = CRISP_PROV_R_BAD_INPUT_LENGTH;
    else if (salt < 0)
      reason = CRISP_PROV_R_SALT_TOO_LONG;
    else
      reason = crisp_rsa_pss_encode(context->provider->libctx, em, k, context->key->bits, md, mgf1, hash,
                                    (size_t)salt);
  } else {
    reason = crisp_rsa_pkcs1_encode(em, k, context->md, hash, hash_length);
  }
  if (reason) CRISP_PROV_RAISE(context->provider, reason, NULL);
  return reason == 0;
}

static int sign(void *ctx, unsigned char *signature, size_t *signature_length, size_t signature_size,
                const unsigned char *hash, size_t hash_length) {
  rsa_signature *context = ctx;
  if (!context || !context->key || !context->key->has_private) {
    if (context) CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NOT_INITIALIZED, NULL);
    return 0;
  }
  size_t k = crisp_rsa_key_size(context->key);
  if (!signature) {
    *signature_length = k;
    return 1;
  }
  if (signature_size < k) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BUFFER_TOO_SMALL, "%zu bytes for a %zu-byte signature",
                     signature_size, k);
    return 0;
  }
  unsigned char *em = OPENSSL_zalloc(k);
  int ok = em && encode(context, em, hash, hash_length) && private_operation(context, signature, em);
  if (!em) CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NO_MEMORY, NULL);
  OPENSSL_clear_free(em, k);
  if (ok) *signature_length = k;
  return ok;
}

static int verify(void *ctx, const unsigned char *signature, size_t signature_length,
                  const unsigned char *hash, size_t hash_length) {
  rsa_signature *context = ctx;
  if (!context || !context->key) {
    if (context) CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NOT_INITIALIZED, NULL);
    return 0;
  }
  size_t k = crisp_rsa_key_size(context->key);
  /* A PSS signature may come shorter, its leading zero bytes left out, as
   * OpenSSL's own provider takes it; PKCS#1 v1.5 is compared whole. */
  const int shorter_taken = context->padding == RSA_PKCS1_PSS_PADDING;
  if (signature_length > k || (signature_length < k && !shorter_taken)) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_SIGNATURE, "%zu-byte signature for a %zu-byte key",
                     signature_length, k);
    return 0;
  }
  unsigned char *buffer = OPENSSL_zalloc(3 * k);
  if (!buffer) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NO_MEMORY, NULL);
    return 0;
  }
  unsigned char *em = buffer, *expected = buffer + k, *whole = buffer + 2 * k;
  memcpy(whole + (k - signature_length), signature, signature_length);
  int reason = 0;
  if (!public_operation(context, em, whole)) {
    OPENSSL_clear_free(buffer, 3 * k);
    return 0;
  }
  if (context->padding == RSA_PKCS1_PSS_PADDING) {
    const EVP_MD *md, *mgf1;
    if (!pss_digests(context, &md, &mgf1)) {
      OPENSSL_clear_free(buffer, 3 * k);
      return 0;
    }
    size_t md_length = (size_t)EVP_MD_get_size(md);
    reason = hash_length != md_length ? CRISP_PROV_R_BAD_INPUT_LENGTH
                                      : crisp_rsa_pss_verify(em, k, context->key->bits, md, mgf1, hash,
                                                             verifying_salt(context, md_length));
  } else {
    reason = crisp_rsa_pkcs1_encode(expected, k, context->md, hash, hash_length);
    if (!reason && CRYPTO_memcmp(em, expected, k) != 0) reason = CRISP_PROV_R_BAD_SIGNATURE;
  }
  OPENSSL_clear_free(buffer, 3 * k);
  if (reason) CRISP_PROV_RAISE(context->provider, reason, NULL);
  return reason == 0;
}

/* The length of T in em[0..k) = 00 01 FF..FF 00 T (EMSA-PKCS1-v1_5, at
 * least eight bytes of FF), or -1 when em is not that. The signature is
 * public: this may branch on it. */
static long pkcs1_message_length(const unsigned char *em, size_t k) {
  if (k < 11 || em[0] != 0 || em[1] != 1) return -1;
  size_t i = 2;
  while (i < k && em[i] == 0xff) i++;
  if (i == k || em[i] != 0 || i < 10) return -1;
  return (long)(k - i - 1);
}

/* EVP_PKEY_verify_recover: PKCS#1 v1.5 only, as OpenSSL's own provider
 * offers it beside X9.31 and no padding, which crisp does not sign with.
 * With a digest set, the hash after its DigestInfo; without, T whole. */
static int verify_recover(void *ctx, unsigned char *out, size_t *out_length, size_t out_size,
                          const unsigned char *signature, size_t signature_length) {
  rsa_signature *context = ctx;
  if (!context || !context->key) {
    if (context) CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NOT_INITIALIZED, NULL);
    return 0;
  }
  const size_t k = crisp_rsa_key_size(context->key);
  if (!out) {
    *out_length = k;
    return 1;
  }
  if (context->padding != RSA_PKCS1_PADDING) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER,
                     "verify-recover takes PKCS#1 v1.5 padding only");
    return 0;
  }
  if (signature_length != k) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_SIGNATURE, "%zu-byte signature for a %zu-byte key",
                     signature_length, k);
    return 0;
  }
  unsigned char *buffer = OPENSSL_zalloc(2 * k);
  if (!buffer) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NO_MEMORY, NULL);
    return 0;
  }
  unsigned char *em = buffer, *expected = buffer + k;
  int reason = 0;
  if (!public_operation(context, em, signature)) {
    OPENSSL_clear_free(buffer, 2 * k);
    return 0;
  }
  long length = pkcs1_message_length(em, k);
  if (length < 0) reason = CRISP_PROV_R_BAD_SIGNATURE;
  if (!reason && context->md) {
    /* the hash is T's tail: encoding it again must give em */
    const int md_size = EVP_MD_get_size(context->md);
    if (md_size <= 0 || length < md_size)
      reason = CRISP_PROV_R_BAD_SIGNATURE;
    else if (!(reason =
                   crisp_rsa_pkcs1_encode(expected, k, context->md, em + k - md_size, (size_t)md_size)) &&
             CRYPTO_memcmp(em, expected, k) != 0)
      reason = CRISP_PROV_R_BAD_SIGNATURE;
    length = md_size;
  }
  if (!reason && (size_t)length > out_size) reason = CRISP_PROV_R_BUFFER_TOO_SMALL;
  if (!reason) {
    memcpy(out, em + k - (size_t)length, (size_t)length);
    *out_length = (size_t)length;
  }
  OPENSSL_clear_free(buffer, 2 * k);
  if (reason) CRISP_PROV_RAISE(context->provider, reason, NULL);
  return reason == 0;
}

static int digest_init(rsa_signature *context, const char *md_name, void *keydata, const OSSL_PARAM params[],
                       int private_needed) {
  if (!init(context, keydata, params, private_needed)) return 0;
  if (!context->md && !set_digest(context, &context->md, md_name ? md_name : "SHA256", NULL)) return 0;
  if (md_name && !EVP_MD_is_a(context->md, md_name) && !set_digest(context, &context->md, md_name, NULL))
    return 0;
  if (!(context->md_context = EVP_MD_CTX_new()) ||
      !EVP_DigestInit_ex(context->md_context, context->md, NULL)) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_KERNEL_FAILED, "digest %s would not start",
                     EVP_MD_get0_name(context->md));
    return 0;
  }
  return 1;
}

static int digest_sign_init(void *ctx, const char *md_name, void *keydata, const OSSL_PARAM params[]) {
  return digest_init(ctx, md_name, keydata, params, 1);
}

static int digest_verify_init(void *ctx, const char *md_name, void *keydata, const OSSL_PARAM params[]) {
  return digest_init(ctx, md_name, keydata, params, 0);
}

static int digest_update(void *ctx, const unsigned char *data, size_t length) {
  rsa_signature *context = ctx;
  if (!context || !context->md_context) {
    if (context) CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NOT_INITIALIZED, NULL);
    return 0;
  }
  return EVP_DigestUpdate(context->md_context, data, length);
}

static int digest_finish(rsa_signature *context, unsigned char *hash, unsigned int *hash_length) {
  if (!context || !context->md_context) {
    if (context) CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NOT_INITIALIZED, NULL);
    return 0;
  }
  return EVP_DigestFinal_ex(context->md_context, hash, hash_length);
}

static int digest_sign_final(void *ctx, unsigned char *signature, size_t *signature_length,
                             size_t signature_size) {
  rsa_signature *context = ctx;
  unsigned char hash[EVP_MAX_MD_SIZE];
  unsigned int hash_length = 0;
  if (!signature) return sign(ctx, NULL, signature_length, 0, NULL, 0);
  if (context && context->key && signature_size < crisp_rsa_key_size(context->key))
    return sign(ctx, signature, signature_length, signature_size, NULL, 0);
  int ok = digest_finish(context, hash, &hash_length) &&
           sign(ctx, signature, signature_length, signature_size, hash, hash_length);
  OPENSSL_cleanse(hash, sizeof hash);
  return ok;
}

static int digest_verify_final(void *ctx, const unsigned char *signature, size_t signature_length) {
  unsigned char hash[EVP_MAX_MD_SIZE];
  unsigned int hash_length = 0;
  return digest_finish(ctx, hash, &hash_length) &&
         verify(ctx, signature, signature_length, hash, hash_length);
}

const OSSL_DISPATCH crisp_rsa_signature_functions[] = {
    {OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))signature_new},
    {OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))signature_free},
    {OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))signature_dup},
    {OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))sign_init},
    {OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))sign},
    {OSSL_FUNC_SIGNATURE_VERIFY_INIT, (void (*)(void))verify_init},
    {OSSL_FUNC_SIGNATURE_VERIFY, (void (*)(void))verify},
    {OSSL_FUNC_SIGNATURE_VERIFY_RECOVER_INIT, (void (*)(void))verify_init},
    {OSSL_FUNC_SIGNATURE_VERIFY_RECOVER, (void (*)(void))verify_recover},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))digest_sign_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (void (*)(void))digest_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (void (*)(void))digest_sign_final},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, (void (*)(void))digest_verify_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, (void (*)(void))digest_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL, (void (*)(void))digest_verify_final},
    {OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (void (*)(void))signature_get_params},
    {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, (void (*)(void))signature_gettable_params},
    {OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (void (*)(void))signature_set_params},
    {OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, (void (*)(void))signature_settable_params},
    {0, NULL},
};
