/* provider/chacha20poly1305.c - the AEAD ChaCha20-Poly1305 for the OpenSSL
 * provider, with the parameters libssl uses for TLS 1.2 and 1.3 records.
 *
 * Two ways in, as OpenSSL's own implementation:
 * - EVP streaming (TLS 1.3 records, applications): associated data through
 *   update with out == NULL, then the message, then final, on crisp's
 *   streaming AEAD. The associated data is held until the message starts,
 *   because crisp's stream takes all of it at init. Decrypting hands out
 *   plaintext from every update before final has checked the tag, exactly
 *   as OpenSSL does; only final's success says the message is authentic.
 * - TLS 1.2 records: OSSL_CIPHER_PARAM_AEAD_TLS1_AAD gives the 13-byte
 *   record header, then one update carries the whole record (payload and
 *   tag). The nonce is the fixed IV XOR the header's sequence number. This
 *   path uses crisp's one-shot open, which checks the tag before it writes
 *   any plaintext: a forged record releases nothing. */
#include <stdint.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <crisp/chacha20poly1305.h>

#include "provider.h"

enum {
  KEY_SIZE = CRISP_CHACHA20_KEY_SIZE,
  NONCE_SIZE = CRISP_CHACHA20_NONCE_SIZE,
  TAG_SIZE = CRISP_CHACHA20_POLY1305_TAG_SIZE,
  TLS_AAD_SIZE = EVP_AEAD_TLS1_AAD_LEN, /* sequence 8, type 1, version 2, length 2 */
  TLS_SEQUENCE_SIZE = 8,
};
#define NO_TLS_RECORD SIZE_MAX

typedef struct aead_context {
  crisp_provider *provider;
  crisp_chacha20_poly1305_ctx stream;
  uint8_t key[KEY_SIZE];
  uint8_t nonce[NONCE_SIZE]; /* the IV, or TLS 1.2's fixed IV */
  uint8_t tag[TAG_SIZE];     /* made by sealing, or given to open */
  size_t tag_length;
  uint8_t *aad; /* held until the message starts */
  size_t aad_length, aad_capacity;
  uint8_t tls_aad[TLS_AAD_SIZE];
  size_t tls_payload_length; /* NO_TLS_RECORD outside a TLS 1.2 record */
  int encrypting, key_set, iv_set, tag_set, started, finished;
} aead_context;

static void *aead_new(void *provctx) {
  aead_context *context = OPENSSL_zalloc(sizeof *context);
  if (!context) {
    CRISP_PROV_RAISE(provctx, CRISP_PROV_R_NO_MEMORY, NULL);
    return NULL;
  }
  context->provider = provctx;
  context->tag_length = TAG_SIZE;
  context->tls_payload_length = NO_TLS_RECORD;
  return context;
}

/* Wipes the associated data held; the buffer stays for the next message
 * (a TLS connection gives every record its header), freed with the context. */
static void forget_aad(aead_context *context) {
  if (context->aad) OPENSSL_cleanse(context->aad, context->aad_length);
  context->aad_length = 0;
}

static void aead_free(void *vcontext) {
  aead_context *context = vcontext;
  if (!context) return;
  OPENSSL_clear_free(context->aad, context->aad_capacity);
  OPENSSL_clear_free(context, sizeof *context);
}

static void *aead_dup(void *vcontext) {
  const aead_context *context = vcontext;
  aead_context *copy = aead_new(context->provider);
  if (!copy) return NULL;
  *copy = *context; /* crisp's stream context may be copied byte-wise */
  copy->aad = NULL;
  if (context->aad_capacity) {
    copy->aad = OPENSSL_zalloc(context->aad_capacity);
    if (!copy->aad) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NO_MEMORY, NULL);
      copy->aad_capacity = copy->aad_length = 0;
      aead_free(copy);
      return NULL;
    }
    memcpy(copy->aad, context->aad, context->aad_length);
  }
  return copy;
}

static int aead_set_ctx_params(void *vcontext, const OSSL_PARAM params[]);

