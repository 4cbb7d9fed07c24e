/* provider/rsa_public.c - the RSA public operation s^e mod n, written on
 * crisp's Montgomery multiplication. The exponent is public, so a plain
 * left-to-right square-and-multiply over its bits is fine and costs 17
 * multiplications for e = 65537, where crisp_bn_mod_exp (constant time in
 * the exponent) would walk all 64 bits of its limb with a window table. */
#include <string.h>

#include <openssl/crypto.h>

#include "rsa_key.h"

int crisp_rsa_public_operation(const crisp_rsa_key *key, crisp_limb *result, const crisp_limb *base) {
  size_t limbs = key->limbs;
  crisp_limb *scratch = OPENSSL_zalloc(2 * limbs * sizeof *scratch);
  if (!scratch) return CRISP_E_NOMEM;
  crisp_limb *base_montgomery = scratch, *one = scratch + limbs;
  /* base * R mod n; CRISP_E_RANGE when base >= n. */
  int status = crisp_bn_mont_mul(base_montgomery, base, key->r2, key->n, limbs, key->minv);
  if (status == CRISP_OK) {
    crisp_limb *accumulator = result;
    memcpy(accumulator, base_montgomery, limbs * sizeof *accumulator);
    size_t top = 64 * key->e_limbs - 1;
    while (((key->e[top / 64] >> (top % 64)) & 1) == 0) top--;
    for (size_t bit = top; status == CRISP_OK && bit-- > 0;) {
      status = crisp_bn_mont_sqr(accumulator, accumulator, key->n, limbs, key->minv);
      if (status == CRISP_OK && ((key->e[bit / 64] >> (bit % 64)) & 1))
        status = crisp_bn_mont_mul(accumulator, accumulator, base_montgomery, key->n, limbs, key->minv);
    }
    /* Out of the Montgomery domain: times 1, times R^-1. */
    one[0] = 1;
    if (status == CRISP_OK) status = crisp_bn_mont_mul(result, accumulator, one, key->n, limbs, key->minv);
  }
  /* Called by the private operation's check too, whose base is a result
   * not yet released (and never, when the check fails). */
  OPENSSL_clear_free(scratch, 2 * limbs * sizeof *scratch);
  return status;
}
