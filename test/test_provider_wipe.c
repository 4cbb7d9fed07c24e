/* test/test_provider_wipe.c - the provider wipes what it frees. Every
 * block crisp.so allocates goes through OpenSSL's allocator, so this
 * program installs its own (CRYPTO_set_mem_functions, before anything is
 * allocated): each block remembers the source file that asked for it, and
 * a block from provider/ must be all zeros when it reaches free. Then
 * every context type the provider has is driven through EVP with
 * "provider=crisp" and freed in the states that hold secrets: mid-message,
 * after final, duplicated, with associated data or a tag held, an RSA key
 * imported, duplicated, generated, signing on either private path and
 * failing its fault check.
 *
 * The test cannot pass by checking nothing: each phase must free a minimum
 * number of blocks from each file it exercises, no block a phase allocated
 * may be left unfreed (unchecked), and before freeing, the secrets the test
 * fed in (keys, the MD5 message, associated data, tags, the RSA private
 * components as limbs and as bytes) must be found in the provider's live
 * blocks, which shows the scan sees them. A block freed with anything but
 * zeros fails, named with the file and line that allocated it and the
 * secrets it still holds, of those the test knows.
 *
 * Not seen here: crisp's kernels, linked into crisp.so, take their bignum
 * scratch from malloc and wipe it themselves (crisp_wipe);
 * test_provider_scratch.c checks those blocks.
 * Usage: test_provider_wipe PROVIDER_DIR */
#define _GNU_SOURCE /* memmem */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/provider.h>

#include "provider_test_key.h"

#include "memcheck_optional.h"

#define CRISP_ONLY "provider=crisp"

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *default_provider, *crisp_provider;
static int failures;

/* ---- secrets the test fed in, to name what an unwiped block holds ------- */

enum { MAX_SECRETS = 32, MAX_SECRET_BYTES = 256, WINDOW = 8 };

typedef struct secret {
  char name[48];
  unsigned char bytes[MAX_SECRET_BYTES];
  size_t length;
} secret;

static secret secrets[MAX_SECRETS];
static int secret_count;

static const secret *add_secret(const char *name, const unsigned char *bytes, size_t length) {
  if (secret_count == MAX_SECRETS || length > MAX_SECRET_BYTES) {
    printf("FAIL: no room for the secret %s\n", name);
    failures++;
    return NULL;
  }
  secret *s = &secrets[secret_count++];
  snprintf(s->name, sizeof s->name, "%s", name);
  memcpy(s->bytes, bytes, length);
  s->length = length;
  return s;
}

/* 1 when data holds any WINDOW consecutive bytes of the secret (all of it
 * when shorter); windows of zeros say nothing and are skipped. */
static int holds(const unsigned char *data, size_t size, const secret *s) {
  static const unsigned char zeros[WINDOW];
  const size_t window = s->length < WINDOW ? s->length : WINDOW;
  for (size_t start = 0; start + window <= s->length; start++) {
    if (memcmp(s->bytes + start, zeros, window) == 0) continue;
    if (memmem(data, size, s->bytes + start, window)) return 1;
  }
  return 0;
}

/* The names of the secrets data holds, ", "-separated, into list. */
static void secrets_held(const unsigned char *data, size_t size, char *list, size_t list_size) {
  size_t used = 0;
  list[0] = '\0';
  for (int i = 0; i < secret_count && used < list_size; i++)
    if (holds(data, size, &secrets[i]))
      used += (size_t)snprintf(list + used, list_size - used, "%s%s", used ? ", " : "", secrets[i].name);
}

/* A copy of a provider block the test may read byte by byte: a context may
 * hold bytes nobody wrote (a struct's padding), which memcheck reports when
 * a comparison reads them; the block itself keeps memcheck's view. NULL
 * when out of memory. */
static unsigned char *readable_copy(const void *data, size_t size) {
  unsigned char *copy = malloc(size ? size : 1);
  if (!copy) return NULL;
  memcpy(copy, data, size);
  VALGRIND_MAKE_MEM_DEFINED(copy, size);
  return copy;
}

/* ---- the allocator -------------------------------------------------------- */

/* The provider's files: a block is the provider's when the file that called
 * OpenSSL's allocator is provider/NAME; one that is not listed counts as
 * "other". */
