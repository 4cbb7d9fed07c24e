/* test/test_provider_evp.c - the provider crisp.so through libcrypto's EVP
 * API: OpenSSL's own known-answer stanzas (test/vectors/openssl-evp/) for
 * MD5, Poly1305, ChaCha20 and ChaCha20-Poly1305, each fetched with
 * "provider=crisp" so no other provider can answer, whole and split into
 * pieces; the TLS 1.2 record parameters against the default provider;
 * random long messages in random pieces against the default provider;
 * misuse (an error with a crisp reason, never a crash or a wrong success);
 * and the call counters the provider exposes.
 * Usage: test_provider_evp PROVIDER_DIR VECTORS_DIR. Exit 0 only when no
 * case failed and every vector file passed at least one stanza. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

enum { MAX_FIELDS = 16, MAX_BYTES = 8192 };

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *crisp_provider;
static int checks_failed;

/* ---- stanzas ----------------------------------------------------------- */

typedef struct field {
  char name[32];
  char *value;
} field;

typedef struct stanza {
  int line;
  int count;
  field fields[MAX_FIELDS];
} stanza;

static const char *get(const stanza *s, const char *name) {
  for (int i = 0; i < s->count; i++)
    if (strcmp(s->fields[i].name, name) == 0) return s->fields[i].value;
  return NULL;
}

static int hex_value(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* A value as bytes: hex digits, or a "quoted" string taken literally.
 * Returns the length, or -1 when the value is malformed or too long. */
static long bytes_of(const char *value, unsigned char *out) {
  size_t n = 0, length = strlen(value);
  if (length >= 2 && value[0] == '"' && value[length - 1] == '"') {
    if (length - 2 > MAX_BYTES) return -1;
    memcpy(out, value + 1, length - 2);
    return (long)(length - 2);
  }
  if (length % 2) return -1;
  for (size_t i = 0; i < length; i += 2) {
    const int hi = hex_value(value[i]), lo = hex_value(value[i + 1]);
    if (hi < 0 || lo < 0 || n >= MAX_BYTES) return -1;
    out[n++] = (unsigned char)(hi << 4 | lo);
  }
  return (long)n;
}

/* Reads the next stanza (a run of non-blank lines, comments dropped);
 * returns 0 at the end of the file. */
static int next_stanza(FILE *file, stanza *s, int *line) {
  static char buffer[65536];
  for (int i = 0; i < s->count; i++) free(s->fields[i].value);
  s->count = 0;
  while (fgets(buffer, sizeof buffer, file)) {
    ++*line;
    buffer[strcspn(buffer, "\r\n")] = '\0';
    if (buffer[0] == '#') continue;
    if (buffer[0] == '\0') {
      if (s->count) return 1;
      continue;
    }
    char *equals = strchr(buffer, '=');
    if (!equals || s->count == MAX_FIELDS) continue;
    char *end = equals;
    while (end > buffer && end[-1] == ' ') end--;
    *end = '\0';
    char *value = equals + 1;
    while (*value == ' ') value++;
    if (s->count == 0) s->line = *line;
    const size_t name_length = strlen(buffer);
    if (name_length >= sizeof s->fields[0].name) continue;
    memcpy(s->fields[s->count].name, buffer, name_length + 1);
    s->fields[s->count].value = strdup(value);
    s->count++;
  }
  return s->count > 0;
}

typedef struct tally {
  int passed, failed, skipped, not_tests;
} tally;

static void fail_stanza(const char *file, const stanza *s, const char *what) {
  printf("FAIL %s:%d: %s\n", file, s->line, what);
  ERR_print_errors_fp(stdout);
}

/* ---- MD5 --------------------------------------------------------------- */

/* The digest of `input` fed in pieces of `piece` bytes (0: at once), the
 * context copied half way when `copy` is set. */
static int digest_pieces(EVP_MD *md, const unsigned char *input, size_t length, size_t piece, int copy,
                         unsigned char *out, unsigned int *out_length) {
  EVP_MD_CTX *ctx = EVP_MD_CTX_new(), *twin = EVP_MD_CTX_new();
  int ok = ctx && twin && EVP_DigestInit_ex(ctx, md, NULL);
  size_t done = 0;
  if (piece == 0) piece = length ? length : 1;
  while (ok && done < length) {
    size_t n = length - done < piece ? length - done : piece;
    ok = EVP_DigestUpdate(ctx, input + done, n);
    done += n;
    if (ok && copy && done >= length / 2 && copy++ == 1) {
      ok = EVP_MD_CTX_copy_ex(twin, ctx);
      EVP_MD_CTX *swap = ctx;
      ctx = twin, twin = swap; /* finish on the copy */
    }
  }
  ok = ok && EVP_DigestFinal_ex(ctx, out, out_length);
  EVP_MD_CTX_free(ctx);
  EVP_MD_CTX_free(twin);
  return ok;
}

static void run_digests(const char *directory, tally *t) {
  char path[4096];
  snprintf(path, sizeof path, "%s/evpmd_md.txt", directory);
  FILE *file = fopen(path, "r");
  if (!file) {
    printf("FAIL cannot open %s\n", path);
    t->failed++;
    return;
  }
  EVP_MD *md = EVP_MD_fetch(libctx, "MD5", "provider=crisp");
  static unsigned char input[MAX_BYTES], expected[MAX_BYTES], out[EVP_MAX_MD_SIZE];
  stanza s = {0};
  int line = 0;
  while (next_stanza(file, &s, &line)) {
    const char *name = get(&s, "Digest");
    if (!name) {
      t->not_tests++;
      continue;
    }
    if (strcmp(name, "MD5") != 0 || !md) {
      t->skipped++;
      continue;
    }
    long in_length = bytes_of(get(&s, "Input") ? get(&s, "Input") : "", input);
    long out_length = bytes_of(get(&s, "Output") ? get(&s, "Output") : "", expected);
    if (in_length < 0 || out_length != 16) {
      fail_stanza("evpmd_md.txt", &s, "malformed stanza");
      t->failed++;
      continue;
    }
    int ok = 1;
    static const size_t pieces[] = {0, 1, 3, 63, 64, 65};
    for (size_t p = 0; ok && p < sizeof pieces / sizeof pieces[0]; p++)
      for (int copy = 0; ok && copy < 2; copy++) {
        unsigned int length = 0;
        ok = digest_pieces(md, input, (size_t)in_length, pieces[p], copy, out, &length) && length == 16 &&
             memcmp(out, expected, 16) == 0;
        if (!ok) printf("  MD5 pieces of %zu%s: wrong digest\n", pieces[p], copy ? ", copied" : "");
      }
    if (ok)
      t->passed++;
    else
      fail_stanza("evpmd_md.txt", &s, "MD5"), t->failed++;
  }
  for (int i = 0; i < s.count; i++) free(s.fields[i].value);
  EVP_MD_free(md);
  fclose(file);
}

/* ---- Poly1305 ---------------------------------------------------------- */

static int mac_pieces(EVP_MAC *mac, const unsigned char *key, size_t key_length, const unsigned char *input,
                      size_t length, size_t piece, int key_as_param, int copy, unsigned char *out) {
  EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac), *twin = NULL;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY, (void *)key, key_length),
                         OSSL_PARAM_construct_end()};
  int ok = ctx && (key_as_param ? EVP_MAC_CTX_set_params(ctx, params) && EVP_MAC_init(ctx, NULL, 0, NULL)
                                : EVP_MAC_init(ctx, key, key_length, NULL));
  size_t done = 0, out_length = 0;
  if (piece == 0) piece = length ? length : 1;
  while (ok && done < length) {
    size_t n = length - done < piece ? length - done : piece;
    ok = EVP_MAC_update(ctx, input + done, n);
    done += n;
    if (ok && copy && !twin && done >= length / 2) {
      ok = (twin = EVP_MAC_CTX_dup(ctx)) != NULL;
      EVP_MAC_CTX *swap = ctx;
      ctx = twin, twin = swap;
    }
  }
  ok = ok && EVP_MAC_final(ctx, out, &out_length, 16) && out_length == 16;
  EVP_MAC_CTX_free(ctx);
  EVP_MAC_CTX_free(twin);
  return ok;
}

