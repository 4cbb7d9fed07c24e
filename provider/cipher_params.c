/* provider/cipher_params.c - the algorithm parameters both crisp ciphers
 * answer (EVP_CIPHER_get_params): a stream cipher, one-byte blocks, an IV
 * the cipher reads itself, and its own key and IV sizes. */
#include "provider.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

static const OSSL_PARAM cipher_gettable[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
    OSSL_PARAM_END,
};

const OSSL_PARAM *crisp_cipher_gettable_params(void *provctx) {
  (void)provctx;
  return cipher_gettable;
}

int crisp_cipher_get_params(OSSL_PARAM params[], size_t key_size, size_t iv_size, int aead) {
  OSSL_PARAM *p;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE)) &&
      !OSSL_PARAM_set_uint(p, EVP_CIPH_STREAM_CIPHER))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !OSSL_PARAM_set_size_t(p, key_size))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !OSSL_PARAM_set_size_t(p, iv_size))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE)) && !OSSL_PARAM_set_size_t(p, 1)) return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD)) && !OSSL_PARAM_set_int(p, aead)) return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CUSTOM_IV)) && !OSSL_PARAM_set_int(p, 1)) return 0;
  return 1;
}