enum {
  MD5_FILE,
  POLY1305_FILE,
  CHACHA20_FILE,
  AEAD_FILE,
  KEYMGMT_FILE,
  SIGNATURE_FILE,
  PUBLIC_FILE,
  PADDING_FILE,
  KEY_FILE,
  CIPHER_PARAMS_FILE,
  PROVIDER_FILE,
  FILE_COUNT,
  OTHER_FILE = FILE_COUNT
};
static const char *const provider_files[FILE_COUNT] = {
    [MD5_FILE] = "md5.c",
    [POLY1305_FILE] = "poly1305.c",
    [CHACHA20_FILE] = "chacha20.c",
    [AEAD_FILE] = "chacha20poly1305.c",
    [KEYMGMT_FILE] = "rsa_keymgmt.c",
    [SIGNATURE_FILE] = "rsa_signature.c",
    [PUBLIC_FILE] = "rsa_public.c",
    [PADDING_FILE] = "rsa_padding.c",
    [KEY_FILE] = "rsa_key.c",
    [CIPHER_PARAMS_FILE] = "cipher_params.c",
    [PROVIDER_FILE] = "provider.c",
};

typedef struct block {
  struct block *previous, *next; /* the provider's live blocks */
  const char *file;
  int line;
  int owner; /* index in provider_files, OTHER_FILE, or -1: not the provider's */
  int phase; /* the phase that allocated it */
  size_t size;
} block;

/* The header before each block, a multiple of malloc's alignment. */
typedef union block_header {
  block block;
  max_align_t align;
} block_header;

static block live = {&live, &live, NULL, 0, -1, 0, 0};

typedef struct phase {
  const char *name;
  int number;
  unsigned checked[FILE_COUNT + 1]; /* blocks found wiped or not at free */
  unsigned unwiped;
} phase;

static phase setup_phase = {"load", 0, {0}, 0};
static phase *current = &setup_phase;

static int owner_of(const char *file) {
  if (!file) return -1;
  const char *base = strrchr(file, '/');
  if (!base) return -1;
  static const char directory[] = "provider";
  const size_t length = sizeof directory - 1;
  if ((size_t)(base - file) < length || memcmp(base - length, directory, length) != 0) return -1;
  if (base - file > (ptrdiff_t)length && base[-(ptrdiff_t)length - 1] != '/') return -1;
  for (int i = 0; i < FILE_COUNT; i++)
    if (strcmp(base + 1, provider_files[i]) == 0) return i;
  return OTHER_FILE;
}

static const char *file_name(int owner) {
  return owner == OTHER_FILE ? "other" : provider_files[owner];
}

/* A provider block at free: all zeros, or a failure naming it. */
static void check_freed(const block *b, const void *pointer) {
  current->checked[b->owner]++;
  unsigned char *data = readable_copy(pointer, b->size);
  if (!data) {
    printf("FAIL %s: out of memory to check a block\n", current->name);
    failures++;
    return;
  }
  size_t offset = 0;
  while (offset < b->size && data[offset] == 0) offset++;
  if (offset == b->size) {
    free(data);
    return;
  }
  current->unwiped++;
  failures++;
  char held[512];
  secrets_held(data, b->size, held, sizeof held);
  printf("FAIL %s: a %zu-byte block from %s:%d freed without a wipe (byte %zu is 0x%02x)%s%s\n",
         current->name, b->size, b->file, b->line, offset, data[offset], held[0] ? ", still holding: " : "",
         held);
  free(data);
}

static void *hook_malloc(size_t size, const char *file, int line) {
  block_header *header = malloc(sizeof *header + size);
  if (!header) return NULL;
  block *b = &header->block;
  *b = (block){NULL, NULL, file, line, owner_of(file), current->number, size};
  if (b->owner >= 0) {
    b->next = live.next;
    b->previous = &live;
    live.next->previous = b;
    live.next = b;
  }
  return header + 1;
}

static void hook_free(void *pointer, const char *file, int line) {
  (void)file, (void)line;
  if (!pointer) return;
  block_header *header = (block_header *)pointer - 1;
  block *b = &header->block;
  if (b->owner >= 0) {
    check_freed(b, pointer);
    b->previous->next = b->next;
    b->next->previous = b->previous;
  }
  free(header);
}

/* A move, so the old block is checked as freed: realloc does not wipe. */
static void *hook_realloc(void *pointer, size_t size, const char *file, int line) {
  if (!pointer) return hook_malloc(size, file, line);
  const block *old = &((block_header *)pointer - 1)->block;
  void *moved = hook_malloc(size, old->file, old->line);
  if (!moved) return NULL;
  memcpy(moved, pointer, old->size < size ? old->size : size);
  hook_free(pointer, file, line);
  return moved;
}

/* How many of the provider's live blocks hold the secret now. */
static int live_blocks_holding(const secret *s) {
  int found = 0;
  for (const block *b = live.next; b != &live; b = b->next) {
    unsigned char *data = readable_copy((const block_header *)b + 1, b->size);
    if (data) found += holds(data, b->size, s);
    free(data);
  }
  return found;
}