/* Starts a new message; a NULL key or IV keeps the one set before. */
static int aead_init(aead_context *context, int encrypting, const unsigned char *key, size_t key_length,
                     const unsigned char *iv, size_t iv_length, const OSSL_PARAM params[]) {
  if (key && key_length != KEY_SIZE) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_KEY_LENGTH,
                     "ChaCha20-Poly1305 takes 32 bytes, not %zu", key_length);
    return 0;
  }
  if (iv && iv_length != NONCE_SIZE) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_IV_LENGTH,
                     "ChaCha20-Poly1305 takes 12 bytes, not %zu", iv_length);
    return 0;
  }
  if (key) memcpy(context->key, key, KEY_SIZE), context->key_set = 1;
  if (iv) memcpy(context->nonce, iv, NONCE_SIZE), context->iv_set = 1;
  /* crisp's final wipes its stream and a message never started wrote none:
   * only one abandoned midway holds state to wipe. */
  if (context->started && !context->finished) OPENSSL_cleanse(&context->stream, sizeof context->stream);
  forget_aad(context);
  context->encrypting = encrypting;
  /* A tag given before init (OpenSSL's evp_test does so) stays for this
   * message; final uses it up. */
  context->started = context->finished = 0;
  context->tls_payload_length = NO_TLS_RECORD;
  return aead_set_ctx_params(context, params);
}

static int aead_encrypt_init(void *vcontext, const unsigned char *key, size_t key_length,
                             const unsigned char *iv, size_t iv_length, const OSSL_PARAM params[]) {
  return aead_init(vcontext, 1, key, key_length, iv, iv_length, params);
}

static int aead_decrypt_init(void *vcontext, const unsigned char *key, size_t key_length,
                             const unsigned char *iv, size_t iv_length, const OSSL_PARAM params[]) {
  return aead_init(vcontext, 0, key, key_length, iv, iv_length, params);
}

static int add_aad(aead_context *context, const unsigned char *aad, size_t length) {
  if (context->started) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER,
                     "associated data after the message began");
    return 0;
  }
  if (length > context->aad_capacity - context->aad_length) {
    if (length > SIZE_MAX / 2 - context->aad_length) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NO_MEMORY, "associated data too long");
      return 0;
    }
    const size_t capacity = 2 * (context->aad_length + length);
    uint8_t *grown = OPENSSL_zalloc(capacity);
    if (!grown) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NO_MEMORY, NULL);
      return 0;
    }
    if (context->aad_length) memcpy(grown, context->aad, context->aad_length);
    OPENSSL_clear_free(context->aad, context->aad_capacity);
    context->aad = grown;
    context->aad_capacity = capacity;
  }
  memcpy(context->aad + context->aad_length, aad, length);
  context->aad_length += length;
  return 1;
}

/* Starts crisp's stream with all the associated data given so far. */
static int start_message(aead_context *context) {
  if (context->started) return 1;
  const int status = crisp_chacha20_poly1305_stream_init(
      &context->stream, context->encrypting ? CRISP_AEAD_SEAL : CRISP_AEAD_OPEN, context->nonce, context->key,
      context->aad, context->aad_length);
  if (status != CRISP_OK) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_KERNEL_FAILED, "stream init: %s",
                     crisp_strerror(status));
    return 0;
  }
  context->started = 1;
  return 1;
}

/* One whole TLS 1.2 record: payload then tag in `in`, sealed or opened at
 * once; the output is the record (sealing) or the payload (opening). */
static int tls_record(aead_context *context, unsigned char *out, size_t *out_length, size_t out_size,
                      const unsigned char *in, size_t in_length) {
  const size_t payload = context->tls_payload_length;
  context->tls_payload_length = NO_TLS_RECORD; /* one record per header */
  if (in_length != payload + TAG_SIZE || !out || out_size < (context->encrypting ? in_length : payload)) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER,
                     "TLS record of %zu bytes for a header of %zu", in_length, payload);
    return 0;
  }
  uint8_t nonce[NONCE_SIZE];
  memcpy(nonce, context->nonce, NONCE_SIZE);
  for (int i = 0; i < TLS_SEQUENCE_SIZE; i++)
    nonce[NONCE_SIZE - TLS_SEQUENCE_SIZE + i] ^= context->tls_aad[i];
  const int status = context->encrypting
                         ? crisp_chacha20_poly1305_seal(out, out + payload, in, payload, context->tls_aad,
                                                        TLS_AAD_SIZE, nonce, context->key)
                         : crisp_chacha20_poly1305_open(out, in, payload, in + payload, context->tls_aad,
                                                        TLS_AAD_SIZE, nonce, context->key);
  OPENSSL_cleanse(nonce, sizeof nonce);
  crisp_provider_count(context->provider, CRISP_PROV_CALLS_CHACHA20_POLY1305);
  if (status == CRISP_E_MISMATCH) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_TAG_MISMATCH, "TLS record");
    return 0;
  }
  if (status != CRISP_OK) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_KERNEL_FAILED, "TLS record: %s", crisp_strerror(status));
    return 0;
  }
  *out_length = context->encrypting ? in_length : payload;
  return 1;
}

