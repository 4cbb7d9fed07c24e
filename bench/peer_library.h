/* bench/peer_library.h - a libcrypto loaded at run time as a benchmark peer
 * (OpenSSL's master, AWS-LC; bench/build_peer.py builds them): the calls
 * its rows make, looked up in that library alone, so its symbols never mix
 * with the OpenSSL crisp-bench links. No OpenSSL header is included: the
 * peers' headers differ, the calls used here do not. */
#ifndef CRISP_BENCH_PEER_LIBRARY_H
#define CRISP_BENCH_PEER_LIBRARY_H

#include <stddef.h>
#include <stdint.h>

/* Values both libraries' headers define alike. */
#define PEER_EVP_CTRL_AEAD_GET_TAG 0x10
#define PEER_EVP_CTRL_AEAD_SET_TAG 0x11
#define PEER_RSA_NO_PADDING 3
#define PEER_EVP_PKEY_RSA 6

/* A call a library lacks stays NULL, and the rows needing it are left out.
 * Fields carry the library's own names, so each reads as the call it is. */
typedef struct peer_library {
  char name[32];          /* NAME of --peer-lib NAME=PATH */
  char version[64];       /* what the library reports, e.g. "OpenSSL 4.1.0-dev" */
  char full_version[128]; /* all of it, e.g. with OpenSSL's build date */
  char path[512];
  void *handle;
  const char *(*OpenSSL_version)(int which);
  const char *(*awslc_version_string)(void);
  /* MD5 (the one-shot call: no EVP dispatch, as the built-in OpenSSL row) */
  unsigned char *(*MD5)(const unsigned char *data, size_t length, unsigned char *digest);
  /* ChaCha20-Poly1305 through the native AEAD API (AWS-LC, BoringSSL) */
  const void *(*EVP_aead_chacha20_poly1305)(void);
  void *(*EVP_AEAD_CTX_new)(const void *aead, const uint8_t *key, size_t key_length, size_t tag_length);
  void (*EVP_AEAD_CTX_free)(void *ctx);
  int (*EVP_AEAD_CTX_seal)(const void *ctx, uint8_t *out, size_t *out_length, size_t max_out_length,
                           const uint8_t *nonce, size_t nonce_length, const uint8_t *in, size_t in_length,
                           const uint8_t *ad, size_t ad_length);
  int (*EVP_AEAD_CTX_open)(const void *ctx, uint8_t *out, size_t *out_length, size_t max_out_length,
                           const uint8_t *nonce, size_t nonce_length, const uint8_t *in, size_t in_length,
                           const uint8_t *ad, size_t ad_length);
  /* ChaCha20-Poly1305 through EVP_CIPHER (OpenSSL) */
  const void *(*EVP_chacha20_poly1305)(void);
  void *(*EVP_CIPHER_CTX_new)(void);
  void (*EVP_CIPHER_CTX_free)(void *ctx);
  int (*EVP_CipherInit_ex)(void *ctx, const void *cipher, void *engine, const unsigned char *key,
                           const unsigned char *iv, int encrypt);
  int (*EVP_CipherUpdate)(void *ctx, unsigned char *out, int *out_length, const unsigned char *in,
                          int in_length);
  int (*EVP_CipherFinal_ex)(void *ctx, unsigned char *out, int *out_length);
  int (*EVP_CIPHER_CTX_ctrl)(void *ctx, int type, int argument, void *pointer);
  /* RSA: the key from its numbers, the private operation through EVP */
  void *(*BN_bin2bn)(const unsigned char *bytes, int length, void *into);
  void (*BN_free)(void *number);
  void *(*RSA_new)(void);
  void (*RSA_free)(void *rsa);
  int (*RSA_set0_key)(void *rsa, void *n, void *e, void *d);
  int (*RSA_set0_factors)(void *rsa, void *p, void *q);
  int (*RSA_set0_crt_params)(void *rsa, void *dp, void *dq, void *qinv);
  void *(*EVP_PKEY_new)(void);
  int (*EVP_PKEY_assign)(void *pkey, int type, void *key);
  void (*EVP_PKEY_free)(void *pkey);
  void *(*EVP_PKEY_CTX_new)(void *pkey, void *engine);
  void (*EVP_PKEY_CTX_free)(void *ctx);
  int (*EVP_PKEY_decrypt_init)(void *ctx);
  int (*EVP_PKEY_CTX_set_rsa_padding)(void *ctx, int padding);
  int (*EVP_PKEY_decrypt)(void *ctx, unsigned char *out, size_t *out_length, const unsigned char *in,
                          size_t in_length);
} peer_library;

/* Loads every NAME=PATH of the --peer-lib options given (count of them)
 * and of CRISP_BENCH_PEER_LIBS (NAME=PATH entries separated by ':'). A
 * library that cannot be loaded gets one stderr line and no rows. */
void bench_peer_libraries_load(const char *const *specs, size_t count);
size_t bench_peer_library_count(void);
const peer_library *bench_peer_library_at(size_t i);

/* The rows of every loaded library (bench/peers_dynamic.c), counted with
 * the built-in peers by bench_peer_count and bench_peer_at. */
size_t bench_dynamic_peer_count(void);
const struct bench_routine *bench_dynamic_peer_at(size_t i);

#endif
