/* bench/peers_dynamic.c - the rows of the peer libraries loaded at run time
 * (bench/peer_library.c), named by the version each reports: MD5();
 * ChaCha20-Poly1305 through the native AEAD API where the
 * library has one (AWS-LC's EVP_AEAD_CTX, its fastest path), else through
 * EVP_CIPHER as a TLS stack drives it; the raw RSA private operation
 * (EVP_PKEY_decrypt, no padding, blinding on by default) on the fixed keys
 * of bench/rsa_keys.c. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "peer_library.h"
#include "rsa_keys.h"

#define MAX_ROUTINES 32
#define TAG_SIZE 16
#define NONCE_SIZE 12

static bench_routine routines[MAX_ROUTINES];
static const peer_library *owners[MAX_ROUTINES];
static size_t routine_count;

/* The library of the routine whose setup runs. */
static const peer_library *setup_library(void) {
  const ptrdiff_t index = bench_setup_routine - routines;
  return index >= 0 && (size_t)index < routine_count ? owners[index] : NULL;
}

static const uint8_t zero_nonce[NONCE_SIZE];

static void *setup_library_only(const bench_case *c) {
  (void)c;
  return (void *)setup_library();
}

static void run_md5(void *opaque, const bench_case *c, size_t iterations) {
  const peer_library *library = opaque;
  unsigned char digest[16];
  for (size_t i = 0; i < iterations; i++) library->MD5(c->data, c->size, digest);
}

/* Both AEAD paths: a context holding the key, and the case's message
 * sealed once by the peer (ciphertext then tag) for open to verify. */
struct aead {
  const peer_library *library;
  void *ctx;
  uint8_t *sealed, *out;
};

static void teardown_aead(void *opaque) {
  struct aead *state = opaque;
  if (state->ctx && state->library->EVP_AEAD_CTX_free) state->library->EVP_AEAD_CTX_free(state->ctx);
  if (state->ctx && !state->library->EVP_AEAD_CTX_free) state->library->EVP_CIPHER_CTX_free(state->ctx);
  free(state->sealed), free(state->out), free(state);
}

static struct aead *new_aead(const bench_case *c) {
  const peer_library *library = setup_library();
  struct aead *state = library ? calloc(1, sizeof *state) : NULL;
  if (!state) return NULL;
  state->library = library;
  state->sealed = malloc(c->size + TAG_SIZE);
  state->out = malloc(c->size + TAG_SIZE);
  if (state->sealed && state->out) return state;
  teardown_aead(state);
  return NULL;
}

static void *setup_native_aead(const bench_case *c) {
  struct aead *state = new_aead(c);
  if (!state) return NULL;
  const peer_library *library = state->library;
  size_t length = 0;
  state->ctx = library->EVP_AEAD_CTX_new(library->EVP_aead_chacha20_poly1305(), c->key, 32, TAG_SIZE);
  if (state->ctx && library->EVP_AEAD_CTX_seal(state->ctx, state->sealed, &length, c->size + TAG_SIZE,
                                               zero_nonce, NONCE_SIZE, c->data, c->size, NULL, 0) == 1)
    return state;
  teardown_aead(state);
  return NULL;
}

static void run_native_seal(void *opaque, const bench_case *c, size_t iterations) {
  const struct aead *state = opaque;
  size_t length;
  for (size_t i = 0; i < iterations; i++)
    state->library->EVP_AEAD_CTX_seal(state->ctx, state->out, &length, c->size + TAG_SIZE, zero_nonce,
                                      NONCE_SIZE, c->data, c->size, NULL, 0);
}

static void run_native_open(void *opaque, const bench_case *c, size_t iterations) {
  const struct aead *state = opaque;
  size_t length;
  for (size_t i = 0; i < iterations; i++)
    if (state->library->EVP_AEAD_CTX_open(state->ctx, state->out, &length, c->size, zero_nonce, NONCE_SIZE,
                                          state->sealed, c->size + TAG_SIZE, NULL, 0) != 1)
      abort();
}

/* EVP_CIPHER: the key set once, each message sets only its nonce. */
static int evp_seal(const struct aead *state, const bench_case *c, uint8_t *out) {
  const peer_library *library = state->library;
  int n, m;
  return library->EVP_CipherInit_ex(state->ctx, NULL, NULL, NULL, zero_nonce, 1) == 1 &&
         library->EVP_CipherUpdate(state->ctx, out, &n, c->data, (int)c->size) == 1 &&
         library->EVP_CipherFinal_ex(state->ctx, out + n, &m) == 1 &&
         library->EVP_CIPHER_CTX_ctrl(state->ctx, PEER_EVP_CTRL_AEAD_GET_TAG, TAG_SIZE, out + c->size) == 1;
}

