/* provider/chacha20.c - the cipher ChaCha20 for the OpenSSL provider, on
 * crisp_chacha20. Its 16-byte IV is OpenSSL's: a 4-byte little-endian block
 * counter, then the 12-byte nonce. As OpenSSL's own does, the counter
 * carries into the nonce's first word when it wraps. */
#include <stdint.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <crisp/chacha20.h>

#include "provider.h"

enum { CHACHA20_IV_SIZE = 4 + CRISP_CHACHA20_NONCE_SIZE };

typedef struct chacha20_context {
  crisp_provider *provider;
  uint8_t key[CRISP_CHACHA20_KEY_SIZE];
  uint8_t nonce[CRISP_CHACHA20_NONCE_SIZE];
  uint8_t original_iv[CHACHA20_IV_SIZE]; /* as the last init gave it */
  uint32_t counter;                      /* the next block whose keystream is not made yet */
  /* The keystream of the block before `counter` (block_counter under
   * block_nonce, from before the counter moved on), of which `used` bytes
   * are spent; used == 64 when none is left. */
  uint8_t keystream[CRISP_CHACHA20_BLOCK_SIZE];
  size_t used;
  uint8_t block_nonce[CRISP_CHACHA20_NONCE_SIZE];
  uint32_t block_counter;
  int key_set, iv_set, finished;
} chacha20_context;

static void *chacha20_new(void *provctx) {
  chacha20_context *context = OPENSSL_zalloc(sizeof *context);
  if (!context) {
    CRISP_PROV_RAISE(provctx, CRISP_PROV_R_NO_MEMORY, NULL);
    return NULL;
  }
  context->provider = provctx;
  context->used = CRISP_CHACHA20_BLOCK_SIZE;
  return context;
}

static void chacha20_free(void *vcontext) {
  chacha20_context *context = vcontext;
  if (!context) return;
  OPENSSL_clear_free(context, sizeof *context);
}

static void *chacha20_dup(void *vcontext) {
  const chacha20_context *context = vcontext;
  chacha20_context *copy = chacha20_new(context->provider);
  if (copy) *copy = *context;
  return copy;
}

/* The rest of the last block's keystream is not used. */
static void drop_keystream(chacha20_context *context) {
  OPENSSL_cleanse(context->keystream, sizeof context->keystream);
  context->used = CRISP_CHACHA20_BLOCK_SIZE;
}

static void set_iv(chacha20_context *context, const unsigned char iv[CHACHA20_IV_SIZE]) {
  context->counter = (uint32_t)iv[0] | (uint32_t)iv[1] << 8 | (uint32_t)iv[2] << 16 | (uint32_t)iv[3] << 24;
  memcpy(context->nonce, iv + 4, sizeof context->nonce);
  memcpy(context->original_iv, iv, sizeof context->original_iv);
  drop_keystream(context);
  context->iv_set = 1;
}

static void get_iv(const chacha20_context *context, unsigned char iv[CHACHA20_IV_SIZE]) {
  for (int i = 0; i < 4; i++) iv[i] = (unsigned char)(context->counter >> (8 * i));
  memcpy(iv + 4, context->nonce, sizeof context->nonce);
}

/* Moves the counter on by `blocks`; past 2^32 - 1 it carries into the
 * nonce's first (little-endian) word, as OpenSSL's ChaCha20 does. */
static void advance(chacha20_context *context, uint64_t blocks) {
  uint64_t sum = (uint64_t)context->counter + blocks;
  context->counter = (uint32_t)sum;
  if (sum >> 32) {
    for (int i = 0; i < 4 && ++context->nonce[i] == 0; i++) {
    }
  }
}

static int chacha20_set_ctx_params(void *vcontext, const OSSL_PARAM params[]);

static int chacha20_init(void *vcontext, const unsigned char *key, size_t key_length, const unsigned char *iv,
                         size_t iv_length, const OSSL_PARAM params[]) {
  chacha20_context *context = vcontext;
  if (key) {
    if (key_length != CRISP_CHACHA20_KEY_SIZE) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_KEY_LENGTH, "ChaCha20 takes 32 bytes, not %zu",
                       key_length);
      return 0;
    }
    memcpy(context->key, key, sizeof context->key);
    /* A new key without a new IV starts the block that was partly used
     * again, from its first byte, as OpenSSL's own ChaCha20 does (its
     * counter moves on only once a block is used up): none of the old key's
     * keystream is used under the new key. */
    if (context->used < CRISP_CHACHA20_BLOCK_SIZE) {
      memcpy(context->nonce, context->block_nonce, sizeof context->nonce);
      context->counter = context->block_counter;
      drop_keystream(context);
    }
    context->key_set = 1;
  }
  if (iv) {
    if (iv_length != CHACHA20_IV_SIZE) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_IV_LENGTH, "ChaCha20 takes 16 bytes, not %zu",
                       iv_length);
      return 0;
    }
    set_iv(context, iv);
  }
  context->finished = 0;
  return chacha20_set_ctx_params(context, params);
}