/* The positive control: fewer live blocks than `expected` holding the
 * secret fails (the secret never reached the provider, or the scan cannot
 * see it, and its absence at free would prove nothing). */
static void expect_held(const secret *s, int expected) {
  if (!s) return;
  const int found = live_blocks_holding(s);
  if (found < expected) {
    printf("FAIL %s: the %s is in %d live provider blocks before free, expected %d\n", current->name, s->name,
           found, expected);
    failures++;
  }
}

/* The negative: no live provider block holds the secret, for what must be
 * wiped while its context lives on (expect_held shows the scan sees it). */
static void expect_not_held(const secret *s, const char *when) {
  if (!s) return;
  const int found = live_blocks_holding(s);
  if (found) {
    printf("FAIL %s: the %s is still in %d live provider blocks %s\n", current->name, s->name, found, when);
    failures++;
  }
}

/* ---- checks ----------------------------------------------------------------- */

static int check(int condition, const char *what) {
  if (!condition) {
    printf("FAIL %s: %s\n", current->name, what);
    ERR_print_errors_fp(stdout);
    failures++;
  }
  return condition;
}

/* Deterministic bytes, a different run of them for each seed (xorshift). */
static void fill(unsigned char *bytes, size_t length, uint64_t seed) {
  uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (size_t i = 0; i < length; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    bytes[i] = (unsigned char)(x >> 24);
  }
}

/* ---- MD5 -------------------------------------------------------------------- */

static void md5_contexts(void) {
  unsigned char message[100], digest[EVP_MAX_MD_SIZE];
  unsigned int length;
  fill(message, sizeof message, 1);
  /* 100 bytes leave 36 in the context's block buffer. */
  const secret *held = add_secret("MD5 message", message, sizeof message);
  EVP_MD *md = EVP_MD_fetch(libctx, "MD5", CRISP_ONLY);
  EVP_MD_CTX *context = EVP_MD_CTX_new(), *copy = EVP_MD_CTX_new();
  if (check(md && context && copy, "fetch MD5") &&
      check(EVP_DigestInit_ex2(context, md, NULL) && EVP_DigestUpdate(context, message, sizeof message) &&
                EVP_MD_CTX_copy_ex(copy, context),
            "MD5 update, copy")) {
    expect_held(held, 2);
  }
  EVP_MD_CTX_free(context); /* mid-message, and its copy */
  EVP_MD_CTX_free(copy);
  context = EVP_MD_CTX_new();
  check(context && EVP_DigestInit_ex2(context, md, NULL) &&
            EVP_DigestUpdate(context, message, sizeof message) &&
            EVP_DigestFinal_ex(context, digest, &length),
        "MD5 to final");
  EVP_MD_CTX_free(context);
  EVP_MD_free(md);
}

/* ---- Poly1305 --------------------------------------------------------------- */

static EVP_MAC_CTX *poly1305_keyed(EVP_MAC *mac, const unsigned char *key, const unsigned char *message,
                                   size_t length) {
  EVP_MAC_CTX *context = EVP_MAC_CTX_new(mac);
  if (!check(context && EVP_MAC_init(context, key, 32, NULL) && EVP_MAC_update(context, message, length),
             "Poly1305 init, update")) {
    EVP_MAC_CTX_free(context);
    return NULL;
  }
  return context;
}

static void poly1305_contexts(void) {
  unsigned char key[32], message[300], tag[16];
  size_t length;
  fill(key, sizeof key, 2);
  fill(message, sizeof message, 3);
  const secret *held_key = add_secret("Poly1305 key", key, sizeof key);
  const secret *held_message = add_secret("Poly1305 message", message, 40);
  EVP_MAC *mac = EVP_MAC_fetch(libctx, "POLY1305", CRISP_ONLY);
  if (!check(mac != NULL, "fetch POLY1305")) return;
  /* A short message is held with the key; freed mid-message, and a copy. */
  EVP_MAC_CTX *context = poly1305_keyed(mac, key, message, 40);
  EVP_MAC_CTX *copy = context ? EVP_MAC_CTX_dup(context) : NULL;
  if (check(copy != NULL, "Poly1305 dup")) {
    expect_held(held_key, 2);
    expect_held(held_message, 2);
  }
  EVP_MAC_CTX_free(context);
  EVP_MAC_CTX_free(copy);
  /* A long message, on crisp's stream. */
  context = poly1305_keyed(mac, key, message, sizeof message);
  expect_held(held_key, 1);
  EVP_MAC_CTX_free(context);
  /* To final. */
  context = poly1305_keyed(mac, key, message, sizeof message);
  check(context && EVP_MAC_final(context, tag, &length, sizeof tag), "Poly1305 final");
  EVP_MAC_CTX_free(context);
  /* Key and held bytes are gone at final and at a new key, while the
   * context lives on. */
  context = poly1305_keyed(mac, key, message, 40);
  if (check(context && EVP_MAC_final(context, tag, &length, sizeof tag), "Poly1305 final, short message")) {
    expect_not_held(held_key, "after final");
    expect_not_held(held_message, "after final");
  }
  EVP_MAC_CTX_free(context);
  unsigned char other_key[32];
  fill(other_key, sizeof other_key, 9);
  context = poly1305_keyed(mac, key, message, 40);
  if (check(context && EVP_MAC_init(context, other_key, sizeof other_key, NULL), "Poly1305 new key")) {
    expect_not_held(held_key, "after a new key");
    expect_not_held(held_message, "after a new key");
  }
  EVP_MAC_CTX_free(context);
  /* The key by parameter, nothing authenticated. */
  context = EVP_MAC_CTX_new(mac);
  OSSL_PARAM params[] = {OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, key, sizeof key), OSSL_PARAM_END};
  if (check(context && EVP_MAC_CTX_set_params(context, params), "Poly1305 key parameter"))
    expect_held(held_key, 1);
  EVP_MAC_CTX_free(context);
  EVP_MAC_free(mac);
}

