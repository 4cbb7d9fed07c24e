/* provider/poly1305.c - the MAC POLY1305 for the OpenSSL provider, on
 * crisp's dispatched Poly1305. A key authenticates one message: after
 * final, a new key must be given before the next.
 *
 * A short message is held until final and authenticated by the one-shot
 * crisp_poly1305, one call into crisp instead of init, update and final
 * (each of which scrubs the stack below it): through EVP a MAC over a few
 * blocks is mostly those calls. A message that outgrows the buffer moves
 * to crisp's stream API. */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <crisp/poly1305.h>

#include "provider.h"

enum { HELD_MAX = 256 }; /* bytes of a message held for the one-shot call */

typedef struct poly1305_context {
  crisp_provider *provider;
  crisp_poly1305_ctx state; /* the stream, once the message outgrew `held` */
  uint8_t key[CRISP_POLY1305_KEY_SIZE];
  uint8_t held[HELD_MAX]; /* the message so far, while it is short */
  size_t held_length;
  int streaming; /* `state` is keyed and has taken `held` */
  int keyed;     /* a key is set and no final has used it */
  int updated;   /* the key has authenticated data */
} poly1305_context;

/* Wipes the key, the held message and the stream. */
static void forget_message(poly1305_context *context) {
  OPENSSL_cleanse(context->key, sizeof context->key);
  OPENSSL_cleanse(context->held, context->held_length);
  if (context->streaming) OPENSSL_cleanse(&context->state, sizeof context->state);
  context->held_length = 0;
  context->streaming = 0;
}

static void *poly1305_new(void *provctx) {
  poly1305_context *context = OPENSSL_zalloc(sizeof *context);
  if (!context) {
    CRISP_PROV_RAISE(provctx, CRISP_PROV_R_NO_MEMORY, NULL);
    return NULL;
  }
  context->provider = provctx;
  return context;
}

static void poly1305_free(void *vcontext) {
  poly1305_context *context = vcontext;
  if (!context) return;
  OPENSSL_clear_free(context, sizeof *context);
}

static void *poly1305_dup(void *vcontext) {
  const poly1305_context *context = vcontext;
  poly1305_context *copy = poly1305_new(context->provider);
  if (copy) *copy = *context; /* crisp's contexts may be copied byte-wise */
  return copy;
}

static int poly1305_set_key(poly1305_context *context, const unsigned char *key, size_t key_length) {
  if (key_length != CRISP_POLY1305_KEY_SIZE) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_KEY_LENGTH, "Poly1305 takes %d bytes, not %zu",
                     CRISP_POLY1305_KEY_SIZE, key_length);
    return 0;
  }
  forget_message(context);
  memcpy(context->key, key, sizeof context->key);
  context->keyed = 1;
  context->updated = 0;
  return 1;
}

static int poly1305_set_ctx_params(void *vcontext, const OSSL_PARAM params[]) {
  poly1305_context *context = vcontext;
  const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_KEY);
  if (!p) return 1;
  if (p->data_type != OSSL_PARAM_OCTET_STRING || !p->data) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "the key is an octet string");
    return 0;
  }
  return poly1305_set_key(context, p->data, p->data_size);
}

static int poly1305_init(void *vcontext, const unsigned char *key, size_t key_length,
                         const OSSL_PARAM params[]) {
  poly1305_context *context = vcontext;
  if (!poly1305_set_ctx_params(context, params)) return 0;
  if (key) return poly1305_set_key(context, key, key_length);
  /* No new key: only a key that has not authenticated anything yet may go on. */
  if (!context->keyed || context->updated) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NOT_INITIALIZED,
                     "Poly1305 needs a fresh key per message");
    return 0;
  }
  return 1;
}

