/* test/consumer/consumer.c - a program that uses crisp the way an outside
 * project does (meson subproject, pkg-config, CMake, plain cc): prints an
 * MD5, a Poly1305 tag and a modexp result for reference.c to confirm, and
 * the version, after checking the header and the library agree on it. */
#include <crisp/crisp.h>
#include <string.h>

#include "inputs.h"

#if !defined(CRISP_VERSION_NUMBER) || CRISP_VERSION_NUMBER < 100
#error "the crisp headers in use are older than 0.1.0"
#endif

int main(void) {
  static uint8_t message[MESSAGE_SIZE];
  fill_message(message);

  uint8_t digest[CRISP_MD5_DIGEST_SIZE];
  crisp_md5(message, sizeof message, digest);
  print_bytes("md5", digest, sizeof digest);

  uint8_t key[CRISP_POLY1305_KEY_SIZE], tag[CRISP_POLY1305_TAG_SIZE];
  fill_key(key);
  crisp_poly1305(tag, message, sizeof message, key);
  print_bytes("poly1305", tag, sizeof tag);

  crisp_limb modulus[MODULUS_LIMBS], base[MODULUS_LIMBS], exponent[MODULUS_LIMBS], result[MODULUS_LIMBS];
  fill_numbers(modulus, base, exponent);
  int status = crisp_bn_mod_exp(result, base, exponent, MODULUS_LIMBS, modulus, MODULUS_LIMBS);
  if (status != CRISP_OK) {
    fprintf(stderr, "consumer: crisp_bn_mod_exp: %s\n", crisp_strerror(status));
    return 1;
  }
  print_limbs("modexp", result, MODULUS_LIMBS);

  if (strcmp(crisp_version(), CRISP_VERSION_STRING) != 0) {
    fprintf(stderr, "consumer: headers say %s, library says %s\n", CRISP_VERSION_STRING, crisp_version());
    return 1;
  }
  printf("version %s\n", crisp_version());
  return 0;
}