static void run_macs(const char *directory, tally *t) {
  char path[4096];
  snprintf(path, sizeof path, "%s/evpmac_poly1305.txt", directory);
  FILE *file = fopen(path, "r");
  if (!file) {
    printf("FAIL cannot open %s\n", path);
    t->failed++;
    return;
  }
  EVP_MAC *mac = EVP_MAC_fetch(libctx, "POLY1305", "provider=crisp");
  static unsigned char key[MAX_BYTES], input[MAX_BYTES], expected[MAX_BYTES], out[16];
  stanza s = {0};
  int line = 0;
  while (next_stanza(file, &s, &line)) {
    const char *name = get(&s, "MAC");
    if (!name) {
      t->not_tests++;
      continue;
    }
    if (OPENSSL_strcasecmp(name, "Poly1305") != 0 || !mac) {
      t->skipped++;
      continue;
    }
    long key_length = bytes_of(get(&s, "Key") ? get(&s, "Key") : "", key);
    long in_length = bytes_of(get(&s, "Input") ? get(&s, "Input") : "", input);
    long out_length = bytes_of(get(&s, "Output") ? get(&s, "Output") : "", expected);
    if (key_length < 0 || in_length < 0 || out_length != 16) {
      fail_stanza("evpmac_poly1305.txt", &s, "malformed stanza"), t->failed++;
      continue;
    }
    int ok = 1;
    static const size_t pieces[] = {0, 1, 15, 16, 17, 64};
    for (size_t p = 0; ok && p < sizeof pieces / sizeof pieces[0]; p++)
      for (int variant = 0; ok && variant < 4; variant++) {
        ok = mac_pieces(mac, key, (size_t)key_length, input, (size_t)in_length, pieces[p], variant & 1,
                        variant >> 1, out) &&
             memcmp(out, expected, 16) == 0;
        if (!ok) printf("  Poly1305 pieces of %zu, variant %d: wrong tag\n", pieces[p], variant);
      }
    if (ok)
      t->passed++;
    else
      fail_stanza("evpmac_poly1305.txt", &s, "Poly1305"), t->failed++;
  }
  for (int i = 0; i < s.count; i++) free(s.fields[i].value);
  EVP_MAC_free(mac);
  fclose(file);
}

/* ---- ChaCha20 and ChaCha20-Poly1305 ------------------------------------ */

typedef struct cipher_case {
  const unsigned char *key, *iv, *aad, *tag, *in, *expected;
  size_t key_length, iv_length, aad_length, tag_length, length;
  const unsigned char *next_iv; /* ChaCha20: the IV after the message, or NULL */
} cipher_case;

/* One direction of a case, the input fed in pieces (0: at once), the
 * associated data in two updates. Returns 1 when the output (and the tag,
 * sealing) match; 0 on a mismatch; -1 when IV setup failed; -2 when final
 * failed. */
