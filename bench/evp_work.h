/* bench/evp_work.h - the work the provider benchmarks time through
 * OpenSSL's EVP API (bench/evp_work.c), shared by provider_speed,
 * provider-rsa-speed and crisp bench's EVP rows: one message per call,
 * fetched from one library context with the properties given, so that
 * "provider=crisp" runs crisp's provider or fails. */
#ifndef CRISP_BENCH_EVP_WORK_H
#define CRISP_BENCH_EVP_WORK_H

#include <stddef.h>

#include <openssl/evp.h>

/* What a work runs on; the pointers are kept, not copied, by its state. */
typedef struct evp_work_input {
  OSSL_LIB_CTX *libctx;
  const char *properties;       /* for every fetch, e.g. "provider=crisp" */
  const unsigned char *message; /* digest, MAC, seal: size bytes */
  size_t size;
  const unsigned char *key; /* MAC and cipher: 32 bytes */
  EVP_PKEY *rsa;            /* sign: a private key */
} evp_work_input;

/* One kind of work: setup fetches and keys once (NULL on failure, with
 * OpenSSL's error queued), run repeats the per-message calls and returns 1
 * when every call succeeded, teardown frees the state (NULL accepted). */
typedef struct evp_work {
  void *(*setup)(const evp_work_input *input);
  int (*run)(void *state, size_t iterations);
  void (*teardown)(void *state);
} evp_work;

/* EVP_DigestInit_ex2, update, final: an MD5 digest per message. */
extern const evp_work evp_work_md5;
/* EVP_MAC_init with the key, update, final: a Poly1305 MAC per message. */
extern const evp_work evp_work_poly1305;
/* A TLS-like ChaCha20-Poly1305 record seal: init with the IV, 13 bytes of
 * header as AAD, the payload, final, the tag. */
extern const evp_work evp_work_aead_seal;
/* EVP_PKEY_sign with PKCS#1 v1.5 padding of a SHA-256 digest. */
extern const evp_work evp_work_rsa_sign;

#endif