static void *setup_evp_aead(const bench_case *c) {
  struct aead *state = new_aead(c);
  if (!state) return NULL;
  const peer_library *library = state->library;
  state->ctx = library->EVP_CIPHER_CTX_new();
  if (state->ctx &&
      library->EVP_CipherInit_ex(state->ctx, library->EVP_chacha20_poly1305(), NULL, c->key, zero_nonce, 1) ==
          1 &&
      evp_seal(state, c, state->sealed))
    return state;
  teardown_aead(state);
  return NULL;
}

static void run_evp_seal(void *opaque, const bench_case *c, size_t iterations) {
  const struct aead *state = opaque;
  for (size_t i = 0; i < iterations; i++) evp_seal(state, c, state->out);
}

static void run_evp_open(void *opaque, const bench_case *c, size_t iterations) {
  const struct aead *state = opaque;
  const peer_library *library = state->library;
  int n;
  for (size_t i = 0; i < iterations; i++) {
    library->EVP_CipherInit_ex(state->ctx, NULL, NULL, NULL, zero_nonce, 0);
    library->EVP_CipherUpdate(state->ctx, state->out, &n, state->sealed, (int)c->size);
    library->EVP_CIPHER_CTX_ctrl(state->ctx, PEER_EVP_CTRL_AEAD_SET_TAG, TAG_SIZE, state->sealed + c->size);
    if (library->EVP_CipherFinal_ex(state->ctx, state->out + n, &n) != 1) abort();
  }
}

struct rsa {
  const peer_library *library;
  void *key, *ctx;
  unsigned char in[CRISP_BN_MONT_MAX_LIMBS * 8], out[CRISP_BN_MONT_MAX_LIMBS * 8];
  size_t bytes;
};

/* limbs little-endian limbs as the peer's BIGNUM. */
static void *number(const peer_library *library, const crisp_limb *limbs, size_t count) {
  unsigned char bytes[CRISP_BN_MONT_MAX_LIMBS * 8];
  for (size_t i = 0; i < 8 * count; i++)
    bytes[8 * count - 1 - i] = (unsigned char)(limbs[i / 8] >> (8 * (i % 8)));
  return library->BN_bin2bn(bytes, (int)(8 * count), NULL);
}

/* The key with its CRT parameters as an EVP_PKEY; the RSA object is the
 * one import path AWS-LC and OpenSSL share. */
static void *rsa_key(const peer_library *library, const bench_rsa_key *key) {
  const crisp_limb e[1] = {BENCH_RSA_E};
  const size_t half = key->half;
  void *rsa = library->RSA_new(), *pkey = library->EVP_PKEY_new();
  void *n = number(library, key->n, 2 * half), *public_exponent = number(library, e, 1);
  void *d = number(library, key->d, 2 * half), *p = number(library, key->p, half);
  void *q = number(library, key->q, half), *dp = number(library, key->dp, half);
  void *dq = number(library, key->dq, half), *qinv = number(library, key->qinv, half);
  int ok = rsa && pkey && n && public_exponent && d && p && q && dp && dq && qinv &&
           library->RSA_set0_key(rsa, n, public_exponent, d) == 1;
  if (ok) n = public_exponent = d = NULL; /* owned by rsa now */
  ok = ok && library->RSA_set0_factors(rsa, p, q) == 1;
  if (ok) p = q = NULL;
  ok = ok && library->RSA_set0_crt_params(rsa, dp, dq, qinv) == 1;
  if (ok) dp = dq = qinv = NULL;
  ok = ok && library->EVP_PKEY_assign(pkey, PEER_EVP_PKEY_RSA, rsa) == 1;
  if (ok) rsa = NULL;
  void *leftovers[] = {n, public_exponent, d, p, q, dp, dq, qinv};
  for (size_t i = 0; i < sizeof leftovers / sizeof leftovers[0]; i++)
    if (leftovers[i]) library->BN_free(leftovers[i]);
  if (rsa) library->RSA_free(rsa);
  if (ok) return pkey;
  if (pkey) library->EVP_PKEY_free(pkey);
  return NULL;
}