static int cipher_pieces(EVP_CIPHER *cipher, const cipher_case *c, int encrypting, size_t piece,
                         int in_place) {
  static unsigned char out[MAX_BYTES + 64];
  const int aead = EVP_CIPHER_get_flags(cipher) & EVP_CIPH_FLAG_AEAD_CIPHER;
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  int result = 0, length = 0;
  if (!ctx || !EVP_CipherInit_ex2(ctx, cipher, NULL, NULL, encrypting, NULL)) goto done;
  if (c->iv_length != (size_t)EVP_CIPHER_get_iv_length(cipher)) {
    size_t iv_length = c->iv_length;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &iv_length),
                           OSSL_PARAM_construct_end()};
    if (!EVP_CIPHER_CTX_set_params(ctx, params)) {
      result = -1;
      goto done;
    }
  }
  if (aead && !encrypting && c->tag) {
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, (void *)c->tag, c->tag_length),
        OSSL_PARAM_construct_end()};
    if (!EVP_CIPHER_CTX_set_params(ctx, params)) goto done;
  }
  if (!EVP_CipherInit_ex2(ctx, NULL, c->key, c->iv, encrypting, NULL)) {
    result = -1;
    goto done;
  }
  if (c->aad_length) {
    size_t half = c->aad_length / 2;
    if (!EVP_CipherUpdate(ctx, NULL, &length, c->aad, (int)half) ||
        !EVP_CipherUpdate(ctx, NULL, &length, c->aad + half, (int)(c->aad_length - half)))
      goto done;
  }
  const unsigned char *in = c->in;
  if (in_place) memcpy(out, c->in, c->length), in = out;
  size_t done = 0;
  if (piece == 0) piece = c->length ? c->length : 1;
  while (done < c->length) {
    size_t n = c->length - done < piece ? c->length - done : piece;
    if (!EVP_CipherUpdate(ctx, out + done, &length, in + done, (int)n) || length != (int)n) goto done;
    done += n;
  }
  if (!EVP_CipherFinal_ex(ctx, out + done, &length)) {
    result = -2;
    goto done;
  }
  if (memcmp(out, c->expected, c->length) != 0) goto done;
  if (aead && encrypting && c->tag) {
    unsigned char tag[16];
    OSSL_PARAM params[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, c->tag_length),
                           OSSL_PARAM_construct_end()};
    if (!EVP_CIPHER_CTX_get_params(ctx, params) || memcmp(tag, c->tag, c->tag_length) != 0) goto done;
  }
  if (c->next_iv) {
    unsigned char iv[16];
    if (!EVP_CIPHER_CTX_get_updated_iv(ctx, iv, sizeof iv) || memcmp(iv, c->next_iv, 16) != 0) goto done;
  }
  result = 1;
done:
  EVP_CIPHER_CTX_free(ctx);
  return result;
}

static void run_ciphers(const char *directory, tally *t) {
  char path[4096];
  snprintf(path, sizeof path, "%s/evpciph_chacha.txt", directory);
  FILE *file = fopen(path, "r");
  if (!file) {
    printf("FAIL cannot open %s\n", path);
    t->failed++;
    return;
  }
  EVP_CIPHER *chacha20 = EVP_CIPHER_fetch(libctx, "ChaCha20", "provider=crisp");
  EVP_CIPHER *aead = EVP_CIPHER_fetch(libctx, "ChaCha20-Poly1305", "provider=crisp");
  static unsigned char key[MAX_BYTES], iv[MAX_BYTES], aad[MAX_BYTES], tag[MAX_BYTES], plaintext[MAX_BYTES],
      ciphertext[MAX_BYTES], next_iv[MAX_BYTES];
  stanza s = {0};
  int line = 0;
  while (next_stanza(file, &s, &line)) {
    const char *name = get(&s, "Cipher");
    if (!name) {
      t->not_tests++;
      continue;
    }
    EVP_CIPHER *cipher = OPENSSL_strcasecmp(name, "chacha20") == 0            ? chacha20
                         : OPENSSL_strcasecmp(name, "chacha20-poly1305") == 0 ? aead
                                                                              : NULL;
    if (!cipher) {
      t->skipped++;
      continue;
    }
    if (!get(&s, "Key")) { /* a bare "Cipher = chacha20" line: nothing to run */
      t->not_tests++;
      continue;
    }
    cipher_case c = {.key = key, .iv = iv, .aad = aad, .tag = get(&s, "Tag") ? tag : NULL};
    long lengths[7] = {
        bytes_of(get(&s, "Key"), key),
        bytes_of(get(&s, "IV") ? get(&s, "IV") : "", iv),
        bytes_of(get(&s, "AAD") ? get(&s, "AAD") : "", aad),
        bytes_of(get(&s, "Tag") ? get(&s, "Tag") : "", tag),
        bytes_of(get(&s, "Plaintext") ? get(&s, "Plaintext") : "", plaintext),
        bytes_of(get(&s, "Ciphertext") ? get(&s, "Ciphertext") : "", ciphertext),
        bytes_of(get(&s, "NextIV") ? get(&s, "NextIV") : "", next_iv),
    };
    int malformed = 0;
    for (int i = 0; i < 7; i++) malformed |= lengths[i] < 0;
    const char *result = get(&s, "Result");
    const char *operation = get(&s, "Operation");
    if (malformed || (!result && lengths[4] != lengths[5])) {
      fail_stanza("evpciph_chacha.txt", &s, "malformed stanza"), t->failed++;
      continue;
    }
    c.key_length = (size_t)lengths[0], c.iv_length = (size_t)lengths[1], c.aad_length = (size_t)lengths[2];
    c.tag_length = (size_t)lengths[3];
    c.next_iv = get(&s, "NextIV") && lengths[6] == 16 ? next_iv : NULL;
    const int decrypt_only = operation && strcmp(operation, "DECRYPT") == 0;
    const int encrypt_only = operation && strcmp(operation, "ENCRYPT") == 0;
    int ok = 1;
    static const size_t pieces[] = {0, 1, 7, 63, 64, 65, 129};
    for (int encrypting = decrypt_only ? 0 : 1; ok && encrypting >= (encrypt_only ? 1 : 0); encrypting--) {
      c.in = encrypting ? plaintext : ciphertext;
      c.expected = encrypting ? ciphertext : plaintext;
      c.length = (size_t)(encrypting ? lengths[4] : lengths[5]);
      for (size_t p = 0; ok && p < sizeof pieces / sizeof pieces[0]; p++)
        for (int in_place = 0; ok && in_place < 2; in_place++) {
          const int r = cipher_pieces(cipher, &c, encrypting, pieces[p], in_place);
          if (!result)
            ok = r == 1;
          else if (strcmp(result, "INVALID_IV_LENGTH") == 0)
            ok = r == -1;
          else if (strcmp(result, "CIPHERFINAL_ERROR") == 0)
            ok = r == -2;
          else
            ok = 0;
          if (!ok)
            printf("  %s %s pieces of %zu%s: got %d, want %s\n", name, encrypting ? "encrypt" : "decrypt",
                   pieces[p], in_place ? " in place" : "", r, result ? result : "success");
          ERR_clear_error();
        }
    }
    if (ok)
      t->passed++;
    else
      fail_stanza("evpciph_chacha.txt", &s, name), t->failed++;
  }
  for (int i = 0; i < s.count; i++) free(s.fields[i].value);
  EVP_CIPHER_free(chacha20);
  EVP_CIPHER_free(aead);
  fclose(file);
}

