/* bench/peers_openssl.c - OpenSSL 3 as a benchmark peer: MD5() and the EVP
 * digest, EVP_MAC POLY1305 keyed per message (like crisp's one-shot),
 * BN_mod_mul_montgomery and BN_mod_exp_mont_consttime (twice for
 * bn_mod_exp2), the raw RSA private operation through EVP, EVP ChaCha20
 * and ChaCha20-Poly1305. */
#define OPENSSL_SUPPRESS_DEPRECATED /* MD5() is the fastest OpenSSL path for short messages */
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/md5.h>
#include <openssl/rsa.h>
#include <stdlib.h>

#include "bench.h"
#include "openssl_keys.h"

static void run_md5(void *state, const bench_case *c, size_t iterations) {
  unsigned char digest[MD5_DIGEST_LENGTH];
  (void)state;
  for (size_t i = 0; i < iterations; i++) MD5(c->data, c->size, digest);
}

/* md5_many's peer: the same messages one after another. */
static void run_md5_serial(void *state, const bench_case *c, size_t iterations) {
  unsigned char digest[MD5_DIGEST_LENGTH];
  (void)state;
  for (size_t i = 0; i < iterations; i++)
    for (size_t m = 0; m < c->messages; m++) MD5(c->message_pointers[m], c->message_lengths[m], digest);
}

struct evp_md5 {
  EVP_MD *md;
  EVP_MD_CTX *ctx;
};

static void teardown_evp_md5(void *opaque);

static void *setup_evp_md5(const bench_case *c) {
  (void)c;
  struct evp_md5 *state = calloc(1, sizeof *state);
  if (!state) return NULL;
  state->md = EVP_MD_fetch(NULL, "MD5", NULL);
  state->ctx = EVP_MD_CTX_new();
  if (state->md && state->ctx) return state;
  teardown_evp_md5(state);
  return NULL;
}

static void run_evp_md5(void *opaque, const bench_case *c, size_t iterations) {
  struct evp_md5 *state = opaque;
  unsigned char digest[EVP_MAX_MD_SIZE];
  for (size_t i = 0; i < iterations; i++) {
    EVP_DigestInit_ex(state->ctx, state->md, NULL);
    EVP_DigestUpdate(state->ctx, c->data, c->size);
    EVP_DigestFinal_ex(state->ctx, digest, NULL);
  }
}

static void teardown_evp_md5(void *opaque) {
  struct evp_md5 *state = opaque;
  EVP_MD_CTX_free(state->ctx);
  EVP_MD_free(state->md);
  free(state);
}

struct mac {
  EVP_MAC *mac;
  EVP_MAC_CTX *ctx;
};

static void teardown_poly1305(void *opaque);

static void *setup_poly1305(const bench_case *c) {
  (void)c;
  struct mac *state = calloc(1, sizeof *state);
  if (!state) return NULL;
  state->mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
  state->ctx = state->mac ? EVP_MAC_CTX_new(state->mac) : NULL;
  if (state->ctx) return state;
  teardown_poly1305(state);
  return NULL;
}

static void run_poly1305(void *opaque, const bench_case *c, size_t iterations) {
  struct mac *state = opaque;
  unsigned char tag[16];
  size_t tag_length;
  for (size_t i = 0; i < iterations; i++) {
    EVP_MAC_init(state->ctx, c->key, sizeof c->key, NULL);
    if (!c->chunk) EVP_MAC_update(state->ctx, c->data, c->size);
    for (size_t done = 0; c->chunk && done < c->size; done += c->chunk)
      EVP_MAC_update(state->ctx, c->data + done, c->size - done < c->chunk ? c->size - done : c->chunk);
    EVP_MAC_final(state->ctx, tag, &tag_length, sizeof tag);
  }
}

static void teardown_poly1305(void *opaque) {
  struct mac *state = opaque;
  EVP_MAC_CTX_free(state->ctx);
  EVP_MAC_free(state->mac);
  free(state);
}

/* ChaCha20 and the AEAD through EVP as a TLS stack drives it: one context
 * per case holds the cipher and the key; each message sets only its nonce
 * (OpenSSL's cheapest per-message path). */
struct cipher {
  EVP_CIPHER_CTX *ctx, *aead;
  void *buffers; /* bench_aead_setup's */
};

static void teardown_cipher(void *opaque) {
  struct cipher *state = opaque;
  if (!state) return;
  EVP_CIPHER_CTX_free(state->ctx);
  EVP_CIPHER_CTX_free(state->aead);
  bench_aead_teardown(state->buffers);
  free(state);
}

