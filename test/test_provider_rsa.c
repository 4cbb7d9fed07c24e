/* test/test_provider_rsa.c - the provider's RSA through OpenSSL's EVP API:
 * OpenSSL's own RSA signing and verifying stanzas (evp_test format) run
 * with the signature fetched as "provider=crisp", keys decoded by the
 * default provider and imported into crisp's key manager; then random keys
 * signed by one provider and verified by the other, both ways; then key
 * generation asked of crisp (delegated to the default provider); then misuse.
 * Usage: test_provider_rsa PROVIDER_DIR VECTOR_FILE...
 * Skipped stanzas are counted apart; the test fails if any case failed or
 * no stanza passed. */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>

#define CRISP_ONLY "provider=crisp"
#define DEFAULT_ONLY "provider=default"

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *crisp_provider;
static const char *provider_dir;
static int passed, failed, skipped;

static void fail(const char *where, const char *what) {
  failed++;
  printf("FAIL %s: %s\n", where, what);
  ERR_print_errors_fp(stdout);
}

/* ---- the evp_test file format ------------------------------------------ */

enum { MAX_LINES = 64, MAX_KEYS = 64 };

typedef struct named_key {
  char name[64];
  EVP_PKEY *key;
} named_key;

typedef struct stanza {
  char *keys[MAX_LINES], *values[MAX_LINES];
  int count;
  int line;
} stanza;

static named_key keys[MAX_KEYS];

/* Skipped stanzas by reason, and passed ones by operation, for the log. */
typedef struct tally {
  const char *name;
  int count;
} tally;
static tally skip_tally[16], pass_tally[8];

static void count(tally *table, size_t size, const char *name) {
  for (size_t i = 0; i < size; i++) {
    if (!table[i].name) table[i].name = name;
    if (strcmp(table[i].name, name) == 0) {
      table[i].count++;
      return;
    }
  }
}

static void print_tally(const char *title, const tally *table, size_t size) {
  printf("  %s:", title);
  for (size_t i = 0; i < size && table[i].name; i++) printf(" %s %d;", table[i].name, table[i].count);
  printf("\n");
}
static int key_count;

static EVP_PKEY *find_key(const char *name) {
  for (int i = 0; i < key_count; i++)
    if (strcmp(keys[i].name, name) == 0) return keys[i].key;
  return NULL;
}

static const char *stanza_value(const stanza *s, const char *key) {
  for (int i = 0; i < s->count; i++)
    if (strcmp(s->keys[i], key) == 0) return s->values[i];
  return NULL;
}

static char *trim(char *text) {
  while (isspace((unsigned char)*text)) text++;
  size_t length = strlen(text);
  while (length && isspace((unsigned char)text[length - 1])) text[--length] = '\0';
  return text;
}

/* A value: "text" as its bytes, otherwise hex. Returns a malloc'd buffer. */
static unsigned char *parse_bytes(const char *value, size_t *length) {
  size_t text_length = strlen(value);
  unsigned char *out = malloc(text_length + 1);
  if (!out) return NULL;
  if (value[0] == '"') {
    *length = text_length >= 2 ? text_length - 2 : 0;
    memcpy(out, value + 1, *length);
    return out;
  }
  *length = 0;
  for (size_t i = 0; i + 1 < text_length; i += 2) {
    unsigned int byte;
    if (sscanf(value + i, "%2x", &byte) != 1) {
      free(out);
      return NULL;
    }
    out[(*length)++] = (unsigned char)byte;
  }
  return out;
}

/* Reads a PEM block that follows a PrivateKey or PublicKey line. */
static void read_key(FILE *file, const char *kind, const char *name, int *line) {
  char buffer[256];
  size_t size = 0, capacity = 8192;
  char *pem = malloc(capacity);
  pem[0] = '\0';
  while (fgets(buffer, sizeof buffer, file)) {
    (*line)++;
    size_t length = strlen(buffer);
    if (size + length + 1 > capacity) pem = realloc(pem, capacity *= 2);
    memcpy(pem + size, buffer, length + 1);
    size += length;
    if (strncmp(buffer, "-----END", 8) == 0) break;
  }
  BIO *bio = BIO_new_mem_buf(pem, (int)size);
  EVP_PKEY *key = strcmp(kind, "PrivateKey") == 0
                      ? PEM_read_bio_PrivateKey_ex(bio, NULL, NULL, NULL, libctx, DEFAULT_ONLY)
                      : PEM_read_bio_PUBKEY_ex(bio, NULL, NULL, NULL, libctx, DEFAULT_ONLY);
  BIO_free(bio);
  free(pem);
  ERR_clear_error();
  if (key && key_count < MAX_KEYS) {
    snprintf(keys[key_count].name, sizeof keys[key_count].name, "%s", name);
    keys[key_count++].key = key;
  } else {
    EVP_PKEY_free(key);
  }
}

/* ---- running one stanza ------------------------------------------------- */

enum stage { STAGE_NONE, STAGE_INIT, STAGE_CTRL, STAGE_OPERATION };

static enum stage expected_stage(const char *result) {
  if (!result) return STAGE_NONE;
  if (strstr(result, "INIT")) return STAGE_INIT;
  if (strstr(result, "CTRL")) return STAGE_CTRL;
  return STAGE_OPERATION; /* KEYOP_ERROR, VERIFY_ERROR, SIGNATURE_ERROR... */
}

/* Why a stanza is outside what the provider offers, or NULL. */
static const char *skip_reason(const stanza *s, const char *operation) {
  static const char *const offered[] = {"Sign", "Verify", "DigestSign", "DigestVerify", "OneShotDigestSign"};
  int known = 0;
  for (size_t i = 0; i < sizeof offered / sizeof offered[0]; i++) known |= strcmp(operation, offered[i]) == 0;
  if (!known) return "operation not offered";
  for (int i = 0; i < s->count; i++) {
    const char *key = s->keys[i], *value = s->values[i];
    if (strcmp(key, "Availablein") == 0 && strcmp(value, "default") != 0)
      return "not in the default provider";
    if (strcmp(key, "CtrlInit") == 0 || strcmp(key, "Security-Category") == 0 ||
        strcmp(key, "Unapproved") == 0)
      return "FIPS indicator options";
    if (strcmp(key, "Ctrl") == 0 && strncmp(value, "rsa_padding_mode:", 17) == 0 &&
        strcmp(value + 17, "pkcs1") != 0 && strcmp(value + 17, "pss") != 0)
      return "padding not offered";
    if (strcmp(key, "Ctrl") == 0 && strncmp(value, "digest:", 7) == 0) {
      EVP_MD *md = EVP_MD_fetch(libctx, value + 7, DEFAULT_ONLY);
      ERR_clear_error();
      if (!md) return "digest unavailable";
      EVP_MD_free(md);
    }
  }
  int digest_mode = strstr(operation, "Digest") != NULL;
  const char *key_name = stanza_value(s, digest_mode ? "Key" : operation);
  EVP_PKEY *key = key_name ? find_key(key_name) : NULL;
  if (!key) return "key not decoded";
  if (!EVP_PKEY_is_a(key, "RSA")) return "not an rsaEncryption key";
  if (digest_mode) {
    EVP_MD *md = EVP_MD_fetch(libctx, stanza_value(s, operation), DEFAULT_ONLY);
    ERR_clear_error();
    if (!md) return "digest unavailable";
    EVP_MD_free(md);
  }
  return NULL;
}

/* Every Input line's bytes, one after the other (DigestSign stanzas feed
 * a message in parts). */
static unsigned char *concatenated_inputs(const stanza *s, size_t *length) {
  unsigned char *all = malloc(1);
  *length = 0;
  for (int i = 0; all && i < s->count; i++) {
    if (strcmp(s->keys[i], "Input") != 0) continue;
    size_t part_length;
    unsigned char *part = parse_bytes(s->values[i], &part_length);
    unsigned char *grown = part ? realloc(all, *length + part_length + 1) : NULL;
    if (!grown) {
      free(part);
      free(all);
      return NULL;
    }
    all = grown;
    memcpy(all + *length, part, part_length);
    *length += part_length;
    free(part);
  }
  return all;
}