/* ---- TLS 1.2 records against the default provider ---------------------- */

/* One TLS 1.2 record through OSSL_CIPHER_PARAM_AEAD_TLS1_AAD: `record`
 * holds the payload and room for the tag (sealing) or payload and tag
 * (opening), transformed in place as libssl does. Returns the output
 * length, or -1. */
static int tls_record(EVP_CIPHER *cipher, int encrypting, const unsigned char key[32],
                      const unsigned char fixed_iv[12], uint64_t sequence, unsigned char *record,
                      size_t record_length, int fixed_by_param) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  unsigned char header[13];
  for (int i = 0; i < 8; i++) header[i] = (unsigned char)(sequence >> (56 - 8 * i));
  header[8] = 23, header[9] = 3, header[10] = 3; /* application data, TLS 1.2 */
  header[11] = (unsigned char)(record_length >> 8), header[12] = (unsigned char)record_length;
  if (encrypting) /* the header's length is the payload's when sealing */
    header[11] = (unsigned char)((record_length - 16) >> 8), header[12] = (unsigned char)(record_length - 16);
  int length = -1;
  if (!ctx || !EVP_CipherInit_ex(ctx, cipher, NULL, key, fixed_by_param ? NULL : fixed_iv, encrypting))
    goto done;
  if (fixed_by_param && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IV_FIXED, 12, (void *)fixed_iv) <= 0)
    goto done;
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 13, header) != 16) goto done;
  if (!EVP_CipherUpdate(ctx, record, &length, record, (int)record_length)) length = -1;
done:
  EVP_CIPHER_CTX_free(ctx);
  return length;
}

static void check(int condition, const char *what) {
  if (!condition) {
    printf("FAIL %s\n", what);
    ERR_print_errors_fp(stdout);
    checks_failed++;
  }
}

static void run_tls_records(void) {
  EVP_CIPHER *crisp = EVP_CIPHER_fetch(libctx, "ChaCha20-Poly1305", "provider=crisp");
  EVP_CIPHER *peer = EVP_CIPHER_fetch(libctx, "ChaCha20-Poly1305", "provider=default");
  if (!crisp || !peer) {
    check(0, "TLS: ChaCha20-Poly1305 from both providers");
    goto done;
  }
  unsigned char key[32], fixed_iv[12], a[2000], b[2000];
  for (int i = 0; i < 32; i++) key[i] = (unsigned char)(i * 7 + 1);
  for (int i = 0; i < 12; i++) fixed_iv[i] = (unsigned char)(0xa0 + i);
  static const size_t payloads[] = {0, 1, 16, 63, 64, 65, 1000, 1984};
  for (size_t p = 0; p < sizeof payloads / sizeof payloads[0]; p++)
    for (int by_param = 0; by_param < 2; by_param++) {
      const size_t payload = payloads[p], record = payload + 16;
      const uint64_t sequence = 0x0102030405060708ull + p;
      for (size_t i = 0; i < payload; i++) a[i] = b[i] = (unsigned char)(i * 13 + p);
      char what[128];
      snprintf(what, sizeof what, "TLS record of %zu bytes%s", payload,
               by_param ? " (fixed IV by param)" : "");
      /* crisp and OpenSSL seal alike; each opens the other's record. */
      int sealed_a = tls_record(crisp, 1, key, fixed_iv, sequence, a, record, by_param);
      int sealed_b = tls_record(peer, 1, key, fixed_iv, sequence, b, record, by_param);
      check(sealed_a == (int)record && sealed_b == (int)record && memcmp(a, b, record) == 0, what);
      int opened_a = tls_record(peer, 0, key, fixed_iv, sequence, a, record, by_param);
      int opened_b = tls_record(crisp, 0, key, fixed_iv, sequence, b, record, by_param);
      check(opened_a == (int)payload && opened_b == (int)payload && memcmp(a, b, payload) == 0, what);
      /* A forged record: crisp refuses it and writes nothing. */
      tls_record(crisp, 1, key, fixed_iv, sequence, b, record, by_param);
      b[record - 1] ^= 1;
      memcpy(a, b, record);
      check(
          tls_record(crisp, 0, key, fixed_iv, sequence, b, record, by_param) < 0 && memcmp(a, b, record) == 0,
          "TLS: a forged record is refused and releases nothing");
      ERR_clear_error();
    }
done:
  EVP_CIPHER_free(crisp);
  EVP_CIPHER_free(peer);
}

/* ---- long messages against the default provider ------------------------ */

static uint64_t random_state = 0x9e3779b97f4a7c15ull;

static uint32_t random_below(uint32_t bound) {
  random_state ^= random_state << 13, random_state ^= random_state >> 7, random_state ^= random_state << 17;
  return (uint32_t)(random_state % bound);
}

/* Runs `cipher` over in[0..length) in random pieces (associated data
 * first, for the AEAD); the tag, when wanted, into tag. */
static int cipher_random_pieces(EVP_CIPHER *cipher, const unsigned char *key, const unsigned char *iv,
                                const unsigned char *aad, size_t aad_length, const unsigned char *in,
                                size_t length, unsigned char *out, unsigned char *tag) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  int ok = ctx && EVP_EncryptInit_ex2(ctx, cipher, key, iv, NULL), n;
  if (ok && aad_length) ok = EVP_EncryptUpdate(ctx, NULL, &n, aad, (int)aad_length);
  for (size_t done = 0; ok && done < length;) {
    size_t piece = 1 + random_below(random_below(2) ? 70 : 5000);
    if (piece > length - done) piece = length - done;
    ok = EVP_EncryptUpdate(ctx, out + done, &n, in + done, (int)piece) && n == (int)piece;
    done += piece;
  }
  ok = ok && EVP_EncryptFinal_ex(ctx, out + length, &n);
  if (ok && tag) ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0;
  EVP_CIPHER_CTX_free(ctx);
  return ok;
}