static void *setup_cipher(const bench_case *c) {
  struct cipher *state = calloc(1, sizeof *state);
  if (!state) return NULL;
  static const unsigned char zero_iv[16];
  state->ctx = EVP_CIPHER_CTX_new();
  state->aead = EVP_CIPHER_CTX_new();
  state->buffers = bench_aead_setup(c);
  if (state->ctx && state->aead && state->buffers &&
      EVP_EncryptInit_ex(state->ctx, EVP_chacha20(), NULL, c->key, zero_iv) == 1 &&
      EVP_CipherInit_ex(state->aead, EVP_chacha20_poly1305(), NULL, c->key, zero_iv, 1) == 1)
    return state;
  teardown_cipher(state);
  return NULL;
}

static const unsigned char zero_nonce[12];
static const unsigned char counter_one_iv[16] = {1}; /* counter 1, then the zero nonce */

static void run_chacha20(void *opaque, const bench_case *c, size_t iterations) {
  struct cipher *state = opaque;
  int n;
  for (size_t i = 0; i < iterations; i++) {
    EVP_EncryptInit_ex(state->ctx, NULL, NULL, NULL, counter_one_iv);
    EVP_EncryptUpdate(state->ctx, bench_aead_out(state->buffers), &n, c->data, (int)c->size);
  }
}

static void run_aead_seal(void *opaque, const bench_case *c, size_t iterations) {
  struct cipher *state = opaque;
  unsigned char tag[16];
  int n;
  uint8_t *out = bench_aead_out(state->buffers);
  for (size_t i = 0; i < iterations; i++) {
    EVP_CipherInit_ex(state->aead, NULL, NULL, NULL, zero_nonce, 1);
    EVP_CipherUpdate(state->aead, out, &n, c->data, (int)c->size);
    EVP_CipherFinal_ex(state->aead, out + n, &n);
    EVP_CIPHER_CTX_ctrl(state->aead, EVP_CTRL_AEAD_GET_TAG, 16, tag);
  }
}

static void run_aead_open(void *opaque, const bench_case *c, size_t iterations) {
  struct cipher *state = opaque;
  int n;
  uint8_t *out = bench_aead_out(state->buffers);
  for (size_t i = 0; i < iterations; i++) {
    EVP_CipherInit_ex(state->aead, NULL, NULL, NULL, zero_nonce, 0);
    EVP_CipherUpdate(state->aead, out, &n, bench_aead_ct(state->buffers), (int)c->size);
    EVP_CIPHER_CTX_ctrl(state->aead, EVP_CTRL_AEAD_SET_TAG, 16, (void *)bench_aead_tag(state->buffers));
    if (EVP_CipherFinal_ex(state->aead, out + n, &n) != 1) abort();
  }
}

static void run_aead_open_inplace(void *opaque, const bench_case *c, size_t iterations) {
  struct cipher *state = opaque;
  int n;
  uint8_t *out = bench_aead_out(state->buffers);
  for (size_t i = 0; i < iterations; i++) {
    bench_aead_refill(state->buffers, c->size);
    EVP_CipherInit_ex(state->aead, NULL, NULL, NULL, zero_nonce, 0);
    EVP_CipherUpdate(state->aead, out, &n, out, (int)c->size);
    EVP_CIPHER_CTX_ctrl(state->aead, EVP_CTRL_AEAD_SET_TAG, 16, (void *)bench_aead_tag(state->buffers));
    if (EVP_CipherFinal_ex(state->aead, out + n, &n) != 1) abort();
  }
}

struct bignum {
  BN_CTX *ctx;
  BN_MONT_CTX *mont;
  BIGNUM *x, *y, *modulus, *exponent, *result;
};

static void *setup_bignum(const bench_case *c) {
  struct bignum *state = calloc(1, sizeof *state);
  if (!state) return NULL;
  state->ctx = BN_CTX_new();
  state->mont = BN_MONT_CTX_new();
  state->x = bench_bn_from_limbs(c->x, c->limbs);
  state->y = bench_bn_from_limbs(c->y, c->limbs);
  state->modulus = bench_bn_from_limbs(c->modulus, c->limbs);
  state->exponent = bench_bn_from_limbs(c->exponent, c->limbs);
  state->result = BN_new();
  BN_MONT_CTX_set(state->mont, state->modulus, state->ctx);
  BN_set_flags(state->exponent, BN_FLG_CONSTTIME);
  return state;
}

static void run_mont_mul(void *opaque, const bench_case *c, size_t iterations) {
  struct bignum *state = opaque;
  (void)c;
  for (size_t i = 0; i < iterations; i++)
    BN_mod_mul_montgomery(state->result, state->x, state->y, state->mont, state->ctx);
}

static void run_mont_sqr(void *opaque, const bench_case *c, size_t iterations) {
  struct bignum *state = opaque;
  (void)c;
  for (size_t i = 0; i < iterations; i++)
    BN_mod_mul_montgomery(state->result, state->x, state->x, state->mont, state->ctx);
}

/* The Montgomery context is built per call, as crisp_bn_mod_exp does. */
static void run_mod_exp(void *opaque, const bench_case *c, size_t iterations) {
  struct bignum *state = opaque;
  (void)c;
  for (size_t i = 0; i < iterations; i++)
    BN_mod_exp_mont_consttime(state->result, state->x, state->exponent, state->modulus, state->ctx, NULL);
}