static int apply_ctrls(EVP_PKEY_CTX *context, const stanza *s) {
  for (int i = 0; i < s->count; i++) {
    if (strcmp(s->keys[i], "Ctrl") != 0) continue;
    char name[128];
    snprintf(name, sizeof name, "%s", s->values[i]);
    char *colon = strchr(name, ':');
    if (!colon) return 0;
    *colon = '\0';
    if (EVP_PKEY_CTX_ctrl_str(context, name, colon + 1) <= 0) return 0;
  }
  return 1;
}

/* Feeds each Input line as one update. */
static int update_by_parts(EVP_MD_CTX *md_context, const stanza *s, int signing) {
  for (int i = 0; i < s->count; i++) {
    if (strcmp(s->keys[i], "Input") != 0) continue;
    size_t length;
    unsigned char *part = parse_bytes(s->values[i], &length);
    int ok = part && (signing ? EVP_DigestSignUpdate(md_context, part, length)
                              : EVP_DigestVerifyUpdate(md_context, part, length)) > 0;
    free(part);
    if (!ok) return 0;
  }
  return 1;
}

static int from_crisp(EVP_PKEY_CTX *context) {
  return EVP_PKEY_CTX_get0_provider(context) == crisp_provider;
}

/* Runs the stanza; returns the stage it failed at (STAGE_NONE: all went
 * through and the output matched). *mismatch is set when the operation
 * succeeded with an output other than the expected one. */
static enum stage run_stanza(const stanza *s, const char *operation, int *mismatch) {
  int one_shot = strcmp(operation, "OneShotDigestSign") == 0;
  const char *md_name = stanza_value(s, operation);
  if (one_shot) operation = "DigestSign";
  int digest_mode = strncmp(operation, "Digest", 6) == 0;
  int signing = strstr(operation, "Sign") != NULL;
  EVP_PKEY *key = find_key(stanza_value(s, digest_mode ? "Key" : operation));
  size_t input_length = 0, output_length = 0;
  unsigned char *input = concatenated_inputs(s, &input_length);
  unsigned char *output =
      parse_bytes(stanza_value(s, "Output") ? stanza_value(s, "Output") : "\"\"", &output_length);
  unsigned char signature[1024];
  size_t signature_length = sizeof signature;
  enum stage stage = STAGE_NONE;
  EVP_MD_CTX *md_context = NULL;
  EVP_PKEY_CTX *context = NULL;
  *mismatch = 0;
  if (digest_mode) {
    md_context = EVP_MD_CTX_new();
    int ok = signing ? EVP_DigestSignInit_ex(md_context, &context, md_name, libctx, CRISP_ONLY, key, NULL)
                     : EVP_DigestVerifyInit_ex(md_context, &context, md_name, libctx, CRISP_ONLY, key, NULL);
    if (ok <= 0 || !from_crisp(context)) {
      stage = STAGE_INIT;
    } else if (!apply_ctrls(context, s)) {
      stage = STAGE_CTRL;
    } else if (signing && one_shot) {
      if (EVP_DigestSign(md_context, signature, &signature_length, input, input_length) <= 0)
        stage = STAGE_OPERATION;
    } else if (!update_by_parts(md_context, s, signing)) {
      stage = STAGE_OPERATION;
    } else if (signing) {
      if (EVP_DigestSignFinal(md_context, NULL, &signature_length) <= 0 ||
          signature_length > sizeof signature ||
          EVP_DigestSignFinal(md_context, signature, &signature_length) <= 0)
        stage = STAGE_OPERATION;
    } else if (EVP_DigestVerifyFinal(md_context, output, output_length) != 1) {
      stage = STAGE_OPERATION;
    }
  } else {
    context = EVP_PKEY_CTX_new_from_pkey(libctx, key, CRISP_ONLY);
    int ok = context && (signing ? EVP_PKEY_sign_init(context) : EVP_PKEY_verify_init(context));
    if (ok <= 0 || !from_crisp(context)) {
      stage = STAGE_INIT;
    } else if (!apply_ctrls(context, s)) {
      stage = STAGE_CTRL;
    } else if (signing) {
      if (EVP_PKEY_sign(context, signature, &signature_length, input, input_length) <= 0)
        stage = STAGE_OPERATION;
    } else if (EVP_PKEY_verify(context, output, output_length, input, input_length) != 1) {
      stage = STAGE_OPERATION;
    }
    EVP_PKEY_CTX_free(context);
  }
  if (stage == STAGE_NONE && signing &&
      (signature_length != output_length || memcmp(signature, output, output_length) != 0))
    *mismatch = 1;
  EVP_MD_CTX_free(md_context);
  free(input);
  free(output);
  return stage;
}

static void run_test_stanza(const stanza *s, const char *file) {
  const char *operation = s->keys[0];
  for (int i = 0; i < s->count; i++)
    if (strcmp(s->keys[i], "Availablein") != 0 && strcmp(s->keys[i], "FIPSversion") != 0) {
      operation = s->keys[i];
      break;
    }
  if (strcmp(operation, "Title") == 0) return;
  const char *reason = skip_reason(s, operation);
  if (reason) {
    skipped++;
    count(skip_tally, 16, reason);
    if (getenv("CRISP_TEST_VERBOSE")) printf("skip %s:%d %s: %s\n", file, s->line, operation, reason);
    return;
  }
  int mismatch;
  enum stage got = run_stanza(s, operation, &mismatch);
  enum stage want = expected_stage(stanza_value(s, "Result"));
  char where[256];
  snprintf(where, sizeof where, "%s:%d %s", file, s->line, operation);
  if (mismatch) {
    fail(where, "signature differs from the expected output");
  } else if (got != want) {
    char what[96];
    snprintf(what, sizeof what, "failed at stage %d, expected stage %d", (int)got, (int)want);
    fail(where, what);
  } else {
    passed++;
    static const char *const names[] = {"Sign", "Verify", "DigestSign", "DigestVerify", "OneShotDigestSign"};
    for (size_t i = 0; i < 5; i++)
      if (strcmp(operation, names[i]) == 0) count(pass_tally, 8, names[i]);
  }
  ERR_clear_error();
}

static void run_file(const char *path) {
  FILE *file = fopen(path, "r");
  if (!file) {
    fail(path, "cannot open");
    return;
  }
  for (int i = 0; i < key_count; i++) EVP_PKEY_free(keys[i].key);
  key_count = 0;
  stanza s = {.count = 0};
  char buffer[4096];
  int line = 0;
  const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  for (;;) {
    char *got = fgets(buffer, sizeof buffer, file);
    if (got) line++;
    char *text = got ? trim(buffer) : (char *)"";
    if (got && text[0] == '#') continue;
    if (text[0] == '\0') {
      if (s.count) run_test_stanza(&s, name);
      for (int i = 0; i < s.count; i++) free(s.keys[i]), free(s.values[i]);
      s.count = 0;
      if (!got) break;
      continue;
    }
    char *equals = strchr(text, '=');
    if (!equals || s.count == MAX_LINES) continue;
    *equals = '\0';
    char *key = trim(text), *value = trim(equals + 1);
    if (strcmp(key, "PrivateKey") == 0 || strcmp(key, "PublicKey") == 0) {
      read_key(file, key, value, &line);
      continue;
    }
    if (s.count == 0) s.line = line;
    s.keys[s.count] = strdup(key);
    s.values[s.count++] = strdup(value);
  }
  fclose(file);
}

/* ---- random keys, both directions --------------------------------------- */