/* ---- ChaCha20 --------------------------------------------------------------- */

static void chacha20_contexts(void) {
  unsigned char key[32], iv[16] = {0}, plaintext[100], ciphertext[100], keystream[36];
  int length;
  fill(key, sizeof key, 4);
  fill(iv + 4, 12, 5);
  fill(plaintext, sizeof plaintext, 6);
  const secret *held_key = add_secret("ChaCha20 key", key, sizeof key);
  EVP_CIPHER *cipher = EVP_CIPHER_fetch(libctx, "ChaCha20", CRISP_ONLY);
  EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new(), *copy = EVP_CIPHER_CTX_new();
  /* 100 bytes leave the second block's keystream in the context, 36 bytes of
   * it spent. */
  if (check(cipher && context && copy, "fetch ChaCha20") &&
      check(EVP_EncryptInit_ex2(context, cipher, key, iv, NULL) &&
                EVP_EncryptUpdate(context, ciphertext, &length, plaintext, sizeof plaintext) &&
                EVP_CIPHER_CTX_copy(copy, context),
            "ChaCha20 update, copy")) {
    for (size_t i = 0; i < sizeof keystream; i++) keystream[i] = ciphertext[64 + i] ^ plaintext[64 + i];
    expect_held(held_key, 2);
    expect_held(add_secret("ChaCha20 keystream", keystream, sizeof keystream), 2);
  }
  EVP_CIPHER_CTX_free(context);
  EVP_CIPHER_CTX_free(copy);
  context = EVP_CIPHER_CTX_new();
  check(context && EVP_EncryptInit_ex2(context, cipher, key, iv, NULL) &&
            EVP_EncryptUpdate(context, ciphertext, &length, plaintext, sizeof plaintext) &&
            EVP_EncryptFinal_ex(context, ciphertext, &length),
        "ChaCha20 to final");
  EVP_CIPHER_CTX_free(context);
  EVP_CIPHER_free(cipher);
}

/* ---- ChaCha20-Poly1305 ------------------------------------------------------ */

enum { AAD_SIZE = 240, TLS_PAYLOAD = 64 };

static EVP_CIPHER_CTX *aead_started(EVP_CIPHER *cipher, int encrypting, const unsigned char *key,
                                    const unsigned char *nonce, const unsigned char *aad, size_t aad_length) {
  EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
  int length;
  if (!check(context && EVP_CipherInit_ex2(context, cipher, key, nonce, encrypting, NULL) &&
                 EVP_CipherUpdate(context, NULL, &length, aad, (int)aad_length),
             "ChaCha20-Poly1305 init, associated data")) {
    EVP_CIPHER_CTX_free(context);
    return NULL;
  }
  return context;
}

