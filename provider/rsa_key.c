/* provider/rsa_key.c - conversions between crisp's limbs and the
 * big-endian byte strings of PKCS#1, written byte by byte so they hold on
 * hosts of either byte order. */
#include "rsa_key.h"

#include <string.h>

int crisp_rsa_bytes_to_limbs(crisp_limb *limbs, size_t count, const unsigned char *bytes, size_t length) {
  /* Leading zero bytes may exceed the room; anything else must fit. */
  while (length > 8 * count) {
    if (bytes[0] != 0) return 0;
    bytes++;
    length--;
  }
  memset(limbs, 0, count * sizeof *limbs);
  for (size_t i = 0; i < length; i++) {
    size_t from_end = length - 1 - i;
    limbs[from_end / 8] |= (crisp_limb)bytes[i] << (8 * (from_end % 8));
  }
  return 1;
}

int crisp_rsa_limbs_to_bytes(unsigned char *bytes, size_t length, const crisp_limb *limbs, size_t count) {
  for (size_t from_end = length; from_end < 8 * count; from_end++)
    if ((limbs[from_end / 8] >> (8 * (from_end % 8))) & 0xff) return 0;
  for (size_t i = 0; i < length; i++) {
    size_t from_end = length - 1 - i;
    bytes[i] = from_end < 8 * count ? (unsigned char)(limbs[from_end / 8] >> (8 * (from_end % 8))) : 0;
  }
  return 1;
}

size_t crisp_rsa_key_size(const crisp_rsa_key *key) {
  return (key->bits + 7) / 8;
}