/* out = in XOR the keystream from the current position on. */
static int chacha20_crypt(chacha20_context *context, unsigned char *out, const unsigned char *in,
                          size_t length) {
  while (length && context->used < CRISP_CHACHA20_BLOCK_SIZE) {
    *out++ = *in++ ^ context->keystream[context->used++];
    length--;
  }
  size_t blocks = length / CRISP_CHACHA20_BLOCK_SIZE;
  while (blocks) {
    const uint64_t before_wrap = ((uint64_t)1 << 32) - context->counter;
    const size_t run = blocks < before_wrap ? blocks : (size_t)before_wrap;
    const size_t bytes = run * CRISP_CHACHA20_BLOCK_SIZE;
    if (crisp_chacha20(out, in, bytes, context->key, context->nonce, context->counter) != CRISP_OK) return 0;
    advance(context, run);
    out += bytes, in += bytes, length -= bytes, blocks -= run;
  }
  if (length) {
    memcpy(context->block_nonce, context->nonce, sizeof context->block_nonce);
    context->block_counter = context->counter;
    memset(context->keystream, 0, sizeof context->keystream);
    if (crisp_chacha20(context->keystream, context->keystream, sizeof context->keystream, context->key,
                       context->nonce, context->counter) != CRISP_OK)
      return 0;
    advance(context, 1);
    for (context->used = 0; context->used < length; context->used++)
      out[context->used] = in[context->used] ^ context->keystream[context->used];
  }
  return 1;
}

static int chacha20_update(void *vcontext, unsigned char *out, size_t *out_length, size_t out_size,
                           const unsigned char *in, size_t in_length) {
  chacha20_context *context = vcontext;
  if (!context->key_set || !context->iv_set) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NOT_INITIALIZED, "ChaCha20 needs a key and an IV");
    return 0;
  }
  if (context->finished) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_FINISHED, "ChaCha20 update after final");
    return 0;
  }
  if (in_length && (!in || !out)) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "NULL buffer with a length");
    return 0;
  }
  if (out_size < in_length) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "output smaller than the input");
    return 0;
  }
  if (in_length) {
    if (!chacha20_crypt(context, out, in, in_length)) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_KERNEL_FAILED, "crisp_chacha20");
      return 0;
    }
    crisp_provider_count(context->provider, CRISP_PROV_CALLS_CHACHA20);
  }
  *out_length = in_length;
  return 1;
}

static int chacha20_final(void *vcontext, unsigned char *out, size_t *out_length, size_t out_size) {
  chacha20_context *context = vcontext;
  (void)out, (void)out_size;
  if (!context->key_set || !context->iv_set) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NOT_INITIALIZED, "ChaCha20 needs a key and an IV");
    return 0;
  }
  context->finished = 1;
  *out_length = 0;
  return 1;
}

static int chacha20_cipher(void *vcontext, unsigned char *out, size_t *out_length, size_t out_size,
                           const unsigned char *in, size_t in_length) {
  return chacha20_update(vcontext, out, out_length, out_size, in, in_length);
}

static int chacha20_get_params(OSSL_PARAM params[]) {
  return crisp_cipher_get_params(params, CRISP_CHACHA20_KEY_SIZE, CHACHA20_IV_SIZE, 0);
}

static const OSSL_PARAM chacha20_gettable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_END,
};
static const OSSL_PARAM chacha20_settable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *chacha20_gettable_ctx_params(void *vcontext, void *provctx) {
  (void)vcontext, (void)provctx;
  return chacha20_gettable_ctx;
}

static const OSSL_PARAM *chacha20_settable_ctx_params(void *vcontext, void *provctx) {
  (void)vcontext, (void)provctx;
  return chacha20_settable_ctx;
}

static int chacha20_get_ctx_params(void *vcontext, OSSL_PARAM params[]) {
  chacha20_context *context = vcontext;
  OSSL_PARAM *p;
  if (!chacha20_get_params(params)) return 0;
  unsigned char iv[CHACHA20_IV_SIZE];
  get_iv(context, iv);
  int ok = 1;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IV)) &&
      !OSSL_PARAM_set_octet_string(p, context->original_iv, sizeof context->original_iv))
    ok = 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_UPDATED_IV)) &&
      !OSSL_PARAM_set_octet_string(p, iv, sizeof iv))
    ok = 0;
  OPENSSL_cleanse(iv, sizeof iv);
  return ok;
}

/* The key and IV lengths are fixed: setting either to its value is allowed. */
static int chacha20_set_ctx_params(void *vcontext, const OSSL_PARAM params[]) {
  chacha20_context *context = vcontext;
  const OSSL_PARAM *p;
  size_t length;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN)) &&
      (!OSSL_PARAM_get_size_t(p, &length) || length != CRISP_CHACHA20_KEY_SIZE)) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_KEY_LENGTH, "ChaCha20 takes 32-byte keys only");
    return 0;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_IVLEN)) &&
      (!OSSL_PARAM_get_size_t(p, &length) || length != CHACHA20_IV_SIZE)) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_IV_LENGTH, "ChaCha20 takes 16-byte IVs only");
    return 0;
  }
  return 1;
}

const OSSL_DISPATCH crisp_chacha20_functions[] = {
    {OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))chacha20_new},
    {OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))chacha20_free},
    {OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))chacha20_dup},
    {OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))chacha20_init},
    {OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))chacha20_init},
    {OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))chacha20_update},
    {OSSL_FUNC_CIPHER_FINAL, (void (*)(void))chacha20_final},
    {OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))chacha20_cipher},
    {OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))chacha20_get_params},
    {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))crisp_cipher_gettable_params},
    {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))chacha20_get_ctx_params},
    {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))chacha20_gettable_ctx_params},
    {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))chacha20_set_ctx_params},
    {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))chacha20_settable_ctx_params},
    {0, NULL},
};