/* Signs with one provider and verifies with the other. */
static int sign_and_verify(EVP_PKEY *key, const char *signer, const char *verifier, int padding,
                           const char *md_name, int salt_length, const char *message) {
  unsigned char signature[1024];
  size_t signature_length = sizeof signature;
  EVP_MD_CTX *sign_context = EVP_MD_CTX_new(), *verify_context = EVP_MD_CTX_new();
  EVP_PKEY_CTX *pkey_context;
  size_t length = strlen(message);
  int ok =
      EVP_DigestSignInit_ex(sign_context, &pkey_context, md_name, libctx, signer, key, NULL) > 0 &&
      (strcmp(signer, CRISP_ONLY) != 0 || from_crisp(pkey_context)) &&
      EVP_PKEY_CTX_set_rsa_padding(pkey_context, padding) > 0 &&
      (padding != RSA_PKCS1_PSS_PADDING || EVP_PKEY_CTX_set_rsa_pss_saltlen(pkey_context, salt_length) > 0) &&
      EVP_DigestSign(sign_context, signature, &signature_length, (const unsigned char *)message, length) >
          0 &&
      EVP_DigestVerifyInit_ex(verify_context, &pkey_context, md_name, libctx, verifier, key, NULL) > 0 &&
      (strcmp(verifier, CRISP_ONLY) != 0 || from_crisp(pkey_context)) &&
      EVP_PKEY_CTX_set_rsa_padding(pkey_context, padding) > 0 &&
      (padding != RSA_PKCS1_PSS_PADDING || EVP_PKEY_CTX_set_rsa_pss_saltlen(pkey_context, salt_length) > 0) &&
      EVP_DigestVerify(verify_context, signature, signature_length, (const unsigned char *)message, length) ==
          1;
  EVP_MD_CTX_free(sign_context);
  EVP_MD_CTX_free(verify_context);
  return ok;
}

static void run_differential(void) {
  /* 1025 bits is 17 limbs, with no even split for crisp_bn_mod_exp_crt
   * (crisp signs with d and checks the result itself), and a PSS block one
   * byte shorter than the modulus (modulus bits - 1 is a multiple of 8). */
  static const int sizes[] = {1024, 2048, 1025, 3072, 4096};
  static const struct {
    int padding;
    const char *md;
    int salt;
  } modes[] = {
      {RSA_PKCS1_PADDING, "SHA256", 0},
      {RSA_PKCS1_PADDING, "SHA512", 0},
      {RSA_PKCS1_PSS_PADDING, "SHA256", RSA_PSS_SALTLEN_DIGEST},
      {RSA_PKCS1_PSS_PADDING, "SHA384", RSA_PSS_SALTLEN_MAX},
      {RSA_PKCS1_PSS_PADDING, "SHA1", 0},
  };
  /* Emulated runs (CRISP_TEST_SCALE below 1) leave out 3072 and 4096
   * bits: generating those keys dominates there. */
  const char *scale_text = getenv("CRISP_TEST_SCALE");
  double scale = scale_text && *scale_text ? strtod(scale_text, NULL) : 1.0;
  size_t size_count = scale > 0 && scale < 1 ? 3 : sizeof sizes / sizeof sizes[0];
  for (size_t i = 0; i < size_count; i++) {
    EVP_PKEY *key = EVP_PKEY_Q_keygen(libctx, DEFAULT_ONLY, "RSA", (size_t)sizes[i]);
    if (!key) {
      fail("differential", "default provider key generation");
      continue;
    }
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
      for (int direction = 0; direction < 2; direction++) {
        char where[96], message[64];
        snprintf(where, sizeof where, "differential %d bits, mode %zu, %s", sizes[i], m,
                 direction ? "default signs, crisp verifies" : "crisp signs, default verifies");
        snprintf(message, sizeof message, "message %zu %d", m, direction);
        if (sign_and_verify(key, direction ? DEFAULT_ONLY : CRISP_ONLY, direction ? CRISP_ONLY : DEFAULT_ONLY,
                            modes[m].padding, modes[m].md, modes[m].salt, message))
          passed++;
        else
          fail(where, "did not verify");
      }
    }
    EVP_PKEY_free(key);
  }
}

/* ---- misuse ---------------------------------------------------------------- */

/* Whether the error queue holds a crisp reason whose string or detail
 * contains `text`; empties the queue. */
static int crisp_error(const char *text) {
  unsigned long code;
  const char *data;
  int flags, found = 0;
  while ((code = ERR_get_error_all(NULL, NULL, NULL, &data, &flags)) != 0) {
    const char *reason = ERR_reason_error_string(code);
    if (reason && strncmp(reason, "crisp:", 6) == 0 &&
        (strstr(reason, text) || ((flags & ERR_TXT_STRING) && data && strstr(data, text))))
      found = 1;
  }
  return found;
}

static void check(int condition, const char *what) {
  if (condition)
    passed++;
  else
    fail("misuse", what);
}

/* ---- key generation asked of crisp ------------------------------------------ */

/* The name of the provider holding `key`, or "" without one. */
static const char *holder(const EVP_PKEY *key) {
  const OSSL_PROVIDER *provider = key ? EVP_PKEY_get0_provider(key) : NULL;
  return provider ? OSSL_PROVIDER_get0_name(provider) : "";
}

/* crisp delegates generation to the other providers and holds the
 * result: fetched explicitly, through a library context that prefers
 * crisp (the README's configuration), and refused for three primes. */
static void run_keygen(void) {
  int before_passed = passed, before_failed = failed;
  EVP_PKEY *key = NULL;
  EVP_PKEY_CTX *generator = EVP_PKEY_CTX_new_from_name(libctx, "RSA", CRISP_ONLY);
  int generated = generator && EVP_PKEY_keygen_init(generator) > 0 &&
                  EVP_PKEY_CTX_set_rsa_keygen_bits(generator, 2048) > 0 &&
                  EVP_PKEY_keygen(generator, &key) > 0;
  EVP_PKEY_CTX_free(generator);
  if (!generated) ERR_print_errors_fp(stdout);
  if (generated && strcmp(holder(key), "crisp") == 0 && EVP_PKEY_get_bits(key) == 2048)
    passed++;
  else
    fail("keygen", "2048-bit key generated with provider=crisp and held by crisp");
  if (key && sign_and_verify(key, CRISP_ONLY, DEFAULT_ONLY, RSA_PKCS1_PADDING, "SHA256", 0, "generated") &&
      sign_and_verify(key, CRISP_ONLY, DEFAULT_ONLY, RSA_PKCS1_PSS_PADDING, "SHA256", RSA_PSS_SALTLEN_DIGEST,
                      "generated"))
    passed++;
  else
    fail("keygen", "generated key signs with crisp and verifies with the default provider");
  EVP_PKEY_free(key);

  OSSL_LIB_CTX *preferring = OSSL_LIB_CTX_new();
  OSSL_PROVIDER *preferred_default = preferring ? OSSL_PROVIDER_load(preferring, "default") : NULL;
  OSSL_PROVIDER *preferred_crisp = NULL;
  if (preferred_default && OSSL_PROVIDER_set_default_search_path(preferring, provider_dir))
    preferred_crisp = OSSL_PROVIDER_load(preferring, "crisp");
  /* Emulated runs (CRISP_TEST_SCALE below 1) take 1024 bits here: the
   * generation, not crisp, dominates there. */
  const char *scale_text = getenv("CRISP_TEST_SCALE");
  double scale = scale_text && *scale_text ? strtod(scale_text, NULL) : 1.0;
  size_t preferred_bits = scale > 0 && scale < 1 ? 1024 : 2048;
  key = preferred_crisp && EVP_set_default_properties(preferring, "?provider=crisp")
            ? EVP_PKEY_Q_keygen(preferring, NULL, "RSA", preferred_bits)
            : NULL;
  if (!key) ERR_print_errors_fp(stdout);
  if (key && strcmp(holder(key), "crisp") == 0)
    passed++;
  else
    fail("keygen", "EVP_PKEY_Q_keygen with default properties ?provider=crisp");
  EVP_PKEY_free(key);
  OSSL_PROVIDER_unload(preferred_crisp);
  OSSL_PROVIDER_unload(preferred_default);
  OSSL_LIB_CTX_free(preferring);

  ERR_clear_error();
  key = NULL;
  generator = EVP_PKEY_CTX_new_from_name(libctx, "RSA", CRISP_ONLY);
  int refused =
      generator && EVP_PKEY_keygen_init(generator) > 0 &&
      EVP_PKEY_CTX_set_rsa_keygen_bits(generator, 2048) > 0 &&
      (EVP_PKEY_CTX_set_rsa_keygen_primes(generator, 3) <= 0 || EVP_PKEY_keygen(generator, &key) <= 0);
  if (refused && !key && crisp_error("multi-prime"))
    passed++;
  else
    fail("keygen", "a three-prime generation refused with crisp's reason");
  EVP_PKEY_free(key);
  EVP_PKEY_CTX_free(generator);
  ERR_clear_error();
  printf("keygen: %d passed, %d failed\n", passed - before_passed, failed - before_failed);
}

