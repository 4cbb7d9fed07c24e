/* provider/provider.h - what the parts of the OpenSSL provider share: the
 * provider context, raising errors into OpenSSL's error queue, and the
 * dispatch tables each algorithm file defines for provider.c to offer.
 * The provider sits beside the library's front-ends: it calls only the
 * public crisp API (include/crisp/), never src/. */
#ifndef CRISP_PROVIDER_PROVIDER_H
#define CRISP_PROVIDER_PROVIDER_H

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

/* One per loaded provider instance (OpenSSL's provctx). */
typedef struct crisp_provider {
  const OSSL_CORE_HANDLE *handle;
  /* A child library context: what the provider fetches from others
   * (a digest for RSA-PSS, say) comes from the application's providers. */
  OSSL_LIB_CTX *libctx;
  OSSL_FUNC_core_new_error_fn *new_error;
  OSSL_FUNC_core_set_error_debug_fn *set_error_debug;
  OSSL_FUNC_core_vset_error_fn *vset_error;
  /* Calls into crisp's kernels by algorithm (CRISP_PROV_CALLS_*), read as
   * the gettable parameters "crisp.calls.NAME": proof that crisp ran. */
  unsigned long long calls[7];
} crisp_provider;

/* The counters of crisp_provider.calls; their parameter names are in
 * provider.c. */
enum {
  CRISP_PROV_CALLS_MD5,
  CRISP_PROV_CALLS_POLY1305,
  CRISP_PROV_CALLS_CHACHA20,
  CRISP_PROV_CALLS_CHACHA20_POLY1305,
  CRISP_PROV_CALLS_RSA_SIGN,          /* private operations */
  CRISP_PROV_CALLS_RSA_VERIFY,        /* public operations */
  CRISP_PROV_CALLS_RSA_SIGN_PREPARED, /* the private operations on a key prepared at import */
  CRISP_PROV_CALLS_COUNT
};
_Static_assert(CRISP_PROV_CALLS_COUNT == sizeof((crisp_provider *)0)->calls / sizeof(unsigned long long),
               "one counter a name");

/* Counts one call into a kernel; relaxed, since only the total matters. */
static inline void crisp_provider_count(crisp_provider *provider, int counter) {
  if (provider) __atomic_fetch_add(&provider->calls[counter], 1, __ATOMIC_RELAXED);
}

/* The symmetric algorithms, one file each (md5.c, poly1305.c, chacha20.c,
 * chacha20poly1305.c). */
extern const OSSL_DISPATCH crisp_md5_functions[];
extern const OSSL_DISPATCH crisp_poly1305_functions[];
extern const OSSL_DISPATCH crisp_chacha20_functions[];
extern const OSSL_DISPATCH crisp_chacha20_poly1305_functions[];

/* The algorithm parameters of both ciphers (cipher_params.c). */
const OSSL_PARAM *crisp_cipher_gettable_params(void *provctx);
int crisp_cipher_get_params(OSSL_PARAM params[], size_t key_size, size_t iv_size, int aead);

/* The RSA algorithms (rsa_keymgmt.c, rsa_signature.c). */
extern const OSSL_DISPATCH crisp_rsa_keymgmt_functions[];
extern const OSSL_DISPATCH crisp_rsa_signature_functions[];

/* The reasons the provider raises; their strings are in provider.c. */
enum {
  CRISP_PROV_R_BAD_KEY_LENGTH = 1,
  CRISP_PROV_R_BAD_IV_LENGTH,
  CRISP_PROV_R_BAD_TAG_LENGTH,
  CRISP_PROV_R_TAG_MISMATCH,
  CRISP_PROV_R_BAD_PARAMETER,
  CRISP_PROV_R_NOT_INITIALIZED,
  CRISP_PROV_R_FINISHED,
  CRISP_PROV_R_NO_MEMORY,
  CRISP_PROV_R_BAD_KEY,
  CRISP_PROV_R_KERNEL_FAILED,
  CRISP_PROV_R_BAD_INPUT_LENGTH,
  CRISP_PROV_R_SALT_TOO_LONG,
  CRISP_PROV_R_BAD_SIGNATURE,
  CRISP_PROV_R_FAULT_DETECTED,
  CRISP_PROV_R_BUFFER_TOO_SMALL,
  CRISP_PROV_R_COUNT
};

/* Puts `reason` (one of the above) on OpenSSL's error queue, with an
 * optional printf-style detail; a NULL provider (no context) raises
 * nothing. The macro records the caller's file and line. */
void crisp_provider_raise_at(const crisp_provider *provider, const char *file, int line, const char *function,
                             int reason, const char *detail, ...);
#define CRISP_PROV_RAISE(provider, reason, ...) \
  crisp_provider_raise_at((provider), __FILE__, __LINE__, __func__, (reason), __VA_ARGS__)

_Static_assert(CRISP_PROV_CALLS_COUNT == sizeof(((crisp_provider *)0)->calls) / sizeof(unsigned long long),
               "one counter per algorithm");

#endif