static void aead_contexts(void) {
  unsigned char key[32], nonce[12], aad[AAD_SIZE], plaintext[100], ciphertext[100], tag[16];
  unsigned char record[13 + TLS_PAYLOAD + 16];
  int length;
  fill(key, sizeof key, 7);
  fill(nonce, sizeof nonce, 8);
  fill(aad, sizeof aad, 9);
  fill(plaintext, sizeof plaintext, 10);
  const secret *held_key = add_secret("ChaCha20-Poly1305 key", key, sizeof key);
  const secret *held_aad = add_secret("ChaCha20-Poly1305 associated data", aad, sizeof aad), *held_tag = NULL;
  EVP_CIPHER *cipher = EVP_CIPHER_fetch(libctx, "ChaCha20-Poly1305", CRISP_ONLY);
  if (!check(cipher != NULL, "fetch ChaCha20-Poly1305")) return;
  /* Associated data held before the message; more of it grows the buffer
   * (the old one is freed); a copy; freed before the message starts. */
  EVP_CIPHER_CTX *context = aead_started(cipher, 1, key, nonce, aad, 40), *copy = EVP_CIPHER_CTX_new();
  if (context && check(copy && EVP_EncryptUpdate(context, NULL, &length, aad + 40, AAD_SIZE - 40) &&
                           EVP_CIPHER_CTX_copy(copy, context),
                       "ChaCha20-Poly1305 more associated data, copy")) {
    expect_held(held_key, 2);
    expect_held(held_aad, 2);
  }
  EVP_CIPHER_CTX_free(context);
  EVP_CIPHER_CTX_free(copy);
  /* Sealed to final, the tag read and held. */
  context = aead_started(cipher, 1, key, nonce, aad, 40);
  if (context && check(EVP_EncryptUpdate(context, ciphertext, &length, plaintext, sizeof plaintext) &&
                           EVP_EncryptFinal_ex(context, ciphertext, &length) &&
                           EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, sizeof tag, tag),
                       "ChaCha20-Poly1305 seal"))
    expect_held(held_tag = add_secret("ChaCha20-Poly1305 tag", tag, sizeof tag), 1);
  EVP_CIPHER_CTX_free(context);
  /* Opening: the tag given, part of the message, a copy; freed before final. */
  context = aead_started(cipher, 0, key, nonce, aad, 40);
  copy = EVP_CIPHER_CTX_new();
  unsigned char opened[100];
  if (context && held_tag &&
      check(copy && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, sizeof tag, tag) &&
                EVP_DecryptUpdate(context, opened, &length, ciphertext, 50) &&
                EVP_CIPHER_CTX_copy(copy, context),
            "ChaCha20-Poly1305 open, copy")) {
    expect_held(held_key, 2);
    expect_held(held_tag, 2);
  }
  EVP_CIPHER_CTX_free(context);
  EVP_CIPHER_CTX_free(copy);
  /* A TLS 1.2 record: fixed IV and header by parameter, one update. */
  unsigned char header[13] = {0, 0, 0, 0, 0, 0, 0, 7, 23, 3, 3, 0, TLS_PAYLOAD};
  memcpy(record, plaintext, TLS_PAYLOAD);
  context = EVP_CIPHER_CTX_new();
  OSSL_PARAM fixed[] = {OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, nonce, sizeof nonce),
                        OSSL_PARAM_END};
  OSSL_PARAM tls_aad[] = {OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, header, sizeof header),
                          OSSL_PARAM_END};
  check(context && EVP_EncryptInit_ex2(context, cipher, key, NULL, fixed) &&
            EVP_CIPHER_CTX_set_params(context, tls_aad) &&
            EVP_EncryptUpdate(context, record, &length, record, TLS_PAYLOAD + 16) &&
            length == TLS_PAYLOAD + 16,
        "ChaCha20-Poly1305 TLS 1.2 record");
  expect_held(held_key, 1);
  EVP_CIPHER_CTX_free(context);
  EVP_CIPHER_free(cipher);
}

/* ---- RSA -------------------------------------------------------------------- */

static const char *const rsa_names[] = {
    OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,
    OSSL_PKEY_PARAM_RSA_D,         OSSL_PKEY_PARAM_RSA_FACTOR1,
    OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
    OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
};
enum { RSA_N, RSA_E, RSA_D, RSA_P, RSA_Q, RSA_DP, RSA_DQ, RSA_QINV, RSA_PARTS };
static const char *const rsa_labels[RSA_PARTS] = {"n", "e", "d", "p", "q", "dP", "dQ", "qInv"};
static BIGNUM *rsa_parts[RSA_PARTS];
/* The private parts as the provider's limbs (64-bit words in host order,
 * least significant first) and as big-endian bytes. */
static const secret *rsa_limbs[RSA_PARTS], *rsa_bytes[RSA_PARTS];

/* x as the provider holds it: 64-bit limbs in host order, least significant
 * first, `limbs` of them. */
static void limb_form(const BIGNUM *x, unsigned char *out, int limbs) {
  unsigned char little[MAX_SECRET_BYTES];
  BN_bn2lebinpad(x, little, 8 * limbs);
  for (int limb = 0; limb < limbs; limb++) {
    uint64_t word = 0;
    for (int j = 7; j >= 0; j--) word = word << 8 | little[8 * limb + j];
    memcpy(out + 8 * limb, &word, 8);
  }
}