/* Random lengths up to 20 KiB, long enough for every vector kernel, in
 * random pieces: crisp's output against the default provider's. */
static void run_long_messages(void) {
  enum { MAX_LENGTH = 20000, ROUNDS = 60 };
  static unsigned char in[MAX_LENGTH], mine[MAX_LENGTH + 16], theirs[MAX_LENGTH + 16];
  unsigned char key[32], iv[16], tag_mine[16], tag_theirs[16];
  EVP_MD *md[2] = {EVP_MD_fetch(libctx, "MD5", "provider=crisp"),
                   EVP_MD_fetch(libctx, "MD5", "provider=default")};
  EVP_MAC *mac[2] = {EVP_MAC_fetch(libctx, "POLY1305", "provider=crisp"),
                     EVP_MAC_fetch(libctx, "POLY1305", "provider=default")};
  EVP_CIPHER *chacha20[2] = {EVP_CIPHER_fetch(libctx, "ChaCha20", "provider=crisp"),
                             EVP_CIPHER_fetch(libctx, "ChaCha20", "provider=default")};
  EVP_CIPHER *aead[2] = {EVP_CIPHER_fetch(libctx, "ChaCha20-Poly1305", "provider=crisp"),
                         EVP_CIPHER_fetch(libctx, "ChaCha20-Poly1305", "provider=default")};
  int failures = 0;
  for (int round = 0; round < ROUNDS; round++) {
    const size_t length = random_below(MAX_LENGTH + 1), aad_length = random_below(300);
    for (size_t i = 0; i < length; i++) in[i] = (unsigned char)random_below(256);
    for (int i = 0; i < 32; i++) key[i] = (unsigned char)random_below(256);
    for (int i = 0; i < 16; i++) iv[i] = (unsigned char)random_below(256);
    if (round % 4 == 0) iv[0] = iv[1] = iv[2] = iv[3] = 0xff; /* counter wraps into the nonce */
    unsigned int size[2];
    size_t mac_size[2];
    unsigned char digest[2][16];
    EVP_MAC_CTX *mac_ctx[2];
    int ok = 1;
    for (int p = 0; p < 2; p++) {
      ok &= EVP_Digest(in, length, digest[p], &size[p], md[p], NULL);
      mac_ctx[p] = EVP_MAC_CTX_new(mac[p]);
      ok &= mac_ctx[p] && EVP_MAC_init(mac_ctx[p], key, 32, NULL) &&
            EVP_MAC_update(mac_ctx[p], in, length / 3) &&
            EVP_MAC_update(mac_ctx[p], in + length / 3, length - length / 3) &&
            EVP_MAC_final(mac_ctx[p], p ? tag_theirs : tag_mine, &mac_size[p], 16);
      EVP_MAC_CTX_free(mac_ctx[p]);
    }
    ok &= memcmp(digest[0], digest[1], 16) == 0 && memcmp(tag_mine, tag_theirs, 16) == 0;
    ok &= cipher_random_pieces(chacha20[0], key, iv, NULL, 0, in, length, mine, NULL) &&
          cipher_random_pieces(chacha20[1], key, iv, NULL, 0, in, length, theirs, NULL) &&
          memcmp(mine, theirs, length) == 0;
    ok &= cipher_random_pieces(aead[0], key, iv + 4, in, aad_length, in, length, mine, tag_mine) &&
          cipher_random_pieces(aead[1], key, iv + 4, in, aad_length, in, length, theirs, tag_theirs) &&
          memcmp(mine, theirs, length) == 0 && memcmp(tag_mine, tag_theirs, 16) == 0;
    if (!ok && failures++ < 5)
      printf("FAIL long message %d: %zu bytes, %zu of associated data\n", round, length, aad_length);
  }
  check(failures == 0, "long messages: crisp against the default provider");
  for (int p = 0; p < 2; p++)
    EVP_MD_free(md[p]), EVP_MAC_free(mac[p]), EVP_CIPHER_free(chacha20[p]), EVP_CIPHER_free(aead[p]);
}

/* ---- misuse ------------------------------------------------------------ */

/* Expects `succeeded` false and an error on the queue: libcrypto's own,
 * for the few checks EVP makes before it calls the provider. */
static void expect_refused_by_evp(int succeeded, const char *what) {
  const unsigned long error = ERR_peek_last_error();
  if (succeeded || !error) {
    printf("FAIL misuse: %s: %s\n", what, succeeded ? "succeeded" : "no error on the queue");
    checks_failed++;
  } else {
    printf("  misuse refused: %-48s (by libcrypto: %s)\n", what, ERR_reason_error_string(error));
  }
  ERR_clear_error();
}

/* Expects `succeeded` false and a crisp reason on the error queue. */
static void expect_refused(int succeeded, const char *what) {
  const char *crisp_reason = NULL;
  unsigned long error;
  while ((error = ERR_get_error()) != 0) {
    const char *reason = ERR_reason_error_string(error);
    if (reason && strncmp(reason, "crisp: ", 7) == 0 && !crisp_reason) crisp_reason = reason;
  }
  if (succeeded || !crisp_reason) {
    printf("FAIL misuse: %s: %s\n", what, succeeded ? "succeeded" : "no crisp reason on the error queue");
    checks_failed++;
  } else {
    printf("  misuse refused: %-48s (%s)\n", what, crisp_reason);
  }
}

