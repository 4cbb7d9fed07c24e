/* test/install/client.c - a program built only from an installed crisp (its
 * headers and `pkg-config --cflags --libs crisp`) that checks MD5, Poly1305
 * and modexp against OpenSSL, libsodium and GMP on the same inputs.
 * scripts/test.sh builds it twice, against the shared and the static library.
 * Exit status 0 when every result matches, 1 otherwise. */
#include <crisp/crisp.h>

#include <gmp.h>
#include <openssl/evp.h>
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Deterministic filler so a failure can be reproduced; not a secret source. */
static uint64_t next_random(uint64_t *state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

static void fill(uint8_t *buffer, size_t len, uint64_t *state) {
  for (size_t i = 0; i < len; i++) buffer[i] = (uint8_t)next_random(state);
}

static int report(const char *what, int same) {
  printf("%-34s %s\n", what, same ? "ok" : "MISMATCH");
  return same ? 0 : 1;
}

static int check_md5(uint64_t *state) {
  static const size_t lengths[] = {0, 1, 55, 56, 64, 1000, 65537};
  static uint8_t message[65537];
  fill(message, sizeof message, state);
  int failures = 0;
  for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
    uint8_t ours[CRISP_MD5_DIGEST_SIZE], theirs[EVP_MAX_MD_SIZE];
    unsigned int theirs_len = 0;
    crisp_md5(message, lengths[i], ours);
    if (!EVP_Digest(message, lengths[i], theirs, &theirs_len, EVP_md5(), NULL)) return 1;
    char what[64];
    snprintf(what, sizeof what, "md5 %zu bytes vs OpenSSL", lengths[i]);
    failures += report(what, theirs_len == sizeof ours && memcmp(ours, theirs, sizeof ours) == 0);
  }
  return failures;
}

static int check_poly1305(uint64_t *state) {
  static const size_t lengths[] = {0, 15, 16, 17, 256, 4097};
  static uint8_t message[4097];
  int failures = 0;
  for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
    uint8_t key[CRISP_POLY1305_KEY_SIZE], ours[CRISP_POLY1305_TAG_SIZE];
    uint8_t theirs[crypto_onetimeauth_poly1305_BYTES];
    fill(key, sizeof key, state);
    fill(message, lengths[i], state);
    crisp_poly1305(ours, message, lengths[i], key);
    crypto_onetimeauth_poly1305(theirs, message, lengths[i], key);
    char what[64];
    snprintf(what, sizeof what, "poly1305 %zu bytes vs libsodium", lengths[i]);
    failures += report(what, memcmp(ours, theirs, sizeof ours) == 0 &&
                                 crisp_poly1305_verify(theirs, message, lengths[i], key) == CRISP_OK);
  }
  return failures;
}

/* Limbs to and from GMP integers, least significant limb first. */
static void to_mpz(mpz_t out, const crisp_limb *limbs, size_t n) {
  mpz_import(out, n, -1, sizeof(crisp_limb), 0, 0, limbs);
}

static int check_mod_exp(uint64_t *state) {
  static const size_t sizes[] = {1, 8, 16, 32}; /* 64 to 2048-bit moduli */
  int failures = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    const size_t n = sizes[i];
    crisp_limb m[32], base[32], exp[32], r[32] = {0};
    for (size_t j = 0; j < n; j++) m[j] = next_random(state), exp[j] = next_random(state);
    m[0] |= 1;                       /* odd */
    m[n - 1] |= (crisp_limb)1 << 63; /* full size */
    for (size_t j = 0; j < n; j++) base[j] = next_random(state);
    base[n - 1] >>= 1; /* below m, whose top bit is set */
    const int status = crisp_bn_mod_exp(r, base, exp, n, m, n);

    mpz_t gm, gbase, gexp, gr, ours;
    mpz_inits(gm, gbase, gexp, gr, ours, NULL);
    to_mpz(gm, m, n);
    to_mpz(gbase, base, n);
    to_mpz(gexp, exp, n);
    to_mpz(ours, r, n);
    mpz_powm(gr, gbase, gexp, gm);
    char what[64];
    snprintf(what, sizeof what, "modexp %zu bits vs GMP", n * 64);
    failures += report(what, status == CRISP_OK && mpz_cmp(gr, ours) == 0);
    mpz_clears(gm, gbase, gexp, gr, ours, NULL);
  }
  return failures;
}

int main(void) {
  if (sodium_init() < 0) {
    fprintf(stderr, "client: sodium_init failed\n");
    return 1;
  }
  printf("crisp level %s; md5 %s, poly1305 %s, bn_mont_mul %s\n", crisp_level(),
         crisp_impl_name(CRISP_KERNEL_MD5), crisp_impl_name(CRISP_KERNEL_POLY1305),
         crisp_impl_name(CRISP_KERNEL_BN_MONT_MUL));
  uint64_t state = 0x9e3779b97f4a7c15u;
  int failures = check_md5(&state) + check_poly1305(&state) + check_mod_exp(&state);
  printf("client: %s\n", failures ? "FAILED" : "all results match");
  return failures ? 1 : 0;
}
