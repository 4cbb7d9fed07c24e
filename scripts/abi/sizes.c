/* scripts/abi/sizes.c - prints the public constants, sizes, alignments and
 * enum values a program compiled against crisp's headers bakes in, one
 * "kind NAME value" line each, for scripts/abi.py to compare with the
 * committed baseline. A kernel or error code added to the headers belongs
 * here too. */
#include <crisp/crisp.h>
#include <stdalign.h>
#include <stdio.h>

#define CONSTANT(name) printf("constant %s %lld\n", #name, (long long)(name))
#define TYPE(type) printf("sizeof %s %zu\nalignof %s %zu\n", #type, sizeof(type), #type, alignof(type))

int main(void) {
  CONSTANT(CRISP_MD5_CTX_SIZE);
  CONSTANT(CRISP_MD5_DIGEST_SIZE);
  CONSTANT(CRISP_MD5_BLOCK_SIZE);
  CONSTANT(CRISP_POLY1305_CTX_SIZE);
  CONSTANT(CRISP_POLY1305_KEY_SIZE);
  CONSTANT(CRISP_POLY1305_TAG_SIZE);
  CONSTANT(CRISP_BN_MONT_MAX_LIMBS);
  CONSTANT(CRISP_CHACHA20_KEY_SIZE);
  CONSTANT(CRISP_CHACHA20_NONCE_SIZE);
  CONSTANT(CRISP_XCHACHA20_NONCE_SIZE);
  CONSTANT(CRISP_CHACHA20_BLOCK_SIZE);
  CONSTANT(CRISP_CHACHA20_POLY1305_TAG_SIZE);
  CONSTANT(CRISP_CHACHA20_POLY1305_MAX_LEN);
  CONSTANT(CRISP_CHACHA20_POLY1305_CTX_SIZE);
  CONSTANT(CRISP_AEAD_SEAL);
  CONSTANT(CRISP_AEAD_OPEN);
  TYPE(crisp_md5_ctx);
  TYPE(crisp_poly1305_ctx);
  TYPE(crisp_limb);
  TYPE(crisp_kernel);
  TYPE(crisp_chacha20_poly1305_ctx);
  TYPE(crisp_aead_direction);

  CONSTANT(CRISP_OK);
  CONSTANT(CRISP_E_INVALID);
  CONSTANT(CRISP_E_RANGE);
  CONSTANT(CRISP_E_UNSUPPORTED);
  CONSTANT(CRISP_E_MISMATCH);
  CONSTANT(CRISP_E_NOMEM);

  CONSTANT(CRISP_KERNEL_MD5);
  CONSTANT(CRISP_KERNEL_MD5_MANY);
  CONSTANT(CRISP_KERNEL_POLY1305);
  CONSTANT(CRISP_KERNEL_BN_MUL);
  CONSTANT(CRISP_KERNEL_BN_SQR);
  CONSTANT(CRISP_KERNEL_BN_MUL_ADD);
  CONSTANT(CRISP_KERNEL_BN_MONT_MUL);
  CONSTANT(CRISP_KERNEL_BN_MONT_SQR);
  CONSTANT(CRISP_KERNEL_BN_MOD_EXP2);
  CONSTANT(CRISP_KERNEL_CHACHA20);
  CONSTANT(CRISP_KERNEL_COUNT);
  return 0;
}