static int poly1305_update(void *vcontext, const unsigned char *data, size_t length) {
  poly1305_context *context = vcontext;
  if (!context->keyed) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NOT_INITIALIZED, "Poly1305 update without a fresh key");
    return 0;
  }
  if (!data && length) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "NULL data with a length");
    return 0;
  }
  context->updated = 1;
  if (!length) return 1;
  if (!context->streaming && length <= HELD_MAX - context->held_length) {
    memcpy(context->held + context->held_length, data, length);
    context->held_length += length;
    return 1;
  }
  if (!context->streaming) {
    crisp_poly1305_init(&context->state, context->key);
    if (context->held_length) {
      crisp_poly1305_update(&context->state, context->held, context->held_length);
      OPENSSL_cleanse(context->held, context->held_length);
      context->held_length = 0;
    }
    context->streaming = 1;
  }
  crisp_poly1305_update(&context->state, data, length);
  crisp_provider_count(context->provider, CRISP_PROV_CALLS_POLY1305);
  return 1;
}

static int poly1305_final(void *vcontext, unsigned char *out, size_t *out_length, size_t out_size) {
  poly1305_context *context = vcontext;
  if (!context->keyed) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_NOT_INITIALIZED, "Poly1305 final without a fresh key");
    return 0;
  }
  if (!out || out_size < CRISP_POLY1305_TAG_SIZE) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "output smaller than the tag");
    return 0;
  }
  if (context->streaming)
    crisp_poly1305_final(&context->state, out); /* also wipes the state */
  else
    crisp_poly1305(out, context->held, context->held_length, context->key);
  crisp_provider_count(context->provider, CRISP_PROV_CALLS_POLY1305);
  context->streaming = 0; /* crisp's final wiped the stream */
  forget_message(context);
  context->keyed = 0;
  *out_length = CRISP_POLY1305_TAG_SIZE;
  return 1;
}

static const OSSL_PARAM poly1305_size_table[] = {
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_END,
};
static const OSSL_PARAM poly1305_settable_table[] = {
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *poly1305_gettable_params(void *provctx) {
  (void)provctx;
  return poly1305_size_table;
}

static const OSSL_PARAM *poly1305_gettable_ctx_params(void *vcontext, void *provctx) {
  (void)vcontext, (void)provctx;
  return poly1305_size_table;
}

static const OSSL_PARAM *poly1305_settable_ctx_params(void *vcontext, void *provctx) {
  (void)vcontext, (void)provctx;
  return poly1305_settable_table;
}

static int poly1305_get_params(OSSL_PARAM params[]) {
  OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_SIZE);
  return !p || OSSL_PARAM_set_size_t(p, CRISP_POLY1305_TAG_SIZE);
}

static int poly1305_get_ctx_params(void *vcontext, OSSL_PARAM params[]) {
  (void)vcontext;
  return poly1305_get_params(params);
}

const OSSL_DISPATCH crisp_poly1305_functions[] = {
    {OSSL_FUNC_MAC_NEWCTX, (void (*)(void))poly1305_new},
    {OSSL_FUNC_MAC_DUPCTX, (void (*)(void))poly1305_dup},
    {OSSL_FUNC_MAC_FREECTX, (void (*)(void))poly1305_free},
    {OSSL_FUNC_MAC_INIT, (void (*)(void))poly1305_init},
    {OSSL_FUNC_MAC_UPDATE, (void (*)(void))poly1305_update},
    {OSSL_FUNC_MAC_FINAL, (void (*)(void))poly1305_final},
    {OSSL_FUNC_MAC_GET_PARAMS, (void (*)(void))poly1305_get_params},
    {OSSL_FUNC_MAC_GETTABLE_PARAMS, (void (*)(void))poly1305_gettable_params},
    {OSSL_FUNC_MAC_GET_CTX_PARAMS, (void (*)(void))poly1305_get_ctx_params},
    {OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS, (void (*)(void))poly1305_gettable_ctx_params},
    {OSSL_FUNC_MAC_SET_CTX_PARAMS, (void (*)(void))poly1305_set_ctx_params},
    {OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, (void (*)(void))poly1305_settable_ctx_params},
    {0, NULL},
};