static void run_misuse(void) {
  EVP_CIPHER *aead = EVP_CIPHER_fetch(libctx, "ChaCha20-Poly1305", "provider=crisp");
  EVP_CIPHER *chacha20 = EVP_CIPHER_fetch(libctx, "ChaCha20", "provider=crisp");
  EVP_MAC *mac = EVP_MAC_fetch(libctx, "POLY1305", "provider=crisp");
  EVP_MD *md = EVP_MD_fetch(libctx, "MD5", "provider=crisp");
  if (!aead || !chacha20 || !mac || !md) {
    check(0, "misuse: fetch");
    goto done;
  }
  unsigned char key[32] = {1}, iv[16] = {2}, data[100] = {3}, out[200], tag[16];
  int length;
  size_t size;
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

  /* Wrong lengths. */
  EVP_EncryptInit_ex2(ctx, aead, NULL, NULL, NULL);
  expect_refused(EVP_CIPHER_CTX_set_key_length(ctx, 16) > 0, "ChaCha20-Poly1305 16-byte key");
  expect_refused(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 8, NULL) > 0,
                 "ChaCha20-Poly1305 8-byte IV");
  expect_refused(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 16, NULL) > 0,
                 "ChaCha20-Poly1305 16-byte IV");
  EVP_EncryptInit_ex2(ctx, chacha20, NULL, NULL, NULL);
  expect_refused(EVP_CIPHER_CTX_set_key_length(ctx, 31) > 0, "ChaCha20 31-byte key");
  {
    size_t twelve = 12;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &twelve),
                           OSSL_PARAM_construct_end()};
    expect_refused(EVP_CIPHER_CTX_set_params(ctx, params), "ChaCha20 12-byte IV");
  }
  expect_refused(EVP_EncryptUpdate(ctx, out, &length, data, 10), "ChaCha20 update without key or IV");
  /* Reuse after final. */
  check(EVP_EncryptInit_ex2(ctx, chacha20, key, iv, NULL) && EVP_EncryptUpdate(ctx, out, &length, data, 10) &&
            EVP_EncryptFinal_ex(ctx, out + 10, &length),
        "misuse: ChaCha20 message");
  expect_refused(EVP_EncryptUpdate(ctx, out, &length, data, 10), "ChaCha20 update after final");

  /* A forged tag: final fails, with the tag mismatch reason. */
  EVP_EncryptInit_ex2(ctx, aead, key, iv, NULL);
  check(EVP_EncryptUpdate(ctx, out, &length, data, sizeof data) &&
            EVP_EncryptFinal_ex(ctx, out + 100, &length) &&
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0,
        "misuse: seal");
  /* Reuse after final. */
  expect_refused(EVP_EncryptUpdate(ctx, out, &length, data, sizeof data),
                 "ChaCha20-Poly1305 update after final");
  expect_refused(EVP_EncryptFinal_ex(ctx, out, &length), "ChaCha20-Poly1305 final after final");
  tag[5] ^= 0x40;
  EVP_DecryptInit_ex2(ctx, aead, key, iv, NULL);
  check(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0, "misuse: set tag");
  check(EVP_DecryptUpdate(ctx, out + 100, &length, out, sizeof data), "misuse: open update");
  expect_refused(EVP_DecryptFinal_ex(ctx, out, &length) > 0, "ChaCha20-Poly1305 forged tag");
  EVP_DecryptInit_ex2(ctx, aead, key, iv, NULL);
  expect_refused(EVP_DecryptFinal_ex(ctx, out, &length) > 0, "ChaCha20-Poly1305 open without a tag");
  expect_refused(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0,
                 "ChaCha20-Poly1305 get tag opening");
  expect_refused(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 17, tag) > 0,
                 "ChaCha20-Poly1305 17-byte tag");
  /* Only whole tags are verified: a truncated one is refused, and the
   * open then has no tag to check against. */
  static const int short_tags[] = {1, 8, 15};
  for (int i = 0; i < 3; i++) {
    char what[64];
    snprintf(what, sizeof what, "ChaCha20-Poly1305 %d-byte tag", short_tags[i]);
    EVP_DecryptInit_ex2(ctx, aead, key, iv, NULL);
    expect_refused(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, short_tags[i], tag) > 0, what);
    check(EVP_DecryptUpdate(ctx, out + 100, &length, out, sizeof data), "misuse: open update");
    snprintf(what, sizeof what, "ChaCha20-Poly1305 open after a %d-byte tag", short_tags[i]);
    expect_refused(EVP_DecryptFinal_ex(ctx, out, &length) > 0, what);
  }
  expect_refused(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 12, data) > 0,
                 "ChaCha20-Poly1305 12-byte TLS AAD");
  EVP_EncryptInit_ex2(ctx, aead, key, iv, NULL);
  expect_refused(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0,
                 "ChaCha20-Poly1305 tag given to seal");
  check(EVP_EncryptUpdate(ctx, out, &length, data, 5), "misuse: seal update");
  expect_refused(EVP_EncryptUpdate(ctx, NULL, &length, data, 5) > 0,
                 "ChaCha20-Poly1305 AAD after the message");
  /* NULL and zero lengths: accepted, and the empty message seals. */
  EVP_EncryptInit_ex2(ctx, aead, key, iv, NULL);
  check(EVP_EncryptUpdate(ctx, out, &length, data, 0) && EVP_EncryptUpdate(ctx, NULL, &length, NULL, 0) &&
            EVP_EncryptFinal_ex(ctx, out, &length) &&
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0,
        "misuse: empty message seals");
  EVP_CIPHER_CTX_free(ctx);

  /* Poly1305: key lengths, a key used twice, update after final. */
  EVP_MAC_CTX *mac_ctx = EVP_MAC_CTX_new(mac);
  expect_refused(EVP_MAC_init(mac_ctx, key, 16, NULL), "Poly1305 16-byte key");
  expect_refused(EVP_MAC_update(mac_ctx, data, 10), "Poly1305 update without a key");
  check(EVP_MAC_init(mac_ctx, key, 32, NULL) && EVP_MAC_update(mac_ctx, NULL, 0) &&
            EVP_MAC_update(mac_ctx, data, 10) && EVP_MAC_final(mac_ctx, tag, &size, 16),
        "misuse: Poly1305 message");
  expect_refused(EVP_MAC_update(mac_ctx, data, 10), "Poly1305 update after final");
  expect_refused(EVP_MAC_init(mac_ctx, NULL, 0, NULL), "Poly1305 key used again");
  check(EVP_MAC_init(mac_ctx, key, 32, NULL) && EVP_MAC_update(mac_ctx, data, 10), "misuse: Poly1305 update");
  expect_refused(EVP_MAC_init(mac_ctx, NULL, 0, NULL), "Poly1305 init without a key after data");
  check(EVP_MAC_init(mac_ctx, key, 32, NULL), "misuse: Poly1305 fresh key");
  expect_refused_by_evp(EVP_MAC_final(mac_ctx, tag, &size, 15), "Poly1305 15-byte output");
  EVP_MAC_CTX_free(mac_ctx);

  /* MD5: update and final after final, NULL data with a length. */
  EVP_MD_CTX *md_ctx = EVP_MD_CTX_new();
  unsigned int digest_length;
  check(EVP_DigestInit_ex(md_ctx, md, NULL) && EVP_DigestUpdate(md_ctx, NULL, 0) &&
            EVP_DigestFinal_ex(md_ctx, out, &digest_length) && digest_length == 16 &&
            memcmp(out, "\xd4\x1d\x8c\xd9\x8f\x00\xb2\x04\xe9\x80\x09\x98\xec\xf8\x42\x7e", 16) == 0,
        "misuse: MD5 of nothing, NULL data");
  expect_refused(EVP_DigestUpdate(md_ctx, data, 10), "MD5 update after final");
  expect_refused(EVP_DigestFinal_ex(md_ctx, out, &digest_length), "MD5 final after final");
  check(EVP_DigestInit_ex(md_ctx, md, NULL), "misuse: MD5 init");
  expect_refused(EVP_DigestUpdate(md_ctx, NULL, 10), "MD5 NULL data with a length");
  EVP_MD_CTX_free(md_ctx);

  /* A context moved between providers: crisp's cipher after the default
   * provider's in one EVP context, and back, gives the same bytes. */
  EVP_CIPHER *peer = EVP_CIPHER_fetch(libctx, "ChaCha20", "provider=default");
  unsigned char mine[100], theirs[100];
  ctx = EVP_CIPHER_CTX_new();
  check(peer && EVP_EncryptInit_ex2(ctx, peer, key, iv, NULL) &&
            EVP_EncryptUpdate(ctx, theirs, &length, data, 100) &&
            EVP_EncryptInit_ex2(ctx, chacha20, key, iv, NULL) &&
            EVP_EncryptUpdate(ctx, mine, &length, data, 100) && memcmp(mine, theirs, 100) == 0,
        "misuse: one context, the default provider's ChaCha20 then crisp's");
  EVP_CIPHER_CTX_free(ctx);

  /* The same calls on crisp's and the default provider's ciphers give the
   * same bytes: a new key without a new IV in the middle of a block (the
   * old key's keystream must not be used), the original IV read back after
   * data, and associated data after an empty update of the message. */
  EVP_CIPHER *peer_aead = EVP_CIPHER_fetch(libctx, "ChaCha20-Poly1305", "provider=default");
  EVP_CIPHER *const ciphers[2][2] = {{chacha20, peer}, {aead, peer_aead}};
  unsigned char rekeyed[2][30], original_iv[2][16], sealed[2][40], tags[2][16], key2[32] = {9};
  int same = peer_aead != NULL;
  for (int side = 0; same && side < 2; side++) {
    ctx = EVP_CIPHER_CTX_new();
    OSSL_PARAM get_iv[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_IV, original_iv[side], 16),
                           OSSL_PARAM_construct_end()};
    same = ctx && EVP_EncryptInit_ex2(ctx, ciphers[0][side], key, iv, NULL) &&
           EVP_EncryptUpdate(ctx, rekeyed[side], &length, data, 10) &&
           EVP_EncryptInit_ex2(ctx, NULL, key2, NULL, NULL) &&
           EVP_EncryptUpdate(ctx, rekeyed[side] + 10, &length, data, 20) &&
           EVP_CIPHER_CTX_get_params(ctx, get_iv);
    same = same && EVP_EncryptInit_ex2(ctx, ciphers[1][side], key, iv, NULL) &&
           EVP_EncryptUpdate(ctx, NULL, &length, data, 7) &&
           EVP_EncryptUpdate(ctx, sealed[side], &length, data, 0) &&
           EVP_EncryptUpdate(ctx, NULL, &length, data + 7, 13) &&
           EVP_EncryptUpdate(ctx, sealed[side], &length, data, 40) &&
           EVP_EncryptFinal_ex(ctx, out, &length) &&
           EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tags[side]) > 0;
    EVP_CIPHER_CTX_free(ctx);
  }
  check(same && memcmp(rekeyed[0], rekeyed[1], 30) == 0,
        "misuse: ChaCha20 given a new key mid-block continues as the default provider's");
  check(same && memcmp(original_iv[0], iv, 16) == 0,
        "misuse: ChaCha20's IV parameter is the IV given, after data");
  check(same && memcmp(sealed[0], sealed[1], 40) == 0 && memcmp(tags[0], tags[1], 16) == 0,
        "misuse: ChaCha20-Poly1305 takes associated data after an empty update, as the default provider");
  EVP_CIPHER_free(peer_aead);
  EVP_CIPHER_free(peer);