/* A key built in crisp, in library context `where`, from n, e and d of
 * public_source and, with_crt, the CRT components (p, q, dP, dQ, qInv) of
 * crt_source (a key of the same size), with component `changed` (an index
 * into names below) plus `delta`. */
static EVP_PKEY *crisp_key_in(OSSL_LIB_CTX *where, EVP_PKEY *public_source, EVP_PKEY *crt_source,
                              int with_crt, size_t changed, int delta) {
  static const char *const names[] = {OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,
                                      OSSL_PKEY_PARAM_RSA_D,         OSSL_PKEY_PARAM_RSA_FACTOR1,
                                      OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
                                      OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1};
  BIGNUM *values[8] = {NULL};
  OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
  size_t count = with_crt ? 8 : 3;
  int ok = builder != NULL;
  for (size_t i = 0; ok && i < count; i++) {
    ok = EVP_PKEY_get_bn_param(i < 3 ? public_source : crt_source, names[i], &values[i]);
    if (ok && i == changed && delta) ok = BN_add_word(values[i], (BN_ULONG)delta);
    ok = ok && OSSL_PARAM_BLD_push_BN(builder, names[i], values[i]);
  }
  OSSL_PARAM *params = ok ? OSSL_PARAM_BLD_to_param(builder) : NULL;
  EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(where, "RSA", CRISP_ONLY);
  EVP_PKEY *key = NULL;
  if (!params || !context || EVP_PKEY_fromdata_init(context) <= 0 ||
      EVP_PKEY_fromdata(context, &key, EVP_PKEY_KEYPAIR, params) <= 0)
    key = NULL;
  EVP_PKEY_CTX_free(context);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(builder);
  for (size_t i = 0; i < 8; i++) BN_clear_free(values[i]);
  return key;
}

/* The same from one key. */
static EVP_PKEY *crisp_key_changed(EVP_PKEY *source, int with_crt, size_t changed, int delta) {
  return crisp_key_in(libctx, source, source, with_crt, changed, delta);
}

/* The same with dP (component 5) plus dp_delta. */
static EVP_PKEY *crisp_key_from(EVP_PKEY *source, int with_crt, int dp_delta) {
  return crisp_key_changed(source, with_crt, 5, dp_delta);
}

/* Whether crisp imports the public key (n, e = 65537) for an n that is a
 * random number of `bits` bits, odd or even as asked. */
static int crisp_imports_modulus(int bits, int odd) {
  BIGNUM *n = BN_new(), *e = BN_new();
  OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
  OSSL_PARAM *params = NULL;
  EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(libctx, "RSA", CRISP_ONLY);
  EVP_PKEY *key = NULL;
  int ok = n && e && builder && context && BN_rand(n, bits, BN_RAND_TOP_ONE, odd ? BN_RAND_BOTTOM_ODD : 0) &&
           (odd || BN_clear_bit(n, 0)) && BN_set_word(e, 65537) &&
           OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, n) &&
           OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, e) &&
           (params = OSSL_PARAM_BLD_to_param(builder)) != NULL && EVP_PKEY_fromdata_init(context) > 0 &&
           EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) > 0;
  EVP_PKEY_free(key);
  EVP_PKEY_CTX_free(context);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(builder);
  BN_free(n);
  BN_free(e);
  return ok;
}

/* Whether crisp's key generation takes `bits` as a setting. */
static int crisp_keygen_takes_bits(size_t bits) {
  EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(libctx, "RSA", CRISP_ONLY);
  OSSL_PARAM params[2] = {OSSL_PARAM_construct_size_t(OSSL_PKEY_PARAM_RSA_BITS, &bits),
                          OSSL_PARAM_construct_end()};
  const int ok = context && EVP_PKEY_keygen_init(context) > 0 && EVP_PKEY_CTX_set_params(context, params) > 0;
  EVP_PKEY_CTX_free(context);
  return ok;
}

/* Signs a SHA-256-sized hash with PKCS#1 through crisp into a buffer of
 * `size` bytes filled with 0xA5 first; returns EVP_PKEY_sign's result. */
static int crisp_sign(EVP_PKEY *key, unsigned char *signature, size_t size, size_t *length) {
  unsigned char hash[32] = {1, 2, 3};
  memset(signature, 0xa5, size);
  *length = size;
  EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_pkey(libctx, key, CRISP_ONLY);
  int ok = context && EVP_PKEY_sign_init(context) > 0 && from_crisp(context) &&
                   EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) > 0
               ? EVP_PKEY_sign(context, signature, length, hash, sizeof hash)
               : -100;
  EVP_PKEY_CTX_free(context);
  return ok;
}

static int untouched(const unsigned char *buffer, size_t size) {
  for (size_t i = 0; i < size; i++)
    if (buffer[i] != 0xa5) return 0;
  return 1;
}

/* An RSA key in crisp from primes of 640 and 384 bits (n of 1024 bits):
 * p does not fit half the modulus, so crisp keeps d alone. */
static EVP_PKEY *unbalanced_crisp_key(void) {
  BN_CTX *bn = BN_CTX_new_ex(libctx);
  BIGNUM *p = BN_new(), *q = BN_new(), *e = BN_new(), *n = BN_new(), *d = BN_new(), *phi = BN_new();
  BIGNUM *p1 = BN_new(), *q1 = BN_new(), *dp = BN_new(), *dq = BN_new(), *qinv = BN_new();
  EVP_PKEY *key = NULL;
  OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
  OSSL_PARAM *params = NULL;
  EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(libctx, "RSA", CRISP_ONLY);
  int ok = bn && qinv && builder && context && BN_set_word(e, 65537) &&
           BN_generate_prime_ex2(p, 640, 0, NULL, NULL, NULL, bn) &&
           BN_generate_prime_ex2(q, 384, 0, NULL, NULL, NULL, bn) && BN_mul(n, p, q, bn) &&
           BN_num_bits(n) == 1024 && BN_sub(p1, p, BN_value_one()) && BN_sub(q1, q, BN_value_one()) &&
           BN_mul(phi, p1, q1, bn) && BN_mod_inverse(d, e, phi, bn) && BN_mod(dp, d, p1, bn) &&
           BN_mod(dq, d, q1, bn) && BN_mod_inverse(qinv, q, p, bn) &&
           OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, n) &&
           OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, e) &&
           OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_D, d) &&
           OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_FACTOR1, p) &&
           OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_FACTOR2, q) &&
           OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_EXPONENT1, dp) &&
           OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_EXPONENT2, dq) &&
           OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, qinv) &&
           (params = OSSL_PARAM_BLD_to_param(builder)) != NULL && EVP_PKEY_fromdata_init(context) > 0;
  if (!ok || EVP_PKEY_fromdata(context, &key, EVP_PKEY_KEYPAIR, params) <= 0) key = NULL;
  EVP_PKEY_CTX_free(context);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(builder);
  BIGNUM *all[] = {p, q, e, n, d, phi, p1, q1, dp, dq, qinv};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) BN_clear_free(all[i]);
  BN_CTX_free(bn);
  return key;
}

/* The DER AlgorithmIdentifier a provider gives for PKCS#1 v1.5 with md
 * (what X.509 signing asks for); its length, 0 when none. */
static size_t algorithm_id(EVP_PKEY *key, const char *properties, const char *md, unsigned char *out,
                           size_t size) {
  EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_pkey(libctx, key, properties);
  OSSL_PARAM params[2] = {OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, out, size),
                          OSSL_PARAM_construct_end()};
  EVP_MD *fetched = EVP_MD_fetch(libctx, md, DEFAULT_ONLY);
  size_t length = 0;
  if (context && fetched && EVP_PKEY_sign_init(context) > 0 &&
      EVP_PKEY_CTX_set_signature_md(context, fetched) > 0 && EVP_PKEY_CTX_get_params(context, params) > 0 &&
      params[0].return_size != OSSL_PARAM_UNMODIFIED)
    length = params[0].return_size;
  EVP_MD_free(fetched);
  EVP_PKEY_CTX_free(context);
  return length;
}

