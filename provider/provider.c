/* provider/provider.c - the OpenSSL 3 provider's entry point: what it
 * offers (algorithm tables by operation), what it tells about itself
 * (name, version, and per kernel the implementation crisp dispatches to),
 * and its error reasons. Every algorithm lives in a file of its own and
 * is listed here once, with the property "provider=crisp". */
#include "provider.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <crisp/crisp.h>

#define CRISP_PROVIDER_PROPERTIES "provider=crisp"

/* The algorithms by operation; each ends with an all-NULL entry. */
static const OSSL_ALGORITHM digests[] = {
    {"MD5:SSL3-MD5:1.2.840.113549.2.5", CRISP_PROVIDER_PROPERTIES, crisp_md5_functions, "crisp MD5"},
    {NULL, NULL, NULL, NULL},
};
static const OSSL_ALGORITHM macs[] = {
    {"POLY1305", CRISP_PROVIDER_PROPERTIES, crisp_poly1305_functions, "crisp Poly1305"},
    {NULL, NULL, NULL, NULL},
};
static const OSSL_ALGORITHM ciphers[] = {
    {"ChaCha20", CRISP_PROVIDER_PROPERTIES, crisp_chacha20_functions, "crisp ChaCha20"},
    {"ChaCha20-Poly1305", CRISP_PROVIDER_PROPERTIES, crisp_chacha20_poly1305_functions,
     "crisp ChaCha20-Poly1305"},
    {NULL, NULL, NULL, NULL},
};
static const OSSL_ALGORITHM key_managers[] = {
    {"RSA:rsaEncryption:1.2.840.113549.1.1.1", CRISP_PROVIDER_PROPERTIES, crisp_rsa_keymgmt_functions,
     "RSA keys imported from other providers (no generation)"},
    {NULL, NULL, NULL, NULL},
};
static const OSSL_ALGORITHM signatures[] = {
    {"RSA:rsaEncryption:1.2.840.113549.1.1.1", CRISP_PROVIDER_PROPERTIES, crisp_rsa_signature_functions,
     "RSA PKCS#1 v1.5 and PSS signatures"},
    {NULL, NULL, NULL, NULL},
};

static const OSSL_ALGORITHM *query_operation(void *provctx, int operation_id, int *no_cache) {
  (void)provctx;
  *no_cache = 0;
  switch (operation_id) {
    case OSSL_OP_DIGEST:
      return digests;
    case OSSL_OP_MAC:
      return macs;
    case OSSL_OP_CIPHER:
      return ciphers;
    case OSSL_OP_KEYMGMT:
      return key_managers;
    case OSSL_OP_SIGNATURE:
      return signatures;
    default:
      return NULL;
  }
}

/* Parameter keys of the form "crisp.impl.KERNEL", one per kernel. */
#define IMPL_KEY_PREFIX "crisp.impl."
enum { IMPL_KEY_SIZE = 48 };

/* What a provider instance holds beyond crisp_provider: the keys and the
 * gettable table of its parameters, built from crisp's kernel names. */
typedef struct provider_instance {
  crisp_provider provider; /* first: the provctx OpenSSL passes back */
  char impl_keys[CRISP_KERNEL_COUNT][IMPL_KEY_SIZE];
  OSSL_PARAM gettable[6 + CRISP_KERNEL_COUNT + CRISP_PROV_CALLS_COUNT + 1];
} provider_instance;

/* The parameter names of crisp_provider.calls, in CRISP_PROV_CALLS_ order. */
static const char *const call_counter_names[CRISP_PROV_CALLS_COUNT] = {
    "crisp.calls.md5",
    "crisp.calls.poly1305",
    "crisp.calls.chacha20",
    "crisp.calls.chacha20-poly1305",
};

static const OSSL_PARAM *gettable_params(void *provctx) {
  return ((const provider_instance *)provctx)->gettable;
}

static int get_params(void *provctx, OSSL_PARAM params[]) {
  const provider_instance *instance = provctx;
  OSSL_PARAM *p;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) && !OSSL_PARAM_set_utf8_ptr(p, "crisp provider"))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) &&
      !OSSL_PARAM_set_utf8_ptr(p, crisp_version()))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) &&
      !OSSL_PARAM_set_utf8_ptr(p, "crisp " CRISP_VERSION_STRING))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) && !OSSL_PARAM_set_int(p, 1)) return 0;
  if ((p = OSSL_PARAM_locate(params, "crisp.level")) && !OSSL_PARAM_set_utf8_ptr(p, crisp_level())) return 0;
  if ((p = OSSL_PARAM_locate(params, "crisp.cpu")) && !OSSL_PARAM_set_utf8_ptr(p, crisp_cpu_brand()))
    return 0;
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++)
    if ((p = OSSL_PARAM_locate(params, instance->impl_keys[k])) &&
        !OSSL_PARAM_set_utf8_ptr(p, crisp_impl_name((crisp_kernel)k)))
      return 0;
  for (int c = 0; c < CRISP_PROV_CALLS_COUNT; c++)
    if ((p = OSSL_PARAM_locate(params, call_counter_names[c])) &&
        !OSSL_PARAM_set_uint64(p, __atomic_load_n(&instance->provider.calls[c], __ATOMIC_RELAXED)))
      return 0;
  return 1;
}

