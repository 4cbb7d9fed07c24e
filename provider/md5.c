/* provider/md5.c - the digest MD5 for the OpenSSL provider, on crisp's
 * dispatched crisp_md5_* stream API. */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <crisp/md5.h>

#include "provider.h"

typedef struct md5_context {
  crisp_provider *provider;
  crisp_md5_ctx state;
  /* Set by init, cleared by final: an update or final outside a message
   * is an error, not a silent no-op. */
  int in_message;
} md5_context;

static void *md5_new(void *provctx) {
  md5_context *context = OPENSSL_zalloc(sizeof *context);
  if (!context) {
    CRISP_PROV_RAISE(provctx, CRISP_PROV_R_NO_MEMORY, NULL);
    return NULL;
  }
  context->provider = provctx;
  return context;
}

static void md5_free(void *vcontext) {
  md5_context *context = vcontext;
  if (!context) return;
  OPENSSL_clear_free(context, sizeof *context);
}

static void *md5_dup(void *vcontext) {
  const md5_context *context = vcontext;
  md5_context *copy = md5_new(context->provider);
  if (copy) *copy = *context; /* crisp's contexts may be copied byte-wise */
  return copy;
}

static int md5_init(void *vcontext, const OSSL_PARAM params[]) {
  md5_context *context = vcontext;
  (void)params; /* MD5 has no settable parameters */
  crisp_md5_init(&context->state);
  context->in_message = 1;
  return 1;
}

static int md5_update(void *vcontext, const unsigned char *data, size_t length) {
  md5_context *context = vcontext;
  if (!context->in_message) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_FINISHED, "MD5 update outside init..final");
    return 0;
  }
  if (!data && length) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "NULL data with a length");
    return 0;
  }
  if (length) {
    crisp_md5_update(&context->state, data, length);
    crisp_provider_count(context->provider, CRISP_PROV_CALLS_MD5);
  }
  return 1;
}

static int md5_final(void *vcontext, unsigned char *out, size_t *out_length, size_t out_size) {
  md5_context *context = vcontext;
  if (!context->in_message) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_FINISHED, "MD5 final outside init..final");
    return 0;
  }
  if (!out || out_size < CRISP_MD5_DIGEST_SIZE) {
    CRISP_PROV_RAISE(context->provider, CRISP_PROV_R_BAD_PARAMETER, "output smaller than the digest");
    return 0;
  }
  crisp_md5_final(&context->state, out); /* also wipes the state */
  crisp_provider_count(context->provider, CRISP_PROV_CALLS_MD5);
  context->in_message = 0;
  *out_length = CRISP_MD5_DIGEST_SIZE;
  return 1;
}

static const OSSL_PARAM md5_gettable[] = {
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, NULL),
    OSSL_PARAM_int(OSSL_DIGEST_PARAM_XOF, NULL),
    OSSL_PARAM_int(OSSL_DIGEST_PARAM_ALGID_ABSENT, NULL),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *md5_gettable_params(void *provctx) {
  (void)provctx;
  return md5_gettable;
}

static int md5_get_params(OSSL_PARAM params[]) {
  OSSL_PARAM *p;
  if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_BLOCK_SIZE)) &&
      !OSSL_PARAM_set_size_t(p, CRISP_MD5_BLOCK_SIZE))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_SIZE)) &&
      !OSSL_PARAM_set_size_t(p, CRISP_MD5_DIGEST_SIZE))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_XOF)) && !OSSL_PARAM_set_int(p, 0)) return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_ALGID_ABSENT)) && !OSSL_PARAM_set_int(p, 0)) return 0;
  return 1;
}

const OSSL_DISPATCH crisp_md5_functions[] = {
    {OSSL_FUNC_DIGEST_NEWCTX, (void (*)(void))md5_new},
    {OSSL_FUNC_DIGEST_FREECTX, (void (*)(void))md5_free},
    {OSSL_FUNC_DIGEST_DUPCTX, (void (*)(void))md5_dup},
    {OSSL_FUNC_DIGEST_INIT, (void (*)(void))md5_init},
    {OSSL_FUNC_DIGEST_UPDATE, (void (*)(void))md5_update},
    {OSSL_FUNC_DIGEST_FINAL, (void (*)(void))md5_final},
    {OSSL_FUNC_DIGEST_GET_PARAMS, (void (*)(void))md5_get_params},
    {OSSL_FUNC_DIGEST_GETTABLE_PARAMS, (void (*)(void))md5_gettable_params},
    {0, NULL},
};