static void teardown_rsa(void *opaque) {
  struct rsa *state = opaque;
  if (state->ctx) state->library->EVP_PKEY_CTX_free(state->ctx);
  if (state->key) state->library->EVP_PKEY_free(state->key);
  free(state);
}

static void *setup_rsa(const bench_case *c) {
  const peer_library *library = setup_library();
  struct rsa *state = library ? calloc(1, sizeof *state) : NULL;
  if (!state) return NULL;
  state->library = library;
  state->key = rsa_key(library, c->rsa);
  state->ctx = state->key ? library->EVP_PKEY_CTX_new(state->key, NULL) : NULL;
  state->bytes = 16 * c->rsa->half;
  for (size_t i = 0; i < state->bytes; i++)
    state->in[state->bytes - 1 - i] = (unsigned char)(c->x[i / 8] >> (8 * (i % 8)));
  size_t length = sizeof state->out;
  if (state->ctx && library->EVP_PKEY_decrypt_init(state->ctx) == 1 &&
      library->EVP_PKEY_CTX_set_rsa_padding(state->ctx, PEER_RSA_NO_PADDING) == 1 &&
      library->EVP_PKEY_decrypt(state->ctx, state->out, &length, state->in, state->bytes) == 1)
    return state;
  teardown_rsa(state);
  return NULL;
}

static void run_rsa(void *opaque, const bench_case *c, size_t iterations) {
  struct rsa *state = opaque;
  (void)c;
  for (size_t i = 0; i < iterations; i++) {
    size_t length = sizeof state->out;
    state->library->EVP_PKEY_decrypt(state->ctx, state->out, &length, state->in, state->bytes);
  }
}

static void add(const peer_library *library, const char *kernel, const char *name,
                void *(*setup)(const bench_case *), void (*run)(void *, const bench_case *, size_t),
                void (*teardown)(void *)) {
  if (routine_count == MAX_ROUTINES) return;
  routines[routine_count] = (bench_routine){kernel, library->version, name, setup, run, teardown};
  owners[routine_count++] = library;
}

/* The rows a library has every call for. */
static void add_library(const peer_library *l) {
  if (l->MD5) add(l, "md5", "MD5()", setup_library_only, run_md5, NULL);
  if (l->EVP_aead_chacha20_poly1305 && l->EVP_AEAD_CTX_new && l->EVP_AEAD_CTX_free && l->EVP_AEAD_CTX_seal &&
      l->EVP_AEAD_CTX_open) {
    add(l, "chacha20poly1305_seal", "EVP_AEAD_CTX_seal", setup_native_aead, run_native_seal, teardown_aead);
    add(l, "chacha20poly1305_open", "EVP_AEAD_CTX_open", setup_native_aead, run_native_open, teardown_aead);
  } else if (l->EVP_chacha20_poly1305 && l->EVP_CIPHER_CTX_new && l->EVP_CIPHER_CTX_free &&
             l->EVP_CipherInit_ex && l->EVP_CipherUpdate && l->EVP_CipherFinal_ex && l->EVP_CIPHER_CTX_ctrl) {
    add(l, "chacha20poly1305_seal", "EVP chacha20-poly1305", setup_evp_aead, run_evp_seal, teardown_aead);
    add(l, "chacha20poly1305_open", "EVP chacha20-poly1305", setup_evp_aead, run_evp_open, teardown_aead);
  }
  if (l->BN_bin2bn && l->BN_free && l->RSA_new && l->RSA_free && l->RSA_set0_key && l->RSA_set0_factors &&
      l->RSA_set0_crt_params && l->EVP_PKEY_new && l->EVP_PKEY_assign && l->EVP_PKEY_free &&
      l->EVP_PKEY_CTX_new && l->EVP_PKEY_CTX_free && l->EVP_PKEY_decrypt_init &&
      l->EVP_PKEY_CTX_set_rsa_padding && l->EVP_PKEY_decrypt)
    add(l, "rsa_private", "EVP_PKEY_decrypt RSA_NO_PADDING", setup_rsa, run_rsa, teardown_rsa);
}

/* Rows for the libraries loaded since the last call. */
static void build_routines(void) {
  static size_t libraries_seen;
  for (; libraries_seen < bench_peer_library_count(); libraries_seen++)
    add_library(bench_peer_library_at(libraries_seen));
}

size_t bench_dynamic_peer_count(void) {
  build_routines();
  return routine_count;
}

const bench_routine *bench_dynamic_peer_at(size_t i) {
  build_routines();
  return i < routine_count ? &routines[i] : NULL;
}
