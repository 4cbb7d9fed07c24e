/* test/test_provider_pss.c - X.509 signing with RSA-PSS through the crisp
 * provider: the DER AlgorithmIdentifier crisp gives
 * (OSSL_SIGNATURE_PARAM_ALGORITHM_ID) equals the default provider's, byte
 * for byte, for SHA-256/384/512 with salt lengths "digest", 32, "max" and
 * "auto" (resolved to the number signed with), on a 2048-bit key and a
 * 2049-bit one (whose encoded message is a byte shorter than the modulus);
 * and a certificate signed by crisp with each, read back into a library
 * context holding the default provider alone, verifies there, while
 * crisp's crisp.calls.rsa-sign counter shows crisp made the signature.
 * Usage: test_provider_pss PROVIDER_DIR evppkey_rsa_common.txt
 * (the keys RSA-2048 and RSA-2049 come from OpenSSL's evp_test file). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

enum { ID_MAX = 128 };

static OSSL_LIB_CTX *both, *plain; /* crisp and default; default alone */
static OSSL_PROVIDER *crisp;
static int passed, failed;

static void check(int condition, const char *where, const char *what) {
  if (condition) {
    passed++;
    return;
  }
  failed++;
  printf("FAIL %s: %s\n", where, what);
  ERR_print_errors_fp(stdout);
}

/* The PEM key that follows "PrivateKey = NAME" in the evp_test file. */
static EVP_PKEY *read_key(const char *text, const char *name) {
  char marker[64];
  snprintf(marker, sizeof marker, "PrivateKey = %s\n", name);
  const char *start = strstr(text, marker);
  if (!start) return NULL;
  BIO *bio = BIO_new_mem_buf(start + strlen(marker), -1);
  EVP_PKEY *key = bio ? PEM_read_bio_PrivateKey_ex(bio, NULL, NULL, NULL, both, "provider=default") : NULL;
  BIO_free(bio);
  return key;
}

static char *read_file(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) return NULL;
  char *text = NULL;
  if (fseek(file, 0, SEEK_END) == 0) {
    long size = ftell(file);
    rewind(file);
    if (size > 0 && (text = calloc(1, (size_t)size + 1)) &&
        fread(text, 1, (size_t)size, file) != (size_t)size) {
      free(text);
      text = NULL;
    }
  }
  fclose(file);
  return text;
}

typedef struct pss_case {
  const char *md, *mgf1, *salt; /* mgf1 NULL: the same as md */
} pss_case;

/* A digest-sign context on `key` fetched with `properties`, set to PSS. */
static EVP_MD_CTX *pss_context(EVP_PKEY *key, const char *properties, const pss_case *c) {
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, OSSL_PKEY_RSA_PAD_MODE_PSS, 0),
      OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, (char *)c->salt, 0),
      OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, (char *)(c->mgf1 ? c->mgf1 : c->md),
                                       0),
      OSSL_PARAM_construct_end(),
  };
  EVP_MD_CTX *context = EVP_MD_CTX_new();
  if (context && EVP_DigestSignInit_ex(context, NULL, c->md, both, properties, key, params) > 0)
    return context;
  EVP_MD_CTX_free(context);
  return NULL;
}

/* The AlgorithmIdentifier the provider behind `properties` gives; its
 * length, 0 when none. */
static size_t algorithm_id(EVP_PKEY *key, const char *properties, const pss_case *c, unsigned char *out) {
  EVP_MD_CTX *context = pss_context(key, properties, c);
  OSSL_PARAM params[] = {OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, out, ID_MAX),
                         OSSL_PARAM_construct_end()};
  size_t length = 0;
  if (context && EVP_PKEY_CTX_get_params(EVP_MD_CTX_get_pkey_ctx(context), params) > 0 &&
      OSSL_PARAM_modified(params))
    length = params[0].return_size;
  EVP_MD_CTX_free(context);
  return length;
}

static unsigned long long rsa_signs(void) {
  uint64_t calls = 0;
  OSSL_PARAM params[] = {OSSL_PARAM_uint64("crisp.calls.rsa-sign", &calls), OSSL_PARAM_END};
  return OSSL_PROVIDER_get_params(crisp, params) && OSSL_PARAM_modified(params) ? calls : 0;
}

/* A self-signed certificate for `key` signed through crisp; its DER
 * (OPENSSL_free it) and length, or 0. */
static int crisp_certificate(EVP_PKEY *key, const pss_case *c, unsigned char **der) {
  X509 *certificate = X509_new_ex(both, NULL);
  X509_NAME *name = X509_NAME_new();
  EVP_MD_CTX *context = pss_context(key, "provider=crisp", c);
  int length = 0;
  if (certificate && name && context && X509_set_version(certificate, X509_VERSION_3) &&
      ASN1_INTEGER_set(X509_get_serialNumber(certificate), 1) &&
      X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)"crisp pss", -1, -1, 0) &&
      X509_set_subject_name(certificate, name) && X509_set_issuer_name(certificate, name) &&
      X509_gmtime_adj(X509_getm_notBefore(certificate), 0) &&
      X509_gmtime_adj(X509_getm_notAfter(certificate), 86400) && X509_set_pubkey(certificate, key) &&
      X509_sign_ctx(certificate, context) > 0)
    length = i2d_X509(certificate, der);
  EVP_MD_CTX_free(context);
  X509_NAME_free(name);
  X509_free(certificate);
  return length > 0 ? length : 0;
}