done:
  EVP_CIPHER_free(aead);
  EVP_CIPHER_free(chacha20);
  EVP_MAC_free(mac);
  EVP_MD_free(md);
  ERR_clear_error();
}

/* ---- the call counters ------------------------------------------------- */

static uint64_t calls(const char *name) {
  uint64_t value = 0;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_uint64(name, &value), OSSL_PARAM_construct_end()};
  if (!OSSL_PROVIDER_get_params(crisp_provider, params) || !OSSL_PARAM_modified(params)) {
    printf("FAIL provider parameter %s\n", name);
    checks_failed++;
  }
  return value;
}

static void run_counters(void) {
  static const char *const names[] = {"crisp.calls.md5", "crisp.calls.poly1305", "crisp.calls.chacha20",
                                      "crisp.calls.chacha20-poly1305"};
  uint64_t before[4], after[4];
  for (int i = 0; i < 4; i++) before[i] = calls(names[i]);
  unsigned char key[32] = {9}, iv[16] = {0}, data[64] = {0}, out[64 + 16];
  size_t size;
  int length;
  unsigned int digest_length;
  /* One MD5 message through crisp: the MD5 counter moves, no other. */
  EVP_MD *md = EVP_MD_fetch(libctx, "MD5", "provider=crisp");
  check(md && EVP_Digest(data, sizeof data, out, &digest_length, md, NULL), "counters: MD5");
  for (int i = 0; i < 4; i++) after[i] = calls(names[i]);
  check(after[0] > before[0] && after[1] == before[1] && after[2] == before[2] && after[3] == before[3],
        "counters: MD5 moves only crisp.calls.md5");
  /* The default provider's MD5 moves nothing. */
  EVP_MD *peer_md = EVP_MD_fetch(libctx, "MD5", "provider=default");
  check(peer_md && EVP_Digest(data, sizeof data, out, &digest_length, peer_md, NULL),
        "counters: default MD5");
  before[0] = calls(names[0]);
  check(before[0] == after[0], "counters: the default provider's MD5 leaves crisp.calls.md5 alone");
  EVP_MD_free(md);
  EVP_MD_free(peer_md);
  EVP_MAC *mac = EVP_MAC_fetch(libctx, "POLY1305", "provider=crisp");
  EVP_MAC_CTX *mac_ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
  check(mac_ctx && EVP_MAC_init(mac_ctx, key, 32, NULL) && EVP_MAC_update(mac_ctx, data, 64) &&
            EVP_MAC_final(mac_ctx, out, &size, 16),
        "counters: Poly1305");
  EVP_MAC_CTX_free(mac_ctx);
  EVP_MAC_free(mac);
  check(calls(names[1]) > after[1], "counters: Poly1305 moves crisp.calls.poly1305");
  EVP_CIPHER *cipher = EVP_CIPHER_fetch(libctx, "ChaCha20", "provider=crisp");
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  check(cipher && EVP_EncryptInit_ex2(ctx, cipher, key, iv, NULL) &&
            EVP_EncryptUpdate(ctx, out, &length, data, 64),
        "counters: ChaCha20");
  EVP_CIPHER_free(cipher);
  check(calls(names[2]) > after[2], "counters: ChaCha20 moves crisp.calls.chacha20");
  cipher = EVP_CIPHER_fetch(libctx, "ChaCha20-Poly1305", "provider=crisp");
  check(cipher && EVP_EncryptInit_ex2(ctx, cipher, key, iv, NULL) &&
            EVP_EncryptUpdate(ctx, out, &length, data, 64) && EVP_EncryptFinal_ex(ctx, out, &length),
        "counters: ChaCha20-Poly1305");
  EVP_CIPHER_free(cipher);
  EVP_CIPHER_CTX_free(ctx);
  check(calls(names[3]) > after[3], "counters: ChaCha20-Poly1305 moves crisp.calls.chacha20-poly1305");
  ERR_clear_error();
}