static int rsa_load(void) {
  BIO *bio = BIO_new_mem_buf(provider_test_key_pem, -1);
  EVP_PKEY *key = bio ? PEM_read_bio_PrivateKey_ex(bio, NULL, NULL, NULL, libctx, "provider=default") : NULL;
  BIO_free(bio);
  int ok = check(key != NULL, "decode the RSA key");
  for (int i = 0; ok && i < RSA_PARTS; i++)
    ok = check(EVP_PKEY_get_bn_param(key, rsa_names[i], &rsa_parts[i]), rsa_names[i]);
  EVP_PKEY_free(key);
  for (int i = RSA_D; ok && i < RSA_PARTS; i++) {
    unsigned char bytes[MAX_SECRET_BYTES], limbs[MAX_SECRET_BYTES];
    const int length = BN_num_bytes(rsa_parts[i]), padded = (length + 7) / 8 * 8;
    BN_bn2bin(rsa_parts[i], bytes);
    limb_form(rsa_parts[i], limbs, padded / 8);
    char name[48];
    snprintf(name, sizeof name, "RSA %s (limbs)", rsa_labels[i]);
    rsa_limbs[i] = add_secret(name, limbs, (size_t)padded);
    snprintf(name, sizeof name, "RSA %s (bytes)", rsa_labels[i]);
    rsa_bytes[i] = add_secret(name, bytes, (size_t)length);
  }
  return ok;
}

/* The key imported into crisp's key manager: all of it, n e d only (signs
 * with d), with dP off by two (crisp's fault check refuses it), or n e and
 * d + 2 (the provider's own check of the d path refuses it). */
enum key_shape { WHOLE_KEY, D_ONLY_KEY, WRONG_DP_KEY, WRONG_D_KEY };

static EVP_PKEY *crisp_key(enum key_shape shape) {
  OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
  const int wrong = shape == WRONG_DP_KEY ? RSA_DP : shape == WRONG_D_KEY ? RSA_D : -1;
  BIGNUM *wrong_part = wrong >= 0 ? BN_dup(rsa_parts[wrong]) : NULL;
  int ok = builder && (wrong < 0 || (wrong_part && BN_add_word(wrong_part, 2)));
  const int parts = shape == D_ONLY_KEY || shape == WRONG_D_KEY ? RSA_P : RSA_PARTS;
  for (int i = 0; ok && i < parts; i++)
    ok = OSSL_PARAM_BLD_push_BN(builder, rsa_names[i], i == wrong ? wrong_part : rsa_parts[i]);
  OSSL_PARAM *params = ok ? OSSL_PARAM_BLD_to_param(builder) : NULL;
  EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(libctx, "RSA", CRISP_ONLY);
  EVP_PKEY *key = NULL;
  check(params && context && EVP_PKEY_fromdata_init(context) > 0 &&
            EVP_PKEY_fromdata(context, &key, EVP_PKEY_KEYPAIR, params) > 0,
        "import the RSA key into crisp");
  EVP_PKEY_CTX_free(context);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(builder);
  BN_clear_free(wrong_part);
  return key;
}

static void rsa_keys(void) {
  EVP_PKEY *key = crisp_key(WHOLE_KEY), *copy = key ? EVP_PKEY_dup(key) : NULL;
  if (check(copy != NULL, "EVP_PKEY_dup of a crisp key"))
    for (int i = RSA_D; i < RSA_PARTS; i++) expect_held(rsa_limbs[i], 2);
  EVP_PKEY *d_only = crisp_key(D_ONLY_KEY);
  expect_held(rsa_limbs[RSA_D], 3);
  EVP_PKEY_free(key);
  EVP_PKEY_free(copy);
  EVP_PKEY_free(d_only);
  /* Generated by the default provider for crisp and imported. */
  EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(libctx, "RSA", CRISP_ONLY);
  EVP_PKEY *generated = NULL;
  check(context && EVP_PKEY_keygen_init(context) > 0 && EVP_PKEY_CTX_set_rsa_keygen_bits(context, 512) > 0 &&
            EVP_PKEY_generate(context, &generated) > 0,
        "RSA key generation asked of crisp");
  EVP_PKEY_CTX_free(context);
  EVP_PKEY_free(generated);
}

enum { RSA_BYTES = 128, RSA_LIMBS = RSA_BYTES / 8 };

/* Signs a fixed SHA-256 hash with `padding` into signature[RSA_BYTES] and
 * verifies it with crisp; *duplicate, when given, receives a copy of the
 * signing context, made after init, that has signed too. */