/* bn_mod_exp2's peer: the two exponentiations one after the other. */
static void run_mod_exp_twice(void *opaque, const bench_case *c, size_t iterations) {
  struct bignum *state = opaque;
  (void)c;
  for (size_t i = 0; i < iterations; i++) {
    BN_mod_exp_mont_consttime(state->result, state->x, state->exponent, state->modulus, state->ctx, NULL);
    BN_mod_exp_mont_consttime(state->result, state->y, state->exponent, state->modulus, state->ctx, NULL);
  }
}

static void teardown_bignum(void *opaque) {
  struct bignum *state = opaque;
  BN_free(state->x), BN_free(state->y), BN_free(state->modulus), BN_free(state->exponent);
  BN_free(state->result);
  BN_MONT_CTX_free(state->mont);
  BN_CTX_free(state->ctx);
  free(state);
}

struct rsa {
  EVP_PKEY *key;
  EVP_PKEY_CTX *ctx;
  unsigned char in[CRISP_BN_MONT_MAX_LIMBS * 8], out[CRISP_BN_MONT_MAX_LIMBS * 8];
  size_t bytes;
};

static void teardown_rsa(void *opaque);

/* The case's key as an EVP_PKEY with its CRT parameters, and a decrypt
 * context with RSA_NO_PADDING: OpenSSL's private operation, blinding on as
 * by default. */
static void *setup_rsa(const bench_case *c) {
  struct rsa *state = calloc(1, sizeof *state);
  if (!state) return NULL;
  state->key = bench_rsa_pkey(NULL, NULL, c->rsa);
  state->ctx = state->key ? EVP_PKEY_CTX_new(state->key, NULL) : NULL;
  const int ok = state->ctx && EVP_PKEY_decrypt_init(state->ctx) == 1 &&
                 EVP_PKEY_CTX_set_rsa_padding(state->ctx, RSA_NO_PADDING) == 1;
  state->bytes = 16 * c->rsa->half;
  for (size_t i = 0; i < state->bytes; i++)
    state->in[i] = (unsigned char)(c->x[(state->bytes - 1 - i) / 8] >> (8 * ((state->bytes - 1 - i) % 8)));
  if (ok) return state;
  teardown_rsa(state);
  return NULL;
}

static void run_rsa(void *opaque, const bench_case *c, size_t iterations) {
  struct rsa *state = opaque;
  (void)c;
  for (size_t i = 0; i < iterations; i++) {
    size_t length = sizeof state->out;
    EVP_PKEY_decrypt(state->ctx, state->out, &length, state->in, state->bytes);
  }
}

static void teardown_rsa(void *opaque) {
  struct rsa *state = opaque;
  EVP_PKEY_CTX_free(state->ctx);
  EVP_PKEY_free(state->key);
  free(state);
}

const bench_routine bench_openssl_routines[] = {
    {"md5", "openssl", "MD5()", NULL, run_md5, NULL},
    {"md5", "openssl", "EVP md5", setup_evp_md5, run_evp_md5, teardown_evp_md5},
    {"md5_many", "openssl", "MD5() serial", NULL, run_md5_serial, NULL},
    {"poly1305", "openssl", "EVP_MAC POLY1305", setup_poly1305, run_poly1305, teardown_poly1305},
    {"chacha20", "openssl", "EVP chacha20", setup_cipher, run_chacha20, teardown_cipher},
    {"chacha20poly1305_seal", "openssl", "EVP chacha20-poly1305", setup_cipher, run_aead_seal,
     teardown_cipher},
    {"chacha20poly1305_open", "openssl", "EVP chacha20-poly1305", setup_cipher, run_aead_open,
     teardown_cipher},
    {"chacha20poly1305_open_inplace", "openssl", "EVP chacha20-poly1305 in place", setup_cipher,
     run_aead_open_inplace, teardown_cipher},
    {"bn_mont_mul", "openssl", "BN_mod_mul_montgomery", setup_bignum, run_mont_mul, teardown_bignum},
    {"bn_mont_sqr", "openssl", "BN_mod_mul_montgomery", setup_bignum, run_mont_sqr, teardown_bignum},
    {"mod_exp", "openssl", "BN_mod_exp_mont_consttime", setup_bignum, run_mod_exp, teardown_bignum},
    {"bn_mod_exp2", "openssl", "BN_mod_exp_mont_consttime x2", setup_bignum, run_mod_exp_twice,
     teardown_bignum},
    {"rsa_private", "openssl", "EVP_PKEY_decrypt RSA_NO_PADDING", setup_rsa, run_rsa, teardown_rsa},
};
const size_t bench_openssl_routine_count = sizeof bench_openssl_routines / sizeof bench_openssl_routines[0];