/* The provider's count of private operations on a key it prepared at
 * import (crisp_bn_crt_key_new); ULLONG_MAX when it cannot be read. */
static unsigned long long prepared_signs(void) {
  uint64_t calls = 0;
  OSSL_PARAM params[] = {OSSL_PARAM_uint64("crisp.calls.rsa-sign-prepared", &calls), OSSL_PARAM_END};
  return OSSL_PROVIDER_get_params(crisp_provider, params) && OSSL_PARAM_modified(params) ? calls : ULLONG_MAX;
}

static void run_misuse(void) {
  EVP_PKEY *key = EVP_PKEY_Q_keygen(libctx, DEFAULT_ONLY, "RSA", (size_t)2048);
  unsigned char signature[512];
  size_t length;
  EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_pkey(libctx, key, CRISP_ONLY);
  check(context && EVP_PKEY_sign_init(context) > 0 && from_crisp(context), "sign_init through crisp");
  check(EVP_PKEY_CTX_set_rsa_padding(context, RSA_NO_PADDING) <= 0 && crisp_error("padding mode not offered"),
        "RSA_NO_PADDING rejected with a reason");
  check(
      EVP_PKEY_CTX_set_rsa_padding(context, RSA_X931_PADDING) <= 0 && crisp_error("padding mode not offered"),
      "X9.31 padding rejected with a reason");
  check(EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_OAEP_PADDING) <= 0 &&
            crisp_error("padding mode not offered"),
        "OAEP padding rejected with a reason");
  check(EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PSS_PADDING) > 0 &&
            EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) > 0 &&
            EVP_PKEY_CTX_set_rsa_pss_saltlen(context, 256 - 32 - 1) > 0,
        "PSS with a long salt accepted as a setting");
  unsigned char hash[32] = {0};
  length = sizeof signature;
  check(EVP_PKEY_sign(context, signature, &length, hash, sizeof hash) <= 0 && crisp_error("salt too long"),
        "PSS salt one byte too long refused with a reason");
  check(EVP_PKEY_CTX_set_rsa_pss_saltlen(context, 256 - 32 - 2) > 0 &&
            EVP_PKEY_sign(context, signature, &length, hash, sizeof hash) > 0,
        "PSS with the longest salt signs");
  length = sizeof signature;
  check(EVP_PKEY_sign(context, signature, &length, hash, 31) <= 0 && crisp_error("wrong input length"),
        "a hash of the wrong length refused with a reason");
  EVP_PKEY_CTX_free(context);

  static const char *const algorithm_digests[] = {"SHA1", "SHA224", "SHA256", "SHA384", "SHA512"};
  for (size_t i = 0; i < sizeof algorithm_digests / sizeof algorithm_digests[0]; i++) {
    unsigned char from_crisp_id[64], from_default_id[64];
    size_t crisp_length =
        algorithm_id(key, CRISP_ONLY, algorithm_digests[i], from_crisp_id, sizeof from_crisp_id);
    size_t default_length =
        algorithm_id(key, DEFAULT_ONLY, algorithm_digests[i], from_default_id, sizeof from_default_id);
    check(crisp_length > 0 && crisp_length == default_length &&
              memcmp(from_crisp_id, from_default_id, crisp_length) == 0,
          "PKCS#1 algorithm identifier equal to the default provider's");
  }
  ERR_clear_error();

  unsigned char all_ones[256];
  memset(all_ones, 0xff, sizeof all_ones);
  context = EVP_PKEY_CTX_new_from_pkey(libctx, key, CRISP_ONLY);
  check(context && EVP_PKEY_verify_init(context) > 0 && from_crisp(context) &&
            EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) > 0 &&
            EVP_PKEY_verify(context, all_ones, sizeof all_ones, hash, sizeof hash) <= 0 &&
            crisp_error("does not verify"),
        "a signature above n refused with a reason");
  EVP_PKEY_CTX_free(context);

  length = 0;
  check(
      crisp_sign(key, signature, 255, &length) <= 0 && crisp_error("too small") && untouched(signature, 255),
      "a 255-byte buffer for a 2048-bit signature refused, nothing written");

  EVP_PKEY *d_only = crisp_key_from(key, 0, 0);
  check(d_only != NULL, "a key of n, e, d imported into crisp");
  unsigned long long prepared = prepared_signs();
  check(d_only && crisp_sign(d_only, signature, sizeof signature, &length) > 0 && length == 256,
        "a key without CRT components signs through the d path");
  check(prepared != ULLONG_MAX && prepared_signs() == prepared,
        "a key without CRT components is not prepared");
  EVP_PKEY_CTX *verify_context = EVP_PKEY_CTX_new_from_pkey(libctx, key, DEFAULT_ONLY);
  unsigned char hash123[32] = {1, 2, 3};
  check(verify_context && EVP_PKEY_verify_init(verify_context) > 0 &&
            EVP_PKEY_CTX_set_signature_md(verify_context, EVP_sha256()) > 0 &&
            EVP_PKEY_verify(verify_context, signature, length, hash123, sizeof hash123) == 1,
        "the d-path signature verifies with the default provider");
  EVP_PKEY_CTX_free(verify_context);
  EVP_PKEY_free(d_only);

  EVP_PKEY *unbalanced = unbalanced_crisp_key();
  check(unbalanced != NULL, "an unbalanced key (640- and 384-bit primes) imported into crisp");
  check(unbalanced && sign_and_verify(unbalanced, CRISP_ONLY, CRISP_ONLY, RSA_PKCS1_PSS_PADDING, "SHA256",
                                      RSA_PSS_SALTLEN_DIGEST, "unbalanced"),
        "the unbalanced key signs through the d path and verifies");
  EVP_PKEY_free(unbalanced);

  EVP_PKEY *faulty = crisp_key_from(key, 1, 2);
  check(faulty != NULL, "a key whose dP is off by 2 imports (crisp cannot see it)");
  prepared = prepared_signs();
  check(faulty && crisp_sign(faulty, signature, sizeof signature, &length) <= 0 &&
            crisp_error("failed its check") && untouched(signature, sizeof signature),
        "a wrong dP makes crisp's fault check refuse, and no signature is released");
  check(prepared_signs() == prepared + 1, "the wrong dP was refused by the prepared key's fault check");
  EVP_PKEY_free(faulty);

  EVP_PKEY *good = crisp_key_from(key, 1, 0);
  prepared = prepared_signs();
  check(good && crisp_sign(good, signature, sizeof signature, &length) > 0 &&
            crisp_sign(good, signature, sizeof signature, &length) > 0,
        "the same key with its true dP signs, twice");
  check(prepared_signs() == prepared + 2, "both signatures ran on the key prepared at import");
  check(good && EVP_PKEY_get_bits(good) == 2048 && EVP_PKEY_get_security_bits(good) == 112 &&
            EVP_PKEY_get_size(good) == 256,
        "a crisp key's bits, security bits and size");
  check(good && EVP_PKEY_eq(good, key) == 1, "a crisp key equals the default provider's key it came from");
  EVP_PKEY_CTX *checker = good ? EVP_PKEY_CTX_new_from_pkey(libctx, good, CRISP_ONLY) : NULL;
  check(checker && EVP_PKEY_pairwise_check(checker) == 1 && EVP_PKEY_public_check(checker) == 1,
        "crisp's key manager validates the key");
  EVP_PKEY_CTX_free(checker);
  EVP_PKEY_free(good);
  EVP_PKEY *wrong_q = crisp_key_changed(key, 1, 4, 2);
  checker = wrong_q ? EVP_PKEY_CTX_new_from_pkey(libctx, wrong_q, CRISP_ONLY) : NULL;
  check(checker && EVP_PKEY_pairwise_check(checker) != 1 && crisp_error("p * q is not n"),
        "a key whose q is off by 2 fails crisp's validation with a reason");
  EVP_PKEY_CTX_free(checker);
  /* CRT components that do not make n, or do not agree with each other,
   * are refused as a bad key when the key signs, with nothing written: the
   * CRT's own check is mod p * q, which is not n for such a key. */
  check(wrong_q && crisp_sign(wrong_q, signature, sizeof signature, &length) <= 0 &&
            crisp_error("CRT components disagree") && untouched(signature, sizeof signature),
        "a key whose q is off by 2 refused when it signs, nothing written");
  EVP_PKEY_free(wrong_q);
  EVP_PKEY *other = EVP_PKEY_Q_keygen(libctx, DEFAULT_ONLY, "RSA", (size_t)2048);
  EVP_PKEY *mixed = other ? crisp_key_in(libctx, key, other, 1, 0, 0) : NULL;
  check(mixed && crisp_sign(mixed, signature, sizeof signature, &length) <= 0 &&
            crisp_error("CRT components disagree") && untouched(signature, sizeof signature),
        "n, e, d of one key with another's CRT components refused when it signs, nothing written");
  EVP_PKEY_free(mixed);
  EVP_PKEY_free(other);
  EVP_PKEY *wrong_qinv = crisp_key_changed(key, 1, 7, 2);
  prepared = prepared_signs();
  check(wrong_qinv && crisp_sign(wrong_qinv, signature, sizeof signature, &length) <= 0 &&
            crisp_error("CRT components disagree") && untouched(signature, sizeof signature),
        "a key whose qInv is off by 2 refused as a bad key, nothing written");
  check(prepared_signs() == prepared, "a key crisp_bn_crt_key_new refuses is not prepared");
  EVP_PKEY_free(wrong_qinv);

  /* PSS settings read back: the salt length as libcrypto asks for it (a
   * string: the default auto-digestmax as -4, which libcrypto 3.0 reads
   * too), a salt length given as a negative number in a string, and the
   * digest PSS uses when none is set (SHA-1). */
  EVP_PKEY_CTX *settings = EVP_PKEY_CTX_new_from_pkey(libctx, key, CRISP_ONLY);
  int salt = 12345;
  check(settings && EVP_PKEY_sign_init(settings) > 0 && from_crisp(settings) &&
            EVP_PKEY_CTX_set_rsa_padding(settings, RSA_PKCS1_PSS_PADDING) > 0 &&
            EVP_PKEY_CTX_get_rsa_pss_saltlen(settings, &salt) > 0 && salt == -4,
        "PSS's default salt length reads back as auto-digestmax (-4)");
  salt = 12345;
  check(settings && EVP_PKEY_CTX_set_rsa_pss_saltlen(settings, 20) > 0 &&
            EVP_PKEY_CTX_get_rsa_pss_saltlen(settings, &salt) > 0 && salt == 20,
        "a PSS salt length of 20 reads back");
  salt = 12345;
  check(settings && EVP_PKEY_CTX_ctrl_str(settings, "rsa_pss_saltlen", "-1") > 0 &&
            EVP_PKEY_CTX_get_rsa_pss_saltlen(settings, &salt) > 0 && salt == RSA_PSS_SALTLEN_DIGEST,
        "the salt length \"-1\" is taken as digest, as the default provider takes it");
  check(settings && EVP_PKEY_CTX_ctrl_str(settings, "rsa_pss_saltlen", "-5") <= 0,
        "the salt length \"-5\" refused");
  ERR_clear_error();
  const EVP_MD *unset_md = NULL;
  check(settings && EVP_PKEY_sign_init(settings) > 0 &&
            EVP_PKEY_CTX_set_rsa_padding(settings, RSA_PKCS1_PSS_PADDING) > 0 &&
            EVP_PKEY_CTX_get_signature_md(settings, &unset_md) > 0 && unset_md &&
            strcmp(EVP_MD_get0_name(unset_md), "SHA1") == 0,
        "PSS without a digest set reads back SHA-1, the digest it uses");
  EVP_PKEY_CTX_free(settings);

  /* Moduli: odd, of 512 to 16384 bits, imported or generated. */
  ERR_clear_error();
  check(crisp_imports_modulus(512, 1) && crisp_imports_modulus(16384, 1), "odd moduli of 512 and 16384 bits");
  static const int refused_bits[] = {384, 511, 16385};
  for (size_t i = 0; i < 3; i++)
    check(!crisp_imports_modulus(refused_bits[i], 1) && crisp_error("crisp takes odd moduli"),
          "a modulus outside 512-16384 bits refused with a reason");
  check(!crisp_imports_modulus(2048, 0) && crisp_error("crisp takes odd moduli"),
        "an even modulus refused with a reason");
  check(crisp_keygen_takes_bits(512) && crisp_keygen_takes_bits(16384) && !crisp_keygen_takes_bits(511) &&
            crisp_error("crisp takes moduli of") && !crisp_keygen_takes_bits(16385) &&
            crisp_error("crisp takes moduli of"),
        "key generation takes 512 to 16384 bits only");

  /* PSS verifying defaults to an automatic salt length: a signature with
   * the longest salt, made by the default provider, verifies in crisp
   * with no salt length set. */
  unsigned char pss[256], pss_hash[32] = {9, 8, 7};
  size_t pss_length = sizeof pss;
  EVP_PKEY_CTX *pss_signer = EVP_PKEY_CTX_new_from_pkey(libctx, key, DEFAULT_ONLY);
  EVP_PKEY_CTX *pss_verifier = EVP_PKEY_CTX_new_from_pkey(libctx, key, CRISP_ONLY);
  check(pss_signer && EVP_PKEY_sign_init(pss_signer) > 0 &&
            EVP_PKEY_CTX_set_rsa_padding(pss_signer, RSA_PKCS1_PSS_PADDING) > 0 &&
            EVP_PKEY_CTX_set_signature_md(pss_signer, EVP_sha256()) > 0 &&
            EVP_PKEY_CTX_set_rsa_pss_saltlen(pss_signer, RSA_PSS_SALTLEN_MAX) > 0 &&
            EVP_PKEY_sign(pss_signer, pss, &pss_length, pss_hash, sizeof pss_hash) > 0 && pss_verifier &&
            EVP_PKEY_verify_init(pss_verifier) > 0 && from_crisp(pss_verifier) &&
            EVP_PKEY_CTX_set_rsa_padding(pss_verifier, RSA_PKCS1_PSS_PADDING) > 0 &&
            EVP_PKEY_CTX_set_signature_md(pss_verifier, EVP_sha256()) > 0 &&
            EVP_PKEY_verify(pss_verifier, pss, pss_length, pss_hash, sizeof pss_hash) == 1,
        "a PSS signature with the longest salt verifies in crisp with the default salt length");
  EVP_PKEY_CTX_free(pss_signer);
  EVP_PKEY_CTX_free(pss_verifier);

  EVP_PKEY *public_only = NULL;
  unsigned char *der = NULL;
  int der_length = i2d_PUBKEY(key, &der);
  const unsigned char *cursor = der;
  public_only = der_length > 0 ? d2i_PUBKEY_ex(NULL, &cursor, der_length, libctx, DEFAULT_ONLY) : NULL;
  OPENSSL_free(der);
  check(public_only && crisp_sign(public_only, signature, sizeof signature, &length) <= 0,
        "signing with a public key fails");
  ERR_clear_error();
  EVP_PKEY_free(public_only);

  EVP_PKEY *three_primes = NULL;
  EVP_PKEY_CTX *generator = EVP_PKEY_CTX_new_from_name(libctx, "RSA", DEFAULT_ONLY);
  if (generator && EVP_PKEY_keygen_init(generator) > 0 &&
      EVP_PKEY_CTX_set_rsa_keygen_bits(generator, 2048) > 0 &&
      EVP_PKEY_CTX_set_rsa_keygen_primes(generator, 3) > 0)
    EVP_PKEY_keygen(generator, &three_primes);
  EVP_PKEY_CTX_free(generator);
  /* Through EVP_PKEY_sign, OpenSSL replaces the import's reason by its
   * own "operation not supported for this keytype"; EVP_PKEY_fromdata
   * shows crisp's. */
  check(three_primes && crisp_sign(three_primes, signature, sizeof signature, &length) <= 0 &&
            ERR_peek_error() != 0 && untouched(signature, sizeof signature),
        "a three-prime key refused when signing");
  ERR_clear_error();
  OSSL_PARAM *three_prime_params = NULL;
  EVP_PKEY *imported = NULL;
  EVP_PKEY_CTX *importer = EVP_PKEY_CTX_new_from_name(libctx, "RSA", CRISP_ONLY);
  check(three_primes && EVP_PKEY_todata(three_primes, EVP_PKEY_KEYPAIR, &three_prime_params) > 0 &&
            importer && EVP_PKEY_fromdata_init(importer) > 0 &&
            EVP_PKEY_fromdata(importer, &imported, EVP_PKEY_KEYPAIR, three_prime_params) <= 0 &&
            crisp_error("multi-prime"),
        "a three-prime key refused by crisp's import with a reason");
  EVP_PKEY_free(imported);
  EVP_PKEY_CTX_free(importer);
  OSSL_PARAM_free(three_prime_params);
  EVP_PKEY_free(three_primes);
  EVP_PKEY_free(key);
  ERR_clear_error();
}