static const OSSL_ITEM reason_strings[] = {
    {CRISP_PROV_R_BAD_KEY_LENGTH, "crisp: wrong key length"},
    {CRISP_PROV_R_BAD_IV_LENGTH, "crisp: wrong IV or nonce length"},
    {CRISP_PROV_R_BAD_TAG_LENGTH, "crisp: wrong tag length"},
    {CRISP_PROV_R_TAG_MISMATCH, "crisp: tag mismatch (forged or corrupted message)"},
    {CRISP_PROV_R_BAD_PARAMETER, "crisp: bad parameter"},
    {CRISP_PROV_R_NOT_INITIALIZED, "crisp: operation not initialized with a key"},
    {CRISP_PROV_R_FINISHED, "crisp: operation already finished"},
    {CRISP_PROV_R_NO_MEMORY, "crisp: out of memory"},
    {CRISP_PROV_R_BAD_KEY, "crisp: unusable key"},
    {CRISP_PROV_R_KERNEL_FAILED, "crisp: kernel reported an error"},
    {CRISP_PROV_R_BAD_INPUT_LENGTH, "crisp: wrong input length for this key or digest"},
    {CRISP_PROV_R_SALT_TOO_LONG, "crisp: PSS salt too long for this key and digest"},
    {CRISP_PROV_R_BAD_SIGNATURE, "crisp: signature does not verify"},
    {CRISP_PROV_R_FAULT_DETECTED, "crisp: RSA result failed its check (fault or bad key), nothing released"},
    {CRISP_PROV_R_BUFFER_TOO_SMALL, "crisp: output buffer too small"},
    {0, NULL},
};

static const OSSL_ITEM *get_reason_strings(void *provctx) {
  (void)provctx;
  return reason_strings;
}

void crisp_provider_raise_at(const crisp_provider *provider, const char *file, int line, const char *function,
                             int reason, const char *detail, ...) {
  if (!provider || !provider->new_error) return;
  provider->new_error(provider->handle);
  if (provider->set_error_debug) provider->set_error_debug(provider->handle, file, line, function);
  if (provider->vset_error) {
    va_list args;
    va_start(args, detail);
    provider->vset_error(provider->handle, (uint32_t)reason, detail, args);
    va_end(args);
  }
}

static void teardown(void *provctx) {
  provider_instance *instance = provctx;
  if (!instance) return;
  OSSL_LIB_CTX_free(instance->provider.libctx);
  free(instance);
}

static const OSSL_DISPATCH provider_functions[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))query_operation},
    {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))get_reason_strings},
    {0, NULL},
};

static void build_gettable(provider_instance *instance) {
  static const char *const fixed[] = {OSSL_PROV_PARAM_NAME, OSSL_PROV_PARAM_VERSION,
                                      OSSL_PROV_PARAM_BUILDINFO, "crisp.level", "crisp.cpu"};
  size_t i = 0;
  for (size_t f = 0; f < sizeof fixed / sizeof fixed[0]; f++)
    instance->gettable[i++] = OSSL_PARAM_construct_utf8_ptr(fixed[f], NULL, 0);
  instance->gettable[i++] = OSSL_PARAM_construct_int(OSSL_PROV_PARAM_STATUS, NULL);
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    snprintf(instance->impl_keys[k], IMPL_KEY_SIZE, IMPL_KEY_PREFIX "%s", crisp_kernel_name((crisp_kernel)k));
    instance->gettable[i++] = OSSL_PARAM_construct_utf8_ptr(instance->impl_keys[k], NULL, 0);
  }
  for (int c = 0; c < CRISP_PROV_CALLS_COUNT; c++)
    instance->gettable[i++] = OSSL_PARAM_construct_uint64(call_counter_names[c], NULL);
  instance->gettable[i] = OSSL_PARAM_construct_end();
}

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in, const OSSL_DISPATCH **out,
                       void **provctx) {
  provider_instance *instance = calloc(1, sizeof *instance);
  if (!instance) return 0;
  instance->provider.handle = handle;
  for (const OSSL_DISPATCH *entry = in; entry->function_id; entry++) {
    switch (entry->function_id) {
      case OSSL_FUNC_CORE_NEW_ERROR:
        instance->provider.new_error = OSSL_FUNC_core_new_error(entry);
        break;
      case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
        instance->provider.set_error_debug = OSSL_FUNC_core_set_error_debug(entry);
        break;
      case OSSL_FUNC_CORE_VSET_ERROR:
        instance->provider.vset_error = OSSL_FUNC_core_vset_error(entry);
        break;
      default:
        break;
    }
  }
  instance->provider.libctx = OSSL_LIB_CTX_new_child(handle, in);
  if (!instance->provider.libctx) {
    free(instance);
    return 0;
  }
  build_gettable(instance);
  *out = provider_functions;
  *provctx = instance;
  return 1;
}