static int aead_update(void *vcontext, unsigned char *out, size_t *out_length, size_t out_size,
                       const unsigned char *in, size_t in_length) {
  aead_context *context = vcontext;
  if (!context->key_set || !context->iv_set) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NOT_INITIALIZED,
                     "ChaCha20-Poly1305 needs a key and an IV");
    return 0;
  }
  if (context->finished) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_FINISHED, "update after final: init again");
    return 0;
  }
  if (in_length && !in) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "NULL input with a length");
    return 0;
  }
  if (context->tls_payload_length != NO_TLS_RECORD && in)
    return tls_record(context, out, out_length, out_size, in, in_length);
  if (!out) { /* associated data */
    if (in_length && !add_aad(context, in, in_length)) return 0;
    *out_length = in_length;
    return 1;
  }
  if (out_size < in_length) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "output smaller than the input");
    return 0;
  }
  /* an empty update changes nothing: associated data may still follow */
  if (in_length) {
    if (!start_message(context)) return 0;
    const int status = crisp_chacha20_poly1305_stream_update(&context->stream, out, in, in_length);
    crisp_provider_count(context->provider, CRISP_PROV_CALLS_CHACHA20_POLY1305);
    if (status != CRISP_OK) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_KERNEL_FAILED, "stream update: %s",
                       crisp_strerror(status));
      return 0;
    }
  }
  *out_length = in_length;
  return 1;
}

static int aead_final(void *vcontext, unsigned char *out, size_t *out_length, size_t out_size) {
  aead_context *context = vcontext;
  (void)out, (void)out_size;
  if (!context->key_set || !context->iv_set) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NOT_INITIALIZED,
                     "ChaCha20-Poly1305 needs a key and an IV");
    return 0;
  }
  if (context->finished) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_FINISHED, "final after final: init again");
    return 0;
  }
  if (!context->encrypting && !context->tag_set) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_TAG_LENGTH, "decrypting needs the tag before final");
    return 0;
  }
  if (!start_message(context)) return 0;
  context->finished = 1;
  forget_aad(context);
  const int status = context->encrypting
                         ? crisp_chacha20_poly1305_stream_seal_final(&context->stream, context->tag)
                         : crisp_chacha20_poly1305_stream_open_final(&context->stream, context->tag);
  crisp_provider_count(context->provider, CRISP_PROV_CALLS_CHACHA20_POLY1305);
  context->tag_set = 0;
  if (status == CRISP_E_MISMATCH) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_TAG_MISMATCH, NULL);
    return 0;
  }
  if (status != CRISP_OK) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_KERNEL_FAILED, "final: %s", crisp_strerror(status));
    return 0;
  }
  *out_length = 0;
  return 1;
}

/* EVP_Cipher's entry: a NULL input ends the message. */
static int aead_cipher(void *vcontext, unsigned char *out, size_t *out_length, size_t out_size,
                       const unsigned char *in, size_t in_length) {
  if (!in) return aead_final(vcontext, out, out_length, out_size);
  return aead_update(vcontext, out, out_length, out_size, in, in_length);
}

static int aead_get_params(OSSL_PARAM params[]) {
  return crisp_cipher_get_params(params, KEY_SIZE, NONCE_SIZE, 1);
}

static const OSSL_PARAM aead_gettable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, NULL),
    OSSL_PARAM_END,
};
static const OSSL_PARAM aead_settable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *aead_gettable_ctx_params(void *vcontext, void *provctx) {
  (void)vcontext, (void)provctx;
  return aead_gettable_ctx;
}

static const OSSL_PARAM *aead_settable_ctx_params(void *vcontext, void *provctx) {
  (void)vcontext, (void)provctx;
  return aead_settable_ctx;
}