/* The key manager and verify-recover against the default provider: the
 * components answered as parameters, an unbalanced key's factors kept
 * for export and encoding, keys the default provider's checks refuse
 * refused by crisp's too, selections without the key pair, generation
 * refused for a size crisp does not take, verify-recover, and PSS
 * signatures whose leading zero bytes were left out. */
static void run_key_manager(void) {
  const int before_passed = passed, before_failed = failed;
  /* small keys: the checks do not depend on the size, and the sanitizer
   * and valgrind stages run them too. A 1025-bit modulus has a top byte
   * of 1, so about half its signatures start with a zero byte. */
  EVP_PKEY *key = EVP_PKEY_Q_keygen(libctx, DEFAULT_ONLY, "RSA", (size_t)1024);
  EVP_PKEY *odd = EVP_PKEY_Q_keygen(libctx, DEFAULT_ONLY, "RSA", (size_t)1025);
  EVP_PKEY *held = key ? crisp_key_from(key, 1, 0) : NULL;
  check(held != NULL && odd != NULL, "key manager: a default key imported into crisp");
  static const char *const components[] = {
      "n", "e", "d", "rsa-factor1", "rsa-factor2", "rsa-exponent1", "rsa-exponent2", "rsa-coefficient1"};
  int same = held != NULL;
  for (size_t i = 0; same && i < 8; i++) {
    BIGNUM *mine = NULL, *theirs = NULL;
    same = EVP_PKEY_get_bn_param(held, components[i], &mine) &&
           EVP_PKEY_get_bn_param(key, components[i], &theirs) && BN_cmp(mine, theirs) == 0;
    BN_clear_free(mine);
    BN_clear_free(theirs);
  }
  check(same, "key manager: n, e, d and the CRT components answered as the default provider answers them");

  EVP_PKEY *unbalanced = unbalanced_crisp_key();
  BIGNUM *factor = NULL;
  unsigned char *der = NULL;
  check(unbalanced && EVP_PKEY_get_bn_param(unbalanced, "rsa-factor1", &factor) &&
            BN_num_bits(factor) > 600 && i2d_PrivateKey(unbalanced, &der) > 0,
        "key manager: an unbalanced key keeps its factors (answered, DER-encoded)");
  BN_clear_free(factor);
  OPENSSL_free(der);
  EVP_PKEY_free(unbalanced);

  /* the default provider's checks refuse these; so must crisp's */
  static const struct {
    size_t component;
    int delta;
    const char *what;
  } broken[] = {{2, 2, "d"}, {5, 2, "dP"}, {6, 2, "dQ"}, {7, 2, "qInv"}, {1, 2, "e"}};
  for (size_t i = 0; key && i < sizeof broken / sizeof broken[0]; i++) {
    EVP_PKEY *bad = crisp_key_changed(key, 1, broken[i].component, broken[i].delta);
    EVP_PKEY_CTX *checker = bad ? EVP_PKEY_CTX_new_from_pkey(libctx, bad, CRISP_ONLY) : NULL;
    char what[96];
    snprintf(what, sizeof what, "key manager: a key whose %s is off by 2 fails EVP_PKEY_check",
             broken[i].what);
    check(checker && EVP_PKEY_check(checker) <= 0 && EVP_PKEY_pairwise_check(checker) <= 0, what);
    ERR_clear_error();
    EVP_PKEY_CTX_free(checker);
    EVP_PKEY_free(bad);
  }
  EVP_PKEY_CTX *checker = held ? EVP_PKEY_CTX_new_from_pkey(libctx, held, CRISP_ONLY) : NULL;
  check(checker && EVP_PKEY_check(checker) > 0 && EVP_PKEY_public_check(checker) > 0 &&
            EVP_PKEY_private_check(checker) > 0,
        "key manager: the good key passes every check");
  EVP_PKEY_CTX_free(checker);

  /* RSA has no domain parameters */
  EVP_PKEY *small = odd ? crisp_key_from(odd, 1, 0) : NULL;
  OSSL_PARAM *none = NULL;
  check(held && small && EVP_PKEY_parameters_eq(held, small) == 1 &&
            EVP_PKEY_todata(held, EVP_PKEY_KEY_PARAMETERS, &none) > 0,
        "key manager: two keys' parameters are equal, and exporting them gives nothing");
  OSSL_PARAM_free(none);
  EVP_PKEY_free(small);
  EVP_PKEY_CTX *generator = EVP_PKEY_CTX_new_from_name(libctx, "RSA", CRISP_ONLY);
  EVP_PKEY *generated = NULL;
  if (generator && EVP_PKEY_keygen_init(generator) > 0) {
    (void)EVP_PKEY_CTX_set_rsa_keygen_bits(generator, 511); /* refused; the generation goes on */
    (void)EVP_PKEY_keygen(generator, &generated);
  }
  check(generator && !generated, "key manager: a generation whose size was refused fails");
  EVP_PKEY_free(generated);
  EVP_PKEY_CTX_free(generator);
  generator = EVP_PKEY_CTX_new_from_name(libctx, "RSA", CRISP_ONLY);
  check(generator && EVP_PKEY_paramgen_init(generator) <= 0, "key manager: no parameter generation");
  EVP_PKEY_CTX_free(generator);
  ERR_clear_error();

  /* verify-recover: what a crisp PKCS#1 v1.5 signature carries, with and
   * without the digest set, as the default provider recovers it */
  unsigned char signature[256], hash[32] = {5, 6, 7}, mine[256], theirs[256];
  size_t length = sizeof signature, mine_length = sizeof mine, theirs_length = sizeof theirs;
  EVP_PKEY_CTX *signer = held ? EVP_PKEY_CTX_new_from_pkey(libctx, held, CRISP_ONLY) : NULL;
  check(signer && EVP_PKEY_sign_init(signer) > 0 && EVP_PKEY_CTX_set_signature_md(signer, EVP_sha256()) > 0 &&
            EVP_PKEY_sign(signer, signature, &length, hash, sizeof hash) > 0,
        "key manager: a PKCS#1 v1.5 signature to recover");
  EVP_PKEY_CTX_free(signer);
  for (int with_md = 0; with_md < 2; with_md++) {
    const char *const properties[2] = {CRISP_ONLY, DEFAULT_ONLY};
    unsigned char *const outs[2] = {mine, theirs};
    size_t *const lengths[2] = {&mine_length, &theirs_length};
    int recovered = 1;
    for (int side = 0; side < 2; side++) {
      EVP_PKEY_CTX *recoverer = EVP_PKEY_CTX_new_from_pkey(libctx, key, properties[side]);
      *lengths[side] = sizeof mine;
      recovered = recovered && recoverer && EVP_PKEY_verify_recover_init(recoverer) > 0 &&
                  (side || from_crisp(recoverer)) &&
                  (!with_md || EVP_PKEY_CTX_set_signature_md(recoverer, EVP_sha256()) > 0) &&
                  EVP_PKEY_verify_recover(recoverer, outs[side], lengths[side], signature, length) > 0;
      EVP_PKEY_CTX_free(recoverer);
    }
    check(recovered && mine_length == theirs_length && memcmp(mine, theirs, mine_length) == 0 &&
              (!with_md || (mine_length == 32 && memcmp(mine, hash, 32) == 0)),
          with_md ? "verify-recover with SHA-256 gives the hash, as the default provider"
                  : "verify-recover without a digest gives the DigestInfo, as the default provider");
  }
  signature[100] ^= 1;
  EVP_PKEY_CTX *recoverer = EVP_PKEY_CTX_new_from_pkey(libctx, key, CRISP_ONLY);
  mine_length = sizeof mine;
  check(recoverer && EVP_PKEY_verify_recover_init(recoverer) > 0 &&
            EVP_PKEY_verify_recover(recoverer, mine, &mine_length, signature, length) <= 0 &&
            crisp_error("does not verify"),
        "verify-recover of a damaged signature refused with a reason");
  signature[100] ^= 1;
  mine_length = sizeof mine;
  check(recoverer && EVP_PKEY_CTX_set_signature_md(recoverer, EVP_sha384()) > 0 &&
            EVP_PKEY_verify_recover(recoverer, mine, &mine_length, signature, length) <= 0 &&
            crisp_error("does not verify"),
        "verify-recover with SHA-384 of a SHA-256 signature refused with a reason");
  check(recoverer && EVP_PKEY_CTX_set_rsa_padding(recoverer, RSA_PKCS1_PSS_PADDING) > 0 &&
            EVP_PKEY_verify_recover(recoverer, mine, &mine_length, signature, length) <= 0 &&
            crisp_error("PKCS#1 v1.5 padding only"),
        "verify-recover with PSS refused with a reason");
  EVP_PKEY_CTX_free(recoverer);

  /* a PSS signature of the default provider's that starts with a zero
   * byte, handed over without it: the default provider takes it */
  EVP_PKEY_CTX *pss = odd ? EVP_PKEY_CTX_new_from_pkey(libctx, odd, DEFAULT_ONLY) : NULL;
  int found = 0;
  for (int tries = 0; pss && !found && tries < 64; tries++) {
    length = sizeof signature;
    found = EVP_PKEY_sign_init(pss) > 0 && EVP_PKEY_CTX_set_rsa_padding(pss, RSA_PKCS1_PSS_PADDING) > 0 &&
            EVP_PKEY_CTX_set_signature_md(pss, EVP_sha256()) > 0 &&
            EVP_PKEY_sign(pss, signature, &length, hash, sizeof hash) > 0 && signature[0] == 0;
  }
  EVP_PKEY_CTX_free(pss);
  EVP_PKEY_CTX *verifier = found ? EVP_PKEY_CTX_new_from_pkey(libctx, odd, CRISP_ONLY) : NULL;
  check(verifier && EVP_PKEY_verify_init(verifier) > 0 && from_crisp(verifier) &&
            EVP_PKEY_CTX_set_rsa_padding(verifier, RSA_PKCS1_PSS_PADDING) > 0 &&
            EVP_PKEY_CTX_set_signature_md(verifier, EVP_sha256()) > 0 &&
            EVP_PKEY_verify(verifier, signature + 1, length - 1, hash, sizeof hash) == 1,
        "a PSS signature without its leading zero byte verifies, as with the default provider");
  EVP_PKEY_CTX_free(verifier);
  EVP_PKEY_free(held);
  EVP_PKEY_free(odd);
  EVP_PKEY_free(key);
  ERR_clear_error();
  printf("key manager: %d passed, %d failed\n", passed - before_passed, failed - before_failed);
}