/* ---- main -------------------------------------------------------------- */

/* Which of crisp's implementations this run exercises (CRYPTO_FORCE picks
 * a level), as the provider reports them. */
static void print_implementations(void) {
  static const char *const names[] = {"crisp.level", "crisp.impl.md5", "crisp.impl.poly1305",
                                      "crisp.impl.chacha20"};
  printf("crisp");
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    const char *value = NULL;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_ptr(names[i], (char **)&value, 0),
                           OSSL_PARAM_construct_end()};
    printf(" %s=%s", names[i] + strlen("crisp."),
           OSSL_PROVIDER_get_params(crisp_provider, params) && value ? value : "?");
  }
  printf("\n");
}

static int report(const char *file, const tally *t) {
  printf("%-22s passed %3d  failed %d  skipped %d (algorithms crisp does not offer)  not tests %d\n", file,
         t->passed, t->failed, t->skipped, t->not_tests);
  return t->failed == 0 && t->passed > 0;
}

int main(int argc, char **argv) {
  const char *provider_dir = argc > 1 ? argv[1] : getenv("CRISP_PROVIDER_DIR");
  const char *vectors_dir = argc > 2 ? argv[2] : getenv("CRISP_EVP_VECTORS");
  if (!provider_dir || !vectors_dir) {
    fprintf(stderr, "usage: %s PROVIDER_DIR VECTORS_DIR\n", argv[0]);
    return 2;
  }
  libctx = OSSL_LIB_CTX_new();
  OSSL_PROVIDER *default_provider = NULL;
  if (!libctx || !OSSL_PROVIDER_set_default_search_path(libctx, provider_dir) ||
      !(crisp_provider = OSSL_PROVIDER_load(libctx, "crisp")) ||
      !(default_provider = OSSL_PROVIDER_load(libctx, "default"))) {
    printf("FAIL cannot load the crisp provider from %s\n", provider_dir);
    ERR_print_errors_fp(stdout);
    return 1;
  }
  print_implementations();
  tally digests = {0}, macs = {0}, ciphers = {0};
  run_digests(vectors_dir, &digests);
  run_macs(vectors_dir, &macs);
  run_ciphers(vectors_dir, &ciphers);
  run_tls_records();
  run_long_messages();
  run_misuse();
  run_counters();
  int ok = report("evpmd_md.txt", &digests);
  ok &= report("evpmac_poly1305.txt", &macs);
  ok &= report("evpciph_chacha.txt", &ciphers);
  printf("other checks failed: %d\n", checks_failed);
  OSSL_PROVIDER_unload(crisp_provider);
  OSSL_PROVIDER_unload(default_provider);
  OSSL_LIB_CTX_free(libctx);
  return ok && checks_failed == 0 ? 0 : 1;
}
