/* test/consumer/reference.c - what consumer.c must print, computed by
 * OpenSSL (MD5), libsodium (Poly1305) and GMP (modexp) on the same inputs.
 * It prints no version line; the test adds the expected one. */
#include <gmp.h>
#include <openssl/evp.h>
#include <sodium.h>

#include "inputs.h"

int main(void) {
  static uint8_t message[MESSAGE_SIZE];
  fill_message(message);

  uint8_t digest[EVP_MAX_MD_SIZE];
  unsigned int digest_len = 0;
  if (!EVP_Digest(message, sizeof message, digest, &digest_len, EVP_md5(), NULL)) return 1;
  print_bytes("md5", digest, digest_len);

  uint8_t key[crypto_onetimeauth_poly1305_KEYBYTES], tag[crypto_onetimeauth_poly1305_BYTES];
  fill_key(key);
  crypto_onetimeauth_poly1305(tag, message, sizeof message, key);
  print_bytes("poly1305", tag, sizeof tag);

  uint64_t modulus[MODULUS_LIMBS], base[MODULUS_LIMBS], exponent[MODULUS_LIMBS], result[MODULUS_LIMBS] = {0};
  fill_numbers(modulus, base, exponent);
  mpz_t m, b, e, r;
  mpz_inits(m, b, e, r, NULL);
  mpz_import(m, MODULUS_LIMBS, -1, sizeof modulus[0], 0, 0, modulus);
  mpz_import(b, MODULUS_LIMBS, -1, sizeof base[0], 0, 0, base);
  mpz_import(e, MODULUS_LIMBS, -1, sizeof exponent[0], 0, 0, exponent);
  mpz_powm(r, b, e, m);
  mpz_export(result, NULL, -1, sizeof result[0], 0, 0, r);
  print_limbs("modexp", result, MODULUS_LIMBS);
  mpz_clears(m, b, e, r, NULL);
  return 0;
}