/* Reads the certificate into the default-only library context and checks
 * its signature there, with its own public key; also hands back the DER
 * of its signature AlgorithmIdentifier. */
static int verifies_without_crisp(const unsigned char *der, int length, unsigned char *id,
                                  size_t *id_length) {
  X509 *certificate = X509_new_ex(plain, NULL);
  const unsigned char *cursor = der;
  int ok = certificate && d2i_X509(&certificate, &cursor, length) &&
           X509_verify(certificate, X509_get0_pubkey(certificate)) == 1;
  const X509_ALGOR *algorithm = ok ? X509_get0_tbs_sigalg(certificate) : NULL;
  unsigned char *cursor_out = id;
  int written = algorithm ? i2d_X509_ALGOR(algorithm, NULL) : -1;
  if (written > 0 && written <= ID_MAX && i2d_X509_ALGOR(algorithm, &cursor_out) == written)
    *id_length = (size_t)written;
  else
    ok = 0;
  X509_free(certificate);
  return ok;
}

static void run_case(EVP_PKEY *key, const char *key_name, const pss_case *c) {
  char where[128];
  snprintf(where, sizeof where, "%s %s mgf1 %s salt %s", key_name, c->md, c->mgf1 ? c->mgf1 : c->md, c->salt);
  unsigned char from_crisp[ID_MAX], from_default[ID_MAX], in_certificate[ID_MAX];
  size_t crisp_length = algorithm_id(key, "provider=crisp", c, from_crisp);
  size_t default_length = algorithm_id(key, "provider=default", c, from_default);
  check(crisp_length > 0, where, "crisp gives a PSS AlgorithmIdentifier");
  check(crisp_length == default_length && memcmp(from_crisp, from_default, crisp_length) == 0, where,
        "crisp's PSS AlgorithmIdentifier equals the default provider's byte for byte");
  ERR_clear_error();
  unsigned long long signs = rsa_signs();
  unsigned char *der = NULL;
  int length = crisp_certificate(key, c, &der);
  check(length > 0 && rsa_signs() == signs + 1, where,
        "a certificate signed by crisp (crisp.calls.rsa-sign +1)");
  size_t id_length = 0;
  check(length > 0 && verifies_without_crisp(der, length, in_certificate, &id_length), where,
        "the certificate verifies with the default provider alone");
  check(id_length == default_length && memcmp(in_certificate, from_default, id_length) == 0, where,
        "the certificate's signature algorithm is the default provider's identifier");
  OPENSSL_free(der);
  ERR_clear_error();
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_provider_pss PROVIDER_DIR evppkey_rsa_common.txt\n");
    return 2;
  }
  both = OSSL_LIB_CTX_new();
  plain = OSSL_LIB_CTX_new();
  char *vectors = read_file(argv[2]);
  OSSL_PROVIDER *default_in_both = NULL, *default_in_plain = NULL;
  if (!both || !plain || !vectors || !(default_in_both = OSSL_PROVIDER_load(both, "default")) ||
      !(default_in_plain = OSSL_PROVIDER_load(plain, "default")) ||
      !OSSL_PROVIDER_set_default_search_path(both, argv[1]) || !(crisp = OSSL_PROVIDER_load(both, "crisp"))) {
    ERR_print_errors_fp(stdout);
    printf("FAIL: cannot load the providers from %s or read %s\n", argv[1], argv[2]);
    return 1;
  }
  static const char *const digests[] = {"SHA256", "SHA384", "SHA512"};
  static const char *const salts[] = {"digest", "32", "max", "auto"};
  static const char *const key_names[] = {"RSA-2048", "RSA-2049"};
  for (size_t k = 0; k < sizeof key_names / sizeof key_names[0]; k++) {
    EVP_PKEY *key = read_key(vectors, key_names[k]);
    check(key != NULL, key_names[k], "key read from the evp_test file");
    if (!key) continue;
    for (size_t d = 0; d < sizeof digests / sizeof digests[0]; d++)
      for (size_t s = 0; s < sizeof salts / sizeof salts[0]; s++)
        run_case(key, key_names[k], &(pss_case){digests[d], NULL, salts[s]});
    /* Every parameter at its DEFAULT (empty parameters), and an MGF1
     * digest other than the hash. */
    run_case(key, key_names[k], &(pss_case){"SHA1", NULL, "20"});
    run_case(key, key_names[k], &(pss_case){"SHA256", "SHA1", "digest"});
    run_case(key, key_names[k], &(pss_case){"SHA256", "SHA512", "0"});
    EVP_PKEY_free(key);
  }
  free(vectors);
  printf("pss: %d passed, %d failed\n", passed, failed);
  OSSL_PROVIDER_unload(crisp);
  OSSL_PROVIDER_unload(default_in_both);
  OSSL_PROVIDER_unload(default_in_plain);
  OSSL_LIB_CTX_free(both);
  OSSL_LIB_CTX_free(plain);
  return failed ? 1 : 0;
}
