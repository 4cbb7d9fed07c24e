/* bench/evp_work.c - the per-message EVP calls the provider benchmarks
 * time (bench/evp_work.h): the same calls on every library context, so a
 * difference in speed is the provider's. Fetching and keying happen once in
 * setup, as a long-lived TLS connection or service does them. */
#include <limits.h>
#include <stdlib.h>

#include <openssl/core_names.h>
#include <openssl/rsa.h>

#include "evp_work.h"

enum { TAG_SIZE = 16, TLS_HEADER_SIZE = 13, SHA256_SIZE = 32 };

struct digest {
  EVP_MD *md;
  EVP_MD_CTX *context;
  evp_work_input input;
};

static void digest_teardown(void *opaque) {
  struct digest *state = opaque;
  if (!state) return;
  EVP_MD_CTX_free(state->context);
  EVP_MD_free(state->md);
  free(state);
}

static void *digest_setup(const evp_work_input *input) {
  struct digest *state = calloc(1, sizeof *state);
  if (!state) return NULL;
  state->input = *input;
  state->md = EVP_MD_fetch(input->libctx, "MD5", input->properties);
  state->context = EVP_MD_CTX_new();
  if (state->md && state->context) return state;
  digest_teardown(state);
  return NULL;
}

static int digest_run(void *opaque, size_t iterations) {
  struct digest *state = opaque;
  unsigned char digest[EVP_MAX_MD_SIZE];
  int ok = 1;
  for (size_t i = 0; ok && i < iterations; i++)
    ok = EVP_DigestInit_ex2(state->context, state->md, NULL) &&
         EVP_DigestUpdate(state->context, state->input.message, state->input.size) &&
         EVP_DigestFinal_ex(state->context, digest, NULL);
  return ok;
}

const evp_work evp_work_md5 = {digest_setup, digest_run, digest_teardown};

struct mac {
  EVP_MAC *mac;
  EVP_MAC_CTX *context;
  evp_work_input input;
};

static void mac_teardown(void *opaque) {
  struct mac *state = opaque;
  if (!state) return;
  EVP_MAC_CTX_free(state->context);
  EVP_MAC_free(state->mac);
  free(state);
}

static void *mac_setup(const evp_work_input *input) {
  struct mac *state = calloc(1, sizeof *state);
  if (!state) return NULL;
  state->input = *input;
  state->mac = EVP_MAC_fetch(input->libctx, "POLY1305", input->properties);
  state->context = state->mac ? EVP_MAC_CTX_new(state->mac) : NULL;
  if (state->context) return state;
  mac_teardown(state);
  return NULL;
}

/* Poly1305's key is one-time: every message is keyed again. */
static int mac_run(void *opaque, size_t iterations) {
  struct mac *state = opaque;
  unsigned char tag[TAG_SIZE];
  size_t tag_length;
  int ok = 1;
  for (size_t i = 0; ok && i < iterations; i++)
    ok = EVP_MAC_init(state->context, state->input.key, 32, NULL) &&
         EVP_MAC_update(state->context, state->input.message, state->input.size) &&
         EVP_MAC_final(state->context, tag, &tag_length, sizeof tag);
  return ok;
}

const evp_work evp_work_poly1305 = {mac_setup, mac_run, mac_teardown};

struct seal {
  EVP_CIPHER *cipher;
  EVP_CIPHER_CTX *context;
  unsigned char *output; /* size + TAG_SIZE bytes */
  evp_work_input input;
};

static const unsigned char record_nonce[12] = {1};
/* A TLS 1.2 record's additional data: sequence number, type, version, length. */
static const unsigned char record_header[TLS_HEADER_SIZE] = {0, 0, 0, 0, 0, 0, 0, 1, 23, 3, 3};

static void seal_teardown(void *opaque) {
  struct seal *state = opaque;
  if (!state) return;
  EVP_CIPHER_CTX_free(state->context);
  EVP_CIPHER_free(state->cipher);
  free(state->output);
  free(state);
}

static void *seal_setup(const evp_work_input *input) {
  struct seal *state = calloc(1, sizeof *state);
  if (!state) return NULL;
  state->input = *input;
  state->cipher = EVP_CIPHER_fetch(input->libctx, "ChaCha20-Poly1305", input->properties);
  state->context = EVP_CIPHER_CTX_new();
  state->output = malloc(input->size + TAG_SIZE);
  if (state->cipher && state->context && state->output && input->size <= (size_t)INT_MAX - TAG_SIZE &&
      EVP_EncryptInit_ex2(state->context, state->cipher, input->key, record_nonce, NULL))
    return state;
  seal_teardown(state);
  return NULL;
}

static int seal_run(void *opaque, size_t iterations) {
  struct seal *state = opaque;
  unsigned char tag[TAG_SIZE];
  int length, final_length;
  int ok = 1;
  for (size_t i = 0; ok && i < iterations; i++)
    ok = EVP_EncryptInit_ex2(state->context, NULL, NULL, record_nonce, NULL) &&
         EVP_EncryptUpdate(state->context, NULL, &length, record_header, TLS_HEADER_SIZE) &&
         EVP_EncryptUpdate(state->context, state->output, &length, state->input.message,
                           (int)state->input.size) &&
         EVP_EncryptFinal_ex(state->context, state->output + length, &final_length) &&
         EVP_CIPHER_CTX_ctrl(state->context, EVP_CTRL_AEAD_GET_TAG, TAG_SIZE, tag);
  return ok;
}

const evp_work evp_work_aead_seal = {seal_setup, seal_run, seal_teardown};

struct sign {
  EVP_PKEY_CTX *context;
  unsigned char *signature;
  size_t signature_size;
};

static void sign_teardown(void *opaque) {
  struct sign *state = opaque;
  if (!state) return;
  EVP_PKEY_CTX_free(state->context);
  free(state->signature);
  free(state);
}

static void *sign_setup(const evp_work_input *input) {
  struct sign *state = input->rsa ? calloc(1, sizeof *state) : NULL;
  if (!state) return NULL;
  state->context = EVP_PKEY_CTX_new_from_pkey(input->libctx, input->rsa, input->properties);
  state->signature_size = (size_t)EVP_PKEY_get_size(input->rsa);
  state->signature = malloc(state->signature_size);
  if (state->context && state->signature && EVP_PKEY_sign_init(state->context) > 0 &&
      EVP_PKEY_CTX_set_rsa_padding(state->context, RSA_PKCS1_PADDING) > 0 &&
      EVP_PKEY_CTX_set_signature_md(state->context, EVP_sha256()) > 0)
    return state;
  sign_teardown(state);
  return NULL;
}

/* The digest signed: its value does not steer the private operation. */
static const unsigned char message_digest[SHA256_SIZE] = {42};

static int sign_run(void *opaque, size_t iterations) {
  struct sign *state = opaque;
  int ok = 1;
  for (size_t i = 0; ok && i < iterations; i++) {
    size_t length = state->signature_size;
    ok = EVP_PKEY_sign(state->context, state->signature, &length, message_digest, sizeof message_digest) > 0;
  }
  return ok;
}

const evp_work evp_work_rsa_sign = {sign_setup, sign_run, sign_teardown};