static int rsa_sign(EVP_PKEY *key, int padding, EVP_PKEY_CTX **duplicate, unsigned char *signature) {
  unsigned char hash[32];
  size_t length = RSA_BYTES;
  fill(hash, sizeof hash, 11);
  EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_pkey(libctx, key, CRISP_ONLY);
  int ok = context && EVP_PKEY_sign_init(context) > 0 && EVP_PKEY_CTX_set_rsa_padding(context, padding) > 0 &&
           EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) > 0;
  if (ok && duplicate)
    ok = (*duplicate = EVP_PKEY_CTX_dup(context)) != NULL &&
         EVP_PKEY_sign(*duplicate, signature, &length, hash, sizeof hash) > 0;
  ok = ok && EVP_PKEY_sign(context, signature, &length, hash, sizeof hash) > 0;
  if (ok) {
    /* verified by crisp, the public operation on crisp's limbs */
    EVP_PKEY_CTX *verifier = EVP_PKEY_CTX_new_from_pkey(libctx, key, CRISP_ONLY);
    ok = verifier && EVP_PKEY_verify_init(verifier) > 0 &&
         EVP_PKEY_CTX_set_rsa_padding(verifier, padding) > 0 &&
         EVP_PKEY_CTX_set_signature_md(verifier, EVP_sha256()) > 0 &&
         EVP_PKEY_verify(verifier, signature, length, hash, sizeof hash) == 1;
    EVP_PKEY_CTX_free(verifier);
  }
  EVP_PKEY_CTX_free(context);
  return ok;
}

/* What the d path's refused result leaves for its check: s' R mod n in
 * Montgomery form, where s' = m^(d+2) mod n is the result of the key with
 * d + 2, m = s^e mod n the encoded message, R = 2^(64 limbs). */
static const secret *refused_result(const unsigned char *signature) {
  BIGNUM *s = BN_bin2bn(signature, RSA_BYTES, NULL), *m = BN_new(), *d = BN_dup(rsa_parts[RSA_D]);
  BN_CTX *bn = BN_CTX_new();
  unsigned char limbs[RSA_BYTES];
  const secret *result = NULL;
  if (s && m && d && bn && BN_add_word(d, 2) && BN_mod_exp(m, s, rsa_parts[RSA_E], rsa_parts[RSA_N], bn) &&
      BN_mod_exp(s, m, d, rsa_parts[RSA_N], bn) && BN_lshift(s, s, 64 * RSA_LIMBS) &&
      BN_mod(s, s, rsa_parts[RSA_N], bn)) {
    limb_form(s, limbs, RSA_LIMBS);
    result = add_secret("RSA result refused by the check", limbs, sizeof limbs);
  }
  check(result != NULL, "compute the refused result");
  BN_free(s), BN_free(m), BN_clear_free(d), BN_CTX_free(bn);
  return result;
}

static void rsa_signatures(void) {
  EVP_PKEY *key = crisp_key(WHOLE_KEY), *d_only = crisp_key(D_ONLY_KEY), *wrong_dp = crisp_key(WRONG_DP_KEY),
           *wrong_d = crisp_key(WRONG_D_KEY);
  EVP_PKEY_CTX *duplicate = NULL;
  unsigned char signature[RSA_BYTES];
  if (!key || !d_only || !wrong_dp || !wrong_d) goto done;
  check(rsa_sign(key, RSA_PKCS1_PADDING, &duplicate, signature), "PKCS#1 v1.5 signature on the CRT path");
  EVP_PKEY_CTX_free(duplicate);
  refused_result(signature);
  check(rsa_sign(key, RSA_PKCS1_PSS_PADDING, NULL, signature), "PSS signature on the CRT path");
  check(rsa_sign(d_only, RSA_PKCS1_PADDING, NULL, signature), "PKCS#1 v1.5 signature with d");
  check(!rsa_sign(wrong_dp, RSA_PKCS1_PADDING, NULL, signature),
        "a key with a wrong dP is refused by crisp's fault check");
  check(!rsa_sign(wrong_d, RSA_PKCS1_PADDING, NULL, signature),
        "a key with a wrong d is refused by its check");
  ERR_clear_error();
  /* A digest-sign over crisp's MD5, freed mid-message: the signature
   * context owns the MD5 context that holds the message's tail. */
  unsigned char message[100];
  fill(message, sizeof message, 12);
  const secret *held = add_secret("message signed with MD5", message, sizeof message);
  EVP_MD_CTX *signing = EVP_MD_CTX_new(), *copy = EVP_MD_CTX_new();
  char md5[] = "MD5", crisp_only[] = CRISP_ONLY;
  const OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, md5, 0),
      OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_PROPERTIES, crisp_only, 0), OSSL_PARAM_END};
  if (check(signing && copy &&
                EVP_DigestSignInit_ex(signing, NULL, md5, libctx, CRISP_ONLY, key, params) > 0 &&
                EVP_DigestSignUpdate(signing, message, sizeof message) && EVP_MD_CTX_copy_ex(copy, signing),
            "digest-sign with crisp's MD5: init, update, copy"))
    expect_held(held, 2);
  EVP_MD_CTX_free(signing);
  EVP_MD_CTX_free(copy);