static int aead_get_ctx_params(void *vcontext, OSSL_PARAM params[]) {
  aead_context *context = vcontext;
  OSSL_PARAM *p;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !OSSL_PARAM_set_size_t(p, KEY_SIZE))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !OSSL_PARAM_set_size_t(p, NONCE_SIZE))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN)) &&
      !OSSL_PARAM_set_size_t(p, context->tag_length))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD)) &&
      !OSSL_PARAM_set_size_t(p, TAG_SIZE))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAG))) {
    if (p->data_type != OSSL_PARAM_OCTET_STRING || !p->data || p->data_size == 0 || p->data_size > TAG_SIZE) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_TAG_LENGTH, "a tag of 1 to 16 bytes");
      return 0;
    }
    if (!context->encrypting || !context->finished) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "the tag exists after sealing's final");
      return 0;
    }
    memcpy(p->data, context->tag, p->data_size); /* a shorter tag is its prefix */
    p->return_size = p->data_size;
  }
  return 1;
}

/* The TLS 1.2 record header: its length field counts the tag when
 * opening, so the payload is 16 bytes shorter. */
static int set_tls_aad(aead_context *context, const OSSL_PARAM *p) {
  if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != TLS_AAD_SIZE || !p->data) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "the TLS header is 13 bytes");
    return 0;
  }
  memcpy(context->tls_aad, p->data, TLS_AAD_SIZE);
  size_t length = (size_t)context->tls_aad[TLS_AAD_SIZE - 2] << 8 | context->tls_aad[TLS_AAD_SIZE - 1];
  if (!context->encrypting) {
    if (length < TAG_SIZE) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "TLS record shorter than its tag");
      return 0;
    }
    length -= TAG_SIZE;
    context->tls_aad[TLS_AAD_SIZE - 2] = (uint8_t)(length >> 8);
    context->tls_aad[TLS_AAD_SIZE - 1] = (uint8_t)length;
  }
  context->tls_payload_length = length;
  return 1;
}

static int set_tag(aead_context *context, const OSSL_PARAM *p) {
  if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == 0 || p->data_size > TAG_SIZE) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_TAG_LENGTH, "a tag of 1 to 16 bytes");
    return 0;
  }
  if (p->data) {
    if (context->encrypting) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "a tag is given only to decrypt");
      return 0;
    }
    /* crisp's open checks whole tags: a truncated one cannot be verified. */
    if (p->data_size != TAG_SIZE) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_TAG_LENGTH, "only 16-byte tags are verified");
      return 0;
    }
    memcpy(context->tag, p->data, TAG_SIZE);
    context->tag_set = 1;
  }
  context->tag_length = p->data_size;
  return 1;
}

static int aead_set_ctx_params(void *vcontext, const OSSL_PARAM params[]) {
  aead_context *context = vcontext;
  const OSSL_PARAM *p;
  size_t length;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN)) &&
      (!OSSL_PARAM_get_size_t(p, &length) || length != KEY_SIZE)) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_KEY_LENGTH,
                     "ChaCha20-Poly1305 takes 32-byte keys only");
    return 0;
  }
  /* As OpenSSL 3's: only the full 12-byte nonce, no shorter one padded. */
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_IVLEN)) &&
      (!OSSL_PARAM_get_size_t(p, &length) || length != NONCE_SIZE)) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_IV_LENGTH,
                     "ChaCha20-Poly1305 takes 12-byte IVs only");
    return 0;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG)) && !set_tag(context, p)) return 0;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD)) && !set_tls_aad(context, p))
    return 0;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED))) {
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != NONCE_SIZE || !p->data) {
      CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_IV_LENGTH, "the TLS fixed IV is 12 bytes");
      return 0;
    }
    memcpy(context->nonce, p->data, NONCE_SIZE);
    context->iv_set = 1;
  }
  return 1;
}

const OSSL_DISPATCH crisp_chacha20_poly1305_functions[] = {
    {OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))aead_new},
    {OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))aead_free},
    {OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))aead_dup},
    {OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))aead_encrypt_init},
    {OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))aead_decrypt_init},
    {OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))aead_update},
    {OSSL_FUNC_CIPHER_FINAL, (void (*)(void))aead_final},
    {OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))aead_cipher},
    {OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))aead_get_params},
    {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))crisp_cipher_gettable_params},
    {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))aead_get_ctx_params},
    {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))aead_gettable_ctx_params},
    {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))aead_set_ctx_params},
    {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))aead_settable_ctx_params},
    {0, NULL},
};