/* crisp loaded alone in a library context: no other provider to hand
 * EVP_PKEY_check to, so validate checks the key's shape and p * q = n
 * only (docs/provider.md), and generation, which crisp delegates, fails
 * with its reason. The key whose d is off passes here on purpose: that
 * is the documented limit of the check without another provider. */
static void run_crisp_alone(void) {
  OSSL_LIB_CTX *alone = OSSL_LIB_CTX_new();
  OSSL_PROVIDER *only = alone && OSSL_PROVIDER_set_default_search_path(alone, provider_dir)
                            ? OSSL_PROVIDER_load(alone, "crisp")
                            : NULL;
  EVP_PKEY *source = EVP_PKEY_Q_keygen(libctx, DEFAULT_ONLY, "RSA", (size_t)1024);
  check(only && source, "crisp alone: loaded without the default provider");
  EVP_PKEY *good = only && source ? crisp_key_in(alone, source, source, 1, 0, 0) : NULL;
  EVP_PKEY *bad_factor = only && source ? crisp_key_in(alone, source, source, 1, 3, 2) : NULL;
  EVP_PKEY *bad_d = only && source ? crisp_key_in(alone, source, source, 1, 2, 2) : NULL;
  EVP_PKEY_CTX *checker = good ? EVP_PKEY_CTX_new_from_pkey(alone, good, CRISP_ONLY) : NULL;
  check(checker && EVP_PKEY_check(checker) > 0 && EVP_PKEY_pairwise_check(checker) > 0 &&
            EVP_PKEY_public_check(checker) > 0,
        "crisp alone: a good key passes EVP_PKEY_check");
  EVP_PKEY_CTX_free(checker);
  ERR_clear_error();
  checker = bad_factor ? EVP_PKEY_CTX_new_from_pkey(alone, bad_factor, CRISP_ONLY) : NULL;
  check(checker && EVP_PKEY_check(checker) <= 0 && crisp_error("p * q is not n"),
        "crisp alone: a key whose p * q is not n fails EVP_PKEY_check with crisp's reason");
  EVP_PKEY_CTX_free(checker);
  checker = bad_d ? EVP_PKEY_CTX_new_from_pkey(alone, bad_d, CRISP_ONLY) : NULL;
  check(checker && EVP_PKEY_check(checker) > 0,
        "crisp alone: a key whose d is off passes (shape and p * q = n only, as documented)");
  EVP_PKEY_CTX_free(checker);
  ERR_clear_error();
  EVP_PKEY *generated = NULL;
  EVP_PKEY_CTX *generator = only ? EVP_PKEY_CTX_new_from_name(alone, "RSA", CRISP_ONLY) : NULL;
  check(generator && EVP_PKEY_keygen_init(generator) > 0 &&
            EVP_PKEY_CTX_set_rsa_keygen_bits(generator, 1024) > 0 &&
            EVP_PKEY_keygen(generator, &generated) <= 0 && !generated &&
            crisp_error("needs another provider"),
        "crisp alone: key generation fails with crisp's reason");
  EVP_PKEY_CTX_free(generator);
  EVP_PKEY_free(generated);
  EVP_PKEY_free(good);
  EVP_PKEY_free(bad_factor);
  EVP_PKEY_free(bad_d);
  EVP_PKEY_free(source);
  OSSL_PROVIDER_unload(only);
  OSSL_LIB_CTX_free(alone);
  ERR_clear_error();
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s PROVIDER_DIR VECTOR_FILE...\n", argv[0]);
    return 2;
  }
  provider_dir = argv[1];
  libctx = OSSL_LIB_CTX_new();
  OSSL_PROVIDER *default_provider = libctx ? OSSL_PROVIDER_load(libctx, "default") : NULL;
  if (!default_provider || !OSSL_PROVIDER_set_default_search_path(libctx, argv[1]) ||
      !(crisp_provider = OSSL_PROVIDER_load(libctx, "crisp"))) {
    ERR_print_errors_fp(stdout);
    printf("FAIL: cannot load the providers from %s\n", argv[1]);
    return 1;
  }
  for (int i = 2; i < argc; i++) run_file(argv[i]);
  int vector_passed = passed, vector_failed = failed;
  printf("vectors: %d passed, %d failed, %d skipped\n", vector_passed, vector_failed, skipped);
  print_tally("passed by operation", pass_tally, 8);
  print_tally("skipped by reason", skip_tally, 16);
  run_differential();
  printf("differential: %d passed, %d failed\n", passed - vector_passed, failed - vector_failed);
  run_keygen();
  int before_passed = passed, before_failed = failed;
  run_misuse();
  run_key_manager();
  run_crisp_alone();
  printf("misuse: %d passed, %d failed\n", passed - before_passed, failed - before_failed);
  for (int i = 0; i < key_count; i++) EVP_PKEY_free(keys[i].key);
  OSSL_PROVIDER_unload(crisp_provider);
  OSSL_PROVIDER_unload(default_provider);
  OSSL_LIB_CTX_free(libctx);
  printf("total: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
  return failed || vector_passed == 0 ? 1 : 0;
}