done:
  EVP_PKEY_free(key);
  EVP_PKEY_free(d_only);
  EVP_PKEY_free(wrong_dp);
  EVP_PKEY_free(wrong_d);
}

/* The provider's own context goes at teardown, with the library context. */
static void unload(void) {
  OSSL_PROVIDER_unload(crisp_provider);
  OSSL_PROVIDER_unload(default_provider);
  OSSL_LIB_CTX_free(libctx);
}

/* ---- phases ----------------------------------------------------------------- */

typedef struct minimum {
  int file;
  unsigned blocks;
} minimum;

/* Runs body as a phase: afterwards, each listed file must have had at least
 * its minimum of blocks checked, and no provider block the phase allocated
 * may still be live. */
static void run_phase(const char *name, void (*body)(void), const minimum *minimums, size_t count) {
  static int number;
  phase state = {name, ++number, {0}, 0};
  current = &state;
  const int failures_before = failures;
  body();
  int unfreed = 0;
  for (const block *b = live.next; b != &live; b = b->next)
    if (b->phase == state.number) unfreed++;
  if (unfreed) {
    printf("FAIL %s: %d provider blocks it allocated are still live (never checked)\n", name, unfreed);
    failures++;
  }
  unsigned total = 0;
  char detail[256] = "";
  size_t used = 0;
  for (int i = 0; i <= FILE_COUNT; i++) {
    total += state.checked[i];
    if (state.checked[i] && used < sizeof detail)
      used += (size_t)snprintf(detail + used, sizeof detail - used, "%s%s %u", used ? ", " : "", file_name(i),
                               state.checked[i]);
  }
  for (size_t i = 0; i < count; i++)
    if (state.checked[minimums[i].file] < minimums[i].blocks) {
      printf("FAIL %s: %u blocks from %s checked at free, expected at least %u\n", name,
             state.checked[minimums[i].file], file_name(minimums[i].file), minimums[i].blocks);
      failures++;
    }
  printf("%s %s: %u provider blocks checked at free (%s), %u not wiped\n",
         failures == failures_before ? "ok" : "FAIL", name, total, detail, state.unwiped);
  current = &setup_phase;
}

#define PHASE(name, body, ...)                                             \
  do {                                                                     \
    static const minimum minimums[] = {__VA_ARGS__};                       \
    run_phase(name, body, minimums, sizeof minimums / sizeof minimums[0]); \
  } while (0)

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s PROVIDER_DIR\n", argv[0]);
    return 2;
  }
  /* Before anything allocates: OpenSSL refuses a change after that. */
  if (!CRYPTO_set_mem_functions(hook_malloc, hook_realloc, hook_free)) {
    printf("FAIL: CRYPTO_set_mem_functions refused (OpenSSL allocated before main)\n");
    return 1;
  }
  libctx = OSSL_LIB_CTX_new();
  default_provider = libctx ? OSSL_PROVIDER_load(libctx, "default") : NULL;
  if (!default_provider || !OSSL_PROVIDER_set_default_search_path(libctx, argv[1]) ||
      !(crisp_provider = OSSL_PROVIDER_load(libctx, "crisp"))) {
    ERR_print_errors_fp(stdout);
    printf("FAIL: cannot load the providers from %s\n", argv[1]);
    return 1;
  }
  /* Counts: every context and copy each phase frees, and the buffers it
   * grows, signs and imports with. */
  PHASE("MD5", md5_contexts, {MD5_FILE, 3});
  PHASE("Poly1305", poly1305_contexts, {POLY1305_FILE, 5});
  PHASE("ChaCha20", chacha20_contexts, {CHACHA20_FILE, 3});
  PHASE("ChaCha20-Poly1305", aead_contexts, {AEAD_FILE, 8});
  if (rsa_load()) {
    PHASE("RSA keys", rsa_keys, {KEYMGMT_FILE, 8});
    PHASE("RSA signatures", rsa_signatures, {KEYMGMT_FILE, 6}, {SIGNATURE_FILE, 8}, {PUBLIC_FILE, 2},
          {PADDING_FILE, 1}, {MD5_FILE, 2});
  }
  for (int i = 0; i < RSA_PARTS; i++) BN_clear_free(rsa_parts[i]);
  PHASE("unload", unload, {PROVIDER_FILE, 1});
  if (live.next != &live) {
    printf("FAIL: provider blocks still live after the provider was unloaded (never checked)\n");
    failures++;
  }
  printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
